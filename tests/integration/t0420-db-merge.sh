#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Merging the databases of two hosts: every run arrives once (by uuid),
# sample counts add up, exports of the merged runs are identical to the
# originals, merging again changes nothing, and db check stays clean.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

T=$TEST_TMP
VEC=$ABBENCH_SRCDIR/tests/data/benchstat-vectors/vectors
[ -d "$VEC/two_files_basic" ] || skip_all "no benchstat vectors"

count() {
	sqlite3 "$1" "SELECT count(*) FROM $2"
}

# Host A: two runs; host B: one run with failed samples.
"$ABBENCH" db --db "$T/a.db" import --host vm-2 --name fio \
    "$VEC/two_files_basic/old.txt" "$VEC/two_files_basic/new.txt" \
    > /dev/null
ok $? "host A: first run"
"$ABBENCH" db --db "$T/a.db" import --host vm-2 --name startup \
    "$VEC/unit_metadata_exact/before.txt" > /dev/null
ok $? "host A: second run"
"$ABBENCH" db --db "$T/b.db" import --host vm-192 --name fio \
    "v1.txt=$VEC/three_files/v1.txt" "v2.txt=$VEC/three_files/v2.txt" > /dev/null
ok $? "host B: a run"
# (samples are stored in series, executions and values: schema 9)
sqlite3 "$T/b.db" "INSERT INTO series (arm, workload, benchmark, unit)
    VALUES ('v1.txt', 'fio', 'fio', '');
    INSERT INTO executions VALUES (1, 100000, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1);
    INSERT INTO sample_values VALUES (1, last_insert_rowid(), 100000, 0,
    NULL, 2, 'killed', NULL, NULL);
    UPDATE sample_runs SET nexec = nexec + 1, nfailed = nfailed + 1"
ok $? "host B: a failed sample"

na=$(count "$T/a.db" samples)
nb=$(count "$T/b.db" samples)
[ "$na" -gt 0 ] && [ "$nb" -gt 0 ]
ok $? "both have samples ($na, $nb)"
"$ABBENCH" db --db "$T/b.db" export 1 --arm v2.txt > "$T/b-v2.before"

# Merge B into A.
"$ABBENCH" db --db "$T/a.db" merge "$T/b.db" > "$T/merge.out" 2>&1
ok $? "merge B into A"
like "$(cat "$T/merge.out")" "1 run, $nb samples added" "merge reports what it added"
is "$(count "$T/a.db" runs)" 3 "runs add up"
is "$(count "$T/a.db" samples)" $((na + nb)) "samples add up"
is "$(sqlite3 "$T/a.db" "SELECT count(*) FROM samples WHERE status = 'timeout'")" \
    1 "the failed sample came along"
is "$(sqlite3 "$T/a.db" "SELECT group_concat(DISTINCT host) FROM runs")" \
    "vm-2,vm-192" "each run keeps its host"
uuid_b=$(sqlite3 "$T/b.db" "SELECT uuid FROM runs")
id=$(sqlite3 "$T/a.db" "SELECT id FROM runs WHERE uuid = '$uuid_b'")
[ -n "$id" ]
ok $? "the merged run keeps its uuid"
"$ABBENCH" db --db "$T/a.db" export "${uuid_b%%-*}" --arm v2.txt \
    > "$T/b-v2.after"
cmp -s "$T/b-v2.before" "$T/b-v2.after"
ok $? "the merged run exports exactly as on host B"
"$ABBENCH" db --db "$T/a.db" check > "$T/check.out"
ok $? "db check is clean after the merge"
sed 's/^/# /' "$T/check.out"

# db check notices a sample whose arm the run does not have.
cp "$T/a.db" "$T/broken.db"
sqlite3 "$T/broken.db" "UPDATE series SET arm = 'ghost' WHERE id = 1"
"$ABBENCH" db --db "$T/broken.db" check > "$T/check.out"
is $? 1 "db check fails on a broken database"
like "$(cat "$T/check.out")" "arm 'ghost' which the run does not have" \
    "and names the problem"

# Merging again adds nothing.
"$ABBENCH" db --db "$T/a.db" ls > "$T/ls.1"
"$ABBENCH" db --db "$T/a.db" merge "$T/b.db" > "$T/merge2.out" 2>&1
ok $? "merge B again"
like "$(cat "$T/merge2.out")" "0 runs, 0 samples added" "it reports nothing added"
is "$(count "$T/a.db" samples)" $((na + nb)) "sample count unchanged"
"$ABBENCH" db --db "$T/a.db" ls > "$T/ls.2"
cmp -s "$T/ls.1" "$T/ls.2"
ok $? "db ls unchanged"

# Both into a fresh database, in one command; then the reverse direction.
"$ABBENCH" db --db "$T/all.db" merge "$T/a.db" "$T/b.db" > "$T/merge3.out" 2>&1
ok $? "merge A and B into a new database"
like "$(cat "$T/merge3.out")" "total: 3 runs, $((na + nb)) samples added" \
    "B's run is not added twice (it came with A)"
is "$(count "$T/all.db" samples)" $((na + nb)) "new database has every sample"
"$ABBENCH" db --db "$T/b.db" merge "$T/a.db" > /dev/null 2>&1
is "$(count "$T/b.db" runs)" 3 "reverse merge: B gets A's two runs"
is "$(count "$T/b.db" samples)" $((na + nb)) "reverse merge: counts add up"

# A database cannot be merged into itself.
"$ABBENCH" db --db "$T/a.db" merge "$T/a.db" > /dev/null 2> "$T/err"
is $? 2 "merge into itself: exit 2"
like "$(cat "$T/err")" "into itself" "merge into itself: message"
done_testing
