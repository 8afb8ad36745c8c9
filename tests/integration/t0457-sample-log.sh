#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54: a run's samples go to a log of their own beside the database
# (DB-samples.RUN, a record copied into its mapping a sample) and are
# committed in batches (results/store-log.c). What a kill -9 leaves in the log is imported by
# the next read-write open: every sample the run reported is stored
# once, and the resumed run's rows are those of a run never killed
# (times apart). A torn tail is dropped with a warning naming the log; a
# live run's log is not touched by another process; a database path of
# quotes, %, \, < and a space works, as nobody, with the log nobody's.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3 awk
cd "$TEST_TMP" || exit 1

ROUNDS=50
run_cmd() {
	"$ABBENCH" run --rounds $ROUNDS --order random --seed 11 "$@" -- \
	    'sleep 0.003' -- /bin/true
}
# rows DB: the samples' rows but their times and values.
rows() {
	sqlite3 "$1" "SELECT plan_idx, round, position, arm, workload, status,
	    benchmark, unit FROM samples ORDER BY plan_idx, benchmark, unit"
}
run_cmd --db ref.db --quiet
is "$?" 0 "the reference run, never killed"
REF=$(rows ref.db | md5sum)
is "$(ls ref.db-samples.* 2>/dev/null)" "" "a run that ends leaves no log"

