#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run's -wal file removed while it runs, then kill -9 (issue #53): the
# samples were in the WAL only (the main file held 4 KB) and all of them
# were lost without a word. abbench notices after the next sample that
# the -wal at the path is not the one it writes, checkpoints what it
# holds into the main file, says so and exits 1; the run is stored as
# failed.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

db=$TEST_TMP/w.db
exp=$TEST_TMP/w.ini
# Long enough (5000 rounds of 10 ms a sample) that only the -wal's
# removal ends it.
cat > "$exp" <<EOF2
[experiment]
name = walgone
rounds = 5000

[workload Cmd]
type = command
args = sleep 0.01

[arm a]

[arm b]
EOF2
"$ABBENCH" run "$exp" --db "$db" --quiet >/dev/null 2>"$TEST_TMP/err" &
pid=$!
i=0
while [ "$(sqlite3 "$db" 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)" -lt 20 ] &&
    [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
before=$(sqlite3 "$db" 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
main=$(stat -c %s "$db")
diag "$before samples stored, main file $main bytes, -wal $(stat -c %s "$db-wal" 2>/dev/null) bytes"
[ "$before" -ge 20 ] && [ -s "$db-wal" ]
ok $? "the run stored 20 samples and has a -wal file" || {
	kill -9 $pid 2>/dev/null
	wait $pid
	done_testing
	exit 1
}
# No reader from here on: one would make a new, empty -wal beside the
# removed one.
rm -f "$db-wal"
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 40 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -0 $pid 2>/dev/null
running=$?
# As in the audit: what still runs is killed (before SQLite checkpoints
# on its own, every ~1000 pages: about 140 samples here).
kill -9 $pid 2>/dev/null
wait $pid
rc=$?
is "$running" 1 "the run stopped by itself within 2 s of the -wal's removal"
is "$rc" 1 "it exits 1"
file_like "$TEST_TMP/err" "w\.db-wal' was removed while writing to '.*w\.db'.*written into .*stopping" \
    "it says the -wal was removed, what it kept and that it stops"
after=$(sqlite3 "$db" 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
diag "$after samples in the database after the run"
[ "$after" -ge "$before" ]
ok $? "the samples stored before the removal are in the database ($after >= $before)"
is "$(sqlite3 "$db" 'SELECT status FROM runs' 2>/dev/null)" failed \
    "the run is stored as failed"
is "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>/dev/null)" ok \
    "the database is intact"
done_testing
