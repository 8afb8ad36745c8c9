#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One answer to "how many rounds" (#54): for one row of one run, the
# verdict line of `--until decided`, the advice at the end of the run,
# `abbench power` and both tables of the report print the same MDE, at
# the same alpha, and the first three the same rounds for the effect.
# They are one computation (stats/power.h: power_advise) on one input
# (harness/core/pdata.h: pdata_noise_of, one value per execution); here
# a gobench program prints each value three times a run (as
# -test.count=3), so that values per line and per execution differ, and
# its row stays undecided at max-rounds (fixed values: the same run
# every time).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

prog=$ABBENCH_SRCDIR/tests/data/seq/noisy-bench.sh
db=$TEST_TMP/r.db
cat > "$TEST_TMP/r.ini" <<EOF2
[experiment]
name = onerounds
stop = decided
max-rounds = 12

[arm a]

[arm b]

[workload Noisy]
type = gobench
args = $prog {arm} {round}
EOF2
"$ABBENCH" run "$TEST_TMP/r.ini" --db "$db" >/dev/null 2>"$TEST_TMP/err"
is "$?" 0 "a run of --until decided (12 rounds at most)"
verdict=$(grep 'Noisy sec/op b vs a:' "$TEST_TMP/err")
diag "verdict: $verdict"
like "$verdict" "undecided after 12 good rounds" \
    "the row is undecided at max-rounds"
advice=$(grep '^~ Noisy sec/op:' "$TEST_TMP/err")
diag "advice: $advice"
power=$("$ABBENCH" power --db "$db" onerounds@last | grep '^Noisy ')
diag "power: $power"
"$ABBENCH" report --db "$db" onerounds@last -o "$TEST_TMP/r.md" \
    >/dev/null 2>&1
is "$?" 0 "a markdown report of the run"

# MDE, alpha and rounds of each.
v_mde=$(printf '%s\n' "$verdict" | sed -n 's/.*; MDE \([0-9.]*\)%.*/\1/p')
v_alpha=$(printf '%s\n' "$verdict" | sed -n 's/.*; MDE [^;]*alpha \([0-9.]*\).*/\1/p')
v_rounds=$(printf '%s\n' "$verdict" | sed -n 's/.*max-rounds \([0-9]*\) would.*/\1/p')
a_mde=$(printf '%s\n' "$advice" | sed -n 's/.* MDE \([0-9.]*\)%.*/\1/p')
a_alpha=$(printf '%s\n' "$advice" | sed -n 's/.* MDE [^)]*alpha \([0-9.]*\).*/\1/p')
a_rounds=$(printf '%s\n' "$advice" | sed -n 's/.*; \([0-9]*\) rounds would$/\1/p')
p_mde=$(printf '%s\n' "$power" | awk '$2 == "sec/op" { sub("%", "", $7); print $7 }')
p_rounds=$(printf '%s\n' "$power" | awk '$2 == "sec/op" { print $8 }')
p_alpha=$("$ABBENCH" power --db "$db" onerounds@last | sed -n 's/^test: .*alpha \([0-9.]*\),.*/\1/p')
# The corrected p-values' table: benchmark unit arm baseline median delta
# MDE ...; the decisions': ... n MDE.
r_mde=$(awk -F'|' '$2 ~ /^ Noisy $/ && $4 ~ /^ b $/ && $5 !~ /decided/ {
    gsub(/[ %]/, "", $8); print $8 }' "$TEST_TMP/r.md")
d_mde=$(awk -F'|' '$2 ~ /^ Noisy $/ && $5 ~ /undecided/ {
    gsub(/[ %]/, "", $13); print $13 }' "$TEST_TMP/r.md")
r_alpha=$(sed -n 's/^MDE: .* at alpha \([0-9.]*\),.*/\1/p' "$TEST_TMP/r.md")
diag "MDE: verdict '$v_mde', advice '$a_mde', power '$p_mde', report '$r_mde', decisions '$d_mde'"
diag "rounds: verdict '$v_rounds', advice '$a_rounds', power '$p_rounds'"
diag "alpha: verdict '$v_alpha', advice '$a_alpha', power '$p_alpha', report '$r_alpha'"

case $v_mde in ''|*[!0-9.]*) fail "the verdict line has an MDE ('$v_mde')" ;;
*) pass "the verdict line has an MDE ($v_mde%)" ;; esac
case $v_rounds in ''|*[!0-9]*) fail "the verdict line advises rounds ('$v_rounds')" ;;
*) pass "the verdict line advises rounds ($v_rounds)" ;; esac
is "$a_mde" "$v_mde" "the end of the run: the verdict's MDE"
is "$p_mde" "$v_mde" "abbench power: the verdict's MDE"
is "$r_mde" "$v_mde" "the report's corrected p-values: the verdict's MDE"
is "$d_mde" "$v_mde" "the report's decisions: the verdict's MDE"
is "$a_rounds" "$v_rounds" "the end of the run: the verdict's rounds"
is "$p_rounds" "$v_rounds" "abbench power: the verdict's rounds"
is "$v_alpha" 0.05 "the verdict line names the run's alpha"
is "$a_alpha" "$v_alpha" "the end of the run: the same alpha"
is "$p_alpha" "$v_alpha" "abbench power: the same alpha"
is "$r_alpha" "$v_alpha" "the report: the same alpha"
done_testing