# kill -9 at a random moment: once the run reported K samples (K from
# the seed), after a random 0-30 ms more.
for seed in 1 2 3 4 5 6; do
	db=k$seed.db
	set -- $(awk -v s=$seed 'BEGIN { srand(s); printf "%d %.3f\n",
	    3 + int(rand() * 75), rand() * 0.03 }')
	k=$1 extra=$2
	# Not through run_cmd: $! is then abbench's own pid.
	"$ABBENCH" run --rounds $ROUNDS --order random --seed 11 --db "$db" \
	    --json-progress -- 'sleep 0.003' -- /bin/true > p$seed 2>b$seed &
	pid=$!
	i=0
	# (At most 60 s: another run may hold the host first.)
	while [ "$(grep -c '"sample"' p$seed)" -lt "$k" ] && [ $i -lt 3000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	sleep "$extra"
	kill -9 $pid
	wait $pid 2>/dev/null
	seen=$(sed -n 's/.*"round":\([0-9]*\),.*"arm":"\([^"]*\)".*/\1 \2/p' \
	    p$seed | sort)
	nseen=$(echo "$seen" | grep -c .)
	[ "$nseen" -gt 0 ] || diag "seed $seed: nothing reported: $(cat b$seed)"
	if [ $((seed % 2)) -eq 0 ]; then
		how=restore
		"$ABBENCH" restore > r$seed 2>&1
		is "$?" 0 "seed $seed: restore after the kill (after $nseen samples reported)"
		sqlite3 "$db" "SELECT DISTINCT (round + 1) || ' ' || arm FROM
		    samples" | sort > st$seed
		is "$(echo "$seen" | comm -23 - st$seed)" "" \
		    "seed $seed: every sample reported is in the database after restore"
		is "$(ls "$db"-samples.* 2>/dev/null)" "" "seed $seed: restore removed the log"
		"$ABBENCH" run --resume last --db "$db" --quiet 2>e$seed
		is "$?" 0 "seed $seed: run --resume then completes it"
	else
		how=resume
		# The resume imports the log before it runs: it runs none
		# of the samples reported again.
		"$ABBENCH" run --resume last --db "$db" --quiet \
		    --json-progress > q$seed 2>e$seed
		is "$?" 0 "seed $seed: run --resume after the kill (after $nseen samples reported)"
		sed -n 's/.*"round":\([0-9]*\),.*"arm":"\([^"]*\)".*/\1 \2/p' \
		    q$seed | sort > ran$seed
		is "$(echo "$seen" | comm -12 - ran$seed)" "" \
		    "seed $seed: the resume ran none of the samples reported again ($(grep -c . ran$seed) run)"
	fi
	sqlite3 "$db" "SELECT DISTINCT (round + 1) || ' ' || arm FROM samples" |
	    sort > st$seed
	is "$(echo "$seen" | comm -23 - st$seed)" "" \
	    "seed $seed ($how): every sample reported is stored"
	is "$(sqlite3 "$db" "SELECT count(*) FROM (SELECT plan_idx, benchmark,
	    unit FROM samples GROUP BY 1, 2, 3 HAVING count(*) > 1)")" 0 \
	    "seed $seed ($how): none twice"
	is "$(rows "$db" | md5sum)" "$REF" \
	    "seed $seed ($how): the rows of the run never killed"
	is "$(sqlite3 "$db" "SELECT status FROM runs")" done "seed $seed: done"
	is "$(ls "$db"-samples.* 2>/dev/null)" "" "seed $seed: no log left"
done

# Killed after its 10th sample ended: the log (1 MiB, allocated ahead)
# holds 9 whole records, then zeros, which are its end, not a torn one.
ABBENCH_DEBUG_DIE_BEFORE_STORE=10 run_cmd --db w.db --quiet 2>/dev/null
is "$?" 137 "killed after its 10th sample (w.db)"
is "$(grep -ao ABSAMPL1 w.db-samples.1 | wc -l)" 9 "its log holds 9 records"
"$ABBENCH" run --resume last --db w.db --quiet 2>err
is "$?" 0 "run --resume exits 0"
is "$(grep -c torn err)" 0 "no torn record said: the zeros after the records end the log" ||
    diag "$(cat err)"
is "$(rows w.db | md5sum)" "$REF" "the rows of the run never killed"

# A torn tail: the run killed after its 10th sample ended (9 in the log),
# its last record cut after 25 bytes (zeros from there, as a kill in the
# middle of its copy into the log's mapping would leave it).
ABBENCH_DEBUG_DIE_BEFORE_STORE=10 run_cmd --db t.db --quiet 2>/dev/null
is "$?" 137 "killed after its 10th sample"
is "$(grep -ao ABSAMPL1 t.db-samples.1 | wc -l)" 9 "its log holds 9 records"
last=$(grep -abo ABSAMPL1 t.db-samples.1 | tail -1 | cut -d: -f1)
dd if=/dev/zero of=t.db-samples.1 bs=1 seek=$((last + 25)) count=64 \
    conv=notrunc 2>/dev/null
"$ABBENCH" run --resume last --db t.db --quiet 2>err
is "$?" 0 "run --resume exits 0, as any resume"
like "$(cat err)" "t\\.db-samples\\.1: a torn record at byte [0-9]+ .*dropped; 8 samples before it imported" \
    "a warning names the log, the torn record and the samples imported"
is "$(rows t.db | md5sum)" "$REF" "the torn sample ran again: the rows of the run never killed"
is "$(sqlite3 t.db "SELECT count(*) FROM samples WHERE arm NOT IN ('A', 'B')")" 0 \
    "nothing of the torn record was imported"

# --durable: each sample synced with its own commit, no log.
ABBENCH_DEBUG_DIE_BEFORE_STORE=5 run_cmd --durable --db du.db --quiet 2>/dev/null
is "$(ls du.db-samples.* 2>/dev/null)/$(sqlite3 du.db "SELECT count(DISTINCT plan_idx) FROM samples")" \
    "/4" "--durable writes no log: the killed run's 4 samples are in the database"

# A kill between a batch's commit and the log's truncation: the log's
# samples are in the database already; importing it again adds none.
ABBENCH_DEBUG_DIE_BEFORE_STORE=6 run_cmd --db d.db --quiet 2>/dev/null
cp d.db-samples.1 saved
"$ABBENCH" db check --db d.db > /dev/null 2>&1
is "$(sqlite3 d.db "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples WHERE unit = 'sec/op'")" \
    "5 5" "db check imported the killed run's 5 samples"
mv saved d.db-samples.1
"$ABBENCH" db check --db d.db > /dev/null 2>&1
is "$(sqlite3 d.db "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples WHERE unit = 'sec/op'")" \
    "5 5" "the same log imported again adds none of them twice"
is "$(ls d.db-samples.* 2>/dev/null)" "" "and is removed"

# A live run's log: another process's read-write opens (db check, db rm)
# neither import nor remove it. The run is stopped (alive) meanwhile.
"$ABBENCH" run --rounds 30 --db l.db --quiet \
    -- 'sleep 0.02' > /dev/null 2>&1 &
pid=$!
i=0
while [ "$(stored_samples l.db)" -lt 3 ] && [ $i -lt 3000 ]; do
	sleep 0.01
	i=$((i + 1))
done
kill -STOP $pid
sleep 0.1
before="$(md5sum < l.db-samples.1) $(sqlite3 l.db "SELECT count(*) FROM samples")"
"$ABBENCH" db check --db l.db > /dev/null 2>&1
"$ABBENCH" db rm 999 --db l.db > /dev/null 2>&1
after="$(md5sum < l.db-samples.1 2>/dev/null) $(sqlite3 l.db "SELECT count(*) FROM samples")"
is "$after" "$before" "a live run's log is left to it (the log and the database unchanged)"
kill -CONT $pid
wait $pid
is "$?" 0 "the run goes on and ends"
is "$(sqlite3 l.db "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples WHERE unit = 'sec/op'")" \
    "30 30" "every sample stored once"

# A sample of 50 ms or more is committed at once: while the third of
# samples of 0.1 s each is held, a reader of the database (what fleet
# status and the fleet tests read) has the two before it.
cat > hold.sh <<'EOS'
n=$(cat cnt 2>/dev/null || echo 0)
n=$((n + 1))
sleep 0.1
[ $n -eq 3 ] && : > held && while [ ! -e open ]; do sleep 0.02; done
echo $n > cnt
EOS
"$ABBENCH" run --rounds 2 --db h.db --quiet -- 'sh hold.sh' -- 'sh hold.sh' \
    > /dev/null 2>&1 &
hpid=$!
i=0
while [ ! -e held ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i + 1)); done
ok "$([ -e held ]; echo $?)" "the third long sample is held"
is "$(sqlite3 h.db "SELECT count(*) FROM samples WHERE unit = 'sec/op'")" 2 \
    "the two long samples before it are in the database"
