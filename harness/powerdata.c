/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-execution values of a run for the power computations (powerdata.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/powerdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "stats/power.h"
#include "stats/strpool.h"
#include "stats/utest.h"

struct pdata_acc {
	int64_t	*g;
	double	*x;
	int	*round;
	size_t	 n, cap;
};

/* The index's key of a row (a hash: a row found by it is checked). */
static uint64_t
pdata_key(const char *arm, const char *benchmark, const char *unit)
{
	return u64_mix(strpool_hash(arm, strlen(arm)) ^
	    u64_mix(strpool_hash(benchmark, strlen(benchmark)) ^
	    u64_mix(strpool_hash(unit, strlen(unit)))));
}

static int
pdata_is(const struct pdata_row *r, const char *arm, const char *benchmark,
    const char *unit)
{
	return (arm == NULL || strcmp(r->arm, arm) == 0) &&
	    strcmp(r->benchmark, benchmark) == 0 && strcmp(r->unit, unit) == 0;
}

struct pdata_row *
pdata_find(const struct pdata *d, const char *arm, const char *benchmark,
    const char *unit)
{
	uintptr_t	at;
	size_t		i;

	if (arm != NULL && d->index != NULL) {
		at = (uintptr_t)u64map_get(d->index, pdata_key(arm, benchmark,
		    unit));
		if (at == 0)
			return NULL;
		if (pdata_is(&d->rows[at - 1], arm, benchmark, unit))
			return &d->rows[at - 1];
		/* Two rows with one hash (the later one holds the key). */
	}
	for (i = 0; i < d->n; i++)
		if (pdata_is(&d->rows[i], arm, benchmark, unit))
			return &d->rows[i];
	return NULL;
}

int
pdata_load(struct store *st, int64_t run_id, const char *arm,
    struct pdata *out, char **cause)
{
	struct store_value	*v = NULL;
	struct pdata_acc	*acc = NULL;
	struct pdata_row	*row;
	struct u64map		 seen;
	size_t			 nv = 0, i, j, k, cap = 0;

	memset(out, 0, sizeof(*out));
	if (store_values(st, run_id, arm, 0, &v, &nv, cause) == -1)
		return -1;
	out->index = xcalloc(1, sizeof(*out->index));
	for (i = 0; i < nv; i++) {
		struct pdata_acc	*a;

		if ((row = pdata_find(out, v[i].arm, v[i].benchmark,
		    v[i].unit)) == NULL) {
			XGROW(out->rows, out->n, cap);
			acc = xreallocarray(acc, cap, sizeof(*acc));
			row = &out->rows[out->n];
			memset(row, 0, sizeof(*row));
			memset(&acc[out->n], 0, sizeof(*acc));
			row->arm = xstrdup(v[i].arm);
			row->benchmark = xstrdup(v[i].benchmark);
			row->unit = xstrdup(v[i].unit);
			out->n++;
			u64map_put(out->index, pdata_key(row->arm,
			    row->benchmark, row->unit), (void *)(uintptr_t)
			    out->n);
		}
		a = &acc[row - out->rows];
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 16;
			a->g = xreallocarray(a->g, a->cap, sizeof(*a->g));
			a->x = xreallocarray(a->x, a->cap, sizeof(*a->x));
			a->round = xreallocarray(a->round, a->cap,
			    sizeof(*a->round));
		}
		a->g[a->n] = v[i].plan_idx;
		a->x[a->n] = v[i].value;
		a->round[a->n] = v[i].round;
		a->n++;
	}
	store_values_free(v, nv);
	for (i = 0; i < out->n; i++) {
		struct pdata_acc	*a = &acc[i];

		row = &out->rows[i];
		row->lines = a->x;
		row->nlines = a->n;
		row->x = xcalloc(a->n + 1, sizeof(*row->x));
		row->round = xcalloc(a->n + 1, sizeof(*row->round));
		row->n = power_group_medians(a->g, a->x, a->n, row->x);
		/* The round of each group, in the same first-seen order. */
		memset(&seen, 0, sizeof(seen));
		for (j = 0, k = 0; j < a->n && k < row->n; j++) {
			if (u64map_get(&seen, (uint64_t)a->g[j]) != NULL)
				continue;
			u64map_put(&seen, (uint64_t)a->g[j], (void *)1);
			row->round[k++] = a->round[j];
		}
		u64map_release(&seen);
		free(a->g);
		free(a->round);
	}
	free(acc);
	return 0;
}

void
pdata_release(struct pdata *d)
{
	size_t	i;

	for (i = 0; i < d->n; i++) {
		free(d->rows[i].arm);
		free(d->rows[i].benchmark);
		free(d->rows[i].unit);
		free(d->rows[i].x);
		free(d->rows[i].round);
		free(d->rows[i].lines);
	}
	free(d->rows);
	if (d->index != NULL)
		u64map_release(d->index);
	free(d->index);
	memset(d, 0, sizeof(*d));
}

double *
pdata_pool(const struct pdata *d, const char *benchmark, const char *unit,
    size_t *n)
{
	double	*x;
	size_t	 i, total = 0;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].benchmark, benchmark) == 0 &&
		    strcmp(d->rows[i].unit, unit) == 0)
			total += d->rows[i].n;
	x = xcalloc(total + 1, sizeof(*x));
	*n = 0;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].benchmark, benchmark) == 0 &&
		    strcmp(d->rows[i].unit, unit) == 0) {
			memcpy(x + *n, d->rows[i].x,
			    d->rows[i].n * sizeof(*x));
			*n += d->rows[i].n;
		}
	return x;
}

