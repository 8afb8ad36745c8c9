/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multiple-comparison corrections of p-values, for reports that test many
 * benchmarks at once.  Pure functions, thread-safe.
 */
#ifndef ABBENCH_STATS_CORRECT_H
#define ABBENCH_STATS_CORRECT_H

#include <stddef.h>

/*
 * Holm-Bonferroni adjusted p-values (family-wise error rate): adj[i] for
 * p[i], monotone in the order of p, capped at 1.  p and adj may alias.
 */
void	 pvalues_holm(const double *p, size_t n, double *adj);

/*
 * Benjamini-Hochberg adjusted p-values (false discovery rate), monotone,
 * capped at 1.  p and adj may alias.
 */
void	 pvalues_bh(const double *p, size_t n, double *adj);

#endif
