/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store: opening (with the checks that keep abbench from
 * writing into a file that is not its own), schema migrations (with
 * store-schema.c), transactions, and the journal of host changes; the
 * SQL helpers its other files share are store-sql.c's (store-int.h). Runs live in store-run.c, config, units,
 * warnings and samples in store-sample.c, merge and the consistency check
 * in store-admin.c.
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


/* Run a one-integer query. */
static int
store_query_int(struct store *st, const char *sql, int64_t *out, char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	if ((s = store_prepare(st, sql, cause)) == NULL)
		return -1;
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			*out = 0;
		else {
			store_db_error(st, cause, "cannot read");
			sqlite3_finalize(s);
			return -1;
		}
	} else
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return 0;
}

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

/*
 * Opening.
 */

static uint32_t
get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* What the raw file says before SQLite opens it. */
struct store_file_info {
	int		empty;		/* zero length */
	int		have_wal;	/* a -wal file with content beside it */
	int		header_ok;	/* app_id, version, pages are current */
	uint32_t	app_id;
	uint32_t	version;
	uint32_t	pages;
};

/*
 * The stores this process has open. A file one of them holds must not be
 * opened and closed with open(2)/close(2) again: closing any descriptor
 * of a file drops every POSIX lock the process holds on it, SQLite's
 * included. The connection's shared lock gone, another process's last
 * connection (`sqlite3`, `abbench db show` beside a run) takes the
 * file's exclusive lock at its close, checkpoints and unlinks the -wal
 * file under us: what this connection commits after that goes to an
 * unlinked file, invisible to readers, and is lost if abbench is killed.
 * A resumed run opens its database before recovering dead runs, which
 * opens each of their databases, its own included.
 */
static struct store	*store_open_list;

static const struct store *
store_open_here(const struct stat *sb)
{
	const struct store	*st;

	for (st = store_open_list; st != NULL; st = st->next_open)
		if (st->dev == sb->st_dev && st->ino == sb->st_ino)
			return st;
	return NULL;
}

static void
store_open_add(struct store *st)
{
	struct stat	sb;

	if (stat(st->path, &sb) != 0)
		return;
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	st->next_open = store_open_list;
	store_open_list = st;
}

static void
store_open_remove(struct store *st)
{
	struct store	**pp;

	for (pp = &store_open_list; *pp != NULL; pp = &(*pp)->next_open)
		if (*pp == st) {
			*pp = st->next_open;
			break;
		}
}

/*
 * Look at the raw file before SQLite does, so that a text file or a
 * truncated database gets a clear message, and so that a file can be
 * identified without opening it in SQLite (which would leave -wal and -shm
 * files beside a file we then refuse).
 */
static int
store_check_file(const char *path, const struct stat *sb,
    struct store_file_info *fi, char **cause)
{
	unsigned char	 hdr[100];
	ssize_t		 n;
	int		 fd;
	uint32_t	 page_size;
	char		*wal;
	struct stat	 wsb;

	memset(fi, 0, sizeof *fi);
	if (!S_ISREG(sb->st_mode))
		return set_cause(cause, "'%s' is not a regular file", path);
	if (sb->st_size == 0) {
		fi->empty = 1;
		return 0;
	}
	/* Open here already: identified through SQLite (header_ok 0). */
	if (store_open_here(sb) != NULL)
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
	n = read(fd, hdr, sizeof hdr);
	close(fd);
	if (n < 0)
		return set_cause(cause, "cannot read '%s': %s", path,
		    strerror(errno));
	if (n < 16 || memcmp(hdr, "SQLite format 3", 16) != 0)
		return set_cause(cause, "'%s' is not an abbench database "
		    "(not an SQLite 3 file)", path);
	if (n < (ssize_t)sizeof hdr)
		return set_cause(cause, "'%s' is truncated or corrupt "
		    "(%zd bytes, shorter than an SQLite header)", path, n);
	page_size = (uint32_t)hdr[16] << 8 | hdr[17];
	if (page_size == 1)
		page_size = 65536;
	if (page_size < 512 || (page_size & (page_size - 1)) != 0)
		return set_cause(cause, "'%s' is corrupt (bad page size %u)",
		    path, page_size);
	/*
	 * The header is current when no write-ahead log holds newer pages
	 * (a -wal file is emptied or removed at the last checkpoint).
	 */
	wal = xasprintf("%s-wal", path);
	fi->have_wal = stat(wal, &wsb) == 0 && wsb.st_size > 0;
	free(wal);
	fi->pages = get_be32(hdr + 28);
	fi->version = get_be32(hdr + 60);
	fi->app_id = get_be32(hdr + 68);
	fi->header_ok = !fi->have_wal && fi->pages != 0 &&
	    get_be32(hdr + 24) == get_be32(hdr + 92);
	if (fi->header_ok &&
	    (uint64_t)sb->st_size < (uint64_t)fi->pages * page_size)
		return set_cause(cause, "'%s' is truncated or corrupt "
		    "(%lld bytes, its header says %u pages of %u bytes)",
		    path, (long long)sb->st_size, fi->pages, page_size);
	if (!fi->have_wal && sb->st_size % page_size != 0)
		return set_cause(cause, "'%s' is truncated or corrupt "
		    "(%lld bytes, not a multiple of the %u-byte page size)",
		    path, (long long)sb->st_size, page_size);
	return 0;
}

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

