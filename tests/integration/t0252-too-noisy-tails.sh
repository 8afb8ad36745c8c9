#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 7: "too noisy to show 2% (MAD/median 5.9%
# ...)" read as a contradiction when the MAD was small and the tails
# heavy. A row whose 10th or 90th percentile lies more than 3 MADs from
# the median now says so, with the numbers: half the values within the
# MAD, the percentiles, and the MDE the outliers make.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
cd "$TEST_TMP" || exit 1
# Every 4th call of an arm is 15 times slower: heavy tails, a tight middle.
cat >tail.sh <<EOS
#!/bin/sh
f=$TEST_TMP/count.\$1
n=\$(cat "\$f" 2>/dev/null || echo 0)
n=\$((n + 1))
echo "\$n" >"\$f"
if [ \$((n % 4)) = 0 ]; then sleep 0.3; else sleep 0.02; fi
EOS
chmod +x tail.sh
cat >t.ini <<EOI
[experiment]
name = t0252
rounds = 12
[arm a]
args = $TEST_TMP/tail.sh a
[arm b]
args = $TEST_TMP/tail.sh b
[workload w]
type = command
EOI
"$ABBENCH" run t.ini --db t.db >out 2>err
ok $? "a run of heavy-tailed arms" || diag "$(cat err)"
line=$(grep '^~ ' err)
like "$line" "^~ w(-[0-9]+)? sec/op: cannot show 2% at n=12\+12: half the values lie within [0-9.]+% of the median \(MAD/median, in this run\), but the 10th and 90th percentiles are -[0-9.]+% and \+[0-9.]+% from it: outliers widen the interval to an MDE of [^ ]+ at alpha 0\.05; " \
    "the tails are named as what widens the interval, with their numbers"
ok "$(printf '%s' "$line" | grep -qv 'too noisy'; echo $?)" \
    "  no 'too noisy' beside a tight MAD"
done_testing
