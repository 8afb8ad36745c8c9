/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store's runs: create, the status a run moves through, its
 * pid, finding one by id, uuid prefix, last or NAME@last, listing and
 * deleting them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

/*
 * Runs.
 */

char *
store_run_no_arm(const struct store_run *r, const char *what,
    const char *arm)
{
	struct strbuf	 sb = STRBUF_INIT;
	struct nearest	 n;
	size_t		 i;

	nearest_init(&n, arm);
	strbuf_addf(&sb, "%s has no arm '%s' (its arms: ", what, arm);
	for (i = 0; i < r->narms; i++) {
		strbuf_addf(&sb, "%s%s", i ? ", " : "", r->arms[i]);
		nearest_try(&n, r->arms[i]);
	}
	strbuf_addf(&sb, ")");
	if (n.best != NULL)
		strbuf_addf(&sb, "; did you mean '%s'?", n.best);
	return strbuf_detach(&sb);
}

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
	free(r->pid_start);
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
	    " warmup, experiment_path, experiment_text, abbench_version, pid,"
	    " pid_start) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
	    " ?12, ?13, ?14, ?15)", cause);
	if (s == NULL)
		return -1;
	store_bind_text(s, 1, r->uuid);
	store_bind_text(s, 2, r->name);
	store_bind_text(s, 3, r->host);
	store_bind_text(s, 4, status);
	sqlite3_bind_int64(s, 5, r->started_wall_ns);
	sqlite3_bind_int64(s, 6, r->ended_wall_ns);
	store_bind_text(s, 7, r->order_kind);
	/* The seed keeps its 64 bits as a signed integer. */
	sqlite3_bind_int64(s, 8, (int64_t)r->seed);
	sqlite3_bind_int(s, 9, r->rounds);
	sqlite3_bind_int(s, 10, r->warmup);
	store_bind_text(s, 11, r->experiment_path);
	store_bind_text(s, 12, r->experiment_text);
	store_bind_text(s, 13, r->abbench_version);
	sqlite3_bind_int64(s, 14, r->pid);
	store_bind_text(s, 15, r->pid_start);
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
		store_bind_text(s, 3, arms[i]);
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
	struct store_rows	 r;
	sqlite3_stmt		*s;
	char			*from = NULL;

	if (status == NULL || !valid_run_status(status))
		return set_cause(cause, "unknown run status '%s'",
		    status != NULL ? status : "(null)");
	if (store_begin(st, cause) != 0)
		return -1;
	if (store_rows(&r, st, "SELECT status FROM runs WHERE id = ?1",
	    cause) != 0)
		goto fail;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r))
		from = store_col_str(r.s, 0);
	if (store_rows_end(&r, "cannot read a run", cause) != 0)
		goto fail;
	if (from == NULL) {
		set_cause(cause, "no run %lld in '%s'", (long long)run_id,
		    st->path);
		goto fail;
	}
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
	store_bind_text(s, 2, status);
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
store_run_set_owner(struct store *st, int64_t run_id, int64_t pid,
    const char *pid_start, const char *host, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "UPDATE runs SET pid = ?2, pid_start = ?3,"
	    " host = ?4 WHERE id = ?1", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, pid);
	store_bind_text(s, 3, pid_start);
	store_bind_text(s, 4, host);
	return store_run_stmt(st, s, "cannot update a run", cause);
}

/* The fewest characters a uuid prefix may have to name a run. */
#define UUID_PREFIX_MIN 4

#define RUN_COLUMNS "id, uuid, name, host, status, started_wall_ns," \
	" ended_wall_ns, order_kind, seed, rounds, warmup, experiment_path," \
	" experiment_text, abbench_version, pid, pid_start"

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
	r->pid_start = store_col_str(s, 15);
}

/* Fill arms and counts of a run read from its row (cached statements:
 * a list of thousands of runs prepares them once). */
static int
run_fill(struct store *st, struct store_run *r, char **cause)
{
	struct store_rows	q;
	size_t			cap = 0;

	if (store_rows_cached(&q, st, ST_RUN_ARMS, cause) != 0)
		return -1;
	sqlite3_bind_int64(q.s, 1, r->id);
	r->narms = 0;
	while (store_next(&q)) {
		XGROW(r->arms, r->narms + 1, cap);
		r->arms[r->narms++] = store_col_str(q.s, 0);
	}
	if (store_rows_end(&q, "cannot read arms", cause) != 0)
		return -1;
	XGROW(r->arms, r->narms, cap);
	r->arms[r->narms] = NULL;

	/* A sample is one execution (a plan entry), a value one number. */
	if (store_rows_cached(&q, st, ST_RUN_COUNTS, cause) != 0)
		return -1;
	sqlite3_bind_int64(q.s, 1, r->id);
	if (store_next(&q)) {
		r->nsamples = sqlite3_column_int64(q.s, 0);
		r->nfailed = sqlite3_column_int64(q.s, 1);
		r->nvalues = sqlite3_column_int64(q.s, 2);
	}
	return store_rows_end(&q, "cannot count samples", cause);
}

