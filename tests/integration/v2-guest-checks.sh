#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The v2 checks, run INSIDE the cgroup v2 guest by t0750 (one boot for
# all): sh v2-guest-checks.sh ABBENCH SRCDIR SHARE. SHARE is a writable
# 9p share (the host test's $TEST_TMP): state dir and databases live
# there. Each section repeats the experiment and assertions of its v1 twin
# on the host, with longer windows where emulation (no KVM: CPU work 3.5x
# slower, syscalls 18x) needs them, and prints the numbers ("# v2 ...")
# for the comparison in README's table.
ABBENCH=$1 ABBENCH_SRCDIR=$2 SHARE=$3
ABBENCH_BUILDDIR=$(dirname "$ABBENCH")
ABBENCH_STATE_DIR=$SHARE/state
export ABBENCH ABBENCH_SRCDIR ABBENCH_BUILDDIR ABBENCH_STATE_DIR
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
mkdir -p "$ABBENCH_STATE_DIR"
CG=/sys/fs/cgroup
D=$SHARE

is "$(stat -f -c %T $CG)" cgroup2fs "the guest runs cgroup v2 only"

# within V LO HI
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
	    'BEGIN { exit !(v != "" && v + 0 >= lo + 0 && v + 0 <= hi + 0) }'
}
# runs_left: cgroups named abbench-* anywhere
runs_left() {
	find $CG -type d -name 'abbench-*' 2>/dev/null | head -5
}
# pending DB: journal entries not restored
pending() {
	sqlite3 "$1" "SELECT count(*) FROM journal WHERE state <> 'restored'"
}
# lap NAME: the guest's seconds since the last lap, for t0750's budget
lap_at=$(cut -d' ' -f1 /proc/uptime)
lap() {
	now=$(cut -d' ' -f1 /proc/uptime)
	diag "time: $1 $(awk -v a="$lap_at" -v b="$now" 'BEGIN { printf "%.1f", b - a }') s"
	lap_at=$now
}
# exits0 RC MESSAGE OUT DB: ok RC; when not 0, OUT and DB's failures
exits0() {
	ok "$1" "$2"
	[ "$1" -eq 0 ] || { sed 's/^/# /' "$3"
		sqlite3 "$4" "SELECT arm, error FROM samples WHERE status <> 'ok'" | sed 's/^/# /'; }
}
# line KEY FILE: the line of the first "KEY = " in FILE
line() {
	grep -n "^$1 *=" "$2" | head -1 | cut -d: -f1
}

# --- t0520's twin: abbench env names the version and the controllers.
out=$("$ABBENCH" env 2>&1)
echo "$out" | grep -q '^cgroup: v2, controllers: .*cpu.*io.*memory'
ok $? "env: cgroup v2 and its controllers ($(echo "$out" | grep '^cgroup:'))"
lap "env"

# --- t0470's twin, from a service's cgroup (not the root, abbench alone
# in it): abbench moves itself into a leaf of the run's cgroup, the
# controllers reach the samples' cgroups, and all is undone at the end.
echo "+cpu +memory +io +pids" >$CG/cgroup.subtree_control
mkdir -p $CG/svc
cat >"$D/cpu.ini" <<'EOF2'
[experiment]
name = arm-limits
rounds = 3

[arm limited]
cpu = 0.1

[arm free]

[workload Loop]
type = command
args = sh -c "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"
report = time cpu
EOF2
# sh -c "$IN_SVC" sh CMD...: CMD alone in the cgroup svc (the same pid)
IN_SVC='echo $$ >/sys/fs/cgroup/svc/cgroup.procs && exec "$@"'
sh -c "$IN_SVC" sh "$ABBENCH" run "$D/cpu.ini" --db "$D/c.db" --quiet \
    >"$D/cpu.out" 2>&1 &
