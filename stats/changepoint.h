/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Change-point detection over a series (a benchmark's nightly medians):
 * E-divisive means (Matteson and James 2014) with a permutation test, the
 * method Apache Otava (formerly Hunter) and MongoDB's signal processing use.
 *
 * The energy statistic q(tau) of a split of a segment into X = x[s..tau)
 * and Y = x[tau..e) (m and k points) is
 *   m k / (m + k) * (2 E|X - Y| - E|X - X'| - E|Y - Y'|)
 * with the expectations taken over distinct pairs. Each iteration takes
 * the best split over all current segments; it is accepted when a
 * permutation test (values shuffled within each segment, R times) gives
 * p = (1 + #{max q of a permutation >= q}) / (1 + R) <= alpha. Iteration
 * stops at the first split that is not significant.
 *
 * Pure computation: randomness comes from the caller's seeded gsl_rng, so
 * a given seed always gives the same answer. Thread-safe if the rng is not
 * shared.
 */
#ifndef ABBENCH_STATS_CHANGEPOINT_H
#define ABBENCH_STATS_CHANGEPOINT_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

struct cp_options {
	size_t		 min_size;	/* points on each side, >= 2 */
	unsigned	 permutations;	/* R, >= 1 */
	double		 alpha;		/* largest accepted p-value */
	size_t		 max_changes;	/* 0 = no limit */
	gsl_rng		*rng;		/* required; advanced by the test */
};

/* Defaults: min_size 3, 199 permutations, alpha 0.01, no limit, rng NULL. */
void	cp_options_init(struct cp_options *o);

struct cp_change {
	size_t	index;		/* first point of the new level */
	double	p;		/* permutation p-value when it was accepted */
	double	q;		/* energy statistic of the split */
	/*
	 * The segments on either side, bounded by the neighbouring change
	 * points (or the ends of the series).
	 */
	size_t	before_start, after_end;
	double	mean_before, mean_after;
	double	median_before, median_after;
	/* (after - before) / |before|; NaN when before is 0. */
	double	rel_mean, rel_median;
};

struct cp_result {
	struct cp_change	*changes;	/* sorted by index */
	size_t			 n;
};

/*
 * Find the change points of x[0..n). A series shorter than 2 * min_size
 * has none. Fails (-1, *cause) only on bad options or non-finite values.
 * Release the result with cp_result_release (safe twice).
 */
int	cp_detect(const double *x, size_t n, const struct cp_options *o,
	    struct cp_result *out, char **cause);
void	cp_result_release(struct cp_result *r);

/*
 * The best split of x[0..n) and its q (no test); -1 when n < 2 * min_size.
 * For tests and for showing the strongest candidate.
 */
long	cp_best_split(const double *x, size_t n, size_t min_size, double *q);

#endif
