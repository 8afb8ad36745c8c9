/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store's schema: the migrations from version 0 to 8 (SQL
 * applied in one transaction) and the conversion to version 9's compact
 * samples, run by run, each run in its own transaction, so that a
 * conversion killed half-way goes on where it stopped (store.c calls
 * both from store_migrate).
 *
 * Version 9: a sample row of 19 columns (names, units and times repeated
 * on every value: 101-127 bytes a value) became three tables and a view:
 *   series(id, arm, workload, benchmark, unit, orig_unit)  -- the names,
 *       once per store ('' orig_unit = as stored)
 *   sample_runs(run_id, wall_us, mono_us, nexec, nfailed, nok)  -- a
 *       run's clock bases (its first sample's start, in us) and counts
 *   executions(run_id, plan_idx, round, position, warmup, ws, wd, dm, de,
 *       nv, bad, nx)  -- one per plan entry: its times in us from the
 *       bases (start_wall = wall_us + ws, end_wall = start_wall + wd,
 *       start_ns = mono_us + ws + dm, end_ns = start_ns + wd + de), its
 *       number of values, whether one is not ok, the distinct executions
 *       stored for it (1; more is what db check reports)
 *   sample_values(run_id, series_id, plan_idx, k, value, status, error,
 *       config_id, orig_value)  -- one per value, k its place in its
 *       execution, status 0 ok, 1 failed, 2 timeout, 3 host-changed;
 *       keyed run, series, entry (WITHOUT ROWID): a series' nights are
 *       adjacent in each run
 *   samples  -- a VIEW with the old columns, for readers and sqlite3 users
 * Times are kept to the microsecond (floored): the plots and the level
 * shifts use seconds; nothing exported or printed shows more.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

/*
 * Each migration takes a database at version i to version i + 1; the first
 * creates the schema from nothing. A database written by an older abbench
 * is brought forward in one transaction; migrations are never edited once
 * released, only appended. Version 9 is not SQL alone: its conversion of
 * the samples (store_compact_migrate) is below.
 */
const char *const store_migrations[STORE_SCHEMA_SQL] = {
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
	/*
	 * 4 -> 5: the looks of `stop = decided` (harness/core/verdict.h):
	 * each row's decision at each look of its workload, and the round
	 * at which it was made; the last look of a row is its verdict.
	 */
	"CREATE TABLE decisions (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	workload TEXT NOT NULL,\n"
	"	look INTEGER NOT NULL,\n"
	"	good_rounds INTEGER NOT NULL,\n"
	"	round INTEGER NOT NULL,\n"
	"	benchmark TEXT NOT NULL,\n"
	"	unit TEXT NOT NULL,\n"
	"	arm TEXT NOT NULL,\n"
	"	base_arm TEXT NOT NULL,\n"
	"	verdict TEXT NOT NULL,\n"
	"	p REAL,\n"
	"	boundary REAL,\n"
	"	n1 INTEGER NOT NULL,\n"
	"	n2 INTEGER NOT NULL,\n"
	"	mde REAL,\n"
	"	PRIMARY KEY (run_id, workload, look, benchmark, unit, arm)\n"
	");\n",
	/*
	 * 5 -> 6: the [experiment] keys a fleet sets on every shape's run
	 * (fleet submit --until decided: "stop=decided", one per line).
	 */
	"ALTER TABLE fleets ADD COLUMN run_keys TEXT;\n",
	/*
	 * 6 -> 7: the start of the run's abbench process ("BOOT_ID:START",
	 * journal_proc_start), so that a pid used again by another process,
	 * abbench or not, in this boot or the next, is not taken for the
	 * run's owner ('' for runs stored before: their pid alone tells).
	 */
	"ALTER TABLE runs ADD COLUMN pid_start TEXT NOT NULL DEFAULT '';\n",
	/*
	 * 7 -> 8: which test decided each look of stop = decided
	 * (seq_test_name: signed-rank, U+Brunner-Munzel, all-equal; NULL for
	 * looks stored before), and the U test's p that `stat` prints beside
	 * the deciding test's p.
	 */
	"ALTER TABLE decisions ADD COLUMN test TEXT;\n"
	"ALTER TABLE decisions ADD COLUMN p_u REAL;\n",
};

