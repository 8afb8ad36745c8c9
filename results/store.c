/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store: transactions and the journal of host changes
 * (opening, the checks and the migrations are store-open.c's); the SQL
 * helpers its other files share are store-sql.c's (store-int.h). Runs
 * live in store-run.c; config, units, warnings and samples in
 * store-sample.c; merge and the consistency check in store-admin.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"



int
store_begin(struct store *st, char **cause)
{
	sqlite3_stmt	*s;

	if (st->depth > 0) {
		st->depth++;
		return 0;
	}
	if ((s = store_stmt(st, ST_BEGIN, cause)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_DONE) {
		store_db_error(st, cause, "cannot begin a transaction");
		sqlite3_reset(s);
		return -1;
	}
	sqlite3_reset(s);
	st->depth = 1;
	st->aborted = 0;
	return 0;
}

/*
 * Until a checkpoint (every ~1000 pages) a run's samples are in the -wal
 * file only: the main file may hold 4 KB of schema. A -wal removed under
 * a running abbench (rm, a cleaner of "temporary" files) goes on taking
 * commits through the descriptor SQLite holds, and the next kill -9 or
 * crash loses all of them without a word (issue #53). So after each
 * commit: is the -wal file at the path still the one we write? If not,
 * copy every frame into the main file while the connection can still
 * read them (a FULL checkpoint syncs it), and fail, so that the caller
 * stops; from then on every commit is checkpointed at once, so that what
 * the caller writes while it stops (the run's end) is kept too. One
 * stat(2) per commit, ~1 us against a sample's ~200 us.
 */
static int
store_wal_check(struct store *st, char **cause)
{
	struct stat	 sb;
	char		*wal;
	int		 gone, nlog = 0, nckpt = 0, e;

	if (st->flags & STORE_READONLY)
		return 0;
	wal = xasprintf("%s-wal", st->path);
	if (stat(wal, &sb) == -1) {
		e = errno;
		gone = e == ENOENT;
	} else {
		e = 0;
		gone = st->wal_seen && (sb.st_dev != st->wal_dev ||
		    sb.st_ino != st->wal_ino);
		if (!st->wal_seen) {
			st->wal_seen = 1;
			st->wal_dev = sb.st_dev;
			st->wal_ino = sb.st_ino;
		}
	}
	/* Not a journal in WAL mode yet (or not ours to judge). */
	if (!st->wal_seen && !st->wal_lost) {
		free(wal);
		return 0;
	}
	if (!gone && !st->wal_lost) {
		free(wal);
		return 0;
	}
	/* No checkpoint of the thread's in the way. */
	store_checkpoint_inline(st);
	if (sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_FULL,
	    &nlog, &nckpt) != SQLITE_OK) {
		(void)store_db_error(st, cause, "cannot checkpoint");
		free(wal);
		return -1;
	}
	if (st->wal_lost) {
		free(wal);
		return 0;
	}
	st->wal_lost = 1;
	set_cause(cause, "'%s' was %s while writing to '%s': the %d pages "
	    "it held were written into '%s' (checkpoint), but what follows "
	    "would be lost at a crash: stopping", wal, e == ENOENT ?
	    "removed" : "replaced", st->path, nckpt, st->path);
	free(wal);
	return -1;
}

int
store_commit(struct store *st, char **cause)
{
	sqlite3_stmt	*s;

	if (st->depth == 0)
		return set_cause(cause, "commit without a transaction in '%s'",
		    st->path);
	if (st->aborted) {
		if (--st->depth == 0)
			st->aborted = 0;
		return set_cause(cause, "the transaction in '%s' was rolled "
		    "back", st->path);
	}
	if (st->depth > 1) {
		st->depth--;
		return 0;
	}
	if ((s = store_stmt(st, ST_COMMIT, cause)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_DONE) {
		store_db_error(st, cause, "cannot commit");
		sqlite3_reset(s);
		store_rollback(st);
		return -1;
	}
	sqlite3_reset(s);
	st->depth = 0;
	return store_wal_check(st, cause);
}

/*
 * The arms known to belong to the current run (store-sample.c's cache):
 * forgotten at a rollback, which may undo the run they were read from.
 */
void
store_arms_forget(struct store *st)
{
	size_t	i;

	for (i = 0; i < st->narms_ok; i++)
		free(st->arms_ok[i]);
	free(st->arms_ok);
	st->arms_ok = NULL;
	st->narms_ok = 0;
	st->arms_run = 0;
	for (i = 0; i < st->nseries; i++)
		free(st->series_key[i]);
	free(st->series_key);
	free(st->series_id);
	st->series_key = NULL;
	st->series_id = NULL;
	st->nseries = st->series_next = 0;
	st->clock_run = 0;
}

int
store_rollback(struct store *st)
{
	sqlite3_stmt	*s;

	if (st->depth == 0)
		return 0;
	store_arms_forget(st);
	if (!st->aborted && !sqlite3_get_autocommit(st->db)) {
		if ((s = store_stmt(st, ST_ROLLBACK, NULL)) != NULL) {
			sqlite3_step(s);
			sqlite3_reset(s);
		}
	}
	if (--st->depth > 0)
		st->aborted = 1;
	else
		st->aborted = 0;
	return 0;
}

/* Commit when rc is 0, else roll back: -1 (a transaction's end). */
int
store_finish(struct store *st, int rc, char **cause)
{
	if (rc == 0)
		return store_commit(st, cause);
	store_rollback(st);
	return -1;
}

/*
 * The journal.
 */

static int
valid_journal_state(const char *s)
{
	return strcmp(s, JOURNAL_SAVED) == 0 ||
	    strcmp(s, JOURNAL_APPLIED) == 0 ||
	    strcmp(s, JOURNAL_RESTORED) == 0 ||
	    strcmp(s, JOURNAL_MERGED) == 0;
}

int
store_journal_add(struct store *st, int64_t run_id, const char *kind,
    const char *name, const char *target, const char *original, int64_t *id,
    char **cause)
{
	sqlite3_stmt	*s;

	if (kind == NULL || *kind == '\0')
		return set_cause(cause, "a journal entry needs a kind");
	s = store_prepare(st, "INSERT INTO journal (run_id, seq, kind, name,"
	    " target, original, applied, state) VALUES (?1, (SELECT"
	    " coalesce(max(seq), -1) + 1 FROM journal), ?2, ?3, ?4, ?5, NULL,"
	    " 'saved')", cause);
	if (s == NULL)
		return -1;
	if (run_id > 0)
		sqlite3_bind_int64(s, 1, run_id);
	else
		sqlite3_bind_null(s, 1);
	store_bind_text(s, 2, kind);
	store_bind_text(s, 3, name);
	store_bind_text(s, 4, target);
	store_bind_text_or_null(s, 5, original);
	if (store_run_stmt(st, s, "cannot add a journal entry", cause) != 0)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int
store_journal_set_state(struct store *st, int64_t id, const char *state,
    const char *applied, char **cause)
{
	sqlite3_stmt	*s;

	if (state == NULL || !valid_journal_state(state))
		return set_cause(cause, "unknown journal state '%s'",
		    state != NULL ? state : "(null)");
	s = store_prepare(st, "UPDATE journal SET state = ?2, applied ="
	    " coalesce(?3, applied) WHERE id = ?1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	store_bind_text(s, 2, state);
	store_bind_text_or_null(s, 3, applied);
	if (store_run_stmt(st, s, "cannot update the journal", cause) != 0)
		return -1;
	if (sqlite3_changes(st->db) == 0)
		return set_cause(cause, "no journal entry %lld in '%s'",
		    (long long)id, st->path);
	return 0;
}

void
store_journal_free(struct store_journal *j, size_t n)
{
	size_t	i;

	if (j == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(j[i].kind);
		free(j[i].name);
		free(j[i].target);
		free(j[i].original);
		free(j[i].applied);
		free(j[i].state);
	}
	free(j);
}

static int
journal_query(struct store *st, int64_t run_id, int pending,
    struct store_journal **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_journal	*v = NULL, *x;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, pending ?
	    "SELECT id, coalesce(run_id, 0), kind, name, target, original,"
	    " applied, state FROM journal WHERE (?1 = 0 OR run_id = ?1) AND"
	    " state IN ('saved', 'applied') ORDER BY seq DESC, id DESC" :
	    "SELECT id, coalesce(run_id, 0), kind, name, target, original,"
	    " applied, state FROM journal WHERE (?1 = 0 OR run_id = ?1)"
	    " ORDER BY seq, id", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		x->id = sqlite3_column_int64(r.s, 0);
		x->run_id = sqlite3_column_int64(r.s, 1);
		x->kind = store_col_str(r.s, 2);
		x->name = store_col_str(r.s, 3);
		x->target = store_col_str(r.s, 4);
		x->original = store_col_str_or_null(r.s, 5);
		x->applied = store_col_str_or_null(r.s, 6);
		x->state = store_col_str(r.s, 7);
	}
	if (store_rows_end(&r, "cannot read the journal", cause) != 0) {
		store_journal_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
store_journal_pending(struct store *st, int64_t run_id,
    struct store_journal **out, size_t *n, char **cause)
{
	return journal_query(st, run_id, 1, out, n, cause);
}

int
store_journal_list(struct store *st, int64_t run_id,
    struct store_journal **out, size_t *n, char **cause)
{
	return journal_query(st, run_id, 0, out, n, cause);
}
