/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verdicts of `stop = decided`: rows of a workload looked at from the
 * store with stats/sequential's rule (see verdict.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/verdict.h"
#include "lib/util.h"
#include "results/store.h"
#include "stats/utest.h"
#include "stats/power.h"
#include "stats/rowfilter.h"

struct vrow {
	int			 workload;
	char			*benchmark;
	char			*unit;
	int			 arm;		/* against arm 0 */
	struct seq_result	 res;
	int			 looked;	/* a look has seen it */
	int			 look;		/* index of its last look */
	int			 good;		/* good rounds at it */
	int			 round;		/* run round of it */
	size_t			 n1, n2;
	double			 lo, hi;	/* the shift's interval (ratio
						 * - 1), NAN when none */
	double			 level;		/* its confidence */
	double			 mde;		/* undecided at the last look */
	size_t			 advise;	/* rounds power advises then */
};

struct verdicts {
	const struct experiment	*e;
	struct seq_design	 d;
	struct rowfilter	*filter;	/* the stat-filter */
	struct bm_ucache	*uc;
	struct vrow		*rows;
	size_t			 nrows, caprows;
	int			*unmade;	/* per workload: good at give-up */
};

struct verdicts *
verdicts_new(const struct experiment *e, const struct seq_design *d,
    const char *filter, char **cause)
{
	struct verdicts		*v;
	struct rowfilter	*f;
	size_t			 w;

	if ((f = rowfilter_new(filter, cause)) == NULL)
		return NULL;
	v = xcalloc(1, sizeof(*v));
	v->e = e;
	v->d = *d;
	v->filter = f;
	v->uc = bm_ucache_new();
	v->unmade = xcalloc(e->nworkloads + 1, sizeof(*v->unmade));
	for (w = 0; w < e->nworkloads; w++)
		v->unmade[w] = -1;
	return v;
}

void
verdicts_free(struct verdicts *v)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < v->nrows; i++) {
		free(v->rows[i].benchmark);
		free(v->rows[i].unit);
	}
	free(v->rows);
	rowfilter_free(v->filter);
	bm_ucache_free(v->uc);
	free(v->unmade);
	free(v);
}

static struct vrow *
verdicts_row(struct verdicts *v, int w, const char *benchmark,
    const char *unit, int arm)
{
	struct vrow	*r;
	size_t		 i;

	for (i = 0; i < v->nrows; i++) {
		r = &v->rows[i];
		if (r->workload == w && r->arm == arm &&
		    strcmp(r->benchmark, benchmark) == 0 &&
		    strcmp(r->unit, unit) == 0)
			return r;
	}
	XGROW(v->rows, v->nrows, v->caprows);
	r = &v->rows[v->nrows++];
	memset(r, 0, sizeof(*r));
	r->workload = w;
	r->benchmark = xstrdup(benchmark);
	r->unit = xstrdup(unit);
	r->arm = arm;
	r->lo = r->hi = NAN;
	r->mde = NAN;
	return r;
}

static int
verdicts_arm_index(const struct experiment *e, const char *name)
{
	size_t	a;

	for (a = 0; a < e->narms; a++)
		if (strcmp(e->arms[a].name, name) == 0)
			return (int)a;
	return -1;
}

/* The row's decision at this look, stored with the run. */
static int
verdicts_store(struct verdicts *v, struct store *st, int64_t run_id,
    const struct vrow *r, char **cause)
{
	struct store_decision	d;

	memset(&d, 0, sizeof(d));
	d.workload = v->e->workloads[r->workload].name;
	d.look = r->look;
	d.good_rounds = r->good;
	d.round = r->round;
	d.benchmark = r->benchmark;
	d.unit = r->unit;
	d.arm = v->e->arms[r->arm].name;
	d.base_arm = v->e->arms[0].name;
	d.verdict = (char *)seq_verdict_name(r->res.verdict);
	d.p = r->res.p;
	d.boundary = r->res.boundary;
	d.mde = r->mde;
	d.n1 = (int64_t)r->n1;
	d.n2 = (int64_t)r->n2;
	return store_decision_add(st, run_id, &d, cause);
}

