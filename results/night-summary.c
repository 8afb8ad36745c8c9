/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A done run's nights kept in the store (night-summary.h): written from
 * the run's sample table, read back by `abbench nightly`, and made for
 * every done run by the migration to schema 10.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/night-summary.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "results/store-int.h"
#include "stats/sampletab.h"

/* Version 10's tables (IF NOT EXISTS: a migration killed made them). */
static const char ns_tables[] =
	"CREATE TABLE IF NOT EXISTS summary_keys (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	arm TEXT NOT NULL,\n"
	"	benchmark TEXT NOT NULL,\n"
	"	unit TEXT NOT NULL,\n"
	"	UNIQUE (arm, benchmark, unit)\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS night_summaries (\n"
	"	run_id INTEGER PRIMARY KEY,\n"
	"	method INTEGER NOT NULL,\n"
	"	nexec INTEGER NOT NULL,\n"
	"	nok INTEGER NOT NULL,\n"
	"	data BLOB NOT NULL\n"
	");\n";

static void
ns_put_varint(struct strbuf *b, uint64_t v)
{
	unsigned char	c;

	do {
		c = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			c |= 0x80;
		strbuf_addc(b, (char)c);
	} while (v != 0);
}

static void
ns_put_double(struct strbuf *b, double d)
{
	unsigned char	c[8];
	uint64_t	u;
	int		i;

	memcpy(&u, &d, sizeof(u));
	for (i = 0; i < 8; i++)
		c[i] = (unsigned char)(u >> (8 * i));
	strbuf_add(b, (const char *)c, 8);
}

/* Read a varint at *p (below end); -1 when the data ends in it. */
static int
ns_get_varint(const unsigned char **p, const unsigned char *end,
    uint64_t *v)
{
	int	shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return 0;
		shift += 7;
	}
	return -1;
}

static int
ns_get_double(const unsigned char **p, const unsigned char *end, double *d)
{
	uint64_t	u = 0;
	int		i;

	if (end - *p < 8)
		return -1;
	for (i = 0; i < 8; i++)
		u |= (uint64_t)(*p)[i] << (8 * i);
	*p += 8;
	memcpy(d, &u, sizeof(*d));
	return 0;
}

