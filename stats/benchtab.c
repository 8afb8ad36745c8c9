/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table building, statistics and rendering for `abbench stat`, following
 * benchstat's benchtab package: the order of cells, warnings, footnotes
 * and CSV cell references is part of the output and reproduced exactly.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchmath.h"
#include "stats/benchtab.h"
#include "stats/benchunit.h"
#include "stats/gomath.h"
#include "stats/texttab.h"
#include "stats/uniprop.h"

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

struct bt_builder {
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

static const char *const bt_warn_set_differs =
    "benchmark set differs from baseline; geomeans may not be comparable";
static const char *const bt_warn_summaries =
    "summaries must be >0 to compute geomean";
static const char *const bt_warn_ratios =
    "ratios must be >0 to compute geomean";

struct bt_builder *
bt_builder_new(struct bp_proj *table, struct bp_proj *row,
    struct bp_proj *col, struct bp_proj *residue)
{
	struct bt_builder	*b = xcalloc(1, sizeof(*b));

	b->table_by = table;
	b->row_by = row;
	b->col_by = col;
	b->residue = residue;
	return b;
}

void
bt_builder_free(struct bt_builder *b)
{
	size_t		 i, j;
	struct bt_table	*t;
	struct bt_cell	*c;

	if (b == NULL)
		return;
	for (i = 0; i < b->ntables; i++) {
		t = b->tablev[i];
		for (j = 0; j < t->ncellv; j++) {
			c = t->cellv[j];
			free(c->vals);
			free(c->residue);
			free(c->vary);
			if (b->finished) {
				bm_summary_release(&c->sum);
				if (c->baseline != NULL)
					bm_comparison_release(&c->cmp);
			}
			free(c);
		}
		free(t->cellv);
		free(t->rows);
		free(t->cols);
		free(t->summ);
		u64map_release(&t->rowset);
		u64map_release(&t->colset);
		u64map_release(&t->cells);
		free(t);
	}
	free(b->tablev);
	free(b->keys);
	u64map_release(&b->tables);
	free(b);
}

void
bt_builder_add(struct bt_builder *b, struct bp_res *res)
{
	struct bp_key	*row, *col, *resid;
	struct bt_table	*t;
	struct bt_cell	*c;
	uint64_t	 ck;
	size_t		 i, j;

	if (res->nvalues > b->capkeys) {
		b->capkeys = res->nvalues + 8;
		b->keys = xreallocarray(b->keys, b->capkeys,
		    sizeof(*b->keys));
	}
	bp_project_values(b->table_by, res, b->keys);
	row = bp_project(b->row_by, res);
	col = bp_project(b->col_by, res);
	resid = bp_project(b->residue, res);
	ck = (uint64_t)row->id << 32 | col->id;
	for (i = 0; i < res->nvalues; i++) {
		t = u64map_get(&b->tables, b->keys[i]->id);
		if (t == NULL) {
			t = xcalloc(1, sizeof(*t));
			t->key = b->keys[i];
			u64map_put(&b->tables, b->keys[i]->id, t);
			XGROW(b->tablev, b->ntables, b->captables);
			b->tablev[b->ntables++] = t;
		}
		c = u64map_get(&t->cells, ck);
		if (c == NULL) {
			c = xcalloc(1, sizeof(*c));
			u64map_put(&t->cells, ck, c);
			XGROW(t->cellv, t->ncellv, t->capcellv);
			t->cellv[t->ncellv++] = c;
			if (u64map_get(&t->rowset, row->id) == NULL) {
				u64map_put(&t->rowset, row->id, row);
				XGROW(t->rows, t->nrows, t->caprows);
				t->rows[t->nrows++] = row;
			}
			if (u64map_get(&t->colset, col->id) == NULL) {
				u64map_put(&t->colset, col->id, col);
				XGROW(t->cols, t->ncols, t->capcols);
				t->cols[t->ncols++] = col;
			}
		}
		if (c->n >= c->cap) {
			/* Typical cells hold 5-30 samples: grow by 8 first. */
			c->cap = c->cap < 64 ? c->cap + 8 : 2 * c->cap;
			c->vals = xreallocarray(c->vals, c->cap,
			    sizeof(*c->vals));
		}
		c->vals[c->n++] = res->values[i].value;
		for (j = c->nres; j > 0; j--)
			if (c->residue[j - 1] == resid)
				break;
		if (j == 0) {
			XGROW(c->residue, c->nres, c->capres);
			c->residue[c->nres++] = resid;
		}
	}
}

static struct bt_cell *
bt_cell_at(struct bt_table *t, const struct bp_key *row,
    const struct bp_key *col)
{
	return u64map_get(&t->cells, (uint64_t)row->id << 32 | col->id);
}

static void
bt_summarize_col(struct bt_table *t, size_t ci, size_t nbase)
{
	struct bt_summary	*s = &t->summ[ci];
	double			*sums, *ratios, a, bb, gm;
	size_t			 ns = 0, nr = 0, r;
	int			 bad = 0, is_base = ci == 0;
	struct bt_cell		*c;

	sums = xcalloc(t->nrows + 1, sizeof(*sums));
	ratios = xcalloc(t->nrows + 1, sizeof(*ratios));
	for (r = 0; r < t->nrows; r++) {
		c = bt_cell_at(t, t->rows[r], t->cols[ci]);
		if (c == NULL)
			continue;
		sums[ns++] = c->sum.center;
		if (c->baseline == NULL)
			continue;
		a = c->sum.center;
		bb = c->baseline->sum.center;
		if (a == bb)
			ratios[nr++] = 1;
		else if (bb == 0) {
			bad = 1;
			ratios[nr++] = 0;
		} else
			ratios[nr++] = a / bb;
	}
	if (!is_base && nbase != nr)
		s->warn[s->nwarn++] = bt_warn_set_differs;
	gm = go_geomean(sums, ns);
	if (isnan(gm))
		s->warn[s->nwarn++] = bt_warn_summaries;
	else {
		s->has_summary = 1;
		s->summary = gm;
	}
	if (!is_base && !bad) {
		gm = go_geomean(ratios, nr);
		if (isnan(gm))
			s->warn[s->nwarn++] = bt_warn_ratios;
		else {
			s->has_ratio = 1;
			s->ratio = gm;
		}
	}
	free(sums);
	free(ratios);
}

static void
bt_finish(struct bt_builder *b, const struct bt_opts *o)
{
	struct bp_key		**keys;
	struct bt_table		**sorted, *t;
	struct bt_cell		*c;
	struct bm_ucache	*cache;
	struct bp_field		*unit_field = bp_unit_field(b->table_by);
	size_t			 i, j, r, nbase;
	const char		*assume, *vary;
	struct strbuf		 tidied = STRBUF_INIT;
	double			 factor;

	if (b->finished)
		return;
	b->finished = 1;
	keys = xcalloc(b->ntables + 1, sizeof(*keys));
	for (i = 0; i < b->ntables; i++)
		keys[i] = b->tablev[i]->key;
	bp_sort_keys(b->table_by, keys, b->ntables);
	sorted = xcalloc(b->ntables + 1, sizeof(*sorted));
	for (i = 0; i < b->ntables; i++)
		sorted[i] = u64map_get(&b->tables, keys[i]->id);
	free(b->tablev);
	b->tablev = sorted;
	free(keys);

	cache = bm_ucache_new();
	for (i = 0; i < b->ntables; i++) {
		t = b->tablev[i];
		t->unit = bp_key_get(b->table_by, t->key, unit_field);
		unit_tidy_n(t->unit, strpool_len(t->unit), &factor, &tidied);
		assume = o->units != NULL ? bf_units_get(o->units, tidied.buf,
		    tidied.len, "assume") : NULL;
		t->assume = assume != NULL && strpool_len(assume) == 5 &&
		    memcmp(assume, "exact", 5) == 0 ?
		    BM_ASSUME_EXACT : BM_ASSUME_NOTHING;
		bp_sort_keys(b->row_by, t->rows, t->nrows);
		bp_sort_keys(b->col_by, t->cols, t->ncols);
		for (j = 0; j < t->ncellv; j++) {
			c = t->cellv[j];
			go_sort_float64s(c->vals, c->n);
			bm_summarize(c->vals, c->n, t->assume, o->confidence,
			    &c->sum);
			if (c->sum.panic)
				b->panic = 1;
		}
		for (r = 0; r < t->nrows; r++) {
			struct bt_cell	*base;

			base = bt_cell_at(t, t->rows[r], t->cols[0]);
			for (j = 0; j < t->ncols; j++) {
				c = bt_cell_at(t, t->rows[r], t->cols[j]);
				if (c == NULL)
					continue;
				vary = bp_nonsingular(b->residue,
				    c->residue, c->nres);
				if (vary != NULL) {
					struct strbuf	m = STRBUF_INIT;

					strbuf_adds(&m, "benchmarks vary in ");
					strbuf_add(&m, vary, strpool_len(vary));
					c->varylen = m.len;
					c->vary = strbuf_detach(&m);
				}
				if (j == 0 || base == NULL)
					continue;
				c->baseline = base;
				bm_compare(base->vals, base->n, c->vals, c->n,
				    t->assume, o->alpha, cache, &c->cmp);
			}
		}
		/*
		 * The samples are summarized and compared: give their memory
		 * back before the tables are rendered (peak RSS).
		 */
		for (j = 0; j < t->ncellv; j++) {
			c = t->cellv[j];
			if (!o->keep_values) {
				free(c->vals);
				c->vals = NULL;
				c->cap = 0;
			}
			free(c->residue);
			c->residue = NULL;
			c->capres = 0;
		}
		nbase = 0;
		for (r = 0; r < t->nrows; r++)
			if (bt_cell_at(t, t->rows[r], t->cols[0]) != NULL)
				nbase++;
		t->summ = xcalloc(t->ncols, sizeof(*t->summ));
		for (j = 0; j < t->ncols; j++)
			bt_summarize_col(t, j, nbase);
	}
	bm_ucache_free(cache);
	strbuf_release(&tidied);
}

/* --- text ------------------------------------------------------------ */

/* Go's "%+.2f%%" of (ratio-1)*100 ("+Inf%" where C would say "+inf%"). */
static void
bt_ratio_pct(double ratio, char *buf, size_t len)
{
	double	v = (ratio - 1) * 100;

	if (isnan(v))
		snprintf(buf, len, "+NaN%%");
	else if (isinf(v))
		snprintf(buf, len, "%s%%", v > 0 ? "+Inf" : "-Inf");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

static void
bt_superscript(size_t i, struct strbuf *sb)
{
	static const char *const digits[] = {
		"\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3",
		"\xe2\x81\xb4", "\xe2\x81\xb5", "\xe2\x81\xb6",
		"\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9"
	};
	char	tmp[24];
	int	n = 0;

	if (i == 0) {
		strbuf_adds(sb, digits[0]);
		return;
	}
	while (i > 0) {
		tmp[n++] = (char)(i % 10);
		i /= 10;
	}
	while (n > 0)
		strbuf_adds(sb, digits[(int)tmp[--n]]);
}

/*
 * The footnote list of one table: messages in first-seen order, with their
 * lengths (a "benchmarks vary in" names config keys, which may hold NUL).
 */
struct bt_notes {
	struct strvec	msgs;
	size_t		*lens;
	size_t		 caplens;
};

static size_t
bt_note(struct bt_notes *nt, const char *msg, size_t len)
{
	size_t	i;
	char	*copy;

	for (i = 0; i < nt->msgs.n; i++)
		if (nt->lens[i] == len && memcmp(nt->msgs.v[i], msg, len) == 0)
			return i;
	if (nt->msgs.n + 1 > nt->caplens) {
		nt->caplens = nt->msgs.n + 8;
		nt->lens = xreallocarray(nt->lens, nt->caplens,
		    sizeof(*nt->lens));
	}
	nt->lens[nt->msgs.n] = len;
	copy = xmalloc(len + 1);
	memcpy(copy, msg, len);
	copy[len] = '\0';
	strvec_push_nodup(&nt->msgs, copy);
	return nt->msgs.n - 1;
}

/* The footnote text for a list of warnings (space separated). */
static void
bt_note_refs(struct bt_notes *nt, const char *const *msgs,
    const size_t *lens, size_t n, struct strbuf *sb)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (sb->len > 0)
			strbuf_addc(sb, ' ');
		bt_superscript(bt_note(nt, msgs[i], lens != NULL ? lens[i] :
		    strlen(msgs[i])) + 1, sb);
	}
}

