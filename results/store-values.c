/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's values read back (store_values): from version 9's tables
 * directly rather than through the samples view, which would look up
 * each value's execution and series (two B-tree seeks a value). The
 * run's executions and its values are each read in one pass, the names
 * once a series, and the values put in plan order here: `nightly` reads
 * 60 nights of 20 shapes, 7.7 million values, this way.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

struct sv_exec {
	int	 plan_idx, round, position, warmup;
	int64_t	 ws, wd, dm, de;
};

struct sv_series {
	int	 seen;
	char	*arm, *benchmark, *unit, *orig_unit;
};

struct sv_row {
	int	 plan_idx, k, status, ex;
	int64_t	 series, config;
	double	 value, orig_value;
	char	*error;
};

static int
sv_row_cmp(const void *a, const void *b)
{
	const struct sv_row	*x = a, *y = b;

	if (x->plan_idx != y->plan_idx)
		return x->plan_idx < y->plan_idx ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

static double
col_double_or_nan(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN :
	    sqlite3_column_double(s, i);
}

/* The run's executions in plan order, and its clock bases. */
static int
sv_execs(struct store *st, int64_t run_id, struct sv_exec **out, size_t *n,
    int64_t *wall_us, int64_t *mono_us, char **cause)
{
	struct store_rows	 r;
	struct sv_exec		*e;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	*wall_us = *mono_us = 0;
	if (store_rows_cached(&r, st, ST_RUN_CLOCK, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r)) {
		*wall_us = sqlite3_column_int64(r.s, 0);
		*mono_us = sqlite3_column_int64(r.s, 1);
	}
	if (store_rows_end(&r, "cannot read samples", cause) != 0 ||
	    store_rows_cached(&r, st, ST_RUN_EXECS, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(*out, *n, cap);
		e = &(*out)[(*n)++];
		e->plan_idx = sqlite3_column_int(r.s, 0);
		e->round = sqlite3_column_int(r.s, 1);
		e->position = sqlite3_column_int(r.s, 2);
		e->warmup = sqlite3_column_int(r.s, 3);
		e->ws = sqlite3_column_int64(r.s, 4);
		e->wd = sqlite3_column_int64(r.s, 5);
		e->dm = sqlite3_column_int64(r.s, 6);
		e->de = sqlite3_column_int64(r.s, 7);
	}
	return store_rows_end(&r, "cannot read samples", cause);
}

/* Index of plan_idx in the executions, or -1. */
static int
sv_exec_find(const struct sv_exec *e, size_t n, int plan_idx)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e[mid].plan_idx < plan_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && e[lo].plan_idx == plan_idx ? (int)lo : -1;
}

/* A series' names, read once (ids are small: INTEGER PRIMARY KEY). */
static int
sv_series_get(struct store *st, struct sv_series **tab, size_t *ntab,
    int64_t id, char **cause)
{
	struct store_rows	 r;
	struct sv_series	*x;

	if (id < 0 || id > INT32_MAX)
		return set_cause(cause, "bad series id %lld in '%s'",
		    (long long)id, st->path);
	if ((size_t)id >= *ntab) {
		size_t	 m = (size_t)id + 64;

		*tab = xreallocarray(*tab, m, sizeof **tab);
		memset(*tab + *ntab, 0, (m - *ntab) * sizeof **tab);
		*ntab = m;
	}
	x = &(*tab)[id];
	if (x->seen)
		return 0;
	if (store_rows_cached(&r, st, ST_SERIES_NAMES, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, id);
	if (store_next(&r)) {
		x->arm = store_col_str(r.s, 0);
		x->benchmark = store_col_str(r.s, 1);
		x->unit = store_col_str(r.s, 2);
		x->orig_unit = store_col_str(r.s, 3);
		x->seen = 1;
	}
	if (store_rows_end(&r, "cannot read series", cause) != 0)
		return -1;
	if (!x->seen)
		return set_cause(cause, "no series %lld in '%s': see abbench "
		    "db check", (long long)id, st->path);
	return 0;
}

static char *
sv_config_text(struct store *st, int64_t id, char **cause)
{
	struct store_rows	 r;
	char			*t = NULL;

	if (store_rows_cached(&r, st, ST_CONFIG_TEXT, cause) != 0)
		return NULL;
	sqlite3_bind_int64(r.s, 1, id);
	if (store_next(&r))
		t = store_col_str(r.s, 0);
	(void)store_rows_end(&r, "cannot read a config block", cause);
	return t;
}

/* The run's values (series, entry, place order), filtered. */
static int
sv_rows(struct store *st, int64_t run_id, const char *arm, int flags,
    const struct sv_exec *ex, size_t nex, struct sv_series **tab,
    size_t *ntab, struct sv_row **out, size_t *n, char **cause)
{
	struct store_rows	 q;
	sqlite3_stmt		*s;
	struct sv_row		*r;
	size_t			 cap = 0;
	int64_t			 sid;
	int			 e, status, plan_idx;

	if (store_rows_cached(&q, st, ST_RUN_VALUES, cause) != 0)
		return -1;
	s = q.s;
	sqlite3_bind_int64(s, 1, run_id);
	while (store_next(&q)) {
		sid = sqlite3_column_int64(s, 0);
		plan_idx = sqlite3_column_int(s, 1);
		status = sqlite3_column_int(s, 4);
		if (!(flags & STORE_Q_FAILED) && status != SAMPLE_STATUS_OK)
			continue;
		e = sv_exec_find(ex, nex, plan_idx);
		if (e >= 0 && !(flags & STORE_Q_WARMUP) && ex[e].warmup)
			continue;
		if (sv_series_get(st, tab, ntab, sid, cause) != 0) {
			(void)store_rows_end(&q, NULL, NULL);
			return -1;
		}
		if (arm != NULL && strcmp((*tab)[sid].arm, arm) != 0)
			continue;
		XGROW(*out, *n, cap);
		r = &(*out)[(*n)++];
		r->series = sid;
		r->plan_idx = plan_idx;
		r->k = sqlite3_column_int(s, 2);
		r->value = col_double_or_nan(s, 3);
		r->status = status;
		r->error = store_col_str_or_null(s, 5);
		r->config = sqlite3_column_type(s, 6) == SQLITE_NULL ? 0 :
		    sqlite3_column_int64(s, 6);
		r->orig_value = col_double_or_nan(s, 7);
		r->ex = e;
	}
	return store_rows_end(&q, "cannot read samples", cause);
}

static int
sv_fill(struct store *st, const struct sv_row *r,
    const struct sv_series *ser, const struct sv_exec *e, int64_t wall_us,
    int64_t mono_us, struct store_value *x, char **cause)
{
	const char	*status = store_sample_status_text(
	    (enum sample_status)r->status);

	memset(x, 0, sizeof *x);
	x->arm = xstrdup(ser->arm);
	x->benchmark = xstrdup(ser->benchmark);
	x->unit = xstrdup(ser->unit);
	x->value = r->value;
	x->status = status != NULL && r->status >= 0 ? xstrdup(status) :
	    xasprintf("bad status %d", r->status);
	x->error = r->error;
	x->orig_unit = *ser->orig_unit != '\0' ? xstrdup(ser->orig_unit) :
	    NULL;
	x->orig_value = r->orig_value;
	x->plan_idx = r->plan_idx;
	if (e != NULL) {
		x->round = e->round;
		x->position = e->position;
		x->warmup = e->warmup;
		x->start_wall_ns = (wall_us + e->ws) * 1000;
		x->end_wall_ns = (wall_us + e->ws + e->wd) * 1000;
		x->start_ns = (mono_us + e->ws + e->dm) * 1000;
		x->end_ns = (mono_us + e->ws + e->dm + e->wd + e->de) * 1000;
	}
	if (r->config != 0 &&
	    (x->config = sv_config_text(st, r->config, cause)) == NULL)
		return -1;
	return 0;
}

int
store_values(struct store *st, int64_t run_id, const char *arm, int flags,
    struct store_value **out, size_t *n, char **cause)
{
	struct sv_exec		*ex = NULL;
	struct sv_series	*tab = NULL;
	struct sv_row		*rows = NULL;
	struct store_value	*v = NULL;
	size_t			 nex = 0, ntab = 0, nrows = 0, i;
	int64_t			 wall_us, mono_us;
	int			 rc = -1;

	*out = NULL;
	*n = 0;
	if (sv_execs(st, run_id, &ex, &nex, &wall_us, &mono_us, cause) != 0 ||
	    sv_rows(st, run_id, arm, flags, ex, nex, &tab, &ntab, &rows,
	    &nrows, cause) != 0)
		goto out;
	xqsort(rows, nrows, sizeof *rows, sv_row_cmp);
	v = xcalloc(nrows > 0 ? nrows : 1, sizeof *v);
	for (i = 0; i < nrows; i++) {
		rc = sv_fill(st, &rows[i], &tab[rows[i].series],
		    rows[i].ex >= 0 ? &ex[rows[i].ex] : NULL, wall_us, mono_us,
		    &v[i], cause);
		rows[i].error = NULL;	/* v[i] has it */
		if (rc != 0) {
			store_values_free(v, i + 1);
			goto out;
		}
	}
	*out = v;
	*n = nrows;
	rc = 0;
out:
	for (i = 0; rc != 0 && i < nrows; i++)
		free(rows[i].error);
	for (i = 0; i < ntab; i++) {
		free(tab[i].arm);
		free(tab[i].benchmark);
		free(tab[i].unit);
		free(tab[i].orig_unit);
	}
	free(tab);
	free(rows);
	free(ex);
	return rc;
}

void
store_values_free(struct store_value *v, size_t n)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(v[i].arm);
		free(v[i].benchmark);
		free(v[i].unit);
		free(v[i].status);
		free(v[i].error);
		free(v[i].config);
		free(v[i].orig_unit);
	}
	free(v);
}
