#!/bin/sh
# The local-cgroup variant: 4 fio processes, each in its own blkio cgroup
# (the local executor), on a bfq loop device, slice_idle 8 vs 0: about 2x
# the total iops at 0 on this machine kind. Then nothing left behind.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

fio_setup
plan 11
fio_experiment local "" 4
fio_run
fio_all_ok
# About 2x on this machine kind.
fio_total_up local 1.5
fio_checks_after
done_testing
