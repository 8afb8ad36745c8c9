/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The group-sequential stopping rule of a benchmark row (see sequential.h
 * for the design and why it keeps the false-positive rate).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"
#include "stats/ranktests.h"
#include "stats/utest.h"
#include "stats/sequential.h"

/* The default schedule of interim looks (good rounds). */
static const int seq_default_looks[] = {
	4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256,
	320, 384, 512, 640, 768, 1024
};

int
seq_design_init(struct seq_design *d, double alpha, double effect,
    int max_rounds, const int *looks, size_t nlooks, char **cause)
{
	size_t	i;

	memset(d, 0, sizeof(*d));
	if (!(alpha > 0 && alpha < 1))
		return set_cause(cause, "alpha %g is not in (0, 1)", alpha);
	if (!(effect > 0) || !isfinite(effect))
		return set_cause(cause, "effect %g is not > 0", effect);
	if (max_rounds < 2)
		return set_cause(cause, "max-rounds %d is less than 2",
		    max_rounds);
	d->alpha = alpha;
	d->effect = effect;
	d->interim_p = SEQ_INTERIM_P;
	d->equiv_p = alpha;
	d->equiv_project = 0;
	d->half_beta = 0;
	d->futility_cp = SEQ_FUTILITY_CP;
	d->max_rounds = max_rounds;
	if (looks == NULL || nlooks == 0) {
		looks = seq_default_looks;
		nlooks = sizeof(seq_default_looks) /
		    sizeof(seq_default_looks[0]);
		for (i = 0; i < nlooks && looks[i] < max_rounds; i++)
			d->looks[d->nlooks++] = looks[i];
	} else {
		for (i = 0; i < nlooks; i++) {
			if (looks[i] < 1 || (i > 0 && looks[i] <= looks[i - 1]))
				return set_cause(cause, "looks must be "
				    "ascending and >= 1 (%d after %d)",
				    looks[i], i > 0 ? looks[i - 1] : 0);
			if (looks[i] > max_rounds)
				return set_cause(cause, "look %d is beyond "
				    "max-rounds %d", looks[i], max_rounds);
			if (looks[i] == max_rounds)
				break;
			if (d->nlooks + 1 >= SEQ_MAX_LOOKS)
				return set_cause(cause, "more than %d looks",
				    SEQ_MAX_LOOKS);
			d->looks[d->nlooks++] = looks[i];
		}
	}
	d->looks[d->nlooks++] = max_rounds;
	/*
	 * The equivalence interval's one-sided miss per look: the looks'
	 * intervals are strongly correlated, so a true change of `effect`
	 * crosses into the margin at some look far less often than the sum
	 * of their misses; spread over the looks at 3.5 times Bonferroni's
	 * rate (0.0152 a look at 9 looks: above 1/70, so that the arms'
	 * interval is bounded at 4+4 rounds), it keeps P(equivalent |
	 * change = effect) near 2-4% (tests/unit/t-sequential, bench/
	 * sequential) at 8 to 18 looks.
	 */
	d->equiv_beta = SEQ_EQUIV_SPEND / (1 + (double)(d->nlooks - 1) /
	    3.5);
	/* Bonferroni over the looks: what the interim ones spend. */
	d->final_p = alpha - (double)(d->nlooks - 1) * d->interim_p;
	if (!(d->final_p >= d->interim_p))
		return set_cause(cause, "%zu interim looks at p <= %g leave "
		    "nothing of alpha %g for the last one", d->nlooks - 1,
		    d->interim_p, alpha);
	return 0;
}

int
seq_look_at(const struct seq_design *d, int n)
{
	size_t	k;

	for (k = 0; k < d->nlooks; k++)
		if (d->looks[k] == n)
			return (int)k;
	return -1;
}

double
seq_boundary(const struct seq_design *d, int k)
{
	return (size_t)k + 1 >= d->nlooks ? d->final_p : d->interim_p;
}

