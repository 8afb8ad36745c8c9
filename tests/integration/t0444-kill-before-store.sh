#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54 (the inline mode's overhead against hyperfine): what a kill -9
# loses. Each sample is stored before the next one starts (written to
# the run's log, results/store-log.c, committed to the database in
# batches), so a run killed at the worst moment, a sample ended (reaped)
# and not yet stored (ABBENCH_DEBUG_DIE_BEFORE_STORE), loses that sample
# only, and every sample the run reported (--json-progress) is stored
# once the log is imported (db check, run --resume). The programs check
# it from inside: each one, when it starts, counts the samples stored
# before it, in the database and the log (a cheaper harness that stored
# a sample while the next one runs would fail here).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/k.db SEEN=$TEST_TMP/seen
export DB SEEN
cat >probe <<'EOT'
#!/bin/sh
[ "$1" = --version ] && exit 1
# stored_samples of lib.sh: the database's and the log's.
c=$(sqlite3 "$DB" "SELECT count(DISTINCT plan_idx) FROM samples")
for f in "$DB"-samples.*; do
	[ -f "$f" ] && c=$((c + $(grep -ao ABSAMPL1 "$f" | wc -l)))
done
echo "$c" >>"$SEEN"
EOT
chmod +x probe
q() { sqlite3 "$DB" "$1"; }

ABBENCH_DEBUG_DIE_BEFORE_STORE=5 "$ABBENCH" run --db "$DB" --rounds 5 \
    --json-progress -- ./probe -- './probe b' >prog 2>err
is "$?" 137 "abbench died of SIGKILL once its 5th sample ended"
is "$(q "SELECT count(*) FROM samples")" 0 \
    "none of them is in the database yet (a batch is 64 or 0.5 s)"
"$ABBENCH" db check --db "$DB" >/dev/null 2>&1
is "$(ls "$DB"-samples.* 2>/dev/null)" "" \
    "db check imported the dead run's log and removed it"
is "$(tr '\n' ' ' <seen)" "0 1 2 3 4 " \
    "each program started with every sample before it stored"
is "$(q "SELECT count(DISTINCT plan_idx) FROM samples")" 4 \
    "the kill lost the sample in flight only: 4 of the 5 taken are stored"
is "$(q "SELECT count(*) FROM samples WHERE status != 'ok'")" 0 \
    "and they are whole"
is "$(sed -n 's/.*"sample":\([0-9]*\),.*"arm":"\([AB]\)".*/\1 \2/p' prog |
    tr '\n' ' ')" \
    "$(q "SELECT (plan_idx + 1) || ' ' || arm FROM samples ORDER BY plan_idx" |
    tr '\n' ' ')" \
    "the samples reported are the samples stored, in their order"
is "$(q "SELECT status FROM runs")" running "the run is left running"

"$ABBENCH" run --resume last --db "$DB" --quiet
is "$?" 0 "run --resume completes it"
is "$(q "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples")" \
    "10 10" "10 samples, none stored twice"
is "$(tr '\n' ' ' <seen)" "0 1 2 3 4 4 5 6 7 8 9 " \
    "the resumed run stored each sample before the next one started too"
is "$(q "SELECT status FROM runs")" done "the run is done"

# Long enough for the checkpoints' thread to work (~3.4 pages of the -wal
# a sample, one checkpoint per ~300 samples): killed at the worst moment
# after 1500 samples, wherever the thread's checkpoint then is.
DB=$TEST_TMP/long.db
ABBENCH_DEBUG_DIE_BEFORE_STORE=1500 "$ABBENCH" run --db "$DB" \
    --rounds 1000 --quiet -- /bin/true -- true 2>err
is "$?" 137 "a long run died of SIGKILL once its 1500th sample ended"
"$ABBENCH" db check --db "$DB" >/dev/null 2>&1
is "$(q "SELECT count(DISTINCT plan_idx) || ' ' || max(plan_idx)
    FROM samples")" "1499 1498" "it lost the 1500th only"
is "$(q "PRAGMA integrity_check")" ok "the database is whole"
"$ABBENCH" run --resume last --db "$DB" --quiet
is "$?" 0 "run --resume completes it"
is "$(q "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples")" \
    "2000 2000" "2000 samples, none stored twice"
done_testing
