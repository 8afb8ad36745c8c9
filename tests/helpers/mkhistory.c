/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes a synthetic nightly history into a database through the store
 * API, for the tests of `abbench nightly` (tests/integration/t0900).
 *
 *   mkhistory DB [-n NIGHTS] [-s SAMPLES] [-e NOISE] [-S SEED]
 *       [-a ARM]... [-x BENCH:PCT:NIGHT]... [-b NAME]
 *
 * NIGHTS runs (default 40) of experiment "synth-nightly" on host
 * "synth-host", one a day, each with SAMPLES (default 5) samples per arm
 * (default one arm "main") of three benchmarks:
 *   Startup/runtime=runc   sec/op   around 0.25 s
 *   Fio/bs=4k              iops     around 40000 (stored better=higher)
 *   Memory                 B        around 8e6
 * with Gaussian relative noise NOISE (default 0.01). -x multiplies BENCH
 * (the part of a name before '/', or the whole name) by 1 + PCT/100 from
 * night NIGHT (0-based) on (up to 4 of them, each its own step). -b adds a
 * fourth benchmark NAME (sec/op, around 1 s), any bytes (`abbench history`'s
 * escaping is tried with it). Decoys that nightly must ignore are written
 * too: a run of the same experiment on another host and a failed run,
 * both with every value doubled, and a run of another experiment.
 * Prints the id of the last run.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "results/store.h"

#define DAY_NS	(86400LL * 1000000000LL)
#define T0_NS	(1767225600LL * 1000000000LL)	/* 2026-01-01 */

struct synth_bench {
	const char	*name;
	const char	*unit;
	double		 level;
	const char	*better;
};

static struct synth_bench benches[] = {
	{ "Startup/runtime=runc", "sec/op", 0.25, NULL },
	{ "Fio/bs=4k", "iops", 40000, "higher" },
	{ "Memory", "B", 8e6, "lower" },
	{ NULL, "sec/op", 1, NULL },	/* -b */
};
#define MAXBENCH (sizeof(benches) / sizeof(benches[0]))
#define MAXSTEPS 4
static size_t	nbench = MAXBENCH - 1;

struct synth {
	struct store	*st;
	gsl_rng		*rng;
	int		 samples;
	double		 noise;
	const char	*step_bench[MAXSTEPS];
	double		 step[MAXSTEPS];
	int		 step_night[MAXSTEPS];
	size_t		 nsteps;
	char		**arms;
	size_t		 narms;
};

static int
synth_matches(const char *name, const char *bench)
{
	size_t	n = strlen(bench);

	return strcmp(name, bench) == 0 ||
	    (strncmp(name, bench, n) == 0 && name[n] == '/');
}

static int64_t
synth_run(struct synth *s, const char *name, const char *host, int night,
    double factor, const char *status)
{
	struct store_run	 r;
	struct store_metric	 m[MAXBENCH];
	struct store_sample	 smp;
	char			*cause = NULL;
	int64_t			 t = T0_NS + night * DAY_NS, id;
	size_t			 b, a, x;
	int			 k, pos = 0;

	memset(&r, 0, sizeof(r));
	r.name = (char *)name;
	r.host = (char *)host;
	r.started_wall_ns = t;
	r.order_kind = (char *)"alternate";
	r.rounds = s->samples;
	r.experiment_text = (char *)"[experiment]\nname = synth-nightly\n";
	r.abbench_version = (char *)"test";
	if (store_run_create(s->st, &r, (const char *const *)s->arms,
	    s->narms, &cause) == -1)
		die("%s", cause);
	id = r.id;
	free(r.uuid);
	for (b = 0; b < nbench; b++)
		if (benches[b].better != NULL &&
		    store_unit_set(s->st, id, benches[b].unit, "better",
		    benches[b].better, &cause) == -1)
			die("%s", cause);
	if (store_config_set(s->st, id, NULL, "goos", "linux", &cause) == -1)
		die("%s", cause);
	for (k = 0; k < s->samples; k++) {
		for (a = 0; a < s->narms; a++) {
			for (b = 0; b < nbench; b++) {
				double	v = benches[b].level * factor;

				for (x = 0; x < s->nsteps; x++)
					if (night >= s->step_night[x] &&
					    synth_matches(benches[b].name,
					    s->step_bench[x]))
						v *= 1 + s->step[x];
				v *= 1 + gsl_ran_gaussian(s->rng, s->noise);
				m[b].benchmark = benches[b].name;
				m[b].unit = benches[b].unit;
				m[b].value = v;
			}
			memset(&smp, 0, sizeof(smp));
			smp.run_id = id;
			smp.plan_idx = pos;
			smp.round = k;
			smp.position = (int)a;
			smp.arm = s->arms[a];
			smp.workload = "synth";
			smp.status = SAMPLE_STATUS_OK;
			smp.start_ns = (int64_t)pos * 1000000000LL;
			smp.end_ns = smp.start_ns + 500000000LL;
			smp.start_wall_ns = t + smp.start_ns;
			smp.end_wall_ns = t + smp.end_ns;
			smp.metrics = m;
			smp.nmetrics = nbench;
			if (store_sample_add(s->st, &smp, &cause) == -1)
				die("%s", cause);
			pos++;
		}
	}
	if (store_run_set_status(s->st, id, status, t + (int64_t)pos *
	    1000000000LL, &cause) == -1)
		die("%s", cause);
	return id;
}

