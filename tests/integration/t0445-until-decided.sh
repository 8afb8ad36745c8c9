#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run --until decided (stop = decided): rows decided by the group-
# sequential rule of stats/sequential leave the plan (different after 8
# good rounds for a 50% effect, equivalent after 4 for a flat one) while
# the others go on in the same interleaving; a failed sample earns its
# workload a make-up round; failures that cannot be made up are said;
# the verdicts agree with abbench stat's `~` / percentage; order
# sequential and bad looks are refused with file:line:key; and a run
# killed with SIGKILL at a random moment and resumed reaches the same
# decisions as an uninterrupted run (programs printing fixed values);
# a change below `effect` that the fixed design finds is not stopped as
# equivalent (equivalence = projected) unless the experiment says margin;
# times written to the ns but far apart have a step of 1 ns (issue 54).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

prog=$ABBENCH_SRCDIR/tests/data/seq/fixed-bench.sh
db=$TEST_TMP/d.db
mk() {	# mk FILE MAX-ROUNDS KIND...
	f=$1 m=$2
	shift 2
	printf '[experiment]\nname = decided\nstop = decided\nmax-rounds = %s\n\n[arm a]\n\n[arm b]\n' "$m" > "$f"
	for k in "$@"; do
		printf '\n[workload %s]\ntype = gobench\nargs = %s {arm} {round} %s\n' "$k" "$prog" "$k" >> "$f"
	done
}

mk "$TEST_TMP/d.ini" 16 flat big failat near
"$ABBENCH" run "$TEST_TMP/d.ini" --db "$db" 2>"$TEST_TMP/err"
rc=$?
is "$rc" 1 "a run with a failed sample exits 1"
cat "$TEST_TMP/err" | sed 's/^/# /'
rounds() { sqlite3 "$db" "SELECT count(DISTINCT round) FROM samples WHERE workload = '$1'"; }
like "$(cat "$TEST_TMP/err")" "verdicts \(stop = decided: effect 2%, max-rounds 16\):" "the design is printed"
like "$(cat "$TEST_TMP/err")" "  \| different: p <= 0.001 at looks 4 6 8 10 12, p <= 0.045 at 16 \(" "its final p: 0.05 - 5 x 0.001"
# A line a part of the design (newcomer's friction 15: one line of ~600
# characters), none of them longer than 200.
is "$(sed -n '/^verdicts (stop/,/^  [^|]/p' "$TEST_TMP/err" | grep -c '^  | \(different\|equivalent\|undecided\|contract\): ')" 4 "the design: a line each for different, equivalent, undecided and the contract"
is "$(sed -n '/^verdicts (stop/,/^  [^|]/p' "$TEST_TMP/err" | awk 'length($0) > 200' | wc -l)" 0 "no line of the design over 200 characters"
like "$(cat "$TEST_TMP/err")" "Flat sec/op b vs a: equivalent after 4 good rounds" "flat within 1%: equivalent after 4 good rounds (the first look)"
like "$(cat "$TEST_TMP/err")" "Big sec/op b vs a: different after 8 good rounds" "+50%: different after 8 good rounds (p <= 0.001 is out of reach at 4+4 and 6+6)"
# Each decided row says the interval it was decided on: the flat one's
# (the equivalence test's, at the level its look spends: 95.9% at the
# first look here) inside +-2%, the +50% one's (the U test's at its
# look's boundary, 99.9% at an interim look) around +50%. An empty match
# fails (END runs on no input too).
ci() {	# ci NAME: "LOW HIGH LEVEL" of its verdict line, percent
	sed -n "s/.*$1 sec\/op b vs a: .*; change \([-+][0-9.e+-]*\)% to \([-+][0-9.e+-]*\)% at \([0-9.]*\)%[;)].*/\1 \2 \3/p" "$TEST_TMP/err"
}
ok "$(ci Flat | awk 'NF == 3 && $1 > -2 && $2 < 2 && $1 < $2 && $3 >= 90 && $3 < 99.9 { good = 1 } END { exit !good }'; echo $?)" \
    "the flat row's interval lies inside +-2% ($(ci Flat))"