pid=$!
seen_self= seen_sample= limited= most=0
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
	c=$(cat /proc/$pid/cgroup 2>/dev/null)
	case $c in *svc/abbench-*/self) seen_self=$c ;; esac
	s=$(find $CG/svc -mindepth 2 -maxdepth 2 -type d -name 'l*' 2>/dev/null | head -1)
	[ -n "$s" ] && [ -z "$seen_sample" ] && seen_sample="$s $(cat "$s/cpu.max" 2>/dev/null)"
	# The limited samples' cgroups (cpu.max 10000): each its own, and
	# removed before the next sample is made.
	n=0
	for l in $(grep -l '^10000 ' $CG/svc/abbench-*/l*/cpu.max 2>/dev/null); do
		n=$((n + 1))
		l=${l%/cpu.max}
		case " $limited " in *" ${l##*/} "*) ;; *) limited="$limited ${l##*/}" ;; esac
	done
	[ $n -gt $most ] && most=$n
	sleep 0.1
	i=$((i + 1))
done
wait $pid
rc=$?
exits0 $rc "a run with an arm's cpu limit, from the cgroup svc, exits 0" \
    "$D/cpu.out" "$D/c.db"
like "$seen_self" '^0::/svc/abbench-[0-9a-f]{8}/self$' \
    "abbench moved itself into a leaf of its run's cgroup ($seen_self)"
like "$seen_sample" "^$CG/svc/abbench-[0-9a-f]{8}/l[0-9]+ " \
    "the samples' cgroups sit below the run's, in svc ($seen_sample)"
is "$(cat $CG/svc/cgroup.subtree_control)" "" \
    "svc's controllers are off again (abbench enabled them)"
is "$(find $CG/svc -mindepth 1 -type d)" "" "nothing left below svc"
is "$(pending "$D/c.db")" 0 \
    "nothing pending in the journal (svc's subtree_control entry forgotten)"
is "$(echo $limited | wc -w):$most" 3:1 \
    "each limited sample had a cgroup of its own, removed before the next (cgroups:$limited; at most $most at once)"
# cpu_ratio LABEL DB OFFSET: the loop's wall per CPU-second under cpu =
# 0.1 against the free arm's (each arm's value at OFFSET in order: 1, the
# median of 3 rounds). Per CPU-second (the issue's "~10x as long for the
# same CPU"): the guest's CPU time also counts the time the host took its
# vCPU away (no steal time under TCG), which grows with the wall time of
# the limited loop when the host is loaded; t0470 on the host compares
# the two apart.
cpu_ratio() {
	db=$2 off=$3
	val() {
		sqlite3 "$db" "SELECT value FROM samples WHERE arm = '$1' AND unit = '$2' ORDER BY value LIMIT 1 OFFSET $off"
	}
	tl=$(val limited sec/op); tf=$(val free sec/op)
	cl=$(val limited cpu-sec/op); cf=$(val free cpu-sec/op)
	ratio=$(awk -v tl="$tl" -v tf="$tf" -v cl="$cl" -v cf="$cf" \
	    'BEGIN { if (cl > 0 && cf > 0 && tf > 0) printf "%.1f", (tl / cl) / (tf / cf) }')
	ok "$(awk -v r="$ratio" 'BEGIN { exit !(r != "" && r > 3) }'; echo $?)" \
	    "$1cpu = 0.1 stretches the loop per CPU-second by $ratio ($tl s for $cl s CPU vs $tf s for $cf s)"
	# The limited loop's own wall per CPU-second: the kernel's tenth of
	# a CPU, ~10 (9.3 local, 10.3 oci here; the local loop's 1.5
	# periods of CPU start with a full period's quota). The ratio above
	# is lower (8.1, 6.0): the free arm's wall also holds what is not
	# its CPU (exec; for oci, runc's start and stop).
	own=$(awk -v w="$tl" -v c="$cl" 'BEGIN { if (c > 0) printf "%.2f", w / c }')
	ok "$(awk -v r="$own" 'BEGIN { exit !(r != "" && r >= 7) }'; echo $?)" \
	    "$1cpu = 0.1: the limited loop takes $own s of wall per CPU-second (~10, at least 7)"
	diag "v2 t0470 $1wall $tl vs $tf s, cpu $cl vs $cf s, wall per CPU-second ratio $ratio, limited arm alone $own"
}
cpu_ratio "" "$D/c.db" 1

