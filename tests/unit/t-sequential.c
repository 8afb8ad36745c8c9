/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/sequential: the design (looks, the final boundary
 * by Bonferroni), the U distribution's quantiles against the U test's own
 * p-values, the Hodges-Lehmann interval (its counting form against the
 * sorted differences, its coverage), decisions on clear cases, and the
 * proof by simulation: 2e5 A/A paths for each noise model of seqsim.h
 * (Gaussian, t3 with 5% outliers, timer-quantized, drift under
 * `alternate`) keep the upper 95% bound of the false-positive rate at or
 * below alpha = 0.05, and the power at a true effect equal to `effect`
 * is no more than 5 points below the fixed design at max-rounds. A
 * design that peeks at p <= 0.05 every look fails the same check. The
 * projection and the half margin of the equivalence stop find most
 * changes below `effect` that the fixed design finds, where the margin
 * alone does not.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/utest.h"
#include "stats/sequential.h"
#include "tests/unit/seqsim.h"
#include "tests/unit/tap.h"

#define AA_PATHS	200000UL
#define POWER_PATHS	20000UL
/* Noise at which the fixed design at 30 rounds has about 80% power for
 * a 2% effect (Gaussian): where a sequential design loses most. */
#define SIGMA		0.027

static void
test_design(void)
{
	struct seq_design	d;
	char			*cause = NULL;
	int			 looks[] = { 5, 10, 15 }, bad[] = { 8, 6 };

	tap_ok(seq_design_init(&d, 0.05, 0.02, 30, NULL, 0, &cause) == 0,
	    "default design");
	tap_int_eq(d.nlooks, 8, "looks 6 8 10 12 16 20 24 30");
	tap_int_eq(d.looks[0], 6, "first look at 6");
	tap_int_eq(d.looks[7], 30, "last look at max-rounds");
	tap_ok(fabs(d.final_p - 0.043) < 1e-12, "final p 0.05 - 7 * 0.001 "
	    "= %g", d.final_p);
	tap_int_eq(seq_look_at(&d, 12), 3, "12 rounds is look 3");
	tap_int_eq(seq_look_at(&d, 13), -1, "13 rounds is no look");
	tap_ok(seq_boundary(&d, 3) == 0.001 && seq_boundary(&d, 7) ==
	    d.final_p, "boundaries");
	tap_ok(seq_design_init(&d, 0.05, 0.02, 20, looks, 3, &cause) == 0 &&
	    d.nlooks == 4 && d.looks[3] == 20 && fabs(d.final_p - 0.047) <
	    1e-12, "given looks, max-rounds appended");
	tap_ok(seq_design_init(&d, 0.05, 0.02, 20, bad, 2, &cause) == -1 &&
	    strstr(cause, "ascending") != NULL, "descending looks refused");
	free(cause);
	cause = NULL;
	tap_ok(seq_design_init(&d, 0.05, 0.02, 12, looks, 3, &cause) == -1 &&
	    strstr(cause, "beyond") != NULL, "look beyond max-rounds");
	free(cause);
	cause = NULL;
	tap_ok(seq_design_init(&d, 0.05, 0, 12, NULL, 0, &cause) == -1,
	    "effect 0 refused");
	free(cause);
	cause = NULL;
	tap_ok(seq_design_init(&d, 0.05, 0.02, 1, NULL, 0, &cause) == -1,
	    "max-rounds 1 refused");
	free(cause);
	cause = NULL;
	{
		int	many[60], i;

		for (i = 0; i < 60; i++)
			many[i] = i + 1;
		tap_ok(seq_design_init(&d, 0.05, 0.02, 61, many, 60, &cause) ==
		    -1 && strstr(cause, "nothing") != NULL,
		    "60 interim looks leave nothing of 0.05: refused");
		free(cause);
	}
}

