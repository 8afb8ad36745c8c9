/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/nightly-judge: the nightly verdict on made-up
 * numbers. A regression seen by the U test only, by a change point only,
 * by both; an improvement; a change in a unit of unknown direction; too
 * few samples and too short a history; a baseline too noisy for the
 * threshold; calibrated thresholds; Holm across rows turning a regression
 * into none; nights without a value skipped (and named by their own
 * index); all-equal samples; a night the change-point test refuses. The
 * unit directions and the verdict texts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"
#include "tests/unit/tap.h"

#define MAXV	64

struct data {
	double	cand[MAXV], base[MAXV], nights[MAXV];
	size_t	ncand, nbase;
};

static int64_t	ids[MAXV];

/*
 * n values around level, spread +-spread (relative) in a fixed pattern,
 * sorted: values, not noise, so every answer below is exact.
 */
static size_t
around(double *v, size_t n, double level, double spread)
{
	size_t	i;

	for (i = 0; i < n; i++)
		v[i] = level * (1 + spread * (double)((int)((i * 7) % 11) - 5) /
		    5);
	qsort(v, n, sizeof(*v), cmp_double);
	return n;
}

/* Nights [from, to) around level (+-0.2%), in night order. */
static void
nights(double *v, size_t from, size_t to, double level)
{
	size_t	h;

	for (h = from; h < to; h++)
		v[h] = level * (1 + 0.002 * (double)((int)((h * 7) % 11) - 5) /
		    5);
}

static struct nightly_input
input(const struct data *d, const char *unit, int better, double threshold)
{
	struct nightly_input	in;

	memset(&in, 0, sizeof(in));
	in.unit = unit;
	in.better = better;
	in.threshold = threshold;
	in.cand = d->cand;
	in.ncand = d->ncand;
	in.base = d->base;
	in.nbase = d->nbase;
	in.nights = d->nights;
	return in;
}

/* Judge n rows over nn nights with the default options; 0 or -1. */
static int
judge(const struct nightly_input *in, size_t n, size_t nn,
    struct nightly_row *rows)
{
	struct nightly_judge_options	o;
	char				*cause = NULL;
	int				 rc;

	nightly_judge_options_init(&o);
	memset(rows, 0, n * sizeof(*rows));
	rc = nightly_judge_rows(&o, in, n, ids, nn, rows, &cause);
	if (rc == -1) {
		TAP_DIAG("nightly_judge_rows: %s", cause);
		free(cause);
	}
	return rc;
}

static int
has(const char *s, const char *part)
{
	return s != NULL && strstr(s, part) != NULL;
}

/* The reason names the last change: its night, run and step. */
static int
names_change(const struct nightly_row *row, size_t night, int64_t run)
{
	char	want[128];

	if (row->nchanges == 0)
		return 0;
	snprintf(want, sizeof(want), "; change at night %zu (run %lld): "
	    "%+.2f%%", night, (long long)run,
	    100 * row->changes[row->nchanges - 1].rel_median);
	return has(row->reason, want);
}

static void
release(struct nightly_row *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		nightly_row_release(&rows[i]);
}

