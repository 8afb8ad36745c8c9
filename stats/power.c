/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Noise, power, minimum detectable effect and rounds needed, by a smoothed
 * bootstrap of measured samples through the U test of benchmath (see
 * power.h for the method).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/power.h"
#include "stats/quantile.h"
#include "stats/strpool.h"
#include "stats/utest.h"

static double *
power_sorted_copy(const double *xs, size_t n)
{
	double	*s = xcalloc(n ? n : 1, sizeof(*s));

	memcpy(s, xs, n * sizeof(*s));
	sort_doubles(s, n);
	return s;
}

void
power_noise(const double *xs, size_t n, size_t n_at, double confidence,
    struct power_noise *out)
{
	struct quantile_ci	 ci;
	double			*s, *dev, lo, hi, a, b;
	size_t			 i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->n_at = n_at ? n_at : n;
	out->median = out->mad_rel = out->ci_half_rel = NAN;
	out->p10_rel = out->p90_rel = NAN;
	if (n == 0)
		return;
	s = power_sorted_copy(xs, n);
	out->median = stats_quantile_sorted(s, n, 0.5);
	if (out->median != 0) {
		out->p10_rel = fabs(1 - stats_quantile_sorted(s, n, 0.1) /
		    out->median);
		out->p90_rel = fabs(stats_quantile_sorted(s, n, 0.9) /
		    out->median - 1);
	}
	dev = xcalloc(n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(s[i] - out->median);
	sort_doubles(dev, n);
	if (out->median != 0)
		out->mad_rel = stats_quantile_sorted(dev, n, 0.5) /
		    fabs(out->median);
	free(dev);

	quantile_ci((int)out->n_at, 0.5, confidence, &ci);
	if (ci.lo_order < 1 || ci.hi_order > (int)out->n_at)
		out->ci_half_rel = INFINITY;
	else if (out->median != 0) {
		if (out->n_at == n) {
			lo = s[ci.lo_order - 1];
			hi = s[ci.hi_order - 1];
		} else {
			/* E[U(k)] = k / (n + 1) for the k-th of n. */
			lo = stats_quantile_sorted(s, n, (double)ci.lo_order /
			    ((double)out->n_at + 1));
			hi = stats_quantile_sorted(s, n, (double)ci.hi_order /
			    ((double)out->n_at + 1));
		}
		/* benchstat's "± x%": the larger side. */
		a = hi / out->median - 1;
		b = 1 - lo / out->median;
		out->ci_half_rel = a > b ? a : b;
	}
	free(s);
}

void
power_options_init(struct power_options *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->power = 0.8;
	o->reps = 400;
	o->seed = 1;
	o->max_effect = 10;
	o->max_n = 10000;
}

void
power_advice_options_init(struct power_options *o)
{
	power_options_init(o);
	o->spread_conf = POWER_ADVICE_SPREAD_CONF;
	o->max_n = POWER_ADVICE_MAX_N;
}

double
power_min_p(size_t n1, size_t n2)
{
	double	lc;

	if (n1 == 0 || n2 == 0)
		return 1;
	lc = lgamma((double)(n1 + n2) + 1) - lgamma((double)n1 + 1) -
	    lgamma((double)n2 + 1);
	return fmin(1, 2 * exp(-lc));
}

/* The smoothing of the bootstrap: centre, bandwidth and shrink factor. */
struct power_kernel {
	double	mean, h, shrink;
};

static void
power_kernel_init(const double *s /* sorted */, size_t n,
    struct power_kernel *k)
{
	double	sum = 0, ss = 0, sd, iqr, spread;
	size_t	i;

	for (i = 0; i < n; i++)
		sum += s[i];
	k->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i] - k->mean) * (s[i] - k->mean);
	sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	iqr = (stats_quantile_sorted(s, n, 0.75) -
	    stats_quantile_sorted(s, n, 0.25)) / 1.34;
	spread = iqr > 0 && iqr < sd ? iqr : sd;
	/* Silverman's rule of thumb. */
	k->h = 0.9 * spread * pow((double)n, -0.2);
	k->shrink = sd > 0 ? 1 / sqrt(1 + k->h * k->h / (sd * sd)) : 1;
}

