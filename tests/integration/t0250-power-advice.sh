#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The advice of `abbench power` is true. A pilot A/A run of the burner
# (a fixed amount of compute, -n units, made noisy on purpose with -j so
# that the noise keeps its shape whatever else the machine runs) measures
# the noise (40 rounds: a good estimate); the injected effect E is chosen
# so that the advice stays small (about 24 rounds: 16 for the spread
# measured, scaled for its upper 95% bound). Then the burner at 1.00x
# against the units that make its CPU time 1+E x (its fixed cost per
# execution measured first): 40 runs at the rounds `power --effect E`
# advises for 80% power detect it
# (abbench stat: a significant slowdown of b) in 60-100% of runs, and 80
# runs at a quarter of those rounds clearly less often. The end of
# `abbench run` says when a `~` could not have shown the effect.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3
burner=$ABBENCH_BUILDDIR/payload/cpu/burner
[ -x "$burner" ] || skip_all "no burner program (make)"
db=$TEST_TMP/adv.db
# 30000 units: 3.3 ms of CPU (5.2 ms the pilot's median with the jitter
# and the fixed cost), not 7 ms (9.7): the test is some 3000 executions
# one after another (issue 57). The noise is the jitter's uniform 1-2x
# whatever the units; the pilot measures it, and the fixed cost (4100-
# 5200 units, 9% of the median, 6% at 60000) is measured and added to
# b. Four runs at load 6-11 on 2026-12-07 took 40-60 s (60000 units:
# 127.5 s) and found the effect in 32-36 of 40 runs at the advice and
# 19-25 of 80 at a quarter (60000: 37/40, 28/80; the header's figures
# below are 60000's), the runs' own change +20.0% and +22.3% for +21%
# and +22%; with no effect injected it fails (2/40, -0.5%).
units=30000

mk() {
	cat > "$TEST_TMP/$1.ini" <<EOF2
[experiment]
name = $1
rounds = 40
order = alternate

[arm a]
args = $burner -n $units -j 1
[arm b]
args = $burner -n $2 -j 1

[workload Burn]
type = command
; CPU time: on a shared machine the wall time of a fixed amount of work is
; mostly waiting for a CPU, and that waiting changes from minute to minute
report = cpu
EOF2
}

mk pilot "$units"
"$ABBENCH" run "$TEST_TMP/pilot.ini" --db "$db" --quiet
ok $? "pilot A/A run (40 rounds)"
pw=$("$ABBENCH" power --db "$db" pilot@last --no-calibration --at 16)
diag "$pw"
mde=$(printf '%s\n' "$pw" | awk '$1 ~ /^Burn(-[0-9]+)?$/ && $2 == "cpu-sec/op" { sub("%", "", $7); print $7 }')
# E: the MDE at 16 rounds, rounded up to a half percent, at least 1%.
eff=$(awk -v m="$mde" 'BEGIN { e = int(m * 2 + 0.999) / 2; if (e < 1) e = 1; print e }')
diag "pilot: MDE at 16+16 $mde%; injected effect E = $eff%"
case $mde in ''|*[!0-9.]*) fail "the pilot's MDE is a number ('$mde')"; done_testing ;; esac
pw=$("$ABBENCH" power --db "$db" pilot@last --no-calibration --effect "$eff")
rounds=$(printf '%s\n' "$pw" | awk '$1 ~ /^Burn(-[0-9]+)?$/ && $2 == "cpu-sec/op" { print $NF }')
diag "advised rounds for $eff%: $rounds"
case $rounds in ''|*[!0-9]*) fail "power advises a number of rounds ('$rounds')"; done_testing ;; esac
# 16 rounds for the spread measured, about 1.23^2 x 16 = 24 for its upper
# 95% bound.
[ "$rounds" -ge 12 ] && [ "$rounds" -le 40 ]
ok $? "the advice for the pilot's own MDE is near 24 rounds ($rounds)"

# The effect in cpu-sec/op, not in units: each execution also costs a
# fixed CPU time (exec, the dynamic loader, exit: 0.7 ms here, against
# 10.5 ms for the median 90000 units when the test ran 60000), which
# more units do not scale, so
# units x (1+E) shows as only 0.94 E and the advice was checked against
# a smaller effect than it was asked for (a part of why detection was
# 0.86 on average in ten suite runs, where a simulation of the burner's
# noise alone gives 0.91). That cost, in units, from the medians of -n 1
# and -n $units
# without jitter; the b arm then gets
# units x (1+E) + E x cost / 1.5 (1.5: the jitter's median factor).
cat > "$TEST_TMP/cost.ini" <<EOF2
[experiment]
name = cost
rounds = 15
order = alternate