: > open
wait $hpid
is "$?" 0 "the run ends once the sample goes on"
is "$(sqlite3 h.db "SELECT count(*) FROM samples WHERE unit = 'sec/op'")" 4 \
    "and has its 4 samples"

# A path of quotes, %, \, < and a space, as nobody in a directory of its
# own: the log is nobody's, with the database's mode.
RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
if [ "$(id -u)" -eq 0 ] && $RUNAS true 2>/dev/null &&
    $RUNAS env "$ABBENCH" --version > /dev/null 2>&1; then
	chmod 755 "$TEST_TMP"
	mkdir nb && chown 65534:65534 nb
	P="$TEST_TMP/nb/a \"b%c\\d<e.db"
	$RUNAS env ABBENCH_STATE_DIR="$TEST_TMP/nb/st" \
	    ABBENCH_DEBUG_DIE_BEFORE_STORE=7 "$ABBENCH" run --rounds 10 \
	    --db "$P" --quiet -- /bin/true > /dev/null 2>&1
	is "$?" 137 "nobody's run with a strange path killed after 7 samples"
	is "$(stat -c '%u %a' "$P-samples.1")" "65534 $(stat -c %a "$P")" \
	    "its log is nobody's, with the database's mode"
	$RUNAS env ABBENCH_STATE_DIR="$TEST_TMP/nb/st" "$ABBENCH" run \
	    --resume last --db "$P" --quiet > /dev/null 2> err
	is "$?" 0 "nobody resumes it"
	is "$(sqlite3 "$P" "SELECT count(DISTINCT plan_idx) || ' ' || count(*) FROM samples WHERE unit = 'sec/op'")" \
	    "10 10" "10 samples, each once (6 from the log)"
	is "$(ls "$TEST_TMP/nb" | grep -c samples)" 0 "no log left"
else
	diag "not root, or nobody cannot run $ABBENCH: the nobody case is not run"
fi
done_testing
