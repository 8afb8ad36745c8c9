#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Schema 11 (results/store-schema.c: a sample of one plain value is one
# row of single_values, its execution folded into its value's row; a
# sample no longer writes its run's counts) from a store written by
# abbench at schema 10 (tests/data/store-v10: store-v8's runs, two
# command runs of one value a sample, one of them killed): the fold is
# lossless (`db export`, `db show`, `stat` of every run and `db ls` print
# what abbench 10 printed, byte for byte), resumable (killed with SIGKILL
# after 6 runs folded, it goes on at the next open and ends with the same
# tables as a fold never killed), and `db check` verifies the new
# invariants. A run of one metric stores its samples folded; a merge
# carries them.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

FX=$ABBENCH_SRCDIR/tests/data/store-v10
cd "$TEST_TMP" || exit 1

sqlite3 straight.db < "$FX/v10.sql"
ok $? "a schema 10 store from its dump"
is "$(sqlite3 straight.db 'PRAGMA user_version')" 10 "at version 10"
"$ABBENCH" db --db straight.db check > check.out 2>&1
is $? 0 "db check after the fold: exit 0"
like "$(cat check.out)" "^ok: .*7 runs, 925 samples" "db check: 7 runs, 925 samples"
is "$(sqlite3 straight.db 'PRAGMA user_version')" 11 "folded to version 11"
is "$(sqlite3 straight.db "SELECT group_concat(n) FROM (SELECT count(*) AS n
    FROM single_values GROUP BY id >> 32 ORDER BY id >> 32)")" "12,515" \
    "runs 6 and 7 folded (12 and 515 samples), no other"
is "$(sqlite3 straight.db "SELECT count(*) FROM executions WHERE run_id IN (6, 7)")" 0 \
    "no execution row left for them"
is "$(sqlite3 straight.db "SELECT count(*) FROM sqlite_master WHERE name = 'fold_todo'")" \
    0 "the list of runs to fold is gone"
for i in 1 2 3 4 5 6 7; do
	"$ABBENCH" db --db straight.db export $i > export-$i.txt 2>&1
	cmp -s "$FX/export-$i.txt" export-$i.txt
	ok $? "run $i: db export byte for byte as at version 10"
	"$ABBENCH" db --db straight.db show $i > show-$i.txt 2>&1
	cmp -s "$FX/show-$i.txt" show-$i.txt
	ok $? "run $i: db show byte for byte as at version 10"
	"$ABBENCH" stat --db straight.db $i > stat-$i.txt 2>&1
	cmp -s "$FX/stat-$i.txt" stat-$i.txt
	ok $? "run $i: stat byte for byte as at version 10"
done
"$ABBENCH" db --db straight.db ls > ls.txt 2>&1
cmp -s "$FX/ls.txt" ls.txt
ok $? "db ls byte for byte as at version 10"
is "$(sqlite3 straight.db "SELECT count(*) FROM samples")" 937 \
    "the samples view has every row (937)"

# Resumable: killed after 6 runs folded, run 6 folded and 7 not.
tables() {
	sqlite3 "$1" "SELECT * FROM series ORDER BY id;
	    SELECT * FROM sample_runs ORDER BY run_id;
	    SELECT * FROM executions;
	    SELECT * FROM sample_values;
	    SELECT * FROM single_values;
	    SELECT * FROM samples ORDER BY id;
	    SELECT run_id, method, nexec, nok, hex(data) FROM night_summaries
	    ORDER BY run_id"
}
sqlite3 killed.db < "$FX/v10.sql"
ABBENCH_DEBUG_DIE_AFTER_FOLDED=6 "$ABBENCH" db --db killed.db ls > /dev/null 2>&1
is $? 137 "killed (SIGKILL) after 6 runs folded"
is "$(sqlite3 killed.db 'PRAGMA user_version')" 11 "at version 11 already"
is "$(sqlite3 killed.db 'SELECT group_concat(run_id) FROM fold_todo')" 7 \
    "run 7 left to fold"
is "$(sqlite3 killed.db 'SELECT count(*) FROM single_values')" 12 \
    "run 6 folded"
is "$(sqlite3 killed.db "SELECT count(*) FROM samples")" 937 \
    "half folded, the samples view reads both layouts (937 rows)"
is "$(sqlite3 killed.db "SELECT count(*) FROM all_executions; SELECT
    count(*) FROM all_values")" "$(printf '925\n937')" \
    "and so do all_executions (925) and all_values (937)"
"$ABBENCH" db --db killed.db check > check2.out 2>&1
is $? 0 "the next open finishes it: db check exit 0"
is "$(sqlite3 killed.db "SELECT count(*) FROM sqlite_master WHERE name = 'fold_todo'")" \
    0 "nothing left to fold"
tables straight.db > straight.tables
tables killed.db > killed.tables
cmp -s straight.tables killed.tables
ok $? "the same tables as the fold never killed"

# db check verifies the new invariants.
cp straight.db broken.db
sqlite3 broken.db "INSERT INTO executions VALUES (6, 3, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1);
    UPDATE sample_runs SET nexec = nexec + 1 WHERE run_id = 7;
    INSERT INTO single_values SELECT (6 << 32) | 100, 999, 1.0, 0, 0, 0, 0,
    0, 0, 0"
"$ABBENCH" db --db broken.db check > check3.out 2>&1
is $? 1 "db check on a broken fold: exit 1"
like "$(cat check3.out)" "run 6: plan entry 3 is both a folded sample and an execution" \
    "a plan entry both folded and not"
like "$(cat check3.out)" "run 7: counts 516 samples, .* holds 515" \
    "a run's counts that disagree with its rows"
like "$(cat check3.out)" "run 6: 1 folded values of missing series 999" \
    "a folded value of a missing series"

# A new run of one metric stores its samples folded; its counts are
# made at its end; a merge carries it.
"$ABBENCH" run --db new.db --rounds 5 --quiet -- /bin/true -- /bin/true \
    > run.out 2>&1
is $? 0 "a command run of 5 rounds"
is "$(sqlite3 new.db "SELECT count(*) FROM single_values; SELECT count(*)
    FROM executions; SELECT nexec || ' ' || nok FROM sample_runs")" \
    "$(printf '10\n0\n10 10')" "10 samples, 10 rows of single_values, counted at the end"
"$ABBENCH" db --db straight.db merge new.db > merge.out 2>&1
is $? 0 "db merge of it"
"$ABBENCH" db --db new.db export 1 > new-1.txt 2>&1
"$ABBENCH" db --db straight.db export 8 > merged-8.txt 2>&1
cmp -s new-1.txt merged-8.txt
ok $? "the merged run exports as its source"
"$ABBENCH" db --db straight.db check > check4.out 2>&1
is $? 0 "db check after the merge: exit 0"
done_testing