int
verdicts_look(struct verdicts *v, struct store *st, int64_t run_id,
    const int *wl_of_idx, size_t nidx, int w, int good, int round,
    char **cause)
{
	const struct experiment	*e = v->e;
	struct store_value	*sv = NULL;
	size_t			 nv = 0, i, j, n1, n2, a;
	double			*x1, *x2, beta;
	char			*seen;
	int			 k = seq_look_at(&v->d, good), all = 1, ai, rc;
	int			 last = (size_t)k + 1 == v->d.nlooks;

	if (k < 0)
		return 0;
	if (store_values(st, run_id, NULL, 0, &sv, &nv, cause) == -1)
		return -1;
	x1 = xcalloc(nv + 1, sizeof(*x1));
	x2 = xcalloc(nv + 1, sizeof(*x2));
	seen = xcalloc(nv + 1, 1);
	for (i = 0; i < nv; i++) {
		/* Each (benchmark, unit) of this workload once. */
		if (seen[i] || sv[i].round > round || sv[i].plan_idx < 0 ||
		    (size_t)sv[i].plan_idx >= nidx ||
		    wl_of_idx[sv[i].plan_idx] != w)
			continue;
		for (j = i; j < nv; j++)
			if (strcmp(sv[j].benchmark, sv[i].benchmark) == 0 &&
			    strcmp(sv[j].unit, sv[i].unit) == 0)
				seen[j] = 1;
		if (!rowfilter_keep(v->filter, sv[i].benchmark, sv[i].unit))
			continue;
		for (a = 1; a < e->narms; a++) {
			struct vrow	*r;

			n1 = n2 = 0;
			for (j = 0; j < nv; j++) {
				if (sv[j].round > round ||
				    sv[j].plan_idx < 0 ||
				    (size_t)sv[j].plan_idx >= nidx ||
				    wl_of_idx[sv[j].plan_idx] != w ||
				    strcmp(sv[j].benchmark,
				    sv[i].benchmark) != 0 ||
				    strcmp(sv[j].unit, sv[i].unit) != 0)
					continue;
				ai = verdicts_arm_index(e, sv[j].arm);
				if (ai == 0)
					x1[n1++] = sv[j].value;
				else if (ai == (int)a)
					x2[n2++] = sv[j].value;
			}
			r = verdicts_row(v, w, sv[i].benchmark, sv[i].unit,
			    (int)a);
			r->looked = 1;
			r->look = k;
			r->good = good;
			r->round = round;
			r->n1 = n1;
			r->n2 = n2;
			if (n1 == 0 || n2 == 0) {
				memset(&r->res, 0, sizeof(r->res));
				r->res.p = NAN;
				r->res.boundary = seq_boundary(&v->d, k);
				r->lo = r->hi = NAN;
				r->mde = NAN;
				all = 0;
				if (verdicts_store(v, st, run_id, r, cause) ==
				    -1) {
					rc = -1;
					goto out;
				}
				continue;
			}
			qsort(x1, n1, sizeof(*x1), cmp_double);
			qsort(x2, n2, sizeof(*x2), cmp_double);
			seq_decide(&v->d, k, x1, n1, x2, n2, v->uc, &r->res);
			/*
			 * For the reader, the interval the decision stands
			 * on: a difference's at its look's boundary (two
			 * sided, the U test's own: it excludes 0 exactly
			 * when p <= the boundary, ties aside), an
			 * equivalence's or an open row's at the equivalence
			 * test's level. A 99% interval beside a difference
			 * decided at p <= 0.045 could straddle 0.
			 */
			beta = r->res.verdict == SEQ_DIFFERENT ?
			    r->res.boundary / 2 : v->d.equiv_beta;
			r->level = 1 - 2 * beta;
			if (seq_shift_ci(x1, n1, x2, n2, beta,
			    v->uc, &r->lo, &r->hi) == 0) {
				r->lo = expm1(r->lo);
				r->hi = expm1(r->hi);
			}
			r->mde = NAN;
			if (r->res.verdict == SEQ_UNDECIDED) {
				all = 0;
				if (last) {
					struct power_options	o;

					/*
					 * As power and run advise it (the
					 * spread bound is power_rounds'
					 * only).
					 */
					power_advice_options_init(&o);
					o.reps = 200;
					r->mde = power_mde(x1, n1, n1, n2, &o,
					    v->uc);
					r->advise = power_rounds(x1, n1,
					    v->d.effect, 0, &o, v->uc);
				}
			}
			if (verdicts_store(v, st, run_id, r, cause) == -1) {
				rc = -1;
				goto out;
			}
		}
	}
	rc = all || last;
out:
	free(seen);
	free(x1);
	free(x2);
	store_values_free(sv, nv);
	return rc;
}

