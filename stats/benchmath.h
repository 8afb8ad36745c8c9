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

#include "stats/utest.h"

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

#endif
