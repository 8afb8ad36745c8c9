#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The tests do not assume a pristine kernel (issue case 10): a loop device
# keeps its queue, scheduler tunables included, across detach and attach.
# Leave the next free loop device with mq-deadline fifo_batch 3 and
# front_merges 0 (as an earlier user may have), show that it keeps them,
# then run t0500 and t0510 (which start from "a fresh mq-deadline device
# has fifo_batch 16"): they pass. At the end each device it tuned has its
# queue back as it was. (This was bfq's slice_idle and low_latency, as
# t0500 and t0510 were bfq's; kernels without bfq lack it.)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_scheduler mq-deadline

# What this test dirties it puts back at the end: each device's queue as
# it was before the first dirty(), "DEV SCHEDULER [KEY=VALUE...]" a line
# (queue_state). A device still attached by then is someone else's: left
# alone.
SAVED=$TEST_TMP/queues
: > "$SAVED"
undirty() {
	while read -r dev state; do
		f=$(mktemp /var/tmp/abbench-dirty.XXXXXX) || continue
		truncate -s 1M "$f"
		if losetup "$dev" "$f" 2>/dev/null; then
			# shellcheck disable=SC2086
			queue_set "${dev#/dev/}" $state
			losetup -d "$dev"
		fi
		rm -f "$f"
	done < "$SAVED"
}
trap 'undirty; lib_cleanup' EXIT

# dirty: attach a scratch file to the next free device, tune it, detach.
dirty() {
	f=$(mktemp /var/tmp/abbench-dirty.XXXXXX) || return 1
	truncate -s 1M "$f"
	d=$(losetup --find --show "$f") || { rm -f "$f"; return 1; }
	q=/sys/block/${d#/dev/}/queue
	grep -q "^$d " "$SAVED" ||
	    echo "$d $(queue_state "${d#/dev/}")" >> "$SAVED"
	echo mq-deadline > "$q/scheduler" && echo 3 > "$q/iosched/fifo_batch" &&
	    echo 0 > "$q/iosched/front_merges"
	losetup -d "$d"
	rm -f "$f"
	DIRTY=$d
}

dirty
ok $? "a loop device left with mq-deadline fifo_batch 3, front_merges 0 ($DIRTY)"
f=$(mktemp /var/tmp/abbench-dirty.XXXXXX)
truncate -s 1M "$f"
d=$(losetup --show "$DIRTY" "$f" 2>/dev/null || losetup --find --show "$f")
q=/sys/block/${d#/dev/}/queue/iosched
is "$(cat "$q/fifo_batch" 2>/dev/null):$(cat "$q/front_merges" 2>/dev/null)" 3:0 \
    "attached again, it keeps them"
losetup -d "$d"
rm -f "$f"

for t in t0500-hostset-loop t0510-restore-signals; do
	dirty
	sh "$ABBENCH_SRCDIR/tests/integration/$t.sh" > "$TEST_TMP/$t.out" 2>&1
	rc=$?
	nbad=$(grep -c '^not ok' "$TEST_TMP/$t.out")
	ok "$([ $rc -eq 0 ] && [ "$nbad" -eq 0 ]; echo $?)" \
	    "$t passes after a loop device was left tuned ($nbad failed)"
	[ "$nbad" -eq 0 ] || grep '^not ok' "$TEST_TMP/$t.out" | sed 's/^/# /'
	# It leaves the device as it found it, tunables too (cleanup_loops;
	# a detached device's queue can be read).
	is "$(queue_state "${DIRTY#/dev/}" | tr ' ' '\n' |
	    grep -E '^(mq-deadline|fifo_batch=|front_merges=)' | tr '\n' ' ')" \
	    "mq-deadline fifo_batch=3 front_merges=0 " \
	    "  and leaves $DIRTY as it found it (mq-deadline, fifo_batch 3, front_merges 0)"
done
done_testing
