/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/power: the bootstrap power of the U test against
 * the analytic power for normal samples (Lehmann's approximation of U
 * under the alternative), and against simulation from bimodal and
 * log-normal distributions; monotonicity in effect and size, the level at
 * no effect, determinism for a seed, the MDE and rounds searches against
 * their definition and Noether's formula, the noise figures against
 * benchstat's summary, and per-invocation medians.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/benchmath.h"
#include "stats/utest.h"
#include "stats/power.h"
#include "tests/unit/tap.h"

/* P(Z1 < a, Z2 < a) for standard normals with correlation rho >= 0. */
static double
orthant(double a, double rho)
{
	double	sum = 0, w, c, dw = 0.001;

	for (w = -8; w <= 8; w += dw) {
		c = gsl_cdf_ugaussian_P((a - sqrt(rho) * w) / sqrt(1 - rho));
		sum += gsl_ran_ugaussian_pdf(w) * c * c * dw;
	}
	return sum;
}

/*
 * Power of the two-sided U test for X ~ N(mu, sd^2) against
 * Y = (1 + e) X', n per arm: Lehmann's normal approximation of U under
 * the alternative, with its exact mean and variance (p1 = P(X < Y),
 * p2 = P(X < Y, X < Y'), p3 = P(X < Y, X' < Y)).
 */
static double
lehmann(double mu, double sd, double e, double n, double alpha)
{
	double	k = (1 + e) * (1 + e), a, p1, p2, p3, s0, s1, z;

	a = mu * e / (sd * sqrt(1 + k));
	p1 = gsl_cdf_ugaussian_P(a);
	p2 = orthant(a, 1 / (1 + k));
	p3 = orthant(a, k / (1 + k));
	s0 = sqrt(n * n * (2 * n + 1) / 12);
	s1 = sqrt(n * n * (p1 * (1 - p1) + (n - 1) * (p2 - p1 * p1) +
	    (n - 1) * (p3 - p1 * p1)));
	z = gsl_cdf_ugaussian_Qinv(alpha / 2);
	return gsl_cdf_ugaussian_P((n * n * (p1 - 0.5) - z * s0) / s1);
}

/* Power by simulation from the generating distribution itself. */
static double
simulate(double (*draw)(gsl_rng *), size_t n, double e, unsigned reps,
    struct bm_ucache *uc)
{
	gsl_rng		*r = gsl_rng_alloc(gsl_rng_mt19937);
	double		 a[64], b[64], p;
	unsigned	 i, hits = 0;
	size_t		 j;
	char		*why = NULL;

	gsl_rng_set(r, 12345);
	for (i = 0; i < reps; i++) {
		for (j = 0; j < n; j++) {
			a[j] = draw(r);
			b[j] = draw(r) * (1 + e);
		}
		qsort(a, n, sizeof(double), cmp_double);
		qsort(b, n, sizeof(double), cmp_double);
		if (utest_mann_whitney(a, n, b, n, uc, &p, &why) == 0 &&
		    p <= 0.05)
			hits++;
		free(why);
		why = NULL;
	}
	gsl_rng_free(r);
	return (double)hits / reps;
}

static double
draw_bimodal(gsl_rng *r)
{
	return (gsl_rng_uniform(r) < 0.2 ? 140 : 100) + gsl_ran_gaussian(r, 1);
}

static double
draw_lognormal(gsl_rng *r)
{
	return 10 * gsl_ran_lognormal(r, 0, 0.25);
}

/* The burner's jitter (payload/cpu/burner.c -j 1): n (1 + u) units. */
static double
draw_jitter(gsl_rng *r)
{
	return 10 * (1 + gsl_rng_uniform(r));
}

static double *
normal_pool(size_t n, double mu, double sd, unsigned long seed)
{
	gsl_rng	*r = gsl_rng_alloc(gsl_rng_mt19937);
	double	*x = calloc(n, sizeof(*x));
	size_t	 i;

	gsl_rng_set(r, seed);
	for (i = 0; i < n; i++)
		x[i] = mu + gsl_ran_gaussian(r, sd);
	gsl_rng_free(r);
	return x;
}

