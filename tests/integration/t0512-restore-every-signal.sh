#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every signal that ends a process by default and can be caught ends a
# run through its restore, as SIGTERM does (issue #53, finding 14):
# SIGUSR1 killed abbench with the host left changed. For each such
# signal, a run whose arm sets fifo_batch 1 on a mq-deadline loop device
# (tuned to 5 by the host) gets it in the middle of a sample: it exits
# 130, the run is stored as interrupted, and the disk is back at 5 with
# no journal entry left. (The sample marks that it has begun and waits:
# fifo_batch is 1 a moment before it too, while the run tries the arm's
# tunable.) SIGPIPE is ignored for good: a run whose
# progress goes to `| head -n 1` runs to its end and restores the disk.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
require_cmd sqlite3 bash

SIGS="USR1 USR2 ALRM VTALRM PROF XCPU XFSZ IO STKFLT PWR QUIT RTMIN RTMAX"
plan $(($(echo $SIGS | wc -w) * 3 + 4))

make_loop 64 mq-deadline || { diag "cannot make a loop device"; exit 1; }
Q=$LOOP_SYSFS/iosched
echo 5 > "$Q/fifo_batch"
DB=$TEST_TMP/db

exp() {
	cat > "$TEST_TMP/e.ini" <<EOT
[experiment]
name = t0512
rounds = $1
[arm batch1]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 1
[workload sleep]
type = command
args = $2
EOT
}

# Wait (up to 20 s, looking every 20 ms) until fifo_batch is $1.
wait_batch() {
	i=0
	while [ "$(cat "$Q/fifo_batch")" != "$1" ] && [ $i -lt 1000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	[ "$(cat "$Q/fifo_batch")" = "$1" ]
}

gate_program "$TEST_TMP/batch1.sh" "$TEST_TMP/never" "$TEST_TMP/in-batch1"
exp 1 "/bin/sh $TEST_TMP/batch1.sh"
for sig in $SIGS; do
	rm -f "$TEST_TMP/in-batch1"
	"$ABBENCH" run --db "$DB" "$TEST_TMP/e.ini" > "$TEST_TMP/run.$sig" 2>&1 &
	pid=$!
	wait_host_holder $pid
	{ wait_file "$TEST_TMP/in-batch1" && wait_batch 1; } ||
	    diag "SIG$sig: the arm did not set fifo_batch 1"
	# bash knows every name (RTMIN, STKFLT); dash's kill does not.
	bash -c "kill -s $sig $pid"
	wait $pid
	rc=$?
	is "$rc" 130 "SIG$sig: the run exits 130, as interrupted" ||
	    sed 's/^/# /' "$TEST_TMP/run.$sig"
	is "$(cat "$Q/fifo_batch")" 5 "SIG$sig: fifo_batch is back at 5"
	is "$(sqlite3 "$DB" "SELECT status FROM runs ORDER BY id DESC LIMIT 1")/$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state != 'restored'")" \
	    interrupted/0 "SIG$sig: the run is interrupted, nothing left in its journal"
done

# SIGPIPE: the reader of the progress goes away after one line.
exp 3 "sleep 0.3"
"$ABBENCH" run --db "$DB" --json-progress "$TEST_TMP/e.ini" 2> "$TEST_TMP/pipe.err" |
    head -n 1 > "$TEST_TMP/pipe.out"
like "$(cat "$TEST_TMP/pipe.out")" '^\{' "the reader got the first sample's line"
is "$(sqlite3 "$DB" "SELECT status || '/' || (SELECT count(*) FROM samples s WHERE s.run_id = runs.id) FROM runs ORDER BY id DESC LIMIT 1")" \
    done/3 "the run went on to its end after its reader left (SIGPIPE ignored)"
is "$(cat "$Q/fifo_batch")" 5 "fifo_batch is back at 5 after it"
is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state != 'restored'")" 0 \
    "nothing left in the journal"
done_testing
