#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host settings are put back on a kernel without bfq too (t0500-t0532
# use mq-deadline's tunables and a switch to kyber; this one the switch
# to none): a loop device on mq-deadline
# whose fifo_batch the host had tuned to 5; one arm sets fifo_batch 1,
# the other switches the scheduler to none (mq-deadline's files go away
# with it). After a normal end, after SIGINT, after SIGKILL followed by
# `abbench restore`, and after SIGKILL followed by the next run, the disk
# is mq-deadline with fifo_batch 5 again.
# The runs that end normally sleep 0.2 s a sample (e.ini); an interrupted
# run sleeps 0.2 s in one arm, and in the arm it is stopped in (i1.ini:
# batch1, i2.ini: none) its sample marks that it has begun and waits (a
# gate never opened), so that the signal, sent once it has begun and its
# setting is seen, lands in its middle (every sample slept 1 s; and
# fifo_batch is 1 a moment before the first sample too, while the run
# tries the arms' tunables).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
require_cmd sqlite3
plan 18

make_loop 64 mq-deadline || { diag "cannot make a loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
echo 5 > "$Q/fifo_batch"
state() {
	echo "$(sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler")/$(cat "$Q/fifo_batch" 2>/dev/null)"
}
is "$(state)" mq-deadline/5 "the disk starts at mq-deadline, fifo_batch 5"

# exp FILE BATCH1_ARGS NONE_ARGS
exp() {
	cat > "$1" <<EOT
[experiment]
name = restore-any
rounds = 2
[arm batch1]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 1
args = $2
[arm none]
host.block.path = $LOOP_MNT
host.block.scheduler = none
args = $3
[workload sleep]
type = command
EOT
}
exp "$TEST_TMP/e.ini" "sleep 0.2" "sleep 0.2"
gate_program "$TEST_TMP/held.sh" "$TEST_TMP/never" "$TEST_TMP/in-arm"
exp "$TEST_TMP/i1.ini" "/bin/sh $TEST_TMP/held.sh" "sleep 0.2"
exp "$TEST_TMP/i2.ini" "sleep 0.2" "/bin/sh $TEST_TMP/held.sh"
DB=$TEST_TMP/db

# Wait (up to 20 s, looking every 20 ms) until the disk's state is STATE.
wait_state() {
	i=0
	while [ "$(state)" != "$1" ] && [ $i -lt 1000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	[ "$(state)" = "$1" ]
}

"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" > "$TEST_TMP/run1" 2>&1
ok $? "a run to its end exits 0" || sed 's/^/# /' "$TEST_TMP/run1"
is "$(state)" mq-deadline/5 "mq-deadline with fifo_batch 5 after a normal end"
is "$(sqlite3 "$DB" "SELECT group_concat(kind || '=' || original, ' ') FROM (SELECT * FROM journal WHERE kind IN ('host.block.scheduler', 'host.block.fifo_batch') ORDER BY kind)")" \
    "host.block.fifo_batch=5 host.block.scheduler=mq-deadline" \
    "the scheduler and fifo_batch were journaled with the host's values"
# Switching away from mq-deadline journals all its tunables first, so
# that a switch back can put them back.
is "$(sqlite3 "$DB" "SELECT count(*) || '/' || sum(state = 'restored') FROM journal WHERE kind LIKE 'host.block.%'")" \
    "$((n = $(ls "$Q" | wc -l) + 1))/$n" \
    "  with every other mq-deadline tunable ($(ls "$Q" | tr '\n' ' ')), all restored"

# SIGINT in the middle of a batch1 sample.
rm -f "$TEST_TMP/in-arm"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i1.ini" > "$TEST_TMP/run2" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-arm"
wait_state mq-deadline/1
ok $? "the batch1 arm set fifo_batch 1"
kill -INT $pid
wait $pid
rc=$?
[ $rc -ne 0 ]
ok $? "an interrupted run exits non-zero ($rc)"
is "$(state)" mq-deadline/5 "mq-deadline/5 after SIGINT"

# SIGKILL while the scheduler is none: nothing is restored until abbench
# restore, which must switch back and then write the tunable.
rm -f "$TEST_TMP/in-arm"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i2.ini" > "$TEST_TMP/run3" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-arm"
wait_state none/
ok $? "the none arm switched the scheduler to none"
kill -9 $pid
wait $pid 2>/dev/null
is "$(state)" none/ "a killed run leaves the disk on none"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r3" 2>&1
ok $? "abbench restore exits 0" || sed 's/^/# /' "$TEST_TMP/r3"
# The host lock is the host's: a run of another test that takes it first
# undoes a dead holder's changes itself (as t0510 and t0530 allow).
grep -q "host.block.scheduler = mq-deadline ($LOOP_SYSFS/scheduler)" "$TEST_TMP/r3" || {
	grep -q "^nothing to restore" "$TEST_TMP/r3" &&
	    [ "$(state)" = mq-deadline/5 ] &&
	    diag "the next holder of the host (another test's run) undid it first"
}
ok $? "it says it restored the scheduler" || sed 's/^/# /' "$TEST_TMP/r3"
is "$(state)" mq-deadline/5 "mq-deadline with the tuned fifo_batch 5 after abbench restore"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r3b" 2>&1
grep -q "^nothing to restore" "$TEST_TMP/r3b"
ok $? "a second restore has nothing left to do"

# SIGKILL while fifo_batch is 1, then the next run restores first.
rm -f "$TEST_TMP/in-arm"
"$ABBENCH" run --db "$DB" "$TEST_TMP/i1.ini" > "$TEST_TMP/run4" 2>&1 &
pid=$!
wait_host_holder $pid
wait_file "$TEST_TMP/in-arm"
wait_state mq-deadline/1
ok $? "fifo_batch 1 again"
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" > "$TEST_TMP/run5" 2>&1
grep -q "restored" "$TEST_TMP/run5"
ok $? "the next run says it restored a dead run's changes" || sed 's/^/# /' "$TEST_TMP/run5"
is "$(state)" mq-deadline/5 "and the disk is mq-deadline/5 at its end"
is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state != 'restored'")" 0 \
    "every journal entry of the four runs is restored"
done_testing
