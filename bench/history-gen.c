/* SPDX-License-Identifier: Apache-2.0 */
/*
 * history-gen: a year of nightly history written through the store's own
 * API (store_run_create, store_sample_add), for bench/history and the
 * tests of nightly and of the store.
 *
 *   history-gen DB [--shapes N] [--rows N] [--metrics N] [--arms N]
 *       [--rounds N] [--nights N] [--seed S] [--truth FILE]
 *
 * Each night (default 365, one a day from 2026-01-01) runs every shape
 * (default 20): a run named shape-NN on host gen-host with the config key
 * fleet-id = night-NNN (so that `abbench nightly --fleet last` judges the
 * last night's shapes), ROUNDS (16) rounds of ARMS (2) arms, interleaved,
 * of ROWS/METRICS command-like workloads w00.., each execution giving
 * METRICS (default 4) values: sec/op, user-sec/op, sys-sec/op, max-rss-B
 * (ROWS, default 200, rows a shape). Every row and arm is a series with
 * its own level and Gaussian noise (1 to 3%); on top, at known nights,
 * about one series in ten gets a step (2 to 6 times its noise, up or
 * down), one in twenty a linear drift over 30 to 90 nights (5 to 20% in
 * all), one in thirty a noise burst (noise x4 for 1 to 3 nights). Each
 * event is a line of the truth file (tab-separated, nights from 1):
 *   shape benchmark unit arm kind first_night last_night size noise
 * with size the factor of a step, the total factor of a drift, the noise
 * factor of a burst; noise the series' relative noise. One transaction
 * per night. Prints the values written and the time taken.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "results/night-summary.h"
#include "results/store.h"

#define DAY_NS	(86400LL * 1000000000LL)
#define T0_NS	(1767225600LL * 1000000000LL)	/* 2026-01-01 */

static const char *const units[] = {
	"sec/op", "user-sec/op", "sys-sec/op", "max-rss-B",
};
static const double levels[] = { 0.02, 0.012, 0.004, 8e6 };

enum ev_kind { EV_NONE, EV_STEP, EV_DRIFT, EV_BURST };

/* One series: a shape's row for an arm. */
struct series {
	double	 level, noise;
	int	 kind, first, last;	/* nights from 0 */
	double	 size;
};

struct gen {
	int	 shapes, rows, metrics, arms, rounds, nights;
	unsigned long seed;
	struct series *ser;	/* [shape][row][arm] */
	gsl_rng	*rng;
};

static struct series *
gen_series(struct gen *g, int shape, int row, int arm)
{
	return &g->ser[((size_t)shape * (size_t)g->rows + (size_t)row) *
	    (size_t)g->arms + (size_t)arm];
}

/* A series' factor and noise on a night. */
static double
series_value(struct gen *g, const struct series *s, int night)
{
	double	f = 1, noise = s->noise;

	if (s->kind == EV_STEP && night >= s->first)
		f = s->size;
	else if (s->kind == EV_DRIFT && night >= s->first)
		f = 1 + (s->size - 1) * (night >= s->last ? 1 :
		    (double)(night - s->first) / (s->last - s->first));
	else if (s->kind == EV_BURST && night >= s->first &&
	    night <= s->last)
		noise *= s->size;
	return s->level * f * (1 + gsl_ran_gaussian(g->rng, noise));
}

