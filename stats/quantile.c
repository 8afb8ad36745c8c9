/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample quantiles (R8) and go-moremath's QuantileCI: exact binomial
 * accumulation for n <= 30, a normal approximation with Acklam's inverse
 * CDF above.  Uses Go's Choose/Exp/Erfc so the chosen order statistics
 * match benchstat (spec §6.1).
 */
#include <math.h>

#include "stats/quantile.h"
#include "stats/gomath.h"

double
stats_quantile_sorted(const double *xs, size_t n, double q)
{
	double	h, kf, frac;
	long	k;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return xs[0];
	if (q >= 1)
		return xs[n - 1];
	h = 1 / 3.0 + q * ((double)n + 1 / 3.0);
	frac = modf(h, &kf);
	k = (long)kf;
	if (k <= 0)
		return xs[0];
	if ((size_t)k >= n)
		return xs[n - 1];
	return xs[k - 1] + frac * (xs[k] - xs[k - 1]);
}

/* v[k] the k-th smallest, v[..k) <= v[k] <= v[k + 1..) (Hoare's
 * selection, the middle of three as pivot). */
static void
select_kth(double *v, size_t n, size_t k)
{
	size_t	lo = 0, hi = n - 1, i, j, m;
	double	p, t;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m] < v[lo]) {
			t = v[m]; v[m] = v[lo]; v[lo] = t;
		}
		if (v[hi] < v[m]) {
			t = v[hi]; v[hi] = v[m]; v[m] = t;
			if (v[m] < v[lo]) {
				t = v[m]; v[m] = v[lo]; v[lo] = t;
			}
		}
		p = v[m];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				t = v[i]; v[i] = v[j]; v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double
stats_median_select(double *v, size_t n)
{
	double	h, kf, frac, next;
	long	k;
	size_t	i;

	if (n == 0)
		return NAN;
	/* stats_quantile_sorted's arithmetic at q = 0.5. */
	h = 1 / 3.0 + 0.5 * ((double)n + 1 / 3.0);
	frac = modf(h, &kf);
	k = (long)kf;
	if (k <= 0) {
		select_kth(v, n, 0);
		return v[0];
	}
	if ((size_t)k >= n) {
		select_kth(v, n, n - 1);
		return v[n - 1];
	}
	select_kth(v, n, (size_t)k - 1);
	next = v[k];
	for (i = (size_t)k + 1; i < n; i++)
		if (v[i] < next)
			next = v[i];
	return v[k - 1] + frac * (next - v[k - 1]);
}

/* BinomialDist{n, q}.PMF(k). */
static double
binom_pmf(int n, double q, int k)
{
	if (k < 0 || k > n)
		return 0;
	return go_choose(n, k) * pow(q, (double)k) *
	    pow(1 - q, (double)(n - k));
}

/* NormalDist{mu, sigma}.CDF(x). */
static double
normal_cdf(double mu, double sigma, double x)
{
	return go_erfc(-(x - mu) / (sigma * M_SQRT2)) / 2;
}

