#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench calibrate --until decided: each A/A comparison is one run of the
# rule of `run --until decided` (replayed on a block of max-rounds rounds),
# reported per benchmark as equivalent / undecided / false positives and
# the mean rounds. Fixed-value gobench workloads make the outcome exact and
# must agree with what `run --until decided` decides on the same workloads;
# independent draws under alternate keep its false positives within alpha.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

db=$TEST_TMP/cal.db
cat > "$TEST_TMP/go.ini" <<EOF2
[experiment]
name = go
rounds = 6

[arm a]
[arm b]

[workload Same]
type = gobench
args = sh -c "echo BenchmarkSame 1 1234 ns/op"

[workload Arm]
type = gobench
args = sh -c "case {arm} in a) echo BenchmarkArm 1 100 ns/op;; *) echo BenchmarkArm 1 200 ns/op;; esac"
EOF2

# What the rule decides in a real run: Same equivalent at the first look
# (4: one value, 1234, whose digits say a step of 1 ns, 0.1%, fine enough
# for +-2%; a bare 100 or 1000 could be rounded to hundreds or thousands
# and would be too coarse to tell, see stats/ranktests.h),
# Arm different at 8 (p = 0.0022 at 6+6 is above 0.001).
out=$("$ABBENCH" run "$TEST_TMP/go.ini" --db "$TEST_TMP/run.db" \
    --until decided --max-rounds 16 2>&1)
ok $? "run --until decided of the fixed-value workloads"
like "$out" "Same sec/op b vs a: equivalent after 4 good rounds" "run: Same equivalent at 4"
like "$out" "Arm sec/op b vs a: different after 8 good rounds" "run: Arm different at 8"

# The A/A version: Arm prints a value per arm name, so even its copy
# (arms a, a.2) differs: every comparison a false positive, at 8 rounds,
# DRIFT? and exit 1. Same is equivalent at 4 every time.
out=$("$ABBENCH" calibrate "$TEST_TMP/go.ini" --db "$db" --until decided \
    --max-rounds 16 --repeats 10 --quiet 2>&1)
is "$?" 1 "calibrate --until decided: a workload that differs by arm name exits 1"
diag "$out"
like "$out" "^calibration run [0-9]+ of 'go' on host class '[^']+': 10 repeats of stop = decided \(max-rounds 16, looks 4 6 8 10 12 16, effect 2%, alpha 0.05\), order alternate, arms all 'a'" \
    "the header says the rule, its looks and max-rounds"
like "$out" "^Same +sec/op +320 .* +10 +0 +4\.0  0/10 = 0\.000$" \
    "Same: 10 of 10 equivalent, at 4 rounds (as run decided), no false positive"
like "$out" "^Arm +sec/op +320 .* +0 +0 +8\.0  10/10 = 1\.000  DRIFT\?" \
    "Arm: 10 of 10 decided different, at 8 rounds (as run decided), DRIFT?"
like "$out" "^all: 10 of 20 A/A comparisons decided different by the rule at alpha 0\.05: 0\.500 .*; 10 equivalent, 0 undecided at max-rounds; mean rounds 6\.0 of 16" \
    "the summary line: false positives, equivalent, undecided, mean rounds"
ls=$("$ABBENCH" db ls --db "$db")
like "$ls" "go\.calibration .* done +a,a\.2 +640 " \
    "the A/A run is fixed at repeats x max-rounds (10 x 16 x 2 arms x 2 workloads)"

# stop = decided in the file means the same without the flag.
sed 's/^rounds = 6$/stop = decided\nmax-rounds = 12/' "$TEST_TMP/go.ini" > "$TEST_TMP/go2.ini"
out=$("$ABBENCH" calibrate "$TEST_TMP/go2.ini" --db "$db" --repeats 3 --quiet 2>&1)
like "$out" "3 repeats of stop = decided \(max-rounds 12," "stop = decided in the file: the rule"
# ... and --until rounds overrides it: the fixed U test per block.
out=$("$ABBENCH" calibrate "$TEST_TMP/go2.ini" --db "$db" --repeats 3 \
    --until rounds --rounds 6 --quiet 2>&1)
like "$out" "3 repeats of 6 rounds" "--until rounds: fixed blocks of rounds"

# Noise with a known law, arms alternating: every A/A sample is an
# independent draw (awk's rand, seeded by the round and the arm's copy),
# so the false positives are those of the rule itself on these 100
# comparisons, the same on every machine, loaded or not (a timed
# /bin/true here measured the machine's load as much as the rule, and
# 0.05 + two standard errors is passed by chance ~2.5% of the time even
# then). They must be within alpha's binomial bound: 0.094 at 100.
draw_program "$TEST_TMP/rnd.sh" 17
cat > "$TEST_TMP/aa.ini" <<EOF2
[experiment]
name = aa
order = alternate

[arm base]
[arm other]

[workload Draw]
type = gobench
args = $TEST_TMP/rnd.sh {round} {arm}
EOF2
out=$("$ABBENCH" calibrate "$TEST_TMP/aa.ini" --db "$db" --until decided \
    --max-rounds 10 --repeats 100 --quiet)
ok $? "calibrate --until decided of the drawn values: exit 0"
diag "$out"
set -- $(printf '%s\n' "$out" | sed -n 's/^all: \([0-9]*\) of \([0-9]*\) .*mean rounds \([0-9.]*\) of 10$/\1 \2 \3/p')
flagged=${1:-999} total=${2:-0} mean=${3:-99}
[ "$total" -eq 100 ]
ok $? "100 comparisons ($total)"
awk -v f="$flagged" -v t="$total" 'BEGIN { exit !(t > 0 && f / t <= 0.094) }'
ok $? "false positives $flagged/$total <= 0.094"
awk -v m="$mean" 'BEGIN { exit !(m >= 4 && m <= 10) }'
ok $? "mean rounds $mean between the first look (4) and max-rounds (10)"

# Usage errors.
"$ABBENCH" calibrate "$TEST_TMP/aa.ini" --db "$db" --until decided --alpha 0.1 2>/dev/null
is "$?" 2 "--alpha with --until decided is refused (the rule's alpha is run's)"
"$ABBENCH" calibrate "$TEST_TMP/aa.ini" --db "$db" --until decided --order sequential 2>/dev/null
is "$?" 2 "--until decided with order sequential is refused"
"$ABBENCH" calibrate "$TEST_TMP/aa.ini" --db "$db" --until maybe 2>/dev/null
is "$?" 2 "--until maybe is a usage error"
"$ABBENCH" calibrate "$TEST_TMP/aa.ini" --db "$db" --until decided --max-rounds 1 2>/dev/null
is "$?" 2 "--max-rounds 1 is a usage error"
done_testing