/* Version 9's tables, made before the first run is converted. */
static const char store_v9_tables[] =
	"ALTER TABLE samples RENAME TO samples_v8;\n"
	"CREATE TABLE series (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	arm TEXT NOT NULL,\n"
	"	workload TEXT NOT NULL,\n"
	"	benchmark TEXT NOT NULL,\n"
	"	unit TEXT NOT NULL,\n"
	"	orig_unit TEXT NOT NULL DEFAULT '',\n"
	"	UNIQUE (arm, workload, benchmark, unit, orig_unit)\n"
	");\n"
	"CREATE INDEX series_name ON series(benchmark, unit, arm);\n"
	"CREATE TABLE sample_runs (\n"
	"	run_id INTEGER PRIMARY KEY,\n"
	"	wall_us INTEGER NOT NULL,\n"
	"	mono_us INTEGER NOT NULL,\n"
	"	nexec INTEGER NOT NULL DEFAULT 0,\n"
	"	nfailed INTEGER NOT NULL DEFAULT 0,\n"
	"	nok INTEGER NOT NULL DEFAULT 0\n"
	");\n"
	"CREATE TABLE executions (\n"
	"	run_id INTEGER NOT NULL,\n"
	"	plan_idx INTEGER NOT NULL,\n"
	"	round INTEGER NOT NULL,\n"
	"	position INTEGER NOT NULL,\n"
	"	warmup INTEGER NOT NULL,\n"
	"	ws INTEGER NOT NULL,\n"
	"	wd INTEGER NOT NULL,\n"
	"	dm INTEGER NOT NULL,\n"
	"	de INTEGER NOT NULL,\n"
	"	nv INTEGER NOT NULL,\n"
	"	bad INTEGER NOT NULL,\n"
	"	nx INTEGER NOT NULL,\n"
	"	PRIMARY KEY (run_id, plan_idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE sample_values (\n"
	"	run_id INTEGER NOT NULL,\n"
	"	series_id INTEGER NOT NULL,\n"
	"	plan_idx INTEGER NOT NULL,\n"
	"	k INTEGER NOT NULL,\n"
	"	value REAL,\n"
	"	status INTEGER NOT NULL,\n"
	"	error TEXT,\n"
	"	config_id INTEGER,\n"
	"	orig_value REAL,\n"
	"	PRIMARY KEY (run_id, series_id, plan_idx, k)\n"
	") WITHOUT ROWID;\n";

/* x ns floored to us (SQLite's % and / truncate toward zero). */
#define FL(x)	"((" x ") - (((" x ") % 1000) + 1000) % 1000) / 1000"

