#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Containers never outlive their runs (issue cases 5 and 6):
#  - a `startup` sample with timeout = 5s whose container hangs is stored
#    as `timeout`, the sample 5 to 8 s long, and its container is gone;
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

# startup, a hanging container, timeout 5s.
cat > "$TEST_TMP/s.ini" <<EOI
[experiment]
name = t0550-startup
rounds = 1
[arm runc]
runtime = runc
[workload startup]
type = startup
image = $LC_IMAGE
cmd = sleep 1000
measure = run
timeout = 5s
EOI
"$ABBENCH" run "$TEST_TMP/s.ini" --db "$DB" --quiet > "$TEST_TMP/s.out" 2>&1
run=$(lc_last_run "$DB")
is "$(sqlite3 "$DB" "SELECT status FROM samples WHERE run_id = $run")" timeout \
    "the hanging startup sample is stored as timeout"
# The sample's own span, from its start to its end as stored: the run's
# checks before it and the removal of the container after it (seconds of
# docker calls on a loaded host) are not the sample's timeout.
took=$(sqlite3 "$DB" "SELECT printf('%.1f', (end_wall_ns - start_wall_ns)
    / 1e9) FROM samples WHERE run_id = $run")
ok "$(awk -v t="$took" 'BEGIN { exit !(t >= 5 && t <= 8) }'; echo $?)" \
    "cut at its 5 s timeout, within 8 s (took $took s)"
uuid=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = $run")
is "$(labelled "$uuid")" 0 "its container is gone"
is "$(ls -A "$TMPDIR")" "" "no scratch file left in \$TMPDIR"

# gobench: the program starts a labelled container and hangs.
cat > "$TEST_TMP/prog.sh" <<EOP
#!/bin/sh
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
pkill -f "^sleep 1000$" 2>/dev/null
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
