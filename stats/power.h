/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a comparison could have seen: the noise of measured samples, the
 * power of the two-sided Mann-Whitney U test (the test benchstat and
 * nightly use) at given sizes, the minimum detectable effect (MDE) and the
 * rounds needed for an effect.
 *
 * Power is estimated by a smoothed bootstrap of the measured samples, not
 * from a normal formula, so it holds for skewed and bimodal samples: each
 * replicate draws the baseline arm (na values) and the candidate arm (nb
 * values) from the samples with replacement, adds a Gaussian kernel
 * (Silverman's bandwidth, shrunk so the mean and variance stay those of the
 * samples: ties between draws would otherwise dominate small samples),
 * multiplies the candidate arm by (1 + effect), and runs the U test of
 * stats/benchmath.h; the power is the fraction with p <= alpha. The RNG
 * (GSL mt19937) is reseeded for every estimate, so estimates are
 * deterministic and use common random numbers: the MDE is found by
 * bisection on the effect, the rounds by a search on n.
 *
 * The values passed in are one per independent execution (a gobench
 * invocation that prints a benchmark several times counts once, by its
 * median: power_group_medians).
 *
 * Pure computation: no I/O, no clock. A bm_ucache must not be shared
 * between threads; everything else is thread-safe.
 */
#ifndef ABBENCH_STATS_POWER_H
#define ABBENCH_STATS_POWER_H

#include <stddef.h>
#include <stdint.h>

struct bm_ucache;

struct power_noise {
	size_t	n;		/* values */
	double	median;
	double	mad_rel;	/* median absolute deviation / |median| */
	/*
	 * Half the width of the confidence interval of the median that
	 * benchstat prints (order statistics of quantile_ci) for n_at values
	 * of this distribution, relative to the median: INFINITY when n_at
	 * is too small for the confidence (fewer than 6 at 95%).
	 */
	double	ci_half_rel;
	size_t	n_at;
	/* The 10th and 90th percentiles' distance from the median, relative
	 * to it (positive): heavy tails show here, not in mad_rel. */
	double	p10_rel, p90_rel;
};

/*
 * The noise of xs (n >= 1, any order; not modified) and the CI half-width
 * at n_at values (0 = n). With n_at != n the interval's order statistics
 * are read off xs's quantiles.
 */
void	power_noise(const double *xs, size_t n, size_t n_at,
	    double confidence, struct power_noise *out);

struct power_options {
	double		alpha;		/* test level; default 0.05 */
	double		power;		/* target power; default 0.8 */
	unsigned	reps;		/* replicates per estimate; 400 */
	uint64_t	seed;		/* default 1 */
	double		max_effect;	/* MDE search bound; 10 (= +1000%) */
	size_t		max_n;		/* rounds search bound; 10000 */
	/*
	 * power_rounds only: plan for the upper spread_conf confidence
	 * bound of the pilot's spread rather than the spread measured (0:
	 * as measured; the advice uses POWER_ADVICE_SPREAD_CONF). The
	 * pilot's own spread is an estimate: from n values its standard
	 * deviation is below the truth about half the time, and rounds
	 * planned on it then fall short of the power aimed at. The bound
	 * scales the deviations by sqrt((n - 1) / chi2_{1 - spread_conf}(n -
	 * 1)): at 0.95, 1.23 for a pilot of 40, 2.09 for 6.
	 */
	double		spread_conf;
};
void	power_options_init(struct power_options *o);

/* The confidence of the spread bound every rounds advice plans for. */
#define POWER_ADVICE_SPREAD_CONF	0.95
/* The rounds search bound of the advice ("not even N rounds would"). */
#define POWER_ADVICE_MAX_N		2000

/*
 * The options of the MDE and rounds advice, one set for `abbench power`,
 * the "N rounds would" lines at the end of `run`, the MDE and max-rounds
 * advice of an undecided row under `--until decided` and the report's MDE:
 * power_options_init's (400 replicates, seed 1), with the spread bound
 * and the search bound above. alpha is the caller's: the run's.
 */
void	power_advice_options_init(struct power_options *o);

/*
 * Power of the U test at (na, nb) for the relative shift effect, by the
 * smoothed bootstrap of xs (n >= 2 values). cache may be NULL.
 */
double	power_at(const double *xs, size_t n, size_t na, size_t nb,
	    double effect, const struct power_options *o,
	    struct bm_ucache *cache);

/*
 * The smallest effect (relative, > 0) whose power at (na, nb) reaches
 * o->power, within 0.5% of its value; INFINITY when none up to
 * o->max_effect does (too few values for alpha: 2 and 2, or 3 and 3 at
 * 0.05, can never give p <= alpha).
 */
double	power_mde(const double *xs, size_t n, size_t na, size_t nb,
	    const struct power_options *o, struct bm_ucache *cache);

/*
 * The smallest n (values per arm, both arms alike) whose power for effect
 * reaches o->power; 0 when more than o->max_n would be needed. hint (0 =
 * none) is where the search starts: n * (MDE at n / effect)^2 is close.
 */
size_t	power_rounds(const double *xs, size_t n, double effect, size_t hint,
	    const struct power_options *o, struct bm_ucache *cache);

/*
 * What a row could have seen and what it would take: its MDE at (na, nb)
 * and the rounds per arm for effect. mde is INFINITY and rounds 0 when n
 * < 2; rounds is 0 when effect <= 0 (not asked) or more than o->max_n
 * would be needed.
 */
struct power_advice {
	double	mde;
	size_t	rounds;
};

/*
 * The one computation behind every MDE and rounds abbench prints for a
 * row (the verdict line of `--until decided`, the end of `run`, `abbench
 * power`, the report's tables), so that for one row of one run they are
 * the same numbers: power_mde at (na, nb), then power_rounds from the
 * hint that MDE gives (na * (MDE / effect)^2). xs: one value per
 * execution (power_group_medians); o: power_advice_options_init's with
 * the run's alpha.
 */
void	power_advise(const double *xs, size_t n, size_t na, size_t nb,
	    double effect, const struct power_options *o,
	    struct bm_ucache *cache, struct power_advice *out);

/* The factor power_rounds scales a pilot of n values' spread by. */
double	power_spread_factor(size_t n, double conf);

/* The smallest two-sided p the exact U test can give at (n1, n2). */
double	power_min_p(size_t n1, size_t n2);

/* A fraction as a percentage: "4.3%", "<0.01%", "?" for NaN, "∞" (32
 * bytes suffice). */
void	power_pct(double v, char *buf, size_t len);

/*
 * Per-group medians: values x[i] belong to group g[i] (any integers; a
 * group's values need not be adjacent). Writes one median per group, in
 * order of the groups' first appearance, to out (room for n) and returns
 * how many.
 */
size_t	power_group_medians(const int64_t *g, const double *x, size_t n,
	    double *out);

#endif
