#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 12: the progress counters jumped. Under
# --until decided the total fell as workloads stopped ("24/124 ... 36/36"):
# it is now said as the bound it is ("28 of at most 124"); a resumed run
# numbered its samples from 1 again; order sequential's round went back to
# 1 with nothing saying the next arm began. Sample numbers only rise, a
# total is a count or "at most".
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
cd "$TEST_TMP" || exit 1
# The sample numbers of the round lines ("done: N/M" or "N of at most M").
nums() { sed -n 's/.*round .* done: \([0-9]*\)[ /].*/\1/p' "$1"; }
rising() { awk 'NR > 1 && $1 <= p { bad = 1 } { p = $1 } END { exit bad }'; }

cat >d.ini <<EOI
[experiment]
name = t0447
rounds = 6
[arm a]
args = true
[arm b]
args = sleep 0.02
[workload w]
type = command
EOI
"$ABBENCH" run d.ini --until decided --db d.db >out 2>err
is "$?" 0 "a run --until decided"
file_like err "^round 1/30 done: 2 of at most 60 samples, " \
    "under --until decided the total is a bound, said so"
nums err | rising
ok $? "the sample numbers only rise ($(nums err | tr '\n' ' '))"
bounds=$(sed -n 's/.* of at most \([0-9]*\) samples.*/\1/p' err)
echo "$bounds" | awk 'NR > 1 && $1 > p { bad = 1 } { p = $1 } END { exit bad }'
ok $? "the bound never rises"

# Order sequential: each arm's rounds in turn, the arm named.
sed 's/rounds = 6/rounds = 3\norder = sequential/' d.ini >s.ini
"$ABBENCH" run s.ini --db s.db >out 2>err
file_like err "^arm a: round 3/3 done: 3/6 samples" "sequential: arm a's last round"
file_like err "^arm b: round 1/3 done: 4/6 samples" \
    "  then arm b's first, named: no round going back unexplained"

# A resumed run's samples keep their numbers.
cat >r.ini <<EOI
[experiment]
name = t0447-resume
rounds = 6
[arm a]
args = sleep 0.1
[arm b]
args = sleep 0.1
[workload w]
type = command
EOI
n1=$(kill_at_samples r.db 4 "$ABBENCH" run r.ini --db r.db --quiet)
ok "$([ "$n1" -ge 4 ] && [ "$n1" -lt 12 ]; echo $?)" "killed part way ($n1 of 12)"
"$ABBENCH" run --resume last --db r.db >out 2>err
ok $? "resumed"
first=$(nums err | head -1)
ok "$([ "$first" -gt "$n1" ]; echo $?)" \
    "the first round line after the resume counts the stored samples ($first > $n1)"
file_like err "done: 12/12 samples" "the last says 12/12"
done_testing
