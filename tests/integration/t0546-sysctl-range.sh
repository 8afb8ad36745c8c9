#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A sysctl value out of range is an input error found before the run
# (issue 25, item 5): vm.swappiness = 1000 or -5 (a range the kernel
# documents) is refused when the file is loaded; kernel.pid_max =
# 999999999 (no range known here) is tried on the kernel before the run
# and refused. Each: exit 2, FILE:LINE: KEY, no run row, the host as it
# was, nothing pending in the journal. A value the kernel takes runs.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3

exp() {
	printf '[experiment]\nname = sysctl\nrounds = 1\n[arm a]\nargs = true\nhost.sysctl.%s = %s\n[arm b]\nargs = true\n[workload w]\ntype = command\n' \
	    "$1" "$2" > "$TEST_TMP/s.ini"
}
runs() {
	[ -e "$TEST_TMP/s.db" ] || { echo 0; return; }
	sqlite3 "$TEST_TMP/s.db" 'SELECT count(*) FROM runs'
}
pending() {
	[ -e "$ABBENCH_STATE_DIR/journal.db" ] || { echo 0; return; }
	sqlite3 "$ABBENCH_STATE_DIR/journal.db" \
	    "SELECT count(*) FROM entries WHERE state != 'restored'"
}

sw=$(cat /proc/sys/vm/swappiness)
for v in 1000 -5; do
	exp vm.swappiness "$v"
	"$ABBENCH" run --quiet --db "$TEST_TMP/s.db" "$TEST_TMP/s.ini" > "$TEST_TMP/o" 2>&1
	is "$?" 2 "vm.swappiness = $v: exit 2"
	like "$(cat "$TEST_TMP/o")" "s.ini:6: host.sysctl.vm.swappiness: .*$v is out of range \[0, 200\]" \
	    "  file:line:key and the documented range"
	is "$(runs)" 0 "  no run row"
	is "$(cat /proc/sys/vm/swappiness)" "$sw" "  swappiness unchanged"
done

pm=$(cat /proc/sys/kernel/pid_max)
exp kernel.pid_max 999999999
"$ABBENCH" run --quiet --db "$TEST_TMP/s.db" "$TEST_TMP/s.ini" > "$TEST_TMP/o" 2>&1
is "$?" 2 "kernel.pid_max = 999999999 (no range known): exit 2"
like "$(cat "$TEST_TMP/o")" "s.ini:6: host.sysctl.kernel.pid_max: arm 'a': the kernel refuses '999999999'" \
    "  file:line:key, from a write tried before the run"
is "$(runs)" 0 "  no run row"
is "$(cat /proc/sys/kernel/pid_max)" "$pm" "  pid_max unchanged"
is "$(pending)" 0 "  nothing pending in the journal"

# A value the kernel takes: tried, put back, then the run sets and restores it.
burst=$(cat /proc/sys/kernel/printk_ratelimit_burst)
exp kernel.printk_ratelimit_burst $((burst + 1))
"$ABBENCH" run --quiet --db "$TEST_TMP/s.db" "$TEST_TMP/s.ini" > "$TEST_TMP/o" 2>&1
is "$?" 0 "kernel.printk_ratelimit_burst = $((burst + 1)): the run runs"
is "$(runs)" 1 "  one run row"
is "$(cat /proc/sys/kernel/printk_ratelimit_burst)" "$burst" "  and the value is put back"
is "$(pending)" 0 "  nothing pending in the journal"
done_testing
