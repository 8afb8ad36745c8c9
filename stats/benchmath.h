/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summaries and comparisons of benchmark samples, reproducing x/perf
 * benchmath with go-moremath's QuantileCI and Mann-Whitney U test bit for
 * bit (spec §6, §7).  Pure functions; a struct bm_ucache must not be
 * shared between threads without a lock, everything else is thread-safe.
 */
#ifndef ABBENCH_STATS_BENCHMATH_H
#define ABBENCH_STATS_BENCHMATH_H

#include <stddef.h>

enum bm_assumption {
	BM_ASSUME_NOTHING,	/* median, order-statistic CI, U test */
	BM_ASSUME_EXACT		/* mode, min..max, no test (assume=exact) */
};

/* Warning texts, malloc'd, in the order benchstat reports them. */
struct bm_warnings {
	char	**msg;
	size_t	  n;
};

struct bm_summary {
	double			center, lo, hi;
	struct bm_warnings	warnings;
	/*
	 * Go's benchstat panics here ("index out of range
	 * [-9223372036854775808]", exit 2): see struct quantile_ci.
	 */
	int			panic;
};

/*
 * Summarize xs (sorted ascending, n >= 1) at the given confidence.
 * Release with bm_summary_release().
 */
void	 bm_summarize(const double *xs, size_t n, enum bm_assumption a,
	    double confidence, struct bm_summary *out);
void	 bm_summary_release(struct bm_summary *s);

/* Summary.PctRangeString: "3%", "∞", "?", "0%" (32 bytes suffice). */
void	 bm_summary_pct_range(const struct bm_summary *s, char *buf,
	    size_t len);

struct bm_comparison {
	double			p, alpha;
	size_t			n1, n2;
	struct bm_warnings	warnings;
};

/*
 * Exact Mann-Whitney U distributions, cached by (n1, n2, tie pattern) and
 * by (n1, n2) without ties, plus a table of Go Choose values.
 */
struct bm_ucache;
struct bm_ucache	*bm_ucache_new(void);
void			 bm_ucache_free(struct bm_ucache *c);

/*
 * Compare x2 against the baseline x1 (both sorted ascending, n >= 1).
 * cache may be NULL (slower).  Release with bm_comparison_release().
 */
void	 bm_compare(const double *x1, size_t n1, const double *x2, size_t n2,
	    enum bm_assumption a, double alpha, struct bm_ucache *cache,
	    struct bm_comparison *out);
void	 bm_comparison_release(struct bm_comparison *c);

/* Comparison.FormatDelta: "~", "0.00%", "?", "+4.82%" (32 bytes). */
void	 bm_format_delta(const struct bm_comparison *c, double old_center,
	    double new_center, char *buf, size_t len);

/* Comparison.String: "p=0.000 n=10", "n=10+12", "n=1" (64 bytes). */
void	 bm_comparison_string(const struct bm_comparison *c, char *buf,
	    size_t len);

/* Lower level. */

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
 * Two-sided Mann-Whitney U test of x1 vs x2 (both sorted ascending,
 * n1, n2 >= 1), go-moremath MannWhitneyUTest(LocationDiffers).  Returns 0
 * and sets *p, or -1 with *cause = "all samples are equal" (malloc'd).
 */
int	 utest_mann_whitney(const double *x1, size_t n1, const double *x2,
	    size_t n2, struct bm_ucache *cache, double *p, char **cause);

/*
 * P(U <= u) under the null without ties for sizes (n1, n2): the exact
 * distribution utest_mann_whitney uses (n1, n2 <= 50), else the normal
 * approximation with continuity correction. cache may be NULL (slower).
 */
double	 utest_u_cdf(size_t n1, size_t n2, double u, struct bm_ucache *cache);

/*
 * The largest integer c with P(U <= c) <= beta (null, no ties), or -1 when
 * even P(U <= 0) exceeds beta: the order statistic of the Hodges-Lehmann
 * confidence interval of a shift, [d(c+1), d(n1*n2-c)] of the n1*n2
 * differences, covers the shift with probability >= 1 - 2 beta.
 */
long	 utest_u_critical(size_t n1, size_t n2, double beta,
	    struct bm_ucache *cache);

#endif
