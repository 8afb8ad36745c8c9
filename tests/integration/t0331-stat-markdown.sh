#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench stat -format markdown` (abbench's own, like -format json): the
# tables stat prints as GitHub tables to paste into a code review. The
# config lines are a list, each table a GitHub table (the unit, then a
# column per input and a `vs base` column after every other input), the
# footnotes one paragraph each. What comes from the data (names, labels,
# config values, the footnotes' text) is escaped once: \ ` * _ [ ] < > &
# ~ # and | with a backslash (GitHub's own escape, which in a table cell
# also keeps | from splitting it), a control byte and a byte that is not
# UTF-8 as U+FFFD; " and % as they are. GitHub's own renderer (cmark-gfm,
# scripts/setup --all) shows every name as it is. The same from the
# store (--db). Before: "-format must be text or csv" and nothing on
# standard output.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3 cmark-gfm
plan 9

cd "$TEST_TMP" || exit 1
# three samples an input: the tables' footnotes and a ~ row.
for f in old new; do
	{
		echo 'goos: linux'
		echo 'note: a|b <i>x</i> & "q" 100% c:\dir'
		for v in $([ $f = old ] && echo 100 102 101 || echo 150 152 151); do
			echo "BenchmarkPipe|a<b>-2 1 $v ns/op"
		done
		for v in 200 $([ $f = old ] && echo 210 205 || echo 211 204); do
			echo "BenchmarkQuote\"x%y\\z_*w*-2 1 $v ns/op"
		done
	} > $f.txt
done
cat > want.md <<'EOF'
- goos: linux
- note: a\|b \<i\>x\</i\> \& "q" 100% c:\\dir

| sec/op | old\|\`a\` | new\<b\> | vs base |
|:---|---:|---:|---:|
| Pipe\|a\<b\>-2 | 101.0n ± ∞ ¹ | 151.0n ± ∞ ¹ | ~ (p=0.100 n=3) ² |
| Quote"x%y\\z\_\*w\*-2 | 205.0n ± ∞ ¹ | 204.0n ± ∞ ¹ | ~ (p=1.000 n=3) ² |
| geomean | 143.9n | 175.5n | +21.97% |

¹ need \>= 6 samples for confidence interval at level 0.95

² need \>= 4 samples to detect a difference at alpha level 0.05
EOF
"$ABBENCH" stat -format markdown 'old|`a`=old.txt' 'new<b>=new.txt' \
    > got.md 2> err
ok $? "stat -format markdown exits 0" || sed 's/^/# /' err
is "$(cat err)" "" "nothing on standard error"
diff want.md got.md > diff.out
ok $? "the tables as GitHub tables, odd names escaped" ||
    sed 's/^/# /' diff.out

# cells FILE: each table line's cell count (| not escaped by a backslash
# splits), and whether the text is valid UTF-8 with no raw < > & or a
# control byte: "5 5 5 ok".
cells() {
	python3 - "$1" <<'EOP'
import re, sys
raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8", "strict")
    bad = re.search(r"(?<!\\)[<>&]|[\x00-\x08\x0b-\x1f\x7f]", text)
    state = "ok" if bad is None else "raw %r" % bad.group(0)
except UnicodeDecodeError as e:
    state = "not UTF-8: %s" % e
counts = []
for line in text.splitlines():
    if line.startswith("|"):
        counts.append(str(len(re.findall(r"(?<!\\)(?:\\\\)*\|", line)) - 1))
print(" ".join(sorted(set(counts))), state)
EOP
}
# The odd names of the JSON vector: a quote, %, a backslash, <script>,
# control bytes, a byte that is not UTF-8, µ.
V=$ABBENCH_SRCDIR/tests/data/benchstat/json_odd_names
"$ABBENCH" stat -format markdown "$V/old.txt" "$V/new.txt" > odd.md 2> err
is "$(cells odd.md)" "4 ok" \
    "odd names: every table line has 4 cells; UTF-8, nothing raw" ||
    sed 's/^/# /' odd.md
is "$(grep -c "^| " odd.md)" 9 "the header, 7 rows and the geomean (the delimiter row apart)" ||
    sed 's/^/# /' odd.md

# shown FILE: the table's header and first-column cells as GitHub's
# renderer shows them (HTML entities read), one a line.
shown() {
	cmark-gfm -e table --unsafe "$1" | python3 -c '
import html, re, sys
for m in re.finditer(r"<t[hd] align=\"left\">(.*?)</t[hd]>|<th align=\"right\">(.*?)</th>", sys.stdin.read()):
    print(html.unescape(m.group(1) if m.group(1) is not None else m.group(2)).encode("unicode_escape").decode())
'
}
is "$(shown got.md | tr '\n' ' ')" \
    'sec/op old|`a` new<b> vs base Pipe|a<b>-2 Quote"x%y\\z_*w*-2 geomean ' \
    "GitHub's renderer shows the names and labels as they are"
is "$(shown odd.md | tr '\n' ' ')" \
    "sec/op $V/old.txt $V/new.txt vs base Quote\"d-2 Pct%sx%d-2 Back\\\\slash-2 Lt<script>-2 Ctl\\ufffd\\ufffdX-2 Bad\\ufffdName-2 Micro\\xb5s-2 geomean " \
    "and the odd names, a control byte or a byte that is not UTF-8 as U+FFFD"

# From the store: the same tables.
"$ABBENCH" db --db t.db import 'old|`a`=old.txt' 'new<b>=new.txt' > out 2>&1 ||
    sed 's/^/# /' out
"$ABBENCH" stat --db t.db -format markdown last > db.md 2> err
ok $? "stat --db -format markdown exits 0" || sed 's/^/# /' err
grep -v '^- ' db.md | grep -v '^$' > db.tables
grep -v '^- ' want.md | grep -v '^$' > want.tables
diff want.tables db.tables > diff.out
ok $? "the store's run gives the same tables" || sed 's/^/# /' diff.out
done_testing
