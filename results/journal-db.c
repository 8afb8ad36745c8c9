/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host journal's database, journal.db (journal-db.h): owners and
 * their entries in one small SQLite file, every write synced before it
 * returns. The locks and the rules of the journal are host/journal.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/journal-db.h"
#include "results/store.h"
#include "results/store-int.h"

#define HJ_BUSY_MS	30000
/* PRAGMA application_id of the host journal: "ABHJ". */
#define HJ_APPLICATION_ID	0x4142484a

struct hjournal {
	sqlite3	*db;
	char	*path;
};

static const char hj_schema[] =
	"CREATE TABLE IF NOT EXISTS owners ("
	" uuid TEXT PRIMARY KEY, db TEXT NOT NULL, run_id INTEGER NOT NULL,"
	" pid INTEGER NOT NULL, experiment TEXT, started_wall_ns INTEGER);"
	"CREATE TABLE IF NOT EXISTS entries ("
	" id INTEGER PRIMARY KEY, owner TEXT NOT NULL, copy_id INTEGER,"
	" kind TEXT NOT NULL, name TEXT, target TEXT NOT NULL, original TEXT,"
	" applied TEXT, state TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS entries_owner ON entries(owner, state);";

static int
hj_error(struct hjournal *hj, char **cause, const char *what)
{
	return set_cause(cause, "%s in '%s': %s", what, hj->path,
	    sqlite3_errmsg(hj->db));
}

static sqlite3_stmt *
hj_prepare(struct hjournal *hj, const char *sql, char **cause)
{
	sqlite3_stmt	*s = NULL;

	if (sqlite3_prepare_v2(hj->db, sql, -1, &s, NULL) != SQLITE_OK) {
		hj_error(hj, cause, "cannot prepare a statement");
		sqlite3_finalize(s);
		return NULL;
	}
	return s;
}

static int
hj_step_done(struct hjournal *hj, sqlite3_stmt *s, const char *what,
    char **cause)
{
	int	rc = sqlite3_step(s);

	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return hj_error(hj, cause, what);
	return 0;
}

