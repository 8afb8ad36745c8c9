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
#include "stats/sequential.h"

/* The values of one benchmark and unit under one arm, each with its round
 * (0-based, warm-up rounds first), in the order they were taken. */
struct aa_series {
	const char	*arm;
	const char	*benchmark;
	const char	*unit;
	const double	*x;
	const int	*round;
	size_t		 n;
};

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
	size_t	 series;	/* its index in the series given */
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
 * One row per series of the baseline arm (in their order), compared with
 * each other arm's series of the same benchmark and unit, block by block;
 * a block where a side has no value is no comparison, nor is a U test of
 * all-equal values (nothing to flag). *rows malloc'd (free it).
 */
void	aa_analyse(const struct aa_series *s, size_t ns,
	    const struct aa_design *d, struct aa_row **rows, size_t *nrows);
/*
 * P(X >= k) for X ~ Binomial(n, alpha): how surprising k flagged of n
 * identical comparisons are (1 for k <= 0).
 */
double	aa_excess_p(int k, int n, double alpha);

#endif
