# Shared helpers of the shell integration tests (TAP). Source it first:
#
#   . "$ABBENCH_SRCDIR/tests/integration/lib.sh"
#
# TAP:
#   plan N              print "1..N" (call once, before or after the tests)
#   skip_all REASON     print "1..0 # SKIP REASON" and exit 0
#   ok COND_RC DESC     "ok"/"not ok" from a status: `test -f x; ok $? "x"`;
#                       returns 1 when not ok (`ok $rc "x" || diag ...`)
#   pass DESC / fail DESC
#   is GOT WANT DESC    string equality, shows both on mismatch
#   like GOT REGEX DESC extended-regex match (grep -E)
#   file_like FILE REGEX DESC  a line of FILE matches (grep -E)
#   diag TEXT...        "# TEXT" on stdout
#   done_testing        print the plan from the count if plan was not called;
#                       exits 1 if any test failed
# Prerequisites:
#   require_root        skip_all unless uid 0
#   require_cmd CMD...  skip_all unless every CMD is on PATH
#   require_scheduler S skip_all unless loop devices offer I/O scheduler S
#   require_dockerd [RUNTIME]
#                       skip_all unless docker is installed, its daemon
#                       answers (within 20 s) and has RUNTIME registered
#   any_image           IMAGE: abbench/tools if present, else any image;
#                       skip_all if there is none
# Loop devices (root):
#   make_bfq_loop [SIZE_MB]  a sparse file under /var/tmp (LOOP_BACKING=ram:
#                       on a private tmpfs mounted for it, so that the
#                       device's speed is not the virtual disk's; the loop
#                       then says it is rotational), attached with
#                       `losetup --direct-io=on --find --show`, mkfs.ext4 -q,
#                       mounted at a fresh directory, scheduler bfq. Sets
#                       LOOP_DEV (/dev/loopN), LOOP_NAME (loopN), LOOP_MNT,
#                       LOOP_FILE and LOOP_SYSFS (/sys/block/loopN/queue).
#                       Every device made is recorded for cleanup_loops.
#   make_loop SIZE_MB SCHEDULER  the same with another scheduler (a kernel
#                       without bfq still has none and mq-deadline)
#   cleanup_loops       unmount, detach and delete everything make_bfq_loop
#                       made, each device's queue put back as make_loop
#                       found it (scheduler and tunables; idempotent).
#                       lib.sh installs an EXIT trap that calls it and
#                       removes $TEST_TMP; a test that sets its own EXIT
#                       trap must call lib_cleanup from it.
#   queue_state DEV     "SCHEDULER [KEY=VALUE...]": DEV's (loopN) scheduler
#                       and its tunables (/sys/block/DEV/queue/iosched)
#   queue_set DEV SCHEDULER [KEY=VALUE...]  that scheduler afresh (its
#                       defaults), then those tunables: a queue_state put back
# Experiments:
#   fast_slow_exp FILE NAME ROUNDS   a command experiment: arm fast runs
#                       `true`, arm slow `sleep 0.01` (a clear difference)
#   gate_program PATH OPEN [MARK]  a program at PATH (a sample's argv:
#                       /bin/sh PATH) that touches MARK (when given) and
#                       waits until the file OPEN exists (at most 60 s):
#                       a sample that lasts until the test says, no fixed
#                       sleep deciding what happens during it
# Other:
#   LIB_REAPER=1        (set before sourcing) run the test under tini -s,
#                       a subreaper that reaps orphans at once (below)
#   TEST_TMP            a private temporary directory (removed at exit;
#                       ABBENCH_TEST_KEEP=1 keeps it)
#   ABBENCH_STATE_DIR   the journal (default: $TEST_TMP/state); the host
#                       lock is the host's whatever it says
#   ABBENCH_WAIT_LOCK   1: runs and restores that change host settings wait
#                       for the host lock (other tests, other users' runs
#                       may hold it) instead of failing; a test of the
#                       refusal runs with ABBENCH_WAIT_LOCK=0
#   HOST_LOCK_INFO      the host lock's details file (pid, experiment, db,
#                       state dir of its holder)
#   wait_host_holder PID  wait (up to 15 min) until PID holds the host lock
#                       (looks every 20 ms). A run holds it before its
#                       first sample and tries its arms' tunables then
#                       (writes each and puts it back): a test that waits
#                       for a sample waits for its mark (gate_program,
#                       wait_file), not for a value on the disk
#   wait_file FILE [ERE]  wait (up to 20 s, looking every 20 ms) until
#                       FILE exists (with a line that matches ERE, grep -E)
#   ABBENCH             the binary under test (from make check), defaults to
#                       $ABBENCH_BUILDDIR/abbench or ./abbench
#
# Nothing here touches a disk other than the loop devices it made.

