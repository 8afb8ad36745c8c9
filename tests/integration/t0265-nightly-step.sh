#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The 15-night scenario of issue #55, replayed: a small experiment run by
# `abbench nightly` every night, a deliberate 2x step at night 6, a noisy
# night (a loaded machine: half of its rounds 40% faster, spread wide) at
# night 12. The judgement must raise one alarm, on night 6 (exit 1, a new
# change, the test that found it and its numbers), none after it (the
# change known, exit 0), none on the noisy night. Then --baseline-from
# and --ack start a new reference, and --json names the change.
#
# The values are a fixed function of the night and the round (a gobench
# program reading the night from a file), so the test never flakes: they
# are the machine's noise written down, not measured.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd awk

db=$TEST_TMP/n.db
cat > "$TEST_TMP/bench.sh" <<'EOF2'
# bench.sh ROUND: one line of gobench output for this night and round.
n=$(cat "$1")
awk -v n="$n" -v r="$2" 'BEGIN {
	# Night-to-night variation (+-0.45%), round-to-round noise (+-2%).
	v = 1000 * (1 + ((n * 37) % 7 - 3) * 0.0015)
	v *= 1 + ((r * 13 + n * 5) % 9 - 4) * 0.005
	if (n >= 6)
		v *= 2
	if (n == 12 && r % 2 == 1)
		v *= 0.6 * (1 + ((r * 7) % 5) * 0.05)
	printf "BenchmarkStep 1 %.1f ns/op\n", v
}'
EOF2
cat > "$TEST_TMP/step.ini" <<EOF2
[experiment]
name = step
rounds = 8

[arm main]

[workload Step]
type = gobench
args = sh $TEST_TMP/bench.sh $TEST_TMP/night {round}
EOF2

alarms=""
empty=""
night=1
while [ "$night" -le 15 ]; do
	echo "$night" > "$TEST_TMP/night"
	# A 3% threshold: a 2% one is above what 8 rounds of +-2% can show
	# against a week of nights (inconclusive, too noisy, every night).
	out=$("$ABBENCH" nightly "$TEST_TMP/step.ini" --db "$db" --quiet \
	    --threshold 3 2>"$TEST_TMP/err")
	rc=$?
	printf '%s\n' "$out" > "$TEST_TMP/night-$night.out"
	diag "night $night (exit $rc): $out"
	[ "$rc" -eq 2 ] && diag "$(cat "$TEST_TMP/err")"
	[ "$rc" -ne 0 ] && alarms="$alarms $night"
	[ -n "$out" ] || empty="$empty $night"
	night=$((night + 1))
done
is "$empty" "" "every night has a verdict line"
is "$alarms" " 6" "one alarm in 15 nights, on night 6, the step's"

n6=$(cat "$TEST_TMP/night-6.out")
like "$n6" '^regressed +Step +sec/op +new change at night 6 \(run [0-9]+\): \+(9[0-9]|10[0-9])\.[0-9]+% vs 5 nights, night test z=\+[0-9.]+ beyond [0-9.]+$' \
    "night 6: regressed, a new change at night 6 (about +100%), the night test and its numbers"
n12=$(cat "$TEST_TMP/night-12.out")
like "$n12" '^(unchanged|inconclusive[^ ]*( [^ ]*)*) +Step +sec/op +.*-[0-9.]+% vs [0-9]+ nights, night test z=-[0-9.]+ within [0-9.]+; known change at night 6 ' \
    "night 12, the noisy night: no alarm, its z within the limit, the change known"
like "$(cat "$TEST_TMP/night-15.out")" '^unchanged +Step +sec/op +[-+][0-9.]+% vs 8 nights, night test z=[-+][0-9.]+ within [0-9.]+; known change at night 6 \(run [0-9]+\): \+(9[0-9]|10[0-9])\.[0-9]+% vs 5 nights, night test ' \
    "night 15: unchanged against the 8 nights since the change (the noisy one left out), which is known with its night, size and test"
