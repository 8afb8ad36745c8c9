#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cpu-steady with executor oci (runsc driven from a generated bundle, as
# experiments/quota-steady-state.ini does): every metric is stored, the
# programs are told to report through the runtime (`runsc kill ID TERM`)
# so a sample takes its warm-up and window, not the programs' safety
# limit, and no container, cgroup or bundle of the run is left.
#
# quota = parent (BurnerParent of quota-steady-state.ini) under runsc and
# runc: a burner that would take a whole CPU is held to the parent's 0.25
# (its sandbox cgroup sits inside the parent, in cpu, cpuacct and every
# other hierarchy the runtime joins; the parent's nr_throttled grows);
# after a kill -9 mid-sample, `abbench restore` leaves no cgroup,
# container, process, bundle or journal entry.
#
# The first run measures 1 s after a 0.5 s warm-up (3 s after 1 s
# before): its checks are that each metric is stored and positive and
# that the sample ends after its window, well before the programs'
# safety limit (warm-up + window + 60 s + 2 s a sandbox).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runsc runc sqlite3 pgrep

DB=$TEST_TMP/q.db
cat >"$TEST_TMP/q.ini" <<EOF2
[experiment]
name = t0740
rounds = 1
timeout = 3m

[arm ptrace]
runtime      = runsc
runtime-args = --network=none --platform=ptrace

[workload Burner]
type      = cpu-steady
executor  = oci
program   = Burner
sandboxes = 2
quota     = leaf
cpu       = 0.25
warmup    = 0.5s
window    = 1s
EOF2

start=$(date +%s)
"$ABBENCH" run "$TEST_TMP/q.ini" --db "$DB" --quiet >"$TEST_TMP/run.out" 2>&1
rc=$?
ok $rc "abbench run of 2 runsc sandboxes with executor oci"
[ $rc -eq 0 ] || diag "$(cat "$TEST_TMP/run.out")"
took=$(( $(date +%s) - start ))
ok "$([ "$took" -lt 40 ]; echo $?)" "the sample ends after its window, not the programs' safety limit (${took} s)"
for u in overhead/app-cpu host-ctxsw/s work/s throttled-periods; do
	v=$(sqlite3 "$DB" "SELECT value FROM samples WHERE status = 'ok' AND unit = '$u'")
	ok "$(awk -v v="$v" 'BEGIN { exit !(v != "" && v + 0 > 0) }'; echo $?)" "$u is stored and positive ($v)"
done
uuid=$(sqlite3 "$DB" "SELECT substr(uuid, 1, 8) FROM runs")
is "$(ls -d /sys/fs/cgroup/*/abbench-"$uuid"* /sys/fs/cgroup/*/*/*/abbench-"$uuid"* 2>/dev/null | wc -l)" 0 "no cgroup of the run is left"
is "$(ls -d /tmp/abbench-"$uuid"* 2>/dev/null | wc -l)" 0 "no bundle of the run is left"
is "$(runsc --root /var/run/runsc list -quiet 2>/dev/null | grep -c "$uuid")" 0 "no runsc container of the run is left"
is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state <> 'restored'")" 0 "nothing pending in the journal"

# exp_parent NAME WINDOW RUNTIME...: a full-time burner (it would take 1
# CPU) in one sandbox under a parent quota of 0.25, an arm per runtime
# (runsc on ptrace), each with a --root of its own.
exp_parent() {
	printf '[experiment]\nname = %s\nrounds = 1\ntimeout = 3m\n\n' "$1"
	w=$2
	shift 2
	for rt in "$@"; do
		printf '[arm %s]\nruntime = %s\nruntime-args = ' "$rt" "$rt"
		[ "$rt" = runsc ] && printf -- '--network=none --platform=ptrace '
		printf -- '--root=%s\n\n' "$TEST_TMP/$rt-root"
	done
	cat <<EOF2
[workload BurnerParent]
type      = cpu-steady
executor  = oci
program   = burner -b 100 -p 100
sandboxes = 1
quota     = parent
cpu       = 0.25
warmup    = 1s
window    = $w
EOF2
}
# sval ARM UNIT: the value a sample of DB2's run stored.
sval() {
	sqlite3 "$DB2" "SELECT value FROM samples WHERE status = 'ok' AND
	    arm = '$1' AND unit = '$2'"
}
# within V LO HI
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
	    'BEGIN { exit !(v != "" && v + 0 >= lo + 0 && v + 0 <= hi + 0) }'
}
# cgleft PREFIX: directories of the run's cgroups in any hierarchy.
cgleft() {
	find /sys/fs/cgroup -type d -name "$1*" 2>/dev/null | head -3
}

DB2=$TEST_TMP/parent.db
exp_parent t0740-parent 2s runsc runc >"$TEST_TMP/parent.ini"
"$ABBENCH" run "$TEST_TMP/parent.ini" --db "$DB2" --quiet \
    >"$TEST_TMP/parent.out" 2>&1