cat >"$D/mem.ini" <<'EOF2'
[experiment]
name = arm-memory
rounds = 1

[arm small]
memory = 16m

[arm large]

[workload Buffer]
type = command
args = dd if=/dev/zero of=/dev/null bs=64M count=2
EOF2
# mem_checks LABEL DB: the run of mem.ini (or its oci twin) into DB
# exited 1, only the limited arm's sample failed, the OOM kill counted.
mem_checks() {
	is $? 1 "$1memory = 16m fails the 64 MiB dd (exit 1: a failed sample)"
	is "$(sqlite3 "$2" "SELECT arm || ':' || status FROM samples ORDER BY arm")" \
	    "$(printf 'large:ok\nsmall:failed')" "$1only the limited arm's sample failed"
	err=$(sqlite3 "$2" "SELECT error FROM samples WHERE arm = 'small'")
	like "$err" "OOM killer killed 1 process" "$1its error counts the OOM kill ($err)"
	diag "v2 t0470 $1memory: $err"
}
"$ABBENCH" run "$D/mem.ini" --db "$D/m.db" --quiet 2>/dev/null
mem_checks "" "$D/m.db"
is "$(runs_left)" "" "no cgroup of the runs is left"
# What a sample leaves running is killed with its cgroup before the next
# sample: each sample starts a sleep in the background and exits; at
# most one such sleep is ever seen (free arm: a cgroup reused only when
# empty; limited: a cgroup removed per sample), none after the run.
cat >"$D/left.ini" <<'EOF2'
[experiment]
name = leftovers
rounds = 3

[arm limited]
cpu = 0.5

[arm free]

[workload Leave]
type = command
args = sh -c "sleep 1234 </dev/null >/dev/null 2>&1 & sleep 0.5"
EOF2
"$ABBENCH" run "$D/left.ini" --db "$D/left.db" --quiet >"$D/left.out" 2>&1 &
pid=$!
most=0
while kill -0 $pid 2>/dev/null; do
	n=$(pgrep -cx -f 'sleep 1234')
	[ "$n" -gt $most ] && most=$n
	sleep 0.05
done
wait $pid
exits0 $? "a run whose samples leave a process behind exits 0" "$D/left.out" \
    "$D/left.db"
is "$most:$(pgrep -cx -f 'sleep 1234')" 1:0 \
    "each sample's leftover is killed before the next sample (at most $most at once), none after the run"
is "$(runs_left)" "" "no cgroup of the run is left"
lap "local arm limits"

# --- t0470's oci twin: the same limits on a container (runc, executor
# oci), from svc too: runc makes the container's cgroup below the run's
# and enables every controller on its way down, svc included; abbench
# puts svc back as it was. abbench writes the limit in the container's
# cgroup before runc starts (runc writes it only after runc init, ~0.4 s
# of CPU here, ran there unlimited: the ratio read 3.2-4.7, now 6.7-7.3).
# The loop is 1.5x the local one, so that runc's start and stop (~0.4 s
# of wall in both arms) weigh less in the free arm's.
sed 's/^\[workload Loop\]$/&\nexecutor = oci/; s/-lt 2000 ]/-lt 3000 ]/' \
    "$D/cpu.ini" >"$D/ocpu.ini"
sh -c "$IN_SVC" sh "$ABBENCH" run "$D/ocpu.ini" --db "$D/oc.db" --quiet \
    >"$D/ocpu.out" 2>&1
rc=$?
exits0 $rc "oci: a run with an arm's cpu limit, from the cgroup svc, exits 0" \
    "$D/ocpu.out" "$D/oc.db"
is "$(cat $CG/svc/cgroup.subtree_control)" "" \
    "oci: svc's controllers are off again (abbench's and runc's)"
