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
#include "stats/utest.h"

/* The values of s in rounds [lo, hi), sorted, into out. */
static size_t
aa_block(const struct aa_series *s, int lo, int hi, double *out)
{
	size_t	i, n = 0;

	for (i = 0; i < s->n; i++)
		if (s->round[i] >= lo && s->round[i] < hi)
			out[n++] = s->x[i];
	sort_doubles(out, n);
	return n;
}

static int
aa_same_row(const struct aa_series *a, const struct aa_series *b)
{
	return strcmp(a->benchmark, b->benchmark) == 0 &&
	    strcmp(a->unit, b->unit) == 0;
}

/* Every arm's values of s's benchmark and unit, in series order. */
static double *
aa_pool(const struct aa_series *all, size_t ns, const struct aa_series *s,
    size_t *n)
{
	double	*x;
	size_t	 i, total = 0;

	for (i = 0; i < ns; i++)
		if (aa_same_row(&all[i], s))
			total += all[i].n;
	x = xcalloc(total + 1, sizeof(*x));
	*n = 0;
	for (i = 0; i < ns; i++)
		if (aa_same_row(&all[i], s)) {
			memcpy(x + *n, all[i].x, all[i].n * sizeof(*x));
			*n += all[i].n;
		}
	return x;
}

/*
 * The rule of stop = decided replayed on one comparison (the block of
 * max-rounds rounds from lo): the look at n good rounds sees the block's
 * first n rounds, the samples a sequential run would have had then, and
 * the row stops at its first decided look (or the last).
 */
static void
aa_replay(const struct seq_design *sd, const struct aa_series *base,
    const struct aa_series *o, int lo, double *x1, double *x2,
    struct bm_ucache *uc, struct aa_row *r)
{
	struct seq_result	res;
	size_t			k, n1, n2;
	int			n = 0;

	res.verdict = SEQ_UNDECIDED;
	for (k = 0; k < sd->nlooks; k++) {
		n = sd->looks[k];
		n1 = aa_block(base, lo, lo + n, x1);
		n2 = aa_block(o, lo, lo + n, x2);
		if (n1 == 0 || n2 == 0)
			continue;
		seq_decide(sd, (int)k, x1, n1, x2, n2, uc, &res);
		if (res.verdict != SEQ_UNDECIDED)
			break;
	}
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
aa_compare(const struct aa_design *d, const struct aa_series *base,
    const struct aa_series *o, struct bm_ucache *uc, struct aa_row *r)
{
	double	*x1 = xcalloc(base->n + 1, sizeof(*x1));
	double	*x2 = xcalloc(o->n + 1, sizeof(*x2));
	double	 p;
	char	*why = NULL;
	size_t	 n1, n2;
	int	 blk, lo;

	for (blk = 0; blk < d->repeats; blk++) {
		lo = d->warmup + blk * d->rounds;
		if (d->sd != NULL) {
			r->comparisons++;
			aa_replay(d->sd, base, o, lo, x1, x2, uc, r);
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
aa_analyse(const struct aa_series *s, size_t ns, const struct aa_design *d,
    struct aa_row **rows, size_t *nrows)
{
	struct bm_ucache	*uc = bm_ucache_new();
	struct power_noise	 pn;
	struct aa_row		*r;
	double			*pool;
	size_t			 i, j, npool, cap = 0;

	*rows = NULL;
	*nrows = 0;
	for (i = 0; i < ns; i++) {
		const struct aa_series	*base = &s[i];

		if (strcmp(base->arm, d->baseline) != 0)
			continue;
		XGROW(*rows, *nrows, cap);
		r = &(*rows)[(*nrows)++];
		memset(r, 0, sizeof(*r));
		r->series = i;
		pool = aa_pool(s, ns, base, &npool);
		power_noise(pool, npool, (size_t)d->rounds, 0.95, &pn);
		r->n = (int64_t)npool;
		r->median = pn.median;
		r->mad_rel = pn.mad_rel;
		r->ci_rel = pn.ci_half_rel;
		r->mde = npool >= 2 ? power_mde(pool, npool,
		    (size_t)d->rounds, (size_t)d->rounds, d->po, uc) :
		    INFINITY;
		free(pool);
		for (j = 0; j < ns; j++)
			if (j != i && aa_same_row(&s[j], base))
				aa_compare(d, base, &s[j], uc, r);
	}
	bm_ucache_free(uc);
}

double
aa_excess_p(int k, int n, double alpha)
{
	if (k <= 0)
		return 1;
	return gsl_cdf_binomial_Q((unsigned)(k - 1), alpha, (unsigned)n);
}