static void
gen_plan(struct gen *g, FILE *truth)
{
	static const char *const kinds[] = { "", "step", "drift", "burst" };
	int	 sh, r, a;
	double	 u;

	g->ser = xcalloc((size_t)g->shapes * (size_t)g->rows *
	    (size_t)g->arms, sizeof *g->ser);
	for (sh = 0; sh < g->shapes; sh++)
	for (r = 0; r < g->rows; r++)
	for (a = 0; a < g->arms; a++) {
		struct series *s = gen_series(g, sh, r, a);

		s->level = levels[r % g->metrics] *
		    (1 + gsl_rng_uniform(g->rng) * 4);
		s->noise = 0.01 + gsl_rng_uniform(g->rng) * 0.02;
		u = gsl_rng_uniform(g->rng);
		if (u < 0.1) {
			s->kind = EV_STEP;
			s->first = 10 + (int)gsl_rng_uniform_int(g->rng,
			    (unsigned long)(g->nights > 20 ? g->nights - 20 :
			    1));
			s->last = s->first;
			s->size = 1 + (gsl_rng_uniform(g->rng) < 0.5 ? -1 :
			    1) * s->noise * (2 + gsl_rng_uniform(g->rng) * 4);
		} else if (u < 0.15) {
			s->kind = EV_DRIFT;
			s->first = (int)gsl_rng_uniform_int(g->rng,
			    (unsigned long)(g->nights > 30 ? g->nights - 30 :
			    1));
			s->last = s->first + 30 +
			    (int)gsl_rng_uniform_int(g->rng, 61);
			s->size = 1.05 + gsl_rng_uniform(g->rng) * 0.15;
		} else if (u < 0.183) {
			s->kind = EV_BURST;
			s->first = (int)gsl_rng_uniform_int(g->rng,
			    (unsigned long)g->nights);
			s->last = s->first +
			    (int)gsl_rng_uniform_int(g->rng, 3);
			s->size = 4;
		}
		if (s->kind != EV_NONE && s->first < g->nights &&
		    truth != NULL)
			fprintf(truth, "shape-%02d\tw%02d\t%s\tarm%d\t%s\t%d\t"
			    "%d\t%.6f\t%.6f\n", sh + 1, r / g->metrics,
			    units[r % g->metrics], a + 1, kinds[s->kind],
			    s->first + 1, s->last + 1, s->size, s->noise);
	}
}

static int64_t
gen_run(struct gen *g, struct store *st, int sh, int night, char **arms,
    int64_t *nvalues)
{
	struct store_run	 r;
	struct store_sample	 smp;
	struct store_metric	*m;
	char			 name[32], fleet[32], wl[16], *cause = NULL;
	int64_t			 t = T0_NS + night * DAY_NS + sh * 600000000000LL;
	int64_t			 mono = 1000000000000LL + night * 7000000LL;
	int			 nw = g->rows / g->metrics, k, w, a, j, pos = 0;

	snprintf(name, sizeof name, "shape-%02d", sh + 1);
	snprintf(fleet, sizeof fleet, "night-%03d", night + 1);
	memset(&r, 0, sizeof r);
	r.name = name;
	r.host = (char *)"gen-host";
	r.status = (char *)RUN_RUNNING;
	r.started_wall_ns = t;
	r.order_kind = (char *)"alternate";
	r.rounds = g->rounds;
	r.experiment_text = (char *)"[experiment]\nname = history-gen\n";
	r.abbench_version = (char *)"history-gen";
	if (store_run_create(st, &r, (const char *const *)arms,
	    (size_t)g->arms, &cause) == -1 ||
	    store_config_set(st, r.id, NULL, "fleet-id", fleet, &cause) == -1 ||
	    store_config_set(st, r.id, NULL, "goos", "linux", &cause) == -1)
		die("%s", cause);
	free(r.uuid);
	m = xcalloc((size_t)g->metrics, sizeof *m);
	for (k = 0; k < g->rounds; k++)
	for (w = 0; w < nw; w++)
	for (a = 0; a < g->arms; a++) {
		snprintf(wl, sizeof wl, "w%02d", w);
		for (j = 0; j < g->metrics; j++) {
			m[j].benchmark = wl;
			m[j].unit = units[j];
			m[j].value = series_value(g, gen_series(g, sh,
			    w * g->metrics + j, a), night);
		}
		memset(&smp, 0, sizeof smp);
		smp.run_id = r.id;
		smp.plan_idx = pos;
		smp.round = k;
		smp.position = w * g->arms + a;
		smp.arm = arms[a];
		smp.workload = wl;
		smp.status = SAMPLE_STATUS_OK;
		/* ~21 ms a sample, with its jitter. */
		smp.start_ns = mono + (int64_t)pos * 21000000LL +
		    (int64_t)gsl_rng_uniform_int(g->rng, 1000000);
		smp.end_ns = smp.start_ns + 18000000LL +
		    (int64_t)gsl_rng_uniform_int(g->rng, 3000000);
		smp.start_wall_ns = t + (smp.start_ns - mono);
		smp.end_wall_ns = t + (smp.end_ns - mono);
		smp.metrics = m;
		smp.nmetrics = (size_t)g->metrics;
		if (store_sample_add(st, &smp, &cause) == -1)
			die("%s", cause);
		*nvalues += g->metrics;
		pos++;
	}
	free(m);
	if (store_run_done(st, r.id, t + (int64_t)pos * 21000000LL,
	    &cause) == -1)
		die("%s", cause);
	return r.id;
}

