/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals of the results store shared by its files (store.c,
 * store-run.c, store-sample.c, store-admin.c, benchfmt-io.c): the struct
 * behind struct store, cached statements, and small helpers around sqlite3
 * that fill a cause.
 */
#ifndef ABBENCH_STORE_INT_H
#define ABBENCH_STORE_INT_H

#include <stdint.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "results/store.h"

/* PRAGMA application_id of an abbench database: "ABBN". */
#define STORE_APPLICATION_ID	0x4142424e
/* How long a writer waits for another one (the runner, a merge). */
#define STORE_BUSY_MS		30000

/* The migrations that are SQL alone: versions 0 to 8 (store-schema.c). */
#define STORE_SCHEMA_SQL	8
extern const char *const store_migrations[STORE_SCHEMA_SQL];
/* Version 9's conversion of the samples (store-schema.c). */
int	store_compact_start(struct store *st, char **cause);
int	store_compact_migrate(struct store *st, char **cause);
/* A sample_values.status code (0..3) as its text (SAMPLE_OK...). */
#define STORE_STATUS_SQL(c)	"CASE " c " WHEN 0 THEN 'ok' WHEN 1 THEN"	\
	" 'failed' WHEN 2 THEN 'timeout' WHEN 3 THEN 'host-changed' ELSE"	\
	" 'bad status ' || " c " END"

enum store_stmt_id {
	ST_SAMPLE_INSERT,
	ST_SERIES_FIND,
	ST_SERIES_INSERT,
	ST_CLOCK_FIND,
	ST_CLOCK_INSERT,
	ST_EXEC_INSERT,
	ST_EXEC_FIND,
	ST_EXEC_UPDATE,
	ST_RUN_COUNT,
	ST_RUN_ARMS,
	ST_RUN_COUNTS,
	ST_CONFIG_LIST,
	ST_RUN_CLOCK,
	ST_RUN_EXECS,
	ST_RUN_VALUES,
	ST_SERIES_NAMES,
	ST_CONFIG_TEXT,
	ST_UNIT_LIST,
	ST_ARM_EXISTS,
	ST_CONFIG_FIND,
	ST_CONFIG_INSERT,
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST__COUNT
};

struct store {
	sqlite3		*db;
	char		*path;
	int		 flags;
	sqlite3_stmt	*stmts[ST__COUNT];
	int		 depth;		/* store_begin nesting */
	int		 aborted;	/* rolled back inside a nest */
	/*
	 * Arms of run arms_run found in the database by a sample insert:
	 * not looked up again for every sample (they are never removed
	 * while their run adds samples). Forgotten at any rollback, which
	 * may take an arm of its transaction with it.
	 */
	int64_t		 arms_run;
	char		**arms_ok;
	size_t		 narms_ok;
	/*
	 * The same for the series of the samples written (their names,
	 * joined by '\x1f', and ids; next: where the following sample's
	 * probably is) and for the clock bases of run clock_run.
	 */
	char		**series_key;
	int64_t		*series_id;
	size_t		 nseries, series_next;
	int64_t		 clock_run, wall_us, mono_us;
	/*
	 * A batch's run counts (store_counts_defer): summed by each sample
	 * of run counts_run, written by one update at store_counts_end.
	 */
	int		 counts_defer;
	int64_t		 counts_run, counts_exec, counts_bad, counts_ok;
	/*
	 * The -wal file the connection writes (store_wal_check): its
	 * device and inode once seen, and whether it has been removed
	 * under us (from then on every commit is checkpointed).
	 */
	int		 wal_seen;
	int		 wal_lost;
	dev_t		 wal_dev;
	ino_t		 wal_ino;
	/* The file open (store_open_here): its device and inode. */
	dev_t		 dev;
	ino_t		 ino;
	struct store	*next_open;
	/* The checkpoints' thread (store-ckpt.c), or NULL. */
	struct store_ckpt *ckpt;
	/* The run's log of samples not committed yet (store-log.c). */
	struct store_log *log;
};
/* Forget the arms known to exist (a rollback, a close). */
void	store_arms_forget(struct store *st);

/* A cached statement, reset and unbound; NULL with *cause on error. */
sqlite3_stmt	*store_stmt(struct store *st, enum store_stmt_id id,
		    char **cause);
/* A fresh statement (caller finalizes); NULL with *cause on error. */
sqlite3_stmt	*store_prepare(struct store *st, const char *sql,
		    char **cause);
/* Step a statement that returns no rows, then finalize it. */
int	store_run_stmt(struct store *st, sqlite3_stmt *s, const char *what,
	    char **cause);
int	store_exec(struct store *st, const char *sql, char **cause);
/* End store_begin's transaction: commit when rc is 0, else roll back. */
int	store_finish(struct store *st, int rc, char **cause);
/* "WHAT in 'PATH': sqlite3_errmsg" into *cause; returns -1. */
int	store_db_error(struct store *st, char **cause, const char *what);
/* Bind text ("" for NULL) / text or NULL, copied (SQLITE_TRANSIENT). */
void	store_bind_text(sqlite3_stmt *s, int i, const char *t);
void	store_bind_text_or_null(sqlite3_stmt *s, int i, const char *t);
/* Column text as a malloc'd string ("" for NULL) or NULL for NULL. */
char	*store_col_str(sqlite3_stmt *s, int i);
char	*store_col_str_or_null(sqlite3_stmt *s, int i);

/*
 * A query's rows, read the one way every reader of the store reads them:
 *
 *	if (store_rows(&r, st, "SELECT ...", cause) != 0)
 *		return -1;
 *	sqlite3_bind_...(r.s, ...);
 *	while (store_next(&r))
 *		... sqlite3_column_...(r.s, ...) ...
 *	if (store_rows_end(&r, "cannot read WHAT", cause) != 0)
 *		return -1;		(the rows read so far freed)
 *
 * store_next is 1 with a row in r.s, else 0: at the end or on an error,
 * which store_rows_end alone tells ("WHAT in 'PATH': SQLite's message"
 * in *cause, -1). Stopping early is no error. store_rows_end finalizes
 * the statement (resets a cached one); a failed open needs no end.
 */
struct store_rows {
	struct sqlite3	*db;
	const char	*path;
	sqlite3_stmt	*s;
	int		 rc;		/* the last sqlite3_step's */
	int		 cached;
};
int	store_rows(struct store_rows *r, struct store *st, const char *sql,
	    char **cause);
int	store_rows_cached(struct store_rows *r, struct store *st,
	    enum store_stmt_id id, char **cause);
/* The same on another database (the host journal's), named path. */
int	store_rows_db(struct store_rows *r, struct sqlite3 *db,
	    const char *path, const char *sql, char **cause);
int	store_next(struct store_rows *r);
int	store_rows_end(struct store_rows *r, const char *what, char **cause);

/* "file:PATH?QUERY" with the path percent-encoded (query may be NULL). */
char	*store_uri(const char *path, const char *query);
/* Insert a run and its arms inside the caller's transaction. */
int	store_run_insert(struct store *st, struct store_run *r,
	    const char *const *arms, size_t narms, char **cause);
/* 0 when s may be stored, else -1 with why. */
int	store_sample_validate(const struct store_sample *s, char **cause);
/*
 * The samples added next, inside one transaction, count in sample_runs
 * once at store_counts_end (ok: written; else dropped with the rollback
 * that follows) instead of an update each.
 */
void	store_counts_defer(struct store *st);
int	store_counts_end(struct store *st, int ok, char **cause);
/* store_sample_add inside the caller's transaction (import). */
int	store_sample_add_locked(struct store *st,
	    const struct store_sample *s, char **cause);

#endif
