/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The analysis of an A/A run (`abbench calibrate`): every arm ran the
 * baseline's settings, so each block of rounds compares identical arms.
 * Per benchmark and unit of the baseline arm: the noise of all arms'
 * values pooled, the effect they could show, and how often identical
 * arms came out different (U tests at alpha, or replays of the sequential
 * rule). Pure: no I/O, the same answer for the same values.
 */
#ifndef ABBENCH_STATS_AA_H
#define ABBENCH_STATS_AA_H

#include <stddef.h>
#include <stdint.h>

#include "stats/power.h"
#include "stats/sampletab.h"
#include "stats/sequential.h"

struct aa_design {
	const char	*baseline;	/* the arm compared with the others */
	int		 warmup;	/* rounds before the first block */
	int		 rounds;	/* a block (fixed design), and the
					 * rounds of the CI and MDE */
	int		 repeats;	/* blocks */
	double		 alpha;		/* of each U test (fixed design) */
	/* NULL: each block of `rounds` rounds is one U test at alpha. Set:
	 * each block of sd->max_rounds rounds is one run of the rule. */
	const struct seq_design		*sd;
	int				 paired;	/* with sd: the
					   order pairs the rounds (alternate,
					   abba): decide on their ratios, as
					   run does */
	const struct power_options	*po;	/* the MDE's */
};

/* One benchmark and unit of the baseline arm. */
struct aa_row {
	size_t	 row;		/* its row in the table */
	int64_t	 n;		/* values, all arms pooled */
	double	 median;
	double	 mad_rel;	/* MAD / median */
	double	 ci_rel;	/* median CI +- at `rounds`, INFINITY if none */
	double	 mde;		/* at rounds + rounds, INFINITY if none */
	int	 comparisons;
	int	 flagged;	/* p <= alpha, or the rule ended different */
	int	 equivalent;	/* the rule ended equivalent */
	int	 undecided;	/* the rule ended undecided at max-rounds */
	long	 rounds_sum;	/* the rule: rounds taken, all comparisons */
};

/*
 * One row per row of the table that the baseline arm has (in the order of
 * its cells' first values), its cell compared with each other arm's,
 * block by block, on the per-execution values (t grouped:
 * sampletab_group); a block where a side has no value is no comparison,
 * nor is a U test of all-equal values (nothing to flag). *rows malloc'd
 * (free it).
 */
void	aa_analyse(const struct sampletab *t, const struct aa_design *d,
	    struct aa_row **rows, size_t *nrows);
/*
 * P(X >= k) for X ~ Binomial(n, alpha): how surprising k flagged of n
 * identical comparisons are (1 for k <= 0).
 */
double	aa_excess_p(int k, int n, double alpha);

#endif
