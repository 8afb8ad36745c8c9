#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 17: containers labelled abbench.run that a
# killed run left and no journal names (a kill -9 as the daemon created
# one, a sweep that ran before it finished, another state directory)
# stayed: `abbench restore` saw only what its journal named. Containers
# now carry abbench.owner (the pid and start of the abbench that made
# them); restore removes every labelled container whose owner is gone,
# journaled or not, and never one whose owner lives.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd busybox runc
[ -x "$TOUCHMEM" ] || skip_all "no touchmem"
require_dockerd
cd "$TEST_TMP" || exit 1
lc_image
TAG=t0538-$$
trap 'ABBENCH_STATE_DIR=$TEST_TMP/stateA "$ABBENCH" restore >/dev/null 2>&1
    docker ps -a -q --filter "label=abbench.workload=$TAG" |
    xargs -r docker rm -f >/dev/null 2>&1
    docker ps -a -q --filter "label=t0538=$$" | xargs -r docker rm -f \
    >/dev/null 2>&1; docker rmi -f "$LC_IMAGE" >/dev/null 2>&1
    lib_cleanup' EXIT
mine() { docker ps -a -q --filter "label=abbench.workload=$TAG"; }

cat >s.ini <<EOI
[experiment]
name = t0538
rounds = 1
[arm a]
runtime = runc
[arm b]
runtime = runc
[workload $TAG]
type = command
executor = docker
image = $LC_IMAGE
args = sleep 60
EOI
# The run journals into state A; restore reads state B, which names
# nothing of it.
ABBENCH_STATE_DIR=$TEST_TMP/stateA "$ABBENCH" run s.ini --db s.db --quiet \
    >run.out 2>&1 &
pid=$!
i=0
while [ -z "$(mine)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
c=$(mine)
ok "$(test -n "$c"; echo $?)" "the run's container is up ($c)"
like "$(docker inspect -f '{{index .Config.Labels "abbench.owner"}}' "$c")" \
    "^$pid/[0-9a-f-]+:[0-9]+\$" "it is labelled with its owner, the run's pid and start"
ABBENCH_STATE_DIR=$TEST_TMP/stateB "$ABBENCH" restore >r1.out 2>&1
is "$(mine)" "$c" "restore leaves a live run's container alone"
kill -9 "$pid"
wait "$pid" 2>/dev/null
ABBENCH_STATE_DIR=$TEST_TMP/stateB "$ABBENCH" restore >r2.out 2>&1
is "$?" 0 "restore after the run's kill -9, from a journal that names nothing"
is "$(mine)" "" "the container is gone"
like "$(cat r2.out)" "restored: removed container '$(printf %.12s "$c")' \(labelled abbench.run, journaled nowhere, its abbench process gone\)" \
    "  and said so"
# The run's own journal (state A) still undoes the rest of it.
ABBENCH_STATE_DIR=$TEST_TMP/stateA "$ABBENCH" restore >r2a.out 2>&1
is "$?" 0 "restore from the run's own journal"
lc_no_leftovers s.db 1 "the killed run"

# Created, never started (as a kill between create and start leaves one):
# its owner gone, removed; its owner alive, kept; no owner label (an older
# abbench), left with a note.
owner_of() {	# owner_of PID: "PID/BOOT:START" as abbench labels it
	printf '%s/%s:%s' "$1" "$(cat /proc/sys/kernel/random/boot_id)" \
	    "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20)"
}
sleep 30 &
dead=$!
dead_owner=$(owner_of "$dead")
kill "$dead"
wait "$dead" 2>/dev/null
uuid=00000000-0533-4000-8000-$(printf '%012d' $$)
gone=$(docker create --label "abbench.run=$uuid" --label "t0538=$$" \
    --label "abbench.owner=$dead_owner" "$LC_IMAGE" true)
live=$(docker create --label "abbench.run=$uuid" --label "t0538=$$" \
    --label "abbench.owner=$(owner_of $$)" "$LC_IMAGE" true)
old=$(docker create --label "abbench.run=$uuid" --label "t0538=$$" \
    "$LC_IMAGE" true)
ABBENCH_STATE_DIR=$TEST_TMP/stateB "$ABBENCH" restore >r3.out 2>&1
is "$(docker ps -a -q --no-trunc --filter "label=t0538=$$" | sort)" \
    "$(printf '%s\n%s\n' "$live" "$old" | sort)" \
    "created containers: the dead owner's removed, the live one's and the unowned kept"
like "$(cat r3.out)" "note: container $(printf %.12s "$old") \\(created, run $uuid\\) is labelled abbench.run by an abbench that named no owner" \
    "  the unowned one named in a note"
done_testing