static void
power_draw(gsl_rng *rng, const double *s, size_t n,
    const struct power_kernel *k, double scale, double *out, size_t m)
{
	size_t	i;
	double	x;

	for (i = 0; i < m; i++) {
		x = s[gsl_rng_uniform_int(rng, n)];
		if (k->h > 0)
			x = k->mean + (x - k->mean +
			    gsl_ran_gaussian_ziggurat(rng, k->h)) * k->shrink;
		out[i] = x * scale;
	}
	sort_doubles(out, m);
}

/* Whether the U test of replicate (a, b) rejects at alpha. */
static int
power_hit(const double *a, size_t na, const double *b, size_t nb,
    double alpha, struct bm_ucache *cache)
{
	double	 p;
	char	*why = NULL;

	if (utest_mann_whitney(a, na, b, nb, cache, &p, &why) == -1) {
		/* All equal: no difference to see. */
		free(why);
		return 0;
	}
	return p <= alpha;
}

static double
power_at_sorted(const double *s, size_t n, const struct power_kernel *k,
    size_t na, size_t nb, double effect, const struct power_options *o,
    struct bm_ucache *cache)
{
	gsl_rng		*rng;
	double		*a, *b;
	unsigned	 r, hits = 0;

	if (n == 0 || na == 0 || nb == 0 || o->reps == 0 ||
	    power_min_p(na, nb) > o->alpha)
		return 0;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)o->seed);
	a = xcalloc(na, sizeof(*a));
	b = xcalloc(nb, sizeof(*b));
	for (r = 0; r < o->reps; r++) {
		power_draw(rng, s, n, k, 1, a, na);
		power_draw(rng, s, n, k, 1 + effect, b, nb);
		hits += power_hit(a, na, b, nb, o->alpha, cache);
	}
	free(a);
	free(b);
	gsl_rng_free(rng);
	return (double)hits / (double)o->reps;
}

/*
 * power_at_sorted's replicates at one (na, nb), drawn once for a search
 * on the effect alone (power_mde): the draws do not depend on the effect
 * (the same seed, the same sequence), and multiplying the candidate's
 * sorted draws by 1 + effect > 0 keeps their order, so each estimate is
 * bit for bit power_at_sorted's without drawing or sorting again.
 */
struct power_reps {
	double		*a, *b, *scaled;	/* reps x na, reps x nb, nb */
	size_t		 na, nb;
	unsigned	 reps;
	unsigned char	*hit;	/* per U statistic, or NULL (below) */
	double		 hit_alpha;	/* the alpha it was made for */
};

/*
 * Without ties, utest_mann_whitney's p depends on na, nb and its U alone
 * (the exact distribution, or the normal one with no tie correction), so a
 * replicate with no tie is decided by counting its U (a merge of the two
 * sorted draws) and reading the decision the test itself gave, once per
 * U, on two samples with that U and no tie. Replicates with a tie take
 * the test. Up to POWER_UTAB values of U (16 x 16 draws: 257).
 */
#define POWER_UTAB	(1 << 16)

static void
power_utab(struct power_reps *d, double alpha, struct bm_ucache *cache)
{
	double	*x1, *x2;
	size_t	 na = d->na, nb = d->nb, u, rem, i;

	if (na == 0 || nb == 0 || na * nb >= POWER_UTAB)
		return;
	d->hit = xcalloc(na * nb + 1, 1);
	d->hit_alpha = alpha;
	x1 = xcalloc(na, sizeof(*x1));
	x2 = xcalloc(nb, sizeof(*x2));
	for (i = 0; i < nb; i++)
		x2[i] = (double)(i + 1);
	for (u = 0; u <= na * nb; u++) {
		/* x1[i] above c_i of x2's values, sum c_i = u, c rising. */
		for (rem = u, i = na; i-- > 0;) {
			size_t	c = rem < nb ? rem : nb;

			rem -= c;
			x1[i] = (double)c + 0.5 + (double)i * 1e-6;
		}
		d->hit[u] = (unsigned char)power_hit(x1, na, x2, nb, alpha,
		    cache);
	}
	free(x1);
	free(x2);
}

/* power_hit by the table: -1 when the replicate has a tie (or a NaN). */
static int
power_hit_utab(const struct power_reps *d, const double *a, const double *b)
{
	size_t	i, j = 0, u = 0;

	for (i = 1; i < d->na; i++)
		if (!(a[i - 1] < a[i]))
			return -1;
	for (j = 1; j < d->nb; j++)
		if (!(b[j - 1] < b[j]))
			return -1;
	for (i = 0, j = 0; i < d->na; i++) {
		while (j < d->nb && b[j] < a[i])
			j++;
		if (j < d->nb && !(a[i] < b[j]))
			return -1;
		u += j;
	}
	return d->hit[u];
}

