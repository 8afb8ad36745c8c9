/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signed-rank and Brunner-Munzel tests, and the resolution of a metric
 * (see ranktests.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"
#include "stats/ranktests.h"

/* |a| and |b| count as one value (a tie) within this relative distance:
 * log ratios of equal ratios (8/6, 4/3) differ in their last bits. */
#define RANK_TIE_REL	1e-9

static int
rank_same(double a, double b)
{
	return fabs(a - b) <= RANK_TIE_REL * fmax(fabs(a), fabs(b));
}

/*
 * The sign-flip distribution of the sum of the doubled midranks r[0..m)
 * (integers, total s): P(T <= t) and P(T >= t) for the observed t.
 */
static void
signrank_exact(const long *r, size_t m, long s, long t, double *lower,
    double *upper)
{
	double	*f = xcalloc((size_t)s + 1, sizeof(*f));
	long	 top = 0, v;
	size_t	 i;

	f[0] = 1;
	for (i = 0; i < m; i++) {
		/* Each rank is in the sum with probability 1/2. */
		for (v = top; v >= 0; v--) {
			f[v] *= 0.5;
			if (f[v] != 0)
				f[v + r[i]] += f[v];
		}
		top += r[i];
	}
	*lower = *upper = 0;
	for (v = 0; v <= s; v++) {
		if (v <= t)
			*lower += f[v];
		if (v >= t)
			*upper += f[v];
	}
	free(f);
}

double
signrank_p(const double *d, size_t n)
{
	double	*a, lower, upper, var = 0, z, mean;
	long	*r, s = 0, t = 0;
	size_t	 m = 0, i, j, k;
	int	*pos;

	a = xcalloc(n + 1, sizeof(*a));
	pos = xcalloc(n + 1, sizeof(*pos));
	for (i = 0; i < n; i++)
		if (d[i] != 0 && !isnan(d[i]))
			a[m++] = d[i];
	if (m == 0) {
		free(a);
		free(pos);
		return 1;
	}
	/* By |d|, the sign kept aside. */
	for (i = 0; i < m; i++) {
		pos[i] = a[i] > 0;
		a[i] = fabs(a[i]);
	}
	for (i = 1; i < m; i++) {
		double	v = a[i];
		int	p = pos[i];

		for (j = i; j > 0 && a[j - 1] > v; j--) {
			a[j] = a[j - 1];
			pos[j] = pos[j - 1];
		}
		a[j] = v;
		pos[j] = p;
	}
	r = xcalloc(m, sizeof(*r));
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && rank_same(a[j], a[i]); j++)
			;
		/* Positions i..j-1 (ranks i+1..j): doubled midrank i+j+1. */
		for (k = i; k < j; k++) {
			r[k] = (long)(i + j + 1);
			s += r[k];
			if (pos[k])
				t += r[k];
		}
	}
	if (m <= SIGNRANK_EXACT_MAX) {
		signrank_exact(r, m, s, t, &lower, &upper);
	} else {
		mean = (double)s / 2;
		for (k = 0; k < m; k++)
			var += (double)r[k] * (double)r[k] / 4;
		/* Doubled ranks step by 1 at the finest. */
		z = (fabs((double)t - mean) - 0.5) / sqrt(var);
		if (z < 0)
			z = 0;
		lower = upper = gsl_cdf_ugaussian_Q(z);
	}
	free(r);
	free(a);
	free(pos);
	lower = 2 * fmin(lower, upper);
	return lower < 1 ? lower : 1;
}

long
signrank_critical(size_t n, double beta)
{
	double	*f, acc = 0;
	long	 s = (long)(n * (n + 1) / 2), top = 0, v, k = -1;
	size_t	 i;

	if (n == 0)
		return -1;
	if (n > 200) {
		/* The normal approximation: enough for such n. */
		double	mu = (double)s / 2;
		double	sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24.0);

		k = (long)floor(mu + sd * gsl_cdf_ugaussian_Pinv(beta) - 0.5);
		return k >= 0 ? k : -1;
	}
	f = xcalloc((size_t)s + 1, sizeof(*f));
	f[0] = 1;
	for (i = 1; i <= n; i++) {
		for (v = top; v >= 0; v--) {
			f[v] *= 0.5;
			f[v + (long)i] += f[v];
		}
		top += (long)i;
	}
	for (v = 0; v <= s; v++) {
		acc += f[v];
		if (acc > beta * (1 + 1e-12))
			break;
		k = v;
	}
	free(f);
	return k;
}

