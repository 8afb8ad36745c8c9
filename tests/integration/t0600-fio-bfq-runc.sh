#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bfq-concurrent-fio scaled down with runc: 4 containers, 3 s, 5 rounds on
# a bfq loop device: total iops significantly higher with slice_idle 0
# (`abbench stat --db`), and afterwards the loop device's knobs restored,
# no container, cgroup, data file or journal entry left.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

fio_setup
fio_need_docker
plan 15
fio_experiment docker runc 4
fio_run
fio_all_ok
fio_overlaps 4 0.9
fio_total_up runc
grep -q "^Multi/c4/runc/container=3-$NPROCS " "$TEST_TMP/stat.out"
ok $? "per-container values are stored"
fio_checks_after
done_testing
