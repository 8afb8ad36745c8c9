#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0015-test-lock: how `make -j2 check` runs tests (tests/run-test.sh).
# Two tests that are not in ABBENCH_SHARED_TESTS never run at the same
# time, nor does one of them beside a shared test; two shared tests run
# side by side; each test's wall time is appended to the times file with
# its class; the test's exit status passes through; the test does not
# inherit the lock. A test in ABBENCH_GUEST_SHARED_TESTS runs side by
# side where no block device offers bfq (it runs in the qemu guest then)
# and is told so (ABBENCH_TEST_SHARED=1); alone where one does. And
# every name in the Makefile's SHARED_TESTS and GUEST_SHARED_TESTS is a
# registered test (a typo would leave that test alone without a word).
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

RUN=$ABBENCH_SRCDIR/tests/run-test.sh
export ABBENCH_TEST_LOCK=$TEST_TMP/lock ABBENCH_TEST_TIMES=$TEST_TMP/times
export ABBENCH_SHARED_TESTS="s1 s2 s3 s4"
# A fake test NAME: records when it ran (epoch ns), 0.5 s long; a shared
# one waits (up to 60 s) until its peer has started too, so that running
# side by side is seen whatever the load (run one after the other, they
# would not see each other).
export ABBENCH_GUEST_SHARED_TESTS="g1"
for n in a1 a2 s1 s2 s3 g1 s4; do
	case $n in s1) peer=s2 ;; s2) peer=s1 ;; s4) peer=g1 ;; g1) peer=s4 ;; *) peer= ;; esac
	cat >"$TEST_TMP/$n.sh" <<EOT
#!/bin/sh
date +%s%N >"$TEST_TMP/$n.start"
echo "\${ABBENCH_TEST_SHARED:-}" >"$TEST_TMP/$n.told"
i=0
while [ -n "$peer" ] && [ ! -e "$TEST_TMP/$peer.start" ] && [ \$i -lt 600 ]; do
	sleep 0.1; i=\$((i + 1))
done
sleep 0.5
date +%s%N >"$TEST_TMP/$n.end"
ls -l /proc/\$\$/fd 2>/dev/null | grep -c '$TEST_TMP/lock' >"$TEST_TMP/$n.fds"
exit 3
EOT
done
overlap() {	# overlap X Y: their runs overlapped in time
	[ "$(cat "$TEST_TMP/$1.start")" -lt "$(cat "$TEST_TMP/$2.end")" ] &&
	    [ "$(cat "$TEST_TMP/$2.start")" -lt "$(cat "$TEST_TMP/$1.end")" ]
}
pair() {	# pair X Y: run both at once through run-test.sh
	sh "$RUN" sh "$TEST_TMP/$1.sh" & p1=$!
	sh "$RUN" sh "$TEST_TMP/$2.sh" & p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
}

pair a1 a2
is "$r1 $r2" "3 3" "the test's exit status passes through"
! overlap a1 a2
ok $? "two tests that must run alone do not overlap"
pair a1 s3
! overlap s3 a1
ok $? "nor does one of them beside a shared test"
pair s1 s2
overlap s1 s2
ok $? "two shared tests run side by side"
is "$(cat "$TEST_TMP"/*.fds | sort -u)" 0 "no test inherits the lock"
is "$(awk '{ print $2, $3 }' "$TEST_TMP/times" | sort | uniq -c |
    awk '{ print $1 $2 $3 }' | tr '\n' ' ')" "2a1alone 1a2alone 1s1shared 1s2shared 1s3shared " \
    "every run's wall time is recorded with its class"
is "$(awk '$1 < 0.5 || $1 > 120' "$TEST_TMP/times" | wc -l)" 0 \
    "... in seconds (each slept 0.5 s)"

# A guest test: side by side where the block devices (a fake /sys/block)
# offer no bfq, alone where one does.
mkdir -p "$TEST_TMP/sys/vda/queue" "$TEST_TMP/sysbfq/vda/queue" \
    "$TEST_TMP/sysbfq/loop0/queue"
echo "[mq-deadline] kyber none" >"$TEST_TMP/sys/vda/queue/scheduler"
echo "[mq-deadline] kyber none" >"$TEST_TMP/sysbfq/vda/queue/scheduler"
echo "mq-deadline [bfq] none" >"$TEST_TMP/sysbfq/loop0/queue/scheduler"
export ABBENCH_TEST_TIMES=$TEST_TMP/gtimes
export ABBENCH_SYS_BLOCK=$TEST_TMP/sys
pair g1 s4
overlap g1 s4
ok $? "without bfq, a guest test runs beside a shared test"
is "$(cat "$TEST_TMP/g1.told")" 1 "... and is told it runs shared"
ABBENCH_SYS_BLOCK=$TEST_TMP/sysbfq
pair g1 s3
! overlap g1 s3
ok $? "where a device offers bfq, it runs alone"
is "$(cat "$TEST_TMP/g1.told")" "" "... and is not told it runs shared"
is "$(awk '$2 == "g1" { print $3 }' "$TEST_TMP/gtimes" | tr '\n' ' ')" \
    "shared alone " "its class recorded each time"

# The Makefile's SHARED_TESTS and GUEST_SHARED_TESTS name registered tests.
missing=
for n in $(sed -n '/^SHARED_TESTS = /,/[^\\]$/p; s/^GUEST_SHARED_TESTS = //p' \
    "$ABBENCH_SRCDIR/Makefile.am" |
    sed 's/SHARED_TESTS = //; s/\\//'); do
	grep -Eq "^	tests/(unit|integration)/$n(\.sh)?( \\\\)?\$" \
	    "$ABBENCH_SRCDIR/Makefile.am" || missing="$missing $n"
done
is "$missing" "" "every name in SHARED_TESTS and GUEST_SHARED_TESTS is a test of TESTS"
done_testing