static void
usage(void)
{
	fprintf(stderr, "usage: history-gen DB [--shapes N] [--rows N] "
	    "[--metrics N] [--arms N] [--rounds N] [--nights N] [--seed S] "
	    "[--truth FILE]\n");
	exit(2);
}

static int
opt_int(const char *flag, const char *v, long long max)
{
	long long	 n;
	char		*cause = NULL;

	if (parse_int(v, 1, max, &n, &cause) != 0)
		die("%s: %s", flag, cause);
	return (int)n;
}

int
main(int argc, char **argv)
{
	struct gen	 g = { 20, 200, 4, 2, 16, 365, 1, NULL, NULL };
	struct store	*st;
	struct timespec	 t0, t1;
	FILE		*truth = NULL;
	const char	*db = NULL;
	char		*cause = NULL, *arms[8];
	int64_t		 nvalues = 0;
	int		 i, sh, night;

	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (argv[i][0] != '-') {
			if (db != NULL)
				usage();
			db = argv[i];
			continue;
		}
		if (v == NULL)
			usage();
		i++;
		if (strcmp(argv[i - 1], "--shapes") == 0)
			g.shapes = opt_int("--shapes", v, 99);
		else if (strcmp(argv[i - 1], "--rows") == 0)
			g.rows = opt_int("--rows", v, 4000);
		else if (strcmp(argv[i - 1], "--metrics") == 0)
			g.metrics = opt_int("--metrics", v, 4);
		else if (strcmp(argv[i - 1], "--arms") == 0)
			g.arms = opt_int("--arms", v, 8);
		else if (strcmp(argv[i - 1], "--rounds") == 0)
			g.rounds = opt_int("--rounds", v, 1000);
		else if (strcmp(argv[i - 1], "--nights") == 0)
			g.nights = opt_int("--nights", v, 999);
		else if (strcmp(argv[i - 1], "--seed") == 0)
			g.seed = (unsigned long)opt_int("--seed", v, 1 << 30);
		else if (strcmp(argv[i - 1], "--truth") == 0) {
			if ((truth = fopen(v, "w")) == NULL)
				die("cannot write '%s'", v);
		} else
			usage();
	}
	if (db == NULL || g.rows % g.metrics != 0)
		usage();
	for (i = 0; i < g.arms; i++)
		arms[i] = xasprintf("arm%d", i + 1);
	g.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g.rng, g.seed);
	gen_plan(&g, truth);
	if (truth != NULL && fclose(truth) != 0)
		die("cannot write the truth file");
	if ((st = store_open(db, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (night = 0; night < g.nights; night++) {
		if (store_begin(st, &cause) == -1)
			die("%s", cause);
		for (sh = 0; sh < g.shapes; sh++)
			gen_run(&g, st, sh, night, arms, &nvalues);
		if (store_commit(st, &cause) == -1)
			die("%s", cause);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	store_close(st);
	printf("%" PRId64 " values, %d runs in %.1f s\n", nvalues,
	    g.nights * g.shapes, (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < g.arms; i++)
		free(arms[i]);
	free(g.ser);
	gsl_rng_free(g.rng);
	return 0;
}
