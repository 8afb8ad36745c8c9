#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run resumed by another abbench version says so and records it (issue
# #53, finding 12): the run's row still names the version that started it;
# each resume adds the metadata resume.N (version, commit, when: db show,
# never an exported config line), and a version other than the starter's
# is warned about on the terminal and with the run's warnings.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
plan 12

ver=$("$ABBENCH" --version | sed -n '1s/^abbench \([^ ]*\) .*/\1/p')
db=$TEST_TMP/r.db
cat > "$TEST_TMP/r.ini" <<EOF2
[experiment]
name = resume-version
rounds = 6
[arm a]
args = sleep 0.1
[arm b]
args = sleep 0.1
[workload Sleep]
type = command
EOF2

# Started by "another version" (the row says 0.0.1-old), killed, resumed.
n=$(kill_at_samples "$db" 3 "$ABBENCH" run "$TEST_TMP/r.ini" --db "$db" --quiet)
ok "$([ "$n" -ge 3 ] && [ "$n" -lt 12 ]; echo $?)" "the run was killed part way ($n samples)"
sqlite3 "$db" "UPDATE runs SET abbench_version = '0.0.1-old'"
n2=$(kill_at_samples "$db" $((n + 2)) "$ABBENCH" run --resume last --db "$db")
is "$(sqlite3 "$db" "SELECT status FROM runs")" running \
    "the first resume was killed part way too ($n2 samples)"
"$ABBENCH" run --resume last --db "$db" > "$TEST_TMP/resume.out" 2>&1
ok $? "the second resume completes the run"
file_like "$TEST_TMP/resume.out" "warning: run 1 was started by abbench 0\\.0\\.1-old and is resumed by abbench $ver: its samples come from both \\(metadata resume\\.2\\)" \
    "the resume by another version warns" || sed 's/^/# /' "$TEST_TMP/resume.out"
is "$(sqlite3 "$db" "SELECT abbench_version FROM runs")" 0.0.1-old \
    "the run's row keeps the version that started it"
is "$(sqlite3 "$db" "SELECT group_concat(key, ' ') FROM (SELECT key FROM run_config WHERE key LIKE 'resume.%' ORDER BY key)")" \
    "resume.1 resume.2" "each resume is recorded"
like "$(sqlite3 "$db" "SELECT value FROM run_config WHERE key = 'resume.2'")" \
    "^abbench $ver \\(.+\\) at 20[0-9-]+T[0-9:]+Z$" "with the version, commit and time of the abbench that resumed"
is "$(sqlite3 "$db" "SELECT count(*) FROM warnings WHERE text LIKE '%started by abbench 0.0.1-old and is resumed by abbench $ver%'")" 2 \
    "both resumes are among the run's warnings"
"$ABBENCH" db show 1 --db "$db" > "$TEST_TMP/show.out" 2>&1
file_like "$TEST_TMP/show.out" "^  resume\\.2: abbench $ver " "db show lists the resume"
sed -n '/^metadata:/,/^$/p' "$TEST_TMP/show.out" | grep -q "resume\\.1:"
ok $? "  as metadata, not config" || sed 's/^/# /' "$TEST_TMP/show.out"
"$ABBENCH" db export 1 --db "$db" > "$TEST_TMP/export.txt" 2>&1
! grep -q "resume" "$TEST_TMP/export.txt"
ok $? "the export has no resume config line (it would split benchstat's tables)"

# Resumed by the version that started it: recorded, no warning.
db2=$TEST_TMP/s.db
n=$(kill_at_samples "$db2" 3 "$ABBENCH" run "$TEST_TMP/r.ini" --db "$db2" --quiet)
"$ABBENCH" run --resume last --db "$db2" > "$TEST_TMP/same.out" 2>&1
is "$(grep -c "resumed by" "$TEST_TMP/same.out")/$(sqlite3 "$db2" "SELECT count(*) FROM run_config WHERE key = 'resume.1'")" \
    0/1 "a resume by the same version is recorded without a warning"
done_testing