ok "$(ci Big | awk 'NF == 3 && $1 > 40 && $1 <= 50 && $2 >= 50 && $2 < 60 && $3 == 99.9 { good = 1 } END { exit !good }'; echo $?)" \
    "the +50% row's 99.9% interval holds +50% ($(ci Big))"
is "$(rounds flat)" 4 "the decided flat workload left the plan after 4 rounds"
# The progress: before the first look no row is known, and the line says
# so (not "0/0"); from the look at 4 on it counts rows and decided rows.
file_like "$TEST_TMP/err" "^round 3/16 done: .*, rows decided: no look yet\$" "the progress before the first look: no look yet"
file_like "$TEST_TMP/err" "^round 4/16 done: .*, rows decided 1/3\$" "at round 4: flat decided, of the rows looked at (failat, made up, has its first look at 5)"
file_like "$TEST_TMP/err" "^round 5/16 done: .*, rows decided 2/4\$" "  at round 5: flat and failat, of 4"
ok "$(! grep -q 'rows decided 0/0' "$TEST_TMP/err"; echo $?)" "  (never 0/0)"
is "$(rounds big)" 8 "the +50% workload after 8"
is "$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE workload = 'failat' AND status != 'ok'")" 1 "the failed sample is stored"
is "$(rounds failat)" 5 "the failed round was made up: 5 rounds for 4 good ones"
like "$(cat "$TEST_TMP/err")" "Failat sec/op b vs a: equivalent after 4 good rounds \(look 1, round 5" "the made-up workload is looked at after its 4th good round"
near=$(grep "Near sec/op" "$TEST_TMP/err")
like "$near" "(different|equivalent) after|undecided after 16 good rounds .*MDE .*max-rounds [0-9]+ would" "the near row is decided, or undecided with its MDE and the max-rounds power advises"
ok "$([ "$(rounds near)" -le 16 ]; echo $?)" "no workload runs past max-rounds when nothing fails"
# The verdicts agree with stat's table on all the samples.
"$ABBENCH" stat --db "$db" last > "$TEST_TMP/stat" 2>&1
like "$(grep '^Flat' "$TEST_TMP/stat")" " ~ " "stat prints ~ for the equivalent row"
like "$(grep '^Big' "$TEST_TMP/stat")" "\+49\.[0-9]+% \(p=0\.000 n=8\)" "stat prints the percentage of the different row"
if echo "$near" | grep -q different; then
	like "$(grep '^Near' "$TEST_TMP/stat")" "%" "a different near row has a percentage"
elif echo "$near" | grep -q equivalent; then
	like "$(grep '^Near' "$TEST_TMP/stat")" " ~ " "an equivalent near row has ~"
else
	ok 0 "an undecided near row is neither (its line says so)"
fi
# The looks and decisions are stored: db show and report show them,
# db export is the samples alone.
show=$("$ABBENCH" db show --db "$db" last 2>&1)
like "$show" "Big sec/op b vs a: different after 8 good rounds \(round 8, U\+Brunner-Munzel p=0.000155, boundary 0.001, n=8\+8\)" "db show: the decision, its round, the test that decided, p and boundary"
is "$(sqlite3 "$db" "SELECT DISTINCT test FROM decisions WHERE benchmark = 'Near' AND verdict != 'undecided'")" "signed-rank" "the looks table records the test that decided: the paired rounds' signed-rank test for near"
like "$show" "Flat sec/op b vs a: equivalent after 4 good rounds \(round 4" "db show: the equivalent row"
is "$(sqlite3 "$db" "SELECT count(*) FROM decisions WHERE workload = 'near'")" "$(sqlite3 "$db" "SELECT count(DISTINCT look) FROM decisions WHERE workload = 'near'")" "every look of a row is stored, once"
is "$(sqlite3 "$db" "SELECT group_concat(verdict || '@' || good_rounds, ' ') FROM (SELECT * FROM decisions WHERE workload = 'big' ORDER BY look)")" "undecided@4 undecided@6 different@8" "the big row's looks: undecided at 4 and 6, different at 8"
"$ABBENCH" report --db "$db" last -o "$TEST_TMP/r.md" 2>/dev/null
like "$(cat "$TEST_TMP/r.md")" "Decisions \(stop = decided\)" "the report has the decisions"
like "$(grep '| Big' "$TEST_TMP/r.md")" "different" "with each row's verdict"
"$ABBENCH" db export --db "$db" last -o "$TEST_TMP/exp" >/dev/null 2>&1
ok "$(! grep -rqi 'decision\|verdict' "$TEST_TMP/exp"; echo $?)" "db export carries no decisions"