static void
power_reps_draw(struct power_reps *d, const double *s, size_t n,
    const struct power_kernel *k, size_t na, size_t nb,
    const struct power_options *o)
{
	gsl_rng		*rng;
	unsigned	 r;

	d->na = na;
	d->nb = nb;
	d->reps = o->reps;
	d->a = xcalloc(na * o->reps + 1, sizeof(*d->a));
	d->b = xcalloc(nb * o->reps + 1, sizeof(*d->b));
	d->scaled = xcalloc(nb + 1, sizeof(*d->scaled));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)o->seed);
	for (r = 0; r < o->reps; r++) {
		power_draw(rng, s, n, k, 1, d->a + (size_t)r * na, na);
		power_draw(rng, s, n, k, 1, d->b + (size_t)r * nb, nb);
	}
	gsl_rng_free(rng);
	d->hit = NULL;
}

static double
power_reps_at(struct power_reps *d, double effect,
    const struct power_options *o, struct bm_ucache *cache)
{
	unsigned	r, hits = 0;
	size_t		i;
	int		h;

	if (d->na == 0 || d->nb == 0 || d->reps == 0 ||
	    power_min_p(d->na, d->nb) > o->alpha)
		return 0;
	if (d->hit != NULL && d->hit_alpha != o->alpha) {
		free(d->hit);
		d->hit = NULL;
	}
	if (d->hit == NULL)
		power_utab(d, o->alpha, cache);
	for (r = 0; r < d->reps; r++) {
		const double	*b = d->b + (size_t)r * d->nb;
		const double	*a = d->a + (size_t)r * d->na;

		for (i = 0; i < d->nb; i++)
			d->scaled[i] = b[i] * (1 + effect);
		if (d->hit == NULL || (h = power_hit_utab(d, a,
		    d->scaled)) < 0)
			h = power_hit(a, d->na, d->scaled, d->nb, o->alpha,
			    cache);
		hits += (unsigned)h;
	}
	return (double)hits / (double)d->reps;
}

static void
power_reps_free(struct power_reps *d)
{
	free(d->a);
	free(d->b);
	free(d->scaled);
	free(d->hit);
}

double
power_at(const double *xs, size_t n, size_t na, size_t nb, double effect,
    const struct power_options *o, struct bm_ucache *cache)
{
	struct power_kernel	 k;
	double			*s, pw;

	if (n == 0)
		return 0;
	s = power_sorted_copy(xs, n);
	power_kernel_init(s, n, &k);
	pw = power_at_sorted(s, n, &k, na, nb, effect, o, cache);
	free(s);
	return pw;
}

double
power_mde(const double *xs, size_t n, size_t na, size_t nb,
    const struct power_options *o, struct bm_ucache *cache)
{
	struct power_kernel	 k;
	struct power_reps	 d;
	double			*s, lo, hi, mid, mde = INFINITY;
	int			 i;

	if (n == 0 || power_min_p(na, nb) > o->alpha)
		return INFINITY;
	s = power_sorted_copy(xs, n);
	power_kernel_init(s, n, &k);
	power_reps_draw(&d, s, n, &k, na, nb, o);
	free(s);
	hi = o->max_effect;
	if (power_reps_at(&d, hi, o, cache) < o->power)
		goto out;
	/* Bisection on log(effect) between 1e-6 and the bound. */
	lo = 1e-6;
	if (power_reps_at(&d, lo, o, cache) >= o->power) {
		mde = lo;
		goto out;
	}
	for (i = 0; i < 60 && hi / lo > 1.005; i++) {
		mid = sqrt(lo * hi);
		if (power_reps_at(&d, mid, o, cache) >= o->power)
			hi = mid;
		else
			lo = mid;
	}
	mde = hi;
out:
	power_reps_free(&d);
	return mde;
}

double
power_spread_factor(size_t n, double conf)
{
	double	q;

	if (!(conf > 0 && conf < 1) || n < 3)
		return 1;
	q = gsl_cdf_chisq_Pinv(1 - conf, (double)(n - 1));
	if (!(q > 0) || !isfinite(q))
		return 1;
	return sqrt((double)(n - 1) / q);
}

