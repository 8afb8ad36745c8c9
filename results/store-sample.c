/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store's per-run records: config lines, units, warnings and
 * the samples themselves (insert, the plan already done, read back, and
 * the per-arm counts of `abbench db show`).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

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
	store_bind_text(s, 2, arm != NULL ? arm : "");
	store_bind_text(s, 3, key);
	store_bind_text(s, 4, value);
	return store_run_stmt(st, s, "cannot set a config value", cause);
}

int
store_config_get(struct store *st, int64_t run_id, const char *arm,
    const char *key, char **value, char **cause)
{
	struct store_rows	r;
	int			found;

	*value = NULL;
	if (store_rows(&r, st, "SELECT value FROM run_config WHERE run_id = ?1"
	    " AND arm = ?2 AND key = ?3", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	store_bind_text(r.s, 2, arm != NULL ? arm : "");
	store_bind_text(r.s, 3, key);
	if ((found = store_next(&r)))
		*value = store_col_str(r.s, 0);
	if (store_rows_end(&r, "cannot read a config value", cause) != 0) {
		free(*value);
		*value = NULL;
		return -1;
	}
	return found;
}

int
store_config_unset(struct store *st, int64_t run_id, const char *arm,
    const char *key, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "DELETE FROM run_config WHERE run_id = ?1 AND"
	    " arm = ?2 AND key = ?3", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	store_bind_text(s, 2, arm != NULL ? arm : "");
	store_bind_text(s, 3, key);
	return store_run_stmt(st, s, "cannot remove a config value", cause);
}

int
store_key_is_metadata(const char *key)
{
	static const char *const meta[] = {
		"load-avg", "load-avg-end", "swap-used", "pressure",
	};
	size_t	i;

	/*
	 * set.KEY: a --KEY=VALUE of `abbench run` (--until decided is
	 * set.stop). How a run was made to measure is not what it measured:
	 * the same key in the experiment file makes no config line either.
	 */
	if (strncmp(key, "set.", 4) == 0)
		return 1;
	for (i = 0; i < ARRAY_SIZE(meta); i++)
		if (strcmp(key, meta[i]) == 0)
			return 1;
	/* nightly.ack: the user accepted the run's level (nightly --ack). */
	if (strncmp(key, "nightly.", 8) == 0)
		return 1;
	/* resume.N: which abbench resumed the run, and when; moved.N: the
	 * node it moved to then (a fleet's requeued job). */
	return strncmp(key, "resume.", 7) == 0 ||
	    strncmp(key, "moved.", 6) == 0;
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
kv_query(struct store *st, enum store_stmt_id id, int64_t run_id,
    struct store_kv **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_kv		*v = NULL;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	/* Cached: `nightly --fleet` reads the config of every run. */
	if (store_rows_cached(&r, st, id, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		v[*n].arm = store_col_str(r.s, 0);
		v[*n].key = store_col_str(r.s, 1);
		v[*n].value = store_col_str(r.s, 2);
		(*n)++;
	}
	if (store_rows_end(&r, "cannot read config", cause) != 0) {
		store_kv_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
store_config_list(struct store *st, int64_t run_id, struct store_kv **out,
    size_t *n, char **cause)
{
	/* The whole run's lines first, then each arm's in arm order. */
	return kv_query(st, ST_CONFIG_LIST, run_id, out, n, cause);
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
	store_bind_text(s, 2, unit);
	store_bind_text(s, 3, key);
	store_bind_text(s, 4, value);
	return store_run_stmt(st, s, "cannot set unit metadata", cause);
}

int
store_unit_list(struct store *st, int64_t run_id, struct store_kv **out,
    size_t *n, char **cause)
{
	return kv_query(st, ST_UNIT_LIST, run_id, out, n, cause);
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
	store_bind_text(s, 2, text);
	return store_run_stmt(st, s, "cannot add a warning", cause);
}

int
store_warnings_list(struct store *st, int64_t run_id, char ***out, size_t *n,
    char **cause)
{
	struct store_rows	  r;
	char			**v = NULL;
	size_t			  cap = 0, i;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT text FROM warnings WHERE run_id = ?1"
	    " ORDER BY seq", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n + 1, cap);
		v[(*n)++] = store_col_str(r.s, 0);
	}
	if (store_rows_end(&r, "cannot read warnings", cause) != 0) {
		for (i = 0; i < *n; i++)
			free(v[i]);
		free(v);
		*n = 0;
		return -1;
	}
	XGROW(v, *n, cap);
	v[*n] = NULL;
	*out = v;
	return 0;
}

/*
 * Decisions of stop = decided.
 */
int
store_decision_add(struct store *st, int64_t run_id,
    const struct store_decision *d, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "INSERT OR REPLACE INTO decisions (run_id,"
	    " workload, look, good_rounds, round, benchmark, unit, arm,"
	    " base_arm, verdict, p, boundary, n1, n2, mde, test, p_u) VALUES"
	    " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
	    " ?15, ?16, ?17)", cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	store_bind_text(s, 2, d->workload);
	sqlite3_bind_int(s, 3, d->look);
	sqlite3_bind_int(s, 4, d->good_rounds);
	sqlite3_bind_int(s, 5, d->round);
	store_bind_text(s, 6, d->benchmark);
	store_bind_text(s, 7, d->unit);
	store_bind_text(s, 8, d->arm);
	store_bind_text(s, 9, d->base_arm);
	store_bind_text(s, 10, d->verdict);
	if (isnan(d->p))
		sqlite3_bind_null(s, 11);
	else
		sqlite3_bind_double(s, 11, d->p);
	sqlite3_bind_double(s, 12, d->boundary);
	sqlite3_bind_int64(s, 13, d->n1);
	sqlite3_bind_int64(s, 14, d->n2);
	if (isnan(d->mde) || isinf(d->mde))
		sqlite3_bind_null(s, 15);
	else
		sqlite3_bind_double(s, 15, d->mde);
	if (d->test != NULL)
		store_bind_text(s, 16, d->test);
	else
		sqlite3_bind_null(s, 16);
	if (isnan(d->p_u))
		sqlite3_bind_null(s, 17);
	else
		sqlite3_bind_double(s, 17, d->p_u);
	return store_run_stmt(st, s, "cannot store a decision", cause);
}

/* Each row's looks in order through seq_reopen_step: d[i].ro. */
static int
decisions_reopened(struct store *st, int64_t run_id, struct store_decision *d,
    size_t n, char **cause)
{
	struct store_rows	 r;
	const char		*w, *b, *u, *a;
	size_t			 i;

	if (store_rows(&r, st, "SELECT workload, benchmark, unit, arm, look,"
	    " round, verdict FROM decisions WHERE run_id = ?1 ORDER BY look",
	    cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		w = (const char *)sqlite3_column_text(r.s, 0);
		b = (const char *)sqlite3_column_text(r.s, 1);
		u = (const char *)sqlite3_column_text(r.s, 2);
		a = (const char *)sqlite3_column_text(r.s, 3);
		for (i = 0; i < n; i++) {
			if (strcmp(d[i].workload, w) != 0 ||
			    strcmp(d[i].benchmark, b) != 0 ||
			    strcmp(d[i].unit, u) != 0 ||
			    strcmp(d[i].arm, a) != 0)
				continue;
			seq_reopen_step(&d[i].ro, seq_verdict_parse((const
			    char *)sqlite3_column_text(r.s, 6)),
			    sqlite3_column_int(r.s, 4),
			    sqlite3_column_int(r.s, 5));
			break;
		}
	}
	return store_rows_end(&r, "cannot read decisions", cause);
}

int
store_decisions_list(struct store *st, int64_t run_id,
    struct store_decision **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_decision	*v = NULL, *d;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT workload, look, good_rounds, round,"
	    " benchmark, unit, arm, base_arm, verdict, p, boundary, n1, n2,"
	    " mde, test, p_u FROM decisions d WHERE run_id = ?1 AND look ="
	    " (SELECT max(look) FROM decisions e WHERE e.run_id = d.run_id AND"
	    " e.workload = d.workload AND e.benchmark = d.benchmark AND"
	    " e.unit = d.unit AND e.arm = d.arm) ORDER BY (SELECT min(rowid)"
	    " FROM decisions f WHERE f.run_id = d.run_id AND f.workload ="
	    " d.workload AND f.benchmark = d.benchmark AND f.unit = d.unit AND"
	    " f.arm = d.arm)", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		d = &v[(*n)++];
		memset(d, 0, sizeof(*d));
		d->workload = store_col_str(r.s, 0);
		d->look = sqlite3_column_int(r.s, 1);
		d->good_rounds = sqlite3_column_int(r.s, 2);
		d->round = sqlite3_column_int(r.s, 3);
		d->benchmark = store_col_str(r.s, 4);
		d->unit = store_col_str(r.s, 5);
		d->arm = store_col_str(r.s, 6);
		d->base_arm = store_col_str(r.s, 7);
		d->verdict = store_col_str(r.s, 8);
		d->p = sqlite3_column_type(r.s, 9) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(r.s, 9);
		d->boundary = sqlite3_column_double(r.s, 10);
		d->n1 = sqlite3_column_int64(r.s, 11);
		d->n2 = sqlite3_column_int64(r.s, 12);
		d->mde = sqlite3_column_type(r.s, 13) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(r.s, 13);
		d->test = store_col_str_or_null(r.s, 14);
		d->p_u = sqlite3_column_type(r.s, 15) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(r.s, 15);
	}
	if (store_rows_end(&r, "cannot read decisions", cause) != 0 ||
	    decisions_reopened(st, run_id, v, *n, cause) != 0) {
		store_decisions_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

void
store_decisions_free(struct store_decision *d, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(d[i].workload);
		free(d[i].benchmark);
		free(d[i].unit);
		free(d[i].arm);
		free(d[i].base_arm);
		free(d[i].verdict);
		free(d[i].test);
	}
	free(d);
}

/*
 * Samples.
 */

const char *
store_sample_status_text(enum sample_status st)
{
	switch (st) {
	case SAMPLE_STATUS_OK:
		return SAMPLE_OK;
	case SAMPLE_STATUS_FAILED:
		return SAMPLE_FAILED;
	case SAMPLE_STATUS_TIMEOUT:
		return SAMPLE_TIMEOUT;
	case SAMPLE_STATUS_HOST_CHANGED:
		return SAMPLE_HOST_CHANGED;
	}
	return NULL;
}

/* Step a cached statement that returns no row; 0 or -1 with *cause. */
static int
stmt_done(struct store *st, sqlite3_stmt *s, const char *what, char **cause)
{
	int	rc = sqlite3_step(s);

	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : store_db_error(st, cause, what);
}

/* The id of a config block, made on first use (inside a transaction). */
static int
config_id(struct store *st, int64_t run_id, const char *text, int64_t *id,
    char **cause)
{
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int			 found;

	if (store_rows_cached(&r, st, ST_CONFIG_FIND, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	store_bind_text(r.s, 2, text);
	if ((found = store_next(&r)))
		*id = sqlite3_column_int64(r.s, 0);
	if (store_rows_end(&r, "cannot find a config block", cause) != 0)
		return -1;
	if (found)
		return 0;
	if ((s = store_stmt(st, ST_CONFIG_INSERT, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	store_bind_text(s, 2, text);
	if (stmt_done(st, s, "cannot add a config block", cause) != 0)
		return -1;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* Is arm an arm of run_id? Looked up once per run and arm. 0 or -1. */
static int
sample_arm_check(struct store *st, int64_t run_id, const char *arm,
    char **cause)
{
	struct store_rows	r;
	size_t			i;
	int			found;

	if (st->arms_run == run_id) {
		for (i = 0; i < st->narms_ok; i++) {
			if (strcmp(st->arms_ok[i], arm) == 0)
				return 0;
		}
	}
	if (store_rows_cached(&r, st, ST_ARM_EXISTS, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	store_bind_text(r.s, 2, arm);
	found = store_next(&r);
	if (store_rows_end(&r, "cannot read arms", cause) != 0)
		return -1;
	if (!found)
		return set_cause(cause, "run %lld has no arm '%s'",
		    (long long)run_id, arm);
	if (st->arms_run != run_id) {
		store_arms_forget(st);
		st->arms_run = run_id;
	}
	st->arms_ok = xreallocarray(st->arms_ok, st->narms_ok + 1,
	    sizeof *st->arms_ok);
	st->arms_ok[st->narms_ok++] = xstrdup(arm);
	return 0;
}

/* ns floored to us. */
static int64_t
floor_us(int64_t ns)
{
	return ns / 1000 - (ns % 1000 < 0);
}

/* Is k the key of the fields f (joined by \x1f), without making it? */
static int
series_key_is(const char *k, const char *const f[5])
{
	const char	*v;
	size_t		 i, n;

	for (i = 0; i < 5; i++) {
		v = f[i] != NULL ? f[i] : "(null)";
		n = strlen(v);
		if (strncmp(k, v, n) != 0 || k[n] != (i < 4 ? '\x1f' : '\0'))
			return 0;
		k += n + 1;
	}
	return 1;
}

/* The id of a series, made on first use (inside a transaction). */
static int
series_get(struct store *st, const char *arm, const char *workload,
    const char *benchmark, const char *unit, const char *orig,
    int64_t *id, char **cause)
{
	const char	*f[5] = { arm, workload, benchmark, unit, orig };
	struct store_rows r;
	sqlite3_stmt	*s;
	char		*key;
	size_t		 i, j;
	int		 found;

	for (j = 0; j < st->nseries; j++) {
		i = (st->series_next + j) % st->nseries;
		if (series_key_is(st->series_key[i], f)) {
			*id = st->series_id[i];
			st->series_next = i + 1;
			return 0;
		}
	}
	key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s", arm, workload,
	    benchmark, unit, orig);
	if (store_rows_cached(&r, st, ST_SERIES_FIND, cause) != 0)
		goto fail;
	for (i = 0; i < 5; i++)
		store_bind_text(r.s, (int)i + 1, f[i]);
	if ((found = store_next(&r)))
		*id = sqlite3_column_int64(r.s, 0);
	if (store_rows_end(&r, "cannot store a series", cause) != 0)
		goto fail;
	if (!found) {
		if ((s = store_stmt(st, ST_SERIES_INSERT, cause)) == NULL)
			goto fail;
		for (i = 0; i < 5; i++)
			store_bind_text(s, (int)i + 1, f[i]);
		if (stmt_done(st, s, "cannot store a series", cause) != 0)
			goto fail;
		*id = sqlite3_last_insert_rowid(st->db);
	}
	st->series_key = xreallocarray(st->series_key, st->nseries + 1,
	    sizeof *st->series_key);
	st->series_id = xreallocarray(st->series_id, st->nseries + 1,
	    sizeof *st->series_id);
	st->series_key[st->nseries] = key;
	st->series_id[st->nseries++] = *id;
	st->series_next = st->nseries;
	return 0;
fail:
	free(key);
	return -1;
}

/* The run's clock bases: its first sample's start (us). */
static int
sample_clock(struct store *st, const struct store_sample *sp, char **cause)
{
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int			 found;

	if (st->clock_run == sp->run_id)
		return 0;
	if (store_rows_cached(&r, st, ST_CLOCK_FIND, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, sp->run_id);
	if ((found = store_next(&r))) {
		st->wall_us = sqlite3_column_int64(r.s, 0);
		st->mono_us = sqlite3_column_int64(r.s, 1);
	}
	if (store_rows_end(&r, "cannot read a run's clock", cause) != 0)
		return -1;
	if (!found) {
		st->wall_us = floor_us(sp->start_wall_ns);
		st->mono_us = floor_us(sp->start_ns);
		if ((s = store_stmt(st, ST_CLOCK_INSERT, cause)) == NULL)
			return -1;
		sqlite3_bind_int64(s, 1, sp->run_id);
		sqlite3_bind_int64(s, 2, st->wall_us);
		sqlite3_bind_int64(s, 3, st->mono_us);
		if (stmt_done(st, s, "cannot store a run's clock", cause) != 0)
			return -1;
	}
	st->clock_run = sp->run_id;
	return 0;
}

/*
 * The execution's row (store-schema.c: its times in us from the run's
 * bases); *k = the place of its first new value, *isnew and *newbad:
 * whether it is a new execution, and one newly holding a value not ok.
 */
static int
sample_execution(struct store *st, const struct store_sample *sp,
    size_t nrows, int bad, int64_t *k, int *isnew, int *newbad,
    char **cause)
{
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int64_t			 f[8], ws, sw = floor_us(sp->start_wall_ns);
	int			 i, found, same = 1, wasbad = 0;

	ws = sw - st->wall_us;
	f[0] = sp->round;
	f[1] = sp->position;
	f[2] = sp->warmup ? 1 : 0;
	f[3] = ws;
	f[4] = floor_us(sp->end_wall_ns) - sw;
	f[5] = (floor_us(sp->start_ns) - st->mono_us) - ws;
	f[6] = (floor_us(sp->end_ns) - floor_us(sp->start_ns)) - f[4];
	if ((s = store_stmt(st, ST_EXEC_INSERT, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, sp->run_id);
	sqlite3_bind_int(s, 2, sp->plan_idx);
	for (i = 0; i < 7; i++)
		sqlite3_bind_int64(s, i + 3, f[i]);
	sqlite3_bind_int64(s, 10, (int64_t)nrows);
	sqlite3_bind_int(s, 11, bad);
	if (stmt_done(st, s, "cannot add an execution", cause) != 0)
		return -1;
	*k = 0;
	*isnew = sqlite3_changes(st->db) == 1;
	*newbad = *isnew && bad;
	if (*isnew)
		return 0;
	/* More values of an execution stored already (its failed rows). */
	if (store_rows_cached(&r, st, ST_EXEC_FIND, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, sp->run_id);
	sqlite3_bind_int(r.s, 2, sp->plan_idx);
	if ((found = store_next(&r))) {
		*k = sqlite3_column_int64(r.s, 0);
		wasbad = sqlite3_column_int(r.s, 1);
		for (i = 0; i < 7; i++)
			same = same && sqlite3_column_int64(r.s, i + 2) == f[i];
	}
	if (store_rows_end(&r, "cannot read an execution", cause) != 0)
		return -1;
	if (!found)
		return set_cause(cause, "no execution %d of run %lld in '%s'",
		    sp->plan_idx, (long long)sp->run_id, st->path);
	*newbad = bad && !wasbad;
	if ((s = store_stmt(st, ST_EXEC_UPDATE, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, sp->run_id);
	sqlite3_bind_int(s, 2, sp->plan_idx);
	sqlite3_bind_int64(s, 3, (int64_t)nrows);
	sqlite3_bind_int(s, 4, bad);
	sqlite3_bind_int(s, 5, !same);
	return stmt_done(st, s, "cannot update an execution", cause);
}

static int
sample_insert_rows(struct store *st, const struct store_sample *sp,
    char **cause)
{
	sqlite3_stmt	*s;
	int64_t		 cfg = 0, k, sid = 0;
	size_t		 i, nrows;
	int		 isnew, newbad, bad, nok;

	if (sample_arm_check(st, sp->run_id, sp->arm, cause) == -1)
		return -1;
	if (sp->config != NULL &&
	    config_id(st, sp->run_id, sp->config, &cfg, cause) != 0)
		return -1;
	if (sample_clock(st, sp, cause) != 0)
		return -1;
	nrows = sp->nmetrics > 0 ? sp->nmetrics : 1;
	bad = sp->status != SAMPLE_STATUS_OK;
	nok = bad ? 0 : (int)nrows;
	if (sample_execution(st, sp, nrows, bad, &k, &isnew, &newbad,
	    cause) != 0)
		return -1;
	for (i = 0; i < nrows; i++) {
		const struct store_metric *m =
		    sp->nmetrics > 0 ? &sp->metrics[i] : NULL;
		const char *orig = m != NULL && sp->orig_units != NULL &&
		    sp->orig_units[i] != NULL ? sp->orig_units[i] : NULL;

		if (series_get(st, sp->arm, sp->workload != NULL ?
		    sp->workload : "", m != NULL ? m->benchmark : sp->workload,
		    m != NULL ? m->unit : "", orig != NULL ? orig : "", &sid,
		    cause) != 0)
			return -1;
		if ((s = store_stmt(st, ST_SAMPLE_INSERT, cause)) == NULL)
			return -1;
		sqlite3_bind_int64(s, 1, sp->run_id);
		sqlite3_bind_int64(s, 2, sid);
		sqlite3_bind_int(s, 3, sp->plan_idx);
		sqlite3_bind_int64(s, 4, k + (int64_t)i);
		/* NaN is stored as NULL and read back as NaN. */
		if (m != NULL && !isnan(m->value))
			sqlite3_bind_double(s, 5, m->value);
		sqlite3_bind_int(s, 6, (int)sp->status);
		store_bind_text_or_null(s, 7, sp->error);
		if (sp->config != NULL)
			sqlite3_bind_int64(s, 8, cfg);
		if (orig != NULL) {
			if (sp->orig_values == NULL)
				sqlite3_bind_double(s, 9, m->value);
			else if (!isnan(sp->orig_values[i]))
				sqlite3_bind_double(s, 9, sp->orig_values[i]);
		}
		if (stmt_done(st, s, "cannot add a sample", cause) != 0)
			return -1;
	}
	if (st->counts_defer && (st->counts_run == 0 ||
	    st->counts_run == sp->run_id)) {
		st->counts_run = sp->run_id;
		st->counts_exec += isnew;
		st->counts_bad += newbad;
		st->counts_ok += nok;
		return 0;
	}
	if ((s = store_stmt(st, ST_RUN_COUNT, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, sp->run_id);
	sqlite3_bind_int(s, 2, isnew);
	sqlite3_bind_int(s, 3, newbad);
	sqlite3_bind_int(s, 4, nok);
	return stmt_done(st, s, "cannot count samples", cause);
}

void
store_counts_defer(struct store *st)
{
	st->counts_defer = 1;
	st->counts_run = st->counts_exec = st->counts_bad = st->counts_ok = 0;
}

int
store_counts_end(struct store *st, int ok, char **cause)
{
	sqlite3_stmt	*s;

	st->counts_defer = 0;
	if (!ok || st->counts_run == 0 || (st->counts_exec == 0 &&
	    st->counts_bad == 0 && st->counts_ok == 0))
		return 0;
	if ((s = store_stmt(st, ST_RUN_COUNT, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, st->counts_run);
	sqlite3_bind_int64(s, 2, st->counts_exec);
	sqlite3_bind_int64(s, 3, st->counts_bad);
	sqlite3_bind_int64(s, 4, st->counts_ok);
	return stmt_done(st, s, "cannot count samples", cause);
}

int
store_sample_validate(const struct store_sample *sp, char **cause)
{
	size_t	i;

	if (sp->arm == NULL || *sp->arm == '\0')
		return set_cause(cause, "a sample needs an arm");
	if (store_sample_status_text(sp->status) == NULL)
		return set_cause(cause, "unknown sample status %d",
		    (int)sp->status);
	if (sp->nmetrics == 0 && (sp->workload == NULL ||
	    *sp->workload == '\0'))
		return set_cause(cause, "a sample without metrics needs a "
		    "workload name");
	if (sp->nmetrics == 0 && sp->status == SAMPLE_STATUS_OK)
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
	struct store_rows	 r;
	int			*v = NULL;
	size_t			 cap = 0;

	*idx = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT plan_idx FROM executions WHERE"
	    " run_id = ?1 ORDER BY plan_idx", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(v, *n, cap);
		v[(*n)++] = sqlite3_column_int(r.s, 0);
	}
	if (store_rows_end(&r, "cannot read samples", cause) != 0) {
		free(v);
		*n = 0;
		return -1;
	}
	*idx = v;
	return 0;
}

int
store_done_contains(const int *idx, size_t n, int plan_idx)
{
	size_t	lo = 0, hi = n;

	while (lo < hi) {
		size_t	mid = (lo + hi) / 2;

		if (idx[mid] == plan_idx)
			return 1;
		if (idx[mid] < plan_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

char *
store_run_rounds_text(struct store *st, const struct store_run *r)
{
	struct store_rounds	 n;
	char			*cause = NULL, *s;

	if (store_run_rounds(st, r, &n, &cause) == -1) {
		s = xasprintf("? (%s)", cause);
		free(cause);
		return s;
	}
	return store_rounds_text(&n);
}

/* A single integer a query gives (0 when it gives no row or NULL). */
static int
store_query_int(struct store *st, const char *sql, int64_t run_id, int *out,
    char **cause)
{
	struct store_rows	r;

	*out = 0;
	if (store_rows(&r, st, sql, cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r))
		*out = sqlite3_column_int(r.s, 0);
	return store_rows_end(&r, "cannot read samples", cause);
}

int
store_run_rounds(struct store *st, const struct store_run *r,
    struct store_rounds *out, char **cause)
{
	int	reached, nset;

	memset(out, 0, sizeof(*out));
	out->planned = r->rounds;
	out->warmup = r->warmup;
	if (store_query_int(st, "SELECT coalesce(max(round) + 1, 0) FROM"
	    " executions WHERE run_id = ?1", r->id, &reached, cause) == -1 ||
	    store_query_int(st, "SELECT count(*) FROM decisions WHERE"
	    " run_id = ?1", r->id, &out->decided, cause) == -1 ||
	    store_query_int(st, "SELECT coalesce(max(good_rounds), 0) FROM"
	    " decisions WHERE run_id = ?1", r->id, &out->good, cause) == -1 ||
	    store_query_int(st, "SELECT count(*) FROM run_config WHERE"
	    " run_id = ?1 AND arm = '' AND key = 'set.stop' AND value ="
	    " 'decided'", r->id, &nset, cause) == -1)
		return -1;
	/*
	 * Looks are stored by stop = decided only; --until decided says so
	 * even before the first look.
	 */
	out->decided = out->decided > 0 || nset > 0;
	out->taken = reached > r->warmup ? reached - r->warmup : 0;
	if (!out->decided && r->rounds > 0 && out->taken > r->rounds)
		out->makeup = out->taken - r->rounds;
	return 0;
}

char *
store_rounds_text(const struct store_rounds *n)
{
	if (n->decided)
		return xasprintf("%d good, %d measured (+%d warm-up; stop = "
		    "decided)", n->good, n->taken, n->warmup);
	if (n->makeup > 0)
		return xasprintf("%d (+%d make-up, +%d warm-up)", n->planned,
		    n->makeup, n->warmup);
	/* Ended early (interrupted, aborted, still running). */
	if (n->taken < n->planned)
		return xasprintf("%d of %d (+%d warm-up)", n->taken,
		    n->planned, n->warmup);
	return xasprintf("%d (+%d warm-up)", n->planned, n->warmup);
}

void
store_counts_free(struct store_count *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(c[i].benchmark);
		free(c[i].unit);
		free(c[i].arm);
	}
	free(c);
}

int
store_sample_counts(struct store *st, int64_t run_id,
    struct store_count **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct store_count	*c = NULL, *x;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT benchmark, unit, arm, count(*),"
	    " min(id) AS first FROM samples WHERE run_id = ?1 AND status = 'ok'"
	    " AND warmup = 0 GROUP BY benchmark, unit, arm"
	    " ORDER BY min(first) OVER (PARTITION BY benchmark, unit), arm",
	    cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	while (store_next(&r)) {
		XGROW(c, *n, cap);
		x = &c[(*n)++];
		x->benchmark = store_col_str(r.s, 0);
		x->unit = store_col_str(r.s, 1);
		x->arm = store_col_str(r.s, 2);
		x->n = sqlite3_column_int64(r.s, 3);
	}
	if (store_rows_end(&r, "cannot read samples", cause) != 0) {
		store_counts_free(c, *n);
		*n = 0;
		return -1;
	}
	*out = c;
	return 0;
}

int
store_run_next_round(struct store *st, int64_t run_id, int64_t *nsamples,
    int *round, char **cause)
{
	struct store_rows	r;

	*nsamples = 0;
	*round = 0;
	if (store_rows(&r, st, "WITH e AS (SELECT plan_idx, round FROM"
	    " executions WHERE run_id = ?1), last AS (SELECT round FROM e ORDER BY"
	    " plan_idx DESC LIMIT 1) SELECT (SELECT count(*) FROM e),"
	    " (SELECT round FROM last), (SELECT count(*) FROM e WHERE round ="
	    " (SELECT round FROM last)), (SELECT count(*) FROM e WHERE round ="
	    " (SELECT min(round) FROM e))", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, run_id);
	if (store_next(&r) && sqlite3_column_type(r.s, 1) != SQLITE_NULL) {
		*nsamples = sqlite3_column_int64(r.s, 0);
		*round = sqlite3_column_int(r.s, 1);
		if (sqlite3_column_int64(r.s, 2) >=
		    sqlite3_column_int64(r.s, 3))
			(*round)++;
	}
	return store_rows_end(&r, "cannot read samples", cause);
}