void
verdicts_count(const struct verdicts *v, size_t *rows, size_t *decided)
{
	size_t	i;

	*rows = v->nrows;
	*decided = 0;
	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].looked && v->rows[i].res.verdict !=
		    SEQ_UNDECIDED)
			(*decided)++;
}

void
verdicts_unmade(struct verdicts *v, int w, int good)
{
	if (w >= 0 && (size_t)w < v->e->nworkloads)
		v->unmade[w] = good;
}

void
verdicts_print(const struct verdicts *v, FILE *fp)
{
	const struct experiment	*e = v->e;
	const struct vrow	*r;
	size_t			 i, k;

	fprintf(fp, "verdicts (stop = decided: effect %g%%, max-rounds %d; "
	    "different at p <= %g at looks", v->d.effect * 100,
	    v->d.max_rounds, v->d.interim_p);
	for (k = 0; k + 1 < v->d.nlooks; k++)
		fprintf(fp, " %d", v->d.looks[k]);
	fprintf(fp, ", p <= %g at %d; equivalent: p > %g", v->d.final_p,
	    v->d.max_rounds, v->d.equiv_p);
	if (v->d.equiv_project)
		fprintf(fp, ", p projected to %d rounds > %g",
		    v->d.max_rounds, v->d.alpha);
	fprintf(fp, " and the %g%% interval of the shift within +-%g%%",
	    100 * (1 - 2 * v->d.equiv_beta), v->d.effect * 100);
	if (v->d.half_beta > 0)
		fprintf(fp, ", its %g%% one within +-%g%%",
		    100 * (1 - 2 * v->d.half_beta), v->d.effect / 2 * 100);
	fprintf(fp, "):\n");
	for (i = 0; i < v->nrows; i++) {
		r = &v->rows[i];
		fprintf(fp, "  %s %s %s vs %s: ", r->benchmark, r->unit,
		    e->arms[r->arm].name, e->arms[0].name);
		switch (r->res.verdict) {
		case SEQ_DIFFERENT:
		case SEQ_EQUIVALENT:
			fprintf(fp, "%s after %d good rounds (look %d, round "
			    "%d, p=%.3g n=%zu+%zu",
			    r->res.verdict == SEQ_DIFFERENT ? "different" :
			    "equivalent", r->good, r->look + 1, r->round + 1,
			    r->res.p, r->n1, r->n2);
			if (isfinite(r->lo) && isfinite(r->hi))
				fprintf(fp, "; change %+.3g%% to %+.3g%% at "
				    "%.3g%%", r->lo * 100, r->hi * 100,
				    100 * r->level);
			fprintf(fp, ")\n");
			break;
		case SEQ_UNDECIDED:
			fprintf(fp, "undecided after %d good rounds (p=%.3g "
			    "n=%zu+%zu", r->good, r->res.p, r->n1, r->n2);
			if (isfinite(r->mde))
				fprintf(fp, "; MDE %.3g%%", r->mde * 100);
			else if (r->good >= v->d.max_rounds)
				fprintf(fp, "; MDE beyond +1000%%");
			if (r->good >= v->d.max_rounds && r->advise > 0)
				fprintf(fp, "; for %g%%, max-rounds %zu would",
				    v->d.effect * 100, r->advise);
			else if (r->good >= v->d.max_rounds)
				fprintf(fp, "; for %g%%, not even max-rounds "
				    "%d would", v->d.effect * 100,
				    POWER_ADVICE_MAX_N);
			fprintf(fp, ")%s\n", r->good < v->d.max_rounds ?
			    ": not at its last look" : ": not \"no change\"");
			break;
		}
	}
	for (k = 0; k < e->nworkloads; k++)
		if (v->unmade[k] >= 0)
			fprintf(fp, "  workload '%s': failed rounds could not "
			    "be made up (%d good rounds of max-rounds %d)\n",
			    e->workloads[k].name, v->unmade[k],
			    v->d.max_rounds);
}
