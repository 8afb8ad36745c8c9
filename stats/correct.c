/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Holm and Benjamini-Hochberg p-value adjustments (as R's p.adjust).
 */
#include <stdlib.h>

#include "lib/util.h"
#include "stats/correct.h"

struct pidx {
	double	p;
	size_t	i;
};

/* Ascending p; ties keep their input order so results are deterministic. */
static int
pidx_cmp(const void *a, const void *b)
{
	const struct pidx	*x = a, *y = b;

	if (x->p < y->p)
		return -1;
	if (x->p > y->p)
		return 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static struct pidx *
sorted_pvalues(const double *p, size_t n)
{
	struct pidx	*s = xmalloc((n ? n : 1) * sizeof(*s));
	size_t		 i;

	for (i = 0; i < n; i++) {
		s[i].p = p[i];
		s[i].i = i;
	}
	xqsort(s, n, sizeof(*s), pidx_cmp);
	return s;
}

void
pvalues_holm(const double *p, size_t n, double *adj)
{
	struct pidx	*s = sorted_pvalues(p, n);
	double		 run = 0, v;
	size_t		 k;

	/* adj(k) = max over j <= k of min(1, (n - j) * p(j)), 0-based. */
	for (k = 0; k < n; k++) {
		v = (double)(n - k) * s[k].p;
		if (v > 1)
			v = 1;
		if (v > run)
			run = v;
		adj[s[k].i] = run;
	}
	free(s);
}

void
pvalues_bh(const double *p, size_t n, double *adj)
{
	struct pidx	*s = sorted_pvalues(p, n);
	double		 run = 1, v;
	size_t		 k;

	/* adj(k) = min over j >= k of min(1, n / (j + 1) * p(j)). */
	for (k = n; k-- > 0;) {
		v = (double)n / (double)(k + 1) * s[k].p;
		if (v < run)
			run = v;
		adj[s[k].i] = run;
	}
	free(s);
}
