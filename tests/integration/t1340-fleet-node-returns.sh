#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# On a cluster of four hosts (scripts/start-slurm --nodes 4), what a
# fleet meets besides a node that dies and moves its run (t1335):
#  1. a dead node comes back: the run that died there left its cgroups
#     and its scratch directory on it, in its own journal; the job,
#     requeued, waits for it (the other c1 node is drained); when the node
#     returns, Slurm's Epilog of the dead job or the Prolog of the requeued
#     one (abbench restore, on the node's own
#     /var/lib/abbench) undoes them before the job starts there again, and
#     the job resumes the run: every sample once;
#  2. slurmctld restarted while a fleet's four jobs run: they finish, the
#     merge job still runs after them, `fleet submit --wait` sees it
#     through (exit 0), every run whole, no sample twice;
#  3. a node drained while its job runs: the job finishes there, the
#     pending shape goes to the other node, the fleet completes.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm_nodes 4

# One sample: 0.2 s, held from the job's sample HOLD_AT on (fleet-lib.sh).
held_sample_script
exp() {	# exp NAME DIR HOLD_AT ROUNDS
	held_exp "$SHARED/$1.ini" "t1340-$1" "$SHARED/$2" "$3" "$4"
}
state() {
	squeue -h -t all -j "$1" -o %T
}
is_state() {	# is_state JOB STATE
	[ "$(state "$1")" = "$2" ]
}
submit() {
	env -u ABBENCH_STATE_DIR -u TMPDIR "$ABBENCH" fleet submit "$@" \
	    --dir "$SHARED" --time 10
}
whole() {	# whole DB N ROUNDS: N runs done, ROUNDS samples each, once
	is "$(db_count "$1" "SELECT count(*) FROM runs WHERE status = 'done'")" \
	    "$2" "$2 runs done"
	is "$(db_count "$1" "SELECT group_concat(n, ' ') FROM (SELECT count(*) n FROM samples WHERE status = 'ok' GROUP BY run_id)")" \
	    "$(yes "$3" | head -n "$2" | tr '\n' ' ' | sed 's/ $//')" \
	    "$3 samples in each run"
	is "$(db_count "$1" "SELECT count(*) FROM (SELECT plan_idx FROM samples GROUP BY run_id, plan_idx HAVING count(*) > 1)")" \
	    0 "no sample stored twice"
}
T0=$(date +%s)

# 1. A node comes back. ------------------------------------------------
exp back h1 3 6
out=$(submit "$SHARED/back.ini" --partitions c1)
is "$?" 0 "fleet submit over c1"
ID=$(fleet_id "$out")
J=$(fleet_jobid "$out" c1/1)
RDB=$SHARED/$ID/runs/c1-1.db
wait_for 60 held "$RDB" 2 "$J" "$SHARED/h1"
ok $? "the c1 job runs, held at its third sample"
A=$(squeue -h -j "$J" -o %N)
O=$(for n in c1-n1 c1-n2; do [ "$n" = "$A" ] || echo "$n"; done)
scontrol update nodename="$O" state=drain reason=t1340
ok $? "the other c1 node ($O) drained: the job can only come back to $A"
UUID=$(db_count "$RDB" "SELECT uuid FROM runs")
U8=$(printf %.8s "$UUID")
JDB=$NODES_TOP/nodes/$A/state/journal.db
cgroups() {
	find /sys/fs/cgroup -maxdepth 6 -type d -name "abbench-$U8" \
	    2>/dev/null | wc -l
}
ok "$([ "$(cgroups)" -gt 0 ]; echo $?)" "the run has its cgroups (abbench-$U8)"
is "$(db_count "$JDB" "SELECT count(*) > 0 FROM entries WHERE state = 'saved'")" 1 \
    "$A's own journal holds them"

