/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The machine-readable renderings of benchstat's tables: CSV (benchstat
 * -format csv, with its warnings' cell references) and abbench's JSON.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/util.h"
#include "stats/benchtab.h"
#include "stats/benchtab-int.h"
#include "stats/benchunit.h"
#include "stats/gomath.h"
#include "lib/goregexp/uniprop.h"

/* --- CSV ------------------------------------------------------------- */

struct bt_field {
	char	*s;
	size_t	 len;
};

struct bt_csv {
	struct bt_builder	*b;
	struct strbuf		*out;
	struct strbuf		*warn;
	int			 row;		/* CSV line of the next record */
	/* The record being built (fields may hold NUL bytes). */
	struct bt_field		*rec;
	size_t			 nrec;
	size_t			 caprec;
	int			 start_row;
	int			 count;
};

static int
bt_csv_needs_quotes(const char *f, size_t len)
{
	size_t		n, i;
	uint32_t	r;

	if (len == 0)
		return 0;
	if (len == 2 && memcmp(f, "\\.", 2) == 0)
		return 1;
	for (i = 0; i < len; i++)
		if (f[i] == ',' || f[i] == '"' || f[i] == '\r' || f[i] == '\n')
			return 1;
	r = uni_decode(f, len, &n);
	return uni_is_space(r);
}

/* encoding/csv's Writer: NUL bytes are written as they are. */
static void
bt_csv_write(struct strbuf *out, const struct bt_field *fields, size_t n)
{
	size_t		i, j;
	const char	*p;

	for (i = 0; i < n; i++) {
		if (i > 0)
			strbuf_addc(out, ',');
		p = fields[i].s;
		if (!bt_csv_needs_quotes(p, fields[i].len)) {
			strbuf_add(out, p, fields[i].len);
			continue;
		}
		strbuf_addc(out, '"');
		for (j = 0; j < fields[i].len; j++) {
			if (p[j] == '"')
				strbuf_addc(out, '"');
			strbuf_addc(out, p[j]);
		}
		strbuf_addc(out, '"');
	}
	strbuf_addc(out, '\n');
}

static void
bt_csv_hdr(void *ctx, const char *line, size_t len)
{
	struct bt_csv	*x = ctx;
	struct bt_field	 f;

	f.s = (char *)line;
	f.len = len;
	bt_csv_write(x->out, &f, 1);
	x->row++;
}

static void
bt_csv_pushn(struct bt_csv *x, const char *s, size_t len)
{
	struct bt_field	*f;

	XGROW(x->rec, x->nrec, x->caprec);
	f = &x->rec[x->nrec++];
	f->s = xmalloc(len + 1);
	memcpy(f->s, s, len);
	f->s[len] = '\0';
	f->len = len;
}

static void
bt_csv_push(struct bt_csv *x, const char *s)
{
	bt_csv_pushn(x, s, strlen(s));
}

/* A pooled string (benchproc keys, units). */
static void
bt_csv_pushp(struct bt_csv *x, const char *s)
{
	bt_csv_pushn(x, s, strpool_len(s));
}

static void
bt_csv_clear(struct bt_csv *x)
{
	size_t	i;

	for (i = 0; i < x->nrec; i++)
		free(x->rec[i].s);
	x->nrec = 0;
}

static void
bt_csv_clear_to(struct bt_csv *x, size_t col)
{
	while (x->nrec < col)
		bt_csv_pushn(x, "", 0);
}

static void
bt_csv_emit(struct bt_csv *x)
{
	bt_csv_write(x->out, x->rec, x->nrec);
	bt_csv_clear(x);
	x->count++;
}

static void
bt_csv_warn(struct bt_csv *x, const char *const *msgs, const size_t *lens,
    size_t n)
{
	char	name[16];
	int	pos = (int)sizeof(name) - 1;
	size_t	col = x->nrec, i;

	name[pos] = '\0';
	while (col > 0 && pos > 0) {
		name[--pos] = (char)('A' + col % 26);
		col /= 26;
	}
	if (name[pos] == '\0')
		name[--pos] = 'A';
	for (i = 0; i < n; i++) {
		strbuf_addf(x->warn, "%s%d: ", name + pos,
		    x->start_row + x->count);
		strbuf_add(x->warn, msgs[i], lens != NULL ? lens[i] :
		    strlen(msgs[i]));
		strbuf_addc(x->warn, '\n');
	}
}

static size_t
bt_csv_col(int e)
{
	return e == 0 ? 1 : (size_t)(1 + 2 + (e - 1) * 4);
}

