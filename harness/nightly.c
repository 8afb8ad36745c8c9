/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly verdict (see nightly.h): gather a run's history from the
 * store, test the run against its baseline (Mann-Whitney U, Holm) and look
 * for change points in the nightly medians (E-divisive means).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <jansson.h>

#include "harness/nightly.h"
#include "harness/powerdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "stats/quantile.h"
#include "stats/utest.h"
#include "stats/power.h"
#include "stats/changepoint.h"
#include "stats/correct.h"

/* Per-row working state while the history is read. */
struct nightly_acc {
	double	*cand;
	size_t	 ncand, capcand;
	double	*base;
	size_t	 nbase, capbase;
	double	*tmp;
	size_t	 ntmp, captmp;
	double	*nights;	/* per-night medians, NaN when missing */
	/* The execution being read: its values, to count it once (by
	 * their median) when it printed the benchmark several times. */
	double	*grp;
	size_t	 ngrp, capgrp;
	int	 grp_plan;
	int	 grp_dest;	/* 0 candidate, 1 baseline, 2 history only */
};

/* A small string -> index hash map with open addressing. */
struct nightly_map {
	char	**keys;
	size_t	 *idx;
	size_t	  cap;
};

static uint64_t
nightly_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void
nightly_map_init(struct nightly_map *m, size_t want)
{
	m->cap = 64;
	while (m->cap < want * 2)
		m->cap *= 2;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->idx = xcalloc(m->cap, sizeof(*m->idx));
}

static void
nightly_map_free(struct nightly_map *m)
{
	size_t	i;

	for (i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->idx);
}

/* Index of key, or (size_t)-1; with add, insert it as value. */
static size_t
nightly_map_get(struct nightly_map *m, const char *key, int add,
    size_t value)
{
	size_t	i = nightly_hash(key) & (m->cap - 1);

	while (m->keys[i] != NULL) {
		if (strcmp(m->keys[i], key) == 0)
			return m->idx[i];
		i = (i + 1) & (m->cap - 1);
	}
	if (!add)
		return (size_t)-1;
	m->keys[i] = xstrdup(key);
	m->idx[i] = value;
	return value;
}

static void
nightly_push(double **v, size_t *n, size_t *cap, double x)
{
	XGROW(*v, *n, *cap);
	(*v)[(*n)++] = x;
}

static double
nightly_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return stats_quantile_sorted(v, n, 0.5);
}

const char *
nightly_verdict_name(enum nightly_verdict v)
{
	switch (v) {
	case NIGHTLY_UNCHANGED:
		return "unchanged";
	case NIGHTLY_IMPROVED:
		return "improved";
	case NIGHTLY_REGRESSED:
		return "regressed";
	case NIGHTLY_INCONCLUSIVE:
		return "inconclusive";
	}
	return "?";
}

void
nightly_options_init(struct nightly_options *o)
{
	memset(o, 0, sizeof(*o));
	o->baseline = 5;
	o->history = 60;
	o->threshold = 0.02;
	o->alpha = 0.05;
	o->cp_alpha = 0.01;
	o->cp_permutations = 199;
	o->cp_min_size = 3;
	o->seed = 1;
}

