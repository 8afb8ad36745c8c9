/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Otava's change points (edivisive.h): E-divisive means in sliding
 * windows with a t-test instead of permutations, the merge of the weak
 * points, and the state that makes an appended night cost one or two
 * windows.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"
#include "stats/edivisive.h"

/* Otava's first pass: 10 times max_p (below 0.05). */
#define ED_WEAK_FACTOR	10
/*
 * How far a change point may move to where the means split its segment
 * best (ed_refine). tests/unit/t-edivisive, 600 steps of 2 sigma per noise
 * model, at their very night: 1 night normal 94.8% -> 95.7%, heavy 99.0%
 * -> 99.5% (both the best estimate's), loaded 89.2% either way; 2 nights
 * also the steps of 2 x the nights' spread (58.3% -> 61.0%, best 62.0%);
 * 3 or more lose loaded steps to the loaded nights beside them.
 */
#define ED_REFINE	2

void
ed_options_init(struct ed_options *o)
{
	memset(o, 0, sizeof(*o));
	o->window = 50;
	o->max_p = 1e-4;
	o->min_rel = 0;
	o->min_size = 2;
}

int
ed_series_init(struct ed_series *s, const struct ed_options *o,
    char **cause)
{
	memset(s, 0, sizeof(*s));
	if (o->window < 4)
		return set_cause(cause, "change point window %zu is below 4",
		    o->window);
	if (!(o->max_p > 0 && o->max_p < 1))
		return set_cause(cause, "change point p '%g' is not in (0, 1)",
		    o->max_p);
	if (!(o->min_rel >= 0))
		return set_cause(cause, "change point size '%g' is negative",
		    o->min_rel);
	if (o->min_size < 1 || 2 * o->min_size > o->window)
		return set_cause(cause, "change point sides of %zu points do "
		    "not fit a window of %zu", o->min_size, o->window);
	s->opt = *o;
	s->s1 = xcalloc(1, sizeof(*s->s1));
	s->s2 = xcalloc(1, sizeof(*s->s2));
	return 0;
}

void
ed_series_release(struct ed_series *s)
{
	if (s == NULL)
		return;
	free(s->x);
	free(s->s1);
	free(s->s2);
	free(s->settled);
	free(s->changes);
	memset(s, 0, sizeof(*s));
}

void
ed_ttest(const struct ed_series *s, size_t a, size_t b, size_t c,
    struct ed_change *out)
{
	double	n1 = (double)(b - a), n2 = (double)(c - b), m1, m2, q1, q2;
	double	v1, v2, pv, df, se;

	memset(out, 0, sizeof(*out));
	out->index = b;
	out->n_before = b - a;
	out->n_after = c - b;
	/* Sums of x - x[0]: the squares do not lose the spread. */
	m1 = (s->s1[b] - s->s1[a]) / n1;
	m2 = (s->s1[c] - s->s1[b]) / n2;
	q1 = (s->s2[b] - s->s2[a]) - n1 * m1 * m1;
	q2 = (s->s2[c] - s->s2[b]) - n2 * m2 * m2;
	q1 = q1 < 0 ? 0 : q1;
	q2 = q2 < 0 ? 0 : q2;
	v1 = n1 > 1 ? q1 / (n1 - 1) : 0;
	v2 = n2 > 1 ? q2 / (n2 - 1) : 0;
	out->mean_before = m1 + s->x[0];
	out->mean_after = m2 + s->x[0];
	out->sd_before = sqrt(v1);
	out->sd_after = sqrt(v2);
	out->rel = out->mean_before == 0 ? NAN :
	    (out->mean_after - out->mean_before) / fabs(out->mean_before);
	df = n1 + n2 - 2;
	out->p = 1;
	out->t = 0;
	if (df < 1)
		return;
	pv = (q1 + q2) / df;
	se = sqrt(pv * (1 / n1 + 1 / n2));
	if (se > 0) {
		out->t = (m2 - m1) / se;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), df);
	} else if (m1 != m2) {
		out->t = m2 > m1 ? INFINITY : -INFINITY;
		out->p = 0;
	}
}

/* W[i * (L + 1) + j]: the sum of |x_p - x_q| over i <= p < q < j. */
static void
ed_within(const double *x, size_t L, double *w)
{
	size_t	i, j, stride = L + 1;
	double	c;

	for (i = 0; i <= L; i++)
		w[i * stride + i] = 0;
	for (j = 0; j < L; j++) {
		c = 0;
		for (i = j + 1; i-- > 0;) {
			if (i < j)
				c += fabs(x[i] - x[j]);
			w[i * stride + j + 1] = w[i * stride + j] + c;
		}
	}
}

