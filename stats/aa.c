/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The analysis of an A/A run (aa.h): blocks of rounds compared arm by arm
 * with the baseline, by the U test or by the sequential rule replayed.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"
#include "stats/aa.h"
#include "stats/sampletab.h"
#include "stats/utest.h"

/* The values of s in rounds [lo, hi), sorted, into out. */
static size_t
aa_block(const struct sampletab_cell *s, int lo, int hi, double *out)
{
	size_t	i, n = 0;

	for (i = 0; i < s->nx; i++)
		if (s->xround[i] >= lo && s->xround[i] < hi)
			out[n++] = s->x[i];
	sort_doubles(out, n);
	return n;
}

/* The median of the values of s in round r, or NAN when none (> 0 only). */
static double
aa_round_median(const struct sampletab_cell *s, int r, double *tmp)
{
	size_t	i, n = 0;

	for (i = 0; i < s->nx; i++)
		if (s->xround[i] == r) {
			if (!(s->x[i] > 0))
				return NAN;
			tmp[n++] = s->x[i];
		}
	if (n == 0)
		return NAN;
	sort_doubles(tmp, n);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/*
 * The rounds [lo, hi) as pairs: the log ratio of o's median to base's in
 * each round both have (verdict.c's pairs; the position within the round
 * is not known here: no carry-over check).
 */
static size_t
aa_pairs(const struct sampletab_cell *base, const struct sampletab_cell *o, int lo,
    int hi, double *d, signed char *first, double *tmp)
{
	double	a, b;
	size_t	n = 0;
	int	r;

	for (r = lo; r < hi; r++) {
		a = aa_round_median(base, r, tmp);
		b = aa_round_median(o, r, tmp);
		if (isnan(a) || isnan(b))
			continue;
		d[n] = log(b) - log(a);
		first[n++] = -1;
	}
	return n;
}

/*
 * The rule of stop = decided replayed on one comparison (the block of
 * max-rounds rounds from lo): the look at n good rounds sees the block's
 * first n rounds, the samples a sequential run would have had then, and
 * the row stops at its first decided look (or the last).
 */
static void
aa_replay(const struct aa_design *ad, const char *unit,
    const struct sampletab_cell *base, const struct sampletab_cell *o, int lo,
    double *x1, double *x2, struct bm_ucache *uc, struct aa_row *r)
{
	const struct seq_design	*sd = ad->sd;
	struct seq_result	 res;
	struct seq_pairs	 pr;
	size_t			 k, n1, n2, np;
	int			 n = 0;
	double			*pd = xcalloc(sd->max_rounds + 1,
	    sizeof(*pd));
	double			*tmp = xcalloc(base->nx + o->nx + 1,
	    sizeof(*tmp));
	signed char		*pf = xcalloc(sd->max_rounds + 1, 1);
	/* As verdict.c: Go's ns/op, stored as sec/op, are whole ns. */
	double			 scale = strcmp(unit, "sec/op") == 0 ?
	    1e9 : 1;

	res.verdict = SEQ_UNDECIDED;
	for (k = 0; k < sd->nlooks; k++) {
		n = sd->looks[k];
		n1 = aa_block(base, lo, lo + n, x1);
		n2 = aa_block(o, lo, lo + n, x2);
		if (n1 == 0 || n2 == 0)
			continue;
		np = ad->paired ? aa_pairs(base, o, lo, lo + n, pd, pf,
		    tmp) : 0;
		pr.d = pd;
		pr.first = pf;
		pr.n = np;
		seq_decide_scaled(sd, (int)k, x1, n1, x2, n2,
		    np >= 2 ? &pr : NULL, scale, uc, &res);
		if (res.verdict != SEQ_UNDECIDED || res.futile)
			break;
	}
	free(pd);
	free(pf);
	free(tmp);
	r->rounds_sum += n;
	if (res.verdict == SEQ_DIFFERENT)
		r->flagged++;
	else if (res.verdict == SEQ_EQUIVALENT)
		r->equivalent++;
	else
		r->undecided++;
}

/* The blocks of base against o. */
static void
aa_compare(const struct aa_design *d, const char *unit,
    const struct sampletab_cell *base, const struct sampletab_cell *o,
    struct bm_ucache *uc, struct aa_row *r)
{
	double	*x1 = xcalloc(base->nx + 1, sizeof(*x1));
	double	*x2 = xcalloc(o->nx + 1, sizeof(*x2));
	double	 p;
	char	*why = NULL;
	size_t	 n1, n2;
	int	 blk, lo;

	for (blk = 0; blk < d->repeats; blk++) {
		lo = d->warmup + blk * d->rounds;
		if (d->sd != NULL) {
			r->comparisons++;
			aa_replay(d, unit, base, o, lo, x1, x2, uc, r);
			continue;
		}
		n1 = aa_block(base, lo, lo + d->rounds, x1);
		n2 = aa_block(o, lo, lo + d->rounds, x2);
		if (n1 == 0 || n2 == 0)
			continue;
		r->comparisons++;
		if (utest_mann_whitney(x1, n1, x2, n2, uc, &p, &why) == -1) {
			free(why);
			why = NULL;
			continue;	/* all equal */
		}
		if (p <= d->alpha)
			r->flagged++;
	}
	free(x1);
	free(x2);
}

void
aa_analyse(const struct sampletab *t, const struct aa_design *d,
    struct aa_row **rows, size_t *nrows)
{
	struct bm_ucache		 *uc = bm_ucache_new();
	struct power_noise		  pn;
	struct aa_row			 *r;
	const struct sampletab_cell	**c;
	double				 *pool;
	size_t				  i, j, nc, npool, cap = 0;

	*rows = NULL;
	*nrows = 0;
	c = xcalloc(t->narms + 1, sizeof(*c));
	for (i = 0; i < t->ncells; i++) {
		const struct sampletab_cell	*base = &t->cells[i];
		const struct sampletab_row	*br = &t->rows[base->row];

		if (strcmp(t->arms[base->arm], d->baseline) != 0)
			continue;
		XGROW(*rows, *nrows, cap);
		r = &(*rows)[(*nrows)++];
		memset(r, 0, sizeof(*r));
		r->row = base->row;
		pool = sampletab_pool(t, br, &npool);
		power_noise(pool, npool, (size_t)d->rounds, 0.95, &pn);
		r->n = (int64_t)npool;
		r->median = pn.median;
		r->mad_rel = pn.mad_rel;
		r->ci_rel = pn.ci_half_rel;
		r->mde = npool >= 2 ? power_mde(pool, npool,
		    (size_t)d->rounds, (size_t)d->rounds, d->po, uc) :
		    INFINITY;
		free(pool);
		nc = sampletab_row_cells(t, br, c);
		for (j = 0; j < nc; j++)
			if (c[j] != base)
				aa_compare(d, br->unit, base, c[j], uc, r);
	}
	free(c);
	bm_ucache_free(uc);
}

double
aa_excess_p(int k, int n, double alpha)
{
	if (k <= 0)
		return 1;
	return gsl_cdf_binomial_Q((unsigned)(k - 1), alpha, (unsigned)n);
}
