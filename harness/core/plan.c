/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan of a run: which (round, workload, arm) comes when. Orders that
 * cancel drift (alternate, abba, random) and one that shows it
 * (sequential). Made round by round for the workloads still active
 * (plan_round): deterministic for a given experiment, order, seed and
 * history of active workloads, so `run --resume` rebuilds it from what is
 * stored.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "harness/core/plan.h"

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

void
plan_round(const struct experiment *e, enum run_order order, uint64_t seed,
    int round, const int *active, struct plan_entry **out, size_t *n,
    size_t *cap)
{
	int	*arms = xcalloc(e->narms, sizeof *arms), pos = 0;
	size_t	 a, w;

	plan_round_order(order, seed, round, e->narms, arms);
	for (w = 0; w < e->nworkloads; w++) {
		if (active != NULL && !active[w])
			continue;
		for (a = 0; a < e->narms; a++)
			push(out, n, cap, round, pos++, arms[a], (int)w,
			    round < e->warmup);
		if (order != ORDER_ABBA)
			continue;
		for (a = e->narms; a-- > 0; )
			push(out, n, cap, round, pos++, arms[a], (int)w,
			    round < e->warmup);
	}
	free(arms);
}

int
plan_build(const struct experiment *e, enum run_order order, uint64_t seed,
    struct plan_entry **out, size_t *n, char **cause)
{
	struct plan_entry	*v = NULL;
	size_t			 cap = 0, cnt = 0, a, w;
	int			*arms, r, total;

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
		/* Every workload in every round: round by round. */
		for (r = 0; r < total; r++)
			plan_round(e, order, seed, r, NULL, &v, &cnt, &cap);
	}
	free(arms);
	*out = v;
	*n = cnt;
	return 0;
}
