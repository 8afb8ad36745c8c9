/*
 * The results store: opening (with the checks that keep abbench from
 * writing into a file that is not its own), schema migrations, and the
 * insert and query paths for runs, config, units, samples and the journal
 * of host changes. Merge and the consistency check live in store-admin.c.
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

/*
 * Each migration takes a database at version i to version i + 1; the first
 * creates the schema from nothing. A database written by an older abbench
 * is brought forward in one transaction; migrations are never edited once
 * released, only appended.
 */
static const char *const store_migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE runs (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	uuid TEXT NOT NULL UNIQUE,\n"
	"	name TEXT NOT NULL DEFAULT '',\n"
	"	host TEXT NOT NULL DEFAULT '',\n"
	"	status TEXT NOT NULL,\n"
	"	started_wall_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	ended_wall_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	order_kind TEXT NOT NULL DEFAULT '',\n"
	"	seed INTEGER NOT NULL DEFAULT 0,\n"
	"	rounds INTEGER NOT NULL DEFAULT 0,\n"
	"	warmup INTEGER NOT NULL DEFAULT 0,\n"
	"	experiment_path TEXT NOT NULL DEFAULT '',\n"
	"	experiment_text TEXT NOT NULL DEFAULT '',\n"
	"	abbench_version TEXT NOT NULL DEFAULT '',\n"
	"	pid INTEGER NOT NULL DEFAULT 0\n"
	");\n"
	"CREATE INDEX runs_name ON runs(name, started_wall_ns);\n"
	"CREATE TABLE arms (\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	PRIMARY KEY (run_id, idx),\n"
	"	UNIQUE (run_id, name)\n"
	");\n"
	"CREATE TABLE run_config (\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	arm TEXT NOT NULL DEFAULT '',\n"
	"	seq INTEGER NOT NULL,\n"
	"	key TEXT NOT NULL,\n"
	"	value TEXT NOT NULL,\n"
	"	PRIMARY KEY (run_id, arm, key)\n"
	");\n"
	"CREATE TABLE units (\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	unit TEXT NOT NULL,\n"
	"	key TEXT NOT NULL,\n"
	"	value TEXT NOT NULL,\n"
	"	PRIMARY KEY (run_id, unit, key)\n"
	");\n"
	/*
	 * The benchfmt config block in force for a sample when it differs
	 * from the run's own config (imported files with several blocks):
	 * "key: value\n" lines in benchstat's order.
	 */
	"CREATE TABLE sample_configs (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	text TEXT NOT NULL,\n"
	"	UNIQUE (run_id, text)\n"
	");\n"
	"CREATE TABLE samples (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	plan_idx INTEGER NOT NULL,\n"
	"	round INTEGER NOT NULL,\n"
	"	position INTEGER NOT NULL,\n"
	"	arm TEXT NOT NULL,\n"
	"	workload TEXT NOT NULL DEFAULT '',\n"
	"	benchmark TEXT NOT NULL,\n"
	"	unit TEXT NOT NULL DEFAULT '',\n"
	"	value REAL,\n"
	"	status TEXT NOT NULL,\n"
	"	warmup INTEGER NOT NULL DEFAULT 0,\n"
	"	start_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	end_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	start_wall_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	end_wall_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	error TEXT,\n"
	"	config_id INTEGER REFERENCES sample_configs(id)\n"
	");\n"
	"CREATE INDEX samples_run ON samples(run_id, plan_idx);\n"
	"CREATE TABLE journal (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	kind TEXT NOT NULL,\n"
	"	name TEXT NOT NULL DEFAULT '',\n"
	"	target TEXT NOT NULL DEFAULT '',\n"
	"	original TEXT,\n"
	"	applied TEXT,\n"
	"	state TEXT NOT NULL\n"
	");\n"
	"CREATE INDEX journal_run ON journal(run_id);\n"
	"CREATE TABLE warnings (\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	text TEXT NOT NULL,\n"
	"	PRIMARY KEY (run_id, seq)\n"
	");\n",
	/* 1 -> 2: benchfmt units and values as written before tidying. */
	"ALTER TABLE samples ADD COLUMN orig_unit TEXT;\n"
	"ALTER TABLE samples ADD COLUMN orig_value REAL;\n",
	/*
	 * 2 -> 3: A/A calibrations (results/calibration.c): a calibration is
	 * a run of an experiment with its baseline arm in every arm's place,
	 * keyed by the experiment's name and the host class; its rows are
	 * the noise and false-positive rate per benchmark and unit.
	 */
	"CREATE TABLE calibrations (\n"
	"	run_id INTEGER PRIMARY KEY\n"
	"	    REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	experiment TEXT NOT NULL,\n"
	"	host_class TEXT NOT NULL,\n"
	"	repeats INTEGER NOT NULL,\n"
	"	rounds INTEGER NOT NULL,\n"
	"	alpha REAL NOT NULL\n"
	");\n"
	"CREATE INDEX calibrations_key ON calibrations(experiment,"
	" host_class);\n"
	"CREATE TABLE calibration_rows (\n"
	"	run_id INTEGER NOT NULL\n"
	"	    REFERENCES calibrations(run_id) ON DELETE CASCADE,\n"
	"	benchmark TEXT NOT NULL,\n"
	"	unit TEXT NOT NULL,\n"
	"	n INTEGER NOT NULL,\n"
	"	median REAL,\n"
	"	mad_rel REAL,\n"
	"	ci_rel REAL,\n"
	"	mde REAL,\n"
	"	comparisons INTEGER NOT NULL,\n"
	"	flagged INTEGER NOT NULL,\n"
	"	PRIMARY KEY (run_id, benchmark, unit)\n"
	");\n",
	/* 3 -> 4: fleets handed to a cluster scheduler (fleet-store.h). */
	"CREATE TABLE fleets (\n"
	"	id TEXT PRIMARY KEY,\n"
	"	created_wall_ns INTEGER NOT NULL,\n"
	"	dir TEXT NOT NULL,\n"
	"	experiment_path TEXT NOT NULL,\n"
	"	experiment_name TEXT NOT NULL,\n"
	"	scheduler TEXT NOT NULL,\n"
	"	abbench_path TEXT NOT NULL,\n"
	"	abbench_version TEXT NOT NULL,\n"
	"	time_limit TEXT,\n"
	"	merge_job TEXT\n"
	");\n"
	"CREATE TABLE fleet_args (\n"
	"	fleet_id TEXT NOT NULL REFERENCES fleets(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	arg TEXT NOT NULL,\n"
	"	PRIMARY KEY (fleet_id, seq)\n"
	");\n"
	"CREATE TABLE fleet_jobs (\n"
	"	fleet_id TEXT NOT NULL REFERENCES fleets(id) ON DELETE CASCADE,\n"
	"	partition TEXT NOT NULL,\n"
	"	replica INTEGER NOT NULL,\n"
	"	attempt INTEGER NOT NULL,\n"
	"	job_id TEXT NOT NULL,\n"
	"	db TEXT NOT NULL,\n"
	"	state TEXT NOT NULL DEFAULT 'SUBMITTED',\n"
	"	reason TEXT NOT NULL DEFAULT '',\n"
	"	node TEXT NOT NULL DEFAULT '',\n"
	"	updated_wall_ns INTEGER NOT NULL DEFAULT 0,\n"
	"	PRIMARY KEY (fleet_id, partition, replica, attempt)\n"
	");\n",
};