static int
nightly_has_suffix(const char *s, const char *suffix)
{
	size_t	ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

int
nightly_unit_better(const char *unit, const char *stored)
{
	if (stored != NULL) {
		if (strcmp(stored, "higher") == 0)
			return 1;
		if (strcmp(stored, "lower") == 0)
			return -1;
	}
	/* Costs first: a rate of context switches is still a cost. */
	if (strstr(unit, "ctxsw") != NULL || strstr(unit, "overhead") != NULL)
		return -1;
	if (strcmp(unit, "sec/op") == 0 ||
	    nightly_has_suffix(unit, "-sec/op") ||
	    strcmp(unit, "B") == 0 || nightly_has_suffix(unit, "-B") ||
	    strcmp(unit, "B/op") == 0 || strcmp(unit, "allocs/op") == 0)
		return -1;
	if (strcmp(unit, "iops") == 0 ||
	    strcmp(unit, "bytes_per_second") == 0 ||
	    strcmp(unit, "ops_per_second") == 0 ||
	    nightly_has_suffix(unit, "/s") ||
	    nightly_has_suffix(unit, "_per_second"))
		return 1;
	return 0;
}

/* Smallest two-sided p the exact U test can give for n1 and n2. */
static double
nightly_min_p(size_t n1, size_t n2)
{
	double	lc;

	lc = lgamma((double)(n1 + n2) + 1) - lgamma((double)n1 + 1) -
	    lgamma((double)n2 + 1);
	return fmin(1, 2 * exp(-lc));
}

/*
 * The host class of a run placed by a cluster scheduler: its partition and
 * shape ("c4/vcpus=4"), or NULL for a run on a named host. Cloud nodes are
 * new every night: their history is their class's, not their hostname's.
 */
char *
nightly_host_class(struct store *st, int64_t run_id)
{
	struct store_kv	*kv = NULL;
	size_t		 n = 0, i;
	const char	*part = NULL, *vcpus = NULL;
	char		*class = NULL;

	if (store_config_list(st, run_id, &kv, &n, NULL) == -1)
		return NULL;
	for (i = 0; i < n; i++) {
		if (kv[i].arm[0] != '\0')
			continue;
		if (strcmp(kv[i].key, "partition") == 0)
			part = kv[i].value;
		else if (strcmp(kv[i].key, "vcpus") == 0)
			vcpus = kv[i].value;
	}
	if (part != NULL)
		class = xasprintf("%s/vcpus=%s", part, vcpus != NULL ? vcpus :
		    "?");
	store_kv_free(kv, n);
	return class;
}

static int
nightly_same_place(struct store *st, const struct store_run *r,
    const struct store_run *cand, const char *cand_class)
{
	char	*class;
	int	 same;

	if (cand_class == NULL)
		return strcmp(r->host ? r->host : "", cand->host ?
		    cand->host : "") == 0;
	class = nightly_host_class(st, r->id);
	same = class != NULL && strcmp(class, cand_class) == 0;
	free(class);
	return same;
}

static int
nightly_find_runs(struct store *st, const struct store_run *cand,
    const struct nightly_options *o, struct nightly_result *out,
    char **cause)
{
	struct store_run	*runs = NULL;
	size_t			 nruns = 0, i, nprev = 0, first;
	int64_t			*prev = NULL;

	if (store_runs_list(st, &runs, &nruns, cause) == -1)
		return -1;
	prev = xcalloc(nruns + 1, sizeof(*prev));
	for (i = 0; i < nruns; i++) {
		if (runs[i].id >= cand->id ||
		    strcmp(runs[i].status, RUN_DONE) != 0 ||
		    strcmp(runs[i].name, cand->name) != 0 ||
		    !nightly_same_place(st, &runs[i], cand, out->host_class))
			continue;
		prev[nprev++] = runs[i].id;
	}
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);

	first = 0;
	if (o->history > 0 && nprev + 1 > o->history)
		first = nprev + 1 - o->history;
	out->nhistory = nprev - first + 1;
	out->history_ids = xcalloc(out->nhistory, sizeof(int64_t));
	memcpy(out->history_ids, prev + first,
	    (nprev - first) * sizeof(int64_t));
	out->history_ids[out->nhistory - 1] = cand->id;

	first = nprev > o->baseline ? nprev - o->baseline : 0;
	out->nbaseline = nprev - first;
	out->baseline_ids = xcalloc(out->nbaseline + 1, sizeof(int64_t));
	memcpy(out->baseline_ids, prev + first,
	    out->nbaseline * sizeof(int64_t));
	free(prev);
	return 0;
}

/* The median of the execution in a->grp, where it belongs. */
static void
nightly_flush(struct nightly_acc *a)
{
	double	m;

	if (a->ngrp == 0)
		return;
	m = nightly_median(a->grp, a->ngrp);
	a->ngrp = 0;
	if (a->grp_dest == 0) {
		nightly_push(&a->cand, &a->ncand, &a->capcand, m);
		return;
	}
	nightly_push(&a->tmp, &a->ntmp, &a->captmp, m);
	if (a->grp_dest == 1)
		nightly_push(&a->base, &a->nbase, &a->capbase, m);
}

/* Add value v of execution plan (of the run being read) to a. */
static void
nightly_add(struct nightly_acc *a, int plan, int dest, double v)
{
	if (a->ngrp > 0 && (a->grp_plan != plan || a->grp_dest != dest))
		nightly_flush(a);
	a->grp_plan = plan;
	a->grp_dest = dest;
	nightly_push(&a->grp, &a->ngrp, &a->capgrp, v);
}