static void
hj_bind(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

static char *
hj_col(sqlite3_stmt *s, int i)
{
	const unsigned char	*t = sqlite3_column_text(s, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

/* A journal of an older abbench: owners without pid_start get it. */
static int
hj_add_pid_start(struct hjournal *hj, char **msg)
{
	sqlite3_stmt	*s = NULL;

	if (sqlite3_prepare_v2(hj->db, "SELECT pid_start FROM owners LIMIT 0",
	    -1, &s, NULL) == SQLITE_OK) {
		sqlite3_finalize(s);
		return 0;
	}
	sqlite3_finalize(s);
	return sqlite3_exec(hj->db, "ALTER TABLE owners ADD COLUMN pid_start"
	    " TEXT", NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

struct hjournal *
hjournal_open(const char *path, char **cause)
{
	struct hjournal	*hj = xcalloc(1, sizeof *hj);
	sqlite3_stmt	*s;
	char		*msg = NULL;
	int64_t		 app = 0;

	hj->path = xstrdup(path);
	if (sqlite3_open_v2(path, &hj->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		set_cause(cause, "cannot open the host journal '%s': %s", path,
		    hj->db != NULL ? sqlite3_errmsg(hj->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(hj->db, HJ_BUSY_MS);
	if ((s = hj_prepare(hj, "PRAGMA application_id", cause)) == NULL)
		goto fail;
	if (sqlite3_step(s) == SQLITE_ROW)
		app = sqlite3_column_int64(s, 0);
	else {
		sqlite3_finalize(s);
		set_cause(cause, "the host journal '%s' cannot be read: %s",
		    path, sqlite3_errmsg(hj->db));
		goto fail;
	}
	sqlite3_finalize(s);
	if (app != 0 && app != HJ_APPLICATION_ID) {
		set_cause(cause, "'%s' is not an abbench host journal", path);
		goto fail;
	}
	if (sqlite3_exec(hj->db, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = FULL;", NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(hj->db, hj_schema, NULL, NULL, &msg) != SQLITE_OK ||
	    hj_add_pid_start(hj, &msg) != 0 ||
	    (app == 0 && sqlite3_exec(hj->db, "PRAGMA application_id = "
	    "1094862922", NULL, NULL, &msg) != SQLITE_OK)) {
		set_cause(cause, "cannot set up the host journal '%s': %s",
		    path, msg != NULL ? msg : sqlite3_errmsg(hj->db));
		sqlite3_free(msg);
		goto fail;
	}
	return hj;
fail:
	hjournal_close(hj);
	return NULL;
}

void
hjournal_close(struct hjournal *hj)
{
	if (hj == NULL)
		return;
	sqlite3_close(hj->db);
	free(hj->path);
	free(hj);
}

void
hjournal_owner_release(struct hjournal_owner *o)
{
	free(o->uuid);
	free(o->db);
	free(o->pid_start);
	free(o->experiment);
	memset(o, 0, sizeof *o);
}

int
hjournal_owner_add(struct hjournal *hj, const struct hjournal_owner *o,
    char **cause)
{
	sqlite3_stmt	*s;

	s = hj_prepare(hj, "INSERT OR REPLACE INTO owners (uuid, db, run_id,"
	    " pid, experiment, started_wall_ns, pid_start) VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6, ?7)", cause);
	if (s == NULL)
		return -1;
	hj_bind(s, 1, o->uuid);
	hj_bind(s, 2, o->db);
	sqlite3_bind_int64(s, 3, o->run_id);
	sqlite3_bind_int64(s, 4, o->pid);
	hj_bind(s, 5, o->experiment);
	sqlite3_bind_int64(s, 6, o->started_wall_ns);
	hj_bind(s, 7, o->pid_start);
	return hj_step_done(hj, s, "cannot add a run to the host journal",
	    cause);
}

void
hjournal_owners_free(struct hjournal_owner *o, size_t n)
{
	size_t	i;

	for (i = 0; o != NULL && i < n; i++)
		hjournal_owner_release(&o[i]);
	free(o);
}

int
hjournal_owners(struct hjournal *hj, struct hjournal_owner **out, size_t *n,
    char **cause)
{
	struct hjournal_owner	*v = NULL, *o;
	struct store_rows	 r;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows_db(&r, hj->db, hj->path, "SELECT uuid, db, run_id, pid,"
	    " experiment, started_wall_ns, pid_start FROM owners ORDER BY"
	    " started_wall_ns, rowid", cause) != 0)
		return -1;
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		o = &v[(*n)++];
		o->uuid = hj_col(r.s, 0);
		o->db = hj_col(r.s, 1);
		o->run_id = sqlite3_column_int64(r.s, 2);
		o->pid = sqlite3_column_int64(r.s, 3);
		o->experiment = hj_col(r.s, 4);
		o->started_wall_ns = sqlite3_column_int64(r.s, 5);
		o->pid_start = hj_col(r.s, 6);
	}
	if (store_rows_end(&r, "cannot read the host journal", cause) != 0) {
		hjournal_owners_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
hjournal_owner_remove(struct hjournal *hj, const char *uuid, char **cause)
{
	sqlite3_stmt	*s;

	if ((s = hj_prepare(hj, "DELETE FROM entries WHERE owner = ?1",
	    cause)) == NULL)
		return -1;
	hj_bind(s, 1, uuid);
	if (hj_step_done(hj, s, "cannot update the host journal", cause) == -1)
		return -1;
	if ((s = hj_prepare(hj, "DELETE FROM owners WHERE uuid = ?1",
	    cause)) == NULL)
		return -1;
	hj_bind(s, 1, uuid);
	return hj_step_done(hj, s, "cannot update the host journal", cause);
}

int
hjournal_add(struct hjournal *hj, const char *owner, const char *kind,
    const char *name, const char *target, const char *original, int64_t *id,
    char **cause)
{
	sqlite3_stmt	*s;

	if (kind == NULL || *kind == '\0' || target == NULL)
		return set_cause(cause, "a journal entry needs a kind and a "
		    "target");
	s = hj_prepare(hj, "INSERT INTO entries (owner, kind, name, target,"
	    " original, state) VALUES (?1, ?2, ?3, ?4, ?5, 'saved')", cause);
	if (s == NULL)
		return -1;
	hj_bind(s, 1, owner);
	hj_bind(s, 2, kind);
	hj_bind(s, 3, name);
	hj_bind(s, 4, target);
	hj_bind(s, 5, original);
	if (hj_step_done(hj, s, "cannot add a host journal entry", cause) == -1)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(hj->db);
	return 0;
}

int
hjournal_set_copy(struct hjournal *hj, int64_t id, int64_t copy_id,
    char **cause)
{
	sqlite3_stmt	*s;

	if ((s = hj_prepare(hj, "UPDATE entries SET copy_id = ?2 WHERE"
	    " id = ?1", cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, copy_id);
	return hj_step_done(hj, s, "cannot update the host journal", cause);
}

int
hjournal_set_state(struct hjournal *hj, int64_t id, const char *state,
    const char *applied, char **cause)
{
	sqlite3_stmt	*s;

	if (state == NULL || (strcmp(state, JOURNAL_SAVED) != 0 &&
	    strcmp(state, JOURNAL_APPLIED) != 0 &&
	    strcmp(state, JOURNAL_RESTORED) != 0))
		return set_cause(cause, "unknown journal state '%s'",
		    state != NULL ? state : "(null)");
	if ((s = hj_prepare(hj, "UPDATE entries SET state = ?2, applied ="
	    " coalesce(?3, applied) WHERE id = ?1", cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	hj_bind(s, 2, state);
	hj_bind(s, 3, applied);
	return hj_step_done(hj, s, "cannot update the host journal", cause);
}

int
hjournal_copy_id(struct hjournal *hj, int64_t id, int64_t *copy_id,
    char **cause)
{
	struct store_rows	r;

	*copy_id = 0;
	if (store_rows_db(&r, hj->db, hj->path, "SELECT coalesce(copy_id, 0)"
	    " FROM entries WHERE id = ?1", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, id);
	if (store_next(&r))
		*copy_id = sqlite3_column_int64(r.s, 0);
	return store_rows_end(&r, "cannot read the host journal", cause);
}

int
hjournal_pending(struct hjournal *hj, const char *owner,
    struct store_journal **out, size_t *n, char **cause)
{
	struct store_journal	*v = NULL, *x;
	struct store_rows	 r;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows_db(&r, hj->db, hj->path, "SELECT e.id,"
	    " coalesce(o.run_id, 0), e.kind, e.name, e.target, e.original,"
	    " e.applied, e.state FROM entries e LEFT JOIN owners o ON o.uuid ="
	    " e.owner WHERE e.owner = ?1 AND e.state IN ('saved', 'applied')"
	    " ORDER BY e.id DESC", cause) != 0)
		return -1;
	hj_bind(r.s, 1, owner);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		memset(x, 0, sizeof *x);
		x->id = sqlite3_column_int64(r.s, 0);
		x->run_id = sqlite3_column_int64(r.s, 1);
		x->kind = hj_col(r.s, 2);
		x->name = hj_col(r.s, 3);
		if (x->name == NULL)
			x->name = xstrdup("");
		x->target = hj_col(r.s, 4);
		x->original = hj_col(r.s, 5);
		x->applied = hj_col(r.s, 6);
		x->state = hj_col(r.s, 7);
	}
	if (store_rows_end(&r, "cannot read the host journal", cause) != 0) {
		store_journal_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
hjournal_begin(struct hjournal *hj, char **cause)
{
	if (sqlite3_exec(hj->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return hj_error(hj, cause, "cannot begin a transaction");
	return 0;
}

int
hjournal_commit(struct hjournal *hj, char **cause)
{
	if (sqlite3_exec(hj->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		hj_error(hj, cause, "cannot commit");
		(void)sqlite3_exec(hj->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

int
hjournal_rollback(struct hjournal *hj)
{
	return sqlite3_exec(hj->db, "ROLLBACK", NULL, NULL, NULL) ==
	    SQLITE_OK ? 0 : -1;
}
