#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Calibration is stored and used: `nightly --threshold auto` takes each
# benchmark's threshold from the latest calibration of the experiment on
# this host class. A benchmark made noisy on purpose after the calibration
# cannot show its threshold any more: it is `inconclusive (too noisy: MDE
# x%)`, never unchanged, and --strict exits 3; a quiet one (bytes
# allocated per op, as a Go benchmark prints them: the same every time,
# whatever the machine's load) stays unchanged.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

db=$TEST_TMP/n.db
noisy=$TEST_TMP/noisy
cat > "$TEST_TMP/nq.ini" <<EOF2
[experiment]
name = nq
rounds = 6

[arm before]
[arm after]

[workload Quiet]
type = gobench
args = echo BenchmarkQuiet 1 64 B/op

[workload Noisy]
type = gobench
; 1000 ns/op, or while \$noisy exists a value between 500 and 5000 that
; changes from round to round (the same in every run, so that nothing
; regresses by chance)
args = sh -c "if [ -e $noisy ]; then echo BenchmarkNoisy 1 \$(( ({round} * 7919 + 13) % 4500 + 500 )) ns/op; else echo BenchmarkNoisy 1 1000 ns/op; fi"
EOF2

out=$("$ABBENCH" calibrate "$TEST_TMP/nq.ini" --db "$db" --repeats 5 --quiet)
ok $? "calibrate the quiet experiment"
diag "$out"
like "$out" "^Noisy +sec/op +60 " "the calibration has the Noisy row (60 executions)"

touch "$noisy"
i=0
while [ $i -lt 3 ]; do
	"$ABBENCH" run "$TEST_TMP/nq.ini" --db "$db" --quiet || fail "night $i"
	i=$((i + 1))
done
pass "three noisy nights of history"

out=$("$ABBENCH" nightly "$TEST_TMP/nq.ini" --db "$db" --threshold auto \
    --quiet)
is "$?" 0 "--threshold auto without --strict: nothing regressed, exit 0"
diag "$out"
like "$out" "^inconclusive \(too noisy: MDE [0-9.]+%\) +after:Noisy +sec/op +MDE [0-9.]+% at 3 nights > threshold <?[0-9.]+% \(calibrated\)" \
    "the noisy benchmark: inconclusive (too noisy), threshold from the calibration"
like "$out" "^unchanged +before:Quiet +B/op " "a quiet benchmark stays unchanged"
[ "$(printf '%s\n' "$out" | grep -c '^unchanged .*Noisy')" -eq 0 ]
ok $? "the noisy benchmark is never unchanged"

"$ABBENCH" nightly --no-run nq@last --db "$db" --threshold auto --strict \
    --quiet >/dev/null
is "$?" 3 "--strict: nothing regressed but something inconclusive: exit 3"
js=$("$ABBENCH" nightly --no-run nq@last --db "$db" --threshold auto --json \
    --quiet)
like "$js" '"calibration": [0-9]+' "--json names the calibration run"
like "$js" '"threshold_calibrated": true' "--json: thresholds from it"
like "$js" '"too_noisy": true' "--json: too_noisy"

# Without auto: 2% for every benchmark, still too noisy for Noisy.
out=$("$ABBENCH" nightly --no-run nq@last --db "$db" --quiet)
like "$out" "inconclusive \(too noisy: MDE [0-9.]+%\) .*Noisy .*> threshold 2%;" \
    "the default threshold: 2%, too noisy too"
# No calibration for another experiment: a warning, 2%.
sed 's/^name = nq$/name = other/' "$TEST_TMP/nq.ini" > "$TEST_TMP/other.ini"
err=$("$ABBENCH" nightly "$TEST_TMP/other.ini" --db "$db" --threshold auto \
    2>&1 >/dev/null)
like "$err" "no calibration of 'other' on this host class" \
    "--threshold auto without a calibration warns"
done_testing
