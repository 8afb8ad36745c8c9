#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A restore that is killed half way leaves nothing wrong for the next one
# (issue 25, item 4). A scheduler switch couples the tunables: writing
# mq-deadline to queue/scheduler gives it the kernel's defaults (fifo_batch
# 16, writes_starved 2, front_merges 1), so the scheduler must be back
# before its tunables are. The disk starts at mq-deadline with fifo_batch
# 3, writes_starved 5, front_merges 0 (none of them the defaults); a run
# whose arm switches to kyber and sets its read_lat_nsec is killed. (This
# was bfq's coupling, strict_guarantees 0 -> 1 raising slice_idle to 8 ms;
# kernels without bfq lack it, every kernel here has mq-deadline and
# kyber.)
#  - Deterministic: `abbench restore` killed right after its Nth write
#    (ABBENCH_DEBUG_DIE_AFTER_WRITES=N, N = 1..4), then `abbench restore`:
#    every tunable equals its original, the journal has nothing pending.
#  - Fault injection: 20 seeded moments, a real SIGKILL of `abbench
#    restore` after a seeded delay, then `abbench restore`: the same.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
has_scheduler kyber || skip_all "loop devices do not offer 'kyber'"
require_cmd sqlite3 awk

make_loop 64 mq-deadline || { diag "cannot make an mq-deadline loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched

original() {
	queue_set "$LOOP_NAME" mq-deadline fifo_batch=3 writes_starved=5 \
	    front_merges=0
}
# "mq-deadline/FIFO_BATCH/WRITES_STARVED/FRONT_MERGES" or
# "kyber/READ_LAT_NSEC"
state() {
	st_s=$(sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler")
	case $st_s in
	mq-deadline) echo "$st_s/$(cat "$Q/fifo_batch")/$(cat "$Q/writes_starved")/$(cat "$Q/front_merges")" ;;
	kyber) echo "$st_s/$(cat "$Q/read_lat_nsec")" ;;
	*) echo "$st_s" ;;
	esac
}
original
is "$(state)" mq-deadline/3/5/0 "the disk starts at mq-deadline, fifo_batch 3, writes_starved 5, front_merges 0"

# Two files: the scheduler and its tunable named in both orders (a run or
# a restore that relied on one order would fail one).
printf '[experiment]\nname = coupled\nrounds = 50\n[arm loose]\nhost.block.path = %s\nhost.block.scheduler = kyber\nhost.block.read_lat_nsec = 1000000\n[workload sleep]\ntype = command\nargs = sleep 0.2\n' \
    "$LOOP_MNT" > "$TEST_TMP/k1.ini"
printf '[experiment]\nname = coupled\nrounds = 50\n[arm loose]\nhost.block.path = %s\nhost.block.read_lat_nsec = 1000000\nhost.block.scheduler = kyber\n[workload sleep]\ntype = command\nargs = sleep 0.2\n' \
    "$LOOP_MNT" > "$TEST_TMP/k2.ini"
cp "$TEST_TMP/k1.ini" "$TEST_TMP/k.ini"

# A run that switched to kyber and set its tunable, killed with SIGKILL.
killed_run() {
	"$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/k.ini" \
	    > "$TEST_TMP/run.out" 2>&1 &
	kr_pid=$!
	kr_i=0
	while [ "$(state)" != kyber/1000000 ] && [ $kr_i -lt 45000 ]; do
		sleep 0.02
		kr_i=$((kr_i + 1))
	done
	kill -9 $kr_pid
	wait $kr_pid 2>/dev/null
	[ "$(state)" = kyber/1000000 ]
}

pending() {
	sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
	    "SELECT count(*) FROM entries WHERE state != 'restored'"
}

for order in 1 2; do
	cp "$TEST_TMP/k$order.ini" "$TEST_TMP/k.ini"
	for n in 1 2 3; do
		killed_run
		ok $? "order $order, N=$n: the killed run left the disk at kyber/1000000"
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
		is "$rc:$(state)" "0:mq-deadline/3/5/0" "order $order, N=$n: the next restore exits 0 and leaves mq-deadline/3/5/0"
		is "$(pending)" 0 "order $order, N=$n: nothing pending in the journal"
	done
	# A restore not killed: as many writes as it takes, the same end.
	killed_run
	ABBENCH_DEBUG_DIE_AFTER_WRITES=100 "$ABBENCH" restore > "$TEST_TMP/r4.out" 2>&1
	is "$?:$(state)" "0:mq-deadline/3/5/0" "order $order: one restore, never killed, leaves mq-deadline/3/5/0"