[arm one]
args = $burner -n 1
[arm full]
args = $burner -n $units

[workload Burn]
type = command
report = cpu
EOF2
"$ABBENCH" run "$TEST_TMP/cost.ini" --db "$db" --quiet
ok $? "the burner's fixed cost: -n 1 against -n $units (15 rounds)"
median_of() {	# median_of ARM: the cost run's median cpu-sec/op of ARM
	sqlite3 "$db" "SELECT value FROM samples WHERE run_id = (SELECT
	    max(id) FROM runs WHERE name = 'cost') AND arm = '$1' AND
	    status = 'ok' ORDER BY value" | awk '{ v[NR] = $1 } END {
	    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
m1=$(median_of one)
mfull=$(median_of full)
cost=$(awk -v a="$m1" -v b="$mfull" -v u="$units" 'BEGIN {
    if (b > a && a > 0) printf "%d", u * a / (b - a) + 0.5; else print -1 }')
diag "fixed cost of an execution: $m1 s of CPU, against $mfull s for $units units: $cost units"
ok "$([ "$cost" -ge 0 ] && [ "$cost" -lt "$units" ]; echo $?)" "  a cost below the work of -n $units ($cost units)"
bunits=$(awk -v u="$units" -v e="$eff" -v c="$cost" 'BEGIN {
    printf "%d", u * (1 + e / 100) + e / 100 * c / 1.5 + 0.5 }')
mk effect "$bunits"

# Detection rate of N runs at R rounds (rate R N): abbench stat's row is
# a significant slowdown of b (not "~").
rate() {
	hits=0
	i=0
	while [ $i -lt "$2" ]; do
		"$ABBENCH" run "$TEST_TMP/effect.ini" --db "$db" --rounds "$1" \
		    --quiet || return 1
		row=$("$ABBENCH" stat --db "$db" effect@last | grep -E '^Burn(-[0-9]+)? ')
		echo "$1 rounds: $row" >> "$TEST_TMP/rows"
		case $row in *'~'*) ;; *' +'*'% (p='*) hits=$((hits + 1)) ;; esac
		i=$((i + 1))
	done
	echo "$hits"
}

# How many runs: enough that the two checks below fail by chance less
# than once in a thousand runs of this test while the effect runs see the
# pilot's noise. At the advised rounds (23-25) the power seen is mostly
# 0.85-0.98 (17/20, 36/40, 39/40; 72/80 for +21% at 25 rounds on a quiet
# machine); at 6 rounds the same
# shift has sqrt(6/23) of the signal, a power of about 0.33 (7/20 seen).
# With 20 runs of each and "at least 25 points less", as before, the test
# failed by chance 1.3-2.2% of the time at those powers (binomial,
# computed for a power of 0.95 down to 0.75 at the advised rounds; 5% at a
# pairing of 0.85 and 0.40); with 40 and 80 runs and 20 points, 0.001% to
# 0.06% (0.1% at 0.85 and 0.40). A run at a quarter costs a quarter.
# What remains is the pilot's own error, which the advice's 95% bound
# covers only 95% of the time: in 400 simulated pilots of 40 values of
# the burner's noise (uniform, 1 to 2 x), the advice for the pilot's MDE
# at 16 rounds gave a true power below 0.8 for 9 and below 0.75 for 2;
# with 40 runs each, a run of this test sees fewer than 30 hits 1.5% of
# the time and fewer than 24 (a failure) 0.03%. (In one suite run the
# pilot read 18.3%, below 98% of the simulated pilots: E 18.5%, true
# power about 0.77, 28/40.) tests/unit/t-power checks that simulation
# (test_jitter_pilots: 200 pilots).
nfull=40
nquarter=80
full=$(rate "$rounds" $nfull)
ok $? "$nfull runs at $rounds rounds"
quarter_r=$(( (rounds + 2) / 4 ))
[ "$quarter_r" -ge 2 ] || quarter_r=2
quarter=$(rate "$quarter_r" $nquarter)
ok $? "$nquarter runs at $quarter_r rounds"
diag "detection of +$eff% (burner $units vs $bunits units, jitter 1): $full/$nfull at $rounds rounds (advised), $quarter/$nquarter at $quarter_r rounds (a quarter)"
# The effect the runs had is the one the advice was asked about: the
# means of all their samples, b over a (about 1400 samples an arm; the
# jitter's uniform noise makes the mean the steadier estimate: a standard
# error under 1 point, where the medians' is about 1.3).
arm_mean() {
	sqlite3 "$db" "SELECT avg(value) FROM samples WHERE run_id IN (SELECT
	    id FROM runs WHERE name = 'effect') AND arm = '$1' AND
	    status = 'ok'"
}
real=$(awk -v a="$(arm_mean a)" -v b="$(arm_mean b)" 'BEGIN {
    printf "%.1f", (a > 0 ? (b / a - 1) * 100 : -100) }')
