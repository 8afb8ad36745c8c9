/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results store: one SQLite database holding runs, their arms and
 * config, every sample the moment it is taken, and the journal of host
 * changes (settings with their original values, and objects such as cgroups
 * and containers made for a run) that `abbench restore` undoes.
 *
 * Never prints, never exits, never reads the clock: callers pass times in.
 * Every function that can fail returns 0 / -1 (or NULL) and sets *cause to
 * a malloc'd message (caller frees). Not thread-safe: one struct store per
 * thread.
 *
 * Schema (PRAGMA user_version = STORE_SCHEMA_VERSION), see store.c:
 *   runs(id, uuid, name, host, status, started_wall_ns, ended_wall_ns,
 *        order_kind, seed, rounds, warmup, experiment_path, experiment_text,
 *        abbench_version, pid, pid_start)
 *   arms(run_id, idx, name)
 *   run_config(run_id, arm, seq, key, value)  -- arm '' = whole run
 *   units(run_id, unit, key, value)           -- benchfmt Unit metadata
 *   samples(id, run_id, plan_idx, round, position, arm, workload, benchmark,
 *           unit, value, status, warmup, start_ns, end_ns, start_wall_ns,
 *           end_wall_ns, error, config_id, orig_unit, orig_value)
 *           -- a VIEW since version 9 over series, sample_runs,
 *           executions and sample_values (store-schema.c: ~37 bytes a
 *           value, times to the microsecond)
 *   sample_configs(id, run_id, text)          -- benchfmt config blocks
 *   journal(id, run_id, kind, name, target, original, applied, state, seq)
 *   warnings(run_id, seq, text)
 *   calibrations(run_id, experiment, host_class, repeats, rounds, alpha)
 *   calibration_rows(run_id, benchmark, unit, n, median, mad_rel, ci_rel,
 *        mde, comparisons, flagged)     -- results/calibration.h
 *   fleets, fleet_args, fleet_jobs            -- see fleet-store.h
 *   decisions(run_id, workload, look, good_rounds, round, benchmark, unit,
 *        arm, base_arm, verdict, p, boundary, n1, n2, mde) -- stop = decided
 *   summary_keys, night_summaries  -- version 10: a done run's nights as
 *        `abbench nightly` reads them (results/night-summary.h)
 */
#ifndef ABBENCH_STORE_H
#define ABBENCH_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/sequential.h"

#define STORE_SCHEMA_VERSION 10

struct store;

enum store_open_flags {
	STORE_READONLY = 1 << 0,	/* never create, never write */
	STORE_DURABLE = 1 << 1,		/* synchronous=FULL */
	STORE_CREATE = 1 << 2,		/* create the file if missing */
};

/*
 * Open (and migrate forward) a database. A file of another program, a
 * corrupt file, or a schema newer than this abbench is refused with a
 * clear message; nothing is written in that case.
 */
struct store	*store_open(const char *path, int flags, char **cause);
void		 store_close(struct store *st);
/*
 * A run's checkpoints done by a thread of their own (store-ckpt.c), so
 * that no commit of a sample waits for the disk; store_checkpoint_inline
 * (and store_close) end it: SQLite's own checkpoints again.
 */
void		 store_checkpoint_behind(struct store *st);
void		 store_checkpoint_inline(struct store *st);
const char	*store_path(const struct store *st);
/*
 * The SQLite handle behind st, for tests that inspect or damage the file
 * itself. Everything else goes through the functions of this header: SQL
 * lives in results/ only (tests/integration/t0010-layout.sh checks it).
 */
struct sqlite3	*store_db(struct store *st);

/* Run statuses. */
#define RUN_RUNNING	"running"
#define RUN_INTERRUPTED	"interrupted"
#define RUN_DONE	"done"
#define RUN_FAILED	"failed"
#define RUN_IMPORTED	"imported"

