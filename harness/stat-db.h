/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench stat --db: runs of the store as benchstat's inputs, each arm one
 * input, from the run's sample table (results/benchstat-run.h), and what
 * stat prints besides benchstat (arms with no ok sample, notes). The flag
 * parsing and the files' inputs are cmd-stat.c's.
 */
#ifndef ABBENCH_HARNESS_STAT_DB_H
#define ABBENCH_HARNESS_STAT_DB_H

struct benchstat;
struct benchstat_opts;
struct store;

/*
 * Read the runs of the RUN[:ARM] selectors (argsels) into bs and print the
 * tables; closes st and frees bs. Returns the exit status.
 */
int	stat_db(struct benchstat *bs, const struct benchstat_opts *o,
	    struct store *st, const char *dbpath, char **argsels,
	    int nargsels);
/* A --db problem: said as abbench's (exit 2); closes st, frees bs. */
int	stat_db_fail(struct benchstat *bs, struct store *st, char *cause);
/* The stat-filter of the experiment the selector's run ran, or NULL. */
char	*stat_db_default_filter(struct store *st, const char *sel);

/* Benchstat's messages and tables printed, bs freed (stat's files too). */
void	stat_flush_err(struct benchstat *bs);
int	stat_fail(struct benchstat *bs, char *cause);
/*
 * A line said after the next stat_fail's error, on a terminal only (a
 * script's stderr stays benchstat's, byte for byte); taken over.
 */
void	stat_hint(char *hint);
int	stat_finish(struct benchstat *bs);

#endif
