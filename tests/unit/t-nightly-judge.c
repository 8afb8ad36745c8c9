/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/nightly-judge: the nightly verdict on made-up
 * nights. Flat nights; a step tonight (the night test); a smaller step
 * over the last two nights (the two-night test, found the night after);
 * an old step, known and failing nothing; an improvement; a unit of
 * unknown direction; too few nights; a reference too noisy for the
 * threshold, calibrated thresholds; a change read below the threshold
 * on its night and sized again over two nights; one outlier night, not a
 * change; a
 * noisy night (a loaded machine)
 * judged with its own noise and left out of later references; a change
 * below the threshold; an accepted night; nights without a value; all-
 * equal values; a median the rule refuses; bad options; the standard
 * error of a median. The unit directions and the verdict texts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"
#include "tests/unit/tap.h"

#define MAXN	64

static int64_t	ids[MAXN], nos[MAXN];
static struct nightly_night nt[MAXN];

/*
 * Nights [from, to) around level: +-spread (relative) in a fixed pattern,
 * each with standard error se (relative), 8 executions: values, not
 * noise, so every answer below is exact.
 */
static void
nights(size_t from, size_t to, double level, double spread, double se)
{
	size_t	h;

	for (h = from; h < to; h++) {
		memset(&nt[h], 0, sizeof(nt[h]));
		nt[h].median = level * (1 + spread *
		    (double)((int)((h * 7) % 11) - 5) / 5);
		nt[h].se = level * se;
		nt[h].n = 8;
	}
}

static struct nightly_input
input(const char *unit, int better, double threshold)
{
	struct nightly_input	in;

	memset(&in, 0, sizeof(in));
	in.unit = unit;
	in.better = better;
	in.threshold = threshold;
	in.nights = nt;
	return in;
}

