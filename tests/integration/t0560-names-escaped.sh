#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Output escapes what it prints (issue case 9): arms named a\b, a%n, %,
# a%5, a%s and <script> go through --json-progress (every line parses as
# JSON and gives the name back), `plot` (gnuplot accepts them; the labels
# read as written) and both report formats (no raw <script>). A name with
# '"' is refused by the loader (FILE:LINE). An experiment file that is not
# UTF-8 is refused with FILE:LINE. When gnuplot fails half way, the HTML
# report's temporary directory is removed all the same (case 6).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3 gnuplot sqlite3

DB=$TEST_TMP/n.db
cat > "$TEST_TMP/n.ini" <<'EOI'
[experiment]
name = names
rounds = 2
[arm a\b]
args = true
[arm a%n]
args = true
[arm %]
args = true
[arm a%5]
args = true
[arm a%s]
args = true
[arm <script>]
args = true
[workload Cmd]
type = command
EOI
"$ABBENCH" run --json-progress --db "$DB" "$TEST_TMP/n.ini" \
    > "$TEST_TMP/progress" 2> "$TEST_TMP/err"
is "$?" 0 "the run with odd names succeeds"
is "$(wc -l < "$TEST_TMP/progress" | tr -d ' ')" 12 "12 progress lines"
python3 - "$TEST_TMP/progress" > "$TEST_TMP/arms" 2>&1 <<'EOP'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line)
EOP
is "$?" 0 "every --json-progress line parses as JSON"
python3 - "$TEST_TMP/progress" <<'EOP'
import json, sys
got = {json.loads(l)["arm"] for l in open(sys.argv[1], encoding="utf-8")}
want = {"a\\b", "a%n", "%", "a%5", "a%s", "<script>"}
sys.exit(0 if got == want else print(sorted(got)) or 1)
EOP
ok $? "and gives every name back exactly as written"

"$ABBENCH" plot --db "$DB" 1 -o "$TEST_TMP/plots" > "$TEST_TMP/plot.out" 2>&1
is "$?" 0 "plot succeeds with the names as tic labels"
svg=$(ls "$TEST_TMP"/plots/*.png 2>/dev/null | head -1)
ok "$([ -n "$svg" ]; echo $?)" "  and writes plots"
"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.html" > /dev/null 2>&1
is "$?" 0 "the HTML report succeeds"
for n in 'a%n' 'a%5' 'a%s'; do
	grep -qF ">$n<" "$TEST_TMP/r.html"
	ok $? "  its SVG plot shows the label $n as written"
done
ok "$(! grep -q '<script>' "$TEST_TMP/r.html"; echo $?)" "  no raw <script> in the HTML"
grep -qF '&lt;script&gt;' "$TEST_TMP/r.html"
ok $? "  the name is there escaped"
"$ABBENCH" report --db "$DB" 1 -o "$TEST_TMP/r.md" > /dev/null 2>&1
is "$?" 0 "the Markdown report succeeds"
# Fenced code blocks show text as it is: outside them, nothing raw.
awk '/^````/ { code = !code; next } !code' "$TEST_TMP/r.md" > "$TEST_TMP/r.prose"
ok "$(! grep -q '<script>' "$TEST_TMP/r.prose"; echo $?)" \
    "  no raw <script> in the Markdown outside code blocks"
grep -qF '&lt;script&gt;' "$TEST_TMP/r.md"
ok $? "  the name is there escaped"

# A plot that fails half way: the report's temporary directory goes too.
mkdir -p "$TEST_TMP/fakebin" "$TEST_TMP/rtmp"
# It starts the file it was told to write, then fails.
cat > "$TEST_TMP/fakebin/gnuplot" <<'EOG'
#!/bin/sh
out=$(sed -n 's/^set output "\(.*\)"$/\1/p' | head -n 1)
[ -n "$out" ] && echo '<svg broken' > "$out"
echo "fake gnuplot: broken" >&2
exit 1
EOG
chmod +x "$TEST_TMP/fakebin/gnuplot"
PATH=$TEST_TMP/fakebin:$PATH TMPDIR=$TEST_TMP/rtmp "$ABBENCH" report --db "$DB" 1 \
    -o "$TEST_TMP/r2.html" > /dev/null 2>&1
grep -q "Some plots are missing" "$TEST_TMP/r2.html"
ok $? "with gnuplot failing the report says plots are missing"
is "$(ls -A "$TEST_TMP/rtmp")" "" "  and leaves no temporary directory in \$TMPDIR"

printf '[experiment]\nname = q\n[arm a"b]\nargs = true\n[workload w]\ntype = command\n' \
    > "$TEST_TMP/q.ini"
"$ABBENCH" run --db "$TEST_TMP/q.db" "$TEST_TMP/q.ini" > "$TEST_TMP/q.out" 2>&1
is "$?" 2 "an arm named a\"b is refused (exit 2)"
like "$(cat "$TEST_TMP/q.out")" "q.ini:3: arm name 'a\"b' must not contain" \
    "  naming the file and line"

# Latin-1: refused with the file and line.
printf '[experiment]\nname = caf\351\n[arm a]\nargs = true\n[workload w]\ntype = command\n' \
    > "$TEST_TMP/latin1.ini"
"$ABBENCH" run --db "$TEST_TMP/l.db" "$TEST_TMP/latin1.ini" > "$TEST_TMP/l.out" 2>&1
is "$?" 2 "a Latin-1 experiment file is refused (exit 2)"
like "$(cat "$TEST_TMP/l.out")" "latin1.ini:2: the file is not UTF-8" \
    "  naming the file, the line and UTF-8"
done_testing
