#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An arm's cpu and memory limit the workload's program (they were checked
# and then silently dropped for command, fio, gobench and startup): the
# same CPU-bound loop under cpu = 0.1 takes at least 5 s of wall per
# CPU-second, using the same CPU as under no limit; dd with a 64 MiB buffer under memory = 16m
# is killed, and passes without it; the same under runc (executor oci),
# the OOM kill counted in the sample's error. idle-memory, whose CPU limits are its
# quota keys, refuses an arm's cpu at load time, naming the arm.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cat > "$TEST_TMP/cpu.ini" <<'EOF2'
[experiment]
name = arm-limits
rounds = 3

[arm limited]
cpu = 0.1

[arm free]

[workload Loop]
type = command
args = sh -c "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"
report = time cpu
EOF2

# cpu_checks EXECUTOR: the loop under cpu = 0.1 and free, on EXECUTOR
# (local: a host process in its cgroup; oci: a runc container, its CPU
# read from its cgroup before the delete).
cpu_checks() {
	sed "s/^\[workload Loop\]\$/&\nexecutor = $1/" "$TEST_TMP/cpu.ini" \
	    >"$TEST_TMP/cpu-$1.ini"
	"$ABBENCH" run "$TEST_TMP/cpu-$1.ini" --db "$TEST_TMP/c-$1.db" --quiet
	ok $? "$1: the run with an arm's cpu limit exits 0"
	med() {
		sqlite3 "$TEST_TMP/c-$1.db" "SELECT value FROM samples WHERE arm = '$2' AND unit = '$3' ORDER BY value LIMIT 1 OFFSET 1"
	}
	tl=$(med "$1" limited sec/op); tf=$(med "$1" free sec/op)
	cl=$(med "$1" limited cpu-sec/op); cf=$(med "$1" free cpu-sec/op)
	# Wall time per CPU-second: cpu = 0.1 gives the loop at most a tenth
	# of a CPU, about 10 s of wall per CPU-second whatever else runs (5:
	# room for the first period's burst). Compared with the free arm's
	# wall time, as before, the check failed under load: the free loop,
	# itself starved (load 15 on 2 vCPUs: 0.94 s of wall for 0.25 s of
	# CPU), no longer ran 3x faster. (Without the limit the ratio is
	# about 1 on a quiet host, so the check still catches a limit that
	# is dropped.)
	ok "$(awk -v w="$tl" -v c="$cl" 'BEGIN { exit !(c > 0 && w / c >= 5) }'; echo $?)" \
	    "$1: cpu = 0.1 stretches the loop: $tl s of wall for $cl s of CPU (free arm: $tf s for $cf s)"
	ok "$(awk -v a="$cl" -v b="$cf" 'BEGIN { exit !(a < 2 * b && b < 2 * a) }'; echo $?)" \
	    "$1: for the same CPU time: $cl s vs $cf s"
	diag "v1 t0470 $1: wall $tl vs $tf s, cpu $cl vs $cf s"
}

# mem_checks EXECUTOR: the 64 MiB dd under memory = 16m and free; the
# OOM kill counted in the failed sample's error.
mem_checks() {
	sed "s/^\[workload Buffer\]\$/&\nexecutor = $1/" "$TEST_TMP/mem.ini" \
	    >"$TEST_TMP/mem-$1.ini"
	"$ABBENCH" run "$TEST_TMP/mem-$1.ini" --db "$TEST_TMP/m-$1.db" --quiet 2>/dev/null
	is $? 1 "$1: memory = 16m fails the 64 MiB dd (exit 1: a failed sample)"
	is "$(sqlite3 "$TEST_TMP/m-$1.db" "SELECT arm || ':' || status FROM samples ORDER BY arm")" \
	    "$(printf 'large:ok\nsmall:failed')" "$1: only the limited arm's sample failed"
	err=$(sqlite3 "$TEST_TMP/m-$1.db" "SELECT error FROM samples WHERE arm = 'small'")
	like "$err" "OOM killer killed 1 process" "$1: its error counts the OOM kill ($err)"
}

cat > "$TEST_TMP/mem.ini" <<'EOF2'
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

cpu_checks local
mem_checks local
# The same two limits on an oci container (runc): runc writes them in
# the container's cgroup, and the OOM kill is counted there before the
# container is deleted (run --keep). t0750 runs both on a real cgroup v2
# kernel.
if [ "$(id -u)" -eq 0 ] && command -v runc >/dev/null &&
    [ -e /var/lib/abbench/current/bin/sh ]; then
	cpu_checks oci
	mem_checks oci
	is "$(runc list --quiet 2>/dev/null | grep -c abbench-)" 0 "oci: no container left"
else
	for i in 1 2 3 4 5 6 7 8; do
		pass "# SKIP oci: needs root, runc and the image (scripts/build-image)"
	done
fi

cat > "$TEST_TMP/idle.ini" <<'EOF2'
[experiment]
name = arm-idle

[arm a]
cpu = 0.5

[workload idle]
type = idle-memory
EOF2
out=$("$ABBENCH" run "$TEST_TMP/idle.ini" --db "$TEST_TMP/i.db" 2>&1)
is "$?:$out" "2:abbench: $TEST_TMP/idle.ini:5: cpu: arm 'a' sets a CPU limit, which idle-memory does not apply: use quota = leaf (or parent) and quota-cpus" \
    "idle-memory refuses an arm's cpu, naming the arm"
done_testing