/* Judge one row over nn nights with the default options; 0 or -1. */
static int
judge(const struct nightly_input *in, size_t nn, struct nightly_row *row)
{
	struct nightly_judge_options	o;
	char				*cause = NULL;
	int				 rc;

	nightly_judge_options_init(&o);
	memset(row, 0, sizeof(*row));
	rc = nightly_judge_rows(&o, in, 1, ids, nos, nn, row, &cause);
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

static const char *
vname(const struct nightly_row *row)
{
	return nightly_verdict_name(row->verdict);
}

int
main(void)
{
	struct nightly_input		 in;
	struct nightly_row		 row, again;
	struct nightly_judge_options	 o;
	char				*cause = NULL, *text;
	double				 v[8], se, mde;
	size_t				 h;

	for (h = 0; h < MAXN; h++) {
		ids[h] = 100 + (int64_t)h;
		nos[h] = 11 + (int64_t)h;	/* nights 11.. (a window) */
	}

	/* Flat: 20 nights +-0.5%, each median's se 0.3%. */
	nights(0, 20, 100, 0.005, 0.003);
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "flat: judged");
	tap_str_eq(vname(&row), "unchanged", "flat: unchanged");
	tap_ok(row.judged && row.k == 19 && row.nchanges == 0 &&
	    !row.new_change && row.nnights == 20, "flat: 19 nights of "
	    "reference, no change");
	tap_ok(fabs(row.z) < row.limit && row.limit > 3 && row.limit < 5,
	    "flat: z %g within the limit %g", row.z, row.limit);
	tap_ok(row.mde < 0.02 && !row.too_noisy, "flat: MDE %g below 2%%",
	    row.mde);
	{
		char	want[160];

		snprintf(want, sizeof(want), "%+.2f%% vs 19 nights, night "
		    "test z=%+.2f within %.2f", 100 * row.delta, row.z,
		    row.limit);
		tap_str_eq(row.reason, want, "flat: the reason");
	}
	nightly_row_release(&row);

	/* A 6% step tonight: the night test, a new change, regressed. */
	nights(0, 20, 100, 0.005, 0.003);
	nights(19, 20, 106, 0, 0.003);
	tap_int_eq(judge(&in, 20, &row), 0, "step tonight: judged");
	tap_str_eq(vname(&row), "regressed", "step tonight: regressed");
	tap_ok(row.new_change && row.nchanges == 1 &&
	    row.changes[0].night == 19 && row.changes[0].found == 19 &&
	    row.changes[0].test == NIGHTLY_TEST_NIGHT &&
	    row.changes[0].number == 30 && row.changes[0].run_id == 119,
	    "step tonight: one change, night 30 (its number), run 119, "
	    "found tonight by the night test");
	tap_ok(fabs(row.changes[0].rel - 0.06) < 0.002 &&
	    row.changes[0].z > row.changes[0].limit, "step tonight: +%g, "
	    "z %g beyond %g", row.changes[0].rel, row.changes[0].z,
	    row.changes[0].limit);
	tap_ok(strncmp(row.reason, "new change at night 30 (run 119): +",
	    35) == 0 && has(row.reason, "% vs 19 nights, night test z=+") &&
	    has(row.reason, " beyond "), "step tonight: the reason names "
	    "the night, run, size, test and numbers: %s", row.reason);
	nightly_row_release(&row);

	/* A 1% step over the last two nights (night se 0.3%, nights
	 * +-0.2%): neither night alone passes the night test; their mean
	 * passes the two-night test, the change at the first of them,
	 * found tonight. */
	nights(0, 30, 100, 0.002, 0.003);
	nights(28, 30, 101, 0, 0.003);
	tap_int_eq(judge(&in, 30, &row), 0, "two nights: judged");
	tap_ok(row.new_change && row.nchanges == 1 &&
	    row.changes[0].test == NIGHTLY_TEST_TWO &&
	    row.changes[0].night == 28 && row.changes[0].found == 29,
	    "two nights: found tonight by the two-night test, at night 28");
	tap_ok(has(row.reason, "new change at night 39 (run 128): +1.0") &&
	    has(row.reason, ", two-night test z=+") &&
	    has(row.reason, ", found the night after"), "two nights: said: "
	    "%s", row.reason);
	/* ... below the 2% threshold: a change, but unchanged. */
	tap_str_eq(vname(&row), "unchanged", "two nights: 1%% < 2%%: "
	    "unchanged");
	tap_ok(has(row.reason, "; below the threshold 2%"), "two nights: "
	    "below the threshold, said");
	nightly_row_release(&row);
	/* ... and the night before, with one night of it, nothing. */
	tap_int_eq(judge(&in, 29, &row), 0, "two nights, the first: judged");
	tap_ok(row.nchanges == 0 && row.verdict == NIGHTLY_UNCHANGED,
	    "two nights, the first: no change yet (z %g, limit %g)", row.z,
	    row.limit);
	nightly_row_release(&row);

	/* An old step (10% at night index 10 of 30): known, and tonight is
	 * judged against the nights since it: unchanged, exit 0. */
	nights(0, 10, 100, 0.005, 0.003);
	nights(10, 30, 110, 0.005, 0.003);
	tap_int_eq(judge(&in, 30, &row), 0, "known: judged");
	tap_str_eq(vname(&row), "unchanged", "known: unchanged");
	tap_ok(!row.new_change && row.nchanges == 1 &&
	    row.changes[0].night == 10 && row.changes[0].found == 10 &&
	    row.ref_from == 10 && row.k == 19, "known: the change at index "
	    "10, the reference its 19 nights since");
	tap_ok(has(row.reason, "; known change at night 21 (run 110): "
	    "+9.") && has(row.reason, "% vs 10 nights, night test z=+"),
	    "known: said, with its night, size and test: %s", row.reason);
	nightly_row_release(&row);
	/* ... judged on the night it came: regressed then. */
	tap_int_eq(judge(&in, 11, &row), 0, "known, its night: judged");
	tap_ok(row.verdict == NIGHTLY_REGRESSED && row.new_change,
	    "known, its night: regressed, new");
	nightly_row_release(&row);
	/* ... and the night after: judged against the one night of the
	 * new level, with the spread of the nights before it (9 degrees
	 * of freedom). */
	tap_int_eq(judge(&in, 12, &row), 0, "known, next night: judged");
	tap_str_eq(vname(&row), "unchanged", "known, next night: "
	    "unchanged");
	tap_ok(row.judged && row.k == 1 && has(row.reason, " vs 1 night, "
	    "night test z=") && has(row.reason, "; known change at night "
	    "21 "), "known, next night: said: %s", row.reason);
	tap_ok(row.limit > 4.5 && row.limit < 6, "known, next night: the "
	    "limit of t with 9 degrees of freedom (%g)", row.limit);
	nightly_row_release(&row);

	/*
	 * A step near the threshold (bench/history-truth's -2.41%): its
	 * night reads -1.8%, below 2%, unchanged; the night after, -2.4%,
	 * sizes it over both nights (-2.1%): regressed then, once.
	 */
	nights(0, 22, 100, 0.005, 0.003);
	nt[20].median = 98.2;
	nt[21].median = 97.6;
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 21, &row), 0, "resized, its night: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && row.new_change &&
	    has(row.reason, "; below the threshold 2%"), "resized, its "
	    "night: -1.8%% below the threshold: %s", row.reason);
	nightly_row_release(&row);
	tap_int_eq(judge(&in, 22, &row), 0, "resized, the night after: "
	    "judged");
	tap_ok(row.verdict == NIGHTLY_IMPROVED && !row.new_change &&
	    row.resized && row.nchanges == 1 && row.changes[0].resized &&
	    row.changes[0].found2 == 21 && fabs(row.changes[0].rel2 -
	    (97.9 - row.changes[0].before) / row.changes[0].before) < 1e-12,
	    "resized, the night after: the mean of its two nights against "
	    "the nights before it: %s", vname(&row));
	tap_ok(has(row.reason, "-2.") && has(row.reason, "% over the 2 "
	    "nights of change at night 31 (run 120): -1."), "resized, the "
	    "night after: said: %s", row.reason);
	{
		size_t	found = 0;
		double	rel = 0;

		tap_ok(nightly_change_alarm(&row.changes[0], 0.02, &found,
		    &rel) && found == 21 && rel == row.changes[0].rel2 &&
		    !nightly_change_alarm(&row.changes[0], 0.025, &found,
		    &rel), "resized: the alarm on the night after at 2%%, "
		    "none at 2.5%%");
	}
	nightly_row_release(&row);
	nights(22, 23, 100, 0, 0.003);
	nt[22].median = 97.8;
	tap_int_eq(judge(&in, 23, &row), 0, "resized, later: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && !row.resized &&
	    has(row.reason, "; known change at night 31"), "resized, "
	    "later: known, no second alarm: %s", row.reason);
	nightly_row_release(&row);

	/* Improved: iops (higher is better) up 6%; sec/op down 6%. */
	nights(0, 20, 40000, 0.005, 0.003);
	nights(19, 20, 42400, 0, 0.003);
	in = input("iops", nightly_unit_better("iops", NULL), 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "iops up: judged");
	tap_str_eq(vname(&row), "improved", "iops up: improved");
	tap_int_eq(row.better, 1, "iops: better is higher, copied");
	nightly_row_release(&row);
	nights(0, 20, 100, 0.005, 0.003);
	nights(19, 20, 94, 0, 0.003);
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "sec/op down: judged");
	tap_str_eq(vname(&row), "improved", "sec/op down: improved");
	nightly_row_release(&row);

	/* A unit of unknown direction: a clear change is inconclusive. */
	nights(0, 20, 100, 0.005, 0.003);
	nights(19, 20, 106, 0, 0.003);
	in = input("widgets", nightly_unit_better("widgets", NULL), 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "unknown direction: judged");
	tap_ok(row.verdict == NIGHTLY_INCONCLUSIVE && !row.too_noisy &&
	    has(row.reason, "; direction of unit 'widgets' unknown"),
	    "unknown direction: inconclusive, said: %s", row.reason);
	nightly_row_release(&row);
	nights(0, 20, 100, 0.005, 0.003);
	tap_int_eq(judge(&in, 20, &row), 0, "unknown direction, flat: "
	    "judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && !has(row.reason,
	    "direction"), "unknown direction, no change: unchanged, not "
	    "mentioned");
	nightly_row_release(&row);

	/* Too few nights: 3 (2 to compare with), even with a 10% step. */
	nights(0, 2, 100, 0.005, 0.003);
	nights(2, 3, 110, 0, 0.003);
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 3, &row), 0, "too few: judged");
	tap_str_eq(vname(&row), "inconclusive", "too few: inconclusive");
	tap_str_eq(row.reason, "2 nights to compare with since night 11, 3 "
	    "needed", "too few: the reason counts nights from their "
	    "numbers");
	tap_ok(!row.judged && isinf(row.mde) && !row.too_noisy,
	    "too few: not judged, MDE infinite, not 'too noisy'");
	nightly_row_release(&row);
	/* The first night. */
	tap_int_eq(judge(&in, 1, &row), 0, "first night: judged");
	tap_str_eq(row.reason, "0 nights to compare with since night 11, 3 "
	    "needed", "first night: the reason");
	nightly_row_release(&row);

	/* Too noisy: nights +-5% cannot show 2%: inconclusive, never
	 * unchanged; a calibrated 3% says so; a threshold above the MDE
	 * makes it unchanged. */
	nights(0, 20, 100, 0.05, 0.003);
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "too noisy: judged");
	tap_ok(row.verdict == NIGHTLY_INCONCLUSIVE && row.too_noisy &&
	    row.mde > 0.05 && isfinite(row.mde), "too noisy: inconclusive, "
	    "MDE %g", row.mde);
	tap_ok(strncmp(row.reason, "MDE ", 4) == 0 && has(row.reason,
	    " at 19 nights > threshold 2%; ") && !has(row.reason,
	    "calibrated"), "too noisy: the MDE first: %s", row.reason);
	text = nightly_verdict_text(&row);
	tap_ok(strncmp(text, "inconclusive (too noisy: MDE ", 29) == 0 &&
	    text[strlen(text) - 1] == ')', "too noisy: verdict text '%s'",
	    text);
	free(text);
	mde = row.mde;
	nightly_row_release(&row);
	in.threshold = 0.03;
	in.threshold_calibrated = 1;
	tap_int_eq(judge(&in, 20, &row), 0, "calibrated 3%%: judged");
	tap_ok(has(row.reason, " > threshold 3% (calibrated); "),
	    "calibrated 3%%: said: %s", row.reason);
	nightly_row_release(&row);
	in.threshold = mde * 1.01;
	tap_int_eq(judge(&in, 20, &row), 0, "above the MDE: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && !row.too_noisy,
	    "calibrated above the MDE: unchanged");
	text = nightly_verdict_text(&row);
	tap_str_eq(text, "unchanged", "verdict text: unchanged");
	free(text);
	nightly_row_release(&row);

	/* A noisy night (a loaded machine): its median 15% off but its
	 * se 10%: judged with its own noise, no change; and left out of
	 * the next night's reference. */
	nights(0, 20, 100, 0.005, 0.003);
	nt[19].median = 85;
	nt[19].se = 10;
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "noisy night: judged");
	tap_ok(row.nchanges == 0 && row.verdict != NIGHTLY_IMPROVED &&
	    row.too_noisy, "noisy night: no change, too noisy (%s)",
	    row.reason);
	tap_ok(fabs(row.delta + 0.15) < 0.01 && fabs(row.z) < row.limit,
	    "noisy night: -15%% but z %g within %g", row.z, row.limit);
	nightly_row_release(&row);
	nights(20, 21, 100, 0, 0.003);
	tap_int_eq(judge(&in, 21, &row), 0, "after the noisy night: judged");
	tap_ok(row.nchanges == 0 && row.k == 19 && row.verdict ==
	    NIGHTLY_UNCHANGED, "after the noisy night: unchanged, 19 of 20 "
	    "nights in the reference (k %zu)", row.k);
	nightly_row_release(&row);
	/* The same -15% on a quiet night: a change. */
	nights(0, 20, 100, 0.005, 0.003);
	nt[19].median = 85;
	tap_int_eq(judge(&in, 20, &row), 0, "quiet -15%%: judged");
	tap_str_eq(vname(&row), "improved", "quiet -15%%: improved");
	nightly_row_release(&row);

	/* One outlier night (+15%, quiet: a machine loaded all night long):
	 * an alarm on its night; the next night back at the old level is
	 * no second alarm, the outlier is out of the references, and after
	 * that night it is not mentioned. */
	nights(0, 22, 100, 0.005, 0.003);
	nt[19].median = 115;
	tap_int_eq(judge(&in, 20, &row), 0, "outlier: its night judged");
	tap_str_eq(vname(&row), "regressed", "outlier: its night regressed");
	nightly_row_release(&row);
	tap_int_eq(judge(&in, 21, &row), 0, "outlier, back: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && !row.new_change &&
	    row.outlier_back && row.nchanges == 1 &&
	    row.changes[0].transient && row.changes[0].back == 20 &&
	    row.k == 19, "outlier, back: unchanged against the 19 nights "
	    "before it, the change transient");
	tap_ok(has(row.reason, "; outlier at night 30 (run 119): +1") &&
	    has(row.reason, ", back the night after: not a change") &&
	    !has(row.reason, "known"), "outlier, back: said: %s",
	    row.reason);
	nightly_row_release(&row);
	tap_int_eq(judge(&in, 22, &row), 0, "outlier, later: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && !row.outlier_back &&
	    !has(row.reason, "outlier") && row.k == 20, "outlier, later: "
	    "unchanged, not mentioned, 20 nights: %s", row.reason);
	nightly_row_release(&row);

	/* An accepted night (ack) starts a new reference: an old step
	 * before it is not even found, the reference begins there. */
	nights(0, 10, 100, 0.005, 0.003);
	nights(10, 20, 110, 0.005, 0.003);
	nt[12].ack = 1;
	tap_int_eq(judge(&in, 20, &row), 0, "ack: judged");
	tap_ok(row.ref_from == 12 && row.k == 7 && row.verdict ==
	    NIGHTLY_UNCHANGED, "ack: the reference from night index 12, 7 "
	    "nights");
	tap_ok(row.nchanges == 2 && row.changes[1].test == NIGHTLY_TEST_ACK &&
	    has(row.reason, "; new reference from night 23 (run 112), "
	    "accepted"), "ack: said: %s", row.reason);
	nt[12].ack = 0;
	nightly_row_release(&row);

	/* Nights without a value: skipped, a change named by its night. */
	nights(0, 12, 100, 0.005, 0.003);
	nights(12, 13, 110, 0, 0.003);
	for (h = 1; h < 12; h += 3)
		nt[h].median = NAN;
	tap_int_eq(judge(&in, 13, &row), 0, "NaN nights: judged");
	tap_ok(row.nnights == 9 && row.k == 8 && row.nchanges == 1 &&
	    row.changes[0].number == 23 && row.changes[0].run_id == 112,
	    "NaN nights: 9 of 13 counted, the change at night 23, run 112");
	nightly_row_release(&row);

	/* All-equal: z 0, unchanged, no change; one value off: a change. */
	for (h = 0; h < 20; h++) {
		nt[h].median = 64;
		nt[h].se = 0;
		nt[h].n = 6;
		nt[h].ack = 0;
	}
	in = input("B/op", nightly_unit_better("B/op", NULL), 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "all equal: judged");
	tap_ok(row.verdict == NIGHTLY_UNCHANGED && row.z == 0 &&
	    row.delta == 0 && row.nchanges == 0 && row.mde == 0,
	    "all equal: unchanged, z 0, MDE 0");
	nightly_row_release(&row);
	nt[19].median = 72;
	tap_int_eq(judge(&in, 20, &row), 0, "all equal but tonight: judged");
	tap_ok(row.verdict == NIGHTLY_REGRESSED && isinf(row.changes[0].z),
	    "all equal but tonight: regressed (z infinite)");
	nightly_row_release(&row);

	/* A median of zero: no relative change. */
	nights(0, 20, 0, 0, 0);
	in = input("sec/op", -1, 0.02);
	tap_int_eq(judge(&in, 20, &row), 0, "zero: judged");
	tap_ok(isnan(row.delta) && has(row.reason, "? vs 19 nights"),
	    "zero: delta ?: %s", row.reason);
	nightly_row_release(&row);

	/* A median the rule refuses, bad options: -1, a cause. */
	nights(0, 20, 100, 0.005, 0.003);
	nt[7].median = INFINITY;
	nightly_judge_options_init(&o);
	memset(&row, 0, sizeof(row));
	tap_int_eq(nightly_judge_rows(&o, &in, 1, ids, nos, 20, &row,
	    &cause), -1, "an infinite night: -1");
	tap_ok(has(cause, "night 18 (run 107)"), "... naming it: %s",
	    cause ? cause : "(null)");
	free(cause);
	cause = NULL;
	nt[7].median = 100;
	o.alpha = 0;
	tap_int_eq(nightly_judge_rows(&o, &in, 1, ids, nos, 20, &row,
	    &cause), -1, "alpha 0: -1");
	free(cause);
	cause = NULL;
	nightly_judge_options_init(&o);
	o.window = 1;
	tap_int_eq(nightly_judge_rows(&o, &in, 1, ids, nos, 20, &row,
	    &cause), -1, "a window of 1 night: -1");
	tap_ok(has(cause, "cannot be judged"), "... %s", cause ? cause :
	    "(null)");
	free(cause);
	nightly_row_release(&row);

	/* The same values give the same answer. */
	nights(0, 20, 100, 0.01, 0.003);
	nights(10, 20, 101.5, 0.01, 0.003);
	tap_int_eq(judge(&in, 20, &row), 0, "twice: first");
	tap_int_eq(judge(&in, 20, &again), 0, "twice: second");
	tap_ok(row.mde == again.mde && row.nchanges == again.nchanges &&
	    strcmp(row.reason, again.reason) == 0, "twice: the same");
	nightly_row_release(&again);
	nightly_row_release(&row);
	nightly_row_release(&row);
	tap_ok(row.reason == NULL && row.changes == NULL, "release twice");

	/* The median's standard error: 1.2533 * 1.4826 MAD / sqrt(n). */
	for (h = 0; h < 8; h++)
		v[h] = 100 + (double)h;
	se = nightly_median_se(v, 8);
	tap_ok(fabs(se - 1.2533 * 1.4826 * 2 / sqrt(8.0)) < 1e-9,
	    "se of 100..107: %g", se);
	tap_ok(isnan(nightly_median_se(v, 1)), "se of one value: NaN");

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
