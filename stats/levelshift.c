/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level shifts within one run (see levelshift.h): change points of the
 * level the arms share, and a test of whether the effect moved there.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/changepoint.h"
#include "stats/levelshift.h"
#include "stats/quantile.h"
#include "stats/utest.h"

void
ls_options_init(struct ls_options *o)
{
	o->alpha = 0.01;
	o->min_rounds = 5;
	o->permutations = 199;
	o->min_change = 0.02;
	o->seed = 1;
}

/* Median of x[0..n), n >= 1, as benchstat's; sorts x. */
static double
ls_median(double *x, size_t n)
{
	sort_doubles(x, n);
	return stats_quantile_sorted(x, n, 0.5);
}

/* Arm a's median over rounds [lo, hi), or NaN when it has none there. */
static double
ls_arm_median(const double *v, size_t narms, size_t a, size_t lo, size_t hi,
    double *scratch)
{
	size_t	r, n = 0;

	for (r = lo; r < hi; r++)
		if (!isnan(v[r * narms + a]))
			scratch[n++] = v[r * narms + a];
	return n == 0 ? NAN : ls_median(scratch, n);
}

/* Sorted log ratios arm a / baseline of the rounds [lo, hi) having both. */
static size_t
ls_ratios(const double *v, size_t narms, size_t a, size_t lo, size_t hi,
    double *out)
{
	size_t	r, n = 0;

	for (r = lo; r < hi; r++)
		if (!isnan(v[r * narms]) && !isnan(v[r * narms + a]))
			out[n++] = log(v[r * narms + a]) - log(v[r * narms]);
	sort_doubles(out, n);
	return n;
}

static void
ls_arm_test(const double *v, size_t narms, size_t a, double alpha,
    double min_change, struct ls_shift *s, double *x1, double *x2,
    struct bm_ucache *uc)
{
	struct ls_arm	*la = &s->arms[a];
	double		 b0, b1, a0, a1, moved;
	size_t		 n1, n2;
	char		*why = NULL;

	la->before = la->after = la->p = NAN;
	b0 = ls_arm_median(v, narms, 0, s->start, s->round, x1);
	b1 = ls_arm_median(v, narms, a, s->start, s->round, x1);
	a0 = ls_arm_median(v, narms, 0, s->round, s->end, x1);
	a1 = ls_arm_median(v, narms, a, s->round, s->end, x1);
	if (!isnan(b0) && !isnan(b1))
		la->before = b1 / b0 - 1;
	if (!isnan(a0) && !isnan(a1))
		la->after = a1 / a0 - 1;
	n1 = ls_ratios(v, narms, a, s->start, s->round, x1);
	n2 = ls_ratios(v, narms, a, s->round, s->end, x2);
	if (n1 == 0 || n2 == 0)
		return;
	if (utest_mann_whitney(x1, n1, x2, n2, uc, &la->p, &why) == -1) {
		/* Every ratio equal on both sides: the effect did not move. */
		free(why);
		la->p = 1;
	}
	if (isnan(la->before) || isnan(la->after))
		return;
	moved = fabs((1 + la->after) / (1 + la->before) - 1);
	la->changed = la->p <= alpha && moved >= min_change;
}

int
ls_detect(const double *v, size_t nrounds, size_t narms,
    const struct ls_options *o, struct ls_result *out, char **cause)
{
	struct cp_options	 co;
	struct cp_result	 cr;
	struct bm_ucache	*uc;
	double			*med, *level, *x1, *x2, sum;
	size_t			*at, nl = 0, r, a, k, present;
	int			 rc;

	memset(out, 0, sizeof(*out));
	out->narms = narms;
	if (narms == 0)
		return set_cause(cause, "level shifts need an arm");
	if (!(o->alpha > 0 && o->alpha <= 1))
		return set_cause(cause, "alpha '%g' is not in (0, 1]",
		    o->alpha);
	if (o->permutations < 1)
		return set_cause(cause, "level shifts need permutations");
	for (r = 0; r < nrounds * narms; r++)
		if (isinf(v[r]) || v[r] <= 0)
			return 0;	/* no log: not tested */
	x1 = xcalloc(nrounds + 1, sizeof(*x1));
	x2 = xcalloc(nrounds + 1, sizeof(*x2));
	med = xcalloc(narms, sizeof(*med));
	level = xcalloc(nrounds + 1, sizeof(*level));
	at = xcalloc(nrounds + 1, sizeof(*at));
	for (a = 0; a < narms; a++)
		med[a] = ls_arm_median(v, narms, a, 0, nrounds, x1);
	for (r = 0; r < nrounds; r++) {
		sum = 0;
		present = 0;
		for (a = 0; a < narms; a++)
			if (!isnan(v[r * narms + a])) {
				sum += log(v[r * narms + a] / med[a]);
				present++;
			}
		if (present == 0)
			continue;
		level[nl] = sum / (double)present;
		at[nl++] = r;
	}
	cp_options_init(&co);
	co.min_size = o->min_rounds < 2 ? 2 : o->min_rounds;
	co.permutations = o->permutations;
	co.alpha = o->alpha;
	co.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(co.rng, o->seed);
	rc = cp_detect(level, nl, &co, &cr, cause);
	gsl_rng_free(co.rng);
	if (rc == -1)
		goto out;
	out->tested = nl >= 2 * co.min_size;
	out->shifts = cr.n == 0 ? NULL : xcalloc(cr.n, sizeof(*out->shifts));
	out->n = cr.n;
	uc = bm_ucache_new();
	for (k = 0; k < cr.n; k++) {
		const struct cp_change	*c = &cr.changes[k];
		struct ls_shift		*s = &out->shifts[k];

		s->round = at[c->index];
		s->start = at[c->before_start];
		s->end = c->after_end < nl ? at[c->after_end] : nrounds;
		s->level = exp(c->median_after - c->median_before) - 1;
		s->p = c->p;
		s->arms = xcalloc(narms, sizeof(*s->arms));
		s->arms[0].before = s->arms[0].after = s->arms[0].p = NAN;
		for (a = 1; a < narms; a++) {
			ls_arm_test(v, narms, a, o->alpha / (double)cr.n,
			    o->min_change, s, x1, x2, uc);
			s->effect_changed |= s->arms[a].changed;
		}
	}
	bm_ucache_free(uc);
	cp_result_release(&cr);
out:
	free(x1);
	free(x2);
	free(med);
	free(level);
	free(at);
	return rc;
}

void
ls_result_release(struct ls_result *r)
{
	size_t	k;

	if (r == NULL)
		return;
	for (k = 0; k < r->n; k++)
		free(r->shifts[k].arms);
	free(r->shifts);
	r->shifts = NULL;
	r->n = 0;
}
