/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signed-rank and Brunner-Munzel tests, and the resolution of a metric
 * (see ranktests.h).
 */
#include <math.h>
#include <stdint.h>
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

	xqsort(it, n, sizeof(*it), bm_cmp);
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

/* The powers of ten a double holds exactly, up to 1e16. */
static const double p10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16
};

/*
 * decimal_digits without printing, for 1 <= v < 1e15 (a count, whole ns,
 * a time of a few digits, or any value of that size): v is a whole
 * number r and a rest v - r that is exact (Sterbenz: r / 2 <= v <= 2r),
 * so its 16 digits are r's and the rest's rounded to the 16th one. The
 * rest scaled to units of that digit is one rounded product (relative
 * error 2^-53); a rest that close to half a unit, and 16 digits that
 * round up into the next decade, are left to the printer. Returns 0 when
 * it leaves v to the printer.
 */
static int
decimal_digits_fast(double v, int *lead, int *last)
{
	double		r, q, c;
	int64_t		d;
	int		e;

	if (!(v >= 1 && v < 1e15))
		return 0;
	for (e = 0; v >= p10[e + 1]; e++)
		;
	r = round(v);
	q = (v - r) * p10[15 - e];
	c = round(q);
	if (fabs(fabs(q - c) - 0.5) <= fabs(q) * 0x1p-50 + 0x1p-60)
		return 0;
	d = (int64_t)r * (int64_t)p10[15 - e] + (int64_t)c;
	if (d < (int64_t)p10[15] || d >= (int64_t)p10[16])
		return 0;
	*lead = e;
	for (*last = e - 15; d % 10 == 0; d /= 10)
		(*last)++;
	return 1;
}

/*
 * The digits of v as "%.15e" writes them (16 significant ones, rounded to
 * nearest): *lead the decimal exponent of the first, *last that of the
 * last one that is not 0 (0.003: -3 and -3; 1024: 3 and 0; 3000000, whole
 * ms written in ns: 6 and 6). Returns 0 when v has none (inf, NaN).
 */
static int
decimal_digits(double v, int *lead, int *last)
{
	char	buf[64], *e, *dot, *end;

	if (decimal_digits_fast(v, lead, last))
		return 1;
	snprintf(buf, sizeof(buf), "%.15e", v);
	if ((e = strchr(buf, 'e')) == NULL)
		return 0;
	*lead = *last = atoi(e + 1);
	*e = '\0';
	if ((dot = strchr(buf, '.')) == NULL)
		return 1;
	for (end = e - 1; end > dot && *end == '0'; end--)
		;
	*last -= (int)(end - dot);
	return 1;
}

/* Scaled values (resolution_log_scaled): v as it was written. */
static int
is_scaled(double scale)
{
	return scale > 0 && scale != 1;
}

static double
as_written(double v, double scale)
{
	return is_scaled(scale) ? v * scale : v;
}

/* The step of a last digit at 10^last as written, in the stored unit. */
static double
written_step(int last, double scale)
{
	double	s = pow(10, last);

	return is_scaled(scale) ? s / scale : s;
}

/*
 * The step of the last significant decimal digit of v (> 0) as written:
 * 0.003 has a step of 0.001, 1024 of 1, 3000000 of 1e6; inf and NaN 0.
 */
static double
decimal_step_scaled(double v, double scale)
{
	int	lead, last;

	if (!decimal_digits(as_written(v, scale), &lead, &last))
		return 0;
	return written_step(last, scale);
}

double
resolution_log(const double *x1, size_t n1, const double *x2, size_t n2,
    int *single)
{
	return resolution_log_scaled(x1, n1, x2, n2, 1, single);
}

/* Is every value vmin plus a whole number of gaps, within tol? (A grid
 * of 1/3 written as doubles is off by their rounding, not by tol.) */
static int
on_grid(const double *x1, size_t n1, const double *x2, size_t n2,
    double vmin, double gap, double tol)
{
	double	k, v;
	size_t	i;

	for (i = 0; i < n1 + n2; i++) {
		v = i < n1 ? x1[i] : x2[i - n1];
		k = (v - vmin) / gap;
		if (fabs(k - round(k)) * gap > tol)
			return 0;
	}
	return 1;
}

