#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One count: a sample is one execution of an arm's workload, a value one
# number it gave; `run`, `db ls`, `db show` and the report say the same
# numbers, and rounds count from 1 in every output (live warnings,
# db show's failures, the report's).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
printf '[experiment]\nname = cnt\nrounds = 3\n\n[arm a]\nargs = true\n\n[arm b]\nargs = true\n\n[workload Cmd]\ntype = command\nreport = time user sys rss\n' > cnt.ini
"$ABBENCH" run cnt.ini --db "$DB" > out 2> err
ok $? "a run of 3 rounds x 2 arms, 4 values a sample"
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = 1")" 24 "24 values stored"
like "$(cat err)" "run 1 \(cnt\) done: 6 samples \(24 values\), 0 failed" "run: 6 samples (24 values)"
like "$("$ABBENCH" db --db "$DB" ls)" " 6 \(24 values\)$" "db ls: 6 (24 values)"
like "$("$ABBENCH" db --db "$DB" show 1)" "samples: +6 \(24 values, 0 failed\)" "db show: the same"
"$ABBENCH" report --db "$DB" 1 -o r.md > /dev/null 2>&1
like "$(cat r.md)" "6 \(24 values, 0 failed\)" "the report: the same"

"$ABBENCH" db --db "$DB" export 1 -o e > /dev/null 2>&1
"$ABBENCH" db --db "$DB" import e/a.txt e/b.txt > out 2>&1
like "$(cat out)" ", 24 values" "import: 24 values"
like "$("$ABBENCH" db --db "$DB" ls)" " 24 \(24 values\)$" "an imported run: each value one sample"

printf '[experiment]\nname = bad\nrounds = 2\n\n[arm a]\nargs = true\n\n[arm b]\nargs = false\n\n[workload Cmd]\ntype = command\n' > bad.ini
"$ABBENCH" run bad.ini --db "$DB" > out 2> err
is "$?" 1 "a run with failing samples exits 1"
like "$(grep -m 1 "round" err)" "round 1, arm 'b'" "the live warning: the first round is 1"
"$ABBENCH" db --db "$DB" show last > out 2>&1
is "$(sed -n '/^failures:/,/^$/p' out | grep -c '^  round [12]  b ')" 2 "db show: failures in rounds 1 and 2"
grep -q '^  round 0 ' out
is "$?" 1 "db show: no round 0"
like "$(cat out)" "samples: +4 \(2 values, 2 failed\)" "db show: 4 samples, 2 failed"
"$ABBENCH" report --db "$DB" last -o f.md > /dev/null 2>&1
like "$(sed -n '/^## Failed/,/^## /p' f.md)" "\| 1 +\|" "the report's failures: round 1"
sed -n '/^## Failed/,/^## /p' f.md | grep -q '^| 0 '
is "$?" 1 "the report's failures: no round 0"
done_testing
