#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 9: docs/README-plots.md was stale (a
# quickstart of dd writes, a picture that no longer exists, no shapes
# plot). It is folded into docs/guide.md: every docs/ file the
# documentation names exists, every kind of plot `abbench plot --help`
# names is in the guide's table, and the file name the guide gives for
# the README's picture is the one `abbench plot` writes.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
cd "$ABBENCH_SRCDIR" || exit 1
missing=
for f in README.md docs/*.md; do
	for d in $(grep -o 'docs/[A-Za-z0-9_.-]*\.\(md\|png\)' "$f" | sort -u); do
		[ -e "$d" ] || missing="$missing $f:$d"
	done
done
is "$missing" "" "every docs/ file the documentation names exists"
kinds=$("$ABBENCH" plot --help 2>&1 | grep -o 'NAME\.UNIT\.[a-z]*' | sort -u |
    sed 's/^NAME\.UNIT\.//')
ok "$(test -n "$kinds"; echo $?)" "plot --help names its kinds ($(echo $kinds))"
for k in $kinds; do
	file_like docs/guide.md "^\| \`(NAME|BASE)\.UNIT\.$k\.png\` \|" \
	    "the guide's table shows the $k plot"
done

require_cmd gnuplot
cd "$TEST_TMP" || exit 1
cat >q.txt <<EOI
Unit iops better=higher
arm: idle8
BenchmarkReaders/c8/local-total-2 1 51000 iops
BenchmarkReaders/c8/local-total-2 1 52000 iops
BenchmarkReaders/c8/local-total-2 1 53000 iops
EOI
"$ABBENCH" db import --db q.db q.txt >/dev/null 2>&1
"$ABBENCH" plot --db q.db last -o plots >out 2>&1
ok $? "plot of a row named like the quickstart's total" || diag "$(cat out)"
name=$(sed -n 's|^cp /tmp/qs-plots/\([^ ]*\.samples\.png\) docs/.*|\1|p' \
    "$ABBENCH_SRCDIR/docs/guide.md")
ok "$(test -n "$name" && test -s "plots/$name"; echo $?)" \
    "the guide's file name ($name) is the one plot writes ($(ls plots | tr '\n' ' '))"
done_testing
