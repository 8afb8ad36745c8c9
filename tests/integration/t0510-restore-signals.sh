#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench run` puts host settings back: after a normal end, after SIGINT
# in the middle of a sample, and after SIGKILL followed by `abbench
# restore` (or by the next run, which restores what a dead run left).
# The arms set host.block.fifo_batch on an mq-deadline loop device through
# host.block.path (any tunable serves: this was bfq's slice_idle, which
# kernels without bfq lack; mq-deadline is on every kernel here, the
# qemu guest's included); the workload is `sleep`. The runs that end
# normally (e.ini) sleep 0.2 s a sample: what they check is the end, not
# the sample. The runs that are interrupted (i.ini, the same experiment)
# sleep 0.2 s in batch16; batch1's sample marks that it has begun and
# waits (a gate never opened), so that the signal, sent once it has begun
# and fifo_batch is 1, lands in its middle (it slept 2 s in both arms: 2 s
# of each interrupted run went to waiting for batch16's; and fifo_batch
# is 1 a moment before the first sample too, when the run tries the arms'
# tunables).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
plan 14

make_loop 64 mq-deadline || { diag "cannot make an mq-deadline loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
is "$(cat "$Q/fifo_batch")" 16 "mq-deadline starts with fifo_batch 16"

# exp FILE BATCH16_ARGS BATCH1_ARGS
exp() {
	cat > "$1" <<EOT
[experiment]
name = restore-signals
rounds = 2
[arm batch16]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 16
args = $2
[arm batch1]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 1
args = $3
[workload sleep]
type = command
EOT
}
exp "$TEST_TMP/e.ini" "sleep 0.2" "sleep 0.2"
gate_program "$TEST_TMP/batch1.sh" "$TEST_TMP/never" "$TEST_TMP/in-batch1"
exp "$TEST_TMP/i.ini" "sleep 0.2" "/bin/sh $TEST_TMP/batch1.sh"
DB=$TEST_TMP/db

# Wait (up to 20 s, looking every 20 ms) until FILE holds VALUE.
wait_value() {
	i=0
	while [ "$(cat "$1")" != "$2" ] && [ $i -lt 1000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	[ "$(cat "$1")" = "$2" ]
}

"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" \
    > "$TEST_TMP/run1" 2>&1
ok $? "a run to its end exits 0"
is "$(cat "$Q/fifo_batch")" 16 "fifo_batch is 16 after a normal end"

# SIGINT in the middle of a batch1 sample.
rm -f "$TEST_TMP/in-batch1"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i.ini" > "$TEST_TMP/run2" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-batch1"
wait_value "$Q/fifo_batch" 1
ok $? "the batch1 arm set fifo_batch 1"
kill -INT $pid
wait $pid
rc=$?
[ $rc -ne 0 ]
ok $? "an interrupted run exits non-zero ($rc)"
is "$(cat "$Q/fifo_batch")" 16 "fifo_batch is 16 after SIGINT"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r2" 2>&1
ok $? "nothing left for abbench restore after SIGINT"

# SIGKILL: nothing is restored until abbench restore.
rm -f "$TEST_TMP/in-batch1"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i.ini" > "$TEST_TMP/run3" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-batch1"
wait_value "$Q/fifo_batch" 1
ok $? "fifo_batch 1 again"
kill -9 $pid
wait $pid 2>/dev/null
is "$(cat "$Q/fifo_batch")" 1 "a killed run leaves fifo_batch 1"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r3" 2>&1
ok $? "abbench restore exits 0"
# The host lock is the host's: a run of another test that takes it first
# undoes a dead holder's changes itself (as t0530 allows).
grep -q "host.block.fifo_batch = 16 ($Q/fifo_batch)" "$TEST_TMP/r3" || {
	grep -q "nothing to restore" "$TEST_TMP/r3" &&
	    [ "$(cat "$Q/fifo_batch")" = 16 ] &&
	    diag "the next holder of the host (another test's run) undid it first"
}
ok $? "it says it restored fifo_batch" || sed 's/^/# /' "$TEST_TMP/r3"
is "$(cat "$Q/fifo_batch")" 16 "fifo_batch is 16 after abbench restore"

# SIGKILL, then the next run restores before it starts.
rm -f "$TEST_TMP/in-batch1"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i.ini" > "$TEST_TMP/run4" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-batch1"
wait_value "$Q/fifo_batch" 1
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" \
    > "$TEST_TMP/run5" 2>&1
grep -q "restored" "$TEST_TMP/run5"
ok $? "the next run warns that it restored a dead run's changes"
is "$(cat "$Q/fifo_batch")" 16 "and fifo_batch is 16 at its end"
done_testing
