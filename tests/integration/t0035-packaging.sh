#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0035-packaging: abbench can be packaged. `make install DESTDIR=...`
# puts the LICENSE (Apache-2.0) and the documentation under $(docdir);
# the manual page's ENVIRONMENT names every variable the sources read,
# FILES the host lock and journal, EXIT STATUS 0 1 2 3 130, SEE ALSO only
# pages that exist here; `--version` names the build's commit and the
# bug-report address configure has.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

require_cmd make man git
[ -f "$ABBENCH_BUILDDIR/Makefile" ] || skip_all "no build tree at $ABBENCH_BUILDDIR"

dest=$TEST_TMP/dest
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ABBENCH_BUILDDIR" \
    install DESTDIR="$dest" >"$TEST_TMP/install.log" 2>&1
ok $? "make install DESTDIR=... exits 0" || sed 's/^/# /' "$TEST_TMP/install.log"
prefix=$(sed -n 's/^prefix = //p' "$ABBENCH_BUILDDIR/Makefile")
docdir=$(sed -n 's/^docdir = //p' "$ABBENCH_BUILDDIR/Makefile" |
    sed "s|\${datarootdir}|$prefix/share|; s|\${PACKAGE_TARNAME}|abbench|")
root=$dest$prefix

grep -q 'Apache License' "$dest$docdir/LICENSE" &&
    grep -q 'Version 2.0, January 2004' "$dest$docdir/LICENSE"
ok $? "LICENSE (Apache-2.0) installed in $docdir"
for f in README.md recipes.md lifecycle.md fleet.md guide.md; do
	[ -s "$dest$docdir/$f" ] || { fail "$f not in $docdir"; continue; }
done
pass "the documentation is installed under \$(docdir)"
grep -q 'Apache License' "$ABBENCH_SRCDIR/LICENSE"
ok $? "LICENSE at the top of the tree"

page=$root/share/man/man1/abbench.1
out=$(MANWIDTH=200 man -l "$page" 2>"$TEST_TMP/man.err")
ok $? "man -l renders the page"
is "$(cat "$TEST_TMP/man.err")" "" "without a warning"
section() {	# the lines of a section of the rendered page
	printf '%s\n' "$out" | awk -v s="$1" '/^[A-Z]/ { on = ($0 == s) } on'
}
env=$(section ENVIRONMENT)
vars=$(cd "$ABBENCH_SRCDIR" && grep -rhoE 'getenv\("[A-Z_]+"\)' \
    harness host exec results lib workloads stats payload |
    sed 's/getenv("//; s/")//' | sort -u)
missing=
for v in $vars; do
	printf '%s\n' "$env" | grep -qw "$v" || missing="$missing $v"
done
is "$missing" "" "ENVIRONMENT names every variable the sources read ($(echo $vars | wc -w))"
files=$(section FILES)
like "$files" "host\.lock" "FILES: the host lock"
like "$files" "journal\.db" "FILES: the host journal"
exits=$(section "EXIT STATUS")
for c in 0 1 2 3 130; do
	printf '%s\n' "$exits" | grep -qE "^ +$c( |$)" || fail "EXIT STATUS lacks $c"
done
pass "EXIT STATUS: 0 1 2 3 130"
see=$(section "SEE ALSO")
bad=
for p in $(printf '%s\n' "$see" | grep -oE '[a-z0-9-]+\([0-9]\)'); do
	name=${p%%(*}
	man -w "$name" > /dev/null 2>&1 || bad="$bad $p"
done
is "$bad" "" "SEE ALSO names only pages that exist here"
like "$see" "$docdir" "SEE ALSO points at the installed documentation"

v=$("$root/bin/abbench" --version)
want=$(cd "$ABBENCH_SRCDIR" && git describe --always --dirty --tags 2>/dev/null)
like "$v" "^abbench [0-9.]+ \($want\)" "--version names the build's commit ($want)"
bug=$(sed -n 's/^PACKAGE_BUGREPORT = //p' "$ABBENCH_BUILDDIR/Makefile")
[ -n "$bug" ]
ok $? "configure has a bug-report address ($bug)"
like "$v" "Report bugs to <$bug>" "--version gives it"
done_testing