is "$(find $CG/svc -mindepth 1 -type d)" "" "oci: nothing left below svc"
# (Not "the same CPU in both arms" as t0470 on the host: the guest counts
# the time the host took a vCPU away as the task's CPU, and the limited
# container runs 7x longer: its CPU read 1.3-1.7x the free one's at load
# 10-15. cpu-sec/op is the container's own, from its cgroup.)
# The median of 3 rounds, as the local twin: one sample's CPU can take a
# stall of the host whole (a single round read 4.7 s of CPU for 16.6 s
# of wall under cpu = 0.1, its ratio 2.4, at load 11).
cpu_ratio "oci: " "$D/oc.db" 1
sed 's/^\[workload Buffer\]$/&\nexecutor = oci/' "$D/mem.ini" >"$D/omem.ini"
sh -c "$IN_SVC" sh "$ABBENCH" run "$D/omem.ini" --db "$D/om.db" --quiet 2>/dev/null
mem_checks "oci: " "$D/om.db"
is "$(runc list --quiet 2>/dev/null)" "" "oci: no container left"
is "$(runs_left)" "" "oci: no cgroup of the runs is left"
is "$(cat $CG/svc/cgroup.subtree_control)" "" "oci: svc as it was"
lap "oci arm limits"

# --- Delegation checked before the first sample: abbench in deleg/inner,
# whose parent deleg enables cpu but not memory in its subtree_control,
# with an arm memory = 16m: refused at load (exit 2), memory named with
# the key's file:line, no sample run, no cgroup made.
mkdir -p $CG/deleg
echo "+cpu" >$CG/deleg/cgroup.subtree_control
mkdir -p $CG/deleg/inner
IN_DELEG='echo $$ >/sys/fs/cgroup/deleg/inner/cgroup.procs && exec "$@"'
out=$(sh -c "$IN_DELEG" sh "$ABBENCH" run "$D/mem.ini" --db "$D/d.db" \
    --quiet 2>&1)
is $? 2 "memory = 16m in a cgroup not given memory: refused (exit 2)"
like "$out" "mem.ini:6: memory: the cgroup v2 controller 'memory' is not delegated" \
    "the error names the key, the controller ($out)"
like "$out" "Delegate=yes" "and says what to do"
is "$(sqlite3 "$D/d.db" "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" 0 \
    "no sample ran"
is "$(find $CG/deleg -type d -name 'abbench-*')" "" "no cgroup was made"
# The same cgroup with a cpu limit only (cpu is given): it runs.
sed 's/^memory = 16m/cpu = 0.5/' "$D/mem.ini" >"$D/dcpu.ini"
sh -c "$IN_DELEG" sh "$ABBENCH" run "$D/dcpu.ini" --db "$D/dc.db" --quiet \
    >"$D/dcpu.out" 2>&1
rc=$?
ok $rc "cpu = 0.5 in the same cgroup (cpu delegated): the run exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$D/dcpu.out"
# The oci executor and io weights are checked the same way: runc can
# enable no more than abbench's cgroup was given.
out=$(sh -c "$IN_DELEG" sh "$ABBENCH" run "$D/omem.ini" --db "$D/d.db" \
    --quiet 2>&1)
is $? 2 "oci: memory = 16m in a cgroup not given memory: refused (exit 2)"
like "$out" "omem.ini:$(line memory "$D/omem.ini"): memory: the cgroup v2 controller 'memory' is not delegated.*echo \+memory > /sys/fs/cgroup/deleg/cgroup.subtree_control" \
    "oci: the error names the key's file:line, the controller and what to run ($out)"
# w.ini: the weights run of the fio section below
cat >"$D/w.ini" <<EOF2
[experiment]
name = t0750-weights
rounds = 1
timeout = 120s

[arm bfq]
host.block.scheduler = bfq

[workload weights]
type = fio
executor = local
containers = 2
weights = 100 1000
dir = $ABBENCH_V2_SCRATCH/fio
size = 8m
rw = randread
bs = 4k
ioengine = libaio
iodepth = 4
direct = 1
duration = 2s
EOF2
out=$(sh -c "$IN_DELEG" sh "$ABBENCH" run "$D/w.ini" --db "$D/d.db" \
    --quiet 2>&1)