struct store_run {
	int64_t	 id;
	char	*uuid;
	char	*name;
	char	*host;
	char	*status;
	int64_t	 started_wall_ns;
	int64_t	 ended_wall_ns;	/* 0 while running */
	char	*order_kind;
	uint64_t seed;
	int	 rounds;
	int	 warmup;
	char	*experiment_path;
	char	*experiment_text;
	char	*abbench_version;
	int64_t	 pid;
	/* pid's start, "BOOT_ID:START" (journal_proc_start); "" if unknown */
	char	*pid_start;
	/* Filled by store_run_get / store_runs_list: */
	char	**arms;		/* NULL-terminated, in baseline-first order */
	size_t	 narms;
	/*
	 * One count everywhere: a sample is one execution of an arm's
	 * workload (a plan entry; each line of an imported file is one), a
	 * value one number it gave (a benchmark and unit).
	 */
	int64_t	 nsamples;	/* executions, warm-up and failed included */
	int64_t	 nfailed;	/* failed or timed-out executions */
	int64_t	 nvalues;	/* values of the ok executions */
};
void	store_run_release(struct store_run *r);
/* "WHAT has no arm 'ARM' (its arms: a, b); did you mean 'a'?" for a run
 * read by store_run_get: malloc'd. */
char	*store_run_no_arm(const struct store_run *r, const char *what,
	    const char *arm);

/*
 * Create a run with its arms: status r->status, or running when NULL; the
 * uuid r->uuid, or a new one (malloc'd into r->uuid, which the caller frees
 * or releases with the run). Sets r->id. Arm names must be distinct.
 */
int	store_run_create(struct store *st, struct store_run *r,
	    const char *const *arms, size_t narms, char **cause);
/*
 * Status moves: running -> interrupted | done | failed; interrupted or
 * failed -> running (resume) | done | failed | interrupted; done and
 * imported are final. Setting the current status again is allowed. Moving
 * to running clears ended_wall_ns.
 */
int	store_run_set_status(struct store *st, int64_t run_id,
	    const char *status, int64_t ended_wall_ns, char **cause);
/*
 * The abbench process running it: its pid, the pid's start (NULL = not
 * known) and its host's name (resume, perhaps on another node, updates
 * them).
 */
int	store_run_set_owner(struct store *st, int64_t run_id, int64_t pid,
	    const char *pid_start, const char *host, char **cause);
/* Config lines: arm NULL or "" for the whole run. Replaces an old value. */
int	store_config_set(struct store *st, int64_t run_id, const char *arm,
	    const char *key, const char *value, char **cause);
/*
 * The run-level config key where `abbench nightly` keeps the rule's state
 * after that night (harness/analysis/nightly-state.h): large and nobody's
 * to read, so store_config_list leaves it out; store_config_get reads it.
 */
#define STORE_KEY_NIGHTLY_STATE	"nightly.state"
/* One config line's value: 1 and *value (malloc'd), 0 none, -1 *cause. */
int	store_config_get(struct store *st, int64_t run_id, const char *arm,
	    const char *key, char **value, char **cause);
/* Remove a config line (none: 0 too). */
int	store_config_unset(struct store *st, int64_t run_id, const char *arm,
	    const char *key, char **cause);
struct store_kv {
	char	*arm;		/* "" = the whole run */
	char	*key;
	char	*value;
};
int	store_config_list(struct store *st, int64_t run_id,
	    struct store_kv **out, size_t *n, char **cause);
void	store_kv_free(struct store_kv *kv, size_t n);
/*
 * Whether a run-level key measures the moment (the load average at the
 * start and at the end, the swap in use, resume.N: who resumed the run
 * and when) or says how the run was measured (set.KEY: the run's
 * --KEY=VALUE, such as set.stop of --until decided) rather than
 * identifying the configuration. Such keys are the run's metadata: stored
 * and shown by `db show` and the report, but never exported as benchfmt
 * config lines, where any difference between two runs would split
 * benchstat's tables (`stat --db` adds one back when a projection or
 * filter names it). Decided by name, so runs stored before the
 * distinction read the same.
 */
int	store_key_is_metadata(const char *key);
/* Unit metadata (benchfmt "Unit U key=value"), e.g. better=higher. */
int	store_unit_set(struct store *st, int64_t run_id, const char *unit,
	    const char *key, const char *value, char **cause);
int	store_unit_list(struct store *st, int64_t run_id,
	    struct store_kv **out /* arm = unit */, size_t *n, char **cause);
int	store_warning_add(struct store *st, int64_t run_id, const char *text,
	    char **cause);
/* A run's warnings in order, NULL-terminated; free each, then the array. */
int	store_warnings_list(struct store *st, int64_t run_id, char ***out,
	    size_t *n, char **cause);

/*
 * Select a run: a numeric id, a UUID prefix (unique), "last", or
 * "NAME@last". Fills *r (with arms and counts).
 */
