#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The host belongs to one run at a time (issue cases 1 and 2).
#  1. Two runs that set host.block.fifo_batch on the same disk, the
#     second started while the first holds the disk (its samples wait at
#     a gate the test opens afterwards: no fixed sleep decides who comes
#     first), with different databases: the second is refused with the
#     holder's pid, experiment and database; the disk ends as it began
#     (fifo_batch 3, a value no arm sets). With --wait-lock the second
#     waits and both finish; runs that change nothing run side by side.
#  2. A run with --db A killed with SIGKILL: `abbench restore` with no
#     arguments from another directory restores the host; the DB keeps its
#     copy of the journal. A run with --db B restores what one with A left.
#     When the host journal itself is lost, `abbench restore --db A` still
#     undoes the run from the database's copy.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
# The disk is an mq-deadline loop device (any tunable serves; this was
# bfq's slice_idle, which kernels without bfq lack).

require_scheduler mq-deadline
require_cmd sqlite3
plan 22

make_loop 64 mq-deadline || { diag "cannot make an mq-deadline loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
echo 3 > "$Q/fifo_batch"
is "$(cat "$Q/fifo_batch")" 3 "the disk starts at fifo_batch 3"

# exp FILE NAME ARGS
exp() {
	cat > "$1" <<EOT
[experiment]
name = $2
rounds = 2
[arm batch8]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 8
[arm batch0]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 0
[workload sleep]
type = command
args = $3
EOT
}
# Run a's samples mark that they have begun and wait until the gate is
# open (at most 60 s). (A run sets its arms' tunables a moment before its
# first sample too, when it tries them: what is seen on the disk is the
# sample's only once it has begun.)
gate_program "$TEST_TMP/gate.sh" "$TEST_TMP/open" "$TEST_TMP/sampling"
exp "$TEST_TMP/a.ini" owner-a "/bin/sh $TEST_TMP/gate.sh"
exp "$TEST_TMP/b.ini" owner-b "sleep 0.2"

# Wait (up to 20 s, looking every 20 ms) until FILE holds VALUE.
wait_value() {
	i=0
	while [ "$(cat "$1")" != "$2" ] && [ $i -lt 1000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	[ "$(cat "$1")" = "$2" ]
}

# Case 1: the second run is refused, nothing it did to the host. The host
# lock is the host's: the first run may wait for other tests' runs first.
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" \
    > "$TEST_TMP/a.out" 2>&1 &
apid=$!
wait_host_holder $apid
ABBENCH_WAIT_LOCK=0 "$ABBENCH" run --quiet --db "$TEST_TMP/b.db" "$TEST_TMP/b.ini" \
    > "$TEST_TMP/b.out" 2>&1
brc=$?
ok "$([ $brc -ne 0 ]; echo $?)" "a second run that changes the host is refused (exit $brc)"
like "$(cat "$TEST_TMP/b.out")" "in use by another run.*pid $apid, experiment 'owner-a', database '[^']*a\.db'" \
    "the refusal names the holder's pid, experiment and database"
ok "$([ ! -e "$TEST_TMP/b.db" ]; echo $?)" \
    "the refused run made not even its database"
touch "$TEST_TMP/open"
wait $apid
ok $? "the first run finishes (exit 0)"
is "$(cat "$Q/fifo_batch")" 3 "the disk ends as it began (fifo_batch 3)"

# --wait-lock: the second waits for the first; both end, the host as before.
rm -f "$TEST_TMP/open" "$TEST_TMP/sampling"
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" \
    > "$TEST_TMP/a2.out" 2>&1 &
apid=$!
wait_host_holder $apid
ABBENCH_WAIT_LOCK=0 "$ABBENCH" run --quiet --wait-lock --db "$TEST_TMP/b.db" "$TEST_TMP/b.ini" \
    > "$TEST_TMP/b2.out" 2>&1 &
bpid=$!
# b waits while a holds the disk: open the gate once b says it waits
# for the host (at most 20 s; it slept 1 s hoping b had started).
wait_file "$TEST_TMP/b2.out" "waiting for the host"
touch "$TEST_TMP/open"
wait $bpid
ok $? "with --wait-lock the second run waits and finishes"
wait $apid
ok $? "and so does the first"
is "$(cat "$Q/fifo_batch")" 3 "the disk ends as it began after both"
a_end=$(sqlite3 "$TEST_TMP/a.db" "SELECT max(end_wall_ns) FROM samples")
b_start=$(sqlite3 "$TEST_TMP/b.db" "SELECT min(start_wall_ns) FROM samples WHERE run_id = (SELECT max(id) FROM runs)")
ok "$([ "$b_start" -gt "$a_end" ]; echo $?)" "the waiting run sampled only after the holder's last sample"

# Runs that change nothing on the host run side by side.
fast_slow_exp "$TEST_TMP/c.ini" plain 3
"$ABBENCH" run --quiet --db "$TEST_TMP/c1.db" "$TEST_TMP/c.ini" &
c1=$!
"$ABBENCH" run --quiet --db "$TEST_TMP/c2.db" "$TEST_TMP/c.ini"
c2rc=$?
wait $c1
c1rc=$?
is "$c1rc:$c2rc" 0:0 "two runs that change nothing run at once"

# Case 2: kill -9 with DB A, `abbench restore` with no --db elsewhere.
# (Run a's samples wait at the closed gate until it is killed.)
rm -f "$TEST_TMP/open" "$TEST_TMP/sampling"
mkdir -p "$TEST_TMP/elsewhere"
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" \
    > "$TEST_TMP/a3.out" 2>&1 &
apid=$!
wait_host_holder $apid
wait_file "$TEST_TMP/sampling"
wait_value "$Q/fifo_batch" 8
ok $? "the run set fifo_batch 8 (its first arm's: the sample waits there)"
kill -9 $apid
wait $apid 2>/dev/null
(cd "$TEST_TMP/elsewhere" && "$ABBENCH" restore) > "$TEST_TMP/r.out" 2>&1
ok $? "abbench restore, no arguments, from another directory, exits 0"
# The host lock is the host's: a run of another test that takes it first
# undoes a dead holder's changes itself (whatever its state directory).
grep -q "host.block.fifo_batch = 3 ($Q/fifo_batch)" "$TEST_TMP/r.out" || {
	grep -q "nothing to restore" "$TEST_TMP/r.out" &&
	    [ "$(cat "$Q/fifo_batch")" = 3 ] &&
	    diag "the next holder of the host (another test's run) undid it first"
}
ok $? "it says it restored fifo_batch to 3"
is "$(cat "$Q/fifo_batch")" 3 "fifo_batch is 3 again"
ok "$([ ! -e "$TEST_TMP/elsewhere/abbench.db" ]; echo $?)" \
    "restore made no database where it ran"
last=$(sqlite3 "$TEST_TMP/a.db" "SELECT max(id) FROM runs")
is "$(sqlite3 "$TEST_TMP/a.db" "SELECT count(*) FROM journal WHERE run_id = $last AND kind = 'host.block.fifo_batch' AND state = 'restored'")" \
    "$(sqlite3 "$TEST_TMP/a.db" "SELECT count(*) FROM journal WHERE run_id = $last AND kind = 'host.block.fifo_batch'")" \
    "the DB keeps its copy of the journal, marked restored"

# A run with DB B restores what a dead run with DB A left.
rm -f "$TEST_TMP/sampling"
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" \
    > "$TEST_TMP/a4.out" 2>&1 &
apid=$!
wait_host_holder $apid
wait_file "$TEST_TMP/sampling"
wait_value "$Q/fifo_batch" 8
kill -9 $apid
wait $apid 2>/dev/null
"$ABBENCH" run --db "$TEST_TMP/b.db" --rounds 1 "$TEST_TMP/b.ini" \
    > "$TEST_TMP/b4.out" 2>&1
ok $? "a run with another database runs"
grep -q "restored.*fifo_batch = 3" "$TEST_TMP/b4.out" || {
	[ "$(sqlite3 "$TEST_TMP/b.db" "SELECT group_concat(DISTINCT original) FROM journal WHERE run_id = (SELECT max(id) FROM runs) AND kind = 'host.block.fifo_batch'")" = 3 ] &&
	    diag "the next holder of the host (another test's run) undid it first"
}
ok $? "and first restores what the dead run with database A left" ||
    sed 's/^/# /' "$TEST_TMP/b4.out"
is "$(cat "$Q/fifo_batch")" 3 "fifo_batch is 3 at its end"

# The host journal lost: the database's copy is enough with --db.
ABBENCH_STATE_DIR=$TEST_TMP/lost "$ABBENCH_BUILDDIR/tests/helpers/hs-driver" \
    "$TEST_TMP/d.db" "$TEST_TMP/a.ini" "$LOOP_MNT" batch0 hang \
    > "$TEST_TMP/d.out" 2>&1 &
dpid=$!
wait_value "$Q/fifo_batch" 0
kill -9 $dpid
wait $dpid 2>/dev/null
rm -rf "$TEST_TMP/lost"
"$ABBENCH" restore --trust-db --db "$TEST_TMP/d.db" > "$TEST_TMP/d.r" 2>&1
ok $? "with the host journal lost, restore --db exits 0"
is "$(cat "$Q/fifo_batch")" 3 "and fifo_batch is 3 again, from the database's copy"
done_testing
