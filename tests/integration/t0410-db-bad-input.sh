#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Bad input to `abbench db`: a truncated database, a corrupt one, another
# program's SQLite database, a text file, a newer schema, a read-only
# directory. Each must exit 2 with a clear message and leave every file
# exactly as it was (and create none).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3 sha256sum

T=$TEST_TMP
VEC=$ABBENCH_SRCDIR/tests/data/benchstat-vectors/vectors
IN=$T/in.txt
printf 'goos: linux\nBenchmarkX-8 1 100 ns/op\nBenchmarkX-8 1 110 ns/op\n' \
    > "$IN"

# A good database with some pages, to damage.
"$ABBENCH" db --db "$T/good.db" import "$IN" > /dev/null
ok $? "a good database is made"
[ -d "$VEC/stress_many_benchmarks" ] &&
    "$ABBENCH" db --db "$T/good.db" import \
    "$VEC/stress_many_benchmarks/old.txt" > /dev/null
size=$(wc -c < "$T/good.db")
[ "$size" -ge 16384 ]
ok $? "it has several pages ($size bytes)"

# expect_refused DESC REGEX FILE CMD...: exit 2, message, FILE unchanged,
# no -wal or -journal file left beside it.
expect_refused() {
	er_desc=$1 er_re=$2 er_file=$3
	shift 3
	er_before=$(sha256sum < "$er_file")
	"$@" > "$T/out" 2> "$T/err"
	er_rc=$?
	is "$er_rc" 2 "$er_desc: exit 2"
	like "$(cat "$T/err")" "$er_re" "$er_desc: clear message"
	is "$(sha256sum < "$er_file")" "$er_before" "$er_desc: file unchanged"
	[ ! -s "$T/out" ]
	ok $? "$er_desc: nothing on stdout"
	[ ! -e "$er_file-wal" ] && [ ! -e "$er_file-journal" ]
	ok $? "$er_desc: no journal files made"
}

# Truncated: half of a good database.
head -c $((size / 2 + 100)) "$T/good.db" > "$T/trunc.db"
for sub in ls check "import $IN" "show 1"; do
	# shellcheck disable=SC2086
	expect_refused "truncated, db $sub" "'.*trunc\.db' is truncated or corrupt" \
	    "$T/trunc.db" "$ABBENCH" db --db "$T/trunc.db" $sub
done

# Corrupt: a good header, garbage pages.
head -c 4096 "$T/good.db" > "$T/corrupt.db"
head -c $((size - 4096)) /dev/urandom >> "$T/corrupt.db"
expect_refused "corrupt, db import" "corrupt|not an abbench database" \
    "$T/corrupt.db" "$ABBENCH" db --db "$T/corrupt.db" import "$IN"

# Another program's database.
sqlite3 "$T/other.db" "CREATE TABLE moz_places (id INTEGER PRIMARY KEY,
    url TEXT); INSERT INTO moz_places (url) VALUES ('https://example.com');"
expect_refused "other program, db import" \
    "'.*other\.db' is not an abbench database \(an SQLite database of another program" \
    "$T/other.db" "$ABBENCH" db --db "$T/other.db" import "$IN"
expect_refused "other program, db ls" "not an abbench database" \
    "$T/other.db" "$ABBENCH" db --db "$T/other.db" ls
expect_refused "other program as merge input" "not an abbench database" \
    "$T/other.db" "$ABBENCH" db --db "$T/m.db" merge "$T/other.db"
[ ! -e "$T/m.db" ]
ok $? "a refused merge creates no database"

# A text file.
cp "$IN" "$T/text.db"
expect_refused "text file, db import" "not an abbench database \(not an SQLite 3 file\)" \
    "$T/text.db" "$ABBENCH" db --db "$T/text.db" import "$IN"

# A newer schema than this abbench knows.
cp "$T/good.db" "$T/newer.db"
sqlite3 "$T/newer.db" "PRAGMA user_version = 999;"
"$ABBENCH" db --db "$T/newer.db" ls > /dev/null 2>&1
# (sqlite3 leaves it in WAL mode without side files once closed.)
expect_refused "newer schema, db import" \
    "schema version 999, newer than this abbench supports" \
    "$T/newer.db" "$ABBENCH" db --db "$T/newer.db" import "$IN"
expect_refused "newer schema, db ls" "newer than this abbench" \
    "$T/newer.db" "$ABBENCH" db --db "$T/newer.db" ls

# Bad arguments: nothing created.
"$ABBENCH" db --db "$T/new.db" import "$T/does-not-exist.txt" \
    > /dev/null 2> "$T/err"
is $? 2 "import of a missing file: exit 2"
like "$(cat "$T/err")" "cannot read '.*does-not-exist.txt'" \
    "import of a missing file: message"
[ ! -e "$T/new.db" ]
ok $? "import of a missing file creates no database"
expect_refused "unknown run" "no run '999'" "$T/good.db" \
    "$ABBENCH" db --db "$T/good.db" show 999
expect_refused "unknown arm" "has no arm 'nosuch'" "$T/good.db" \
    "$ABBENCH" db --db "$T/good.db" export 1 --arm nosuch -o "$T/exp"
[ ! -e "$T/exp" ]
ok $? "a refused export writes no directory"
expect_refused "bad subcommand" "unknown subcommand 'frobnicate'" \
    "$T/good.db" "$ABBENCH" db --db "$T/good.db" frobnicate

# A read-only directory. Root ignores permissions, so the commands run as
# an unprivileged user when we are root.
RUNAS=
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv > /dev/null 2>&1; then
		RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	fi
fi
if [ "$(id -u)" -eq 0 ] && [ -z "$RUNAS" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "ok $((LIB_TESTS + 1)) # SKIP no setpriv to drop root"
		LIB_TESTS=$((LIB_TESTS + 1))
	done
else
	RO=$T/ro
	mkdir "$RO"
	cp "$T/good.db" "$RO/runs.db"
	chmod 755 "$T"
	chmod 644 "$RO/runs.db" "$IN"
	chmod 555 "$RO"
	# shellcheck disable=SC2086
	expect_refused "read-only directory, db import" \
	    "cannot write '.*runs\.db': directory '.*ro' is not writable" \
	    "$RO/runs.db" $RUNAS "$ABBENCH" db --db "$RO/runs.db" import "$IN"
	# shellcheck disable=SC2086
	$RUNAS "$ABBENCH" db --db "$RO/new.db" import "$IN" \
	    > /dev/null 2> "$T/err"
	is $? 2 "new database in a read-only directory: exit 2"
	like "$(cat "$T/err")" "cannot create '.*new\.db': directory .* is not writable" \
	    "new database in a read-only directory: message"
	# Reading still works there (an immutable read of a closed database).
	# shellcheck disable=SC2086
	$RUNAS "$ABBENCH" db --db "$RO/runs.db" ls > "$T/ls" 2> "$T/err"
	ok $? "db ls in a read-only directory works"
	like "$(cat "$T/ls")" "imported" "and lists the runs"
	[ "$(ls "$RO")" = "runs.db" ]
	ok $? "nothing was created in the read-only directory"
	chmod 755 "$RO"
fi
done_testing
