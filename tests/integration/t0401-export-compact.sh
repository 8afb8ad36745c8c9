#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 14: `db export` wrote one value a line and
# declared units that had no values. It now writes one line per
# benchmark execution with all its units (a gobench invocation's lines
# stay lines of their own) and declares only units with values; stat
# reads the export as it reads the store.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
cd "$TEST_TMP" || exit 1

cat >t.ini <<EOI
[experiment]
name = t0401
rounds = 3
[arm a]
args = true
[arm b]
args = true
[workload w]
type = command
report = time user sys
EOI
"$ABBENCH" run t.ini --db t.db --quiet >out 2>&1
ok $? "a run that reports three units" || diag "$(cat out)"
"$ABBENCH" db export --db t.db last >x.txt
is "$(grep -c '^Benchmark' x.txt)" 6 "one line per sample (3 rounds, 2 arms)"
is "$(grep '^Benchmark' x.txt | awk '{ print NF }' | sort -u)" 8 \
    "  each with its three values and units"
is "$(grep '^Benchmark' x.txt | awk '{ print $4, $6, $8 }' | sort -u)" \
    "sec/op user-sec/op sys-sec/op" "  sec/op, user-sec/op, sys-sec/op"
is "$(sed -n 's/^Unit \([^ ]*\) .*/\1/p' x.txt | sort | tr '\n' ' ')" \
    "sec/op sys-sec/op user-sec/op " \
    "the units declared are those with values (no max-rss-B, cpu-sec/op)"
"$ABBENCH" stat --db t.db last >db.out 2>/dev/null
"$ABBENCH" stat -col arm x.txt >x.out 2>/dev/null
is "$(sed 1,2d x.out)" "$(sed 1,2d db.out)" \
    "stat reads the export as the store (the tables but the header)"

# A gobench program that prints each benchmark 3 times per invocation,
# two units a line: 3 lines per invocation, as it printed them.
cat >gb.sh <<'EOS'
#!/bin/sh
for i in 1 2 3; do
	echo "BenchmarkX-2 100 1$i ns/op 64 B/op"
done
EOS
chmod +x gb.sh
cat >gb.ini <<EOI
[experiment]
name = t0401-gb
rounds = 2
[arm a]
[arm b]
[workload gb]
type = gobench
args = $TEST_TMP/gb.sh
EOI
"$ABBENCH" run gb.ini --db t.db --quiet >out 2>&1
ok $? "a gobench run" || diag "$(cat out)"
"$ABBENCH" db export --db t.db last >g.txt
is "$(grep -c '^Benchmark' g.txt)" 12 \
    "gobench: a line per benchmark line it printed (3 x 2 rounds x 2 arms)"
is "$(grep '^Benchmark' g.txt | awk '{ print NF }' | sort -u)" 6 \
    "  each with both its units"
"$ABBENCH" stat --db t.db last >db.out 2>/dev/null
"$ABBENCH" stat -col arm g.txt >x.out 2>/dev/null
is "$(sed 1,2d x.out)" "$(sed 1,2d db.out)" "stat reads it as the store"
done_testing
