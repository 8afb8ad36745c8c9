#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A docker daemon that accepts and never answers (issue 26) costs one
# sample the sweep's short timeout (0.5 s), not every sample: a gobench
# program (starts-containers by default) run 4 rounds against such a
# daemon on $DOCKER_HOST has a gap of at least the timeout between its
# first and second samples only, says once that the samples' containers
# are looked for at the end of the run only, and the run completes.
# The run's start waits for it once (its version, 5 s), not a second
# time to count its containers: 3 connections in all (the version, the
# first sample's sweep, the end's).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3 python3

sock=$TEST_TMP/hung.sock
python3 - "$sock" "$TEST_TMP/accepted" <<'EOP' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(16)
held = []
while True:
    c, _ = s.accept()
    held.append(c)          # read nothing, answer nothing
    with open(sys.argv[2], "a") as f:
        f.write("accepted\n")
EOP
fake=$!
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cat > "$TEST_TMP/prog.sh" <<'EOP'
#!/bin/sh
echo "BenchmarkNothing-2 1 100 ns/op"
EOP
chmod +x "$TEST_TMP/prog.sh"
cat > "$TEST_TMP/g.ini" <<EOI
[experiment]
name = t0587
rounds = 4
[arm a]
[workload prog]
type = gobench
args = $TEST_TMP/prog.sh
EOI
DOCKER_HOST=unix://$sock "$ABBENCH" run "$TEST_TMP/g.ini" \
    --db "$TEST_TMP/t.db" > "$TEST_TMP/out" 2>&1
ok $? "the run completes"
kill $fake 2>/dev/null
wait $fake 2>/dev/null
is "$(sqlite3 "$TEST_TMP/t.db" "SELECT count(*) FROM samples WHERE status = 'ok'")" \
    4 "4 samples"
# Gaps between a sample's end and the next one's start, in ms.
gaps=$(sqlite3 "$TEST_TMP/t.db" "SELECT (b.start_wall_ns - a.end_wall_ns) / 1000000 FROM samples a JOIN samples b ON b.plan_idx = a.plan_idx + 1 ORDER BY a.plan_idx" | tr '\n' ' ')
diag "gaps after each sample (ms): $gaps"
set -- $gaps
ok "$([ "$1" -ge 450 ]; echo $?)" "the first sample's sweep waited for the daemon ($1 ms)"
ok "$([ "$2" -lt 450 ] && [ "$3" -lt 450 ]; echo $?)" \
    "the next samples did not ($2 ms, $3 ms)"
is "$(grep -c "looked for at the end of the run only" "$TEST_TMP/out")" 1 \
    "said once"
like "$(cat "$TEST_TMP/out")" "did not answer in time" "naming why"
is "$(wc -l < "$TEST_TMP/accepted" | tr -d ' ')" 3 \
    "the daemon was asked 3 times: its version, the first sweep, the end's"
done_testing
