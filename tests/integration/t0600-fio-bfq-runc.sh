#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bfq-concurrent-fio scaled down with runc: 4 containers, 3 s, until decided on
# a bfq loop device: total iops significantly higher with slice_idle 0
# (`abbench stat --db`), and afterwards the loop device's knobs restored,
# no container, cgroup, data file or journal entry left.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

# The loop is on the root disk, whose speed drifts within a run (one
# full run: idle8 7.1k-27.7k, idle0 15.6k-47.1k iops; decided at round
# 12, the last look of max-rounds 12, p=0.000656). As t1100 does, the
# rule gets a budget of 20 rounds on this disk: quiet runs decide at
# round 8 or 10 all the same, and the error rates hold at any max-rounds.
FIO_MAX_ROUNDS=20
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
