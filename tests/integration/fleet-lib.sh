# Shared by the t13xx fleet tests (sourced after lib.sh): the real local
# Slurm that scripts/start-slurm runs, and small helpers.
#
#   require_slurm           start scripts/start-slurm when no cluster
#                           answers; skip_all only if Slurm cannot run here
#                           or lacks the partitions c2 and c4. Sets SHARED
#                           (the fleets' shared directory) and cancels the
#                           test's fleets at exit.
#   fleet_id OUT            the fleet id in `fleet submit`'s output
#   fleet_jobid OUT SHAPE   the job id of SHAPE ("c4/1") in that output
#   wait_for SECS CMD...    run CMD every 0.2 s until it succeeds; 1 if it
#                           has not within SECS
#   db_count DB SQL         sqlite3 -readonly DB SQL, one value

require_slurm() {
	require_root
	require_cmd sbatch squeue scontrol scancel sinfo sqlite3
	if ! sinfo -h -o %P >/dev/null 2>&1; then
		"$ABBENCH_SRCDIR/scripts/start-slurm" >"$TEST_TMP/slurm.log" \
		    2>&1 || skip_all "slurm cannot start here: \
$(tail -n 3 "$TEST_TMP/slurm.log" | tr '\n' ' ')"
	fi
	for p in c2 c4; do
		sinfo -h -o %R | grep -qx "$p" ||
		    skip_all "this Slurm cluster has no partition $p"
	done
	SHARED=$TEST_TMP/shared
	mkdir -p "$SHARED"
	export SHARED
	trap 'fleet_lib_cleanup; lib_cleanup' EXIT
}

fleet_lib_cleanup() {
	for d in "$SHARED"/*/; do
		[ -f "$d/fleet.db" ] && "$ABBENCH" fleet cancel -q "$d" \
		    >/dev/null 2>&1
	done
}

fleet_id() {
	printf '%s\n' "$1" | sed -n 's/^fleet \([^ ]*\) in .*/\1/p'
}

fleet_jobid() {
	printf '%s\n' "$1" | awk -v s="$2" '$1 == s && $2 == "job" { print $3 }'
}

wait_for() {
	wf_limit=$(( $1 * 5 ))
	shift
	wf_i=0
	until "$@"; do
		wf_i=$((wf_i + 1))
		[ "$wf_i" -gt "$wf_limit" ] && return 1
		sleep 0.2
	done
	return 0
}

# A job that ends (done, cancelled, requeued) checkpoints its database's
# WAL as it closes it, which takes the file's lock for a moment: the
# reader waits for it (without .timeout sqlite3 fails at once with
# "database is locked" and prints nothing: seen here as c4's sample count
# '' right after its scancel, twice in six runs at load 2).
db_count() {
	sqlite3 -readonly -cmd '.timeout 10000' "$1" "$2" 2>/dev/null
}
