# Helpers of the tests that run in the cgroup v2 guest (scripts/v2-guest).
# Source after lib.sh.
#
#   require_v2_guest    skip_all unless root, qemu-system-x86_64 and a
#                       static busybox are there (scripts/setup --all)
#                       and the guest's kernel is ready or can be fetched
#                       (scripts/v2-guest prepare)
#   v2_guest SCRIPT [ARG]...
#                       boot the guest once, run `sh SCRIPT ARG...` there
#                       with $TEST_TMP shared writable at its path (and the
#                       build and sources read-only where the guest's
#                       tmpfs would hide them); its
#                       output on stdout, its exit status returned (125:
#                       the guest gave none). A test boots once and runs
#                       all its checks in that one session: a boot costs
#                       13 s on an idle machine, 30-60 s under load.
#   bfq_guest_run OUT ERR
#                       this test run again in the guest (bfq there)
#   bfq_here_or_guest   this test here if loop devices offer bfq, else
#                       in the guest, its TAP and status passed on
V2_GUEST=$ABBENCH_SRCDIR/scripts/v2-guest

require_v2_guest() {
	require_root
	require_cmd qemu-system-x86_64 busybox
	"$V2_GUEST" prepare >"$TEST_TMP/v2-prepare.out" 2>&1 ||
	    skip_all "no v2 guest: $(tail -n 1 "$TEST_TMP/v2-prepare.out")"
}

v2_guest() {
	set -- -w "$TEST_TMP" "$@"
	# The trees the guest's tmpfs would hide (a clone in a mktemp -d):
	# the sources and the build under test, shared read-only.
	v2_b=$(cd "$(dirname "$ABBENCH")" && pwd)
	v2_s=$(cd "$ABBENCH_SRCDIR" && pwd)
	[ "$v2_s" = "$v2_b" ] && v2_s=
	for v2_d in "$v2_b" ${v2_s:+"$v2_s"}; do
		case $v2_d/ in
		/tmp/*|/var/tmp/*|/run/*) set -- -r "$v2_d" "$@" ;;
		esac
	done
	"$V2_GUEST" run "$@"
}

# bfq_guest_run OUT ERR: this same test run in the guest (one boot,
# through bfq-guest-run.sh), its TAP into OUT, the guest's own report on
# stderr into ERR; v2_guest's status returned.
bfq_guest_run() {
	bg_test=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	v2_guest "$ABBENCH_SRCDIR/tests/integration/bfq-guest-run.sh" \
	    "$ABBENCH" "$ABBENCH_SRCDIR" "$TEST_TMP" "$bg_test" >"$1" 2>"$2"
}

# bfq_here_or_guest: the test needs a bfq loop device. When loop devices
# here offer bfq, return (the test goes on here). Otherwise run this same
# test again inside the guest (whose Debian 6.1 kernel has bfq: one boot,
# scripts/v2-guest, through tests/integration/bfq-guest-run.sh), pass its
# TAP on and exit with its status. skip_all only when neither this kernel
# nor the guest can give bfq (inside the guest: the guest's kernel lacks
# it too). A test that runs beside others (tests/run-test.sh:
# ABBENCH_TEST_SHARED, given where the host offered no bfq) goes to the
# guest whatever this kernel offers now: its loop device and scheduler
# settings are not to be the host's. Call it first, before plan.
bfq_here_or_guest() {
	require_root
	require_cmd losetup mkfs.ext4 mount umount
	if [ -n "${ABBENCH_V2_GUEST:-}" ] || [ -z "${ABBENCH_TEST_SHARED:-}" ]; then
		has_scheduler bfq && return 0
	fi
	[ -z "${ABBENCH_V2_GUEST:-}" ] ||
	    skip_all "loop devices do not offer 'bfq', in the qemu guest either"
	require_v2_guest
	bg_start=$(date +%s)
	bfq_guest_run "$TEST_TMP/bfq-guest.out" "$TEST_TMP/bfq-guest.err"
	bg_rc=$?
	cat "$TEST_TMP/bfq-guest.out"
	diag "no bfq on this kernel ($(uname -r)): the test ran in the qemu guest"
	sed 's/^/# /' "$TEST_TMP/bfq-guest.err"
	diag "the guest session took $(( $(date +%s) - bg_start )) s"
	if [ $bg_rc = 125 ]; then
		bg_n=$(grep -cE '^(not )?ok' "$TEST_TMP/bfq-guest.out")
		echo "not ok $((bg_n + 1)) - the bfq guest ended and reported its status"
		grep -q '^1\.\.' "$TEST_TMP/bfq-guest.out" ||
		    echo "1..$((bg_n + 1))"
		exit 1
	fi
	exit $bg_rc
}
