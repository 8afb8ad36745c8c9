#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Faults in a fleet on the real local Slurm: the c2 job is requeued
# mid-run (it resumes its run, not starting over), the c4 job is scancel'ed
# mid-run. collect names c4 failed with Slurm's state and merges c2;
# resubmit --failed resumes c4's run to the end; the merged table is whole
# and no sample is stored twice.
#
# Each job is held at its third sample (a hold file per partition) until
# the test has requeued or cancelled it: `scontrol requeue` also requeues a
# *finished* batch job, so a requeue that came after the job's ten samples
# (a loaded host delays the test's polling by more than the 2.4 s the job
# had left) requeued a completed run instead of interrupting one. The
# requeue says Incomplete, so that a late one fails instead.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm

EXP=$TEST_TMP/fault.ini
HOLD=$TEST_TMP/hold
mkdir -p "$HOLD"
# One sample: 0.3 s; from its third sample on, a job waits while
# $HOLD/hold.PARTITION exists.
cat >"$TEST_TMP/sample.sh" <<'SH'
#!/bin/sh
sleep 0.3
c=$1/count.$SLURM_JOB_PARTITION
n=$(( $(cat "$c" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$c"
if [ "$n" -ge 3 ]; then
	while [ -e "$1/hold.$SLURM_JOB_PARTITION" ]; do sleep 0.05; done
fi
exit 0
SH
cat >"$EXP" <<INI
[experiment]
name = t1310-fault
rounds = 10

[arm a]
args = /bin/sh $TEST_TMP/sample.sh $HOLD

[workload Cmd]
type = command
INI
touch "$HOLD/hold.c2" "$HOLD/hold.c4"

out=$("$ABBENCH" fleet submit "$EXP" --partitions c2,c4 --dir "$SHARED")
is "$?" 0 "fleet submit"
ID=$(fleet_id "$out")
FDIR=$SHARED/$ID
J2=$(fleet_jobid "$out" c2/1)
J4=$(fleet_jobid "$out" c4/1)
M=$(printf '%s\n' "$out" | sed -n 's/^merge job \([0-9]*\).*/\1/p')
samples() {	# samples DB: ok samples stored
	db_count "$1" "SELECT count(*) FROM samples WHERE status = 'ok'"
}
has_samples() {	# has_samples DB N (never creates DB: the job does)
	[ -s "$1" ] &&
	    [ "$(samples "$1" 2>/dev/null || echo 0)" -ge "$2" ] 2>/dev/null
}

# Requeue c2 mid-run (a node lost, a preemption): it must resume.
wait_for 60 has_samples "$FDIR/runs/c2-1.db" 2
ok $? "c2 is running (2 samples stored, held at its third)"
UUID2=$(db_count "$FDIR/runs/c2-1.db" "SELECT uuid FROM runs")
scontrol requeue Incomplete "$J2"
ok $? "scontrol requeue Incomplete $J2"
requeued_at=$(date +%s)
# Cancel c4 mid-run: it got the node when c2 was requeued (a requeued
# job waits a while, BeginTime, before it may start again).
wait_for 90 has_samples "$FDIR/runs/c4-1.db" 2
ok $? "c4 is running (2 samples stored, held at its third)"
scancel "$J4"
ok $? "scancel $J4"
# c4 stops before its tenth sample: it is held until the test has
# cancelled it (its resubmission below runs to the end).
is "$(samples "$FDIR/runs/c4-1.db")" 2 "c4 was cancelled mid-run"
rm -f "$HOLD/hold.c4"
# Now let c2 start again at once, and run to its end. The update takes
# only once the job is pending again, and only in a later second than the
# requeue: the requeue's kill revokes the job's credential on slurmd at
# that second, and slurmd refuses any credential of the job made at or
# before it (cred->ctime <= revoked: whole seconds). Slurm's own begin
# time keeps a requeued job away that long; StartTime=now within the same
# second (c4's start, 2 samples and scancel can take under 1 s) had
# slurmctld allocate it at once, slurmd answer "Job 80 already killed, do
# not launch batch job", and slurmctld end it "Killing non-startable
# batch JobId=80: Job credential revoked": FAILED, exit 1, no second
# instance. Reproduced alone: requeue then StartTime=now in the same
# second failed 2 of 3 times, after the second 0 of 3.
rm -f "$HOLD/hold.c2"
while [ "$(date +%s)" -le "$requeued_at" ]; do sleep 0.05; done
released() {
	scontrol update JobId="$J2" StartTime=now >/dev/null 2>&1
	case $(squeue -h -t all -j "$J2" -o '%T %r') in
	RUNNING*|COMPLETED*|"PENDING Resources"|"PENDING Priority") return 0 ;;
	esac
	return 1
}
wait_for 30 released
rc=$?
ok $rc "the requeued job may start again"
[ "$rc" = 0 ] || diag "job $J2: $(squeue -h -t all -j "$J2" -o '%T %r' 2>&1)"
merge_ended() {
	case $(squeue -h -t all -j "$M" -o %T) in
	COMPLETED|FAILED|CANCELLED) return 0 ;;
	esac
	return 1
}
wait_for 120 merge_ended
ok $? "the merge job ran after both ended (afterany)"

out=$("$ABBENCH" fleet collect "$ID" --dir "$SHARED" 2>&1)
is "$?" 1 "collect: exit 1 (a shape failed)"
like "$(printf '%s\n' "$out" | grep '^c4/1')" "^c4/1 +failed +job $J4 CANCELLED" \
    "collect names c4/1 failed with Slurm's state (CANCELLED)"
like "$(printf '%s\n' "$out" | grep '^c4/1')" "unfinished run .* stays in .*c4-1.db" \
    "... and says where its partial run is kept"
c2=$(printf '%s\n' "$out" | grep '^c2/1')
like "$c2" '^c2/1 +done' "c2/1 is done"
case $c2 in
c2/1*done*) ;;
*)	for f in "$FDIR"/logs/c2-1-*; do diag "$f: $(cat "$f")"; done
	diag "c2-1.db: $(db_count "$FDIR/runs/c2-1.db" "SELECT group_concat(id || ' ' || status || ' pid ' || pid, '; ') FROM runs") samples: $(db_count "$FDIR/runs/c2-1.db" "SELECT group_concat(plan_idx || ':' || status || ':' || coalesce(error, ''), '; ') FROM (SELECT DISTINCT plan_idx, status, error FROM samples)")"
	diag "slurmctld on job $J2: $(grep -h "JobId=$J2[^0-9]" \
	    "${ABBENCH_SLURM_DIR:-/var/lib/abbench-slurm}"/log/slurm*.log 2>&1 |
	    tail -n 30)" ;;
