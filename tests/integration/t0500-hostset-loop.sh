#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host settings on an mq-deadline loop device, through tests/helpers/hs-driver
# (the hostset API without the runner): per-arm apply, put back for arms
# that do not set a setting, restore at the end, a scheduler switch (to
# kyber) that keeps the original scheduler's tuned values, and `abbench
# restore` after kill -9. (The device was bfq, slice_idle the arm's
# tunable, mq-deadline the switch; kernels without bfq lack it, and every
# kernel here has mq-deadline and kyber.)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

DRIVER=$ABBENCH_BUILDDIR/tests/helpers/hs-driver
[ -x "$DRIVER" ] || skip_all "no $DRIVER (make check builds it)"
require_scheduler mq-deadline
has_scheduler kyber || skip_all "loop devices do not offer 'kyber'"
plan 24

make_loop 64 mq-deadline || { diag "cannot make an mq-deadline loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
is "$(cat "$Q/fifo_batch")" 16 "a fresh mq-deadline device has fifo_batch 16"
echo 4 > "$Q/writes_starved"	# a tuned value that must survive

cat > "$TEST_TMP/e.ini" <<EOT
[experiment]
name = hostset-loop
[arm batch1]
host.block.fifo_batch = 1
[arm default]
[arm kyber]
host.block.scheduler = kyber
host.block.read_lat_nsec = 1000000
[workload w]
type = command
args = true
dir = $LOOP_MNT
EOT

value() {
	sed -n "s|^value $1 ||p" "$2" | sed -n "${3}p"
}

"$DRIVER" "$TEST_TMP/db1" "$TEST_TMP/e.ini" "$LOOP_MNT" \
    batch1 "cat=$Q/fifo_batch" default "cat=$Q/fifo_batch" \
    batch1 "cat=$Q/fifo_batch" restore "cat=$Q/fifo_batch" \
    > "$TEST_TMP/out1" 2>&1
ok $? "driver: batch1, default, batch1, restore"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out1" 1)" 1 "batch1 sets fifo_batch 1"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out1" 2)" 16 \
    "default (not setting it) puts the original back"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out1" 3)" 1 "batch1 again"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out1" 4)" 16 "restored at the end"
line=$(sed -n '/^step batch1/,/^step/p' "$TEST_TMP/out1" |
    grep "^journal host.block.fifo_batch " | head -1)
is "$line" "journal host.block.fifo_batch $Q/fifo_batch 16 1 applied" \
    "the original 16 is journaled, state applied"
is "$(sed -n '/^step restore/,$p' "$TEST_TMP/out1" | grep '^journal' |
    grep -vc ' restored$')" 0 "every journal entry is restored"

# A scheduler switch and back keeps the host's tuned mq-deadline values.
"$DRIVER" "$TEST_TMP/db2" "$TEST_TMP/e.ini" "$LOOP_MNT" \
    batch1 kyber "cat=$LOOP_SYSFS/scheduler" "cat=$Q/read_lat_nsec" \
    default "cat=$LOOP_SYSFS/scheduler" "cat=$Q/writes_starved" \
    "cat=$Q/fifo_batch" restore > "$TEST_TMP/out2" 2>&1
ok $? "driver: batch1, kyber, default, restore"
like "$(value "$LOOP_SYSFS/scheduler" "$TEST_TMP/out2" 1)" '\[kyber\]' \
    "kyber switches the scheduler"
is "$(value "$Q/read_lat_nsec" "$TEST_TMP/out2" 1)" 1000000 \
    "and sets a tunable that exists only after the switch"
like "$(value "$LOOP_SYSFS/scheduler" "$TEST_TMP/out2" 2)" '\[mq-deadline\]' \
    "default switches back to mq-deadline"
is "$(value "$Q/writes_starved" "$TEST_TMP/out2" 1)" 4 \
    "the tuned writes_starved survives the round trip"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out2" 1)" 16 "fifo_batch is the original"

# kill -9 in the middle of the kyber arm, then abbench restore.
"$DRIVER" "$TEST_TMP/db3" "$TEST_TMP/e.ini" "$LOOP_MNT" batch1 kyber \
    hang > "$TEST_TMP/out3" 2>&1 &
pid=$!
i=0
while ! grep -q '^hanging' "$TEST_TMP/out3" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q '^hanging' "$TEST_TMP/out3"
ok $? "the driver applied batch1 then kyber and hangs"
kill -9 $pid
wait $pid 2>/dev/null
like "$(cat "$LOOP_SYSFS/scheduler")" '\[kyber\]' \
    "killed with kyber in place"
"$ABBENCH" restore --db "$TEST_TMP/db3" > "$TEST_TMP/r3" 2>&1
ok $? "abbench restore exits 0"
like "$(cat "$LOOP_SYSFS/scheduler")" '\[mq-deadline\]' "mq-deadline is back"
is "$(cat "$Q/writes_starved")" 4 "with the tuned writes_starved"
is "$(cat "$Q/fifo_batch")" 16 "and fifo_batch 16"
grep -q "host.block.scheduler = mq-deadline ($LOOP_SYSFS/scheduler)" "$TEST_TMP/r3"
ok $? "restore says what it restored"
grep -q "marked interrupted" "$TEST_TMP/r3"
ok $? "the dead run is marked interrupted"
"$ABBENCH" restore --db "$TEST_TMP/db3" > "$TEST_TMP/r3b" 2>&1
ok $? "a second restore exits 0"
grep -q "^nothing to restore" "$TEST_TMP/r3b"
ok $? "and has nothing left to do"
done_testing
