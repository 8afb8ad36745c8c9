/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the results store: create, open, migrate and refuse; runs,
 * config, units, samples and the journal; run selectors; merge; check.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/store.h"
#include "tap.h"
#include "tap-user.h"

static char tmpdir[] = "/tmp/t-store.XXXXXX";

static char *
tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void
write_bytes(const char *path, const void *data, size_t len)
{
	FILE	*fp = fopen(path, "wb");

	if (fp == NULL || fwrite(data, 1, len, fp) != len)
		die("cannot write '%s'", path);
	fclose(fp);
}

static char *
slurp(const char *path, size_t *len)
{
	char	*cause = NULL, *s;

	s = read_file(path, len, &cause);
	if (s == NULL)
		die("%s", cause);
	return s;
}

/* Run SQL on a file with plain sqlite3 (another program, an old abbench). */
static void
raw_sql(const char *path, const char *sql)
{
	sqlite3	*db;
	char	*msg = NULL;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("cannot open '%s'", path);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die("raw sql: %s", msg);
	sqlite3_close(db);
}

/* A cause let go: the next call's is its own. */
static void
drop_cause(char **cause)
{
	free(*cause);
	*cause = NULL;
}

static int64_t
query_int(struct store *st, const char *sql)
{
	sqlite3_stmt	*s;
	int64_t		 v = -1;

	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
		return -2;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static int
contains(const char *s, const char *sub)
{
	return s != NULL && strstr(s, sub) != NULL;
}

/* Open must fail with a message containing want and leave the file as is. */
static void
check_refused(const char *path, int flags, const char *want, const char *what)
{
	struct store	*st;
	char		*cause = NULL, *before, *after;
	size_t		 blen, alen;

	before = slurp(path, &blen);
	st = store_open(path, flags, &cause);
	tap_ok(st == NULL, "%s: refused", what);
	if (!tap_ok(contains(cause, want), "%s: message says '%s'", what,
	    want))
		TAP_DIAG("got '%s'", cause ? cause : "(null)");
	store_close(st);
	after = slurp(path, &alen);
	tap_ok(blen == alen && memcmp(before, after, blen) == 0,
	    "%s: file unchanged", what);
	free(before);
	free(after);
	free(cause);
}

static int64_t
make_run(struct store *st, const char *name, int64_t start,
    const char *const *arms, size_t narms, char **uuid)
{
	struct store_run	 r;
	char			*cause = NULL;

	memset(&r, 0, sizeof r);
	r.name = (char *)name;
	r.host = (char *)"host-a";
	r.started_wall_ns = start;
	r.order_kind = (char *)"alternate";
	r.seed = UINT64_C(0xfedcba9876543210);
	r.rounds = 3;
	r.warmup = 1;
	r.experiment_text = (char *)"[experiment]\nname = x\n";
	if (store_run_create(st, &r, arms, narms, &cause) != 0) {
		TAP_DIAG("run create: %s", cause);
		free(cause);
		return -1;
	}
	if (uuid != NULL)
		*uuid = r.uuid;
	else
		free(r.uuid);
	return r.id;
}

static int
add_sample(struct store *st, int64_t run, int plan, const char *arm,
    double v1, double v2)
{
	struct store_metric	m[2] = {
		{ "Cmd/size=1", "sec/op", v1 },
		{ "Cmd/size=1", "max-rss-B", v2 },
	};
	struct store_sample	s;
	char			*cause = NULL;
	int			 rc;

	memset(&s, 0, sizeof s);
	s.run_id = run;
	s.plan_idx = plan;
	s.round = plan / 2;
	s.position = plan % 2;
	s.arm = arm;
	s.workload = "cmd";
	s.status = SAMPLE_STATUS_OK;
	s.start_ns = 1000 + plan;
	s.end_ns = 2000 + plan;
	s.start_wall_ns = 5000 + plan;
	s.end_wall_ns = 6000 + plan;
	s.metrics = m;
	s.nmetrics = 2;
	rc = store_sample_add(st, &s, &cause);
	if (rc != 0) {
		TAP_DIAG("sample add: %s", cause);
		free(cause);
	}
	return rc;
}

static void
test_create_and_samples(void)
{
	const char *const	 arms[] = { "before", "after" };
	char			*path = tpath("a.db"), *cause = NULL, *uuid;
	struct store		*st;
	struct store_run	 r;
	struct store_kv		*kv;
	struct store_value	*v;
	struct store_sample	 s;
	struct store_metric	 nanm = { "Cmd/size=1", "sec/op", NAN };
	size_t			 n;
	int			*idx;
	int64_t			 run;
	char			**warn;

	st = store_open(path, 0, &cause);
	tap_ok(st == NULL && contains(cause, "no such file"),
	    "open without create of a missing file fails");
	drop_cause(&cause);

	st = store_open(path, STORE_CREATE, &cause);
	if (!tap_ok(st != NULL, "create a database"))
		die("%s", cause);
	tap_int_eq(query_int(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION,
	    "user_version is the schema version");
	tap_int_eq(query_int(st, "PRAGMA application_id"), 0x4142424e,
	    "application_id marks an abbench database");
	tap_int_eq(query_int(st, "PRAGMA foreign_keys"), 1,
	    "foreign keys on");
	tap_int_eq(query_int(st, "PRAGMA synchronous"), 1,
	    "synchronous=NORMAL by default");
	tap_int_eq(query_int(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE name = 'samples'"), 1, "samples table exists");

	run = make_run(st, "quick", 100, arms, 2, &uuid);
	tap_ok(run > 0, "run created");
	tap_ok(uuid != NULL && strlen(uuid) == 36 && uuid[14] == '4',
	    "run has a v4 uuid");

	tap_ok(make_run(st, "dup", 1, (const char *const[]){ "a", "a" }, 2,
	    NULL) < 0, "duplicate arm names refused");

	/* The owner: its pid, the pid's start and its host. */
	tap_ok(store_run_get(st, run, &r, &cause) == 0 && r.pid == 0 &&
	    strcmp(r.pid_start, "") == 0, "a run made without an owner has "
	    "no pid and no start");
	store_run_release(&r);
	tap_ok(store_run_set_owner(st, run, 4242, "b0-1d:\"%<\\77", "host-b",
	    &cause) == 0 && store_run_get(st, run, &r, &cause) == 0 &&
	    r.pid == 4242 && strcmp(r.pid_start, "b0-1d:\"%<\\77") == 0 &&
	    strcmp(r.host, "host-b") == 0, "set_owner stores the pid, its "
	    "start and the host");
	store_run_release(&r);
	tap_ok(store_run_set_owner(st, run, 4243, NULL, "host-a", &cause) ==
	    0 && store_run_get(st, run, &r, &cause) == 0 && r.pid == 4243 &&
	    strcmp(r.pid_start, "") == 0, "set_owner without a start clears "
	    "the old one");
	store_run_release(&r);

	tap_int_eq(store_config_set(st, run, NULL, "goos", "linux", &cause), 0,
	    "config set");
	store_config_set(st, run, "", "kernel", "6.1", &cause);
	store_config_set(st, run, "after", "runtime", "runsc-2", &cause);
	store_config_set(st, run, "before", "runtime", "runsc-1", &cause);
	tap_int_eq(store_config_set(st, run, NULL, "goos", "freebsd", &cause),
	    0, "config overwrite");
	tap_int_eq(store_config_list(st, run, &kv, &n, &cause), 0,
	    "config list");
	tap_int_eq(n, 4, "four config lines");
	if (n == 4) {
		tap_str_eq(kv[0].key, "goos", "overwrite keeps the place");
		tap_str_eq(kv[0].value, "freebsd", "overwrite sets the value");
		tap_str_eq(kv[1].key, "kernel", "run keys in order");
		tap_str_eq(kv[2].arm, "before", "baseline arm's keys first");
		tap_str_eq(kv[3].value, "runsc-2", "then the other arm's");
	}
	store_kv_free(kv, n);

	store_unit_set(st, run, "sec/op", "better", "lower", &cause);
	store_unit_set(st, run, "ops/s", "better", "higher", &cause);
	tap_int_eq(store_unit_list(st, run, &kv, &n, &cause), 0, "unit list");
	tap_ok(n == 2 && strcmp(kv[1].arm, "ops/s") == 0 &&
	    strcmp(kv[1].value, "higher") == 0, "unit metadata read back");
	store_kv_free(kv, n);

	store_warning_add(st, run, "cpu frequency scaling is on", &cause);
	store_warning_add(st, run, "swap is on", &cause);
	tap_int_eq(store_warnings_list(st, run, &warn, &n, &cause), 0,
	    "warnings list");
	tap_ok(n == 2 && strcmp(warn[1], "swap is on") == 0 && warn[2] == NULL,
	    "warnings in order");
	for (size_t i = 0; i < n; i++)
		free(warn[i]);
	free(warn);

	tap_int_eq(add_sample(st, run, 0, "before", 1.5, 100), 0,
	    "sample 0 stored");
	add_sample(st, run, 1, "after", 0.1 + 0.2, 200);
	add_sample(st, run, 3, "before", 1e-300, 300);

	memset(&s, 0, sizeof s);
	s.run_id = run;
	s.plan_idx = 2;
	s.round = 1;
	s.arm = "after";
	s.workload = "cmd";
	s.status = SAMPLE_STATUS_TIMEOUT;
	s.error = "killed by SIGKILL after 10s";
	tap_int_eq(store_sample_add(st, &s, &cause), 0,
	    "failed execution without metrics stored");
	s.plan_idx = 4;
	s.status = SAMPLE_STATUS_OK;
	s.error = NULL;
	s.warmup = 1;
	s.metrics = &nanm;
	s.nmetrics = 1;
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "NaN warm-up stored");

	{
		struct store_metric	 om = { "Enc-8", "sec/op", 1.5e-7 };
		const char		*ou[] = { "ns/op" };
		double			 ov[] = { 150 };
		struct store_sample	 s2 = s;

		s2.plan_idx = 5;
		s2.warmup = 0;
		s2.metrics = &om;
		s2.orig_units = ou;
		s2.orig_values = ov;
		tap_int_eq(store_sample_add(st, &s2, &cause), 0,
		    "sample with its unit as written stored");
	}

	s.arm = "nosuch";
	s.warmup = 0;
	tap_int_eq(store_sample_add(st, &s, &cause), -1,
	    "sample of an unknown arm refused");
	tap_ok(contains(cause, "no arm 'nosuch'"), "message names the arm");
	drop_cause(&cause);
	{
		/*
		 * Arms are looked up once per run: a rollback that takes a
		 * run and its arms away must not leave them known (the next
		 * run may get the same id).
		 */
		int64_t	gone, again;

		store_begin(st, NULL);
		gone = make_run(st, "gone", 400, (const char *const[]){ "x" },
		    1, NULL);
		tap_int_eq(add_sample(st, gone, 0, "x", 1, 1), 0,
		    "a sample of a run made in the same transaction");
		store_rollback(st);
		again = make_run(st, "again", 500, (const char *const[]){ "y" },
		    1, NULL);
		if (again != gone)
			TAP_DIAG("run ids %lld then %lld", (long long)gone,
			    (long long)again);
		tap_int_eq(add_sample(st, again, 0, "x", 1, 1), -1,
		    "after its rollback, the arm it had is unknown again");
		tap_int_eq(add_sample(st, again, 1, "y", 1, 1), 0,
		    "the new run's arm is known");
		tap_int_eq(add_sample(st, again, 2, "y", 1, 1), 0,
		    "and again, from what was seen");
	}
	s.arm = "after";
	s.status = (enum sample_status)7;
	tap_int_eq(store_sample_add(st, &s, &cause), -1, "bad status refused");
	tap_ok(contains(cause, "unknown sample status 7"),
	    "message names the status");
	drop_cause(&cause);

	tap_int_eq(store_values(st, run, NULL, 0, &v, &n, &cause), 0,
	    "values read");
	tap_int_eq(n, 7, "ok non-warm-up values");
	if (n == 7) {
		tap_str_eq(v[6].unit, "sec/op", "tidied unit");
		tap_str_eq(v[6].orig_unit, "ns/op", "unit as written");
		tap_ok(v[6].value == 1.5e-7 && v[6].orig_value == 150,
		    "both values kept");
		tap_ok(v[5].orig_unit == NULL, "no unit as written otherwise");
		tap_str_eq(v[0].arm, "before", "first value's arm");
		tap_str_eq(v[1].unit, "max-rss-B", "second metric's unit");
		tap_ok(v[2].value == 0.1 + 0.2, "value exact");
		tap_ok(v[4].value == 1e-300, "tiny value exact");
		/* Times are kept to the microsecond (floored). */
		tap_int_eq(v[4].start_wall_ns, 5000, "wall start, to the us");
		tap_int_eq(v[4].round, 1, "round");
		tap_ok(v[0].error == NULL && v[0].config == NULL,
		    "no error, no config block");
	}
	store_values_free(v, n);
	store_values(st, run, "after", STORE_Q_FAILED | STORE_Q_WARMUP, &v,
	    &n, &cause);
	tap_int_eq(n, 5, "one arm with failed and warm-up rows");
	if (n == 5) {
		tap_str_eq(v[2].status, "timeout", "failed row status");
		tap_ok(isnan(v[2].value), "failed row value is NaN");
		tap_str_eq(v[2].benchmark, "cmd", "failed row named after "
		    "the workload");
		tap_str_eq(v[2].error, "killed by SIGKILL after 10s",
		    "failed row error");
		tap_ok(isnan(v[3].value) && v[3].warmup == 1 &&
		    strcmp(v[3].status, "ok") == 0, "NaN ok value read back");
	}
	store_values_free(v, n);

	tap_int_eq(store_done_plan(st, run, &idx, &n, &cause), 0, "done plan");
	tap_ok(n == 6 && idx[0] == 0 && idx[1] == 1 && idx[2] == 2 &&
	    idx[3] == 3 && idx[4] == 4 && idx[5] == 5, "done plan is 0..5");
	free(idx);

	tap_int_eq(store_run_get(st, run, &r, &cause), 0, "run get");
	tap_str_eq(r.status, "running", "new run is running");
	tap_ok(r.seed == UINT64_C(0xfedcba9876543210), "64-bit seed kept");
	/* 9 rows of 6 executions (plan entries 0..5), one failed. */
	tap_int_eq(r.nsamples, 6, "samples: executions, not rows");
	tap_int_eq(r.nfailed, 1, "failed executions");
	tap_int_eq(r.nvalues, 8, "values: the ok rows");
	tap_ok(r.narms == 2 && strcmp(r.arms[1], "after") == 0 &&
	    r.arms[2] == NULL, "arms in order");
	tap_str_eq(r.experiment_text, "[experiment]\nname = x\n",
	    "experiment text kept");
	store_run_release(&r);

	tap_int_eq(store_run_set_status(st, run, RUN_INTERRUPTED, 900, &cause),
	    0, "running -> interrupted");
	tap_int_eq(store_run_set_status(st, run, RUN_RUNNING, 0, &cause), 0,
	    "interrupted -> running (resume)");
	tap_int_eq(store_run_set_status(st, run, RUN_DONE, 1000, &cause), 0,
	    "running -> done");
	tap_int_eq(store_run_set_status(st, run, RUN_RUNNING, 0, &cause), -1,
	    "done -> running refused");
	tap_ok(contains(cause, "from 'done' to 'running'"), "message says so");
	drop_cause(&cause);
	store_run_get(st, run, &r, &cause);
	tap_int_eq(r.ended_wall_ns, 1000, "ended time set");
	store_run_release(&r);

	/* Nested transactions: a rollback undoes the samples added in it. */
	store_begin(st, &cause);
	add_sample(st, run, 10, "before", 1, 2);
	store_rollback(st);
	tap_int_eq(query_int(st, "SELECT count(*) FROM samples WHERE"
	    " plan_idx = 10"), 0, "rolled-back sample is gone");

	free(uuid);
	store_close(st);
	free(path);
}

static void
test_journal(void)
{
	char			*path = tpath("j.db"), *cause = NULL;
	struct store		*st = store_open(path, STORE_CREATE, &cause);
	struct store_journal	*j;
	size_t			 n;
	int64_t			 run, id1, id2, id3;

	run = make_run(st, "j", 1, (const char *const[]){ "a" }, 1, NULL);
	tap_int_eq(store_journal_add(st, run, "host.block.slice_idle",
	    "slice_idle", "/sys/block/sda/queue/iosched/slice_idle", "8", &id1,
	    &cause), 0, "journal add");
	store_journal_add(st, run, "cgroup", "", "abbench-1234/a", NULL, &id2,
	    &cause);
	store_journal_add(st, 0, "dir", "", "/tmp/x", NULL, &id3, &cause);
	tap_int_eq(store_journal_set_state(st, id1, JOURNAL_APPLIED, "0",
	    &cause), 0, "journal applied");
	store_journal_set_state(st, id2, JOURNAL_RESTORED, NULL, &cause);
	tap_int_eq(store_journal_set_state(st, id1, "bogus", NULL, &cause), -1,
	    "bad journal state refused");
	drop_cause(&cause);
	tap_int_eq(store_journal_pending(st, 0, &j, &n, &cause), 0,
	    "journal pending");
	tap_ok(n == 2 && j[0].id == id3 && j[1].id == id1,
	    "pending newest first, restored left out");
	if (n == 2) {
		tap_str_eq(j[1].original, "8", "original value kept");
		tap_str_eq(j[1].applied, "0", "applied value kept");
		tap_int_eq(j[0].run_id, 0, "entry without a run");
	}
	store_journal_free(j, n);
	store_journal_pending(st, run, &j, &n, &cause);
	tap_int_eq(n, 1, "pending of one run");
	store_journal_free(j, n);
	store_journal_list(st, run, &j, &n, &cause);
	tap_ok(n == 2 && strcmp(j[1].state, "restored") == 0,
	    "list has restored entries too");
	store_journal_free(j, n);
	tap_int_eq(store_run_delete(st, run, &cause), -1,
	    "cannot delete a run with host changes to restore");
	tap_ok(contains(cause, "abbench restore"), "message says what to do");
	drop_cause(&cause);
	store_journal_set_state(st, id1, JOURNAL_RESTORED, NULL, &cause);
	tap_int_eq(store_run_delete(st, run, &cause), 0, "then it can");
	tap_int_eq(query_int(st, "SELECT count(*) FROM journal"), 1,
	    "its journal went with it");
	store_close(st);
	free(path);
}

static void
test_find(void)
{
	char			*path = tpath("f.db"), *cause = NULL, *u1, *u2;
	char			*u3;
	char			 pre[16], sel[64], sql[128];
	struct store		*st = store_open(path, STORE_CREATE, &cause);
	struct store_run	 r;
	const char *const	 arms[] = { "a" };
	int64_t			 r1, r2, r3, r4, r5;
	size_t			 k;

	tap_int_eq(store_run_find(st, "last", &r, &cause), -1,
	    "last in an empty database");
	drop_cause(&cause);
	r1 = make_run(st, "exp1", 300, arms, 1, &u1);
	r2 = make_run(st, "exp2", 200, arms, 1, &u2);
	r3 = make_run(st, "exp1", 100, arms, 1, &u3);
	tap_int_eq(store_run_find(st, "last", &r, &cause), 0, "find last");
	tap_int_eq(r.id, r1, "last is the latest start");
	store_run_release(&r);
	store_run_find(st, "exp1@last", &r, &cause);
	tap_int_eq(r.id, r1, "name@last");
	store_run_release(&r);
	snprintf(sel, sizeof sel, "%lld", (long long)r3);
	store_run_find(st, sel, &r, &cause);
	tap_int_eq(r.id, r3, "numeric id");
	store_run_release(&r);
	memcpy(pre, u2, 8);
	pre[8] = '\0';
	tap_int_eq(store_run_find(st, pre, &r, &cause), 0, "uuid prefix");
	tap_int_eq(r.id, r2, "uuid prefix finds its run");
	store_run_release(&r);
	tap_int_eq(store_run_find(st, u1, &r, &cause), 0, "full uuid");
	tap_int_eq(r.id, r1, "full uuid finds its run");
	store_run_release(&r);
	tap_int_eq(store_run_find(st, "nosuch@last", &r, &cause), -1,
	    "unknown experiment");
	tap_ok(contains(cause, "'nosuch'"), "message names it");
	drop_cause(&cause);
	tap_int_eq(store_run_find(st, "zzz", &r, &cause), -1, "garbage");
	drop_cause(&cause);
	/*
	 * Shorter than 4 characters is not a uuid prefix, even when a run's
	 * uuid starts with it: "99" that is no id is no run. Of a random
	 * uuid, the first 3 characters are digits about once in 4, and then
	 * they are an id ("003" is run 3: once in ~1400 runs of this test);
	 * r3's uuid starts with letters here, in the database and in u3.
	 */
	snprintf(sql, sizeof sql, "UPDATE runs SET uuid = 'abc' || "
	    "substr(uuid, 4) WHERE id = %lld", (long long)r3);
	tap_int_eq(sqlite3_exec(store_db(st), sql, NULL, NULL, NULL),
	    SQLITE_OK, "r3's uuid made to start with letters");
	memcpy(u3, "abc", 3);
	snprintf(sel, sizeof sel, "%.3s", u3);
	tap_int_eq(store_run_find(st, sel, &r, &cause), -1,
	    "a 3-character uuid prefix is refused");
	tap_ok(cause != NULL && contains(cause, "4 or more"),
	    "the message says a prefix needs 4 characters");
	drop_cause(&cause);
	snprintf(sel, sizeof sel, "%.4s", u1);
	tap_ok(store_run_find(st, sel, &r, &cause) == 0 ||
	    (cause != NULL && contains(cause, "ambiguous")),
	    "4 characters are a uuid prefix");
	store_run_release(&r);
	drop_cause(&cause);
	tap_int_eq(store_run_find(st, "exp1@first", &r, &cause), -1,
	    "bad @ form");
	drop_cause(&cause);
	/*
	 * The uuids are random: take the shortest prefix of u1, of 4 or more
	 * characters, that the others do not share and that is not all digits
	 * (an id).
	 */
	for (k = 4; k < strlen(u1); k++) {
		if (strncmp(u1, u2, k) != 0 && strncmp(u1, u3, k) != 0 &&
		    strspn(u1, "0123456789") < k)
			break;
	}
	snprintf(sel, sizeof sel, "%.*s", (int)k, u1);
	if (!tap_ok(store_run_find(st, sel, &r, &cause) == 0,
	    "short prefix '%s'", sel))
		TAP_DIAG("%s", cause);
	tap_int_eq(r.id, r1, "short prefix finds its run");
	store_run_release(&r);
	drop_cause(&cause);
	/* Two runs whose uuids share a prefix no random one has. */
	r4 = make_run(st, "exp3", 50, arms, 1, NULL);
	r5 = make_run(st, "exp3", 60, arms, 1, NULL);
	snprintf(sql, sizeof sql, "UPDATE runs SET uuid = 'ebbe0000-' ||"
	    " id WHERE id IN (%lld, %lld)", (long long)r4, (long long)r5);
	tap_int_eq(sqlite3_exec(store_db(st), sql, NULL, NULL, NULL),
	    SQLITE_OK, "two runs given uuids with a common prefix");
	tap_int_eq(store_run_find(st, "ebbe", &r, &cause), -1,
	    "ambiguous prefix refused");
	tap_ok(contains(cause, "ambiguous"), "message says ambiguous");
	drop_cause(&cause);
	snprintf(sel, sizeof sel, "ebbe0000-%lld", (long long)r5);
	store_run_find(st, sel, &r, &cause);
	tap_int_eq(r.id, r5, "the longer prefix is not ambiguous");
	store_run_release(&r);
	drop_cause(&cause);
	free(u1);
	free(u2);
	free(u3);
	store_close(st);
	free(path);
}

static void
test_merge_and_check(void)
{
	char			*pa = tpath("host-a.db");
	char			*pb = tpath("host-b.db");
	char			*cause = NULL, **problems;
	const char *const	 arms[] = { "before", "after" };
	struct store		*a, *b;
	int64_t			 ra, rb, added;
	int			 runs;
	size_t			 n, i;

	a = store_open(pa, STORE_CREATE, &cause);
	b = store_open(pb, STORE_CREATE, &cause);
	ra = make_run(a, "exp", 10, arms, 2, NULL);
	rb = make_run(b, "exp", 20, arms, 2, NULL);
	for (i = 0; i < 4; i++)
		add_sample(a, ra, (int)i, arms[i % 2], 1.0 + (double)i, 10);
	for (i = 0; i < 6; i++)
		add_sample(b, rb, (int)i, arms[i % 2], 2.0 + (double)i, 20);
	store_config_set(b, rb, NULL, "vcpus", "192", &cause);
	store_journal_add(b, rb, "host.block.slice_idle", "slice_idle", "/x",
	    "8", NULL, &cause);
	store_run_set_owner(b, rb, 77, "boot-b:9", "host-b", &cause);
	store_close(b);

	tap_int_eq(store_merge(a, pb, &runs, &added, &cause), 0, "merge");
	tap_int_eq(runs, 1, "one run added");
	tap_int_eq(added, 12, "its 12 samples added");
	tap_int_eq(query_int(a, "SELECT count(*) FROM samples"), 8 + 12,
	    "counts add up");
	tap_int_eq(query_int(a, "SELECT count(*) FROM run_config WHERE"
	    " value = '192'"), 1, "config merged");
	tap_int_eq(query_int(a, "SELECT count(*) FROM journal WHERE"
	    " state = 'merged'"), 1, "journal merged as history");
	tap_int_eq(query_int(a, "SELECT count(*) FROM runs WHERE pid = 77"
	    " AND pid_start = 'boot-b:9' AND host = 'host-b'"), 1,
	    "the run's owner merged: pid, start and host");
	tap_int_eq(store_merge(a, pb, &runs, &added, &cause), 0,
	    "merge again");
	tap_ok(runs == 0 && added == 0, "merging again adds nothing");
	tap_int_eq(query_int(a, "SELECT count(*) FROM samples"), 20,
	    "counts unchanged");
	tap_int_eq(store_merge(a, pa, &runs, &added, &cause), -1,
	    "merge into itself refused");
	drop_cause(&cause);

	tap_int_eq(store_check(a, &problems, &n, &cause), 0, "check runs");
	tap_int_eq(n, 0, "a clean database has no problems");
	for (i = 0; i < n; i++) {
		TAP_DIAG("%s", problems[i]);
		free(problems[i]);
	}
	free(problems);

	/* Break invariants behind the API's back. */
	sqlite3_exec(store_db(a), "PRAGMA foreign_keys = OFF;"
	    " UPDATE sample_values SET status = 9 WHERE run_id = 1 AND"
	    " plan_idx = 0 AND k = 0;"
	    " UPDATE series SET arm = 'ghost' WHERE id = (SELECT series_id"
	    " FROM sample_values WHERE run_id = 1 AND plan_idx = 1);"
	    " UPDATE executions SET nx = 2 WHERE run_id = 1 AND plan_idx = 0;",
	    NULL, NULL, NULL);
	store_check(a, &problems, &n, &cause);
	tap_ok(n >= 3, "broken rows found (%zu problems)", n);
	{
		int bad_status = 0, ghost = 0, dup = 0;

		for (i = 0; i < n; i++) {
			bad_status |= contains(problems[i], "'bad status 9'");
			ghost |= contains(problems[i], "'ghost'");
			dup |= contains(problems[i], "plan entry 0 has ok") &&
			    contains(problems[i], "from 2 executions");
			free(problems[i]);
		}
		free(problems);
		tap_ok(bad_status, "bad status reported");
		tap_ok(ghost, "sample of a missing arm reported");
		tap_ok(dup, "duplicate ok sample reported");
	}
	store_close(a);
	free(pa);
	free(pb);
}

/* The v1 schema as abbench 0.1 wrote it, data included. */
static const char v1_script[] =
    "PRAGMA journal_mode = WAL;"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,"
    " name TEXT NOT NULL DEFAULT '', host TEXT NOT NULL DEFAULT '',"
    " status TEXT NOT NULL, started_wall_ns INTEGER NOT NULL DEFAULT 0,"
    " ended_wall_ns INTEGER NOT NULL DEFAULT 0, order_kind TEXT NOT NULL"
    " DEFAULT '', seed INTEGER NOT NULL DEFAULT 0, rounds INTEGER NOT NULL"
    " DEFAULT 0, warmup INTEGER NOT NULL DEFAULT 0, experiment_path TEXT NOT"
    " NULL DEFAULT '', experiment_text TEXT NOT NULL DEFAULT '',"
    " abbench_version TEXT NOT NULL DEFAULT '', pid INTEGER NOT NULL"
    " DEFAULT 0);"
    "CREATE INDEX runs_name ON runs(name, started_wall_ns);"
    "CREATE TABLE arms (run_id INTEGER NOT NULL REFERENCES runs(id) ON"
    " DELETE CASCADE, idx INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY"
    " (run_id, idx), UNIQUE (run_id, name));"
    "CREATE TABLE run_config (run_id INTEGER NOT NULL REFERENCES runs(id) ON"
    " DELETE CASCADE, arm TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL,"
    " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, arm,"
    " key));"
    "CREATE TABLE units (run_id INTEGER NOT NULL REFERENCES runs(id) ON"
    " DELETE CASCADE, seq INTEGER NOT NULL, unit TEXT NOT NULL, key TEXT NOT"
    " NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, unit, key));"
    "CREATE TABLE sample_configs (id INTEGER PRIMARY KEY, run_id INTEGER NOT"
    " NULL REFERENCES runs(id) ON DELETE CASCADE, text TEXT NOT NULL,"
    " UNIQUE (run_id, text));"
    "CREATE TABLE samples (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL"
    " REFERENCES runs(id) ON DELETE CASCADE, plan_idx INTEGER NOT NULL,"
    " round INTEGER NOT NULL, position INTEGER NOT NULL, arm TEXT NOT NULL,"
    " workload TEXT NOT NULL DEFAULT '', benchmark TEXT NOT NULL, unit TEXT"
    " NOT NULL DEFAULT '', value REAL, status TEXT NOT NULL, warmup INTEGER"
    " NOT NULL DEFAULT 0, start_ns INTEGER NOT NULL DEFAULT 0, end_ns"
    " INTEGER NOT NULL DEFAULT 0, start_wall_ns INTEGER NOT NULL DEFAULT 0,"
    " end_wall_ns INTEGER NOT NULL DEFAULT 0, error TEXT, config_id INTEGER"
    " REFERENCES sample_configs(id));"
    "CREATE INDEX samples_run ON samples(run_id, plan_idx);"
    "CREATE TABLE journal (id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES"
    " runs(id) ON DELETE CASCADE, seq INTEGER NOT NULL, kind TEXT NOT NULL,"
    " name TEXT NOT NULL DEFAULT '', target TEXT NOT NULL DEFAULT '',"
    " original TEXT, applied TEXT, state TEXT NOT NULL);"
    "CREATE INDEX journal_run ON journal(run_id);"
    "CREATE TABLE warnings (run_id INTEGER NOT NULL REFERENCES runs(id) ON"
    " DELETE CASCADE, seq INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY"
    " (run_id, seq));"
    "INSERT INTO runs (id, uuid, name, status, started_wall_ns) VALUES (7,"
    " '0b7e2a4c-1111-4222-8333-444455556666', 'old', 'done', 42);"
    "INSERT INTO arms VALUES (7, 0, 'base');"
    "INSERT INTO samples (run_id, plan_idx, round, position, arm, benchmark,"
    " unit, value, status) VALUES (7, 0, 0, 0, 'base', 'X', 'sec/op', 2.5,"
    " 'ok');"
    "PRAGMA application_id = 1094861390;"
    "PRAGMA user_version = 1;";

/* An unwritable v1 database opened read-only: refused, left alone. */
static void
refuse_v1_ro(void *p)
{
	check_refused(p, STORE_READONLY, "schema version 1 and needs an "
	    "upgrade, but it cannot be written", "unwritable v1 database "
	    "opened read-only");
}

static void
test_open_refuse(void)
{
	char			*p, *cause = NULL, *data;
	struct store		*st;
	struct store_run	 r;
	struct store_value	*v;
	size_t			 len;
	FILE			*fp;

	/*
	 * A read-only command migrates an older database it can write;
	 * one it cannot write is refused and left alone (root can write
	 * anything, so that half runs as nobody then).
	 */
	p = tpath("v1-ro.db");
	raw_sql(p, v1_script);
	if (chmod(p, 0444) != 0 || chmod(tmpdir, 0711) != 0)
		die("cannot chmod '%s'", p);
	tap_unprivileged(refuse_v1_ro, p, 3);
	if (chmod(p, 0644) != 0 || chmod(tmpdir, 0700) != 0)
		die("cannot chmod '%s'", p);
	st = store_open(p, STORE_READONLY, &cause);
	if (!tap_ok(st != NULL, "v1 database opened read-only: migrated"))
		TAP_DIAG("%s", cause);
	drop_cause(&cause);
	if (st != NULL)
		tap_int_eq(query_int(st, "PRAGMA user_version"),
		    STORE_SCHEMA_VERSION, "read-only open: current version");
	store_close(st);
	free(p);

	/* A database written by an older abbench (v1) is migrated. */
	p = tpath("v1.db");
	raw_sql(p, v1_script);
	st = store_open(p, 0, &cause);
	if (!tap_ok(st != NULL, "a v1 database opens for writing"))
		TAP_DIAG("%s", cause);
	if (st != NULL) {
		tap_int_eq(query_int(st, "PRAGMA user_version"),
		    STORE_SCHEMA_VERSION, "migrated to the current version");
		tap_int_eq(query_int(st, "SELECT count(*) FROM"
		    " pragma_table_info('samples') WHERE name IN ('orig_unit',"
		    " 'orig_value')"), 2, "v2 columns added");
		tap_int_eq(store_run_find(st, "old@last", &r, &cause), 0,
		    "its run is found");
		tap_str_eq(r.pid_start, "", "v7: its owner's start is not "
		    "known");
		tap_int_eq(r.nsamples, 1, "its sample is there");
		store_run_release(&r);
		tap_int_eq(store_values(st, 7, NULL, 0, &v, &len, &cause), 0,
		    "its values read");
		tap_ok(len == 1 && v[0].value == 2.5 && v[0].orig_unit == NULL,
		    "its value is intact");
		store_values_free(v, len);
	}
	store_close(st);
	st = store_open(p, STORE_READONLY, &cause);
	tap_ok(st != NULL, "after migration it opens read-only");
	store_close(st);
	free(p);

	/* An empty SQLite database (version 0) is set up. */
	p = tpath("v0.db");
	raw_sql(p, "PRAGMA user_version = 0;");
	st = store_open(p, STORE_CREATE, &cause);
	tap_ok(st != NULL, "an empty SQLite file is set up");
	if (st != NULL)
		tap_int_eq(query_int(st, "PRAGMA user_version"),
		    STORE_SCHEMA_VERSION, "migrated 0 -> current");
	store_close(st);
	free(p);

	/* A newer schema is refused. */
	p = tpath("new.db");
	raw_sql(p, v1_script);
	raw_sql(p, "PRAGMA user_version = 99;");
	check_refused(p, 0, "schema version 99, newer than this abbench",
	    "newer schema");
	check_refused(p, STORE_READONLY, "newer than this abbench",
	    "newer schema, read-only");
	free(p);

	/* Another program's database. */
	p = tpath("other.db");
	raw_sql(p, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url);"
	    "INSERT INTO moz_places (url) VALUES ('https://example.com');");
	check_refused(p, STORE_CREATE, "not an abbench database", "other "
	    "program's database");
	free(p);
	p = tpath("other2.db");
	raw_sql(p, "PRAGMA application_id = 1234; CREATE TABLE t (x);");
	check_refused(p, STORE_CREATE, "application id", "other program "
	    "with an application id");
	free(p);

	/* A text file. */
	p = tpath("notes.txt");
	write_bytes(p, "goos: linux\nBenchmarkX 1 2 ns/op\n", 32);
	check_refused(p, STORE_CREATE, "not an abbench database (not an "
	    "SQLite", "text file");
	free(p);

	/* A truncated database: half of a real one. */
	p = tpath("trunc.db");
	st = store_open(p, STORE_CREATE, &cause);
	for (int i = 0; i < 50; i++)
		make_run(st, "fill", i, (const char *const[]){ "a", "b" }, 2,
		    NULL);
	store_close(st);
	data = slurp(p, &len);
	tap_ok(len >= 8192, "database has several pages (%zu bytes)", len);
	fp = fopen(p, "wb");
	fwrite(data, 1, len / 2 + 100, fp);
	fclose(fp);
	free(data);
	check_refused(p, STORE_CREATE, "truncated or corrupt", "truncated");
	free(p);
	p = tpath("tiny.db");
	write_bytes(p, "SQLite format 3\0\x10\0", 18);
	check_refused(p, STORE_CREATE, "truncated", "header only");
	free(p);

	/* Read-only opening never creates. */
	p = tpath("missing.db");
	st = store_open(p, STORE_READONLY | STORE_CREATE, &cause);
	tap_ok(st == NULL && access(p, F_OK) != 0,
	    "read-only open of a missing file fails without creating it");
	drop_cause(&cause);
	free(p);

	/* A read-only handle cannot write. */
	p = tpath("a.db");
	st = store_open(p, STORE_READONLY, &cause);
	tap_ok(st != NULL, "read-only open");
	if (st != NULL) {
		tap_int_eq(store_config_set(st, 1, NULL, "k", "v", &cause), -1,
		    "read-only handle refuses writes");
		free(cause);
		cause = NULL;
	}
	store_close(st);
	free(p);
}

/* A runner's run exported: run config, then each arm's own keys. */
static void
test_export(void)
{
	const char *const	 arms[] = { "base", "new" };
	char			*path = tpath("x.db"), *cause = NULL;
	struct store		*st = store_open(path, STORE_CREATE, &cause);
	struct strbuf		 out = STRBUF_INIT;
	int64_t			 run;

	run = make_run(st, "x", 1, arms, 2, NULL);
	store_config_set(st, run, NULL, "goos", "linux", &cause);
	store_config_set(st, run, NULL, "vcpus", "2", &cause);
	store_config_set(st, run, "base", "runtime", "runc 1.1", &cause);
	store_config_set(st, run, "new", "runtime", "runsc 2024", &cause);
	store_config_set(st, run, NULL, "Bad Key", "a\nb", &cause);
	store_unit_set(st, run, "sec/op", "better", "lower", &cause);
	add_sample(st, run, 0, "base", 0.1, 1024);
	add_sample(st, run, 1, "new", 0.2, 2048);
	add_sample(st, run, 2, "new", 1.0 / 3, 4096);
	add_sample(st, run, 3, "base", 1e21, 0);

	tap_int_eq(export_run_benchfmt(st, run, "new", &out, &cause), 0,
	    "export one arm");
	tap_str_eq(out.buf,
	    "Unit sec/op better=lower\n"
	    "goos: linux\n"
	    "vcpus: 2\n"
	    "bad-key: a b\n"
	    "runtime: runsc 2024\n"
	    "BenchmarkCmd/size=1 1 0.2 sec/op 2048 max-rss-B\n"
	    "BenchmarkCmd/size=1 1 0.3333333333333333 sec/op 4096 max-rss-B\n", "one arm's benchfmt");
	strbuf_reset(&out);
	tap_int_eq(export_run_benchfmt(st, run, NULL, &out, &cause), 0,
	    "export all arms");
	tap_str_eq(out.buf,
	    "Unit sec/op better=lower\n"
	    "goos: linux\n"
	    "vcpus: 2\n"
	    "bad-key: a b\n"
	    "runtime: runc 1.1\n"
	    "arm: base\n"
	    "BenchmarkCmd/size=1 1 0.1 sec/op 1024 max-rss-B\n"
	    "BenchmarkCmd/size=1 1 1e+21 sec/op 0 max-rss-B\n"
	    "runtime: runsc 2024\n"
	    "arm: new\n"
	    "BenchmarkCmd/size=1 1 0.2 sec/op 2048 max-rss-B\n"
	    "BenchmarkCmd/size=1 1 0.3333333333333333 sec/op 4096 max-rss-B\n",
	    "all arms, tagged, baseline first, config changes written "
	    "as they happen");
	strbuf_reset(&out);
	tap_int_eq(export_run_benchfmt(st, run, "nosuch", &out, &cause), -1,
	    "export of an unknown arm fails");
	free(cause);
	strbuf_release(&out);

	{
		char *const	 args[] = { "a.txt", "b=x.txt", "a.txt", "=e" };
		struct strvec	 l = STRVEC_INIT, p = STRVEC_INIT;
		char		*f;

		import_labels(args, 4, &l, &p);
		tap_ok(l.n == 4 && strcmp(l.v[0], "a.txt#0") == 0 &&
		    strcmp(l.v[1], "b") == 0 &&
		    strcmp(l.v[2], "a.txt#1") == 0 &&
		    strcmp(l.v[3], "") == 0 && strcmp(p.v[1], "x.txt") == 0,
		    "labels as benchstat gives them");
		strvec_clear(&l);
		strvec_clear(&p);
		f = export_arm_filename("old.txt");
		tap_str_eq(f, "old.txt", "arm ending in .txt keeps its name");
		free(f);
		f = export_arm_filename("a/b");
		tap_str_eq(f, "a_b.txt", "slashes replaced, .txt added");
		free(f);
		f = export_arm_filename("");
		tap_str_eq(f, "_.txt", "empty arm name");
		free(f);
	}
	store_close(st);
	free(path);
}

/* The load of the moment is metadata; what identifies a host is not. */
static void
test_metadata_keys(void)
{
	tap_ok(store_key_is_metadata("load-avg"), "load-avg is metadata");
	tap_ok(store_key_is_metadata("load-avg-end"), "load-avg-end too");
	tap_ok(store_key_is_metadata("swap-used"), "swap-used too");
	tap_ok(store_key_is_metadata("pressure"), "pressure too");
	tap_ok(!store_key_is_metadata("kernel"), "kernel is config");
	tap_ok(!store_key_is_metadata("vcpus"), "vcpus is config");
	tap_ok(!store_key_is_metadata("swap-total"), "swap-total is config");
	tap_ok(!store_key_is_metadata("load-avg-x"), "names match whole");
	tap_ok(store_key_is_metadata("moved.1"), "moved.N is metadata");
	tap_ok(store_key_is_metadata("resume.2"), "resume.N too");
}

/* Where a run resumes: the samples stored and the round of the next. */
static void
test_next_round(void)
{
	const char *const	 arms[] = { "before", "after" };
	char			*path = tpath("round.db"), *cause = NULL;
	struct store		*st;
	int64_t			 run, ns;
	int			 round, i;

	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	run = make_run(st, "rounds", 4, arms, 2, NULL);
	tap_ok(store_run_next_round(st, run, &ns, &round, &cause) == 0 &&
	    ns == 0 && round == 0, "no sample: round 0 next");
	/* Two entries a round (add_sample: round = plan / 2). */
	add_sample(st, run, 0, "before", 1, 2);
	add_sample(st, run, 1, "after", 1, 2);
	add_sample(st, run, 2, "before", 1, 2);
	tap_ok(store_run_next_round(st, run, &ns, &round, &cause) == 0 &&
	    ns == 3 && round == 1, "3 samples, round 1 half done: round 1 "
	    "next");
	add_sample(st, run, 3, "after", 1, 2);
	tap_ok(store_run_next_round(st, run, &ns, &round, &cause) == 0 &&
	    ns == 4 && round == 2, "4 samples, rounds 0 and 1 full: round 2 "
	    "next");
	for (i = 4; i < 8; i++)
		add_sample(st, run, i, i % 2 ? "after" : "before", 1, 2);
	tap_ok(store_run_next_round(st, run, &ns, &round, &cause) == 0 &&
	    ns == 8 && round == 4, "all 8: past the last round");
	store_close(st);
	free(path);
}

/*
 * Schema 9 keeps an execution's round, position and times once: more
 * values of one execution stored later (the runner's failed benchmarks
 * inside a sample) continue its places and counts; its times read back
 * to the microsecond; an execution stored again with other times is
 * what db check reports.
 */
static void
test_executions(void)
{
	const char *const	 arms[] = { "a", "b" };
	struct store_metric	 m[2] = {
		{ "W", "sec/op", 0.5 }, { "W", "max-rss-B", 1e6 },
	};
	char			*path = tpath("exec.db"), *cause = NULL;
	char			**problems = NULL;
	struct store		*st;
	struct store_sample	 s;
	struct store_value	*v = NULL;
	struct store_run	 r;
	size_t			 n = 0, i;
	int64_t			 run;

	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	run = make_run(st, "exec", 7, arms, 2, NULL);
	memset(&s, 0, sizeof s);
	s.run_id = run;
	s.arm = "a";
	s.workload = "W";
	s.round = 3;
	s.position = 1;
	s.start_ns = 1234567;
	s.end_ns = 2345678;
	s.start_wall_ns = 1767225600123456789LL;
	s.end_wall_ns = 1767225600124567900LL;
	s.metrics = m;
	s.nmetrics = 2;
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "two values");
	s.metrics = NULL;
	s.nmetrics = 0;
	s.workload = "W2";
	s.status = SAMPLE_STATUS_FAILED;
	s.error = "boom";
	tap_int_eq(store_sample_add(st, &s, &cause), 0,
	    "a failed benchmark of the same execution");
	tap_int_eq(store_run_get(st, run, &r, &cause), 0, "run read");
	tap_ok(r.nsamples == 1 && r.nfailed == 1 && r.nvalues == 2,
	    "1 sample, 1 failed, 2 values (%lld, %lld, %lld)",
	    (long long)r.nsamples, (long long)r.nfailed,
	    (long long)r.nvalues);
	store_run_release(&r);
	tap_int_eq(store_values(st, run, NULL, STORE_Q_FAILED, &v, &n,
	    &cause), 0, "values read");
	tap_int_eq(n, 3, "3 values, in the order stored");
	if (n == 3) {
		tap_ok(strcmp(v[0].unit, "sec/op") == 0 &&
		    strcmp(v[1].unit, "max-rss-B") == 0 &&
		    strcmp(v[2].benchmark, "W2") == 0 &&
		    strcmp(v[2].status, "failed") == 0 &&
		    contains(v[2].error, "boom"), "metrics, then the failure");
		for (i = 0; i < n; i++)
			tap_ok(v[i].round == 3 && v[i].position == 1 &&
			    v[i].start_ns == 1234000 && v[i].end_ns == 2345000 &&
			    v[i].start_wall_ns == 1767225600123456000LL &&
			    v[i].end_wall_ns == 1767225600124567000LL,
			    "value %zu: round, position, times to the us", i);
	}
	store_values_free(v, n);
	tap_int_eq(query_int(st, "SELECT nv * 100 + bad * 10 + nx FROM"
	    " executions"), 311, "one execution: 3 values, one bad, 1 time");
	tap_int_eq(store_check(st, &problems, &n, &cause), 0, "check runs");
	tap_int_eq(n, 0, "no problem");
	for (i = 0; i < n; i++)
		free(problems[i]);
	free(problems);
	/* The same entry stored again, ok, with other times. */
	s.status = SAMPLE_STATUS_OK;
	s.error = NULL;
	s.metrics = m;
	s.nmetrics = 1;
	s.workload = "W";
	s.start_ns += 5000000;
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "stored again");
	store_check(st, &problems, &n, &cause);
	{
		int	named = 0;

		for (i = 0; i < n; i++) {
			named |= contains(problems[i], "plan entry 0 has ok "
			    "samples of W sec/op from 2 executions");
			free(problems[i]);
		}
		tap_ok(named, "db check names it");
	}
	free(problems);
	store_close(st);
	free(path);
}