static double *
seq_logs(const double *x, size_t n)
{
	double	*l;
	size_t	 i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return NULL;
	l = xcalloc(n ? n : 1, sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = log(x[i]);
	return l;
}

/*
 * Every difference is 0, so the shift's interval is {0} wherever it is
 * bounded, on any scale. Without this a row of zeros, which has no
 * logarithm, would stay undecided.
 */
int
seq_all_equal(const double *x1, size_t n1, const double *x2, size_t n2)
{
	return n1 > 0 && n2 > 0 && x1[0] == x1[n1 - 1] &&
	    x2[0] == x2[n2 - 1] && x1[0] == x2[0];
}

/* The (beta, lim) pairs seq_within takes: the margin and the half margin. */
#define SEQ_WITHIN_MAX	2

/*
 * Whether the shift's interval at each of k (beta, lim) pairs lies inside
 * (-lim, lim): the logarithms are taken once for all of them. More than
 * SEQ_WITHIN_MAX pairs: not within.
 */
static int
seq_within(const double *x1, size_t n1, const double *x2, size_t n2,
    const double *beta, const double *lim, size_t k,
    struct bm_ucache *cache)
{
	double	*a, *b;
	long	 c[SEQ_WITHIN_MAX];
	size_t	 i, j, m, below, above;
	int	 ok = 1;

	if (n1 == 0 || n2 == 0 || k > SEQ_WITHIN_MAX)
		return 0;
	for (m = 0; m < k; m++)
		if ((c[m] = utest_u_critical(n1, n2, beta[m], cache)) < 0)
			return 0;
	if (seq_all_equal(x1, n1, x2, n2)) {
		for (m = 0; m < k; m++)
			ok = ok && lim[m] > 0;
		return ok;
	}
	if ((a = seq_logs(x1, n1)) == NULL)
		return 0;
	if ((b = seq_logs(x2, n2)) == NULL) {
		free(a);
		return 0;
	}
	/*
	 * d(c+1) > -lim iff at most c differences b_j - a_i are <= -lim,
	 * i.e. a_i >= b_j + lim; d(n1 n2 - c) < lim iff at most c are
	 * >= lim, i.e. a_i <= b_j - lim. Both thresholds rise with j.
	 */
	for (m = 0; m < k && ok; m++) {
		below = above = 0;
		for (i = 0, j = 0; j < n2; j++) {
			while (i < n1 && a[i] < b[j] + lim[m])
				i++;
			below += n1 - i;
		}
		for (i = 0, j = 0; j < n2; j++) {
			while (i < n1 && a[i] <= b[j] - lim[m])
				i++;
			above += i;
		}
		ok = below <= (size_t)c[m] && above <= (size_t)c[m];
	}
	free(a);
	free(b);
	return ok;
}

int
seq_shift_within(const double *x1, size_t n1, const double *x2, size_t n2,
    double beta, double lim, struct bm_ucache *cache)
{
	return seq_within(x1, n1, x2, n2, &beta, &lim, 1, cache);
}

int
seq_shift_ci(const double *x1, size_t n1, const double *x2, size_t n2,
    double beta, struct bm_ucache *cache, double *lo, double *hi)
{
	double	*a, *b, *d;
	long	 c;
	size_t	 i, j, m;

	*lo = *hi = NAN;
	if (n1 == 0 || n2 == 0 ||
	    (c = utest_u_critical(n1, n2, beta, cache)) < 0)
		return -1;
	if (seq_all_equal(x1, n1, x2, n2)) {
		*lo = *hi = 0;
		return 0;
	}
	if ((a = seq_logs(x1, n1)) == NULL)
		return -1;
	if ((b = seq_logs(x2, n2)) == NULL) {
		free(a);
		return -1;
	}
	m = n1 * n2;
	d = xcalloc(m, sizeof(*d));
	for (i = 0; i < n1; i++)
		for (j = 0; j < n2; j++)
			d[i * n2 + j] = b[j] - a[i];
	sort_doubles(d, m);
	*lo = d[c];
	*hi = d[m - 1 - (size_t)c];
	free(d);
	free(a);
	free(b);
	return 0;
}

double
seq_projected_p(const struct seq_design *d, double p, size_t n1, size_t n2)
{
	double	t;

	if (n1 == 0 || n2 == 0 || p >= 1)
		return p;
	t = 2.0 * (double)n1 * (double)n2 / ((double)(n1 + n2) *
	    (double)d->max_rounds);
	if (t >= 1)
		return p;
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(p / 2) /
	    sqrt(t));
}

/* The U test's p as `stat` prints it; 1 when every value is equal. */
static double
seq_p_u(const double *x1, size_t n1, const double *x2, size_t n2,
    struct bm_ucache *cache)
{
	char	*why = NULL;
	double	 p;

	if (utest_mann_whitney(x1, n1, x2, n2, cache, &p, &why) == -1) {
		free(why);
		p = 1;
	}
	return p;
}