/* The number of pairs i <= j of sorted s with s_i + s_j <= t. */
static size_t
walsh_at_most(const double *s, size_t n, double t)
{
	size_t	i, cnt = 0;
	long	j = (long)n - 1;

	for (i = 0; i < n; i++) {
		while (j >= (long)i && s[i] + s[j] > t)
			j--;
		if (j < (long)i)
			break;
		cnt += (size_t)(j - (long)i + 1);
	}
	return cnt;
}

/* The number of pairs i <= j with s_i + s_j >= t. */
static size_t
walsh_at_least(const double *s, size_t n, double t)
{
	size_t	i, cnt = 0;
	long	j = 0;

	/* From the top: for i descending, j runs up from the bottom. */
	for (i = n; i-- > 0; ) {
		while (j <= (long)i && s[j] + s[i] < t)
			j++;
		if (j > (long)i)
			break;
		cnt += (size_t)((long)i - j + 1);
	}
	return cnt;
}

int
signrank_within(const double *sorted, size_t n, double beta, double lim)
{
	long	k;

	if (!(lim > 0) || (k = signrank_critical(n, beta)) < 0)
		return 0;
	/* w(k+1) > -lim iff at most k Walsh averages are <= -lim. */
	return walsh_at_most(sorted, n, -2 * lim) <= (size_t)k &&
	    walsh_at_least(sorted, n, 2 * lim) <= (size_t)k;
}

int
signrank_ci(const double *sorted, size_t n, double beta, double *lo,
    double *hi)
{
	double	*w;
	size_t	 i, j, m = 0;
	long	 k;

	*lo = *hi = NAN;
	if ((k = signrank_critical(n, beta)) < 0)
		return -1;
	w = xcalloc(n * (n + 1) / 2, sizeof(*w));
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[m++] = (sorted[i] + sorted[j]) / 2;
	sort_doubles(w, m);
	*lo = w[k];
	*hi = w[m - 1 - (size_t)k];
	free(w);
	return 0;
}

struct bm_item {
	double	v;
	int	g;
	double	rank;
};

static int
bm_cmp(const void *a, const void *b)
{
	double	x = ((const struct bm_item *)a)->v;
	double	y = ((const struct bm_item *)b)->v;

	return (x > y) - (x < y);
}

/* Midranks of it[0..n) by value (it sorted on return). */
static void
bm_rank(struct bm_item *it, size_t n)
{
	size_t	i, j, k;

	qsort(it, n, sizeof(*it), bm_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && it[j].v == it[i].v; j++)
			;
		for (k = i; k < j; k++)
			it[k].rank = (double)(i + j + 1) / 2;
	}
}

/* The sum over a group of (pooled rank - own rank - mean difference)^2. */
static double
bm_var(const double *x, size_t n, const struct bm_item *pool, size_t np,
    int g, double *mean_pooled)
{
	struct bm_item	*own = xcalloc(n, sizeof(*own));
	double		*pr = xcalloc(n, sizeof(*pr)), sum = 0, m1 = 0;
	double		 m2 = 0, ss = 0;
	size_t		 i, k = 0;

	for (i = 0; i < n; i++)
		own[i].v = x[i];
	bm_rank(own, n);
	/* The pooled ranks of this group, in the order of its values. */
	for (i = 0; i < np; i++)
		if (pool[i].g == g)
			pr[k++] = pool[i].rank;
	for (i = 0; i < n; i++) {
		m1 += pr[i];
		m2 += own[i].rank;
	}
	m1 /= (double)n;
	m2 /= (double)n;
	for (i = 0; i < n; i++) {
		sum = pr[i] - own[i].rank - m1 + m2;
		ss += sum * sum;
	}
	*mean_pooled = m1;
	free(own);
	free(pr);
	return ss / (double)(n - 1);
}

