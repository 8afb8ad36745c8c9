#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The exit status of a resumed run is over all its samples (issue #53,
# finding 9): a run whose first sample failed, killed with SIGKILL and
# completed by `--resume` with no failure of its own, exits 1 like the
# same run uninterrupted (it exited 0 while saying "1 failed").
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
plan 6

# The program fails the first time it runs (per marker file), then sleeps.
cat > "$TEST_TMP/prog.sh" <<EOF2
#!/bin/sh
[ -e "\$1" ] || { : > "\$1"; echo "first call fails" >&2; exit 3; }
sleep 0.2
EOF2
chmod +x "$TEST_TMP/prog.sh"
exp() {
	cat > "$TEST_TMP/r.ini" <<EOF2
[experiment]
name = resume-status
rounds = 4
order = alternate
[arm a]
args = $TEST_TMP/prog.sh $1
[arm b]
args = $TEST_TMP/prog.sh $1
[workload Prog]
type = command
EOF2
}

# Uninterrupted: exit 1.
exp "$TEST_TMP/m1"
"$ABBENCH" run "$TEST_TMP/r.ini" --db "$TEST_TMP/full.db" --quiet
is "$?" 1 "the uninterrupted run with a failed sample exits 1"

db=$TEST_TMP/r.db
exp "$TEST_TMP/m2"
n=$(kill_at_samples "$db" 3 "$ABBENCH" run "$TEST_TMP/r.ini" --db "$db" --quiet)
ok "$([ "$n" -ge 3 ] && [ "$n" -lt 8 ]; echo $?)" "the run was killed part way ($n samples)"
is "$(sqlite3 "$db" "SELECT count(DISTINCT plan_idx) FROM samples WHERE status != 'ok'")" 1 \
    "its first sample failed before the kill"
"$ABBENCH" run --resume last --db "$db" > "$TEST_TMP/resume.out" 2>&1
rc=$?
is "$(sqlite3 "$db" "SELECT status FROM runs")" done "the resumed run is done"
file_like "$TEST_TMP/resume.out" " 1 failed;" "its closing line counts the failure from before the kill" ||
    sed 's/^/# /' "$TEST_TMP/resume.out"
is "$rc" 1 "the resumed run exits 1, as the uninterrupted one"
done_testing
