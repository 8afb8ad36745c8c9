/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level shifts within one run: whether the level that every arm of a row
 * (one benchmark and unit) shares moved during the run, and whether the
 * comparison between the arms moved with it.
 *
 * Interleaving exposes every arm to a change of the host alike, so a
 * shift of the shared level alone does not bias a comparison (a VM that
 * runs 4% slower from round 19 on). It matters when the effect itself
 * depends on the regime: a disk that runs out of burst credits at round
 * 11 turns bfq's +200% into +10%, and the table's one number then
 * averages two answers. Both are found here:
 *
 *   the level   each arm's values are divided by the arm's own median
 *               (which removes the effect between the arms), and the
 *               round's level is the mean of their logs over the arms
 *               present in it; change points of that series are found
 *               by E-divisive means with a permutation test
 *               (stats/changepoint.h) at alpha, at least min_rounds
 *               rounds on each side;
 *   the effect  for every arm but the baseline (arm 0), the per-round
 *               log ratios log(arm) - log(baseline) of the rounds on
 *               either side of a change are compared with the
 *               Mann-Whitney U test; the effect changed when p <= alpha
 *               / (the row's number of shifts: each is a test) and the
 *               ratio of the two sides' (1 + delta) moved by at
 *               least min_change. Ratios within a round cancel the
 *               shared level; the split is chosen on the mean of the
 *               arms' logs, which for arms of equal noise carries no
 *               information on their difference, so under a constant
 *               effect the test keeps its level (tests/unit/t-levelshift
 *               measures it).
 *
 * The deltas shown are benchstat's: the ratio of the arms' medians over
 * the segment's rounds, minus 1.
 *
 * Only positive finite values have a log: a row with a value <= 0 or an
 * infinite one is not tested (ls_result.tested 0). Pure computation; the permutations use a
 * generator seeded with o->seed, so a row always gives the same answer.
 */
#ifndef ABBENCH_STATS_LEVELSHIFT_H
#define ABBENCH_STATS_LEVELSHIFT_H

#include <stddef.h>

struct ls_options {
	double		alpha;		/* both tests (0.01) */
	size_t		min_rounds;	/* rounds on each side (5) */
	unsigned	permutations;	/* of the level test (199) */
	double		min_change;	/* of the effect, relative (0.02) */
	unsigned long	seed;		/* of the permutations (1) */
};

void	ls_options_init(struct ls_options *o);

struct ls_arm {
	double	before, after;	/* arm / baseline - 1 on each side, or NaN */
	double	p;		/* U test of the log ratios, or NaN */
	int	changed;	/* p <= alpha / n and moved >= min_change */
};

struct ls_shift {
	size_t		 round;		/* first round of the new level */
	size_t		 start, end;	/* rounds [start, round) and [round, end) */
	double		 level;		/* after / before - 1, medians */
	double		 p;		/* permutation p of the level test */
	struct ls_arm	*arms;		/* narms entries; [0] is the baseline */
	int		 effect_changed;	/* some arm's changed */
};

struct ls_result {
	int		 tested;	/* 0: a value <= 0 or infinite, too few rounds */
	size_t		 narms;
	struct ls_shift	*shifts;	/* by round */
	size_t		 n;
};

/*
 * The shifts of one row. v[r * narms + a] is arm a's value in round r
 * (r < nrounds, in run order; NaN when the arm has none in that round);
 * arm 0 is the baseline. Returns 0, or -1 with *cause (malloc'd) on bad
 * options. Release out with ls_result_release (safe twice).
 */
int	ls_detect(const double *v, size_t nrounds, size_t narms,
	    const struct ls_options *o, struct ls_result *out, char **cause);
void	ls_result_release(struct ls_result *r);

#endif
