#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A results database is untrusted input (issue #53, finding 1). As
# nobody: a copy of an abbench database, its run marked running with a
# dead pid, journal rows naming other people's files and a disk's knob.
# As root, `abbench restore --db` and `run --resume` of it must touch
# nothing: a database another user owns is refused (exit 2); one of
# root's own is only a hint, and what the host journal does not have is
# named and left (exit 1); with --trust-db, entries of kinds or targets
# abbench never writes are still refused. Forged rows in root's own host
# journal (".." paths, symbolic links in /sys, a directory outside
# abbench's) are refused the same way, and a state directory another
# user owns is refused outright. No test here names /etc/shadow itself:
# a copy stands in for it, and /etc/shadow is checked untouched.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd sqlite3 runuser sha256sum
require_scheduler mq-deadline

V=/var/tmp/t0534-$$
end() {
	rm -rf "$V".*
	lib_cleanup
}
trap end EXIT
make_loop 64 mq-deadline || skip_all "cannot make a loop device"
knob=/sys/block/$LOOP_NAME/queue/iosched/fifo_batch
knob0=$(cat "$knob")
evil=$((knob0 + 5))
shadow_sum=$(sha256sum /etc/shadow)

# An abbench database of root's.
fast_slow_exp "$TEST_TMP/e.ini" untrusted 1
"$ABBENCH" run --quiet --db "$TEST_TMP/src.db" "$TEST_TMP/e.ini" > /dev/null 2>&1
ok $? "a run makes the database copied below"
chmod 711 "$TEST_TMP"
chmod 644 "$TEST_TMP/src.db"
mkdir "$TEST_TMP/pub"
chmod 1777 "$TEST_TMP/pub"

# The victims: root's files, and a stand-in for /etc/shadow.
victims() {
	echo keep > "$V.victim"
	echo keep > "$V.victim2"
	cp /etc/shadow "$V.shadow"
	chmod 600 "$V.shadow"
	mkdir -p "$V.dir"
	echo keep > "$V.dir/inside"
}
untouched() {
	[ "$(cat "$V.victim" 2>/dev/null)" = keep ] &&
	    [ "$(cat "$V.victim2" 2>/dev/null)" = keep ] &&
	    cmp -s /etc/shadow "$V.shadow" &&
	    [ "$(cat "$V.dir/inside" 2>/dev/null)" = keep ] &&
	    [ "$(cat "$knob")" = "$knob0" ] &&
	    [ "$(sha256sum /etc/shadow)" = "$shadow_sum" ]
}
dead=$(sh -c 'echo $$')
# The audit's rows and more: other kinds, "..", a symbolic link in /sys.
ROWS="
UPDATE runs SET status = 'running', pid = $dead, pid_start = 'x:1';
INSERT INTO journal (run_id, seq, kind, name, target, original, state) VALUES
 (1, 100, 'file', 'file', '$V.victim', NULL, 'applied'),
 (1, 101, 'host.sysctl.vm.swappiness', '', '$V.victim2', 'PWNED', 'applied'),
 (1, 102, 'host.block.fifo_batch', 'mq-deadline', '$knob', '$evil', 'applied'),
 (1, 103, 'file', 'file', '$V.shadow', NULL, 'applied'),
 (1, 104, 'dir', 'dir', '$V.dir', NULL, 'applied'),
 (1, 105, 'file', 'file', '/tmp/abbench-x/../..$V.victim', NULL, 'applied'),
 (1, 106, 'host.sysctl.kernel.x', '', '/proc/sys/../..$V.victim2', 'PWNED', 'applied'),
 (1, 107, 'host.block.fifo_batch', 'mq-deadline', '/sys/block/$LOOP_NAME/subsystem/$LOOP_NAME/queue/iosched/fifo_batch', '$evil', 'applied'),
 (1, 108, 'host.block.scheduler', '', '/sys/block/$LOOP_NAME/../../../..$V.victim2', 'PWNED', 'applied');
"
nrows=9
# As nobody: the copy, made theirs.
victims
runuser -u nobody -- sh -c "cp '$TEST_TMP/src.db' '$TEST_TMP/pub/evil.db' &&
    sqlite3 '$TEST_TMP/pub/evil.db' \"$ROWS\""
ok $? "nobody forged a database"
is "$(stat -c %U "$TEST_TMP/pub/evil.db")" nobody "it is nobody's"

"$ABBENCH" restore --db "$TEST_TMP/pub/evil.db" > "$TEST_TMP/r.out" 2>&1
is "$?" 2 "restore --db of nobody's database exits 2"
like "$(cat "$TEST_TMP/r.out")" "refusing database: database '.*evil.db' is owned by uid 65534" \
    "and says whose it is"
