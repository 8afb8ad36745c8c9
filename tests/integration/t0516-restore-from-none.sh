#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A disk the run found on the scheduler none (no tunables), whose arms
# switch it to schedulers that have some: one arm mq-deadline with
# read_expire 400, the other kyber (the newcomer's hour, 7 Dec 2026: the
# quickstart, none -> bfq in the guest, ended with "10 host settings not
# restored"). At the end the disk went back to none, but the end had
# journaled the tunables of the scheduler it was leaving as none's, and
# put them back after none: their files were gone, 9 "not restored", exit
# 1, and every later `abbench restore` said them again. Now: exit 0,
# nothing said, the disk on none, the journal done, restore has nothing.
# The same for one arm alone that leaves the disk on mq-deadline.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_scheduler mq-deadline
require_scheduler kyber
require_cmd sqlite3
plan 10

make_loop 32 none || { diag "cannot make a loop device"; exit 1; }
state() {
	sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler"
}
is "$(state)" none "the disk starts at none"

exp() {
	printf '[experiment]\nname = from-none\nrounds = 2\n%s\n[workload w]\ntype = command\nargs = true\n' "$1" > "$TEST_TMP/e.ini"
}
exp "[arm deadline]
host.block.path = $LOOP_MNT
host.block.scheduler = mq-deadline
host.block.read_expire = 400
[arm kyber]
host.block.path = $LOOP_MNT
host.block.scheduler = kyber"
"$ABBENCH" run --db "$TEST_TMP/a.db" "$TEST_TMP/e.ini" > "$TEST_TMP/run" 2>&1
ok $? "mq-deadline and kyber arms: the run exits 0" ||
    sed 's/^/# /' "$TEST_TMP/run"
is "$(grep -c 'not restored' "$TEST_TMP/run")" 0 "nothing is said not restored"
is "$(state)" none "the disk is on none again"
is "$(sqlite3 "$TEST_TMP/a.db" "SELECT count(*) FROM journal WHERE state <> 'restored'")" \
    0 "every journal entry of the run is restored"
"$ABBENCH" restore > "$TEST_TMP/restore" 2>&1
is "$?:$(cat "$TEST_TMP/restore")" "0:nothing to restore" \
    "abbench restore has nothing left to do"

exp "[arm plain]
[arm deadline]
host.block.path = $LOOP_MNT
host.block.scheduler = mq-deadline
host.block.fifo_batch = 4"
sed -i 's/order = .*//; s/^rounds = 2/rounds = 1\norder = sequential/' "$TEST_TMP/e.ini"
"$ABBENCH" run --db "$TEST_TMP/b.db" "$TEST_TMP/e.ini" > "$TEST_TMP/run" 2>&1
ok $? "an arm that leaves the disk on mq-deadline: the run exits 0" ||
    sed 's/^/# /' "$TEST_TMP/run"
is "$(grep -c 'not restored' "$TEST_TMP/run")" 0 "nothing is said not restored"
is "$(state)" none "the disk is on none again"
"$ABBENCH" restore > "$TEST_TMP/restore" 2>&1
is "$?:$(cat "$TEST_TMP/restore")" "0:nothing to restore" \
    "abbench restore has nothing left to do"
done_testing