/* The id of a row's key, made if new. */
static int
ns_key(struct store *st, const char *arm, const char *benchmark,
    const char *unit, int64_t *id, char **cause)
{
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int			 found;

	if (store_rows(&r, st, "SELECT id FROM summary_keys WHERE arm = ?1"
	    " AND benchmark = ?2 AND unit = ?3", cause) != 0)
		return -1;
	store_bind_text(r.s, 1, arm);
	store_bind_text(r.s, 2, benchmark);
	store_bind_text(r.s, 3, unit);
	if ((found = store_next(&r)))
		*id = sqlite3_column_int64(r.s, 0);
	if (store_rows_end(&r, "cannot read summary keys", cause) != 0)
		return -1;
	if (found)
		return 0;
	s = store_prepare(st, "INSERT INTO summary_keys (arm, benchmark, unit)"
	    " VALUES (?1, ?2, ?3)", cause);
	if (s == NULL)
		return -1;
	store_bind_text(s, 1, arm);
	store_bind_text(s, 2, benchmark);
	store_bind_text(s, 3, unit);
	if (store_run_stmt(st, s, "cannot write a summary key", cause) != 0)
		return -1;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* The run's counts as sample_runs has them (0 and 0 without a row). */
static int
ns_counts(struct store *st, int64_t run_id, int64_t *nexec, int64_t *nok,
    char **cause)
{
	struct store_rows	r;

	*nexec = *nok = 0;
	if (store_rows(&r, st, "SELECT nexec, nok FROM sample_runs WHERE"
	    " run_id = ?1", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r)) {
		*nexec = sqlite3_column_int64(r.s, 0);
		*nok = sqlite3_column_int64(r.s, 1);
	}
	return store_rows_end(&r, "cannot read a run's counts", cause);
}

int
store_summary_write(struct store *st, int64_t run_id, char **cause)
{
	struct sampletab	*t;
	struct strbuf		 b = STRBUF_INIT;
	struct nightly_night	 night;
	sqlite3_stmt		*s;
	int64_t			 key = 0, nexec, nok;
	size_t			 i;

	/* A run whose values cannot be read keeps no summary: nightly reads
	 * its values then (and says what is wrong); a run still becomes
	 * done. */
	if ((t = sampletab_load(st, run_id, NULL, NULL)) == NULL)
		return 0;
	if (store_begin(st, cause) != 0) {
		sampletab_free(t);
		return -1;
	}
	for (i = 0; i < t->ncells; i++) {
		const struct sampletab_cell	*c = &t->cells[i];

		if (ns_key(st, t->arms[c->arm], t->rows[c->row].benchmark,
		    t->rows[c->row].unit, &key, cause) != 0) {
			sampletab_free(t);
			goto fail;
		}
		nightly_night_of_values(&night, c->x, c->nx);
		ns_put_varint(&b, (uint64_t)key);
		ns_put_varint(&b, (uint64_t)night.n);
		ns_put_double(&b, night.median);
		ns_put_double(&b, night.se);
	}
	sampletab_free(t);
	if (ns_counts(st, run_id, &nexec, &nok, cause) != 0)
		goto fail;
	s = store_prepare(st, "INSERT OR REPLACE INTO night_summaries (run_id,"
	    " method, nexec, nok, data) VALUES (?1, ?2, ?3, ?4, ?5)", cause);
	if (s == NULL)
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int(s, 2, NIGHT_SUMMARY_METHOD);
	sqlite3_bind_int64(s, 3, nexec);
	sqlite3_bind_int64(s, 4, nok);
	sqlite3_bind_blob(s, 5, b.len > 0 ? b.buf : "", (int)b.len,
	    SQLITE_TRANSIENT);
	if (store_run_stmt(st, s, "cannot write a run's summary", cause) != 0)
		goto fail;
	strbuf_release(&b);
	return store_commit(st, cause);
fail:
	strbuf_release(&b);
	store_rollback(st);
	return -1;
}

int
store_run_done(struct store *st, int64_t run_id, int64_t ended_wall_ns,
    char **cause)
{
	if (store_begin(st, cause) != 0)
		return -1;
	if (store_run_set_status(st, run_id, RUN_DONE, ended_wall_ns,
	    cause) != 0 || store_summary_write(st, run_id, cause) != 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, cause);
}

static int
ns_decode(const unsigned char *p, size_t len, struct night_entry **out,
    size_t *n)
{
	const unsigned char	*end = p + len;
	struct night_entry	*e;
	size_t			 cap = 0;
	uint64_t		 key, cnt;

	while (p < end) {
		if (ns_get_varint(&p, end, &key) != 0 ||
		    ns_get_varint(&p, end, &cnt) != 0 || key > INT64_MAX)
			return -1;
		XGROW(*out, *n, cap);
		e = &(*out)[(*n)++];
		memset(e, 0, sizeof(*e));
		e->key = (int64_t)key;
		e->night.n = (size_t)cnt;
		if (ns_get_double(&p, end, &e->night.median) != 0 ||
		    ns_get_double(&p, end, &e->night.se) != 0)
			return -1;
	}
	return 0;
}

int
store_summary_read(struct store *st, int64_t run_id,
    struct night_entry **out, size_t *n, char **cause)
{
	struct store_rows	r;
	int			current = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT s.method = ?2 AND s.nexec ="
	    " coalesce(b.nexec, 0) AND s.nok = coalesce(b.nok, 0), s.data"
	    " FROM night_summaries s LEFT JOIN sample_runs b ON b.run_id ="
	    " s.run_id WHERE s.run_id = ?1", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	sqlite3_bind_int(r.s, 2, NIGHT_SUMMARY_METHOD);
	if (store_next(&r) && sqlite3_column_int(r.s, 0)) {
		current = 1;
		if (ns_decode(sqlite3_column_blob(r.s, 1),
		    (size_t)sqlite3_column_bytes(r.s, 1), out, n) != 0) {
			/* Not ours to trust: the values will say. */
			free(*out);
			*out = NULL;
			*n = 0;
			current = 0;
		}
	}
	if (store_rows_end(&r, "cannot read a run's summary", cause) != 0)
		return -1;
	return current;
}

int
store_summary_keys(struct store *st, struct night_key **out, size_t *n,
    char **cause)
{
	struct store_rows	 r;
	struct night_key	*k;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT id, arm, benchmark, unit FROM"
	    " summary_keys ORDER BY id", cause) != 0)
		return -1;
	while (store_next(&r)) {
		XGROW(*out, *n, cap);
		k = &(*out)[(*n)++];
		k->id = sqlite3_column_int64(r.s, 0);
		k->arm = store_col_str(r.s, 1);
		k->benchmark = store_col_str(r.s, 2);
		k->unit = store_col_str(r.s, 3);
	}
	if (store_rows_end(&r, "cannot read summary keys", cause) != 0) {
		store_summary_keys_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void
store_summary_keys_free(struct night_key *k, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(k[i].arm);
		free(k[i].benchmark);
		free(k[i].unit);
	}
	free(k);
}

/*
 * The next done run after `after` without a summary: 1 and *id, 0 none.
 */
static int
ns_next_unsummarized(struct store *st, int64_t after, int64_t *id,
    char **cause)
{
	struct store_rows	r;
	int			found;

	if (store_rows(&r, st, "SELECT id FROM runs r WHERE id > ?1 AND"
	    " status = 'done' AND NOT EXISTS (SELECT 1 FROM night_summaries s"
	    " WHERE s.run_id = r.id) ORDER BY id LIMIT 1", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, after);
	if ((found = store_next(&r)))
		*id = sqlite3_column_int64(r.s, 0);
	if (store_rows_end(&r, "cannot list runs", cause) != 0)
		return -1;
	return found;
}

/*
 * ABBENCH_DEBUG_DIE_AFTER_SUMMARIZED=N kills the process (SIGKILL) after N
 * runs summarized: how t0428 shows that a migration killed goes on where
 * it stopped.
 */
int
store_summary_migrate(struct store *st, char **cause)
{
	const char	*kill_env = getenv("ABBENCH_DEBUG_DIE_AFTER_SUMMARIZED");
	long		 kill_after = kill_env != NULL ? atol(kill_env) : -1;
	long		 done = 0;
	int64_t		 id = 0;
	int		 rc;

	if (store_exec(st, "BEGIN IMMEDIATE", cause) != 0)
		return -1;
	if (store_exec(st, ns_tables, cause) != 0 ||
	    store_exec(st, "COMMIT", cause) != 0) {
		store_exec(st, "ROLLBACK", NULL);
		return -1;
	}
	while ((rc = ns_next_unsummarized(st, id, &id, cause)) == 1) {
		if (store_summary_write(st, id, cause) != 0)
			return -1;
		if (++done == kill_after)
			raise(SIGKILL);
	}
	if (rc != 0)
		return -1;
	return store_exec(st, "PRAGMA user_version = 10", cause);
}
