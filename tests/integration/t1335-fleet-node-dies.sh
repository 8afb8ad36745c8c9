#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A node dies mid-run on a cluster of four hosts (scripts/start-slurm
# --nodes 4): at its third sample, the node that runs a fleet's c1 job is
# killed whole (its slurmd, the job's processes, its namespace:
# scripts/slurm-nodes --kill). Slurm finds the node gone, requeues the job
# by itself, and the job starts again on the other c1 node, which resumes
# the run from the shared database: the same run, every sample once (the
# one cut short is measured again, on the new node), and the run says it
# moved (node a -> b at round 3) in its metadata, warnings, report and
# collect's line. Then `fleet cancel` while a fleet's jobs run on the
# three nodes left: every job CANCELLED, nothing of them left running,
# each node's host changes (the runs' cgroups) undone, as its journal
# says, and status and collect report the fleet cancelled.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm_nodes 4

# One sample: 0.2 s, held from the job's sample HOLD_AT on (fleet-lib.sh).
held_sample_script
mkdir "$SHARED/h1" "$SHARED/h2"
touch "$SHARED/h1/hold" "$SHARED/h2/hold"
cat >"$SHARED/dies.ini" <<INI
[experiment]
name = t1335-dies
rounds = 6

[arm a]
args = /bin/sh $SHARED/sample.sh $SHARED/h1 3

[workload Cmd]
type = command
INI

out=$(env -u ABBENCH_STATE_DIR -u TMPDIR "$ABBENCH" fleet submit \
    "$SHARED/dies.ini" --partitions c1 --dir "$SHARED" --time 10)
is "$?" 0 "fleet submit over c1"
ID=$(fleet_id "$out")
FDIR=$SHARED/$ID
J=$(fleet_jobid "$out" c1/1)
RDB=$FDIR/runs/c1-1.db
wait_for 60 held "$RDB" 2 "$J" "$SHARED/h1"
ok $? "the c1 job is running, held at its third sample"
A=$(squeue -h -j "$J" -o %N)
like "$A" '^c1-n[12]$' "it runs on a c1 node ($A)"
UUID=$(db_count "$RDB" "SELECT uuid FROM runs")

# The node dies: every process in it (slurmd, the job's abbench and its
# sample), its network namespace and veth.
"$ABBENCH_SRCDIR/scripts/slurm-nodes" --kill "$A"
ok $? "node $A killed (slurmd, the job, the namespace)"
killed_ns=$(date +%s%N)
killed_at=$(( killed_ns / 1000000000 ))
is "$(ip netns list | grep -c "^abbench-$A ")" 0 "its namespace is gone"
is "$(samples "$RDB")" 2 "2 samples stored; the third died with the node"
rm -f "$SHARED/h1/hold"

# Slurm's own doing from here: the node does not answer, DOWN, the job
# requeued (NODE_FAIL), started again after its credential expired.
# (-t all: the requeued job may have run and ended between two looks, and
# squeue leaves ended jobs out by default: B was read empty once. B is
# the node of the look that saw the job moved: a second squeue after it
# once printed nothing, the job done and slurmctld busy.)
moved() {
	mv_st=$(squeue -h -t all -j "$J" -o '%T %N')
	case $mv_st in
	RUNNING*c1-n*|COMPLETING*c1-n*|COMPLETED*c1-n*)
		B=${mv_st#* }
		[ "$B" != "$A" ] ;;
	*)	return 1 ;;
	esac
}
B=
wait_for 120 moved
rc=$?
ok $rc "Slurm requeued the job and started it on another c1 node"
[ "$rc" = 0 ] || diag "job $J: $(scontrol show job -o "$J" 2>&1)"
diag "$A died; job $J on $B $(( $(date +%s) - killed_at )) s later"
like "$(sinfo -h -n "$A" -o %t)" '^down' "Slurm says node $A is down"
like "$(scontrol show job -o "$J")" 'Restarts=1 ' \
    "the job was restarted once, by Slurm (Restarts=1)"
ended() {
	case $(squeue -h -t all -j "$J" -o %T) in
	COMPLETED|FAILED|CANCELLED) return 0 ;;
	esac
	return 1
}
wait_for 60 ended
is "$(squeue -h -t all -j "$J" -o %T)" COMPLETED "the job COMPLETED on $B"

out=$("$ABBENCH" fleet collect "$ID" --dir "$SHARED" 2>&1)
is "$?" 0 "collect: exit 0"
like "$out" "^c1/1 +done .*$UUID \(moved: node $A -> $B at round 3 \(after 2 samples, job $J\)\)" \
    "collect says the run moved: node $A -> $B at round 3"
DB=$FDIR/fleet.db
is "$(db_count "$DB" "SELECT uuid FROM runs")" "$UUID" \
    "fleet.db holds the run the job began (resumed, same uuid)"
is "$(samples "$DB")" 6 "the run is whole: 6 samples"
is "$(db_count "$DB" "SELECT count(*) FROM (SELECT plan_idx FROM samples GROUP BY run_id, plan_idx HAVING count(*) > 1)")" 0 \
    "no sample stored twice"
is "$(db_count "$DB" "SELECT group_concat(round, ' ') FROM (SELECT round FROM samples WHERE status = 'ok' ORDER BY plan_idx)")" \
    "0 1 2 3 4 5" "rounds 1 to 6, each once"
