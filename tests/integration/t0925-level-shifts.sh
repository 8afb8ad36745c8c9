#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Level shifts within a run (harness/analysis/shifts.h): programs printing fixed
# values whose level falls mid-run with the effect (Regime: +200% in
# rounds 1-13, +5% after), whose level doubles under a constant +10%
# (Step), that stay flat (Flat) or print 0 (Zero's B/op). `run` warns
# of the comparison that moved, and of nothing else; --quiet and the
# stat-filter silence it; both report formats show the shifts (the Step
# shift with "no", Regime with "yes", nothing for Flat); odd arm names
# are escaped; a one-arm run shows the level alone; the experiment's
# effect sets the bounds.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3 gnuplot sqlite3

prog=$ABBENCH_SRCDIR/tests/data/seq/fixed-bench.sh
db=$TEST_TMP/s.db
mk() {	# mk FILE ARM... : 30 rounds of the four workloads
	f=$1
	shift
	printf '[experiment]\nname = shifts\nrounds = 30\n' > "$f"
	for a in "$@"; do
		printf '\n[arm %s]\n' "$a" >> "$f"
	done
	for k in regime step flat zero; do
		printf '\n[workload %s]\ntype = gobench\nargs = %s {arm} {round} %s\n' "$k" "$prog" "$k" >> "$f"
	done
}

mk "$TEST_TMP/s.ini" a b
"$ABBENCH" run "$TEST_TMP/s.ini" --db "$db" 2>"$TEST_TMP/err"
is "$?" 0 "the run exits 0"
sed 's/^/# /' "$TEST_TMP/err" | grep -v '^# round'
# (Other warnings may come too: a loaded machine's load average.)
shiftw() { grep -c "warning: .*the table's delta averages both" "$1"; }
is "$(shiftw "$TEST_TMP/err")" 1 "one level-shift warning"
file_like "$TEST_TMP/err" '^abbench: warning: Regime sec/op: b vs a \+200\.0% in rounds 1-13, \+5\.0% in rounds 14-30 \(p=0\.000; the level fell 8[0-9]% at round 14\): the table.s delta averages both' \
    "it names the row, the arms, the rounds and the delta on either side"
ok "$(! grep -q 'warning: Step\|warning: Flat\|warning: Zero' "$TEST_TMP/err"; echo $?)" \
    "no warning for a level shift under a constant effect, a flat row or zeros"

# --quiet: no warning; a stat-filter without the row: none either.
"$ABBENCH" run "$TEST_TMP/s.ini" --db "$TEST_TMP/q.db" --quiet 2>"$TEST_TMP/qerr"
is "$?" 0 "--quiet: exits 0"
is "$(shiftw "$TEST_TMP/qerr")" 0 "--quiet: no level-shift warning"
sed 's/^rounds = 30$/rounds = 30\nstat-filter = -.name:Regime/' "$TEST_TMP/s.ini" > "$TEST_TMP/f.ini"
"$ABBENCH" run "$TEST_TMP/f.ini" --db "$TEST_TMP/f.db" 2>"$TEST_TMP/ferr"
is "$?" 0 "stat-filter: exits 0"
is "$(shiftw "$TEST_TMP/ferr")" 0 "stat-filter without Regime: no level-shift warning (the table does not show it)"

# The report: every row, in both formats.
"$ABBENCH" report --db "$db" last -o "$TEST_TMP/r.md" >/dev/null
is "$?" 0 "report -o .md exits 0"
md=$(sed -n '/^## Level shifts within the run/,/^## Failed/p' "$TEST_TMP/r.md")
like "$md" "2 of the 4 rows tested shifted; in 1 a comparison moved with the level\. \(The run has 6 rows" \
    "the summary counts the tested rows (Zero's 0 B/op and 0 allocs/op have no log)"
like "$md" '\| Regime \| sec/op \| 14 \| -8[0-9]\.[0-9]% \| 0\.0[01][0-9]* \| b \| \+200\.0% \| \+5\.0% \| [^|]+ \| yes \|' \
    "Regime: the shift at round 14, +200% before, +5% after, moved"
