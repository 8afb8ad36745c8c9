/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's values as the power computations take them: its ok, non-warm-up
 * samples per (arm, benchmark, unit) as one value per execution (the
 * median of the lines one gobench invocation printed for a benchmark with
 * -test.count > 1: those lines are not independent), and the one input of
 * a row's MDE and rounds advice (pdata_noise_of), shared by the verdicts
 * of `--until decided` (verdict.c) and by power, report and the end of
 * `run` (harness/powerdata.h), so that they print the same numbers.
 *
 * Reads the store; never prints. Not thread-safe.
 */
#ifndef ABBENCH_CORE_PDATA_H
#define ABBENCH_CORE_PDATA_H

#include <stddef.h>
#include <stdint.h>

#include "results/calibration.h"

struct store;

struct pdata_row {
	char	*arm;
	char	*benchmark;
	char	*unit;
	double	*x;		/* per-execution medians, in plan order */
	int	*round;		/* the round of each */
	size_t	 n;		/* executions */
	double	*lines;		/* every value (benchfmt line), in store order */
	size_t	 nlines;
};

struct u64map;

struct pdata {
	struct pdata_row	*rows;	/* in order of first appearance */
	size_t			 n;
	struct u64map		*index;	/* (arm, benchmark, unit) -> row */
};

/* arm NULL = every arm. */
int	pdata_load(struct store *st, int64_t run_id, const char *arm,
	    struct pdata *out, char **cause);
void	pdata_release(struct pdata *d);
/* The row, or NULL; arm NULL matches any arm (the first such row). A
 * named arm's row is found by hash, in constant time. */
struct pdata_row *pdata_find(const struct pdata *d, const char *arm,
	    const char *benchmark, const char *unit);
/*
 * All arms' values of (benchmark, unit) in one malloc'd array (an A/A
 * calibration's arms are alike); *n set.
 */
double	*pdata_pool(const struct pdata *d, const char *benchmark,
	    const char *unit, size_t *n);

/*
 * What a run's advice is computed from: its values, its baseline arm and,
 * when asked for and there is one, the latest calibration of its
 * experiment on its host class (not the run itself) with its values.
 */
struct pdata_src {
	struct pdata			 run;
	char				*baseline_arm;
	char				**arms;		/* the run's, in order */
	size_t				 narms;
	char				*name;
	char				*host_class;
	int				 have_cal;
	struct store_calibration	 cal;
	struct pdata			 cald;
};

/* use_cal: look for a calibration. 0, or -1 with *cause. */
int	pdata_src_load(struct store *st, int64_t run_id, int use_cal,
	    struct pdata_src *out, char **cause);
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
