/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (stats/nightly-judge.c) proved by simulation over
 * generated years of nights, as `abbench nightly` builds them (each
 * night: the median of its executions and nightly_median_se).
 *
 * Noise models: tests/unit/nightsim.h.
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
#include "tests/unit/nightsim.h"
#include "tests/unit/tap.h"

#define THRESHOLD	0.02
#define AA_SERIES	300
#define STEP_SERIES	600

static int64_t	ids[NIGHTS], nos[NIGHTS];

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
alarm(const struct nightly_change *c, size_t *found, double *rel)
{
	return nightly_change_alarm(c, THRESHOLD, found, rel);
}

int
main(void)
{
	static struct nightly_night	nt[NIGHTS];
	struct nightly_row		row;
	gsl_rng				*rng;
	unsigned			 m, i, j;
	size_t				 h, at;
	double				 rel;

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
				alarms += alarm(&row.changes[j], &at, &rel);
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
				if (!alarm(c, &at, &rel) || at < s ||
				    (rel > 0) != (step > 0))
					continue;
				d = at == s ? 0 : at == s + 1 ? 1 : 2;
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
