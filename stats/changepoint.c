/* SPDX-License-Identifier: Apache-2.0 */
/*
 * E-divisive means change-point detection with a permutation test (see
 * changepoint.h). Each segment's best split is found in O(L^2) by moving
 * one point at a time from the right part to the left part and updating
 * the sums of within-part distances.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "lib/util.h"
#include "stats/changepoint.h"

void
cp_options_init(struct cp_options *o)
{
	o->min_size = 3;
	o->permutations = 199;
	o->alpha = 0.01;
	o->max_changes = 0;
	o->rng = NULL;
}

/*
 * Best split of x[0..L): sets *tau (size of the left part) and *q; returns
 * 0, or -1 when no split leaves min_size points on each side.
 */
static int
cp_segment_best(const double *x, size_t L, size_t min_size, size_t *tau,
    double *q)
{
	double	 total = 0, a = 0, b, c, m, k, v;
	size_t	 i, j, t;
	int	 found = 0;

	if (L < 2 * min_size)
		return -1;
	for (i = 0; i < L; i++)
		for (j = i + 1; j < L; j++)
			total += fabs(x[i] - x[j]);
	b = total;
	for (t = 0; t + 1 < L; t++) {
		/* Point t moves from the right part to the left part. */
		for (i = 0; i < t; i++)
			a += fabs(x[i] - x[t]);
		for (j = t + 1; j < L; j++)
			b -= fabs(x[t] - x[j]);
		if (t + 1 < min_size || L - (t + 1) < min_size)
			continue;
		m = (double)(t + 1);
		k = (double)(L - t - 1);
		c = total - a - b;
		v = m * k / (m + k) * (2 * c / (m * k) -
		    2 * a / (m * (m - 1)) - 2 * b / (k * (k - 1)));
		if (!found || v > *q) {
			*q = v;
			*tau = t + 1;
			found = 1;
		}
	}
	return found ? 0 : -1;
}

long
cp_best_split(const double *x, size_t n, size_t min_size, double *q)
{
	size_t	tau;

	if (min_size < 2)
		min_size = 2;
	if (cp_segment_best(x, n, min_size, &tau, q) != 0)
		return -1;
	return (long)tau;
}

/*
 * Best split over all segments given by the sorted boundaries
 * bounds[0] = 0 < ... < bounds[nb - 1] = n. Returns 0 with *at (absolute
 * index) and *q, or -1 if no segment can be split.
 */
static int
cp_best_over(const double *x, const size_t *bounds, size_t nb,
    size_t min_size, size_t *at, double *q)
{
	size_t	s, tau;
	double	v;
	int	found = 0;

	for (s = 0; s + 1 < nb; s++) {
		if (cp_segment_best(x + bounds[s], bounds[s + 1] - bounds[s],
		    min_size, &tau, &v) != 0)
			continue;
		if (!found || v > *q) {
			*q = v;
			*at = bounds[s] + tau;
			found = 1;
		}
	}
	return found ? 0 : -1;
}

static int
cp_cmp_change(const void *a, const void *b)
{
	size_t	x = ((const struct cp_change *)a)->index;
	size_t	y = ((const struct cp_change *)b)->index;

	return (x > y) - (x < y);
}

static void
cp_stats(const double *x, size_t n, double *scratch, double *mean,
    double *median)
{
	double	sum = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / (double)n;
	memcpy(scratch, x, n * sizeof(*x));
	sort_doubles(scratch, n);
	if (n % 2 == 1)
		*median = scratch[n / 2];
	else
		*median = (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

static double
cp_rel(double before, double after)
{
	if (before == 0)
		return NAN;
	return (after - before) / fabs(before);
}

int
cp_detect(const double *x, size_t n, const struct cp_options *o,
    struct cp_result *out, char **cause)
{
	size_t		*bounds, nb, at, pat, i, s, r;
	double		*work, q, pq, p;
	unsigned	 ge, k;
	size_t		 min_size;

	out->changes = NULL;
	out->n = 0;
	if (o->rng == NULL)
		return set_cause(cause,
		    "change points need a random generator");
	if (o->permutations < 1)
		return set_cause(cause, "change points need permutations");
	if (!(o->alpha > 0 && o->alpha <= 1))
		return set_cause(cause, "alpha '%g' is not in (0, 1]",
		    o->alpha);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return set_cause(cause, "value %zu '%g' is not finite",
			    i, x[i]);
	min_size = o->min_size < 2 ? 2 : o->min_size;

	bounds = xcalloc(n + 2, sizeof(*bounds));
	work = xcalloc(n + 1, sizeof(*work));
	bounds[0] = 0;
	bounds[1] = n;
	nb = 2;
	for (;;) {
		if (o->max_changes != 0 && nb - 2 >= o->max_changes)
			break;
		if (cp_best_over(x, bounds, nb, min_size, &at, &q) != 0)
			break;
		if (!(q > 0))
			break;
		/* Permute within the current segments. */
		memcpy(work, x, n * sizeof(*x));
		ge = 0;
		for (k = 0; k < o->permutations; k++) {
			for (s = 0; s + 1 < nb; s++)
				gsl_ran_shuffle(o->rng, work + bounds[s],
				    bounds[s + 1] - bounds[s], sizeof(*work));
			if (cp_best_over(work, bounds, nb, min_size, &pat,
			    &pq) == 0 && pq >= q)
				ge++;
		}
		p = (1.0 + ge) / (1.0 + o->permutations);
		if (p > o->alpha)
			break;
		/* Insert at, keeping bounds sorted. */
		for (r = nb; r > 0 && bounds[r - 1] > at; r--)
			bounds[r] = bounds[r - 1];
		bounds[r] = at;
		nb++;
		out->changes = xreallocarray(out->changes, out->n + 1,
		    sizeof(*out->changes));
		memset(&out->changes[out->n], 0, sizeof(*out->changes));
		out->changes[out->n].index = at;
		out->changes[out->n].p = p;
		out->changes[out->n].q = q;
		out->n++;
	}

	/* Sort by index and describe the levels on either side. */
	xqsort(out->changes, out->n, sizeof(*out->changes), cp_cmp_change);
	for (i = 0; i < out->n; i++) {
		struct cp_change	*c = &out->changes[i];
		size_t			 lo, hi;

		lo = i == 0 ? 0 : out->changes[i - 1].index;
		hi = i + 1 == out->n ? n : out->changes[i + 1].index;
		c->before_start = lo;
		c->after_end = hi;
		cp_stats(x + lo, c->index - lo, work, &c->mean_before,
		    &c->median_before);
		cp_stats(x + c->index, hi - c->index, work, &c->mean_after,
		    &c->median_after);
		c->rel_mean = cp_rel(c->mean_before, c->mean_after);
		c->rel_median = cp_rel(c->median_before, c->median_after);
	}
	free(bounds);
	free(work);
	return 0;
}

void
cp_result_release(struct cp_result *r)
{
	if (r == NULL)
		return;
	free(r->changes);
	r->changes = NULL;
	r->n = 0;
}