static char *
nightly_key(const struct store_value *v)
{
	return xasprintf("%s%c%s%c%s", v->arm, 1, v->benchmark, 1, v->unit);
}

static int
nightly_is_baseline(const struct nightly_result *r, int64_t id)
{
	size_t	i;

	for (i = 0; i < r->nbaseline; i++)
		if (r->baseline_ids[i] == id)
			return 1;
	return 0;
}

/* Read every night of the history into the rows and accumulators. */
static int
nightly_gather(struct store *st, struct nightly_result *r,
    struct nightly_acc **accp, char **cause)
{
	struct nightly_map	 map;
	struct nightly_acc	*acc = NULL;
	struct store_value	*v = NULL;
	size_t			 nv = 0, i, h, row, caprows = 0;
	char			*key;
	int			 is_cand, is_base;

	/* The candidate first: it defines the rows. */
	if (store_values(st, r->run_id, NULL, 0, &v, &nv, cause) == -1)
		return -1;
	nightly_map_init(&map, nv);
	for (i = 0; i < nv; i++) {
		key = nightly_key(&v[i]);
		row = nightly_map_get(&map, key, 1, r->nrows);
		free(key);
		if (row == r->nrows) {
			XGROW(r->rows, r->nrows, caprows);
			acc = xreallocarray(acc, caprows, sizeof(*acc));
			memset(&r->rows[row], 0, sizeof(r->rows[row]));
			memset(&acc[row], 0, sizeof(acc[row]));
			r->rows[row].arm = xstrdup(v[i].arm);
			r->rows[row].benchmark = xstrdup(v[i].benchmark);
			r->rows[row].unit = xstrdup(v[i].unit);
			acc[row].nights = xcalloc(r->nhistory, sizeof(double));
			for (h = 0; h < r->nhistory; h++)
				acc[row].nights[h] = NAN;
			r->nrows++;
		}
		nightly_add(&acc[row], v[i].plan_idx, 0, v[i].value);
	}
	store_values_free(v, nv);
	for (row = 0; row < r->nrows; row++) {
		double	*tmp;

		nightly_flush(&acc[row]);
		tmp = xcalloc(acc[row].ncand, sizeof(double));

		memcpy(tmp, acc[row].cand, acc[row].ncand * sizeof(double));
		acc[row].nights[r->nhistory - 1] = nightly_median(tmp,
		    acc[row].ncand);
		free(tmp);
	}

	for (h = 0; h + 1 < r->nhistory; h++) {
		int64_t	id = r->history_ids[h];

		is_cand = id == r->run_id;
		is_base = nightly_is_baseline(r, id);
		if (is_cand)
			continue;
		if (store_values(st, id, NULL, 0, &v, &nv, cause) == -1) {
			nightly_map_free(&map);
			*accp = acc;
			return -1;
		}
		for (i = 0; i < nv; i++) {
			key = nightly_key(&v[i]);
			row = nightly_map_get(&map, key, 0, 0);
			free(key);
			if (row == (size_t)-1)
				continue;
			nightly_add(&acc[row], v[i].plan_idx, is_base ? 1 : 2,
			    v[i].value);
		}
		store_values_free(v, nv);
		for (row = 0; row < r->nrows; row++) {
			nightly_flush(&acc[row]);
			if (acc[row].ntmp == 0)
				continue;
			acc[row].nights[h] = nightly_median(acc[row].tmp,
			    acc[row].ntmp);
			acc[row].ntmp = 0;
		}
	}
	nightly_map_free(&map);
	*accp = acc;
	return 0;
}

