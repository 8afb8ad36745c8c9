# Shared by the t06xx fio tests (sourced after lib.sh): a scaled-down
# bfq-concurrent-fio on a bfq loop device, then the checks every variant
# makes (host restored, no container, cgroup, sync dir or data file left).
#
#   fio_setup                   prerequisites, loop device, tools image;
#                               with FIO_SCHED=any (a test that asserts
#                               no bfq effect) on a kernel without bfq,
#                               an mq-deadline loop device whose arms set
#                               fifo_batch 16 and 8 (the same arm names)
#                               with FIO_NULLB_NS=NS (the qemu guest),
#                               bfq on a null_blk device instead (made
#                               through configfs, memory-backed, every
#                               request completed NS ns after it came,
#                               rotational; removed at exit)
#   fio_experiment EXEC RT N    write $TEST_TMP/exp.ini (RT: runtime or "");
#                               stop = decided, unless FIO_ROUNDS is set
#                               (a test that asserts no effect: that many
#                               rounds, no more); randread at iodepth 4,
#                               or with FIO_THINK=US a synchronous reader
#                               that thinks US µs after each read
#                               (FIO_RW=read: sequential reads, size
#                               FIO_SIZE, default 48m, for FIO_DURATION,
#                               default 3s); with
#                               FIO_LOW_LATENCY=0|1 both arms also set
#                               bfq's low_latency (restored by abbench);
#                               drop-caches = yes unless FIO_DROP_CACHES=no
#                               (the qemu guest: see t0620's header)
#   fio_run                     abbench run into $TEST_TMP/db; sets RUN_UUID
#   fio_total ARM LABEL         median total iops of ARM from the store
#   fio_all_ok                  all samples ok, 6 to FIO_MAX_ROUNDS rounds
#                               of stop = decided, or FIO_ROUNDS (2 tests)
#   fio_overlaps N MIN          every sample's N runs overlapped >= MIN,
#                               the overlaps and the load printed (1 test)
#   fio_total_up LABEL [FLOOR]  LABEL's total iops significantly higher
#                               with slice_idle 0, decided different, and
#                               the decision's interval of the change
#                               above +FLOOR% (default 0) (2 tests)
#   fio_checks_after            the leak and restore checks (7 tests)