: "${ABBENCH_BUILDDIR:=$(pwd)}"
: "${ABBENCH_SRCDIR:=$ABBENCH_BUILDDIR}"
: "${ABBENCH:=$ABBENCH_BUILDDIR/abbench}"
export ABBENCH ABBENCH_BUILDDIR ABBENCH_SRCDIR

# LIB_REAPER=1, set by a test before it sources lib.sh: the test runs
# again under a child subreaper that reaps at once (tini -s, where
# installed: docker.io depends on tini). What a runtime detaches (runsc's
# sandbox and gofer after `runsc create`) goes to its nearest subreaper,
# else to PID 1, and `runsc delete` waits until the sandbox it killed is
# reaped (it polls kill -0, which finds a zombie). This machine's PID 1
# (process_api) reaps 1-2 s late, and every runsc OCI sample waited for
# it: runsc delete 1.6-1.8 s, under tini -s 0.02 s (oci startup, 2
# rounds of runc, runsc and a failing runsc arm: 8.5 s, then 1.5 s).
if [ "${LIB_REAPER:-}" = 1 ] && [ -z "${LIB_REAPED:-}" ] &&
    command -v tini >/dev/null 2>&1; then
	LIB_REAPED=1 exec tini -s -- sh "$0" "$@"
fi

LIB_TESTS=0
LIB_FAILED=0
LIB_PLANNED=
LIB_LOOPS=
LIB_RAMS=
TEST_TMP=$(mktemp -d /tmp/abbench-test.XXXXXX) || exit 1
export TEST_TMP
# The journal of the runs a test makes: its own, so that tests running at
# once (and other users' runs) do not undo each other's runs. The host
# lock is one per host (/var/lib/abbench for root): runs that change host
# settings, in every test and outside, take turns, so they wait for it.
: "${ABBENCH_STATE_DIR:=$TEST_TMP/state}"
: "${ABBENCH_WAIT_LOCK:=1}"
export ABBENCH_STATE_DIR ABBENCH_WAIT_LOCK
if [ "$(id -u)" -eq 0 ]; then
	HOST_LOCK_INFO=/var/lib/abbench/host.lock
else
	HOST_LOCK_INFO=${XDG_STATE_HOME:-$HOME/.local/state}/abbench/host.lock
fi

wait_host_holder() {
	lib_i=0
	until [ "$(cut -f1 "$HOST_LOCK_INFO" 2>/dev/null)" = "$1" ]; do
		kill -0 "$1" 2>/dev/null || return 1
		[ $lib_i -lt 45000 ] || return 1
		sleep 0.02
		lib_i=$((lib_i + 1))
	done
}

wait_file() {
	lib_i=0
	until lib_has_file "$@" || [ $lib_i -ge 1000 ]; do
		sleep 0.02
		lib_i=$((lib_i + 1))
	done
	lib_has_file "$@"
}

