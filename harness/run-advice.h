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
 * would show effect. Prints nothing otherwise; a database error is a
 * warning.
 */
void	run_advice(const char *db, int64_t run_id, double effect, FILE *fp);

#endif