static void
test_analytic(struct bm_ucache *uc)
{
	struct power_options	 o;
	double			*x = normal_pool(4000, 100, 10, 7);
	double			 got, want;

	power_options_init(&o);
	o.reps = 2000;
	/* A 5% shift is half a standard deviation. */
	got = power_at(x, 4000, 30, 30, 0.05, &o, uc);
	want = lehmann(100, 10, 0.05, 30, 0.05);
	tap_ok(fabs(got - want) < 0.06, "normal, n=30+30, 0.5 sd: power "
	    "%.3f vs analytic %.3f", got, want);
	got = power_at(x, 4000, 20, 20, 0.08, &o, uc);
	want = lehmann(100, 10, 0.08, 20, 0.05);
	tap_ok(fabs(got - want) < 0.06, "normal, n=20+20, 0.8 sd: power "
	    "%.3f vs analytic %.3f", got, want);
	got = power_at(x, 4000, 12, 12, 0, &o, uc);
	tap_ok(got <= 0.05 + 2 * sqrt(0.05 * 0.95 / 2000) && got > 0.02,
	    "no effect: rejection rate %.3f is the test's level", got);
	free(x);
}

static void
test_monotone_and_seed(struct bm_ucache *uc)
{
	struct power_options	 o;
	double			*x = normal_pool(200, 50, 2, 11);
	double			 p1, p2, p3, q1, q2;

	power_options_init(&o);
	p1 = power_at(x, 200, 10, 10, 0.01, &o, uc);
	p2 = power_at(x, 200, 10, 10, 0.03, &o, uc);
	p3 = power_at(x, 200, 10, 10, 0.06, &o, uc);
	tap_ok(p1 < p2 && p2 < p3, "power grows with the effect: %.3f %.3f "
	    "%.3f", p1, p2, p3);
	q1 = power_at(x, 200, 5, 5, 0.03, &o, uc);
	q2 = power_at(x, 200, 20, 20, 0.03, &o, uc);
	tap_ok(q1 < p2 && p2 < q2, "power grows with n: %.3f %.3f %.3f", q1,
	    p2, q2);
	tap_ok(power_at(x, 200, 10, 10, 0.03, &o, uc) == p2,
	    "the same seed gives the same estimate");
	o.seed = 99;
	q1 = power_at(x, 200, 10, 10, 0.03, &o, uc);
	tap_ok(q1 != p2 && fabs(q1 - p2) < 0.1, "another seed: %.3f, close "
	    "to %.3f", q1, p2);
	tap_ok(power_at(x, 200, 3, 3, 1.0, &o, uc) == 0,
	    "3+3 can never reach p <= 0.05: power 0");
	free(x);
}

static void
test_mde_rounds(struct bm_ucache *uc)
{
	struct power_options	 o;
	double			*x = normal_pool(3000, 100, 10, 3);
	double			 mde, want, p;
	size_t			 r;

	power_options_init(&o);
	o.reps = 1000;
	mde = power_mde(x, 3000, 30, 30, &o, uc);
	/* Noether solved for delta at power 0.8. */
	/* Noether's formula solved for the shift at power 0.8. */
	want = (gsl_cdf_ugaussian_Qinv(0.025) + gsl_cdf_ugaussian_Qinv(0.2)) /
	    sqrt(15 * 3 / M_PI) * 0.1;
	tap_ok(fabs(mde / want - 1) < 0.12, "MDE at 30+30: %.4f vs analytic "
	    "%.4f", mde, want);
	p = power_at(x, 3000, 30, 30, mde, &o, uc);
	tap_ok(p >= 0.8, "power at the MDE %.3f >= 0.8", p);
	p = power_at(x, 3000, 30, 30, mde / 1.02, &o, uc);
	tap_ok(p < 0.8, "power just below the MDE %.3f < 0.8", p);
	tap_ok(isinf(power_mde(x, 3000, 3, 3, &o, uc)),
	    "MDE at 3+3 is infinite at alpha 0.05");
	tap_ok(power_mde(x, 3000, 10, 10, &o, uc) > mde,
	    "fewer samples, larger MDE");

	r = power_rounds(x, 3000, 0.05, 0, &o, uc);
	want = 2 * pow((gsl_cdf_ugaussian_Qinv(0.025) +
	    gsl_cdf_ugaussian_Qinv(0.2)) / 0.5, 2) * M_PI / 3;
	tap_ok(fabs((double)r / want - 1) < 0.15, "rounds for 5%% (0.5 sd): "
	    "%zu vs analytic %.1f", r, want);
	tap_ok(power_at(x, 3000, r, r, 0.05, &o, uc) >= 0.8 &&
	    power_at(x, 3000, r - 1, r - 1, 0.05, &o, uc) < 0.8,
	    "rounds is the smallest n reaching 0.8");
	/* Estimates are noisy in n, so a search from elsewhere may stop
	 * at another crossing of 0.8 close by. */
	{
		size_t	r1 = power_rounds(x, 3000, 0.05, 40, &o, uc);
		size_t	r2 = power_rounds(x, 3000, 0.05, 500, &o, uc);

		tap_ok(fabs((double)r1 / r - 1) < 0.1 &&
		    power_at(x, 3000, r1, r1, 0.05, &o, uc) >= 0.8 &&
		    power_at(x, 3000, r1 - 1, r1 - 1, 0.05, &o, uc) < 0.8,
		    "from a hint below: %zu, a crossing of 0.8", r1);
		tap_ok(fabs((double)r2 / r - 1) < 0.1 &&
		    power_at(x, 3000, r2, r2, 0.05, &o, uc) >= 0.8 &&
		    power_at(x, 3000, r2 - 1, r2 - 1, 0.05, &o, uc) < 0.8,
		    "from a hint above: %zu, a crossing of 0.8", r2);
	}
	o.max_n = 20;
	tap_int_eq(power_rounds(x, 3000, 0.05, 0, &o, uc), 0,
	    "more rounds than the bound: 0");
	free(x);
}

