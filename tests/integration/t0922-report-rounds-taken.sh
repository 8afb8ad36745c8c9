#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every output that shows rounds shows the rounds taken, one count: the
# report printed the file's rounds (`rounds 10 (+0 warm-up)`) for runs that
# took 4 and 6 under stop = decided, where `db show` was right; and both
# printed the plan's rounds for a run killed after a few.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
# Two arms alike: never decided, so each run takes its max-rounds.
printf '[experiment]\nname = taken\nrounds = 10\n\n[arm a]\nargs = true\n\n[arm b]\nargs = true\n\n[workload Cmd]\ntype = command\n' > taken.ini
rounds_of() {
	sed -n 's/^  rounds: *//p' "$1"
}
report_rounds_of() {
	sed -n 's/^| rounds | \(.*\) |$/\1/p' "$1"
}
id=0
for max in 4 6; do
	id=$((id + 1))
	"$ABBENCH" run taken.ini --db "$DB" --quiet --until decided \
	    --max-rounds $max > /dev/null 2>&1
	ok $? "run $id: --until decided --max-rounds $max"
	taken=$(sqlite3 "$DB" "SELECT max(round) + 1 FROM samples WHERE run_id = $id")
	"$ABBENCH" db --db "$DB" show $id > show.out 2>&1
	"$ABBENCH" report --db "$DB" $id -o r$id.md > /dev/null 2>&1
	ok $? "run $id: report"
	like "$(rounds_of show.out)" "^[0-9]+ good, $taken measured \(\+0 warm-up; stop = decided\)$" \
	    "run $id: db show says the $taken rounds taken"
	is "$(report_rounds_of r$id.md)" "$(rounds_of show.out)" \
	    "run $id: the report says the same"
	grep -q '^| rounds | 10 ' r$id.md
	is "$?" 1 "run $id: not the file's 10 rounds"
done

# A fixed run killed after a few of its 10 rounds: the rounds it took.
K=$TEST_TMP/k.db
sed 's/args = true/args = sleep 0.3/' taken.ini > slow.ini
n=$(kill_at_samples "$K" 4 "$ABBENCH" run slow.ini --db "$K" --quiet)
taken=$(sqlite3 "$K" "SELECT max(round) + 1 FROM samples")
[ "$taken" -lt 10 ]
ok $? "a fixed run killed after $n samples ($taken rounds)"
"$ABBENCH" db --db "$K" show last > show.out 2>&1
"$ABBENCH" report --db "$K" last -o r3.md > /dev/null 2>&1
is "$(rounds_of show.out)" "$taken of 10 (+0 warm-up)" "killed: db show says $taken of 10"
is "$(report_rounds_of r3.md)" "$taken of 10 (+0 warm-up)" "killed: the report too"

# A fixed run that ran its rounds: as before.
"$ABBENCH" run taken.ini --db "$DB" --quiet --rounds 3 > /dev/null 2>&1
"$ABBENCH" db --db "$DB" show last > show.out 2>&1
"$ABBENCH" report --db "$DB" last -o r4.md > /dev/null 2>&1
is "$(rounds_of show.out)" "3 (+0 warm-up)" "a complete fixed run: db show"
is "$(report_rounds_of r4.md)" "3 (+0 warm-up)" "... and the report"
done_testing