like "$(cat "$TEST_TMP/night-7.out")" '^inconclusive \(too noisy: MDE [0-9.]+%\) +Step +sec/op +MDE [0-9.]+% at 1 night > threshold 3%; [-+][0-9.]+% vs 1 night, night test z=[-+][0-9.]+ within [0-9.]+; known change at night 6 ' \
    "night 7: judged against night 6 alone (the spread of the nights before), no alarm"
like "$(cat "$TEST_TMP/night-2.out")" '^inconclusive +Step +sec/op +1 night to compare with since night 1, 3 needed$' \
    "night 2: too few nights, counted from 1"

# Judging night 6 again gives the same answer: the judgement is
# deterministic, and later nights do not change what night 6 saw.
run6=$(printf '%s\n' "$n6" | sed -n 's/.*change at night 6 (run \([0-9]*\)).*/\1/p')
again=$("$ABBENCH" nightly --no-run "$run6" --db "$db" --quiet \
    --threshold 3)
is "$?" 1 "night 6 judged again: exit 1"
is "$again" "$n6" "night 6 judged again: the same line"

# --json: the change, its night (from 1), the night that found it, test.
js=$("$ABBENCH" nightly --no-run last --db "$db" --json --quiet --threshold 3)
is "$?" 0 "--json of night 15: exit 0"
if command -v python3 >/dev/null 2>&1; then
	got=$(printf '%s' "$js" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["rows"][0]
c = r["changes"][-1]
print(r["verdict"], r["new_change"], len(r["changes"]), c["night"],
    c["found"], c["test"], round(c["step"], 1), r["reference_from"],
    r["reference_nights"])')
	is "$got" "unchanged False 1 6 6 night test 1.0 6 8" \
	    "--json: one change, night 6, found on night 6 by the night test, +100%; the reference from night 6, 8 nights"
fi

# --baseline-from 10: this time only, the reference starts at night 10
# (nights 10 to 14, the noisy night 12 left out: 4 nights).
out=$("$ABBENCH" nightly --no-run last --db "$db" --baseline-from 10 --quiet)
like "$out" '^[a-z]+.* vs 4 nights, night test .*; new reference from night 10 \(run [0-9]+\), accepted$' \
    "--baseline-from 10: judged against nights 10 to 14 but the noisy one"
out=$("$ABBENCH" nightly --no-run last --db "$db" --quiet)
like "$out" 'vs 8 nights' "--baseline-from is not stored"
# --ack 13: stored with the run of night 13, for good.
"$ABBENCH" nightly --no-run last --db "$db" --ack 13 >/dev/null \
    2>"$TEST_TMP/ack13.err"
is "$?" 0 "--ack 13: exit 0"
like "$(cat "$TEST_TMP/ack13.err")" '^nightly: night 13 \(run [0-9]+\) accepted: a new reference starts there$' \
    "--ack says which run it marked"
out=$("$ABBENCH" nightly --no-run last --db "$db" --quiet)
like "$out" '^[a-z]+.* vs 2 nights, night test z=[-+][0-9.]+ within [0-9.]+; new reference from night 13 \(run [0-9]+\), accepted$' \
    "after --ack 13 every later judgement starts at night 13"
"$ABBENCH" nightly --no-run last --db "$db" --ack 99 --quiet 2>"$TEST_TMP/ack.err"
is "$?" 2 "--ack of a night not in the history: exit 2"
like "$(cat "$TEST_TMP/ack.err")" "no night 99 in the history of run [0-9]+ \(nights 1 to 15\)" \
    "... saying which nights there are"
# The mark is metadata, not a config line: the export does not split.
run13=$(sed -n 's/^nightly: night 13 (run \([0-9]*\)).*/\1/p' "$TEST_TMP/ack13.err")
"$ABBENCH" db export --db "$db" "$run13" > "$TEST_TMP/r13.txt"
ok $? "export the run of night 13"
like "$(cat "$TEST_TMP/r13.txt")" '^BenchmarkStep' "... its samples"
[ "$(grep -c 'nightly' "$TEST_TMP/r13.txt")" -eq 0 ]
ok $? "the export of the acked run has no nightly.ack line"
done_testing
