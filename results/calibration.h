/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A/A calibrations in the store: which run calibrated which experiment on
 * which host class, and per benchmark and unit the noise and how often the
 * comparison of identical arms came out significant. Written by `abbench
 * calibrate`, read by `power`, `report`, `nightly --threshold auto` and the
 * end of `run`.
 *
 * Like the rest of the store: never prints, never reads the clock; 0 / -1
 * with *cause (caller frees).
 */
#ifndef ABBENCH_RESULTS_CALIBRATION_H
#define ABBENCH_RESULTS_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

struct store;

struct store_calibration {
	int64_t	 run_id;
	char	*experiment;	/* the experiment's name */
	char	*host_class;
	int	 repeats;	/* comparisons per arm pair */
	int	 rounds;	/* rounds of one repeat */
	double	 alpha;
};

struct store_calib_row {
	char	*benchmark;
	char	*unit;
	int64_t	 n;		/* executions, all arms */
	double	 median;
	double	 mad_rel;	/* MAD / median */
	double	 ci_rel;	/* median CI +- at `rounds`, INFINITY if none */
	double	 mde;		/* at rounds + rounds, INFINITY if none */
	int	 comparisons;
	int	 flagged;	/* comparisons with p <= alpha */
};

/* Record (or replace) the calibration of c->run_id with its rows. */
int	store_calibration_put(struct store *st,
	    const struct store_calibration *c,
	    const struct store_calib_row *rows, size_t n, char **cause);
/*
 * The latest calibration (highest run id, run done) of an experiment on a
 * host class: 1 and *out filled, 0 when there is none, -1 on error.
 */
int	store_calibration_latest(struct store *st, const char *experiment,
	    const char *host_class, struct store_calibration *out,
	    char **cause);
/* The calibration of one run: 1, 0 when the run is not one, -1. */
int	store_calibration_get(struct store *st, int64_t run_id,
	    struct store_calibration *out, char **cause);
void	store_calibration_release(struct store_calibration *c);
int	store_calibration_rows(struct store *st, int64_t run_id,
	    struct store_calib_row **out, size_t *n, char **cause);
void	store_calib_rows_free(struct store_calib_row *r, size_t n);

/*
 * The host class of a run, malloc'd: for a run a cluster scheduler placed,
 * its partition and shape ("c4/vcpus=4", as nightly keys its history),
 * else its host name.
 */
char	*store_run_host_class(struct store *st, int64_t run_id, char **cause);

#endif