"$ABBENCH_SRCDIR/scripts/slurm-nodes" --kill "$A"
ok $? "node $A killed"
# An operator (or a health check) marks it down at once: Slurm requeues
# its job, which cannot start anywhere until $A is back.
scontrol update nodename="$A" state=down reason=t1340-died
rm -f "$SHARED/h1/hold"
pending() { is_state "$J" PENDING; }
wait_for 30 pending
ok $? "job $J requeued, pending"
ok "$([ "$(cgroups)" -gt 0 ]; echo $?)" \
    "the dead run's cgroups are left on the machine ($(cgroups))"
ok "$(ls -d "$NODES_TOP/nodes/$A/tmp/abbench-$UUID" >/dev/null 2>&1; echo $?)" \
    "and its scratch directory in $A's /tmp"
is "$(db_count "$JDB" "SELECT count(*) > 0 FROM entries WHERE state = 'saved'")" 1 \
    "$A's journal still says so"

# What the node's Epilog wrote before it came back (the Epilog may be
# the one that restores: Slurm runs it for the dead job as the node
# registers again, before the requeued job's Prolog).
EL=$NODES_TOP/log/epilog.$A.log
e0=$(cat "$EL" 2>/dev/null | wc -l)
"$ABBENCH_SRCDIR/scripts/slurm-nodes" --revive "$A" >"$TEST_TMP/revive" 2>&1
ok $? "node $A comes back"
done_j() { is_state "$J" COMPLETED; }
wait_for 90 done_j
ok $? "job $J COMPLETED"
is "$(scontrol show job -o "$J" | sed -n 's/.* NodeList=\([^ ]*\) .*/\1/p')" \
    "$A" "on $A, the node that came back"
PL=$NODES_TOP/log/prolog.$A.log
awk -v j="job $J " 'index($0, j) == 1 { n++; s = "" } n == 2 { s = s $0 "\n" }
    END { printf "%s", s }' "$PL" >"$TEST_TMP/prolog2"
while IFS= read -r l; do diag "prolog: $l"; done <"$TEST_TMP/prolog2"
tail -n +"$((e0 + 1))" "$EL" 2>/dev/null >"$TEST_TMP/epilog2"
while IFS= read -r l; do diag "epilog: $l"; done <"$TEST_TMP/epilog2"
cat "$TEST_TMP/prolog2" "$TEST_TMP/epilog2" >"$TEST_TMP/restore2"
file_like "$TEST_TMP/restore2" "removed cgroup 'abbench-$U8'" \
    "before the job started there again, $A's Prolog or Epilog removed the dead run's cgroup"
file_like "$TEST_TMP/restore2" "removed directory '/tmp/abbench-$UUID'" \
    "... and its scratch directory"
LOG=$(ls "$SHARED/$ID"/logs/c1-1-"$J".out)
like "$(grep -h 'resuming run' "$LOG")" "$UUID" "the job resumed the run"
is "$(grep -c 'restored' "$LOG")" 0 \
    "the resumed run found nothing left to restore: the Prolog had done it"
is "$(db_count "$JDB" "SELECT count(*) FROM entries WHERE state = 'saved'")" 0 \
    "$A's journal: nothing left to undo"
is "$(cgroups)" 0 "no cgroup of the run left"
scontrol update nodename="$O" state=resume
wait_for 60 "$ABBENCH" fleet collect "$ID" --dir "$SHARED" -q
ok $? "the fleet completes"
whole "$SHARED/$ID/fleet.db" 1 6

# 2. slurmctld restarted mid-fleet. ------------------------------------
# The submitter waits through it (--wait: the scheduler's silence is not
# the fleet's end).
exp ctld h2 2 4
submit "$SHARED/ctld.ini" --partitions c1:2,c2:2 --wait \
    >"$TEST_TMP/ctld.out" 2>"$TEST_TMP/ctld.err" &