is $? 2 "io weights in a cgroup not given io: refused (exit 2)"
like "$out" "w.ini:$(line weights "$D/w.ini"): weights: the cgroup v2 controller 'io' is not delegated" \
    "the error names weights' file:line and io ($out)"
is "$(find $CG/deleg -type d -name 'abbench-*')" "" "no cgroup was made"

# --- t0740's twin: cpu-steady under runc (executor oci), quota leaf,
# parent and none; a warm-up of 1 s (t0740's) and a window of 6 s (t0740:
# 2-3 s). runc here runs the burner 3 s after the container (and its
# cgroup) exists: the warm-up counts from the burner's first report, not
# from the start request. Counted from the request, the window opened
# before the burner ran: the sample measured 1-2 s of an empty cgroup
# (on the host, sandbox-cpus 0.04-0.07 for the 0.25 quota), or failed when
# no report came after the window's start.
cat >"$D/late-runc" <<'EOF2'
#!/bin/sh
# runc, whose `run` starts the program 3 s late (sh -c "sleep 3; exec ...")
for a; do
	case ${prev:-} in --bundle) b=$a ;; esac
	prev=$a
done
case " $* " in
*" run "*) sed -i 's|^\( *\)"/abbench-cpu/burner",|\1"/bin/sh", "-c", "sleep 3; exec \\"$0\\" \\"$@\\"", "/abbench-cpu/burner",|' "$b/config.json" ;;
esac
exec runc "$@"
EOF2
chmod +x "$D/late-runc"
cat >"$D/q.ini" <<EOF2
[experiment]
name = t0750
rounds = 1
timeout = 3m

[arm runc]
runtime = $D/late-runc
runtime-args = --root=/tmp/runc-root

[workload Burner]
type      = cpu-steady
executor  = oci
program   = burner -b 100 -p 100
sandboxes = 1
quota     = leaf parent none
cpu       = 0.25
warmup    = 1s
window    = 6s
EOF2
# The quota needs cpu: from a cgroup given memory only, refused at load.
mkdir -p $CG/deleg2
echo "+memory" >$CG/deleg2/cgroup.subtree_control
mkdir -p $CG/deleg2/inner
out=$(sh -c 'echo $$ >/sys/fs/cgroup/deleg2/inner/cgroup.procs && exec "$@"' \
    sh "$ABBENCH" run "$D/q.ini" --db "$D/d2.db" --quiet 2>&1)
is $? 2 "oci: a cpu quota in a cgroup not given cpu: refused (exit 2)"
like "$out" "q.ini:$(line cpu "$D/q.ini"): cpu: the cgroup v2 controller 'cpu' is not delegated.*echo \+cpu > /sys/fs/cgroup/deleg2/cgroup.subtree_control" \
    "the error names the quota's cpu key, file:line, and what to run ($out)"
is "$(find $CG/deleg2 -type d -name 'abbench-*')" "" "no cgroup was made"
lap "delegation"
"$ABBENCH" run "$D/q.ini" --db "$D/q.db" --quiet >"$D/q.out" 2>&1
rc=$?
ok $rc "cpu-steady, quota leaf, parent and none, under runc (the burner 3 s late, warm-up 1 s)"
[ $rc -eq 0 ] || sqlite3 "$D/q.db" "SELECT benchmark, error FROM samples WHERE status <> 'ok'" | sed 's/^/# /'
qv() {
	sqlite3 "$D/q.db" "SELECT value FROM samples WHERE status = 'ok' AND
	    benchmark LIKE '%$1%' AND unit = '$2'"
}
for q in quota=leaf quota=parent; do
	v=$(qv "/$q" sandbox-cpus)
	within "$v" 0.225 0.275
	ok $? "$q: the sandbox used the quota's 0.25 CPU +-10% ($v)"
	t=$(qv "/$q" throttled-periods)
	within "$t" 1 1000000
	ok $? "$q: throttled ($t periods, from cpu.stat)"
	for u in overhead/app-cpu host-ctxsw/s work/s app-cpus; do
		[ -n "$(qv "/$q" "$u")" ]
		ok $? "$q: $u stored ($(qv "/$q" "$u"))"
	done
	diag "v2 t0740 $q: sandbox-cpus $v, throttled-periods $t, app-cpus $(qv "/$q" app-cpus)"