ok "$(untouched; echo $?)" "nothing is touched: files, knob, /etc/shadow"
is "$(sqlite3 "$TEST_TMP/pub/evil.db" "SELECT count(*) FROM journal WHERE state != 'restored' AND seq >= 100")" \
    $nrows "its journal is as nobody left it"

# run --resume: its stored experiment would run as root.
runuser -u nobody -- sqlite3 "$TEST_TMP/pub/evil.db" \
    "UPDATE runs SET experiment_text = replace(experiment_text, 'args = true', 'args = touch $V.pwned')"
"$ABBENCH" run --quiet --resume 1 --db "$TEST_TMP/pub/evil.db" > "$TEST_TMP/run.out" 2>&1
is "$?" 2 "run --resume of nobody's database exits 2"
like "$(cat "$TEST_TMP/run.out")" "refusing to resume from database: database '.*evil.db' is owned by uid 65534" \
    "and says why"
ok "$([ ! -e "$V.pwned" ]; echo $?)" "its experiment did not run"
ok "$(untouched; echo $?)" "nothing is touched"

# A database writable by nobody, though root's: the same.
cp "$TEST_TMP/pub/evil.db" "$TEST_TMP/mine.db"
chmod 666 "$TEST_TMP/mine.db"
"$ABBENCH" restore --db "$TEST_TMP/mine.db" > "$TEST_TMP/r.out" 2>&1
is "$?" 2 "a database anyone may write is refused too"
like "$(cat "$TEST_TMP/r.out")" "is writable by anyone" "and says so"
chmod 644 "$TEST_TMP/mine.db"
# A hot journal another user left next to root's database.
runuser -u nobody -- sh -c "echo x > '$TEST_TMP/pub/hot.db-journal'"
cp "$TEST_TMP/mine.db" "$TEST_TMP/pub/hot.db"
"$ABBENCH" restore --db "$TEST_TMP/pub/hot.db" > "$TEST_TMP/r.out" 2>&1
is "$?" 2 "a database with another user's hot journal beside it is refused"
ok "$(untouched; echo $?)" "nothing is touched"

# Root's own copy: its journal is only a hint.
"$ABBENCH" restore --db "$TEST_TMP/mine.db" > "$TEST_TMP/r.out" 2>&1
is "$?" 1 "restore --db of root's database with entries no host journal has exits 1"
is "$(grep -c "refused journal entry .*only the database has it" "$TEST_TMP/r.out")" $nrows \
    "each of its $nrows entries is named as refused"
ok "$(untouched; echo $?)" "nothing is touched"
# (its samples gone, so that the resume has something to run)
sqlite3 "$TEST_TMP/mine.db" "DELETE FROM sample_values; DELETE FROM executions; DELETE FROM sample_runs"
"$ABBENCH" run --quiet --resume 1 --db "$TEST_TMP/mine.db" > /dev/null 2>&1
ok "$([ -e "$V.pwned" ]; echo $?)" "run --resume of root's own database runs its experiment (the check is ownership)"
rm -f "$V.pwned"
sqlite3 "$TEST_TMP/mine.db" "UPDATE runs SET status = 'running', pid = $dead, pid_start = 'x:1'; UPDATE journal SET state = 'applied' WHERE seq >= 100"

# --trust-db: the user vouches for the database; the entries are still
# checked one by one, whatever the database says.
"$ABBENCH" restore --trust-db --db "$TEST_TMP/pub/evil.db" > "$TEST_TMP/r.out" 2>&1
rc=$?
is "$rc" 1 "restore --trust-db of the forged entries exits 1"
for t in "$V.victim'" "$V.victim2'" "$V.shadow'" "$V.dir'" "/tmp/abbench-x/../..$V.victim'" \
    "/proc/sys/../..$V.victim2'" "subsystem/$LOOP_NAME/queue/iosched/fifo_batch'" \
    "/sys/block/$LOOP_NAME/../../../..$V.victim2'"; do
	like "$(cat "$TEST_TMP/r.out")" "refused journal entry [0-9]+ \\(kind '[^']*', target '[^']*$t\\)" \
	    "refused: ${t%\'}"
done
# The one row that names what abbench itself writes (the disk's knob at
# its own path) is what the user vouched for.
is "$(cat "$knob")" "$evil" "with --trust-db, the one well-formed entry (the knob) is acted on"
echo "$knob0" > "$knob"
ok "$(untouched; echo $?)" "nothing else is touched by the refused entries" ||
    sed 's/^/# /' "$TEST_TMP/r.out"