double
brunner_munzel_p(const double *x1, size_t n1, const double *x2, size_t n2)
{
	struct bm_item	*pool;
	double		 s1, s2, m1, m2, w, den, df, p;
	size_t		 i, np = n1 + n2;

	if (n1 < 2 || n2 < 2)
		return 1;
	pool = xcalloc(np, sizeof(*pool));
	for (i = 0; i < n1; i++) {
		pool[i].v = x1[i];
		pool[i].g = 1;
	}
	for (i = 0; i < n2; i++) {
		pool[n1 + i].v = x2[i];
		pool[n1 + i].g = 2;
	}
	bm_rank(pool, np);
	s1 = bm_var(x1, n1, pool, np, 1, &m1);
	s2 = bm_var(x2, n2, pool, np, 2, &m2);
	free(pool);
	den = (double)n1 * s1 + (double)n2 * s2;
	if (!(den > 0))
		return m1 == m2 ? 1 : 0;
	w = (double)n1 * (double)n2 * (m2 - m1) / ((double)np * sqrt(den));
	df = den * den / (pow((double)n1 * s1, 2) / (double)(n1 - 1) +
	    pow((double)n2 * s2, 2) / (double)(n2 - 1));
	p = 2 * gsl_cdf_tdist_Q(fabs(w), df);
	return p < 1 ? p : 1;
}

/* The step of the last significant decimal digit of v (> 0): 0.003 has a
 * step of 0.001, 1024 of 1, 3000000 (whole ms written in ns) of 1e6. */
static double
decimal_step(double v)
{
	char	buf[64], *e, *dot, *last;
	int	exp10 = 0, frac = 0;

	snprintf(buf, sizeof(buf), "%.15e", v);
	if ((e = strchr(buf, 'e')) == NULL)
		return 0;
	exp10 = atoi(e + 1);
	*e = '\0';
	if ((dot = strchr(buf, '.')) == NULL)
		return pow(10, exp10);
	for (last = e - 1; last > dot && *last == '0'; last--)
		;
	frac = (int)(last - dot);
	exp10 -= frac;
	return pow(10, exp10);
}

double
resolution_log(const double *x1, size_t n1, const double *x2, size_t n2,
    int *single)
{
	return resolution_log_scaled(x1, n1, x2, n2, 1, single);
}

/* decimal_step of v as written (v * scale), in the stored unit. */
static double
decimal_step_scaled(double v, double scale)
{
	if (!(scale > 0) || scale == 1)
		return decimal_step(v);
	return decimal_step(v * scale) / scale;
}

double
resolution_log_scaled(const double *x1, size_t n1, const double *x2,
    size_t n2, double scale, int *single)
{
	double	 step, gap = HUGE_VAL, vmin, prev = NAN, v;
	size_t	 i = 0, j = 0, distinct = 0;

	*single = 0;
	if (n1 == 0 || n2 == 0)
		return HUGE_VAL;
	vmin = fmin(x1[0], x2[0]);
	if (!(vmin > 0))
		return HUGE_VAL;
	/* Merge the two sorted samples: gaps between distinct values. */
	while (i < n1 || j < n2) {
		v = (j >= n2 || (i < n1 && x1[i] <= x2[j])) ? x1[i++] :
		    x2[j++];
		if (distinct == 0 || v != prev) {
			if (distinct > 0 && v - prev < gap)
				gap = v - prev;
			distinct++;
			prev = v;
		}
	}
	if (distinct == 1) {
		*single = 1;
		step = decimal_step_scaled(vmin, scale);
	} else {
		/*
		 * The step is at least the smallest gap; where every value's
		 * last digit is coarser still, that. A value whose digits
		 * are as fine as the gap settles it (continuous values: the
		 * first one).
		 */
		step = HUGE_VAL;
		for (i = 0; i < n1 + n2 && step > gap; i++) {
			v = decimal_step_scaled(i < n1 ? x1[i] :
			    x2[i - n1], scale);
			if (v < step)
				step = v;
		}
		if (gap > step)
			step = gap;
	}
	if (!(vmin > step / 2))
		return HUGE_VAL;
	return 2 * log(vmin / (vmin - step / 2));
}
