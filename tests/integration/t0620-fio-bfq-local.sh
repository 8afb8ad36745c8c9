#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The local-cgroup variant: 4 fio processes, each in its own blkio cgroup
# (the local executor), on a bfq loop device, slice_idle 8 vs 0: 1.4x to
# 2x the total iops at 0 on this machine kind. Then nothing left behind.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

fio_setup
plan 13
fio_experiment local "" 4
fio_run
fio_all_ok
fio_overlaps 4 0.9
# About 2x on this machine kind in wave 1; +37% to +55% here in Dec 2026,
# for the wave-1 binary (151d185) as for this one, run back to back: the
# kernel's loop/bfq behaviour moved, not abbench. Significance is the test;
# the factor only guards the direction and a real size.
fio_total_up local 1.25
fio_checks_after
done_testing