/* utest_u_cdf is the distribution behind utest_mann_whitney's p. */
static void
test_u_quantiles(void)
{
	struct bm_ucache	*uc = bm_ucache_new();
	double			 x1[40], x2[40], p, u, cdf;
	size_t			 n1, n2, i, j, bad = 0, checked = 0;
	long			 c;
	char			*why = NULL;
	gsl_rng			*r = gsl_rng_alloc(gsl_rng_mt19937);

	for (n1 = 2; n1 <= 40; n1 += 3) {
		for (n2 = 2; n2 <= 40; n2 += 5) {
			for (i = 0; i < n1; i++)
				x1[i] = gsl_rng_uniform(r);
			for (j = 0; j < n2; j++)
				x2[j] = gsl_rng_uniform(r) + 0.1;
			qsort(x1, n1, sizeof(double), seqsim_cmp);
			qsort(x2, n2, sizeof(double), seqsim_cmp);
			utest_mann_whitney(x1, n1, x2, n2, uc, &p, &why);
			/* U of x1: pairs with x1 > x2. */
			u = 0;
			for (i = 0; i < n1; i++)
				for (j = 0; j < n2; j++)
					u += x1[i] > x2[j];
			if (u > (double)(n1 * n2) / 2)
				u = (double)(n1 * n2) - u;
			cdf = utest_u_cdf(n1, n2, u, uc);
			checked++;
			if (u * 2 != (double)(n1 * n2) &&
			    fabs(2 * cdf - p) > 1e-12)
				bad++;
			c = utest_u_critical(n1, n2, 0.025, uc);
			if (c >= 0 && !(utest_u_cdf(n1, n2, (double)c, uc) <=
			    0.025 && utest_u_cdf(n1, n2, (double)c + 1, uc) >
			    0.025))
				bad++;
			if (c < 0 && utest_u_cdf(n1, n2, 0, uc) <= 0.025)
				bad++;
		}
	}
	tap_ok(bad == 0, "U test p = 2 P(U <= u) and the critical values "
	    "bracket beta (%zu of %zu off)", bad, checked);
	tap_int_eq(utest_u_critical(5, 5, 0.025, uc), 2,
	    "5+5 at 2.5%%: c = 2 (tables: 2)");
	tap_int_eq(utest_u_critical(10, 10, 0.025, uc), 23,
	    "10+10 at 2.5%%: c = 23 (tables: 23)");
	tap_int_eq(utest_u_critical(3, 3, 0.025, uc), -1,
	    "3+3 cannot reach 2.5%%");
	/* Beyond the exact limit, the normal approximation. */
	cdf = utest_u_cdf(60, 60, 1800 - 1.96 * sqrt(3600.0 * 121 / 12) - 0.5,
	    uc);
	tap_ok(fabs(cdf - 0.025) < 0.002, "60+60 normal tail %g", cdf);
	gsl_rng_free(r);
	bm_ucache_free(uc);
}