/* Q of x[a..tau) against x[tau..kappa), from the within sums. */
static double
ed_q(const double *w, size_t stride, size_t a, size_t tau, size_t kappa)
{
	double	n = (double)(tau - a), m = (double)(kappa - tau), N = n + m;
	double	wx = w[a * stride + tau], wy = w[tau * stride + kappa];
	double	cross = w[a * stride + kappa] - wx - wy, q;

	q = 2 * cross / N;
	if (n > 1)
		q -= 2 * m * wx / (N * (n - 1));
	if (m > 1)
		q -= 2 * n * wy / (N * (m - 1));
	return q;
}

/* Insert v into the sorted set (*a, *n), unless it is there. */
static void
ed_set_add(size_t **a, size_t *n, size_t *cap, size_t v)
{
	size_t	i;

	for (i = *n; i > 0 && (*a)[i - 1] > v; i--)
		;
	if (i > 0 && (*a)[i - 1] == v)
		return;
	XGROW(*a, *n, *cap);
	memmove(*a + i + 1, *a + i, (*n - i) * sizeof(**a));
	(*a)[i] = v;
	(*n)++;
}

/*
 * E-divisive in the window x[start..end): its weak points (absolute
 * indexes) added to the set; the last one found (0: none).
 */
static size_t
ed_window(struct ed_series *s, size_t start, size_t end, double *w,
    size_t **set, size_t *nset, size_t *capset)
{
	size_t		 L = end - start, stride = L + 1, ms = s->opt.min_size;
	size_t		*bd, nb = 2, i, a, b, tau, kappa, bt = 0, ba = 0, bb = 0;
	size_t		 last = 0;
	double		 q, best = 0;
	int		 found;
	struct ed_change t;

	ed_within(s->x + start, L, w);
	bd = xcalloc(L + 2, sizeof(*bd));
	bd[0] = 0;
	bd[1] = L;
	for (;;) {
		found = 0;
		for (i = 0; i + 1 < nb; i++) {
			a = bd[i];
			b = bd[i + 1];
			if (b - a < 2 * ms)
				continue;
			for (tau = a + ms; tau + ms <= b; tau++)
				for (kappa = tau + ms; kappa <= b; kappa++) {
					q = ed_q(w, stride, a, tau, kappa);
					s->work++;
					if (!found || q > best) {
						best = q;
						bt = tau;
						ba = a;
						bb = b;
						found = 1;
					}
				}
		}
		if (!found)
			break;
		ed_ttest(s, start + ba, start + bt, start + bb, &t);
		if (!(t.p <= ED_WEAK_FACTOR * s->opt.max_p))
			break;
		for (i = nb; i > 0 && bd[i - 1] > bt; i--)
			bd[i] = bd[i - 1];
		bd[i] = bt;
		nb++;
		ed_set_add(set, nset, capset, start + bt);
		if (start + bt > last)
			last = start + bt;
	}
	free(bd);
	return last;
}

/* The between-segments sum of squares of a split of x[a..c) at b. */
static double
ed_between(const struct ed_series *s, size_t a, size_t b, size_t c)
{
	double	n1 = (double)(b - a), n2 = (double)(c - b);
	double	d = (s->s1[c] - s->s1[b]) / n2 - (s->s1[b] - s->s1[a]) / n1;

	return n1 * n2 / (n1 + n2) * d * d;
}

/*
 * Each change point where its own segment, between its neighbours, is
 * best split in two means: the least-squares (Gaussian likelihood)
 * estimate of one change point (Hinkley 1970, Biometrika 57(1)), within
 * ED_REFINE nights of where the energy statistic put it. The energy
 * statistic weighs every pair of nights alike (|x - y|), so it finds a
 * level well but places its edge less sharply than the means do; the
 * t-test that decided the point is the means' too, and its p can only
 * fall (t^2 grows with the between sum of squares at a fixed length).
 * Ties keep the nearer place, then the earlier. Then each point's test
 * between its final neighbours.
 */
static void
ed_refine(struct ed_series *s, struct ed_change *c, size_t k)
{
	size_t	i, a, e, b, best, lo, hi, ms = s->opt.min_size, r = ED_REFINE;
	double	v, bv;

	for (i = 0; i < k; i++) {
		a = i == 0 ? 0 : c[i - 1].index;
		e = i + 1 == k ? s->n : c[i + 1].index;
		best = c[i].index;
		bv = ed_between(s, a, best, e);
		lo = best > a + ms + r ? best - r : a + ms;
		hi = best + r + ms < e ? best + r : e - ms;
		for (b = lo; b <= hi; b++) {
			if (b == best || b < a + ms || b + ms > e)
				continue;
			v = ed_between(s, a, b, e);
			if (v > bv || (v == bv && (b > c[i].index ? b -
			    c[i].index : c[i].index - b) < (best > c[i].index ?
			    best - c[i].index : c[i].index - best))) {
				bv = v;
				best = b;
			}
		}
		c[i].index = best;
	}
	for (i = 0; i < k; i++)
		ed_ttest(s, i == 0 ? 0 : c[i - 1].index, c[i].index,
		    i + 1 == k ? s->n : c[i + 1].index, &c[i]);
}

