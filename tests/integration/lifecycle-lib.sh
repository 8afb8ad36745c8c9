# Helpers of the lifecycle tests (t1100-t1120): a small image and rootfs
# with busybox and touchmem, and the checks that a run left nothing behind.
# Source after lib.sh.

# One image per test process: lifecycle tests that run at the same time
# (make -j, several checkouts) must not remove each other's image.
LC_IMAGE=abbench/lc-test:$$
TOUCHMEM=$ABBENCH_BUILDDIR/payload/idle/touchmem

lc_require() {
	require_root
	require_cmd runc runsc busybox sqlite3
	[ -x "$TOUCHMEM" ] || skip_all "touchmem is not built"
	require_dockerd runsc
}

# A rootfs with busybox and touchmem in $TEST_TMP/rootfs (for oci).
lc_rootfs() {
	LC_ROOTFS=$TEST_TMP/rootfs
	mkdir -p "$LC_ROOTFS/bin" "$LC_ROOTFS/usr/local/bin" \
	    "$LC_ROOTFS/proc" "$LC_ROOTFS/dev" "$LC_ROOTFS/sys" \
	    "$LC_ROOTFS/tmp" "$LC_ROOTFS/etc"
	cp "$(command -v busybox)" "$LC_ROOTFS/bin/busybox"
	for a in sh true sleep cat; do ln -sf busybox "$LC_ROOTFS/bin/$a"; done
	cp "$TOUCHMEM" "$LC_ROOTFS/usr/local/bin/touchmem"
}

# The same as a docker image (small: with vfs every run copies it),
# removed at exit (lc_image sets the EXIT trap, which calls lib_cleanup).
lc_image() {
	[ -n "${LC_ROOTFS:-}" ] || lc_rootfs
	trap 'docker rmi -f "$LC_IMAGE" >/dev/null 2>&1; lib_cleanup' EXIT
	docker image inspect "$LC_IMAGE" >/dev/null 2>&1 && return 0
	tar -C "$LC_ROOTFS" -c . | timeout 60 docker import \
	    --change 'ENV PATH=/usr/local/bin:/bin' - "$LC_IMAGE" >/dev/null
}

# lc_no_leftovers DB RUN_ID DESC: no container, cgroup, scratch directory,
# runsc process or open journal entry of the run remains.
lc_no_leftovers() {
	lc_uuid=$(sqlite3 "$1" "SELECT uuid FROM runs WHERE id = $2")
	lc_cg=abbench-$(printf '%s' "$lc_uuid" | cut -c1-8)
	lc_left=$(docker ps -a -q --filter "label=abbench.run=$lc_uuid")
	is "$lc_left" "" "$3: no container left"
	lc_left=$(find /sys/fs/cgroup -maxdepth 5 -type d -name "$lc_cg*" \
	    2>/dev/null | head -3)
	is "$lc_left" "" "$3: no cgroup left"
	lc_left=$(ls -d /tmp/abbench-"$lc_cg"-* \
	    "${TMPDIR:-/tmp}/abbench-$lc_uuid" 2>/dev/null | head -3)
	is "$lc_left" "" "$3: no scratch directory or checkpoint image left"
	lc_left=$(pgrep -f "^runsc.*$lc_cg" | head -3)
	is "$lc_left" "" "$3: no runsc process left"
	lc_left=$(sqlite3 "$1" "SELECT kind || ' ' || target FROM journal
	    WHERE run_id = $2 AND state != 'restored'")
	is "$lc_left" "" "$3: every journaled object was removed"
}

# lc_count DB RUN ARM BENCH UNIT: ok samples of that benchmark.
# lc_bench NAME: the stored name (abbench's rule: Go's -N suffix, N the
# CPUs it may run on, unless the name states vcpus=).
NPROCS=$(nproc)
lc_bench() {
	case $1 in
	*vcpus=*) echo "$1" ;;
	*) echo "$1-$NPROCS" ;;
	esac
}
lc_count() {
	sqlite3 "$1" "SELECT count(*) FROM samples WHERE run_id = $2 AND
	    arm = '$3' AND benchmark = '$(lc_bench "$4")' AND unit = '$5'
	    AND status = 'ok' AND warmup = 0"
}

# lc_range DB RUN BENCH UNIT MIN MAX: number of ok values outside.
lc_outside() {
	sqlite3 "$1" "SELECT count(*) FROM samples WHERE run_id = $2 AND
	    benchmark = '$(lc_bench "$3")' AND unit = '$4' AND status = 'ok' AND
	    (value < $5 OR value > $6)"
}

lc_last_run() {
	sqlite3 "$1" "SELECT max(id) FROM runs"
}

# lc_diag_failed DB RUN [ARM]: a diagnostic line per sample of the run
# that was not ok (all arms but ARM), with its stored error: why a count
# came out short, in the log CI shows.
lc_diag_failed() {
	sqlite3 "$1" "SELECT 'round ' || (round + 1) || ', arm ' || arm ||
	    ', ' || status || ': ' || coalesce(error, '') FROM samples
	    WHERE run_id = $2 AND status != 'ok' AND arm != '${3:-}'
	    ORDER BY plan_idx" | while IFS= read -r lc_line; do
		diag "$lc_line"
	done
}