static int
bt_start_col(int e)
{
	return e == 0 ? 1 : 1 + 3 + (e - 1) * 6;
}

struct bt_tt {
	struct texttab	*tt;
	int		 row;
	int		 col;
	int		 any;
};

static void
bt_tt_row(struct bt_tt *o)
{
	if (o->any)
		o->row++;
	o->col = 0;
}

static void
bt_tt_span(struct bt_tt *o, int span, const char *value, const char *margin,
    enum tt_align align)
{
	texttab_cell(o->tt, o->row, o->col, span, value, margin, align);
	o->any = 1;
	o->col += span;
}

/* The same for a pooled string (benchproc keys, units). */
static void
bt_tt_spanp(struct bt_tt *o, int span, const char *value, const char *margin,
    enum tt_align align)
{
	texttab_celln(o->tt, o->row, o->col, span, value, strpool_len(value),
	    margin, align);
	o->any = 1;
	o->col += span;
}

/* Header rows for the column keys (benchproc.KeyHeader). */
static void
bt_key_header(struct bt_tt *o, struct bp_proj *pr, struct bp_key **cols,
    size_t ncols, int redge)
{
	struct bp_field	*const	*flat;
	size_t			 nf, level, i, start;
	/* Node boundaries of the previous level: starts[] of length nb. */
	size_t			*bounds, nbounds, *next, nnext, b;
	const char		*val;

	flat = bp_flat_fields(pr, &nf);
	if (ncols == 0 || nf == 0)
		return;
	bounds = xcalloc(ncols + 2, sizeof(*bounds));
	next = xcalloc(ncols + 2, sizeof(*next));
	bounds[0] = 0;
	bounds[1] = ncols;
	nbounds = 2;
	for (level = 0; level < nf; level++) {
		bt_tt_row(o);
		nnext = 0;
		for (b = 0; b + 1 < nbounds; b++) {
			start = bounds[b];
			for (i = start; i < bounds[b + 1]; i++) {
				val = bp_key_get(pr, cols[i], flat[level]);
				if (i > start && val == bp_key_get(pr,
				    cols[i - 1], flat[level]))
					continue;
				next[nnext++] = i;
			}
		}
		next[nnext] = ncols;
		for (b = 0; b < nnext; b++) {
			int	l = bt_start_col((int)next[b]);
			int	r = bt_start_col((int)next[b + 1]);

			o->col = l;
			bt_tt_spanp(o, r - l, bp_key_get(pr, cols[next[b]],
			    flat[level]), " \xe2\x94\x82 ", TT_CENTER);
		}
		o->col = redge;
		bt_tt_span(o, 1, "", " \xe2\x94\x82", TT_LEFT);
		memcpy(bounds, next, (nnext + 1) * sizeof(*bounds));
		nbounds = nnext + 1;
	}
	free(bounds);
	free(next);
}

