#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0600's effect across runc containers, against a real bfq: 4 runc
# containers (the oci executor), one fio reader each, on a bfq device,
# slice_idle 8 vs 0, until decided: total iops significantly higher at
# 0; then every sample ok, the 4 runs overlapping, per-container values
# stored, the device's knobs restored and nothing left behind (15).
#
# Where the host's kernel has bfq, on a loop device here. Where it has
# none (the machines' 6.18), whole in the qemu guest (bfq_here_or_guest:
# Debian's 6.1 has bfq; no docker daemon there, hence the oci executor
# rather than docker's runc), on a null_blk device that completes each
# request 10 ms after it came, read sequentially without think time, 5 s
# samples: t0620's header says why the guest (emulated, no KVM) needs the
# wait to be the device's. Run in t0600 before (7 Dec 2026, host load
# 2-10): 96 vs 215, 85.6 vs 314.5 and 89.7 vs 354.7 iops, decided at
# round 8 each time; 4 runc containers started in ~12 s a sample under
# emulation, so about 4-6 minutes, the guest's boot included. Of those
# 12 s the page cache dropped before each sample (runc, the image's fio
# and its libraries read again over the 9p root) and the start barrier
# asking runc for each container's pid every 100 ms until it was made
# (`runc state`, 0.2-0.4 s each there: a CPU taken from the containers
# being made) took most: from one sample's end to the next's start 8-13
# s before, 3.8-5.3 s without the drop (FIO_DROP_CACHES=no, t0620's
# header) and with the barrier's looks spaced by their cost
# (exec/barrier.c); the whole test 340 s before (host load 5-6), 176 s
# after (2.6-3.8), 7 Dec 2026. On a host
# without bfq it holds the test lock shared (GUEST_SHARED_TESTS): it
# changes nothing on the host but the guest's own files.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

bfq_here_or_guest
require_cmd runc
if [ -n "${ABBENCH_V2_GUEST:-}" ]; then
	FIO_NULLB_NS=10000000 FIO_THINK=0 FIO_RW=read FIO_SIZE=8m FIO_DURATION=5s
	FIO_DROP_CACHES=no
else
	LOOP_BACKING=ram
	FIO_THINK=500
fi
FIO_LOW_LATENCY=0
fio_setup
plan 15
fio_experiment oci runc 4
fio_run
fio_all_ok
fio_overlaps 4 0.9
fio_total_up runc
grep -q "^Multi/c4/runc/container=3-$NPROCS " "$TEST_TMP/stat.out"
ok $? "per-container values are stored"
fio_checks_after
done_testing