/* Skewed and bimodal samples: the bootstrap from measured values
 * against simulation from the distribution that made them. */
static void
test_skewed(struct bm_ucache *uc)
{
	struct power_options	 o;
	gsl_rng			*rng = gsl_rng_alloc(gsl_rng_mt19937);
	static double		 x[2000];
	double			 got, want;
	size_t			 i;

	power_options_init(&o);
	o.reps = 1000;
	gsl_rng_set(rng, 5);
	for (i = 0; i < 300; i++)
		x[i] = draw_bimodal(rng);
	got = power_at(x, 300, 10, 10, 0.02, &o, uc);
	want = simulate(draw_bimodal, 10, 0.02, 4000, uc);
	tap_ok(fabs(got - want) < 0.08, "bimodal (80%% at 100, 20%% at "
	    "140), 10+10, +2%%: power %.3f vs simulated %.3f", got, want);
	gsl_rng_set(rng, 1);
	for (i = 0; i < 2000; i++)
		x[i] = draw_lognormal(rng);
	got = power_at(x, 2000, 12, 12, 0.15, &o, uc);
	want = simulate(draw_lognormal, 12, 0.15, 4000, uc);
	tap_ok(fabs(got - want) < 0.06, "log-normal (sigma 0.25), 12+12, "
	    "+15%%: power %.3f vs simulated %.3f", got, want);
	gsl_rng_free(rng);
}