like "$md" '\| Step \| sec/op \| 17 \| \+100\.[0-9]% \| [0-9.]+ \| b \| \+10\.0% \| \+[0-9.]+% \| [^|]+ \| no \|' \
    "Step: the level doubled at round 17, the effect did not move"
ok "$(! echo "$md" | grep -q '| Flat |'; echo $?)" "Flat is not listed"
like "$md" "The time plots above mark each shift shown with a dashed line" \
    "the report says its time plots mark the shifts"
"$ABBENCH" report --db "$db" last --no-plots -o "$TEST_TMP/np.md" >/dev/null
ok "$(! grep -q 'time plots above' "$TEST_TMP/np.md"; echo $?)" \
    "without plots it does not say so"
"$ABBENCH" report --db "$db" last -o "$TEST_TMP/r.html" >/dev/null
is "$?" 0 "report -o .html exits 0"
file_like "$TEST_TMP/r.html" '<h2 id="shifts">Level shifts within the run</h2>' "the HTML report has the section"
file_like "$TEST_TMP/r.html" '<td>Regime</td><td>sec/op</td><td>14</td>.*<td>yes</td>' "and the Regime row"

# Odd arm names: the warning and the report carry them as written.
mk "$TEST_TMP/o.ini" 'a' '<b%s\'
"$ABBENCH" run "$TEST_TMP/o.ini" --db "$TEST_TMP/o.db" 2>"$TEST_TMP/oerr"
is "$?" 0 "odd names: the run exits 0"
file_like "$TEST_TMP/oerr" '^abbench: warning: Regime sec/op: <b%s\\ vs a \+200\.0% in rounds 1-13' \
    "odd names: the warning names the arm as written"
"$ABBENCH" report --db "$TEST_TMP/o.db" last -o "$TEST_TMP/o.html" >/dev/null
file_like "$TEST_TMP/o.html" '<td>&lt;b%s\\</td><td>\+200\.0%</td>' "odd names: escaped in the HTML report"
ok "$(! grep -q '<b%s' "$TEST_TMP/o.html"; echo $?)" "odd names: never raw in HTML"

# One arm: the level alone.
mk "$TEST_TMP/one.ini" a
"$ABBENCH" run "$TEST_TMP/one.ini" --db "$TEST_TMP/one.db" 2>"$TEST_TMP/oneerr"
is "$?" 0 "one arm: the run exits 0"
is "$(shiftw "$TEST_TMP/oneerr")" 0 "one arm: nothing to compare, no level-shift warning"
"$ABBENCH" report --db "$TEST_TMP/one.db" last -o "$TEST_TMP/one.md" >/dev/null
like "$(cat "$TEST_TMP/one.md")" '\| Step \| sec/op \| 17 \| \+100\.[0-9]% \| [0-9.]+ \|  \|  \|  \|  \|  \|' \
    "one arm: the Step shift, without arm columns"

# The same run, the same report (seeded permutations).
"$ABBENCH" report --db "$db" last -o "$TEST_TMP/r2.md" >/dev/null
a=$(sed -n '/^## Level shifts/,/^## Failed/p' "$TEST_TMP/r2.md")
is "$a" "$md" "reported twice: the same shifts"

# The experiment's effect sets both bounds (read from the stored text).
sed 's/^rounds = 30$/rounds = 30\neffect = 5/' "$TEST_TMP/s.ini" > "$TEST_TMP/e5.ini"
"$ABBENCH" run "$TEST_TMP/e5.ini" --db "$TEST_TMP/e5.db" --quiet 2>/dev/null
"$ABBENCH" report --db "$TEST_TMP/e5.db" last -o "$TEST_TMP/e5.md" >/dev/null
like "$(cat "$TEST_TMP/e5.md")" "by 5% or more\): the table's delta then averages two regimes\. Shown: shifts of the level by 5% \(the experiment's effect\)" \
    "effect = 5: the report's bounds are 5%"
like "$(cat "$TEST_TMP/e5.md")" '\| Regime \| sec/op \| 14 \| .* \| yes \|' "effect = 5: Regime still moved (+200% to +5%)"