is "$(db_count "$DB" "SELECT count(*) FROM samples WHERE status = 'ok' AND start_wall_ns > $killed_ns")" 4 \
    "rounds 3 to 6 measured after the node died"
is "$(db_count "$DB" "SELECT r.host || ' ' || n.value || ' ' || h.value FROM runs r JOIN run_config n ON n.run_id = r.id AND n.key = 'node' JOIN run_config h ON h.run_id = r.id AND h.key = 'host'")" \
    "$B $B $B" "the run's owner, node and host keys name $B"
is "$(db_count "$DB" "SELECT value FROM run_config WHERE key = 'moved.1'")" \
    "node $A -> $B at round 3 (after 2 samples, job $J)" "metadata moved.1"
like "$(db_count "$DB" "SELECT text FROM warnings")" \
    "moved from node $A to $B at round 3 of 6: its 2 samples before were measured on $A, the rest on $B" \
    "the run's warnings say so"
like "$(grep -h 'resuming run' "$FDIR"/logs/c1-1-"$J".out)" "$UUID" \
    "the job on $B said it resumed the run"
"$ABBENCH" report --db "$DB" last -o "$TEST_TMP/r.md" >/dev/null 2>&1
file_like "$TEST_TMP/r.md" "moved from node $A to $B at round 3" \
    "the report says the run moved"
like "$("$ABBENCH" fleet status "$ID" --dir "$SHARED")" "its run moved: node $A -> $B" \
    "fleet status says it too"
"$ABBENCH" db export --db "$DB" last >"$TEST_TMP/export.txt" 2>&1
file_like "$TEST_TMP/export.txt" "^node: $B\$" "db export: the run's node"
ok "$(grep -q '^moved' "$TEST_TMP/export.txt"; [ $? -eq 1 ]; echo $?)" \
    "moved.1 is metadata: no benchfmt config line (no split tables)"

# fleet cancel while jobs run on the three nodes left.
cat >"$SHARED/cancel.ini" <<INI
[experiment]
name = t1335-cancel
rounds = 6

[arm a]
args = /bin/sh $SHARED/sample.sh $SHARED/h2 2

[workload Cmd]
type = command
INI
out=$(env -u ABBENCH_STATE_DIR -u TMPDIR "$ABBENCH" fleet submit \
    "$SHARED/cancel.ini" --partitions c1,c2:2 --dir "$SHARED" --time 10)
is "$?" 0 "a second fleet over c1 and c2:2"
ID2=$(fleet_id "$out")
wait_for 60 all_held "$SHARED/$ID2" "$out" "$SHARED/h2" c1-1 c2-1 c2-2
ok $? "its three jobs run, each held at its second sample"
nodes=$(for s in c1/1 c2/1 c2/2; do squeue -h -j "$(fleet_jobid "$out" $s)" -o %N; done | sort | tr '\n' ' ')
is "$nodes" "$(echo "$B c2-n1 c2-n2" | tr ' ' '\n' | sort | tr '\n' ' ')" \
    "on three nodes: $nodes"
# Each run changed its node: its cgroups, in its node's own journal.
N3="$B c2-n1 c2-n2"
U8S=$(for s in c1-1 c2-1 c2-2; do
	db_count "$SHARED/$ID2/runs/$s.db" "SELECT substr(uuid, 1, 8) FROM runs"
done)
ok "$([ "$(run_cgroups $U8S)" -ge 3 ]; echo $?)" \
    "the three runs have their cgroups ($(run_cgroups $U8S))"
ok "$([ "$(journal_saved $N3)" -ge 3 ]; echo $?)" \
    "and their nodes' journals say so ($(journal_saved $N3) entries)"
"$ABBENCH" fleet cancel "$ID2" --dir "$SHARED" >"$TEST_TMP/cancel.out" 2>&1
ok $? "fleet cancel"
cancelled() {
	for s in c1/1 c2/1 c2/2; do
		[ "$(squeue -h -t all -j "$(fleet_jobid "$out" $s)" -o %T)" = \
		    CANCELLED ] || return 1
	done
}
wait_for 30 cancelled
ok $? "all three jobs CANCELLED"
# Nothing of them left on the nodes: only slurmd in each namespace.
left() {
	for n in $B c2-n1 c2-n2; do
		for p in $(ip netns pids "abbench-$n"); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = abn-slurmd ] ||
			    return 1
		done
	done
}
wait_for 30 left
ok $? "no process of the jobs left on the three nodes"
is "$(run_cgroups $U8S)" 0 "each run removed its cgroups as Slurm stopped it"
is "$(journal_saved $N3)" 0 "each node's journal: every change undone"
like "$("$ABBENCH" fleet status "$ID2" --dir "$SHARED")" \
    "fleet $ID2: cancelled: 3 of 3 shapes CANCELLED before their run ended" \
    "fleet status reports the fleet cancelled"
out2=$("$ABBENCH" fleet collect "$ID2" --dir "$SHARED" 2>&1)
is "$?" 1 "collect of the cancelled fleet: exit 1"
is "$(printf '%s\n' "$out2" | grep -c 'failed .*CANCELLED.*unfinished run')" 3 \
    "each shape failed, CANCELLED, its unfinished run kept"
like "$out2" "fleet $ID2: cancelled: 3 of 3 shapes CANCELLED" \
    "collect reports the fleet cancelled"
rm -f "$SHARED/h2/hold"

done_testing