static void
test_noise(void)
{
	double			 x[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 };
	double			 s[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct power_noise	 pn;
	struct bm_summary	 sum;
	char			 buf[32], want[32];

	power_noise(x, 9, 0, 0.95, &pn);
	tap_ok(pn.median == 5 && fabs(pn.mad_rel - 0.4) < 1e-12,
	    "median 5, MAD/median 0.4: %g %g", pn.median, pn.mad_rel);
	bm_summarize(s, 9, BM_ASSUME_NOTHING, 0.95, &sum);
	bm_summary_pct_range(&sum, want, sizeof(want));
	snprintf(buf, sizeof(buf), "%.0f%%", 100 * pn.ci_half_rel);
	tap_str_eq(buf, want, "CI half-width at n is benchstat's +-");
	bm_summary_release(&sum);
	power_noise(x, 9, 5, 0.95, &pn);
	tap_ok(isinf(pn.ci_half_rel), "at 5 samples the 95%% CI is infinite");
	power_noise(x, 9, 200, 0.95, &pn);
	tap_ok(isfinite(pn.ci_half_rel) && pn.ci_half_rel < 0.4,
	    "at 200 samples of this spread it is narrower: %.3f",
	    pn.ci_half_rel);
}

static void
test_groups(void)
{
	int64_t	g[] = { 4, 4, 9, 4, 9, 2 };
	double	x[] = { 3, 1, 10, 2, 20, 7 }, out[6];
	size_t	m = power_group_medians(g, x, 6, out);

	tap_int_eq(m, 3, "three invocations");
	tap_ok(out[0] == 2 && out[1] == 15 && out[2] == 7,
	    "per-invocation medians in order: %g %g %g", out[0], out[1],
	    out[2]);
}

/*
 * The rounds advice plans for the upper 95% bound of the pilot's spread:
 * over 30 pilots of 40 normal values, the true power at the rounds
 * advised for +5% (power_at on 3000 values of the same distribution)
 * reaches 75% for nearly all of them; planned on the spread as measured,
 * it falls below 80% about half the time (the estimate is low as often
 * as high).
 */
static void
test_spread_conf(struct bm_ucache *uc)
{
	struct power_options	 o;
	double			*truth = normal_pool(3000, 100, 10, 11), *pilot;
	double			 f, p0, p9;
	size_t			 i, r0, r9, ok9 = 0, low0 = 0, n = 30;

	f = power_spread_factor(40, 0.9);
	tap_ok(fabs(f - sqrt(39 / gsl_cdf_chisq_Pinv(0.1, 39))) < 1e-12 &&
	    f > 1.17 && f < 1.19, "spread factor for 40 values at 90%%: %.3f",
	    f);
	tap_ok(fabs(power_spread_factor(6, 0.9) - 1.76) < 0.01,
	    "for 6 values: %.3f", power_spread_factor(6, 0.9));
	tap_ok(power_spread_factor(40, 0) == 1 &&
	    power_spread_factor(2, 0.9) == 1, "none when off or n < 3");
	power_options_init(&o);
	o.reps = 300;
	for (i = 0; i < n; i++) {
		pilot = normal_pool(40, 100, 10, 100 + i);
		o.spread_conf = 0;
		r0 = power_rounds(pilot, 40, 0.05, 0, &o, uc);
		o.spread_conf = 0.95;
		r9 = power_rounds(pilot, 40, 0.05, r0, &o, uc);
		o.spread_conf = 0;
		p0 = power_at(truth, 3000, r0, r0, 0.05, &o, uc);
		p9 = power_at(truth, 3000, r9, r9, 0.05, &o, uc);
		ok9 += p9 >= 0.75;
		low0 += p0 < 0.8;
		free(pilot);
	}
	tap_ok(ok9 >= n - 2, "advised at the 95%% bound: true power >= 75%% "
	    "for %zu of %zu pilots", ok9, n);
	tap_ok(low0 >= n / 4, "as measured: below 80%% for %zu of %zu pilots "
	    "(the optimism the bound removes)", low0, n);
	free(truth);
}

/*
 * t0250's design on the burner's noise alone: from a pilot of 40 values,
 * the effect E is the pilot's MDE at 16+16 (rounded up to 0.5%) and the
 * rounds are the advice for E at the 95% bound; the true power at those
 * rounds (simulated from the distribution) is what the test's detection
 * rate estimates. The pilot's error makes it vary: over 200 pilots it is
 * below 0.8 for a few (the 5% the bound leaves) and below 0.75 for at
 * most 2%.
 */
static void
test_jitter_pilots(struct bm_ucache *uc)
{
	struct power_options	 o;
	gsl_rng			*rng = gsl_rng_alloc(gsl_rng_mt19937);
	double			 pilot[40], mde, e, tp, sum = 0, worst = 1;
	size_t			 i, k, rr, npil = 200, low80 = 0, low75 = 0;
	size_t			 big = 0;

	gsl_rng_set(rng, 77);
	for (k = 0; k < npil; k++) {
		for (i = 0; i < 40; i++)
			pilot[i] = draw_jitter(rng);
		/* The options power and run advise with. */
		power_advice_options_init(&o);
		mde = power_mde(pilot, 40, 16, 16, &o, uc);
		e = ceil(mde * 200 - 0.001) / 200;
		if (e < 0.01)
			e = 0.01;
		rr = power_rounds(pilot, 40, e, 0, &o, uc);
		if (rr < 2 || rr > 64) {
			big++;
			continue;
		}
		tp = simulate(draw_jitter, rr, e, 1000, uc);
		sum += tp;
		low80 += tp < 0.8;
		low75 += tp < 0.75;
		if (tp < worst)
			worst = tp;
	}
	gsl_rng_free(rng);
	tap_int_eq(big, 0, "jitter pilots: every advice within 2-64 rounds");
	tap_ok(low80 <= npil / 20 && low75 <= npil / 50 &&
	    sum / (double)npil >= 0.85, "jitter pilots (t0250's design): true "
	    "power below 0.8 for %zu and below 0.75 for %zu of %zu pilots "
	    "(worst %.3f, mean %.3f)", low80, low75, npil, worst,
	    sum / (double)npil);
}

/*
 * power_advise is what every command prints for a row: power_mde at (na,
 * nb), then power_rounds from the MDE's hint, so that it is the same
 * number wherever it is printed (#54).
 */
static void
test_advise(struct bm_ucache *uc)
{
	struct power_options	o;
	struct power_advice	a;
	double			xs[12], mde;
	size_t			i, hint;

	for (i = 0; i < 12; i++)
		xs[i] = 1000 + (double)((i * 53) % 401);
	power_advice_options_init(&o);
	o.reps = 100;
	power_advise(xs, 12, 12, 10, 0.02, &o, uc, &a);
	mde = power_mde(xs, 12, 12, 10, &o, uc);
	tap_ok(a.mde == mde && mde > 0.02 && isfinite(mde),
	    "advise: the MDE at 12+10 is power_mde's (%g)", a.mde);
	hint = (size_t)(12 * (mde / 0.02) * (mde / 0.02));
	tap_int_eq(a.rounds, power_rounds(xs, 12, 0.02, hint, &o, uc),
	    "advise: the rounds are power_rounds' from the MDE's hint");
	tap_ok(a.rounds > 12, "advise: more than 12 rounds for 2%% (%zu)",
	    a.rounds);
	power_advise(xs, 12, 12, 10, 0, &o, uc, &a);
	tap_ok(a.mde == mde && a.rounds == 0,
	    "advise: effect 0 asks for the MDE alone");
	power_advise(xs, 1, 12, 10, 0.02, &o, uc, &a);
	tap_ok(isinf(a.mde) && a.rounds == 0,
	    "advise: one value tells no noise");
}

/*
 * power_mde decides a replicate without ties by its U statistic: the same
 * search by power_at (every replicate by the U test) lands on the same
 * effect, bit for bit, on continuous values and on values with ties,
 * at several sizes (exact and normal U distributions) and alphas.
 */
static double
mde_by_test(const double *x, size_t n, size_t na, size_t nb,
    const struct power_options *o, struct bm_ucache *uc)
{
	double	lo = 1e-6, hi = o->max_effect, mid;
	int	i;

	if (power_at(x, n, na, nb, hi, o, uc) < o->power)
		return INFINITY;
	if (power_at(x, n, na, nb, lo, o, uc) >= o->power)
		return lo;
	for (i = 0; i < 60 && hi / lo > 1.005; i++) {
		mid = sqrt(lo * hi);
		if (power_at(x, n, na, nb, mid, o, uc) >= o->power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static void
test_mde_by_u(struct bm_ucache *uc)
{
	static const size_t	 sizes[][2] = { { 5, 7 }, { 16, 16 },
				    { 30, 12 }, { 60, 60 } };
	struct power_options	 o;
	double			*x = normal_pool(400, 100, 10, 7), *t;
	size_t			 i, k;
	double			 got, want;

	t = xcalloc(400, sizeof(*t));
	for (i = 0; i < 400; i++)	/* ties: whole numbers */
		t[i] = floor(x[i] / 4);
	power_options_init(&o);
	o.reps = 200;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		o.alpha = k % 2 == 0 ? 0.05 : 0.01;
		got = power_mde(x, 400, sizes[k][0], sizes[k][1], &o, uc);
		want = mde_by_test(x, 400, sizes[k][0], sizes[k][1], &o, uc);
		tap_ok(got == want, "MDE at %zu+%zu, alpha %g: %.17g, the U "
		    "test's %.17g", sizes[k][0], sizes[k][1], o.alpha, got,
		    want);
		got = power_mde(t, 400, sizes[k][0], sizes[k][1], &o, uc);
		want = mde_by_test(t, 400, sizes[k][0], sizes[k][1], &o, uc);
		tap_ok(got == want, "with ties, at %zu+%zu: %.17g, the U "
		    "test's %.17g", sizes[k][0], sizes[k][1], got, want);
	}
	free(t);
	free(x);
}

int
main(void)
{
	struct bm_ucache	*uc = bm_ucache_new();

	test_analytic(uc);
	test_monotone_and_seed(uc);
	test_mde_rounds(uc);
	test_mde_by_u(uc);
	test_skewed(uc);
	test_noise();
	test_groups();
	test_spread_conf(uc);
	test_jitter_pilots(uc);
	test_advise(uc);
	bm_ucache_free(uc);
	return tap_done();
}