# Failures that cannot be made up: max-rounds 4, and a workload that
# failed in every one of them gets no make-up round (it is broken, not
# unlucky).
mk "$TEST_TMP/f.ini" 4 fail
"$ABBENCH" run "$TEST_TMP/f.ini" --db "$TEST_TMP/f.db" 2>"$TEST_TMP/ferr"
is "$?" 1 "always failing: exit 1"
like "$(cat "$TEST_TMP/ferr")" "workload 'fail': failed rounds could not be made up \(0 good rounds of max-rounds 4\)" "the run says its failures could not be made up"
is "$(sqlite3 "$TEST_TMP/f.db" "SELECT count(*) FROM samples WHERE arm = 'b' AND status = 'failed'")" 4 "4 rounds, none good: no make-up round"
"$ABBENCH" run "$TEST_TMP/f.ini" --db "$TEST_TMP/f2.db" --max-failures=3 2>"$TEST_TMP/ferr"
is "$?" 1 "max-failures still aborts"
like "$(cat "$TEST_TMP/ferr")" "3 samples failed \(max-failures = 3\)" "with its message"

# The fixed design counts good rounds too: rounds = 5 with a sample that
# fails in round 3 runs 6 rounds, every arm has 5 good samples and stat
# gives each cell an interval; always failing, it gets no make-up round
# and the run says so; failing in 4 of the 5 rounds, it gets half of
# rounds (rounded up: 3) and gives up (and a fixed run killed and resumed
# takes the same make-up rounds: at the end).
mk "$TEST_TMP/x.ini" 16 failat fail mostfail
sed -i -e '/^stop = decided/d' -e 's/^max-rounds = 16/rounds = 5/' "$TEST_TMP/x.ini"
"$ABBENCH" run "$TEST_TMP/x.ini" --db "$TEST_TMP/x.db" 2>"$TEST_TMP/xerr"
is "$?" 1 "fixed design with failed samples: exit 1"
is "$(sqlite3 "$TEST_TMP/x.db" "SELECT count(DISTINCT round) FROM samples WHERE workload = 'failat'")" 6 "fixed rounds 5: the failed round was made up (6 rounds)"
is "$(sqlite3 "$TEST_TMP/x.db" "SELECT group_concat(arm || '=' || n, ' ') FROM (SELECT arm, count(*) AS n FROM samples WHERE workload = 'failat' AND status = 'ok' GROUP BY arm ORDER BY arm)")" "a=6 b=5" "  5 good samples of arm b (and 6 of a: its sample of the failed round is kept)"
like "$("$ABBENCH" stat --db "$TEST_TMP/x.db" last 2>&1 | grep '^Failat')" "± [0-9]" "  stat gives the made-up row an interval"
is "$(sqlite3 "$TEST_TMP/x.db" "SELECT count(DISTINCT round) FROM samples WHERE workload = 'fail'")" 5 "always failing: 5 rounds, none good, no make-up round"
like "$(cat "$TEST_TMP/xerr")" "workload 'fail': failed rounds could not be made up \(0 good rounds of rounds 5\)" "  and the run says so"
is "$(sqlite3 "$TEST_TMP/x.db" "SELECT count(DISTINCT round) FROM samples WHERE workload = 'mostfail'")" 8 "failing in 4 rounds of 5 and after: 5 rounds and 3 make-up rounds"
like "$(cat "$TEST_TMP/xerr")" "workload 'mostfail': failed rounds could not be made up \(1 good rounds of rounds 5\)" "  and the run says so"
ok "$(! grep -q "workload 'failat'.*made up" "$TEST_TMP/xerr"; echo $?)" "  (not of the workload whose failure was made up)"
like "$("$ABBENCH" db show --db "$TEST_TMP/x.db" last 2>&1)" "rounds: +5 \(\+3 make-up, \+0 warm-up\)" "  db show: the rounds and the make-up rounds taken"
"$ABBENCH" report --db "$TEST_TMP/x.db" last -o "$TEST_TMP/x.md" 2>/dev/null
file_like "$TEST_TMP/x.md" "5 \(\+3 make-up, \+0 warm-up\)" "  and the report"
file_like "$TEST_TMP/xerr" "^round 6 \(make-up\) done: " "  the progress calls a round past rounds a make-up round"
file_like "$TEST_TMP/xerr" "^round 5/5 done: " "  after round 5/5"
ok "$(! grep -q '^round [6-9]/5' "$TEST_TMP/xerr"; echo $?)" "  (never round 6/5)"

