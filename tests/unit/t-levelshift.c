/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of stats/levelshift: synthetic runs of two or three arms
 * with known level steps and known effects on either side, the level of
 * the "effect moved" test under a constant effect, and the edges (gaps,
 * values <= 0 or infinite, too few rounds, bad options).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/levelshift.h"
#include "tests/unit/tap.h"

#define MAXR 200

/*
 * nrounds rounds of narms arms: level 100 (times 1 + step from round at
 * on), arm a > 0 times 1 + eff[a] before the step and 1 + eff2[a] from
 * it, each value with Gaussian noise of relative sd.
 */
static void
run_of(double *v, size_t nrounds, size_t narms, unsigned long seed,
    double sd, size_t at, double step, const double *eff, const double *eff2)
{
	gsl_rng	*r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t	 i, a;
	double	 level, e;

	gsl_rng_set(r, seed);
	for (i = 0; i < nrounds; i++) {
		level = 100 * (i >= at ? 1 + step : 1);
		for (a = 0; a < narms; a++) {
			e = a == 0 ? 0 : i >= at ? eff2[a] : eff[a];
			v[i * narms + a] = level * (1 + e) *
			    (1 + gsl_ran_gaussian(r, sd));
		}
	}
	gsl_rng_free(r);
}

static int
detect(const double *v, size_t nrounds, size_t narms, struct ls_result *res)
{
	struct ls_options	 o;
	char			*cause = NULL;

	ls_options_init(&o);
	if (ls_detect(v, nrounds, narms, &o, res, &cause) == 0)
		return 0;
	TAP_DIAG("ls_detect: %s", cause);
	free(cause);
	return -1;
}

/* A VM that runs 5% slower from round 20: found, the effect held. */
static void
test_level_only(void)
{
	double			v[40 * 2], eff[2] = { 0, 0.03 };
	struct ls_result	res;
	unsigned long		seed;

	for (seed = 1; seed <= 5; seed++) {
		run_of(v, 40, 2, seed, 0.01, 20, -0.05, eff, eff);
		if (detect(v, 40, 2, &res) == -1)
			continue;
		tap_ok(res.tested, "level %lu: tested", seed);
		if (!tap_ok(res.n == 1, "level %lu: one shift (got %zu)", seed,
		    res.n) || res.n == 0) {
			ls_result_release(&res);
			continue;
		}
		tap_ok(res.shifts[0].round >= 19 && res.shifts[0].round <= 21,
		    "level %lu: at round 20 +- 1 (got %zu)", seed,
		    res.shifts[0].round);
		tap_ok(fabs(res.shifts[0].level + 0.05) < 0.015,
		    "level %lu: the level fell about 5%% (%+.4f)", seed,
		    res.shifts[0].level);
		tap_ok(res.shifts[0].start == 0 && res.shifts[0].end == 40,
		    "level %lu: the sides span the run", seed);
		tap_ok(!res.shifts[0].effect_changed &&
		    !res.shifts[0].arms[1].changed,
		    "level %lu: the effect did not move (p %.3f)", seed,
		    res.shifts[0].arms[1].p);
		tap_ok(fabs(res.shifts[0].arms[1].before - 0.03) < 0.015 &&
		    fabs(res.shifts[0].arms[1].after - 0.03) < 0.015,
		    "level %lu: +3%% on both sides (%+.4f, %+.4f)", seed,
		    res.shifts[0].arms[1].before, res.shifts[0].arms[1].after);
		tap_ok(isnan(res.shifts[0].arms[0].p),
		    "level %lu: the baseline has no test", seed);
		ls_result_release(&res);
		ls_result_release(&res);
	}
}

/*
 * A disk out of burst credits at round 12: the level falls 70% and the
 * candidate's +200% becomes +10%; a third arm keeps its +5%.
 */
static void
test_effect_moved(void)
{
	double			v[40 * 3];
	double			eff[3] = { 0, 2.0, 0.05 };
	double			eff2[3] = { 0, 0.10, 0.05 };
	struct ls_result	res;
	const struct ls_shift	*s;

	run_of(v, 40, 3, 11, 0.05, 12, -0.70, eff, eff2);
	if (detect(v, 40, 3, &res) == -1)
		return;
	if (!tap_ok(res.n >= 1, "moved: a shift (got %zu)", res.n)) {
		ls_result_release(&res);
		return;
	}
	s = &res.shifts[0];
	tap_ok(s->round >= 11 && s->round <= 13, "moved: at round 12 +- 1 "
	    "(got %zu)", s->round);
	tap_ok(s->level < -0.5, "moved: the level fell (%+.3f)", s->level);
	tap_ok(s->effect_changed && s->arms[1].changed, "moved: the "
	    "candidate's effect moved (p %.2g)", s->arms[1].p);
	tap_ok(fabs(s->arms[1].before - 2.0) < 0.3 &&
	    fabs(s->arms[1].after - 0.10) < 0.06,
	    "moved: +200%% before, +10%% after (%+.3f, %+.3f)",
	    s->arms[1].before, s->arms[1].after);
	tap_ok(!s->arms[2].changed, "moved: the third arm's +5%% held "
	    "(p %.3f)", s->arms[2].p);
	ls_result_release(&res);
}

/*
 * The level of both tests: flat runs find no shift, and under a level
 * step with a constant +3% effect the "moved" test fires at about alpha
 * (0.01) or less. Seeded, so the counts are fixed; the bounds are what a
 * binomial at the nominal rate stays below with probability > 0.99.
 */