/* Cached statements, prepared on first use. */
static const char *const store_sql[ST__COUNT] = {
	[ST_SAMPLE_INSERT] =
	    "INSERT INTO samples (run_id, plan_idx, round, position, arm,"
	    " workload, benchmark, unit, value, status, warmup, start_ns,"
	    " end_ns, start_wall_ns, end_wall_ns, error, config_id, orig_unit,"
	    " orig_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
	    " ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
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
	return 0;
}

int
store_rollback(struct store *st)
{
	sqlite3_stmt	*s;

	if (st->depth == 0)
		return 0;
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

	rc = sqlite3_open_v2(uri, &st->db, flags | SQLITE_OPEN_URI, NULL);
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
	for (i = (int)version; i < STORE_SCHEMA_VERSION; i++) {
		if (store_exec(st, store_migrations[i], cause) != 0)
			goto fail;
	}
	if (version != STORE_SCHEMA_VERSION) {
		sql = xasprintf("PRAGMA user_version = %d",
		    STORE_SCHEMA_VERSION);
		i = store_exec(st, sql, cause);
		free(sql);
		if (i != 0)
			goto fail;
	}
	if (app != STORE_APPLICATION_ID) {
		sql = xasprintf("PRAGMA application_id = %d",
		    STORE_APPLICATION_ID);
		i = store_exec(st, sql, cause);
		free(sql);
		if (i != 0)
			goto fail;
	}
	return store_exec(st, "COMMIT", cause);
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
	for (i = 0; i < ST__COUNT; i++)
		sqlite3_finalize(st->stmts[i]);
	if (st->db != NULL)
		sqlite3_close(st->db);
	free(st->path);
	free(st);
}

/*
 * Runs.
 */

void
store_run_release(struct store_run *r)
{
	size_t	i;

	if (r == NULL)
		return;
	free(r->uuid);
	free(r->name);
	free(r->host);
	free(r->status);
	free(r->order_kind);
	free(r->experiment_path);
	free(r->experiment_text);
	free(r->abbench_version);
	if (r->arms != NULL) {
		for (i = 0; i < r->narms; i++)
			free(r->arms[i]);
		free(r->arms);
	}
	memset(r, 0, sizeof *r);
}

