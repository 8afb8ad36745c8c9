#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The host watched (issue #53, findings 3 and 4). A loop disk on
# mq-deadline whose tunables the host tuned (fifo_batch 5, read_expire
# 400, writes_starved 3); one arm sets fifo_batch 1, the other 8. During
# one sample someone else (the sample's own program here) writes a
# tunable the run set, writes one it never set, or switches the disk to
# kyber. Each time: said at once ("host changed during the sample"),
# kept with the run's warnings, that sample stored with status
# host-changed (its values kept; stat leaves it out, report lists it, a
# make-up round replaces it), the run exits 1, and at its end the disk is
# as the run found it: mq-deadline with 5, 400 and 3, never the
# outsider's scheduler or values taken for the originals.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_scheduler mq-deadline
require_cmd sqlite3
grep -qw kyber /sys/block/loop*/queue/scheduler 2>/dev/null ||
    [ -n "$(ls /sys/block | grep loop)" ] || skip_all "no loop devices"

make_loop 64 mq-deadline || skip_all "cannot make a loop device"
grep -qw kyber "$LOOP_SYSFS/scheduler" || skip_all "no kyber here"
Q=$LOOP_SYSFS/iosched
host() {
	echo mq-deadline > "$LOOP_SYSFS/scheduler"
	echo 5 > "$Q/fifo_batch"
	echo 400 > "$Q/read_expire"
	echo 3 > "$Q/writes_starved"
}
state() {
	echo "$(sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler") $(cat "$Q/fifo_batch" 2>/dev/null) $(cat "$Q/read_expire" 2>/dev/null) $(cat "$Q/writes_starved" 2>/dev/null)"
}
# The samples' program: at its Nth call, the action in $TEST_TMP/action.
cat > "$TEST_TMP/prog.sh" <<EOT
#!/bin/sh
n=\$(cat "$TEST_TMP/count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n > "$TEST_TMP/count"
for a in \$(cat "$TEST_TMP/at"); do
	[ "\$n" = "\$a" ] && sh "$TEST_TMP/action"
done
sleep 0.05
EOT
chmod +x "$TEST_TMP/prog.sh"
cat > "$TEST_TMP/e.ini" <<EOT
[experiment]
name = watched
rounds = 3
[arm a]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 1
[arm b]
host.block.path = $LOOP_MNT
host.block.fifo_batch = 8
[workload w]
type = command
args = $TEST_TMP/prog.sh
EOT

# case NAME AT ACTION WANT [ROUNDS HC OK]: the action at the AT-th
# samples (a list); WANT, a regex of the warning; with ROUNDS rounds, HC
# samples host-changed and OK ("samples/rounds") ok.
case_() {
	name=$1 at=$2 action=$3 want=$4 rounds=${5:-3} hc=${6:-1} good=${7:-7/4}
	host
	echo "$action" > "$TEST_TMP/action"
	echo "$at" > "$TEST_TMP/at"
	rm -f "$TEST_TMP/count" "$TEST_TMP/$name.db"
	"$ABBENCH" run --db "$TEST_TMP/$name.db" --rounds "$rounds" "$TEST_TMP/e.ini" > "$TEST_TMP/$name.out" 2>&1
	is "$?" 1 "$name: the run exits 1 (not every sample ok)" ||
	    sed 's/^/# /' "$TEST_TMP/$name.out"
	like "$(cat "$TEST_TMP/$name.out")" "warning: host changed during the sample: $want" \
	    "$name: said at once"
	is "$(sqlite3 "$TEST_TMP/$name.db" "SELECT count(DISTINCT plan_idx) FROM samples WHERE status = 'host-changed'")" "$hc" \
	    "$name: $hc sample(s) stored host-changed"
	is "$(sqlite3 "$TEST_TMP/$name.db" "SELECT count(*) FROM samples WHERE status = 'host-changed' AND value IS NOT NULL")" "$hc" \
	    "$name: with their values"
	is "$(sqlite3 "$TEST_TMP/$name.db" "SELECT count(DISTINCT plan_idx) || '/' || count(DISTINCT round) FROM samples WHERE status = 'ok'")" "$good" \
	    "$name: make-up rounds: $good ok samples/rounds"
	ok "$(sqlite3 "$TEST_TMP/$name.db" "SELECT count(*) FROM warnings WHERE text LIKE 'host changed during the sample:%'" | grep -qv '^0$'; echo $?)" \
	    "$name: kept with the run's warnings"
	is "$(state)" "mq-deadline 5 400 3" "$name: the disk is as the run found it"
	is "$(sqlite3 "$TEST_TMP/$name.db" "SELECT count(*) FROM journal WHERE original IN ('kyber', '99', '77')")" 0 \
	    "$name: the outsider's value is never journaled as an original"
	"$ABBENCH" report --db "$TEST_TMP/$name.db" 1 -o "$TEST_TMP/$name.md" > /dev/null 2>&1
	file_like "$TEST_TMP/$name.md" "host-changed" "$name: report lists the sample"
	"$ABBENCH" stat --db "$TEST_TMP/$name.db" -format csv 1:a 1:b > "$TEST_TMP/$name.csv" 2>&1
	like "$(grep -c . "$TEST_TMP/$name.csv")" "^[0-9]+$" "$name: stat reads the run"
}
case_ written-set 2 "echo 99 > $Q/fifo_batch" \
    "$Q/fifo_batch is 99, not 8 as the run set it: written by someone else, put back"
case_ written-other 3 "echo 77 > $Q/writes_starved" \
    "$Q/writes_starved is 77, not 3 as the run set it: written by someone else, put back"
case_ kyber 3 "echo kyber > $LOOP_SYSFS/scheduler" \
    "the I/O scheduler of '$LOOP_NAME' is kyber, not mq-deadline as the run set it"
# Switched during the very last sample (one round, whose only round is
# not made up when it failed: the run ends there): the end itself must
# switch back, with mq-deadline's tunables.
case_ kyber-last 2 "echo kyber > $LOOP_SYSFS/scheduler" \
    "the I/O scheduler of '$LOOP_NAME' is kyber, not mq-deadline" 1 1 1/1

# A sysctl the run set, written by someone else mid-sample.
S=/proc/sys/vm/swappiness
sw0=$(cat $S)
sw1=$(( sw0 == 10 ? 11 : 10 ))
cat > "$TEST_TMP/s.ini" <<EOT
[experiment]
name = watched-sysctl
rounds = 2
[arm a]
host.sysctl.vm.swappiness = $sw1
[arm b]
[workload w]
type = command
args = $TEST_TMP/prog.sh
EOT
echo "echo 33 > $S" > "$TEST_TMP/action"
echo 1 > "$TEST_TMP/at"
rm -f "$TEST_TMP/count"
"$ABBENCH" run --db "$TEST_TMP/s.db" "$TEST_TMP/s.ini" > "$TEST_TMP/s.out" 2>&1
is "$?" 1 "sysctl: the run exits 1"
like "$(cat "$TEST_TMP/s.out")" "warning: host changed during the sample: $S is 33, not ($sw1|$sw0) as the run set it" \
    "sysctl: said at once"
is "$(sqlite3 "$TEST_TMP/s.db" "SELECT count(DISTINCT plan_idx) FROM samples WHERE status = 'host-changed'")" 1 \
    "sysctl: one sample stored host-changed"
is "$(cat $S)" "$sw0" "sysctl: back to the host's $sw0 at the end"
is "$(sqlite3 "$TEST_TMP/s.db" "SELECT count(*) FROM journal WHERE original = '33'")" 0 \
    "sysctl: the outsider's value is never journaled as an original"
echo "$sw0" > $S
done_testing
