#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gobench parses the program's stdout as it streams (issue 25, item 8):
# 1 GiB of output ending in one result is read under 64 MB peak RSS and
# the result is stored; a flood of results keeps the first 100000 values
# and says it cut the rest (a failed row of the workload); a program that
# fails with nothing on stderr is described by the end of its stdout.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
[ -x /usr/bin/time ] || skip_all "GNU time (/usr/bin/time) is not installed"

# 64 MB, or 256 MB for a sanitizer build (its shadow memory; and freed
# memory is held in quarantine, so keep that small), as t0330 does.
LIMIT=65536
if nm "$ABBENCH" 2>/dev/null | grep -q __asan_init; then
	LIMIT=262144
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
	export ASAN_OPTIONS
fi

# One sample each: max-failures = 1 ends a run at its failed sample
# (without, its round would be made up).
exp() {
	printf '[experiment]\nname = %s\nrounds = 1\nmax-failures = 1\n[arm a]\n[workload %s]\ntype = gobench\nargs = sh -c "%s"\n' \
	    "$1" "$1" "$2" > "$TEST_TMP/$1.ini"
}

exp Big "yes 'some junk output line of the program under test' | head -c 1073741824; echo; echo 'BenchmarkLast-2 1 123 ns/op'"
/usr/bin/time -v -o "$TEST_TMP/time" "$ABBENCH" run --quiet --db "$TEST_TMP/big.db" \
    "$TEST_TMP/Big.ini" > "$TEST_TMP/big.out" 2>&1
is "$?" 0 "1 GiB of output and one result: the run succeeds"
kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TEST_TMP/time")
ok "$([ "$kb" -lt $LIMIT ]; echo $?)" "  under $((LIMIT / 1024)) MB peak RSS (${kb} kB)"
is "$(sqlite3 "$TEST_TMP/big.db" "SELECT benchmark || ' ' || unit || ' ' || value || ' ' || status FROM samples")" \
    "Last-2 sec/op 1.23e-07 ok" "  and the result after the flood is stored"

exp Flood "awk 'BEGIN { for (i = 0; i < 150000; i++) printf \\\"BenchmarkF-2 1 %d ns/op\\\\n\\\", 100 + i % 7 }'"
"$ABBENCH" run --quiet --db "$TEST_TMP/flood.db" "$TEST_TMP/Flood.ini" \
    > "$TEST_TMP/flood.out" 2>&1
is "$(sqlite3 "$TEST_TMP/flood.db" "SELECT count(*) FROM samples WHERE status = 'ok'")" \
    100000 "150000 results: the first 100000 values are kept"
like "$(sqlite3 "$TEST_TMP/flood.db" "SELECT benchmark || ': ' || error FROM samples WHERE status = 'failed'")" \
    "^Flood: output cut: [0-9]+ bytes, only the first 100000 values kept \(50000 more dropped\)" \
    "  and a failed row says the output was cut"

exp Quiet "yes 'a line of progress' | head -n 100000; echo 'the last words before dying'; exit 3"
"$ABBENCH" run --quiet --db "$TEST_TMP/quiet.db" "$TEST_TMP/Quiet.ini" \
    > "$TEST_TMP/quiet.out" 2>&1
like "$(sqlite3 "$TEST_TMP/quiet.db" "SELECT error FROM samples WHERE status = 'failed'" | tr '\n' ' ')" \
    "exited 3.*the last words before dying" \
    "a failure with nothing on stderr names the end of stdout"
is "$(sqlite3 "$TEST_TMP/quiet.db" "SELECT length(error) < 2000 FROM samples WHERE status = 'failed'")" 1 \
    "  only its last lines"
done_testing
