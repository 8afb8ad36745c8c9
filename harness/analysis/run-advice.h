/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample-size advice at the end of `abbench run` (run-advice.c).
 */
#ifndef ABBENCH_HARNESS_RUN_ADVICE_H
#define ABBENCH_HARNESS_RUN_ADVICE_H

#include <stdint.h>
#include <stdio.h>

/*
 * For each (benchmark, unit) of the run where some arm came out `~`
 * against the baseline (the U test at 0.05, as abbench stat), one line on
 * fp when its MDE at the run's n exceeds effect, with the rounds that
 * would show effect. Then, for each of those rows where some arm's
 * comparison with the baseline moved at a shift of the level the arms
 * share (harness/analysis/shifts.h), one warning naming the rounds on
 * either side and the delta in each. The rows are those abbench stat
 * prints for the run (its stat-filter). Prints nothing otherwise; a
 * database error is a warning. effect 0: the run's own (its experiment's
 * `effect`, 2% when it has none), as the verdicts of `--until decided`
 * take it.
 */
void	run_advice(const char *db, int64_t run_id, double effect, FILE *fp);

struct store;
struct strvec;
/*
 * What n counts in the rows of a run (arm NULL: every arm) whose
 * invocations printed several lines of a benchmark (a gobench program with
 * -test.count=3): one sentence per row onto notes, "DockerTrue sec/op
 * (LABEL): n=12 counts the 3 lines of each of 4 invocations" (label NULL:
 * the arm's name). benchstat's n counts lines; run_advice_lines_why says
 * why that matters. Database errors add nothing. Reads the run's sample
 * table (sampletab_load).
 */
void	run_advice_lines(struct store *st, int64_t run_id, const char *arm,
	    const char *label, struct strvec *notes);
/* The same from the run's sample table t (every arm or that one; no
 * warm-up rounds), read once by the caller. */
struct sampletab;
void	run_advice_lines_tab(const struct sampletab *t, const char *arm,
	    const char *label, struct strvec *notes);
extern const char run_advice_lines_why[];
/*
 * The notes from `from` on (one run's) as one: the first, and "; so do 5
 * other rows" when they all count alike, else "; 5 other rows count lines
 * too" (a suite's hundreds of rows make one line).
 */
void	run_advice_lines_one(struct strvec *notes, size_t from);

#endif
