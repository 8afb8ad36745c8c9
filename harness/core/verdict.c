/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verdicts of `stop = decided`: rows of a workload looked at in the
 * run's sample table with stats/sequential's rule (see verdict.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/pdata.h"
#include "harness/core/verdict.h"
#include "lib/util.h"
#include "results/store.h"
#include "stats/ranktests.h"
#include "stats/sampletab.h"
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
	size_t			 mde_n1, mde_n2; /* the executions it is at */
	struct seq_reopen	 ro;		/* its verdicts look after
						 * look: reopened? */
};

struct verdicts {
	const struct experiment	*e;
	struct seq_design	 d;
	struct rowfilter	*filter;	/* the stat-filter */
	struct bm_ucache	*uc;
	int			 paired;	/* alternate or abba: rounds
						   are pairs */
	struct vrow		*rows;
	size_t			 nrows, caprows;
	int			*unmade;	/* per workload: good at give-up */
	char			*advice_error;	/* why a row has no MDE */
	struct pdata_src	 src;		/* the advice's, once read */
	int			 src_loaded;	/* 1 read, -1 failed */
};

struct verdicts *
verdicts_new(const struct experiment *e, const struct seq_design *d,
    const char *filter, int paired, char **cause)
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
	v->paired = paired;
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
	pdata_src_release(&v->src);
	free(v->advice_error);
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

/* One sample of a row: which arm, when, what. */
struct vsample {
	int	arm;		/* 1: baseline, 2: the candidate */
	int	round;
	int	position;
	double	value;
};

static int
vsample_cmp(const void *a, const void *b)
{
	const struct vsample	*x = a, *y = b;

	if (x->round != y->round)
		return (x->round > y->round) - (x->round < y->round);
	return (x->position > y->position) - (x->position < y->position);
}

