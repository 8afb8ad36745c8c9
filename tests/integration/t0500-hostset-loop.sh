#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host settings on a bfq loop device, through tests/helpers/hs-driver (the
# hostset API without the runner): per-arm apply, put back for arms that do
# not set a setting, restore at the end, a scheduler switch that keeps the
# original scheduler's tuned values, and `abbench restore` after kill -9.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

DRIVER=$ABBENCH_BUILDDIR/tests/helpers/hs-driver
[ -x "$DRIVER" ] || skip_all "no $DRIVER (make check builds it)"
require_scheduler bfq
plan 24

make_bfq_loop 64 || { diag "cannot make a bfq loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
is "$(cat "$Q/slice_idle")" 8 "a fresh bfq device idles 8 ms"
echo 4 > "$Q/max_budget"	# a tuned value that must survive

cat > "$TEST_TMP/e.ini" <<EOT
[experiment]
name = hostset-loop
[arm idle0]
host.block.slice_idle = 0
[arm default]
[arm deadline]
host.block.scheduler = mq-deadline
host.block.fifo_batch = 8
[workload w]
type = command
args = true
dir = $LOOP_MNT
EOT

value() {
	sed -n "s|^value $1 ||p" "$2" | sed -n "${3}p"
}

"$DRIVER" "$TEST_TMP/db1" "$TEST_TMP/e.ini" "$LOOP_MNT" \
    idle0 "cat=$Q/slice_idle" default "cat=$Q/slice_idle" \
    idle0 "cat=$Q/slice_idle" restore "cat=$Q/slice_idle" \
    > "$TEST_TMP/out1" 2>&1
ok $? "driver: idle0, default, idle0, restore"
is "$(value "$Q/slice_idle" "$TEST_TMP/out1" 1)" 0 "idle0 sets slice_idle 0"
is "$(value "$Q/slice_idle" "$TEST_TMP/out1" 2)" 8 \
    "default (not setting it) puts the original back"
is "$(value "$Q/slice_idle" "$TEST_TMP/out1" 3)" 0 "idle0 again"
is "$(value "$Q/slice_idle" "$TEST_TMP/out1" 4)" 8 "restored at the end"
line=$(sed -n '/^step idle0/,/^step/p' "$TEST_TMP/out1" |
    grep "^journal host.block.slice_idle " | head -1)
is "$line" "journal host.block.slice_idle $Q/slice_idle 8 0 applied" \
    "the original 8 is journaled, state applied"
is "$(sed -n '/^step restore/,$p' "$TEST_TMP/out1" | grep '^journal' |
    grep -vc ' restored$')" 0 "every journal entry is restored"

# A scheduler switch and back keeps the host's tuned bfq values.
"$DRIVER" "$TEST_TMP/db2" "$TEST_TMP/e.ini" "$LOOP_MNT" \
    idle0 deadline "cat=$LOOP_SYSFS/scheduler" "cat=$Q/fifo_batch" \
    default "cat=$LOOP_SYSFS/scheduler" "cat=$Q/max_budget" \
    "cat=$Q/slice_idle" restore > "$TEST_TMP/out2" 2>&1
ok $? "driver: idle0, deadline, default, restore"
like "$(value "$LOOP_SYSFS/scheduler" "$TEST_TMP/out2" 1)" '\[mq-deadline\]' \
    "deadline switches the scheduler"
is "$(value "$Q/fifo_batch" "$TEST_TMP/out2" 1)" 8 \
    "and sets a tunable that exists only after the switch"
like "$(value "$LOOP_SYSFS/scheduler" "$TEST_TMP/out2" 2)" '\[bfq\]' \
    "default switches back to bfq"
is "$(value "$Q/max_budget" "$TEST_TMP/out2" 1)" 4 \
    "the tuned max_budget survives the round trip"
is "$(value "$Q/slice_idle" "$TEST_TMP/out2" 1)" 8 "slice_idle is the original"

# kill -9 in the middle of the mq-deadline arm, then abbench restore.
"$DRIVER" "$TEST_TMP/db3" "$TEST_TMP/e.ini" "$LOOP_MNT" idle0 deadline \
    hang > "$TEST_TMP/out3" 2>&1 &
pid=$!
i=0
while ! grep -q '^hanging' "$TEST_TMP/out3" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q '^hanging' "$TEST_TMP/out3"
ok $? "the driver applied idle0 then deadline and hangs"
kill -9 $pid
wait $pid 2>/dev/null
like "$(cat "$LOOP_SYSFS/scheduler")" '\[mq-deadline\]' \
    "killed with mq-deadline in place"
"$ABBENCH" restore --db "$TEST_TMP/db3" > "$TEST_TMP/r3" 2>&1
ok $? "abbench restore exits 0"
like "$(cat "$LOOP_SYSFS/scheduler")" '\[bfq\]' "bfq is back"
is "$(cat "$Q/max_budget")" 4 "with the tuned max_budget"
is "$(cat "$Q/slice_idle")" 8 "and slice_idle 8"
grep -q "host.block.scheduler = bfq ($LOOP_SYSFS/scheduler)" "$TEST_TMP/r3"
ok $? "restore says what it restored"
grep -q "marked interrupted" "$TEST_TMP/r3"
ok $? "the dead run is marked interrupted"
"$ABBENCH" restore --db "$TEST_TMP/db3" > "$TEST_TMP/r3b" 2>&1
ok $? "a second restore exits 0"
grep -q "^nothing to restore" "$TEST_TMP/r3b"
ok $? "and has nothing left to do"
done_testing
