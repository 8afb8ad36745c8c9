/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The two-sided Mann-Whitney U test of go-moremath, bit for bit (utest.c),
 * and the exact distribution of U it uses, cached.
 */
#ifndef ABBENCH_STATS_UTEST_H
#define ABBENCH_STATS_UTEST_H

#include <stddef.h>

/*
 * Exact Mann-Whitney U distributions, cached by (n1, n2, tie pattern) and
 * by (n1, n2) without ties, plus a table of Go Choose values.
 */
struct bm_ucache;
struct bm_ucache	*bm_ucache_new(void);
void			 bm_ucache_free(struct bm_ucache *c);

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