static int
nightly_changes(struct nightly_result *r, struct nightly_row *row,
    const struct nightly_acc *acc, struct store *st, char **cause)
{
	struct cp_options	 co;
	struct cp_result	 res;
	double			*series;
	size_t			*night, n = 0, h, i;
	int			 rc;

	series = xcalloc(r->nhistory + 1, sizeof(*series));
	night = xcalloc(r->nhistory + 1, sizeof(*night));
	for (h = 0; h < r->nhistory; h++) {
		if (isnan(acc->nights[h]))
			continue;
		series[n] = acc->nights[h];
		night[n++] = h;
	}
	row->nnights = n;
	cp_options_init(&co);
	co.alpha = r->opt.cp_alpha;
	co.permutations = r->opt.cp_permutations;
	co.min_size = r->opt.cp_min_size;
	co.rng = gsl_rng_alloc(gsl_rng_mt19937);
	/* The same seed for every row: a row's answer never depends on the
	 * others. */
	gsl_rng_set(co.rng, (unsigned long)r->opt.seed);
	rc = cp_detect(series, n, &co, &res, cause);
	gsl_rng_free(co.rng);
	if (rc == 0 && res.n > 0) {
		row->changes = xcalloc(res.n, sizeof(*row->changes));
		row->nchanges = res.n;
		for (i = 0; i < res.n; i++) {
			struct nightly_change	*c = &row->changes[i];
			struct store_run	 run;

			c->night = night[res.changes[i].index];
			c->run_id = r->history_ids[c->night];
			c->p = res.changes[i].p;
			c->before = res.changes[i].median_before;
			c->after = res.changes[i].median_after;
			c->rel_median = res.changes[i].rel_median;
			c->rel_mean = res.changes[i].rel_mean;
			memset(&run, 0, sizeof(run));
			if (store_run_get(st, c->run_id, &run, NULL) == 0)
				c->wall_ns = run.started_wall_ns;
			store_run_release(&run);
		}
	}
	cp_result_release(&res);
	free(series);
	free(night);
	return rc;
}

/* -1 bad, +1 good, 0 neither, for a relative change rel of row. */
static int
nightly_sense(const struct nightly_row *row, double rel, double threshold)
{
	if (isnan(rel) || fabs(rel) < threshold)
		return 0;
	if (row->better == 0)
		return 2;	/* a change, direction unknown */
	return (rel > 0) == (row->better > 0) ? 1 : -1;
}

static void
nightly_decide(struct nightly_result *r, struct nightly_row *row)
{
	const struct nightly_options	*o = &r->opt;
	const struct nightly_change	*last = NULL;
	struct strbuf			 why = STRBUF_INIT;
	int				 s1 = 0, s2 = 0, powered, enough;

	powered = row->tested && nightly_min_p(row->nbase, row->ncand) <=
	    o->alpha;
	enough = row->nnights >= 2 * (o->cp_min_size < 2 ? 2 :
	    o->cp_min_size);
	if (row->tested && row->p_holm <= o->alpha)
		s1 = nightly_sense(row, row->delta, row->threshold);
	if (row->nchanges > 0) {
		last = &row->changes[row->nchanges - 1];
		s2 = nightly_sense(row, last->rel_median, row->threshold);
	}
	if (s1 == -1 || s2 == -1)
		row->verdict = NIGHTLY_REGRESSED;
	else if (s1 == 2 || s2 == 2)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (s1 == 1 || s2 == 1)
		row->verdict = NIGHTLY_IMPROVED;
	else if (!powered && !enough)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (!(row->mde <= row->threshold)) {
		row->verdict = NIGHTLY_INCONCLUSIVE;
		row->too_noisy = 1;
	} else
		row->verdict = NIGHTLY_UNCHANGED;

	if (row->too_noisy) {
		char	m[32], t[32];

		padvice_pct(row->mde, m, sizeof(m));
		padvice_pct(row->threshold, t, sizeof(t));
		strbuf_addf(&why, "MDE %s at n=%zu+%zu > threshold %s%s; ", m,
		    row->ncand, row->nbase, t, row->threshold_calibrated ?
		    " (calibrated)" : "");
	}
	if (row->nbase == 0)
		strbuf_adds(&why, "no baseline");
	else {
		if (isnan(row->delta))
			strbuf_adds(&why, "?");
		else
			strbuf_addf(&why, "%+.2f%%", 100 * row->delta);
		strbuf_addf(&why, " vs baseline (p=%.3f holm=%.3f n=%zu+%zu)",
		    row->p, row->p_holm, row->ncand, row->nbase);
		if (!powered)
			strbuf_adds(&why, " too few samples for the test");
	}
	if (last != NULL)
		strbuf_addf(&why, "; change at night %zu (run %" PRId64
		    "): %+.2f%%", last->night, last->run_id,
		    100 * last->rel_median);
	else if (!enough)
		strbuf_addf(&why, "; %zu night%s of history, too few for "
		    "change points", row->nnights,
		    row->nnights == 1 ? "" : "s");
	else
		strbuf_addf(&why, "; no change point in %zu nights",
		    row->nnights);
	if (row->better == 0 && (s1 == 2 || s2 == 2))
		strbuf_addf(&why, "; direction of unit '%s' unknown",
		    row->unit);
	row->reason = strbuf_detach(&why);
}

