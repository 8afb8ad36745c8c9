#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench nightly EXP --fleet all` on a cluster of four hosts (two
# shapes): it submits the experiment to every partition, waits, merges
# the fleet into the history database and judges each shape against its
# own host class's history (c1/vcpus=1, c2/vcpus=2: a night each, then
# two). Then both c2 nodes die: the c2 shape is reported missing (its
# nodes named), not passing, nothing is submitted there, c1 is still
# judged against its own nights, and the exit status is the worst
# shape's (1; with --strict, 3 when every shape is judged and one is
# inconclusive, 1 still when one is missing).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm_nodes 4

cat >"$SHARED/n.ini" <<'INI'
[experiment]
name = t1345-nightly
rounds = 3

[arm a]
args = /bin/sleep 0.05

[workload Cmd]
type = command
INI
H=$TEST_TMP/history.db
night() {
	env -u ABBENCH_STATE_DIR -u TMPDIR "$ABBENCH" nightly "$SHARED/n.ini" \
	    --db "$H" --fleet all --fleet-dir "$SHARED" --fleet-time 7 "$@"
}
T0=$(date +%s)

night >"$TEST_TMP/n1" 2>"$TEST_TMP/e1"
is "$?" 0 "night 1, every shape up: exit 0"
file_like "$TEST_TMP/n1" '^# shape c1/vcpus=1: run [0-9]* on c1-n[12] against 0 baseline runs, 1 night of history' \
    "c1 judged as its own shape"
file_like "$TEST_TMP/n1" '^# shape c2/vcpus=2: run [0-9]* on c2-n[12] against 0 baseline runs, 1 night of history' \
    "c2 judged as its own shape"
file_like "$TEST_TMP/e1" 'merged 2 runs' "both shapes' runs merged into the history"
is "$(db_count "$H" "SELECT group_concat(value, ' ') FROM (SELECT value FROM run_config WHERE key = 'partition' ORDER BY value)")" \
    "c1 c2" "the history holds a run of each partition"
F1=$(sed -n 's/^nightly: fleet \([^:]*\): merged.*/\1/p' "$TEST_TMP/e1")
is "$(for j in $(db_count "$SHARED/$F1/fleet.db" "SELECT job_id FROM fleet_jobs"); do scontrol show job -o "$j" | sed -n 's/.* TimeLimit=\([^ ]*\) .*/\1/p'; done | sort -u)" \
    "00:07:00" "each shape's job got --fleet-time as its time limit"
"$ABBENCH" nightly --db "$H" --fleet "$F1" --strict -q >/dev/null 2>&1
is "$?" 3 "--strict: every shape inconclusive (one night), so the fleet is (3)"

night >"$TEST_TMP/n2" 2>"$TEST_TMP/e2"
is "$?" 0 "night 2: exit 0"
file_like "$TEST_TMP/n2" '^# shape c1/vcpus=1: .* against 1 baseline run, 2 nights of history' \
    "c1 against its own first night"
file_like "$TEST_TMP/n2" '^# shape c2/vcpus=2: .* against 1 baseline run, 2 nights of history' \
    "c2 against its own first night"

# Both c2 nodes die; Slurm is told at once (it would find out within
# SlurmdTimeout by itself).
for n in c2-n1 c2-n2; do
	"$ABBENCH_SRCDIR/scripts/slurm-nodes" --kill "$n"
done
scontrol update nodename=c2-n1,c2-n2 state=down reason=t1345-died
jobs_before=$(squeue -h -t all -p c2 -o %i | wc -l)
night >"$TEST_TMP/n3" 2>"$TEST_TMP/e3"
is "$?" 1 "night 3, c2's nodes all down: exit 1 (the worst shape's)"
while IFS= read -r l; do diag "$l"; done <"$TEST_TMP/n3"
while IFS= read -r l; do diag "$l"; done <"$TEST_TMP/e3"
file_like "$TEST_TMP/n3" '^# shape c1/vcpus=1: .* against 2 baseline runs, 3 nights of history' \
    "c1 still judged against its own nights"
file_like "$TEST_TMP/n3" '^# shape c2: missing: all its nodes are down or drained: c2-n1 down.*, c2-n2 down' \
    "c2 reported missing, its nodes named"
file_like "$TEST_TMP/e3" '1 of 2 shapes missing .not judged, not passing.: c2' \
    "the summary names it"
is "$(squeue -h -t all -p c2 -o %i | wc -l)" "$jobs_before" \
    "no job submitted to c2"
night --strict -q >/dev/null 2>&1
is "$?" 1 "--strict: a missing shape is worse than an inconclusive one (1)"
night --json -q >"$TEST_TMP/n4.json" 2>/dev/null
is "$?" 1 "--json: exit 1 too"
is "$(jq -r '.[] | select(.verdict == "missing") | .shape' "$TEST_TMP/n4.json")" \
    c2 "--json: c2's object says missing"
is "$(jq -r '.[] | select(.host_class != null) | .host_class' "$TEST_TMP/n4.json")" \
    c1/vcpus=1 "--json: c1's verdicts"
diag "t1345's nights took $(( $(date +%s) - T0 )) s"

done_testing
