#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 4: "rows decided 1/1" in the progress while
# the verdict line said "undecided ... stopped: ... (predictive power <
# 10%)". A row stopped for futility is counted apart from the decided
# ones: "rows decided 0/1, 1 stopped undecided", as the verdict says.
# (A gobench program printing fixed whole milliseconds, the same in both
# arms: it can never be shown equivalent, and stops at the first look.)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
cat >coarse.sh <<'EOS'
#!/bin/sh
echo "BenchmarkCoarse 1 $(( ($2 % 3 + 1) * 1000000 )) ns/op"
EOS
chmod +x coarse.sh
printf '[experiment]\nname = futile\nstop = decided\nmax-rounds = 8\n\n[arm a]\n\n[arm b]\n\n[workload coarse]\ntype = gobench\nargs = %s {arm} {round}\n' \
    "$TEST_TMP/coarse.sh" >c.ini
"$ABBENCH" run c.ini --db "$TEST_TMP/c.db" 2>err
ok $? "a run whose one row stops for futility" || diag "$(cat err)"
like "$(cat err)" "Coarse sec/op b vs a: undecided after 4 good rounds .*predictive power < 10%" \
    "the verdict: undecided, stopped at the first look"
file_like err "^round 4/8 done: .*, rows decided 0/1, 1 stopped undecided\$" \
    "the progress counts the stopped row apart, not as decided"
ok "$(! grep -q 'rows decided 1/1' err; echo $?)" "  (never 1/1)"
done_testing
