#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A duration below its minimum gets one message wherever it is written
# (the experiment file, --KEY=VALUE on the command line): the bound in the
# units a user writes ("1ms", not "0.001s"), and 0 said to be not allowed.
# The flag forms (--timeout 0 with a space) are the command-line parser's
# (issue 24); this checks the value side they all share.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3

exp() {
	printf '[experiment]\nname = dur\nrounds = 1\n%s\n[arm a]\nargs = true\n[workload w]\ntype = command\n' \
	    "$1" > "$TEST_TMP/e.ini"
}
exp "timeout = 0"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/e.ini" > "$TEST_TMP/f0" 2>&1
is "$?" 2 "timeout = 0 in the file: exit 2"
like "$(cat "$TEST_TMP/f0")" "e.ini:4: timeout: '0': the duration must be at least 1ms \(0 is not allowed\)" \
    "  file:line:key, at least 1ms, 0 not allowed"
exp ""
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --timeout=0 "$TEST_TMP/e.ini" > "$TEST_TMP/c0" 2>&1
is "$?" 2 "--timeout=0: exit 2"
like "$(cat "$TEST_TMP/c0")" "timeout: '0': the duration must be at least 1ms \(0 is not allowed\)" \
    "  the same message as the file's"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --timeout=0.5ms "$TEST_TMP/e.ini" > "$TEST_TMP/c1" 2>&1
is "$?" 2 "--timeout=0.5ms: exit 2"
like "$(cat "$TEST_TMP/c1")" "timeout: '0.5ms' is shorter than 1ms, the minimum" \
    "  shorter than 1ms, the minimum"
exp "timeout = 200000h"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/e.ini" > "$TEST_TMP/f2" 2>&1
is "$?" 2 "timeout = 200000h: exit 2"
like "$(cat "$TEST_TMP/f2")" "e.ini:4: timeout: '200000h' is longer than 2777.78h, the maximum" \
    "  longer than the maximum, in hours"
exp "timeout = 1ms"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --rounds 1 "$TEST_TMP/e.ini" > "$TEST_TMP/ok" 2>&1
rc=$?
# Its samples may well time out in 1 ms: what matters is that it ran.
ok "$([ $rc -ne 2 ]; echo $?)" "timeout = 1ms, the minimum itself, passes the check (exit $rc)"
is "$(sqlite3 "$TEST_TMP/n.db" 'SELECT count(*) FROM runs')" 1 \
    "only the accepted one wrote a run"
done_testing
