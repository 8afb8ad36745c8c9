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
is "$(sqlite3 "$TEST_TMP/db" "SELECT count(DISTINCT plan_idx) FROM samples
    WHERE status = 'ok'")" 10 "10 samples, all ok"
fio_significant_up "Multi/c4/local-total"
ok $? "local total iops significantly higher with slice_idle 0"
t8=$(fio_total idle8 local)
t0=$(fio_total idle0 local)
diag "median total iops: slice_idle 8 $t8, slice_idle 0 $t0"
awk -v a="$t8" -v b="$t0" 'BEGIN { exit !(b > 1.5 * a) }'
ok $? "median total grows by more than 1.5x (about 2x here)"
fio_checks_after
done_testing
