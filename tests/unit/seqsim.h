/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulated paths of a sequential run, for the proof of the stopping rule
 * (tests/unit/t-sequential) and its table (bench/sequential): two arms
 * sampled round by round in the `alternate` order (AB BA AB ...), looked
 * at with stats/sequential's seq_decide, paired (the per-round log ratios,
 * as `run` gives them under alternate) or not, against the fixed design at
 * max-rounds (the U test `stat` prints, at alpha). Header-only: both
 * programs include it.
 *
 * Noise models (relative to a median of 100, sigma the model's noise):
 *   gauss    100 (1 + sigma z)
 *   t3out    100 (1 + sigma t3 / sqrt 3), and with probability 0.05 an
 *            outlier 1.2x-2x slower
 *   quant3, quant10, quant50
 *            100 (1 + sigma z) rounded to a step of 1/3, 1/10, 1/50 of
 *            the median (whole milliseconds of a 3 ms startup; pages;
 *            allocs): few distinct values, many ties
 *   drift    log value = sigma z + d, d shared by both arms: AR(1) from
 *            sample to sample, phi 0.95, stationary sd 2 sigma
 *   position whoever runs second in its round is (1 + position) slower:
 *            a carry-over (cache, page cache, frequency) of the run order
 *   unequal  the candidate's noise is 3x the baseline's (a build that adds
 *            jitter), same median
 *   bimodal  with probability 0.3 a second mode 4 sigma slower
 * The candidate arm's values are multiplied by (1 + shift) before the
 * rounding (quant) or the noise (drift).
 */
#ifndef ABBENCH_TESTS_SEQSIM_H
#define ABBENCH_TESTS_SEQSIM_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/utest.h"
#include "stats/sequential.h"

enum seqsim_model {
	SIM_GAUSS, SIM_T3OUT, SIM_QUANT3, SIM_QUANT10, SIM_QUANT50,
	SIM_DRIFT, SIM_POSITION, SIM_UNEQUAL, SIM_BIMODAL, SIM_NMODELS
};

static const char *const seqsim_model_names[SIM_NMODELS] = {
	"gauss", "t3+5%out", "quant 1/3", "quant 1/10", "quant 1/50",
	"drift AR(1)", "position E/2", "unequal 1:3", "bimodal"
};

struct seqsim_stats {
	unsigned long	paths;
	unsigned long	seq_diff;	/* decided different */
	unsigned long	seq_equiv;	/* decided equivalent */
	unsigned long	fixed_diff;	/* fixed design: p <= alpha at max */
	unsigned long	paired;		/* stops decided by the paired test */
	double		rounds_sum;
	unsigned long	rounds_hist[1025];	/* rounds at the stop */
	/* all_looks: paths different, or equivalent, at some look (past
	 * their stop too): what a row's verdict can be at whichever look
	 * its workload stops, its other rows deciding when (reopened) */
	unsigned long	ever_diff, ever_equiv;
};

/* What a path is run with besides the design. */
struct seqsim_opts {
	int	paired;		/* give the rule the rounds as pairs */
	double	position;	/* SIM_POSITION: the carry-over */
	int	all_looks;	/* every look, for ever_diff and ever_equiv */
};

static inline int
seqsim_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One arm's value: cand the candidate, second it runs second in its
 * round, drift the shared log drift. */
static inline double
seqsim_value(gsl_rng *r, enum seqsim_model m, double sigma, double mult,
    int cand, int second, double drift, const struct seqsim_opts *o)
{
	double	x, step = 0;

	switch (m) {
	case SIM_T3OUT:
		x = 100 * mult * (1 + sigma * gsl_ran_tdist(r, 3) / sqrt(3));
		if (gsl_rng_uniform(r) < 0.05)
			x *= 1.2 + 0.8 * gsl_rng_uniform(r);
		return x > 1 ? x : 1;
	case SIM_QUANT3:
		step = 100.0 / 3;
		/* FALLTHROUGH */
	case SIM_QUANT10:
		if (step == 0)
			step = 10;
		/* FALLTHROUGH */
	case SIM_QUANT50:
		if (step == 0)
			step = 2;
		x = 100 * mult * (1 + sigma * gsl_ran_gaussian_ziggurat(r, 1));
		x = step * round(x / step);
		return x > step ? x : step;
	case SIM_DRIFT:
		return 100 * mult * exp(drift + sigma *
		    gsl_ran_gaussian_ziggurat(r, 1));
	case SIM_POSITION:
		x = 100 * mult * (1 + sigma * gsl_ran_gaussian_ziggurat(r, 1));
		if (second)
			x *= 1 + o->position;
		return x > 1 ? x : 1;
	case SIM_UNEQUAL:
		x = 100 * mult * (1 + (cand ? 3 : 1) * sigma *
		    gsl_ran_gaussian_ziggurat(r, 1));
		return x > 1 ? x : 1;
	case SIM_BIMODAL:
		x = 100 * mult * (1 + sigma * gsl_ran_gaussian_ziggurat(r, 1));
		if (gsl_rng_uniform(r) < 0.3)
			x *= 1 + 4 * sigma;
		return x > 1 ? x : 1;
	case SIM_GAUSS:
	default:
		x = 100 * mult * (1 + sigma * gsl_ran_gaussian_ziggurat(r, 1));
		return x > 1 ? x : 1;
	}
}

/*
 * One path: max_rounds rounds of (A, B) in the alternate order, looked at
 * by the design; the fixed design's verdict at max_rounds too. Scratch:
 * 6 * max_rounds doubles.
 */
static inline void
seqsim_path(gsl_rng *r, const struct seq_design *d, enum seqsim_model m,
    double sigma, double shift, const struct seqsim_opts *o,
    struct bm_ucache *uc, double *scratch, struct seqsim_stats *st)
{
	int			 M = d->max_rounds, i, stop = 0;
	double			*a = scratch, *b = scratch + M;
	double			*sa = scratch + 2 * M, *sb = scratch + 3 * M;
	double			*lr = scratch + 4 * M;
	signed char		 first[1024];
	int			 ever_d = 0, ever_e = 0;
	double			 dr = 0, p, phi = 0.95;
	double			 innov = 2 * sigma * sqrt(1 - phi * phi);
	struct seq_result	 res;
	struct seq_pairs	 pr;
	char			*why = NULL;
	size_t			 look = 0;

	if (m == SIM_DRIFT)
		dr = 2 * sigma * gsl_ran_gaussian_ziggurat(r, 1);
	for (i = 0; i < M; i++) {
		double	d0 = dr, d1;

		if (m == SIM_DRIFT) {
			dr = phi * dr + innov * gsl_ran_gaussian_ziggurat(r, 1);
			d1 = dr;
			dr = phi * dr + innov * gsl_ran_gaussian_ziggurat(r, 1);
		} else
			d1 = 0;
		/* Round i: AB when even, BA when odd. */
		if (i % 2 == 0) {
			a[i] = seqsim_value(r, m, sigma, 1, 0, 0, d0, o);
			b[i] = seqsim_value(r, m, sigma, 1 + shift, 1, 1, d1,
			    o);
		} else {
			b[i] = seqsim_value(r, m, sigma, 1 + shift, 1, 0, d0,
			    o);
			a[i] = seqsim_value(r, m, sigma, 1, 0, 1, d1, o);
		}
		lr[i] = log(b[i]) - log(a[i]);
		if (i < 1024)
			first[i] = i % 2 == 0;
	}
	st->paths++;
	for (look = 0; look < d->nlooks && (!stop || o->all_looks);
	    look++) {
		int	n = d->looks[look];

		memcpy(sa, a, (size_t)n * sizeof(*sa));
		memcpy(sb, b, (size_t)n * sizeof(*sb));
		qsort(sa, (size_t)n, sizeof(*sa), seqsim_cmp);
		qsort(sb, (size_t)n, sizeof(*sb), seqsim_cmp);
		pr.d = lr;
		pr.first = first;
		pr.n = (size_t)n;
		seq_decide(d, (int)look, sa, (size_t)n, sb, (size_t)n,
		    o->paired && n <= 1024 ? &pr : NULL, uc, &res);
		ever_d |= res.verdict == SEQ_DIFFERENT;
		ever_e |= res.verdict == SEQ_EQUIVALENT;
		if (!stop && (res.verdict != SEQ_UNDECIDED || res.futile ||
		    look + 1 == d->nlooks)) {
			stop = n;
			if (res.verdict == SEQ_DIFFERENT)
				st->seq_diff++;
			else if (res.verdict == SEQ_EQUIVALENT)
				st->seq_equiv++;
			if (res.verdict != SEQ_UNDECIDED &&
			    res.test == SEQ_TEST_SIGNED_RANK)
				st->paired++;
		}
	}
	st->ever_diff += ever_d;
	st->ever_equiv += ever_e;
	st->rounds_sum += stop;
	st->rounds_hist[stop < 1024 ? stop : 1024]++;
	/* The fixed design on the same path: all rounds, p <= alpha. */
	memcpy(sa, a, (size_t)M * sizeof(*sa));
	memcpy(sb, b, (size_t)M * sizeof(*sb));
	qsort(sa, (size_t)M, sizeof(*sa), seqsim_cmp);
	qsort(sb, (size_t)M, sizeof(*sb), seqsim_cmp);
	if (utest_mann_whitney(sa, (size_t)M, sb, (size_t)M, uc, &p,
	    &why) == -1) {
		free(why);
		p = 1;
	}
	if (p <= d->alpha)
		st->fixed_diff++;
}

/*
 * n paths of one model; a fresh U cache every 4096 paths bounds the
 * memory the tie patterns of `quant` would otherwise pile up.
 */
static inline void
seqsim_run(const struct seq_design *d, enum seqsim_model m, double sigma,
    double shift, const struct seqsim_opts *o, unsigned long n,
    unsigned long seed, struct seqsim_stats *st)
{
	gsl_rng			*r = gsl_rng_alloc(gsl_rng_mt19937);
	struct bm_ucache	*uc = bm_ucache_new();
	double			*scratch = calloc(6 * (size_t)d->max_rounds,
	    sizeof(double));
	unsigned long		 i;

	memset(st, 0, sizeof(*st));
	gsl_rng_set(r, seed);
	for (i = 0; i < n; i++) {
		if (i % 65536 == 65535) {
			bm_ucache_free(uc);
			uc = bm_ucache_new();
		}
		seqsim_path(r, d, m, sigma, shift, o, uc, scratch, st);
	}
	free(scratch);
	bm_ucache_free(uc);
	gsl_rng_free(r);
}

/* The p-quantile of the rounds at the stop. */
static inline int
seqsim_rounds_quantile(const struct seqsim_stats *st, double q)
{
	unsigned long	acc = 0, want = (unsigned long)ceil(q *
	    (double)st->paths);
	int		i;

	for (i = 0; i <= 1024; i++) {
		acc += st->rounds_hist[i];
		if (acc >= want && acc > 0)
			return i;
	}
	return 1024;
}

/* Wilson's score interval's upper bound for k of n at one-sided z. */
static inline double
seqsim_upper(unsigned long k, unsigned long n, double z)
{
	double	p = (double)k / (double)n, nn = (double)n;
	double	c = p + z * z / (2 * nn), s;

	s = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
	return (c + s) / (1 + z * z / nn);
}

#endif
