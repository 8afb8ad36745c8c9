/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text table layout, ported from x/perf cmd/benchstat/internal/texttab,
 * including its quirks: a cell that starts left of the current position
 * (negative spacing) still prints |spacing| blanks, as Go's "%*s" does.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/texttab.h"

/* A cell's value (may hold NUL bytes) and margin are in the table's text. */
struct tt_cell {
	int		 row, col, span;
	size_t		 voff, len;
	size_t		 moff, mlen;
	enum tt_align	 align;
	size_t		 seq;		/* insertion order, for stable sorts */
};

struct texttab {
	struct tt_cell	*cells;
	size_t		 ncells;
	size_t		 cap;
	int		 cols;
	unsigned char	*shrink;
	int		 nshrink;
	struct strbuf	 text;		/* every value and margin */
};

#define TT_VALUE(t, c)	((t)->text.buf + (c)->voff)
#define TT_MARGIN(t, c)	((t)->text.buf + (c)->moff)

struct texttab *
texttab_new(void)
{
	return xcalloc(1, sizeof(struct texttab));
}

void
texttab_free(struct texttab *t)
{
	if (t == NULL)
		return;
	free(t->cells);
	strbuf_release(&t->text);
	free(t->shrink);
	free(t);
}

void
texttab_cell(struct texttab *t, int row, int col, int span,
    const char *value, const char *margin, enum tt_align align)
{
	texttab_celln(t, row, col, span, value, strlen(value), margin, align);
}

void
texttab_celln(struct texttab *t, int row, int col, int span,
    const char *value, size_t len, const char *margin, enum tt_align align)
{
	struct tt_cell	*c;

	if (span < 1)
		span = 1;
	XGROW(t->cells, t->ncells, t->cap);
	c = &t->cells[t->ncells];
	c->row = row;
	c->col = col;
	c->span = span;
	c->voff = t->text.len;
	c->len = len;
	strbuf_add(&t->text, value, len);
	strbuf_addc(&t->text, '\0');
	if (margin == NULL)
		margin = col == 0 || len == 0 ? "" : " ";
	c->moff = t->text.len;
	c->mlen = strlen(margin);
	strbuf_add(&t->text, margin, c->mlen + 1);
	c->align = align;
	c->seq = t->ncells++;
	if (col + span > t->cols)
		t->cols = col + span;
}

void
texttab_set_shrink(struct texttab *t, int col)
{
	if (col >= t->nshrink) {
		t->shrink = xrealloc(t->shrink, col + 1);
		memset(t->shrink + t->nshrink, 0, col + 1 - t->nshrink);
		t->nshrink = col + 1;
	}
	t->shrink[col] = 1;
}

/*
 * Length of the valid UTF-8 sequence at s, or 1 for an invalid byte (s is
 * NUL-terminated, so a truncated sequence stops at the terminator).
 */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned char	c = s[0];
	int		n, i;
	unsigned char	lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 1;
	if (s[1] < lo || s[1] > hi)
		return 1;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 1;
	return n;
}

/* utf8.RuneCountInString of s[0..len) (NUL bytes are runes too). */
static int
runes(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;
	int			 n = 0;

	while (p < end) {
		p += utf8_len(p);
		n++;
	}
	return n;
}

