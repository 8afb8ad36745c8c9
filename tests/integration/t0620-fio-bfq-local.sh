#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The local-cgroup variant: 4 fio processes, each in its own blkio cgroup
# (the local executor), on a bfq loop device, slice_idle 8 vs 0. Then
# nothing left behind; then t0750's weights run (blkio.bfq.weight on v1,
# io.bfq.weight on v2, read back).
#
# The device is a loop over a file on a private tmpfs, rotational as the
# virtual disk says it is, and each reader is synchronous with 500 µs of
# think time after every read: bfq at slice_idle 8 idles through each
# think on the queue in service, serving one reader at a time; at 0 it
# serves all four. Here: 1.1k-2.5k vs 4.4k-6.4k total iops, and 1.8k-2.2k
# vs 4.6k-6.5k with a CPU burner on one of the 2 cores. Before, on the
# virtual disk with randread at iodepth 4 (t0600's workload), the effect
# was the disk's that minute: +11.6% to +99% here, and in one CI run 2.0k
# vs 3.8k iops with +-210% noise, undecided after 12 rounds (the disk
# served 60k iops by hand here, 8.6k-17k through the loop the same hour).
# On tmpfs and non-rotational, idle8 was bimodal (4 of 12 samples at
# idle0's speed: bfq did not idle), and randread at iodepth 4 is CPU
# bound there (+63%, but +9% with a CPU burner).
#
# Both arms turn bfq's low_latency off (abbench journals and restores it).
# With it on, now and then a whole idle8 sample ran at idle0's speed
# (6.2k, 6.1k and 5.9k of 10 in one full run, 5 of 50 samples >= 4.5k
# alone here): bfq weight-raises each sample's 4 new fio queues as
# interactive for at least 3 s (bfq_wr_duration clamps to 3-25 s, the
# sample lasts 3 s), and while a busy queue is weight-raised its idling
# for throughput is off (idling_boosts_thr_without_issues: `&&
# wr_busy_queues == 0`); whether the queues are raised depends on the
# device's history (burst detection, the peak rate bfq has estimated).
# low_latency 0 ends that: 0 of 50 idle8 samples >= 4.5k in the same
# hour, 1.3k-4.3k vs 3.2k-6.6k, slice_idle the only difference.
#
# On a kernel without bfq (the machines' 6.18) the test runs in the qemu
# guest, whose Debian 6.1 has it (bfq_here_or_guest, v2-lib.sh): cgroup
# v2 there, each member's weight io.bfq.weight ("default 100"). The guest
# is TCG without KVM (its 2 vCPUs in one host thread) and the machine is
# shared: what a think time needs of the guest's CPU is not there. A
# reader thinking 2-3 ms costs ~1 ms of guest CPU a read (timer wakeups,
# fio's bookkeeping), so 4 of them saturate the guest at slice_idle 0
# (539-912 total iops with `none`, 4 x 350 expected) and their thinks
# stretch past slice_idle / 2, where bfq stops idling: no effect at all
# (idle8 292-632, idle0 272-656 iops, 7 Dec 2026). Before, with 500 us
# thinks on the loop (randread): +15% to +46%, one run of 4 undecided at
# 20 rounds; with -icount (deterministic guest time) only -smp 1 boots
# and separate fio readers phase-lock.
# (clocksource tsc=reliable made clock reads 2.3 us, not 4.0, and changed
# none of that.) So in the guest the wait is the device's, not the
# reader's: a null_blk device (fio_make_nullb: memory-backed, ext4 on it,
# rotational) that completes every request 10 ms after it came, read
# sequentially (not seeky: bfq idles the full slice_idle, a seeky queue
# only BFQ_MIN_TT 2 ms) by synchronous readers without think time, so
# that each reader's next read follows its last completion by fio's own
# time, well inside slice_idle / 2: at 8 bfq serves one reader at a time,
# at 0 all four at once. Samples of 5 s (at 3 s, one sample's 4 runs
# overlapped 0.890 < 0.9 in 3 runs). Five runs in a row here (7 Dec
# 2026, host load 2-10 from other work, a CPU burner in the last), 18 of
# 18 each, every one decided at round 8 (n=8+8: the first at which the U
# test can reach an interim look's 99.9%): median
# total iops 84-91 vs 289-351 (+245% to +292%), overlaps >= 0.976, 176-258
# s each, the guest's boot included.
# In the guest the run leaves the page cache as it is between samples
# (FIO_DROP_CACHES=no; t0600 still drops it on the host): the readers
# read with O_DIRECT from null_blk, so the cache holds nothing they
# read, and dropping it made every sample read fio and its 64 libraries
# again over the guest's 9p root (runc and the image's fio too in t0601):
# from one sample's end to the next's start 4.2-4.9 s with the drop,
# 2.9-4.6 s without (7 Dec 2026, 2 rounds each in one boot, host load
# 3-4); the whole test 250 s before (host load 1.6-7), 207 s after (4-5).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