lib_has_file() {
	if [ $# -gt 1 ]; then
		grep -Eq -- "$2" "$1" 2>/dev/null
	else
		[ -e "$1" ]
	fi
}

# stored_samples DB: the samples a run has stored in DB (distinct
# plan_idx), those its log beside DB holds included (written, not
# committed yet: results/store-log.c; each record begins with ABSAMPL1).
stored_samples() {
	lib_c=$(sqlite3 "$1" "SELECT count(DISTINCT plan_idx) FROM samples" 2>/dev/null || echo 0)
	for lib_f in "$1"-samples.*; do
		[ -f "$lib_f" ] || continue
		lib_c=$((lib_c + $(grep -ao ABSAMPL1 "$lib_f" | wc -l)))
	done
	echo "$lib_c"
}

# kill_at_samples DB N CMD...: CMD in the background, killed with SIGKILL
# once it has stored N samples (stored_samples; at most 60 s); prints how
# many DB holds then, the samples of the run's log imported first by db
# check.
kill_at_samples() {
	lib_db=$1 lib_n=$2
	shift 2
	"$@" >/dev/null &
	lib_pid=$!
	lib_i=0
	while [ "$(stored_samples "$lib_db")" -lt "$lib_n" ] && [ $lib_i -lt 3000 ]; do
		sleep 0.02
		lib_i=$((lib_i + 1))
	done
	kill -9 $lib_pid
	wait $lib_pid 2>/dev/null
	"$ABBENCH" db check --db "$lib_db" >/dev/null 2>&1
	sqlite3 "$lib_db" "SELECT count(DISTINCT plan_idx) FROM samples"
}

diag() {
	printf '# %s\n' "$*"
}

plan() {
	LIB_PLANNED=$1
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $*"
	LIB_PLANNED=0
	exit 0
}

ok() {
	LIB_TESTS=$((LIB_TESTS + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $LIB_TESTS - $2"
	else
		echo "not ok $LIB_TESTS - $2"
		LIB_FAILED=$((LIB_FAILED + 1))
		return 1
	fi
}

pass() {
	ok 0 "$1"
}

fail() {
	ok 1 "$1"
}

is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'"
		diag "want: '$2'"
	fi
}

like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'"
		diag "want match of: '$2'"
	fi
}

# file_like FILE ERE DESC: FILE has a line matching ERE (grep -E).
file_like() {
	if grep -Eq -- "$2" "$1" 2>/dev/null; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "no match of '$2' in $1"
		return 1
	fi
}

done_testing() {
	if [ -z "$LIB_PLANNED" ]; then
		echo "1..$LIB_TESTS"
		LIB_PLANNED=$LIB_TESTS
	fi
	[ "$LIB_FAILED" -eq 0 ]
	exit $?
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root"
}

require_cmd() {
	for lib_c in "$@"; do
		command -v "$lib_c" >/dev/null 2>&1 ||
		    skip_all "'$lib_c' is not installed"
	done
}

require_scheduler() {
	require_root
	require_cmd losetup mkfs.ext4 mount umount
	[ -e /dev/loop-control ] || skip_all "no loop device support"
	has_scheduler "$1" || skip_all "loop devices do not offer '$1'"
}

# has_scheduler NAME: a loop device made now offers that I/O scheduler
# (as root; false when no loop device can be made).
has_scheduler() {
	lib_f=$(mktemp /var/tmp/abbench-probe.XXXXXX) || return 1
	truncate -s 1M "$lib_f"
	lib_d=$(losetup --find --show "$lib_f" 2>/dev/null)
	lib_has=no
	if [ -n "$lib_d" ]; then
		grep -qw "$1" "/sys/block/${lib_d#/dev/}/queue/scheduler" &&
		    lib_has=yes
		losetup -d "$lib_d"
	fi
	rm -f "$lib_f"
	[ "$lib_has" = yes ]
}

require_dockerd() {
	require_cmd docker
	timeout 20 docker info >/dev/null 2>&1 ||
	    skip_all "dockerd is not running (scripts/start-dockerd)"
	[ -z "$1" ] || timeout 20 docker info 2>/dev/null |
	    grep -q "Runtimes:.*$1" || skip_all "$1 is not a docker runtime"
}

any_image() {
	IMAGE=abbench/tools
	timeout 20 docker image inspect "$IMAGE" >/dev/null 2>&1 ||
	    IMAGE=$(timeout 20 docker images \
	    --format '{{.Repository}}:{{.Tag}}' | head -n 1)
	[ -n "$IMAGE" ] || skip_all "no docker image (scripts/build-image)"
}

# make_bfq_loop [SIZE_MB]
make_bfq_loop() {
	make_loop "${1:-256}" bfq
}

# make_loop SIZE_MB SCHEDULER: make_bfq_loop with another scheduler
# (require_scheduler it first), for what does not need bfq.
make_loop() {
	lib_size=$1
	lib_sched=$2
	lib_dir=/var/tmp
	if [ "${LOOP_BACKING:-disk}" = ram ]; then
		# A private tmpfs (not /dev/shm, which may be 64 MB), removed
		# by cleanup_loops with the file in it.
		lib_dir=$(mktemp -d /var/tmp/abbench-ram.XXXXXX) || return 1
		mount -t tmpfs -o "size=$((lib_size + 64))m,mode=0700" \
		    abbench-ram "$lib_dir" || { rmdir "$lib_dir"; return 1; }
		LIB_RAMS="$LIB_RAMS $lib_dir"
	fi
	LOOP_FILE=$(mktemp "$lib_dir/abbench-loop.XXXXXX") || return 1
	truncate -s "${lib_size}M" "$LOOP_FILE" || return 1
	# A kernel older than 6.6 (the qemu guest's 6.1) takes no direct
	# I/O on a tmpfs file: there the RAM-backed device reads through
	# the tmpfs's page cache, RAM all the same.
	LOOP_DEV=$(losetup --direct-io=on --find --show "$LOOP_FILE" \
	    2>/dev/null) || { [ "${LOOP_BACKING:-disk}" = ram ] &&
	    LOOP_DEV=$(losetup --find --show "$LOOP_FILE"); } || {
		rm -f "$LOOP_FILE"
		return 1
	}
	LOOP_NAME=${LOOP_DEV#/dev/}
	LOOP_SYSFS=/sys/block/$LOOP_NAME/queue
	LOOP_MNT=$(mktemp -d /var/tmp/abbench-mnt.XXXXXX)
	# Recorded before anything can fail, for cleanup_loops.
	LIB_LOOPS="$LIB_LOOPS $LOOP_DEV|$LOOP_MNT|$LOOP_FILE"
	mkfs.ext4 -q -F "$LOOP_DEV" >/dev/null 2>&1 || return 1
	mount "$LOOP_DEV" "$LOOP_MNT" || return 1
	# A detached loop device keeps its queue, scheduler and tunables (a
	# user may have left bfq's slice_idle 3): saved, for cleanup_loops
	# to put back, then a fresh scheduler with the kernel's defaults.
	queue_state "$LOOP_NAME" > "$TEST_TMP/queue.$LOOP_NAME" || return 1
	LIB_LOOPS="$LIB_LOOPS|$TEST_TMP/queue.$LOOP_NAME"
	queue_set "$LOOP_NAME" "$lib_sched" || return 1
	grep -q "\\[$lib_sched\\]" "$LOOP_SYSFS/scheduler" || return 1
	if [ "${LOOP_BACKING:-disk}" = ram ]; then
		# Rotational, as the virtual disk it stands in for says it is
		# (vda: 1): bfq idles on each sync queue in service for its
		# next read; on a non-rotational device it idles only when its
		# guess of the scenario says so, which varied sample to sample.
		LIB_LOOPS="$LIB_LOOPS|$(cat "$LOOP_SYSFS/rotational")"
		echo 1 > "$LOOP_SYSFS/rotational" || return 1
	fi
	export LOOP_DEV LOOP_NAME LOOP_SYSFS LOOP_MNT LOOP_FILE
}

# queue_state DEV: the scheduler of /sys/block/DEV/queue and its tunables,
# "SCHEDULER [KEY=VALUE...]" on one line.
queue_state() {
	lib_q=/sys/block/$1/queue
	sed 's/.*\[\(.*\)\].*/\1/' "$lib_q/scheduler" | tr -d '\n' || return 1
	for lib_k in "$lib_q"/iosched/*; do
		[ -f "$lib_k" ] && printf ' %s=%s' "${lib_k##*/}" "$(cat "$lib_k")"
	done
	echo
}

# queue_set DEV SCHEDULER [KEY=VALUE...]: SCHEDULER afresh (by way of
# none: a switch gives it the kernel's defaults), then those tunables (a
# line of queue_state, to put a queue back).
queue_set() {
	lib_q=/sys/block/$1/queue
	echo none > "$lib_q/scheduler" || return 1
	echo "$2" > "$lib_q/scheduler" || return 1
	shift 2
	for lib_kv in "$@"; do
		echo "${lib_kv#*=}" > "$lib_q/iosched/${lib_kv%%=*}" || return 1
	done
}

cleanup_loops() {
	for lib_l in $LIB_LOOPS; do
		lib_dev=${lib_l%%|*}
		lib_rest=${lib_l#*|}
		lib_mnt=${lib_rest%%|*}
		lib_rest=${lib_rest#*|}
		lib_file=${lib_rest%%|*}
		lib_saved= lib_rot=
		case $lib_rest in *'|'*) lib_saved=${lib_rest#*|} ;; esac
		case $lib_saved in *'|'*)
			lib_rot=${lib_saved#*|}
			lib_saved=${lib_saved%%|*} ;;
		esac
		if mountpoint -q "$lib_mnt" 2>/dev/null; then
			umount "$lib_mnt" 2>/dev/null || umount -l "$lib_mnt"
		fi
		rmdir "$lib_mnt" 2>/dev/null
		# Only detach the device if it still uses our file.
		if losetup "$lib_dev" 2>/dev/null | grep -qF "$lib_file"; then
			# shellcheck disable=SC2046
			[ -s "$lib_saved" ] &&
			    queue_set "${lib_dev#/dev/}" $(cat "$lib_saved")
			[ -n "$lib_rot" ] && echo "$lib_rot" \
			    > "/sys/block/${lib_dev#/dev/}/queue/rotational"
			losetup -d "$lib_dev"
		fi
		rm -f "$lib_file"
	done
	LIB_LOOPS=
	for lib_r in $LIB_RAMS; do
		umount "$lib_r" 2>/dev/null || umount -l "$lib_r"
		rmdir "$lib_r"
	done
	LIB_RAMS=
}

fast_slow_exp() {
	printf '[experiment]\nname = %s\nrounds = %s\n\n' "$2" "$3" >"$1"
	printf '[arm fast]\nargs = true\n\n[arm slow]\nargs = sleep 0.01\n\n' \
	    >>"$1"
	printf '[workload Cmd]\ntype = command\n' >>"$1"
}

gate_program() {
	cat > "$1" <<EOF_GATE
#!/bin/sh
${3:+: > "$3"}
i=0
while [ ! -e "$2" ] && [ \$i -lt 1200 ]; do
	sleep 0.05
	i=\$((i + 1))
done
EOF_GATE
}

# draw_program PATH SALT: a gobench program at PATH that prints, for
# its arguments ROUND ARM, one value drawn from a uniform law, seeded by
# both (and SALT): A/A samples that are independent draws, whose false
# positives are the test's own on every machine, loaded or quiet.
draw_program() {
	cat > "$1" <<EOF_DRAW
#!/bin/sh
exec awk -v r="\$1" -v a="\$2" 'BEGIN {
	srand(r * 2 + (a == "base" ? 0 : 1) + $2)
	printf "BenchmarkDraw 1 %d ns/op\\n", 100000 + int(rand() * 20000)
}'
EOF_DRAW
	chmod +x "$1"
}

lib_cleanup() {
	cleanup_loops
	# ABBENCH_TEST_KEEP=1 keeps the test's directory (its databases, a
	# fleet's job logs) and says where it is.
	if [ -n "${ABBENCH_TEST_KEEP:-}" ] && [ -n "$TEST_TMP" ]; then
		echo "# kept $TEST_TMP"
		return
	fi
	[ -n "$TEST_TMP" ] && rm -rf "$TEST_TMP"
}

trap lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
