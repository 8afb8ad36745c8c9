/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside benchstat's tables (benchtab.h): the builder, its tables and
 * cells as benchtab.c builds and summarizes them, and what its renderers
 * share (benchtab.c: text; benchtab-render.c: CSV and JSON;
 * benchtab-md.c: Markdown).
 */
#ifndef ABBENCH_STATS_BENCHTAB_INT_H
#define ABBENCH_STATS_BENCHTAB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"
#include "stats/benchmath.h"
#include "stats/benchproc.h"
#include "stats/benchtab.h"

struct bt_cell {
	double			*vals;
	size_t			 n;
	size_t			 cap;
	struct bp_key		**residue;
	size_t			 nres;
	size_t			 capres;
	/* Filled by bt_finish: */
	struct bm_summary	 sum;
	struct bt_cell		*baseline;
	struct bm_comparison	 cmp;
	char			*vary;		/* "benchmarks vary in ..." */
	size_t			 varylen;	/* (NUL bytes kept) */
};

struct bt_summary {
	int		 has_summary;
	double		 summary;
	int		 has_ratio;
	double		 ratio;
	const char	*warn[3];
	size_t		 nwarn;
};

struct bt_table {
	struct bp_key		*key;
	struct bp_key		**rows;
	size_t			 nrows;
	size_t			 caprows;
	struct bp_key		**cols;
	size_t			 ncols;
	size_t			 capcols;
	struct u64map		 rowset;
	struct u64map		 colset;
	struct u64map		 cells;		/* row id << 32 | col id */
	struct bt_cell		**cellv;	/* all cells, creation order */
	size_t			 ncellv;
	size_t			 capcellv;
	/* Filled by bt_finish: */
	const char		*unit;
	enum bm_assumption	 assume;
	struct bt_summary	*summ;		/* per column */
};

/*
 * The previous result's inputs to the projections and the cells its values
 * went to: a result with the same name, label, config and units (the next
 * sample of the same benchmark, the usual case) goes to the same cells.
 */
struct bt_memo {
	int			 valid;
	const char		*fullname;
	const char		*label;
	const char		**config;	/* ckeys then cvals */
	size_t			 nconfig;
	size_t			 capconfig;
	const char		**units;
	struct bt_cell		**cells;
	size_t			 nvalues;
	size_t			 capvalues;
	struct bp_key		*resid;
};

struct bt_builder {
	struct bt_memo		 memo;
	struct bp_proj		*table_by;
	struct bp_proj		*row_by;
	struct bp_proj		*col_by;
	struct bp_proj		*residue;
	struct u64map		 tables;	/* table key id -> table */
	struct bt_table		**tablev;
	size_t			 ntables;
	size_t			 captables;
	struct bp_key		**keys;		/* scratch for values */
	size_t			 capkeys;
	int			 finished;
	int			 panic;		/* a summary panicked in Go */
};

/* The cell of (row, col) in t, or NULL. */
struct bt_cell	*bt_cell_at(struct bt_table *t, const struct bp_key *row,
		    const struct bp_key *col);
/* Sort the tables, rows and columns; summarize and compare every cell,
 * and each column's geomean (once: a second call does nothing). */
void		 bt_finish(struct bt_builder *b, const struct bt_opts *o);
/* Go's "%+.2f%%" of (ratio-1)*100 ("+Inf%" where C would say "+inf%"). */
void		 bt_ratio_pct(double ratio, char *buf, size_t len);

/*
 * The footnote list of one table: messages in first-seen order, with their
 * lengths (a "benchmarks vary in" names config keys, which may hold NUL).
 */
struct bt_notes {
	struct strvec	msgs;
	size_t		*lens;
	size_t		 caplens;
};
/* Append the footnote marks of msgs (noted in nt), space separated. */
void		 bt_note_refs(struct bt_notes *nt, const char *const *msgs,
		    const size_t *lens, size_t n, struct strbuf *sb);
/* Footnote i's mark (1: "¹"). */
void		 bt_superscript(size_t i, struct strbuf *sb);
void		 bt_notes_release(struct bt_notes *nt);

/*
 * printTables: the "NAME: VALUE" lines of changed table-key fields and a
 * blank line between tables; hdr(NULL) means the blank line.
 */
typedef void (*bt_hdr_fn)(void *ctx, const char *line, size_t len);
typedef void (*bt_table_fn)(void *ctx, struct bt_table *t);
void		 bt_print_tables(struct bt_builder *b, bt_hdr_fn hdr,
		    bt_table_fn cb, void *ctx);

#endif
