/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchstat's tables as GitHub Markdown (`abbench stat -format markdown`,
 * abbench's own), to paste into a code review: the changed config lines
 * of each table as a list, the table as a GitHub table (the unit, a
 * column per input, a `vs base` column after every input but the first;
 * the values as the text prints them, scaled alike per row, with its
 * footnote marks), then its footnotes, one paragraph each.
 *
 * What comes from the data (names, labels, config lines, the footnotes'
 * text) is escaped once, by md_text: \ ` * _ [ ] < > & ~ # | with a
 * backslash (CommonMark's escape of ASCII punctuation; GitHub takes \|
 * in a table cell as a | that does not split it), so that no name opens
 * emphasis, code, a link or an HTML tag; a control byte or a byte that
 * is not UTF-8 as U+FFFD; " % and the rest as they are.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/goregexp/uniprop.h"
#include "lib/util.h"
#include "stats/benchtab.h"
#include "stats/benchtab-int.h"
#include "stats/benchunit.h"
#include "stats/strpool.h"

static void
md_text(struct strbuf *out, const char *s, size_t len)
{
	char		 u[4];
	size_t		 i = 0, n;
	uint32_t	 r;

	while (i < len) {
		unsigned char	c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			strbuf_add(out, u, uni_encode(UNI_ERROR, u));
			i++;
			continue;
		}
		if (c < 0x80) {
			if (strchr("\\`*_[]<>&~#|", c) != NULL)
				strbuf_addc(out, '\\');
			strbuf_addc(out, (char)c);
			i++;
			continue;
		}
		r = uni_decode(s + i, len - i, &n);
		if (r == UNI_ERROR && n <= 1) {
			strbuf_add(out, u, uni_encode(UNI_ERROR, u));
			i++;
			continue;
		}
		strbuf_add(out, s + i, n);
		i += n;
	}
}

struct md_ctx {
	struct bt_builder	*b;
	struct strbuf		*out;
};

static void
md_hdr(void *ctx, const char *line, size_t len)
{
	struct strbuf	*out = ((struct md_ctx *)ctx)->out;

	if (len == 0) {
		strbuf_addc(out, '\n');	/* between tables */
		return;
	}
	strbuf_adds(out, "- ");
	md_text(out, line, len);
	strbuf_addc(out, '\n');
}

/* A cell's footnote marks after " " (nothing without warnings). */
static void
md_marks(struct strbuf *out, struct bt_notes *nt, const char *const *msgs,
    const size_t *lens, size_t n)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_add(&sb, "", 0);
	bt_note_refs(nt, msgs, lens, n, &sb);
	if (sb.len > 0) {
		strbuf_addc(out, ' ');
		strbuf_add(out, sb.buf, sb.len);
	}
	strbuf_release(&sb);
}

static void
md_cell(struct strbuf *out, struct bt_notes *nt, struct bt_cell *c,
    const struct scaler *sc)
{
	const char	*warns[64];
	size_t		 lens[64], n = 0, i;
	char		 buf[512];

	scaler_format(sc, c->sum.center, buf, sizeof buf);
	strbuf_adds(out, buf);
	bm_summary_pct_range(&c->sum, buf, sizeof buf);
	strbuf_adds(out, " \xc2\xb1 ");
	strbuf_adds(out, buf);
	if (c->vary != NULL) {
		lens[n] = c->varylen;
		warns[n++] = c->vary;
	}
	for (i = 0; i < c->sum.warnings.n && n < 64; i++) {
		lens[n] = strlen(c->sum.warnings.msg[i]);
		warns[n++] = c->sum.warnings.msg[i];
	}
	md_marks(out, nt, warns, lens, n);
}

static void
md_delta(struct strbuf *out, struct bt_notes *nt, struct bt_cell *c)
{
	char	buf[512], cmp[96];

	bm_format_delta(&c->cmp, c->baseline->sum.center, c->sum.center, buf,
	    sizeof buf);
	bm_comparison_string(&c->cmp, cmp, sizeof cmp);
	strbuf_addf(out, "%s (%s)", buf, cmp);
	md_marks(out, nt, (const char *const *)c->cmp.warnings.msg, NULL,
	    c->cmp.warnings.n);
}

