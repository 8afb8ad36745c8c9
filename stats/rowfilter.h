/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Does a benchstat -filter keep a row known only by its benchmark name
 * and unit (no file config, no label)? The rows that `stop = decided`
 * judges and that `abbench run` advises on are the rows `abbench stat`
 * prints under the experiment's stat-filter; this is that test.
 */
#ifndef ABBENCH_STATS_ROWFILTER_H
#define ABBENCH_STATS_ROWFILTER_H

struct rowfilter;

/* FILTER NULL or "" keeps every row. NULL with *cause set ("stat-filter:
 * ...") when FILTER does not parse. */
struct rowfilter	*rowfilter_new(const char *filter, char **cause);
/* 1 when the filter keeps the row BENCHMARK in UNIT, else 0. */
int			 rowfilter_keep(struct rowfilter *f,
			    const char *benchmark, const char *unit);
void			 rowfilter_free(struct rowfilter *f);

#endif
