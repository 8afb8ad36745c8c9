/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generated years of nights, as `abbench nightly` builds them (each night:
 * the median of its executions and nightly_median_se), for the proofs of
 * the nightly judgement (tests/unit/t-nightly-sim) and of the change
 * points (tests/unit/t-edivisive). Header-only: both include it.
 *
 * Noise: sigma, the relative standard deviation of one execution within
 * a night. Every model also moves each night's level by tau = sigma / 4
 * (night-to-night variation, which a test of pooled samples reads as
 * change). Models:
 *   normal   Gaussian executions;
 *   loaded   as normal, and one night in ten is on a loaded machine: up
 *            to 60% of its executions 10-40% slower (one side);
 *   heavy    executions with Student's t (3 degrees of freedom) noise.
 */
#ifndef ABBENCH_TESTS_NIGHTSIM_H
#define ABBENCH_TESTS_NIGHTSIM_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"

#define NIGHTS		365	/* a series-year */
#define EXECS		8	/* executions a night */
#define SIGMA		0.02
#define TAU		(SIGMA / 4)

enum model { M_NORMAL, M_LOADED, M_HEAVY, NMODELS };
static const char *const model_name[] = { "normal", "loaded", "heavy" };

/* One series of nights: level 100, times (1 + step) from night s on. */
static void
series(gsl_rng *rng, enum model m, size_t s, double step,
    struct nightly_night *nt)
{
	double	v[EXECS], level, e;
	size_t	h, i, nslow;

	for (h = 0; h < NIGHTS; h++) {
		level = 100 * (1 + gsl_ran_gaussian(rng, TAU)) *
		    (h >= s ? 1 + step : 1);
		for (i = 0; i < EXECS; i++) {
			e = m == M_HEAVY ? SIGMA * gsl_ran_tdist(rng, 3) /
			    sqrt(3.0) : gsl_ran_gaussian(rng, SIGMA);
			v[i] = level * (1 + e);
		}
		if (m == M_LOADED && gsl_rng_uniform(rng) < 0.1) {
			nslow = gsl_rng_uniform_int(rng, EXECS * 6 / 10 + 1);
			for (i = 0; i < nslow; i++)
				v[i] *= 1.1 + 0.3 * gsl_rng_uniform(rng);
		}
		sort_doubles(v, EXECS);
		memset(&nt[h], 0, sizeof(nt[h]));
		nt[h].median = v[EXECS / 2 - 1] / 2 + v[EXECS / 2] / 2;
		nt[h].se = nightly_median_se(v, EXECS);
		nt[h].n = EXECS;
	}
}

/* The 95% upper bound of a Poisson mean from count k. */
static inline double
poisson_upper(unsigned k)
{
	return gsl_cdf_chisq_Pinv(0.95, 2.0 * (k + 1)) / 2;
}

#endif