rc=$?
ok $rc "quota = parent under executor oci, runsc and runc"
[ $rc -eq 0 ] || diag "$(cat "$TEST_TMP/parent.out")"
cg=abbench-$(sqlite3 "$DB2" "SELECT substr(uuid, 1, 8) FROM runs")
for rt in runsc runc; do
	v=$(sval $rt sandbox-cpus)
	within "$v" 0.1 0.32
	ok $? "$rt: the sandbox used about the parent's 0.25 CPU ($v), not 1"
	v=$(sval $rt throttled-periods)
	within "$v" 1 1000000
	ok $? "$rt: the parent throttled it ($v periods)"
	is "$("$rt" --root "$TEST_TMP/$rt-root" list --quiet 2>/dev/null)" "" \
	    "$rt: no container left"
done
is "$(cgleft "$cg")" "" "no cgroup of the run is left"
is "$(sqlite3 "$DB2" "SELECT count(*) FROM journal WHERE state <> 'restored'")" 0 \
    "nothing pending in the journal"

# The same killed with SIGKILL mid-sample, then `abbench restore`.
# sandbox_dirs: the sandbox's cgroup directories inside a parent.
sandbox_dirs() {
	find /sys/fs/cgroup -type d -path "*/$cg/cs*-p0/$cg-*" 2>/dev/null
}
has_sandbox() {
	[ -n "$(sandbox_dirs | grep "^/sys/fs/cgroup/cpu/\|/cpu,")" ]
}
wait_for() {
	i=0
	until "$@"; do
		[ $i -ge 150 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}
no_process() {
	[ -z "$(pgrep -f "$1")" ]
}
# container_pid: the pid of the container the runtime lists (in cpid).
container_pid() {
	id=$("$rt" --root "$TEST_TMP/$rt-root" list --quiet 2>/dev/null |
	    head -1)
	cpid=$("$rt" --root "$TEST_TMP/$rt-root" state "$id" 2>/dev/null |
	    sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
	[ -n "$cpid" ] && [ "$cpid" != 0 ]
}
# nr_throttled DIR
nr_throttled() {
	sed -n 's/^nr_throttled //p' "$1/cpu.stat"
}
for rt in runsc runc; do
	DB3=$TEST_TMP/kill-$rt.db
	exp_parent "t0740-kill-$rt" 60s $rt >"$TEST_TMP/kill-$rt.ini"
	"$ABBENCH" run "$TEST_TMP/kill-$rt.ini" --db "$DB3" --quiet \
	    >"$TEST_TMP/kill-$rt.out" 2>&1 &
	pid=$!
	cg=
	wait_for sh -c "[ -n \"\$(sqlite3 '$DB3' 'SELECT uuid FROM runs' \
	    2>/dev/null)\" ]"
	cg=abbench-$(sqlite3 "$DB3" "SELECT substr(uuid, 1, 8) FROM runs")
	wait_for has_sandbox
	ok $? "$rt: the sandbox's cgroup is made inside the quota parent"
	dirs=$(sandbox_dirs)
	for h in cpu cpuacct memory pids; do
		echo "$dirs" | grep -q "/$h/\|/$h,\|,$h/"
		ok $? "$rt: inside the parent in the $h hierarchy"
	done
	cpud=$(echo "$dirs" | grep "/cpu/\|/cpu," | head -1)
	par=${cpud%/*}
	if [ -f "$par/cpu.max" ]; then
		is "$(cat "$par/cpu.max")" "25000 100000" "$rt: the parent's limit"
	else
		is "$(cat "$par/cpu.cfs_quota_us")" 25000 "$rt: the parent's limit"
	fi
	wait_for container_pid
	grep -qx "$cpid" "$cpud/cgroup.procs" 2>/dev/null
	ok $? "$rt: the container's process ($cpid) is in it"
	# Throttled as soon as the burner gets more than the quota in a
	# period: on a loaded host that may take more than a fixed second
	# (it then gets less than 0.25 CPU), so wait for it (30 s at most).
	t0=$(nr_throttled "$par")
	grown() { t1=$(nr_throttled "$par"); within "$t1" $((t0 + 1)) 1000000; }
	wait_for grown
	ok $? "$rt: the parent's nr_throttled grows ($t0 -> $t1)"
	kill -9 $pid
	wait $pid 2>/dev/null
	"$ABBENCH" restore --db "$DB3" >"$TEST_TMP/kill-$rt.restore" 2>&1
	ok $? "$rt: abbench restore after kill -9"
	sed "s/^/# /" "$TEST_TMP/kill-$rt.restore"
	is "$("$rt" --root "$TEST_TMP/$rt-root" list --quiet 2>/dev/null)" "" \
	    "$rt: no container left"
	wait_for no_process "$cg"
	ok $? "$rt: no process of the run left"
	is "$(cgleft "$cg")" "" "$rt: no cgroup of the run left"
	is "$(ls -d /tmp/"$cg"-* 2>/dev/null)" "" "$rt: no bundle left"
	is "$(sqlite3 "$DB3" "SELECT count(*) FROM journal WHERE state <> 'restored'")" 0 \
	    "$rt: nothing pending in the journal"
done
done_testing
