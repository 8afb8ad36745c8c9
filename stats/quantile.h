/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample quantiles (R8) and go-moremath's QuantileCI (quantile.c): the
 * order statistics of benchstat's confidence interval of a median.
 */
#ifndef ABBENCH_STATS_QUANTILE_H
#define ABBENCH_STATS_QUANTILE_H

#include <stddef.h>

/* 1-based order statistics of a quantile CI; out of 1..n means infinite. */
struct quantile_ci {
	int	lo_order, hi_order;
	/*
	 * The normal approximation (n > 30) met a NaN confidence: Go's
	 * int(NaN) makes HiOrder math.MinInt64+1 and SampleCI then panics
	 * indexing the sample with math.MinInt64.
	 */
	int	nan_order;
};

/* go-moremath stats.QuantileCI(n, q, confidence). */
void	 quantile_ci(int n, double q, double confidence,
	    struct quantile_ci *out);

/* stats.Sample.Quantile (R8) of sorted xs, n >= 1. */
double	 stats_quantile_sorted(const double *xs, size_t n, double q);
/*
 * The same median of v, not sorted (its order changed): the two order
 * statistics it needs found by selection, O(n), the same arithmetic, so
 * bit for bit stats_quantile_sorted(sorted v, n, 0.5). Finite values;
 * NaN for n = 0.
 */
double	 stats_median_select(double *v, size_t n);

#endif
