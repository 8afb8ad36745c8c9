#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0030-install: an installed abbench is whole. `make install DESTDIR=...`,
# then from that tree alone: its manual page renders, `abbench run NAME
# --help` finds the shipped experiment NAME, and abbench-build-image builds
# the tools rootfs with the installed workload programs in it.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

require_cmd make man
[ -f "$ABBENCH_BUILDDIR/Makefile" ] || skip_all "no build tree at $ABBENCH_BUILDDIR"

dest=$TEST_TMP/dest
# Nothing of the build or source tree may leak into the installed one.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ABBENCH_BUILDDIR" \
    install DESTDIR="$dest" >"$TEST_TMP/install.log" 2>&1
ok $? "make install DESTDIR=... exits 0" || sed 's/^/# /' "$TEST_TMP/install.log"

prefix=$(sed -n 's/^prefix = //p' "$ABBENCH_BUILDDIR/Makefile")
root=$dest$prefix
bin=$root/bin
unset ABBENCH_BUILDDIR ABBENCH_SRCDIR ABBENCH_LIBEXEC ABBENCH_EXPERIMENTS
cd "$TEST_TMP" || exit 1

page=$root/share/man/man1/abbench.1
[ -f "$page" ]
ok $? "abbench.1 is installed"
out=$(MANWIDTH=80 man -l "$page" 2>"$TEST_TMP/man.err")
ok $? "man -l renders it"
is "$(cat "$TEST_TMP/man.err")" "" "without a warning"
like "$out" '^COMMANDS' "it has the commands"
like "$out" 'iodepth = integer' "and the keys of every workload type"
like "$out" 'rounds = integer' "and the [experiment] keys"
# A first session's commands (newcomer's friction 14: no EXAMPLES).
like "$out" '^EXAMPLES' "it has examples"
like "$out" "abbench run -- 'runc --version' -- 'runsc --version'" "the inline run among them"
like "$out" 'abbench run --resume 3' "and the resume"
n=$(printf '%s\n' "$out" | sed -n '/^EXAMPLES/,/^[A-Z]/p' | grep -c '^ \{7\}abbench ')
[ "$n" -ge 10 ]
ok $? "EXAMPLES: at least 10 commands ($n)"

n=$(ls "$root/share/abbench/experiments/"*.ini 2>/dev/null | wc -l)
[ "$n" -ge 9 ]
ok $? "the shipped experiments are installed ($n)"
out=$("$bin/abbench" run bfq-concurrent-fio --help)
ok $? "installed abbench run bfq-concurrent-fio --help exits 0"
like "$out" "^experiment file: $bin/\.\./share/abbench/experiments/bfq-concurrent-fio\.ini" \
    "it finds the shipped file beside the binary"
like "$out" '^workload type fio:' "and lists the keys of its workload type"

if command -v fio >/dev/null && command -v busybox >/dev/null; then
	# A rootfs of its own: the machine's current one is left alone.
	out=$(ABBENCH_IMAGE_DIR=$TEST_TMP/images \
	    "$bin/abbench-build-image" --no-docker --print 2>&1 </dev/null)
	rc=$?
	ok $rc "installed abbench-build-image --no-docker runs" ||
	    printf '%s\n' "$out" | sed 's/^/# /'
	rootfs=$(printf '%s\n' "$out" | sed -n 's/^rootfs=//p')
	[ -x "$rootfs/usr/local/bin/burner" ] &&
	    [ -x "$rootfs/usr/bin/fio" ]
	ok $? "its rootfs has fio and the installed workload programs"
else
	pass "# SKIP no fio or busybox to build the image from"
	pass "# SKIP no fio or busybox to build the image from"
fi

done_testing
