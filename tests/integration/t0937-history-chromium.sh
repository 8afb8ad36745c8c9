#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench history on a history written through the store API
# (tests/helpers/mkhistory: 40 nights, 1% noise) with steps at known
# nights: Startup +20% from night 13, Fio (iops) -15% from night 26, and a
# benchmark named We"ird%\<b>/x=1 +10% from night 31. The JSON has the
# change points and the alarms at those nights and the names as they are;
# the page escapes the name, opens in headless Chromium with every chart,
# and in its screenshot, filtered to one chart by the page's address, the
# change point's orange line and the alarm's red triangle stand at the
# step's night (tests/helpers/pngmarks.py reads the pixels).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3 chromium

MK=$ABBENCH_BUILDDIR/tests/helpers/mkhistory
[ -x "$MK" ] || skip_all "tests/helpers/mkhistory is not built (make check)"
MARKS=$ABBENCH_SRCDIR/tests/helpers/pngmarks.py
NAME='We"ird%\<b>/x=1'
db=$TEST_TMP/h.db
"$MK" -n 40 -x Startup:20:12 -x Fio:-15:25 -b "$NAME" -x 'We"ird%\<b>:10:30' \
    "$db" >/dev/null
is "$?" 0 "the history is written"

"$ABBENCH" history --db "$db" last --json >"$TEST_TMP/h.json" 2>"$TEST_TMP/err"
is "$?" 0 "history --json exits 0"
got=$(python3 - "$TEST_TMP/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
for s in d["series"]:
    if s["shape"] != "synth-host":
        continue
    cps = ",".join("%d:%+.0f" % (c["night"], 100 * c["rel"])
                   for c in s["change_points"])
    al = ",".join("%d:%s" % (a["night"], a["verdict"]) for a in s["alarms"])
    print("%s|%s|%s|%d" % (s["benchmark"], cps, al, len(s["nights"])))
PY
)
want=$(printf '%s\n' \
    'Startup/runtime=runc|13:+20|13:regressed|40' \
    'Fio/bs=4k|26:-15|26:regressed|40' \
    'Memory|||40' \
    "$NAME|31:+10|31:regressed|40")
is "$got" "$want" "JSON: the change points and the alarms at the steps' nights, the names as they are"
like "$(python3 -c 'import json,sys; print(sorted(s["shape"] for s in json.load(open(sys.argv[1]))["shapes"]))' "$TEST_TMP/h.json")" \
    "\['other-host', 'synth-host'\]" "JSON: both shapes (hosts) the experiment ran on"
grep -q 'We\\"ird%\\\\<b>/x=1' "$TEST_TMP/h.json"
ok $? "JSON: the quote and the backslash escaped as JSON says"

"$ABBENCH" history --db "$db" last -o "$TEST_TMP/h.html" >/dev/null
is "$?" 0 "the page is written"
grep -q 'We&quot;ird%\\&lt;b&gt;/x=1' "$TEST_TMP/h.html"
ok $? "HTML: the name escaped"
grep -q 'We"ird%\\<b>' "$TEST_TMP/h.html"
is "$?" 1 "HTML: the name never raw"
grep -Eiq '(src|href)="?(https?:)?//' "$TEST_TMP/h.html"
is "$?" 1 "HTML: nothing from the network"

# Chromium's own sandbox cannot run as root (docs/guide.md, "The report
# in a browser"): --no-sandbox then, and only then.
sandbox=
[ "$(id -u)" = 0 ] && sandbox=--no-sandbox
chrome() {
	timeout 120 chromium --headless $sandbox --disable-gpu \
	    --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync --hide-scrollbars \
	    --force-device-scale-factor=1 \
	    --user-data-dir="$(mktemp -d "$TEST_TMP/chrome.XXXXXX")" "$@"
}

chrome --window-size=1200,900 --dump-dom "file://$TEST_TMP/h.html" \
    >"$TEST_TMP/dom.html" 2>"$TEST_TMP/err2"
is "$?" 0 "chromium --dump-dom exits 0"
got=$(python3 - "$TEST_TMP/dom.html" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.figs, self.cps, self.count = [], [], ""
        self.in_count = False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "figure":
            self.figs.append(a.get("data-bench"))
            self.cps.append([])
        if tag == "line" and "cp" in (a.get("class") or "").split():
            self.cps[-1].append(a["data-night"])
        self.in_count = a.get("id") == "f-count"
    def handle_endtag(self, tag):
        self.in_count = False
    def handle_data(self, d):
        if self.in_count:
            self.count += d
t = open(sys.argv[1], encoding="utf-8").read()
p = P()
p.feed(t)
print(len(p.figs), "parsererror" in t, p.count)
for b, c in zip(p.figs, p.cps):
    if c:
        print(b, ",".join(c))
PY
)
want=$(printf '%s\n' '8 False 8 of 8 series shown' \
    'Startup/runtime=runc 13' 'Fio/bs=4k 26' "$NAME 31")
