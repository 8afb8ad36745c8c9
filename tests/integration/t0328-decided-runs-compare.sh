#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs that used `--until decided` compare with runs that did not: how a
# run was measured (its --KEY=VALUE: set.stop, set.max-rounds, ...) is run
# metadata, shown by `db show` and the report, never a config line of the
# exports or of `stat --db`, where it split two runs of one experiment into
# two one-column tables. A projection or filter that names such a key still
# gets it; exports still round-trip through import.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
printf '[experiment]\nname = dec\nrounds = 3\n\n[arm a]\nargs = true\n\n[arm b]\nargs = true\n\n[workload Cmd]\ntype = command\n' > dec.ini
"$ABBENCH" run dec.ini --db "$DB" --quiet > /dev/null 2>&1
ok $? "a run of fixed rounds"
"$ABBENCH" run dec.ini --db "$DB" --quiet --until decided --max-rounds 4 \
    > /dev/null 2>&1
ok $? "a run with --until decided"
is "$(sqlite3 "$DB" "SELECT group_concat(kv, ' ') FROM (SELECT key || '=' || value AS kv FROM run_config WHERE run_id = 2 AND key LIKE 'set.%' ORDER BY key DESC)")" \
    "set.stop=decided set.max-rounds=4" "the second run stores how it was measured"

"$ABBENCH" stat --db "$DB" 1:a 2:a > out 2> err
ok $? "stat --db 1:a 2:a"
is "$(grep -c 'vs base' out)" 1 "one table, the two runs side by side"
is "$(grep -c '^set\.' out)" 0 "no set.* config line"
like "$(grep '^Cmd' out)" "n=3\+[0-9]+" "both runs in one row"

# Asked for: a projection or a filter naming the key.
"$ABBENCH" stat --db "$DB" -table set.stop 1:a 2:a > out 2> err
is "$(grep -c '^set\.stop: decided$' out)" 1 "-table set.stop: the decided run's table"
is "$(grep -c '^set\.stop: *$' out)" 1 "-table set.stop: the fixed run's table"
"$ABBENCH" stat --db "$DB" -filter set.stop:decided 1:a 2:a > out 2> err
is "$(grep -c '^Cmd' out)" 1 "-filter set.stop:decided keeps one run's row"
is "$(grep -c '1:a' out)" 0 "... not the fixed run's"

"$ABBENCH" db --db "$DB" show 2 > out 2>&1
ok $? "db show"
like "$(sed -n '/^metadata:/,/^$/p' out)" "set\.stop: decided" "db show: set.stop under metadata"
like "$(sed -n '/^metadata:/,/^$/p' out)" "set\.max-rounds: 4" "db show: set.max-rounds under metadata"
sed -n '/^config:/,/^$/p' out | grep -q 'set\.'
is "$?" 1 "db show: not under config"
"$ABBENCH" report --db "$DB" 2 -o r.md > /dev/null 2>&1
ok $? "report"
like "$(sed -n '/Run metadata/,/^## /p' r.md)" "set\.stop.*decided" "the report shows set.stop as metadata"
sed -n '/^## Host/,/^## /p' r.md | grep -q 'set\.stop'
is "$?" 1 "... not with the host's config"

# Exports: no set.* line; benchstat on two exports: one table.
"$ABBENCH" db --db "$DB" export 1 --arm a > e1.txt 2> err &&
"$ABBENCH" db --db "$DB" export 2 --arm a > e2.txt 2>> err
ok $? "export both runs' baselines"
grep -q '^set\.' e2.txt
is "$?" 1 "the export carries no set.* line"
grep -q '^kernel: ' e2.txt
ok $? "the export keeps the host's identity"
"$ABBENCH" stat fixed=e1.txt decided=e2.txt > out 2> err
is "$(grep -c 'vs base' out)" 1 "stat on the two exports: one table"

# Round trip: an export imported and exported again reads the same.
"$ABBENCH" db --db "$DB" export 2 > x1.txt 2> err
"$ABBENCH" db --db "$DB" import x1.txt > /dev/null 2>&1
ok $? "import the export"
"$ABBENCH" db --db "$DB" export last > x2.txt 2> err
cmp -s x1.txt x2.txt
ok $? "export, import, export: the same text"
# An imported file's own set.* keys are its config: kept, and they split.
sed '1i\
set.stop: decided' e1.txt > withset.txt
"$ABBENCH" db --db "$DB" import withset.txt > /dev/null 2>&1
"$ABBENCH" db --db "$DB" export last > x3.txt 2> err
grep -q '^set\.stop: decided$' x3.txt
ok $? "an imported file's set.stop line is its own config"
done_testing
