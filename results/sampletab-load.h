/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's sample table (stats/sampletab.h) from the store, by one call:
 * its ok values (warm-up rounds as the filter says), in the store's
 * order, the run's arms first in baseline-first order. Read through the
 * store's API (store_values), never its SQL.
 */
#ifndef ABBENCH_RESULTS_SAMPLETAB_LOAD_H
#define ABBENCH_RESULTS_SAMPLETAB_LOAD_H

#include <stdint.h>

#include "stats/sampletab.h"

struct store;

struct sampletab_filter {
	const char	*arm;		/* NULL: every arm */
	int		 warmup;	/* the warm-up rounds' values too */
	int		 group;		/* make the per-execution values
					 * (sampletab_group) */
};

/* f NULL: every arm, no warm-up, grouped. NULL with *cause on error. */
struct sampletab *sampletab_load(struct store *st, int64_t run_id,
	    const struct sampletab_filter *f, char **cause);
/*
 * The same, keeping each value's config block and value as written
 * (sampletab_src): what the benchfmt export writes (benchfmt-io.h).
 */
struct sampletab *sampletab_load_src(struct store *st, int64_t run_id,
	    const struct sampletab_filter *f, char **cause);

#endif
