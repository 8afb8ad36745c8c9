#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Workload checkpoint: runsc checkpoint/restore through OCI and docker,
# 2 rounds x 2 arms (runsc, and runc which must fail: checkpoint needs
# runsc); every metric stored, the restored container ran (a sample is ok
# only when `runsc state` says running), and no container, image,
# bundle, cgroup or copy of a checkpoint (containerd's) left behind,
# also after a kill -9 during a docker restore and `abbench restore`.
LIB_REAPER=1	# runsc's sandboxes reaped at once (lib.sh)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
lc_require
docker info 2>/dev/null | grep -q 'Experimental: true' && dck=yes || dck=no
lc_rootfs
lc_image
DB=$TEST_TMP/t.db
MiB=1048576
# The ctrd-checkpoint* directories in each containerd's temporary
# directory, as host-leftovers lists them: containerd 1.6 unpacks every
# checkpoint that `docker start --checkpoint` hands it into a new one and
# never removes it (containerd#10166).
ctrd_dirs() {
	"$ABBENCH_SRCDIR/scripts/host-leftovers" | grep '/ctrd-checkpoint'
}
ctrd_dirs >"$TEST_TMP/ctrd.before"

cat >"$TEST_TMP/ck.ini" <<EOI
[experiment]
name = t1120-checkpoint
rounds = 2

[arm runsc]
runtime = runsc

[arm runc]
runtime = runc

[workload ck]
type = checkpoint
image = $LC_ROOTFS
touch = 2m
settle = 500ms
restored-settle = 200ms
docker = $dck
docker-image = $LC_IMAGE
EOI
"$ABBENCH" run "$TEST_TMP/ck.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
run=$(lc_last_run "$DB")
# A runsc sample that failed says why (and when, against the load).
sqlite3 "$DB" "SELECT 'runsc sample ' || plan_idx || ' failed: ' || error
    FROM samples WHERE run_id = $run AND arm = 'runsc' AND status <> 'ok'" |
    while read -r l; do diag "$l (load now: $(cut -d' ' -f1-3 /proc/loadavg))"; done
for m in Checkpoint Restore; do
	is "$(lc_count "$DB" "$run" runsc $m sec/op)" 2 "runsc: 2 $m samples"
done
for m in RestoredNonReclaimableMem RestoredAnonMem; do
	is "$(lc_count "$DB" "$run" runsc $m B)" 2 "runsc: 2 $m samples"
done
is "$(lc_outside "$DB" "$run" Restore sec/op 0.01 10)" 0 \
    "Restore within 10 ms .. 10 s"
is "$(lc_outside "$DB" "$run" RestoredNonReclaimableMem B $((2 * MiB)) \
    $((500 * MiB)))" 0 "restored memory holds the 2 MiB touched"
if [ "$dck" = yes ]; then
	is "$(lc_count "$DB" "$run" runsc DockerRestore sec/op)" 2 \
	    "runsc: 2 DockerRestore samples (docker checkpoint path)"
	is "$(lc_count "$DB" "$run" runsc DockerRestoredNonReclaimableMem B)" \
	    2 "runsc: 2 DockerRestoredNonReclaimableMem samples"
else
	diag "dockerd has no experimental: docker path not tested"
fi
like "$(sqlite3 "$DB" "SELECT error FROM samples WHERE run_id = $run AND
    arm = 'runc' LIMIT 1")" "not runsc" "the runc arm fails with a reason"
lc_no_leftovers "$DB" "$run" "checkpoint"
left=$(docker ps -a -q --filter "ancestor=$LC_IMAGE")
is "$left" "" "no container of the test image left (docker checkpoints)"
is "$(ctrd_dirs | comm -13 "$TEST_TMP/ctrd.before" - | head -3)" "" \
    "no copy of a checkpoint left in containerd's temporary directory"

# A kill -9 while `docker start --checkpoint` runs: the CLI dies with
# abbench, dockerd finishes the restore it was asked for, and containerd
# has unpacked its copy. `abbench restore` removes the container and the
# copies of its checkpoints (only docker's own names them, and it goes
# with the container). The run is stopped (SIGSTOP) once its docker start
# has run 100 ms, and killed only when that CLI is not yet reaped, so
# abbench did not remove the copy itself, and the copy is there: else it
# goes on to the next restore.
if [ "$dck" = yes ]; then
	sed -e 's/^name = .*/name = t1120-killed/' \
	    -e 's/^rounds = .*/rounds = 6/' \
	    -e '/^\[arm runc\]/,/^$/d' "$TEST_TMP/ck.ini" >"$TEST_TMP/k9.ini"
	K9DB=$TEST_TMP/k9.db
	"$ABBENCH" run "$TEST_TMP/k9.ini" --db "$K9DB" --quiet \
	    >"$TEST_TMP/k9.out" 2>&1 &
	kpid=$!
	i=0 stopped=no
	while [ $i -lt 1200 ] && kill -0 $kpid 2>/dev/null; do
		if cli=$(pgrep -P $kpid -f 'start --checkpoint'); then
			sleep 0.1
			kill -STOP $kpid
			if kill -0 "$cli" 2>/dev/null; then
				stopped=yes
				break
			fi
			kill -CONT $kpid
			while kill -0 "$cli" 2>/dev/null; do sleep 0.01; done
		fi
		sleep 0.02
		i=$((i + 1))
	done
	is "$stopped" yes "the run to kill was stopped in a docker restore"
	j=0
	until [ -n "$(ctrd_dirs | comm -13 "$TEST_TMP/ctrd.before" -)" ] ||
	    [ $j -ge 100 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	[ -n "$(ctrd_dirs | comm -13 "$TEST_TMP/ctrd.before" -)" ]
	ok $? "its restore left containerd's copy of the checkpoint"
	kill -9 $kpid
	kill -CONT $kpid 2>/dev/null
	wait $kpid 2>/dev/null
	"$ABBENCH" restore --db "$K9DB" >"$TEST_TMP/k9.restore" 2>&1
	is "$?" 0 "abbench restore after the kill -9"
	pat="removed container 'abbench-[^']*' and containerd's copy"
	pat="$pat '[^']*/ctrd-checkpoint[^']*' of its checkpoint"
	file_like "$TEST_TMP/k9.restore" "$pat" \
	    "abbench restore says it removed the copy with the container"
	lc_no_leftovers "$K9DB" "$(lc_last_run "$K9DB")" "killed in a restore"
	is "$(ctrd_dirs | comm -13 "$TEST_TMP/ctrd.before" - | head -3)" "" \
	    "killed in a docker restore: no copy of its checkpoint left"
fi
done_testing
