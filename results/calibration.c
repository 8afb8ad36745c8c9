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

int
store_calibration_put(struct store *st, const struct store_calibration *c,
    const struct store_calib_row *rows, size_t n, char **cause)
{
	sqlite3_stmt	*s;
	size_t		 i;

	if (store_begin(st, cause) != 0)
		return -1;
	if ((s = store_prepare(st, "DELETE FROM calibrations WHERE run_id = ?1",
	    cause)) == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, c->run_id);
	if (store_run_stmt(st, s, "cannot replace a calibration", cause) != 0)
		goto fail;
	if ((s = store_prepare(st, "INSERT INTO calibrations (run_id,"
	    " experiment, host_class, repeats, rounds, alpha) VALUES (?1, ?2,"
	    " ?3, ?4, ?5, ?6)", cause)) == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, c->run_id);
	sqlite3_bind_text(s, 2, c->experiment, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, c->host_class, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 4, c->repeats);
	sqlite3_bind_int(s, 5, c->rounds);
	sqlite3_bind_double(s, 6, c->alpha);
	if (store_run_stmt(st, s, "cannot record a calibration", cause) != 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if ((s = store_prepare(st, "INSERT INTO calibration_rows"
		    " (run_id, benchmark, unit, n, median, mad_rel, ci_rel, mde,"
		    " comparisons, flagged) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
		    " ?8, ?9, ?10)", cause)) == NULL)
			goto fail;
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
			goto fail;
	}
	return store_commit(st, cause);
fail:
	store_rollback(st);
	return -1;
}

static int
calib_one(struct store *st, sqlite3_stmt *s, struct store_calibration *out,
    char **cause)
{
	int	rc;

	memset(out, 0, sizeof(*out));
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->run_id = sqlite3_column_int64(s, 0);
		out->experiment = store_col_str(s, 1);
		out->host_class = store_col_str(s, 2);
		out->repeats = sqlite3_column_int(s, 3);
		out->rounds = sqlite3_column_int(s, 4);
		out->alpha = sqlite3_column_double(s, 5);
		sqlite3_finalize(s);
		return 1;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 0;
	return store_db_error(st, cause, "cannot read calibrations");
}

int
store_calibration_latest(struct store *st, const char *experiment,
    const char *host_class, struct store_calibration *out, char **cause)
{
	sqlite3_stmt	*s;

	memset(out, 0, sizeof(*out));
	s = store_prepare(st, "SELECT c.run_id, c.experiment, c.host_class,"
	    " c.repeats, c.rounds, c.alpha FROM calibrations c"
	    " JOIN runs r ON r.id = c.run_id"
	    " WHERE c.experiment = ?1 AND c.host_class = ?2"
	    " AND r.status = 'done'"
	    " ORDER BY r.started_wall_ns DESC, c.run_id DESC LIMIT 1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, experiment, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, host_class, -1, SQLITE_TRANSIENT);
	return calib_one(st, s, out, cause);
}

int
store_calibration_get(struct store *st, int64_t run_id,
    struct store_calibration *out, char **cause)
{
	sqlite3_stmt	*s;

	memset(out, 0, sizeof(*out));
	s = store_prepare(st, "SELECT run_id, experiment, host_class, repeats,"
	    " rounds, alpha FROM calibrations WHERE run_id = ?1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	return calib_one(st, s, out, cause);
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
	sqlite3_stmt		*s;
	struct store_calib_row	*v = NULL, *x;
	size_t			 cap = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT benchmark, unit, n, median, mad_rel,"
	    " ci_rel, mde, comparisons, flagged FROM calibration_rows"
	    " WHERE run_id = ?1 ORDER BY rowid", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		x->benchmark = store_col_str(s, 0);
		x->unit = store_col_str(s, 1);
		x->n = sqlite3_column_int64(s, 2);
		x->median = calib_col_real(s, 3);
		x->mad_rel = calib_col_real(s, 4);
		x->ci_rel = calib_col_real(s, 5);
		x->mde = calib_col_real(s, 6);
		x->comparisons = sqlite3_column_int(s, 7);
		x->flagged = sqlite3_column_int(s, 8);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_calib_rows_free(v, *n);
		*n = 0;
		return store_db_error(st, cause, "cannot read calibration rows");
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
	sqlite3_stmt	*s;
	char		*v = NULL;
	int		 rc;

	s = store_prepare(st, "SELECT coalesce((SELECT value FROM run_config"
	    " WHERE run_id = ?1 AND arm = '' AND key = 'partition') ||"
	    " '/vcpus=' || coalesce((SELECT value FROM run_config"
	    " WHERE run_id = ?1 AND arm = '' AND key = 'vcpus'), '?'), host)"
	    " FROM runs WHERE id = ?1", cause);
	if (s == NULL)
		return NULL;
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		v = store_col_str(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		set_cause(cause, "no run %lld", (long long)run_id);
	else if (rc != SQLITE_ROW)
		store_db_error(st, cause, "cannot read a run");
	return v;
}
