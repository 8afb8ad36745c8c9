/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of stats/changepoint: E-divisive means with a permutation
 * test on synthetic series with known steps.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/changepoint.h"
#include "tests/unit/tap.h"

/* n points around 100 with a relative noise sd; steps multiply the level. */
static void
series(double *x, size_t n, unsigned long seed, double sd,
    const size_t *at, const double *step, size_t nsteps)
{
	gsl_rng	*r = gsl_rng_alloc(gsl_rng_mt19937);
	double	 level = 100;
	size_t	 i, s = 0;

	gsl_rng_set(r, seed);
	for (i = 0; i < n; i++) {
		while (s < nsteps && at[s] == i)
			level *= 1 + step[s++];
		x[i] = level * (1 + gsl_ran_gaussian(r, sd));
	}
	gsl_rng_free(r);
}

static int
detect(const double *x, size_t n, unsigned long seed, struct cp_result *res)
{
	struct cp_options	 o;
	char			*cause = NULL;
	int			 rc;

	cp_options_init(&o);
	o.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(o.rng, seed);
	rc = cp_detect(x, n, &o, res, &cause);
	if (rc != 0) {
		TAP_DIAG("cp_detect: %s", cause);
		free(cause);
	}
	gsl_rng_free(o.rng);
	return rc;
}

static void
test_one_step(void)
{
	double			x[40];
	size_t			at = 20;
	double			step = 0.05;
	struct cp_result	res;
	unsigned long		seed;

	for (seed = 1; seed <= 5; seed++) {
		series(x, 40, seed, 0.01, &at, &step, 1);
		tap_ok(detect(x, 40, 42, &res) == 0, "seed %lu: detect runs",
		    seed);
		if (!tap_ok(res.n == 1, "seed %lu: one change (got %zu)",
		    seed, res.n) || res.n == 0) {
			cp_result_release(&res);
			continue;
		}
		tap_ok(res.changes[0].index >= 19 && res.changes[0].index <= 21,
		    "seed %lu: change at 20 +- 1 (got %zu)", seed,
		    res.changes[0].index);
		tap_ok(res.changes[0].p <= 0.01, "seed %lu: p %.4f <= 0.01",
		    seed, res.changes[0].p);
		tap_ok(fabs(res.changes[0].rel_median - 0.05) < 0.015 &&
		    fabs(res.changes[0].rel_mean - 0.05) < 0.015,
		    "seed %lu: step about +5%% (median %+.4f, mean %+.4f)",
		    seed, res.changes[0].rel_median, res.changes[0].rel_mean);
		tap_ok(res.changes[0].before_start == 0 &&
		    res.changes[0].after_end == 40, "seed %lu: segments span "
		    "the series", seed);
		cp_result_release(&res);
	}
}

static void
test_noise(void)
{
	double			x[40];
	struct cp_result	res;
	unsigned long		seed;

	for (seed = 100; seed < 105; seed++) {
		series(x, 40, seed, 0.01, NULL, NULL, 0);
		tap_ok(detect(x, 40, 7, &res) == 0, "noise %lu: detect runs",
		    seed);
		if (!tap_ok(res.n == 0, "noise %lu: no change (got %zu)", seed,
		    res.n))
			TAP_DIAG("first at %zu p %.4f", res.changes[0].index,
			    res.changes[0].p);
		cp_result_release(&res);
	}
}

static void
test_two_steps(void)
{
	double			x[45];
	size_t			at[2] = { 15, 30 };
	double			step[2] = { 0.05, -0.08 };
	struct cp_result	res;

	series(x, 45, 9, 0.01, at, step, 2);
	tap_ok(detect(x, 45, 3, &res) == 0, "two steps: detect runs");
	if (tap_ok(res.n == 2, "two steps: two changes (got %zu)", res.n)) {
		tap_ok(res.changes[0].index >= 14 && res.changes[0].index <= 16,
		    "two steps: first at 15 +- 1 (got %zu)",
		    res.changes[0].index);
		tap_ok(res.changes[1].index >= 29 && res.changes[1].index <= 31,
		    "two steps: second at 30 +- 1 (got %zu)",
		    res.changes[1].index);
		tap_ok(res.changes[0].rel_median > 0.03 &&
		    res.changes[1].rel_median < -0.05,
		    "two steps: signs and sizes (%+.4f, %+.4f)",
		    res.changes[0].rel_median, res.changes[1].rel_median);
		tap_ok(res.changes[0].after_end == res.changes[1].index &&
		    res.changes[1].before_start == res.changes[0].index,
		    "two steps: levels bounded by the neighbouring change");
	}
	cp_result_release(&res);
}

static void
test_edges(void)
{
	double			 x[40], y[40];
	size_t			 at = 20, i;
	double			 step = 0.05, q = 0;
	struct cp_result	 res, res2;
	struct cp_options	 o;
	char			*cause = NULL;

	for (i = 0; i < 40; i++)
		x[i] = 5;
	tap_ok(detect(x, 40, 1, &res) == 0 && res.n == 0,
	    "constant series: no change");
	cp_result_release(&res);
	tap_ok(detect(x, 5, 1, &res) == 0 && res.n == 0,
	    "series shorter than two segments: no change");
	cp_result_release(&res);

	/* A clean step is the best split, exactly. */
	for (i = 0; i < 40; i++)
		x[i] = i < 25 ? 1 : 2;
	tap_int_eq(cp_best_split(x, 40, 3, &q), 25, "best split of a step");
	tap_ok(q > 0, "its q is positive (%g)", q);
	tap_int_eq(cp_best_split(x, 5, 3, &q), -1, "no split of 5 points");

	/* The same seed gives the same answer. */
	series(x, 40, 77, 0.02, &at, &step, 1);
	for (i = 0; i < 40; i++)
		y[i] = x[i];
	detect(x, 40, 5, &res);
	detect(y, 40, 5, &res2);
	tap_ok(res.n == res2.n && (res.n == 0 ||
	    (res.changes[0].index == res2.changes[0].index &&
	    res.changes[0].p == res2.changes[0].p)), "deterministic per seed");
	cp_result_release(&res);
	cp_result_release(&res2);
	cp_result_release(&res2);

	cp_options_init(&o);
	tap_ok(cp_detect(x, 40, &o, &res, &cause) == -1 && cause != NULL,
	    "no rng: error");
	free(cause);
	cause = NULL;
	o.rng = gsl_rng_alloc(gsl_rng_mt19937);
	x[3] = NAN;
	tap_ok(cp_detect(x, 40, &o, &res, &cause) == -1 && cause != NULL &&
	    strstr(cause, "'nan'") != NULL, "nan: error naming it (%s)",
	    cause ? cause : "");
	free(cause);
	gsl_rng_free(o.rng);
}

int
main(void)
{
	test_one_step();
	test_noise();
	test_two_steps();
	test_edges();
	return tap_done();
}
