/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run as executors and workloads see it: the run's ids and names, the
 * sample being taken and its deadline, and the journal of objects made.
 */
#ifndef ABBENCH_CONTEXT_H
#define ABBENCH_CONTEXT_H

#include <signal.h>
#include <stdint.h>

struct store;
struct hostset;
struct journal;
struct experiment;

/* One planned sample. */
struct plan_entry {
	int	idx;		/* position in the whole plan */
	int	round;		/* 0-based; rounds < warmup are warm-up */
	int	position;	/* index within the round */
	int	arm;		/* index into experiment.arms */
	int	workload;	/* index into experiment.workloads */
	int	warmup;
};

/* Shared state every workload and executor sees during a run. */
struct run_ctx {
	struct store		*store;
	int64_t			 run_id;
	char			 run_uuid[37];
	const struct experiment	*exp;
	struct hostset		*hostset;
	/* The host journal every change of the run goes to first. */
	struct journal		*journal;
	/* Set from signal handlers: 1 = stop after restoring, 2 = now. */
	volatile sig_atomic_t	*stop;
	/* The current sample: */
	const struct plan_entry	*entry;
	int64_t			 deadline_ns;	/* monotonic, 0 = none */
	/* Where this run's cgroups go, relative to abbench's own cgroup in
	 * each hierarchy: "abbench-<first 8 of uuid>". */
	char			 cgroup_name[64];
	/*
	 * Why abbench cannot make cgroups (not root, no writable hierarchy),
	 * set by the local executor's check when the workload can do without
	 * (workload_ops.cgroup_optional): its programs then run in abbench's
	 * own cgroup. Empty when it can.
	 */
	char			 no_cgroup[256];
	/* The run's scratch directory (run_scratch_file), or NULL. */
	char			*scratch;
	/* Where a failed call's sandbox logs are kept past the run
	 * (STATE/sandbox-logs), or NULL. */
	char			*keep_dir;
	/*
	 * The journal of objects, set by the runner (the host journal):
	 * what run_journal_object and run_forget_object call. NULL: nothing
	 * is journaled (tests, a context without a run).
	 */
	int64_t	(*journal_object)(struct run_ctx *ctx, const char *kind,
		    const char *target);
	void	(*forget_object)(struct run_ctx *ctx, int64_t journal_id);
};

/*
 * Record an object made for the run (cgroup, container, dir, file, loop)
 * in the host journal before making it, so that the next run or `abbench
 * restore` removes it after a kill -9 (host/undo.h says how).
 * Returns the journal id (for run_forget_object) or -1 (also when the
 * context has no journal hook).
 */
int64_t	run_journal_object(struct run_ctx *ctx, const char *kind,
	    const char *target);
/* The object was removed: mark its journal entry restored. */
void	run_forget_object(struct run_ctx *ctx, int64_t journal_id);
/*
 * A path for a scratch file or directory of the run: NAME (a mkstemp /
 * mkdtemp template or a plain name) then SUFFIX (may be NULL) inside the
 * run's own directory ($TMPDIR/abbench-<uuid>, 0700, journaled, removed
 * at the end and by restore); without a run, $TMPDIR/abbench-PID-NAME.
 * malloc'd; nothing is created.
 */
char	*run_scratch_file(const struct run_ctx *ctx, const char *name,
	    const char *suffix);
/* Nonzero when the run should stop (signal). */
int	run_should_stop(const struct run_ctx *ctx);

#endif
