/* SPDX-License-Identifier: Apache-2.0 */
/*
 * store-speed: how much a stored sample costs. Inserts N samples (default
 * 100,000) into a fresh database through store_sample_add, the runner's
 * own path (one transaction per sample, default durability unless
 * --durable), and prints samples per second and microseconds per sample.
 * The target is under 50 us per sample with the default durability.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/store.h"

static void
usage(void)
{
	fprintf(stderr, "usage: store-speed [-n SAMPLES] [-m METRICS] "
	    "[--durable] [--db FILE] [--max-us US]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *const	 arms[] = { "before", "after" };
	struct store		*st;
	struct store_run	 r;
	struct store_sample	 s;
	struct store_metric	*m;
	long long		 n = 100000, nm = 1, i, j;
	double			 max_us = 0, us, secs;
	int			 flags = STORE_CREATE, keep = 0;
	char			*cause = NULL, *path = NULL, **names;
	char			 tmpdir[] = "/tmp/store-speed.XXXXXX";
	int64_t			 t0, t1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			if (parse_int(argv[++i], 1, 100000000, &n, &cause) != 0)
				die("-n: %s", cause);
		} else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
			if (parse_int(argv[++i], 1, 1000, &nm, &cause) != 0)
				die("-m: %s", cause);
		} else if (strcmp(argv[i], "--durable") == 0)
			flags |= STORE_DURABLE;
		else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			path = xstrdup(argv[++i]);
			keep = 1;
		} else if (strcmp(argv[i], "--max-us") == 0 && i + 1 < argc) {
			if (parse_double(argv[++i], &max_us, &cause) != 0)
				die("--max-us: %s", cause);
		} else
			usage();
	}
	if (path == NULL) {
		if (mkdtemp(tmpdir) == NULL)
			die("cannot make a temporary directory");
		path = xasprintf("%s/speed.db", tmpdir);
	}
	if ((st = store_open(path, flags, &cause)) == NULL)
		die("%s", cause);
	memset(&r, 0, sizeof r);
	r.name = (char *)"store-speed";
	r.host = (char *)"localhost";
	r.started_wall_ns = now_wall_ns();
	r.order_kind = (char *)"alternate";
	r.rounds = (int)(n / 2);
	if (store_run_create(st, &r, arms, 2, &cause) != 0)
		die("%s", cause);

	m = xcalloc((size_t)nm, sizeof *m);
	names = xcalloc((size_t)nm, sizeof *names);
	for (j = 0; j < nm; j++) {
		names[j] = xasprintf("metric%lld", j);
		m[j].benchmark = "Fio/bs=4k/rw=randread";
		m[j].unit = j == 0 ? "sec/op" : names[j];
	}
	memset(&s, 0, sizeof s);
	s.run_id = r.id;
	s.workload = "fio";
	s.status = SAMPLE_STATUS_OK;
	s.metrics = m;
	s.nmetrics = (size_t)nm;

	t0 = now_mono_ns();
	for (i = 0; i < n; i++) {
		s.plan_idx = (int)i;
		s.round = (int)(i / 2);
		s.position = (int)(i % 2);
		s.arm = arms[(s.round % 2) ^ s.position];
		s.start_ns = now_mono_ns();
		s.end_ns = s.start_ns + 1000;
		s.start_wall_ns = now_wall_ns();
		s.end_wall_ns = s.start_wall_ns + 1000;
		for (j = 0; j < nm; j++)
			m[j].value = 0.001 * (double)(i + j + 1);
		if (store_sample_add(st, &s, &cause) != 0)
			die("sample %lld: %s", i, cause);
	}
	t1 = now_mono_ns();
	store_close(st);

	secs = (double)(t1 - t0) / 1e9;
	us = (double)(t1 - t0) / 1e3 / (double)n;
	printf("%lld samples (%lld metric%s each, %s) in %.3f s: "
	    "%.0f samples/s, %.2f us per sample\n", n, nm, nm == 1 ? "" : "s",
	    (flags & STORE_DURABLE) ? "synchronous=FULL" :
	    "synchronous=NORMAL", secs, (double)n / secs, us);

	if (!keep) {
		char *f = xasprintf("%s-wal", path);

		unlink(f);
		free(f);
		f = xasprintf("%s-shm", path);
		unlink(f);
		free(f);
		unlink(path);
		rmdir(tmpdir);
	}
	for (j = 0; j < nm; j++)
		free(names[j]);
	free(names);
	free(m);
	free(r.uuid);
	free(path);
	if (max_us > 0 && us > max_us) {
		fprintf(stderr, "store-speed: %.2f us per sample is over the "
		    "%.2f us target\n", us, max_us);
		return 1;
	}
	return 0;
}
