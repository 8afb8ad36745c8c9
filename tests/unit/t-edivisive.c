/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of stats/edivisive (Otava's change points): the options,
 * a clean step, determinism (appending night by night gives the batch
 * answer bit for bit), the work of one appended night bounded whatever
 * the history's length, and the claims by simulation over generated
 * years of nights (tests/unit/nightsim.h; the series is the nights'
 * medians, as `abbench history` gives it):
 *   A/A     change points per series-year at most 1 (95% upper bound,
 *           Poisson) in every noise model;
 *   steps   a step of twice the series' noise (the spread of its nights'
 *           medians: 1.4826 MAD over A/A years of the model), up or down
 *           at a random night, found at that very night in at least 95%
 *           of series (normal and heavy; loaded 88%: a loaded night
 *           next to the step can take it one night off, and the best
 *           estimate knowing both levels places 88.5%);
 *   delay   appended night by night, the nights after the step until it
 *           is found (printed);
 *   bursts  A/A years with three noise bursts of 1-3 nights (medians 4x
 *           as far from the level): at most 1 change point a series-year.
 * Deterministic: a fixed seed, and the method uses no randomness.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/edivisive.h"
#include "stats/quantile.h"
#include "tests/unit/nightsim.h"
#include "tests/unit/tap.h"

#define AA_SERIES	300
#define STEP_SERIES	600
#define DELAY_SERIES	100

static void
medians(const struct nightly_night *nt, double *x)
{
	size_t	h;

	for (h = 0; h < NIGHTS; h++)
		x[h] = nt[h].median;
}

static void
test_options(void)
{
	struct ed_options	o;
	struct ed_series	s;
	char			*cause = NULL;
	double			 bad = NAN;

	ed_options_init(&o);
	o.window = 3;
	tap_int_eq(ed_series_init(&s, &o, &cause), -1, "window 3 refused");
	tap_ok(cause != NULL && strstr(cause, "window") != NULL,
	    "the cause names the window");
	free(cause);
	cause = NULL;
	ed_options_init(&o);
	o.max_p = 0;
	tap_int_eq(ed_series_init(&s, &o, &cause), -1, "p 0 refused");
	free(cause);
	cause = NULL;
	ed_options_init(&o);
	tap_int_eq(ed_series_init(&s, &o, &cause), 0, "defaults accepted");
	tap_int_eq(ed_series_append(&s, &bad, 1, &cause), -1,
	    "NaN refused");
	tap_int_eq((long long)s.n, 0, "nothing appended");
	free(cause);
	ed_series_release(&s);
	ed_series_release(&s);
}

static void
test_step(void)
{
	struct ed_options	 o;
	struct ed_change	*c = NULL;
	double			 x[60];
	size_t			 i, n = 0;
	char			*cause = NULL;

	for (i = 0; i < 60; i++)
		x[i] = (i < 37 ? 100 : 110) + (double)((i * 7) % 5) / 5;
	ed_options_init(&o);
	tap_int_eq(ed_detect(x, 60, &o, &c, &n, &cause), 0, "detect");
	tap_int_eq((long long)n, 1, "one change point");
	if (n == 1) {
		tap_int_eq((long long)c[0].index, 37, "at the step");
		tap_ok(fabs(c[0].rel - 0.1) < 0.01, "its size +10%% (%.4f)",
		    c[0].rel);
		tap_ok(c[0].p < 1e-10, "p %.3g", c[0].p);
		tap_int_eq((long long)c[0].n_before, 37, "37 before");
		tap_int_eq((long long)c[0].n_after, 23, "23 after");
	}
	free(c);
	for (i = 0; i < 60; i++)
		x[i] = 100 + (double)((i * 7) % 5) / 5;
	tap_int_eq(ed_detect(x, 60, &o, &c, &n, &cause), 0, "flat");
	tap_int_eq((long long)n, 0, "no change point in a flat series");
	free(c);
	tap_int_eq(ed_detect(x, 0, &o, &c, &n, &cause), 0, "empty");
	tap_int_eq((long long)n, 0, "none in an empty series");
	free(c);
}

/* Night by night equals the batch at every length; the work of a night
 * stays bounded. */