done
v=$(qv noquota sandbox-cpus)
within "$v" 0.6 2
ok $? "no quota: the burner takes a whole CPU ($v)"
is "$(runs_left)" "" "no cgroup of the run is left"
is "$(runc --root /tmp/runc-root list --quiet 2>/dev/null)" "" "no container left"
is "$(pending "$D/q.db")" 0 "nothing pending in the journal"
lap "cpu-steady quotas"

# --- The wall clock stepped in a window (only here: the guest's clock is
# its own). The window is set on the wall clock, the one the programs
# report on; stepped +2 s in a 6 s window, the cgroup reads would be 4 s
# apart against 6 s of the burner's work (sandbox-cpus ~0.17 for the
# 0.25 quota). abbench sees the wall clock move against the monotonic
# one, says so and takes the window again.
cat >"$D/step.ini" <<EOF2
[experiment]
name = t0750-step
rounds = 1
timeout = 2m

[arm a]

[workload Burner]
type      = cpu-steady
program   = burner -b 100 -p 100
sandboxes = 1
quota     = leaf
cpu       = 0.25
warmup    = 1s
window    = 6s
EOF2
"$ABBENCH" run "$D/step.ini" --db "$D/step.db" >"$D/step.out" 2>&1 &
pid=$!
# The burner's first report, then the warm-up (1 s) and the window's
# start (the next whole second): a step 3.5 s after the start is inside
# the 6 s window.
i=0
while ! pgrep -x burner >/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 3.5
# +2 s to the nanosecond, less the time the setting takes (up to 0.2 s
# under emulation); whole seconds stepped by 1-2 s, or just under 1 s
# when the second turned between reading and setting.
date -s "@$(date +%s.%N | awk '{ printf "%.9f", $1 + 2 }')" >/dev/null
wait $pid
rc=$?
exits0 $rc "cpu-steady with the wall clock stepped +2 s in its window" "$D/step.out" "$D/step.db"
like "$(cat "$D/step.out")" "the wall clock was stepped by \+(1\.[2-9]|2\.0)[0-9]* s during the window \(against the monotonic clock\): the window is taken again" \
    "the step is seen and the window taken again"
diag "$(grep 'wall clock' "$D/step.out")"
v=$(sqlite3 "$D/step.db" "SELECT value FROM samples WHERE status = 'ok' AND unit = 'sandbox-cpus'")
within "$v" 0.225 0.275
ok $? "the window taken again: the quota's 0.25 CPU +-10% ($v)"
is "$(runs_left)" "" "no cgroup of the run is left"
lap "wall clock step"

# --- t0510/t0740's twin: kill -9 mid-sample, then abbench restore.
# (plain runc: the late start is the quota section's check)
sed 's/^window    = 6s/window    = 60s/; s/^quota     = leaf parent none/quota     = parent/; s/^runtime = .*late-runc$/runtime = runc/' \
    "$D/q.ini" >"$D/k.ini"
"$ABBENCH" run "$D/k.ini" --db "$D/k.db" --quiet >"$D/k.out" 2>&1 &
pid=$!
par=
i=0
while [ $i -lt 600 ]; do
	par=$(find $CG -type d -path '*/abbench-*/cs*-p0' 2>/dev/null | head -1)
	[ -n "$par" ] && [ -n "$(find "$par" -mindepth 1 -type d)" ] && break
	sleep 0.1
	i=$((i + 1))
