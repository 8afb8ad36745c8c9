#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Benchmark names are bytes (issue #53, finding 6). A gobench program
# prints a name with an invalid UTF-8 byte (0xFF), one with a NUL byte
# (BenchmarkNul\0After beside BenchmarkNul), and a 100 KB line between
# its results. The samples are ok with every result (the long line is
# skipped, not the sample: bufio.Scanner's "token too long" threw the
# sample away); the 0xFF is stored as the byte, the NUL escaped as \x00
# (it cut the name to "Nul", the same row as BenchmarkNul); `stat -format
# json` is valid JSON with U+FFFD for the byte (was not UTF-8), and both
# report formats are valid UTF-8, the byte as &#xFFFD; in HTML.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3 python3
plan 11

# prog.sh names: the names; prog.sh long: results around a 100 KB line.
cat > "$TEST_TMP/prog.sh" <<'EOS'
#!/bin/sh
printf 'goos: linux\n'
if [ "$1" = long ]; then
	printf 'BenchmarkBeforeLong-2 \t 10\t 400 ns/op\n'
	head -c 100000 /dev/zero | tr '\0' x
	printf '\n'
	printf 'BenchmarkAfterLong-2 \t 10\t 500 ns/op\n'
	exit 0
fi
printf 'BenchmarkBad\377Name-2 \t 10\t 100 ns/op\n'
printf 'BenchmarkNul\000After-2 \t 10\t 200 ns/op\n'
printf 'BenchmarkNul-2 \t 10\t 300 ns/op\n'
EOS
chmod +x "$TEST_TMP/prog.sh"
cat > "$TEST_TMP/g.ini" <<EOI
[experiment]
name = t0561
rounds = 2
[arm a]
[arm b]
[workload names]
type = gobench
args = $TEST_TMP/prog.sh names
[workload long]
type = gobench
args = $TEST_TMP/prog.sh long
EOI
DB=$TEST_TMP/g.db
"$ABBENCH" run "$TEST_TMP/g.ini" --db "$DB" --quiet > "$TEST_TMP/run.out" 2>&1
ok $? "the run exits 0" || sed 's/^/# /' "$TEST_TMP/run.out"
q() {
	sqlite3 "$DB" "$1"
}
is "$(q "SELECT count(DISTINCT plan_idx) || '/' || count(*) FROM samples WHERE status = 'ok'")" \
    8/20 "8 samples ok with every value (the 100 KB line skipped, not the sample)"
is "$(q "SELECT group_concat(hex(benchmark), ' ') FROM (SELECT DISTINCT benchmark FROM samples ORDER BY 1)")" \
    "$(printf 'AfterLong-2\nBad\377Name-2\nBeforeLong-2\nNul-2\nNul\\x00After-2\n' | LC_ALL=C sort | while IFS= read -r l; do printf '%s' "$l" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; echo; done | tr '\n' ' ' | sed 's/ $//')" \
    "names stored as printed: 0xFF as the byte, NUL as \\x00"
is "$(q "SELECT CAST(round(value * 1e9) AS INT) FROM samples WHERE benchmark = 'Nul-2' AND arm = 'a' AND round = 0")" \
    300 "BenchmarkNul keeps its own value (not the NUL name's)"

"$ABBENCH" stat --db "$DB" -format json 1 > "$TEST_TMP/stat.json" 2> "$TEST_TMP/stat.err"
ok $? "stat -format json exits 0" || sed 's/^/# /' "$TEST_TMP/stat.err"
python3 - "$TEST_TMP/stat.json" > "$TEST_TMP/json.check" 2>&1 <<'EOP'
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
names = set()
def walk(x):
    if isinstance(x, dict):
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
    elif isinstance(x, str):
        names.add(x)
walk(doc)
print("fffd" if any("Bad\ufffdName" in s for s in names) else "no fffd")
print("nul" if any("Nul\\x00After" in s for s in names) else "no nul")
EOP
ok $? "  it is valid JSON in UTF-8" || sed 's/^/# /' "$TEST_TMP/json.check"
is "$(tr '\n' ' ' < "$TEST_TMP/json.check")" "fffd nul " \
    "  the 0xFF as U+FFFD, the NUL name as written in the store"

"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.html" > "$TEST_TMP/rep.out" 2>&1
ok $? "report (HTML) exits 0" || sed 's/^/# /' "$TEST_TMP/rep.out"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8", "strict")' "$TEST_TMP/r.html"
ok $? "  the HTML is valid UTF-8 (it says charset=utf-8)"
grep -q 'Bad&#xFFFD;Name' "$TEST_TMP/r.html"
ok $? "  the byte is the entity of U+FFFD"
"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.md" > "$TEST_TMP/md.out" 2>&1 &&
    python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8", "strict")' "$TEST_TMP/r.md"
ok $? "the Markdown report is valid UTF-8 too"
done_testing
