/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole-database work on the results store: merging the runs of another
 * database (each VM writes its own; run UUIDs keep them apart) and the
 * consistency check behind `abbench db check`.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/night-summary.h"
#include "results/store.h"
#include "results/store-int.h"

/* Run a statement binding (new run id, old run id); finalizes it. */
static int
merge_copy(struct store *st, const char *sql, int64_t new_id, int64_t old_id,
    const char *what, char **cause)
{
	sqlite3_stmt	*s;

	if ((s = store_prepare(st, sql, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, new_id);
	sqlite3_bind_int64(s, 2, old_id);
	return store_run_stmt(st, s, what, cause);
}

static int
merge_has_table(struct store *st, const char *name)
{
	struct store_rows	r;
	int			found;

	if (store_rows(&r, st, "SELECT 1 FROM other.sqlite_master WHERE"
	    " type = 'table' AND name = ?1", NULL) != 0)
		return 0;
	store_bind_text(r.s, 1, name);
	found = store_next(&r);
	(void)store_rows_end(&r, NULL, NULL);
	return found;
}

/* Summarize run id when it is done. */
static int
merge_summary(struct store *st, int64_t id, char **cause)
{
	struct store_rows	r;
	int			done;

	if (store_rows(&r, st, "SELECT 1 FROM main.runs WHERE id = ?1 AND"
	    " status = 'done'", cause) != 0)
		return -1;
	sqlite3_bind_int64(r.s, 1, id);
	done = store_next(&r);
	(void)store_rows_end(&r, NULL, NULL);
	return done ? store_summary_write(st, id, cause) : 0;
}

/*
 * What a merge copies of a run after its row, in this order; each
 * statement binds (new run id, old run id).
 */
static const struct merge_step {
	const char	*sql;
	const char	*what;
	const char	*table;		/* only when the other file has it */
	int		 samples;	/* its rows are the samples added */
} merge_steps[] = {
	{ "INSERT INTO main.arms (run_id, idx, name) SELECT ?1, idx, name"
	  " FROM other.arms WHERE run_id = ?2 ORDER BY idx",
	  "cannot copy arms", NULL, 0 },
	{ "INSERT INTO main.run_config (run_id, arm, seq, key, value)"
	  " SELECT ?1, arm, seq, key, value FROM other.run_config"
	  " WHERE run_id = ?2", "cannot copy config", NULL, 0 },
	{ "INSERT INTO main.units (run_id, seq, unit, key, value)"
	  " SELECT ?1, seq, unit, key, value FROM other.units"
	  " WHERE run_id = ?2", "cannot copy units", NULL, 0 },
	{ "INSERT INTO main.warnings (run_id, seq, text)"
	  " SELECT ?1, seq, text FROM other.warnings WHERE run_id = ?2",
	  "cannot copy warnings", NULL, 0 },
	{ "INSERT INTO main.sample_configs (run_id, text)"
	  " SELECT ?1, text FROM other.sample_configs WHERE run_id = ?2"
	  " ORDER BY id", "cannot copy config blocks", NULL, 0 },
	/* An older file may have no decisions table. */
	{ "INSERT INTO main.decisions (run_id, workload, look, good_rounds,"
	  " round, benchmark, unit, arm, base_arm, verdict, p, boundary, n1,"
	  " n2, mde, test, p_u) SELECT ?1, workload, look, good_rounds,"
	  " round, benchmark, unit, arm, base_arm, verdict, p, boundary, n1,"
	  " n2, mde, test, p_u FROM other.decisions WHERE run_id = ?2"
	  " ORDER BY rowid", "cannot copy decisions", "decisions", 0 },
	/*
	 * A host change journalled on another machine is history here, not
	 * something `abbench restore` may undo on this one.
	 */
	{ "INSERT INTO main.journal (run_id, seq, kind, name, target,"
	  " original, applied, state) SELECT ?1, (SELECT coalesce(max(seq),"
	  " -1) FROM main.journal) + row_number() OVER (ORDER BY seq, id),"
	  " kind, name, target, original, applied, 'merged' FROM"
	  " other.journal WHERE run_id = ?2", "cannot copy the journal",
	  NULL, 0 },
	/* Samples: the names by value, the rest keyed by the new run. */
	{ "INSERT OR IGNORE INTO main.series (arm, workload, benchmark, unit,"
	  " orig_unit) SELECT arm, workload, benchmark, unit, orig_unit FROM"
	  " other.series WHERE id IN (SELECT series_id FROM"
	  " other.sample_values WHERE run_id = ?2) ORDER BY id",
	  "cannot copy series", NULL, 0 },
	{ "INSERT INTO main.sample_runs (run_id, wall_us, mono_us, nexec,"
	  " nfailed, nok) SELECT ?1, wall_us, mono_us, nexec, nfailed, nok"
	  " FROM other.sample_runs WHERE run_id = ?2", "cannot copy samples",
	  NULL, 0 },
	{ "INSERT INTO main.executions (run_id, plan_idx, round, position,"
	  " warmup, ws, wd, dm, de, nv, bad, nx) SELECT ?1, plan_idx, round,"
	  " position, warmup, ws, wd, dm, de, nv, bad, nx FROM"
	  " other.executions WHERE run_id = ?2", "cannot copy samples",
	  NULL, 0 },
	{ "INSERT INTO main.sample_values (run_id, series_id, plan_idx, k,"
	  " value, status, error, config_id, orig_value)"
	  " SELECT ?1, m.id, v.plan_idx, v.k, v.value, v.status, v.error,"
	  " mc.id, v.orig_value FROM other.sample_values v"
	  " JOIN other.series o ON o.id = v.series_id"
	  " JOIN main.series m ON m.arm = o.arm AND m.workload = o.workload"
	  " AND m.benchmark = o.benchmark AND m.unit = o.unit AND"
	  " m.orig_unit = o.orig_unit"
	  " LEFT JOIN other.sample_configs oc ON oc.id = v.config_id"
	  " LEFT JOIN main.sample_configs mc ON mc.run_id = ?1 AND"
	  " mc.text = oc.text"
	  " WHERE v.run_id = ?2", "cannot copy samples", NULL, 1 },
	/* A/A calibrations travel with their runs (the other database was
	 * migrated to our schema when store_open checked it). */
	{ "INSERT INTO main.calibrations (run_id, experiment, host_class,"
	  " repeats, rounds, alpha) SELECT ?1, experiment, host_class,"
	  " repeats, rounds, alpha FROM other.calibrations WHERE run_id = ?2",
	  "cannot copy a calibration", NULL, 0 },
	{ "INSERT INTO main.calibration_rows (run_id, benchmark, unit, n,"
	  " median, mad_rel, ci_rel, mde, comparisons, flagged) SELECT ?1,"
	  " benchmark, unit, n, median, mad_rel, ci_rel, mde, comparisons,"
	  " flagged FROM other.calibration_rows WHERE run_id = ?2",
	  "cannot copy calibration rows", NULL, 0 },
};

static int
merge_run(struct store *st, int64_t old_id, int64_t *samples_added,
    char **cause)
{
	const struct merge_step	*m;
	int64_t			 new_id;
	size_t			 i;

	if (merge_copy(st, "INSERT INTO main.runs (uuid, name, host, status,"
	    " started_wall_ns, ended_wall_ns, order_kind, seed, rounds, warmup,"
	    " experiment_path, experiment_text, abbench_version, pid,"
	    " pid_start) SELECT uuid, name, host, status, started_wall_ns,"
	    " ended_wall_ns, order_kind, seed, rounds, warmup, experiment_path,"
	    " experiment_text, abbench_version, pid, pid_start FROM other.runs"
	    " WHERE id = ?2", 0, old_id, "cannot copy a run",
	    cause) != 0)
		return -1;
	new_id = sqlite3_last_insert_rowid(st->db);
	for (i = 0; i < ARRAY_SIZE(merge_steps); i++) {
		m = &merge_steps[i];
		if (m->table != NULL && !merge_has_table(st, m->table))
			continue;
		if (merge_copy(st, m->sql, new_id, old_id, m->what,
		    cause) != 0)
			return -1;
		if (m->samples)
			*samples_added += sqlite3_changes(st->db);
	}
	/* A done run's nights, as nightly reads them (night-summary.h). */
	return merge_summary(st, new_id, cause);
}

int
store_merge(struct store *st, const char *other_path, int *runs_added,
    int64_t *samples_added, char **cause)
{
	struct store		*other;
	struct stat		 a, b;
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int64_t			*ids = NULL;
	size_t			 n = 0, cap = 0, i;
	char			*uri;
	int			 attached = 0;

	*runs_added = 0;
	*samples_added = 0;
	if (stat(st->path, &a) == 0 && stat(other_path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return set_cause(cause, "cannot merge '%s' into itself",
		    other_path);
	/* The same checks as for our own file: refuse anything foreign. */
	if ((other = store_open(other_path, STORE_READONLY, cause)) == NULL)
		return -1;
	store_close(other);

	if (st->depth > 0)
		return set_cause(cause, "merge inside a transaction");
	uri = store_uri(other_path, "mode=ro");
	s = store_prepare(st, "ATTACH DATABASE ?1 AS other", cause);
	if (s == NULL) {
		free(uri);
		return -1;
	}
	sqlite3_bind_text(s, 1, uri, -1, SQLITE_TRANSIENT);
	free(uri);
	if (store_run_stmt(st, s, "cannot attach the other database",
	    cause) != 0)
		return -1;
	attached = 1;

	if (store_begin(st, cause) != 0)
		goto fail;
	if (store_rows(&r, st, "SELECT o.id FROM other.runs o WHERE NOT"
	    " EXISTS (SELECT 1 FROM main.runs r WHERE r.uuid = o.uuid)"
	    " ORDER BY o.started_wall_ns, o.id", cause) != 0)
		goto fail;
	while (store_next(&r)) {
		XGROW(ids, n, cap);
		ids[n++] = sqlite3_column_int64(r.s, 0);
	}
	if (store_rows_end(&r, "cannot list the other runs", cause) != 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if (merge_run(st, ids[i], samples_added, cause) != 0)
			goto fail;
		(*runs_added)++;
	}
	if (store_commit(st, cause) != 0)
		goto fail;
	free(ids);
	store_exec(st, "DETACH DATABASE other", NULL);
	return 0;
fail:
	store_rollback(st);
	free(ids);
	if (attached)
		store_exec(st, "DETACH DATABASE other", NULL);
	*runs_added = 0;
	*samples_added = 0;
	return -1;
}

/*
 * The check.
 */

struct check_query {
	const char	*sql;	/* rows of one text column, each a problem */
};

static const struct check_query check_queries[] = {
	{ "SELECT 'run ' || id || ': bad status ''' || status || ''''"
	  " FROM runs WHERE status NOT IN ('running', 'interrupted', 'done',"
	  " 'failed', 'imported')" },
	{ "SELECT 'run ' || id || ': bad uuid ''' || uuid || ''''"
	  " FROM runs WHERE length(uuid) != 36 OR uuid GLOB '*[^0-9a-f-]*'" },
	{ "SELECT 'run ' || id || ': no arms' FROM runs r"
	  " WHERE NOT EXISTS (SELECT 1 FROM arms a WHERE a.run_id = r.id)" },
	{ "SELECT 'run ' || run_id || ': arm indices are not 0..' ||"
	  " (count(*) - 1) FROM arms GROUP BY run_id"
	  " HAVING min(idx) != 0 OR max(idx) != count(*) - 1" },
	{ "SELECT 'run ' || id || ': ended before it started'"
	  " FROM runs WHERE ended_wall_ns != 0 AND"
	  " ended_wall_ns < started_wall_ns" },
	{ "SELECT 'run ' || s.run_id || ': ' || count(*) ||"
	  " ' samples of arm ''' || s.arm || ''' which the run does not have'"
	  " FROM samples s WHERE NOT EXISTS (SELECT 1 FROM arms a"
	  " WHERE a.run_id = s.run_id AND a.name = s.arm)"
	  " GROUP BY s.run_id, s.arm" },
	{ "SELECT 'run ' || run_id || ': sample ' || id ||"
	  " ': bad status ''' || status || ''''"
	  " FROM samples WHERE status NOT IN ('ok', 'failed', 'timeout',"
	  " 'host-changed')" },
	/*
	 * One execution of a plan entry may print a benchmark several times
	 * (a gobench program's -test.count=3): its values share the
	 * execution's times. A plan entry stored again with other times (a
	 * sample stored twice) counts them in nx.
	 */
	{ "SELECT 'run ' || e.run_id || ': plan entry ' || e.plan_idx ||"
	  " ' has ok samples of ' || r.benchmark || ' ' || r.unit || ' from ' ||"
	  " e.nx || ' executions' FROM executions e JOIN sample_values v ON"
	  " v.run_id = e.run_id AND v.plan_idx = e.plan_idx AND v.status = 0"
	  " JOIN series r ON r.id = v.series_id WHERE e.nx > 1"
	  " GROUP BY e.run_id, e.plan_idx, r.id" },
	/* Version 9's own invariants (store-schema.c). */
	{ "SELECT 'run ' || v.run_id || ': plan entry ' || v.plan_idx ||"
	  " ' has values but no execution' FROM sample_values v WHERE NOT"
	  " EXISTS (SELECT 1 FROM executions e WHERE e.run_id = v.run_id AND"
	  " e.plan_idx = v.plan_idx) GROUP BY v.run_id, v.plan_idx" },
	{ "SELECT 'run ' || v.run_id || ': ' || count(*) || ' values of"
	  " missing series ' || v.series_id FROM sample_values v WHERE NOT"
	  " EXISTS (SELECT 1 FROM series r WHERE r.id = v.series_id)"
	  " GROUP BY v.run_id, v.series_id" },
	{ "SELECT 'run ' || e.run_id || ': plan entry ' || e.plan_idx ||"
	  " ' counts ' || e.nv || ' values (bad ' || e.bad || '), holds ' ||"
	  " count(v.k) || ' (bad ' || coalesce(max(v.status != 0), 0) ||"
	  " ', places ' || coalesce(min(v.k), '-') || '..' ||"
	  " coalesce(max(v.k), '-') || ')' FROM executions e LEFT JOIN"
	  " sample_values v ON v.run_id = e.run_id AND v.plan_idx = e.plan_idx"
	  " GROUP BY e.run_id, e.plan_idx HAVING count(v.k) != e.nv OR"
	  " coalesce(max(v.status != 0), 0) != e.bad OR min(v.k) != 0 OR"
	  " max(v.k) != e.nv - 1 OR e.nx < 1" },
	{ "SELECT 'run ' || run_id || ': samples of a run that does not"
	  " exist' FROM (SELECT run_id FROM executions UNION SELECT run_id"
	  " FROM sample_runs) WHERE run_id NOT IN (SELECT id FROM runs)" },
	{ "SELECT 'run ' || e.run_id || ': executions but no clock' FROM"
	  " executions e WHERE NOT EXISTS (SELECT 1 FROM sample_runs b"
	  " WHERE b.run_id = e.run_id) GROUP BY e.run_id" },
	{ "SELECT 'run ' || b.run_id || ': counts ' || b.nexec || ' samples, '"
	  " || b.nfailed || ' failed, ' || b.nok || ' ok values; holds ' ||"
	  " (SELECT count(*) FROM executions e WHERE e.run_id = b.run_id) ||"
	  " ', ' || (SELECT count(*) FROM executions e WHERE e.run_id ="
	  " b.run_id AND e.bad) || ', ' || (SELECT count(*) FROM"
	  " sample_values v WHERE v.run_id = b.run_id AND v.status = 0)"
	  " FROM sample_runs b WHERE b.nexec != (SELECT count(*) FROM"
	  " executions e WHERE e.run_id = b.run_id) OR b.nfailed != (SELECT"
	  " count(*) FROM executions e WHERE e.run_id = b.run_id AND e.bad)"
	  " OR b.nok != (SELECT count(*) FROM sample_values v WHERE"
	  " v.run_id = b.run_id AND v.status = 0)" },
	{ "SELECT 'run ' || run_id || ': sample ' || id || ' ends before it"
	  " starts' FROM samples WHERE end_ns < start_ns" },
	{ "SELECT 'run ' || run_id || ': ok sample ' || id || ' has no unit'"
	  " FROM samples WHERE status = 'ok' AND unit = ''" },
	{ "SELECT 'run ' || s.run_id || ': sample ' || s.id ||"
	  " ' uses a config block of another run' FROM samples s"
	  " JOIN sample_configs c ON c.id = s.config_id"
	  " WHERE c.run_id != s.run_id" },
	{ "SELECT 'journal entry ' || id || ': bad state ''' || state || ''''"
	  " FROM journal WHERE state NOT IN ('saved', 'applied', 'restored',"
	  " 'merged')" },
	{ "SELECT 'run ' || r.id || ': finished (' || r.status || ') with '"
	  " || count(*) || ' host changes not restored'"
	  " FROM runs r JOIN journal j ON j.run_id = r.id"
	  " WHERE r.status IN ('done', 'failed') AND"
	  " j.state IN ('saved', 'applied') GROUP BY r.id" },
	{ "SELECT 'foreign key: ' || \"table\" || ' row ' || rowid ||"
	  " ' refers to a missing ' || parent FROM pragma_foreign_key_check" },
};

/* An error that says the file is damaged. */
static int
store_damaged(int rc)
{
	return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

static int
check_collect(struct store *st, const char *sql, struct strvec *out,
    char **cause)
{
	struct store_rows	r;
	int			damaged;

	if (store_rows(&r, st, sql, cause) != 0)
		return -1;
	while (store_next(&r))
		strvec_push_nodup(out, store_col_str(r.s, 0));
	damaged = store_damaged(r.rc);
	if (store_rows_end(&r, "cannot check", damaged ? NULL : cause) == 0)
		return 0;
	if (!damaged)
		return -1;
	/* Damage is what the check reports, not a failure of it. */
	strvec_pushf(out, "corrupt: %s", sqlite3_errmsg(st->db));
	return 0;
}

int
store_quick_check(struct store *st, char **cause)
{
	struct store_rows	 r;
	struct strbuf		 sb = STRBUF_INIT;
	const char		*t;
	int			 bad = 0;

	/*
	 * Every table but the samples' own, whatever the file's size: a
	 * year of nightly history is 1.8 GB, most of it samples, and
	 * quick_check reads every page it checks (25 s there, 4.5 s at 290
	 * MB). A command's run's samples are checked as they are read
	 * (store_check_run): SQLite checks each page it reads.
	 */
	if (store_rows(&r, st, "SELECT q.quick_check FROM sqlite_master m,"
	    " pragma_quick_check(m.name) q WHERE m.type = 'table' AND m.name"
	    " NOT IN ('sample_values', 'executions')", cause) != 0)
		return set_cause(cause, "'%s' is damaged: cannot read it",
		    st->path);
	while (store_next(&r)) {
		t = (const char *)sqlite3_column_text(r.s, 0);
		if (t != NULL && strcmp(t, "ok") != 0) {
			strbuf_addf(&sb, "%s%s", bad ? "; " : "", t);
			bad = 1;
		}
	}
	if (store_rows_end(&r, NULL, NULL) != 0) {
		strbuf_addf(&sb, "%s%s", bad ? "; " : "",
		    sqlite3_errmsg(st->db));
		bad = 1;
	}
	if (bad)
		set_cause(cause, "'%s' is damaged (SQLite quick_check: %s): "
		    "nothing was written; see abbench db check", st->path,
		    sb.buf);
	strbuf_release(&sb);
	return bad ? -1 : 0;
}

int
store_check_run(struct store *st, int64_t run_id, char **cause)
{
	struct store_value	*v = NULL;
	size_t			 n = 0;
	char			*why = NULL;

	if (store_values(st, run_id, NULL, STORE_Q_WARMUP | STORE_Q_FAILED,
	    &v, &n, &why) == 0) {
		store_values_free(v, n);
		return 0;
	}
	set_cause(cause, "'%s' is damaged (run %lld's samples: %s): nothing "
	    "was written; see abbench db check", st->path, (long long)run_id,
	    why);
	free(why);
	return -1;
}

int
store_check(struct store *st, char ***problems, size_t *n, char **cause)
{
	struct strvec		 sv = STRVEC_INIT;
	struct store_rows	 r;
	const char		*t;
	size_t			 i;
	int			 damaged;

	*problems = NULL;
	*n = 0;
	if (store_rows(&r, st, "PRAGMA integrity_check", cause) != 0)
		return -1;
	while (store_next(&r)) {
		t = (const char *)sqlite3_column_text(r.s, 0);
		if (t != NULL && strcmp(t, "ok") != 0)
			strvec_pushf(&sv, "integrity: %s", t);
	}
	damaged = store_damaged(r.rc);
	if (store_rows_end(&r, "cannot check integrity", damaged ? NULL :
	    cause) != 0) {
		if (!damaged) {
			strvec_clear(&sv);
			return -1;
		}
		strvec_pushf(&sv, "integrity: %s", sqlite3_errmsg(st->db));
	}
	for (i = 0; i < ARRAY_SIZE(check_queries); i++) {
		if (check_collect(st, check_queries[i].sql, &sv, cause) != 0) {
			strvec_clear(&sv);
			return -1;
		}
	}
	*n = sv.n;
	*problems = sv.v;
	return 0;
}
