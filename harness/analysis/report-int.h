/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the report share (report.c writes the report,
 * report-pvalues.c the table of corrected p-values and MDEs, both with
 * report-markup.c's helpers): the report being written and its markup.
 * Internal to harness/.
 */
#ifndef ABBENCH_REPORT_INT_H
#define ABBENCH_REPORT_INT_H

#include <stddef.h>

#include "lib/util.h"
#include "results/store.h"
#include "harness/analysis/report.h"

/* One comparison of an arm against the baseline arm for a benchmark. */
struct sampletab_cell;

struct report_cmp {
	char	*benchmark;
	char	*unit;
	char	*arm;
	double	 base_center, center, delta;
	double	 p, holm, bh;
	size_t	 n1, n2;
	int	 tested;
	/* Its values and the baseline's (NULL: none) in the sample table. */
	const struct sampletab_cell *cell, *base;
};

struct report {
	struct store			*st;
	const struct report_options	*o;
	struct store_run		 run;
	struct strbuf			 out;
	int				 html;
	double				 alpha;
	size_t				 ntime;	/* time plots drawn */
	/* The run's sample table, read once (no warm-up rounds, each
	 * value's source kept for the benchstat tables), or NULL. */
	struct sampletab		*tab;
	char				*tabcause;	/* why NULL */
};

/* Markup of the report's format (report-markup.c): text escaped, a table,
 * its rows and cells (escaped), a section's heading, a paragraph. */
void	report_esc(struct report *r, const char *s);
void	report_table_begin(struct report *r, const char *const *head);
void	report_table_end(struct report *r);
void	report_row_begin(struct report *r);
void	report_row_end(struct report *r);
void	report_cell(struct report *r, const char *s);
void	report_h2(struct report *r, const char *id, const char *title);
void	report_para(struct report *r, const char *text);

/* The corrected p-values of every comparison, with what each could have
 * seen (report-pvalues.c). */
void	report_pvalues(struct report *r);

#endif
