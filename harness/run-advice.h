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
 * against the baseline (the U test at 0.05, as abbench stat), one line
 * on fp when its MDE at the run's n exceeds effect, with the rounds that
 * would show effect. Then, for each of those rows where some arm's
 * comparison with the baseline moved at a shift of the level the arms
 * share (harness/shifts.h), one warning naming the rounds on either side
 * and the delta in each. The rows are those abbench stat prints for the
 * run (its stat-filter). Prints nothing otherwise; a database error is a
 * warning.
 */
void	run_advice(const char *db, int64_t run_id, double effect, FILE *fp);

#endif
