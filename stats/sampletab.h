/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sample table: the one shape in which the statistics and the
 * analyses take a run's values. Rows are keyed by benchmark and unit;
 * each row has a cell per arm holding that arm's values with their round,
 * position and execution, in the order they were taken (the store's:
 * plan index, then insertion).
 *
 * The store builds a table from a run (results/sampletab-load.h); the
 * runner of `stop = decided` builds one as it goes, adding each sample as
 * it is stored, so that a look of the sequential rule reads nothing back.
 *
 * Cells (one arm of one row) are numbered in the order of their first
 * value, rows in the order of their first value in any arm: a consumer
 * that prints per arm and row prints in that order.
 *
 * Pure: no I/O. Not thread-safe.
 */
#ifndef ABBENCH_STATS_SAMPLETAB_H
#define ABBENCH_STATS_SAMPLETAB_H

#include <stddef.h>
#include <stdint.h>

#include "stats/strpool.h"

/* One value: what one execution gave for a row. */
struct sampletab_value {
	double	 value;
	int	 round;		/* 0-based, warm-up rounds first */
	int	 position;	/* within the round */
	int	 exec;		/* the execution: the plan's index */
	size_t	 seq;		/* its place in the table (set by add) */
	int64_t	 start_ns;	/* CLOCK_MONOTONIC */
	int64_t	 start_wall_ns;	/* CLOCK_REALTIME, 0 when not known */
};

/* One arm's values of one row. */
struct sampletab_cell {
	size_t			 row;
	size_t			 arm;
	struct sampletab_value	*v;	/* in the order added */
	size_t			 n, cap;
	/*
	 * Per execution (sampletab_group): the median of its values (a
	 * gobench invocation with -test.count > 1 prints a benchmark several
	 * times: those lines are not independent) and its round, executions
	 * in the order first seen.
	 */
	double			*x;
	int			*xround;
	size_t			 nx;
	size_t			 grouped;	/* n when x was made */
};

struct sampletab_row {
	char	*benchmark;
	char	*unit;
	size_t	*cell;		/* per arm: its cell's index + 1, 0 none */
	size_t	 ncell;		/* arms it has room for */
	/* benchfmt import: the value as written over the value stored
	 * (ns/op read as sec/op: 1e9) of its last such value, 0 none. */
	double	 orig_scale;
};

/*
 * What a value was as the store had it (kept when the table is made with
 * sampletab_keep_src): the benchfmt export writes it, so that `stat --db`
 * and `report` read a run as benchstat reads its export. Indexed by seq.
 */
struct sampletab_src {
	size_t		 cell;		/* its cell, and its index in it */
	size_t		 at;
	const char	*config;	/* its own config block, or NULL */
	const char	*orig_unit;	/* as written when tidied, or NULL */
	double		 orig_value;
};

struct sampletab {
	char			**arms;		/* in baseline-first order */
	size_t			 narms, caparms;
	struct sampletab_row	*rows;		/* first value first */
	size_t			 nrows, caprows;
	struct sampletab_cell	*cells;		/* first value first */
	size_t			 ncells, capcells;
	size_t			 nvalues;
	struct u64map		 index;		/* (benchmark, unit) ->
						 * row + 1 */
	struct sampletab_src	*src;		/* per seq, or NULL */
	size_t			 capsrc;
	struct strpool		*pool;		/* src's strings */
};

/* A table with these arms first (others join as their values come). */
struct sampletab *sampletab_new(const char *const *arms, size_t narms);
void	sampletab_free(struct sampletab *t);
/* Keep each value's sampletab_src from now on (before any add). */
void	sampletab_keep_src(struct sampletab *t);
/* Set the source of value seq (strings copied; NULL: none). */
void	sampletab_set_src(struct sampletab *t, size_t seq, const char *config,
	    const char *orig_unit, double orig_value);
/* The arm's index, or -1. */
int	sampletab_arm(const struct sampletab *t, const char *arm);
/* Add a value (its seq is set here); returns its row's index. */
size_t	sampletab_add(struct sampletab *t, const char *arm,
	    const char *benchmark, const char *unit,
	    const struct sampletab_value *v);
/* The row, or NULL; found by hash. */
const struct sampletab_row *sampletab_find(const struct sampletab *t,
	    const char *benchmark, const char *unit);
/* The row's cell of an arm, or NULL when it has no value there. */
const struct sampletab_cell *sampletab_cell(const struct sampletab *t,
	    const struct sampletab_row *r, size_t arm);
/* The cell of (arm name, benchmark, unit), or NULL. */
const struct sampletab_cell *sampletab_lookup(const struct sampletab *t,
	    const char *arm, const char *benchmark, const char *unit);
/*
 * The row's cells in the order of their first values into out (room for
 * t->narms); returns how many.
 */
size_t	sampletab_row_cells(const struct sampletab *t,
	    const struct sampletab_row *r, const struct sampletab_cell **out);
/* Make (or bring up to date) every cell's per-execution values. */
void	sampletab_group(struct sampletab *t);
/*
 * All arms' per-execution values of a row, cells in the order of their
 * first values, in one malloc'd array (an A/A run's arms are alike).
 */
double	*sampletab_pool(const struct sampletab *t,
	    const struct sampletab_row *r, size_t *n);

#endif