is "$got" "$want" "DOM: 8 charts shown, the change point marks at nights 13, 26, 31, the name unescaped in the DOM"

# One chart, chosen by the page's address, its marks found in the pixels.
shot() {
	chrome --window-size=1200,700 --screenshot="$TEST_TMP/shot.png" \
	    "file://$TEST_TMP/h.html#shape=synth-host&bench=$1" \
	    >/dev/null 2>"$TEST_TMP/err3"
	python3 "$MARKS" "$TEST_TMP/shot.png" 40 | awk '
	    { printf "%s %s\n", $1, ($2 - int($2) >= 0.5 ? int($2) + 1 : int($2)); d = $2 - int($2 + 0.5); if (d < 0) d = -d; if (d > 0.3) bad = 1 }
	    END { if (bad) print "off" }'
}
is "$(shot Startup)" "$(printf 'cp 13\nalarm 13')" \
    "screenshot: Startup's change point and alarm at night 13"
is "$(shot Fio)" "$(printf 'cp 26\nalarm 26')" \
    "screenshot: Fio's change point and alarm at night 26"
enc=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' 'We"ird%\<b')
is "$(shot "$enc")" "$(printf 'cp 31\nalarm 31')" \
    "screenshot: the odd name's chart, filtered by its name, at night 31"
cp "$TEST_TMP/shot.png" "$TEST_TMP/last-shot.png"

# The latest 20 nights: numbered as before, the steps in them found.
got=$("$ABBENCH" history --db "$db" last --json --nights 20 | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [p for p in d["shapes"] if p["shape"] == "synth-host"][0]["nights"]
s = [s for s in d["series"] if s["shape"] == "synth-host"]
print(p[0]["night"], len(p), " ".join("%s:%s" % (x["benchmark"][:3],
      ",".join(str(c["night"]) for c in x["change_points"])) for x in s))')
is "$got" "21 20 Sta: Fio:26 Mem: We\":31" "--nights 20: nights 21 to 40, the steps at 26 and 31"

# A name with a byte that is not UTF-8: U+FFFD in the JSON (valid UTF-8,
# the key kept), &#xFFFD; in the page.
"$MK" -n 8 -b "$(printf 'Bad\377byte')" "$TEST_TMP/b.db" >/dev/null
"$ABBENCH" history --db "$TEST_TMP/b.db" last --json >"$TEST_TMP/b.json"
got=$(python3 -c 'import json, sys; print(ascii(sorted(s["benchmark"] for s in json.load(open(sys.argv[1], encoding="utf-8"))["series"] if s["benchmark"].startswith("Bad"))))' "$TEST_TMP/b.json")
is "$got" "['Bad\ufffdbyte', 'Bad\ufffdbyte']" "JSON: a byte that is not UTF-8 is U+FFFD, on both shapes"
"$ABBENCH" history --db "$TEST_TMP/b.db" last -o "$TEST_TMP/b.html" >/dev/null
ok "$(grep -c 'Bad&#xFFFD;byte' "$TEST_TMP/b.html" | awk '{ print ($1 >= 2) ? 0 : 1 }')" \
    "HTML: the byte as &#xFFFD;"

# nightly's report embeds the history.
"$ABBENCH" nightly --db "$db" --no-run last -q -o "$TEST_TMP/n.html" >/dev/null 2>&1
is "$?" 0 "nightly of night 40 (the steps known) writes its report, exit 0"
got=$(python3 - "$TEST_TMP/n.html" <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
h = t[t.find('<h2 id="history"'):]
h = h[:h.find("<h2", 4)]
print(len(re.findall(r"<figure\b", h)),
      " ".join(re.findall(r'class="cp" data-night="(\d+)"', h)))
PY
)
is "$got" "8 13 26 31" "nightly's report: the history's 8 charts, change points at 13, 26, 31"

"$ABBENCH" history --db "$db" 'nothing@last' >/dev/null 2>"$TEST_TMP/err4"
is "$?" 2 "an unknown experiment exits 2"

done_testing
