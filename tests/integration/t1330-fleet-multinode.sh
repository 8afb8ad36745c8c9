#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A fleet on a real cluster of four hosts (scripts/start-slurm --nodes 4:
# each node its own network, UTS and mount namespaces and cpuset), two
# shapes: partition c1 (1-CPU nodes) and c2 (2-CPU nodes), two replicas
# each, all four at once. The experiment's result depends on the CPUs: a
# CPU burner on each CPU (each) against one burner (one), in CPU time per
# op. Each run records
# the node it ran on (node = host = its own hostname, four distinct), its
# vcpus (1 on c1, 2 on c2) and used its node's own /var/lib/abbench; the
# one stat command gives the vcpus table, a row per benchmark and shape.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm_nodes 4

is "$(sinfo -h -N -o '%N %P %c' | sort | tr '\n' ' ')" \
    "c1-n1 c1* 1 c1-n2 c1* 1 c2-n1 c2 2 c2-n2 c2 2 " \
    "four nodes: two of one CPU in c1, two of two in c2"

# The experiment lives on the shared directory, as on a real cluster. Its
# result depends on the CPUs as a Go benchmark's does on GOMAXPROCS: arm
# `each` runs a fixed CPU burner on each CPU the node has (nproc), arm
# `one` runs one. Their CPU time per op (cpu-sec/op) is the same on a
# 1-CPU node and twice as much for `each` on a 2-CPU node, however busy
# the machine is (the nodes share its two CPUs, and so do other users).
EXP=$SHARED/multinode.ini
cat >"$EXP" <<'INI'
[experiment]
name = t1330-multinode
rounds = 4

[arm one]
args = sh -c "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"

[arm each]
args = sh -c "b() { i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; }; for c in $(seq $(nproc)); do b & done; wait"

[workload Cmd]
type = command
report = time cpu
INI

# The jobs get the submitter's environment: not the test's own state
# directory or TMPDIR (below the test's /tmp, which a node does not see):
# each node uses its own /var/lib/abbench and /tmp.
start=$(date +%s)
out=$(env -u ABBENCH_STATE_DIR -u TMPDIR "$ABBENCH" fleet submit "$EXP" \
    --partitions c1:2,c2:2 --dir "$SHARED" --time 10 --wait \
    2>"$TEST_TMP/wait.err")
rc=$?
is "$rc" 0 "fleet submit --wait over c1:2,c2:2: exit 0"
[ "$rc" = 0 ] || diag "$out $(cat "$TEST_TMP/wait.err") $(cat "$SHARED"/*/logs/* 2>/dev/null)"
diag "the fleet took $(( $(date +%s) - start )) s"
ID=$(fleet_id "$out")
DB=$SHARED/$ID/fleet.db

is "$(nodes_q "SELECT count(*) FROM runs WHERE status = 'done'")" 4 \
    "fleet.db holds 4 done runs"
is "$(nodes_q "SELECT group_concat(value, ' ') FROM (SELECT value FROM run_config WHERE key = 'node' ORDER BY value)")" \
    "c1-n1 c1-n2 c2-n1 c2-n2" "each run ran on a node of its own: all four nodes"
is "$(nodes_q "SELECT count(*) FROM runs r JOIN run_config c ON c.run_id = r.id AND c.key = 'node' WHERE r.host = c.value")" 4 \
    "each run's host is its node's own hostname (a UTS namespace each)"
is "$(nodes_q "SELECT count(*) FROM run_config h JOIN run_config n ON n.run_id = h.run_id AND n.key = 'node' WHERE h.key = 'host' AND h.value = n.value")" 4 \
    "... and so is its host config key"
is "$(nodes_q "SELECT group_concat(p.value || ':' || v.value, ' ') FROM (SELECT run_id, value FROM run_config WHERE key = 'partition' ORDER BY value, run_id) p JOIN run_config v ON v.run_id = p.run_id AND v.key = 'vcpus'")" \
    "c1:1 c1:1 c2:2 c2:2" "vcpus: 1 on the c1 nodes, 2 on the c2 nodes"
is "$(nodes_q "SELECT count(*) FROM run_config c JOIN run_config p ON p.run_id = c.run_id AND p.key = 'partition' AND p.value = 'c1' WHERE c.key = 'cpus-online' AND c.value = '$(nproc --all)'")" 2 \
    "c1 runs say the machine has more CPUs online than they may use"
is "$(nodes_q "SELECT group_concat(benchmark, ' ') FROM (SELECT DISTINCT benchmark FROM samples WHERE unit = 'sec/op' ORDER BY 1)")" \
    "Cmd-1 Cmd-2" "the benchmark names carry each node's CPU count"

# Each node's own /var/lib/abbench got the run's host lock and journal;
# the test's own state directory none.
for n in c1-n1 c1-n2 c2-n1 c2-n2; do
	ok "$([ -s "$NODES_TOP/nodes/$n/state/journal.db" ]; echo $?)" \
	    "$n: its own /var/lib/abbench holds its run's journal"
done
ok "$([ ! -e "$ABBENCH_STATE_DIR/journal.db" ]; echo $?)" \
    "no run wrote the test's own state directory"

# The vcpus table: a row per benchmark and shape, arms on columns.
"$ABBENCH" stat --db "$DB" -table '' -row .name,vcpus -col arm all \
    >"$TEST_TMP/table" 2>&1
ok $? "abbench stat -table '' -row .name,vcpus -col arm all"
while IFS= read -r l; do diag "$l"; done <"$TEST_TMP/table"
cpu=$(awk '/cpu-sec\/op/ { on = 1 } on' "$TEST_TMP/table")
is "$(printf '%s\n' "$cpu" | grep -c '^Cmd 1 ')" 1 \
    "cpu-sec/op: one row for Cmd on 1 vCPU"
is "$(printf '%s\n' "$cpu" | grep -c '^Cmd 2 ')" 1 \
    "cpu-sec/op: one row for Cmd on 2 vCPUs"
like "$(sed -n 1p "$TEST_TMP/table")" 'one .*each' "arms on columns"
like "$(printf '%s\n' "$cpu" | grep '^Cmd 1 ')" 'n=8' \
    "the 1-vCPU row pools both c1 replicas (n=8)"
# each over one: about +0% on one CPU, +100% on two.
d1=$(printf '%s\n' "$cpu" | sed -n 's/^Cmd 1 .* \([-+~][0-9.]*\)%* .*/\1/p')
d2=$(printf '%s\n' "$cpu" | sed -n 's/^Cmd 2 .* \([-+][0-9.]*\)% .*/\1/p')
ok "$(awk -v a="${d1#[~+]}" 'BEGIN { exit !(a + 0 > -25 && a + 0 < 25) }'; echo $?)" \
    "1 vCPU: each costs what one does ($d1%)"
ok "$(awk -v b="$d2" 'BEGIN { exit !(b + 0 > 60 && b + 0 < 160) }'; echo $?)" \
    "2 vCPUs: each costs twice what one does ($d2%)"

done_testing