static void
bt_csv_table(void *ctx, struct bt_table *t)
{
	struct bt_csv		*x = ctx;
	struct bt_builder	*b = x->b;
	struct bp_field	*const	*flat;
	size_t			 nf, f, e, r;
	struct bt_cell		*c;
	char			 buf[512];
	const char		*vary[1];

	x->start_row = x->row;
	x->count = 0;
	flat = bp_flat_fields(b->col_by, &nf);
	for (f = 0; f < nf; f++) {
		for (e = 0; e < t->ncols; e++) {
			bt_csv_clear_to(x, bt_csv_col((int)e));
			bt_csv_pushp(x, bp_key_get(b->col_by, t->cols[e],
			    flat[f]));
		}
		bt_csv_clear_to(x, bt_csv_col((int)t->ncols));
		bt_csv_emit(x);
	}
	for (e = 0; e < t->ncols; e++) {
		bt_csv_clear_to(x, bt_csv_col((int)e));
		bt_csv_pushp(x, t->unit);
		bt_csv_push(x, "CI");
		if (e > 0) {
			bt_csv_push(x, "vs base");
			bt_csv_push(x, "P");
		}
	}
	bt_csv_emit(x);

	for (r = 0; r < t->nrows; r++) {
		bt_csv_pushp(x, bp_key_string_values(b->row_by, t->rows[r]));
		for (e = 0; e < t->ncols; e++) {
			c = bt_cell_at(t, t->rows[r], t->cols[e]);
			if (c == NULL)
				continue;
			bt_csv_clear_to(x, bt_csv_col((int)e));
			vary[0] = c->vary;
			bt_csv_warn(x, vary, &c->varylen, c->vary != NULL);
			bt_csv_warn(x, (const char *const *)c->sum.warnings.msg,
			    NULL,
			    c->sum.warnings.n);
			go_format_v(c->sum.center, buf, sizeof(buf));
			bt_csv_push(x, buf);
			bm_summary_pct_range(&c->sum, buf, sizeof(buf));
			bt_csv_push(x, buf);
			if (e > 0 && c->baseline != NULL) {
				bt_csv_warn(x, (const char *const *)
				    c->cmp.warnings.msg, NULL,
				    c->cmp.warnings.n);
				bm_format_delta(&c->cmp, c->baseline->sum.center,
				    c->sum.center, buf, sizeof(buf));
				bt_csv_push(x, buf);
				bm_comparison_string(&c->cmp, buf, sizeof(buf));
				bt_csv_push(x, buf);
			}
		}
		bt_csv_emit(x);
	}

	bt_csv_push(x, "geomean");
	for (e = 0; e < t->ncols; e++) {
		struct bt_summary	*s = &t->summ[e];

		bt_csv_clear_to(x, bt_csv_col((int)e));
		bt_csv_warn(x, s->warn, NULL, s->nwarn);
		if (s->has_summary) {
			go_format_v(s->summary, buf, sizeof(buf));
			bt_csv_push(x, buf);
		}
		if (e > 0) {
			bt_csv_clear_to(x, bt_csv_col((int)e) + 2);
			if (s->has_ratio) {
				bt_ratio_pct(s->ratio, buf, sizeof(buf));
				bt_csv_push(x, buf);
			} else
				bt_csv_push(x, "?");
		}
	}
	bt_csv_clear_to(x, bt_csv_col((int)t->ncols));
	bt_csv_emit(x);
	x->row += x->count;
}

void
bt_render_csv(struct bt_builder *b, const struct bt_opts *o,
    struct strbuf *out, struct strbuf *warn)
{
	struct bt_csv	x;

	memset(&x, 0, sizeof(x));
	x.b = b;
	x.out = out;
	x.warn = warn;
	x.row = 1;
	bt_finish(b, o);
	if (!b->panic)
		bt_print_tables(b, bt_csv_hdr, bt_csv_table, &x);
	bt_csv_clear(&x);
	free(x.rec);
}

/* Strings and numbers are lib/jsonw's (its header says the escaping);
 * pool strings may hold NUL bytes. */
static void
bt_json_pstr(struct strbuf *out, const char *pooled)
{
	jw_add_str(out, pooled, strpool_len(pooled));
}

static void
bt_json_cstr(struct strbuf *out, const char *s)
{
	jw_add_str(out, s, strlen(s));
}

static void
bt_json_warnings(struct strbuf *out, const char *const *msg, size_t n,
    const char *vary, size_t varylen)
{
	size_t	i, k = 0;

	strbuf_adds(out, "[");
	if (vary != NULL) {
		jw_add_str(out, vary, varylen);
		k++;
	}
	for (i = 0; i < n; i++) {
		if (k++ > 0)
			strbuf_adds(out, ", ");
		bt_json_cstr(out, msg[i]);
	}
	strbuf_adds(out, "]");
}

