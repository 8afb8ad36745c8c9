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
 *   baseline  the last `baseline` runs of the history before the candidate.
 *
 * Rows: one per (arm, benchmark, unit) of the candidate's ok, non-warm-up
 * samples. Every arm is judged against the same-named arm of the baseline
 * and history runs (a run with one arm is simply judged against its own
 * past); arms are never compared with each other here (that is `abbench
 * stat`'s job).
 *
 * Signals per row, with delta = relative change in the bad or good
 * direction of the unit:
 *   (1) Mann-Whitney U of the candidate's samples against the pooled
 *       baseline samples; Holm-corrected across all rows; a signal when
 *       the corrected p <= alpha and |median delta| >= threshold.
 *   (2) E-divisive means over the per-night medians of the history (the
 *       candidate included); a signal when the latest change point's step
 *       (median after / median before, levels bounded by the neighbouring
 *       change points) is >= threshold in size. The level the candidate is
 *       on is thus compared with the level before the latest change.
 * Verdict: regressed if either signal is in the bad direction; else
 * improved if either is in the good direction; else inconclusive when
 * neither test could say anything (no baseline samples or too few to
 * reach alpha, and too short a history), or when a change was found but
 * the unit's direction is unknown, or when the baseline is too noisy for
 * the test to see the threshold (its MDE at the baseline's size is above
 * it: "too noisy"); else unchanged.
 *
 * Samples are counted by execution: the lines one gobench invocation
 * prints for a benchmark (-test.count) count once, by their median.
 *
 * Direction of a unit: the run's stored `Unit U better=higher|lower`
 * metadata (which the workload types declare), else the unit's name
 * (nightly_unit_better).
 *
 * Reads the store only; never prints. Not thread-safe (like the store).
 */
#ifndef ABBENCH_NIGHTLY_H
#define ABBENCH_NIGHTLY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct store;

enum nightly_verdict {
	NIGHTLY_UNCHANGED,
	NIGHTLY_IMPROVED,
	NIGHTLY_REGRESSED,
	NIGHTLY_INCONCLUSIVE,
};
const char	*nightly_verdict_name(enum nightly_verdict v);

struct nightly_options {
	size_t		 baseline;	/* runs; default 5 */
	size_t		 history;	/* runs; 0 = all; default 60 */
	double		 threshold;	/* minimum relative effect; 0.02 */
	double		 alpha;		/* after correction; 0.05 */
	double		 cp_alpha;	/* change-point p-value; 0.01 */
	unsigned	 cp_permutations;	/* 199 */
	size_t		 cp_min_size;	/* nights on each side; 3 */
	uint64_t	 seed;		/* of the permutation test; 1 */
	/*
	 * Thresholds per (benchmark, unit) from the latest calibration of
	 * the experiment on the run's host class: its MDE at the
	 * experiment's rounds (the smallest change one run of it detects
	 * with 80% power); `threshold` where it has none.
	 */
	int		 threshold_auto;
};
void	nightly_options_init(struct nightly_options *o);

struct nightly_change {
	size_t	 night;		/* 0-based index in the history */
	int64_t	 run_id;	/* the first run of the new level */
	int64_t	 wall_ns;	/* its start */
	double	 p;
	double	 before, after;	/* level medians */
	double	 rel_median, rel_mean;
};

struct nightly_row {
	char			*arm;
	char			*benchmark;
	char			*unit;
	int			 better;	/* +1 higher, -1 lower, 0 ? */
	enum nightly_verdict	 verdict;
	char			*reason;	/* one line, why */
	/* (1) against the baseline */
	size_t			 ncand, nbase;
	double			 cand_median, base_median;
	double			 delta;		/* relative, NaN if none */
	int			 tested;	/* p is meaningful */
	double			 p, p_holm;
	/* (2) history: per-night medians (NaN when a night lacks the row) */
	size_t			 nnights;	/* nights with a value */
	/*
	 * What the test against the baseline could see: the MDE at
	 * (nbase, ncand) executions, by resampling the baseline
	 * (stats/power.h); INFINITY without a baseline. A row whose MDE is
	 * above its threshold is inconclusive (too noisy), never unchanged.
	 */
	double			 mde;
	double			 threshold;
	int			 threshold_calibrated;
	int			 too_noisy;
	struct nightly_change	*changes;
	size_t			 nchanges;
};

struct nightly_result {
	int64_t			 run_id;
	char			*uuid;
	char			*name;
	char			*host;
	char			*host_class;	/* "c4/vcpus=4", or NULL */
	int64_t			*baseline_ids;
	size_t			 nbaseline;
	int64_t			*history_ids;	/* oldest first; last = run */
	size_t			 nhistory;
	struct nightly_row	*rows;
	size_t			 nrows;
	int			 nregressed, nimproved, ninconclusive;
	struct nightly_options	 opt;
	int64_t			 calib_run;	/* thresholds from; 0 none */
};

/* Judge run_id. Fills *out (release with nightly_result_release). */
int	nightly_judge(struct store *st, int64_t run_id,
	    const struct nightly_options *o, struct nightly_result *out,
	    char **cause);
void	nightly_result_release(struct nightly_result *r);
/* A run's host class, "PARTITION/vcpus=N", or NULL when it has no
 * partition config key (malloc'd). */
char	*nightly_host_class(struct store *st, int64_t run_id);

/*
 * The direction of a unit from its name: +1 when higher is better (iops,
 * bytes_per_second, ops_per_second, work/s, B/s and other rates), -1 when
 * lower is better (sec/op, *-sec/op, B, *-B, overhead..., ctxsw rates),
 * 0 when unknown. stored is the run's better= value or NULL; it wins.
 */
int	nightly_unit_better(const char *unit, const char *stored);

/* "unchanged", or "inconclusive (too noisy: MDE 7.3%)" (malloc'd). */
char	*nightly_verdict_text(const struct nightly_row *row);
/* One line per row: "VERDICT  NAME  UNIT  details\n". */
void	nightly_format_text(const struct nightly_result *r, struct strbuf *out);
/* The whole result as a JSON document (jansson), with a final newline. */
void	nightly_format_json(const struct nightly_result *r, struct strbuf *out);

#endif
