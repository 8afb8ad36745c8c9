#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 4, second half: under stop = decided the
# progress went `rows decided 2/3` (round 6), `0/3` (round 8) without a
# word. A workload stops only when all its rows are decided at one look,
# so a row decided early is looked at again, on more samples, and can be
# undecided then. "A row once decided stays so, or the line says why it
# was reopened": the progress counts it as reopened (why, once), and its
# verdict line says at which looks it was decided and then not.
# (A gobench program whose values are fixed by arm and round: Flip is
# b = 2a for rounds 1-4 and a = 2.3b after, Stay b = 3a throughout, Open
# a spread of +-30% with no order, never decided.)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
cat >flip.sh <<'EOS'
#!/bin/sh
arm=$1 r=$2
for i in 0 1 2; do
	j=$(( (r * 7 + i * 3) % 10 ))
	if [ "$r" -lt 4 ]; then
		if [ "$arm" = a ]; then f=100; else f=200; fi
	elif [ "$arm" = a ]; then f=230; else f=100; fi
	if [ "$arm" = a ]; then s=1 t=100; else s=2 t=300; fi
	g=$(( 100 + ((r * 37 + i * 53 + s * 71) * 97) % 61 ))
	echo "BenchmarkFlip 1 $f.$j$i$r ns/op"
	echo "BenchmarkStay 1 $t.$j$i$r ns/op"
	echo "BenchmarkOpen 1 $g.$j$i$r ns/op"
done
EOS
chmod +x flip.sh
printf '[experiment]\nname = reopen\nstop = decided\nmax-rounds = 8\n\n[arm a]\n\n[arm b]\n\n[workload w]\ntype = gobench\nargs = %s {arm} {round}\n' \
    "$TEST_TMP/flip.sh" >c.ini
"$ABBENCH" run c.ini --db "$TEST_TMP/c.db" 2>err
ok $? "a run whose Flip row is decided at the first look and not after" ||
    diag "$(cat err)"
file_like err "^round 4/8 done: .*, rows decided 2/3\$" \
    "round 4, the first look: Flip and Stay decided"
file_like err "^round 6/8 done: .*, rows decided 1/3, 1 reopened \\(decided at an earlier look, undecided since: a workload stops when all its rows are decided at one look, and each verdict is its last look's\\)\$" \
    "round 6, the second look: Flip counted as reopened, and why"
file_like err "^round 8/8 done: .*, rows decided 1/3, 1 reopened\$" \
    "round 8, the last look: still reopened, the why not said again"
is "$(grep -c 'undecided since' err)" 1 "  (the why said once)"
like "$(grep '^  Flip sec/op' err)" "^  Flip sec/op b vs a: undecided after 8 good rounds .*; reopened: different at look 1 \\(round 4\\), not at look 2 \\(round 6\\) on more samples, its workload going on for another row\\): neither" \
    "Flip's verdict line says when it was decided and when not"
like "$(grep '^  Stay sec/op' err)" "^  Stay sec/op b vs a: different after 8 good rounds \\(look 3," \
    "Stay, decided at every look: different at the last"
ok "$(! grep '^  Stay sec/op\|^  Open sec/op' err | grep -q reopened; echo $?)" \
    "  (no reopened note on a row never reopened)"
# What the store says later, by the same rule from the stored looks.
"$ABBENCH" db show --db c.db 1 >show 2>&1
ok $? "db show"
like "$(grep '^  Flip sec/op' show)" "; reopened: different at look 1 \\(round 4\\), not at look 2 \\(round 6\\)\\)\$" \
    "db show: Flip's decision says it was reopened, as the run did"
is "$(grep -c reopened show)" 1 "  (db show: no other row reopened)"
"$ABBENCH" report --db c.db 1 -o r.md >/dev/null 2>&1
ok $? "report as markdown"
file_like r.md "^\\| Flip \\| sec/op \\| b \\| undecided \\(reopened: different at look 1 \\(round 4\\), not at look 2 \\(round 6\\)\\) \\|" \
    "report: Flip's verdict cell says it was reopened"
# A kill -9 between the two looks, then --resume: the stored samples
# replay the looks, so the row is said reopened as in one go.
sed 's|^arm=$1 r=$2$|&\
if [ "$r" = 5 ] \&\& [ ! -f killed ]; then : >killed; kill -9 $PPID; sleep 1; fi|' \
    flip.sh >flipk.sh
chmod +x flipk.sh
sed "s|flip.sh|flipk.sh|" c.ini >k.ini
"$ABBENCH" run k.ini --db "$TEST_TMP/k.db" 2>kerr
is $? 137 "a run killed -9 by its program in round 6, after the first look"
"$ABBENCH" run --resume 1 --db "$TEST_TMP/k.db" 2>rerr
ok $? "--resume" || diag "$(cat rerr)"
is "$(grep '^  Flip sec/op' rerr)" "$(grep '^  Flip sec/op' err)" \
    "resumed: Flip's verdict line as in one go, reopened"
file_like rerr "^round 6/8 done: .*, rows decided 1/3, 1 reopened \\(decided" \
    "resumed: the progress says it reopened at round 6"
done_testing