int	store_run_find(struct store *st, const char *sel, struct store_run *r,
	    char **cause);
int	store_run_get(struct store *st, int64_t id, struct store_run *r,
	    char **cause);
/* All runs, oldest first; free each with store_run_release, then free. */
int	store_runs_list(struct store *st, struct store_run **out, size_t *n,
	    char **cause);
/* The runs named name, in the same order, without their arms and counts
 * (the runs_name index: not every run of the store). */
int	store_runs_named(struct store *st, const char *name,
	    struct store_run **out, size_t *n, char **cause);
/*
 * The counts sample_runs keeps of the runs named name (their executions
 * and ok values), by run id ascending: *out (malloc'd, *n of them; a run
 * without samples has none). What tells that a run's values changed (a
 * night summary, nightly's state).
 */
struct store_run_count {
	int64_t	id, nexec, nok;
};
int	store_run_counts_named(struct store *st, const char *name,
	    struct store_run_count **out, size_t *n, char **cause);
/* The runs whose run-wide config has key = value, in the same order. */
int	store_runs_with(struct store *st, const char *key, const char *value,
	    struct store_run **out, size_t *n, char **cause);
int	store_run_delete(struct store *st, int64_t run_id, char **cause);

/* Sample statuses: as stored (the text of a sample's rows)... */
#define SAMPLE_OK	"ok"
#define SAMPLE_FAILED	"failed"
#define SAMPLE_TIMEOUT	"timeout"
/*
 * Measured while someone else changed a host setting the run had set (its
 * values are kept, but it is not ok: stat leaves it out, report lists it,
 * a make-up round replaces it).
 */
#define SAMPLE_HOST_CHANGED	"host-changed"

/* ...and as a sample is handed to the store (struct store_sample). */
enum sample_status {
	SAMPLE_STATUS_OK,
	SAMPLE_STATUS_FAILED,
	SAMPLE_STATUS_TIMEOUT,
	SAMPLE_STATUS_HOST_CHANGED,
};
/* The stored text of st (SAMPLE_OK...), or NULL when st is none. */
const char	*store_sample_status_text(enum sample_status st);

struct store_metric {
	const char	*benchmark;	/* benchfmt name, e.g. Fio/bs=4k */
	const char	*unit;		/* tidied benchfmt unit */
	double		 value;
};

/*
 * One execution of one workload for one arm: its metrics (possibly none when
 * it failed) go in one transaction. error may be NULL.
 * A failed execution with no metrics is stored as one row with value NULL
 * and benchmark = workload.
 */
struct store_sample {
	int64_t		 run_id;
	int		 plan_idx;	/* index in the run's plan */
	int		 round;
	int		 position;	/* index within the round */
	const char	*arm;
	const char	*workload;
	int		 warmup;
	enum sample_status status;
	const char	*error;
	/* Kept to the microsecond (floored); an execution's later values
	 * (the same plan_idx) share its first ones' round and times. */
	int64_t		 start_ns, end_ns;		/* CLOCK_MONOTONIC */
	int64_t		 start_wall_ns, end_wall_ns;	/* CLOCK_REALTIME */
	const struct store_metric *metrics;
	size_t		 nmetrics;
	/*
	 * The benchfmt config block in force for these metrics, as
	 * "key: value\n" lines in order, when it is not the run's own
	 * config (imported files with several blocks); NULL otherwise.
	 */
	const char	*config;
	/*
	 * benchfmt import: per metric, the unit and value as written in the
	 * file when benchstat's tidying changed them (ns/op -> sec/op), so
	 * that export writes back what the file said (benchstat's .unit
	 * filter matches either). NULL, or a NULL entry: unchanged.
	 */
	const char *const *orig_units;
	const double	*orig_values;
};
int	store_sample_add(struct store *st, const struct store_sample *s,
	    char **cause);
/* The same inside an explicit store_begin/store_commit (several
 * executions that must land together). */
int	store_sample_add_locked(struct store *st, const struct store_sample *s,
	    char **cause);
/*
 * A run's samples appended to a log beside the database (DB-samples.RUN)
 * and committed in batches (store-log.c). store_log_start: the log of
 * run_id, written by store_log_sample from then on (a sample, main_row:
 * its own row is stored, and the benchmarks that failed inside it, each
 * a row of status failed); without a log it commits at once.
 * store_log_flush commits what is pending (before anything reads the
 * run); store_log_end flushes and removes the log (store_close does).
 * store_log_import_run imports a log left by a kill -9 (records whose
 * plan_idx is stored skipped, a torn tail dropped with a warning) and
 * removes it; store_log_import_dead does it for every run whose owner is
 * dead on this host (each read-write open).
 */
