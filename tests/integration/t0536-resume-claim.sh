#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run is claimed once (issue #53, finding 2): two `run --resume` of one
# run started 0, 5, 20 and 50 ms apart, 20 times each, each with a state
# directory of its own (as two users', or two shells' ABBENCH_STATE_DIR),
# then 20 times at 0 ms sharing one. The run changes no host setting, so
# no host lock stands between them, and with two state directories no
# run lock either: the database's claim (one write transaction that
# checks and sets the owner) must. Each
# time exactly one resumes it (exit 0), the other is refused (exit 2)
# naming the owner or the run's state, and the run holds its plan once:
# no plan entry stored twice, the same samples as an uninterrupted run.
# A sample sleeps 10 ms (it slept 20: the 100 resumes' samples were most
# of the test's time). The claim, made unconditional, still fails the
# same checks at 0, 5 and 20 ms as with 20 ms samples; at 5 ms a sample
# the 20 ms pairs no longer caught it.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd sqlite3

cat > "$TEST_TMP/e.ini" <<'EOT'
[experiment]
name = claim
rounds = 8
[arm a]
args = sleep 0.01
[arm b]
args = sleep 0.01
[workload w]
type = command
EOT
total=16
n=$(kill_at_samples "$TEST_TMP/t.db" 2 "$ABBENCH" run --quiet --db "$TEST_TMP/t.db" "$TEST_TMP/e.ini")
ok "$([ "$n" -ge 2 ] && [ "$n" -lt $total ]; echo $?)" "the run was killed part way ($n of $total)"
"$ABBENCH" restore > /dev/null 2>&1
is "$(sqlite3 "$TEST_TMP/t.db" "SELECT status FROM runs")" interrupted "and is interrupted"
rows0=$(sqlite3 "$TEST_TMP/t.db" "SELECT count(*) FROM samples")
per=$((rows0 / n))

bad=0
# pairs DELAY SAME: 20 pairs of resumes DELAY seconds apart; SAME = 1:
# one state directory for both, else one each.
pairs() {
	delay=$1
	if [ "$2" = 1 ]; then
		sa=$ABBENCH_STATE_DIR sb=$ABBENCH_STATE_DIR what="${delay}s apart, one state directory"
	else
		sa=$TEST_TMP/sa sb=$TEST_TMP/sb what="${delay}s apart"
	fi
	both=0 none=0 dup=0 short=0 quiet=0
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		cp "$TEST_TMP/t.db" "$TEST_TMP/r.db"
		ABBENCH_STATE_DIR=$sa "$ABBENCH" run --quiet --resume 1 \
		    --db "$TEST_TMP/r.db" > "$TEST_TMP/a.out" 2>&1 &
		a=$!
		[ "$delay" = 0 ] || sleep "$delay"
		ABBENCH_STATE_DIR=$sb "$ABBENCH" run --quiet --resume 1 \
		    --db "$TEST_TMP/r.db" > "$TEST_TMP/b.out" 2>&1 &
		b=$!
		wait $a
		ra=$?
		wait $b
		rb=$?
		# Exactly one ran; the other was refused, and said why.
		if [ $ra -eq 0 ] && [ $rb -eq 0 ]; then
			both=$((both + 1))
		elif ! { [ $ra -eq 0 ] && [ $rb -eq 2 ]; } &&
		    ! { [ $ra -eq 2 ] && [ $rb -eq 0 ]; }; then
			none=$((none + 1))
			diag "$what #$i: exits $ra and $rb: $(cat "$TEST_TMP/a.out" "$TEST_TMP/b.out")"
		else
			[ $ra -eq 2 ] && loser=$TEST_TMP/a.out || loser=$TEST_TMP/b.out
			grep -Eq "already resumed by pid [0-9]+|is running \\(pid [0-9]+\\)|is already done" "$loser" ||
			    { quiet=$((quiet + 1)); diag "$what #$i: loser said: $(cat "$loser")"; }
		fi
		# The plan once.
		d=$(sqlite3 "$TEST_TMP/r.db" "SELECT count(*) FROM (SELECT plan_idx, benchmark, unit FROM samples GROUP BY 1, 2, 3 HAVING count(*) > 1)")
		[ "$d" -eq 0 ] || dup=$((dup + 1))
		[ "$(sqlite3 "$TEST_TMP/r.db" "SELECT count(*) FROM samples")" -eq $((total * per)) ] &&
		    [ "$(sqlite3 "$TEST_TMP/r.db" "SELECT status FROM runs")" = done ] ||
		    short=$((short + 1))
	done
	is "$both" 0 "$what: never both resumed (20 tries)" || bad=1
	is "$none" 0 "$what: always one resumed, the other exits 2" || bad=1
	is "$quiet" 0 "$what: the refused one names the owner or the state" || bad=1
	is "$dup" 0 "$what: no plan entry stored twice" || bad=1
	is "$short" 0 "$what: the run is done with $((total * per)) rows" || bad=1
}
for delay in 0 0.005 0.02 0.05; do
	pairs $delay 0
done
pairs 0 1
done_testing
