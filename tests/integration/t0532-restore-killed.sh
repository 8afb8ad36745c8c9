#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A restore that is killed half way leaves nothing wrong for the next one
# (issue 25, item 4). bfq couples its tunables: strict_guarantees 0 -> 1
# raises slice_idle to 8 ms. The disk starts at strict_guarantees 1,
# slice_idle 3, low_latency 0 (none of them bfq's defaults); a run whose
# arm sets strict_guarantees 0, slice_idle 0, low_latency 1 is killed.
#  - Deterministic: `abbench restore` killed right after its Nth write
#    (ABBENCH_DEBUG_DIE_AFTER_WRITES=N, N = 1..4), then `abbench restore`:
#    every tunable equals its original, the journal has nothing pending.
#  - Fault injection: 20 seeded moments, a real SIGKILL of `abbench
#    restore` after a seeded delay, then `abbench restore`: the same.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler bfq
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

# The next restore must make every tunable equal, or say which one is not:
# with a restore killed before it marked anything, the journal is pending
# and the disk half restored; the second restore finishes the job.
killed_run
ABBENCH_DEBUG_DIE_AFTER_WRITES=3 "$ABBENCH" restore > /dev/null 2>&1
ok "$([ "$(pending)" -gt 0 ]; echo $?)" "a restore killed after 3 writes marked nothing restored ($(pending) pending)"
"$ABBENCH" restore > "$TEST_TMP/r3.out" 2>&1
is "$?:$(state)" "0:1/3/0" "  the next one restores all"

# A tunable that cannot be made equal to its original: named, exit 1,
# left pending (here the journal's original is one the kernel refuses).
killed_run
sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
    "UPDATE entries SET original = 'x' WHERE kind = 'host.block.slice_idle' AND state != 'restored'"
"$ABBENCH" restore > "$TEST_TMP/r5.out" 2>&1
is "$?" 1 "a tunable that will not take its original: restore exits 1"
like "$(cat "$TEST_TMP/r5.out")" "not restored: .*host.block.slice_idle of '$LOOP_NAME' is [0-9]+, not its original x, after 8 passes" \
    "  naming it, its value and its original"
ok "$([ "$(pending)" -gt 0 ]; echo $?)" "  and leaves the disk's entries pending"
sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
    "UPDATE entries SET original = '3' WHERE kind = 'host.block.slice_idle' AND original = 'x'"
"$ABBENCH" restore > "$TEST_TMP/r6.out" 2>&1
is "$?:$(state):$(pending)" "0:1/3/0:0" "  which the next restore finishes once it can"

# 20 seeded moments: a real SIGKILL after a seeded delay (0-400 ms).
seed=25
fails=0
for t in $(seq 1 20); do
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	delay_ms=$(( seed % 400 ))
	killed_run || { fails=$((fails + 1)); diag "moment $t: the run did not apply"; continue; }
	"$ABBENCH" restore > "$TEST_TMP/f.out" 2>&1 &
	rpid=$!
	sleep "$(awk -v d=$delay_ms 'BEGIN { printf "%.3f", d / 1000 }')"
	kill -9 $rpid 2>/dev/null
	wait $rpid 2>/dev/null
	"$ABBENCH" restore > "$TEST_TMP/f2.out" 2>&1
	rc=$?
	if [ "$rc:$(state):$(pending)" != "0:1/3/0:0" ]; then
		fails=$((fails + 1))
		diag "moment $t (kill after ${delay_ms} ms): exit $rc, state $(state), $(pending) pending"
		cat "$TEST_TMP/f2.out" | sed 's/^/# /'
		original
	fi
done
is "$fails" 0 "20 restores killed at seeded moments: every tunable at its original after the next restore"

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
