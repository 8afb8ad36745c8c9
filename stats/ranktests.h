/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rank tests the stopping rule decides with, beside the Mann-Whitney U
 * test that `stat` prints (utest.h):
 *
 *   - Wilcoxon's signed-rank test of paired differences (the per-round
 *     log ratios of two arms measured in the same round), exact under the
 *     sign-flip null (conditional on the |d| and their ties, so coarse
 *     values keep its level), and Tukey's interval of the pseudo-median
 *     from the Walsh averages (d_i + d_j) / 2;
 *   - the Brunner-Munzel test, which keeps its level when the two arms'
 *     spreads differ (the U test's does not: it assumes a pure shift);
 *   - the resolution of a set of values: the largest error that rounding
 *     to the metric's unit (whole milliseconds, pages, allocs) can put on
 *     a logarithm, so that an interval can be widened by it.
 *
 * Pure computation: no I/O, no clock; reentrant.
 */
#ifndef ABBENCH_STATS_RANKTESTS_H
#define ABBENCH_STATS_RANKTESTS_H

#include <stddef.h>

/* Above this many nonzero differences the signed-rank p is the normal
 * approximation (tie-corrected, continuity-corrected). */
#define SIGNRANK_EXACT_MAX	150

/*
 * Two-sided signed-rank p of the differences d (any order, n >= 0): the
 * sign-flip distribution of the sum of positive midranks, zeros dropped
 * (Wilcoxon), |d| equal within a relative 1e-9 tied. 1 when every d is 0.
 */
double	signrank_p(const double *d, size_t n);

/*
 * The largest k with P(W+ <= k) <= beta for n continuous differences (no
 * ties), or -1 when even P(W+ <= 0) = 2^-n exceeds beta. Tukey's interval
 * [w(k+1), w(M-k)] of the M = n(n+1)/2 sorted Walsh averages covers the
 * pseudo-median with probability >= 1 - 2 beta.
 */
long	signrank_critical(size_t n, double beta);

/*
 * Whether Tukey's (1 - 2 beta) interval of the pseudo-median of d lies
 * strictly inside (-lim, lim), by counting Walsh averages at or beyond
 * each bound (sorted: d ascending). 0 when the interval is unbounded at
 * this n, or lim <= 0.
 */
int	signrank_within(const double *sorted, size_t n, double beta,
	    double lim);

/* The interval itself: 0, or -1 when unbounded at this n. */
int	signrank_ci(const double *sorted, size_t n, double beta, double *lo,
	    double *hi);

/*
 * Two-sided Brunner-Munzel p of x1 against x2 (any order, n1, n2 >= 2):
 * the t approximation with Satterthwaite's degrees of freedom. When both
 * rank variances are 0 the arms are either fully separated (p = 0) or
 * all equal (p = 1).
 */
double	brunner_munzel_p(const double *x1, size_t n1, const double *x2,
	    size_t n2);

/*
 * The resolution of two samples (each sorted ascending, values > 0): the
 * largest error that rounding each value to the metric's unit can have put
 * on a difference of two logarithms. The unit's step is estimated by the
 * data: the step of the finest last significant digit written (3000000
 * ns: whole milliseconds; a counter of exactly 1000 can then not be told
 * from one rounded to thousands, and is taken as such), or the smallest
 * gap between distinct values when it is coarser and every value lies
 * on its grid (a coarse clock printed with more digits). Returns
 * 2 log(v / (v - step / 2)) for the smallest value v, HUGE_VAL when
 * v <= step / 2. *single is set when only one distinct value was seen (the
 * step then comes from the digits alone). A look reads the digits of as
 * few values as settle the step, one or two as a rule (in ascending
 * order, see finest_step), those of a value from 1 to 1e15 without
 * printing it: the sequential rule's looks cost what they cost when the
 * smallest gap alone set the step.
 */
double	resolution_log(const double *x1, size_t n1, const double *x2,
	    size_t n2, int *single);

/*
 * The same for values that were written in another unit and scaled into
 * this one (ns/op stored as sec/op: scale 1e9, written = value * scale):
 * the digits are those of the values as written, so that 1000 ns is a
 * whole number of nanoseconds, not one digit of 1e-06 s. scale <= 0 or 1:
 * resolution_log.
 */
double	resolution_log_scaled(const double *x1, size_t n1, const double *x2,
	    size_t n2, double scale, int *single);

#endif
