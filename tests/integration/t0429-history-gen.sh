#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/history-gen, small: 2 shapes x 8 rows (2 workloads x 4 metrics) x
# 2 arms x 3 rounds x 12 nights through the store's API: every value is
# stored (1152), db check is clean, each night is a fleet of its shapes
# that nightly judges, the truth file names its events with nights from
# 1, and the same seed writes the same values.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

GEN=$ABBENCH_BUILDDIR/bench/history-gen
cd "$TEST_TMP" || exit 1
"$GEN" a.db --shapes 2 --rows 8 --rounds 3 --nights 12 --truth a.tsv > a.out
ok $? "history-gen writes a small history"
like "$(cat a.out)" "^1152 values, 24 runs in " "1152 values, 24 runs"
is "$(sqlite3 a.db "SELECT count(*) FROM samples WHERE status = 'ok'")" 1152 \
    "the store holds the 1152 values"
"$ABBENCH" db --db a.db check > check.out 2>&1
is $? 0 "db check: exit 0"
like "$(cat check.out)" "24 runs, 288 samples" "db check: 24 runs, 288 executions"
is "$(sqlite3 a.db "SELECT count(DISTINCT benchmark || unit || arm) FROM samples")" 16 \
    "16 series names (the shapes share them)"
is "$(awk -F'\t' 'NF != 9 || $6 < 1 || $7 < $6 || $7 > 12 + 90 { bad++ } END { print bad + 0 }' a.tsv)" 0 \
    "every truth line has 9 fields and nights from 1"
"$ABBENCH" nightly --db a.db --no-run last --quiet > nightly.out 2>&1
rc=$?
[ "$rc" -le 1 ]
ok $? "nightly judges the last night (exit $rc)"
like "$(cat nightly.out)" "w00" "its verdicts name the rows"
"$GEN" b.db --shapes 2 --rows 8 --rounds 3 --nights 12 --truth b.tsv > /dev/null
sqlite3 a.db "SELECT run_id, plan_idx, benchmark, unit, arm, value FROM samples ORDER BY id" > a.vals
sqlite3 b.db "SELECT run_id, plan_idx, benchmark, unit, arm, value FROM samples ORDER BY id" > b.vals
cmp -s a.vals b.vals && cmp -s a.tsv b.tsv
ok $? "the same seed writes the same values and truth"
done_testing