/* The merge: the weak points whose t-test holds, tested between the
 * points that remain. */
static void
ed_merge(struct ed_series *s, const size_t *weak, size_t k)
{
	struct ed_change	*c;
	size_t			 i, j, worst;
	double			 mag, wmag = 0;

	c = xcalloc(k + 1, sizeof(*c));
	for (i = 0; i < k; i++)
		ed_ttest(s, i == 0 ? 0 : weak[i - 1], weak[i],
		    i + 1 == k ? s->n : weak[i + 1], &c[i]);
	while (k > 0) {
		worst = 0;
		for (i = 1; i < k; i++)
			if (c[i].p > c[worst].p)
				worst = i;
		if (!(c[worst].p > s->opt.max_p)) {
			worst = k;
			for (i = 0; i < k; i++) {
				/* Otava's magnitude: both directions. */
				mag = isfinite(c[i].rel) ? fabs(c[i].rel) : 0;
				if (c[i].mean_after != 0 &&
				    fabs(c[i].mean_before / c[i].mean_after -
				    1) > mag)
					mag = fabs(c[i].mean_before /
					    c[i].mean_after - 1);
				if (worst == k || mag < wmag) {
					worst = i;
					wmag = mag;
				}
			}
			if (wmag > s->opt.min_rel)
				break;
		}
		memmove(c + worst, c + worst + 1, (k - worst - 1) * sizeof(*c));
		k--;
		for (j = worst == 0 ? 0 : worst - 1; j <= worst && j < k; j++)
			ed_ttest(s, j == 0 ? 0 : c[j - 1].index, c[j].index,
			    j + 1 == k ? s->n : c[j + 1].index, &c[j]);
	}
	ed_refine(s, c, k);
	free(s->changes);
	s->changes = c;
	s->nchanges = k;
}

int
ed_series_append(struct ed_series *s, const double *x, size_t n,
    char **cause)
{
	size_t	 i, start, end, last, step, w = s->opt.window;
	size_t	*weak = NULL, nweak = 0, capweak = 0;
	double	*tab, d;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return set_cause(cause, "value %zu '%g' is not finite",
			    s->n + i, x[i]);
	if (s->n + n + 1 > s->cap) {
		s->cap = (s->n + n + 1) * 2;
		s->x = xreallocarray(s->x, s->cap, sizeof(*s->x));
		s->s1 = xreallocarray(s->s1, s->cap + 1, sizeof(*s->s1));
		s->s2 = xreallocarray(s->s2, s->cap + 1, sizeof(*s->s2));
	}
	for (i = 0; i < n; i++) {
		s->x[s->n] = x[i];
		d = x[i] - s->x[0];
		s->s1[s->n + 1] = s->s1[s->n] + d;
		s->s2[s->n + 1] = s->s2[s->n] + d * d;
		s->n++;
	}

	/* The complete windows stay; those reaching the end are redone. */
	step = w / 2;
	tab = xcalloc((w + 1) * (w + 1), sizeof(*tab));
	start = s->next_start;
	while (start < s->n) {
		end = start + w < s->n ? start + w : s->n;
		if (end == start + w) {
			last = ed_window(s, start, end, tab, &s->settled,
			    &s->nsettled, &s->capsettled);
			start = last > start + step ? last : start + step;
			s->next_start = start;
			continue;
		}
		last = ed_window(s, start, end, tab, &weak, &nweak, &capweak);
		start = last > start + step ? last : start + step;
	}
	free(tab);
	for (i = 0; i < s->nsettled; i++)
		ed_set_add(&weak, &nweak, &capweak, s->settled[i]);
	ed_merge(s, weak, nweak);
	free(weak);
	return 0;
}

int
ed_detect(const double *x, size_t n, const struct ed_options *o,
    struct ed_change **out, size_t *nout, char **cause)
{
	struct ed_series	s;

	*out = NULL;
	*nout = 0;
	if (ed_series_init(&s, o, cause) == -1)
		return -1;
	if (ed_series_append(&s, x, n, cause) == -1) {
		ed_series_release(&s);
		return -1;
	}
	*out = s.changes;
	*nout = s.nchanges;
	s.changes = NULL;
	ed_series_release(&s);
	return 0;
}
