#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A sample that ends past its timeout because abbench could not hold it
# to it is not stored ok (issue #53, finding 5: abbench SIGSTOPped for
# 30 s with timeout = 3s stored a 30.4 s sample, status ok, no warning).
# Here abbench is stopped for 2 s in the middle of a 0.3 s sample whose
# timeout is 1s: the sample is stored as timeout without its value, the
# run warns about it and exits 1; the other samples are ok.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
plan 6

# The program marks its first call (the moment to stop abbench).
cat > "$TEST_TMP/prog.sh" <<'EOS'
#!/bin/sh
[ -e "$1" ] || : > "$1"
sleep 0.3
EOS
chmod +x "$TEST_TMP/prog.sh"
cat > "$TEST_TMP/e.ini" <<EOI
[experiment]
name = t0552
rounds = 2
timeout = 1s
[arm a]
[workload prog]
type = command
args = $TEST_TMP/prog.sh $TEST_TMP/started
EOI
DB=$TEST_TMP/db
"$ABBENCH" run "$TEST_TMP/e.ini" --db "$DB" > "$TEST_TMP/out" 2>&1 &
pid=$!
i=0
while [ ! -e "$TEST_TMP/started" ] && [ $i -lt 600 ]; do
	sleep 0.01
	i=$((i + 1))
done
kill -STOP $pid
sleep 2
kill -CONT $pid
wait $pid
rc=$?
q() {
	sqlite3 "$DB" "$1"
}
is "$(q "SELECT status FROM samples WHERE plan_idx = 0")" timeout \
    "the sample abbench was stopped in is stored as timeout" ||
    q "SELECT plan_idx, status, value, error FROM samples" | sed 's/^/# /'
like "$(q "SELECT error FROM samples WHERE plan_idx = 0")" \
    "^the sample took [0-9.]+s, past its timeout of 1s: abbench was stopped or the host suspended" \
    "  and says why"
is "$(q "SELECT count(*) FROM samples WHERE status = 'ok' AND value > 1")" 0 \
    "no ok value of a second or more (the stopped span is not a value)"
is "$(q "SELECT count(*) FROM samples WHERE status = 'ok' AND unit = 'sec/op'")" 2 \
    "the other samples are ok (the failed round made up)"
file_like "$TEST_TMP/out" "warning: round 1, arm 'a', workload 'prog': the sample took" \
    "the run warns about it" || sed 's/^/# /' "$TEST_TMP/out"
is "$rc" 1 "and exits 1, as with any failed sample"
done_testing