done
ok "$([ -n "$par" ]; echo $?)" "the quota parent and its sandbox exist ($par)"
is "$(cat "$par/cpu.max" 2>/dev/null)" "25000 100000" "the parent's cpu.max"
t0=$(sed -n 's/^nr_throttled //p' "$par/cpu.stat")
sleep 3
t1=$(sed -n 's/^nr_throttled //p' "$par/cpu.stat")
within "$t1" $((t0 + 1)) 1000000
ok $? "the parent's nr_throttled grows ($t0 -> $t1)"
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" restore --db "$D/k.db" >"$D/k.restore" 2>&1
ok $? "abbench restore after kill -9"
sed 's/^/# /' "$D/k.restore"
is "$(runs_left)" "" "no cgroup, no quota left"
is "$(runc --root /tmp/runc-root list --quiet 2>/dev/null)" "" "no container left"
is "$(pending "$D/k.db")" 0 "nothing pending in the journal"
lap "kill -9 and restore"

# --- kill -9 of a run that moved itself into <run>/self (from svc, alone
# there) and enabled controllers in svc's subtree_control: restore removes
# its cgroups and puts svc's subtree_control back as it was.
was=$(cat $CG/svc/cgroup.subtree_control)
cat >"$D/ks.ini" <<'EOF2'
[experiment]
name = kill-self
rounds = 1

[arm limited]
cpu = 0.5
memory = 64m

[workload Sleep]
type = command
args = sleep 120
EOF2
sh -c "$IN_SVC" sh "$ABBENCH" run "$D/ks.ini" --db "$D/ks.db" --quiet \
    >"$D/ks.out" 2>&1 &
pid=$!
seen_self= i=0
while [ $i -lt 600 ]; do
	case $(cat /proc/$pid/cgroup 2>/dev/null) in
	*svc/abbench-*/self) seen_self=1 ;;
	esac
	[ -n "$seen_self" ] && [ -n "$(find $CG/svc -mindepth 2 -maxdepth 2 \
	    -type d -name 'l*' 2>/dev/null)" ] && break
	sleep 0.1
	i=$((i + 1))
done
on=$(cat $CG/svc/cgroup.subtree_control)
ok "$([ -n "$seen_self" ]; echo $?)" "the run moved into svc/<run>/self"
like "$on" "cpu.*memory" "and enabled cpu and memory in svc ('$was' -> '$on')"
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" restore --db "$D/ks.db" >"$D/ks.restore" 2>&1
ok $? "abbench restore after kill -9 of the moved run"
sed 's/^/# /' "$D/ks.restore"
is "$(find $CG/svc -mindepth 1 -type d)" "" "no cgroup of the run left in svc"
is "$(cat $CG/svc/cgroup.subtree_control)" "$was" \
    "svc's subtree_control is back to '$was'"
is "$(pending "$D/ks.db")" 0 "nothing pending in the journal"
lap "kill -9 of a moved run"

# --- bfq-neighbours' weights on v2: two fio processes (executor local)
# with weights 100 and 1000 on the bfq virtio disk; abbench reads each
# weight back (io.bfq.weight, and io.weight) or fails the sample.
# weights_run INI DB SCHED: run INI while reading the members' weight
# files; sets bfq_seen and io_seen (each value read, once).
weights_run() {
	"$ABBENCH" run "$1" --db "$2" --quiet >"$1.out" 2>&1 &
	pid=$!
	bfq_seen= io_seen=
	while kill -0 $pid 2>/dev/null; do
		for f in $(find $CG -path '*abbench-*' \( -name io.bfq.weight \
		    -o -name io.weight \) 2>/dev/null); do
			w=$(cat "$f" 2>/dev/null)
			case $f in
			*/io.bfq.weight)
				case " $bfq_seen " in *" $w "*) ;; *) bfq_seen="$bfq_seen $w" ;; esac ;;
			*)
				case " $io_seen " in *" $w "*) ;; *) io_seen="$io_seen $w" ;; esac ;;
			esac
		done
		sleep 0.2
	done
	wait $pid
	rc=$?
	ok $rc "fio with weights 100 and 1000 on $3 (v2)"
	[ $rc -eq 0 ] || { sed 's/^/# /' "$1.out"
		sqlite3 "$2" "SELECT error FROM samples WHERE status <> 'ok'" | sed 's/^/# /'; }
	diag "v2 weights on $3: $(sqlite3 "$2" "SELECT benchmark || ' ' || printf('%.0f', value) FROM samples WHERE unit = 'iops' ORDER BY benchmark" | tr '\n' ' ')"
}
has_both() {
	echo "$1 " | grep -q "default 100 " && echo "$1 " | grep -q "default 1000 "
}
weights_run "$D/w.ini" "$D/w.db" bfq
has_both "$bfq_seen"
ok $? "io.bfq.weight read 100 and 1000 in the members' cgroups:$bfq_seen"
is "$(runs_left)" "" "no cgroup (so no weight) left"
is "$(cat /sys/block/vda/queue/scheduler)" "mq-deadline [bfq] none" \
    "the scheduler is bfq again after the run"