char	*store_log_path(const char *db, int64_t run_id);
int	store_log_start(struct store *st, int64_t run_id, char **cause);
int	store_log_sample(struct store *st, const struct store_sample *s,
	    int main_row, const char *const *fail_workloads,
	    const char *const *fail_errors, size_t nfailed, char **cause);
int	store_log_flush(struct store *st, char **cause);
int	store_log_end(struct store *st, char **cause);
int	store_log_import_run(struct store *st, int64_t run_id, char **cause);
int	store_log_import_dead(struct store *st, char **cause);
/*
 * How store_log_import_dead tells a dead owner (pid, its start, the
 * run's host): 1 when it is alive or on another host. Set once by the
 * program (host/journal.c knows); unset, no log is imported but by
 * store_log_import_run.
 */
typedef int	(*store_owner_alive_fn)(int64_t pid, const char *start,
		    const char *host);
void	store_log_set_owner_check(store_owner_alive_fn fn);
/* Is there a log of samples beside db (a run's, live or not)? */
int	store_log_any(const char *db);
/* plan_idx values already stored for a run (for --resume), sorted. */
int	store_done_plan(struct store *st, int64_t run_id, int **idx, size_t *n,
	    char **cause);
/* Is plan_idx among store_done_plan's sorted idx[0..n)? */
int	store_done_contains(const int *idx, size_t n, int plan_idx);
/*
 * The rounds a run took, the one count every output shows: its stored
 * rounds are what it planned (the file's or --rounds; with stop = decided
 * unused by the rule), not what it ran.
 */
struct store_rounds {
	int	planned;	/* the run's rounds */
	int	warmup;
	int	taken;		/* measured rounds its samples reach (make-up
				 * included): highest round + 1 - warmup */
	int	makeup;		/* fixed design: taken beyond planned */
	int	decided;	/* stop = decided: looks stored or set.stop */
	int	good;		/* stop = decided: the most good rounds a row
				 * had at its last look */
};
int	store_run_rounds(struct store *st, const struct store_run *r,
	    struct store_rounds *out, char **cause);
/*
 * "8 good, 9 measured (+0 warm-up; stop = decided)", "10 (+2 make-up, +0
 * warm-up)", "3 of 10 (+0 warm-up)" (ended early) or "10 (+1 warm-up)".
 * Malloc'd.
 */
char	*store_rounds_text(const struct store_rounds *n);
/* store_run_rounds, then its text; "? (why)" when it cannot be read. */
char	*store_run_rounds_text(struct store *st, const struct store_run *r);

/*
 * A row's decision at one look of `stop = decided` (harness/core/verdict.h).
 * round is the run's 0-based round at the end of which the look was made;
 * verdict "different", "equivalent" or "undecided"; mde NAN (stored NULL)
 * unless undecided at the last look. Adding a look already stored (a
 * resumed run replays its looks) replaces it.
 */
struct store_decision {
	char	*workload;
	int	 look;
	int	 good_rounds;
	int	 round;
	char	*benchmark;
	char	*unit;
	char	*arm;
	char	*base_arm;
	char	*verdict;
	char	*test;		/* the test that decided, NULL if unknown */
	double	 p, boundary, mde;
	double	 p_u;		/* the U test's (NAN if not computed) */
	int64_t	 n1, n2;
	struct seq_reopen ro;	/* the row's looks: reopened? (list) */
};
int	store_decision_add(struct store *st, int64_t run_id,
	    const struct store_decision *d, char **cause);
/* The last look of each row (its verdict), in the order of the rows'
 * first looks; ro from all its looks. */
int	store_decisions_list(struct store *st, int64_t run_id,
	    struct store_decision **out, size_t *n, char **cause);
void	store_decisions_free(struct store_decision *d, size_t n);