static void
test_shift_ci(void)
{
	struct bm_ucache	*uc = bm_ucache_new();
	gsl_rng			*r = gsl_rng_alloc(gsl_rng_mt19937);
	double			 x1[30], x2[30], lo, hi, lim, shift;
	size_t			 n1, n2, i, t, disagree = 0, cover = 0, ncov = 0;
	int			 within;

	gsl_rng_set(r, 7);
	for (t = 0; t < 3000; t++) {
		n1 = 4 + gsl_rng_uniform_int(r, 26);
		n2 = 4 + gsl_rng_uniform_int(r, 26);
		shift = 0.03 * (gsl_rng_uniform(r) - 0.5);
		for (i = 0; i < n1; i++)
			x1[i] = 100 * exp(0.02 * gsl_ran_gaussian(r, 1));
		for (i = 0; i < n2; i++)
			x2[i] = 100 * exp(shift + 0.02 *
			    gsl_ran_gaussian(r, 1));
		if (t % 3 == 0) {
			/* Ties: a coarse timer. */
			for (i = 0; i < n1; i++)
				x1[i] = round(x1[i]);
			for (i = 0; i < n2; i++)
				x2[i] = round(x2[i]);
		}
		qsort(x1, n1, sizeof(double), seqsim_cmp);
		qsort(x2, n2, sizeof(double), seqsim_cmp);
		if (seq_shift_ci(x1, n1, x2, n2, 0.025, uc, &lo, &hi) == -1)
			continue;
		lim = 0.005 + 0.03 * gsl_rng_uniform(r);
		within = seq_shift_within(x1, n1, x2, n2, 0.025, lim, uc);
		if (within != (lo > -lim && hi < lim))
			disagree++;
		if (t % 3 != 0) {
			ncov++;
			cover += lo <= shift && shift <= hi;
		}
	}
	tap_ok(disagree == 0, "counting agrees with the sorted differences "
	    "(%zu disagree)", disagree);
	tap_ok((double)cover / (double)ncov >= 0.94, "95%% HL interval "
	    "covers the shift in %zu of %zu", cover, ncov);
	/*
	 * The interval a "different" row prints (verdict.c): at its
	 * look's boundary b, the (1 - b) interval excludes 0 exactly when
	 * the U test's p <= b (no ties), at the rule's two boundaries.
	 */
	for (t = 0, disagree = 0, ncov = 0; t < 4000; t++) {
		double	b = t % 2 ? 0.001 : 0.045, p;
		char	*why = NULL;

		n1 = 7 + gsl_rng_uniform_int(r, 24);
		n2 = 7 + gsl_rng_uniform_int(r, 24);
		shift = 0.06 * gsl_rng_uniform(r);
		for (i = 0; i < n1; i++)
			x1[i] = 100 * exp(0.02 * gsl_ran_gaussian(r, 1));
		for (i = 0; i < n2; i++)
			x2[i] = 100 * exp(shift + 0.02 *
			    gsl_ran_gaussian(r, 1));
		qsort(x1, n1, sizeof(double), seqsim_cmp);
		qsort(x2, n2, sizeof(double), seqsim_cmp);
		if (utest_mann_whitney(x1, n1, x2, n2, uc, &p, &why) == -1) {
			free(why);
			continue;
		}
		if (seq_shift_ci(x1, n1, x2, n2, b / 2, uc, &lo, &hi) == -1)
			continue;
		ncov += p <= b;
		if ((p <= b) != (lo > 0 || hi < 0))
			disagree++;
	}
	tap_ok(disagree == 0 && ncov > 500, "a difference's interval at its "
	    "boundary excludes 0 exactly when p <= the boundary (%zu "
	    "disagree, %zu different)", disagree, ncov);
	x1[0] = -1;
	tap_ok(seq_shift_ci(x1, 5, x2, 5, 0.025, uc, &lo, &hi) == -1 &&
	    !seq_shift_within(x1, 5, x2, 5, 0.025, 1, uc),
	    "a value <= 0 has no log-scale interval");
	gsl_rng_free(r);
	bm_ucache_free(uc);
}

static void
fill(double *x, size_t n, double base, double step)
{
	size_t	i;

	for (i = 0; i < n; i++)
		x[i] = base + step * (double)i;
}