int
nightly_judge(struct store *st, int64_t run_id,
    const struct nightly_options *o, struct nightly_result *out,
    char **cause)
{
	struct store_run	 cand;
	struct store_kv		*units = NULL;
	struct nightly_acc	*acc = NULL;
	size_t			 nunits = 0, i, j, ntested = 0;
	double			*ps = NULL, *adj = NULL;
	struct bm_ucache	*uc = NULL;
	struct store_calib_row	*crows = NULL;
	struct power_options	 po;
	size_t			 ncrows = 0;
	int			 rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&cand, 0, sizeof(cand));
	out->opt = *o;
	if (store_run_get(st, run_id, &cand, cause) == -1)
		return -1;
	out->run_id = cand.id;
	out->uuid = xstrdup(cand.uuid ? cand.uuid : "");
	out->name = xstrdup(cand.name ? cand.name : "");
	out->host = xstrdup(cand.host ? cand.host : "");
	out->host_class = nightly_host_class(st, cand.id);
	if (nightly_find_runs(st, &cand, o, out, cause) == -1)
		goto out;
	if (store_unit_list(st, run_id, &units, &nunits, cause) == -1)
		goto out;
	if (nightly_gather(st, out, &acc, cause) == -1)
		goto out;

	if (o->threshold_auto) {
		struct store_calibration	cal;
		char				*hc;
		int				 have;

		if ((hc = store_run_host_class(st, run_id, cause)) == NULL)
			goto out;
		have = store_calibration_latest(st, cand.name, hc, &cal,
		    cause);
		free(hc);
		if (have == -1)
			goto out;
		if (have == 1) {
			out->calib_run = cal.run_id;
			store_calibration_release(&cal);
			if (store_calibration_rows(st, out->calib_run, &crows,
			    &ncrows, cause) == -1)
				goto out;
		}
	}
	power_options_init(&po);
	po.alpha = o->alpha;
	po.seed = o->seed;
	uc = bm_ucache_new();
	ps = xcalloc(out->nrows + 1, sizeof(*ps));
	adj = xcalloc(out->nrows + 1, sizeof(*adj));
	for (i = 0; i < out->nrows; i++) {
		struct nightly_row	*row = &out->rows[i];
		const char		*better = NULL;
		char			*why = NULL;

		for (j = 0; j < nunits; j++)
			if (strcmp(units[j].arm, row->unit) == 0 &&
			    strcmp(units[j].key, "better") == 0)
				better = units[j].value;
		row->better = nightly_unit_better(row->unit, better);
		row->ncand = acc[i].ncand;
		row->nbase = acc[i].nbase;
		row->cand_median = nightly_median(acc[i].cand, acc[i].ncand);
		row->base_median = nightly_median(acc[i].base, acc[i].nbase);
		row->delta = NAN;
		row->p = row->p_holm = NAN;
		if (row->nbase > 0 && row->base_median != 0)
			row->delta = (row->cand_median - row->base_median) /
			    fabs(row->base_median);
		if (row->nbase > 0 && row->ncand > 0) {
			/* Both sorted by nightly_median. */
			if (utest_mann_whitney(acc[i].base, acc[i].nbase,
			    acc[i].cand, acc[i].ncand, uc, &row->p,
			    &why) == -1) {
				/* All samples equal: no difference. */
				row->p = 1;
				free(why);
			}
			row->tested = 1;
			ps[ntested++] = row->p;
		}
		if (nightly_changes(out, row, &acc[i], st, cause) == -1)
			goto out;
		row->threshold = o->threshold;
		for (j = 0; j < ncrows; j++)
			if (strcmp(crows[j].benchmark, row->benchmark) == 0 &&
			    strcmp(crows[j].unit, row->unit) == 0 &&
			    isfinite(crows[j].mde)) {
				row->threshold = crows[j].mde;
				row->threshold_calibrated = 1;
			}
		/* acc[i].base is sorted (nightly_median). */
		row->mde = row->nbase >= 2 && row->ncand > 0 ?
		    power_mde(acc[i].base, row->nbase, row->nbase, row->ncand,
		    &po, uc) : INFINITY;
	}
	pvalues_holm(ps, ntested, adj);
	for (i = 0, j = 0; i < out->nrows; i++)
		if (out->rows[i].tested)
			out->rows[i].p_holm = adj[j++];
	for (i = 0; i < out->nrows; i++) {
		nightly_decide(out, &out->rows[i]);
		switch (out->rows[i].verdict) {
		case NIGHTLY_REGRESSED:
			out->nregressed++;
			break;
		case NIGHTLY_IMPROVED:
			out->nimproved++;
			break;
		case NIGHTLY_INCONCLUSIVE:
			out->ninconclusive++;
			break;
		case NIGHTLY_UNCHANGED:
			break;
		}
	}
	rc = 0;
