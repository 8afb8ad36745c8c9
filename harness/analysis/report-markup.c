/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's markup (see report-int.h): text escaped for its format,
 * tables, their rows and cells, headings and paragraphs, in HTML or
 * Markdown. What report.c and report-pvalues.c both write with.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "harness/analysis/markup.h"
#include "harness/analysis/report-int.h"
#include "lib/util.h"

void
report_esc(struct report *r, const char *s)
{
	markup_text(&r->out, s, r->html, 0);
}

/* Markdown table cells: no pipes or newlines. */
void
report_cell(struct report *r, const char *s)
{
	if (r->html) {
		strbuf_adds(&r->out, "<td>");
		report_esc(r, s);
		strbuf_adds(&r->out, "</td>");
		return;
	}
	strbuf_adds(&r->out, "| ");
	markup_text(&r->out, s, 0, 1);
	strbuf_addc(&r->out, ' ');
}

void
report_row_begin(struct report *r)
{
	if (r->html)
		strbuf_adds(&r->out, "<tr>");
}

void
report_row_end(struct report *r)
{
	strbuf_adds(&r->out, r->html ? "</tr>\n" : "|\n");
}

void
report_table_begin(struct report *r, const char *const *head)
{
	size_t	i;

	if (r->html) {
		strbuf_adds(&r->out, "<table>\n<tr>");
		for (i = 0; head[i] != NULL; i++) {
			strbuf_adds(&r->out, "<th>");
			report_esc(r, head[i]);
			strbuf_adds(&r->out, "</th>");
		}
		strbuf_adds(&r->out, "</tr>\n");
		return;
	}
	strbuf_addc(&r->out, '\n');
	for (i = 0; head[i] != NULL; i++)
		report_cell(r, head[i]);
	strbuf_adds(&r->out, "|\n");
	for (i = 0; head[i] != NULL; i++)
		strbuf_adds(&r->out, "|---");
	strbuf_adds(&r->out, "|\n");
}

void
report_table_end(struct report *r)
{
	strbuf_adds(&r->out, r->html ? "</table>\n" : "\n");
}

void
report_h2(struct report *r, const char *id, const char *title)
{
	if (r->html) {
		strbuf_addf(&r->out, "<h2 id=\"%s\">", id);
		report_esc(r, title);
		strbuf_adds(&r->out, "</h2>\n");
	} else {
		strbuf_adds(&r->out, "\n## ");
		report_esc(r, title);
		strbuf_adds(&r->out, "\n\n");
	}
}

void
report_para(struct report *r, const char *text)
{
	if (r->html) {
		strbuf_adds(&r->out, "<p>");
		report_esc(r, text);
		strbuf_adds(&r->out, "</p>\n");
	} else {
		report_esc(r, text);
		strbuf_adds(&r->out, "\n\n");
	}
}