int
store_run_get(struct store *st, int64_t id, struct store_run *r,
    char **cause)
{
	struct store_rows	q;
	int			found;

	memset(r, 0, sizeof *r);
	if (store_rows(&q, st, "SELECT " RUN_COLUMNS " FROM runs WHERE"
	    " id = ?1", cause) != 0)
		return -1;
	sqlite3_bind_int64(q.s, 1, id);
	if ((found = store_next(&q)))
		run_from_row(q.s, r);
	if (store_rows_end(&q, "cannot read a run", cause) != 0)
		return -1;
	if (!found)
		return set_cause(cause, "no run %lld in '%s'", (long long)id,
		    st->path);
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
	struct store_rows	r;

	*n = 0;
	if (store_rows(&r, st, sql, cause) != 0)
		return -1;
	store_bind_text(r.s, 1, param);
	while (store_next(&r)) {
		if (*n < max)
			ids[*n] = sqlite3_column_int64(r.s, 0);
		(*n)++;
	}
	return store_rows_end(&r, "cannot find a run", cause);
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
	/*
	 * A uuid prefix has at least UUID_PREFIX_MIN characters, as git asks
	 * of an abbreviated hash: "99" that is not an id is not a run, rather
	 * than whichever run's random uuid happens to start with it (1 in 256).
	 */
	if (!uuid_prefix_chars(sel) || strlen(sel) < UUID_PREFIX_MIN)
		return set_cause(cause, "no run '%s' in '%s' (a run is an id, "
		    "a uuid prefix of %d or more characters, 'last' or "
		    "'NAME@last')", sel, st->path, UUID_PREFIX_MIN);
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

/* The runs of a query of RUN_COLUMNS, bound (ends r); with arms and
 * counts when fill. */
static int
runs_read(struct store *st, struct store_rows *r, int fill,
    struct store_run **out, size_t *n, char **cause)
{
	struct store_run	*v = NULL;
	size_t			 cap = 0, i;

	*out = NULL;
	*n = 0;
	while (store_next(r)) {
		XGROW(v, *n, cap);
		run_from_row(r->s, &v[*n]);
		(*n)++;
	}
	if (store_rows_end(r, "cannot list runs", cause) != 0)
		goto fail;
	for (i = 0; fill && i < *n; i++) {
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
store_runs_list(struct store *st, struct store_run **out, size_t *n,
    char **cause)
{
	struct store_rows	r;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT " RUN_COLUMNS " FROM runs ORDER BY"
	    " started_wall_ns, id", cause) != 0)
		return -1;
	return runs_read(st, &r, 1, out, n, cause);
}

int
store_runs_named(struct store *st, const char *name, struct store_run **out,
    size_t *n, char **cause)
{
	struct store_rows	r;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT " RUN_COLUMNS " FROM runs WHERE"
	    " name = ?1 ORDER BY started_wall_ns, id", cause) != 0)
		return -1;
	store_bind_text(r.s, 1, name);
	return runs_read(st, &r, 0, out, n, cause);
}

int
store_run_counts_named(struct store *st, const char *name,
    struct store_run_count **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_run_count	*v = NULL;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT s.run_id, s.nexec, s.nok FROM"
	    " sample_runs s JOIN runs r ON r.id = s.run_id WHERE r.name = ?1"
	    " ORDER BY s.run_id", cause) != 0)
		return -1;
	store_bind_text(r.s, 1, name);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		v[*n].id = sqlite3_column_int64(r.s, 0);
		v[*n].nexec = sqlite3_column_int64(r.s, 1);
		v[(*n)++].nok = sqlite3_column_int64(r.s, 2);
	}
	if (store_rows_end(&r, "cannot read runs' counts", cause) != 0) {
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
store_runs_with(struct store *st, const char *key, const char *value,
    struct store_run **out, size_t *n, char **cause)
{
	struct store_rows	r;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT " RUN_COLUMNS " FROM runs WHERE id IN"
	    " (SELECT run_id FROM run_config WHERE arm = '' AND key = ?1 AND"
	    " value = ?2) ORDER BY started_wall_ns, id", cause) != 0)
		return -1;
	store_bind_text(r.s, 1, key);
	store_bind_text(r.s, 2, value);
	return runs_read(st, &r, 1, out, n, cause);
}

int
store_run_delete(struct store *st, int64_t run_id, char **cause)
{
	static const char *const del[] = {
		"DELETE FROM sample_values WHERE run_id = ?1",
		"DELETE FROM executions WHERE run_id = ?1",
		"DELETE FROM sample_runs WHERE run_id = ?1",
		"DELETE FROM night_summaries WHERE run_id = ?1",
	};
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int64_t			 pending = 0;
	size_t			 i;

	if (store_begin(st, cause) != 0)
		return -1;
	if (store_rows(&r, st, "SELECT count(*) FROM journal WHERE"
	    " run_id = ?1 AND state IN ('saved', 'applied')", cause) != 0)
		goto fail;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r))
		pending = sqlite3_column_int64(r.s, 0);
	if (store_rows_end(&r, "cannot read the journal", cause) != 0)
		goto fail;
	if (pending > 0) {
		set_cause(cause, "run %lld has %lld host changes not yet "
		    "restored: run 'abbench restore' first", (long long)run_id,
		    (long long)pending);
		goto fail;
	}
	for (i = 0; i < ARRAY_SIZE(del); i++) {
		if ((s = store_prepare(st, del[i], cause)) == NULL)
			goto fail;
		sqlite3_bind_int64(s, 1, run_id);
		if (store_run_stmt(st, s, "cannot delete samples", cause) != 0)
			goto fail;
	}
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