out:
	if (acc != NULL) {
		for (i = 0; i < out->nrows; i++) {
			free(acc[i].cand);
			free(acc[i].base);
			free(acc[i].tmp);
			free(acc[i].grp);
			free(acc[i].nights);
		}
		free(acc);
	}
	bm_ucache_free(uc);
	store_calib_rows_free(crows, ncrows);
	free(ps);
	free(adj);
	store_kv_free(units, nunits);
	store_run_release(&cand);
	if (rc == -1)
		nightly_result_release(out);
	return rc;
}

void
nightly_result_release(struct nightly_result *r)
{
	size_t	i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].arm);
		free(r->rows[i].benchmark);
		free(r->rows[i].unit);
		free(r->rows[i].reason);
		free(r->rows[i].changes);
	}
	free(r->rows);
	free(r->uuid);
	free(r->name);
	free(r->host);
	free(r->host_class);
	free(r->baseline_ids);
	free(r->history_ids);
	memset(r, 0, sizeof(*r));
}

/* Several arms: rows are named ARM:BENCHMARK. */
static int
nightly_many_arms(const struct nightly_result *r)
{
	size_t	i;

	for (i = 1; i < r->nrows; i++)
		if (strcmp(r->rows[i].arm, r->rows[0].arm) != 0)
			return 1;
	return 0;
}

char *
nightly_verdict_text(const struct nightly_row *row)
{
	char	m[32];

	if (!row->too_noisy)
		return xstrdup(nightly_verdict_name(row->verdict));
	padvice_pct(row->mde, m, sizeof(m));
	return xasprintf("%s (too noisy: MDE %s)",
	    nightly_verdict_name(row->verdict), m);
}

void
nightly_format_text(const struct nightly_result *r, struct strbuf *out)
{
	size_t	i, wn = 0, wu = 0, wv = 12, l;
	int	arms = nightly_many_arms(r);
	char	*name;

	for (i = 0; i < r->nrows; i++) {
		l = strlen(r->rows[i].benchmark) +
		    (arms ? strlen(r->rows[i].arm) + 1 : 0);
		if (l > wn)
			wn = l;
		if (strlen(r->rows[i].unit) > wu)
			wu = strlen(r->rows[i].unit);
	}
	for (i = 0; i < r->nrows; i++) {
		const struct nightly_row	*row = &r->rows[i];
		char				*verdict = nightly_verdict_text(row);

		if (strlen(verdict) > wv)
			wv = strlen(verdict);
		free(verdict);
	}
	for (i = 0; i < r->nrows; i++) {
		const struct nightly_row	*row = &r->rows[i];
		char				*verdict = nightly_verdict_text(row);

		name = arms ? xasprintf("%s:%s", row->arm, row->benchmark) :
		    xstrdup(row->benchmark);
		strbuf_addf(out, "%-*s  %-*s  %-*s  %s\n", (int)wv, verdict,
		    (int)wn, name, (int)wu, row->unit, row->reason);
		free(name);
		free(verdict);
	}
}

