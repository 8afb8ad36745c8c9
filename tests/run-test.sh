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
