#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How `make check` runs each test (LOG_COMPILER, SH_LOG_COMPILER): the test
# with its arguments, under the test lock, and its wall time appended to
# tests/test-times.txt ("SECONDS NAME", one line per test; scripts/check
# prints them as a table).
#
# The lock lets `make -j2 check` run tests side by side only where that
# changes nothing they check: a test named in $ABBENCH_SHARED_TESTS (the
# Makefile's SHARED_TESTS: no timing, no effect, no host setting) holds the
# lock shared, every other test holds it exclusively — it runs alone, as
# with `make check`. A new test is exclusive until someone lists it.
# A test named in $ABBENCH_GUEST_SHARED_TESTS (the Makefile's
# GUEST_SHARED_TESTS: a test that needs bfq and, where the host has none,
# runs whole in the qemu guest, bfq_here_or_guest) holds it shared where
# the host's block devices offer no bfq, and exclusively where one does;
# a test that holds it shared is told so (ABBENCH_TEST_SHARED=1) and
# then runs in the guest even if bfq turned up meanwhile.
#
# Usage: run-test.sh PROGRAM [ARG...]   (the test is the last argument)
set -u
for last in "$@"; do :; done
name=${last##*/}
name=${name%.sh}
lock=${ABBENCH_TEST_LOCK:-${ABBENCH_BUILDDIR:-.}/tests/.test-lock}
times=${ABBENCH_TEST_TIMES:-${ABBENCH_BUILDDIR:-.}/tests/test-times.txt}
mode=-x
case " ${ABBENCH_SHARED_TESTS:-} " in
*" $name "*) mode=-s ;;
esac
# no_bfq: some block device lists its schedulers, and none lists bfq
no_bfq() {
	set -- "${ABBENCH_SYS_BLOCK:-/sys/block}"/*/queue/scheduler
	[ -r "$1" ] && ! cat "$@" 2>/dev/null | grep -qw bfq
}
case " ${ABBENCH_GUEST_SHARED_TESTS:-} " in
*" $name "*) no_bfq && mode=-s ;;
esac
ABBENCH_TEST_SHARED=
[ $mode = -s ] && ABBENCH_TEST_SHARED=1
export ABBENCH_TEST_SHARED
now() { date +%s.%N; }
exec 9>>"$lock"
flock $mode 9
start=$(now)
# The test must not hold the lock's descriptor: what it leaves running
# (a daemon it starts, a container shim) would keep the lock.
"$@" 9>&-
rc=$?
end=$(now)
flock -u 9
awk -v s="$start" -v e="$end" -v n="$name" -v m="$mode" \
    'BEGIN { printf "%.1f %s %s\n", e - s, n, m == "-s" ? "shared" : "alone" }' \
    >>"$times"
exit $rc