/* Two sorted samples as one, in ascending order. */
struct res_merge {
	const double	*x1, *x2;
	size_t		 n1, n2, i, j;
};

static int
res_merge_next(struct res_merge *m, double *v)
{
	if (m->i >= m->n1 && m->j >= m->n2)
		return 0;
	*v = (m->j >= m->n2 || (m->i < m->n1 && m->x1[m->i] <= m->x2[m->j])) ?
	    m->x1[m->i++] : m->x2[m->j++];
	return 1;
}

/*
 * The step of the finest last digit written (the smallest decimal_step
 * of all values), or, when the values sit on the smallest gap's grid,
 * one no finer than the gap (the caller then takes the gap, as it would
 * for the finest: *grid is 1). The values' digits are read in ascending
 * order and the reading stops where the rest cannot change the step it
 * gives (a look reads one or two values' digits, as the early exit
 * before the grid did):
 * - ascending (the samples sorted, the largest finite as written): a
 *   value's last digit is at most 15 places below its first, and no
 *   later value's first is below this one's, so once the finest is 15
 *   places below a value's first, no later value is finer (continuous
 *   values: the first);
 * - the finest so far is not coarser than the gap, and every value is on
 *   the gap's grid within the least tolerance the caller may ask
 *   (gap * 1e-6): the caller takes the gap however fine the rest (a
 *   coarse clock or a quantity written with more digits).
 * *grid: 1 on the grid, 0 not, -1 not asked.
 */
static double
finest_step(const double *x1, size_t n1, const double *x2, size_t n2,
    double scale, double vmin, double gap, int ascending, int *grid)
{
	struct res_merge	m = { x1, x2, n1, n2, 0, 0 };
	double			v, w, step = HUGE_VAL;
	int			lead, last, finest = 0, any = 0;

	*grid = -1;
	while (res_merge_next(&m, &v)) {
		w = as_written(v, scale);
		if (!decimal_digits(w, &lead, &last))
			return 0;	/* no digits: decimal_step's 0 */
		if (!any || last < finest) {
			finest = last;
			step = written_step(finest, scale);
			any = 1;
		}
		if (ascending && w > 0 && finest <= lead - 15)
			break;
		if (step <= gap) {
			if (*grid < 0)
				*grid = on_grid(x1, n1, x2, n2, vmin, gap,
				    gap * 1e-6);
			if (*grid)
				break;
		}
	}
	return step;
}

double
resolution_log_scaled(const double *x1, size_t n1, const double *x2,
    size_t n2, double scale, int *single)
{
	struct res_merge	m = { x1, x2, n1, n2, 0, 0 };
	double			step, gap = HUGE_VAL, vmin, prev = NAN, v;
	size_t			distinct = 0;
	int			ascending = 1, grid;

	*single = 0;
	if (n1 == 0 || n2 == 0)
		return HUGE_VAL;
	vmin = fmin(x1[0], x2[0]);
	if (!(vmin > 0))
		return HUGE_VAL;
	/* Merge the two sorted samples: gaps between distinct values. */
	while (res_merge_next(&m, &v)) {
		if (distinct > 0 && !(v >= prev))
			ascending = 0;
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
		 * The step of the finest digits written; the smallest gap
		 * instead when it is coarser and every value sits on its
		 * grid (a 4 ms clock printed as 0.004, 0.012: digits finer
		 * than the clock). A few values written to the nanosecond
		 * are not on a grid of their smallest gap, however wide the
		 * gap (8 runs of 0.39 s spread over 0.1 s).
		 */
		step = finest_step(x1, n1, x2, n2, scale, vmin, gap,
		    ascending && isfinite(as_written(prev, scale)), &grid);
		if (gap > step && (grid == 1 || on_grid(x1, n1, x2, n2, vmin,
		    gap, fmax(step / 2, gap * 1e-6))))
			step = gap;
	}
	if (!(vmin > step / 2))
		return HUGE_VAL;
	return 2 * log(vmin / (vmin - step / 2));
}