/* NormalDist{mu, sigma}.InvCDF(p): Acklam plus one Halley step. */
static double
normal_inv_cdf(double mu, double sigma, double p)
{
	const double	a1 = -3.969683028665376e+01;
	const double	a2 = 2.209460984245205e+02;
	const double	a3 = -2.759285104469687e+02;
	const double	a4 = 1.383577518672690e+02;
	const double	a5 = -3.066479806614716e+01;
	const double	a6 = 2.506628277459239e+00;
	const double	b1 = -5.447609879822406e+01;
	const double	b2 = 1.615858368580409e+02;
	const double	b3 = -1.556989798598866e+02;
	const double	b4 = 6.680131188771972e+01;
	const double	b5 = -1.328068155288572e+01;
	const double	c1 = -7.784894002430293e-03;
	const double	c2 = -3.223964580411365e-01;
	const double	c3 = -2.400758277161838e+00;
	const double	c4 = -2.549732539343734e+00;
	const double	c5 = 4.374664141464968e+00;
	const double	c6 = 2.938163982698783e+00;
	const double	d1 = 7.784695709041462e-03;
	const double	d2 = 3.224671290700398e-01;
	const double	d3 = 2.445134137142996e+00;
	const double	d4 = 3.754408661907416e+00;
	const double	plow = 0.02425, phigh = 1 - plow;
	double		x, q, r, e, u;

	if (p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p < plow) {
		q = sqrt(-2 * go_log(p));
		x = (((((c1 * q + c2) * q + c3) * q + c4) * q + c5) * q + c6) /
		    ((((d1 * q + d2) * q + d3) * q + d4) * q + 1);
	} else if (phigh < p) {
		q = sqrt(-2 * go_log(1 - p));
		x = -(((((c1 * q + c2) * q + c3) * q + c4) * q + c5) * q + c6) /
		    ((((d1 * q + d2) * q + d3) * q + d4) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a1 * r + a2) * r + a3) * r + a4) * r + a5) * r +
		    a6) * q /
		    (((((b1 * r + b2) * r + b3) * r + b4) * r + b5) * r + 1);
	}
	e = 0.5 * go_erfc(-x / M_SQRT2) - p;
	u = e * sqrt(2 * M_PI) * go_exp(x * x / 2);
	x = x - u / (1 + x * u / 2);
	return x * sigma + mu;
}

/* Go's int(math.Floor(x)) for the values that can occur here. */
static long
floor_int(double x)
{
	x = floor(x);
	if (!(x > -1e15 && x < 1e15))
		return x > 0 ? 1000000000L : -1000000000L;
	return (long)x;
}

void
quantile_ci(int n, double q, double confidence, struct quantile_ci *out)
{
	double	accum, lp, rp, mu, sigma, alpha, l1, r1, conf0, biased;
	long	l, r, x;

	out->nan_order = 0;
	if (confidence >= 1) {
		out->lo_order = 0;
		out->hi_order = n + 1;
		return;
	}
	if (n <= 30) {
		x = (long)(ceil((double)(n + 1) * q) - 1);
		if (q == 0)
			x = 0;
		accum = binom_pmf(n, q, (int)x);
		l = x;
		r = x + 1;
		lp = binom_pmf(n, q, (int)l - 1);
		rp = binom_pmf(n, q, (int)r);
		while (accum < confidence && (lp > 0 || rp > 0)) {
			if (lp >= rp) {
				accum += lp;
				l--;
				lp = binom_pmf(n, q, (int)l - 1);
			} else {
				accum += rp;
				r++;
				rp = binom_pmf(n, q, (int)r);
			}
		}
	} else {
		mu = (double)n * q;
		sigma = sqrt((double)n * q * (1 - q));
		alpha = (1 - confidence) / 2;
		l1 = normal_inv_cdf(mu, sigma, alpha);
		if (isnan(l1)) {
			/* int(NaN) is math.MinInt64 on amd64. */
			out->lo_order = 0;
			out->hi_order = 0;
			out->nan_order = 1;
			return;
		}
		r1 = 2 * mu - l1;
		l = floor_int(floor(l1 - 0.5) + 0.5) + 1;
		r = floor_int(ceil(r1 - 0.5) + 0.5) + 1;
		conf0 = normal_cdf(mu, sigma, (double)r - 0.5) -
		    normal_cdf(mu, sigma, (double)l - 0.5);
		biased = normal_cdf(mu, sigma, (double)(r - 1) - 0.5) -
		    normal_cdf(mu, sigma, (double)l - 0.5);
		if (biased >= confidence && biased < conf0)
			r = r - 1;
	}
	if (l < 0)
		l = 0;
	if (r > n + 1)
		r = n + 1;
	if (r < -1000000000L)
		r = -1000000000L;
	if (l > 1000000000L)
		l = 1000000000L;
	out->lo_order = (int)l;
	out->hi_order = (int)r;
}
