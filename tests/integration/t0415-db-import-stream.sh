#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# db import streams its input (issue 25, item 7): /dev/zero, /dev/urandom
# and a 200 MB line end with a clear error naming the real line, under
# 64 MB peak RSS (GNU time), exit 2, nothing imported; a good file after
# junk lines still imports, from a pipe too.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
[ -x /usr/bin/time ] || skip_all "GNU time (/usr/bin/time) is not installed"

DB=$TEST_TMP/i.db
# peak KB of: abbench ARGS... (stdout+stderr to $TEST_TMP/out)
peak() {
	/usr/bin/time -v -o "$TEST_TMP/time" "$ABBENCH" "$@" > "$TEST_TMP/out" 2>&1
	rc=$?
	kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TEST_TMP/time")
	return $rc
}
# 64 MB, or 256 MB for a sanitizer build (its shadow memory; and freed
# memory is held in quarantine, so keep that small), as t0330 does.
LIMIT=65536
if nm "$ABBENCH" 2>/dev/null | grep -q __asan_init; then
	LIMIT=262144
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
	export ASAN_OPTIONS
fi

for dev in /dev/zero /dev/urandom; do
	peak db import --db "$DB" "$dev"
	is "$rc" 2 "db import $dev exits 2"
	like "$(cat "$TEST_TMP/out")" "^abbench: $dev:[0-9]+: a NUL byte: binary data" \
	    "  with a clear error naming the line"
	ok "$([ "$kb" -lt $LIMIT ]; echo $?)" "  under $((LIMIT / 1024)) MB peak RSS (${kb} kB)"
done

# A 200 MB line (no NUL) as line 3.
{ printf 'BenchmarkA 1 100 ns/op\nkey: value\n'; head -c 200000000 /dev/zero | tr '\0' a; } \
    > "$TEST_TMP/long.txt"
peak db import --db "$DB" "$TEST_TMP/long.txt"
is "$rc" 2 "a 200 MB line: exit 2"
like "$(cat "$TEST_TMP/out")" "long.txt:3: a line longer than 64 KiB" "  naming line 3, not line 0"
ok "$([ "$kb" -lt $LIMIT ]; echo $?)" "  under $((LIMIT / 1024)) MB peak RSS (${kb} kB)"
rm -f "$TEST_TMP/long.txt"
ok "$([ ! -e "$DB" ] || [ "$(sqlite3 "$DB" 'SELECT count(*) FROM runs')" = 0 ]; echo $?)" \
    "nothing was imported by any of them"

# A large good file streams: 300000 lines of results after junk.
awk 'BEGIN { print "junk line"; print "goos: linux";
    for (i = 0; i < 300000; i++) printf "BenchmarkS/n=%d-2 1 %d ns/op\n", i % 7, 100 + i % 13 }' \
    > "$TEST_TMP/big.txt"
peak db import --db "$DB" "$TEST_TMP/big.txt"
is "$rc" 0 "a file of 300000 results imports"
like "$(cat "$TEST_TMP/out")" "300000 values" "  every value"
ok "$([ "$kb" -lt $LIMIT ]; echo $?)" "  under $((LIMIT / 1024)) MB peak RSS (${kb} kB)"
tail -n 5 "$TEST_TMP/big.txt" | "$ABBENCH" db import --db "$DB" - > "$TEST_TMP/pipe.out" 2>&1
is "$?" 0 "from a pipe as well"
like "$(cat "$TEST_TMP/pipe.out")" "5 values" "  5 values"
done_testing
