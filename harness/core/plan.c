/*
 * The plan of a run: which (round, workload, arm) comes when. Orders that
 * cancel drift (alternate, abba, random) and one that shows it
 * (sequential). Deterministic for a given experiment, order and seed, so
 * `run --resume` can rebuild it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "harness/core/runner.h"

void
plan_round_order(enum run_order order, uint64_t seed, int round,
    size_t narms, int *out)
{
	size_t	i;

	for (i = 0; i < narms; i++)
		out[i] = (int)i;
	switch (order) {
	case ORDER_ALTERNATE:
		if (round % 2 == 1) {
			for (i = 0; i < narms; i++)
				out[i] = (int)(narms - 1 - i);
		}
		break;
	case ORDER_RANDOM: {
		gsl_rng		*r = gsl_rng_alloc(gsl_rng_mt19937);
		uint64_t	 s = seed ^ ((uint64_t)(round + 1) *
		    0x9E3779B97F4A7C15ULL);

		s ^= s >> 29;
		gsl_rng_set(r, (unsigned long)s);
		gsl_ran_shuffle(r, out, narms, sizeof *out);
		gsl_rng_free(r);
		break;
	}
	case ORDER_ABBA:	/* the round holds both halves: see plan_build */
	case ORDER_SEQUENTIAL:
		break;
	}
}

static void
push(struct plan_entry **v, size_t *n, size_t *cap, int round, int position,
    int arm, int wl, int warmup)
{
	struct plan_entry	*p;

	XGROW(*v, *n, *cap);
	p = &(*v)[*n];
	p->idx = (int)*n;
	p->round = round;
	p->position = position;
	p->arm = arm;
	p->workload = wl;
	p->warmup = warmup;
	(*n)++;
}

int
plan_build(const struct experiment *e, enum run_order order, uint64_t seed,
    struct plan_entry **out, size_t *n, char **cause)
{
	struct plan_entry	*v = NULL;
	size_t			 cap = 0, cnt = 0, a, w;
	int			*arms, r, total, pos;

	if (e->narms == 0 || e->nworkloads == 0)
		return set_cause(cause, "nothing to run");
	total = e->warmup + e->rounds;
	if (total <= 0)
		return set_cause(cause, "no rounds to run");
	arms = xcalloc(e->narms, sizeof *arms);
	if (order == ORDER_SEQUENTIAL) {
		/* All of arm 0, then all of arm 1, ...: shows drift only. */
		for (a = 0; a < e->narms; a++) {
			for (r = 0; r < total; r++) {
				for (w = 0; w < e->nworkloads; w++)
					push(&v, &cnt, &cap, r, (int)w,
					    (int)a, (int)w, r < e->warmup);
			}
		}
	} else {
		for (r = 0; r < total; r++) {
			pos = 0;
			plan_round_order(order, seed, r, e->narms, arms);
			for (w = 0; w < e->nworkloads; w++) {
				for (a = 0; a < e->narms; a++)
					push(&v, &cnt, &cap, r, pos++, arms[a],
					    (int)w, r < e->warmup);
				if (order != ORDER_ABBA)
					continue;
				for (a = e->narms; a-- > 0; )
					push(&v, &cnt, &cap, r, pos++, arms[a],
					    (int)w, r < e->warmup);
			}
		}
	}
	free(arms);
	*out = v;
	*n = cnt;
	return 0;
}