int
main(void)
{
	struct data			 a, b;
	struct nightly_input		 in[2];
	struct nightly_row		 rows[2];
	struct nightly_judge_options	 o;
	char				*cause = NULL, *text;
	size_t				 h;

	for (h = 0; h < MAXV; h++)
		ids[h] = 100 + (int64_t)h;

	/* The U test only: tonight's 11 executions 6% slower than the 25
	 * of the baseline, 20 flat nights (no change point). */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.005);
	a.ncand = around(a.cand, 11, 106, 0.005);
	nights(a.nights, 0, 20, 100);
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "U test only: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "U test only: regressed");
	tap_ok(rows[0].tested && rows[0].p < 1e-5 && rows[0].p_holm ==
	    rows[0].p, "U test only: p %g, Holm of one row is p",
	    rows[0].p);
	tap_ok(fabs(rows[0].delta - 0.06) < 1e-9, "U test only: delta %g",
	    rows[0].delta);
	tap_int_eq((int)rows[0].nchanges, 0, "U test only: no change point");
	tap_int_eq((int)rows[0].nnights, 20, "U test only: 20 nights");
	tap_str_eq(rows[0].reason, "+6.00% vs baseline (p=0.000 holm=0.000 "
	    "n=11+25); no change point in 20 nights",
	    "U test only: the reason");
	tap_ok(rows[0].mde < 0.02 && !rows[0].too_noisy,
	    "U test only: the MDE %g is below the threshold", rows[0].mde);
	release(rows, 1);

	/* A change point only: the candidate is like its baseline (both on
	 * the new level), the nights step up 5% at night 10. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 5, 105, 0.002);
	a.ncand = around(a.cand, 5, 105, 0.002);
	nights(a.nights, 0, 10, 100);
	nights(a.nights, 10, 20, 105);
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "change point only: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "change point only: regressed");
	tap_ok(rows[0].tested && rows[0].p > 0.5, "change point only: the U "
	    "test sees nothing (p %g)", rows[0].p);
	tap_ok(rows[0].nchanges == 1 && rows[0].changes[0].night == 10 &&
	    rows[0].changes[0].run_id == 110, "change point only: at night "
	    "10, run 110");
	tap_ok(rows[0].nchanges == 1 && fabs(rows[0].changes[0].rel_median -
	    0.05) < 1e-3, "change point only: a 5%% step");
	tap_ok(names_change(&rows[0], 10, 110), "change point only: the "
	    "reason names it: %s", rows[0].reason);
	release(rows, 1);

	/* Both: tonight 6% slower than the baseline, and a step in the
	 * nights to tonight's level. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.005);
	a.ncand = around(a.cand, 11, 106, 0.005);
	nights(a.nights, 0, 12, 100);
	nights(a.nights, 12, 20, 106);
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "both: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "both: regressed");
	tap_ok(has(rows[0].reason, "+6.00% vs baseline (p=0.000") &&
	    names_change(&rows[0], 12, 112) &&
	    fabs(rows[0].changes[0].rel_median - 0.06) < 1e-3,
	    "both: the reason has both: %s", rows[0].reason);
	release(rows, 1);

	/* Improved: iops (higher is better) up 6% by both signals; and
	 * sec/op down by the U test. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 40000, 0.005);
	a.ncand = around(a.cand, 11, 42400, 0.005);
	nights(a.nights, 0, 12, 40000);
	nights(a.nights, 12, 20, 42400);
	in[0] = input(&a, "iops", nightly_unit_better("iops", NULL), 0.02);
	memset(&b, 0, sizeof(b));
	b.nbase = around(b.base, 25, 100, 0.005);
	b.ncand = around(b.cand, 11, 94, 0.005);
	nights(b.nights, 0, 20, 100);
	in[1] = input(&b, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 2, 20, rows), 0, "improved: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "improved",
	    "iops up: improved");
	tap_str_eq(nightly_verdict_name(rows[1].verdict), "improved",
	    "sec/op down: improved");
	tap_int_eq(rows[0].better, 1, "iops: better is higher, copied");
	release(rows, 2);

	/* A unit of unknown direction: a clear change is inconclusive. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.005);
	a.ncand = around(a.cand, 11, 106, 0.005);
	nights(a.nights, 0, 20, 100);
	in[0] = input(&a, "widgets", nightly_unit_better("widgets", NULL),
	    0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "unknown direction: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "inconclusive",
	    "unknown direction: inconclusive");
	tap_ok(has(rows[0].reason, "; direction of unit 'widgets' unknown") &&
	    !rows[0].too_noisy, "unknown direction: said: %s",
	    rows[0].reason);
	release(rows, 1);
	/* ... and with no change, it is simply unchanged. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.005);
	a.ncand = around(a.cand, 11, 100, 0.005);
	nights(a.nights, 0, 20, 100);
	in[0] = input(&a, "widgets", 0, 0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "unknown direction, flat: "
	    "judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "unchanged",
	    "unknown direction, no change: unchanged");
	tap_ok(!has(rows[0].reason, "direction"), "... and the direction is "
	    "not mentioned: %s", rows[0].reason);
	release(rows, 1);

	/* Too few samples (2 + 2: the U test cannot reach 0.05) and too
	 * short a history (3 nights, 6 needed): inconclusive, even with a
	 * 10% step between them. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 2, 100, 0.005);
	a.ncand = around(a.cand, 2, 110, 0.005);
	nights(a.nights, 0, 2, 100);
	nights(a.nights, 2, 3, 110);
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 3, rows), 0, "too few: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "inconclusive",
	    "too few samples, too short a history: inconclusive");
	tap_ok(has(rows[0].reason, " too few samples for the test") &&
	    has(rows[0].reason, "; 3 nights of history, too few for change "
	    "points") && !rows[0].too_noisy, "too few: both said, not 'too "
	    "noisy': %s", rows[0].reason);
	release(rows, 1);
	/* The first night: no baseline, one night. */
	memset(&a, 0, sizeof(a));
	a.ncand = around(a.cand, 5, 100, 0.005);
	a.nights[0] = 100;
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 1, rows), 0, "first night: judged");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "inconclusive",
	    "first night: inconclusive");
	tap_str_eq(rows[0].reason, "no baseline; 1 night of history, too few "
	    "for change points", "first night: the reason");
	tap_ok(!rows[0].tested && isnan(rows[0].p) && isnan(rows[0].delta) &&
	    isinf(rows[0].mde), "first night: untested, no delta, MDE "
	    "infinite");
	release(rows, 1);

	/* Too noisy: a baseline spread +-50% cannot show 2%: inconclusive,
	 * never unchanged; with a calibrated 3% the reason says so; with a
	 * calibrated threshold above the MDE it is unchanged. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.5);
	a.ncand = around(a.cand, 11, 100, 0.5);
	nights(a.nights, 0, 20, 100);
	in[0] = input(&a, "sec/op", -1, 0.02);
	in[1] = input(&a, "sec/op", -1, 0.03);
	in[1].threshold_calibrated = 1;
	tap_int_eq(judge(in, 2, 20, rows), 0, "too noisy: judged");
	tap_ok(rows[0].verdict == NIGHTLY_INCONCLUSIVE && rows[0].too_noisy,
	    "too noisy: inconclusive, too_noisy");
	tap_ok(rows[0].mde > 0.1 && isfinite(rows[0].mde), "too noisy: MDE "
	    "%g", rows[0].mde);
	tap_ok(has(rows[0].reason, " > threshold 2%; ") &&
	    !has(rows[0].reason, "calibrated"), "too noisy: the reason: %s",
	    rows[0].reason);
	tap_ok(strncmp(rows[0].reason, "MDE ", 4) == 0 &&
	    has(rows[0].reason, " at n=11+25 > "), "too noisy: the MDE "
	    "first, at the sizes");
	text = nightly_verdict_text(&rows[0]);
	tap_ok(strncmp(text, "inconclusive (too noisy: MDE ", 29) == 0 &&
	    text[strlen(text) - 1] == ')', "too noisy: verdict text '%s'",
	    text);
	free(text);
	tap_ok(rows[1].threshold_calibrated && rows[1].threshold == 0.03 &&
	    has(rows[1].reason, " > threshold 3% (calibrated); "),
	    "calibrated 3%%: said: %s", rows[1].reason);
	{
		double	mde = rows[0].mde;

		release(rows, 2);
		in[0].threshold = mde * 1.01;
		in[0].threshold_calibrated = 1;
		tap_int_eq(judge(in, 1, 20, rows), 0, "calibrated above the "
		    "MDE: judged");
		tap_ok(rows[0].verdict == NIGHTLY_UNCHANGED &&
		    !rows[0].too_noisy, "calibrated above the MDE: unchanged");
		text = nightly_verdict_text(&rows[0]);
		tap_str_eq(text, "unchanged", "verdict text: unchanged");
		free(text);
		release(rows, 1);
	}
	/* A calibrated threshold above a real 6% step: not a regression. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.005);
	a.ncand = around(a.cand, 11, 106, 0.005);
	nights(a.nights, 0, 20, 100);
	in[0] = input(&a, "sec/op", -1, 0.10);
	in[0].threshold_calibrated = 1;
	tap_int_eq(judge(in, 1, 20, rows), 0, "calibrated 10%%: judged");
	tap_ok(rows[0].verdict == NIGHTLY_UNCHANGED && rows[0].p < 1e-5,
	    "calibrated 10%%: a significant 6%% is unchanged");
	release(rows, 1);

	/* Holm: alone, 5 + 5 executions with U = 2 give p = 8/252 = 0.032,
	 * a regression; beside a second row tested, Holm doubles it past
	 * alpha. */
	memset(&a, 0, sizeof(a));
	a.base[0] = 100; a.base[1] = 101; a.base[2] = 102; a.base[3] = 103;
	a.base[4] = 106;
	a.cand[0] = 104; a.cand[1] = 105; a.cand[2] = 107; a.cand[3] = 108;
	a.cand[4] = 109;
	a.nbase = a.ncand = 5;
	nights(a.nights, 0, 3, 100);
	memset(&b, 0, sizeof(b));
	b.nbase = around(b.base, 5, 100, 0.005);
	b.ncand = around(b.cand, 5, 100, 0.005);
	nights(b.nights, 0, 3, 100);
	in[0] = input(&a, "sec/op", -1, 0.02);
	in[1] = input(&b, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 3, rows), 0, "Holm, one row: judged");
	tap_ok(fabs(rows[0].p - 8.0 / 252) < 1e-12 && rows[0].p_holm ==
	    rows[0].p, "Holm, one row: p %g = 8/252, uncorrected", rows[0].p);
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "Holm, one row: regressed");
	release(rows, 1);
	tap_int_eq(judge(in, 2, 3, rows), 0, "Holm, two rows: judged");
	tap_ok(fabs(rows[0].p_holm - 16.0 / 252) < 1e-12, "Holm, two rows: "
	    "p doubled, %g", rows[0].p_holm);
	tap_ok(rows[0].verdict != NIGHTLY_REGRESSED, "Holm, two rows: no "
	    "longer regressed (%s)", nightly_verdict_name(rows[0].verdict));
	tap_ok(has(rows[0].reason, "(p=0.032 holm=0.063 n=5+5)"),
	    "Holm, two rows: both p in the reason: %s", rows[0].reason);
	release(rows, 2);
	/* An untested row (no baseline) is not counted by Holm. */
	b.nbase = 0;
	in[1] = input(&b, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 2, 3, rows), 0, "Holm, untested row: judged");
	tap_ok(rows[0].p_holm == rows[0].p && !rows[1].tested &&
	    isnan(rows[1].p_holm), "Holm: a row without a baseline is no "
	    "test");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "Holm, untested row: still regressed");
	release(rows, 2);

	/* Nights without a value: skipped, and a change is named by its
	 * night in the history (12, after a missing 11), not by its place
	 * among the nights that have one (8). */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 5, 105, 0.002);
	a.ncand = around(a.cand, 5, 105, 0.002);
	nights(a.nights, 0, 12, 100);
	nights(a.nights, 12, 24, 105);
	for (h = 2; h < 24; h += 3)
		a.nights[h] = NAN;
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 24, rows), 0, "NaN nights: judged");
	tap_int_eq((int)rows[0].nnights, 16, "NaN nights: 16 of 24 counted");
	tap_ok(rows[0].nchanges == 1 && rows[0].changes[0].night == 12 &&
	    rows[0].changes[0].run_id == 112, "NaN nights: the change at "
	    "night 12, run 112 (night %zu)", rows[0].nchanges ?
	    rows[0].changes[0].night : 0);
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "regressed",
	    "NaN nights: regressed");
	release(rows, 1);

	/* All-equal samples: the U test has nothing to rank (p = 1), no
	 * change in flat nights, an MDE of zero spread: unchanged. */
	memset(&a, 0, sizeof(a));
	for (h = 0; h < 6; h++)
		a.base[h] = a.cand[h] = 64;
	a.nbase = a.ncand = 6;
	for (h = 0; h < 20; h++)
		a.nights[h] = 64;
	in[0] = input(&a, "B/op", nightly_unit_better("B/op", NULL), 0.02);
	tap_int_eq(judge(in, 1, 20, rows), 0, "all equal: judged");
	tap_ok(rows[0].tested && rows[0].p == 1 && rows[0].delta == 0,
	    "all equal: p 1, delta 0");
	tap_int_eq((int)rows[0].nchanges, 0, "all equal: no change point");
	tap_str_eq(nightly_verdict_name(rows[0].verdict), "unchanged",
	    "all equal: unchanged");
	tap_str_eq(rows[0].reason, "+0.00% vs baseline (p=1.000 holm=1.000 "
	    "n=6+6); no change point in 20 nights", "all equal: the reason");
	release(rows, 1);

	/* A median of zero: no relative change (delta ?), the reason says
	 * so. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 5, 0, 0.1);
	a.ncand = around(a.cand, 5, 0, 0.1);
	nights(a.nights, 0, 3, 0);
	in[0] = input(&a, "sec/op", -1, 0.02);
	tap_int_eq(judge(in, 1, 3, rows), 0, "zero baseline: judged");
	tap_ok(isnan(rows[0].delta) && has(rows[0].reason, "? vs baseline"),
	    "zero baseline: delta ?: %s", rows[0].reason);
	release(rows, 1);

	/* A night the change-point test refuses (infinite): -1, a cause. */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 5, 100, 0.005);
	a.ncand = around(a.cand, 5, 100, 0.005);
	nights(a.nights, 0, 20, 100);
	a.nights[7] = INFINITY;
	in[0] = input(&a, "sec/op", -1, 0.02);
	nightly_judge_options_init(&o);
	memset(rows, 0, sizeof(rows));
	tap_int_eq(nightly_judge_rows(&o, in, 1, ids, 20, rows, &cause), -1,
	    "an infinite night: -1");
	tap_ok(cause != NULL && *cause != '\0', "... with a cause: %s",
	    cause ? cause : "(null)");
	free(cause);
	release(rows, 1);

	/* The same values give the same answer (seeded). */
	memset(&a, 0, sizeof(a));
	a.nbase = around(a.base, 25, 100, 0.01);
	a.ncand = around(a.cand, 11, 101, 0.01);
	nights(a.nights, 0, 10, 100);
	nights(a.nights, 10, 20, 101.5);
	in[0] = input(&a, "sec/op", -1, 0.02);
	{
		struct nightly_row	again[1];

		tap_int_eq(judge(in, 1, 20, rows), 0, "seeded: first");
		tap_int_eq(judge(in, 1, 20, again), 0, "seeded: second");
		tap_ok(rows[0].mde == again[0].mde && rows[0].nchanges ==
		    again[0].nchanges && strcmp(rows[0].reason,
		    again[0].reason) == 0, "seeded: the same MDE, changes "
		    "and reason");
		release(again, 1);
		release(rows, 1);
	}

	/* Directions of units. */
	tap_int_eq(nightly_unit_better("sec/op", NULL), -1, "sec/op: lower");
	tap_int_eq(nightly_unit_better("startup-sec/op", NULL), -1,
	    "*-sec/op: lower");
	tap_int_eq(nightly_unit_better("max-rss-B", NULL), -1, "*-B: lower");
	tap_int_eq(nightly_unit_better("B/s", NULL), 1, "B/s: higher");
	tap_int_eq(nightly_unit_better("ctxsw/s", NULL), -1,
	    "ctxsw/s: a rate, but a cost: lower");
	tap_int_eq(nightly_unit_better("ops_per_second", NULL), 1,
	    "ops_per_second: higher");
	tap_int_eq(nightly_unit_better("widgets", NULL), 0, "widgets: ?");
	tap_int_eq(nightly_unit_better("widgets", "higher"), 1,
	    "stored higher wins");
	tap_int_eq(nightly_unit_better("iops", "lower"), -1,
	    "stored lower wins over the name");
	tap_int_eq(nightly_unit_better("iops", "sideways"), 1,
	    "a stored value that is neither: the name");
	tap_str_eq(nightly_verdict_name(NIGHTLY_IMPROVED), "improved",
	    "verdict name");
	return tap_done();
}
