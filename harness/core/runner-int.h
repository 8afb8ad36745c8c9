/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the runner (runner.h): one run's state and the steps that the
 * runner's files share. runner.c runs the steps (signals, the run's row,
 * prepare, the sample loop, restore, the end); runner-load.c loads and
 * checks everything before anything is touched and opens the store and
 * the journal; runner-store.c writes what the store keeps of a run (its
 * units, the host's metadata, each sample); runner-progress.c shows it.
 */
#ifndef ABBENCH_RUNNER_INT_H
#define ABBENCH_RUNNER_INT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/context.h"
#include "harness/core/experiment.h"
#include "harness/core/plan.h"
#include "harness/core/runner.h"
#include "host/pressure.h"
#include "lib/util.h"
#include "results/store.h"
#include "workloads/workload.h"

struct sampletab;

struct cgrp;
struct hostset;
struct journal;
struct verdicts;

/* Progress: a live line on a terminal, a line per round elsewhere. */
struct progress {
	int		 tty;
	int		 quiet;
	int		 json;
	int64_t		 start_ns;
	size_t		 total;
	size_t		 done;		/* the run's, a resumed run's too */
	size_t		 replayed;	/* of done, stored before a resume */
	int		 failures;
	int		 rounds;
	int		 line_open;
	/* stop = decided: rows counted, decided, stopped (futile) and
	 * reopened (decided at an earlier look, not at the last). */
	int		 decided_mode;
	size_t		 rows, rows_decided, rows_stopped, rows_reopened;
	int		 reopen_said;	/* why, said once */
};

/* One run from its options to its exit status, in steps. */
struct run_state {
	const char		*exp_path;
	struct run_options	*opt;
	struct experiment	*e;
	struct store		*st;
	struct journal		*jr;
	struct store_run	 old;		/* the run resumed */
	int			 claimed;	/* run_claim made it ours */
	char			*claim_status;	/* its status before */
	enum run_order		 order;
	uint64_t		 seed;
	struct plan_entry	*plan;
	size_t			 nplan;
	int			*done;
	size_t			 ndone;
	struct strvec		 paths;
	struct hostset		*hs;
	struct run_ctx		 ctx;
	struct progress		 prog;
	struct sigaction	 oldsa[NSIG];	/* by signal number */
	int			 signals;
	struct cgrp		*runcg;
	int64_t			 cg_journal;
	int64_t			 sub_journal;	/* v2 subtree_control */
	char			*sub_dir;
	char			*sub_was;
	int64_t			 scratch_journal;
	int			 prepared_upto;
	int			 failures;
	int			 disturbed;	/* samples host-changed */
	int			 aborted;
	int			 exitcode;
	unsigned char		*sweep;		/* per workload: each sample */
	int			 sweep_off;	/* the daemon did not answer */
	/* stop = decided (NULL otherwise) and the plan made round by round:
	 * plan_idx values of stored samples with a failed row (--resume). */
	struct verdicts		*verdicts;
	/* stop = decided: the run's ok measured values, each added as it
	 * is stored (runner_store_result), which the looks read. */
	struct sampletab	*samples;
	int			*bad;
	size_t			 nbad;
	/* The fixed design, per workload: its good rounds when its failed
	 * rounds could not be made up, -1 otherwise. */
	int			*unmade;
	/* The stall totals when this process began the run (psi_ok). */
	struct psi_totals	 psi0;
	int			 psi_ok;
};

/* runner-progress.c: the progress of samples and rounds on stderr, or one
 * JSON object per sample on stdout. */
void	runner_progress_sample(struct progress *p, const struct plan_entry *pe,
	    const struct experiment *e, const char *status, double value_secs);
void	runner_progress_round_end(struct progress *p, int round,
	    const char *arm);
void	runner_progress_end(struct progress *p);

/* runner-load.c: before anything is touched. */
char	*runner_host_name(void);
int	 runner_load(struct run_state *r, char **cause);
int	 runner_open(struct run_state *r, char **cause);
/* A claimed run given back as it was (the resume stopped before it ran). */
void	 runner_unclaim(struct run_state *r);
void	 runner_recover(struct run_state *r);

/* runner-store.c: what the store keeps of the run. */
void	 runner_store_units(struct store *st, int64_t run_id,
	    const struct experiment *e);
void	 runner_store_metadata(struct run_ctx *ctx,
	    const struct experiment *e, struct strvec *paths, int quiet);
void	 runner_store_resume(struct run_ctx *ctx,
	    const struct store_run *old, const char *build, int quiet);
/* The sample, stored; then its ok measured values added to tab (NULL:
 * none kept). */
int	 runner_store_result(struct run_ctx *ctx, const struct plan_entry *pe,
	    const struct experiment *e, struct sample_result *res, int64_t t0,
	    int64_t t1, int64_t w0, int64_t w1, struct sampletab *tab,
	    char **cause);

#endif
