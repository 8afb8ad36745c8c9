#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# restore --db of a database it cannot read is an input error (exit 2, as
# its help says), never "could not be undone" (exit 1): a directory, a
# damaged file, an SQLite file of another program, a newer schema, an
# empty file and a missing one. Nothing is created or changed on the way.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3

fast_slow_exp "$TEST_TMP/e.ini" rdb 1
"$ABBENCH" run --quiet --db "$TEST_TMP/newer.db" "$TEST_TMP/e.ini" \
    > /dev/null 2>&1 || { diag "cannot make a database"; exit 1; }
sqlite3 "$TEST_TMP/newer.db" 'PRAGMA user_version = 99'
mkdir "$TEST_TMP/dir.db"
head -c 8192 /dev/urandom > "$TEST_TMP/corrupt.db"
sqlite3 "$TEST_TMP/other.db" 'CREATE TABLE t (a)'
: > "$TEST_TMP/empty.db"

check() {
	"$ABBENCH" restore --db "$TEST_TMP/$1" > "$TEST_TMP/$1.out" 2>&1
	is "$?" 2 "restore --db $1 exits 2"
	like "$(cat "$TEST_TMP/$1.out")" "$2" "  saying $2"
}
check dir.db "not a regular file"
check corrupt.db "not an abbench database"
check other.db "not an abbench database"
check newer.db "schema version 99, newer"
check empty.db "empty"
check missing.db "no such file"
ok "$([ ! -e "$TEST_TMP/missing.db" ]; echo $?)" "the missing one was not created"
is "$(wc -c < "$TEST_TMP/empty.db" | tr -d ' ')" 0 "the empty one is still empty"
"$ABBENCH" restore --db "$TEST_TMP/newer.db" last > /dev/null 2>&1
is "$?" 2 "restore --db newer.db RUN exits 2 as well"

# A good database: 0 and nothing to restore.
"$ABBENCH" run --quiet --db "$TEST_TMP/good.db" "$TEST_TMP/e.ini" > /dev/null 2>&1
"$ABBENCH" restore --db "$TEST_TMP/good.db" > "$TEST_TMP/good.out" 2>&1
is "$?" 0 "restore --db of a good database exits 0"
like "$(cat "$TEST_TMP/good.out")" "nothing to restore" "  with nothing to restore"
done_testing
