#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cgroup v1, as root: a `command` run's programs are born in the run's
# cgroup "<run>/home", which abbench moved into once, instead of each
# joining a cgroup of its own before exec (that join, a write to the cpu
# hierarchy's cgroup.procs waiting for an RCU grace period, was most of
# abbench's overhead per sample: bench/inline-vs-hyperfine). What the
# cgroup per sample was for still holds: what a sample leaves running (a
# daemon in a session of its own, out of reach of its process group) is
# killed when the sample ends, before the next one starts; a sample's CPU
# time counts the work of a grandchild it waited for (wait4's rusage, as
# before); at the end abbench has moved back and the run's cgroups are
# gone; after a kill -9, abbench restore removes them and kills what ran
# inside. The programs' stderr is one pipe kept from sample to sample,
# made again after a sample that left a process (in its process group,
# or a daemon in home), which may still hold the old one.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3 setsid awk
[ "$(stat -fc %T /sys/fs/cgroup/cpu 2>/dev/null)" = cgroupfs ] ||
    skip_all "needs cgroup v1's cpu hierarchy"
plan 21

T=$TEST_TMP
# Alive: there, and not a zombie that no init reaped yet.
alive() {
	[ -e "/proc/$1" ] && ! grep -q ') Z' "/proc/$1/stat" 2>/dev/null
}
# exp FILE ROUNDS ARGS [KEY = VALUE]: a command experiment of one arm.
exp() {
	printf '[experiment]\nname = %s\nrounds = %s\n[arm only]\nargs = %s\n[workload Cmd]\ntype = command\n%s\n' \
	    "$(basename "$1" .ini)" "$2" "$3" "${4:-}" > "$1"
}
# Each sample: its cpu cgroup, whether the previous sample's daemon is
# still alive, then a daemon of its own (setsid: a new session and
# process group) that would sleep for 5 minutes.
cat > "$T/prog.sh" <<EOS
#!/bin/sh
awk -F: '\$2 ~ /(^|,)cpu(,|\$)/ { print \$3 }' /proc/self/cgroup >> "$T/cg"
p=\$(cat "$T/pid" 2>/dev/null)
if [ -n "\$p" ] && [ -e /proc/\$p ] && ! grep -q ') Z' /proc/\$p/stat; then
	echo "\$(cat "$T/pid")" >> "$T/alive"
fi
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo \$! > "$T/pid"
EOS
exp "$T/home.ini" 4 "sh $T/prog.sh"
"$ABBENCH" run "$T/home.ini" --db "$T/h.db" --quiet > "$T/out" 2>&1
ok $? "the run succeeds" || diag "$(cat "$T/out")"
is "$(sqlite3 "$T/h.db" "SELECT count(*) FROM samples WHERE status = 'ok'")" \
    4 "4 samples"
is "$(wc -l < "$T/cg" | tr -d ' ')" 4 "each sample said its cgroup"
is "$(grep -cv '^/\(.*/\)\?abbench-[0-9a-f]*/home$' "$T/cg")" 0 \
    "each program was born in <run>/home" || diag "$(cat "$T/cg")"
is "$(cat "$T/alive" 2>/dev/null)" "" \
    "no sample's daemon outlived its sample (killed before the next one)"
