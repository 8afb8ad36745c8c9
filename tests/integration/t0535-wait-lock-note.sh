#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A run that waits for the host (--wait-lock) says so, also when its output
# goes to a file (a cron log could not tell waiting from hung): one line
# when the wait begins, naming the holder, and one when it ends.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3 mkfs.ext4

make_loop 64 mq-deadline || { diag "cannot make a loop device"; exit 1; }
# exp FILE NAME SLEEP ROUNDS
exp() {
	cat > "$1" <<EOT
[experiment]
name = $2
rounds = $4
[arm a]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 8
[workload sleep]
type = command
args = sleep $3
EOT
}
exp "$TEST_TMP/a.ini" hold 0.5 4
exp "$TEST_TMP/b.ini" waiter 0.1 1

"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/a.ini" > "$TEST_TMP/a.out" 2>&1 &
apid=$!
wait_host_holder $apid
ok $? "the first run holds the host"
ABBENCH_WAIT_LOCK=0 "$ABBENCH" run --quiet --wait-lock --db "$TEST_TMP/b.db" \
    "$TEST_TMP/b.ini" > "$TEST_TMP/b.out" 2> "$TEST_TMP/b.err"
ok $? "the second run, --wait-lock, output to files, waits and runs"
wait $apid
ok $? "the first run ends well"
like "$(cat "$TEST_TMP/b.err")" "note: [0-9T:-]+Z: waiting for the host: another run that changes it holds it \(pid [0-9]+, experiment '[^']*', database '[^']*'\)" \
    "a line when the wait begins, naming the holder"
like "$(cat "$TEST_TMP/b.err")" "note: [0-9T:-]+Z: the host is free after ([0-9]+\.[0-9]s|[0-9]+m[0-9]{2}s) of waiting: starting" \
    "a line when it ends"
is "$(grep -c 'waiting for the host' "$TEST_TMP/b.err")" 1 "one line, not one per try"

# Before the note: the run's stderr was empty while it waited. The note
# comes before anything of the run's own (it had not started).
is "$(head -n 1 "$TEST_TMP/b.err" | grep -c 'waiting for the host')" 1 \
    "the first line of the waiting run's output says it waits"
done_testing
