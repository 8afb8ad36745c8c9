/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of results/store-log.c, the log of a run's samples beside the
 * database: its first LOG_MAP bytes (1 MiB) are allocated and mapped, a
 * record copied there, and a batch past them written. A batch of 1.5
 * MiB (records of ~10 KiB, as a gobench run of 100 benchmarks makes)
 * goes on past the mapping: what a kill -9 would leave (the file as it
 * is before the commit) holds every record, and its import stores them
 * all, no torn record said; the commit stores them all and empties the
 * log; a log whose first byte is zero (a kill while it was emptied) is
 * empty; records already stored are not imported again.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/store.h"
#include "tests/unit/tap.h"

#define NBENCH	100
#define NSAMPLE	150

static char	*names[NBENCH];

static int64_t
make_run(struct store *st)
{
	static const char *const arms[] = { "a" };
	struct store_run	 r;
	char			*cause = NULL;

	memset(&r, 0, sizeof r);
	r.name = (char *)"log";
	r.host = (char *)"host-a";
	r.started_wall_ns = 1;
	r.order_kind = (char *)"alternate";
	r.rounds = NSAMPLE;
	r.experiment_text = (char *)"[experiment]\nname = log\n";
	if (store_run_create(st, &r, arms, 1, &cause) != 0) {
		TAP_DIAG("run create: %s", cause);
		free(cause);
		return -1;
	}
	free(r.uuid);
	return r.id;
}

/* Sample plan of run: NBENCH metrics of long names, ~10 KiB a record. */
static int
log_one(struct store *st, int64_t run, int plan)
{
	struct store_metric	m[NBENCH];
	struct store_sample	s;
	char			*cause = NULL;
	int			 i, rc;

	for (i = 0; i < NBENCH; i++) {
		m[i].benchmark = names[i];
		m[i].unit = "sec/op";
		m[i].value = 1e-3 * (plan + 1) + i;
	}
	memset(&s, 0, sizeof s);
	s.run_id = run;
	s.plan_idx = plan;
	s.round = plan;
	s.arm = "a";
	s.workload = "gobench";
	s.status = SAMPLE_STATUS_OK;
	s.start_ns = 1000 + 10 * plan;
	s.end_ns = 1005 + 10 * plan;
	s.start_wall_ns = 5000 + 10 * plan;
	s.end_wall_ns = 5005 + 10 * plan;
	s.metrics = m;
	s.nmetrics = NBENCH;
	rc = store_log_sample(st, &s, 1, NULL, NULL, 0, &cause);
	if (rc != 0) {
		TAP_DIAG("log: %s", cause);
		free(cause);
	}
	return rc;
}

static int
spit(const char *path, const char *buf, size_t n)
{
	int	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int	ok;

	if (fd == -1)
		return -1;
	ok = write(fd, buf, n) == (ssize_t)n;
	close(fd);
	return ok ? 0 : -1;
}

static long
count(const char *db, int64_t run)
{
	struct store_value	*v = NULL;
	struct store		*st;
	char			*cause = NULL;
	size_t			 n = 0;

	if ((st = store_open(db, 0, &cause)) == NULL ||
	    store_values(st, run, NULL, 0, &v, &n, &cause) != 0) {
		TAP_DIAG("count: %s", cause);
		free(cause);
		store_close(st);
		return -1;
	}
	store_values_free(v, n);
	store_close(st);
	return (long)n;
}

/* How many times "ABSAMPL1" is in buf[0..n). */
static int
records(const char *buf, size_t n)
{
	size_t	i;
	int	k = 0;

	for (i = 0; i + 8 <= n; i++)
		if (memcmp(buf + i, "ABSAMPL1", 8) == 0)
			k++;
	return k;
}

