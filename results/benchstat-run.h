/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run of the store as benchstat inputs (stats/benchstat.h), from its
 * sample table rather than its export's text: what `abbench stat --db`
 * and `report` show is what benchstat prints on `abbench db export`,
 * byte for byte, with no text written or parsed between the two.
 */
#ifndef ABBENCH_RESULTS_BENCHSTAT_RUN_H
#define ABBENCH_RESULTS_BENCHSTAT_RUN_H

#include "lib/util.h"

struct benchstat;
struct sampletab;
struct store;
struct store_run;

/*
 * Add one input, labelled label, to bs: what benchstat reads of the config
 * lines pre_keys[i]: pre_values[i] (NULL: none) followed by
 * `abbench db export` of run r (arm NULL: every arm in one stream). t is
 * the run's table from sampletab_load_src (every arm, or that one; no
 * warm-up rounds). The lines go in as calls (benchstat_input_*); a run
 * with a line benchfmt would read otherwise than as it is (a name with a
 * Unicode space, a line too long: bf_*_plain) goes in as that text.
 * 0, or with *cause -1 on a store error, -2 on benchstat's fatal read
 * error (the text's: benchstat then prints its stderr text and the cause).
 */
int	benchstat_add_run(struct benchstat *bs, struct store *st,
	    const struct store_run *r, const struct sampletab *t,
	    const char *arm, const char *label, const struct strvec *pre_keys,
	    const struct strvec *pre_values, char **cause);

/* Inputs that went in as text (the fallback above), for tests. */
extern unsigned long benchstat_run_texts;

#endif
