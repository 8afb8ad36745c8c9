/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-execution values of a run and the input of a row's advice
 * (pdata.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/pdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "stats/power.h"
#include "stats/strpool.h"

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
pdata_src_load(struct store *st, int64_t run_id, int use_cal,
    struct pdata_src *out, char **cause)
{
	struct store_run	run;
	size_t			a;

	memset(out, 0, sizeof(*out));
	memset(&run, 0, sizeof(run));
	if (store_run_get(st, run_id, &run, cause) == -1)
		return -1;
	out->name = xstrdup(run.name ? run.name : "");
	out->baseline_arm = xstrdup(run.narms > 0 ? run.arms[0] : "");
	out->narms = run.narms;
	out->arms = xcalloc(run.narms + 1, sizeof(*out->arms));
	for (a = 0; a < run.narms; a++)
		out->arms[a] = xstrdup(run.arms[a]);
	store_run_release(&run);
	if ((out->host_class = store_run_host_class(st, run_id, cause)) ==
	    NULL)
		goto fail;
	if (use_cal) {
		out->have_cal = store_calibration_latest(st, out->name,
		    out->host_class, &out->cal, cause);
		if (out->have_cal == -1)
			goto fail;
		/* A calibration run is not calibrated by itself. */
		if (out->have_cal == 1 && out->cal.run_id == run_id)
			out->have_cal = 0;
		if (out->have_cal == 1 && pdata_load(st, out->cal.run_id,
		    NULL, &out->cald, cause) == -1)
			goto fail;
	}
	if (pdata_load(st, run_id, NULL, &out->run, cause) == -1)
		goto fail;
	return 0;
fail:
	pdata_src_release(out);
	return -1;
}

void
pdata_src_release(struct pdata_src *s)
{
	size_t	a;

	pdata_release(&s->run);
	pdata_release(&s->cald);
	store_calibration_release(&s->cal);
	for (a = 0; a < s->narms; a++)
		free(s->arms[a]);
	free(s->arms);
	free(s->baseline_arm);
	free(s->name);
	free(s->host_class);
	memset(s, 0, sizeof(*s));
}

int
pdata_noise_of(const struct pdata_src *s, const char *benchmark,
    const char *unit, size_t at, struct pdata_noise *out)
{
	const struct pdata	*d = &s->run;
	const struct pdata_row	*b;
	size_t			 j;

	memset(out, 0, sizeof(*out));
	b = pdata_find(d, s->baseline_arm, benchmark, unit);
	if (b == NULL || b->n == 0)
		return 0;
	out->n_base = out->nexec = b->n;
	out->nlines = b->nlines;
	/*
	 * The arm the baseline is compared with: the fewest executions of
	 * any other, so that every arm's row of (benchmark, unit) has the
	 * one advice.
	 */
	for (j = 0; j < s->narms; j++) {
		/* By the index, not a scan of every row (#53: 2000
		 * workloads made this quadratic). */
		const struct pdata_row	*o = pdata_find(d, s->arms[j],
		    benchmark, unit);

		if (o == NULL || strcmp(o->arm, s->baseline_arm) == 0)
			continue;
		if (out->n_cand == 0 || o->n < out->n_cand)
			out->n_cand = o->n;
	}
	if (out->n_cand == 0)
		out->n_cand = b->n;
	if (at > 0)
		out->n_base = out->n_cand = at;
	if (s->have_cal == 1)
		out->x = pdata_pool(&s->cald, benchmark, unit, &out->n);
	if (out->n >= 2) {
		out->from_calibration = 1;
		return 1;
	}
	free(out->x);
	out->x = xcalloc(b->n, sizeof(*out->x));
	memcpy(out->x, b->x, b->n * sizeof(*out->x));
	out->n = b->n;
	return 1;
}

void
pdata_noise_release(struct pdata_noise *nz)
{
	free(nz->x);
	memset(nz, 0, sizeof(*nz));
}
