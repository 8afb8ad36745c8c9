#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `fleet cancel` of a job whose run cannot restore in time (scripts/
# start-slurm --nodes 4). Slurm stops a cancelled job with SIGTERM and,
# KillWait (5 s) later, SIGKILL. The run's end asks the container daemons
# for containers labelled with it before it removes its cgroups; a daemon
# that does not answer holds it there (up to 10 s), and Slurm's SIGKILL
# ends it before its restore. Here that daemon is a MOCK: DOCKER_HOST
# names a socket that accepts and never answers (a hung dockerd cannot be
# made here without taking the shared one down). Before the fix, the run's
# cgroups and its journal entries stayed on the node until its next job
# (t1335's checks 34-35 failed so, once in five runs at load 11.8). Now
# the node's Epilog (abbench restore, once the job's processes are gone)
# undoes them: nothing is left, and the Epilog's log says what it undid.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_cmd python3
require_slurm_nodes 4

held_sample_script
held_exp "$SHARED/x.ini" t1337-killed "$SHARED/h" 2 6

# The MOCK daemon: once $SHARED/hang exists, it accepts every connection
# and never answers; before, it closes each at once (docker not
# reachable): the run's start asks the daemon too (its version: 5 s
# against a daemon that never answers), and such a daemon held the job
# 6 s before its second sample (1.5 s with this one). It hangs from the run's second sample on, before the cancel.
# In the shared directory, which the nodes see.
python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(64)
held = []
while True:
    c = s.accept()[0]
    if os.path.exists(sys.argv[2]):
        held.append(c)
    else:
        c.close()
' "$SHARED/silent.sock" "$SHARED/hang" 8>&- &
MOCK=$!
trap 'kill "$MOCK" 2>/dev/null; wait "$MOCK" 2>/dev/null
fleet_nodes_cleanup; lib_cleanup' EXIT
wait_for 10 test -S "$SHARED/silent.sock"
ok $? "the mock daemon's socket is there"

# Jobs get the submitter's environment: the run's docker is the mock.
out=$(env -u ABBENCH_STATE_DIR -u TMPDIR \
    DOCKER_HOST="unix://$SHARED/silent.sock" "$ABBENCH" fleet submit \
    "$SHARED/x.ini" --partitions c2 --dir "$SHARED" --time 10)
is "$?" 0 "fleet submit over c2"
ID=$(fleet_id "$out")
J=$(fleet_jobid "$out" c2/1)
RDB=$SHARED/$ID/runs/c2-1.db
wait_for 60 held "$RDB" 1 "$J" "$SHARED/h"
ok $? "the job is running, held at its second sample"
touch "$SHARED/hang"
N=$(squeue -h -j "$J" -o %N)
like "$N" '^c2-n[12]$' "on a c2 node ($N)"
U8=$(db_count "$RDB" "SELECT substr(uuid, 1, 8) FROM runs")
ok "$([ "$(run_cgroups "$U8")" -ge 1 ]; echo $?)" \
    "the run has its cgroups ($(run_cgroups "$U8"))"
ok "$([ "$(journal_saved "$N")" -ge 1 ]; echo $?)" \
    "and its node's journal says so ($(journal_saved "$N") entries)"

"$ABBENCH" fleet cancel "$ID" --dir "$SHARED" >"$TEST_TMP/cancel.out" 2>&1
ok $? "fleet cancel"
cancelled() {
	[ "$(squeue -h -t all -j "$J" -o %T)" = CANCELLED ]
}
wait_for 60 cancelled
ok $? "the job CANCELLED"
left() {
	for p in $(ip netns pids "abbench-$N"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = abn-slurmd ] ||
		    return 1
	done
}
wait_for 30 left
ok $? "no process of the job left on $N"
# The slow path was taken: the run never reached its closing line
# ("run 1 (t1337-killed) interrupted: ..."): Slurm killed it first.
LOG=$SHARED/$ID/logs/c2-1-$J.out
ok "$(grep -q 'interrupted:' "$LOG"; [ $? -eq 1 ]; echo $?)" \
    "the run was killed before its end (no closing line in its log)"
is "$(run_cgroups "$U8")" 0 "its cgroups are gone all the same"
is "$(journal_saved "$N")" 0 "its node's journal: every change undone"
file_like "$NODES_TOP/log/epilog.$N.log" "^job $J " \
    "the node's Epilog ran after the job"
file_like "$NODES_TOP/log/epilog.$N.log" "^restored: .*abbench-$U8" \
    "and undid the run's changes (its cgroup)"
rm -f "$SHARED/h/hold"

done_testing