static void
bt_table_text(struct bt_builder *b, struct bt_table *t, struct strbuf *out)
{
	struct bt_tt		 o;
	struct bt_notes		 nt;
	struct strbuf		 sb = STRBUF_INIT;
	int			 redge = bt_start_col((int)t->ncols + 1), l, j;
	size_t			 e, r, i, n;
	enum unit_class		 cls = unit_class_of_n(t->unit,
				    strpool_len(t->unit));
	struct scaler		 sc;
	double			*centers;
	char			 buf[512], buf2[96];
	struct bt_cell		*c;
	const char		*warns[64];
	size_t			 warnlens[64];

	memset(&o, 0, sizeof(o));
	memset(&nt, 0, sizeof(nt));
	o.tt = texttab_new();
	bt_key_header(&o, b->col_by, t->cols, t->ncols, redge);

	bt_tt_row(&o);
	for (e = 0; e < t->ncols; e++) {
		l = bt_start_col((int)e);
		o.col = l;
		bt_tt_spanp(&o, 3, t->unit, " \xe2\x94\x82 ", TT_CENTER);
		if (e > 0)
			bt_tt_span(&o, 3, "vs base", "  ", TT_LEFT);
		for (j = l + 1; j < o.col; j++)
			texttab_set_shrink(o.tt, j);
	}
	o.col = redge;
	bt_tt_span(&o, 1, "", " \xe2\x94\x82", TT_LEFT);

	centers = xcalloc(t->ncols + 1, sizeof(*centers));
	for (r = 0; r < t->nrows; r++) {
		bt_tt_row(&o);
		bt_tt_spanp(&o, 1, bp_key_string_values(b->row_by,
		    t->rows[r]), NULL, TT_LEFT);
		n = 0;
		for (e = 0; e < t->ncols; e++)
			if ((c = bt_cell_at(t, t->rows[r], t->cols[e])) != NULL)
				centers[n++] = c->sum.center;
		scaler_common(centers, n, cls, &sc);
		for (e = 0; e < t->ncols; e++) {
			c = bt_cell_at(t, t->rows[r], t->cols[e]);
			if (c == NULL)
				continue;
			o.col = bt_start_col((int)e);
			scaler_format(&sc, c->sum.center, buf, sizeof(buf));
			bt_tt_span(&o, 1, buf, NULL, TT_RIGHT);
			bm_summary_pct_range(&c->sum, buf, sizeof(buf));
			bt_tt_span(&o, 1, buf, " \xc2\xb1 ", TT_RIGHT);
			n = 0;
			if (c->vary != NULL) {
				warnlens[n] = c->varylen;
				warns[n++] = c->vary;
			}
			for (i = 0; i < c->sum.warnings.n && n < 64; i++) {
				warnlens[n] = strlen(c->sum.warnings.msg[i]);
				warns[n++] = c->sum.warnings.msg[i];
			}
			strbuf_reset(&sb);
			strbuf_add(&sb, "", 0);
			bt_note_refs(&nt, warns, warnlens, n, &sb);
			bt_tt_span(&o, 1, sb.buf, NULL, TT_LEFT);
			if (e > 0 && c->baseline != NULL) {
				bm_format_delta(&c->cmp, c->baseline->sum.center,
				    c->sum.center, buf, sizeof(buf));
				bt_tt_span(&o, 1, buf, NULL, TT_RIGHT);
				bm_comparison_string(&c->cmp, buf2,
				    sizeof(buf2));
				snprintf(buf, sizeof(buf), "(%s)", buf2);
				bt_tt_span(&o, 1, buf, NULL, TT_LEFT);
				strbuf_reset(&sb);
				strbuf_add(&sb, "", 0);
				bt_note_refs(&nt, (const char *const *)
				    c->cmp.warnings.msg, NULL,
				    c->cmp.warnings.n, &sb);
				bt_tt_span(&o, 1, sb.buf, NULL, TT_LEFT);
			}
		}
	}
	free(centers);

	if (t->nrows > 1) {
		bt_tt_row(&o);
		bt_tt_span(&o, 1, "geomean", NULL, TT_LEFT);
		for (e = 0; e < t->ncols; e++) {
			struct bt_summary	*s = &t->summ[e];

			if (s->has_summary) {
				o.col = bt_start_col((int)e);
				scaler_common(&s->summary, 1, cls, &sc);
				scaler_format(&sc, s->summary, buf,
				    sizeof(buf));
				bt_tt_span(&o, 1, buf, NULL, TT_RIGHT);
			}
			if (e > 0) {
				o.col = bt_start_col((int)e) + 3;
				if (s->has_ratio) {
					bt_ratio_pct(s->ratio, buf, sizeof(buf));
					bt_tt_span(&o, 1, buf, NULL, TT_RIGHT);
				} else
					bt_tt_span(&o, 1, "?", NULL, TT_LEFT);
			}
			o.col = bt_start_col((int)e + 1) - 1;
			strbuf_reset(&sb);
			strbuf_add(&sb, "", 0);
			bt_note_refs(&nt, s->warn, NULL, s->nwarn, &sb);
			bt_tt_span(&o, 1, sb.buf, NULL, TT_LEFT);
		}
	}

	texttab_format_sb(o.tt, out);
	texttab_free(o.tt);
	for (i = 0; i < nt.msgs.n; i++) {
		bt_superscript(i + 1, out);
		strbuf_addc(out, ' ');
		strbuf_add(out, nt.msgs.v[i], nt.lens[i]);
		strbuf_addc(out, '\n');
	}
	strvec_clear(&nt.msgs);
	free(nt.lens);
	strbuf_release(&sb);
}

