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
	/* Set from signal handlers: 1 = stop after restoring, 2 = now. */
	volatile sig_atomic_t	*stop;
	/* The current sample: */
	const struct plan_entry	*entry;
	int64_t			 deadline_ns;	/* monotonic, 0 = none */
	/* Where this run's cgroups go, relative to abbench's own cgroup in
	 * each hierarchy: "abbench-<first 8 of uuid>". */
	char			 cgroup_name[64];
	/* A scratch directory for the run (removed at the end). */
	char			*scratch;
	int			 verbose;
};

/*
 * Record an object made for the run (cgroup, container, dir, loop) in the
 * journal before making it, so `abbench restore` can remove it. Returns
 * the journal id (for run_forget_object) or -1. Defined by the runner.
 */
int64_t	run_journal_object(struct run_ctx *ctx, const char *kind,
	    const char *target);
/* The object was removed: mark its journal entry restored. */
void	run_forget_object(struct run_ctx *ctx, int64_t journal_id);
/* Nonzero when the run should stop (signal). */
int	run_should_stop(const struct run_ctx *ctx);

#endif