static void
md_geomean(struct strbuf *out, struct bt_notes *nt, struct bt_table *t,
    enum unit_class cls)
{
	struct scaler	 sc;
	char		 buf[512];
	size_t		 e;

	strbuf_adds(out, "| geomean |");
	for (e = 0; e < t->ncols; e++) {
		struct bt_summary	*s = &t->summ[e];

		if (s->has_summary) {
			scaler_common(&s->summary, 1, cls, &sc);
			scaler_format(&sc, s->summary, buf, sizeof buf);
			strbuf_addf(out, " %s", buf);
		}
		if (e > 0) {
			strbuf_adds(out, " |");
			if (s->has_ratio) {
				bt_ratio_pct(s->ratio, buf, sizeof buf);
				strbuf_addf(out, " %s", buf);
			} else
				strbuf_adds(out, " ?");
		}
		md_marks(out, nt, s->warn, NULL, s->nwarn);
		strbuf_adds(out, " |");
	}
	strbuf_addc(out, '\n');
}

static void
md_table(void *ctx, struct bt_table *t)
{
	struct md_ctx		*x = ctx;
	struct bt_builder	*b = x->b;
	struct strbuf		*out = x->out;
	struct bt_notes		 nt;
	enum unit_class		 cls = unit_class_of_n(t->unit,
				    strpool_len(t->unit));
	struct scaler		 sc;
	struct bt_cell		*c;
	double			*centers = xcalloc(t->ncols + 1,
				    sizeof *centers);
	const char		*label;
	size_t			 e, r, i, n;

	memset(&nt, 0, sizeof nt);
	/* A blank line after the config list, unless one is there. */
	if (out->len > 0 && !(out->len >= 2 &&
	    memcmp(out->buf + out->len - 2, "\n\n", 2) == 0))
		strbuf_addc(out, '\n');
	strbuf_adds(out, "| ");
	md_text(out, t->unit, strpool_len(t->unit));
	strbuf_adds(out, " |");
	for (e = 0; e < t->ncols; e++) {
		label = bp_key_string_values(b->col_by, t->cols[e]);
		strbuf_addc(out, ' ');
		md_text(out, label, strpool_len(label));
		strbuf_adds(out, e > 0 ? " | vs base |" : " |");
	}
	strbuf_adds(out, "\n|:---|");
	for (e = 0; e < t->ncols; e++)
		strbuf_adds(out, e > 0 ? "---:|---:|" : "---:|");
	strbuf_addc(out, '\n');
	for (r = 0; r < t->nrows; r++) {
		label = bp_key_string_values(b->row_by, t->rows[r]);
		strbuf_adds(out, "| ");
		md_text(out, label, strpool_len(label));
		strbuf_adds(out, " |");
		for (e = 0, n = 0; e < t->ncols; e++)
			if ((c = bt_cell_at(t, t->rows[r], t->cols[e])) != NULL)
				centers[n++] = c->sum.center;
		scaler_common(centers, n, cls, &sc);
		for (e = 0; e < t->ncols; e++) {
			c = bt_cell_at(t, t->rows[r], t->cols[e]);
			if (c != NULL) {
				strbuf_addc(out, ' ');
				md_cell(out, &nt, c, &sc);
			}
			strbuf_adds(out, " |");
			if (e == 0)
				continue;
			if (c != NULL && c->baseline != NULL) {
				strbuf_addc(out, ' ');
				md_delta(out, &nt, c);
			}
			strbuf_adds(out, " |");
		}
		strbuf_addc(out, '\n');
	}
	free(centers);
	if (t->nrows > 1)
		md_geomean(out, &nt, t, cls);
	for (i = 0; i < nt.msgs.n; i++) {
		strbuf_addc(out, '\n');
		bt_superscript(i + 1, out);
		strbuf_addc(out, ' ');
		md_text(out, nt.msgs.v[i], nt.lens[i]);
		strbuf_addc(out, '\n');
	}
	bt_notes_release(&nt);
}

void
bt_render_markdown(struct bt_builder *b, const struct bt_opts *o,
    struct strbuf *out)
{
	struct md_ctx	x = { b, out };

	bt_finish(b, o);
	if (b->panic)
		return;
	bt_print_tables(b, md_hdr, md_table, &x);
}
