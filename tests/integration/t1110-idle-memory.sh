#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Workload idle-memory: runc vs runsc (quota=parent on one arm), every
# metric stored, gofer PSS plausible (0.5 .. 100 MiB); 2 vs 6 MiB touched
# by the idle program significantly different in ContainerNonReclaimableMem
# (run with stop = decided on that row: decided different by max-rounds 12);
# nothing left behind, also when an arm fails.
#
# settle = 250ms: `docker run -d` returns with touchmem's memory already
# touched. Read after 0, 100, 250, 500 ms and 1 s (4 rounds each, runsc,
# one container, load 7-9, 2026-12-07): 2m 14.45-15.12 MiB and 6m
# 18.69-19.21 MiB at every settle, 0 included. The broken arm's first
# container has exited before its second is started (0.5 s later):
# "no memory cgroup for container 1" at settle 0, 100 and 250 ms alike.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
lc_require
lc_image
DB=$TEST_TMP/t.db
MiB=1048576

cat >"$TEST_TMP/rt.ini" <<EOI
[experiment]
name = t1110-runtimes
rounds = 2

[arm runc]
runtime = runc

[arm runsc]
runtime = runsc
quota = parent

[arm broken]
runtime = runsc
cmd = /nonexistent

[workload idle]
type = idle-memory
image = $LC_IMAGE
containers = 2
settle = 250ms
touch = 2m
EOI
"$ABBENCH" run "$TEST_TMP/rt.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
run=$(lc_last_run "$DB")
lc_diag_failed "$DB" "$run" broken
for arm in runc runsc; do
	is "$(lc_count "$DB" "$run" $arm DockerRunAll sec/op)" 2 \
	    "$arm: 2 DockerRunAll samples"
	is "$(lc_count "$DB" "$run" $arm ContainerNonReclaimableMem B)" 2 \
	    "$arm: 2 ContainerNonReclaimableMem samples"
	is "$(lc_count "$DB" "$run" $arm ContainerAnonMem B)" 2 \
	    "$arm: 2 ContainerAnonMem samples"
done
for m in GoferMem SandboxMem; do
	for u in Pss-B Pss_Anon-B threads; do
		is "$(lc_count "$DB" "$run" runsc $m $u)" 4 \
		    "runsc: $m $u of 2 containers x 2 rounds"
	done
	is "$(lc_count "$DB" "$run" runc $m Pss-B)" 0 "runc: no $m"
done
is "$(lc_outside "$DB" "$run" GoferMem Pss-B $((MiB / 2)) $((100 * MiB)))" 0 \
    "gofer Pss within 0.5 .. 100 MiB"
is "$(lc_outside "$DB" "$run" ContainerNonReclaimableMem B $((2 * MiB)) \
    $((200 * MiB)))" 0 "non-reclaimable memory covers the 2 MiB touched"
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = $run AND
    arm = 'broken' AND status != 'ok'")" 2 "the broken arm's samples failed"
lc_no_leftovers "$DB" "$run" "runtimes"

cat >"$TEST_TMP/touch.ini" <<EOI
[experiment]
name = t1110-touch
stop = decided
max-rounds = 12
stat-filter = .name:ContainerNonReclaimableMem

[arm touch2m]
runtime = runsc
touch = 2m

[arm touch6m]
runtime = runsc
touch = 6m

[workload idle]
type = idle-memory
image = $LC_IMAGE
containers = 1
settle = 250ms
EOI
"$ABBENCH" run "$TEST_TMP/touch.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
ok $? "touch 2m vs 6m run succeeds"
run=$(lc_last_run "$DB")
lc_diag_failed "$DB" "$run"
"$ABBENCH" stat --db "$DB" "$run" >"$TEST_TMP/stat" 2>&1
line=$(grep "^ContainerNonReclaimableMem-$NPROCS " "$TEST_TMP/stat")
diag "$line"
like "$line" '\+[0-9.]+% \(p=0\.0[0-4][0-9]* n=[0-9+]+\)' \
    "ContainerNonReclaimableMem 2 vs 6 MiB is significant"
like "$("$ABBENCH" db show --db "$DB" "$run" 2>&1)" \
    "ContainerNonReclaimableMem-$NPROCS B touch6m vs touch2m: different after" \
    "and decided different by max-rounds 12"
d=$(sqlite3 "$DB" "SELECT CAST((SELECT avg(value) FROM samples WHERE
    run_id = $run AND arm = 'touch6m' AND benchmark =
    'ContainerNonReclaimableMem-$NPROCS') - (SELECT avg(value) FROM samples WHERE
    run_id = $run AND arm = 'touch2m' AND benchmark =
    'ContainerNonReclaimableMem-$NPROCS') AS INTEGER) / 1048576")
like "$d" '^[3-5]$' "the difference is about the 4 MiB touched (${d} MiB)"
lc_no_leftovers "$DB" "$run" "touch"
done_testing
