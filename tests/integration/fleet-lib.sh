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
#   held_sample_script, held_exp FILE NAME DIR HOLD_AT ROUNDS, samples DB,
#   held DB N JOB DIR, all_held FDIR OUT HOLD SHAPE...
#                           a sample held at will, for the many-node tests
#                           (below)
#   run_cgroups U8..., journal_saved NODE...
#                           what runs left on the nodes (below)

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

# require_slurm_nodes N: a cluster of N hosts (scripts/start-slurm --nodes
# N: namespaces, a bridge, one slurmd per host), started unless it already
# runs, and stopped at exit if this test started it. skip_all only where
# it cannot exist here (not root, Slurm, namespaces or bridges missing);
# a cluster that could start and did not is a failure. Exports
# SLURM_CONF (its clients are the test's) and SHARED (a directory of the
# cluster's shared directory, as NFS: the nodes see it, not the test's
# TEST_TMP, which is below their own /tmp); NODES_TOP is the cluster's
# directory.
require_slurm_nodes() {
	require_root
	require_cmd sbatch squeue scontrol scancel sinfo sqlite3 slurmd \
	    slurmctld munged ip nsenter unshare
	unshare --net --uts --mount true 2>/dev/null ||
	    skip_all "no network, UTS or mount namespaces here"
	ip link add abbench-probe0 type bridge 2>/dev/null ||
	    skip_all "cannot make a bridge here"
	ip link del abbench-probe0
	# One such cluster per machine (its bridge, addresses and namespace
	# names are fixed): tests of other build trees wait their turn. The
	# daemons do not inherit the lock (8>&- below).
	require_cmd flock
	exec 8>>/run/abbench-slurm-nodes.lock
	if ! flock -w 900 8; then
		fail "the many-node cluster stayed busy for 15 min"
		done_testing
	fi
	NODES_TOP=$(dirname "$(dirname "$("$ABBENCH_SRCDIR/scripts/slurm-nodes" --conf)")")
	SLURM_CONF=$NODES_TOP/etc/slurm.conf
	export SLURM_CONF
	NODES_STARTED=
	# (sinfo waits a minute for a slurmctld that is not there.)
	if [ ! -s "$SLURM_CONF" ] ||
	    ! timeout 10 sinfo -h -o %P >/dev/null 2>&1; then
		NODES_STARTED=1
	fi
	trap 'fleet_nodes_cleanup; lib_cleanup' EXIT
	if ! "$ABBENCH_SRCDIR/scripts/start-slurm" --nodes "$1" \
	    >"$TEST_TMP/slurm.log" 2>&1 8>&-; then
		NODES_STARTED=1
		fail "start-slurm --nodes $1"
		diag "$(cat "$TEST_TMP/slurm.log")"
		done_testing
	fi
	# It answered but had to be made again (a node of it was down).
	grep -q '^slurm-nodes: started' "$TEST_TMP/slurm.log" && NODES_STARTED=1
	SHARED=$(mktemp -d "$NODES_TOP/shared/t.XXXXXX")
	chmod 0755 "$SHARED"
	export SHARED
}

fleet_nodes_cleanup() {
	if [ -n "${SHARED:-}" ]; then
		fleet_lib_cleanup
		[ -n "${ABBENCH_TEST_KEEP:-}" ] || rm -rf "$SHARED"
	fi
	if [ -n "$NODES_STARTED" ] && [ -z "${ABBENCH_TEST_KEEP:-}" ]; then
		"$ABBENCH_SRCDIR/scripts/stop-slurm" >/dev/null 2>&1 ||
		    echo "# stop-slurm failed"
	fi
}

# nodes_q SQL: one value from fleet.db ($DB)
nodes_q() {
	db_count "$DB" "$1"
}

# held_sample_script: $SHARED/sample.sh DIR HOLD_AT, a sample of 0.2 s
# that, from the job's sample HOLD_AT on, waits while DIR/hold exists
# (counted per job in DIR/count.JOB). Everything on the shared directory.
held_sample_script() {
	cat >"$SHARED/sample.sh" <<'SH'
#!/bin/sh
sleep 0.2
c=$1/count.$SLURM_JOB_ID
n=$(( $(cat "$c" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$c"
if [ "$n" -ge "$2" ]; then
	while [ -e "$1/hold" ]; do sleep 0.05; done
fi
exit 0
SH
}

# held_exp FILE NAME DIR HOLD_AT ROUNDS: an experiment FILE named NAME of
# ROUNDS held samples (sample.sh above), held from HOLD_AT on while
# DIR/hold exists (made here, with DIR)
held_exp() {
	mkdir -p "$3"
	touch "$3/hold"
	cat >"$1" <<INI
[experiment]
name = $2
rounds = $5

[arm a]
args = /bin/sh $SHARED/sample.sh $3 $4

[workload Cmd]
type = command
INI
}

# run_cgroups U8...: how many cgroups the runs (uuids beginning U8) have
# on the machine (the nodes share its hierarchies)
run_cgroups() {
	for rc_u in "$@"; do
		find /sys/fs/cgroup -maxdepth 6 -type d -name "abbench-$rc_u" \
		    2>/dev/null
	done | wc -l
}

# journal_saved NODE...: entries not undone in these nodes' journals
journal_saved() {
	for js_n in "$@"; do
		db_count "$NODES_TOP/nodes/$js_n/state/journal.db" \
		    "SELECT count(*) FROM entries WHERE state = 'saved'"
	done | awk '{ s += $1 } END { print s + 0 }'
}

# samples DB: the ok samples stored
samples() {
	db_count "$1" "SELECT count(*) FROM samples WHERE status = 'ok'"
}

# held DB N JOB DIR: N samples stored, the job inside the next (held)
held() {
	[ -s "$1" ] && [ "$(samples "$1" 2>/dev/null || echo 0)" -ge "$2" ] &&
	    [ "$(cat "$4/count.$3" 2>/dev/null)" = $(($2 + 1)) ]
}

# all_held FDIR OUT DIR SHAPE...: each SHAPE ("c2-1") of the fleet in FDIR
# (submitted with output OUT) has a sample stored and is held in its next
all_held() {
	ah_dir=$1 ah_out=$2 ah_hold=$3
	shift 3
	for ah_s in "$@"; do
		held "$ah_dir/runs/$ah_s.db" 1 \
		    "$(fleet_jobid "$ah_out" "$(echo "$ah_s" | tr - /)")" \
		    "$ah_hold" || return 1
	done
}
