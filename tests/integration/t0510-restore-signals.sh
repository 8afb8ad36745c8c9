#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench run` puts host settings back: after a normal end, after SIGINT
# in the middle of a sample, and after SIGKILL followed by `abbench
# restore` (or by the next run, which restores what a dead run left).
# The arms set host.block.slice_idle on a bfq loop device through
# host.block.path; the workload is `sleep 2`.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler bfq
plan 14

make_bfq_loop 64 || { diag "cannot make a bfq loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
is "$(cat "$Q/slice_idle")" 8 "bfq starts with slice_idle 8"

cat > "$TEST_TMP/e.ini" <<EOT
[experiment]
name = restore-signals
rounds = 2
[arm idle8]
host.block.path = $LOOP_MNT
host.block.slice_idle = 8
[arm idle0]
host.block.path = $LOOP_MNT
host.block.slice_idle = 0
[workload sleep]
type = command
args = sleep 2
EOT
DB=$TEST_TMP/db

# Wait (up to 20 s) until FILE holds VALUE.
wait_value() {
	i=0
	while [ "$(cat "$1")" != "$2" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat "$1")" = "$2" ]
}

"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" \
    > "$TEST_TMP/run1" 2>&1
ok $? "a run to its end exits 0"
is "$(cat "$Q/slice_idle")" 8 "slice_idle is 8 after a normal end"

# SIGINT in the middle of an idle0 sample.
"$ABBENCH" run --db "$DB" "$TEST_TMP/e.ini" > "$TEST_TMP/run2" 2>&1 &
pid=$!
wait_host_holder $pid
wait_value "$Q/slice_idle" 0
ok $? "the idle0 arm set slice_idle 0"
kill -INT $pid
wait $pid
rc=$?
[ $rc -ne 0 ]
ok $? "an interrupted run exits non-zero ($rc)"
is "$(cat "$Q/slice_idle")" 8 "slice_idle is 8 after SIGINT"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r2" 2>&1
ok $? "nothing left for abbench restore after SIGINT"

# SIGKILL: nothing is restored until abbench restore.
"$ABBENCH" run --db "$DB" "$TEST_TMP/e.ini" > "$TEST_TMP/run3" 2>&1 &
pid=$!
wait_host_holder $pid
wait_value "$Q/slice_idle" 0
ok $? "slice_idle 0 again"
kill -9 $pid
wait $pid 2>/dev/null
is "$(cat "$Q/slice_idle")" 0 "a killed run leaves slice_idle 0"
"$ABBENCH" restore --db "$DB" > "$TEST_TMP/r3" 2>&1
ok $? "abbench restore exits 0"
grep -q "host.block.slice_idle = 8 ($Q/slice_idle)" "$TEST_TMP/r3"
ok $? "it says it restored slice_idle"
is "$(cat "$Q/slice_idle")" 8 "slice_idle is 8 after abbench restore"

# SIGKILL, then the next run restores before it starts.
"$ABBENCH" run --db "$DB" "$TEST_TMP/e.ini" > "$TEST_TMP/run4" 2>&1 &
pid=$!
wait_host_holder $pid
wait_value "$Q/slice_idle" 0
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" run --db "$DB" --rounds 1 "$TEST_TMP/e.ini" \
    > "$TEST_TMP/run5" 2>&1
grep -q "restored" "$TEST_TMP/run5"
ok $? "the next run warns that it restored a dead run's changes"
is "$(cat "$Q/slice_idle")" 8 "and slice_idle is 8 at its end"
done_testing
