#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run --resume: a run killed with SIGKILL after some samples is completed
# by `abbench run --resume`: same plan and order, nothing repeated, the
# final count equal to an uninterrupted run's, status interrupted -> done.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

db=$TEST_TMP/r.db
cat > "$TEST_TMP/r.ini" <<EOF2
[experiment]
name = resume
rounds = 6
order = random
seed = 11

[arm a]
args = sleep 0.15

[arm b]
args = sleep 0.1

[workload Sleep]
type = command
report = time user
EOF2

n1=$(kill_at_samples "$db" 4 "$ABBENCH" run "$TEST_TMP/r.ini" --db "$db" --quiet)
ok "$([ "$n1" -ge 4 ] && [ "$n1" -lt 12 ]; echo $?)" "the run was killed part way ($n1 of 12 samples)"
is "$(sqlite3 "$db" "SELECT status FROM runs")" running "a killed run is left marked running"

"$ABBENCH" run --resume last --db "$db" --quiet
ok $? "run --resume completes the run"
is "$(sqlite3 "$db" "SELECT status FROM runs")" done "the status is done"
is "$(sqlite3 "$db" "SELECT count(*) FROM runs")" 1 "no new run was made"
is "$(sqlite3 "$db" "SELECT count(DISTINCT plan_idx) FROM samples")" 12 "12 samples, as an uninterrupted run"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE status = 'ok'")" 24 "2 values each, nothing repeated"
is "$(sqlite3 "$db" "SELECT count(*) FROM (SELECT round, arm, benchmark, unit FROM samples GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)")" 0 "no (round, arm, benchmark) appears twice"

