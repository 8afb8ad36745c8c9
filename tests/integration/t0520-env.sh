#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench env: a bfq disk with slice_idle 8 under a path is a warning (and
# --strict exits 1); with slice_idle 0 there is no such warning. bfq is
# the subject: on a kernel without it (the machines' 6.18) the test runs
# in the qemu guest, whose kernel has it (bfq_here_or_guest, v2-lib.sh).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"

bfq_here_or_guest
plan 9

make_bfq_loop 64 || { diag "cannot make a bfq loop device"; exit 1; }
echo 8 > "$LOOP_SYSFS/iosched/slice_idle"

"$ABBENCH" env "$LOOP_MNT" > "$TEST_TMP/out" 2>&1
ok $? "env exits 0 without --strict"
grep -q "disk '$LOOP_NAME': scheduler bfq, slice_idle 8" "$TEST_TMP/out"
ok $? "the report names the loop device, bfq and slice_idle 8"
grep -q "^warning: '$LOOP_MNT' is on disk '$LOOP_NAME' with bfq and slice_idle 8" \
    "$TEST_TMP/out"
ok $? "a warning about bfq idling"
"$ABBENCH" env --strict "$LOOP_MNT" > /dev/null 2>&1
is $? 1 "--strict exits 1"
"$ABBENCH" env --quiet "$LOOP_MNT/sub/dir" > "$TEST_TMP/q" 2>&1
grep -q "with bfq and slice_idle 8" "$TEST_TMP/q"
ok $? "a path that does not exist yet resolves through its parent"

echo 0 > "$LOOP_SYSFS/iosched/slice_idle"
"$ABBENCH" env "$LOOP_MNT" > "$TEST_TMP/out0" 2>&1
ok $? "env exits 0"
grep -q "disk '$LOOP_NAME': scheduler bfq, slice_idle 0" "$TEST_TMP/out0"
ok $? "the report shows slice_idle 0"
grep -q "slice_idle.*lose throughput" "$TEST_TMP/out0"
is $? 1 "no bfq warning with slice_idle 0"
grep "slice_idle.*lose throughput" "$TEST_TMP/out0" | sed "s/^/# /"
# --strict now fails only for other reasons (load, containers, ...).
nwarn=$(grep -c '^warning:' "$TEST_TMP/out0")
"$ABBENCH" env --strict "$LOOP_MNT" > /dev/null 2>&1
rc=$?
if [ "$nwarn" -eq 0 ]; then want=0; else want=1; fi
is $rc $want "--strict exits $want with $nwarn other warning(s)"
done_testing