/* strings.TrimSpace(s) == "": only unicode.IsSpace runes. */
static int
blank(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;

	while (p < end) {
		if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
			p++;
		else if (p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
			p += 2;
		else if ((p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80) ||
		    (p[0] == 0xe2 && p[1] == 0x80 && ((p[2] >= 0x80 &&
		    p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 ||
		    p[2] == 0xaf)) || (p[0] == 0xe2 && p[1] == 0x81 &&
		    p[2] == 0x9f) || (p[0] == 0xe3 && p[1] == 0x80 &&
		    p[2] == 0x80))
			p += 3;
		else
			return 0;
	}
	return 1;
}

static void
add_spaces(struct strbuf *sb, int n)
{
	if (n < 0)
		n = -n;
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* fmt's "%*s" of s: right-justified, or left-justified if w < 0. */
static int
add_padded(struct strbuf *sb, int w, const char *s, size_t len)
{
	int	n = runes(s, len), pad = (w < 0 ? -w : w) - n;

	if (w >= 0 && pad > 0)
		add_spaces(sb, pad);
	strbuf_add(sb, s, len);
	if (w < 0 && pad > 0)
		add_spaces(sb, pad);
	return pad > 0 ? n + pad : n;
}

static int
cmp_span(const void *a, const void *b)
{
	const struct tt_cell	*x = *(const struct tt_cell *const *)a;
	const struct tt_cell	*y = *(const struct tt_cell *const *)b;

	if (x->span != y->span)
		return x->span < y->span ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_pos(const void *a, const void *b)
{
	const struct tt_cell	*x = *(const struct tt_cell *const *)a;
	const struct tt_cell	*y = *(const struct tt_cell *const *)b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * order (the cells in insertion order) by span, stable: a counting sort
 * when the spans are few (they are 1 to a handful), else qsort.
 */
static void
sort_by_span(const struct tt_cell **order, size_t n)
{
	const struct tt_cell	**tmp;
	size_t			 k, *at;
	int			 lo = INT_MAX, hi = INT_MIN, s;

	for (k = 0; k < n; k++) {
		if (order[k]->span < lo)
			lo = order[k]->span;
		if (order[k]->span > hi)
			hi = order[k]->span;
	}
	if (n == 0 || lo == hi)
		return;
	if ((long)hi - lo > 256) {
		xqsort(order, n, sizeof(*order), cmp_span);
		return;
	}
	at = xcalloc((size_t)(hi - lo) + 2, sizeof(*at));
	for (k = 0; k < n; k++)
		at[order[k]->span - lo + 1]++;
	for (s = 1; s <= hi - lo; s++)
		at[s] += at[s - 1];
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	for (k = 0; k < n; k++)
		tmp[at[order[k]->span - lo]++] = order[k];
	memcpy(order, tmp, n * sizeof(*order));
	free(tmp);
	free(at);
}

/*
 * order by row, column and insertion, from the cells: in insertion order
 * they often already are.
 */
static void
sort_by_pos(const struct tt_cell **order, const struct tt_cell *cells,
    size_t n)
{
	size_t	k;

	for (k = 0; k < n; k++)
		order[k] = &cells[k];
	for (k = 1; k < n; k++)
		if (cmp_pos(&order[k - 1], &order[k]) > 0)
			break;
	if (k < n)
		xqsort(order, n, sizeof(*order), cmp_pos);
}

char *
texttab_format(const struct texttab *t)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_add(&sb, "", 0);
	texttab_format_sb(t, &sb);
	return strbuf_detach(&sb);
}

void
texttab_format_sb(const struct texttab *t, struct strbuf *out)
{
	struct strbuf		 *sbp = out;
	const struct tt_cell	**order, *c;
	const char		 *value;
	int			 *lmargin, *ws, *offs, *span_cols;
	int			  i, j, w, tw, n, avg, col, row, off, spaces;
	size_t			  k;

	if (t->ncells == 0)
		return;
	lmargin = xcalloc(t->cols, sizeof(int));
	ws = xcalloc(t->cols, sizeof(int));
	offs = xcalloc(t->cols + 1, sizeof(int));
	span_cols = xcalloc(t->cols, sizeof(int));
	order = xcalloc(t->ncells, sizeof(*order));

	for (k = 0; k < t->ncells; k++) {
		c = &t->cells[k];
		order[k] = c;
		n = runes(TT_MARGIN(t, c), c->mlen);
		if (n > lmargin[c->col])
			lmargin[c->col] = n;
	}

	/* Widths, narrow spans first (Go's sort; stable among equals). */
	sort_by_span(order, t->ncells);
	for (k = 0; k < t->ncells; k++) {
		c = order[k];
		w = runes(TT_VALUE(t, c), c->len) + lmargin[c->col];
		if (c->span == 1) {
			if (w > ws[c->col])
				ws[c->col] = w;
			continue;
		}
		tw = 0;
		for (col = c->col; col < c->col + c->span; col++)
			tw += ws[col];
		if (tw >= w)
			continue;
		/* Grow the non-shrink columns, widest first. */
		n = 0;
		for (col = c->col; col < c->col + c->span; col++) {
			if (col < t->nshrink && t->shrink[col])
				w -= ws[col];
			else
				span_cols[n++] = col;
		}
		/* Insertion sort by width descending (stable, like Go's). */
		for (i = 1; i < n; i++) {
			int x = span_cols[i];

			for (j = i; j > 0 && ws[span_cols[j - 1]] < ws[x]; j--)
				span_cols[j] = span_cols[j - 1];
			span_cols[j] = x;
		}
		for (i = 0; i < n; i++) {
			col = span_cols[i];
			avg = (w + (n - i) - 1) / (n - i);
			if (avg > ws[col])
				ws[col] = avg;
			w -= ws[col];
		}
	}

	off = 0;
	for (col = 0; col < t->cols; col++) {
		offs[col] = off;
		off += ws[col];
	}
	offs[t->cols] = off;

	sort_by_pos(order, t->cells, t->ncells);
	row = 0;
	off = 0;
	for (k = 0; k < t->ncells; k++) {
		c = order[k];
		value = TT_VALUE(t, c);
		if (blank(value, c->len) && blank(TT_MARGIN(t, c), c->mlen))
			continue;
		for (; c->row > row; row++) {
			strbuf_addc(sbp, '\n');
			off = 0;
		}
		spaces = offs[c->col] - off;
		add_spaces(sbp, spaces);
		add_padded(sbp, lmargin[c->col], TT_MARGIN(t, c), c->mlen);
		off += spaces + lmargin[c->col];
		tw = offs[c->col + c->span] - offs[c->col] - lmargin[c->col];
		switch (c->align) {
		case TT_LEFT:
			strbuf_add(sbp, value, c->len);
			off += runes(value, c->len);
			break;
		case TT_CENTER:
			n = (tw - runes(value, c->len)) / 2;
			add_spaces(sbp, n);
			strbuf_add(sbp, value, c->len);
			off += (n < 0 ? -n : n) + runes(value, c->len);
			break;
		case TT_RIGHT:
			off += add_padded(sbp, tw, value, c->len);
			break;
		}
	}
	strbuf_addc(sbp, '\n');

	free(lmargin);
	free(ws);
	free(offs);
	free(span_cols);
	free(order);
}