# Rows the stat-filter hides do not hold a workload back.
mk "$TEST_TMP/h.ini" 12 two
sed -i 's/^stop = decided/stop = decided\nstat-filter = .name:Two/' "$TEST_TMP/h.ini"
"$ABBENCH" run "$TEST_TMP/h.ini" --db "$TEST_TMP/h.db" 2>"$TEST_TMP/herr"
ok $? "a run with a stat-filter"
like "$(cat "$TEST_TMP/herr")" "Two sec/op b vs a: equivalent after 4 good rounds" "the shown row is decided at 4"
ok "$(! grep -q 'Noisy sec/op b vs a' "$TEST_TMP/herr"; echo $?)" "the hidden noisy row has no verdict"
ok "$(! grep -q '^~ Noisy' "$TEST_TMP/herr"; echo $?)" "  nor the end-of-run advice of a \`~\` (only rows stat prints get it)"
is "$(sqlite3 "$TEST_TMP/h.db" "SELECT count(DISTINCT round) FROM samples")" 4 "and did not hold the workload back"
# Noisy's arm b is 100 ns slower in every round (a change the per-round
# ratios of alternate find at once); unpaired (order random), its 600 ns
# of spread across rounds leave it undecided at max-rounds.
mk "$TEST_TMP/h.ini" 12 two
"$ABBENCH" run "$TEST_TMP/h.ini" --db "$TEST_TMP/h2.db" --order random 2>"$TEST_TMP/herr"
like "$(grep 'Noisy sec/op b vs a' "$TEST_TMP/herr")" "undecided after 12 good rounds \(U\+Brunner-Munzel p=[0-9.e-]+ n=12\+12; MDE [0-9.]+% at alpha 0\.05; for 2%, (max-rounds [0-9]+|not even max-rounds 2000) would" "an undecided row at max-rounds: its MDE and the rounds power advises (the same code)"
ok "$(grep -q 'Noisy sec/op b vs a' "$TEST_TMP/herr" && [ "$(sqlite3 "$TEST_TMP/h2.db" "SELECT count(DISTINCT round) FROM samples")" -gt 4 ]; echo $?)" \
    "without the filter the noisy row counts and holds it longer"
like "$(cat "$TEST_TMP/herr")" "^~ Noisy sec/op: too noisy to show 2% at n=12\+12" \
    "  and, shown as \`~\`, gets the end-of-run advice"

# Go's -benchmem rows of a workload that allocates nothing: \`0 B/op 0
# allocs/op\` in both arms is the same constant, decided equivalent (the
# shift is exactly 0) rather than holding the workload to max-rounds, and
# given no advice.
mk "$TEST_TMP/z.ini" 16 zero
"$ABBENCH" run "$TEST_TMP/z.ini" --db "$TEST_TMP/z.db" 2>"$TEST_TMP/zerr"
ok $? "a run whose rows include 0 B/op and 0 allocs/op"
like "$(cat "$TEST_TMP/zerr")" "Zero allocs/op b vs a: equivalent after 4 good rounds \(look 1, round 4, all-equal p=1 n=4\+4; change \+0% to \+0% at [0-9.]+%" \
    "  0 allocs/op in both arms: equivalent at the first look, interval {0}"
