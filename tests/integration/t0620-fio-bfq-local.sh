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
# About 2x on this machine kind in wave 1; +37% to +55% in Dec 2026, and
# +11.6% to +46.7% on one machine within an hour (the virtual disk's speed
# that minute): significance is the test, and the rule's 99% interval of
# the change above 0 guards the direction (fio-lib.sh).
fio_total_up local
fio_checks_after
done_testing