# The same plan as an uninterrupted run with the same seed.
"$ABBENCH" run "$TEST_TMP/r.ini" --db "$TEST_TMP/full.db" --quiet
ok $? "the uninterrupted run"
q="SELECT plan_idx || ':' || round || ':' || arm FROM samples WHERE unit = 'sec/op' ORDER BY plan_idx"
is "$(sqlite3 "$db" "$q" | tr '\n' ' ')" "$(sqlite3 "$TEST_TMP/full.db" "$q" | tr '\n' ' ')" "the resumed run followed the same plan and order"
is "$("$ABBENCH" run --resume last --db "$db" 2>&1 >/dev/null; echo "rc=$?")" "$(printf 'abbench: run 1 (resume) is already done\nrc=2')" "a done run cannot be resumed"
# start_owner DB ROUNDS: a run in the background ($owner), once it has
# stored its first sample.
start_owner() {
	"$ABBENCH" run "$TEST_TMP/r.ini" --db "$1" --quiet --rounds "$2" &
	owner=$!
	i=0
	while [ "$(sqlite3 "$1" "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" -lt 1 ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
# Who may resume a run marked running. A live abbench process owns it here.
start_owner "$TEST_TMP/own.db" 200
"$ABBENCH" run "$TEST_TMP/r.ini" --db "$TEST_TMP/o.db" --quiet --rounds 2
here=$(sqlite3 "$TEST_TMP/o.db" "SELECT host FROM runs")
# The run's row names its process by pid and start ("BOOT_ID:START").
owner_start=$(sqlite3 "$TEST_TMP/own.db" "SELECT pid_start FROM runs")
ok "$(case $owner_start in "$(cat /proc/sys/kernel/random/boot_id):"[0-9]*) echo 0 ;; *) echo 1 ;; esac)" \
    "a run stores its process's start ($owner_start)"
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET status = 'running', pid = $owner, pid_start = '$owner_start'"
out=$("$ABBENCH" run --resume last --db "$TEST_TMP/o.db" --quiet 2>&1; echo "rc=$?")
is "$out" "$(printf 'abbench: run 1 is running (pid %s); only an interrupted run can be resumed\nrc=2' "$owner")" \
    "a run whose abbench process is alive here is not resumed"
# Stored by an older abbench (no start): a live abbench with the pid holds it.
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET pid_start = ''"
out=$("$ABBENCH" run --resume last --db "$TEST_TMP/o.db" --quiet 2>&1; echo "rc=$?")
is "$out" "$(printf 'abbench: run 1 is running (pid %s); only an interrupted run can be resumed\nrc=2' "$owner")" \
    "without a start recorded, a live abbench with the pid is taken for the owner"
# The dead owner's pid used again by another abbench (pid_max wraps; after a
# reboot pids start again): another start, so not the owner.
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET pid_start = '$(cat /proc/sys/kernel/random/boot_id):1'"
"$ABBENCH" run --resume last --db "$TEST_TMP/o.db" --quiet
ok $? "a live abbench that did not start the run (a pid used again) does not hold it"
is "$(sqlite3 "$TEST_TMP/o.db" "SELECT (pid != $owner) || ' ' || (pid_start NOT IN ('', '$owner_start')) || ' ' || status FROM runs")" "1 1 done" \
    "the resumed run names its new process and that process's start"
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET status = 'running', pid = $owner, pid_start = ''"
# The same pid after a reboot may be another program's: sleep is not abbench.
sleep 30 &
other=$!
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET pid = $other"
"$ABBENCH" run --resume last --db "$TEST_TMP/o.db" --quiet
ok $? "a live pid that is not abbench's does not hold the run"
kill $other 2>/dev/null
# On another node (a fleet job requeued elsewhere) the pid means nothing here.
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET status = 'running', pid = $owner, host = 'node-\"%<elsewhere'"
out=$("$ABBENCH" run --resume last --db "$TEST_TMP/o.db" --quiet 2>&1; echo "rc=$?")
is "$out" "$(printf "abbench: run 1 is marked running on host 'node-\"%%<elsewhere' (pid %s), which cannot be checked from here: stop it there, or resume with --takeover once it is gone\nrc=2" "$owner")" \
    "a run marked running on another host is not resumed without --takeover"
"$ABBENCH" run --resume last --takeover --db "$TEST_TMP/o.db" --quiet
ok $? "--takeover resumes it"
is "$(sqlite3 "$TEST_TMP/o.db" "SELECT host || ' ' || (pid != $owner) || ' ' || status FROM runs")" "$here 1 done" \
    "the run now names this host and a new pid as its owner"
is "$("$ABBENCH" run "$TEST_TMP/r.ini" --takeover --db "$TEST_TMP/o.db" 2>&1; echo "rc=$?")" "$(printf 'abbench: run: --takeover goes with --resume RUN\nrc=2')" \
    "--takeover without --resume is refused"
# --takeover and a live abbench here. One that does not hold the run's
# liveness lock (another run; pid_max is 32768, so a dead owner's pid is
# soon another abbench's) is not the owner: the run is taken over at once.
sqlite3 "$TEST_TMP/o.db" "UPDATE runs SET status = 'running', pid = $owner, host = '$here'"
"$ABBENCH" run --resume last --takeover --db "$TEST_TMP/o.db" --quiet
ok $? "--takeover does not wait for a live abbench on another database"
kill $owner 2>/dev/null
wait $owner 2>/dev/null
# The run's own owner, still alive on this host (a fleet job requeued onto
# the same node while the instance the scheduler signalled winds down):
# --takeover waits for it to end, then resumes. The owner is stopped
# (SIGSTOP: alive, and no further sample) while the taker waits, so that
# a short run outlives the wait however slow the machine; the store is
# WAL, so a stop inside a write blocks no reader.
start_owner "$TEST_TMP/t.db" 4
kill -STOP $owner
"$ABBENCH" run --resume last --takeover --db "$TEST_TMP/t.db" --quiet &
taker=$!
sleep 0.5
is "$(kill -0 $taker 2>/dev/null && sqlite3 "$TEST_TMP/t.db" "SELECT pid || ' ' || status FROM runs")" "$owner running" \
    "--takeover waits while the run's owner is alive here"
kill $owner 2>/dev/null
kill -CONT $owner 2>/dev/null
wait $owner 2>/dev/null
wait $taker
ok $? "... and resumes the run once that process has ended"
is "$(sqlite3 "$TEST_TMP/t.db" "SELECT (pid != $owner) || ' ' || status || ' ' || (SELECT count(DISTINCT plan_idx) FROM samples) FROM runs")" "1 done 8" \
    "... which it now owns, and completes (8 samples)"
# --KEY=VALUE holds for the resumed part too: the file's 100ms timeout
# would fail every sample; the command line's 5s is stored and applied again.
sed 's/^name = resume/name = resume-set\ntimeout = 100ms/' "$TEST_TMP/r.ini" > "$TEST_TMP/s.ini"
"$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/s.db" --quiet --timeout=5s &
pid=$!
i=0
while [ "$(sqlite3 "$TEST_TMP/s.db" "SELECT count(DISTINCT plan_idx) FROM samples" 2>/dev/null || echo 0)" -lt 3 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
is "$(sqlite3 "$TEST_TMP/s.db" "SELECT value FROM run_config WHERE key = 'set.timeout'")" 5s "--timeout=5s is stored with the run"
"$ABBENCH" run --resume last --db "$TEST_TMP/s.db" --quiet
ok $? "the resumed run keeps the command line's timeout"
is "$(sqlite3 "$TEST_TMP/s.db" "SELECT count(*) || ' ' || sum(status = 'ok') FROM samples")" "24 24" "every sample ran within it, none timed out"
"$ABBENCH" db --db "$TEST_TMP/s.db" show last 2>/dev/null | sed -n '/^metadata:/,/^$/p' | grep -q '^  set.timeout: 5s$'
ok $? "db show says the run's timeout came from the command line"
done_testing
