#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 8 (the brief's 7): a gobench run of one
# benchmark with 3 units and 2 arms at -test.count=3 printed 7 notes
# (`note: Join-2 sec/op (small): n=18 counts the 3 lines of each of 6
# invocations`, one per row) at the end of `run` and again on every
# `stat`: a suite would print hundreds. One note per run names its first
# row and how many more count alike, then the one line on why.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/j.db
cat >join.sh <<'EOS'
#!/bin/sh
for i in 1 2 3; do echo "BenchmarkJoin-2 1 100$i ns/op 64 B/op 2 allocs/op"; done
EOS
chmod +x join.sh
printf '[experiment]\nname = j\nrounds = 3\n\n[arm a]\n\n[arm b]\n\n[workload small]\ntype = gobench\nargs = %s/join.sh\n' \
    "$TEST_TMP" >j.ini
"$ABBENCH" run j.ini --db "$DB" >out 2>err
ok $? "a gobench run: 3 units, 2 arms, 3 lines per invocation" ||
    diag "$(cat err)"
is "$(grep -c 'note: ' err)" 2 "the run's end: two notes (what n counts, why)"
like "$(cat err)" "note: Join-2 sec/op \\([ab]\\): n=9 counts the 3 lines of each of 3 invocations; so do 5 other rows\$" \
    "one names the first row and counts the other 5"
"$ABBENCH" stat --db "$DB" 1 >out 2>err
ok $? "stat --db 1"
is "$(grep -c 'note: ' err)" 2 "stat --db: two notes too"
"$ABBENCH" report --db "$DB" 1 -o r.md >/dev/null 2>&1
ok $? "report"
is "$(grep -c 'counts the 3 lines' r.md)" 1 "the report says it once"
done_testing