static void
test_null_rates(void)
{
	double			v[40 * 2], eff[2] = { 0, 0.03 };
	struct ls_result	res;
	unsigned long		seed;
	struct ls_options	o;
	char			*cause = NULL;
	unsigned		nflat = 0, nmoved = 0, nshift = 0, n = 300;
	unsigned		nrej = 0, ntest = 0;

	for (seed = 1000; seed < 1000 + n; seed++) {
		run_of(v, 40, 2, seed, 0.01, 40, 0, eff, eff);
		if (detect(v, 40, 2, &res) == 0)
			nflat += res.n > 0;
		ls_result_release(&res);
		run_of(v, 40, 2, seed + 7919, 0.01, 20, -0.05, eff, eff);
		if (detect(v, 40, 2, &res) == 0 && res.n > 0) {
			nshift++;
			nmoved += res.shifts[0].effect_changed;
		}
		ls_result_release(&res);
		/* The U test alone (no min_change): its own level. */
		ls_options_init(&o);
		o.min_change = 0;
		run_of(v, 40, 2, seed + 104729, 0.01, 20, -0.05, eff, eff);
		if (ls_detect(v, 40, 2, &o, &res, &cause) == 0 && res.n > 0) {
			ntest++;
			nrej += res.shifts[0].arms[1].changed;
		}
		free(cause);
		cause = NULL;
		ls_result_release(&res);
	}
	tap_ok(nflat <= 9, "null: %u of %u flat runs show a shift (alpha "
	    "0.01: <= 9)", nflat, n);
	tap_ok(nshift >= n - 3, "null: %u of %u stepped runs show it", nshift,
	    n);
	tap_ok(nmoved <= 9, "null: the effect moved in %u of %u stepped runs "
	    "with a constant effect (alpha 0.01: <= 9)", nmoved, nshift);
	tap_ok(ntest >= n - 3 && nrej <= 9, "null: its U test alone rejects "
	    "in %u of %u (alpha 0.01: <= 9)", nrej, ntest);
}

static void
test_edges(void)
{
	double			v[MAXR * 2], eff[2] = { 0, 0 };
	struct ls_result	res;
	struct ls_options	o;
	char			*cause = NULL;
	size_t			i;

	/* Gaps: the candidate missing in some rounds, the baseline in one. */
	run_of(v, 40, 2, 5, 0.01, 20, 0.08, eff, eff);
	for (i = 3; i < 40; i += 7)
		v[i * 2 + 1] = NAN;
	v[25 * 2] = NAN;
	if (detect(v, 40, 2, &res) == 0) {
		tap_ok(res.n == 1 && res.shifts[0].round >= 19 &&
		    res.shifts[0].round <= 21, "gaps: the shift is found at "
		    "round 20 +- 1");
		tap_ok(res.n == 1 && fabs(res.shifts[0].arms[1].before) < 0.02,
		    "gaps: the deltas use the rounds present");
	}
	ls_result_release(&res);

	/* A value <= 0 has no log: not tested, no shift. */
	run_of(v, 40, 2, 5, 0.01, 20, 0.08, eff, eff);
	v[7] = 0;
	tap_ok(detect(v, 40, 2, &res) == 0 && !res.tested && res.n == 0,
	    "a zero value: not tested");
	ls_result_release(&res);

	/* Fewer than 2 x min_rounds rounds: not tested. */
	run_of(v, 9, 2, 5, 0.01, 5, 0.5, eff, eff);
	tap_ok(detect(v, 9, 2, &res) == 0 && !res.tested && res.n == 0,
	    "9 rounds: not tested");
	ls_result_release(&res);

	/* One arm: the level alone. */
	run_of(v, 40, 1, 5, 0.01, 20, 0.08, eff, eff);
	tap_ok(detect(v, 40, 1, &res) == 0 && res.n == 1 &&
	    !res.shifts[0].effect_changed, "one arm: the level alone");
	ls_result_release(&res);

	/* The same input, the same answer (seeded permutations). */
	run_of(v, 40, 2, 77, 0.02, 15, 0.04, eff, eff);
	{
		struct ls_result	r2 = { 0 };

		if (detect(v, 40, 2, &res) == 0 && detect(v, 40, 2, &r2) == 0)
			tap_ok(res.n == r2.n && (res.n == 0 ||
			    (res.shifts[0].round == r2.shifts[0].round &&
			    res.shifts[0].p == r2.shifts[0].p)),
			    "the same run, the same shifts");
		ls_result_release(&r2);
	}
	ls_result_release(&res);

	/* An infinite value has no log either: not tested, no error. */
	run_of(v, 40, 2, 5, 0.01, 20, 0.08, eff, eff);
	v[3] = INFINITY;
	ls_options_init(&o);
	i = ls_detect(v, 40, 2, &o, &res, &cause) == 0;
	tap_ok(i && !res.tested && res.n == 0 && cause == NULL,
	    "an infinite value: not tested");
	ls_result_release(&res);

	/* Bad options. */
	o.alpha = 0;
	tap_ok(ls_detect(v, 40, 2, &o, &res, &cause) == -1 && cause != NULL,
	    "alpha 0 is an error");
	free(cause);
	cause = NULL;
	ls_options_init(&o);
	tap_ok(ls_detect(v, 40, 0, &o, &res, &cause) == -1 && cause != NULL,
	    "no arm is an error");
	free(cause);
}

int
main(void)
{
	test_level_only();
	test_effect_moved();
	test_null_rates();
	test_edges();
	return tap_done();
}