ok "$(awk -v r="$real" -v e="$eff" 'BEGIN { exit !(r >= e - 3 && r <= e + 3) }'; echo $?)" \
    "the effect runs' own change is the injected one: +$real% for +$eff% (within 3 points)"
# The advice aims at 80% power for the upper 95% bound of the pilot's
# spread (power.h: spread_conf), so that noise a little above the pilot's
# does not take the power below it. At a true power of 0.8, 40 runs fall
# below 24 hits (60%) 0.1% of the time.
[ "$(( ${full:-0} * 10 ))" -ge "$(( nfull * 6 ))" ]
ok $? "at the advised rounds the effect is found in 60-100% of runs ($full/$nfull)"
# A quarter of the rounds has well under half the power: at least 20
# points less (quarter/80 <= full/40 - 0.2).
quarter_ok() {
	[ "$(( ${quarter:-$nquarter} * nfull * 5 ))" -le "$(( ${full:-0} * nquarter * 5 - nfull * nquarter ))" ]
}
quarter_ok
ok $? "at a quarter of the rounds clearly less often ($quarter/$nquarter vs $full/$nfull)"

# The pilot's row; and each run's row when a check above failed or the
# advised rounds found the effect in under 75% of runs (the advice aims
# at 80%): was the noise of the effect runs the pilot's (the advice's
# premise)?
diag "pilot: $("$ABBENCH" stat --db "$db" 1 | grep -E '^Burn(-[0-9]+)? '); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$(( ${full:-0} * 100 ))" -lt "$(( nfull * 75 ))" ] || ! quarter_ok; then
	while read -r l; do diag "$l"; done < "$TEST_TMP/rows"
fi
# The end of a run: a `~` that could not have shown the effect says so,
# and a significant row (an A/A run is, 5% of the time) rightly says
# nothing. One run, and the check that fits what its table shows: no retry
# until a `~` comes.
out=$("$ABBENCH" run "$TEST_TMP/pilot.ini" --db "$db" --rounds 6 \
    --effect 0.1 2>&1 >/dev/null)
is "$?" 0 "an A/A run of 6 rounds"
diag "$(printf '%s\n' "$out" | tail -n 2)"
row=$("$ABBENCH" stat --db "$db" pilot@last | grep -E '^Burn(-[0-9]+)? ')
case $row in
*'~'*)
	# Said one of two ways, by the run's tails (run-advice.c,
	# heavy_tails): the MAD when it is the spread, the 10th and 90th
	# percentiles when outliers make the interval.
	like "$out" "^~ Burn(-[0-9]+)? cpu-sec/op: (too noisy to show 0\.1% at n=6\+6 \(MAD/median [0-9.]+% in this run, MDE [0-9.]+% at alpha 0\.05\)|cannot show 0\.1% at n=6\+6: half the values lie within [0-9.]+% of the median \(MAD/median, in this run\), but the 10th and 90th percentiles are -[0-9.]+% and \+[0-9.]+% from it: outliers widen the interval to an MDE of [0-9.]+% at alpha 0\.05); ([0-9]+ rounds would|not even [0-9]+ rounds would)" \
	    "run --effect 0.1: its \`~\` says which rounds would show it" ;;
*)
	diag "this A/A run came out significant: $row"
	is "$(printf '%s\n' "$out" | grep -c '^~ ')" 0 \
	    "run --effect 0.1: a significant row says nothing" ;;
esac
out=$("$ABBENCH" run "$TEST_TMP/pilot.ini" --db "$db" --rounds 6 \
    --effect 900 2>&1 >/dev/null)
is "$(printf '%s\n' "$out" | grep -c '^~ ')" 0 \
    "run --effect 900: the noise could show it: silent"
done_testing