like "$(cat "$TEST_TMP/zerr")" "Zero B/op b vs a: equivalent after 4 good rounds" "  0 B/op too"
is "$(sqlite3 "$TEST_TMP/z.db" "SELECT count(DISTINCT round) FROM samples")" 4 "  so the workload stops at 4 rounds"
is "$(grep -c '^~ ' "$TEST_TMP/zerr")" 0 "  and no advice for rows that are the same constant"

# Refused: order sequential, looks beyond max-rounds.
mk "$TEST_TMP/s.ini" 8 flat
msg=$("$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/s.db" --order sequential 2>&1)
is "$?" 2 "--until decided with --order sequential exits 2"
like "$msg" "needs an interleaved order" "and says why"
sed -i 's/^stop = decided/stop = decided\norder = sequential/' "$TEST_TMP/s.ini"
msg=$("$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/s.db" 2>&1)
is "$?" 2 "order = sequential in the file: exit 2"
like "$msg" "s\.ini:3: stop: 'decided' needs an interleaved order" "file:line:key"
mk "$TEST_TMP/s.ini" 8 flat
sed -i 's/^stop = decided/stop = decided\nlooks = 4 10/' "$TEST_TMP/s.ini"
msg=$("$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/s.db" 2>&1)
is "$?" 2 "a look beyond max-rounds exits 2"
like "$msg" "s\.ini:4: looks: look 10 is beyond max-rounds 8" "file:line:key"
mk "$TEST_TMP/s.ini" 8 flat
sed -i '/^stop = decided/d' "$TEST_TMP/s.ini"
"$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/u.db" --until decided 2>"$TEST_TMP/uerr"
ok $? "--until decided on the command line"
like "$(cat "$TEST_TMP/uerr")" "Flat sec/op b vs a: equivalent after 4 good rounds" "does what stop = decided does"
is "$(sqlite3 "$TEST_TMP/u.db" "SELECT value FROM run_config WHERE key = 'set.stop'")" decided "and is stored with the run"

# equivalence = margin (the default) against projected. Small is 0.4%
# slower in arm b in every round: a change inside +-2%, for which the
# contract takes either answer; at the first look (4 rounds) the arms'
# interval already lies within it (the signed-rank test, which would find
# the change at 12 pairs, never gets there). `equivalence = projected` (the rule before the contract) adds
# the half margin and the projection, and says so.
mk "$TEST_TMP/p.ini" 16 small
"$ABBENCH" run "$TEST_TMP/p.ini" --db "$TEST_TMP/p.db" 2>"$TEST_TMP/perr"
ok $? "equivalence = margin (default): the run exits 0"
ok "$(! grep -q 'projected\|95% one' "$TEST_TMP/perr"; echo $?)" "  the verdict line has neither the projection nor the half margin"
like "$(cat "$TEST_TMP/perr")" "P\(different \| no change\) <= 0.05, P\(equivalent \| change >= 2%\) <= 5%" "  it states the contract"
like "$(cat "$TEST_TMP/perr")" "Small sec/op b vs a: equivalent after 4 good rounds \(look 1, round 4, U\+Brunner-Munzel p=" "  0.4% slower in every round: equivalent at 4, by the arms' interval (all 16 differences within 2%)"
"$ABBENCH" run "$TEST_TMP/p.ini" --db "$TEST_TMP/pf.db" --until rounds --rounds 16 2>/dev/null
ok $? "  the fixed design of 16 rounds runs"
like "$("$ABBENCH" stat --db "$TEST_TMP/pf.db" last 2>&1 | grep '^Small')" "\+0\.[0-9]+% \(p=0\.00" "  and prints a change for it too"
sed -i 's/^stop = decided/stop = decided\nequivalence = projected/' "$TEST_TMP/p.ini"
"$ABBENCH" run "$TEST_TMP/p.ini" --db "$TEST_TMP/pm.db" 2>"$TEST_TMP/pmerr"
ok $? "equivalence = projected: the run exits 0"
like "$(cat "$TEST_TMP/pmerr")" "p projected to 16 rounds > 0.05 and the [0-9.]+% interval of the change, widened by the values' resolution, within \+-2%, its 95% one within \+-1%" "  the verdict line says the projection and the half margin"
like "$(sqlite3 "$TEST_TMP/pm.db" "SELECT experiment_text FROM runs")" "equivalence = projected" "  the key is stored with the run (--resume reads it)"
sed -i 's/^equivalence = projected/equivalence = maybe/' "$TEST_TMP/p.ini"
msg=$("$ABBENCH" run "$TEST_TMP/p.ini" --db "$TEST_TMP/pm.db" 2>&1)
is "$?" 2 "equivalence = maybe: exit 2"
like "$msg" "p\.ini:4: equivalence: 'maybe' is not one of: margin projected" "  file:line:key"

