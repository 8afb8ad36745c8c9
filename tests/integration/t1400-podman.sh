#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t1400-podman: the podman executor (exec/exec-podman.c) is a second
# container daemon behind exec_ops, rootful, with runc and runsc as its
# OCI runtimes and the tools image imported offline
# (scripts/build-image --podman):
#  - fio: 2 containers started together, one under runc, one under runsc;
#  - startup: `podman run --rm` and create + start, under runc and runsc;
#  - idle-memory: runsc's gofer and sandbox found under conmon;
#  - no container of the runs is left, and after kill -9 `abbench
#    restore` removes the one a killed run left, through the executor's
#    own undo (journal kind podman-container).
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd podman runsc sqlite3
podman image exists abbench/tools:latest ||
    skip_all "no podman image abbench/tools (scripts/build-image --podman)"

DB=$TEST_TMP/t.db
labelled() {
	podman ps -a -q --filter "label=abbench.run=$1" | wc -l | tr -d ' '
}
uuid_of() {
	sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $1"
}
rows() {	# RUN ARM BENCHMARK-PREFIX UNIT: ok samples with a value > 0
	sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = $1 AND
	    arm = '$2' AND benchmark LIKE '$3%' AND unit = '$4' AND
	    status = 'ok' AND value > 0"
}

# fio: two readers at once, one per runtime. How well they overlap is
# t0600's subject; here the executor must run both and report each.
mkdir -p "$TEST_TMP/data"
cat >"$TEST_TMP/fio.ini" <<EOI
[experiment]
name = t1400-fio
rounds = 2
timeout = 120s
[arm a]
[workload Fio]
type = fio
executor = podman
containers = 2
runtimes = runc runsc
size = 8m
duration = 1s
overlap-min = 0
dir = $TEST_TMP/data
EOI
"$ABBENCH" run "$TEST_TMP/fio.ini" --db "$DB" --quiet >"$TEST_TMP/fio.out" 2>&1
ok $? "fio with 2 podman containers (runc, runsc) runs"
run=$(lc_last_run "$DB")
is "$(rows "$run" a Fio/runc- iops)" 2 "2 runc iops samples"
is "$(rows "$run" a Fio/runsc- iops)" 2 "2 runsc iops samples"
is "$(labelled "$(uuid_of "$run")")" 0 "no fio container left"

cat >"$TEST_TMP/su.ini" <<EOI
[experiment]
name = t1400-startup
rounds = 1
timeout = 120s
[arm runc]
runtime = runc
[arm runsc]
runtime = runsc
[workload startup]
type = startup
executor = podman
cmd = true
measure = run create-start
[workload idle]
type = idle-memory
executor = podman
containers = 2
settle = 250ms
EOI
"$ABBENCH" run "$TEST_TMP/su.ini" --db "$DB" --quiet >"$TEST_TMP/su.out" 2>&1
ok $? "startup and idle-memory under podman run"
run=$(lc_last_run "$DB")
for a in runc runsc; do
	is "$(rows "$run" $a DockerRun- sec/op)" 1 "$a: podman run --rm timed"
	is "$(rows "$run" $a StartupEmpty- sec/op)" 1 \
	    "$a: podman create + start timed"
	is "$(rows "$run" $a ContainerNonReclaimableMem- B)" 1 \
	    "$a: idle containers' memory"
done
is "$(rows "$run" runsc GoferMem- Pss-B)" 2 \
    "runsc: each idle container's gofer found under conmon"
is "$(rows "$run" runc GoferMem- Pss-B)" 0 "runc: no gofer"
is "$(labelled "$(uuid_of "$run")")" 0 "no startup or idle container left"

# kill -9 while the idle containers settle; restore removes them.
sed -i 's/^settle = 250ms$/settle = 60s/; s/^measure = .*/measure = run/' \
    "$TEST_TMP/su.ini"
"$ABBENCH" run "$TEST_TMP/su.ini" --db "$DB" --quiet >"$TEST_TMP/k.out" 2>&1 &
pid=$!
i=0 n=0
while [ $i -lt 300 ]; do
	run=$(lc_last_run "$DB")
	uuid=$(uuid_of "$run")
	n=$(labelled "$uuid")
	[ "$n" -ge 2 ] && break
	sleep 0.2
	i=$((i + 1))
done
ok "$([ "$n" -ge 2 ]; echo $?)" "the killed run's idle containers exist ($n)"
ids=$(podman ps -a -q --no-trunc --filter "label=abbench.run=$uuid")
kill -9 $pid
wait $pid 2>/dev/null
(cd / && "$ABBENCH" restore) >"$TEST_TMP/r.out" 2>&1
ok $? "abbench restore exits 0"
like "$(cat "$TEST_TMP/r.out")" "removed podman container '[^']+'" \
    "restore removed them through the podman executor's undo"
is "$(labelled "$uuid")" 0 "no container of the killed run left"
# What podman ps no longer shows: the runtime's state and the container's
# cgroups. A restore that killed conmon (its command line names the
# container) left both, "stopped" in `runc list`, for good.
left=
for id in $ids; do
	runc list -q 2>/dev/null | grep -qx "$id" && left="$left runc:$id"
	for d in /sys/fs/cgroup/*/libpod_parent/libpod-$id*; do
		[ -d "$d" ] && left="$left $d"
	done
done
is "$left" "" "no runc state or libpod cgroup of its containers left"

done_testing
