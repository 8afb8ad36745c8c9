#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every input is checked before anything is touched (issue cases 3, 4, 11):
# bad host settings are errors at load time naming FILE:LINE: KEY, exit 2,
# no run row written and the host untouched; a `dir` that does not exist,
# or an empty mount point on the root filesystem, never moves the root
# disk; command-line numbers go through the parsers the INI uses.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root

root_src=$(findmnt -n -o SOURCE /)
root_disk=$(basename "$(readlink -f "$root_src")")
[ -e "/sys/block/$root_disk/queue/scheduler" ] ||
    root_disk=$(lsblk -no PKNAME "$root_src" 2>/dev/null | head -n 1)
RS=/sys/block/$root_disk/queue/scheduler
before=$(cat "$RS" 2>/dev/null)

# bad NAME LINE KEY VALUE [DIR [ARMLINE]]: an experiment whose arm b sets
# KEY = VALUE on line LINE (then ARMLINE); exit 2, FILE:LINE: KEY in the
# error, no run row.
bad() {
	f=$TEST_TMP/$1.ini
	db=$TEST_TMP/$1.db
	printf '[experiment]\nname = %s\nrounds = 1\n[arm a]\n[arm b]\n%s = %s\n%s\n[workload w]\ntype = command\nargs = true\n' \
	    "$1" "$3" "$4" "$6" > "$f"
	[ -n "$5" ] && printf 'dir = %s\n' "$5" >> "$f"
	"$ABBENCH" run --quiet --db "$db" "$f" > "$TEST_TMP/$1.out" 2>&1
	is "$?" 2 "$1: exit 2"
	like "$(cat "$TEST_TMP/$1.out")" "$f:6: $3: " "$1: the error names $1.ini:6: $3"
	is "$(sqlite3 "$db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" 0 \
	    "$1: no run row"
}

# Case 3: a dir that does not exist, a mount point with nothing on it.
bad nodir 6 host.block.scheduler kyber /nonexistent/dir
like "$(cat "$TEST_TMP/nodir.out")" "'/nonexistent/dir' does not exist and nothing is mounted above it" \
    "nodir: says the dir does not exist"
is "$(cat "$RS" 2>/dev/null)" "$before" "the root disk's scheduler is untouched"
empty=$(mktemp -d /var/tmp/abbench-empty.XXXXXX)
bad emptymnt 6 host.block.scheduler kyber "$empty"
like "$(cat "$TEST_TMP/emptymnt.out")" "nothing is mounted on '$empty'" \
    "emptymnt: says nothing is mounted there"
is "$(cat "$RS" 2>/dev/null)" "$before" "the root disk's scheduler is still untouched"
rmdir "$empty"

# Case 4: each mistake found at load time.
bad nosysctl 6 host.sysctl.kernel.nonexistent_knob 1
# The root disk named on purpose (read, never written: the check fails).
bad nosched 6 host.block.scheduler nosuch "" "host.block.path = /var/tmp"
like "$(cat "$TEST_TMP/nosched.out")" "'nosuch' is not available" \
    "nosched: names the scheduler"
bad noknob 6 host.block.nosuchknob 1 "" "host.block.path = /var/tmp"
like "$(cat "$TEST_TMP/noknob.out")" "has no tunable 'nosuchknob'" \
    "noknob: names the tunable"
bad nodirkey 6 host.block.slice_idle 0
bad bigknob 6 host.block.slice_idle 99999999999999999999 /var/tmp
bad swappiness 6 host.sysctl.vm.swappiness abc
like "$(cat "$TEST_TMP/swappiness.out")" "'abc' is not an integer" \
    "swappiness: not an integer"
is "$(cat "$RS" 2>/dev/null)" "$before" "the root disk's scheduler is untouched at the end"
if [ ! -e /sys/devices/system/cpu/cpu0/cpufreq ]; then
	bad nocpufreq 6 host.cpufreq.governor performance
else
	pass "# SKIP this host has cpufreq"
	pass "# SKIP this host has cpufreq"
	pass "# SKIP this host has cpufreq"
fi

# Case 11: numbers on the command line parse as in the file.
fast_slow_exp "$TEST_TMP/ok.ini" nums 1
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --seed -1 "$TEST_TMP/ok.ini" \
    > "$TEST_TMP/s1" 2>&1
is "$?" 2 "--seed -1 is refused (exit 2)"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --seed 18446744073709551616 \
    "$TEST_TMP/ok.ini" > "$TEST_TMP/s2" 2>&1
is "$?" 2 "--seed 2^64 is refused (exit 2)"
like "$(cat "$TEST_TMP/s2")" "out of range" "  as out of range"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/ok.ini" --rounds \
    > "$TEST_TMP/s3" 2>&1
like "$(cat "$TEST_TMP/s3")" "run: --rounds needs a value \(N\)" "--rounds with no value says so"
printf '[experiment]\nname = t\nrounds = 1\ntimeout = 99999999999999999999s\n[arm a]\nargs = true\n[workload w]\ntype = command\n' \
    > "$TEST_TMP/t.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/t.ini" > "$TEST_TMP/s4" 2>&1
like "$(cat "$TEST_TMP/s4")" "t.ini:4: timeout: .*out of range" \
    "a huge timeout is out of range, not 'shorter than 0.001s'"
is "$(sqlite3 "$TEST_TMP/n.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" 0 \
    "none of them wrote a run"
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" --seed 18446744073709551615 \
    "$TEST_TMP/ok.ini" > "$TEST_TMP/s5" 2>&1
is "$?" 0 "--seed 2^64-1 is accepted"
is "$(sqlite3 "$TEST_TMP/n.db" 'SELECT seed FROM runs')" "-1" \
    "and stored as the 64-bit pattern (SQLite shows it signed)"
done_testing