# The time plots: a dashed line where each shift the report lists begins,
# labelled as the warning reads; none on a flat row or a samples plot. A
# gnuplot that keeps its script, then draws with the real one.
mkdir -p "$TEST_TMP/gpbin"
cat > "$TEST_TMP/gpbin/gnuplot" <<EOG
#!/bin/sh
f=\$(mktemp "$TEST_TMP/gp.XXXXXX")
tee "\$f" | exec "$(command -v gnuplot)"
EOG
chmod +x "$TEST_TMP/gpbin/gnuplot"
out=$("$ABBENCH" plot --db "$db" last -o "$TEST_TMP/p" --format svg \
    --gnuplot "$TEST_TMP/gpbin/gnuplot")
is "$?" 0 "plot exits 0"
# One gnuplot draws every plot: a plot's script runs from its "set output"
# to the "reset session" after it.
script_of() {
	awk -v re="^set output \".*/$1\"" '$0 ~ re { on = 1 }
	    on && /^reset session$/ { exit } on' "$TEST_TMP"/gp.* > "$TEST_TMP/$1.gp"
	echo "$TEST_TMP/$1.gp"
}
rt=$(script_of 'Regime\.sec_op\.time\.svg')
file_like "$TEST_TMP/p/Regime.sec_op.time.svg" 'round 14: level fell 8[0-9]%; b vs a \+200\.0% -> \+5\.0%' \
    "Regime's time plot: the shift at round 14, and the comparison that moved"
file_like "$TEST_TMP/p/Step.sec_op.time.svg" '>round 17: level rose 100%<' \
    "Step's time plot: the level doubled at round 17, no comparison moved"
ok "$(! grep -q 'round [0-9]*: level' "$TEST_TMP/p/Flat.sec_op.time.svg" \
    "$TEST_TMP/p/Regime.sec_op.samples.svg"; echo $?)" \
    "no mark on Flat's time plot or on a samples plot"
is "$(grep -c '^set arrow from first' $rt)" 1 "Regime's script: one line"
# The line lies between the last sample of round 13 and the first of round
# 14 (stored rounds 12 and 13), in the plot's seconds.
x=$(sed -n 's/^set arrow from first \([0-9.]*\), graph 0 .*/\1/p' $rt)
b=$(sqlite3 "$db" "SELECT (SELECT MAX(start_wall_ns) FROM samples WHERE benchmark = 'Regime' AND round < 13) - MIN(start_wall_ns), (SELECT MIN(start_wall_ns) FROM samples WHERE benchmark = 'Regime' AND round >= 13) - MIN(start_wall_ns) FROM samples")
ok "$(awk -v x="$x" -v b="$b" 'BEGIN { split(b, t, "|"); exit !(x > 0 && x * 1e9 > t[1] && x * 1e9 < t[2]) }'; echo $?)" \
    "the line lies between rounds 13 and 14 ($x s; $b ns)"
"$ABBENCH" plot --db "$TEST_TMP/o.db" last -o "$TEST_TMP/po" --format svg >/dev/null
is "$?" 0 "odd names: plot exits 0"
file_like "$TEST_TMP/po/Regime.sec_op.time.svg" '; &lt;b%s\\ vs a \+200\.0% -> \+5\.0%' \
    "odd names: the label names the arm as written, escaped in the SVG"
"$ABBENCH" plot --db "$TEST_TMP/one.db" last -o "$TEST_TMP/p1" --format svg >/dev/null
file_like "$TEST_TMP/p1/Step.sec_op.time.svg" '>round 17: level rose 100%<' \
    "one arm: the level alone"

# Too few rounds, and a run with nothing shifted: said, not a table.
sed 's/^rounds = 30$/rounds = 8/' "$TEST_TMP/s.ini" > "$TEST_TMP/few.ini"
"$ABBENCH" run "$TEST_TMP/few.ini" --db "$TEST_TMP/few.db" --quiet 2>/dev/null
"$ABBENCH" report --db "$TEST_TMP/few.db" last -o "$TEST_TMP/few.md" >/dev/null
like "$(cat "$TEST_TMP/few.md")" "None: the level of each of the 0 rows tested held\. \(The run has 6 rows" \
    "8 rounds: no row tested, and the report says so"
done_testing