static void
test_decide(void)
{
	struct seq_design	d, margin, nohalf;
	struct seq_result	res, res2;
	struct bm_ucache	*uc = bm_ucache_new();
	double			 a[40], b[40], lo, hi, sh, step;
	double			 lo95 = 0, hi95 = 0;
	int			 found = 0, ci;

	seq_design_init(&d, 0.05, 0.02, 30, NULL, 0, NULL);
	/* +50%, 8+8, separated: p = 0.00016 <= 0.001. */
	fill(a, 8, 100, 0.1);
	fill(b, 8, 150, 0.1);
	seq_decide(&d, seq_look_at(&d, 8), a, 8, b, 8, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "different",
	    "+50%% at 8 rounds: different (p=%.5f)", res.p);
	/* The same at 6+6: min p 0.0022 > 0.001, and not equivalent. */
	seq_decide(&d, 0, a, 6, b, 6, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "undecided",
	    "+50%% at 6 rounds: undecided (p=%.4f)", res.p);
	/* ...but at the last look p <= 0.043 is enough. */
	seq_decide(&d, 7, a, 6, b, 6, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "different",
	    "+50%% at the last look: different");
	/* Interleaved within +-0.1%: equivalent within 2%. */
	fill(a, 8, 100, 0.02);
	fill(b, 8, 100.01, 0.02);
	seq_decide(&d, 1, a, 8, b, 8, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "equivalent",
	    "flat within 0.2%% at 8: equivalent (p=%.3f)", res.p);
	/* Interleaved but spread +-10%: undecided. */
	fill(a, 8, 90, 2.5);
	fill(b, 8, 91, 2.5);
	seq_decide(&d, 1, a, 8, b, 8, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "undecided",
	    "flat but 20%% spread at 8: undecided");
	/* A tiny real shift, significant at 0.05 but not 0.001: the table
	 * prints a percentage, so never "equivalent". */
	fill(a, 8, 100, 0.02);
	fill(b, 8, 100.09, 0.02);
	seq_decide(&d, 1, a, 8, b, 8, uc, &res);
	tap_ok(res.p <= 0.05 && res.p > 0.001 &&
	    res.verdict == SEQ_UNDECIDED, "p=%.4f in (0.001, 0.05]: undecided",
	    res.p);
	/* The projection: p = 0.05 at half of max-rounds' information
	 * projects to z = 1.96 / sqrt(0.5), p = 0.0056; from t = 1 on, p
	 * itself. */
	tap_ok(d.equiv_p == d.alpha && d.equiv_project,
	    "equivalence: p > alpha and the projection, by default");
	tap_ok(fabs(seq_projected_p(&d, 0.05, 15, 15) /
	    (2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(0.025) /
	    sqrt(0.5))) - 1) < 1e-9 &&
	    fabs(seq_projected_p(&d, 0.05, 15, 15) - 0.00557) < 1e-5,
	    "p 0.05 at 15 of 30 rounds projects to %.3g",
	    seq_projected_p(&d, 0.05, 15, 15));
	tap_ok(seq_projected_p(&d, 0.3, 30, 30) == 0.3 &&
	    seq_projected_p(&d, 0.3, 40, 40) == 0.3 &&
	    seq_projected_p(&d, 1, 6, 6) == 1,
	    "at max-rounds and beyond, and at p 1: p itself");
	/* Unequal arms (a failed sample): 2 n1 n2 / (n1 + n2) rounds'
	 * worth, 7.5 for 10+6, as 15+15 is 15. */
	tap_ok(fabs(seq_projected_p(&d, 0.2, 10, 6) - 2 *
	    gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(0.1) /
	    sqrt(7.5 / 30))) < 1e-12, "10+6 counts as 7.5 rounds");
	/* A shift with p in (alpha, 0.2] at 8 of 30 rounds: within 2%, so
	 * the margin alone stops it, but its trend would be significant at
	 * 30 rounds (projected p < alpha): undecided. At the last look
	 * (a run whose failures were not made up) nothing is left to
	 * project to: the same samples are equivalent. */
	for (sh = 0.01; sh < 0.1; sh += 0.005) {
		fill(a, 8, 100, 0.02);
		fill(b, 8, 100 + sh, 0.02);
		seq_decide(&d, 1, a, 8, b, 8, uc, &res);
		if (res.p > 0.05 && res.p <= 0.2)
			break;
	}
	margin = d;
	seq_design_margin(&margin);
	seq_decide(&margin, 1, a, 8, b, 8, uc, &res2);
	tap_ok(res.p > 0.05 && res.p <= 0.2 && res.verdict ==
	    SEQ_UNDECIDED && res2.verdict == SEQ_EQUIVALENT &&
	    seq_projected_p(&d, res.p, 8, 8) <= 0.05, "p=%.3g at 8 of 30 "
	    "(projected %.3g): undecided, equivalent by the margin alone",
	    res.p, seq_projected_p(&d, res.p, 8, 8));
	seq_decide(&d, (int)d.nlooks - 1, a, 8, b, 8, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "equivalent",
	    "the same samples at the last look: equivalent");
	/* A stricter p bound still works (bench/sequential -q). */
	margin.equiv_p = 0.2;
	seq_decide(&margin, 1, a, 8, b, 8, uc, &res2);
	tap_str_eq(seq_verdict_name(res2.verdict), "undecided",
	    "the margin at p > 0.2: undecided");
	/* The half margin: at the last look (no projection), 20+20 values
	 * whose shift's 99% interval lies within +-2% but whose 95% one
	 * reaches past +-1% (a change of half the effect is not ruled out):
	 * undecided, and equivalent without the half margin. */
	nohalf = d;
	nohalf.half_beta = 0;
	tap_ok(d.half_beta == 0.025, "the half margin's interval is 95%%, "
	    "by default");
	for (step = 0.05; step < 0.3 && !found; step += 0.01)
		for (sh = 0; sh < 2 && !found; sh += 0.05) {
			fill(a, 20, 100, step);
			fill(b, 20, 100 + sh, step);
			seq_decide(&d, (int)d.nlooks - 1, a, 20, b, 20, uc,
			    &res);
			seq_decide(&nohalf, (int)d.nlooks - 1, a, 20, b, 20,
			    uc, &res2);
			if (res2.verdict == SEQ_EQUIVALENT &&
			    res.verdict != SEQ_EQUIVALENT)
				found = 1;
		}
	tap_ok(found && res.verdict == SEQ_UNDECIDED && res.p > 0.05,
	    "20+20 values %g apart, shifted %g: undecided (p=%.3g), "
	    "equivalent without the half margin", step - 0.01, sh - 0.05,
	    res.p);
	ci = seq_shift_ci(a, 20, b, 20, 0.005, uc, &lo, &hi) == 0 &&
	    seq_shift_ci(a, 20, b, 20, 0.025, uc, &lo95, &hi95) == 0;
	tap_ok(ci && lo > -log1p(0.02) && hi < log1p(0.02) &&
	    (lo95 <= -log1p(0.01) || hi95 >= log1p(0.01)),
	    "  its 99%% interval [%+.2f%%, %+.2f%%], its 95%% one "
	    "[%+.2f%%, %+.2f%%]", 100 * lo, 100 * hi, 100 * lo95,
	    100 * hi95);
	/* The same spread not shifted: the 95% interval fits. */
	fill(b, 20, 100, step - 0.01);
	seq_decide(&d, (int)d.nlooks - 1, a, 20, b, 20, uc, &res);
	ci = seq_shift_ci(a, 20, b, 20, 0.025, uc, &lo95, &hi95) == 0;
	tap_ok(ci && res.verdict == SEQ_EQUIVALENT && lo95 > -log1p(0.01) &&
	    hi95 < log1p(0.01), "  the same values not shifted: equivalent, "
	    "95%% interval [%+.2f%%, %+.2f%%]", 100 * lo95, 100 * hi95);
	/* All equal: p 1, the interval {0}. */
	fill(a, 8, 5, 0);
	fill(b, 8, 5, 0);
	seq_decide(&d, 1, a, 8, b, 8, uc, &res);
	tap_ok(res.p == 1 && res.verdict == SEQ_EQUIVALENT,
	    "all equal: equivalent");
	/* All 0 (Go's `0 allocs/op`): no logarithm, the same interval. */
	fill(a, 6, 0, 0);
	fill(b, 6, 0, 0);
	seq_decide(&d, 0, a, 6, b, 6, uc, &res);
	tap_ok(res.p == 1 && res.verdict == SEQ_EQUIVALENT,
	    "all 0 at the first look: equivalent");
	tap_ok(seq_shift_ci(a, 6, b, 6, 0.005, uc, &lo, &hi) == 0 &&
	    lo == 0 && hi == 0, "all 0: the shift's interval is {0}");
	/* ...but not where the interval is unbounded (2+2 at 99%). */
	tap_ok(!seq_shift_within(a, 2, b, 2, 0.005, 0.02, uc) &&
	    seq_shift_ci(a, 2, b, 2, 0.005, uc, &lo, &hi) == -1,
	    "all 0 at 2+2: no interval at 99%%, not within");
	/* A 0 in one arm and a 1 in the other is no constant. */
	b[5] = 1;
	seq_decide(&d, 0, a, 6, b, 6, uc, &res);
	tap_str_eq(seq_verdict_name(res.verdict), "undecided",
	    "zeros against zeros and a 1: undecided");
	bm_ucache_free(uc);
}

