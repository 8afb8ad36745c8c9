#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Workload gobench: a program printing Go benchmark format (several
# benchmarks and units, config lines, -v noise and a --- FAIL) run 4 rounds
# x 2 arms. What `abbench stat --db` prints equals `abbench stat` on the
# program's outputs concatenated per arm; the failing benchmark is stored
# as failed; {runtime} and friends reach the program's argv.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

fake=$ABBENCH_SRCDIR/tests/data/gobench/fake-bench.sh
db=$TEST_TMP/g.db
log=$TEST_TMP/argv.log
cat > "$TEST_TMP/g.ini" <<EOF2
[experiment]
name = gobench-test
rounds = 4

[arm before]
runtime = rt-old

[arm after]
runtime = rt-new

[workload Fake]
type = gobench
args = $fake {arm} {round} {runtime} $log
EOF2

"$ABBENCH" run "$TEST_TMP/g.ini" --db "$db" --quiet 2>"$TEST_TMP/err"
is "$?" 1 "a run with a failing benchmark exits 1"
is "$(sqlite3 "$db" "SELECT status FROM runs")" done "the run completes"
is "$(wc -l < "$log" | tr -d ' ')" 8 "8 invocations"
is "$(sort "$log" | tr '\n' ' ')" "after 0 rt-new after 1 rt-new after 2 rt-new after 3 rt-new before 0 rt-old before 1 rt-old before 2 rt-old before 3 rt-old " "{arm} {round} {runtime} were substituted per sample"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE status = 'ok'")" 56 "7 values x 8 invocations stored"
is "$(sqlite3 "$db" "SELECT DISTINCT benchmark || ' ' || unit FROM samples WHERE status = 'ok' ORDER BY 1" | tr '\n' ',')" \
    "Size-2 B/s,Startup/mode=cold-2 B/op,Startup/mode=cold-2 allocs/op,Startup/mode=cold-2 sec/op,Startup/mode=warm-2 B/op,Startup/mode=warm-2 allocs/op,Startup/mode=warm-2 sec/op," \
    "names kept as printed, units tidied as benchstat does"
is "$(sqlite3 "$db" "SELECT value FROM samples WHERE arm = 'after' AND round = 2 AND benchmark = 'Startup/mode=cold-2' AND unit = 'sec/op'")" \
    "8.06e-07" "ns/op values are stored in seconds"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE status = 'failed' AND benchmark = 'Broken'")" 8 "the failing benchmark is stored as failed, each time"
like "$(sqlite3 "$db" "SELECT error FROM samples WHERE benchmark = 'Broken' LIMIT 1")" "connection refused" "its error text says why"
is "$(sqlite3 "$db" "SELECT value FROM run_config WHERE key = 'pkg'")" "example.com/fake" "the program's config lines are kept with the run"

# The same lines, split per arm, through abbench stat.
for arm in before after; do
	for r in 0 1 2 3; do
		"$fake" "$arm" "$r" x /dev/null 2>/dev/null
	done > "$TEST_TMP/$arm.txt"
done
(cd "$TEST_TMP" && "$ABBENCH" stat before=before.txt after=after.txt) > "$TEST_TMP/files.out"
"$ABBENCH" stat --db "$db" last > "$TEST_TMP/db.out"
# Host metadata is config of the run, not of the program: compare the tables.
strip() { grep -v '^[a-z][a-z0-9_.-]*: ' "$1"; }
strip "$TEST_TMP/files.out" > "$TEST_TMP/files.tab"
strip "$TEST_TMP/db.out" > "$TEST_TMP/db.tab"
diff -u "$TEST_TMP/files.tab" "$TEST_TMP/db.tab" >&2
ok $? "abbench stat --db prints the tables abbench stat prints on the outputs"
like "$(cat "$TEST_TMP/db.tab")" "Startup/mode=cold-2 .* -20\.[0-9]+% \(p=0\.029 n=4\)" "the faster arm shows as significant"
done_testing
