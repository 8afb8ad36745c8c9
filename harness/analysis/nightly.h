/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly regression verdict: a run of an experiment (the candidate)
 * judged against its baseline and its history in the store.
 *
 * Which runs:
 *   history   the runs of the same experiment name on the same host (for
 *             a run a cluster scheduler placed, one with a partition
 *             config key: of the same host class, partition and vcpus,
 *             whatever the node's name) with status done, oldest first, up to and including the candidate
 *             (the candidate is always the last night, whatever its
 *             status); at most `history` of them (0 = all).
 *   baseline  the last `baseline` runs of the history before the candidate:
 *             the most nights a row's reference holds.
 *   nights    numbered from 1, the experiment's first run on the host (or
 *             host class), whatever the history's window.
 *   acks      nights whose run has the `nightly.ack` config key (nightly
 *             --ack) or whose number is `baseline_from`: a new reference
 *             starts there.
 *
 * Rows: one per (arm, benchmark, unit) of the candidate's ok, non-warm-up
 * samples. Every arm is judged against the same-named arm of the baseline
 * and history runs (a run with one arm is simply judged against its own
 * past); arms are compared with each other here only through a control
 * arm (the experiment's `control` key: each night's value of an arm is
 * then its ratio to the control's, measured in the same night, rounds
 * interleaved); the rest is `abbench stat`'s job.
 *
 * The judgement of each row (tonight against the distribution of earlier
 * nights, the changes found in the history, the MDE against the threshold:
 * the verdict and its reason) is stats/nightly-judge.h's, on the numbers
 * gathered here: per row and night the median of its executions, that
 * median's standard error and the number of executions, the unit's
 * direction and the threshold (the calibrated one with threshold_auto).
 *
 * Samples are counted by execution: the lines one gobench invocation
 * prints for a benchmark (-test.count) count once, by their median.
 *
 * Direction of a unit: the run's stored `Unit U better=higher|lower`
 * metadata (which the workload types declare), else the unit's name
 * (nightly_unit_better).
 *
 * The rule is judged night by night from the first night; with `carry`
 * (the default) from the state the latest judged night kept with its run
 * (harness/analysis/nightly-state.h), so that tonight costs one night, not
 * the history; its answers are the whole replay's, bit for bit.
 *
 * Reads the store, and with `carry` writes tonight's state (when the store
 * can be written); never prints. Not thread-safe (like the store).
 */
#ifndef ABBENCH_NIGHTLY_H
#define ABBENCH_NIGHTLY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"

struct store;

struct nightly_options {
	size_t		 baseline;	/* reference nights; default 15 */
	size_t		 history;	/* runs; 0 = all (the default) */
	double		 threshold;	/* minimum relative effect; 0.02 */
	double		 alpha;		/* night test, per night; 0.0005 */
	int64_t		 baseline_from;	/* a night number, 0 none */
	/*
	 * Thresholds per (benchmark, unit) from the latest calibration of
	 * the experiment on the run's host class: its MDE at the
	 * experiment's rounds (the smallest change one run of it detects
	 * with 80% power); `threshold` where it has none.
	 */
	int		 threshold_auto;
	/*
	 * With history 0 and no baseline_from (the default): resume from
	 * the state a night before kept (nightly-state.h) and keep
	 * tonight's, when the store can be written; the same answers as
	 * the whole replay. 0: replay every night, keep nothing (history).
	 */
	int		 carry;
};
void	nightly_options_init(struct nightly_options *o);

struct nightly_result {
	int64_t			 run_id;
	char			*uuid;
	char			*name;
	char			*host;
	char			*host_class;	/* "c4/vcpus=4", or NULL */
	int64_t			*baseline_ids;
	size_t			 nbaseline;
	int64_t			*history_ids;	/* oldest first; last = run */
	int64_t			*night_no;	/* their numbers, from 1 */
	int			*acks;		/* a new reference there */
	int64_t			*night_wall;	/* their starts */
	size_t			 nhistory;
	/* The night (index) whose state tonight resumed from; nhistory
	 * when every night was judged. */
	size_t			 resumed;
	struct nightly_row	*rows;
	size_t			 nrows;
	int			 nregressed, nimproved, ninconclusive;
	struct nightly_options	 opt;
	int64_t			 calib_run;	/* thresholds from; 0 none */
	/*
	 * The experiment's control arm (its `control` key as the candidate
	 * run stored it, when the run has that arm's values), or NULL.
	 * Every other arm's row that the control arm also has (benchmark
	 * and unit) is judged on its ratio to the control's, night by
	 * night (ratio[i] set): what slows both arms, the machine, cancels.
	 * The control arm's own rows are judged on their values and shown,
	 * as the machine's, but never counted as a verdict.
	 */
	char			*control;
	int			*ratio;		/* nrows: row i is a ratio */
};
/* Row i is judged on its ratio to the control arm's. */
int	nightly_row_ratio(const struct nightly_result *r, size_t i);
/* Row i is the control arm's (shown, never counted). */
int	nightly_row_is_control(const struct nightly_result *r, size_t i);
/* Row i's verdict as printed: "control" for the control arm's rows,
 * else nightly_verdict_text's (malloc'd). */
char	*nightly_row_verdict(const struct nightly_result *r, size_t i);
/* Row i's reason as printed: "ratio to CONTROL: " before a ratio's
 * (malloc'd). */
char	*nightly_row_reason(const struct nightly_result *r, size_t i);

/* Judge run_id. Fills *out (release with nightly_result_release). */
int	nightly_judge(struct store *st, int64_t run_id,
	    const struct nightly_options *o, struct nightly_result *out,
	    char **cause);
void	nightly_result_release(struct nightly_result *r);
/*
 * Mark the night numbered night_no of run_id's history (as nightly_judge
 * finds it) as the start of a new reference: the `nightly.ack` config key
 * of its run. *acked_run: that run. 0, or -1 and *cause (no such night).
 */
int	nightly_ack(struct store *st, int64_t run_id, int64_t night_no,
	    const struct nightly_options *o, int64_t *acked_run, char **cause);
/* A run's host class, "PARTITION/vcpus=N", or NULL when it has no
 * partition config key (malloc'd). */
char	*nightly_host_class(struct store *st, int64_t run_id);

/* One line per row: "VERDICT  NAME  UNIT  details\n". */
void	nightly_format_text(const struct nightly_result *r, struct strbuf *out);
/* The whole result as a JSON document (jansson), with a final newline. */
void	nightly_format_json(const struct nightly_result *r, struct strbuf *out);

#endif
