#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Nightly across a fleet: history is keyed by host class (partition and
# vcpus), not by hostname, since cloud nodes are new every night.
#
# Mock: one machine cannot be a different Slurm node each night, so the
# four nights of history are real runs of the experiment made as Slurm's
# jobs would be on nodes node-0..node-3 (a UTS namespace with that
# hostname, SLURM_JOB_PARTITION, SLURMD_NODENAME and SLURM_JOB_ID set).
# Tonight is a real fleet on the local Slurm (partitions c2 and c4, node
# "vm" below a hostname none of the history has), merged into the history:
# a 5% step in c4 only exits 1 naming c4; the same night without the step
# exits 0.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm
require_cmd unshare hostname

# The metric is the peak RSS of dd with a 40 MiB buffer (about 43.6 MB
# with dd itself): steady to 0.1% even on a busy machine, unlike a time.
# The step: c4's buffer grows by 5% of that peak (2.18 MB), on c4 only,
# as a change that hurts one machine type would.
mkexp() {	# mkexp FILE C4_BUFFER_BYTES
	cat >"$1" <<INI
[experiment]
name = t1320-nightly
rounds = 5

[arm main]
args = sh -c "case \$SLURM_JOB_PARTITION in c4) exec dd if=/dev/zero of=/dev/null bs=$2 count=1 status=none ;; *) exec dd if=/dev/zero of=/dev/null bs=41943040 count=1 status=none ;; esac"

[workload Dd]
type   = command
report = rss
INI
}
mkexp "$TEST_TMP/flat.ini" 41943040
mkexp "$TEST_TMP/step.ini" 44125540

HIST=$TEST_TMP/history.db
night=0
while [ "$night" -lt 4 ]; do
	for p in c2 c4; do
		node=node-$night-$p
		unshare -u sh -c 'hostname "$1" && shift && exec "$@"' sh \
		    "$node" env SLURM_JOB_PARTITION="$p" SLURMD_NODENAME="$node" \
		    SLURM_JOB_ID="$((night * 10 + ${p#c}))" \
		    ABBENCH_FLEET_ID="mock-night-$night" \
		    "$ABBENCH" run "$TEST_TMP/flat.ini" --db "$HIST" --quiet \
		    || fail "night $night, $p: abbench run"
	done
	night=$((night + 1))
done
is "$(db_count "$HIST" "SELECT count(DISTINCT host) FROM runs")" 8 \
    "8 nights x shapes of history on 8 different hosts"
is "$(db_count "$HIST" "SELECT count(DISTINCT value) FROM run_config WHERE key = 'node'")" 8 \
    "... and 8 different node names"
"$ABBENCH" db merge --db "$TEST_TMP/history-flat.db" "$HIST" >/dev/null
ok $? "a copy of the history for the night without the step"

tonight() {	# tonight EXP HISTORY: a real fleet, merged into HISTORY
	out=$("$ABBENCH" fleet submit "$1" --partitions c2,c4 --dir "$SHARED" \
	    --wait 2>/dev/null)
	rc=$?
	FLEET=$(fleet_id "$out")
	[ "$rc" = 0 ] && "$ABBENCH" db merge --db "$2" \
	    "$SHARED/$FLEET/fleet.db" >/dev/null
}

# Tonight with c4 5% slower.
tonight "$TEST_TMP/step.ini" "$HIST"
ok $? "tonight's fleet (with the step) ran and was merged"
"$ABBENCH" nightly --db "$HIST" --fleet "$FLEET" --baseline 4 \
    --threshold 3 >"$TEST_TMP/step.out" 2>"$TEST_TMP/step.err"
is "$?" 1 "a 5% step in one shape: nightly --fleet exits 1"
like "$(cat "$TEST_TMP/step.err")" "1 of 2 shapes regressed: c4/vcpus=$(nproc)" \
    "it names the regressed shape, c4"
like "$(grep -A1 '^# shape c4/' "$TEST_TMP/step.out" | tail -n 1)" '^regressed +Dd(-[0-9]+)? +max-rss-B +new change at night 5 \(run [0-9]+\): \+[4-6]\.[0-9]+% vs 4 nights, night test ' \
    "c4's peak RSS is regressed, by about 5%"
like "$(grep -A1 '^# shape c2/' "$TEST_TMP/step.out" | tail -n 1)" '^unchanged +Dd(-[0-9]+)? ' \
    "c2's is unchanged"
like "$(grep '^# shape c4/' "$TEST_TMP/step.out")" \
    'on vm against 4 baseline runs, 5 nights of history' \
    "c4's history is found across node names (4 nights + tonight)"
like "$(grep '^# shape c2/' "$TEST_TMP/step.out")" '5 nights of history' \
    "c2's history too, and only c2's"

json=$("$ABBENCH" nightly --db "$HIST" --fleet "$FLEET" --baseline 4 \
    --threshold 3 --json -q 2>/dev/null)
is "$?" 1 "--json: exit 1 too"
if command -v python3 >/dev/null 2>&1; then
	got=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(len(d), " ".join(x["host_class"].split("/")[0] + ":" + str(x["regressed"]) for x in d))')
	is "$got" "2 c2:0 c4:1" "--json: one document per shape, c4 regressed"
else
	like "$json" '"host_class"' "--json: the host class is there"
fi

# The same night without the step.
tonight "$TEST_TMP/flat.ini" "$TEST_TMP/history-flat.db"
ok $? "tonight's fleet (without the step) ran and was merged"
"$ABBENCH" nightly --db "$TEST_TMP/history-flat.db" --fleet last \
    --baseline 4 --threshold 3 >"$TEST_TMP/flat.out" 2>"$TEST_TMP/flat.err"
rc=$?
is "$rc" 0 "without the step: exit 0"
[ "$rc" = 0 ] || diag "$(cat "$TEST_TMP/flat.out" "$TEST_TMP/flat.err")"
is "$(grep -c '^# shape' "$TEST_TMP/flat.out")" 2 "both shapes judged (--fleet last)"
is "$(grep -c '^regressed' "$TEST_TMP/flat.out")" 0 "nothing regressed"

done_testing
