/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A/A calibrations in the store (calibration.h): the calibrations and
 * calibration_rows tables of schema version 3.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "results/store-int.h"

/* NaN is stored as NULL; infinities as they are (SQLite keeps them). */
static void
calib_bind_real(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

static double
calib_col_real(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(s, i);
}

static int
calib_put(struct store *st, const struct store_calibration *c,
    const struct store_calib_row *rows, size_t n, char **cause)
{
	sqlite3_stmt	*s;
	size_t		 i;

	if ((s = store_prepare(st, "DELETE FROM calibrations WHERE run_id = ?1",
	    cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, c->run_id);
	if (store_run_stmt(st, s, "cannot replace a calibration", cause) != 0)
		return -1;
	if ((s = store_prepare(st, "INSERT INTO calibrations (run_id,"
	    " experiment, host_class, repeats, rounds, alpha) VALUES (?1, ?2,"
	    " ?3, ?4, ?5, ?6)", cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, c->run_id);
	sqlite3_bind_text(s, 2, c->experiment, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, c->host_class, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 4, c->repeats);
	sqlite3_bind_int(s, 5, c->rounds);
	sqlite3_bind_double(s, 6, c->alpha);
	if (store_run_stmt(st, s, "cannot record a calibration", cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if ((s = store_prepare(st, "INSERT INTO calibration_rows"
		    " (run_id, benchmark, unit, n, median, mad_rel, ci_rel, mde,"
		    " comparisons, flagged) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
		    " ?8, ?9, ?10)", cause)) == NULL)
			return -1;
		sqlite3_bind_int64(s, 1, c->run_id);
		sqlite3_bind_text(s, 2, rows[i].benchmark, -1,
		    SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, rows[i].unit, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 4, rows[i].n);
		calib_bind_real(s, 5, rows[i].median);
		calib_bind_real(s, 6, rows[i].mad_rel);
		calib_bind_real(s, 7, rows[i].ci_rel);
		calib_bind_real(s, 8, rows[i].mde);
		sqlite3_bind_int(s, 9, rows[i].comparisons);
		sqlite3_bind_int(s, 10, rows[i].flagged);
		if (store_run_stmt(st, s, "cannot record a calibration row",
		    cause) != 0)
			return -1;
	}
	return 0;
}

int
store_calibration_put(struct store *st, const struct store_calibration *c,
    const struct store_calib_row *rows, size_t n, char **cause)
{
	if (store_begin(st, cause) != 0)
		return -1;
	return store_finish(st, calib_put(st, c, rows, n, cause), cause);
}

/* The calibration a query gives: 1, 0 (none) or -1. */
static int
calib_one(struct store_rows *r, struct store_calibration *out, char **cause)
{
	int	found = store_next(r);

	if (found) {
		out->run_id = sqlite3_column_int64(r->s, 0);
		out->experiment = store_col_str(r->s, 1);
		out->host_class = store_col_str(r->s, 2);
		out->repeats = sqlite3_column_int(r->s, 3);
		out->rounds = sqlite3_column_int(r->s, 4);
		out->alpha = sqlite3_column_double(r->s, 5);
	}
	if (store_rows_end(r, "cannot read calibrations", cause) != 0)
		return -1;
	return found;
}

int
store_calibration_latest(struct store *st, const char *experiment,
    const char *host_class, struct store_calibration *out, char **cause)
{
	struct store_rows	r;

	memset(out, 0, sizeof(*out));
	if (store_rows(&r, st, "SELECT c.run_id, c.experiment, c.host_class,"
	    " c.repeats, c.rounds, c.alpha FROM calibrations c"
	    " JOIN runs r ON r.id = c.run_id"
	    " WHERE c.experiment = ?1 AND c.host_class = ?2"
	    " AND r.status = 'done'"
	    " ORDER BY r.started_wall_ns DESC, c.run_id DESC LIMIT 1",
	    cause) != 0)
		return -1;
	sqlite3_bind_text(r.s, 1, experiment, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(r.s, 2, host_class, -1, SQLITE_TRANSIENT);
	return calib_one(&r, out, cause);
}

int
store_calibration_get(struct store *st, int64_t run_id,
    struct store_calibration *out, char **cause)
{
	struct store_rows	r;

	memset(out, 0, sizeof(*out));
	if (store_rows(&r, st, "SELECT run_id, experiment, host_class,"
	    " repeats, rounds, alpha FROM calibrations WHERE run_id = ?1",
	    cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	return calib_one(&r, out, cause);
}

void
store_calibration_release(struct store_calibration *c)
{
	if (c == NULL)
		return;
	free(c->experiment);
	free(c->host_class);
	memset(c, 0, sizeof(*c));
}

int
store_calibration_rows(struct store *st, int64_t run_id,
    struct store_calib_row **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_calib_row	*v = NULL, *x;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT benchmark, unit, n, median, mad_rel,"
	    " ci_rel, mde, comparisons, flagged FROM calibration_rows"
	    " WHERE run_id = ?1 ORDER BY rowid", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		x->benchmark = store_col_str(r.s, 0);
		x->unit = store_col_str(r.s, 1);
		x->n = sqlite3_column_int64(r.s, 2);
		x->median = calib_col_real(r.s, 3);
		x->mad_rel = calib_col_real(r.s, 4);
		x->ci_rel = calib_col_real(r.s, 5);
		x->mde = calib_col_real(r.s, 6);
		x->comparisons = sqlite3_column_int(r.s, 7);
		x->flagged = sqlite3_column_int(r.s, 8);
	}
	if (store_rows_end(&r, "cannot read calibration rows", cause) != 0) {
		store_calib_rows_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

void
store_calib_rows_free(struct store_calib_row *r, size_t n)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(r[i].benchmark);
		free(r[i].unit);
	}
	free(r);
}

char *
store_run_host_class(struct store *st, int64_t run_id, char **cause)
{
	struct store_rows	 r;
	char			*v = NULL;

	if (store_rows(&r, st, "SELECT coalesce((SELECT value FROM run_config"
	    " WHERE run_id = ?1 AND arm = '' AND key = 'partition') ||"
	    " '/vcpus=' || coalesce((SELECT value FROM run_config"
	    " WHERE run_id = ?1 AND arm = '' AND key = 'vcpus'), '?'), host)"
	    " FROM runs WHERE id = ?1", cause) != 0)
		return NULL;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r))
		v = store_col_str(r.s, 0);
	if (store_rows_end(&r, "cannot read a run", cause) == 0 && v == NULL)
		set_cause(cause, "no run %lld", (long long)run_id);
	return v;
}
