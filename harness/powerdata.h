/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data behind power, calibrate, report and nightly's noise figures: a
 * run's ok, non-warm-up samples per (arm, benchmark, unit) as one value
 * per execution (the median of the lines one gobench invocation printed
 * for a benchmark with -test.count > 1: those lines are not independent),
 * and the MDE and advice computed from them with stats/power.h.
 *
 * Reads the store; never prints.
 */
#ifndef ABBENCH_HARNESS_POWERDATA_H
#define ABBENCH_HARNESS_POWERDATA_H

#include <stddef.h>
#include <stdint.h>

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


#include "stats/power.h"

/* What a run could have seen, per (benchmark, unit) of its baseline arm. */
struct padvice_row {
	char			*benchmark;
	char			*unit;
	size_t			 n_base;	/* executions of the baseline */
	size_t			 n_cand;	/* fewest of another arm */
	size_t			 nlines;	/* baseline values (lines) */
	size_t			 nexec;		/* baseline executions */
	int			 from_calibration;
	struct power_noise	 noise;		/* CI at n_base */
	double			 mde;		/* at n_base + n_cand */
	size_t			 rounds;	/* for the effect; 0 = > max */
};

struct padvice {
	int64_t			 run_id;
	char			*name;
	char			*host_class;
	char			*baseline_arm;
	int64_t			 calib_run;	/* 0: none used */
	int			 calib_repeats, calib_rounds;
	double			 effect;
	size_t			 at;		/* n asked for, or 0 */
	struct power_options	 opt;
	struct padvice_row	*rows;
	size_t			 n;
};

enum padvice_want {
	PADVICE_MDE = 1 << 0,
	PADVICE_ROUNDS = 1 << 1,	/* for effect */
	PADVICE_CALIBRATION = 1 << 2,	/* noise from a calibration */
};
/*
 * The noise, and as wanted the MDE and rounds for effect, of every
 * (benchmark, unit) of a run's baseline arm. The noise comes from the
 * latest calibration of the run's experiment and host class when
 * PADVICE_CALIBRATION is set and it has the row (all its arms pooled),
 * else from the run's baseline arm.
 */
int	padvice_compute(struct store *st, int64_t run_id, double effect,
	    const struct power_options *o, int want, struct padvice *out,
	    char **cause);
/*
 * The same for the rows keep() accepts (keep NULL: all), with the noise's
 * CI and the MDE at `at` executions per arm instead of the run's (0: the
 * run's).
 */
int	padvice_compute_some(struct store *st, int64_t run_id, double effect,
	    const struct power_options *o, int want, size_t at,
	    int (*keep)(const char *benchmark, const char *unit, void *arg),
	    void *arg, struct padvice *out, char **cause);
void	padvice_release(struct padvice *a);
/* "2", "2%" or "0.5%" as a fraction (0.02): 0, or -1 when not a
 * percentage in (0, 1000). */
int	padvice_parse_pct(const char *s, double *out);

#endif