static void
bt_json_table(struct bt_builder *b, struct bt_table *t, struct strbuf *out)
{
	struct bp_field	*const	*flat;
	struct bt_cell		*c;
	const char		*val;
	char			 buf[512];
	size_t			 nf, f, e, r, i, k;

	strbuf_adds(out, "    {\n      \"config\": {");
	flat = bp_flat_fields(b->table_by, &nf);
	for (f = 0, k = 0; f < nf; f++) {
		if (strcmp(flat[f]->name, ".unit") == 0)
			continue;
		val = bp_key_get(b->table_by, t->key, flat[f]);
		strbuf_adds(out, k++ > 0 ? ", " : "");
		bt_json_pstr(out, flat[f]->name);
		strbuf_adds(out, ": ");
		bt_json_pstr(out, val);
	}
	strbuf_adds(out, "},\n      \"unit\": ");
	bt_json_pstr(out, t->unit);
	strbuf_adds(out, ",\n      \"columns\": [");
	for (e = 0; e < t->ncols; e++) {
		strbuf_adds(out, e > 0 ? ", " : "");
		bt_json_pstr(out, bp_key_string_values(b->col_by, t->cols[e]));
	}
	strbuf_adds(out, "],\n      \"rows\": [");
	for (r = 0; r < t->nrows; r++) {
		strbuf_adds(out, r > 0 ? ",\n        {" : "\n        {");
		strbuf_adds(out, "\"name\": ");
		bt_json_pstr(out, bp_key_string_values(b->row_by, t->rows[r]));
		strbuf_adds(out, ", \"cells\": [");
		for (e = 0, k = 0; e < t->ncols; e++) {
			c = bt_cell_at(t, t->rows[r], t->cols[e]);
			if (c == NULL)
				continue;
			strbuf_adds(out, k++ > 0 ? ",\n          {" :
			    "\n          {");
			strbuf_adds(out, "\"column\": ");
			bt_json_pstr(out, bp_key_string_values(b->col_by,
			    t->cols[e]));
			strbuf_adds(out, ", \"center\": ");
			jw_add_num(out, c->sum.center);
			strbuf_adds(out, ", \"lo\": ");
			jw_add_num(out, c->sum.lo);
			strbuf_adds(out, ", \"hi\": ");
			jw_add_num(out, c->sum.hi);
			bm_summary_pct_range(&c->sum, buf, sizeof buf);
			strbuf_adds(out, ", \"ci\": ");
			bt_json_cstr(out, buf);
			snprintf(buf, sizeof buf, "%zu", c->n);
			strbuf_adds(out, ", \"n\": ");
			strbuf_adds(out, buf);
			strbuf_adds(out, ", \"values\": [");
			for (i = 0; i < c->n; i++) {
				strbuf_adds(out, i > 0 ? ", " : "");
				jw_add_num(out, c->vals[i]);
			}
			strbuf_adds(out, "]");
			if (e > 0 && c->baseline != NULL) {
				strbuf_adds(out, ", \"vs_base\": ");
				bm_format_delta(&c->cmp,
				    c->baseline->sum.center, c->sum.center,
				    buf, sizeof buf);
				bt_json_cstr(out, buf);
				strbuf_adds(out, ", \"delta_pct\": ");
				jw_add_num(out, c->baseline->sum.center != 0 ?
				    (c->sum.center / c->baseline->sum.center -
				    1) * 100 : NAN);
				strbuf_adds(out, ", \"p\": ");
				jw_add_num(out, c->cmp.p);
				strbuf_adds(out, ", \"alpha\": ");
				jw_add_num(out, c->cmp.alpha);
				strbuf_adds(out, ", \"significant\": ");
				strbuf_adds(out, c->cmp.p < c->cmp.alpha ?
				    "true" : "false");
				strbuf_adds(out, ", \"comparison_warnings\": ");
				bt_json_warnings(out, (const char *const *)
				    c->cmp.warnings.msg, c->cmp.warnings.n,
				    NULL, 0);
			}
			strbuf_adds(out, ", \"warnings\": ");
			bt_json_warnings(out, (const char *const *)
			    c->sum.warnings.msg, c->sum.warnings.n, c->vary,
			    c->varylen);
			strbuf_adds(out, "}");
		}
		strbuf_adds(out, "]}");
	}
	strbuf_adds(out, "\n      ],\n      \"geomean\": [");
	for (e = 0; e < t->ncols; e++) {
		struct bt_summary	*s = &t->summ[e];

		strbuf_adds(out, e > 0 ? ",\n        {" : "\n        {");
		strbuf_adds(out, "\"column\": ");
		bt_json_pstr(out, bp_key_string_values(b->col_by, t->cols[e]));
		strbuf_adds(out, ", \"value\": ");
		if (s->has_summary)
			jw_add_num(out, s->summary);
		else
			strbuf_adds(out, "null");
		if (e > 0) {
			strbuf_adds(out, ", \"ratio\": ");
			if (s->has_ratio)
				jw_add_num(out, s->ratio);
			else
				strbuf_adds(out, "null");
		}
		strbuf_adds(out, ", \"warnings\": ");
		bt_json_warnings(out, s->warn, s->nwarn, NULL, 0);
		strbuf_adds(out, "}");
	}
	strbuf_adds(out, "\n      ]\n    }");
}

void
bt_render_json(struct bt_builder *b, const struct bt_opts *o,
    struct strbuf *out)
{
	size_t	i;

	bt_finish(b, o);
	if (b->panic)
		return;
	strbuf_adds(out, "{\n  \"tables\": [");
	for (i = 0; i < b->ntables; i++) {
		strbuf_adds(out, i > 0 ? ",\n" : "\n");
		bt_json_table(b, b->tablev[i], out);
	}
	strbuf_adds(out, b->ntables > 0 ? "\n  ]\n}\n" : "]\n}\n");
}
