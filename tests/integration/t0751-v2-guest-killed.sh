#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The qemu guest of the tests (scripts/v2-guest) leaves nothing when its
# scripts/v2-guest is killed with SIGKILL (no EXIT trap runs): while the
# guest runs, scripts/host-leftovers counts each of its pieces (the qemu
# process, the shell of scripts/v2-guest, its directory with the disk
# image and the 9p share of its output); after the kill -9 its bound
# ends the orphaned qemu and removes that directory within seconds,
# where before the qemu ran on to the guest's end (here a guest that
# would sleep 600 s) and its directory stayed for good.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"

require_v2_guest
require_cmd pgrep
plan 8
T_QEMU='' T_BOUND='' T_V2=''
t_cleanup() {
	# Only what this test started, by its PIDs.
	for p in $T_V2 $T_QEMU $T_BOUND; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${T_DIR:-}" ] && rm -rf "$T_DIR"
	lib_cleanup
}
trap t_cleanup EXIT
mkdir -p "$TEST_TMP/share" "$TEST_TMP/tmp"
printf 'touch "$1/started"\nsleep 600\n' >"$TEST_TMP/share/guest.sh"
# Its directory under a TMPDIR of the test's own: this guest's, no other.
TMPDIR=$TEST_TMP/tmp "$V2_GUEST" run -t 900 -w "$TEST_TMP/share" \
    "$TEST_TMP/share/guest.sh" "$TEST_TMP/share" >/dev/null 2>&1 &
T_V2=$!
i=0 t0=$(date +%s)
while [ ! -e "$TEST_TMP/share/started" ] && [ $i -lt 3000 ] &&
    kill -0 $T_V2 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
ok "$([ -e "$TEST_TMP/share/started" ]; echo $?)" \
    "the guest runs its script ($(($(date +%s) - t0)) s)"
T_DIR=$(ls -d "$TEST_TMP/tmp"/abbench-v2guest.* 2>/dev/null)
for p in $(pgrep -P $T_V2); do
	case $(cat "/proc/$p/comm" 2>/dev/null) in
	qemu-system-*) T_QEMU=$p ;;
	*) T_BOUND=$p ;;
	esac
done
ok "$([ -n "$T_QEMU" ] && [ -n "$T_BOUND" ] && [ -d "$T_DIR" ]; echo $?)" \
    "its qemu ($T_QEMU), its bound ($T_BOUND) and its directory ($T_DIR)"
TMPDIR=$TEST_TMP/tmp "$ABBENCH_SRCDIR/scripts/host-leftovers" \
    >"$TEST_TMP/left.txt" 2>&1
grep -qx "process qemu-system $T_QEMU" "$TEST_TMP/left.txt"
ok $? "host-leftovers counts the guest's qemu"
grep -qx "process v2-guest $T_V2" "$TEST_TMP/left.txt" &&
    grep -qx "process v2-guest $T_BOUND" "$TEST_TMP/left.txt"
ok $? "host-leftovers counts scripts/v2-guest and its bound"
grep -qx "scratch $T_DIR" "$TEST_TMP/left.txt"
ok $? "host-leftovers counts the guest's directory (disk image, share)"

# running PID: there and no zombie. The orphaned qemu and bound have
# ended once they are zombies; this machine's init reaps them 1-2 s later.
running() {
	kill -0 "$1" 2>/dev/null &&
	    [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != Z ]
}
kill -KILL $T_V2
wait $T_V2 2>/dev/null
i=0
while { running "$T_QEMU" || running "$T_BOUND" || [ -e "$T_DIR" ]; } &&
    [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
running "$T_QEMU"
ok "$([ $? != 0 ]; echo $?)" "after kill -9 of scripts/v2-guest its qemu ended ($((i / 10)).$((i % 10)) s)"
running "$T_BOUND"
ok "$([ $? != 0 ]; echo $?)" "  its bound ended too"
ok "$([ ! -e "$T_DIR" ]; echo $?)" "  and its directory is removed"
done_testing
