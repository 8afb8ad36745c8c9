#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Schema 9 (compact samples: series, executions, values) from a store
# written by abbench at schema 8 (tests/data/store-v8: command runs with
# failures and warm-up, gobench lines in ns/op, imports with config
# blocks and unit metadata): the conversion is lossless (`db show` and
# `stat` of every run print what abbench 8 printed, byte for byte; `db
# export` every value it exported, in today's format), resumable (killed with SIGKILL after 1, then 3 runs converted, it
# goes on where it stopped and ends with the same tables as a conversion
# never killed), and `db check` finds the new tables consistent. Then
# schema 10 (results/night-summary.h): each done run's nights kept for
# nightly, resumable too (killed after the first run summarized).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

FX=$ABBENCH_SRCDIR/tests/data/store-v8
cd "$TEST_TMP" || exit 1

# An export as values: a line of several metrics (one execution, the
# export since issue 54's item 14) as one line per metric (abbench 8 wrote
# them so), without its Unit lines; and its Unit lines alone. The values,
# their order and their config are the same or the migration lost data;
# a Unit line today's export writes must be one abbench 8 wrote (it now
# leaves out the units no value has).
canon() {
	awk '/^Unit / { next }
	    /^Benchmark/ && NF > 4 && NF % 2 == 0 {
		for (k = 3; k < NF; k += 2) print $1, $2, $k, $(k + 1)
		next
	    }
	    { print }' "$1"
}
same_export() {	# same_export OLD NEW
	canon "$1" > "$2.canon-old"
	canon "$2" > "$2.canon-new"
	grep '^Unit ' "$1" > "$2.units-old"
	grep '^Unit ' "$2" > "$2.units-new"
	cmp -s "$2.canon-old" "$2.canon-new" &&
	    ! grep -vxF -f "$2.units-old" "$2.units-new" > /dev/null
}
sqlite3 straight.db < "$FX/v8.sql"
ok $? "a schema 8 store from its dump"
is "$(sqlite3 straight.db 'PRAGMA user_version')" 8 "at version 8"

# Lossless: every run prints what abbench 8 printed.
"$ABBENCH" db --db straight.db check > check.out 2>&1
is $? 0 "db check after the conversion: exit 0"
like "$(cat check.out)" "^ok: .*5 runs, 398 samples" "db check: 5 runs, 398 samples"
is "$(sqlite3 straight.db 'PRAGMA user_version')" 10 "converted to version 10"
is "$(sqlite3 straight.db "SELECT group_concat(run_id) FROM night_summaries")" \
    "1,2" "the two done runs (1, 2) are summarized, not the imports"
for i in 1 2 3 4 5; do
	"$ABBENCH" db --db straight.db export $i > export-$i.txt 2>&1
	same_export "$FX/export-$i.txt" export-$i.txt
	ok $? "run $i: db export has every value abbench 8 exported, in its order"
	"$ABBENCH" db --db straight.db show $i > show-$i.txt 2>&1
	cmp -s "$FX/show-$i.txt" show-$i.txt
	ok $? "run $i: db show byte for byte as at version 8"
	"$ABBENCH" stat --db straight.db $i > stat-$i.txt 2>&1
	cmp -s "$FX/stat-$i.txt" stat-$i.txt
	ok $? "run $i: stat byte for byte as at version 8"
done
is "$(sqlite3 straight.db "SELECT count(*) FROM sqlite_master WHERE name = 'samples_v8'")" \
    0 "the old table is gone"
is "$(sqlite3 straight.db "SELECT count(*) FROM samples")" 410 \
    "the samples view has every row (410)"

# Resumable: killed after 1 run converted, then after 3 more.
tables() {
	sqlite3 "$1" "SELECT * FROM series ORDER BY id;
	    SELECT * FROM sample_runs ORDER BY run_id;
	    SELECT * FROM executions;
	    SELECT * FROM sample_values;
	    SELECT * FROM samples ORDER BY id;
	    SELECT * FROM summary_keys ORDER BY id;
	    SELECT run_id, method, nexec, nok, hex(data) FROM night_summaries
	    ORDER BY run_id"
}
sqlite3 killed.db < "$FX/v8.sql"
ABBENCH_DEBUG_DIE_AFTER_MIGRATED=1 "$ABBENCH" db --db killed.db ls > /dev/null 2>&1
is $? 137 "killed (SIGKILL) after the first run converted"
is "$(sqlite3 killed.db 'PRAGMA user_version')" 8 "still version 8"
is "$(sqlite3 killed.db 'SELECT count(DISTINCT run_id) FROM samples_v8')" 4 \
    "4 runs left to convert"
is "$(sqlite3 killed.db 'SELECT count(*) FROM sample_runs')" 1 \
    "1 run converted"
ABBENCH_DEBUG_DIE_AFTER_MIGRATED=3 "$ABBENCH" db --db killed.db ls > /dev/null 2>&1
is $? 137 "killed again, 3 runs later"
is "$(sqlite3 killed.db 'SELECT count(DISTINCT run_id) FROM samples_v8')" 1 \
    "1 run left to convert"
ABBENCH_DEBUG_DIE_AFTER_SUMMARIZED=1 "$ABBENCH" db --db killed.db ls > /dev/null 2>&1
is $? 137 "killed again, after the first done run summarized"
is "$(sqlite3 killed.db 'PRAGMA user_version')" 9 "at version 9"
is "$(sqlite3 killed.db 'SELECT group_concat(run_id) FROM night_summaries')" 1 \
    "run 1 summarized, run 2 not yet"
"$ABBENCH" db --db killed.db check > check2.out 2>&1
is $? 0 "the fourth open finishes it: db check exit 0"
tables straight.db > straight.tables
tables killed.db > killed.tables
cmp -s straight.tables killed.tables
ok $? "the same tables as the conversion never killed"
for i in 1 2 3 4 5; do
	"$ABBENCH" db --db killed.db export $i > k-export-$i.txt 2>&1
	cmp -s export-$i.txt k-export-$i.txt
	ok $? "run $i: exported byte for byte as the conversion never killed"
done

# db check verifies the new invariants.
cp straight.db broken.db
sqlite3 broken.db "UPDATE sample_runs SET nok = nok + 1 WHERE run_id = 2;
    DELETE FROM sample_values WHERE run_id = 3 AND plan_idx = 5;"
"$ABBENCH" db --db broken.db check > check3.out 2>&1
is $? 1 "db check on broken counts: exit 1"
like "$(cat check3.out)" "run 2: counts .* ok values; holds" "a run's counts that disagree"
like "$(cat check3.out)" "run 3: plan entry 5 counts 1 values .*holds 0" \
    "an execution whose values are gone"
done_testing