static void
test_simulation(void)
{
	struct seq_design	 d, peek, margin, proj;
	struct seqsim_stats	 st;
	double			 fpr, up, sp, fp, pp;
	int			 m;

	seq_design_init(&d, 0.05, 0.02, 30, NULL, 0, NULL);
	for (m = 0; m < SIM_NMODELS; m++) {
		seqsim_run(&d, m, SIGMA, 0, AA_PATHS, 1000 + (unsigned)m, &st);
		fpr = (double)st.seq_diff / (double)st.paths;
		up = seqsim_upper(st.seq_diff, st.paths, 1.645);
		tap_ok(up <= 0.05, "%s: A/A false positives %.4f (upper 95%% "
		    "%.4f) of %lu paths, fixed design %.4f, mean rounds %.1f",
		    seqsim_model_names[m], fpr, up, st.paths,
		    (double)st.fixed_diff / (double)st.paths,
		    st.rounds_sum / (double)st.paths);
		seqsim_run(&d, m, SIGMA, d.effect, POWER_PATHS,
		    2000 + (unsigned)m, &st);
		sp = (double)st.seq_diff / (double)st.paths;
		fp = (double)st.fixed_diff / (double)st.paths;
		tap_ok(sp >= fp - 0.05, "%s: power at +2%% %.3f, fixed design "
		    "at 30 rounds %.3f (rounds: mean %.1f, p95 %d)",
		    seqsim_model_names[m], sp, fp,
		    st.rounds_sum / (double)st.paths,
		    seqsim_rounds_quantile(&st, 0.95));
	}
	/* The check can fail: peeking at p <= 0.05 at every look. */
	peek = d;
	peek.interim_p = peek.final_p = 0.05;
	seqsim_run(&peek, SIM_GAUSS, SIGMA, 0, POWER_PATHS, 3000, &st);
	tap_ok(seqsim_upper(st.seq_diff, st.paths, 1.645) > 0.05 &&
	    (double)st.seq_diff / (double)st.paths > 0.08,
	    "naive peeking at 0.05: false positives %.4f (the proof fails)",
	    (double)st.seq_diff / (double)st.paths);
	/* The projection's point: at max-rounds 40 and MAD/median
	 * effect / 4 the fixed design finds +1% (half the effect) almost
	 * always; the margin alone stops it as equivalent in about a third
	 * of paths, the projection in under a tenth, and with the half
	 * margin too (the default) in under 5%, while a null row still
	 * stops well before max-rounds. */
	seq_design_init(&d, 0.05, 0.02, 40, NULL, 0, NULL);
	margin = d;
	seq_design_margin(&margin);
	proj = d;
	proj.half_beta = 0;
	seqsim_run(&d, SIM_GAUSS, 0.0074, 0.01, POWER_PATHS, 4000, &st);
	sp = (double)st.seq_diff / (double)st.paths;
	fp = (double)st.fixed_diff / (double)st.paths;
	seqsim_run(&proj, SIM_GAUSS, 0.0074, 0.01, POWER_PATHS, 4000, &st);
	pp = (double)st.seq_diff / (double)st.paths;
	seqsim_run(&margin, SIM_GAUSS, 0.0074, 0.01, POWER_PATHS, 4000, &st);
	tap_ok(sp >= 0.95 && pp >= 0.88 && fp >= 0.99 && (double)st.seq_diff /
	    (double)st.paths <= 0.75, "+1%% at sigma 0.74%%, max-rounds 40: "
	    "found %.3f by default, %.3f with the projection alone, %.3f by "
	    "the margin alone, fixed %.3f", sp, pp,
	    (double)st.seq_diff / (double)st.paths, fp);
	seqsim_run(&d, SIM_GAUSS, 0.0074, 0, POWER_PATHS, 4100, &st);
	tap_ok(st.rounds_sum / (double)st.paths <= 0.55 * 40,
	    "A/A at sigma 0.74%%: mean rounds %.1f of 40 by default",
	    st.rounds_sum / (double)st.paths);
	/* The half margin's point: at MAD/median effect / 2 the projection
	 * alone stops +1% as equivalent in over a quarter of paths (its
	 * estimate dips near 0 at an early look, where the trend is mostly
	 * noise), the half margin in under a tenth. */
	seqsim_run(&d, SIM_GAUSS, 0.0148, 0.01, POWER_PATHS, 4200, &st);
	sp = (double)st.seq_equiv / (double)st.paths;
	seqsim_run(&proj, SIM_GAUSS, 0.0148, 0.01, POWER_PATHS, 4200, &st);
	pp = (double)st.seq_equiv / (double)st.paths;
	tap_ok(sp <= 0.1 && pp >= 0.25, "+1%% at sigma 1.48%%, max-rounds "
	    "40: equivalent in %.3f of paths by default, %.3f with the "
	    "projection alone", sp, pp);
}

int
main(void)
{
	test_design();
	test_u_quantiles();
	test_shift_ci();
	test_decide();
	test_simulation();
	return tap_done();
}