static int
valid_run_status(const char *s)
{
	return strcmp(s, RUN_RUNNING) == 0 ||
	    strcmp(s, RUN_INTERRUPTED) == 0 || strcmp(s, RUN_DONE) == 0 ||
	    strcmp(s, RUN_FAILED) == 0 || strcmp(s, RUN_IMPORTED) == 0;
}

int
store_run_status_valid(const char *status)
{
	return status != NULL && valid_run_status(status);
}

static void
bind_text(sqlite3_stmt *s, int i, const char *t)
{
	sqlite3_bind_text(s, i, t != NULL ? t : "", -1, SQLITE_TRANSIENT);
}

static void
bind_text_or_null(sqlite3_stmt *s, int i, const char *t)
{
	if (t == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
}

int
store_run_insert(struct store *st, struct store_run *r,
    const char *const *arms, size_t narms, char **cause)
{
	sqlite3_stmt	*s;
	size_t		 i, j;
	char		 uuid[37];
	const char	*status = r->status != NULL ? r->status : RUN_RUNNING;

	if (!valid_run_status(status))
		return set_cause(cause, "unknown run status '%s'", status);
	if (narms == 0)
		return set_cause(cause, "a run needs at least one arm");
	for (i = 0; i < narms; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(arms[i], arms[j]) == 0)
				return set_cause(cause, "arm '%s' appears "
				    "twice", arms[i]);
		}
	}
	if (r->uuid == NULL) {
		uuid_v4(uuid);
		r->uuid = xstrdup(uuid);
	}
	s = store_prepare(st, "INSERT INTO runs (uuid, name, host, status,"
	    " started_wall_ns, ended_wall_ns, order_kind, seed, rounds,"
	    " warmup, experiment_path, experiment_text, abbench_version, pid)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14)", cause);
	if (s == NULL)
		return -1;
	bind_text(s, 1, r->uuid);
	bind_text(s, 2, r->name);
	bind_text(s, 3, r->host);
	bind_text(s, 4, status);
	sqlite3_bind_int64(s, 5, r->started_wall_ns);
	sqlite3_bind_int64(s, 6, r->ended_wall_ns);
	bind_text(s, 7, r->order_kind);
	/* The seed keeps its 64 bits as a signed integer. */
	sqlite3_bind_int64(s, 8, (int64_t)r->seed);
	sqlite3_bind_int(s, 9, r->rounds);
	sqlite3_bind_int(s, 10, r->warmup);
	bind_text(s, 11, r->experiment_path);
	bind_text(s, 12, r->experiment_text);
	bind_text(s, 13, r->abbench_version);
	sqlite3_bind_int64(s, 14, r->pid);
	if (sqlite3_step(s) != SQLITE_DONE) {
		if (sqlite3_extended_errcode(st->db) ==
		    SQLITE_CONSTRAINT_UNIQUE)
			set_cause(cause, "a run with uuid '%s' already exists "
			    "in '%s'", r->uuid, st->path);
		else
			store_db_error(st, cause, "cannot add a run");
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	r->id = sqlite3_last_insert_rowid(st->db);

	s = store_prepare(st, "INSERT INTO arms (run_id, idx, name)"
	    " VALUES (?1, ?2, ?3)", cause);
	if (s == NULL)
		return -1;
	for (i = 0; i < narms; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, r->id);
		sqlite3_bind_int(s, 2, (int)i);
		bind_text(s, 3, arms[i]);
		if (sqlite3_step(s) != SQLITE_DONE) {
			store_db_error(st, cause, "cannot add an arm");
			sqlite3_finalize(s);
			return -1;
		}
	}
	sqlite3_finalize(s);
	return 0;
}

int
store_run_create(struct store *st, struct store_run *r,
    const char *const *arms, size_t narms, char **cause)
{
	int	 had_uuid = r->uuid != NULL;

	if (store_begin(st, cause) != 0)
		return -1;
	if (store_run_insert(st, r, arms, narms, cause) != 0) {
		store_rollback(st);
		goto fail;
	}
	if (store_commit(st, cause) != 0)
		goto fail;
	return 0;
fail:
	if (!had_uuid) {
		free(r->uuid);
		r->uuid = NULL;
	}
	r->id = 0;
	return -1;
}

/*
 * A run moves running -> interrupted | done | failed; an interrupted or
 * failed run may be resumed (-> running). Done and imported runs are final.
 */
