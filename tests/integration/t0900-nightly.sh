#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench nightly against synthetic histories written through the store API
# by tests/helpers/mkhistory: 40 nights (or 21), 5 samples a night, 1%
# noise, a step in one benchmark at night 21 (index 20), decoy runs (other
# host, failed run, other experiment) that must be ignored. The step is
# new on its night (exit 1) and known later (exit 0).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

MK=$ABBENCH_BUILDDIR/tests/helpers/mkhistory
[ -x "$MK" ] || skip_all "tests/helpers/mkhistory is not built (make check)"

night() {
	# The night of the latest change named on a verdict line.
	printf '%s\n' "$1" | sed -n 's/.*change at night \([0-9]*\).*/\1/p'
}

# 1. A 5% regression (sec/op up) from night index 20 (night 21), judged
# on that night: 21 nights of history.
"$MK" -n 21 -x Startup:5:20 "$TEST_TMP/step.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/step.db" --no-run last 2>"$TEST_TMP/err")
rc=$?
is "$rc" 1 "a regression exits 1"
line=$(printf '%s\n' "$out" | grep 'Startup/runtime=runc')
like "$line" '^regressed +Startup/runtime=runc +sec/op +new change at night 21 \(run [0-9]+\): \+[45]\.[0-9]+% vs [0-9]+ nights, night test z=\+[0-9.]+ beyond [0-9.]+$' \
    "the stepped benchmark: regressed, a new change at night 21 (about +5%), the test and its numbers"
is "$(printf '%s\n' "$out" | grep -c '^regressed')" 1 \
    "only that benchmark regressed"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 3 "one line per benchmark"
like "$(cat "$TEST_TMP/err")" '21 nights of history' \
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
print(d["regressed"], r[0]["benchmark"], r[0]["better"], r[0]["new_change"],
    c["night"], c["found"], c["test"], abs(c["step"] - 0.05) < 0.015,
    len(d["history"]))')
	is "$got" "1 Startup/runtime=runc lower True 21 21 night test True 21" \
	    "--json: counts, benchmark, direction, new, night, found, test, step, nights"
else
	like "$json" '"verdict": "regressed"' "--json: a regressed row"
fi

# 1b. The same step 19 nights later: known, it fails nothing.
"$MK" -x Startup:5:20 "$TEST_TMP/old.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/old.db" --no-run last 2>"$TEST_TMP/err")
is "$?" 0 "an old step exits 0"
line=$(printf '%s\n' "$out" | grep 'Startup/runtime=runc')
like "$line" '^(unchanged|inconclusive \(too noisy[^)]*\)) +Startup/runtime=runc +sec/op .* vs [0-9]+ nights, night test z=[-+][0-9.]+ within [0-9.]+; known change at night [0-9]+ \(run [0-9]+\): \+[45]\.[0-9]+% ' \
    "the old step is known, with its size"
n=$(night "$line")
ok "$([ -n "$n" ] && [ "$n" -ge 20 ] && [ "$n" -le 22 ]; echo $?)" \
    "the step is known at night 21 +- 1 (got '$n')"
like "$(cat "$TEST_TMP/err")" '40 nights of history' "40 nights of history"

# 2. The same history without the step.
"$MK" "$TEST_TMP/flat.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/flat.db" --no-run last 2>/dev/null)
is "$?" 0 "no step: exits 0"
is "$(printf '%s\n' "$out" | grep -Ec '^(regressed|improved)')" 0 \
    "no step: nothing regressed or improved"

# 3. An improvement: iops up 5% from night 21 (better=higher).
"$MK" -n 21 -x Fio:5:20 "$TEST_TMP/up.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/up.db" --no-run last 2>/dev/null)
is "$?" 0 "an improvement exits 0"
line=$(printf '%s\n' "$out" | grep 'Fio/bs=4k')
like "$line" '^improved +Fio/bs=4k +iops +new change at night 21 ' \
    "the improved benchmark is named, at night 21"

# 4. A step only in tonight's run (night 40).
"$MK" -x Memory:6:39 "$TEST_TMP/tonight.db" >/dev/null
out=$("$ABBENCH" nightly --db "$TEST_TMP/tonight.db" --no-run last 2>/dev/null)
is "$?" 1 "a step tonight exits 1"
like "$(printf '%s\n' "$out" | grep Memory)" \
    '^regressed +Memory +B +new change at night 40 \(run [0-9]+\): \+[56]\.[0-9]+% ' \
    "the night test names it"
# ... and a threshold above the step lets it pass.
"$ABBENCH" nightly --db "$TEST_TMP/tonight.db" --no-run last \
    --threshold 10 -q >/dev/null
is "$?" 0 "--threshold 10: a 6% step does not count"

# 5. Several arms: each arm against its own history.
"$MK" -n 21 -a A -a B -x Startup:5:20 "$TEST_TMP/arms.db" >/dev/null
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

# The history page shows values as every other output does (newcomer's
# friction 13: its axes read 0.2677 where the tables read 267.7m), and
# says when no change point was found instead of an empty table.
"$ABBENCH" history --db "$TEST_TMP/old.db" last -o "$TEST_TMP/h.html" \
    > /dev/null 2>&1
is "$?" 0 "history of the stepped nights"
file_like "$TEST_TMP/h.html" 'class="ax" text-anchor="end">[0-9.]+m<' \
    "its axes in benchstat's scale (m of sec/op)"
grep -q 'class="ax" text-anchor="end">0\.[0-9]' "$TEST_TMP/h.html"
ok $((! $?)) "no axis value written unscaled (0.25...)"
file_like "$TEST_TMP/h.html" '<td>sec/op</td><td>2[0-2]</td><td>[^<]*</td><td>[0-9]+</td><td>[0-9.]+m</td><td>[0-9.]+m</td><td>\+[45]\.[0-9]+%</td>' \
    "the change point's row: night 21 +- 1, before and after in benchstat's scale"
"$MK" -n 21 "$TEST_TMP/flat.db" > /dev/null
"$ABBENCH" history --db "$TEST_TMP/flat.db" last -o "$TEST_TMP/f.html" \
    > /dev/null 2>&1
is "$?" 0 "history of flat nights"
file_like "$TEST_TMP/f.html" '<td colspan="11">none: no series' "no change point: said, not an empty table"

done_testing