size_t
power_rounds(const double *xs, size_t n, double effect, size_t hint,
    const struct power_options *o, struct bm_ucache *cache)
{
	struct power_kernel	 k;
	double			*s;
	size_t			 lo, hi, mid;

	if (n == 0)
		return 0;
	s = power_sorted_copy(xs, n);
	power_kernel_init(s, n, &k);
	/* The deviations from the centre, kernel included, scaled. */
	k.shrink *= power_spread_factor(n, o->spread_conf);
	/*
	 * Bracket [lo, hi] with power(lo) < target <= power(hi), from the
	 * hint (halving or doubling), then bisect.
	 */
	hi = hint >= 2 ? (hint > o->max_n ? o->max_n : hint) : 2;
	lo = 1;
	if (power_at_sorted(s, n, &k, hi, hi, effect, o, cache) >= o->power) {
		while (hi > 2) {
			mid = hi / 2;
			if (power_at_sorted(s, n, &k, mid, mid, effect, o,
			    cache) < o->power) {
				lo = mid;
				break;
			}
			hi = mid;
		}
	} else {
		for (;;) {
			lo = hi;
			if (hi >= o->max_n) {
				free(s);
				return 0;
			}
			hi = hi * 2 > o->max_n ? o->max_n : hi * 2;
			if (power_at_sorted(s, n, &k, hi, hi, effect, o,
			    cache) >= o->power)
				break;
		}
	}
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (power_at_sorted(s, n, &k, mid, mid, effect, o, cache) >=
		    o->power)
			hi = mid;
		else
			lo = mid;
	}
	free(s);
	return hi;
}

void
power_advise(const double *xs, size_t n, size_t na, size_t nb,
    double effect, const struct power_options *o, struct bm_ucache *cache,
    struct power_advice *out)
{
	size_t	hint = 0;

	out->mde = INFINITY;
	out->rounds = 0;
	if (n < 2)
		return;
	out->mde = power_mde(xs, n, na, nb, o, cache);
	if (!(effect > 0))
		return;
	/*
	 * The search starts near the answer; its result depends on where
	 * it starts (estimated power is not monotone in n to the last
	 * replicate), so every caller starts it from this one hint.
	 */
	if (isfinite(out->mde))
		hint = (size_t)((double)na * (out->mde / effect) *
		    (out->mde / effect));
	out->rounds = power_rounds(xs, n, effect, hint, o, cache);
}

size_t
power_group_medians(const int64_t *g, const double *x, size_t n,
    double *out)
{
	struct u64map	 id;	/* group -> its number + 1, first seen first */
	size_t		*num, *start, *fill, i, m = 0;
	double		*tmp;

	if (n == 0)
		return 0;
	memset(&id, 0, sizeof(id));
	num = xcalloc(n, sizeof(*num));
	for (i = 0; i < n; i++) {
		uintptr_t	k = (uintptr_t)u64map_get(&id, (uint64_t)g[i]);

		if (k == 0) {
			k = ++m;
			u64map_put(&id, (uint64_t)g[i], (void *)k);
		}
		num[i] = k - 1;
	}
	u64map_release(&id);
	/* The values by group (a counting sort), each group's median. */
	start = xcalloc(m + 1, sizeof(*start));
	fill = xcalloc(m + 1, sizeof(*fill));
	tmp = xcalloc(n, sizeof(*tmp));
	for (i = 0; i < n; i++)
		start[num[i] + 1]++;
	for (i = 0; i < m; i++) {
		start[i + 1] += start[i];
		fill[i] = start[i];
	}
	for (i = 0; i < n; i++)
		tmp[fill[num[i]]++] = x[i];
	for (i = 0; i < m; i++) {
		sort_doubles(tmp + start[i], start[i + 1] - start[i]);
		out[i] = stats_quantile_sorted(tmp + start[i],
		    start[i + 1] - start[i], 0.5);
	}
	free(num);
	free(start);
	free(fill);
	free(tmp);
	return m;
}

void
power_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "?");
	else if (isinf(v))
		snprintf(buf, len, "\xe2\x88\x9e");
	else if (v < 0.0001)
		snprintf(buf, len, "<0.01%%");
	else if (v >= 10)
		snprintf(buf, len, "%.0f%%", 100 * v);
	else
		snprintf(buf, len, "%.3g%%", 100 * v);
}
