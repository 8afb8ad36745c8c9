#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A resumed run killed with SIGKILL keeps every sample it stored, also
# when other processes read its database meanwhile (found with issue #53's
# resume tests): `--resume` opens the database, then recovering dead runs
# opened it again with open(2)/close(2), and the close dropped SQLite's
# POSIX locks; the next reader's close took the file's exclusive lock and
# unlinked the -wal file the run still wrote to. Readers saw no sample
# of the resumed run, and its samples were lost with it at kill -9.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
plan 6

db=$TEST_TMP/r.db
cat > "$TEST_TMP/r.ini" <<EOF2
[experiment]
name = resume-readers
rounds = 100
[arm a]
args = sleep 0.1
[arm b]
args = sleep 0.1
[workload Sleep]
type = command
EOF2
count() {
	sqlite3 "$db" "SELECT count(DISTINCT plan_idx) FROM samples" 2>/dev/null || echo 0
}

n=$(kill_at_samples "$db" 3 "$ABBENCH" run "$TEST_TMP/r.ini" --db "$db" --quiet)
ok "$([ "$n" -ge 3 ] && [ "$n" -lt 200 ]; echo $?)" "the run was killed part way ($n samples)"

# The resumed run, with a reader opening and closing the database from
# its first moment on; killed once the reader saw 8 more samples, or
# after 5 s.
"$ABBENCH" run --resume last --db "$db" --json-progress \
    > "$TEST_TMP/progress" 2>/dev/null &
pid=$!
i=0
seen=$n
while [ "$seen" -lt $((n + 8)) ] && [ $i -lt 100 ]; do
	seen=$(count)
	sleep 0.05
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
stored=$(grep -c '^{' "$TEST_TMP/progress")
ok "$([ "$stored" -ge 8 ]; echo $?)" "the resumed run stored samples ($stored) before its kill"
ok "$([ "$seen" -ge $((n + 8)) ]; echo $?)" "a reader saw them while it ran (saw $seen of $n + $stored)"
# Those its log holds too (written, not committed yet: store-log.c).
after=$(stored_samples "$db")
ok "$([ "$after" -ge $((n + stored)) ]; echo $?)" \
    "none is lost with the killed run ($after stored of $n + $stored)"
# What the killed run left on the host (its cgroups, its scratch
# directory) is undone as after any kill -9, and nothing of it stays.
uuid=$(sqlite3 "$db" "SELECT uuid FROM runs")
short=$(printf '%s' "$uuid" | cut -c1-8)
"$ABBENCH" restore >"$TEST_TMP/restore.out" 2>&1
ok $? "abbench restore undoes what the killed run left" ||
    diag "$(cat "$TEST_TMP/restore.out")"
left=$(ls -d /tmp/abbench-"$uuid" /sys/fs/cgroup/*/abbench-"$short" \
    /sys/fs/cgroup/abbench-"$short" 2>/dev/null)
is "$left" "" "no cgroup or scratch directory of the run is left"
done_testing
