/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text table layout, a port of benchstat's internal texttab package (spec
 * §10.3): cells on a grid of columns, each with a left margin, an
 * alignment and a span; column widths count Unicode code points.  A table
 * is not thread-safe; different tables are independent.
 */
#ifndef ABBENCH_STATS_TEXTTAB_H
#define ABBENCH_STATS_TEXTTAB_H

#include <stddef.h>

enum tt_align {
	TT_LEFT,
	TT_RIGHT,
	TT_CENTER
};

struct texttab;

struct texttab	*texttab_new(void);
void		 texttab_free(struct texttab *t);

/*
 * Add a cell at (row, col) covering span columns.  value and margin are
 * copied.  margin NULL means the default: " ", or "" when col == 0 or
 * value is "".  Cells are kept in insertion order.
 */
void	 texttab_cell(struct texttab *t, int row, int col, int span,
	    const char *value, const char *margin, enum tt_align align);
/* The same with value[0..len), which may hold NUL bytes. */
void	 texttab_celln(struct texttab *t, int row, int col, int span,
	    const char *value, size_t len, const char *margin,
	    enum tt_align align);

/* Mark col as a shrink column: spanning cells never widen it. */
void	 texttab_set_shrink(struct texttab *t, int col);

/*
 * Lay the table out.  Returns the malloc'd text (caller frees), every row
 * ending in '\n'; "" for a table without cells.
 */
char	*texttab_format(const struct texttab *t);
/* The same, appended to out (cells may hold NUL bytes). */
struct strbuf;
void	 texttab_format_sb(const struct texttab *t, struct strbuf *out);

#endif
