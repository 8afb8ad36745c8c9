#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The host lock cannot be stepped around (issue 25, items 1-3).
#  1. host.lock deleted while a run that sets disk tunables holds the host: a
#     second run is still refused; the disk ends as it began.
#  2. A second run under another $ABBENCH_STATE_DIR: refused (or, with
#     --wait-lock, it waits); the disk ends as it began. A run killed
#     holding the host under state directory S1 is undone by the next
#     holder under S2 before it changes anything.
#  3. A run's lock file deleted during the run, then `abbench restore`
#     from /: the live run is skipped (pid and start time), its samples
#     all ok, its status done.
# The disk is an mq-deadline loop device whose fifo_batch and front_merges
# the arms set (any two tunables serve; these were bfq's slice_idle and
# low_latency, which kernels without bfq lack).
# Run a's samples and the live run's wait at a gate the test opens once
# it has checked what it checks during them (they slept 0.5 s and 0.3 s,
# and the test slept 0.7 s and 1 s hoping to be in the middle of them).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
require_cmd sqlite3

make_loop 64 mq-deadline || { diag "cannot make an mq-deadline loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
echo 0 > "$Q/front_merges"
echo 3 > "$Q/fifo_batch"
state() { echo "$(cat "$Q/fifo_batch")/$(cat "$Q/front_merges")"; }
is "$(state)" 3/0 "the disk starts at fifo_batch 3, front_merges 0"

# exp FILE NAME ARGS ROUNDS
exp() {
	cat > "$1" <<EOT
[experiment]
name = $2
rounds = $4
[arm batch8]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 8
host.block.front_merges = 1
[arm batch0]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 0
host.block.front_merges = 1
[workload sleep]
type = command
args = $3
EOT
}
gate_program "$TEST_TMP/gate.sh" "$TEST_TMP/open" "$TEST_TMP/sampling"
exp "$TEST_TMP/a.ini" steal-a "/bin/sh $TEST_TMP/gate.sh" 3
exp "$TEST_TMP/b.ini" steal-b "sleep 0.1" 1

# Wait until the holder's first sample has begun (up to 20 s: it waits at
# the gate) and the disk is no longer as it began (up to 10 s more): the
# run has applied its first arm. (It tries its arms' tunables a moment
# before its first sample too, and puts them back.)
wait_changed() {
	wait_file "$TEST_TMP/sampling"
	i=0
	while [ "$(state)" = 3/0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(state)" != 3/0 ]
}

# 1. host.lock deleted under its holder.
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" > "$TEST_TMP/a1.out" 2>&1 &
apid=$!
wait_host_holder $apid
ok $? "the first run holds the host"
wait_changed
ok $? "  and has set its first arm's tunables ($(state))"
rm -f "$HOST_LOCK_INFO" "$ABBENCH_STATE_DIR/host.lock"
ok "$([ ! -e "$HOST_LOCK_INFO" ]; echo $?)" "host.lock is deleted under it"
ABBENCH_WAIT_LOCK=0 "$ABBENCH" run --quiet --db "$TEST_TMP/b.db" "$TEST_TMP/b.ini" \
    > "$TEST_TMP/b1.out" 2>&1
rc=$?
ok "$([ $rc -ne 0 ]; echo $?)" "a second run is refused all the same (exit $rc)"
like "$(cat "$TEST_TMP/b1.out")" "in use by another run" "  as the host is in use"
ok "$([ ! -e "$TEST_TMP/b.db" ]; echo $?)" "  and made nothing"
touch "$TEST_TMP/open"
wait $apid
is "$?" 0 "the first run ends well"
is "$(state)" 3/0 "the disk ends as it began"

# 2. Another state directory: the host lock is the same.
rm -f "$TEST_TMP/open" "$TEST_TMP/sampling"
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" > "$TEST_TMP/a2.out" 2>&1 &
apid=$!
wait_host_holder $apid
ABBENCH_WAIT_LOCK=0 ABBENCH_STATE_DIR=$TEST_TMP/other "$ABBENCH" run --quiet \
    --db "$TEST_TMP/b.db" "$TEST_TMP/b.ini" > "$TEST_TMP/b2.out" 2>&1
rc=$?
ok "$([ $rc -ne 0 ]; echo $?)" "under another state directory the second run is refused (exit $rc)"
like "$(cat "$TEST_TMP/b2.out")" "in use by another run.*pid $apid" "  naming the holder"
ABBENCH_STATE_DIR=$TEST_TMP/other "$ABBENCH" run --quiet --wait-lock \
    --db "$TEST_TMP/b.db" "$TEST_TMP/b.ini" > "$TEST_TMP/b3.out" 2>&1 &
bpid=$!
# The gate opens once it says it waits for the host (at most 20 s).
wait_file "$TEST_TMP/b3.out" "waiting for the host"
touch "$TEST_TMP/open"
wait $bpid
is "$?" 0 "with --wait-lock it waits and runs"
wait $apid
is "$?" 0 "the first run ends well"
a_end=$(sqlite3 "$TEST_TMP/a.db" "SELECT max(end_wall_ns) FROM samples")
b_start=$(sqlite3 "$TEST_TMP/b.db" "SELECT min(start_wall_ns) FROM samples")
ok "$([ "$b_start" -gt "$a_end" ]; echo $?)" "  only after the first one's last sample"
is "$(state)" 3/0 "the disk ends as it began"

# A run under S1 killed holding the host; the next holder is under S2.
S1=$TEST_TMP/s1
rm -f "$TEST_TMP/open" "$TEST_TMP/sampling"
ABBENCH_STATE_DIR=$S1 "$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/a.ini" \
    > "$TEST_TMP/k.out" 2>&1 &
kpid=$!
wait_host_holder $kpid
wait_changed
ok $? "the run under S1 changed the disk ($(state))"
kill -9 $kpid
wait $kpid 2>/dev/null
ABBENCH_STATE_DIR=$TEST_TMP/s2 "$ABBENCH" run --db "$TEST_TMP/b2.db" \
    "$TEST_TMP/b.ini" > "$TEST_TMP/s2.out" 2>&1
is "$?" 0 "a run under S2 runs"
# Undone first (by it, or by whichever holder came first: other tests'
# runs take the host too), so it journals the real originals, not the
# dead run's values.
is "$(sqlite3 "$TEST_TMP/b2.db" "SELECT (SELECT group_concat(DISTINCT original) FROM journal WHERE kind = 'host.block.front_merges') || '/' || (SELECT group_concat(DISTINCT original) FROM journal WHERE kind = 'host.block.fifo_batch')")" \
    "0/3" "  and journals the disk's real originals (front_merges 0, fifo_batch 3)"
is "$(state)" 3/0 "the disk ends as it began"
ABBENCH_STATE_DIR=$S1 "$ABBENCH" restore > "$TEST_TMP/s1.r" 2>&1
like "$(cat "$TEST_TMP/s1.r")" "nothing to restore" "S1's journal has nothing left pending"
is "$(state)" 3/0 "  and the disk is still as it began"

# 3. A run's lock file deleted, then restore from /: the live run is kept.
cat > "$TEST_TMP/live.ini" <<EOT
[experiment]
name = live
rounds = 6
[arm a]
[arm b]
[workload w]
type = command
args = /bin/sh $TEST_TMP/live-gate.sh
EOT
gate_program "$TEST_TMP/live-gate.sh" "$TEST_TMP/live-open" "$TEST_TMP/live-sampling"
"$ABBENCH" run --quiet --db "$TEST_TMP/live.db" "$TEST_TMP/live.ini" \
    > "$TEST_TMP/live.out" 2>&1 &
lpid=$!
i=0
# Its lock file made and its first sample under way (at the gate).
until { ls "$ABBENCH_STATE_DIR"/runs/*.lock && [ -e "$TEST_TMP/live-sampling" ]; } \
    > /dev/null 2>&1 || [ $i -ge 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
rm -f "$ABBENCH_STATE_DIR"/runs/*.lock
ok "$(! ls "$ABBENCH_STATE_DIR"/runs/*.lock > /dev/null 2>&1; echo $?)" "the run's lock file is deleted"
(cd / && "$ABBENCH" restore) > "$TEST_TMP/live.r" 2>&1
is "$?" 0 "restore from / exits 0"
like "$(cat "$TEST_TMP/live.r")" "is still running \(pid $lpid\): skipped" \
    "  and skips the live run"
ok "$(! grep -q 'marked interrupted\|restored:' "$TEST_TMP/live.r"; echo $?)" \
    "  touching nothing of it"
touch "$TEST_TMP/live-open"
wait $lpid
is "$?" 0 "the live run ends well"
is "$(sqlite3 "$TEST_TMP/live.db" "SELECT count(*) FROM samples WHERE status = 'ok'")" 12 \
    "  all its 12 samples ok"
is "$(sqlite3 "$TEST_TMP/live.db" "SELECT status FROM runs")" done "  its status done"
done_testing
