/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runner: turns an experiment into a plan (rounds x workloads x arms in
 * the chosen order: plan.h), and runs it sample by sample, storing each
 * sample the moment it is taken, applying each arm's host settings, and
 * restoring the host at the end, on error and on a signal.
 */
#ifndef ABBENCH_RUNNER_H
#define ABBENCH_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/experiment.h"

struct run_options {
	const char	*db_path;
	int		 rounds;	/* -1 = from the file */
	int		 order_set;
	enum run_order	 order;
	int		 seed_set;
	uint64_t	 seed;
	const char	*resume;	/* run selector, or NULL */
	/* [experiment] keys from the command line, "KEY=VALUE", NULL-ended
	 * (or NULL): set over the file's (experiment_set). */
	char *const	*set;
	int		 quiet;
	int		 json_progress;
	int		 durable;
	int		 no_restore_check;
	int		 wait_lock;	/* wait for the host instead of failing */
	/* --resume: take over a run marked running on another host (or by
	 * a live process here) without checking it is gone. */
	int		 takeover;
	/* --resume: of a database another user owns or may write to (it
	 * would run its stored experiment as us: refused without). */
	int		 trust_db;
	/* The experiment's text when it is not the file's (exp_path then
	 * only names it): `abbench calibrate` runs a rewritten copy. */
	const char	*exp_text;
	/* The commit this abbench was built from (git describe), recorded
	 * with a resume (resume.N), or NULL. */
	const char	*build;
	/* Set by runner_run: the run it made or resumed (0 if none). */
	int64_t		 run_id;
};

/* Run an experiment; returns the exit status for `abbench run`. */
int	runner_run(const char *exp_path, struct run_options *opt);

#endif