/* One run's samples (?1) into version 9's tables, then out of the old. */
static const char *const store_v9_run[] = {
	"INSERT OR IGNORE INTO series (arm, workload, benchmark, unit,"
	" orig_unit) SELECT arm, workload, benchmark, unit,"
	" coalesce(orig_unit, '') FROM samples_v8 WHERE run_id = ?1"
	" GROUP BY arm, workload, benchmark, unit, coalesce(orig_unit, '')"
	" ORDER BY min(id)",
	"INSERT INTO sample_runs (run_id, wall_us, mono_us) SELECT ?1, "
	FL("start_wall_ns") ", " FL("start_ns") " FROM samples_v8"
	" WHERE run_id = ?1 ORDER BY id LIMIT 1",
	/* The values of an entry's first row (the only min() aggregate). */
	"INSERT INTO executions (run_id, plan_idx, round, position, warmup,"
	" ws, wd, dm, de, nv, bad, nx) SELECT ?1, plan_idx, round, position,"
	" warmup, sw - b.wall_us, ew - sw, (sm - b.mono_us) - (sw - b.wall_us),"
	" (em - sm) - (ew - sw), nv, bad, nx FROM (SELECT plan_idx, round,"
	" position, warmup, " FL("start_wall_ns") " AS sw, "
	FL("end_wall_ns") " AS ew, " FL("start_ns") " AS sm, "
	FL("end_ns") " AS em, min(id), count(*) AS nv,"
	" sum(status != 'ok') > 0 AS bad, count(DISTINCT round || ':' ||"
	" position || ':' || warmup || ':' || start_ns || ':' || end_ns || ':'"
	" || start_wall_ns || ':' || end_wall_ns) AS nx FROM samples_v8"
	" WHERE run_id = ?1 GROUP BY plan_idx), sample_runs b"
	" WHERE b.run_id = ?1",
	"INSERT INTO sample_values (run_id, series_id, plan_idx, k, value,"
	" status, error, config_id, orig_value) SELECT ?1, r.id, s.plan_idx,"
	" row_number() OVER (PARTITION BY s.plan_idx ORDER BY s.id) - 1,"
	" s.value, CASE s.status WHEN 'ok' THEN 0 WHEN 'failed' THEN 1"
	" WHEN 'timeout' THEN 2 WHEN 'host-changed' THEN 3 ELSE 15 END,"
	" s.error, s.config_id, s.orig_value FROM samples_v8 s JOIN series r"
	" ON r.arm = s.arm AND r.workload = s.workload AND r.benchmark ="
	" s.benchmark AND r.unit = s.unit AND r.orig_unit ="
	" coalesce(s.orig_unit, '') WHERE s.run_id = ?1",
	"UPDATE sample_runs SET nexec = (SELECT count(*) FROM executions"
	" WHERE run_id = ?1), nfailed = (SELECT count(*) FROM executions"
	" WHERE run_id = ?1 AND bad), nok = (SELECT count(*) FROM"
	" sample_values WHERE run_id = ?1 AND status = 0) WHERE run_id = ?1",
	"DELETE FROM samples_v8 WHERE run_id = ?1",
};

/* The end of the conversion: the old table goes, the view comes. */
static const char store_v9_done[] =
	"DROP TABLE samples_v8;\n"
	"CREATE VIEW samples AS SELECT (v.run_id << 40) | (v.plan_idx << 16)"
	" | v.k AS id, v.run_id AS run_id, v.plan_idx AS plan_idx,"
	" e.round AS round, e.position AS position, r.arm AS arm,"
	" r.workload AS workload, r.benchmark AS benchmark, r.unit AS unit,"
	" v.value AS value, " STORE_STATUS_SQL("v.status") " AS status,"
	" e.warmup AS warmup,"
	" (b.mono_us + e.ws + e.dm) * 1000 AS start_ns,"
	" (b.mono_us + e.ws + e.dm + e.wd + e.de) * 1000 AS end_ns,"
	" (b.wall_us + e.ws) * 1000 AS start_wall_ns,"
	" (b.wall_us + e.ws + e.wd) * 1000 AS end_wall_ns,"
	" v.error AS error, v.config_id AS config_id,"
	" nullif(r.orig_unit, '') AS orig_unit, v.orig_value AS orig_value,"
	" v.k AS k, v.series_id AS series_id"
	" FROM sample_values v"
	" JOIN executions e ON e.run_id = v.run_id AND e.plan_idx = v.plan_idx"
	" JOIN series r ON r.id = v.series_id"
	" JOIN sample_runs b ON b.run_id = v.run_id;\n"
	/*
	 * The planner's statistics, fixed: a series is found by its names
	 * first, then its values run by run (a year of one series is 365
	 * seeks, not a scan of every value of 365 runs). SQLite guesses
	 * otherwise with no statistics, and ANALYZE would read every value.
	 */
	"ANALYZE sqlite_schema;\n"
	"DELETE FROM sqlite_stat1 WHERE tbl IN ('series', 'runs');\n"
	"INSERT INTO sqlite_stat1 VALUES"
	" ('series', 'series_name', '10000 20 4 1'),"
	" ('series', 'sqlite_autoindex_series_1', '10000 5000 50 10 1 1'),"
	" ('runs', 'runs_name', '10000 400 1'),"
	" ('runs', 'sqlite_autoindex_runs_1', '10000 1');\n";

