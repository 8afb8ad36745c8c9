#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The HTML report of a real run opens in headless Chromium: the screenshot
# is written, the inline SVG plots are SVG elements of the DOM, and the
# DOM's tables are abbench stat's output.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd gnuplot python3 chromium

db=$TEST_TMP/r.db
fast_slow_exp "$TEST_TMP/ab.ini" chromeab 6
"$ABBENCH" run "$TEST_TMP/ab.ini" --db "$db" --quiet >/dev/null 2>&1
"$ABBENCH" report --db "$db" last -o "$TEST_TMP/r.html" >/dev/null
is "$?" 0 "the report is written"

# Chromium's own sandbox cannot run as root (docs/guide.md, "The report
# in a browser"): --no-sandbox then, and only then.
sandbox=
[ "$(id -u)" = 0 ] && sandbox=--no-sandbox
chrome() {
	timeout 120 chromium --headless $sandbox --disable-gpu \
	    --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$(mktemp -d "$TEST_TMP/chrome.XXXXXX")" "$@"
}

chrome --window-size=1200,2400 --screenshot="$TEST_TMP/shot.png" \
    "file://$TEST_TMP/r.html" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
is "$rc" 0 "chromium exits 0"
[ "$rc" -eq 0 ] || diag "$(tail -5 "$TEST_TMP/err")"
sig=$(head -c 8 "$TEST_TMP/shot.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
is "$sig" 89504e470d0a1a0a "the screenshot is a PNG"
sz=$(wc -c < "$TEST_TMP/shot.png" 2>/dev/null || echo 0)
ok "$([ "$sz" -gt 20000 ]; echo $?)" "the screenshot shows something ($sz bytes)"

chrome --dump-dom "file://$TEST_TMP/r.html" >"$TEST_TMP/dom.html" \
    2>"$TEST_TMP/err2"
is "$?" 0 "chromium --dump-dom exits 0"
got=$(python3 - "$TEST_TMP/dom.html" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
print(len(re.findall(r"<svg\b", t)), "parsererror" in t)
PY
)
is "$got" "2 False" "the DOM has the 2 inline SVG plots and no parse error"
python3 - "$TEST_TMP/dom.html" > "$TEST_TMP/got.txt" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="benchstat">(.*?)</pre>', t, re.S)
sys.stdout.write(html.unescape(m.group(1)) if m else "NO BLOCK\n")
PY
"$ABBENCH" stat --db "$db" last > "$TEST_TMP/want.txt" 2>/dev/null
cmp -s "$TEST_TMP/got.txt" "$TEST_TMP/want.txt"
ok $? "the tables Chromium shows equal abbench stat --db's output"

done_testing
