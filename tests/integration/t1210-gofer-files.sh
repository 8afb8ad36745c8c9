#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The gofer file harness rows of reference/004 with fio's filecreate and
# filestat engines, scaled down, under runc: Fio/vcpus=N/jobs=16/filecreate
# and .../filestat in iops, ColdStat/vcpus=N/par=64 in sec/op (files on
# disk, caches dropped); `abbench stat` lines them up with the report's
# rows (vcpus ignored), the experiment's stat-filter shows only them, and
# every file is removed.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3 fio
require_dockerd runc
any_image
N=$(nproc)
DB=$TEST_TMP/t.db
SHM=/dev/shm/abbench-t1210-$$
DISK=/var/tmp/abbench-t1210-$$
cat >"$TEST_TMP/e.ini" <<EOI
[experiment]
name = t1210
rounds = 1
timeout = 120s
stat-filter = (.name:Fio .unit:iops) OR (.name:ColdStat .unit:sec/op)
[arm runc]
runtime = runc
[workload filecreate]
type = fio
benchmark = Fio/vcpus={vcpus}/jobs=16/filecreate
image = $IMAGE
fs = bind
dir = $SHM
ioengine = filecreate
rw = write
numjobs = 16
group_reporting = 1
nrfiles = 10
prep = none
fio-args = --unlink=1
iops = yes
[workload filestat]
type = fio
benchmark = Fio/vcpus={vcpus}/jobs=16/filestat
image = $IMAGE
fs = bind
dir = $SHM
ioengine = filestat
rw = read
numjobs = 16
group_reporting = 1
nrfiles = 10
iops = yes
[workload coldstat]
type = fio
benchmark = ColdStat/vcpus={vcpus}/par=64
image = $IMAGE
fs = bind
dir = $DISK
drop-caches = yes
ioengine = filestat
rw = read
numjobs = 64
group_reporting = 1
nrfiles = 5
EOI
"$ABBENCH" run "$TEST_TMP/e.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
ok $? "filecreate, filestat and cold stat run (exit 0)" ||
    sed 's/^/# /' "$TEST_TMP/out" | tail -10
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE status = 'ok' AND (
    (benchmark = 'Fio/vcpus=$N/jobs=16/filecreate' AND unit = 'iops'
     AND value > 10) OR
    (benchmark = 'Fio/vcpus=$N/jobs=16/filestat' AND unit = 'iops'
     AND value > 10) OR
    (benchmark = 'ColdStat/vcpus=$N/par=64' AND unit = 'sec/op'
     AND value > 0 AND value < 60))")" 3 \
    "the three rows under the report's names (vcpus=$N, no -N suffix)"
"$ABBENCH" stat --db "$DB" 1 >"$TEST_TMP/stat" 2>"$TEST_TMP/err"
is "$(grep -c '^Fio/\|^ColdStat/' "$TEST_TMP/stat")" 3 \
    "stat-filter: the table shows the three report rows"
is "$(grep -c 'bandwidth' "$TEST_TMP/stat")" 0 \
    "and hides fio's other rows"
like "$(cat "$TEST_TMP/err")" "stat-filter" "stat says it applied stat-filter"
"$ABBENCH" db export --db "$DB" 1 >"$TEST_TMP/export" 2>/dev/null
"$ABBENCH" stat -table "" -ignore /vcpus \
    "report=$ABBENCH_SRCDIR/tests/data/reports/004-gofer-files.txt" \
    "abbench=$TEST_TMP/export" >"$TEST_TMP/cmp" 2>&1
is "$(grep -cE '^(ColdStat/par=64|Fio/jobs=16/file(create|stat)) +[0-9].* \(p=' \
    "$TEST_TMP/cmp")" 3 "stat lines the three rows up with reference/004's"
is "$(find "$SHM" "$DISK" -type f 2>/dev/null | wc -l)" 0 \
    "every fio file is removed"
rmdir "$SHM" "$DISK" 2>/dev/null
done_testing
