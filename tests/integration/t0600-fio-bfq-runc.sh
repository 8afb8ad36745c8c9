#!/bin/sh
# bfq-concurrent-fio scaled down with runc: 4 containers, 3 s, 5 rounds on
# a bfq loop device: total iops significantly higher with slice_idle 0
# (`abbench stat --db`), and afterwards the loop device's knobs restored,
# no container, cgroup, data file or journal entry left.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fio-lib.sh"

fio_setup
fio_need_docker
plan 12
fio_experiment docker runc 4
fio_run
is "$(sqlite3 "$TEST_TMP/db" "SELECT count(DISTINCT plan_idx) FROM samples
    WHERE status = 'ok'")" 10 "10 samples, all ok"
fio_significant_up "Multi/c4/runc-total"
ok $? "runc total iops significantly higher with slice_idle 0"
t8=$(fio_total idle8 runc)
t0=$(fio_total idle0 runc)
diag "median total iops: slice_idle 8 $t8, slice_idle 0 $t0"
awk -v a="$t8" -v b="$t0" 'BEGIN { exit !(b > 1.15 * a) }'
ok $? "median total grows by more than 15%"
grep -q '^Multi/c4/runc/container=3 ' "$TEST_TMP/stat.out"
ok $? "per-container values are stored"
fio_checks_after
done_testing