# db merge of the forged database into root's: its journal arrives as
# history (state merged), which nothing undoes. (The knob row above was
# acted on: the copy restored it.)
victims
"$ABBENCH" run --quiet --db "$TEST_TMP/merged.db" "$TEST_TMP/e.ini" > /dev/null 2>&1
"$ABBENCH" db merge --db "$TEST_TMP/merged.db" "$TEST_TMP/mine.db" > /dev/null 2>&1
ok $? "db merge of the forged database into root's"
is "$(sqlite3 "$TEST_TMP/merged.db" "SELECT sum(state = 'merged') || '/' || sum(state != 'merged') FROM journal WHERE target LIKE '%t0534-$$%'")" \
    "7/0" "its forged rows arrive as history (7 merged, none pending)"
"$ABBENCH" restore --trust-db --db "$TEST_TMP/merged.db" > "$TEST_TMP/r.out" 2>&1
ok "$(untouched; echo $?)" "restore --trust-db of the merged database touches nothing" ||
    sed 's/^/# /' "$TEST_TMP/r.out"

# Forged rows in root's own host journal (the state directory's).
"$ABBENCH" restore > /dev/null 2>&1
hj=$ABBENCH_STATE_DIR/journal.db
ok "$([ -f "$hj" ]; echo $?)" "the host journal is there"
victims
sqlite3 "$hj" "INSERT INTO owners (uuid, db, run_id, pid, experiment, started_wall_ns, pid_start)
 VALUES ('f0f0f0f0-0000-4000-8000-000000000534', '$TEST_TMP/none.db', 1, $dead, 'forged', 0, 'x:1');
INSERT INTO entries (owner, kind, name, target, original, state) VALUES
 ('f0f0f0f0-0000-4000-8000-000000000534', 'file', 'file', '$V.victim', NULL, 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'file', 'file', '$V.shadow', NULL, 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'dir', 'dir', '$V.dir', NULL, 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'file', 'file', '/tmp/abbench-x/../..$V.victim', NULL, 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'host.sysctl.vm.swappiness', '', '$V.victim2', 'PWNED', 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'host.block.fifo_batch', 'mq-deadline', '/sys/block/$LOOP_NAME/subsystem/$LOOP_NAME/queue/iosched/fifo_batch', '$evil', 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'oci-container', '', '$V.victim	/run/x	abbench-1', NULL, 'applied'),
 ('f0f0f0f0-0000-4000-8000-000000000534', 'no-such-kind', '', '$V.victim', NULL, 'applied');"
"$ABBENCH" restore > "$TEST_TMP/r.out" 2>&1
is "$?" 1 "restore of forged host journal rows exits 1"
is "$(grep -c "refused journal entry" "$TEST_TMP/r.out")" 8 "each of the 8 is named as refused" ||
    sed 's/^/# /' "$TEST_TMP/r.out"
ok "$(untouched; echo $?)" "nothing is touched"
is "$(sqlite3 "$hj" "SELECT count(*) FROM entries WHERE owner LIKE 'f0f0f0f0%' AND state != 'restored'")" 8 \
    "they stay pending in the host journal"
sqlite3 "$hj" "DELETE FROM entries WHERE owner LIKE 'f0f0f0f0%'; DELETE FROM owners WHERE uuid LIKE 'f0f0f0f0%'"

# A state directory nobody may write: its journal is theirs, refused.
mkdir "$TEST_TMP/pub/state"
cp -a "$hj" "$TEST_TMP/pub/state/journal.db"
chown -R nobody "$TEST_TMP/pub/state"
runuser -u nobody -- sqlite3 "$TEST_TMP/pub/state/journal.db" "INSERT INTO owners (uuid, db, run_id, pid, experiment, started_wall_ns, pid_start)
 VALUES ('f0f0f0f0-0000-4000-8000-000000000535', '$TEST_TMP/none.db', 1, $dead, 'forged', 0, 'x:1');
INSERT INTO entries (owner, kind, name, target, original, state) VALUES
 ('f0f0f0f0-0000-4000-8000-000000000535', 'file', 'file', '/var/tmp/abbench-t0534-$$', NULL, 'applied');"
: > /var/tmp/abbench-t0534-$$
ABBENCH_STATE_DIR=$TEST_TMP/pub/state "$ABBENCH" restore > "$TEST_TMP/r.out" 2>&1
is "$?" 2 "restore with a state directory nobody owns exits 2"
like "$(cat "$TEST_TMP/r.out")" "state directory entry '.*pub/state' is owned by uid 65534" \
    "and says whose it is"
ok "$([ -e /var/tmp/abbench-t0534-$$ ]; echo $?)" "its entry (abbench-named, in /var/tmp) was not undone"
rm -f /var/tmp/abbench-t0534-$$
ok "$(untouched; echo $?)" "nothing is touched"
is "$(sha256sum /etc/shadow)" "$shadow_sum" "/etc/shadow is untouched"
done_testing
