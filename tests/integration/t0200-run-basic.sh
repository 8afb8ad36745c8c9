#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The spine end to end on the local executor: an experiment file, samples
# interleaved AB BA AB BA, each stored in SQLite, the comparison printed;
# a failing and a hanging command recorded as failed samples while the
# run goes on; a bad experiment file rejected with file:line:key, exit 2.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

db=$TEST_TMP/t.db
exp=$TEST_TMP/ab.ini
cat > "$exp" <<EOF2
[experiment]
name = ab
rounds = 4

[arm fast]
args = true

[arm slow]
args = sleep 0.02

[workload Cmd]
type = command
EOF2

"$ABBENCH" run "$exp" --db "$db" --quiet
ok $? "a two-arm command experiment runs (exit 0)"
n=$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE status = 'ok' AND unit = 'sec/op'")
is "$n" 8 "4 rounds x 2 arms = 8 samples stored"
order=$(sqlite3 "$db" "SELECT arm FROM samples ORDER BY start_ns" | tr '\n' ' ')
is "$order" "fast slow slow fast fast slow slow fast " "samples are in AB BA AB BA order by start time"
bad=$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE end_ns <= start_ns OR end_wall_ns <= start_wall_ns OR value <= 0")
is "$bad" 0 "every sample has a start before its end and a positive time"
slow=$(sqlite3 "$db" "SELECT min(value) FROM samples WHERE arm = 'slow'")
ok "$(awk -v v="$slow" 'BEGIN { exit !(v >= 0.02 && v < 1) }'; echo $?)" "sleep 0.02 is timed at 20 ms or more ($slow s)"
out=$("$ABBENCH" stat --db "$db" last)
ok $? "abbench stat --db prints the run"
like "$out" "fast.*slow" "the table has a column per arm"
like "$out" "vs base" "the table has a vs base column"
like "$out" "\(p=0\.[0-9]{3} n=4\)" "the comparison has a p-value and n=4"
like "$out" "Cmd-[0-9]+ " "the row is the workload, with Go's -N suffix (vCPUs)"

# Failures and timeouts are samples too; the run goes on; exit 1.
cat > "$exp" <<EOF2
[experiment]
name = faults
rounds = 3
timeout = 500ms

[arm ok]
args = true

[arm fails]
args = sh -c "echo broken pipe dream >&2; exit 3"

[arm hangs]
args = sleep 30.4242

[workload Cmd]
type = command
EOF2
start=$(date +%s)
"$ABBENCH" run "$exp" --db "$db" --quiet 2>"$TEST_TMP/err"
rc=$?
end=$(date +%s)
is "$rc" 1 "a run with failed samples exits 1"
ok "$([ $((end - start)) -lt 20 ]; echo $?)" "hanging samples are killed at their timeout ($((end - start)) s)"
run=$(sqlite3 "$db" "SELECT id FROM runs WHERE name = 'faults'")
is "$(sqlite3 "$db" "SELECT status FROM runs WHERE id = $run")" done "the run completes"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE run_id = $run AND arm = 'ok' AND status = 'ok'")" 3 "the good arm has all its samples"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE run_id = $run AND arm = 'fails' AND status = 'failed'")" 3 "the failing arm has 3 failed samples"
# Every round failed: the workload is broken, not unlucky, and gets no
# make-up round (3 samples of each arm); the run says so.
like "$(cat "$TEST_TMP/err")" "workload 'Cmd': failed rounds could not be made up \(0 good rounds of rounds 3\)" "the run says its failures could not be made up"
err=$(sqlite3 "$db" "SELECT error FROM samples WHERE run_id = $run AND arm = 'fails' LIMIT 1")
like "$err" "exited 3" "a failed sample records its exit status"
like "$err" "broken pipe dream" "a failed sample records the end of stderr"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE run_id = $run AND arm = 'hangs' AND status = 'timeout'")" 3 "the hanging arm has 3 timed-out samples"
ok "$(pgrep -f "sleep 30.4242" >/dev/null; [ $? -ne 0 ]; echo $?)" "no hanging child is left"

# Bad experiment files: file:line:key, exit 2, nothing stored.
before=$(sqlite3 "$db" "SELECT count(*) FROM runs")
cat > "$exp" <<EOF2
[experiment]
name = bad
rounds = many

[arm a]
args = true

[workload Cmd]
type = command
EOF2
msg=$("$ABBENCH" run "$exp" --db "$db" 2>&1)
is "$?" 2 "a bad value exits 2"
like "$msg" "ab\.ini:3: rounds: " "the error names file, line and key"
printf '[experiment]\nname = x\n[arm a]\nargs = true\n[workload W]\ntype = command\nbogus = 1\n' > "$exp"
msg=$("$ABBENCH" run "$exp" --db "$db" 2>&1)
is "$?" 2 "an unknown key exits 2"
like "$msg" "ab\.ini:7: bogus: " "an unknown key is named with its line"
is "$(sqlite3 "$db" "SELECT count(*) FROM runs")" "$before" "rejected files store nothing"
done_testing
