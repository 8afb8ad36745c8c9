/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the store keeps of a done run's nights (schema 10): per arm,
 * benchmark and unit of the run, the night `abbench nightly` judges (the
 * count of its executions, their median and that median's standard
 * error: nightly_night_of_values over the run's sample table), so that
 * judging one new night reads one summary a night of the history instead
 * of every value of 60 nights.
 *
 *   summary_keys(id, arm, benchmark, unit)  -- the rows' names, once per
 *       store
 *   night_summaries(run_id, method, nexec, nok, data)  -- one a done run:
 *       data is its rows, each key id and count (varints), median and
 *       standard error (IEEE doubles, little-endian, bit for bit); nexec
 *       and nok the run's counts (sample_runs) when it was written
 *
 * A summary is a cache of the run's values, never the only copy: it is
 * read only when its method is NIGHT_SUMMARY_METHOD and its counts are the
 * run's, else the reader takes the values (a run whose samples changed,
 * a summary of another definition). Written when a run becomes done
 * (store_run_done), when one is merged in done, and for every done run
 * by the migration to version 10.
 */
#ifndef ABBENCH_NIGHT_SUMMARY_H
#define ABBENCH_NIGHT_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "stats/nightly-judge.h"

struct store;

/* The definition of the nights kept; a summary of another is not read. */
#define NIGHT_SUMMARY_METHOD	1

struct night_key {
	int64_t	 id;
	char	*arm, *benchmark, *unit;
};

struct night_entry {
	int64_t			 key;	/* a night_key's id */
	struct nightly_night	 night;
};

/* Mark run_id done (store_run_set_status) and write its summary, in one
 * transaction: how a run becomes done. 0, or -1 and *cause. */
int	store_run_done(struct store *st, int64_t run_id, int64_t ended_wall_ns,
	    char **cause);
/* Write (or write again) run_id's summary. 0 (also when its values
 * cannot be read: then it has none), or -1 and *cause (a write failed:
 * the caller's transaction is rolled back). */
int	store_summary_write(struct store *st, int64_t run_id, char **cause);
/*
 * run_id's summary: 1 and its rows in *out (malloc'd, *n of them) when it
 * is there and current; 0 when not (read the run's values); -1 and
 * *cause.
 */
int	store_summary_read(struct store *st, int64_t run_id,
	    struct night_entry **out, size_t *n, char **cause);
/* Every key of the store, by id (malloc'd). */
int	store_summary_keys(struct store *st, struct night_key **out, size_t *n,
	    char **cause);
void	store_summary_keys_free(struct night_key *k, size_t n);

/*
 * Schema 9 -> 10 (store.c's store_migrate, after version 9's
 * conversion): the tables, then a summary for every done run without
 * one, one run a transaction (a migration killed goes on where it
 * stopped), then user_version 10.
 */
int	store_summary_migrate(struct store *st, char **cause);

#endif
