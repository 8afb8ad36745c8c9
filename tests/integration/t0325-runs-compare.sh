#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two runs of one experiment on one host compare in one table: the load
# average at the start and the end (and the swap in use) are the run's
# metadata, shown by `db show` and the report, never a config line of the
# exports or of `stat --db` (benchstat splits tables on any key that
# differs). And an export of every arm piped into stat keeps the baseline
# as the first column, whatever the order the samples ran in.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
printf '[experiment]\nname = one\nrounds = 3\n\n[arm only]\nargs = true\n\n[workload Cmd]\ntype = command\n' > one.ini
"$ABBENCH" run one.ini --db "$DB" --quiet > /dev/null 2>&1
ok $? "first run"
"$ABBENCH" run one.ini --db "$DB" --quiet > /dev/null 2>&1
ok $? "second run"
# The kernel's stall shares over the run (PSI), where the kernel has them.
psi=$(sqlite3 "$DB" "SELECT value FROM run_config WHERE run_id = 1 AND key = 'pressure'")
if [ -r /proc/pressure/cpu ]; then
	like "$psi" '^cpu [0-9]+\.[0-9]% some; io [0-9]+\.[0-9]% some, [0-9]+\.[0-9]% full; memory [0-9]+\.[0-9]% some, [0-9]+\.[0-9]% full; over [0-9.]+ s$' \
	    "the run stored its stall shares ($psi)"
	like "$("$ABBENCH" env 2>&1)" \
	    "io pressure: some task waited for I/O [0-9]+\.[0-9]% of the last minute" \
	    "env reports the I/O stalls of the last minute"
else
	is "$psi" "" "no PSI on this kernel: no pressure stored"
fi
# The load differs between any two runs; make it differ for certain, as
# a database written before the distinction holds it (same keys).
sqlite3 "$DB" "UPDATE run_config SET value = '0.10 0.20 0.30' WHERE run_id = 1 AND key = 'load-avg';
    UPDATE run_config SET value = '7.50 6.00 5.00' WHERE run_id = 2 AND key = 'load-avg';
    INSERT OR REPLACE INTO run_config (run_id, arm, seq, key, value) VALUES (1, '', 900, 'load-avg-end', '0.11 0.22 0.33'), (2, '', 900, 'load-avg-end', '9.00 8.00 7.00'), (1, '', 901, 'swap-used', '0 B'), (2, '', 901, 'swap-used', '12 MiB');"
is "$(sqlite3 "$DB" "SELECT count(DISTINCT value) FROM run_config WHERE key = 'load-avg'")" 2 "the runs' load averages differ"

"$ABBENCH" stat --db "$DB" 1 2 > out 2> err
ok $? "stat --db 1 2"
is "$(grep -c 'vs base' out)" 1 "two runs of one experiment: one table"
is "$(grep -c -E '^(load-avg|load-avg-end|swap-used|pressure):' out)" 0 "no load, swap or pressure config line"
is "$(grep -c '^Cmd-[0-9]* .*±.*±' out)" 1 "both runs in one row"

mkdir e1 e2
"$ABBENCH" db --db "$DB" export 1 -o e1 > /dev/null 2>&1 &&
"$ABBENCH" db --db "$DB" export 2 -o e2 > /dev/null 2>&1
ok $? "export both runs"
grep -q -E '^(load-avg|load-avg-end|swap-used|pressure):' e1/only.txt e2/only.txt
is "$?" 1 "the exports carry no load, swap or pressure config line"
grep -q '^kernel: ' e1/only.txt
ok $? "the exports keep the host's identity (kernel)"
"$ABBENCH" stat old=e1/only.txt new=e2/only.txt > out 2> err
is "$(grep -c 'vs base' out)" 1 "benchstat on the two exports: one table"

# Another host's shape still splits, as benchstat users expect.
sed 's/^vcpus: .*/vcpus: 192/' e2/only.txt > big.txt
"$ABBENCH" stat old=e1/only.txt big=big.txt > out 2> err
is "$(grep -c '^vcpus: ' out)" 2 "a different shape still splits the table"

"$ABBENCH" db --db "$DB" show 2 > out 2>&1
ok $? "db show"
like "$(sed -n '/^metadata:/,/^$/p' out)" "load-avg: 7.50 6.00 5.00" "db show: load-avg under metadata"
like "$(sed -n '/^metadata:/,/^$/p' out)" "load-avg-end: 9.00 8.00 7.00" "db show: load-avg-end under metadata"
sed -n '/^config:/,/^$/p' out | grep -q 'load-avg\|pressure'
is "$?" 1 "db show: not under config"
if [ -n "$psi" ]; then
	"$ABBENCH" db --db "$DB" show 1 > out1 2>&1
	like "$(sed -n '/^metadata:/,/^$/p' out1)" "pressure: cpu " "db show: pressure under metadata"
fi
"$ABBENCH" report --db "$DB" 2 -o r.md > /dev/null 2>&1
ok $? "report"
like "$(sed -n '/Run metadata/,$p' r.md)" "load-avg-end.*9.00 8.00 7.00" "the report shows the metadata"

# Piped export: warm-up round 0 runs fast,slow; round 1 (the first
# measured) slow,fast. The baseline must still be the first column.
printf '[experiment]\nname = two\nrounds = 6\nwarmup = 1\n\n[arm fast]\nargs = true\n\n[arm slow]\nargs = sleep 0.02\n\n[workload Cmd]\ntype = command\n' > two.ini
"$ABBENCH" run two.ini --db "$DB" --quiet > /dev/null 2>&1
ok $? "a two-arm run with a warm-up round"
first=$(sqlite3 "$DB" "SELECT arm FROM samples WHERE run_id = 3 AND warmup = 0 ORDER BY plan_idx LIMIT 1")
is "$first" "slow" "the first measured sample is the second arm's"
"$ABBENCH" db --db "$DB" export last | "$ABBENCH" stat -col arm - > out 2> err
grep -m 1 '│' out | grep -q -E '│ +fast +│ +slow +│'
ok $? "db export | stat -col arm -: the baseline is the first column"
like "$(grep '^Cmd' out)" "\+[0-9.]+% " "slow against fast: an increase"
done_testing