/* Read back samples (status ok, warm-up excluded unless asked). */
struct store_value {
	char	*arm;
	char	*benchmark;
	char	*unit;
	double	 value;
	int	 round;
	int	 position;
	int	 warmup;
	char	*status;
	char	*error;		/* NULL when ok */
	int64_t	 start_ns, end_ns, start_wall_ns, end_wall_ns;
	char	*config;	/* store_sample.config, or NULL */
	char	*orig_unit;	/* as written if tidying changed it, or NULL */
	double	 orig_value;	/* as written (when orig_unit is set) */
	/* The execution it came from: values of one execution (a gobench
	 * invocation printing a benchmark -count times) share it. */
	int	 plan_idx;
};
enum store_query_flags {
	STORE_Q_WARMUP = 1 << 0,	/* include warm-up samples */
	STORE_Q_FAILED = 1 << 1,	/* include failed rows (value NaN) */
};
/* arm NULL = all arms. Ordered by plan_idx, then insertion. */
int	store_values(struct store *st, int64_t run_id, const char *arm,
	    int flags, struct store_value **out, size_t *n, char **cause);
void	store_values_free(struct store_value *v, size_t n);

/* Ok measured samples per (benchmark, unit, arm), in the order the
 * benchmarks first appear, then by arm. */
struct store_count {
	char	*benchmark;
	char	*unit;
	char	*arm;
	int64_t	 n;
};
int	store_sample_counts(struct store *st, int64_t run_id,
	    struct store_count **out, size_t *n, char **cause);
void	store_counts_free(struct store_count *c, size_t n);
/*
 * Where a run stands: the samples stored (distinct plan entries) and the
 * round (from 0) its next sample belongs to, taking a round as full when
 * it holds as many entries as the run's first round (0 and 0 for a run
 * with no sample).
 */
int	store_run_next_round(struct store *st, int64_t run_id,
	    int64_t *nsamples, int *round, char **cause);

/*
 * The journal of host changes. kind is a host setting name
 * ("host.block.slice_idle") or an object kind ("cgroup", "container",
 * "oci-container", "dir", "loop", "mount": host/hostset.h); target
 * says which (a sysfs path, a cgroup path, a container id). Entries are
 * added before the change is made.
 */
#define JOURNAL_SAVED		"saved"		/* original recorded */
#define JOURNAL_APPLIED		"applied"	/* change made */
#define JOURNAL_RESTORED	"restored"	/* undone */
/* Copied by `db merge` from another host's database: never restored here. */
#define JOURNAL_MERGED		"merged"
struct store_journal {
	int64_t	 id;
	int64_t	 run_id;
	char	*kind;
	char	*name;
	char	*target;
	char	*original;
	char	*applied;
	char	*state;
};
int	store_journal_add(struct store *st, int64_t run_id, const char *kind,
	    const char *name, const char *target, const char *original,
	    int64_t *id, char **cause);
int	store_journal_set_state(struct store *st, int64_t id, const char *state,
	    const char *applied, char **cause);
/* Entries not yet restored (run_id 0 = of every run), newest first. */
int	store_journal_pending(struct store *st, int64_t run_id,
	    struct store_journal **out, size_t *n, char **cause);
int	store_journal_list(struct store *st, int64_t run_id,
	    struct store_journal **out, size_t *n, char **cause);
void	store_journal_free(struct store_journal *j, size_t n);

/*
 * Explicit transactions for bulk work (import, merge). They nest: calls
 * that make their own transaction (store_sample_add, store_run_create...)
 * join an open one; a rollback at any depth undoes the whole transaction
 * (and the outer store_commit then fails).
 */
int	store_begin(struct store *st, char **cause);
int	store_commit(struct store *st, char **cause);
int	store_rollback(struct store *st);

/*
 * `db check`: integrity_check plus abbench's invariants. *problems is a
 * NULL-terminated array of messages (NULL when there are none); free each
 * message, then the array.
 */
int	store_check(struct store *st, char ***problems, size_t *n,
	    char **cause);
/*
 * SQLite's quick_check (cheap: no index cross-check) of every table but
 * the samples' (sample_values, executions: most of a large file): -1
 * with *cause naming the damage when the file cannot be trusted.
 */
int	store_quick_check(struct store *st, char **cause);
/*
 * A run's samples read through, each page checked by SQLite as it reads
 * it: what a command that reads a run relies on besides quick_check. -1
 * with *cause naming the damage.
 */
int	store_check_run(struct store *st, int64_t run_id, char **cause);
/* `db merge`: copy every run of another database not already here (UUID). */
int	store_merge(struct store *st, const char *other_path, int *runs_added,
	    int64_t *samples_added, char **cause);

#endif
