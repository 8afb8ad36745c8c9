#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Containers never outlive their runs (issue cases 5 and 6):
#  - a `startup` sample with timeout = 5s whose container hangs is stored
#    as `timeout`, cut 5 to 8 s after its start (the timeout, then the
#    docker CLI's 2 s to stop after SIGTERM: abbench gives up on the hung
#    `docker run` and removes the container), and the container is gone;
#  - a gobench program that starts a container labelled with the run and
#    hangs: no container is left after the sample, nor after kill -9 +
#    `abbench restore` (which says it removed it);
#  - the run's scratch files (container id files) live in the run's own
#    directory under $TMPDIR, and nothing is left there after kill -9 +
#    restore.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
lc_require
lc_image
DB=$TEST_TMP/t.db
export TMPDIR=$TEST_TMP/tmp
mkdir -p "$TMPDIR"

labelled() {
	docker ps -a -q --filter "label=abbench.run=$1" | wc -l | tr -d ' '
}

# startup, a hanging container, timeout 5s. One sample: max-failures = 1
# ends the run at it (without, its round would be made up).
cat > "$TEST_TMP/s.ini" <<EOI
[experiment]
name = t0550-startup
rounds = 1
max-failures = 1
[arm runc]
runtime = runc
[workload startup]
type = startup
image = $LC_IMAGE
cmd = sleep 1000
measure = run
timeout = 5s
EOI
# Where the sample is cut: abbench's first docker call after the hung
# `docker run` (the removal of its container begins: `inspect`, `rm -f`),
# logged by a wrapper ($ABBENCH_DOCKER) the moment abbench makes it: 5 s
# (SIGTERM to the CLI, which forwards it to a container that ignores it)
# + 2 s (SIGKILL, exec/spawn.c's grace) + abbench's reaction. The stored
# span ends after that removal, which takes dockerd (vfs) seconds more on
# a loaded host (past 8 s in all at load 14): cleanup, not the cut.
cat > "$TEST_TMP/docker" <<'EOW'
#!/bin/bash
LC_ALL=C
echo "$EPOCHREALTIME $1" >> "${0%/*}/docker.calls"
exec docker "$@"
EOW
chmod +x "$TEST_TMP/docker"
ABBENCH_DOCKER=$TEST_TMP/docker "$ABBENCH" run "$TEST_TMP/s.ini" --db "$DB" \
    --quiet > "$TEST_TMP/s.out" 2>&1
run=$(lc_last_run "$DB")
is "$(sqlite3 "$DB" "SELECT status FROM samples WHERE run_id = $run")" timeout \
    "the hanging startup sample is stored as timeout"
start=$(sqlite3 "$DB" "SELECT printf('%.3f', start_wall_ns / 1e9) FROM samples
    WHERE run_id = $run")
span=$(sqlite3 "$DB" "SELECT printf('%.1f', (end_wall_ns - start_wall_ns)
    / 1e9) FROM samples WHERE run_id = $run")
cut=$(awk -v s="$start" 'r { printf "%.1f", $1 - s; exit }
    $2 == "run" { r = 1 }' "$TEST_TMP/docker.calls")
diag "docker calls (s from the sample's start): $(awk -v s="$start" \
    '{ printf "%s %.1f, ", $2, $1 - s }' "$TEST_TMP/docker.calls")"
ok "$(awk -v t="${cut:-none}" 'BEGIN { exit !(t >= 5 && t <= 8) }'; echo $?)" \
    "cut at its 5 s timeout, within 8 s (after ${cut:-no cut} s; removed after $span s)"
uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run")
is "$(labelled "$uuid")" 0 "its container is gone"
is "$(ls -A "$TMPDIR")" "" "no scratch file left in \$TMPDIR"

# gobench: the program starts a labelled container and hangs.
cat > "$TEST_TMP/prog.sh" <<EOP
#!/bin/sh
echo \$\$ > $TEST_TMP/prog.pid
docker run -d --label abbench.run=\$1 $LC_IMAGE sleep 1000 >/dev/null
echo started >&2
exec sleep 1000
EOP
chmod +x "$TEST_TMP/prog.sh"
gobench_exp() {
	cat > "$TEST_TMP/g.ini" <<EOI
[experiment]
name = t0550-gobench
rounds = 1
max-failures = 1
[arm a]
[workload prog]
type = gobench
args = $TEST_TMP/prog.sh {run}
timeout = $1
EOI
}
gobench_exp 4s
"$ABBENCH" run "$TEST_TMP/g.ini" --db "$DB" --quiet > "$TEST_TMP/g.out" 2>&1
run=$(lc_last_run "$DB")
uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run")
is "$(sqlite3 "$DB" "SELECT status FROM samples WHERE run_id = $run")" timeout \
    "the hanging program's sample is stored as timeout"
is "$(labelled "$uuid")" 0 "no labelled container left after the sample"

# The same killed with SIGKILL while the container runs, then restore.
gobench_exp 60s
"$ABBENCH" run "$TEST_TMP/g.ini" --db "$DB" --quiet > "$TEST_TMP/g2.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 150 ]; do
	run=$(lc_last_run "$DB")
	uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run")
	[ "$(labelled "$uuid")" -ge 1 ] && break
	sleep 0.2
	i=$((i + 1))
done
is "$(labelled "$uuid")" 1 "the program started its labelled container"
kill -9 $pid
wait $pid 2>/dev/null
# The program abbench left (its own sleep, not any other "sleep 1000").
kill "$(cat "$TEST_TMP/prog.pid")" 2>/dev/null
(cd / && "$ABBENCH" restore) > "$TEST_TMP/r.out" 2>&1
ok $? "abbench restore exits 0"
like "$(cat "$TEST_TMP/r.out")" "removed container '[0-9a-f]+' \\(label abbench.run\\)" \
    "restore says it removed the labelled container"
is "$(labelled "$uuid")" 0 "no labelled container left after kill -9 + restore"
is "$(ls -A "$TMPDIR")" "" "no scratch directory left in \$TMPDIR"

# startup killed in the middle: its cid file and container go on restore.
cat > "$TEST_TMP/s2.ini" <<EOI
[experiment]
name = t0550-startup-kill
rounds = 1
[arm runc]
runtime = runc
[workload startup]
type = startup
image = $LC_IMAGE
cmd = sleep 1000
measure = run
timeout = 60s
EOI
"$ABBENCH" run "$TEST_TMP/s2.ini" --db "$DB" --quiet > "$TEST_TMP/s2.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 150 ]; do
	run=$(lc_last_run "$DB")
	uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run")
	[ "$(labelled "$uuid")" -ge 1 ] && break
	sleep 0.2
	i=$((i + 1))
done
ls "$TMPDIR"/abbench-"$uuid"/*.cid > /dev/null 2>&1
ok $? "the container id file is in the run's own directory"
kill -9 $pid
wait $pid 2>/dev/null
"$ABBENCH" restore > "$TEST_TMP/r2.out" 2>&1
ok $? "abbench restore exits 0"
is "$(labelled "$uuid")" 0 "no container left"
is "$(ls -A "$TMPDIR")" "" "no cid file or scratch directory left"
done_testing