/*
 * printTables: the "NAME: VALUE" lines of changed table-key fields and a
 * blank line between tables; hdr(NULL) means the blank line.
 */
typedef void (*bt_hdr_fn)(void *ctx, const char *line, size_t len);
typedef void (*bt_table_fn)(void *ctx, struct bt_table *t);

static void
bt_print_tables(struct bt_builder *b, bt_hdr_fn hdr, bt_table_fn cb,
    void *ctx)
{
	struct bp_field	*const	*flat;
	size_t			 nf, i, f;
	struct bp_key		*prev = NULL, *key;
	const char		*val;
	struct strbuf		 line = STRBUF_INIT;

	if (b->ntables == 0)
		return;
	flat = bp_flat_fields(b->table_by, &nf);
	for (i = 0; i < b->ntables; i++) {
		if (i > 0)
			hdr(ctx, "", 0);
		key = b->tablev[i]->key;
		for (f = 0; f < nf; f++) {
			if (strcmp(flat[f]->name, ".unit") == 0)
				continue;
			val = bp_key_get(b->table_by, key, flat[f]);
			if (prev == NULL || val != bp_key_get(b->table_by,
			    prev, flat[f])) {
				strbuf_reset(&line);
				strbuf_add(&line, flat[f]->name,
				    strpool_len(flat[f]->name));
				strbuf_add(&line, ": ", 2);
				strbuf_add(&line, val, strpool_len(val));
				hdr(ctx, line.buf, line.len);
			}
		}
		prev = key;
		cb(ctx, b->tablev[i]);
	}
	strbuf_release(&line);
}

