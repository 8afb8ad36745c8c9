#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bfq's coupled tunables restored by a restore killed half way (t0532's
# bfq half: t0532 shows the same on mq-deadline, coupled by a scheduler
# switch, with the seeded kills and a tunable that will not take its
# original). bfq couples its tunables: strict_guarantees 0 -> 1 raises
# slice_idle to 8 ms. The disk starts at strict_guarantees 1, slice_idle
# 3, low_latency 0 (none of them bfq's defaults); a run whose arm sets
# strict_guarantees 0, slice_idle 0, low_latency 1 is killed.
#  - `abbench restore` killed right after its Nth write
#    (ABBENCH_DEBUG_DIE_AFTER_WRITES=N, N = 1..3), then `abbench restore`:
#    every tunable equals its original, the journal has nothing pending.
#  - Between arms: an arm that names no tunable finds the originals.
# bfq is the subject: on a kernel without it (the machines' 6.18) the test
# runs in the qemu guest, whose kernel has it (bfq_here_or_guest).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"

bfq_here_or_guest
require_cmd sqlite3 awk

make_bfq_loop 64 || { diag "cannot make a bfq loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
[ -e "$Q/strict_guarantees" ] || skip_all "bfq has no strict_guarantees here"

original() {
	echo 1 > "$Q/strict_guarantees"	# raises slice_idle to 8 ms
	echo 3 > "$Q/slice_idle"
	echo 0 > "$Q/low_latency"
}
state() {
	echo "$(cat "$Q/strict_guarantees")/$(cat "$Q/slice_idle")/$(cat "$Q/low_latency")"
}
original
is "$(state)" 1/3/0 "the disk starts at strict_guarantees 1, slice_idle 3, low_latency 0"

# Two files: the tunables named in both orders, so that the journal holds
# them in both orders (a restore that relied on one order would fail one).
printf '[experiment]\nname = coupled\nrounds = 50\n[arm loose]\nhost.block.path = %s\nhost.block.strict_guarantees = 0\nhost.block.slice_idle = 0\nhost.block.low_latency = 1\n[workload sleep]\ntype = command\nargs = sleep 0.2\n' \
    "$LOOP_MNT" > "$TEST_TMP/k1.ini"
printf '[experiment]\nname = coupled\nrounds = 50\n[arm loose]\nhost.block.path = %s\nhost.block.low_latency = 1\nhost.block.slice_idle = 0\nhost.block.strict_guarantees = 0\n[workload sleep]\ntype = command\nargs = sleep 0.2\n' \
    "$LOOP_MNT" > "$TEST_TMP/k2.ini"
cp "$TEST_TMP/k1.ini" "$TEST_TMP/k.ini"

# A run that set the coupled tunables, killed with SIGKILL.
killed_run() {
	"$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/k.ini" \
	    > "$TEST_TMP/run.out" 2>&1 &
	kr_pid=$!
	kr_i=0
	while [ "$(state)" != 0/0/1 ] && [ $kr_i -lt 9000 ]; do
		sleep 0.1
		kr_i=$((kr_i + 1))
	done
	kill -9 $kr_pid
	wait $kr_pid 2>/dev/null
	[ "$(state)" = 0/0/1 ]
}

pending() {
	sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
	    "SELECT count(*) FROM entries WHERE state != 'restored'"
}

for order in 1 2; do
	cp "$TEST_TMP/k$order.ini" "$TEST_TMP/k.ini"
	for n in 1 2 3; do
		killed_run
		ok $? "order $order, N=$n: the killed run left the disk at 0/0/1"
		ABBENCH_DEBUG_DIE_AFTER_WRITES=$n "$ABBENCH" restore > "$TEST_TMP/r1.out" 2>&1
		rc=$?
		# Another test's run may take the host first and undo
		# the dead holder itself (the host lock is the host's).
		if [ $rc = 0 ] && grep -q "nothing to restore" "$TEST_TMP/r1.out"; then
			pass "order $order, N=$n: # the next holder of the host undid it first"
		else
			is "$rc" 137 "order $order, N=$n: restore is killed after its write $n"
		fi
		"$ABBENCH" restore > "$TEST_TMP/r2.out" 2>&1
		rc=$?
		is "$rc:$(state)" "0:1/3/0" "order $order, N=$n: the next restore exits 0 and leaves 1/3/0"
		is "$(pending)" 0 "order $order, N=$n: nothing pending in the journal"
	done
	# A restore not killed: as many writes as it takes, the same end.
	killed_run
	ABBENCH_DEBUG_DIE_AFTER_WRITES=100 "$ABBENCH" restore > "$TEST_TMP/r4.out" 2>&1
	is "$?:$(state)" "0:1/3/0" "order $order: one restore, never killed, leaves 1/3/0"
done

# Between arms too: an arm that names no tunable gets the originals back,
# and all of them hold (slice_idle named before strict_guarantees: put
# back in that order, slice_idle would end at 8).
original
printf '#!/bin/sh\nstate="$(cat %s/strict_guarantees)/$(cat %s/slice_idle)/$(cat %s/low_latency)"\n[ "$state" = 1/3/0 ] || { echo "disk at $state" >&2; exit 1; }\n' \
    "$Q" "$Q" "$Q" > "$TEST_TMP/check.sh"
chmod +x "$TEST_TMP/check.sh"
printf '[experiment]\nname = switch\nrounds = 3\n[arm tight]\nhost.block.path = %s\nhost.block.slice_idle = 0\nhost.block.strict_guarantees = 0\nhost.block.low_latency = 1\nargs = true\n[arm plain]\nargs = %s\n[workload w]\ntype = command\n' \
    "$LOOP_MNT" "$TEST_TMP/check.sh" > "$TEST_TMP/sw.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/sw.db" "$TEST_TMP/sw.ini" > "$TEST_TMP/sw.out" 2>&1
is "$?" 0 "an arm after one that set coupled tunables runs with the originals"
is "$(sqlite3 "$TEST_TMP/sw.db" "SELECT count(*) FROM samples WHERE arm = 'plain' AND status = 'ok'")" 3 \
    "  every sample of it found the disk at 1/3/0"
is "$(state)" 1/3/0 "  and the run ends with the disk as it began"
done_testing