static void
test_incremental(gsl_rng *rng)
{
	static struct nightly_night	nt[NIGHTS];
	static double			x[NIGHTS];
	struct ed_options		o;
	struct ed_series		s;
	struct ed_change		*c;
	size_t				n, h, i, differ = 0;
	uint64_t			before, most = 0, batch;
	char				*cause = NULL;

	series(rng, M_NORMAL, 120, 0.06, nt);
	medians(nt, x);
	for (h = 250; h < NIGHTS; h++)
		x[h] *= 0.95;
	ed_options_init(&o);
	ed_series_init(&s, &o, &cause);
	for (h = 0; h < NIGHTS; h++) {
		before = s.work;
		ed_series_append(&s, &x[h], 1, &cause);
		if (s.work - before > most)
			most = s.work - before;
		if (ed_detect(x, h + 1, &o, &c, &n, &cause) == -1 ||
		    n != s.nchanges || (n > 0 &&
		    memcmp(c, s.changes, n * sizeof(*c)) != 0))
			differ++;
		free(c);
	}
	tap_int_eq((long long)differ, 0, "night by night = the batch, bit "
	    "for bit, at each of %d lengths", NIGHTS);
	tap_int_eq((long long)s.nchanges, 2, "the two steps found");
	for (i = 0; i < s.nchanges; i++)
		TAP_DIAG("change at %zu: %+.2f%% p=%.3g", s.changes[i].index,
		    100 * s.changes[i].rel, s.changes[i].p);
	ed_series_release(&s);
	ed_series_init(&s, &o, &cause);
	ed_series_append(&s, x, NIGHTS, &cause);
	batch = s.work;
	ed_series_release(&s);
	TAP_DIAG("energy statistics: at most %llu for one appended night, "
	    "%llu for the year at once", (unsigned long long)most,
	    (unsigned long long)batch);
	tap_ok(most <= 2 * o.window * o.window * 4, "one night's work is "
	    "bounded by two windows: %llu <= %zu", (unsigned long long)most,
	    2 * o.window * o.window * 4);
}

/* The robust spread of a series' medians. */
static double
spread(const double *x, size_t n)
{
	double	*v = xcalloc(n, sizeof(*v)), med, r;
	size_t	 i;

	memcpy(v, x, n * sizeof(*v));
	sort_doubles(v, n);
	med = stats_quantile_sorted(v, n, 0.5);
	for (i = 0; i < n; i++)
		v[i] = fabs(x[i] - med);
	sort_doubles(v, n);
	r = 1.4826 * stats_quantile_sorted(v, n, 0.5);
	free(v);
	return r;
}

/*
 * Where the best possible estimate puts a step: knowing both levels and
 * the nights' noise, the night in s +- 15 of the largest likelihood.
 */
static size_t
oracle(const double *x, size_t s, double lo, double hi)
{
	size_t	h, t, best = s;
	double	ll, bl = -INFINITY;

	for (t = s - 15; t <= s + 15; t++) {
		ll = 0;
		for (h = s - 15; h < s + 15; h++)
			ll -= h < t ? (x[h] - lo) * (x[h] - lo) :
			    (x[h] - hi) * (x[h] - hi);
		if (ll > bl) {
			bl = ll;
			best = t;
		}
	}
	return best;
}

/* Steps of `size` (relative) at random nights: found where? */
static void
steps(gsl_rng *rng, enum model m, const struct ed_options *o, double size,
    const char *what, double want, double keep, double at)
{
	static struct nightly_night	nt[NIGHTS];
	static double			x[NIGHTS];
	struct ed_change		*c = NULL;
	struct ed_series		es;
	size_t				n, i, j, s, h;
	unsigned			exact = 0, near = 0, off = 0, wrong = 0;
	unsigned			best = 0, best1 = 0;
	unsigned			delay[4] = { 0, 0, 0, 0 }, d;
	double				step;
	char				*cause = NULL;

	for (i = 0; i < STEP_SERIES; i++) {
		s = 20 + gsl_rng_uniform_int(rng, NIGHTS - 40);
		step = (i % 2 ? -1 : 1) * size;
		series(rng, m, s, step, nt);
		medians(nt, x);
		j = oracle(x, s, 100, 100 * (1 + step));
		best += j == s;
		best1 += j + 1 >= s && j <= s + 1;
		ed_detect(x, NIGHTS, o, &c, &n, &cause);
		/* The change point of the step's direction nearest to it. */
		for (j = 0, d = 99; j < n; j++)
			if ((c[j].rel > 0) == (step > 0) && (size_t)labs(
			    (long)c[j].index - (long)s) < d)
				d = (unsigned)labs((long)c[j].index - (long)s);
		if (d == 0)
			exact++;
		else if (d == 1)
			near++;
		else if (d <= 5)
			off++;
		else
			wrong++;
		free(c);
		if (i >= DELAY_SERIES)
			continue;
		/* Appended night by night from the step on. */
		ed_series_init(&es, o, &cause);
		ed_series_append(&es, x, s, &cause);
		for (h = s, d = 3; h < NIGHTS && h < s + 30 && d == 3; h++) {
			ed_series_append(&es, &x[h], 1, &cause);
			for (j = 0; j < es.nchanges; j++)
				if (es.changes[j].index + 1 >= s &&
				    es.changes[j].index <= s + 1)
					d = h - s < 2 ? 0 : h - s < 7 ? 1 : 2;
		}
		delay[d]++;
		ed_series_release(&es);
	}
	TAP_DIAG("steps %s of %s (%.2f%%): %u series: found at the night %u, "
	    "a night off %u, 2-5 nights off %u, not found %u (the best "
	    "estimate, knowing the levels and the noise: at the night %u, "
	    "within one %u); appended night by night (%u series): found 0-1 "
	    "nights after %u, 2-6 %u, 7-29 %u, later %u", model_name[m], what,
	    100 * size, STEP_SERIES, exact, near, off, wrong, best, best1,
	    DELAY_SERIES,
	    delay[0], delay[1], delay[2], delay[3]);
	tap_ok(exact >= keep * best, "steps %s of %s: found at their night "
	    "in %.1f%%, the best estimate %.1f%% (>= %.0f%% of it)",
	    model_name[m], what, 100.0 * exact / STEP_SERIES,
	    100.0 * best / STEP_SERIES, 100 * keep);
	if (at > 0)
		tap_ok((double)exact / STEP_SERIES >= at, "steps %s of %s: "
		    "at their very night in %.1f%% (>= %.0f%%)", model_name[m],
		    what, 100.0 * exact / STEP_SERIES, 100 * at);
	tap_ok((double)(exact + near) / STEP_SERIES >= want, "steps %s of "
	    "%s: found within one night in %.1f%% (>= %.0f%%)",
	    model_name[m], what, 100.0 * (exact + near) / STEP_SERIES,
	    100 * want);
}