static int
status_move_ok(const char *from, const char *to)
{
	if (strcmp(from, to) == 0)
		return 1;
	if (strcmp(from, RUN_RUNNING) == 0)
		return strcmp(to, RUN_INTERRUPTED) == 0 ||
		    strcmp(to, RUN_DONE) == 0 || strcmp(to, RUN_FAILED) == 0;
	if (strcmp(from, RUN_INTERRUPTED) == 0 ||
	    strcmp(from, RUN_FAILED) == 0)
		return strcmp(to, RUN_RUNNING) == 0 ||
		    strcmp(to, RUN_DONE) == 0 || strcmp(to, RUN_FAILED) == 0 ||
		    strcmp(to, RUN_INTERRUPTED) == 0;
	return 0;
}

int
store_run_set_status(struct store *st, int64_t run_id, const char *status,
    int64_t ended_wall_ns, char **cause)
{
	sqlite3_stmt	*s;
	char		*from = NULL;
	int		 rc;

	if (status == NULL || !valid_run_status(status))
		return set_cause(cause, "unknown run status '%s'",
		    status != NULL ? status : "(null)");
	if (store_begin(st, cause) != 0)
		return -1;
	s = store_prepare(st, "SELECT status FROM runs WHERE id = ?1", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		from = store_col_str(s, 0);
	else if (rc == SQLITE_DONE)
		set_cause(cause, "no run %lld in '%s'", (long long)run_id,
		    st->path);
	else
		store_db_error(st, cause, "cannot read a run");
	sqlite3_finalize(s);
	if (from == NULL)
		goto fail;
	if (!status_move_ok(from, status)) {
		set_cause(cause, "cannot move run %lld from '%s' to '%s'",
		    (long long)run_id, from, status);
		goto fail;
	}
	s = store_prepare(st, "UPDATE runs SET status = ?2, ended_wall_ns ="
	    " ?3 WHERE id = ?1", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, status);
	sqlite3_bind_int64(s, 3, strcmp(status, RUN_RUNNING) == 0 ? 0 :
	    ended_wall_ns);
	if (store_run_stmt(st, s, "cannot update a run", cause) != 0)
		goto fail;
	free(from);
	return store_commit(st, cause);
fail:
	free(from);
	store_rollback(st);
	return -1;
}

int
store_run_set_pid(struct store *st, int64_t run_id, int64_t pid,
    char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "UPDATE runs SET pid = ?2 WHERE id = ?1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, pid);
	return store_run_stmt(st, s, "cannot update a run", cause);
}

#define RUN_COLUMNS "id, uuid, name, host, status, started_wall_ns," \
	" ended_wall_ns, order_kind, seed, rounds, warmup, experiment_path," \
	" experiment_text, abbench_version, pid"

static void
run_from_row(sqlite3_stmt *s, struct store_run *r)
{
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(s, 0);
	r->uuid = store_col_str(s, 1);
	r->name = store_col_str(s, 2);
	r->host = store_col_str(s, 3);
	r->status = store_col_str(s, 4);
	r->started_wall_ns = sqlite3_column_int64(s, 5);
	r->ended_wall_ns = sqlite3_column_int64(s, 6);
	r->order_kind = store_col_str(s, 7);
	r->seed = (uint64_t)sqlite3_column_int64(s, 8);
	r->rounds = sqlite3_column_int(s, 9);
	r->warmup = sqlite3_column_int(s, 10);
	r->experiment_path = store_col_str(s, 11);
	r->experiment_text = store_col_str(s, 12);
	r->abbench_version = store_col_str(s, 13);
	r->pid = sqlite3_column_int64(s, 14);
}

/* Fill arms and counts of a run read from its row. */
static int
run_fill(struct store *st, struct store_run *r, char **cause)
{
	sqlite3_stmt	*s;
	size_t		 cap = 0;
	int		 rc;

	s = store_prepare(st, "SELECT name FROM arms WHERE run_id = ?1"
	    " ORDER BY idx", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	r->narms = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(r->arms, r->narms + 1, cap);
		r->arms[r->narms++] = store_col_str(s, 0);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_db_error(st, cause, "cannot read arms");
	XGROW(r->arms, r->narms, cap);
	r->arms[r->narms] = NULL;

	s = store_prepare(st, "SELECT count(*), coalesce(sum(status != 'ok'),"
	    " 0) FROM samples WHERE run_id = ?1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return store_db_error(st, cause, "cannot count samples");
	}
	r->nsamples = sqlite3_column_int64(s, 0);
	r->nfailed = sqlite3_column_int64(s, 1);
	sqlite3_finalize(s);
	return 0;
}

int
store_run_get(struct store *st, int64_t id, struct store_run *r,
    char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	memset(r, 0, sizeof *r);
	s = store_prepare(st, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?1",
	    cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			set_cause(cause, "no run %lld in '%s'", (long long)id,
			    st->path);
		else
			store_db_error(st, cause, "cannot read a run");
		sqlite3_finalize(s);
		return -1;
	}
	run_from_row(s, r);
	sqlite3_finalize(s);
	if (run_fill(st, r, cause) != 0) {
		store_run_release(r);
		return -1;
	}
	return 0;
}

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return 0;
	}
	return 1;
}

