/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data behind power, calibrate, report and nightly's noise figures: a
 * run's values per execution (harness/core/pdata.h), and the MDE and
 * advice computed from them with stats/power.h (power_advise, as the
 * verdicts of `--until decided` compute theirs).
 *
 * Reads the store; never prints.
 */
#ifndef ABBENCH_HARNESS_POWERDATA_H
#define ABBENCH_HARNESS_POWERDATA_H

#include <stddef.h>
#include <stdint.h>

struct sampletab;
struct store;

#include "harness/core/pdata.h"
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
	int64_t			 later_cal;	/* made after, not used */
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
	PADVICE_LATEST_CAL = 1 << 3,	/* even one made after the run */
};
/*
 * The noise, and as wanted the MDE and rounds for effect, of every
 * (benchmark, unit) of a run's baseline arm. The noise comes from the
 * latest calibration of the run's experiment and host class made before
 * the run (the one its end used; with PADVICE_LATEST_CAL the latest) when
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
/*
 * The same on the run's sample table the caller read (sampletab_load's
 * default: every arm, no warm-up, grouped); tab NULL: read it here.
 */
int	padvice_compute_tab(struct store *st, int64_t run_id,
	    struct sampletab *tab, double effect,
	    const struct power_options *o, int want, size_t at,
	    int (*keep)(const char *benchmark, const char *unit, void *arg),
	    void *arg, struct padvice *out, char **cause);
void	padvice_release(struct padvice *a);
/* "2", "2%" or "0.5%" as a fraction (0.02): 0, or -1 when not a
 * percentage in (0, 1000). */
int	padvice_parse_pct(const char *s, double *out);

#endif