static double
verdicts_median(double *v, size_t n)
{
	xqsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The rounds of a row as pairs: per round in which both arms have a value
 * (> 0), the log ratio of their medians in it, and whether the baseline
 * ran first (all its samples before the candidate's: 1), second (0) or
 * both (abba: -1). Returns the number of pairs.
 */
static size_t
verdicts_pairs(struct vsample *s, size_t n, double *d, signed char *first)
{
	double	a[64], b[64];
	size_t	i, j, k, np = 0, na, nb;
	int	amin, amax, bmin, bmax, bad;

	xqsort(s, n, sizeof(*s), vsample_cmp);
	for (i = 0; i < n; i = j) {
		na = nb = 0;
		bad = 0;
		amin = bmin = 1 << 30;
		amax = bmax = -1;
		for (j = i; j < n && s[j].round == s[i].round; j++) {
			if (!(s[j].value > 0))
				bad = 1;
			if (s[j].arm == 1 && na < 64) {
				a[na++] = s[j].value;
				amin = s[j].position < amin ? s[j].position :
				    amin;
				amax = s[j].position > amax ? s[j].position :
				    amax;
			} else if (s[j].arm == 2 && nb < 64) {
				b[nb++] = s[j].value;
				bmin = s[j].position < bmin ? s[j].position :
				    bmin;
				bmax = s[j].position > bmax ? s[j].position :
				    bmax;
			}
		}
		if (bad || na == 0 || nb == 0)
			continue;
		k = np++;
		d[k] = log(verdicts_median(b, nb)) - log(verdicts_median(a,
		    na));
		first[k] = amax < bmin ? 1 : bmax < amin ? 0 : -1;
	}
	return np;
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
	d.test = isnan(r->res.p) ? NULL : (char *)seq_test_name(r->res.test);
	d.p_u = r->res.p_u;
	d.p = r->res.p;
	d.boundary = r->res.boundary;
	d.mde = r->mde;
	d.n1 = (int64_t)r->n1;
	d.n2 = (int64_t)r->n2;
	return store_decision_add(st, run_id, &d, cause);
}

/*
 * An undecided row's MDE and the max-rounds that would decide it: the
 * advice `abbench power`, the end of `run` and the report print for the
 * row, from the same input (one value per execution, the calibration's
 * noise when there is one: pdata.h) by the same computation
 * (power_advise) at the run's alpha, so that they are the same numbers.
 * The run's values are the table's; what else the advice needs (the
 * run's arms, its calibration) is read from the store once, at the first
 * row that asks. The decision does not depend on it: an error leaves the
 * row without an MDE and is said by verdicts_print.
 */
static void
verdicts_advise(struct verdicts *v, struct store *st, int64_t run_id,
    struct sampletab *t, struct vrow *r)
{
	struct power_options	o;
	struct power_advice	adv;
	struct pdata_noise	nz;
	char			*cause = NULL;

	if (v->src_loaded == 0) {
		if (pdata_src_load(st, run_id, PDATA_CAL_RUN, t, &v->src,
		    &cause) == -1) {
			v->src_loaded = -1;
			free(v->advice_error);
			v->advice_error = cause;
		} else
			v->src_loaded = 1;
	}
	if (v->src_loaded != 1)
		return;
	sampletab_group(t);
	if (pdata_noise_of(&v->src, r->benchmark, r->unit, 0, &nz) != 1)
		return;
	power_advice_options_init(&o);
	o.alpha = v->d.alpha;
	power_advise(nz.x, nz.n, nz.n_base, nz.n_cand, v->d.effect, &o,
	    v->uc, &adv);
	r->mde = adv.mde;
	r->advise = adv.rounds;
	r->mde_n1 = nz.n_base;
	r->mde_n2 = nz.n_cand;
	pdata_noise_release(&nz);
}

/* A value the look of workload w at the end of round `round` sees. */
static int
verdicts_sees(const struct sampletab_value *x, const int *wl_of_idx,
    size_t nidx, int w, int round)
{
	return x->round <= round && x->exec >= 0 && (size_t)x->exec < nidx &&
	    wl_of_idx[x->exec] == w;
}

/* A row of the table that workload w gave, with its first value. */
struct vlook_row {
	size_t	row;
	int	exec;
	size_t	seq;
};

static int
vlook_row_cmp(const void *a, const void *b)
{
	const struct vlook_row	*x = a, *y = b;

	if (x->exec != y->exec)
		return (x->exec > y->exec) - (x->exec < y->exec);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The rows workload w gave by the end of round `round`, in the order of
 * their first values (the store's: execution, then insertion). *out
 * malloc'd.
 */
static size_t
verdicts_rows_of(const struct sampletab *t, const int *wl_of_idx,
    size_t nidx, int w, int round, struct vlook_row **out)
{
	struct vlook_row	*lr = xcalloc(t->nrows + 1, sizeof(*lr));
	size_t			 i, a, j, n = 0;

	for (i = 0; i < t->nrows; i++) {
		const struct sampletab_row	*row = &t->rows[i];
		int				 have = 0;

		for (a = 0; a < row->ncell; a++) {
			const struct sampletab_cell	*c = sampletab_cell(t,
			    row, a);

			for (j = 0; c != NULL && j < c->n; j++) {
				struct vlook_row	k;

				if (!verdicts_sees(&c->v[j], wl_of_idx, nidx,
				    w, round))
					continue;
				k.row = i;
				k.exec = c->v[j].exec;
				k.seq = c->v[j].seq;
				if (!have || vlook_row_cmp(&k, &lr[n]) < 0)
					lr[n] = k;
				have = 1;
			}
		}
		n += have;
	}
	xqsort(lr, n, sizeof(*lr), vlook_row_cmp);
	*out = lr;
	return n;
}

/*
 * One arm's values of a row that the look sees: into x (and, marked
 * with side, into vs). Returns how many.
 */
static size_t
verdicts_take(const struct sampletab_cell *c, const int *wl_of_idx,
    size_t nidx, int w, int round, int side, double *x, struct vsample *vs,
    size_t *ns)
{
	size_t	j, n = 0;

	for (j = 0; c != NULL && j < c->n; j++) {
		if (!verdicts_sees(&c->v[j], wl_of_idx, nidx, w, round))
			continue;
		x[n++] = c->v[j].value;
		vs[*ns].arm = side;
		vs[*ns].round = c->v[j].round;
		vs[*ns].position = c->v[j].position;
		vs[*ns].value = c->v[j].value;
		(*ns)++;
	}
	return n;
}

/*
 * Row r's decision at look k on the baseline's values x1 and the arm's
 * x2 (sorted here) and, paired, its np rounds' ratios pd (first: pf),
 * with the interval it stands on. A side without values: undecided,
 * with no p.
 */
static void
verdicts_decide(struct verdicts *v, struct vrow *r, int k, double *x1,
    size_t n1, double *x2, size_t n2, double *pd, signed char *pf,
    size_t np, double scale)
{
	struct seq_pairs	pr;
	double			beta;

	r->lo = r->hi = NAN;
	r->mde = NAN;
	if (n1 == 0 || n2 == 0) {
		memset(&r->res, 0, sizeof(r->res));
		r->res.p = NAN;
		r->res.p_u = NAN;
		r->res.boundary = seq_boundary(&v->d, k);
		return;
	}
	pr.d = pd;
	pr.first = pf;
	pr.n = np;
	xqsort(x1, n1, sizeof(*x1), cmp_double);
	xqsort(x2, n2, sizeof(*x2), cmp_double);
	seq_decide_scaled(&v->d, k, x1, n1, x2, n2, np >= 2 ? &pr : NULL,
	    scale, v->uc, &r->res);
	/*
	 * For the reader, the interval the decision stands on: a
	 * difference's at its look's boundary (two sided, the U test's own:
	 * it excludes 0 exactly when p <= the boundary, ties aside), an
	 * equivalence's or an open row's at the equivalence test's level. A
	 * 99% interval beside a difference decided at p <= 0.045 could
	 * straddle 0.
	 */
	beta = r->res.verdict == SEQ_DIFFERENT ? r->res.boundary / 2 :
	    r->res.verdict == SEQ_EQUIVALENT ? r->res.equiv_beta :
	    v->d.equiv_beta;
	r->level = 1 - 2 * beta;
	if (r->res.test == SEQ_TEST_SIGNED_RANK) {
		/* Tukey's, of the per-round ratios. */
		xqsort(pd, np, sizeof(*pd), cmp_double);
		if (signrank_ci(pd, np, beta, &r->lo, &r->hi) == 0) {
			r->lo = expm1(r->lo);
			r->hi = expm1(r->hi);
		}
	} else if (seq_shift_ci(x1, n1, x2, n2, beta, v->uc, &r->lo,
	    &r->hi) == 0) {
		r->lo = expm1(r->lo);
		r->hi = expm1(r->hi);
	}
}

int
verdicts_look(struct verdicts *v, struct store *st, int64_t run_id,
    struct sampletab *t, const int *wl_of_idx, size_t nidx, int w,
    int good, int round, char **cause)
{
	const struct experiment	*e = v->e;
	struct vlook_row	*lr = NULL;
	size_t			 nv = t->nvalues, nr, i, n1, n2, a, ns, np;
	double			*x1, *x2, *pd, scale;
	struct vsample		*vs;
	struct vrow		*r;
	signed char		*pf;
	int			 k = seq_look_at(&v->d, good), all = 1, a0, ai;
	int			 last = (size_t)k + 1 == v->d.nlooks, rc = 0;

	if (k < 0)
		return 0;
	x1 = xcalloc(nv + 1, sizeof(*x1));
	x2 = xcalloc(nv + 1, sizeof(*x2));
	vs = xcalloc(nv + 1, sizeof(*vs));
	pd = xcalloc(nv + 1, sizeof(*pd));
	pf = xcalloc(nv + 1, sizeof(*pf));
	a0 = sampletab_arm(t, e->arms[0].name);
	nr = verdicts_rows_of(t, wl_of_idx, nidx, w, round, &lr);
	for (i = 0; i < nr && rc == 0; i++) {
		const struct sampletab_row	*row = &t->rows[lr[i].row];

		if (!rowfilter_keep(v->filter, row->benchmark, row->unit))
			continue;
		/*
		 * Go writes times in ns/op and benchfmt stores them in
		 * sec/op: their digits (a whole number of ns) tell the
		 * resolution, not those of 1e-06.
		 */
		scale = row->orig_scale != 0 ? row->orig_scale : 1;
		if (scale == 1 && strcmp(row->unit, "sec/op") == 0)
			scale = 1e9;
		for (a = 1; a < e->narms && rc == 0; a++) {
			ai = sampletab_arm(t, e->arms[a].name);
			ns = 0;
			n1 = a0 < 0 ? 0 : verdicts_take(sampletab_cell(t, row,
			    (size_t)a0), wl_of_idx, nidx, w, round, 1, x1, vs,
			    &ns);
			n2 = ai < 0 ? 0 : verdicts_take(sampletab_cell(t, row,
			    (size_t)ai), wl_of_idx, nidx, w, round, 2, x2, vs,
			    &ns);
			np = v->paired ? verdicts_pairs(vs, ns, pd, pf) : 0;
			r = verdicts_row(v, w, row->benchmark, row->unit,
			    (int)a);
			r->looked = 1;
			r->look = k;
			r->good = good;
			r->round = round;
			r->n1 = n1;
			r->n2 = n2;
			verdicts_decide(v, r, k, x1, n1, x2, n2, pd, pf, np,
			    scale);
			seq_reopen_step(&r->ro, r->res.verdict, k, round);
			if (r->res.verdict == SEQ_UNDECIDED) {
				all = all && r->res.futile;
				if ((last || r->res.futile) && n1 > 0 &&
				    n2 > 0)
					verdicts_advise(v, st, run_id, t, r);
			}
			rc = verdicts_store(v, st, run_id, r, cause);
		}
	}
	free(lr);
	free(vs);
	free(pd);
	free(pf);
	free(x1);
	free(x2);
	return rc == -1 ? -1 : all || last;
}

int
verdicts_at_look(const struct verdicts *v, int good)
{
	return seq_look_at(&v->d, good) >= 0;
}

void
verdicts_count(const struct verdicts *v, size_t *rows, size_t *decided,
    size_t *stopped, size_t *reopened)
{
	const struct vrow	*r;
	size_t			 i;

	*rows = v->nrows;
	*decided = *stopped = *reopened = 0;
	for (i = 0; i < v->nrows; i++) {
		r = &v->rows[i];
		if (!r->looked)
			continue;
		if (r->res.verdict != SEQ_UNDECIDED)
			(*decided)++;
		else if (r->res.futile)
			(*stopped)++;
		if (r->res.verdict == SEQ_UNDECIDED && r->ro.reopened > 0)
			(*reopened)++;
	}
}

void
verdicts_unmade(struct verdicts *v, int w, int good)
{
	if (w >= 0 && (size_t)w < v->e->nworkloads)
		v->unmade[w] = good;
}

/*
 * What a reader of a verdict must know besides it: the U test's p that
 * `stat` prints where it says otherwise, a resolution too coarse for
 * equivalence, a position effect that made the pairs unusable.
 */
static void
verdicts_print_notes(const struct verdicts *v, const struct vrow *r,
    FILE *fp)
{
	const struct seq_result	*s = &r->res;
	char			 note[SEQ_REOPEN_NOTE];

	if (s->test != SEQ_TEST_U_BM && isfinite(s->p_u))
		fprintf(fp, "; U test p=%.3g", s->p_u);
	else if (s->test == SEQ_TEST_U_BM && isfinite(s->p_alt))
		fprintf(fp, "; U p=%.3g, Brunner-Munzel p=%.3g", s->p_u,
		    s->p_alt);
	if (s->verdict == SEQ_DIFFERENT && isfinite(s->p_u) &&
	    s->p_u > v->d.alpha)
		fprintf(fp, "; the U test that `stat` prints says ~: they "
		    "disagree");
	if (s->verdict == SEQ_EQUIVALENT && isfinite(s->p_u) &&
	    s->p_u <= v->d.alpha)
		fprintf(fp, "; the U test that `stat` prints finds a change "
		    "(inside +-%g%%): they disagree", v->d.effect * 100);
	if (s->coarse && s->verdict != SEQ_DIFFERENT && isfinite(
	    s->resolution))
		fprintf(fp, "; equivalence refused: rounding to the values' "
		    "step moves a ratio by up to %.3g%%, not less than "
		    "+-%g%%", expm1(s->resolution) * 100, v->d.effect * 100);
	else if (s->coarse && s->verdict != SEQ_DIFFERENT)
		fprintf(fp, "; equivalence refused: the values' step is not "
		    "known to be finer than +-%g%% (one value, few digits)",
		    v->d.effect * 100);
	if (s->position_large)
		fprintf(fp, "; position in the round changes the ratio by "
		    "%+.3g%%, beyond the margin: decided unpaired",
		    expm1(s->position) * 100);
	if (seq_reopen_note(&r->ro, note, sizeof(note)) > 0)
		fprintf(fp, "; %s on more samples, its workload going on for "
		    "another row", note);
}

void
verdicts_print(const struct verdicts *v, FILE *fp)
{
	const struct experiment	*e = v->e;
	const struct vrow	*r;
	size_t			 i, k;

	/* The design a line a part (one line of ~600 characters was
	 * the newcomer's friction 15); then a row a line. */
	fprintf(fp, "verdicts (stop = decided: effect %g%%, max-rounds %d):\n",
	    v->d.effect * 100, v->d.max_rounds);
	fprintf(fp, "  | different: p <= %g at looks", v->d.interim_p);
	for (k = 0; k + 1 < v->d.nlooks; k++)
		fprintf(fp, " %d", v->d.looks[k]);
	fprintf(fp, ", p <= %g at %d (%s)\n  | equivalent: p > %g",
	    v->d.final_p, v->d.max_rounds, v->paired ? "signed-rank test of "
	    "the per-round ratios, the U and Brunner-Munzel tests where the "
	    "round's position matters" : "the U and Brunner-Munzel tests "
	    "both", v->d.equiv_p);
	if (v->d.equiv_project)
		fprintf(fp, ", p projected to %d rounds > %g",
		    v->d.max_rounds, v->d.alpha);
	if (v->paired && v->d.half_beta <= 0)
		fprintf(fp, " and the %.4g%% interval of the per-round ratios "
		    "(Tukey's) or of the arms' shift (Hodges-Lehmann's; "
		    "%.4g%% below 7 rounds), widened by the values' "
		    "resolution, within +-%g%%", 100 * (1 - v->d.equiv_beta),
		    100 * (1 - 2 * v->d.equiv_beta), v->d.effect * 100);
	else
		fprintf(fp, " and the %.3g%% interval of the change, widened "
		    "by the values' resolution, within +-%g%%",
		    100 * (1 - 2 * v->d.equiv_beta), v->d.effect * 100);
	if (v->d.half_beta > 0)
		fprintf(fp, ", its %g%% one within +-%g%%",
		    100 * (1 - 2 * v->d.half_beta), v->d.effect / 2 * 100);
	if (v->d.futility_cp > 0)
		fprintf(fp, "\n  | undecided: a row whose values' step rules "
		    "out equivalence stops when its predictive power is "
		    "below %g%%", v->d.futility_cp * 100);
	fprintf(fp, "\n  | contract: P(different | no change) <= %g, "
	    "P(equivalent | change >= %g%%) <= 5%%\n", v->d.alpha,
	    v->d.effect * 100);
	for (i = 0; i < v->nrows; i++) {
		r = &v->rows[i];
		fprintf(fp, "  %s %s %s vs %s: ", r->benchmark, r->unit,
		    e->arms[r->arm].name, e->arms[0].name);
		switch (r->res.verdict) {
		case SEQ_DIFFERENT:
		case SEQ_EQUIVALENT:
			fprintf(fp, "%s after %d good rounds (look %d, round "
			    "%d, %s p=%.3g n=%zu+%zu",
			    r->res.verdict == SEQ_DIFFERENT ? "different" :
			    "equivalent", r->good, r->look + 1, r->round + 1,
			    seq_test_name(r->res.test), r->res.p, r->n1,
			    r->n2);
			if (isfinite(r->lo) && isfinite(r->hi))
				fprintf(fp, "; change %+.3g%% to %+.3g%% at "
				    "%.3g%%", r->lo * 100, r->hi * 100,
				    100 * r->level);
			verdicts_print_notes(v, r, fp);
			fprintf(fp, ")\n");
			break;
		case SEQ_UNDECIDED:
			fprintf(fp, "undecided after %d good rounds (%s p=%.3g "
			    "n=%zu+%zu", r->good, seq_test_name(r->res.test),
			    r->res.p, r->n1, r->n2);
			if (isfinite(r->mde) && (r->mde_n1 != r->n1 ||
			    r->mde_n2 != r->n2))
				/* gobench's lines of one execution count
				 * once: the n of power and the report. */
				fprintf(fp, "; MDE %.3g%% at n=%zu+%zu "
				    "executions, alpha %g", r->mde * 100,
				    r->mde_n1, r->mde_n2, v->d.alpha);
			else if (isfinite(r->mde))
				fprintf(fp, "; MDE %.3g%% at alpha %g",
				    r->mde * 100, v->d.alpha);
			else if (r->good >= v->d.max_rounds)
				fprintf(fp, "; MDE beyond +1000%%");
			if (r->res.coarse)
				;	/* no rounds make it equivalent */
			else if (r->good >= v->d.max_rounds && r->advise > 0)
				fprintf(fp, "; for %g%%, max-rounds %zu would",
				    v->d.effect * 100, r->advise);
			else if (r->good >= v->d.max_rounds &&
			    !r->res.coarse)
				fprintf(fp, "; for %g%%, not even max-rounds "
				    "%d would", v->d.effect * 100,
				    POWER_ADVICE_MAX_N);
			verdicts_print_notes(v, r, fp);
			if (r->res.futile)
				fprintf(fp, "): stopped: it cannot be shown "
				    "equivalent, and what it shows so far "
				    "would not be shown different by "
				    "max-rounds %d (predictive power < "
				    "%g%%)\n",
				    v->d.max_rounds,
				    v->d.futility_cp * 100);
			else
				fprintf(fp, ")%s\n", r->good <
				    v->d.max_rounds ? ": not at its last "
				    "look" : ": neither a change nor \"no "
				    "change\" shown");
			break;
		}
	}
	if (v->advice_error != NULL)
		fprintf(fp, "  no MDE or rounds advice: %s\n",
		    v->advice_error);
	for (k = 0; k < e->nworkloads; k++)
		if (v->unmade[k] >= 0)
			fprintf(fp, "  workload '%s': failed rounds could not "
			    "be made up (%d good rounds of max-rounds %d)\n",
			    e->workloads[k].name, v->unmade[k],
			    v->d.max_rounds);
}