static int
uuid_prefix_chars(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (strchr("0123456789abcdefABCDEF-", *s) == NULL)
			return 0;
	}
	return 1;
}

/* The ids of runs matching a query with one text parameter. */
static int
find_ids(struct store *st, const char *sql, const char *param,
    int64_t *ids, size_t max, size_t *n, char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	*n = 0;
	if ((s = store_prepare(st, sql, cause)) == NULL)
		return -1;
	bind_text(s, 1, param);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n < max)
			ids[*n] = sqlite3_column_int64(s, 0);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_db_error(st, cause, "cannot find a run");
	return 0;
}

int
store_run_find(struct store *st, const char *sel, struct store_run *r,
    char **cause)
{
	int64_t		 ids[4];
	size_t		 n;
	const char	*at;
	char		*name, *lower, *p;
	long long	 id;

	memset(r, 0, sizeof *r);
	if (sel == NULL || *sel == '\0')
		return set_cause(cause, "empty run selector");
	if (strcmp(sel, "last") == 0) {
		if (find_ids(st, "SELECT id FROM runs WHERE ?1 = ?1 ORDER BY"
		    " started_wall_ns DESC, id DESC LIMIT 1", "", ids, 1, &n,
		    cause) != 0)
			return -1;
		if (n == 0)
			return set_cause(cause, "no runs in '%s'", st->path);
		return store_run_get(st, ids[0], r, cause);
	}
	at = strrchr(sel, '@');
	if (at != NULL) {
		if (strcmp(at + 1, "last") != 0)
			return set_cause(cause, "bad run selector '%s': "
			    "expected NAME@last", sel);
		name = xstrndup(sel, (size_t)(at - sel));
		if (find_ids(st, "SELECT id FROM runs WHERE name = ?1 ORDER"
		    " BY started_wall_ns DESC, id DESC LIMIT 1", name, ids, 1,
		    &n, cause) != 0) {
			free(name);
			return -1;
		}
		free(name);
		if (n == 0)
			return set_cause(cause, "no run of experiment '%.*s' "
			    "in '%s'", (int)(at - sel), sel, st->path);
		return store_run_get(st, ids[0], r, cause);
	}
	if (all_digits(sel) && strlen(sel) < 19) {
		id = strtoll(sel, NULL, 10);
		if (find_ids(st, "SELECT id FROM runs WHERE id = ?1", sel, ids,
		    1, &n, cause) != 0)
			return -1;
		if (n == 1)
			return store_run_get(st, (int64_t)id, r, cause);
	}
	if (!uuid_prefix_chars(sel))
		return set_cause(cause, "no run '%s' in '%s' (a run is an id, "
		    "a uuid prefix, 'last' or 'NAME@last')", sel, st->path);
	lower = xstrdup(sel);
	for (p = lower; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
	}
	if (find_ids(st, "SELECT id FROM runs WHERE substr(uuid, 1,"
	    " length(?1)) = ?1 ORDER BY id", lower, ids, ARRAY_SIZE(ids), &n,
	    cause) != 0) {
		free(lower);
		return -1;
	}
	free(lower);
	if (n == 0)
		return set_cause(cause, "no run '%s' in '%s'", sel, st->path);
	if (n > 1)
		return set_cause(cause, "run '%s' is ambiguous in '%s': %zu "
		    "runs have a uuid starting with it", sel, st->path, n);
	return store_run_get(st, ids[0], r, cause);
}

int
store_runs_list(struct store *st, struct store_run **out, size_t *n,
    char **cause)
{
	sqlite3_stmt		*s;
	struct store_run	*v = NULL;
	size_t			 cap = 0, i;
	int			 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT " RUN_COLUMNS " FROM runs ORDER BY"
	    " started_wall_ns, id", cause);
	if (s == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		run_from_row(s, &v[*n]);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_db_error(st, cause, "cannot list runs");
		goto fail;
	}
	for (i = 0; i < *n; i++) {
		if (run_fill(st, &v[i], cause) != 0)
			goto fail;
	}
	*out = v;
	return 0;
fail:
	for (i = 0; i < *n; i++)
		store_run_release(&v[i]);
	free(v);
	*n = 0;
	return -1;
}

