/*
 * The runner: turns an experiment into a plan (rounds x workloads x arms in
 * the chosen order), and runs it sample by sample, storing each sample the
 * moment it is taken, applying each arm's host settings, and restoring the
 * host at the end, on error and on a signal.
 */
#ifndef ABBENCH_RUNNER_H
#define ABBENCH_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/core/experiment.h"

struct store;
struct hostset;
struct journal;

/* One planned sample. */
struct plan_entry {
	int	idx;		/* position in the whole plan */
	int	round;		/* 0-based; rounds < warmup are warm-up */
	int	position;	/* index within the round */
	int	arm;		/* index into experiment.arms */
	int	workload;	/* index into experiment.workloads */
	int	warmup;
};

/*
 * Build the plan. Warm-up rounds come first (e->warmup of them), then
 * e->rounds measured rounds; the order applies across all of them.
 * Deterministic for a given (experiment, order, seed).
 */
int	plan_build(const struct experiment *e, enum run_order order,
	    uint64_t seed, struct plan_entry **out, size_t *n, char **cause);
/* The order of arm indices in round r (narms entries written to out). */
void	plan_round_order(enum run_order order, uint64_t seed, int round,
	    size_t narms, int *out);

struct run_options {
	const char	*db_path;
	int		 rounds;	/* -1 = from the file */
	int		 order_set;
	enum run_order	 order;
	int		 seed_set;
	uint64_t	 seed;
	const char	*resume;	/* run selector, or NULL */
	int		 quiet;
	int		 json_progress;
	int		 durable;
	int		 no_restore_check;
	int		 wait_lock;	/* wait for the host instead of failing */
	/* Set by runner_run: the run it made or resumed (0 if none). */
	int64_t		 run_id;
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
	/* The run's scratch directory (run_scratch_file), or NULL. */
	char			*scratch;
	int			 verbose;
};

/* Record an object made for the run (cgroup, container, dir, file, loop)
 * in the host journal before making it, so that the next run or `abbench
 * restore` removes it after a kill -9 (harness/host/undo.h says how).
 * Returns the journal id (for run_forget_object) or -1. */
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

/* Run an experiment; returns the exit status for `abbench run`. */
int	runner_run(const char *exp_path, struct run_options *opt);

#endif