WP=$!
submitted() { grep -q '^merge job' "$TEST_TMP/ctld.out"; }
wait_for 30 submitted
ok $? "a fleet of four jobs, its submitter waiting"
out=$(cat "$TEST_TMP/ctld.out")
ID=$(fleet_id "$out")
wait_for 60 all_held "$SHARED/$ID" "$out" "$SHARED/h2" c1-1 c1-2 c2-1 c2-2
ok $? "its four jobs run, each held at its second sample"
P=$(cat "$NODES_TOP/run/slurmctld.pid")
kill "$P"
gone() {	# it has ended: gone, or a zombie (kill -0 waited for init to
	# reap it, up to 2 s here)
	g_st=$(sed 's/.*) //' "/proc/$P/stat" 2>/dev/null) || return 0
	[ "${g_st%% *}" = Z ]
}
wait_for 30 gone
ok $? "slurmctld stopped"
# (scontrol ping asks the controller once; sinfo tries again for
# MessageTimeout, 9 s, before it fails.)
ok "$(scontrol ping >/dev/null 2>&1; [ $? -ne 0 ]; echo $?)" "no controller answers"
rm -f "$SHARED/h2/hold"
sleep 1
"$NODES_TOP/bin/abn-slurmctld" -f "$SLURM_CONF" 8>&-
ok $? "slurmctld started again (its state from StateSaveLocation)"
MJ=$(printf '%s\n' "$out" | awk '$1 == "merge" { print $3 }')
merged() { is_state "$MJ" COMPLETED; }
wait_for 90 merged
ok $? "the merge job ran after the four jobs"
wait "$WP"
is "$?" 0 "fleet submit --wait saw the fleet through: exit 0"
is "$("$ABBENCH" fleet collect "$ID" --dir "$SHARED" -q; echo $?)" \
    "0" "every shape done"
whole "$SHARED/$ID/fleet.db" 4 4
is "$(for s in c1/1 c1/2 c2/1 c2/2; do scontrol show job -o "$(fleet_jobid "$out" $s)" | sed -n 's/.* Restarts=\([0-9]*\) .*/\1/p'; done | tr '\n' ' ')" \
    "0 0 0 0 " "no job was restarted: the jobs ran through the restart"

# 3. A node drained with a job on it. ----------------------------------
exp drain h3 2 4
out=$(submit "$SHARED/drain.ini" --partitions c1:3)
is "$?" 0 "three c1 shapes on two c1 nodes"
ID=$(fleet_id "$out")
J1=$(fleet_jobid "$out" c1/1)
J3=$(fleet_jobid "$out" c1/3)
two_held() {
	n=0
	for s in 1 2 3; do
		held "$SHARED/$ID/runs/c1-$s.db" 1 \
		    "$(fleet_jobid "$out" "c1/$s")" "$SHARED/h3" && n=$((n + 1))
	done
	[ "$n" = 2 ]
}
wait_for 60 two_held
ok $? "two jobs run, held; the third waits"
R=$(fleet_jobid "$out" c1/1)
is_state "$R" RUNNING || R=$(fleet_jobid "$out" c1/2)
D=$(squeue -h -j "$R" -o %N)
scontrol update nodename="$D" state=drain reason=t1340-drain
ok $? "node $D drained with job $R on it"
like "$(sinfo -h -n "$D" -o %t)" '^drng' "$D is draining"
rm -f "$SHARED/h3/hold"
fin() { "$ABBENCH" fleet collect "$ID" --dir "$SHARED" -q >/dev/null 2>&1; }
wait_for 90 fin
ok $? "the fleet completes"
is "$(scontrol show job -o "$R" | sed -n 's/.* JobState=\([A-Z]*\) .*/\1/p') $(scontrol show job -o "$R" | sed -n 's/.* NodeList=\([^ ]*\) .*/\1/p')" \
    "COMPLETED $D" "job $R finished on the drained node"
ok "$(for s in 1 2 3; do scontrol show job -o "$(fleet_jobid "$out" c1/$s)" | sed -n 's/.* NodeList=\([^ ]*\) .*/\1/p'; done | grep -c "^$D\$" | grep -qx 1; echo $?)" \
    "no other job went to $D once drained"
like "$(sinfo -h -n "$D" -o %t)" '^drain' "$D is drained"
whole "$SHARED/$ID/fleet.db" 3 4
scontrol update nodename="$D" state=resume
diag "t1340's fleets took $(( $(date +%s) - T0 )) s"

done_testing
