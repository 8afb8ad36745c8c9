/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (`abbench nightly`, harness/nightly.h gathers its
 * numbers from the store): each row (an arm, benchmark and unit of the
 * candidate run) judged on its candidate executions, its baseline
 * executions and its per-night medians.
 *
 * Signals per row, with delta = the candidate median's change relative to
 * the baseline median's size:
 *   (1) Mann-Whitney U of the candidate's values against the baseline's;
 *       Holm-corrected across all rows tested; a signal when the
 *       corrected p <= alpha and |delta| >= the row's threshold.
 *   (2) E-divisive means over the per-night medians (nights without a
 *       value skipped); a signal when the latest change point's step
 *       (median after / median before, levels bounded by the neighbouring
 *       change points) is >= the threshold in size. The level the
 *       candidate is on is thus compared with the level before the latest
 *       change.
 * Verdict: regressed if either signal is in the bad direction of the
 * unit; else inconclusive if either is a change whose direction is
 * unknown; else improved if either is in the good direction; else
 * inconclusive when neither test could say anything (the U test cannot
 * reach alpha at these sizes, or there is no baseline, and fewer than
 * 2 * max(2, cp_min_size) nights have a value); else inconclusive "too
 * noisy" when the MDE of the test (the baseline resampled at the sizes
 * it has, stats/power.h) is above the threshold; else unchanged.
 *
 * Pure: no I/O; the same answer for the same values (the permutation
 * test's generator is seeded with `seed` for every row, so a row's answer
 * does not depend on the others).
 */
#ifndef ABBENCH_STATS_NIGHTLY_JUDGE_H
#define ABBENCH_STATS_NIGHTLY_JUDGE_H

#include <stddef.h>
#include <stdint.h>

enum nightly_verdict {
	NIGHTLY_UNCHANGED,
	NIGHTLY_IMPROVED,
	NIGHTLY_REGRESSED,
	NIGHTLY_INCONCLUSIVE,
};
const char	*nightly_verdict_name(enum nightly_verdict v);

struct nightly_judge_options {
	double		 alpha;		/* after correction; 0.05 */
	double		 cp_alpha;	/* change-point p-value; 0.01 */
	unsigned	 cp_permutations;	/* 199 */
	size_t		 cp_min_size;	/* nights on each side; 3 */
	uint64_t	 seed;		/* of the permutation test and the
					 * MDE's resampling; 1 */
};
void	nightly_judge_options_init(struct nightly_judge_options *o);

/* What one row is judged on (all borrowed). */
struct nightly_input {
	const char	*unit;		/* named if its direction is unknown */
	int		 better;	/* +1 higher, -1 lower, 0 unknown */
	double		 threshold;	/* minimum relative effect */
	int		 threshold_calibrated;	/* said in the reason */
	/* One value per execution, each sorted ascending. */
	const double	*cand;
	size_t		 ncand;
	const double	*base;
	size_t		 nbase;
	/* nnights per-night medians (nightly_judge_rows), oldest first,
	 * NaN for a night without a value. */
	const double	*nights;
};

struct nightly_change {
	size_t	 night;		/* 0-based index in the history */
	int64_t	 run_id;	/* the first run of the new level */
	int64_t	 wall_ns;	/* its start (the caller's; 0 here) */
	double	 p;
	double	 before, after;	/* level medians */
	double	 rel_median, rel_mean;
};

struct nightly_row {
	/* The caller's, malloc'd; nightly_judge_rows leaves them. */
	char			*arm;
	char			*benchmark;
	char			*unit;
	/* The rest nightly_judge_rows sets. */
	int			 better;	/* +1 higher, -1 lower, 0 ? */
	enum nightly_verdict	 verdict;
	char			*reason;	/* one line, why */
	/* (1) against the baseline */
	size_t			 ncand, nbase;
	double			 cand_median, base_median; /* NaN: none */
	double			 delta;		/* relative, NaN if none */
	int			 tested;	/* p is meaningful */
	double			 p, p_holm;	/* NaN unless tested */
	/* (2) history */
	size_t			 nnights;	/* nights with a value */
	/*
	 * What the test against the baseline could see: the MDE at
	 * (nbase, ncand) executions, by resampling the baseline
	 * (stats/power.h); INFINITY with fewer than 2 baseline values or no
	 * candidate. A row whose MDE is above its threshold is inconclusive
	 * (too noisy), never unchanged.
	 */
	double			 mde;
	double			 threshold;
	int			 threshold_calibrated;
	int			 too_noisy;
	struct nightly_change	*changes;	/* malloc'd, oldest first */
	size_t			 nchanges;
};

/*
 * Judge n rows: rows[i] from in[i]. night_ids[h] is the run of night h
 * (named in the reasons and the changes); nnights is the length of every
 * in[i].nights. Every field of rows[i] but arm, benchmark and unit is
 * set (reason and changes malloc'd, nightly_row_release frees them). 0,
 * or -1 and *cause when the change-point test refuses its options or a
 * night's value (an infinite median); the rows then hold what was set
 * so far (release them).
 */
int	nightly_judge_rows(const struct nightly_judge_options *o,
	    const struct nightly_input *in, size_t n, const int64_t *night_ids,
	    size_t nnights, struct nightly_row *rows, char **cause);
/* Free a row's strings and changes and zero it (twice is safe). */
void	nightly_row_release(struct nightly_row *row);

/*
 * The direction of a unit from its name: +1 when higher is better (iops,
 * bytes_per_second, ops_per_second, work/s, B/s and other rates), -1 when
 * lower is better (sec/op, *-sec/op, B, *-B, overhead..., ctxsw rates),
 * 0 when unknown. stored is the run's better= value or NULL; it wins.
 */
int	nightly_unit_better(const char *unit, const char *stored);

/* "unchanged", or "inconclusive (too noisy: MDE 7.3%)" (malloc'd). */
char	*nightly_verdict_text(const struct nightly_row *row);

#endif
