/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of schema 11's folded samples (results/store-schema.c): a
 * sample of one plain value is one row of single_values; a value more
 * of its execution (a failure) unfolds it into executions and
 * sample_values, places kept; its times read back to the microsecond;
 * a NaN reads back NaN; a running run's counts are its rows', and
 * sample_runs' are written when it stops running; db check is content.
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
#include "tap.h"

static char tmpdir[] = "/tmp/t-store-single.XXXXXX";

/* One integer a query gives, -1 for none. */
static int64_t
one(struct store *st, const char *sql)
{
	struct store_rows	r;
	int64_t			v = -1;

	if (store_rows(&r, st, sql, NULL) != 0)
		return -2;
	if (store_next(&r))
		v = sqlite3_column_int64(r.s, 0);
	return store_rows_end(&r, NULL, NULL) == 0 ? v : -3;
}

int
main(void)
{
	const char *const	 arms[] = { "a", "b" };
	struct store_metric	 m = { "W", "sec/op", 0.25 };
	char			*path, *cause = NULL;
	char			**problems = NULL;
	struct store		*st;
	struct store_sample	 s;
	struct store_value	*v = NULL;
	struct store_run	 r;
	size_t			 n = 0, i;
	int64_t			 run;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	path = xasprintf("%s/single.db", tmpdir);
	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	memset(&r, 0, sizeof r);
	r.name = (char *)"single";
	r.order_kind = (char *)"alternate";
	r.rounds = 3;
	if (store_run_create(st, &r, arms, 2, &cause) != 0)
		die("%s", cause);
	run = r.id;
	free(r.uuid);
	s = (struct store_sample){ .run_id = run, .arm = "b", .workload = "W",
	    .round = 2, .position = 1, .plan_idx = 5, .start_ns = 1234567,
	    .end_ns = 2345678, .start_wall_ns = 1767225600123456789LL,
	    .end_wall_ns = 1767225600124567900LL, .metrics = &m,
	    .nmetrics = 1 };
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "one plain value");
	tap_int_eq(one(st, "SELECT count(*) FROM single_values"), 1,
	    "one row of single_values");
	tap_int_eq(one(st, "SELECT count(*) FROM executions") +
	    one(st, "SELECT count(*) FROM sample_values"), 0,
	    "no execution's row, no value's");
	tap_int_eq(one(st, "SELECT nexec FROM sample_runs"), 0,
	    "a sample writes no counts");
	tap_int_eq(store_run_get(st, run, &r, &cause), 0, "run read");
	tap_ok(r.nsamples == 1 && r.nfailed == 0 && r.nvalues == 1,
	    "running: its rows counted (%lld, %lld, %lld)",
	    (long long)r.nsamples, (long long)r.nfailed,
	    (long long)r.nvalues);
	store_run_release(&r);
	tap_int_eq(store_values(st, run, NULL, 0, &v, &n, &cause), 0,
	    "values read");
	tap_ok(n == 1 && v[0].value == 0.25 && v[0].plan_idx == 5 &&
	    v[0].round == 2 && v[0].position == 1 && !v[0].warmup &&
	    v[0].start_ns == 1234000 && v[0].end_ns == 2345000 &&
	    v[0].start_wall_ns == 1767225600123456000LL &&
	    v[0].end_wall_ns == 1767225600124567000LL &&
	    strcmp(v[0].status, "ok") == 0 && strcmp(v[0].arm, "b") == 0,
	    "read back: its value, entry, round, position, times to the us");
	store_values_free(v, n);

	/* A failure of the same execution: unfolded, the value first. */
	s.metrics = NULL;
	s.nmetrics = 0;
	s.workload = "W2";
	s.status = SAMPLE_STATUS_FAILED;
	s.error = "boom";
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "a failure of it");
	tap_int_eq(one(st, "SELECT count(*) FROM single_values"), 0,
	    "unfolded");
	tap_int_eq(one(st, "SELECT nv * 100 + bad * 10 + nx FROM"
	    " executions WHERE plan_idx = 5"), 211,
	    "one execution: 2 values, one bad, 1 time");
	tap_int_eq(one(st, "SELECT sum(k * 10 + status) FROM sample_values"),
	    11, "its values: the value at 0, the failure at 1");
	tap_int_eq(store_values(st, run, NULL, STORE_Q_FAILED, &v, &n,
	    &cause), 0, "values read");
	tap_ok(n == 2 && v[0].value == 0.25 && strcmp(v[0].status, "ok") == 0
	    && strcmp(v[1].status, "failed") == 0 && v[1].error != NULL &&
	    strstr(v[1].error, "boom") != NULL && v[1].round == 2 && v[1].start_ns == 1234000,
	    "the value, then the failure, with the execution's times");
	store_values_free(v, n);

	/* A NaN, folded, reads back NaN; the end writes the counts. */
	s.status = SAMPLE_STATUS_OK;
	s.error = NULL;
	s.workload = "W";
	m.value = NAN;
	s.metrics = &m;
	s.nmetrics = 1;
	s.plan_idx = 6;
	tap_int_eq(store_sample_add(st, &s, &cause), 0, "a NaN");
	tap_int_eq(one(st, "SELECT count(*) FROM single_values WHERE"
	    " value IS NULL"), 1, "folded, as NULL");
	tap_int_eq(store_values(st, run, NULL, 0, &v, &n, &cause), 0,
	    "values read");
	tap_ok(n == 2 && isnan(v[1].value), "read back as NaN");
	store_values_free(v, n);
	tap_int_eq(store_run_set_status(st, run, RUN_DONE, 9, &cause), 0,
	    "done");
	tap_int_eq(one(st, "SELECT nexec * 100 + nfailed * 10 + nok"
	    " FROM sample_runs"), 212,
	    "its counts written at the end: 2 samples, 1 failed, 2 values");
	tap_int_eq(store_check(st, &problems, &n, &cause), 0, "check runs");
	tap_int_eq(n, 0, "no problem");
	for (i = 0; i < n; i++) {
		TAP_DIAG("%s", problems[i]);
		free(problems[i]);
	}
	free(problems);
	store_close(st);
	free(path);
	if (rmtree(tmpdir, NULL) != 0)
		TAP_DIAG("cannot remove %s", tmpdir);
	return tap_done();
}
