#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What the store keeps of a done run's nights (schema 10,
# results/night-summary.h) and nightly reading it: bench/history-gen
# writes 2 shapes x 8 rows x 2 arms x 3 rounds x 20 nights through the
# store's API; every done run has its summary; nightly judges from the
# summaries exactly what it judges from the values (the summaries
# deleted); it reads them (altered summaries change its verdicts), but
# not a stale one (a run whose counts changed since: its values again);
# a merge summarizes the done runs it brings; a deleted run's goes too.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

GEN=$ABBENCH_BUILDDIR/bench/history-gen
[ -x "$GEN" ] || skip_all "bench/history-gen is not built (make check)"
cd "$TEST_TMP" || exit 1
"$GEN" a.db --shapes 2 --rows 8 --rounds 3 --nights 20 > /dev/null
ok $? "history-gen writes 20 nights of 2 shapes"
is "$(sqlite3 a.db 'PRAGMA user_version')" 10 "schema 10"
is "$(sqlite3 a.db "SELECT count(*) FROM night_summaries s JOIN runs r ON
    r.id = s.run_id WHERE r.status = 'done' AND s.method = 1")" 40 \
    "each of the 40 done runs has its summary"
is "$(sqlite3 a.db 'SELECT count(*) FROM summary_keys')" 16 \
    "16 keys: 8 rows x 2 arms, shared by the shapes"

"$ABBENCH" nightly --db a.db --fleet last --json > sum.json 2>/dev/null
rc=$?
[ "$rc" -le 1 ]
ok $? "nightly judges the last night from the summaries (exit $rc)"
cp a.db values.db
sqlite3 values.db "DELETE FROM night_summaries"
"$ABBENCH" nightly --db values.db --fleet last --json > values.json 2>/dev/null
cmp -s sum.json values.json
ok $? "from the summaries as from the values, byte for byte"

# Every night's summary made that of night 1: the history is then flat,
# and the verdicts say so (nightly reads the summaries).
cp a.db flat.db
sqlite3 flat.db "UPDATE night_summaries SET data = (SELECT data FROM
    night_summaries m WHERE m.run_id = (night_summaries.run_id + 1) % 2 + 1)
    WHERE run_id < 39"
"$ABBENCH" nightly --db flat.db --fleet last --json > flat.json 2>/dev/null
cmp -s sum.json flat.json
is "$?" 1 "altered summaries change the verdicts: nightly reads them"
# The same summaries, stale: their runs' counts are not those they had.
sqlite3 flat.db "UPDATE night_summaries SET nexec = nexec + 1 WHERE run_id < 39"
"$ABBENCH" nightly --db flat.db --fleet last --json > stale.json 2>/dev/null
cmp -s sum.json stale.json
ok $? "a stale summary is not read: the values judge, as before"
cp a.db method.db
sqlite3 method.db "UPDATE night_summaries SET method = 2, data = x''"
"$ABBENCH" nightly --db method.db --fleet last --json > method.json 2>/dev/null
cmp -s sum.json method.json
ok $? "a summary of another method is not read"

# A merge brings the done runs' summaries; a deleted run takes its own.
"$ABBENCH" db --db b.db merge a.db > /dev/null 2>&1
ok $? "a.db merged into a new b.db"
is "$(sqlite3 b.db 'SELECT count(*) FROM night_summaries')" 40 \
    "the 40 merged runs are summarized"
"$ABBENCH" nightly --db b.db --fleet last > b.out 2>/dev/null
"$ABBENCH" nightly --db a.db --fleet last > a.out 2>/dev/null
cmp -s a.out b.out
ok $? "nightly on the merged store says what it says on a.db"
"$ABBENCH" db --db b.db rm 1 > /dev/null 2>&1
ok $? "run 1 deleted"
is "$(sqlite3 b.db 'SELECT count(*) FROM night_summaries WHERE run_id = 1')" 0 \
    "its summary is gone"
"$ABBENCH" db --db a.db check > check.out 2>&1
is $? 0 "db check: exit 0"
done_testing
