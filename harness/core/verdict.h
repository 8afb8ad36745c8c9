/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verdicts of `stop = decided` (stats/sequential.h applied to a run):
 * per workload, the rows it counts (each benchmark and unit that the
 * experiment's stat-filter keeps, each arm against the first), looked at
 * after planned numbers of good rounds from the run's sample table
 * (stats/sampletab.h: the runner adds each sample to it as it is
 * stored, so a look reads no sample back from the store). A
 * workload is decided when every row of it is decided at the same look;
 * the verdicts reported are those of its last look, on all the samples it
 * took, which are the samples `abbench stat` compares, so a `different`
 * row shows a percentage there and an `equivalent` one a `~`.
 *
 * Not thread-safe. The store gets each look's decisions; it is read once,
 * for the advice of a row undecided at its last look (the run's arms and
 * its calibration).
 */
#ifndef ABBENCH_VERDICT_H
#define ABBENCH_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/model.h"
#include "stats/sequential.h"

struct sampletab;
struct store;
struct verdicts;

/* filter: the stat-filter (NULL: every row); paired: the order pairs the
 * arms round by round (alternate, abba), so rows are decided on the
 * per-round ratios. NULL with *cause on a bad filter. */
struct verdicts	*verdicts_new(const struct experiment *e,
		    const struct seq_design *d, const char *filter,
		    int paired, char **cause);
void		 verdicts_free(struct verdicts *v);

/*
 * The look of workload w after `good` good rounds, made at the end of run
 * round `round`: its rows from t, the run's ok measured samples, those of
 * rounds <= round (wl_of_idx[plan_idx] = workload, for plan_idx < nidx).
 * Returns 1 when every row is decided (or at the last look), 0 when not,
 * -1 with *cause on a store error.
 */
int		 verdicts_look(struct verdicts *v, struct store *st,
		    int64_t run_id, struct sampletab *t, const int *wl_of_idx,
		    size_t nidx, int w, int good, int round, char **cause);

/* Is `good` good rounds a look (the only time verdicts_look reads the
 * run's store or writes to it)? */
int		 verdicts_at_look(const struct verdicts *v, int good);

/*
 * Rows counted so far, rows decided (different or equivalent) at their
 * workload's last look, rows stopped there undecided for futility (what
 * the verdict lines call "undecided ... stopped": not decided), and rows
 * reopened there: decided at an earlier look of their workload, which
 * went on for another row, and undecided at its last (the verdict line
 * says when).
 */
void		 verdicts_count(const struct verdicts *v, size_t *rows,
		    size_t *decided, size_t *stopped, size_t *reopened);

/* Workload w could not make up its failed rounds (said in the report). */
void		 verdicts_unmade(struct verdicts *v, int w, int good);

/*
 * One line per row: its verdict, the round and look it was made at, p;
 * undecided rows with their MDE (stats/power.h) at the samples taken.
 */
void		 verdicts_print(const struct verdicts *v, FILE *fp);

#endif