int
main(void)
{
	char		 tmpl[] = "/tmp/abbench-t-store-log-XXXXXX";
	char		*db, *db2, *db3, *logp, *log2, *log3, *cause = NULL, *kept, *after;
	struct store	*st;
	struct stat	 sb;
	size_t		 nkept = 0, nafter;
	int64_t		 run;
	int		 i, bad = 0;

	if (mkdtemp(tmpl) == NULL) {
		printf("1..0 # SKIP cannot make a directory\n");
		return 0;
	}
	for (i = 0; i < NBENCH; i++)
		names[i] = xasprintf("BenchmarkDecode/%03d/format=json/"
		    "size=%d/with-a-rather-long-name-as-go-test-makes", i,
		    i * 7);
	db = xasprintf("%s/t.db", tmpl);
	db2 = xasprintf("%s/u.db", tmpl);
	db3 = xasprintf("%s/v.db", tmpl);
	st = store_open(db, STORE_CREATE, &cause);
	if (!tap_ok(st != NULL, "a store")) {
		TAP_DIAG("%s", cause);
		return tap_done();
	}
	run = make_run(st);
	tap_ok(run > 0, "a run");
	tap_int_eq(store_log_start(st, run, &cause), 0, "its log started");
	logp = store_log_path(db, run);
	tap_ok(stat(logp, &sb) == 0 && sb.st_size == 1 << 20,
	    "the log is 1 MiB at its start (allocated for the mapping)");
	for (i = 0; i < NSAMPLE; i++)
		bad += log_one(st, run, i) != 0;
	tap_int_eq(bad, 0, "150 records of ~10 KiB logged in one batch");
	/* What a kill -9 now would leave. */
	kept = read_file(logp, &nkept, NULL);
	tap_ok(nkept > (size_t)1 << 20, "the batch went on past the "
	    "mapping (%zu bytes)", nkept);
	tap_int_eq(records(kept, nkept), NSAMPLE, "the log holds every "
	    "record");
	tap_int_eq(store_log_end(st, &cause), 0, "the batch committed");
	tap_ok(access(logp, F_OK) == -1, "and the log removed");
	store_close(st);
	tap_int_eq(count(db, run), NSAMPLE * NBENCH, "every value stored");

	/* The kept log imported again: every record is stored already. */
	tap_int_eq(spit(logp, kept, nkept), 0, "the kept log put back");
	st = store_open(db, 0, &cause);
	tap_int_eq(st != NULL ? store_log_import_run(st, run, &cause) : -1,
	    0, "its import");
	store_close(st);
	tap_int_eq(count(db, run), NSAMPLE * NBENCH, "added nothing twice");
	tap_ok(access(logp, F_OK) == -1, "and removed it");

	/* Into a database of the same run without its samples. */
	st = store_open(db2, STORE_CREATE, &cause);
	tap_ok(st != NULL && make_run(st) == run, "a second database, the "
	    "same run");
	log2 = store_log_path(db2, run);
	spit(log2, kept, nkept);
	tap_int_eq(st != NULL ? store_log_import_run(st, run, &cause) : -1,
	    0, "the kept log imported there");
	if (cause != NULL)
		TAP_DIAG("%s", cause);
	store_close(st);
	tap_int_eq(count(db2, run), NSAMPLE * NBENCH, "every value of the "
	    "records past the mapping too");

	/* A log whose first byte is zero (a kill while it was emptied),
	 * into a third database of the run: empty. */
	st = store_open(db3, STORE_CREATE, &cause);
	tap_ok(st != NULL && make_run(st) == run, "a third database");
	log3 = store_log_path(db3, run);
	spit(log3, kept, nkept);
	{
		int	fd = open(log3, O_WRONLY);

		if (fd != -1) {
			(void)pwrite(fd, "", 1, 0);
			close(fd);
		}
	}
	tap_int_eq(st != NULL ? store_log_import_run(st, run, &cause) : -1,
	    0, "a log beginning with a zero byte imports");
	store_close(st);
	tap_int_eq(count(db3, run), 0, "as an empty one");
	tap_ok(access(log3, F_OK) == -1, "and is removed");

	/* A log emptied by the commit, then killed: zeros, 1 MiB. */
	st = store_open(db, 0, &cause);
	tap_int_eq(store_log_start(st, run, &cause), 0, "a log again");
	bad = 0;
	for (i = 0; i < 3; i++)
		bad += log_one(st, run, NSAMPLE + i) != 0;
	tap_int_eq(bad, 0, "3 records logged");
	tap_int_eq(store_log_flush(st, &cause), 0, "3 records committed");
	after = read_file(logp, &nafter, NULL);
	for (i = 0; after != NULL && (size_t)i < nafter && after[i] == 0; i++)
		;
	tap_ok(after != NULL && nafter == (size_t)1 << 20 &&
	    (size_t)i == nafter, "the log is its 1 MiB again, all zeros");
	free(after);
	tap_int_eq(store_log_end(st, &cause), 0, "ended");
	store_close(st);

	rmtree(tmpl, NULL);
	for (i = 0; i < NBENCH; i++)
		free(names[i]);
	free(kept);
	free(logp);
	free(log2);
	free(log3);
	free(db);
	free(db2);
	free(db3);
	free(cause);
	return tap_done();
}
