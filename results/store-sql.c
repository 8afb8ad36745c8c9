/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL helpers every file of the store shares (store-int.h): the
 * cached statements, prepare, run, bind, read a column. They sit below
 * the store's opening and migrations (store.c, store-schema.c) and its
 * runs, samples and admin, which all use them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

/* Cached statements, prepared on first use. */
static const char *const store_sql[ST__COUNT] = {
	[ST_SAMPLE_INSERT] =
	    "INSERT INTO sample_values (run_id, series_id, plan_idx, k, value,"
	    " status, error, config_id, orig_value) VALUES (?1, ?2, ?3, ?4,"
	    " ?5, ?6, ?7, ?8, ?9)",
	[ST_SERIES_FIND] =
	    "SELECT id FROM series WHERE arm = ?1 AND workload = ?2 AND"
	    " benchmark = ?3 AND unit = ?4 AND orig_unit = ?5",
	[ST_SERIES_INSERT] =
	    "INSERT INTO series (arm, workload, benchmark, unit, orig_unit)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_CLOCK_FIND] =
	    "SELECT wall_us, mono_us FROM sample_runs WHERE run_id = ?1",
	[ST_CLOCK_INSERT] =
	    "INSERT INTO sample_runs (run_id, wall_us, mono_us) VALUES (?1,"
	    " ?2, ?3)",
	[ST_EXEC_INSERT] =
	    "INSERT OR IGNORE INTO executions (run_id, plan_idx, round,"
	    " position, warmup, ws, wd, dm, de, nv, bad, nx) VALUES (?1, ?2,"
	    " ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 1)",
	[ST_EXEC_FIND] =
	    "SELECT nv, bad, round, position, warmup, ws, wd, dm, de FROM"
	    " executions WHERE run_id = ?1 AND plan_idx = ?2",
	[ST_EXEC_UPDATE] =
	    "UPDATE executions SET nv = nv + ?3, bad = max(bad, ?4), nx = nx +"
	    " ?5 WHERE run_id = ?1 AND plan_idx = ?2",
	[ST_RUN_COUNT] =
	    "UPDATE sample_runs SET nexec = nexec + ?2, nfailed = nfailed +"
	    " ?3, nok = nok + ?4 WHERE run_id = ?1",
	[ST_RUN_ARMS] =
	    "SELECT name FROM arms WHERE run_id = ?1 ORDER BY idx",
	[ST_RUN_COUNTS] =
	    "SELECT nexec, nfailed, nok FROM sample_runs WHERE run_id = ?1",
	/* The whole run's lines first, then each arm's in arm order. */
	[ST_CONFIG_LIST] =
	    "SELECT c.arm, c.key, c.value FROM run_config c"
	    " LEFT JOIN arms a ON a.run_id = c.run_id AND a.name = c.arm"
	    " WHERE c.run_id = ?1 AND NOT (c.arm = '' AND c.key = '"
	    STORE_KEY_NIGHTLY_STATE "')"
	    " ORDER BY c.arm != '', a.idx, c.arm, c.seq",
	[ST_UNIT_LIST] =
	    "SELECT unit, key, value FROM units WHERE run_id = ?1 ORDER BY seq",
	/* store_values (store-values.c). */
	[ST_RUN_CLOCK] =
	    "SELECT wall_us, mono_us FROM sample_runs WHERE run_id = ?1",
	[ST_RUN_EXECS] =
	    "SELECT plan_idx, round, position, warmup, ws, wd, dm, de FROM"
	    " executions WHERE run_id = ?1 ORDER BY plan_idx",
	[ST_RUN_VALUES] =
	    "SELECT series_id, plan_idx, k, value, status, error, config_id,"
	    " orig_value FROM sample_values WHERE run_id = ?1",
	[ST_SERIES_NAMES] =
	    "SELECT arm, benchmark, unit, orig_unit FROM series WHERE id = ?1",
	[ST_CONFIG_TEXT] = "SELECT text FROM sample_configs WHERE id = ?1",
	[ST_ARM_EXISTS] =
	    "SELECT 1 FROM arms WHERE run_id = ?1 AND name = ?2",
	[ST_CONFIG_FIND] =
	    "SELECT id FROM sample_configs WHERE run_id = ?1 AND text = ?2",
	[ST_CONFIG_INSERT] =
	    "INSERT INTO sample_configs (run_id, text) VALUES (?1, ?2)",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
};

const char *
store_path(const struct store *st)
{
	return st->path;
}