static void
usage(void)
{
	fprintf(stderr, "usage: mkhistory DB [-n NIGHTS] [-s SAMPLES] "
	    "[-e NOISE] [-S SEED] [-a ARM]... [-x BENCH:PCT:NIGHT]... "
	    "[-b NAME]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct synth	 s;
	struct strvec	 arms = STRVEC_INIT;
	char		*cause = NULL, *p, *q;
	unsigned long	 seed = 1;
	int		 nights = 40, c, night;
	int64_t		 last = 0;

	memset(&s, 0, sizeof(s));
	s.samples = 5;
	s.noise = 0.01;
	while ((c = getopt(argc, argv, "n:s:e:S:a:x:b:")) != -1) {
		switch (c) {
		case 'n':
			nights = atoi(optarg);
			break;
		case 's':
			s.samples = atoi(optarg);
			break;
		case 'e':
			s.noise = atof(optarg);
			break;
		case 'S':
			seed = strtoul(optarg, NULL, 10);
			break;
		case 'a':
			strvec_push(&arms, optarg);
			break;
		case 'x':
			p = strchr(optarg, ':');
			q = p != NULL ? strchr(p + 1, ':') : NULL;
			if (q == NULL || s.nsteps == MAXSTEPS)
				usage();
			*p = '\0';
			s.step_bench[s.nsteps] = optarg;
			s.step[s.nsteps] = atof(p + 1) / 100;
			s.step_night[s.nsteps++] = atoi(q + 1);
			break;
		case 'b':
			benches[MAXBENCH - 1].name = optarg;
			nbench = MAXBENCH;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc || nights < 1 || s.samples < 1)
		usage();
	if (arms.n == 0)
		strvec_push(&arms, "main");
	s.arms = arms.v;
	s.narms = arms.n;
	if ((s.st = store_open(argv[optind], STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	s.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(s.rng, seed);
	if (store_begin(s.st, &cause) == -1)
		die("%s", cause);
	for (night = 0; night < nights; night++) {
		if (night == nights / 3) {
			synth_run(&s, "synth-nightly", "other-host", night, 2,
			    RUN_DONE);
			synth_run(&s, "other-experiment", "synth-host", night,
			    2, RUN_DONE);
		}
		if (night == nights / 2)
			synth_run(&s, "synth-nightly", "synth-host", night, 2,
			    RUN_FAILED);
		last = synth_run(&s, "synth-nightly", "synth-host", night, 1,
		    RUN_DONE);
	}
	if (store_commit(s.st, &cause) == -1)
		die("%s", cause);
	printf("%" PRId64 "\n", last);
	gsl_rng_free(s.rng);
	store_close(s.st);
	strvec_clear(&arms);
	return 0;
}
