#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Names that start with a quote reach gnuplot as text, never as commands
# (issue 25, item 9): arms named 'base and b'' and benchmarks named
# ';system("id>FILE") and `id>FILE` are plotted (every plot drawn, the
# names in the SVG titles and keys as written, FILE never made), and the
# report shows its plots. One plot gnuplot cannot draw does not stop the
# others: they are drawn, the failure is named, exit 1.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd gnuplot sqlite3

DB=$TEST_TMP/q.db
cat > "$TEST_TMP/q.ini" <<'EOI'
[experiment]
name = quotes
rounds = 2
[arm 'base]
args = true
[arm b'']
args = true
[workload W]
type = command
EOI
"$ABBENCH" run --quiet --db "$DB" "$TEST_TMP/q.ini" > "$TEST_TMP/run.out" 2>&1
is "$?" 0 "a run with arms 'base and b'' succeeds"
"$ABBENCH" plot --db "$DB" 1 --format svg -o "$TEST_TMP/p1" > "$TEST_TMP/p1.out" 2>&1
is "$?" 0 "plot exits 0"
is "$(ls "$TEST_TMP/p1" | wc -l | tr -d ' ')" 2 "  both plots of the run are drawn"
grep -qF "&apos;base" "$TEST_TMP"/p1/*.samples.svg || grep -qF "'base" "$TEST_TMP"/p1/*.samples.svg
ok $? "  the arm 'base is in the plot as written"
grep -qF "b&apos;&apos;" "$TEST_TMP"/p1/*.samples.svg || grep -qF "b''" "$TEST_TMP"/p1/*.samples.svg
ok $? "  and b'' too"
"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.html" > /dev/null 2>&1
is "$?" 0 "report exits 0"
ok "$(! grep -q 'Some plots are missing' "$TEST_TMP/r.html"; echo $?)" "  with every plot in it"
is "$(grep -c '<svg' "$TEST_TMP/r.html")" 2 "  two plots inline"

# Benchmarks whose names are gnuplot commands in disguise.
PW=$TEST_TMP/pwned
{
	echo "BenchmarkPlain-2 1 100 ns/op"
	echo "Benchmark';system(\"id>$PW\")-2 1 200 ns/op"
	echo "Benchmark\`id>$PW.bq\`-2 1 300 ns/op"
	echo "Benchmark'''x-2 1 400 ns/op"
} > "$TEST_TMP/b.txt"
"$ABBENCH" db import --db "$DB" "$TEST_TMP/b.txt" > /dev/null 2>&1
is "$?" 0 "a benchfmt file with such names imports"
"$ABBENCH" plot --db "$DB" 2 --format svg -o "$TEST_TMP/p2" > "$TEST_TMP/p2.out" 2>&1
is "$?" 0 "plot of them exits 0"
is "$(ls "$TEST_TMP/p2" | wc -l | tr -d ' ')" 4 "  all four plots drawn"
ok "$([ ! -e "$PW" ] && [ ! -e "$PW.bq" ]; echo $?)" "  nothing was executed"
grep -lF 'system(' "$TEST_TMP"/p2/*.svg > /dev/null
ok $? "  the name with system( is a title, as written"
grep -lF "&apos;&apos;&apos;x" "$TEST_TMP"/p2/*.svg > /dev/null ||
    grep -lF "'''x" "$TEST_TMP"/p2/*.svg > /dev/null
ok $? "  and so is '''x"

# One plot gnuplot fails on: the others are drawn all the same.
mkdir -p "$TEST_TMP/fakebin"
cat > "$TEST_TMP/fakebin/gnuplot" <<EOG
#!/bin/sh
cat > "$TEST_TMP/script.\$\$"
if grep -q 'Plain' "$TEST_TMP/script.\$\$"; then
	echo "fake gnuplot: cannot draw Plain" >&2
	exit 1
fi
exec "$(command -v gnuplot)" "$TEST_TMP/script.\$\$"
EOG
chmod +x "$TEST_TMP/fakebin/gnuplot"
PATH=$TEST_TMP/fakebin:$PATH "$ABBENCH" plot --db "$DB" 2 --format svg \
    -o "$TEST_TMP/p3" > "$TEST_TMP/p3.out" 2>&1
is "$?" 1 "with one plot failing, plot exits 1"
is "$(ls "$TEST_TMP/p3" | wc -l | tr -d ' ')" 3 "  the three other plots are drawn"
like "$(cat "$TEST_TMP/p3.out")" "1 plot could not be drawn \(3 drawn\).*Plain" \
    "  and the failed one is named"
done_testing
