#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A comparison that must show a difference: the burner (here 100 ms of
# wall-clock burning every 200 ms, so the quota bites hard) in a runc
# container with a leaf quota of 0.25 CPU gets throttled inside its bursts
# and does less work than with 1 CPU; `abbench stat --db` must call work/s
# significantly different.
#
# A window of 1 s (5 whole periods of the burner's pattern, so any
# window holds 500 ms of its bursts, as 2 s held 1000 ms) after a 0.5 s
# warm-up, on reports every 0.5 s (the window starts on one: 0.25 s of
# waiting for it on average, not 0.5 s): the quota bites from the
# container's start (docker --cpus), so a longer window or warm-up only
# repeats the same ratio. The rule decides at 8 rounds at the earliest
# (the U test first reaches 0.001 at 8+8): 16 samples, each about 2 s
# shorter. At load 6-9.5 on 2026-12-07 a 2 s window took 6.3 s a sample
# and stayed undecided at 12 rounds (p=0.242: the one CPU shared with
# the load), a 1 s window 3.5 s and decided twice (p=0.002, 0.014 at
# 12 rounds); with reports every 0.5 s, 2.7-3.5 s, decided at 8 and 10
# rounds (p=0.001, 0.000; the test took 42.7 s and 69.6 s). With cpu = 1
# in both arms (no quota to see) it fails (p=0.551 at 12 rounds).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runc
require_dockerd
any_image

DB=$TEST_TMP/c.db
cat >"$TEST_TMP/c.ini" <<EOF
[experiment]
name = t0730
stop = decided
max-rounds = 12
stat-filter = .unit:work/s
timeout = 2m

[arm quarter]
runtime = runc
cpu = 0.25

[arm one]
runtime = runc
cpu = 1

[workload Burn]
type      = cpu-steady
executor  = docker
image     = $IMAGE
program   = burner -b 100 -p 200
sandboxes = 1
quota     = leaf
warmup    = 0.5s
window    = 1s
report-every = 0.5s
perf      = no
EOF

"$ABBENCH" run "$TEST_TMP/c.ini" --db "$DB" --quiet >"$TEST_TMP/run.out" 2>&1
ok $? "abbench run: cpu=0.25 vs cpu=1 until decided" ||
    diag "$(cat "$TEST_TMP/run.out")"
"$ABBENCH" stat --db "$DB" t0730@last >"$TEST_TMP/stat" 2>&1 ||
	"$ABBENCH" stat --db "$DB" 1 >"$TEST_TMP/stat" 2>&1
ok $? "abbench stat --db"
# The work/s table's row: a delta in percent with p < 0.05, not "~".
row=$(awk '/work\/s/ { t = 1 } t && /^Burner\/vcpus=/ { print; exit }' \
    "$TEST_TMP/stat")
like "$row" '[-+][0-9.]+% \(p=0\.0[0-4][0-9]* n=[0-9+]+\)' \
    "work/s differs significantly between cpu=0.25 and cpu=1"
[ -n "$row" ] || diag "$(cat "$TEST_TMP/stat")"
diag "$row"
like "$("$ABBENCH" db show --db "$DB" t0730@last 2>&1)" \
    "Burner/vcpus=[^ ]* work/s one vs quarter: different after [0-9]+ good rounds" \
    "decided different by max-rounds 12"
like "$row" '[+][0-9.]+%' "cpu=1 does more work than the baseline cpu=0.25"
done_testing
