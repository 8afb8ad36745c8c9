/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening the results store (store.h): the checks that keep abbench from
 * writing into a file that is not its own, then the schema's migrations
 * (with store-schema.c, and night-summary.c's summaries of done runs,
 * which stand on the store's reading of runs and values: hence a file
 * above store.c, not in it), then closing.
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
#include "results/night-summary.h"
#include "results/store.h"
#include "results/store-int.h"

/* Run a one-integer query. */
static int
store_query_int(struct store *st, const char *sql, int64_t *out, char **cause)
{
	struct store_rows	r;

	*out = 0;
	if (store_rows(&r, st, sql, cause) != 0)
		return -1;
	if (store_next(&r))
		*out = sqlite3_column_int64(r.s, 0);
	return store_rows_end(&r, "cannot read", cause);
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
	if (version < 9 && store_compact_start(st, cause) != 0)
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
	if (version < 9 && store_compact_migrate(st, cause) != 0)
		return -1;
	/* Version 10's summaries of done runs, one run a transaction. */
	return version < 10 ? store_summary_migrate(st, cause) : 0;
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
	char			*why = NULL;

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
	/* The samples a kill -9 left in a dead run's log (store-log.c). */
	if (store_log_import_dead(st, &why) != 0) {
		warning("%s", why);
		free(why);
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
	char	*why = NULL;
	size_t	i;

	if (st == NULL)
		return;
	store_open_remove(st);
	if (store_log_end(st, &why) != 0) {
		warning("%s", why);
		free(why);
	}
	store_checkpoint_inline(st);
	for (i = 0; i < ST__COUNT; i++)
		sqlite3_finalize(st->stmts[i]);
	store_arms_forget(st);
	if (st->db != NULL)
		sqlite3_close(st->db);
	free(st->path);
	free(st);
}
