#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench nightly against synthetic histories written through the store API
# by tests/helpers/mkhistory: 40 nights, 5 samples a night, 1% noise, a
# step in one benchmark at night 20, decoy runs (other host, failed run,
# other experiment) that must be ignored.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

MK=$ABBENCH_BUILDDIR/tests/helpers/mkhistory
[ -x "$MK" ] || skip_all "tests/helpers/mkhistory is not built (make check)"

night() {
	# The night of the latest change point named on a verdict line.
	printf '%s\n' "$1" | sed -n 's/.*change at night \([0-9]*\).*/\1/p'
}

# 1. A 5% regression (sec/op up) from night 20.
"$MK" -x Startup:5:20 "$TEST_TMP/step.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/step.db" --no-run last 2>"$TEST_TMP/err")
rc=$?
is "$rc" 1 "a regression exits 1"
line=$(printf '%s\n' "$out" | grep 'Startup/runtime=runc')
like "$line" '^regressed +Startup/runtime=runc +sec/op ' \
    "the stepped benchmark is named regressed"
n=$(night "$line")
ok "$([ -n "$n" ] && [ "$n" -ge 19 ] && [ "$n" -le 21 ]; echo $?)" \
    "the step is found at night 20 +- 1 (got '$n')"
like "$line" 'change at night [0-9]+ \(run [0-9]+\): \+[45]\.[0-9]+%' \
    "the step size is reported (about +5%)"
is "$(printf '%s\n' "$out" | grep -c '^regressed')" 1 \
    "only that benchmark regressed"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 3 "one line per benchmark"
like "$(cat "$TEST_TMP/err")" '40 nights of history' \
    "decoy runs (other host, failed, other experiment) are not history"

# The same as JSON.
json=$("$ABBENCH" nightly --db "$TEST_TMP/step.db" --no-run last --json -q)
is "$?" 1 "--json: exits 1 too"
if command -v python3 >/dev/null 2>&1; then
	got=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = [x for x in d["rows"] if x["verdict"] == "regressed"]
c = r[0]["changes"][-1]
print(d["regressed"], r[0]["benchmark"], r[0]["better"], c["night"],
    round(c["step"], 2), len(d["baseline"]), len(d["history"]))')
	is "$got" "1 Startup/runtime=runc lower 20 0.05 5 40" \
	    "--json: counts, benchmark, direction, night, step, runs"
else
	like "$json" '"verdict": "regressed"' "--json: a regressed row"
fi

# 2. The same history without the step.
"$MK" "$TEST_TMP/flat.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/flat.db" --no-run last 2>/dev/null)
is "$?" 0 "no step: exits 0"
is "$(printf '%s\n' "$out" | grep -c '^regressed')" 0 "no step: nothing regressed"
is "$(printf '%s\n' "$out" | grep -c '^unchanged')" 3 "no step: all unchanged"

# 3. An improvement: iops up 5% from night 20 (better=higher).
"$MK" -x Fio:5:20 "$TEST_TMP/up.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/up.db" --no-run last 2>/dev/null)
is "$?" 0 "an improvement exits 0"
line=$(printf '%s\n' "$out" | grep 'Fio/bs=4k')
like "$line" '^improved +Fio/bs=4k +iops ' "the improved benchmark is named"
n=$(night "$line")
ok "$([ -n "$n" ] && [ "$n" -ge 19 ] && [ "$n" -le 21 ]; echo $?)" \
    "improvement found at night 20 +- 1 (got '$n')"

# 4. A step only in tonight's run: the U test against the baseline sees it.
"$MK" -x Memory:6:39 "$TEST_TMP/tonight.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/tonight.db" --no-run last 2>/dev/null)
is "$?" 1 "a step tonight exits 1"
like "$(printf '%s\n' "$out" | grep Memory)" \
    '^regressed +Memory +B +\+[56]\.[0-9]+% vs baseline \(p=0\.000' \
    "the U test against the baseline names it"
# ... and a threshold above the step lets it pass.
"$ABBENCH" nightly --db "$TEST_TMP/tonight.db" --no-run last \
    --threshold 10 -q >/dev/null
is "$?" 0 "--threshold 10: a 6% step does not count"

# 5. Several arms: each arm against its own history.
"$MK" -a A -a B -x Startup:5:20 "$TEST_TMP/arms.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/arms.db" --no-run last 2>/dev/null)
is "$?" 1 "two arms: exits 1"
is "$(printf '%s\n' "$out" | grep -Ec '^regressed +[AB]:Startup/runtime=runc')" 2 \
    "two arms: both arms' rows named, both regressed"

# 6. Errors and the first night.
# (9 digits: no id here and no uuid's prefix, whose first group has 8.)
"$ABBENCH" nightly --db "$TEST_TMP/flat.db" --no-run 999999999 -q >/dev/null 2>&1
is "$?" 2 "an unknown run exits 2"
"$ABBENCH" nightly --db "$TEST_TMP/flat.db" -q >/dev/null 2>&1
is "$?" 2 "no experiment and no --no-run exits 2"
"$ABBENCH" nightly --db "$TEST_TMP/flat.db" --threshold x --no-run last \
    >/dev/null 2>&1
is "$?" 2 "a bad threshold exits 2"
"$MK" -n 1 "$TEST_TMP/one.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/one.db" --no-run last 2>/dev/null)
is "$?" 0 "the first night exits 0"
is "$(printf '%s\n' "$out" | grep -c '^inconclusive')" 3 \
    "the first night is inconclusive"

done_testing