int
store_run_delete(struct store *st, int64_t run_id, char **cause)
{
	sqlite3_stmt	*s;
	int64_t		 pending = 0;

	if (store_begin(st, cause) != 0)
		return -1;
	s = store_prepare(st, "SELECT count(*) FROM journal WHERE run_id = ?1"
	    " AND state IN ('saved', 'applied')", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	if (sqlite3_step(s) == SQLITE_ROW)
		pending = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (pending > 0) {
		set_cause(cause, "run %lld has %lld host changes not yet "
		    "restored: run 'abbench restore' first", (long long)run_id,
		    (long long)pending);
		goto fail;
	}
	s = store_prepare(st, "DELETE FROM samples WHERE run_id = ?1", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	if (store_run_stmt(st, s, "cannot delete samples", cause) != 0)
		goto fail;
	s = store_prepare(st, "DELETE FROM runs WHERE id = ?1", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	if (store_run_stmt(st, s, "cannot delete a run", cause) != 0)
		goto fail;
	if (sqlite3_changes(st->db) == 0) {
		set_cause(cause, "no run %lld in '%s'", (long long)run_id,
		    st->path);
		goto fail;
	}
	return store_commit(st, cause);
fail:
	store_rollback(st);
	return -1;
}

/*
 * Config, units, warnings.
 */

int
store_config_set(struct store *st, int64_t run_id, const char *arm,
    const char *key, const char *value, char **cause)
{
	sqlite3_stmt	*s;

	if (key == NULL || *key == '\0')
		return set_cause(cause, "empty config key");
	/* Overwriting keeps the key's place, as benchfmt does. */
	s = store_prepare(st, "INSERT INTO run_config (run_id, arm, seq, key,"
	    " value) VALUES (?1, ?2, (SELECT coalesce(max(seq), -1) + 1 FROM"
	    " run_config WHERE run_id = ?1 AND arm = ?2), ?3, ?4)"
	    " ON CONFLICT (run_id, arm, key) DO UPDATE SET value ="
	    " excluded.value", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, arm != NULL ? arm : "");
	bind_text(s, 3, key);
	bind_text(s, 4, value);
	return store_run_stmt(st, s, "cannot set a config value", cause);
}

void
store_kv_free(struct store_kv *kv, size_t n)
{
	size_t	i;

	if (kv == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(kv[i].arm);
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

static int
kv_query(struct store *st, const char *sql, int64_t run_id,
    struct store_kv **out, size_t *n, char **cause)
{
	sqlite3_stmt	*s;
	struct store_kv	*v = NULL;
	size_t		 cap = 0;
	int		 rc;

	*out = NULL;
	*n = 0;
	if ((s = store_prepare(st, sql, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		v[*n].arm = store_col_str(s, 0);
		v[*n].key = store_col_str(s, 1);
		v[*n].value = store_col_str(s, 2);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_kv_free(v, *n);
		*n = 0;
		return store_db_error(st, cause, "cannot read config");
	}
	*out = v;
	return 0;
}

int
store_config_list(struct store *st, int64_t run_id, struct store_kv **out,
    size_t *n, char **cause)
{
	/* The whole run's lines first, then each arm's in arm order. */
	return kv_query(st, "SELECT c.arm, c.key, c.value FROM run_config c"
	    " LEFT JOIN arms a ON a.run_id = c.run_id AND a.name = c.arm"
	    " WHERE c.run_id = ?1 ORDER BY c.arm != '', a.idx, c.arm, c.seq",
	    run_id, out, n, cause);
}

int
store_unit_set(struct store *st, int64_t run_id, const char *unit,
    const char *key, const char *value, char **cause)
{
	sqlite3_stmt	*s;

	if (unit == NULL || *unit == '\0' || key == NULL || *key == '\0')
		return set_cause(cause, "unit metadata needs a unit and a key");
	s = store_prepare(st, "INSERT INTO units (run_id, seq, unit, key,"
	    " value) VALUES (?1, (SELECT coalesce(max(seq), -1) + 1 FROM units"
	    " WHERE run_id = ?1), ?2, ?3, ?4) ON CONFLICT (run_id, unit, key)"
	    " DO UPDATE SET value = excluded.value", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, unit);
	bind_text(s, 3, key);
	bind_text(s, 4, value);
	return store_run_stmt(st, s, "cannot set unit metadata", cause);
}

int
store_unit_list(struct store *st, int64_t run_id, struct store_kv **out,
    size_t *n, char **cause)
{
	return kv_query(st, "SELECT unit, key, value FROM units WHERE run_id ="
	    " ?1 ORDER BY seq", run_id, out, n, cause);
}

int
store_warning_add(struct store *st, int64_t run_id, const char *text,
    char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "INSERT INTO warnings (run_id, seq, text) VALUES"
	    " (?1, (SELECT coalesce(max(seq), -1) + 1 FROM warnings WHERE"
	    " run_id = ?1), ?2)", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, text);
	return store_run_stmt(st, s, "cannot add a warning", cause);
}

int
store_warnings_list(struct store *st, int64_t run_id, char ***out, size_t *n,
    char **cause)
{
	sqlite3_stmt	*s;
	char		**v = NULL;
	size_t		 cap = 0, i;
	int		 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT text FROM warnings WHERE run_id = ?1"
	    " ORDER BY seq", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n + 1, cap);
		v[(*n)++] = store_col_str(s, 0);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		for (i = 0; i < *n; i++)
			free(v[i]);
		free(v);
		*n = 0;
		return store_db_error(st, cause, "cannot read warnings");
	}
	XGROW(v, *n, cap);
	v[*n] = NULL;
	*out = v;
	return 0;
}

/*
 * Samples.
 */

static int
valid_sample_status(const char *s)
{
	return strcmp(s, SAMPLE_OK) == 0 || strcmp(s, SAMPLE_FAILED) == 0 ||
	    strcmp(s, SAMPLE_TIMEOUT) == 0;
}

/* The id of a config block, made on first use (inside a transaction). */
static int
config_id(struct store *st, int64_t run_id, const char *text, int64_t *id,
    char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	if ((s = store_stmt(st, ST_CONFIG_FIND, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, text);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE) {
		if ((s = store_stmt(st, ST_CONFIG_INSERT, cause)) == NULL)
			return -1;
		sqlite3_bind_int64(s, 1, run_id);
		bind_text(s, 2, text);
		rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return store_db_error(st, cause,
			    "cannot add a config block");
		*id = sqlite3_last_insert_rowid(st->db);
	} else if (rc != SQLITE_ROW)
		return store_db_error(st, cause, "cannot find a config block");
	return 0;
}

static int
sample_insert_rows(struct store *st, const struct store_sample *sp,
    char **cause)
{
	sqlite3_stmt	*s;
	int64_t		 cfg = 0;
	size_t		 i, nrows;
	int		 rc;

	if ((s = store_stmt(st, ST_ARM_EXISTS, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, sp->run_id);
	bind_text(s, 2, sp->arm);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return set_cause(cause, "run %lld has no arm '%s'",
		    (long long)sp->run_id, sp->arm);
	if (rc != SQLITE_ROW)
		return store_db_error(st, cause, "cannot read arms");
	if (sp->config != NULL &&
	    config_id(st, sp->run_id, sp->config, &cfg, cause) != 0)
		return -1;

	nrows = sp->nmetrics > 0 ? sp->nmetrics : 1;
	for (i = 0; i < nrows; i++) {
		const struct store_metric *m =
		    sp->nmetrics > 0 ? &sp->metrics[i] : NULL;

		if ((s = store_stmt(st, ST_SAMPLE_INSERT, cause)) == NULL)
			return -1;
		sqlite3_bind_int64(s, 1, sp->run_id);
		sqlite3_bind_int(s, 2, sp->plan_idx);
		sqlite3_bind_int(s, 3, sp->round);
		sqlite3_bind_int(s, 4, sp->position);
		bind_text(s, 5, sp->arm);
		bind_text(s, 6, sp->workload);
		if (m != NULL) {
			bind_text(s, 7, m->benchmark);
			bind_text(s, 8, m->unit);
			/* NaN is stored as NULL and read back as NaN. */
			if (isnan(m->value))
				sqlite3_bind_null(s, 9);
			else
				sqlite3_bind_double(s, 9, m->value);
		} else {
			bind_text(s, 7, sp->workload);
			bind_text(s, 8, "");
			sqlite3_bind_null(s, 9);
		}
		bind_text(s, 10, sp->status);
		sqlite3_bind_int(s, 11, sp->warmup ? 1 : 0);
		sqlite3_bind_int64(s, 12, sp->start_ns);
		sqlite3_bind_int64(s, 13, sp->end_ns);
		sqlite3_bind_int64(s, 14, sp->start_wall_ns);
		sqlite3_bind_int64(s, 15, sp->end_wall_ns);
		bind_text_or_null(s, 16, sp->error);
		if (sp->config != NULL)
			sqlite3_bind_int64(s, 17, cfg);
		else
			sqlite3_bind_null(s, 17);
		if (m != NULL && sp->orig_units != NULL &&
		    sp->orig_units[i] != NULL) {
			bind_text(s, 18, sp->orig_units[i]);
			if (sp->orig_values == NULL)
				sqlite3_bind_double(s, 19, m->value);
			else if (isnan(sp->orig_values[i]))
				sqlite3_bind_null(s, 19);
			else
				sqlite3_bind_double(s, 19, sp->orig_values[i]);
		} else {
			sqlite3_bind_null(s, 18);
			sqlite3_bind_null(s, 19);
		}
		rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return store_db_error(st, cause, "cannot add a sample");
	}
	return 0;
}

int
store_sample_validate(const struct store_sample *sp, char **cause)
{
	size_t	i;

	if (sp->arm == NULL || *sp->arm == '\0')
		return set_cause(cause, "a sample needs an arm");
	if (sp->status == NULL || !valid_sample_status(sp->status))
		return set_cause(cause, "unknown sample status '%s'",
		    sp->status != NULL ? sp->status : "(null)");
	if (sp->nmetrics == 0 && (sp->workload == NULL ||
	    *sp->workload == '\0'))
		return set_cause(cause, "a sample without metrics needs a "
		    "workload name");
	if (sp->nmetrics == 0 && strcmp(sp->status, SAMPLE_OK) == 0)
		return set_cause(cause, "a sample with status 'ok' needs at "
		    "least one metric");
	for (i = 0; i < sp->nmetrics; i++) {
		if (sp->metrics[i].benchmark == NULL ||
		    sp->metrics[i].unit == NULL ||
		    *sp->metrics[i].unit == '\0')
			return set_cause(cause, "metric %zu of workload '%s' "
			    "has no benchmark name or unit", i,
			    sp->workload != NULL ? sp->workload : "");
	}
	return 0;
}

int
store_sample_add_locked(struct store *st, const struct store_sample *sp,
    char **cause)
{
	if (store_sample_validate(sp, cause) != 0)
		return -1;
	return sample_insert_rows(st, sp, cause);
}

int
store_sample_add(struct store *st, const struct store_sample *sp,
    char **cause)
{
	if (store_sample_validate(sp, cause) != 0)
		return -1;
	if (store_begin(st, cause) != 0)
		return -1;
	if (sample_insert_rows(st, sp, cause) != 0 ||
	    store_commit(st, cause) != 0) {
		store_rollback(st);
		return -1;
	}
	return 0;
}

int
store_done_plan(struct store *st, int64_t run_id, int **idx, size_t *n,
    char **cause)
{
	sqlite3_stmt	*s;
	int		*v = NULL;
	size_t		 cap = 0;
	int		 rc;

	*idx = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT DISTINCT plan_idx FROM samples WHERE"
	    " run_id = ?1 ORDER BY plan_idx", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		v[(*n)++] = sqlite3_column_int(s, 0);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(v);
		*n = 0;
		return store_db_error(st, cause, "cannot read samples");
	}
	*idx = v;
	return 0;
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

int
store_values(struct store *st, int64_t run_id, const char *arm, int flags,
    struct store_value **out, size_t *n, char **cause)
{
	sqlite3_stmt		*s;
	struct store_value	*v = NULL, *x;
	size_t			 cap = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT s.arm, s.benchmark, s.unit, s.value,"
	    " s.round, s.position, s.warmup, s.status, s.error, s.start_ns,"
	    " s.end_ns, s.start_wall_ns, s.end_wall_ns, c.text, s.orig_unit,"
	    " s.orig_value, s.plan_idx"
	    " FROM samples s LEFT JOIN sample_configs c ON c.id = s.config_id"
	    " WHERE s.run_id = ?1 AND (?2 IS NULL OR s.arm = ?2)"
	    " AND (?3 OR s.warmup = 0) AND (?4 OR s.status = 'ok')"
	    " ORDER BY s.plan_idx, s.id", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	bind_text_or_null(s, 2, arm);
	sqlite3_bind_int(s, 3, (flags & STORE_Q_WARMUP) != 0);
	sqlite3_bind_int(s, 4, (flags & STORE_Q_FAILED) != 0);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(v, *n, cap);
		x = &v[(*n)++];
		memset(x, 0, sizeof *x);
		x->arm = store_col_str(s, 0);
		x->benchmark = store_col_str(s, 1);
		x->unit = store_col_str(s, 2);
		x->value = sqlite3_column_type(s, 3) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(s, 3);
		x->round = sqlite3_column_int(s, 4);
		x->position = sqlite3_column_int(s, 5);
		x->warmup = sqlite3_column_int(s, 6);
		x->status = store_col_str(s, 7);
		x->error = store_col_str_or_null(s, 8);
		x->start_ns = sqlite3_column_int64(s, 9);
		x->end_ns = sqlite3_column_int64(s, 10);
		x->start_wall_ns = sqlite3_column_int64(s, 11);
		x->end_wall_ns = sqlite3_column_int64(s, 12);
		x->config = store_col_str_or_null(s, 13);
		x->orig_unit = store_col_str_or_null(s, 14);
		x->orig_value = sqlite3_column_type(s, 15) == SQLITE_NULL ?
		    NAN : sqlite3_column_double(s, 15);
		x->plan_idx = sqlite3_column_int(s, 16);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_values_free(v, *n);
		*n = 0;
		return store_db_error(st, cause, "cannot read samples");
	}
	*out = v;
	return 0;
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
	bind_text(s, 2, kind);
	bind_text(s, 3, name);
	bind_text(s, 4, target);
	bind_text_or_null(s, 5, original);
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
	bind_text(s, 2, state);
	bind_text_or_null(s, 3, applied);
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
