/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleets in the store (fleet-store.h): the fleets, fleet_args and
 * fleet_jobs tables, written and read through prepared statements.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/fleet-store.h"
#include "results/store-int.h"
#include "results/store.h"

void
fleet_rec_release(struct fleet_rec *f)
{
	free(f->id);
	free(f->dir);
	free(f->experiment_path);
	free(f->experiment_name);
	free(f->scheduler);
	free(f->abbench_path);
	free(f->abbench_version);
	free(f->time_limit);
	free(f->merge_job);
	strvec_clear(&f->args);
	strvec_clear(&f->run_keys);
	memset(f, 0, sizeof *f);
}

void
fleet_jobs_free(struct fleet_job_rec *j, size_t n)
{
	size_t	i;

	if (j == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(j[i].partition);
		free(j[i].job_id);
		free(j[i].db);
		free(j[i].state);
		free(j[i].reason);
		free(j[i].node);
	}
	free(j);
}

static int
fleet_add(struct store *st, const struct fleet_rec *f, char **cause)
{
	sqlite3_stmt	*s;
	size_t		 i;

	s = store_prepare(st, "INSERT INTO fleets (id, created_wall_ns, dir,"
	    " experiment_path, experiment_name, scheduler, abbench_path,"
	    " abbench_version, time_limit, merge_job, run_keys) VALUES (?1,"
	    " ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", cause);
	if (s == NULL)
		return -1;
	store_bind_text_or_null(s, 1, f->id);
	sqlite3_bind_int64(s, 2, f->created_wall_ns);
	store_bind_text_or_null(s, 3, f->dir);
	store_bind_text_or_null(s, 4, f->experiment_path);
	store_bind_text_or_null(s, 5, f->experiment_name);
	store_bind_text_or_null(s, 6, f->scheduler);
	store_bind_text_or_null(s, 7, f->abbench_path);
	store_bind_text_or_null(s, 8, f->abbench_version);
	store_bind_text_or_null(s, 9, f->time_limit);
	store_bind_text_or_null(s, 10, f->merge_job);
	if (f->run_keys.n > 0) {
		struct strbuf	keys = STRBUF_INIT;

		for (i = 0; i < f->run_keys.n; i++)
			strbuf_addf(&keys, "%s%s", i ? "\n" : "",
			    f->run_keys.v[i]);
		sqlite3_bind_text(s, 11, keys.buf, -1, SQLITE_TRANSIENT);
		strbuf_release(&keys);
	} else
		sqlite3_bind_null(s, 11);
	if (store_run_stmt(st, s, "cannot add a fleet", cause) != 0)
		return -1;
	for (i = 0; i < f->args.n; i++) {
		s = store_prepare(st, "INSERT INTO fleet_args (fleet_id, seq,"
		    " arg) VALUES (?1, ?2, ?3)", cause);
		if (s == NULL)
			return -1;
		store_bind_text_or_null(s, 1, f->id);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		store_bind_text_or_null(s, 3, f->args.v[i]);
		if (store_run_stmt(st, s, "cannot add a fleet argument",
		    cause) != 0)
			return -1;
	}
	return 0;
}

int
fleet_store_add(struct store *st, const struct fleet_rec *f, char **cause)
{
	if (store_begin(st, cause) != 0)
		return -1;
	return store_finish(st, fleet_add(st, f, cause), cause);
}

static int
fleet_args_read(struct store *st, struct fleet_rec *f, char **cause)
{
	struct store_rows	r;

	if (store_rows(&r, st, "SELECT arg FROM fleet_args WHERE fleet_id = ?1"
	    " ORDER BY seq", cause) != 0)
		return -1;
	store_bind_text_or_null(r.s, 1, f->id);
	while (store_next(&r))
		strvec_push(&f->args,
		    (const char *)sqlite3_column_text(r.s, 0));
	return store_rows_end(&r, "cannot read fleet arguments", cause);
}

#define FLEET_COLS "id, created_wall_ns, dir, experiment_path," \
	" experiment_name, scheduler, abbench_path, abbench_version," \
	" time_limit, merge_job, run_keys"

static void
fleet_from_row(sqlite3_stmt *s, struct fleet_rec *f)
{
	memset(f, 0, sizeof *f);
	f->id = store_col_str(s, 0);
	f->created_wall_ns = sqlite3_column_int64(s, 1);
	f->dir = store_col_str(s, 2);
	f->experiment_path = store_col_str(s, 3);
	f->experiment_name = store_col_str(s, 4);
	f->scheduler = store_col_str(s, 5);
	f->abbench_path = store_col_str(s, 6);
	f->abbench_version = store_col_str(s, 7);
	f->time_limit = store_col_str_or_null(s, 8);
	f->merge_job = store_col_str_or_null(s, 9);
	if (sqlite3_column_type(s, 10) == SQLITE_TEXT) {
		const char	*k = (const char *)sqlite3_column_text(s, 10);
		const char	*nl;

		for (; *k != '\0'; k = *nl != '\0' ? nl + 1 : nl) {
			nl = k + strcspn(k, "\n");
			if (nl > k)
				strvec_pushf(&f->run_keys, "%.*s",
				    (int)(nl - k), k);
		}
	}
}