bfq_here_or_guest
LOOP_BACKING=ram
FIO_THINK=500
if [ -n "${ABBENCH_V2_GUEST:-}" ]; then
	FIO_NULLB_NS=10000000 FIO_THINK=0 FIO_RW=read FIO_SIZE=8m FIO_DURATION=5s
	FIO_DROP_CACHES=no
fi
FIO_LOW_LATENCY=0
fio_setup
plan 18
fio_experiment local "" 4
fio_run
fio_all_ok
fio_overlaps 4 0.9
# Significance is the test, and the decision's interval of the change
# above 0 guards the direction (fio-lib.sh).
fio_total_up local
fio_checks_after
# v2's weights check (t0750), also on v1: two fio processes with weights
# 100 and 1000 on the bfq device; abbench writes the bfq weight in each
# member's cgroup and reads it back (or fails the sample); read here too
# while the run lasts.
sed -e '/^\[arm idle0\]/,$d' -e 's/^stop = decided$/rounds = 1/' \
    -e '/^max-rounds/d' "$TEST_TMP/exp.ini" >"$TEST_TMP/w.ini"
printf '[workload Weights]\ntype = fio\nexecutor = local\ncontainers = 2\nweights = 100 1000\ndir = %s/fio\nsize = 16m\nrw = randread\nbs = 4k\nioengine = libaio\niodepth = 4\ndirect = 1\nduration = 3s\n' \
    "$LOOP_MNT" >>"$TEST_TMP/w.ini"
"$ABBENCH" run "$TEST_TMP/w.ini" --db "$TEST_TMP/w.db" --quiet \
    >"$TEST_TMP/w.out" 2>&1 &
wpid=$!
wseen=
while kill -0 $wpid 2>/dev/null; do
	for f in $(find /sys/fs/cgroup -maxdepth 7 -path '*/abbench-*/*' \
	    \( -name blkio.bfq.weight -o -name io.bfq.weight \) 2>/dev/null); do
		w=$(sed -n 's/^default //; 1p' "$f" 2>/dev/null)
		case " $wseen " in *" $w "*) ;; *) wseen="$wseen $w" ;; esac
	done
	sleep 0.1
done
wait $wpid
ok $? "fio with weights 100 and 1000 on bfq"
echo "$wseen " | grep -q ' 100 ' && echo "$wseen " | grep -q ' 1000 '
ok $? "the bfq weight read 100 and 1000 in the members' cgroups:$wseen"
diag "weights on bfq: $(sqlite3 "$TEST_TMP/w.db" "SELECT benchmark || ' ' || printf('%.0f', value) FROM samples WHERE unit = 'iops' ORDER BY benchmark" | tr '\n' ' ')"
wrun=$(sqlite3 "$TEST_TMP/w.db" 'SELECT substr(uuid, 1, 8) FROM runs')
is "$(find /sys/fs/cgroup -maxdepth 5 -type d -name "abbench-$wrun*" | wc -l)" 0 \
    "no cgroup of the weights run (so no weight) left"
is "$(cat "$LOOP_SYSFS/iosched/slice_idle" 2>/dev/null)" "$KNOB_BEFORE" \
    "slice_idle restored after the weights run"
done_testing
