#!/bin/sh
# cpu-steady with executor oci (runsc driven from a generated bundle, as
# experiments/quota-steady-state.ini does): every metric is stored, the
# programs are told to report through the runtime (`runsc kill ID TERM`)
# so a sample takes its warm-up and window, not the programs' safety
# limit, and no container, cgroup or bundle of the run is left.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runsc sqlite3

DB=$TEST_TMP/q.db
cat >"$TEST_TMP/q.ini" <<EOF2
[experiment]
name = t0740
rounds = 1
timeout = 3m

[arm ptrace]
runtime      = runsc
runtime-args = --network=none --platform=ptrace

[workload Burner]
type      = cpu-steady
executor  = oci
program   = Burner
sandboxes = 2
quota     = leaf
cpu       = 0.25
warmup    = 1s
window    = 3s
EOF2

start=$(date +%s)
"$ABBENCH" run "$TEST_TMP/q.ini" --db "$DB" --quiet >"$TEST_TMP/run.out" 2>&1
rc=$?
ok $rc "abbench run of 2 runsc sandboxes with executor oci"
[ $rc -eq 0 ] || diag "$(cat "$TEST_TMP/run.out")"
took=$(( $(date +%s) - start ))
ok "$([ "$took" -lt 40 ]; echo $?)" "the sample ends after its window, not the programs' safety limit (${took} s)"
for u in overhead/app-cpu host-ctxsw/s work/s throttled-periods; do
	v=$(sqlite3 "$DB" "SELECT value FROM samples WHERE status = 'ok' AND unit = '$u'")
	ok "$(awk -v v="$v" 'BEGIN { exit !(v != "" && v + 0 > 0) }'; echo $?)" "$u is stored and positive ($v)"
done
uuid=$(sqlite3 "$DB" "SELECT substr(uuid, 1, 8) FROM runs")
is "$(ls -d /sys/fs/cgroup/*/abbench-"$uuid"* /sys/fs/cgroup/*/*/*/abbench-"$uuid"* 2>/dev/null | wc -l)" 0 "no cgroup of the run is left"
is "$(ls -d /tmp/abbench-"$uuid"* 2>/dev/null | wc -l)" 0 "no bundle of the run is left"
is "$(runsc --root /var/run/runsc list -quiet 2>/dev/null | grep -c "$uuid")" 0 "no runsc container of the run is left"
is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state <> 'restored'")" 0 "nothing pending in the journal"
done_testing