alive "$(cat "$T/pid")"
is "$?" 1 "the last sample's daemon is gone too"
cgpath=$(head -1 "$T/cg")
run=$(dirname "$cgpath")
ls -d /sys/fs/cgroup/cpu$run /sys/fs/cgroup/*$run > "$T/left" 2>/dev/null
is "$(cat "$T/left")" "" "the run's cgroups are gone (abbench moved back out)"

# The stderr pipe: the same for samples 1 and 2; sample 2 leaves a
# process in its group, so 3 gets a new one, kept by 4; 4 leaves a daemon
# in home (a session of its own), so 5 gets a new one, kept by 6.
cat > "$T/fd2.sh" <<EOS
#!/bin/sh
n=\$(( \$(cat "$T/n" 2>/dev/null || echo 0) + 1 ))
echo \$n > "$T/n"
echo "\$n \$(readlink /proc/self/fd/2)" >> "$T/fd2"
case \$n in
2) sleep 300 </dev/null >/dev/null & ;;
4) setsid sleep 300 </dev/null >/dev/null & ;;
esac
exit 0
EOS
exp "$T/fd2.ini" 6 "sh $T/fd2.sh"
"$ABBENCH" run "$T/fd2.ini" --db "$T/f.db" --quiet > "$T/out" 2>&1
ok $? "the stderr run succeeds" || diag "$(cat "$T/out")"
# The pipes' inodes in the order of the samples, as letters: aabbcc.
shape=$(sort -n "$T/fd2" | awk '{ if (!($2 in s)) s[$2] = sprintf("%c", 96 + ++k); printf "%s", s[$2] }')
is "$shape" aabbcc \
    "one stderr pipe, made again after a sample left a process" ||
    diag "$(cat "$T/fd2")"
is "$(grep -vc 'pipe:' "$T/fd2")" 0 "each sample's stderr was a pipe"

# A grandchild's work counts in the sample's CPU time when the program
# waits for it, as before: ~0.1-0.5 s of a subshell's loop, the shell
# itself a few ms.
exp "$T/burn.ini" 2 \
    'sh -c "( i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done ) & wait"' \
    "report = time cpu"
"$ABBENCH" run "$T/burn.ini" --db "$T/b.db" --quiet > "$T/out" 2>&1
ok $? "the burner's run succeeds" || diag "$(cat "$T/out")"
cpu=$(sqlite3 "$T/b.db" "SELECT min(value) FROM samples WHERE unit = 'cpu-sec/op'")
ok "$(awk -v c="$cpu" 'BEGIN { exit !(c >= 0.05) }'; echo $?)" \
    "a sample's CPU time counts its grandchild's loop (least $cpu s)"

# A thread of abbench's born in home (ABBENCH_DEBUG_HOME_THREAD; none of
# abbench's own is): the main thread's move back alone would leave home
# busy, so abbench moves the whole process back, and the run's cgroups
# still go.
rm -f "$T/cg" "$T/pid" "$T/alive"
ABBENCH_DEBUG_HOME_THREAD=1 "$ABBENCH" run "$T/home.ini" --db "$T/ht.db" \
    --quiet > "$T/out" 2>&1
ok $? "a run with a thread born in home succeeds" || diag "$(cat "$T/out")"
is "$(grep -c 'cannot remove' "$T/out")" 0 "no cgroup of it was left busy" ||
    diag "$(cat "$T/out")"
run=$(dirname "$(head -1 "$T/cg")")
ls -d /sys/fs/cgroup/cpu$run /sys/fs/cgroup/*$run > "$T/left" 2>/dev/null
is "$(cat "$T/left")" "" "its cgroups are gone: the whole process moved back"

# kill -9 while a sample runs (its daemon started): restore removes the
# run's cgroups, home with them, and kills the daemon.
rm -f "$T/pid" "$T/cg"
cat > "$T/long.sh" <<EOS
#!/bin/sh
awk -F: '\$2 ~ /(^|,)cpu(,|\$)/ { print \$3 }' /proc/self/cgroup >> "$T/cg"
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo \$! > "$T/pid"
exec sleep 300
EOS
exp "$T/long.ini" 1 "sh $T/long.sh"
"$ABBENCH" run "$T/long.ini" --db "$T/k.db" --quiet > /dev/null 2>&1 &
apid=$!
i=0
until [ -s "$T/pid" ] || [ $i -ge 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
# Only abbench's main thread, the one that clones the programs, sits in
# home: it moved alone ("0" to tasks), which takes no threadgroup lock
# and so waits for no RCU grace period; its store's checkpoint thread
# stayed where abbench was.
cpu_cg() {
	awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' "$1/cgroup" 2>/dev/null
}
main_cg=$(cpu_cg "/proc/$apid/task/$apid")
others=$(for t in /proc/$apid/task/*; do
	[ "${t##*/}" = "$apid" ] || cpu_cg "$t"
done)
like "$main_cg" '/abbench-[0-9a-f]*/home$' "abbench's main thread sits in home"
[ -n "$others" ]
ok $? "abbench has another thread (its store's checkpoints)"
is "$(printf '%s\n' "$others" | grep -c '/home$')" 0 \
    "no other thread of abbench's moved into home" || diag "$others"
kill -9 $apid
wait $apid 2>/dev/null
daemon=$(cat "$T/pid")
run=$(dirname "$(head -1 "$T/cg")")
"$ABBENCH" restore > "$T/restore.out" 2>&1
ok $? "abbench restore after the kill -9" || diag "$(cat "$T/restore.out")"
i=0
while alive "$daemon" && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
alive "$daemon"
is "$?" 1 "the killed sample's daemon is gone"
ls -d /sys/fs/cgroup/cpu$run /sys/fs/cgroup/*$run > "$T/left" 2>/dev/null
is "$(cat "$T/left")" "" "no cgroup of the killed run is left"
done_testing