static void
simulate(gsl_rng *rng, enum model m)
{
	static struct nightly_night	nt[NIGHTS];
	static double			x[NIGHTS], sp[AA_SERIES];
	struct ed_options		o;
	struct ed_change		*c = NULL;
	size_t				n, i;
	unsigned			fp = 0;
	double				noise, up;
	char				*cause = NULL;

	ed_options_init(&o);
	for (i = 0; i < AA_SERIES; i++) {
		series(rng, m, NIGHTS, 0, nt);
		medians(nt, x);
		sp[i] = spread(x, NIGHTS) / 100;
		ed_detect(x, NIGHTS, &o, &c, &n, &cause);
		fp += (unsigned)n;
		free(c);
	}
	sort_doubles(sp, AA_SERIES);
	noise = stats_quantile_sorted(sp, AA_SERIES, 0.5);
	up = poisson_upper(fp) / AA_SERIES;
	TAP_DIAG("A/A %s: %u series-years, %u change points (%.3f a "
	    "series-year, 95%% upper bound %.3f); the nights' spread %.2f%%",
	    model_name[m], AA_SERIES, fp, (double)fp / AA_SERIES, up,
	    100 * noise);
	tap_ok(up <= 1.0, "A/A %s: change points per series-year %.3f, 95%% "
	    "upper bound %.3f <= 1", model_name[m], (double)fp / AA_SERIES,
	    up);
	/* At the very night: 95% (loaded: 88%, the best estimate's 88.5%,
	 * a loaded night beside the step moves it). */
	steps(rng, m, &o, 2 * SIGMA, "2 sigma", m == M_LOADED ? 0.95 : 0.99,
	    0.98, m == M_LOADED ? 0.88 : 0.95);
	steps(rng, m, &o, 2 * noise, "2 spreads", m == M_LOADED ? 0.65 : 0.75,
	    0.85, 0);
}

/*
 * Noise bursts, as bench/history-gen injects them: in each A/A year three
 * bursts of 1 to 3 nights whose medians stray 4 times as far (a machine
 * that was noisy for a while, its level unchanged). Not a change.
 */
static void
bursts(gsl_rng *rng)
{
	static struct nightly_night	nt[NIGHTS];
	static double			x[NIGHTS];
	struct ed_options		o;
	struct ed_change		*c = NULL;
	size_t				n, i, b, k, len, h;
	unsigned			fp = 0;
	char				*cause = NULL;

	ed_options_init(&o);
	for (i = 0; i < AA_SERIES; i++) {
		series(rng, M_NORMAL, NIGHTS, 0, nt);
		medians(nt, x);
		for (b = 0; b < 3; b++) {
			h = gsl_rng_uniform_int(rng, NIGHTS - 3);
			len = 1 + gsl_rng_uniform_int(rng, 3);
			for (k = h; k < h + len; k++)
				x[k] = 100 + 4 * (x[k] - 100);
		}
		ed_detect(x, NIGHTS, &o, &c, &n, &cause);
		fp += (unsigned)n;
		free(c);
	}
	TAP_DIAG("A/A with 3 noise bursts a year: %u series-years, %u change "
	    "points (%.3f a series-year, 95%% upper bound %.3f)", AA_SERIES,
	    fp, (double)fp / AA_SERIES, poisson_upper(fp) / AA_SERIES);
	tap_ok(poisson_upper(fp) / AA_SERIES <= 1.0, "A/A with noise bursts: "
	    "change points per series-year %.3f <= 1 (95%% upper bound)",
	    (double)fp / AA_SERIES);
}

int
main(void)
{
	gsl_rng		*rng;
	unsigned	 m;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20261207);
	test_options();
	test_step();
	test_incremental(rng);
	for (m = 0; m < NMODELS; m++)
		simulate(rng, (enum model)m);
	bursts(rng);
	gsl_rng_free(rng);
	return tap_done();
}
