#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# restore of a dead run that another process has taken over since: a
# fleet job killed with its node, requeued, resumed the run on another
# node (run --resume --takeover there), and the dead node comes back and
# undoes, from its own journal, what the dead instance left. It removes
# that instance's scratch directory and cgroups, but leaves the run's
# status to its new owner: the database names another pid on another host
# as the run's, so the run is not marked interrupted under it. The
# takeover is a mock (the database's owner set to another host's, as
# the resumed job writes it): the other node's process cannot be made
# here without a cluster (t1340 has one).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3

cat > "$TEST_TMP/e.ini" <<'EOT'
[experiment]
name = taken
rounds = 200
[arm a]
args = sleep 0.05
[workload w]
type = command
EOT
SD=$TEST_TMP/node-a
end() {
	ABBENCH_STATE_DIR=$SD "$ABBENCH" restore --force --db "$TEST_TMP/k.db" \
	    > /dev/null 2>&1
	lib_cleanup
}
trap end EXIT
n=$(ABBENCH_STATE_DIR=$SD kill_at_samples "$TEST_TMP/k.db" 3 \
    "$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/e.ini")
ok "$([ "$n" -ge 3 ]; echo $?)" "the run was killed after $n samples"
scratch=$(sqlite3 "$TEST_TMP/k.db" "SELECT target FROM journal WHERE kind = 'dir'")
ok "$([ -d "$scratch" ]; echo $?)" "it left its scratch directory"
is "$(sqlite3 "$TEST_TMP/k.db" "SELECT status FROM runs")" running \
    "the run is still marked running"

# Mock: another node took the run over (its job resumed it there).
sqlite3 "$TEST_TMP/k.db" "UPDATE runs SET pid = 4242, pid_start = 'other-boot:1', host = 'c1-n2'"
ABBENCH_STATE_DIR=$SD "$ABBENCH" restore > "$TEST_TMP/r.out" 2>&1
is "$?" 0 "restore on the dead node's journal: exit 0"
while IFS= read -r l; do diag "$l"; done < "$TEST_TMP/r.out"
ok "$([ ! -e "$scratch" ]; echo $?)" "the dead instance's scratch directory is removed"
file_like "$TEST_TMP/r.out" "removed cgroup 'abbench-" "and its cgroup"
file_like "$TEST_TMP/r.out" "taken over by pid 4242 on c1-n2: its status is left to it" \
    "restore says the run has another owner now"
is "$(sqlite3 "$TEST_TMP/k.db" "SELECT status FROM runs")" running \
    "the run is still running for its new owner, not marked interrupted"
ABBENCH_STATE_DIR=$SD "$ABBENCH" restore > "$TEST_TMP/r2.out" 2>&1
file_like "$TEST_TMP/r2.out" "^nothing to restore" "a second restore has nothing to do"

# The same dead owner still named by the database: marked interrupted.
n=$(ABBENCH_STATE_DIR=$SD kill_at_samples "$TEST_TMP/k2.db" 3 \
    "$ABBENCH" run --quiet --db "$TEST_TMP/k2.db" "$TEST_TMP/e.ini")
ABBENCH_STATE_DIR=$SD "$ABBENCH" restore > "$TEST_TMP/r3.out" 2>&1
file_like "$TEST_TMP/r3.out" "its process is gone, marked interrupted" \
    "a run nobody took over is marked interrupted, as before"
is "$(sqlite3 "$TEST_TMP/k2.db" "SELECT status FROM runs")" interrupted \
    "its status says so"
done_testing