/* The median of v[0..n) (sorted in place). */
static double
seq_median(double *v, size_t n)
{
	sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The position effect of paired rounds: half the difference of the median
 * log ratio of the rounds the baseline ran first and of those it ran
 * second (a carry-over that favours whoever runs second shows as a
 * difference of twice its size). NAN when either kind has no round.
 */
static double
seq_position_effect(const struct seq_pairs *pr)
{
	double	*a, *b, e;
	size_t	 i, na = 0, nb = 0;

	if (pr->first == NULL)
		return NAN;
	a = xcalloc(pr->n + 1, sizeof(*a));
	b = xcalloc(pr->n + 1, sizeof(*b));
	for (i = 0; i < pr->n; i++) {
		if (pr->first[i] == 1)
			a[na++] = pr->d[i];
		else if (pr->first[i] == 0)
			b[nb++] = pr->d[i];
	}
	e = na > 0 && nb > 0 ? (seq_median(a, na) - seq_median(b, nb)) / 2 :
	    NAN;
	free(a);
	free(b);
	return e;
}

/*
 * Whether a row that can never be equivalent (its values' step is as
 * coarse as the margin) should stop undecided at this interim look: its
 * predictive power, the chance that its p would be at most the last
 * look's boundary by max-rounds, averaged over what the rounds so far say
 * of the change (flat prior), is below futility_cp. With n of N rounds
 * (t = n / N) and z the normal score of p, PP = Phi((z - z_c sqrt(t)) /
 * sqrt(1 - t)) (Spiegelhalter, Freedman and Blackburn 1986; Jennison and
 * Turnbull 2000, ch. 10). Unlike the conditional power under the trend
 * alone, it does not take an early look's noisy trend at its word: no
 * row stops at 6 of 30 rounds. Stopping undecided can only lower
 * P(different) and never says equivalent: both rates of the contract
 * are kept, whatever the data.
 */
static int
seq_futile(const struct seq_design *d, int last, double p, size_t n)
{
	double	t, z, zc, pp;

	if (last || !(d->futility_cp > 0) || n == 0 || !(p > 0) ||
	    !(p <= 1))
		return 0;
	t = (double)n / (double)d->max_rounds;
	if (t >= 1)
		return 0;
	z = p >= 1 ? 0 : gsl_cdf_ugaussian_Qinv(p / 2);
	zc = gsl_cdf_ugaussian_Qinv(d->final_p / 2);
	pp = gsl_cdf_ugaussian_P((z - zc * sqrt(t)) / sqrt(1 - t));
	return pp < d->futility_cp;
}

/*
 * Equivalence of paired rounds: Tukey's interval of the median per-round
 * log ratio, or the Hodges-Lehmann interval of the arms' shift, each at a
 * one-sided miss of equiv_beta / 2, inside the margin less the
 * resolution (and the U test's p above equiv_p for the second). By the
 * union bound the look's miss is at most equiv_beta, as for one
 * interval. The pairs' interval is the one drift does not widen; the
 * arms' the one a single outlying round does not block (it moves n of
 * the n(n+1)/2 Walsh averages, but n of the n^2 differences, fewer than
 * the interval's count from 8 rounds on). Below 7 pairs Tukey's interval
 * is unbounded at equiv_beta / 2 (2^-n above it), so the arms' gets all
 * of equiv_beta there. The level taken is left in out->equiv_beta.
 */
static int
seq_paired_equivalent(const struct seq_design *d, const double *sorted,
    size_t n, const double *x1, size_t n1, const double *x2, size_t n2,
    struct bm_ucache *cache, struct seq_result *out)
{
	double	lim = log1p(d->effect) - out->resolution;
	double	bp = d->equiv_beta / 2, bu = d->equiv_beta / 2;

	if (!(lim > 0))
		return 0;
	if (ldexp(1, -(int)fmin((double)n, 1000)) > bp) {
		bp = 0;
		bu = d->equiv_beta;
	}
	if (d->half_beta > 0) {
		/* equivalence = projected: the rule before the contract,
		 * the pairs' interval alone, at both margins. */
		out->equiv_beta = d->equiv_beta;
		return signrank_within(sorted, n, d->equiv_beta, lim) &&
		    signrank_within(sorted, n, d->half_beta,
		    log1p(d->effect / 2) - out->resolution);
	}
	out->equiv_beta = bp;
	if (bp > 0 && signrank_within(sorted, n, bp, lim))
		return 1;
	if (isnan(out->p_u))
		out->p_u = seq_p_u(x1, n1, x2, n2, cache);
	if (!(out->p_u > d->equiv_p) ||
	    !seq_within(x1, n1, x2, n2, &bu, &lim, 1, cache))
		return 0;
	out->equiv_beta = bu;
	out->test = SEQ_TEST_U_BM;
	out->p = out->p_u;
	out->p_alt = brunner_munzel_p(x1, n1, x2, n2);
	return 1;
}

void
seq_decide(const struct seq_design *d, int k, const double *x1, size_t n1,
    const double *x2, size_t n2, const struct seq_pairs *pairs,
    struct bm_ucache *cache, struct seq_result *out)
{
	seq_decide_scaled(d, k, x1, n1, x2, n2, pairs, 1, cache, out);
}

void
seq_decide_scaled(const struct seq_design *d, int k, const double *x1,
    size_t n1, const double *x2, size_t n2, const struct seq_pairs *pairs,
    double scale, struct bm_ucache *cache, struct seq_result *out)
{
	double	 beta[2], lim[2], *ds, pe, bu;
	int	 last = (size_t)k + 1 >= d->nlooks, single = 0, proj;

	memset(out, 0, sizeof(*out));
	out->verdict = SEQ_UNDECIDED;
	out->boundary = seq_boundary(d, k);
	out->position = NAN;
	out->p_alt = NAN;
	out->p_u = NAN;
	out->p = 1;
	out->test = SEQ_TEST_U_BM;
	out->equiv_beta = d->equiv_beta;
	/* A row of zeros (`0 allocs/op`): no relative change exists. */
	if (seq_all_equal(x1, n1, x2, n2) && x1[0] == 0) {
		out->p_u = 1;
		out->test = SEQ_TEST_ALL_EQUAL;
		out->verdict = SEQ_EQUIVALENT;
		return;
	}
	out->resolution = resolution_log_scaled(x1, n1, x2, n2, scale,
	    &single);
	/*
	 * One value seen: its digits are all that tell the unit's step, and
	 * a step hidden behind them (whole ticks of 33 printed as 100)
	 * would hide a change of any size: ask them to be far finer.
	 */
	if (single && out->resolution > log1p(d->effect) / 4)
		out->resolution = HUGE_VAL;
	out->coarse = !(out->resolution < log1p(d->effect));
	if (pairs != NULL && pairs->n >= 2) {
		pe = seq_position_effect(pairs);
		out->position = pe;
		if (!(fabs(pe) > log1p(d->effect))) {
			out->test = SEQ_TEST_SIGNED_RANK;
			out->p = out->p_alt = signrank_p(pairs->d, pairs->n);
			/*
			 * At an interim look the pairs and the unpaired
			 * tests share the look's boundary (their union at
			 * most the whole: the proof's sum is unchanged).
			 * The signed-rank p of n pairs is at least 2^(1-n):
			 * where that is above half the boundary (0.0005:
			 * before 12 pairs) the pairs cannot reject at
			 * their half, so they get nothing and the U and
			 * Brunner-Munzel tests the whole (the U test's p
			 * at 8+8 is 0.00016: a large change stops at 8);
			 * from there on each gets half.
			 */
			bu = last ? 0 : ldexp(1, 1 - (int)fmin(pairs->n,
			    1000)) > out->boundary / 2 ? out->boundary :
			    out->boundary / 2;
			if (out->p <= out->boundary - bu) {
				out->verdict = SEQ_DIFFERENT;
				goto paired_out;
			}
			if (!last) {
				out->p_u = seq_p_u(x1, n1, x2, n2, cache);
				if (out->p_u <= bu &&
				    brunner_munzel_p(x1, n1, x2, n2) <= bu) {
					out->verdict = SEQ_DIFFERENT;
					out->test = SEQ_TEST_U_BM;
					out->p_alt = brunner_munzel_p(x1, n1,
					    x2, n2);
					out->p = fmax(out->p_u, out->p_alt);
					return;
				}
			}
			if (out->coarse || out->p <= d->equiv_p)
				goto paired_out;
			proj = !d->equiv_project || last ||
			    seq_projected_p(d, out->p, pairs->n, pairs->n) >
			    d->alpha;
			if (!proj)
				goto paired_out;
			ds = xcalloc(pairs->n, sizeof(*ds));
			memcpy(ds, pairs->d, pairs->n * sizeof(*ds));
			sort_doubles(ds, pairs->n);
			if (seq_paired_equivalent(d, ds, pairs->n, x1, n1, x2,
			    n2, cache, out))
				out->verdict = SEQ_EQUIVALENT;
			free(ds);
paired_out:
			if (out->verdict == SEQ_UNDECIDED && out->coarse)
				out->futile = seq_futile(d, last, out->p,
				    pairs->n);
			/* What `stat` prints, for the verdict line: only
			 * where the row stops (the U test is the costly
			 * part of a look). */
			if ((out->verdict != SEQ_UNDECIDED || last) &&
			    isnan(out->p_u))
				out->p_u = seq_p_u(x1, n1, x2, n2, cache);
			return;
		}
		out->position_large = 1;
	}
	/*
	 * Unpaired: different when the U test and Brunner-Munzel both say
	 * so. Under exchangeable arms the U test is exact, so the pair is
	 * no more often wrong than it; where the spreads differ the U test
	 * is not, and Brunner-Munzel holds the level.
	 */
	out->p_u = seq_p_u(x1, n1, x2, n2, cache);
	out->p_alt = brunner_munzel_p(x1, n1, x2, n2);
	out->p = fmax(out->p_u, out->p_alt);
	if (out->p <= out->boundary) {
		out->verdict = SEQ_DIFFERENT;
		return;
	}
	if (out->coarse) {
		out->futile = seq_futile(d, last, out->p, n1 < n2 ? n1 : n2);
		return;
	}
	beta[0] = d->equiv_beta;
	lim[0] = log1p(d->effect) - out->resolution;
	beta[1] = d->half_beta;
	lim[1] = log1p(d->effect / 2) - out->resolution;
	if (out->p > d->equiv_p && (!d->equiv_project || last ||
	    seq_projected_p(d, out->p_u, n1, n2) > d->alpha) &&
	    lim[0] > 0 && (d->half_beta <= 0 || lim[1] > 0) &&
	    seq_within(x1, n1, x2, n2, beta, lim, d->half_beta > 0 ? 2 : 1,
	    cache))
		out->verdict = SEQ_EQUIVALENT;
}

void
seq_design_projected(struct seq_design *d)
{
	d->equiv_project = 1;
	d->half_beta = SEQ_HALF_BETA;
	d->futility_cp = 0;
}

const char *
seq_test_name(enum seq_test t)
{
	switch (t) {
	case SEQ_TEST_SIGNED_RANK:
		return "signed-rank";
	case SEQ_TEST_ALL_EQUAL:
		return "all-equal";
	case SEQ_TEST_U_BM:
		break;
	}
	return "U+Brunner-Munzel";
}

const char *
seq_verdict_name(enum seq_verdict v)
{
	switch (v) {
	case SEQ_DIFFERENT:
		return "different";
	case SEQ_EQUIVALENT:
		return "equivalent";
	case SEQ_UNDECIDED:
		break;
	}
	return "undecided";
}

enum seq_verdict
seq_verdict_parse(const char *name)
{
	if (name != NULL && strcmp(name, "different") == 0)
		return SEQ_DIFFERENT;
	if (name != NULL && strcmp(name, "equivalent") == 0)
		return SEQ_EQUIVALENT;
	return SEQ_UNDECIDED;
}

void
seq_reopen_step(struct seq_reopen *o, enum seq_verdict v, int look,
    int round)
{
	if (o->looked && o->last != SEQ_UNDECIDED && v != o->last) {
		o->reopened++;
		o->was = o->last;
		o->was_look = o->last_look;
		o->was_round = o->last_round;
		o->reopen_look = look;
		o->reopen_round = round;
	}
	o->looked = 1;
	o->last = v;
	o->last_look = look;
	o->last_round = round;
}

size_t
seq_reopen_note(const struct seq_reopen *o, char *buf, size_t len)
{
	char	times[32] = "";
	int	n;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (o->reopened <= 0)
		return 0;
	if (o->reopened > 1)
		snprintf(times, sizeof(times), " %d times, the last",
		    o->reopened);
	n = snprintf(buf, len, "reopened%s: %s at look %d (round %d), not at "
	    "look %d (round %d)", times, seq_verdict_name(o->was),
	    o->was_look + 1, o->was_round + 1, o->reopen_look + 1,
	    o->reopen_round + 1);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