/* Entries of /proc/self/task: the process's threads. */
static int
nthreads(void)
{
	DIR		*d = opendir("/proc/self/task");
	struct dirent	*de;
	int		 n = 0;

	while (d != NULL && (de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	if (d != NULL)
		closedir(d);
	return n;
}

static off_t
file_size(const char *path)
{
	struct stat	sb;

	return stat(path, &sb) == 0 ? sb.st_size : 0;
}

/* A run's checkpoints on a thread of their own (store-ckpt.c). */
static void
test_checkpoint_behind(void)
{
	const char *const	 arms[] = { "a", "b" };
	char			*path = tpath("ckpt.db"), *cause = NULL;
	char			*wal = xasprintf("%s-wal", path);
	struct store		*st;
	off_t			 db0, wmax = 0;
	int64_t			 run;
	int			 i, t0;

	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	run = make_run(st, "ckpt", 1500, arms, 2, NULL);
	t0 = nthreads();
	store_checkpoint_behind(st);
	tap_int_eq(nthreads(), t0 + 1, "the checkpoints have a thread");
	db0 = file_size(path);
	for (i = 0; i < 3000 && add_sample(st, run, i, arms[i % 2], 1.0 + i,
	    2.0) == 0; i++)
		wmax = file_size(wal) > wmax ? file_size(wal) : wmax;
	tap_int_eq(i, 3000, "3000 samples committed");
	/* ~70 pages in ~10000 frames: the thread's checkpoints (only). */
	for (i = 0; i < 1000 && file_size(path) <= db0 + 32 * 4096; i++)
		usleep(10000);
	tap_ok(file_size(path) > db0 + 32 * 4096,
	    "the database file got the pages before the close");
	tap_ok(wmax <= (off_t)16001 * (4096 + 24) + 32,
	    "the -wal stays below 16000 pages");
	store_checkpoint_inline(st);
	tap_int_eq(nthreads(), t0, "store_checkpoint_inline ends the thread");
	store_close(st);
	if ((st = store_open(path, STORE_READONLY, &cause)) == NULL)
		die("%s", cause);
	tap_int_eq((int)query_int(st, "SELECT count(*) FROM samples"), 6000,
	    "every value is there");
	store_close(st);
	free(wal);
	free(path);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp failed");
	test_create_and_samples();
	test_journal();
	test_find();
	test_merge_and_check();
	test_open_refuse();
	test_export();
	test_metadata_keys();
	test_next_round();
	test_executions();
	test_checkpoint_behind();
	if (rmtree(tmpdir, NULL) != 0)
		TAP_DIAG("cannot remove %s", tmpdir);
	return tap_done();
}