static int
store_sqlite_open(struct store *st, int flags, const char *query,
    char **cause)
{
	char	*uri = store_uri(st->path, query);
	int	 rc, err;

	/* One connection a thread (store.h): no mutex around each call. */
	rc = sqlite3_open_v2(uri, &st->db, flags | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		err = st->db != NULL ? sqlite3_system_errno(st->db) : 0;
		if (err != 0)
			set_cause(cause, "cannot open '%s': %s", st->path,
			    strerror(err));
		else
			set_cause(cause, "cannot open '%s': %s", st->path,
			    st->db != NULL ? sqlite3_errmsg(st->db) :
			    sqlite3_errstr(rc));
		sqlite3_close(st->db);
		st->db = NULL;
		return -1;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	return 0;
}

/* A clear message for an error from SQLite while identifying a file. */
static int
store_open_error(struct store *st, char **cause)
{
	int	rc = sqlite3_errcode(st->db);

	if (rc == SQLITE_NOTADB)
		return set_cause(cause, "'%s' is not an abbench database "
		    "(not an SQLite 3 file)", st->path);
	if (rc == SQLITE_CORRUPT)
		return set_cause(cause, "'%s' is corrupt: %s", st->path,
		    sqlite3_errmsg(st->db));
	return set_cause(cause, "cannot read '%s': %s", st->path,
	    sqlite3_errmsg(st->db));
}

/*
 * The verdict on a file from its application id, schema version and
 * whether it has tables: 1 = abbench database, 0 = an empty SQLite
 * database (ours to set up), -1 = refused with *cause.
 */
static int
store_verdict(const char *path, int64_t app, int64_t version, int has_tables,
    char **cause)
{
	if (app == STORE_APPLICATION_ID) {
		if (version > STORE_SCHEMA_VERSION)
			return set_cause(cause, "'%s' has schema version "
			    "%lld, newer than this abbench supports (%d): "
			    "use a newer abbench", path, (long long)version,
			    STORE_SCHEMA_VERSION);
		return 1;
	}
	if (app == 0 && version == 0 && !has_tables)
		return 0;
	if (app != 0)
		return set_cause(cause, "'%s' is not an abbench database "
		    "(an SQLite database of another program, application "
		    "id 0x%08llx)", path, (unsigned long long)app);
	return set_cause(cause, "'%s' is not an abbench database (an SQLite "
	    "database of another program)", path);
}

/* The same from an open (read-only) connection, when a WAL is active. */
static int
store_identify(struct store *st, int64_t *version, char **cause)
{
	int64_t	 app, ntables;

	if (store_query_int(st, "PRAGMA application_id", &app, NULL) != 0 ||
	    store_query_int(st, "PRAGMA user_version", version, NULL) != 0 ||
	    store_query_int(st, "SELECT count(*) FROM sqlite_master",
	    &ntables, NULL) != 0) {
		store_open_error(st, cause);
		return -1;
	}
	return store_verdict(st->path, app, *version, ntables > 0, cause);
}

static int
store_migrate(struct store *st, char **cause)
{
	int64_t	 version, app;
	int	 i;
	char	*sql;

	if (store_exec(st, "BEGIN IMMEDIATE", cause) != 0)
		return -1;
	/* Someone else may have migrated it while we waited. */
	if (store_query_int(st, "PRAGMA user_version", &version, cause) != 0 ||
	    store_query_int(st, "PRAGMA application_id", &app, cause) != 0)
		goto fail;
	if (version > STORE_SCHEMA_VERSION) {
		set_cause(cause, "'%s' has schema version %lld, newer than "
		    "this abbench supports (%d): use a newer abbench", st->path,
		    (long long)version, STORE_SCHEMA_VERSION);
		goto fail;
	}
	for (i = (int)version; i < STORE_SCHEMA_SQL; i++) {
		if (store_exec(st, store_migrations[i], cause) != 0)
			goto fail;
	}
	if (version < STORE_SCHEMA_SQL) {
		sql = xasprintf("PRAGMA user_version = %d", STORE_SCHEMA_SQL);
		i = store_exec(st, sql, cause);
		free(sql);
		if (i != 0)
			goto fail;
	}
	if (version < STORE_SCHEMA_VERSION &&
	    store_compact_start(st, cause) != 0)
		goto fail;
	if (app != STORE_APPLICATION_ID) {
		sql = xasprintf("PRAGMA application_id = %d",
		    STORE_APPLICATION_ID);
		i = store_exec(st, sql, cause);
		free(sql);
		if (i != 0)
			goto fail;
	}
	if (store_exec(st, "COMMIT", cause) != 0)
		goto fail;
	/* Version 9's samples: one run a transaction (store-schema.c). */
	return version < STORE_SCHEMA_VERSION ?
	    store_compact_migrate(st, cause) : 0;
fail:
	store_exec(st, "ROLLBACK", NULL);
	return -1;
}

/* Directory writable for the -wal and -shm files SQLite makes beside it. */
static int
store_check_writable(const char *path, int exists, char **cause)
{
	char	*dir = path_dir(path);
	int	 ok = access(dir, W_OK) == 0;

	if (!ok) {
		set_cause(cause, "cannot %s '%s': directory '%s' is not "
		    "writable", exists ? "write" : "create", path, dir);
		free(dir);
		return -1;
	}
	free(dir);
	if (exists && access(path, W_OK) != 0)
		return set_cause(cause, "cannot write '%s': %s", path,
		    strerror(errno));
	return 0;
}

/*
 * WAL, and by default synchronous = NORMAL. Each sample is its own
 * transaction, committed before the next sample starts: COMMIT has
 * written it into the -wal file (pwrite, no fsync), so from that moment
 * every other connection reads it, and it survives the death of abbench
 * (kill -9, a crash, the OOM killer): SQLite replays the WAL at the next
 * open. What NORMAL does not promise is the disk: a power loss or a
 * kernel crash may lose the transactions committed since the WAL was
 * last synced (at each checkpoint, every ~1000 pages), never the
 * database's consistency. --durable (STORE_DURABLE) makes it FULL: an
 * fsync of the WAL at every COMMIT: on the project's VM (ext4 on
 * virtio) bench/store-speed gives 1.6 ms a sample with it against 0.19
 * ms without (load 13), six times the whole harness's target per sample.
 */
static int
store_set_pragmas(struct store *st, int flags, char **cause)
{
	char	*sql;
	int	 rc;

	if (store_exec(st, "PRAGMA journal_mode = WAL", cause) != 0)
		return -1;
	sql = xasprintf("PRAGMA synchronous = %s",
	    (flags & STORE_DURABLE) ? "FULL" : "NORMAL");
	rc = store_exec(st, sql, cause);
	free(sql);
	if (rc != 0)
		return -1;
	return store_exec(st, "PRAGMA foreign_keys = ON", cause);
}

/*
 * A read-only handle. Where we may write, the connection is read-write
 * with query_only set: on close it then removes the -wal and -shm files
 * that a read-only connection would leave behind. In a directory we
 * cannot write, SQLite cannot make the -shm file a reader of a WAL
 * database needs; with no -wal file there is no writer either, so the
 * file is read as immutable.
 */
static int
store_open_readonly(struct store *st, char **cause)
{
	char	*dir = path_dir(st->path);
	char	*wal = xasprintf("%s-wal", st->path);
	int	 dir_w = access(dir, W_OK) == 0;
	int	 file_w = access(st->path, W_OK) == 0;
	int	 have_wal = access(wal, F_OK) == 0;

	free(dir);
	free(wal);
	if (dir_w && file_w) {
		if (store_sqlite_open(st, SQLITE_OPEN_READWRITE, NULL,
		    cause) != 0)
			return -1;
	} else if (store_sqlite_open(st, SQLITE_OPEN_READONLY,
	    !dir_w && !have_wal ? "immutable=1" : NULL, cause) != 0)
		return -1;
	return store_exec(st, "PRAGMA query_only = 1", cause);
}

struct store *
store_open(const char *path, int flags, char **cause)
{
	struct store		*st;
	struct stat		 sb;
	struct store_file_info	 fi;
	int			 exists, kind = 0;
	int64_t			 version = 0;

	st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->flags = flags;
	memset(&fi, 0, sizeof fi);

	exists = stat(path, &sb) == 0;
	if (!exists && errno != ENOENT) {
		set_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!exists && (!(flags & STORE_CREATE) || (flags & STORE_READONLY))) {
		set_cause(cause, "cannot open '%s': no such file", path);
		goto fail;
	}
	if (exists) {
		if (store_check_file(path, &sb, &fi, cause) != 0)
			goto fail;
		if (fi.empty && !(flags & STORE_CREATE)) {
			/* Only a command that makes databases sets one up. */
			set_cause(cause, "'%s' is empty, not an abbench "
			    "database", path);
			goto fail;
		}
		if (fi.empty && (flags & STORE_READONLY)) {
			set_cause(cause, "'%s' is empty, not an abbench "
			    "database", path);
			goto fail;
		}
	}

	if (exists && !fi.empty) {
		/* Identify the file before anything can write to it. */
		if (fi.header_ok) {
			version = fi.version;
			kind = store_verdict(path, fi.app_id, fi.version,
			    fi.pages > 1, cause);
		} else {
			if (store_sqlite_open(st, SQLITE_OPEN_READONLY, NULL,
			    cause) != 0)
				goto fail;
			kind = store_identify(st, &version, cause);
			sqlite3_close(st->db);
			st->db = NULL;
		}
		if (kind < 0)
			goto fail;
		if (kind == 0 && (flags & STORE_READONLY)) {
			set_cause(cause, "'%s' is an empty SQLite database, "
			    "not an abbench database", path);
			goto fail;
		}
		if ((flags & STORE_READONLY) &&
		    version < STORE_SCHEMA_VERSION) {
			char	*dir = path_dir(path);
			int	 w = access(path, W_OK) == 0 &&
			    access(dir, W_OK) == 0;

			free(dir);
			if (!w) {
				set_cause(cause, "'%s' has schema version "
				    "%lld and needs an upgrade, but it cannot "
				    "be written: upgrade a writable copy",
				    path, (long long)version);
				goto fail;
			}
			/* An older database opens: migrate it forward. */
			flags &= ~STORE_READONLY;
			st->flags = flags;
		}
		if (flags & STORE_READONLY) {
			if (store_open_readonly(st, cause) != 0)
				goto fail;
			/* Refuse what the header alone could not show. */
			if (store_identify(st, &version, cause) != 1)
				goto fail;
			store_open_add(st);
			return st;
		}
	}

	if (store_check_writable(path, exists, cause) != 0)
		goto fail;
	if (store_sqlite_open(st, SQLITE_OPEN_READWRITE |
	    (exists ? 0 : SQLITE_OPEN_CREATE), NULL, cause) != 0)
		goto fail;
	if (exists && !fi.empty) {
		/* A truncated file can pass the header checks. */
		if (store_identify(st, &version, cause) < 0)
			goto fail;
	}
	if (store_set_pragmas(st, flags, cause) != 0)
		goto fail;
	if (version < STORE_SCHEMA_VERSION || kind == 0) {
		if (store_migrate(st, cause) != 0)
			goto fail;
	}
	store_open_add(st);
	return st;
fail:
	store_close(st);
	return NULL;
}

void
store_close(struct store *st)
{
	size_t	i;

	if (st == NULL)
		return;
	store_open_remove(st);
	store_checkpoint_inline(st);
	for (i = 0; i < ST__COUNT; i++)
		sqlite3_finalize(st->stmts[i]);
	store_arms_forget(st);
	if (st->db != NULL)
		sqlite3_close(st->db);
	free(st->path);
	free(st);
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
	sqlite3_stmt		*s;
	struct store_journal	*v = NULL, *x;
	size_t			 cap = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, pending ?
	    "SELECT id, coalesce(run_id, 0), kind, name, target, original,"
	    " applied, state FROM journal WHERE (?1 = 0 OR run_id = ?1) AND"
	    " state IN ('saved', 'applied') ORDER BY seq DESC, id DESC" :
	    "SELECT id, coalesce(run_id, 0), kind, name, target, original,"
	    " applied, state FROM journal WHERE (?1 = 0 OR run_id = ?1)"
	    " ORDER BY seq, id", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		x->id = sqlite3_column_int64(s, 0);
		x->run_id = sqlite3_column_int64(s, 1);
		x->kind = store_col_str(s, 2);
		x->name = store_col_str(s, 3);
		x->target = store_col_str(s, 4);
		x->original = store_col_str_or_null(s, 5);
		x->applied = store_col_str_or_null(s, 6);
		x->state = store_col_str(s, 7);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_journal_free(v, *n);
		*n = 0;
		return store_db_error(st, cause, "cannot read the journal");
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
