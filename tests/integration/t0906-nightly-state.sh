#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# nightly carries the rule's state from night to night
# (harness/analysis/nightly-state.h): bench/history-gen writes 2 shapes x
# 8 rows x 2 arms x 3 rounds x 40 nights with steps; each night judged in
# turn resumes from the night before's state (resumed_from: judged one
# night) and says, byte for byte, what replaying every night says
# (--history 1000, which keeps no state), also with a control arm (the
# ratios); the state is not the run's
# config (db show, db export); a state of another history (an accepted
# night since, a night whose values changed, other options), a row it
# lacks or a state cut short is not read: every night is judged again;
# a store opened read-only judges every night, the same.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

GEN=$ABBENCH_BUILDDIR/bench/history-gen
[ -x "$GEN" ] || skip_all "bench/history-gen is not built (make check)"
cd "$TEST_TMP" || exit 1
"$GEN" a.db --shapes 2 --rows 8 --rounds 3 --nights 40 --truth truth \
    > /dev/null
ok $? "history-gen writes 40 nights of 2 shapes"
cp a.db export-before.db

runs=$(sqlite3 a.db "SELECT id FROM runs WHERE name = 'shape-01' AND
    status = 'done' ORDER BY id")
n=0 same=0 resumed=0
for r in $runs; do
	n=$((n + 1))
	"$ABBENCH" nightly --db a.db --no-run "$r" --json > c.json 2>/dev/null
	"$ABBENCH" nightly --db a.db --no-run "$r" > c.txt 2>/dev/null
	"$ABBENCH" nightly --db a.db --no-run "$r" --history 1000 > f.txt \
	    2>/dev/null
	cmp -s c.txt f.txt && same=$((same + 1))
	# From night 2 on, each judgement resumes from the night before.
	from=$(sed -n 's/^  "resumed_from": \([0-9a-z]*\),$/\1/p' c.json)
	[ "$n" -gt 1 ] && [ "$from" = $((n - 1)) ] && resumed=$((resumed + 1))
done
is "$n" 40 "40 nights of shape-01"
is "$same" 40 "each night from the state: what every night replayed says"
is "$resumed" 39 "nights 2-40 resumed from the night before (one judged)"
grep -q "regressed\|improved\|known change" c.txt
ok $? "the history had changes to carry"
is "$(sqlite3 a.db "SELECT count(*) FROM run_config WHERE key =
    'nightly.state'")" 2 "tonight's state and last night's are kept"

# The same with a control arm: arm2's rows judged on their ratio to arm1.
cp export-before.db ctl.db
sqlite3 ctl.db "UPDATE runs SET experiment_text = '[experiment]
name = shape-01
control = arm1
'"
same=0 resumed=0
for r in $runs; do
	"$ABBENCH" nightly --db ctl.db --no-run "$r" --json > c.json 2>/dev/null
	"$ABBENCH" nightly --db ctl.db --no-run "$r" > c.txt 2>/dev/null
	"$ABBENCH" nightly --db ctl.db --no-run "$r" --history 1000 > f.txt \
	    2>/dev/null
	cmp -s c.txt f.txt && same=$((same + 1))
	grep -q '"resumed_from": [0-9]' c.json && resumed=$((resumed + 1))
done
grep -q "ratio to arm1" c.txt
ok $? "control = arm1: arm2 judged on its ratio"
is "$same/$resumed" 40/39 "with a control arm: each night from the state, what every night replayed says"

last=$(echo "$runs" | tail -n 1)
"$ABBENCH" db --db a.db show "$last" > show.txt 2>&1
! grep -q "nightly.state" show.txt
ok $? "db show does not list the state"
"$ABBENCH" db --db a.db export "$last" -o exp-after > /dev/null 2>&1 &&
    "$ABBENCH" db --db export-before.db export "$last" -o exp-before \
    > /dev/null 2>&1 && diff -r exp-before exp-after > /dev/null
ok $? "db export the same with the state as before it"

# An accepted night since the state: the state's history is not tonight's.
prev=$(echo "$runs" | tail -n 2 | head -n 1)
"$ABBENCH" nightly --db a.db --no-run "$prev" > /dev/null 2>&1
sqlite3 a.db "INSERT INTO run_config (run_id, arm, seq, key, value)
    VALUES ($(echo "$runs" | sed -n 30p), '', 99, 'nightly.ack', '1')"
"$ABBENCH" nightly --db a.db --no-run "$last" --json > ack.json 2>/dev/null
grep -q '"resumed_from": null' ack.json
ok $? "a night accepted since: the state is not read"
"$ABBENCH" nightly --db a.db --no-run "$last" > ack.txt 2>/dev/null
"$ABBENCH" nightly --db a.db --no-run "$last" --history 1000 > ackf.txt \
    2>/dev/null
cmp -s ack.txt ackf.txt
ok $? "... and the verdicts are every night's"
"$ABBENCH" nightly --db a.db --no-run "$prev" > /dev/null 2>&1
"$ABBENCH" nightly --db a.db --no-run "$last" --baseline 10 --json \
    > b10.json 2>/dev/null
grep -q '"resumed_from": null' b10.json
ok $? "other options (--baseline 10): the state is not read"

# A row the state lacks (new tonight), or a state cut short: every night
# judged again, the same answers.
"$ABBENCH" nightly --db a.db --no-run "$prev" > /dev/null 2>&1
sqlite3 a.db "UPDATE run_config SET value = substr(value, 1, instr(value,
    char(10))) || substr(value, instr(value, char(10)) + instr(substr(value,
    instr(value, char(10)) + 1), char(10)) + 1) WHERE run_id = $prev AND
    key = 'nightly.state'"