# bench/seq-replay (bench/time-to-verdict replays the rule with it on a
# fixed run's samples) on this run's own samples: every workload's
# verdicts, good rounds, round and values seen as the run stored them,
# failat's made-up round included.
replay_ok() {	# replay_ok DB MAX-ROUNDS WORKLOAD
	rdb=$1 rmax=$2 w=$3
	rows=$(sqlite3 "$rdb" "SELECT benchmark || '|' || unit FROM decisions
	    WHERE workload = '$w' AND look = (SELECT max(look) FROM decisions
	    WHERE workload = '$w') ORDER BY benchmark, unit")
	want=$(sqlite3 -separator ' ' "$rdb" "SELECT verdict, good_rounds,
	    round, n1, n2 FROM decisions WHERE workload = '$w' AND look = (SELECT max(look)
	    FROM decisions WHERE workload = '$w') ORDER BY benchmark, unit" |
	    awk '{ print NR - 1, $0 }')
	i=0
	got=$(echo "$rows" | while IFS='|' read -r bm u; do
		sqlite3 -separator ' ' "$rdb" "SELECT $i, s.round, a.idx, s.value
		    FROM samples s JOIN arms a ON a.run_id = s.run_id AND
		    a.name = s.arm WHERE s.workload = '$w' AND
		    s.benchmark = '$bm' AND s.unit = '$u' AND s.status = 'ok'
		    AND s.warmup = 0 AND s.value IS NOT NULL"
		i=$((i + 1))
	done | "$ABBENCH_BUILDDIR/bench/seq-replay" "$rmax" 2)
	ok "$([ -n "$want" ] && [ "$got" = "$want" ]; echo $?)" "bench/seq-replay on $w's samples: the run's decisions ($(echo "$got" | tr '\n' ';'))"
}
for w in flat big failat near; do
	replay_ok "$db" 16 "$w"
done

# Issue 54, friction 5: `runsc do` times written to the ns and spread by
# load far beyond 2% (gaps of 17 ms and more) have a step of 1 ns, not
# their smallest gap: equivalence is not refused for a 4.6% step, and
# the row is not stopped for futility at its first look (before: at 4
# rounds) but runs to max-rounds. The report's decision and the rule
# replayed on the stored samples are the run's.
mk "$TEST_TMP/w.ini" 8 wide
"$ABBENCH" run "$TEST_TMP/w.ini" --db "$TEST_TMP/w.db" 2>"$TEST_TMP/werr"
ok $? "friction 5: times written to the ns, 17 ms apart: the run exits 0"
wide=$(grep '^  Wide sec/op b vs a: ' "$TEST_TMP/werr")
like "$wide" "undecided after 8 good rounds \(U\+Brunner-Munzel p=[0-9.]+ n=8\+8; MDE [0-9.]+% " "  undecided at max-rounds 8 with its MDE ($wide)"
ok "$(! echo "$wide" | grep -q "equivalence refused\|stopped"; echo $?)" "  neither 'equivalence refused' for the values' step nor stopped"
wp=$(echo "$wide" | sed -n 's/.*p=\([0-9.]*\) n=8+8; MDE \([0-9.]*%\).*/\1 | \1 | 0.048 | 8+8 | \2/p')
"$ABBENCH" report --db "$TEST_TMP/w.db" last -o "$TEST_TMP/w.md" >/dev/null
is "$(sed -n '/^## Decisions/,/^## [^D]/p' "$TEST_TMP/w.md" | grep '^| Wide ')" "| Wide | sec/op | b | undecided | 8 | 8 | U+Brunner-Munzel | $wp |" "  the report's decision is the run's"
replay_ok "$TEST_TMP/w.db" 8 wide

# kill -9 at a random moment, --resume: the same decisions.
mk "$TEST_TMP/k.ini" 16 flat big failat near
verdicts() { grep '^  ' "$1" | sort; }
SEQ_SLEEP=0.05 "$ABBENCH" run "$TEST_TMP/k.ini" --db "$TEST_TMP/full.db" 2>"$TEST_TMP/full.err"
total=$(sqlite3 "$TEST_TMP/full.db" "SELECT count(DISTINCT plan_idx) FROM samples")
stopat=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (total - 4) + 2 ))
n1=$(SEQ_SLEEP=0.05 kill_at_samples "$TEST_TMP/k.db" "$stopat" "$ABBENCH" run "$TEST_TMP/k.ini" --db "$TEST_TMP/k.db" --quiet)
ok "$([ "$n1" -ge 2 ] && [ "$n1" -lt "$total" ]; echo $?)" "killed part way ($n1 of $total samples, aimed at $stopat)"
"$ABBENCH" run --resume last --db "$TEST_TMP/k.db" 2>"$TEST_TMP/k.err"
rc=$?
# 1 when the failed sample was taken after the kill, else 0.
ok "$([ "$rc" -le 1 ]; echo $?)" "the resumed run completes (exit $rc)"
is "$(sqlite3 "$TEST_TMP/k.db" "SELECT status FROM runs")" done "its status is done"
is "$(verdicts "$TEST_TMP/k.err")" "$(verdicts "$TEST_TMP/full.err")" "the same decisions as the uninterrupted run"
dq="SELECT workload, look, good_rounds, round, benchmark, arm, verdict, p, n1, n2 FROM decisions ORDER BY 1, 2, 5"
is "$(sqlite3 "$TEST_TMP/k.db" "$dq" | tr '\n' ' ')" "$(sqlite3 "$TEST_TMP/full.db" "$dq" | tr '\n' ' ')" "the same looks and decisions stored"
q="SELECT plan_idx || ':' || round || ':' || arm || ':' || benchmark || ':' || status FROM samples ORDER BY plan_idx, benchmark"
is "$(sqlite3 "$TEST_TMP/k.db" "$q" | tr '\n' ' ')" "$(sqlite3 "$TEST_TMP/full.db" "$q" | tr '\n' ' ')" "the same plan, sample by sample"

# The fixed design's make-up rounds after kill -9 and --resume: the same
# samples as the uninterrupted run above (x.db).
total=$(sqlite3 "$TEST_TMP/x.db" "SELECT count(DISTINCT plan_idx) FROM samples")
stopat=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (total - 4) + 2 ))
n1=$(SEQ_SLEEP=0.05 kill_at_samples "$TEST_TMP/xk.db" "$stopat" "$ABBENCH" run "$TEST_TMP/x.ini" --db "$TEST_TMP/xk.db" --quiet 2>/dev/null)
ok "$([ "$n1" -ge 2 ] && [ "$n1" -lt "$total" ]; echo $?)" "fixed design killed part way ($n1 of $total samples, aimed at $stopat)"
"$ABBENCH" run --resume last --db "$TEST_TMP/xk.db" 2>/dev/null
is "$?" 1 "  resumed: exit 1 (the always failing workload)"
is "$(sqlite3 "$TEST_TMP/xk.db" "$q" | tr '\n' ' ')" "$(sqlite3 "$TEST_TMP/x.db" "$q" | tr '\n' ' ')" "  the same plan and make-up rounds, sample by sample"
done_testing
