#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# max-rss-B of `command` (report = rss) is the program's peak RSS, not
# abbench's: `true` stays under 2 MiB (its own is ~1 MiB; the spawn
# helper's RSS, ~0.7 MiB, is the floor) and does not move when abbench
# holds 256 MiB (ABBENCH_DEBUG_BALLAST); `touchmem -x 32m` reports 32 MiB
# + < 1.5 MiB, dd with bs=64M 64 MiB + < 3 MiB, bs=4k < 3 MiB (dd's own
# is ~1.9 MiB); a failed exec still says why; the spawn helper (the static
# program abbench-spawn) is gone after a run, after Ctrl-C and kill -9.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
TOUCHMEM=$ABBENCH_BUILDDIR/payload/idle/touchmem
[ -x "$TOUCHMEM" ] || skip_all "touchmem is not built"

exp=$TEST_TMP/rss.ini
# A program that passes the check before the first sample (a runnable
# file) but whose exec fails: its interpreter does not exist (ENOENT).
printf '#!/nonexistent/interpreter\n' > "$TEST_TMP/no-such-program"
chmod +x "$TEST_TMP/no-such-program"
cat > "$exp" <<EOF2
[experiment]
name = rss
rounds = 2

[arm true]
args = true

[arm ddsmall]
args = dd if=/dev/zero of=/dev/null bs=4k count=16

[arm ddlarge]
args = dd if=/dev/zero of=/dev/null bs=64M count=1

[arm touch32]
args = $TOUCHMEM -x 32m

[arm bad]
args = $TEST_TMP/no-such-program

[workload Cmd]
type = command
report = rss
EOF2

# MiB, max over the arm's ok samples, in the run stored in db $1.
mib() {
	sqlite3 "$1" "SELECT max(value) / 1048576.0 FROM samples
	    WHERE arm = '$2' AND status = 'ok' AND unit = 'max-rss-B'"
}
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v < hi) }'
}

for ballast in 0 256m; do
	db=$TEST_TMP/b$ballast.db
	ABBENCH_DEBUG_BALLAST=$ballast "$ABBENCH" run "$exp" --db "$db" \
	    --quiet > "$TEST_TMP/out" 2>&1
	is "$?" 1 "ballast $ballast: the run ends 1 (the bad arm failed)"
	n=$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE status = 'ok' AND unit = 'max-rss-B'")
	is "$n" 8 "ballast $ballast: 4 arms x 2 rounds of max-rss-B stored"
	v=$(mib "$db" true)
	ok "$(within "$v" 0.1 2; echo $?)" "ballast $ballast: true reports < 2 MiB ($v MiB)"
	v=$(mib "$db" ddsmall)
	ok "$(within "$v" 0.1 3; echo $?)" "ballast $ballast: dd bs=4k reports < 3 MiB ($v MiB)"
	v=$(mib "$db" ddlarge)
	ok "$(within "$v" 64 67; echo $?)" "ballast $ballast: dd bs=64M reports 64 MiB + < 3 MiB ($v MiB)"
	v=$(mib "$db" touch32)
	ok "$(within "$v" 32 33.5; echo $?)" "ballast $ballast: touchmem -x 32m reports 32 MiB + < 1.5 MiB ($v MiB)"
	err=$(sqlite3 "$db" "SELECT error FROM samples WHERE arm = 'bad' LIMIT 1")
	like "$err" "no-such-program: No such file or directory" \
	    "ballast $ballast: a failed exec still gives its error"
done
a=$(mib "$TEST_TMP/b0.db" true)
b=$(mib "$TEST_TMP/b256m.db" true)
ok "$(awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d < 0.5 && d > -0.5) }'; echo $?)" \
    "true's max-rss-B does not move with abbench's size ($a vs $b MiB)"
v=$(mib "$TEST_TMP/b256m.db" touch32)
ok "$(within "$v" 32 33.5; echo $?)" "nor does touchmem's ($v MiB with 256 MiB held)"

# The helper: a child of abbench named abbench-spawn; gone afterwards.
SLEEP=30
cat > "$TEST_TMP/sleep.ini" <<EOF2
[experiment]
name = rss-sleep
rounds = 1

[arm a]
args = sleep $SLEEP

[workload Cmd]
type = command
report = rss
EOF2
helper_of() {
	i=0
	while [ $i -lt 50 ]; do
		# The oldest: a child not yet exec'd has the name too.
		h=$(pgrep -o -P "$1" -x abbench-spawn)
		s=$(pgrep -P "$1" -x sleep)
		if [ -n "$h" ] && [ -n "$s" ]; then
			echo "$h"
			return
		fi
		sleep 0.1
		i=$((i + 1))
	done
}
# Gone, or a zombie that is no longer abbench's to reap (kill -9).
helper_gone() {
	i=0
	while [ $i -lt 50 ]; do
		st=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		case $st in
		""|Z) return 0 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

"$ABBENCH" run "$TEST_TMP/sleep.ini" --db "$TEST_TMP/s.db" --quiet \
    > "$TEST_TMP/out" 2>&1 &
pid=$!
hp=$(helper_of $pid)
ok "$([ -n "$hp" ]; echo $?)" "a run has its spawn helper (pid $hp)"
exe=$(readlink "/proc/$hp/exe")
like "$exe" "/abbench-spawn$" "which is the static program abbench-spawn"
kill -INT $pid
[ -n "$hp" ] && kill -INT "$hp" 2>/dev/null	# Ctrl-C reaches the group
wait $pid
rc=$?
ok "$([ "$rc" -ne 0 ]; echo $?)" "Ctrl-C stops the run (exit $rc)"
ok "$([ -n "$hp" ] && [ ! -d "/proc/$hp" ]; echo $?)" \
    "after Ctrl-C the helper is gone, reaped by abbench"

"$ABBENCH" run "$TEST_TMP/sleep.ini" --db "$TEST_TMP/s.db" --quiet \
    > "$TEST_TMP/out" 2>&1 &
pid=$!
hp=$(helper_of $pid)
sp=$(pgrep -P $pid -x sleep)
kill -9 $pid
wait $pid 2>/dev/null
ok "$([ -n "$hp" ] && helper_gone "$hp"; echo $?)" \
    "after kill -9 of abbench its helper dies too"
ok "$([ -n "$sp" ] && helper_gone "$sp"; echo $?)" \
    "and so does the program it started"

sed 's/sleep 30/sleep 0.5/' "$TEST_TMP/sleep.ini" > "$TEST_TMP/short.ini"
"$ABBENCH" run "$TEST_TMP/short.ini" --db "$TEST_TMP/s.db" --quiet \
    > "$TEST_TMP/out" 2>&1 &
pid=$!
hp=$(helper_of $pid)
wait $pid
is "$?" 0 "a short run ends 0"
ok "$([ -n "$hp" ] && [ ! -d "/proc/$hp" ]; echo $?)" \
    "after a run its helper is gone, reaped by abbench (not even a zombie)"

done_testing
