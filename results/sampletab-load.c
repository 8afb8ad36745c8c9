/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's sample table from the store (sampletab-load.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "results/sampletab-load.h"
#include "results/store.h"

static struct sampletab *
sampletab_read(struct store *st, int64_t run_id,
    const struct sampletab_filter *f, int src, char **cause)
{
	static const struct sampletab_filter all = { NULL, 0, 1 };
	struct store_run	 run = { 0 };
	struct store_value	*v = NULL;
	struct sampletab	*t;
	struct sampletab_value	 x;
	size_t			 nv = 0, i, row;

	if (f == NULL)
		f = &all;
	if (store_run_get(st, run_id, &run, cause) == -1)
		return NULL;
	if (store_values(st, run_id, f->arm, f->warmup ? STORE_Q_WARMUP : 0,
	    &v, &nv, cause) == -1) {
		store_run_release(&run);
		return NULL;
	}
	t = sampletab_new((const char *const *)run.arms, run.narms);
	store_run_release(&run);
	if (src)
		sampletab_keep_src(t);
	for (i = 0; i < nv; i++) {
		x.value = v[i].value;
		x.round = v[i].round;
		x.position = v[i].position;
		x.exec = v[i].plan_idx;
		x.start_ns = v[i].start_ns;
		x.start_wall_ns = v[i].start_wall_ns;
		row = sampletab_add(t, v[i].arm, v[i].benchmark, v[i].unit,
		    &x);
		if (v[i].orig_unit != NULL && v[i].value != 0)
			t->rows[row].orig_scale = v[i].orig_value /
			    v[i].value;
		if (src)
			sampletab_set_src(t, t->nvalues - 1, v[i].config,
			    v[i].orig_unit, v[i].orig_value);
	}
	store_values_free(v, nv);
	if (f->group)
		sampletab_group(t);
	return t;
}

struct sampletab *
sampletab_load(struct store *st, int64_t run_id,
    const struct sampletab_filter *f, char **cause)
{
	return sampletab_read(st, run_id, f, 0, cause);
}

struct sampletab *
sampletab_load_src(struct store *st, int64_t run_id,
    const struct sampletab_filter *f, char **cause)
{
	return sampletab_read(st, run_id, f, 1, cause);
}