struct bt_text_ctx {
	struct bt_builder	*b;
	struct strbuf		*out;
};

static void
bt_text_hdr(void *ctx, const char *line, size_t len)
{
	struct bt_text_ctx	*x = ctx;

	strbuf_add(x->out, line, len);
	strbuf_addc(x->out, '\n');
}

static void
bt_text_table(void *ctx, struct bt_table *t)
{
	struct bt_text_ctx	*x = ctx;

	bt_table_text(x->b, t, x->out);
}

int
bt_panicked(const struct bt_builder *b)
{
	return b->panic;
}

void
bt_render_text(struct bt_builder *b, const struct bt_opts *o,
    struct strbuf *out)
{
	struct bt_text_ctx	x = { b, out };

	bt_finish(b, o);
	if (b->panic)
		return;
	bt_print_tables(b, bt_text_hdr, bt_text_table, &x);
}

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

/* A JSON string of s[0..len) (pool strings may hold NUL bytes). */
static void
bt_json_str(struct strbuf *out, const char *s, size_t len)
{
	size_t	i;
	char	buf[8];

	strbuf_addc(out, '"');
	for (i = 0; i < len; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			strbuf_addc(out, '\\');
			strbuf_addc(out, (char)c);
		} else if (c == '\n')
			strbuf_adds(out, "\\n");
		else if (c == '\t')
			strbuf_adds(out, "\\t");
		else if (c < 0x20) {
			snprintf(buf, sizeof buf, "\\u%04x", c);
			strbuf_adds(out, buf);
		} else
			strbuf_addc(out, (char)c);
	}
	strbuf_addc(out, '"');
}