done

# The next restore must make every tunable equal, or say which one is not:
# with a restore killed before it marked anything, the journal is pending
# and the disk half restored; the second restore finishes the job.
killed_run
ABBENCH_DEBUG_DIE_AFTER_WRITES=3 "$ABBENCH" restore > /dev/null 2>&1
ok "$([ "$(pending)" -gt 0 ]; echo $?)" "a restore killed after 3 writes marked nothing restored ($(pending) pending)"
"$ABBENCH" restore > "$TEST_TMP/r3.out" 2>&1
is "$?:$(state)" "0:mq-deadline/3/5/0" "  the next one restores all"

# A tunable that cannot be made equal to its original: named, exit 1,
# left pending (here the journal's original is one the kernel refuses).
killed_run
sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
    "UPDATE entries SET original = 'x' WHERE kind = 'host.block.fifo_batch' AND state != 'restored'"
"$ABBENCH" restore > "$TEST_TMP/r5.out" 2>&1
is "$?" 1 "a tunable that will not take its original: restore exits 1"
like "$(cat "$TEST_TMP/r5.out")" "not restored: .*host.block.fifo_batch of '$LOOP_NAME' is [0-9]+, not its original x, after 8 passes" \
    "  naming it, its value and its original"
ok "$([ "$(pending)" -gt 0 ]; echo $?)" "  and leaves the disk's entries pending"
sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
    "UPDATE entries SET original = '3' WHERE kind = 'host.block.fifo_batch' AND original = 'x'"
"$ABBENCH" restore > "$TEST_TMP/r6.out" 2>&1
is "$?:$(state):$(pending)" "0:mq-deadline/3/5/0:0" "  which the next restore finishes once it can"

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
	if [ "$rc:$(state):$(pending)" != "0:mq-deadline/3/5/0:0" ]; then
		fails=$((fails + 1))
		diag "moment $t (kill after ${delay_ms} ms): exit $rc, state $(state), $(pending) pending"
		cat "$TEST_TMP/f2.out" | sed 's/^/# /'
		original
	fi
done
is "$fails" 0 "20 restores killed at seeded moments: every tunable at its original after the next restore"

# Between arms too: an arm that names no tunable gets the originals back,
# and all of them hold (mq-deadline's tunables put back before the
# scheduler would end at the kernel's defaults, 16/2/1).
original
printf '#!/bin/sh\nstate="$(sed "s/.*\\[\\(.*\\)\\].*/\\1/" %s/scheduler)/$(cat %s/fifo_batch)/$(cat %s/writes_starved)/$(cat %s/front_merges)"\n[ "$state" = mq-deadline/3/5/0 ] || { echo "disk at $state" >&2; exit 1; }\n' \
    "$LOOP_SYSFS" "$Q" "$Q" "$Q" > "$TEST_TMP/check.sh"
chmod +x "$TEST_TMP/check.sh"
printf '[experiment]\nname = switch\nrounds = 3\n[arm tight]\nhost.block.path = %s\nhost.block.read_lat_nsec = 1000000\nhost.block.scheduler = kyber\nargs = true\n[arm plain]\nargs = %s\n[workload w]\ntype = command\n' \
    "$LOOP_MNT" "$TEST_TMP/check.sh" > "$TEST_TMP/sw.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/sw.db" "$TEST_TMP/sw.ini" > "$TEST_TMP/sw.out" 2>&1
is "$?" 0 "an arm after one that set coupled tunables runs with the originals"
is "$(sqlite3 "$TEST_TMP/sw.db" "SELECT count(*) FROM samples WHERE arm = 'plain' AND status = 'ok'")" 3 \
    "  every sample of it found the disk at mq-deadline/3/5/0"
is "$(state)" mq-deadline/3/5/0 "  and the run ends with the disk as it began"
done_testing
