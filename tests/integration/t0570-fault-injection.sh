#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fault injection: a docker fio experiment on an mq-deadline loop device
# (arms that switch the scheduler to kyber and set tunables; this was a
# bfq device, which kernels without bfq lack) is killed with SIGKILL at 20
# moments drawn from a seeded generator; after each, `abbench restore`
# (no arguments, from another directory) must leave: the scheduler and
# every tunable as before, no container, no containerd shim, no cgroup,
# no temp or data file, no loop device, and as many samples stored as the
# run reported (--json-progress) before it died.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd fio losetup mkfs.ext4 sqlite3 awk
require_scheduler mq-deadline
has_scheduler kyber || skip_all "loop devices do not offer 'kyber'"
require_dockerd runc
timeout 20 docker image inspect abbench/tools >/dev/null 2>&1 ||
    skip_all "no abbench/tools image (scripts/build-image)"
make_loop 256 mq-deadline || { fail "make an mq-deadline loop device"; done_testing; }
export TMPDIR=$TEST_TMP/tmp
mkdir -p "$TMPDIR" "$TEST_TMP/elsewhere"
SEED=${ABBENCH_FAULT_SEED:-14}
N=${ABBENCH_FAULT_N:-20}
DB=$TEST_TMP/f.db

cat > "$TEST_TMP/f.ini" <<EOI
[experiment]
name = fault-injection
rounds = 2
timeout = 60s
[arm ky]
runtime = runc
host.block.scheduler = kyber
host.block.read_lat_nsec = 1000000
[arm batch0]
runtime = runc
host.block.fifo_batch = 0
host.block.front_merges = 0
[arm batch16]
runtime = runc
host.block.fifo_batch = 16
[workload Multi]
type = fio
executor = docker
containers = 2
dir = $LOOP_MNT/fio
size = 8m
rw = randread
bs = 4k
ioengine = libaio
iodepth = 4
direct = 1
duration = 1s
EOI

# The disk as the host has it: scheduler, then every tunable.
disk_state() {
	sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler"
	for f in "$LOOP_SYSFS"/iosched/*; do
		printf '%s=%s\n' "${f##*/}" "$(cat "$f")"
	done
}
# Container ids of the containerd shims now running.
shim_ids() {
	for p in $(pgrep -f containerd-shim); do
		{ tr '\0' '\n' < /proc/$p/cmdline; } 2>/dev/null |
		    awk 'prev == "-id" { print } { prev = $0 }'
	done | sort -u
}
loops_of_test() {
	losetup -a | grep -F -e "$TMPDIR" -e "$LOOP_MNT" | wc -l | tr -d ' '
}
# A small change the host already had: restore must keep it.
echo 3 > "$LOOP_SYSFS/iosched/fifo_batch"
BEFORE=$(disk_state)
LOOPS0=$(loops_of_test)

# The 20 moments: seeded, spread over the first 7 s of a run (its
# checks, its first host changes, containers starting, samples).
awk -v s="$SEED" -v n="$N" 'BEGIN { srand(s); for (i = 0; i < n; i++)
    printf "%.2f\n", 0.2 + rand() * 6.8 }' > "$TEST_TMP/moments"
i=0
while read -r at; do
	i=$((i + 1))
	shims0=$(shim_ids)
	run0=$(sqlite3 "$DB" "SELECT coalesce(max(id), 0) FROM runs" 2>/dev/null)
	"$ABBENCH" run --json-progress --db "$DB" "$TEST_TMP/f.ini" \
	    > "$TEST_TMP/p.$i" 2> "$TEST_TMP/e.$i" &
	pid=$!
	# The moments count from when it holds the host (other tests' runs
	# may hold it first: the host lock is the host's).
	wait_host_holder $pid
	sleep "$at"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	(cd "$TEST_TMP/elsewhere" && "$ABBENCH" restore) \
	    > "$TEST_TMP/r.$i" 2>&1
	rrc=$?
	run=$(sqlite3 "$DB" "SELECT coalesce(max(id), 0) FROM runs" 2>/dev/null)
	# Killed before its run row existed: nothing of it can be stored.
	[ "${run:-0}" = "${run0:-0}" ] && run=0
	uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = ${run:-0}" 2>/dev/null)
	d="kill $i at ${at}s (run ${run:-none})"
	is "$rrc" 0 "$d: restore exits 0"
	[ "$rrc" = 0 ] || sed 's/^/# /' "$TEST_TMP/r.$i"
	is "$(disk_state)" "$BEFORE" "$d: scheduler and every tunable as before"
	left=0
	[ -n "$uuid" ] && left=$(docker ps -aq \
	    --filter "label=abbench.run=$uuid" | wc -l | tr -d ' ')
	is "$left" 0 "$d: no container"
	# A new shim of a container docker no longer knows is a leak.
	leak=
	for id in $(shim_ids); do
		echo "$shims0" | grep -qx "$id" && continue
		docker inspect "$id" >/dev/null 2>&1 || leak="$leak $id"
	done
	# A shim that is exiting is not a leak: give each up to 20 s (it was
	# a fixed 2 s, short on a loaded host).
	w=0
	while [ -n "$leak" ] && [ $w -lt 100 ]; do
		for id in $leak; do
			pgrep -f "containerd-shim.*-id $id" >/dev/null || \
			    leak=$(echo "$leak" | sed "s/ $id//")
		done
		[ -n "$leak" ] && sleep 0.2
		w=$((w + 1))
	done
	is "$leak" "" "$d: no containerd shim"
	cg=
	[ -n "$uuid" ] && cg=$(find /sys/fs/cgroup -maxdepth 6 -type d \
	    -name "abbench-$(echo "$uuid" | cut -c1-8)*" 2>/dev/null | head -3)
	is "$cg" "" "$d: no cgroup"
	is "$(ls -A "$TMPDIR") $(ls -A "$LOOP_MNT/fio" 2>/dev/null)" " " \
	    "$d: no temp file, no data file"
	is "$(loops_of_test)" "$LOOPS0" "$d: no loop device"
	reported=$(grep -c '"sample"' "$TEST_TMP/p.$i")
	stored=0
	[ -n "$uuid" ] && stored=$(sqlite3 "$DB" "SELECT count(DISTINCT
	    plan_idx) FROM samples WHERE run_id = $run")
	# And those of its log (results/store-log.c), when the restore
	# that took the run was another abbench's, of another state
	# directory, before the samples' log: the next open imports them.
	[ -f "$DB-samples.$run" ] && stored=$((stored +
	    $(grep -ao ABSAMPL1 "$DB-samples.$run" | wc -l)))
	is "$stored" "$reported" "$d: samples stored = samples reported"
done < "$TEST_TMP/moments"
is "$i" "$N" "$N kills"
done_testing
