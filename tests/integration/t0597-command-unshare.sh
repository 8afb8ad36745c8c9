#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# executor = unshare: a host program run in fresh namespaces by
# util-linux's unshare(1) (pid, mount with its own /proc, uts, ipc, net;
# and a user namespace mapping the caller to root when abbench is not
# root). The program is pid 1 of its pid namespace and sees only a
# loopback interface; what it leaves running, even in a session of its
# own, dies with the namespace when the sample ends; a command arm's
# `cpu` limit still holds it (its cgroup is the local executor's); an
# unshare(1) that cannot be run is refused at load with file:line:key,
# exit 2, before anything is touched.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3 unshare setsid pgrep
unshare --fork --pid --mount-proc --uts --ipc --net true 2>/dev/null ||
    skip_all "unshare(1) cannot make namespaces here"
plan 13

T=$TEST_TMP
# What the program saw, each as a benchmark line: its pid, the network
# interfaces of its net namespace, whether its uts, ipc and mount
# namespaces are the host's (the inode of each, compared with abbench's),
# the CPU quota of its cgroup (-1: none); then a daemon of its own
# session that would sleep 5 minutes.
for ns in uts ipc mnt; do
	readlink /proc/self/ns/$ns
done > "$T/host-ns"
cat > "$T/prog.sh" <<EOS
#!/bin/sh
echo "BenchmarkPid 1 \$\$ pid/op"
echo "BenchmarkNetdevs 1 \$(grep -c : /proc/net/dev) devs/op"
same=0
for ns in uts ipc mnt; do
	grep -qx "\$(readlink /proc/self/ns/\$ns)" "$T/host-ns" && same=\$((same + 1))
done
echo "BenchmarkHostNs 1 \$same ns/op"
cg=\$(awk -F: '\$2 ~ /(^|,)cpu(,|\$)/ { print \$3 }' /proc/self/cgroup)
if [ -n "\$cg" ]; then
	q=\$(cat "/sys/fs/cgroup/cpu\$cg/cpu.cfs_quota_us")
else
	q=\$(cut -d' ' -f1 "/sys/fs/cgroup\$(awk -F: '\$1 == 0 { print \$3 }' /proc/self/cgroup)/cpu.max")
	[ "\$q" = max ] && q=-1
fi
echo "BenchmarkQuota 1 \$q us/op"
setsid sleep 300.597 </dev/null >/dev/null 2>&1 &
EOS
cat > "$T/ns.ini" <<EOF
[experiment]
name = unshare-ns
rounds = 2

[arm a]

[arm b]
cpu = 0.5

[workload Ns]
type = gobench
executor = unshare
args = sh $T/prog.sh
EOF
"$ABBENCH" run "$T/ns.ini" --db "$T/ns.db" --quiet > "$T/out" 2>&1
ok $? "the run under executor = unshare succeeds" || diag "$(cat "$T/out")"
val() {
	sqlite3 "$T/ns.db" "SELECT group_concat(DISTINCT CAST(value AS INTEGER)) FROM samples
	    WHERE unit = '$1' AND status = 'ok' ${2:+AND arm = '$2'}"
}
is "$(sqlite3 "$T/ns.db" "SELECT count(DISTINCT plan_idx) FROM samples
    WHERE status = 'ok'")" 4 "4 ok samples"
is "$(val pid/op)" 1 "the program is pid 1 of its pid namespace"
is "$(val devs/op)" 1 "its net namespace has only loopback"
is "$(val ns/op)" 0 "its uts, ipc and mount namespaces are not the host's"
is "$(val us/op a)" -1 "arm a: no CPU quota"
is "$(val us/op b)" 50000 "arm b's cpu = 0.5 holds it (the local executor's cgroup)"
pgrep -f 'sleep 300[.]597' > "$T/left"
is "$(cat "$T/left")" "" "what it left running, in a session of its own, died with its namespace"

# A program that outlives its timeout: the sample is stored as timed
# out, and nothing of it is left.
cat > "$T/hang.ini" <<EOF
[experiment]
name = unshare-hang
rounds = 1
timeout = 1s

[arm only]

[workload Hang]
type = command
executor = unshare
args = sh -c "setsid sleep 300.598 </dev/null >/dev/null 2>&1 & sleep 300.599"
EOF
"$ABBENCH" run "$T/hang.ini" --db "$T/hang.db" --quiet > "$T/out" 2>&1
is "$(sqlite3 "$T/hang.db" "SELECT group_concat(DISTINCT status) FROM samples")" \
    timeout "a hung program's sample times out" || diag "$(cat "$T/out")"
pgrep -f 'sleep 300[.]59[89]' > "$T/left"
is "$(cat "$T/left")" "" "nothing of it is left"

# unshare(1) that cannot be run: refused at load, exit 2, file:line:key.
ABBENCH_UNSHARE=/nonexistent/unshare "$ABBENCH" run "$T/ns.ini" \
    --db "$T/bad.db" > "$T/out" 2>&1
is "$?" 2 "an unshare that cannot be run: exit 2"
file_like "$T/out" "^abbench: .*ns\.ini:12: executor: unshare: cannot run '/nonexistent/unshare'" \
    "the message names the file, line, key and the binary" ||
    diag "$(cat "$T/out")"

# A misspelled executor gets the registry's list, unshare in it.
sed 's/executor = unshare/executor = unshar/' "$T/ns.ini" > "$T/typo.ini"
"$ABBENCH" run "$T/typo.ini" --db "$T/typo.db" > "$T/out" 2>&1
file_like "$T/out" "did you mean 'unshare'" "a typo of it is answered" ||
    diag "$(cat "$T/out")"
done_testing