int
fleet_store_list(struct store *st, struct fleet_rec **out, size_t *n,
    char **cause)
{
	struct store_rows	r;
	size_t			cap = 0, i;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT " FLEET_COLS " FROM fleets"
	    " ORDER BY created_wall_ns, id", cause) != 0)
		return -1;
	while (store_next(&r)) {
		XGROW(*out, *n, cap);
		fleet_from_row(r.s, &(*out)[(*n)++]);
	}
	if (store_rows_end(&r, "cannot list fleets", cause) != 0)
		goto fail;
	for (i = 0; i < *n; i++)
		if (fleet_args_read(st, &(*out)[i], cause) != 0)
			goto fail;
	return 0;
fail:
	for (i = 0; i < *n; i++)
		fleet_rec_release(&(*out)[i]);
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

int
fleet_store_get(struct store *st, const char *id, struct fleet_rec *f,
    char **cause)
{
	struct store_rows	r;
	int			found;

	memset(f, 0, sizeof *f);
	if (store_rows(&r, st, "SELECT " FLEET_COLS " FROM fleets WHERE"
	    " id = ?1", cause) != 0)
		return -1;
	store_bind_text_or_null(r.s, 1, id);
	if ((found = store_next(&r)))
		fleet_from_row(r.s, f);
	if (store_rows_end(&r, "cannot read a fleet", cause) != 0)
		return -1;
	if (!found)
		return set_cause(cause, "no fleet '%s' in '%s'", id,
		    store_path(st));
	if (fleet_args_read(st, f, cause) != 0) {
		fleet_rec_release(f);
		return -1;
	}
	return 0;
}

int
fleet_store_set_merge_job(struct store *st, const char *id,
    const char *job_id, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "UPDATE fleets SET merge_job = ?2 WHERE id = ?1",
	    cause);
	if (s == NULL)
		return -1;
	store_bind_text_or_null(s, 1, id);
	store_bind_text_or_null(s, 2, job_id);
	return store_run_stmt(st, s, "cannot record the merge job", cause);
}

int
fleet_store_job_add(struct store *st, const char *fleet_id,
    const struct fleet_job_rec *j, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "INSERT INTO fleet_jobs (fleet_id, partition,"
	    " replica, attempt, job_id, db, state, reason, node,"
	    " updated_wall_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10)", cause);
	if (s == NULL)
		return -1;
	store_bind_text_or_null(s, 1, fleet_id);
	store_bind_text_or_null(s, 2, j->partition);
	sqlite3_bind_int(s, 3, j->replica);
	sqlite3_bind_int(s, 4, j->attempt);
	store_bind_text_or_null(s, 5, j->job_id);
	store_bind_text_or_null(s, 6, j->db);
	store_bind_text_or_null(s, 7, j->state != NULL ? j->state :
	    "SUBMITTED");
	store_bind_text_or_null(s, 8, j->reason != NULL ? j->reason : "");
	store_bind_text_or_null(s, 9, j->node != NULL ? j->node : "");
	sqlite3_bind_int64(s, 10, j->updated_wall_ns);
	return store_run_stmt(st, s, "cannot add a fleet job", cause);
}

int
fleet_store_job_update(struct store *st, const char *fleet_id,
    const char *job_id, const char *state, const char *reason,
    const char *node, int64_t wall_ns, char **cause)
{
	sqlite3_stmt	*s;

	s = store_prepare(st, "UPDATE fleet_jobs SET state = ?3, reason = ?4,"
	    " node = CASE WHEN ?5 = '' THEN node ELSE ?5 END,"
	    " updated_wall_ns = ?6 WHERE fleet_id = ?1 AND job_id = ?2",
	    cause);
	if (s == NULL)
		return -1;
	store_bind_text_or_null(s, 1, fleet_id);
	store_bind_text_or_null(s, 2, job_id);
	store_bind_text_or_null(s, 3, state);
	store_bind_text_or_null(s, 4, reason != NULL ? reason : "");
	store_bind_text_or_null(s, 5, node != NULL ? node : "");
	sqlite3_bind_int64(s, 6, wall_ns);
	return store_run_stmt(st, s, "cannot update a fleet job", cause);
}

int
fleet_store_jobs(struct store *st, const char *fleet_id, int latest,
    struct fleet_job_rec **out, size_t *n, char **cause)
{
	struct store_rows	 r;
	struct fleet_job_rec	*j;
	size_t			 cap = 0;

	*out = NULL;
	*n = 0;
	if (store_rows(&r, st, "SELECT partition, replica, attempt, job_id, db,"
	    " state, reason, node, updated_wall_ns FROM fleet_jobs f"
	    " WHERE fleet_id = ?1 AND (?2 = 0 OR attempt = (SELECT"
	    " max(attempt) FROM fleet_jobs g WHERE g.fleet_id = f.fleet_id"
	    " AND g.partition = f.partition AND g.replica = f.replica))"
	    " ORDER BY rowid", cause) != 0)
		return -1;
	store_bind_text_or_null(r.s, 1, fleet_id);
	sqlite3_bind_int(r.s, 2, latest);
	while (store_next(&r)) {
		XGROW(*out, *n, cap);
		j = &(*out)[(*n)++];
		memset(j, 0, sizeof *j);
		j->partition = store_col_str(r.s, 0);
		j->replica = sqlite3_column_int(r.s, 1);
		j->attempt = sqlite3_column_int(r.s, 2);
		j->job_id = store_col_str(r.s, 3);
		j->db = store_col_str(r.s, 4);
		j->state = store_col_str(r.s, 5);
		j->reason = store_col_str(r.s, 6);
		j->node = store_col_str(r.s, 7);
		j->updated_wall_ns = sqlite3_column_int64(r.s, 8);
	}
	if (store_rows_end(&r, "cannot read fleet jobs", cause) != 0) {
		fleet_jobs_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