"$ABBENCH" nightly --db a.db --no-run "$last" --json > row.json 2>/dev/null
grep -q '"resumed_from": null' row.json
ok $? "a row without a state: every night judged"
"$ABBENCH" nightly --db a.db --no-run "$last" > row.txt 2>/dev/null
sqlite3 a.db "UPDATE run_config SET value = substr(value, 1,
    length(value) - 40) WHERE run_id = $prev AND key = 'nightly.state'"
"$ABBENCH" nightly --db a.db --no-run "$last" > cut.txt 2>/dev/null
cmp -s row.txt ackf.txt && cmp -s cut.txt ackf.txt
ok $? "... and a state cut short: the same answers as every night's"

# A night whose values changed since the state: it is not read.
"$ABBENCH" nightly --db a.db --no-run "$prev" > /dev/null 2>&1
sqlite3 a.db "UPDATE sample_runs SET nok = nok + 1 WHERE run_id =
    $(echo "$runs" | sed -n 12p)"
"$ABBENCH" nightly --db a.db --no-run "$last" --json > vals.json 2>/dev/null
grep -q '"resumed_from": null' vals.json
ok $? "a night whose values changed since: the state is not read"
sqlite3 a.db "UPDATE sample_runs SET nok = nok - 1 WHERE run_id =
    $(echo "$runs" | sed -n 12p)"

# Read-only: every night judged, the same answers, nothing written. Root
# ignores permissions: the command runs as nobody then.
RUNAS=
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null 2>&1; then
	RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
fi
if [ "$(id -u)" -eq 0 ] && [ -z "$RUNAS" ]; then
	for i in 1 2; do
		echo "ok $((LIB_TESTS + 1)) # SKIP no setpriv to drop root"
		LIB_TESTS=$((LIB_TESTS + 1))
	done
else
	mkdir ro
	cp a.db ro/a.db
	sqlite3 ro/a.db "DELETE FROM run_config WHERE key = 'nightly.state'"
	chmod 755 "$TEST_TMP"
	chmod 644 ro/a.db
	chmod 555 ro
	# shellcheck disable=SC2086
	$RUNAS "$ABBENCH" nightly --db ro/a.db --no-run "$last" > ro.txt \
	    2>/dev/null
	cmp -s ro.txt ack.txt
	ok $? "a read-only store: judged, the same"
	is "$(sqlite3 -readonly ro/a.db "SELECT count(*) FROM run_config WHERE
	    key = 'nightly.state'")" 0 "... and nothing kept"
	chmod 755 ro
fi
done_testing
