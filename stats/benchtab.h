/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchstat's comparison tables (cmd/benchstat/internal/benchtab, spec
 * §5, §8, §10, §11): results are grouped into tables, rows, columns and
 * cells by projections, each cell is summarized and compared with its
 * row's baseline, and the tables are rendered as text, CSV, JSON or
 * Markdown.  No I/O.
 */
#ifndef ABBENCH_STATS_BENCHTAB_H
#define ABBENCH_STATS_BENCHTAB_H

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchproc.h"

struct bt_builder;

struct bt_opts {
	double			 confidence;
	double			 alpha;
	const struct bf_units	*units;		/* may be NULL */
	int			 keep_values;	/* for bt_render_json */
};

/* The table projection must have been parsed with .unit. */
struct bt_builder *bt_builder_new(struct bp_proj *table, struct bp_proj *row,
		    struct bp_proj *col, struct bp_proj *residue);
void		 bt_builder_free(struct bt_builder *b);
/* Builder.Add: every (filtered) value of res goes into its cell. */
void		 bt_builder_add(struct bt_builder *b, struct bp_res *res);

/*
 * After a render: 1 if Go's benchstat would have panicked in ToTables
 * (nothing was rendered; see struct bm_summary).
 */
int		 bt_panicked(const struct bt_builder *b);
/* ToTables + ToText: append the text rendering to out. */
void		 bt_render_text(struct bt_builder *b, const struct bt_opts *o,
		    struct strbuf *out);
/* ToTables + ToCSV: the CSV to out, warnings ("B3: msg") to warn. */
void		 bt_render_csv(struct bt_builder *b, const struct bt_opts *o,
		    struct strbuf *out, struct strbuf *warn);
/*
 * The same tables as one JSON document (abbench's own, `-format json`;
 * the schema is in the README): every cell's numbers, not its text.
 */
void		 bt_render_json(struct bt_builder *b, const struct bt_opts *o,
		    struct strbuf *out);
/*
 * The same tables as GitHub Markdown (abbench's own, `-format
 * markdown`): the config lines a list, each table a GitHub table, its
 * footnotes paragraphs; what comes from the data escaped (benchtab-md.c).
 */
void		 bt_render_markdown(struct bt_builder *b,
		    const struct bt_opts *o, struct strbuf *out);

#endif