static int
store_has_table(struct store *st, const char *name, int *has, char **cause)
{
	struct store_rows	r;

	if (store_rows(&r, st, "SELECT 1 FROM sqlite_master WHERE name = ?1",
	    cause) != 0)
		return -1;
	store_bind_text(r.s, 1, name);
	*has = store_next(&r);
	return store_rows_end(&r, "cannot read the schema", cause);
}

/*
 * Inside the caller's transaction, with the database at version 8: make
 * version 9's tables unless a conversion killed earlier made them.
 */
int
store_compact_start(struct store *st, char **cause)
{
	int	has = 0;

	if (store_has_table(st, "samples_v8", &has, cause) != 0)
		return -1;
	return has ? 0 : store_exec(st, store_v9_tables, cause);
}

/* Convert one run still in samples_v8: 1 done, 0 none left, -1 error. */
static int
store_compact_one(struct store *st, int64_t *rows, char **cause)
{
	struct store_rows	 r;
	sqlite3_stmt		*s;
	int64_t			 run_id = 0;
	size_t			 i;
	int			 found, has = 0;

	if (store_exec(st, "BEGIN IMMEDIATE", cause) != 0)
		return -1;
	/* Another abbench converting it too may have finished. */
	if (store_has_table(st, "samples_v8", &has, cause) != 0)
		goto fail;
	if (!has)
		return store_exec(st, "COMMIT", cause) == 0 ? 0 : -1;
	if (store_rows(&r, st, "SELECT run_id, (SELECT count(*) FROM"
	    " samples_v8 t WHERE t.run_id = s.run_id) FROM samples_v8 s"
	    " ORDER BY run_id LIMIT 1", cause) != 0)
		goto fail;
	if ((found = store_next(&r))) {
		run_id = sqlite3_column_int64(r.s, 0);
		*rows += sqlite3_column_int64(r.s, 1);
	}
	if (store_rows_end(&r, "cannot read the old samples", cause) != 0)
		goto fail;
	if (!found) {
		if (store_exec(st, store_v9_done, cause) != 0 ||
		    store_exec(st, "PRAGMA user_version = 9", cause) != 0)
			goto fail;
		return store_exec(st, "COMMIT", cause) == 0 ? 0 : -1;
	}
	for (i = 0; i < ARRAY_SIZE(store_v9_run); i++) {
		if ((s = store_prepare(st, store_v9_run[i], cause)) == NULL)
			goto fail;
		sqlite3_bind_int64(s, 1, run_id);
		if (store_run_stmt(st, s, "cannot convert samples", cause) != 0)
			goto fail;
	}
	if (store_exec(st, "COMMIT", cause) != 0)
		goto fail;
	return 1;
fail:
	store_exec(st, "ROLLBACK", NULL);
	return -1;
}

/*
 * Convert every run left in samples_v8, one transaction each, then drop
 * it, make the view and set version 9; then VACUUM, which gives the
 * space back to the filesystem (the file keeps it otherwise).
 * ABBENCH_DEBUG_DIE_AFTER_MIGRATED=N kills the process (SIGKILL) after N runs
 * converted: how the tests show that a conversion killed goes on where it
 * stopped.
 */
int
store_compact_migrate(struct store *st, char **cause)
{
	const char	*kill_env = getenv("ABBENCH_DEBUG_DIE_AFTER_MIGRATED");
	long		 kill_after = kill_env != NULL ? atol(kill_env) : -1;
	long		 done = 0;
	int64_t		 rows = 0;
	int		 rc;

	while ((rc = store_compact_one(st, &rows, cause)) == 1) {
		if (++done == kill_after)
			raise(SIGKILL);
	}
	if (rc != 0)
		return -1;
	if (rows > 0)
		return store_exec(st, "VACUUM", cause);
	return 0;
}
