#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tunables the kernel rounds (issue #53, finding 7). mq-deadline keeps
# read_expire in ticks: 250 ms reads back as 252 at HZ=250. Such a value
# holds within the documented tolerance (HOSTSET_TICK_MS above it): the
# run measures its samples and exits 0. A value that passes the syntax
# checks but that the kernel clamps (async_depth = 0 reads back 1) or
# overflows (write_expire = 2147483647 ms in ticks reads back negative)
# is an input error found before the run starts: FILE:LINE: KEY, exit 2,
# no run stored, nothing changed; never "arm 'a': arm 'a': after 8
# passes", exit 1 and no samples.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_scheduler mq-deadline
require_cmd sqlite3

make_loop 64 mq-deadline || skip_all "cannot make a loop device"
Q=$LOOP_SYSFS/iosched
echo 500 > "$Q/read_expire"
state() {
	echo "$(cat "$Q/read_expire") $(cat "$Q/async_depth") $(cat "$Q/write_expire")"
}
before=$(state)
# What each sample ran under.
cat > "$TEST_TMP/seen.sh" <<EOT
#!/bin/sh
echo "\$1 \$(cat $Q/read_expire)" >> "$TEST_TMP/seen"
EOT
chmod +x "$TEST_TMP/seen.sh"
exp() {
	cat <<EOT
[experiment]
name = tick
rounds = 2
[arm a]
host.block.path = $LOOP_MNT
host.block.read_expire = 250
args = $TEST_TMP/seen.sh a
[arm b]
host.block.path = $LOOP_MNT
$1
args = $TEST_TMP/seen.sh b
[workload w]
type = command
EOT
}
exp "host.block.read_expire = 1000" > "$TEST_TMP/e.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/a.db" "$TEST_TMP/e.ini" > "$TEST_TMP/run.out" 2>&1
is "$?" 0 "read_expire = 250 (kept as a whole tick above) runs to its end" ||
    sed 's/^/# /' "$TEST_TMP/run.out"
is "$(sqlite3 "$TEST_TMP/a.db" "SELECT count(DISTINCT plan_idx) FROM samples WHERE status = 'ok'")" 4 \
    "its 4 samples are stored ok"
a=$(grep '^a ' "$TEST_TMP/seen" | cut -d' ' -f2 | sort -u)
ok "$([ -n "$a" ] && [ "$a" -ge 250 ] && [ "$a" -lt 260 ]; echo $?)" \
    "arm a's samples ran with read_expire $a (250 to the tick)"
is "$(grep '^b ' "$TEST_TMP/seen" | cut -d' ' -f2 | sort -u)" 1000 "arm b's with 1000"
is "$(state)" "$before" "the disk's tunables are back"
if grep -q "arm 'a': arm 'a'" "$TEST_TMP/run.out"; then fail "no doubled prefix"; else pass "no doubled prefix"; fi

# Clamped, overflowed: kept as something else.
for c in "async_depth 0 1" "write_expire 2147483647 -2147483648"; do
	set -- $c
	exp "host.block.$1 = $2" > "$TEST_TMP/c.ini"
	line=$(grep -n "$1" "$TEST_TMP/c.ini" | cut -d: -f1)
	rm -f "$TEST_TMP/c.db"
	"$ABBENCH" run --quiet --db "$TEST_TMP/c.db" "$TEST_TMP/c.ini" > "$TEST_TMP/c.out" 2>&1
	is "$?" 2 "$1 = $2, which the kernel keeps as $3, is an input error (exit 2)"
	like "$(cat "$TEST_TMP/c.out")" "^abbench: .*c\\.ini:$line: host\\.block\\.$1: arm 'b': disk '$LOOP_NAME' keeps '$2' as '$3'" \
	    "  naming FILE:LINE: KEY, the arm, the disk and what it keeps"
	if grep -q "arm 'b': arm 'b'\|after 8 passes" "$TEST_TMP/c.out"; then
		fail "  no doubled prefix, no passes"
	else
		pass "  no doubled prefix, no passes"
	fi
	is "$(sqlite3 "$TEST_TMP/c.db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" 0 "  no run is stored"
	is "$(state)" "$before" "  the disk's tunables are as they were"
done
done_testing
