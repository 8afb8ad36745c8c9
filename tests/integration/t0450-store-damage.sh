#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The store refuses what it cannot trust (issue cases 7 and 8):
#  - three pages overwritten inside a real results database: `run` refuses
#    it (exit 2, file unchanged), `db check` exits 1 naming the damage,
#    `report` and `plot` exit 2 without writing an error into their output;
#  - a zero-length file is never set up by `db rm`, `db ls` or `restore`;
#  - `db import` of a binary file, an empty file, /dev/null or an INI file
#    exits 2 and adds nothing (no run, no new database).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3 md5sum dd

DB=$TEST_TMP/real.db
fast_slow_exp "$TEST_TMP/e.ini" damage 40
"$ABBENCH" run --quiet --db "$DB" "$TEST_TMP/e.ini" > /dev/null 2>&1
is "$(sqlite3 "$DB" 'PRAGMA quick_check')" ok "a real results database, intact"
pages=$(sqlite3 "$DB" 'PRAGMA page_count')
psize=$(sqlite3 "$DB" 'PRAGMA page_size')
ok "$([ "$pages" -ge 8 ]; echo $?)" "it has $pages pages"
# Pages 3, the middle one and the one before last (0-based seeks).
for p in 2 $((pages / 2)) $((pages - 2)); do
	dd if=/dev/urandom of="$DB" bs="$psize" seek="$p" count=1 \
	    conv=notrunc 2>/dev/null
done
sum=$(md5sum < "$DB")

"$ABBENCH" run --quiet --db "$DB" "$TEST_TMP/e.ini" > "$TEST_TMP/run.out" 2>&1
is "$?" 2 "run refuses the damaged database (exit 2)"
like "$(cat "$TEST_TMP/run.out")" "is damaged" "  and says it is damaged"
is "$(md5sum < "$DB")" "$sum" "  nothing was written to it"

"$ABBENCH" db check --db "$DB" > "$TEST_TMP/check.out" 2>&1
is "$?" 1 "db check exits 1"
like "$(cat "$TEST_TMP/check.out")" "(integrity|corrupt|malformed)" \
    "  and says what is wrong"

"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.html" > "$TEST_TMP/rep.out" 2>&1
is "$?" 2 "report exits 2"
ok "$([ ! -e "$TEST_TMP/r.html" ]; echo $?)" "  and writes no HTML with an error inside"
"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.md" > /dev/null 2>&1
is "$?" 2 "report (Markdown) exits 2"
"$ABBENCH" plot --db "$DB" 1 -o "$TEST_TMP/plots" > /dev/null 2>&1
is "$?" 2 "plot exits 2"

# Only what a command reads is checked: the store's tables but the
# samples' (quick_check), and its run's samples (read through, each page
# checked), whatever the file's size. A damaged page of run 1's samples
# refuses a report of run 1 (exit 2, nothing written) and not one of run 2.
TWO=$TEST_TMP/two.db
i=0
while [ $i -lt 3000 ]; do
	echo "BenchmarkBig$((i % 50)) 1 $((1000 + i)) ns/op"
	i=$((i + 1))
done > "$TEST_TMP/big.txt"
printf 'BenchmarkSmall 1 %s ns/op\n' 1 2 3 4 5 > "$TEST_TMP/small.txt"
"$ABBENCH" db import --db "$TWO" "$TEST_TMP/big.txt" > /dev/null 2>&1 &&
    "$ABBENCH" db import --db "$TWO" "$TEST_TMP/small.txt" > /dev/null 2>&1
ok $? "two runs imported"
first=$(sqlite3 "$TWO" "SELECT pageno FROM dbstat WHERE name = 'sample_values' AND pagetype = 'leaf' ORDER BY path LIMIT 1")
nleaf=$(sqlite3 "$TWO" "SELECT count(*) FROM dbstat WHERE name = 'sample_values' AND pagetype = 'leaf'")
ok "$([ "$nleaf" -ge 3 ]; echo $?)" "run 1's samples fill pages ($nleaf leaves)"
dd if=/dev/urandom of="$TWO" bs="$(sqlite3 "$TWO" 'PRAGMA page_size')" \
    seek=$((first - 1)) count=1 conv=notrunc 2>/dev/null
"$ABBENCH" report --db "$TWO" 1 -o "$TEST_TMP/two1.html" > "$TEST_TMP/two1.out" 2>&1
is "$?" 2 "a report of the run whose samples are damaged exits 2"
like "$(cat "$TEST_TMP/two1.out")" "is damaged \(run 1's samples" "  naming them"
ok "$([ ! -e "$TEST_TMP/two1.html" ]; echo $?)" "  and writes nothing"
"$ABBENCH" report --db "$TWO" 2 -o "$TEST_TMP/two2.html" > /dev/null 2>&1
is "$?" 0 "a report of the other run reads nothing damaged: written"

# A zero-length file.
: > "$TEST_TMP/empty.db"
"$ABBENCH" db rm 1 --db "$TEST_TMP/empty.db" > /dev/null 2>&1
is "$?" 2 "db rm on an empty file exits 2"
"$ABBENCH" db ls --db "$TEST_TMP/empty.db" > /dev/null 2>&1
"$ABBENCH" restore --db "$TEST_TMP/empty.db" > /dev/null 2>&1
"$ABBENCH" restore 1 --db "$TEST_TMP/empty.db" > /dev/null 2>&1
is "$(wc -c < "$TEST_TMP/empty.db" | tr -d ' ')" 0 \
    "the empty file is still empty after db rm, db ls and restore"

# db import of input with no benchmark results.
GOOD=$TEST_TMP/good.db
"$ABBENCH" run --quiet --db "$GOOD" "$TEST_TMP/e.ini" > /dev/null 2>&1
head -c 8192 /dev/urandom > "$TEST_TMP/binary"
: > "$TEST_TMP/emptyfile"
for f in "$TEST_TMP/binary" "$TEST_TMP/emptyfile" /dev/null "$TEST_TMP/e.ini"; do
	"$ABBENCH" db import --db "$GOOD" "$f" > "$TEST_TMP/imp.out" 2>&1
	is "$?" 2 "db import $(basename "$f") exits 2"
	like "$(cat "$TEST_TMP/imp.out")" "no benchmark results" "  no benchmark results"
done
is "$(sqlite3 "$GOOD" 'SELECT count(*) FROM runs')" 1 "no run was added"
"$ABBENCH" db import --db "$TEST_TMP/new.db" "$TEST_TMP/binary" > /dev/null 2>&1
ok "$([ ! -e "$TEST_TMP/new.db" ]; echo $?)" "a failed import makes no new database"
done_testing