esac
DB=$FDIR/fleet.db
is "$(db_count "$DB" "SELECT count(*) FROM runs")" 1 "fleet.db holds c2's run"
is "$(samples "$DB")" 10 "c2's run is whole: 10 samples"
is "$(db_count "$DB" "SELECT uuid FROM runs")" "$UUID2" \
    "the requeued job resumed the same run (same uuid)"
like "$(cat "$FDIR"/logs/c2-1-"$J2".out)" "resuming run $UUID2" \
    "the requeued job said it resumed"
is "$(db_count "$DB" "SELECT count(*) FROM (SELECT plan_idx FROM samples GROUP BY run_id, plan_idx HAVING count(*) > 1)")" 0 \
    "no sample of c2 stored twice"
partial=$(samples "$FDIR/runs/c4-1.db")
ok "$([ "$partial" -ge 2 ] && [ "$partial" -lt 10 ]; echo $?)" \
    "c4's partial run is kept in its own database ($partial samples)"
UUID4=$(db_count "$FDIR/runs/c4-1.db" "SELECT uuid FROM runs")

out=$("$ABBENCH" fleet resubmit "$ID" --dir "$SHARED" --failed --wait 2>"$TEST_TMP/re.err")
rc=$?
is "$rc" 0 "resubmit --failed --wait: exit 0"
[ "$rc" = 0 ] || diag "$out $(cat "$TEST_TMP/re.err")"
like "$out" "^c4/1 job [0-9]+ \(attempt 2, was job $J4 CANCELLED\)" \
    "only c4/1 is resubmitted, as attempt 2"
is "$(printf '%s\n' "$out" | grep -c '^c2/1 job')" 0 "c2/1 is not resubmitted"
is "$(db_count "$DB" "SELECT count(*) FROM runs")" 2 "fleet.db now holds both shapes"
is "$(db_count "$DB" "SELECT count(*) FROM runs WHERE uuid = '$UUID4'")" 1 \
    "c4's run is the resumed one (same uuid)"
is "$(db_count "$DB" "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.uuid = '$UUID4' AND s.status = 'ok'")" 10 \
    "c4's run is whole: 10 samples"
is "$(db_count "$DB" "SELECT count(*) FROM (SELECT plan_idx FROM samples GROUP BY run_id, plan_idx HAVING count(*) > 1)")" 0 \
    "no sample stored twice"
is "$(db_count "$DB" "SELECT value FROM run_config c JOIN runs r ON r.id = c.run_id WHERE r.uuid = '$UUID4' AND c.key = 'job-id'")" \
    "$(printf '%s\n' "$out" | sed -n 's/^c4\/1 job \([0-9]*\).*/\1/p')" \
    "the resumed run records the job that finished it"
table=$("$ABBENCH" stat --db "$DB" -table .fullname -row partition -col arm all 2>&1)
like "$table" "
c2 .*
c4 " "the cross-shape table is whole: c2 and c4 rows"
again=$("$ABBENCH" fleet collect "$ID" --dir "$SHARED")
is "$?" 0 "collect afterwards: exit 0"
like "$again" 'merged 0 new runs' "... and adds nothing"

done_testing