int
padvice_parse_pct(const char *s, double *out)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (end == s || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(v > 0 && v < 1000))
		return -1;
	*out = v / 100;
	return 0;
}

int
padvice_compute(struct store *st, int64_t run_id, double effect,
    const struct power_options *o, int want, struct padvice *out,
    char **cause)
{
	return padvice_compute_some(st, run_id, effect, o, want, 0, NULL,
	    NULL, out, cause);
}

int
padvice_compute_some(struct store *st, int64_t run_id, double effect,
    const struct power_options *o, int want, size_t at,
    int (*keep)(const char *benchmark, const char *unit, void *arg),
    void *arg, struct padvice *out, char **cause)
{
	struct store_run		 run;
	struct store_calibration	 cal;
	struct pdata			 d, cd;
	struct bm_ucache		*uc = NULL;
	size_t				 i, j, cap = 0;
	int				 have_cal = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&run, 0, sizeof(run));
	memset(&cal, 0, sizeof(cal));
	memset(&d, 0, sizeof(d));
	memset(&cd, 0, sizeof(cd));
	out->run_id = run_id;
	out->effect = effect;
	out->at = at;
	out->opt = *o;
	if (store_run_get(st, run_id, &run, cause) == -1)
		return -1;
	out->name = xstrdup(run.name ? run.name : "");
	out->baseline_arm = xstrdup(run.narms > 0 ? run.arms[0] : "");
	if ((out->host_class = store_run_host_class(st, run_id, cause)) ==
	    NULL)
		goto done;
	if (want & PADVICE_CALIBRATION) {
		have_cal = store_calibration_latest(st, run.name,
		    out->host_class, &cal, cause);
		if (have_cal == -1)
			goto done;
		/* A calibration run is not calibrated by itself. */
		if (have_cal == 1 && cal.run_id == run_id)
			have_cal = 0;
		if (have_cal == 1 && pdata_load(st, cal.run_id, NULL, &cd,
		    cause) == -1)
			goto done;
	}
	if (pdata_load(st, run_id, NULL, &d, cause) == -1)
		goto done;
	uc = bm_ucache_new();
	for (i = 0; i < d.n; i++) {
		const struct pdata_row	*b = &d.rows[i];
		struct padvice_row	*r;
		double			*pool = NULL;
		size_t			 npool = 0;

		if (strcmp(b->arm, out->baseline_arm) != 0 || b->n == 0)
			continue;
		if (keep != NULL && !keep(b->benchmark, b->unit, arg))
			continue;
		XGROW(out->rows, out->n, cap);
		r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->benchmark = xstrdup(b->benchmark);
		r->unit = xstrdup(b->unit);
		r->n_base = b->n;
		r->nlines = b->nlines;
		r->nexec = b->n;
		r->n_cand = 0;
		/* The other arms' rows by hash, not by a scan (#53). */
		for (j = 1; j < run.narms; j++) {
			const struct pdata_row	*o = pdata_find(&d,
			    run.arms[j], b->benchmark, b->unit);

			if (o == NULL || strcmp(o->arm, out->baseline_arm) == 0)
				continue;
			if (r->n_cand == 0 || o->n < r->n_cand)
				r->n_cand = o->n;
		}
		if (r->n_cand == 0)
			r->n_cand = b->n;
		if (at > 0)
			r->n_base = r->n_cand = at;
		if (have_cal == 1)
			pool = pdata_pool(&cd, b->benchmark, b->unit, &npool);
		if (npool >= 2) {
			r->from_calibration = 1;
			out->calib_run = cal.run_id;
			out->calib_repeats = cal.repeats;
			out->calib_rounds = cal.rounds;
		} else {
			free(pool);
			pool = xcalloc(b->n, sizeof(*pool));
			memcpy(pool, b->x, b->n * sizeof(*pool));
			npool = b->n;
		}
		power_noise(pool, npool, r->n_base, 0.95, &r->noise);
		r->mde = npool >= 2 && (want & PADVICE_MDE) ?
		    power_mde(pool, npool, r->n_base, r->n_cand, o, uc) :
		    INFINITY;
		r->rounds = 0;
		if (npool >= 2 && effect > 0 && (want & PADVICE_ROUNDS)) {
			size_t	hint = 0;

			if (isfinite(r->mde))
				hint = (size_t)((double)r->n_base *
				    (r->mde / effect) * (r->mde / effect));
			r->rounds = power_rounds(pool, npool, effect, hint, o,
			    uc);
		}
		free(pool);
	}
	rc = 0;
done:
	bm_ucache_free(uc);
	pdata_release(&d);
	pdata_release(&cd);
	store_calibration_release(&cal);
	store_run_release(&run);
	return rc;
}

void
padvice_release(struct padvice *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++) {
		free(a->rows[i].benchmark);
		free(a->rows[i].unit);
	}
	free(a->rows);
	free(a->name);
	free(a->host_class);
	free(a->baseline_arm);
	memset(a, 0, sizeof(*a));
}