static json_t *
nightly_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void
nightly_format_json(const struct nightly_result *r, struct strbuf *out)
{
	json_t	*doc, *rows, *ids, *row, *chs, *ch;
	char	*text, when[64];
	size_t	 i, j;

	doc = json_object();
	json_object_set_new(doc, "run", json_integer(r->run_id));
	json_object_set_new(doc, "uuid", json_string(r->uuid));
	json_object_set_new(doc, "name", json_string(r->name));
	json_object_set_new(doc, "host", json_string(r->host));
	if (r->host_class != NULL)
		json_object_set_new(doc, "host_class",
		    json_string(r->host_class));
	ids = json_array();
	for (i = 0; i < r->nbaseline; i++)
		json_array_append_new(ids, json_integer(r->baseline_ids[i]));
	json_object_set_new(doc, "baseline", ids);
	ids = json_array();
	for (i = 0; i < r->nhistory; i++)
		json_array_append_new(ids, json_integer(r->history_ids[i]));
	json_object_set_new(doc, "history", ids);
	json_object_set_new(doc, "threshold", json_real(r->opt.threshold));
	json_object_set_new(doc, "alpha", json_real(r->opt.alpha));
	json_object_set_new(doc, "calibration", r->calib_run != 0 ?
	    json_integer(r->calib_run) : json_null());
	json_object_set_new(doc, "regressed", json_integer(r->nregressed));
	json_object_set_new(doc, "improved", json_integer(r->nimproved));
	json_object_set_new(doc, "inconclusive",
	    json_integer(r->ninconclusive));
	rows = json_array();
	for (i = 0; i < r->nrows; i++) {
		const struct nightly_row	*w = &r->rows[i];

		row = json_object();
		json_object_set_new(row, "arm", json_string(w->arm));
		json_object_set_new(row, "benchmark",
		    json_string(w->benchmark));
		json_object_set_new(row, "unit", json_string(w->unit));
		json_object_set_new(row, "better", w->better > 0 ?
		    json_string("higher") : w->better < 0 ?
		    json_string("lower") : json_null());
		json_object_set_new(row, "verdict",
		    json_string(nightly_verdict_name(w->verdict)));
		json_object_set_new(row, "reason", json_string(w->reason));
		json_object_set_new(row, "too_noisy",
		    json_boolean(w->too_noisy));
		json_object_set_new(row, "mde", nightly_json_real(w->mde));
		json_object_set_new(row, "threshold",
		    nightly_json_real(w->threshold));
		json_object_set_new(row, "threshold_calibrated",
		    json_boolean(w->threshold_calibrated));
		json_object_set_new(row, "n",
		    json_integer((json_int_t)w->ncand));
		json_object_set_new(row, "median",
		    nightly_json_real(w->cand_median));
		json_object_set_new(row, "baseline_n",
		    json_integer((json_int_t)w->nbase));
		json_object_set_new(row, "baseline_median",
		    nightly_json_real(w->base_median));
		json_object_set_new(row, "delta", nightly_json_real(w->delta));
		json_object_set_new(row, "p", nightly_json_real(w->p));
		json_object_set_new(row, "p_holm",
		    nightly_json_real(w->p_holm));
		json_object_set_new(row, "nights",
		    json_integer((json_int_t)w->nnights));
		chs = json_array();
		for (j = 0; j < w->nchanges; j++) {
			const struct nightly_change	*c = &w->changes[j];

			ch = json_object();
			json_object_set_new(ch, "night",
			    json_integer((json_int_t)c->night));
			json_object_set_new(ch, "run", json_integer(c->run_id));
			format_wall_time(c->wall_ns, when, sizeof(when));
			json_object_set_new(ch, "started", json_string(when));
			json_object_set_new(ch, "p", nightly_json_real(c->p));
			json_object_set_new(ch, "before",
			    nightly_json_real(c->before));
			json_object_set_new(ch, "after",
			    nightly_json_real(c->after));
			json_object_set_new(ch, "step",
			    nightly_json_real(c->rel_median));
			json_object_set_new(ch, "step_mean",
			    nightly_json_real(c->rel_mean));
			json_array_append_new(chs, ch);
		}
		json_object_set_new(row, "changes", chs);
		json_array_append_new(rows, row);
	}
	json_object_set_new(doc, "rows", rows);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	if (text != NULL) {
		strbuf_adds(out, text);
		strbuf_addc(out, '\n');
		free(text);
	}
	json_decref(doc);
}
