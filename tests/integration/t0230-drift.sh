#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Why abbench interleaves: an A/A experiment whose command gets slower with
# every execution (steady drift) looks like a real difference when the arms
# run one after the other (sequential), and like no difference when they
# alternate (AB BA AB BA).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

db=$TEST_TMP/drift.db
# The counter on a tmpfs: under an I/O burner on the root disk, writes
# there wait for writeback (here: median 13.5 ms, up to 0.52 s against
# 0.2 ms on /dev/shm), which scrambles a drift of 20 ms per execution.
counter=$(mktemp /dev/shm/abbench-drift.XXXXXX 2>/dev/null) ||
    counter=$TEST_TMP/counter
trap 'rm -f "$counter"; lib_cleanup' EXIT
mk() {
	rm -f "$counter"
	cat > "$TEST_TMP/drift.ini" <<EOF2
[experiment]
name = drift
rounds = 8

[arm a]
[arm b]

[workload Drift]
type = command
; each execution sleeps 20 ms longer than the one before, a step
; well above the timing noise of a loaded 2-core machine
args = sh -c "n=\$(cat $counter 2>/dev/null || echo 0); echo \$((n + 1)) > $counter; sleep \$(awk -v n=\$n 'BEGIN { print 0.02 + n * 0.02 }')"
EOF2
}

mk
"$ABBENCH" run "$TEST_TMP/drift.ini" --db "$db" --order sequential --quiet 2>/dev/null
ok $? "the A/A experiment runs sequentially"
seq=$("$ABBENCH" stat --db "$db" last)
diag "$seq"
like "$seq" "Drift(-[0-9]+)? +[0-9.]+m ± [0-9]+% +[0-9.]+m ± [0-9]+% +\+[0-9.]+% \(p=0\.00[0-9] n=8\)" "sequential: drift reads as a significant slowdown of b"

mk
"$ABBENCH" run "$TEST_TMP/drift.ini" --db "$db" --order alternate --quiet 2>/dev/null
ok $? "the A/A experiment runs alternating"
alt=$("$ABBENCH" stat --db "$db" last)
diag "$alt"
like "$alt" "Drift(-[0-9]+)? .* ~ \(p=[0-9.]+ n=8\)" "alternate: no significant difference"
done_testing
