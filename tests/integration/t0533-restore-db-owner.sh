#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# restore --db of a run that no host journal here knows (killed under
# another state directory): whether its abbench process is alive is
# decided by the pid and the pid's start stored with the run. A live
# owner's run is left alone; a dead run whose pid is now another
# abbench's (pid_max wraps, pids start again after a reboot) is restored
# and marked interrupted; a run of an older abbench (no start stored)
# with a live abbench at its pid is left alone, as before.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3

cat > "$TEST_TMP/e.ini" <<'EOT'
[experiment]
name = owner
rounds = 200
[arm a]
args = sleep 0.05
[arm b]
args = sleep 0.05
[workload w]
type = command
EOT
# Whatever a failure leaves: the live abbench, the killed run's directory
# and cgroup.
owner=
end() {
	[ -z "$owner" ] || kill "$owner" 2>/dev/null
	ABBENCH_STATE_DIR=$TEST_TMP/other "$ABBENCH" restore --force \
	    --trust-db --db "$TEST_TMP/k.db" > /dev/null 2>&1
	lib_cleanup
}
trap end EXIT
# The run, killed with SIGKILL under its own state directory.
n=$(ABBENCH_STATE_DIR=$TEST_TMP/killed kill_at_samples "$TEST_TMP/k.db" 3 \
    "$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/e.ini")
ok "$([ "$n" -ge 3 ]; echo $?)" "the run was killed after $n samples"
scratch=$(sqlite3 "$TEST_TMP/k.db" "SELECT target FROM journal WHERE kind = 'dir'")
ok "$([ -d "$scratch" ]; echo $?)" "it left its scratch directory"
pending() {
	sqlite3 "$TEST_TMP/k.db" "SELECT count(*) FROM journal WHERE state != 'restored'"
}
ok "$([ "$(pending)" -ge 1 ]; echo $?)" "and journal entries to undo ($(pending))"

# Another abbench, alive for the rest of the test.
ABBENCH_STATE_DIR=$TEST_TMP/live "$ABBENCH" run --quiet --db "$TEST_TMP/own.db" \
    "$TEST_TMP/e.ini" > /dev/null 2>&1 &
owner=$!
i=0
while [ "$(sqlite3 "$TEST_TMP/own.db" "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" -lt 1 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
owner_start=$(sqlite3 "$TEST_TMP/own.db" "SELECT pid_start FROM runs")
boot=$(cat /proc/sys/kernel/random/boot_id)
ok "$(case $owner_start in "$boot:"[0-9]*) echo 0 ;; *) echo 1 ;; esac)" \
    "the live run stores its process's start ($owner_start)"

restore() {
	ABBENCH_STATE_DIR=$TEST_TMP/other "$ABBENCH" restore --trust-db \
	    --db "$TEST_TMP/k.db" "$@" > "$TEST_TMP/r.out" 2>&1
}
# 1. Its owner alive: that abbench, with the start it stored.
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET pid = $owner, pid_start = '$owner_start'"
show() {
	"$ABBENCH" db show --db "$TEST_TMP/k.db" 1 2>&1 | grep '^  pid:'
}
like "$(show)" "^  pid: +$owner \\(start $owner_start\\), still running\$" \
    "db show: the run's process, its start, and that it still runs"
host=$(sqlite3 "$TEST_TMP/k.db" "SELECT host FROM runs")
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET host = 'other%s\"host'"
like "$(show)" "on host other%s\"host: whether it still runs cannot be checked from here\$" \
    "db show: a run of another host is not checked here"
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET host = '$host'"
restore
is "$?" 0 "restore exits 0"
like "$(cat "$TEST_TMP/r.out")" "run 1 is still running \\(pid $owner\\): skipped" \
    "a run whose abbench is alive is skipped"
ok "$([ -d "$scratch" ] && [ "$(pending)" -ge 1 ]; echo $?)" "and nothing of it undone"
# 2. No start stored (an older abbench): a live abbench at the pid holds it.
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET pid_start = ''"
restore
like "$(cat "$TEST_TMP/r.out")" "run 1 is still running \\(pid $owner\\): skipped" \
    "without a start, a live abbench at the pid is taken for the owner"
ok "$([ -d "$scratch" ] && [ "$(pending)" -ge 1 ]; echo $?)" "and nothing of it undone"
# 3. The pid is another abbench's now: another start.
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET pid_start = '$boot:1'"
like "$(show)" "^  pid: +$owner \\(start $boot:1\\), gone: the run was killed; \`abbench run --resume 1 --db .*k\\.db\` continues it, \`abbench restore --db .*k\\.db\` undoes what it changed on the host\$" \
    "db show: a run whose process is gone says how to resume and restore it"
# Without --trust-db: only the database has these entries, none is undone.
before=$(pending)
ABBENCH_STATE_DIR=$TEST_TMP/other "$ABBENCH" restore --db "$TEST_TMP/k.db" \
    > "$TEST_TMP/r.out" 2>&1
is "$?" 1 "without --trust-db, restore of what only the database has exits 1"
is "$(grep -c "refused journal entry .*only the database has it" "$TEST_TMP/r.out")" "$before" \
    "each of its $before entries is named as refused"
ok "$([ -d "$scratch" ] && [ "$(pending)" -eq "$before" ]; echo $?)" "and nothing of it undone"
is "$(sqlite3 "$TEST_TMP/k.db" "SELECT status FROM runs")" running "nor its status changed"
restore
is "$?" 0 "restore exits 0"
like "$(cat "$TEST_TMP/r.out")" "removed directory '$scratch'" \
    "a dead run whose pid another abbench has now is restored"
like "$(cat "$TEST_TMP/r.out")" "run 1: its process is gone, marked interrupted" \
    "and marked interrupted"
ok "$([ ! -e "$scratch" ] && [ "$(pending)" -eq 0 ]; echo $?)" "its directory is gone, nothing is pending"
is "$(sqlite3 "$TEST_TMP/k.db" "SELECT status FROM runs")" interrupted "the run is interrupted"
like "$(show)" "^  pid: +$owner \\(start $boot:1\\)\$" \
    "db show: an interrupted run's process, without a liveness"
ok "$(kill -0 $owner; echo $?)" "the live abbench ran on untouched"
kill $owner
wait $owner 2>/dev/null
done_testing