fio_setup() {
	require_root
	require_cmd fio losetup mkfs.ext4 sqlite3
	FIO_SCHEDULER=bfq
	[ "${FIO_SCHED:-bfq}" = any ] && ! has_scheduler bfq &&
	    FIO_SCHEDULER=mq-deadline
	require_scheduler "$FIO_SCHEDULER"
	if [ -n "${FIO_NULLB_NS:-}" ]; then
		fio_make_nullb 1024 "$FIO_NULLB_NS" ||
		    { fail "make a null_blk device with bfq"; done_testing; }
	else
		make_loop 1024 "$FIO_SCHEDULER" ||
		    { fail "make a $FIO_SCHEDULER loop device"; done_testing; }
	fi
	# The two tunables the arms set (or leave) and the checks read.
	if [ "$FIO_SCHEDULER" = bfq ]; then
		FIO_KNOB=slice_idle FIO_KNOB2=low_latency
	else
		FIO_KNOB=fifo_batch FIO_KNOB2=read_expire
		diag "no bfq here: $FIO_SCHEDULER, arms fifo_batch 16 and 8"
	fi
	KNOB_BEFORE=$(cat "$LOOP_SYSFS/iosched/$FIO_KNOB")
	KNOB2_BEFORE=$(cat "$LOOP_SYSFS/iosched/$FIO_KNOB2")
	SCHED_BEFORE=$(sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler")
}

# fio_make_nullb SIZE_MB NS: a null_blk device of SIZE_MB, memory-backed
# (it keeps what is written: an ext4 on it), each request completed by a
# timer NS ns after it came (irqmode 2), made through configfs (the qemu
# guest loads null_blk with no device: scripts/v2-guest-init), with bfq,
# rotational (bfq then idles for a sequential reader's next read), ext4
# mounted at a fresh directory. Sets what make_loop sets (LOOP_DEV,
# LOOP_NAME, LOOP_MNT, LOOP_SYSFS); at exit cleanup_loops unmounts it and
# the device is removed.
fio_make_nullb() {
	fio_nb_cfg=/sys/kernel/config/nullb
	[ -d "$fio_nb_cfg" ] || { diag "no $fio_nb_cfg (null_blk)"; return 1; }
	LOOP_NAME=abbench-nb$$
	FIO_NULLB_DIR=$fio_nb_cfg/$LOOP_NAME
	trap 'cleanup_loops; fio_remove_nullb; lib_cleanup' EXIT
	mkdir "$FIO_NULLB_DIR" || return 1
	for fio_kv in size=$1 queue_mode=2 memory_backed=1 irqmode=2 \
	    completion_nsec=$2 blocksize=4096 power=1; do
		echo "${fio_kv#*=}" >"$FIO_NULLB_DIR/${fio_kv%%=*}" || return 1
	done
	LOOP_DEV=/dev/$LOOP_NAME
	LOOP_SYSFS=/sys/block/$LOOP_NAME/queue
	fio_i=0
	while [ ! -b "$LOOP_DEV" ] && [ $fio_i -lt 50 ]; do
		sleep 0.1
		fio_i=$((fio_i + 1))
	done
	LOOP_MNT=$(mktemp -d /var/tmp/abbench-mnt.XXXXXX) || return 1
	# cleanup_loops unmounts it (no loop file: nothing to detach).
	LIB_LOOPS="$LIB_LOOPS $LOOP_DEV|$LOOP_MNT|"
	echo bfq >"$LOOP_SYSFS/scheduler" &&
	    echo 1 >"$LOOP_SYSFS/rotational" || return 1
	mkfs.ext4 -q -F "$LOOP_DEV" >/dev/null 2>&1 &&
	    mount "$LOOP_DEV" "$LOOP_MNT" || return 1
	export LOOP_DEV LOOP_NAME LOOP_SYSFS LOOP_MNT
}

fio_remove_nullb() {
	[ -d "${FIO_NULLB_DIR:-}" ] || return 0
	echo 0 >"$FIO_NULLB_DIR/power"
	rmdir "$FIO_NULLB_DIR"
}

fio_need_docker() {
	require_dockerd
	timeout 20 docker image inspect abbench/tools >/dev/null 2>&1 ||
	    "$ABBENCH_SRCDIR/scripts/build-image" >/dev/null ||
	    skip_all "cannot build the tools image"
}

fio_experiment() {
	fio_exec=$1 fio_rt=$2 fio_n=$3
	{
		printf '[experiment]\nname = t-bfq-fio\n'
		# Until the total, median and min rows are decided (the
		# per-container and overlap rows are hidden and do not count).
		if [ -z "${FIO_ROUNDS:-}" ]; then
			printf 'stop = decided\nmax-rounds = %s\n' \
			    "$FIO_MAX_ROUNDS"
		else
			printf 'rounds = %s\n' "$FIO_ROUNDS"
		fi
		printf 'stat-filter = -/container:/./ -.unit:overlap-ratio\n'
		printf 'drop-caches = %s\ntimeout = 120s\n' \
		    "${FIO_DROP_CACHES:-yes}"
		for a in idle8 idle0; do
			printf '[arm %s]\n' "$a"
			[ -n "$fio_rt" ] && printf 'runtime = %s\n' "$fio_rt"
			printf 'host.block.scheduler = %s\n' "$FIO_SCHEDULER"
			if [ "$FIO_SCHEDULER" = bfq ]; then
				printf 'host.block.slice_idle = %s\n' \
				    "$([ $a = idle8 ] && echo 8 || echo 0)"
			else
				printf 'host.block.fifo_batch = %s\n' \
				    "$([ $a = idle8 ] && echo 16 || echo 8)"
			fi
			[ -n "${FIO_LOW_LATENCY:-}" ] &&
			    printf 'host.block.low_latency = %s\n' \
			    "$FIO_LOW_LATENCY"
		done
		printf '[workload Multi]\ntype = fio\nexecutor = %s\n' "$fio_exec"
		printf 'containers = %s\ndir = %s/fio\nsize = %s\n' \
		    "$fio_n" "$LOOP_MNT" "${FIO_SIZE:-48m}"
		printf 'rw = %s\nbs = 4k\ndirect = 1\nduration = %s\n' \
		    "${FIO_RW:-randread}" "${FIO_DURATION:-3s}"
		# A sample below it fails, and its error says why: how far
		# apart the runs were released and how long each ran.
		[ -n "${FIO_OVERLAP_MIN:-}" ] &&
		    printf 'overlap-min = %s\n' "$FIO_OVERLAP_MIN"
		if [ -n "${FIO_THINK:-}" ]; then
			printf 'ioengine = psync\niodepth = 1\n'
			printf 'fio-args = --thinktime=%s\n' "$FIO_THINK"
		else
			printf 'ioengine = libaio\niodepth = 4\n'
		fi
	} >"$TEST_TMP/exp.ini"
}

fio_run() {
	"$ABBENCH" run "$TEST_TMP/exp.ini" --db "$TEST_TMP/db" \
	    >"$TEST_TMP/run.out" 2>&1
	fio_rc=$?
	ok $fio_rc "abbench run exits 0"
	[ $fio_rc = 0 ] || sed 's/^/# /' "$TEST_TMP/run.out" | tail -20
	RUN_UUID=$(sqlite3 "$TEST_TMP/db" 'SELECT uuid FROM runs LIMIT 1')
	"$ABBENCH" stat --db "$TEST_TMP/db" -filter '*' 1 >"$TEST_TMP/stat.out" 2>&1
	ok $? "abbench stat --db reads the run"
	FIO_N=$(sqlite3 "$TEST_TMP/db" "SELECT count(DISTINCT plan_idx) FROM samples")
	diag "$FIO_N samples: $(grep -A8 '^verdicts' "$TEST_TMP/run.out" | grep -v '^verdicts' | grep '^  ' | tr -s ' ')"
}

# stop = decided: at most this many good rounds.
FIO_MAX_ROUNDS=12

# Go's -N suffix of every row: the CPUs abbench may run on.
NPROCS=$(nproc)

fio_total() {
	sqlite3 "$TEST_TMP/db" "SELECT value FROM samples WHERE arm = '$1'
	    AND benchmark = 'Multi/c4/$2-total-$NPROCS' AND status = 'ok'
	    ORDER BY value" | awk '{ v[NR] = $1 } END {
	    if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The stat line of BENCH shows a significant increase (p < 0.05).
fio_significant_up() {
	fio_line=$(grep -E "^$1 " "$TEST_TMP/stat.out")
	diag "$fio_line"
	echo "$fio_line" | grep -Eq '\+[0-9.]+% \(p=0\.0[0-4][0-9]* n=[0-9+]+\)' &&
	    grep -Eq "^  $1 iops idle0 vs idle8: different after" \
	    "$TEST_TMP/run.out"
}

# All samples ok, from 6 rounds (the first look) to max-rounds, or
# exactly FIO_ROUNDS.
fio_all_ok() {
	is "$(sqlite3 "$TEST_TMP/db" "SELECT count(DISTINCT plan_idx)
	    FROM samples WHERE status = 'ok'")" "$FIO_N" "$FIO_N samples, all ok"
	sqlite3 "$TEST_TMP/db" "SELECT DISTINCT 'failed: ' || plan_idx || ' ' ||
	    arm || ': ' || error FROM samples WHERE status != 'ok'" |
	    while read -r l; do diag "$l"; done
	if [ -n "${FIO_ROUNDS:-}" ]; then
		is "$FIO_N" $((2 * FIO_ROUNDS)) "$FIO_ROUNDS rounds ($FIO_N samples)"
		return
	fi
	ok "$([ "$FIO_N" -ge 12 ] && [ "$FIO_N" -le $((2 * FIO_MAX_ROUNDS)) ]; echo $?)" \
	    "6 to $FIO_MAX_ROUNDS rounds ($FIO_N samples)"
}

# The start barrier (exec/barrier.h) releases the N runs together: every
# sample's overlap (the fraction of the longest run during which all ran)
# is at least MIN, whatever the load (printed with the overlaps). Samples
# that failed store no overlap: fio_all_ok counts them.
fio_overlaps() {
	fio_ov=$(sqlite3 "$TEST_TMP/db" "SELECT printf('%.3f', value)
	    FROM samples WHERE benchmark = 'Multi/c$1/overlap-$NPROCS'
	    AND status = 'ok' ORDER BY plan_idx" | tr '\n' ' ')
	diag "overlaps: $fio_ov(load average now: $(cut -d' ' -f1-3 \
	    /proc/loadavg))"
	fio_ov_n=$(echo "$fio_ov" | wc -w)
	fio_ov_ge=$(sqlite3 "$TEST_TMP/db" "SELECT count(*) FROM samples
	    WHERE benchmark = 'Multi/c$1/overlap-$NPROCS' AND status = 'ok'
	    AND value >= $2")
	ok "$([ "$fio_ov_n" -gt 0 ] && [ "$fio_ov_ge" = "$fio_ov_n" ]; echo $?)" \
	    "the $1 fio runs overlapped (>= $2) in every sample ($fio_ov_ge of $fio_ov_n)"
}

# LABEL's total iops: significantly higher with slice_idle 0 and decided
# different by the rule; and the interval of the change its decision
# stands on (on its verdict line: the U test's at the look's boundary,
# 99.9% at an interim look, 95.5% at the last) lies above +FLOOR%
# (default 0: a real gain at that level). A 99% interval, asked before,
# straddled 0 for a row decided at the last look (p=0.0121, +182% with
# +-97% noise: -24.3% to +647%) though the decision was right. The
# size of the bfq effect is the disk's, not abbench's: on this VM the same
# test measured +11.6%, +14.0%, +24.6%, +37%, +38.5% and +46.7% within
# the hour (slice_idle 0 gains more the faster the virtual disk serves
# that minute), so a fixed factor on the medians (1.25x here, 1.15x for
# runc) failed on the machine, not on the harness; at +12% and 12 rounds
# even the significance check fails now and then (a simulation with this
# noise: 1 run in 7), which more rounds, not a lower bar, would cure.
fio_total_up() {
	fio_significant_up "Multi/c4/$1-total-$NPROCS"
	ok $? "$1 total iops significantly higher with slice_idle 0, decided different by $FIO_MAX_ROUNDS rounds"
	fio_t8=$(fio_total idle8 "$1")
	fio_t0=$(fio_total idle0 "$1")
	fio_ci=$(sed -n "s/^  Multi\/c4\/$1-total-$NPROCS iops idle0 vs idle8: different after .*; change \([-+][0-9.e+-]*\)% to \([-+][0-9.e+-]*\)% at \([0-9.]*%\)[;)].*/\1 \2 \3/p" \
	    "$TEST_TMP/run.out")
	diag "median total iops: slice_idle 8 $fio_t8, slice_idle 0 $fio_t0; the change's interval: ${fio_ci:-none}"
	for a in idle8 idle0; do
		diag "$a, in the order taken: $(sqlite3 "$TEST_TMP/db" "SELECT
		    printf('%.0f', value) FROM samples WHERE arm = '$a' AND
		    benchmark = 'Multi/c4/$1-total-$NPROCS' AND status = 'ok'
		    ORDER BY plan_idx" | tr '\n' ' ')"
	done
	awk -v ci="${fio_ci:-x}" -v f="${2:-0}" \
	    'BEGIN { n = split(ci, c, " "); exit !(n == 3 && c[1] > f) }'
	ok $? "the decision's interval of the change lies above +${2:-0}% (${fio_ci:-no interval})"
}

fio_checks_after() {
	is "$(cat "$LOOP_SYSFS/iosched/$FIO_KNOB" 2>/dev/null)" \
	    "$KNOB_BEFORE" "$FIO_KNOB restored"
	is "$(cat "$LOOP_SYSFS/iosched/$FIO_KNOB2" 2>/dev/null)" \
	    "$KNOB2_BEFORE" "$FIO_KNOB2 as it was"
	is "$(sed 's/.*\[\(.*\)\].*/\1/' "$LOOP_SYSFS/scheduler")" \
	    "$SCHED_BEFORE" "scheduler restored"
	# No daemon (the qemu guest has none): no container, and no
	# complaint of docker's in the TAP stream.
	if command -v docker >/dev/null 2>&1; then
		is "$(timeout 30 docker ps -aq \
		    --filter "label=abbench.run=$RUN_UUID" 2>/dev/null |
		    wc -l)" 0 "no container of the run left"
	else
		pass "no docker: no container"
	fi
	fio_left=$(ls -d /sys/fs/cgroup/abbench-"$(echo "$RUN_UUID" |
	    cut -c1-8)"* /sys/fs/cgroup/*/abbench-"$(echo "$RUN_UUID" |
	    cut -c1-8)"* /sys/fs/cgroup/*/*/*/abbench-"$(echo "$RUN_UUID" |
	    cut -c1-8)"* 2>/dev/null | wc -l)
	is "$fio_left" 0 "no cgroup of the run left"
	is "$(ls "$LOOP_MNT/fio" 2>/dev/null | wc -l)" 0 \
	    "data files removed"
	is "$(sqlite3 "$TEST_TMP/db" "SELECT count(*) FROM journal
	    WHERE state NOT IN ('restored')" 2>/dev/null)" 0 \
	    "nothing left pending in the journal"
}
