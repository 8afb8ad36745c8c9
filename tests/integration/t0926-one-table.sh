#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A command reads a run's sample table once (issue 58): every section of
# `report` (the benchstat tables and what their n counts, the corrected
# p-values with their MDEs, the plots, the level shifts) takes the one
# table the report read; `stat --db` of N runs reads N tables, its notes
# on n from them; the end of `run` (power advice, level shifts, notes)
# reads the run once more than `run --quiet`, which gives none.
# $ABBENCH_DEBUG_SAMPLETAB_LOADS=FILE counts them: each table read from
# the database appends its run's id to FILE.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd gnuplot

cd "$TEST_TMP" || exit 1
db=$TEST_TMP/t.db
fixed=$ABBENCH_SRCDIR/tests/data/seq/fixed-bench.sh
noisy=$ABBENCH_SRCDIR/tests/data/seq/noisy-bench.sh
# Level shifts (fixed-bench's regime), three lines per invocation and a
# calibration (noisy-bench): every section of the report has something.
printf '[experiment]\nname = one\nrounds = 30\n\n[arm a]\n\n[arm b]\n' > one.ini
printf '\n[workload regime]\ntype = gobench\nargs = %s {arm} {round} regime\n' "$fixed" >> one.ini
printf '\n[workload noisy]\ntype = gobench\nargs = %s {arm} {round}\n' "$noisy" >> one.ini
# (It exits 1: the regime's shift is a drift between its identical arms.)
"$ABBENCH" calibrate one.ini --repeats 2 --rounds 4 --db "$db" --quiet > /dev/null 2>&1
like "$("$ABBENCH" db --db "$db" ls | awk '$1 == 1 { print $3 }')" '^one\.calibration$' \
    "a calibration (run 1)"
ABBENCH_DEBUG_SAMPLETAB_LOADS=$TEST_TMP/quiet.loads "$ABBENCH" run one.ini --db "$db" --quiet > /dev/null 2>&1
ok $? "run 2, --quiet"
ABBENCH_DEBUG_SAMPLETAB_LOADS=$TEST_TMP/run.loads "$ABBENCH" run one.ini --db "$db" > /dev/null 2> run.err
ok $? "run 3"
file_like run.err "warning: Regime sec/op: b vs a" "run 3 warns of the shift"
file_like run.err "note: Noisy sec/op \(a\): n=90 counts the 3 lines" "and says what n counts"
is "$(grep -c '^3$' run.loads)" "$(($(grep -c '^2$' quiet.loads) + 1))" \
    "the end of the run (notes, power advice, shifts) reads the run once"

# n: how many times FILE names run $2.
n() { grep -c "^$2\$" "$1"; }
for f in r.html r.md; do
	rm -f loads
	ABBENCH_DEBUG_SAMPLETAB_LOADS=$TEST_TMP/loads "$ABBENCH" report --db "$db" 3 -o "$f" > /dev/null 2>&1
	ok $? "report -o $f"
	is "$(n loads 3)" 1 "report -o $f: the run's table is read once"
	is "$(n loads 1)" 1 "... and its calibration's once (the MDEs' noise)"
	is "$(wc -l < loads | tr -d ' ')" 2 "... and nothing else"
done
file_like r.md "^## Level shifts within the run" "the report has its shifts"
file_like r.md "The time plots above mark each shift shown" "... marked on its time plots"
file_like r.md "Noisy sec/op \(a\): n=90 counts the 3 lines of each of 30 invocations" \
    "... what n counts under its tables"
file_like r.md "^\| Noisy \| sec/op \| b \|.*%" "... and the MDEs"
ls r-plots/*.png > /dev/null 2>&1
ok $? "... and its plots"
rm -f loads
ABBENCH_DEBUG_SAMPLETAB_LOADS=$TEST_TMP/loads "$ABBENCH" report --db "$db" 2 --no-plots -o np.md > /dev/null 2>&1
is "$(n loads 2)" 1 "report --no-plots: once"

for sel in "3" "2 3" "1 2 3" "3:b"; do
	rm -f loads
	ABBENCH_DEBUG_SAMPLETAB_LOADS=$TEST_TMP/loads "$ABBENCH" stat --db "$db" $sel > /dev/null 2> err
	nsel=$(echo $sel | wc -w)
	is "$(wc -l < loads | tr -d ' ')" "$nsel" "stat --db $sel: $nsel table(s) read"
	is "$(sort loads | uniq -d)" "" "... each run once"
	file_like err "note: Noisy sec/op" "... with the notes on n"
done

# Without the variable nothing is written.
"$ABBENCH" report --db "$db" 3 --no-plots -o q.md > /dev/null 2>&1
is "$(ls | grep -c loads)" 3 "no file without ABBENCH_DEBUG_SAMPLETAB_LOADS"
done_testing
