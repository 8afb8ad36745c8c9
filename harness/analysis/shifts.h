/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level shifts of a stored run (stats/levelshift.h applied to each of its
 * rows): for every benchmark and unit, the arms' executions arranged by
 * round (each execution's median, as harness/analysis/powerdata.h counts them;
 * several in one round, as in an import: their median), the
 * change points of the level the arms share, and whether the comparison
 * moved with it. The report shows them; a run that ends warns of a
 * comparison that moved.
 */
#ifndef ABBENCH_HARNESS_SHIFTS_H
#define ABBENCH_HARNESS_SHIFTS_H

#include <stddef.h>

#include "stats/levelshift.h"

struct store;
struct store_run;

struct shift_row {
	char			*benchmark;
	char			*unit;
	int			*rounds;	/* stored round of each index */
	size_t			 nrounds;
	struct ls_result	 res;		/* arms in the run's order */
};

struct shift_scan {
	struct shift_row	*rows;		/* rows with a shift shown */
	size_t			 n;
	size_t			 ntested;	/* rows that could be tested */
	size_t			 nrows;		/* rows in the run */
	size_t			 nmoved;	/* rows whose comparison moved */
	struct ls_options	 opt;		/* its min_change: the effect */
};

/*
 * Scan run (its arms from store_run_get) for level shifts, showing those
 * of at least the run's experiment's effect (experiment_stored_effect:
 * the smallest change worth finding, 2% when it stores none) and every
 * one at which the comparison moved by that much. 0, or -1 with *cause.
 * Release with shift_scan_release (safe twice).
 */
int	shift_scan_run(struct store *st, const struct store_run *run,
	    struct shift_scan *out, char **cause);
void	shift_scan_release(struct shift_scan *s);

/* Whether a shift of a scanned row is shown. */
int	shift_shown(const struct shift_scan *s, const struct ls_shift *sh);

/* "level fell 66%" or "level rose 100%": the shift's change of level, as
 * the warning, the report and the time plot's label say it. malloc'd. */
char	*shift_level_text(const struct ls_shift *sh);

/*
 * One line about a row whose comparison moved at a shift, e.g.
 * "Readers/c8/local-median-2 IOPS: idle0 vs idle8 +203.5% in rounds 1-16,
 * +12.7% in rounds 17-40 (p=0.000; the level fell 66% at round 17)".
 * malloc'd.
 */
char	*shift_moved_text(const struct store_run *run,
	    const struct shift_row *row, const struct ls_shift *sh, size_t arm);

#endif
