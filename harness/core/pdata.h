/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the power computations take from a run: its sample table
 * (stats/sampletab.h: one value per execution in each cell), and the one
 * input of a row's MDE and rounds advice (pdata_noise_of), shared by the verdicts
 * of `--until decided` (verdict.c) and by power, report and the end of
 * `run` (harness/analysis/powerdata.h), so that they print the same numbers.
 *
 * Reads the store; never prints. Not thread-safe.
 */
#ifndef ABBENCH_CORE_PDATA_H
#define ABBENCH_CORE_PDATA_H

#include <stddef.h>
#include <stdint.h>

#include "results/calibration.h"

struct store;
struct sampletab;

/*
 * What a run's advice is computed from: its values, its baseline arm and,
 * when asked for and there is one, the latest calibration of its
 * experiment on its host class (not the run itself) with its values.
 */
struct pdata_src {
	struct sampletab		*run;		/* grouped */
	int				 own_run;
	char				*baseline_arm;
	char				**arms;		/* the run's, in order */
	size_t				 narms;
	char				*name;
	char				*host_class;
	int				 have_cal;
	int64_t				 later_cal;	/* not used */
	struct store_calibration	 cal;
	struct sampletab		*cald;		/* its values */
};

/*
 * use_cal: look for a calibration of the run's experiment and host class:
 * PDATA_CAL_RUN the latest made before the run (a lower run id: the one
 * the end of the run used), so that a run's MDE does not change when a
 * calibration comes later (its run id then in later_cal);
 * PDATA_CAL_LATEST the latest whenever made (any other non-zero value is
 * PDATA_CAL_RUN). run: the run's table when the caller
 * has it (the runner's, kept; sampletab_group it before each use), NULL
 * to load it from the store. 0, or -1 with *cause.
 */
enum { PDATA_CAL_NONE, PDATA_CAL_RUN, PDATA_CAL_LATEST };
int	pdata_src_load(struct store *st, int64_t run_id, int use_cal,
	    struct sampletab *run, struct pdata_src *out, char **cause);
void	pdata_src_release(struct pdata_src *s);

/*
 * The input of one row's MDE and rounds advice (stats/power.h:
 * power_advise(x, n, n_base, n_cand, ...)).
 */
struct pdata_noise {
	double	*x;		/* the noise, one value per execution */
	size_t	 n;
	size_t	 n_base;	/* executions of the baseline arm (or `at`) */
	size_t	 n_cand;	/* the fewest of another arm (or `at`) */
	size_t	 nlines;	/* the baseline's values (lines) */
	size_t	 nexec;		/* the baseline's executions */
	int	 from_calibration;
};

/*
 * The row (benchmark, unit) of the baseline arm: the calibration's values
 * (all arms pooled) when the source has at least 2 of them, else the
 * baseline's; at > 0 sets both n to it. 1 and *out filled (x malloc'd),
 * 0 when the baseline has no values there.
 */
int	pdata_noise_of(const struct pdata_src *s, const char *benchmark,
	    const char *unit, size_t at, struct pdata_noise *out);
void	pdata_noise_release(struct pdata_noise *nz);

#endif