struct sqlite3 *
store_db(struct store *st)
{
	return st->db;
}

int
store_db_error(struct store *st, char **cause, const char *what)
{
	return set_cause(cause, "%s in '%s': %s", what, st->path,
	    sqlite3_errmsg(st->db));
}

sqlite3_stmt *
store_stmt(struct store *st, enum store_stmt_id id, char **cause)
{
	sqlite3_stmt	*s = st->stmts[id];

	if (s != NULL) {
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		return s;
	}
	if (sqlite3_prepare_v3(st->db, store_sql[id], -1,
	    SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) {
		store_db_error(st, cause, "cannot prepare a statement");
		sqlite3_finalize(s);
		return NULL;
	}
	st->stmts[id] = s;
	return s;
}

sqlite3_stmt *
store_prepare(struct store *st, const char *sql, char **cause)
{
	sqlite3_stmt	*s = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		store_db_error(st, cause, "cannot prepare a statement");
		sqlite3_finalize(s);
		return NULL;
	}
	return s;
}

/* Run a statement with no result rows; finalizes it. */
int
store_run_stmt(struct store *st, sqlite3_stmt *s, const char *what,
    char **cause)
{
	int	rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_db_error(st, cause, what);
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

int
store_exec(struct store *st, const char *sql, char **cause)
{
	char	*msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		set_cause(cause, "cannot run '%.40s' on '%s': %s", sql,
		    st->path, msg != NULL ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

void
store_bind_text(sqlite3_stmt *s, int i, const char *t)
{
	sqlite3_bind_text(s, i, t != NULL ? t : "", -1, SQLITE_TRANSIENT);
}

void
store_bind_text_or_null(sqlite3_stmt *s, int i, const char *t)
{
	if (t == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
}

char *
store_col_str(sqlite3_stmt *s, int i)
{
	const unsigned char	*t = sqlite3_column_text(s, i);

	return xstrdup(t != NULL ? (const char *)t : "");
}

char *
store_col_str_or_null(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NULL;
	return store_col_str(s, i);
}

/* path as an SQLite file: URI, percent-escaped, with ?query. */
char *
store_uri(const char *path, const char *query)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p;

	strbuf_adds(&sb, "file:");
	for (p = path; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/-._~", c) != NULL)
			strbuf_addc(&sb, (char)c);
		else
			strbuf_addf(&sb, "%%%02X", c);
	}
	if (query != NULL)
		strbuf_addf(&sb, "?%s", query);
	return strbuf_detach(&sb);
}

/*
 * The rows of a query (store-int.h): every reader of the store steps
 * them this one way.
 */
int
store_rows_db(struct store_rows *r, struct sqlite3 *db, const char *path,
    const char *sql, char **cause)
{
	memset(r, 0, sizeof *r);
	r->db = db;
	r->path = path;
	r->rc = SQLITE_OK;
	if (sqlite3_prepare_v2(db, sql, -1, &r->s, NULL) != SQLITE_OK) {
		set_cause(cause, "cannot prepare a statement in '%s': %s",
		    path, sqlite3_errmsg(db));
		sqlite3_finalize(r->s);
		r->s = NULL;
		return -1;
	}
	return 0;
}

int
store_rows(struct store_rows *r, struct store *st, const char *sql,
    char **cause)
{
	return store_rows_db(r, st->db, st->path, sql, cause);
}

int
store_rows_cached(struct store_rows *r, struct store *st,
    enum store_stmt_id id, char **cause)
{
	memset(r, 0, sizeof *r);
	r->db = st->db;
	r->path = st->path;
	r->rc = SQLITE_OK;
	r->cached = 1;
	return (r->s = store_stmt(st, id, cause)) != NULL ? 0 : -1;
}

int
store_next(struct store_rows *r)
{
	if (r->rc != SQLITE_OK && r->rc != SQLITE_ROW)
		return 0;
	return (r->rc = sqlite3_step(r->s)) == SQLITE_ROW;
}

int
store_rows_end(struct store_rows *r, const char *what, char **cause)
{
	int	ok = r->rc == SQLITE_OK || r->rc == SQLITE_ROW ||
		    r->rc == SQLITE_DONE;

	if (!ok)
		set_cause(cause, "%s in '%s': %s", what != NULL ? what :
		    "cannot read", r->path, sqlite3_errmsg(r->db));
	if (r->cached)
		sqlite3_reset(r->s);
	else
		sqlite3_finalize(r->s);
	r->s = NULL;
	return ok ? 0 : -1;
}
