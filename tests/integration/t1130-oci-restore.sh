#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run with executor = oci killed with SIGKILL in the middle of a sample
# leaves its container running (runc, runsc); `abbench restore` deletes
# it from the journal (kind oci-container): afterwards the runtime lists
# no container, no process of it (runsc sandbox and gofer, `RUNTIME run`)
# is left, nor its cgroup, bundle or journal entry.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runc runsc busybox sqlite3 pgrep
plan 24

rootfs=$TEST_TMP/rootfs
mkdir -p "$rootfs/bin" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys" \
    "$rootfs/tmp"
cp "$(command -v busybox)" "$rootfs/bin/busybox"
for a in sh sleep; do ln -sf busybox "$rootfs/bin/$a"; done
DB=$TEST_TMP/db

# wait_for CMD...: up to 30 s until CMD succeeds.
wait_for() {
	i=0
	until "$@"; do
		[ $i -ge 150 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}

has_container() {
	[ -n "$("$rt" --root "$root" list --quiet 2>/dev/null)" ]
}

no_process() {
	[ -z "$(pgrep -f "$1")" ]
}

for rt in runc runsc; do
	root=$TEST_TMP/$rt-root
	cat >"$TEST_TMP/$rt.ini" <<EOI
[experiment]
name = t1130-$rt
rounds = 1
timeout = 120s

[arm $rt]
runtime = $rt
runtime-args = --root=$root

[workload sleep]
type = command
executor = oci
image = $rootfs
args = sleep 60
EOI
	"$ABBENCH" run "$TEST_TMP/$rt.ini" --db "$DB" --quiet \
	    >"$TEST_TMP/$rt.out" 2>&1 &
	pid=$!
	wait_for has_container
	ok $? "$rt: the container runs"
	id=$("$rt" --root "$root" list --quiet 2>/dev/null | head -1)
	cpid=$("$rt" --root "$root" state "$id" 2>/dev/null |
	    sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
	kill -9 $pid
	wait $pid 2>/dev/null
	run=$(sqlite3 "$DB" "SELECT max(id) FROM runs")
	cg=abbench-$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run" |
	    cut -c1-8)
	like "$id" "^$cg-" "$rt: the container is named after the run"
	has_container
	ok $? "$rt: it still runs after abbench was killed"
	[ -n "$cpid" ] && kill -0 "$cpid" 2>/dev/null
	ok $? "$rt: its process ($cpid) too"
	like "$(sqlite3 "$DB" "SELECT target FROM journal WHERE run_id = $run
	    AND kind = 'oci-container' AND state != 'restored'")" \
	    "^$rt	$root	$id\$" "$rt: journaled as runtime, root and id"

	"$ABBENCH" restore --db "$DB" >"$TEST_TMP/$rt.restore" 2>&1
	ok $? "$rt: abbench restore exits 0"; sed "s/^/# /" "$TEST_TMP/$rt.restore"
	grep -q "deleted OCI container '$id'" "$TEST_TMP/$rt.restore"
	ok $? "$rt: it says it deleted the container"
	is "$("$rt" --root "$root" list --quiet 2>/dev/null)" "" \
	    "$rt: '$rt list' shows no container"
	wait_for no_process "$id"
	ok $? "$rt: no process of the container (run, sandbox, gofer)"
	left=$(find /sys/fs/cgroup -type d -name "$cg*" 2>/dev/null | head -3)
	is "$left" "" "$rt: no cgroup of the run left"
	is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE run_id = $run
	    AND state != 'restored'")" 0 "$rt: nothing left in the journal"
	is "$(ls -d /tmp/"$cg"-* 2>/dev/null)" "" "$rt: no bundle left"
done
done_testing
