#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A gobench program that prints 3 lines of a benchmark per invocation: the
# table's n=12 (benchstat's view, unchanged on standard output) comes with
# a word on what it counts (4 invocations of 3 lines) from `stat --db`, the
# report and the end of `run`; a program printing one line per invocation
# gets none.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/g.db
cat > three.sh <<'EOF2'
#!/bin/sh
echo "BenchmarkDockerTrue 1 0.0011 sec/op"
echo "BenchmarkDockerTrue 1 0.0012 sec/op"
echo "BenchmarkDockerTrue 1 0.0013 sec/op"
EOF2
cat > one.sh <<'EOF2'
#!/bin/sh
echo "BenchmarkDockerTrue 1 0.0011 sec/op"
EOF2
chmod +x three.sh one.sh
for p in three one; do
	printf '[experiment]\nname = %s\nrounds = 4\n\n[arm a]\n\n[arm b]\n\n[workload g]\ntype = gobench\nargs = %s/%s.sh\n' "$p" "$TEST_TMP" "$p" > $p.ini
	"$ABBENCH" run $p.ini --db "$DB" --quiet > /dev/null 2>&1
	ok $? "gobench run: $p line(s) per invocation"
done

"$ABBENCH" stat --db "$DB" 1 > out 2> err
ok $? "stat --db 1"
like "$(grep '^DockerTrue' out)" "n=12\)" "the table says n=12, as benchstat does"
grep -q 'note' out
is "$?" 1 "standard output is benchstat's tables only"
"$ABBENCH" db --db "$DB" export 1 | "$ABBENCH" stat -col arm - > piped 2>/dev/null
like "$(grep '^DockerTrue' piped)" "n=12\)" "stat of the export: the same n"
like "$(cat err)" "note: DockerTrue sec/op \(a\): n=12 counts the 3 lines of each of 4 invocations" \
    "stat --db says what n=12 counts (arm a)"
like "$(cat err)" "note: DockerTrue sec/op \([ab]\): n=12 .*; so does 1 other row\$" \
    "... and arm b, in the same line"
like "$(cat err)" "not independent" "... and why it matters"

"$ABBENCH" stat --db "$DB" 2 > out 2> err
like "$(grep '^DockerTrue' out)" "n=4\)" "one line per invocation: n=4"
grep -q 'counts' err
is "$?" 1 "... and no note"

"$ABBENCH" report --db "$DB" 1 -o r.md > /dev/null 2>&1
ok $? "report"
like "$(sed -n '/Benchstat tables/,/^## P/p' r.md)" "DockerTrue sec/op \(a\): n=12 counts the 3 lines of each of 4 invocations" \
    "the report says it under its tables"
"$ABBENCH" report --db "$DB" 2 -o r2.md > /dev/null 2>&1
grep -q 'counts the' r2.md
is "$?" 1 "not for one line per invocation"

"$ABBENCH" run three.ini --db "$DB" > out 2> err
ok $? "a run, not quiet"
like "$(cat err)" "note: DockerTrue sec/op \([ab]\): n=12 counts the 3 lines of each of 4 invocations" \
    "the end of the run says it too"
done_testing