static void
bt_json_pstr(struct strbuf *out, const char *pooled)
{
	bt_json_str(out, pooled, strpool_len(pooled));
}

static void
bt_json_cstr(struct strbuf *out, const char *s)
{
	bt_json_str(out, s, strlen(s));
}

/* A number, or null where JSON has none (NaN, infinities). */
static void
bt_json_num(struct strbuf *out, double v)
{
	char	buf[64];
	int	p;

	if (!isfinite(v)) {
		strbuf_adds(out, "null");
		return;
	}
	/* The shortest text that reads back as v. */
	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (p == 17)
		snprintf(buf, sizeof buf, "%.17g", v);
	strbuf_adds(out, buf);
}

static void
bt_json_warnings(struct strbuf *out, const char *const *msg, size_t n,
    const char *vary, size_t varylen)
{
	size_t	i, k = 0;

	strbuf_adds(out, "[");
	if (vary != NULL) {
		bt_json_str(out, vary, varylen);
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
			bt_json_num(out, c->sum.center);
			strbuf_adds(out, ", \"lo\": ");
			bt_json_num(out, c->sum.lo);
			strbuf_adds(out, ", \"hi\": ");
			bt_json_num(out, c->sum.hi);
			bm_summary_pct_range(&c->sum, buf, sizeof buf);
			strbuf_adds(out, ", \"ci\": ");
			bt_json_cstr(out, buf);
			snprintf(buf, sizeof buf, "%zu", c->n);
			strbuf_adds(out, ", \"n\": ");
			strbuf_adds(out, buf);
			strbuf_adds(out, ", \"values\": [");
			for (i = 0; i < c->n; i++) {
				strbuf_adds(out, i > 0 ? ", " : "");
				bt_json_num(out, c->vals[i]);
			}
			strbuf_adds(out, "]");
			if (e > 0 && c->baseline != NULL) {
				strbuf_adds(out, ", \"vs_base\": ");
				bm_format_delta(&c->cmp,
				    c->baseline->sum.center, c->sum.center,
				    buf, sizeof buf);
				bt_json_cstr(out, buf);
				strbuf_adds(out, ", \"delta_pct\": ");
				bt_json_num(out, c->baseline->sum.center != 0 ?
				    (c->sum.center / c->baseline->sum.center -
				    1) * 100 : NAN);
				strbuf_adds(out, ", \"p\": ");
				bt_json_num(out, c->cmp.p);
				strbuf_adds(out, ", \"alpha\": ");
				bt_json_num(out, c->cmp.alpha);
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
			bt_json_num(out, s->summary);
		else
			strbuf_adds(out, "null");
		if (e > 0) {
			strbuf_adds(out, ", \"ratio\": ");
			if (s->has_ratio)
				bt_json_num(out, s->ratio);
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