# On a disk bfq does not schedule, io.weight (the io cost model's) is the
# weight that counts: written and read back there too.
sed 's/^host.block.scheduler = bfq$/host.block.scheduler = mq-deadline/' \
    "$D/w.ini" >"$D/wd.ini"
weights_run "$D/wd.ini" "$D/wd.db" mq-deadline
has_both "$io_seen"
ok $? "io.weight read 100 and 1000 in the members' cgroups:$io_seen"
is "$(runs_left)" "" "no cgroup (so no weight) left"
is "$(cat /sys/block/vda/queue/scheduler)" "mq-deadline [bfq] none" \
    "the scheduler is bfq again after the mq-deadline run"
lap "fio weights"

# --- What the kernel refuses, said so: a cpu quota under 1 ms at load.
cat >"$D/bad.ini" <<'EOF2'
[experiment]
name = t0750-bad

[arm a]

[workload B]
type      = cpu-steady
executor  = local
program   = burner
sandboxes = 1
quota     = leaf
cpu       = 0.01
period    = 10ms
EOF2
out=$("$ABBENCH" run "$D/bad.ini" --db "$D/bad.db" 2>&1)
is "$?:$out" "2:abbench: $D/bad.ini:12: cpu: 0.01 CPU per period of 10 ms is a quota of 100 us, under the kernel's minimum of 1000 us (raise cpu or period)" \
    "a quota under the kernel's 1 ms is refused at load, with file:line"
sed 's/^\[arm a\]$/[arm a]\ncpu = 0.05/; s/^cpu       = 0.01$/cpu       = 0.5/' \
    "$D/bad.ini" >"$D/bad2.ini"
out=$("$ABBENCH" run "$D/bad2.ini" --db "$D/bad.db" 2>&1)
like "$?:$out" "^2:abbench: $D/bad2.ini:[0-9]+: cpu: 0.05 CPU per period of 10 ms \\(arm 'a'\\) is a quota of 500 us" \
    "an arm's quota under 1 ms too, naming the arm"

# A controller that does not reach the run's cgroup: abbench in svc with
# another process there cannot move it; the sample's error says why.
sleep 600 &
other=$!
echo $other >$CG/svc/cgroup.procs
sed 's/^rounds = 3$/rounds = 1/' "$D/cpu.ini" >"$D/e.ini"
sh -c "$IN_SVC" sh "$ABBENCH" run "$D/e.ini" --db "$D/e.db" --quiet \
    >"$D/e.out" 2>&1
is $? 1 "with another process in svc, limited samples fail"
err=$(sqlite3 "$D/e.db" "SELECT error FROM samples WHERE arm = 'limited' LIMIT 1")
like "$err" "cpu controller is not available to its parent .*svc/abbench-[0-9a-f]{8}.*processes sit in it, and other processes than abbench do \\($other\\)" \
    "the error names the controller, the cgroup and the other process"
kill $other
lap "refusals"
done_testing
