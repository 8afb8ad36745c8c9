/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The input of a row's advice, from a run's sample table (pdata.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/pdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/sampletab.h"

/*
 * The latest calibration of out's experiment and host class made before
 * run_id (out->cal is a later one: its id goes to later_cal), into
 * out->cal: 1, 0 when there is none, -1.
 */
static int
pdata_cal_before(struct store *st, struct pdata_src *out, int64_t run_id,
    char **cause)
{
	struct store_calibration	c;
	int64_t				id;
	int				r;

	out->later_cal = out->cal.run_id;
	store_calibration_release(&out->cal);
	for (id = run_id - 1; id > 0; id--) {
		if ((r = store_calibration_get(st, id, &c, cause)) == -1)
			return -1;
		if (r == 1 && strcmp(c.experiment, out->name) == 0 &&
		    strcmp(c.host_class, out->host_class) == 0) {
			out->cal = c;
			return 1;
		}
		store_calibration_release(&c);
	}
	return 0;
}

int
pdata_src_load(struct store *st, int64_t run_id, int use_cal,
    struct sampletab *run_tab, struct pdata_src *out, char **cause)
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
		if (out->have_cal == 1 && use_cal != PDATA_CAL_LATEST &&
		    out->cal.run_id > run_id &&
		    (out->have_cal = pdata_cal_before(st, out, run_id,
		    cause)) == -1)
			goto fail;
		if (out->have_cal == 1 && (out->cald = sampletab_load(st,
		    out->cal.run_id, NULL, cause)) == NULL)
			goto fail;
	}
	out->run = run_tab;
	if (run_tab == NULL) {
		out->own_run = 1;
		if ((out->run = sampletab_load(st, run_id, NULL, cause)) ==
		    NULL)
			goto fail;
	}
	return 0;
fail:
	pdata_src_release(out);
	return -1;
}

void
pdata_src_release(struct pdata_src *s)
{
	size_t	a;

	if (s->own_run)
		sampletab_free(s->run);
	sampletab_free(s->cald);
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
	const struct sampletab		*t = s->run;
	const struct sampletab_row	*row;
	const struct sampletab_cell	*b;
	size_t				 j;

	memset(out, 0, sizeof(*out));
	row = sampletab_find(t, benchmark, unit);
	b = sampletab_lookup(t, s->baseline_arm, benchmark, unit);
	if (b == NULL || b->nx == 0)
		return 0;
	out->n_base = out->nexec = b->nx;
	out->nlines = b->n;
	/*
	 * The arm the baseline is compared with: the fewest executions of
	 * any other, so that every arm's row of (benchmark, unit) has the
	 * one advice.
	 */
	for (j = 0; j < s->narms; j++) {
		int				 a = sampletab_arm(t, s->arms[j]);
		const struct sampletab_cell	*o;

		o = a < 0 ? NULL : sampletab_cell(t, row, (size_t)a);
		if (o == NULL || strcmp(t->arms[o->arm], s->baseline_arm) == 0)
			continue;
		if (out->n_cand == 0 || o->nx < out->n_cand)
			out->n_cand = o->nx;
	}
	if (out->n_cand == 0)
		out->n_cand = b->nx;
	if (at > 0)
		out->n_base = out->n_cand = at;
	if (s->have_cal == 1) {
		row = sampletab_find(s->cald, benchmark, unit);
		out->x = row != NULL ? sampletab_pool(s->cald, row, &out->n) :
		    xcalloc(1, sizeof(*out->x));
	}
	if (out->n >= 2) {
		out->from_calibration = 1;
		return 1;
	}
	free(out->x);
	out->x = xcalloc(b->nx, sizeof(*out->x));
	memcpy(out->x, b->x, b->nx * sizeof(*out->x));
	out->n = b->nx;
	return 1;
}

void
pdata_noise_release(struct pdata_noise *nz)
{
	free(nz->x);
	memset(nz, 0, sizeof(*nz));
}
