/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (stats/nightly-judge.c) proved by simulation over
 * generated years of nights, as `abbench nightly` builds them (each
 * night: the median of its executions and nightly_median_se).
 *
 * Noise: sigma, the relative standard deviation of one execution within
 * a night. Every model also moves each night's level by tau = sigma / 4
 * (night-to-night variation, which a test of pooled samples reads as
 * change). Models:
 *   normal   Gaussian executions;
 *   loaded   as normal, and one night in ten is on a loaded machine: up
 *            to 60% of its executions 10-40% slower (one side);
 *   heavy    executions with Student's t (3 degrees of freedom) noise.
 * Claims, at the default options and the default 2% threshold:
 *   A/A     false alarms (verdicts regressed or improved) per series-year
 *           at most 1, by the 95% upper bound (Poisson, exact);
 *   steps   a step of 2 sigma (sigma = 2%: 4%, up or down) at a random
 *           night is caught, in its direction, on its night or the next
 *           in at least 95% of the series; under load 90%: a step whose
 *           night or the next is loaded is judged with that night's
 *           noise, and is often caught a night later.
 * The delay is printed (caught on its night, the next, later, never).
 * Deterministic: a fixed seed, and the judgement uses no randomness.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"
#include "tests/unit/tap.h"

#define NIGHTS		365	/* a series-year */
#define EXECS		8	/* executions a night */
#define SIGMA		0.02
#define TAU		(SIGMA / 4)
#define THRESHOLD	0.02
#define AA_SERIES	300
#define STEP_SERIES	600

enum model { M_NORMAL, M_LOADED, M_HEAVY, NMODELS };
static const char *const model_name[] = { "normal", "loaded", "heavy" };

static int64_t	ids[NIGHTS], nos[NIGHTS];

/* One series of nights: level 100, times (1 + step) from night s on. */
static void
series(gsl_rng *rng, enum model m, size_t s, double step,
    struct nightly_night *nt)
{
	double	v[EXECS], level, e;
	size_t	h, i, nslow;

	for (h = 0; h < NIGHTS; h++) {
		level = 100 * (1 + gsl_ran_gaussian(rng, TAU)) *
		    (h >= s ? 1 + step : 1);
		for (i = 0; i < EXECS; i++) {
			e = m == M_HEAVY ? SIGMA * gsl_ran_tdist(rng, 3) /
			    sqrt(3.0) : gsl_ran_gaussian(rng, SIGMA);
			v[i] = level * (1 + e);
		}
		if (m == M_LOADED && gsl_rng_uniform(rng) < 0.1) {
			nslow = gsl_rng_uniform_int(rng, EXECS * 6 / 10 + 1);
			for (i = 0; i < nslow; i++)
				v[i] *= 1.1 + 0.3 * gsl_rng_uniform(rng);
		}
		sort_doubles(v, EXECS);
		memset(&nt[h], 0, sizeof(nt[h]));
		nt[h].median = v[EXECS / 2 - 1] / 2 + v[EXECS / 2] / 2;
		nt[h].se = nightly_median_se(v, EXECS);
		nt[h].n = EXECS;
	}
}

/* Judge the series; the row's changes stay for the caller. */
static int
judge(const struct nightly_night *nt, struct nightly_row *row)
{
	struct nightly_judge_options	o;
	struct nightly_input		in;
	char				*cause = NULL;

	nightly_judge_options_init(&o);
	memset(&in, 0, sizeof(in));
	in.unit = "sec/op";
	in.better = -1;
	in.threshold = THRESHOLD;
	in.nights = nt;
	memset(row, 0, sizeof(*row));
	if (nightly_judge_rows(&o, &in, 1, ids, nos, NIGHTS, row,
	    &cause) == -1) {
		TAP_DIAG("%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* An alarm: a change found that the verdict of its night would name. */
static int
alarm(const struct nightly_change *c)
{
	return c->test != NIGHTLY_TEST_ACK && fabs(c->rel) >= THRESHOLD;
}

/* The 95% upper bound of a Poisson mean from count k. */
static double
poisson_upper(unsigned k)
{
	return gsl_cdf_chisq_Pinv(0.95, 2.0 * (k + 1)) / 2;
}

int
main(void)
{
	static struct nightly_night	nt[NIGHTS];
	struct nightly_row		row;
	gsl_rng				*rng;
	unsigned			 m, i, j;
	size_t				 h;

	for (h = 0; h < NIGHTS; h++) {
		ids[h] = 1000 + (int64_t)h;
		nos[h] = (int64_t)h + 1;
	}
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20261207);

	for (m = 0; m < NMODELS; m++) {
		unsigned	changes = 0, alarms = 0, fail = 0;
		double		up;

		for (i = 0; i < AA_SERIES; i++) {
			series(rng, (enum model)m, NIGHTS, 0, nt);
			if (judge(nt, &row) == -1) {
				fail++;
				continue;
			}
			changes += (unsigned)row.nchanges;
			for (j = 0; j < row.nchanges; j++)
				alarms += alarm(&row.changes[j]);
			nightly_row_release(&row);
		}
		up = poisson_upper(alarms) / AA_SERIES;
		TAP_DIAG("A/A %s: %u series-years, %u alarms (%.3f a "
		    "series-year, 95%% upper bound %.3f), %u changes of any "
		    "size (%.3f)", model_name[m], AA_SERIES, alarms,
		    (double)alarms / AA_SERIES, up, changes,
		    (double)changes / AA_SERIES);
		tap_int_eq(fail, 0, "A/A %s: every series judged",
		    model_name[m]);
		tap_ok(up <= 1.0, "A/A %s: false alarms per series-year %.3f, "
		    "95%% upper bound %.3f <= 1", model_name[m],
		    (double)alarms / AA_SERIES, up);
	}

	for (m = 0; m < NMODELS; m++) {
		unsigned	delay[4] = { 0, 0, 0, 0 }, k;
		double		recall, want;

		for (i = 0; i < STEP_SERIES; i++) {
			/* Past the first reference, before the year's end. */
			size_t	s = 20 + gsl_rng_uniform_int(rng,
			    NIGHTS - 40);
			double	step = (i % 2 ? -2 : 2) * SIGMA;
			int	d = 3;

			series(rng, (enum model)m, s, step, nt);
			if (judge(nt, &row) == -1)
				continue;
			for (j = 0; j < row.nchanges && d == 3; j++) {
				const struct nightly_change *c;

				c = &row.changes[j];
				if (c->found < s || !alarm(c) ||
				    (c->rel > 0) != (step > 0))
					continue;
				d = c->found == s ? 0 : c->found == s + 1 ?
				    1 : 2;
			}
			delay[d]++;
			nightly_row_release(&row);
		}
		k = delay[0] + delay[1];
		recall = (double)k / STEP_SERIES;
		TAP_DIAG("steps %s (2 sigma = %.0f%%): %u series: caught on "
		    "the night %u, the next %u, later %u, never %u",
		    model_name[m], 200 * SIGMA, STEP_SERIES, delay[0],
		    delay[1], delay[2], delay[3]);
		want = m == M_LOADED ? 0.90 : 0.95;
		tap_ok(recall >= want, "steps %s: caught on their night or "
		    "the next in %.1f%% (>= %.0f%%)", model_name[m],
		    100 * recall, 100 * want);
	}
	gsl_rng_free(rng);
	return tap_done();
}
