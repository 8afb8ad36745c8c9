/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table building, statistics and the text rendering for `abbench stat`,
 * following benchstat's benchtab package: the order of cells, warnings,
 * footnotes and CSV cell references is part of the output and reproduced
 * exactly. The CSV and JSON renderings are benchtab-render.c's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchmath.h"
#include "stats/benchtab.h"
#include "stats/benchtab-int.h"
#include "stats/benchunit.h"
#include "stats/gomath.h"
#include "stats/texttab.h"
#include "lib/goregexp/uniprop.h"

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
	free(b->memo.config);
	free(b->memo.units);
	free(b->memo.cells);
	u64map_release(&b->tables);
	free(b);
}

/* Whether res has the projections' inputs of the memo's result. */
static int
bt_memo_hit(const struct bt_memo *m, const struct bp_res *res)
{
	size_t	n = res->nconfig;

	if (!m->valid || m->fullname != res->fullname ||
	    m->label != res->label || m->nconfig != n ||
	    m->nvalues != res->nvalues)
		return 0;
	/* (memcmp takes no NULL, even for 0 bytes.) */
	return (n == 0 || (memcmp(m->config, res->ckeys, n *
	    sizeof(*m->config)) == 0 && memcmp(m->config + n, res->cvals,
	    n * sizeof(*m->config)) == 0)) && (res->nvalues == 0 ||
	    memcmp(m->units, res->units, res->nvalues *
	    sizeof(*m->units)) == 0);
}

static void
bt_memo_set(struct bt_memo *m, const struct bp_res *res)
{
	size_t	n = res->nconfig;

	if (2 * n > m->capconfig) {
		m->capconfig = 2 * n + 8;
		m->config = xreallocarray(m->config, m->capconfig,
		    sizeof(*m->config));
	}
	if (res->nvalues > m->capvalues) {
		m->capvalues = res->nvalues + 8;
		m->units = xreallocarray(m->units, m->capvalues,
		    sizeof(*m->units));
		m->cells = xreallocarray(m->cells, m->capvalues,
		    sizeof(*m->cells));
	}
	m->fullname = res->fullname;
	m->label = res->label;
	m->nconfig = n;
	m->nvalues = res->nvalues;
	if (n > 0) {
		memcpy(m->config, res->ckeys, n * sizeof(*m->config));
		memcpy(m->config + n, res->cvals, n * sizeof(*m->config));
	}
	if (res->nvalues > 0)
		memcpy(m->units, res->units, res->nvalues * sizeof(*m->units));
	m->valid = 1;
}

/* Value v of residue resid into cell c. */
static void
bt_cell_add(struct bt_cell *c, double v, struct bp_key *resid)
{
	size_t	j;

	if (c->n >= c->cap) {
		/* Typical cells hold 5-30 samples: grow by 8 first. */
		c->cap = c->cap < 64 ? c->cap + 8 : 2 * c->cap;
		c->vals = xreallocarray(c->vals, c->cap, sizeof(*c->vals));
	}
	c->vals[c->n++] = v;
	for (j = c->nres; j > 0; j--)
		if (c->residue[j - 1] == resid)
			break;
	if (j == 0) {
		XGROW(c->residue, c->nres, c->capres);
		c->residue[c->nres++] = resid;
	}
}

void
bt_builder_add(struct bt_builder *b, struct bp_res *res)
{
	struct bt_memo	*m = &b->memo;
	struct bp_key	*row, *col, *resid;
	struct bt_table	*t;
	struct bt_cell	*c;
	uint64_t	 ck;
	size_t		 i;

	/* Projections are pure functions of their inputs once seen. */
	if (bt_memo_hit(m, res)) {
		for (i = 0; i < res->nvalues; i++)
			bt_cell_add(m->cells[i], res->values[i].value,
			    m->resid);
		return;
	}
	bt_memo_set(m, res);
	if (res->nvalues > b->capkeys) {
		b->capkeys = res->nvalues + 8;
		b->keys = xreallocarray(b->keys, b->capkeys,
		    sizeof(*b->keys));
	}
	bp_project_values(b->table_by, res, b->keys);
	row = bp_project(b->row_by, res);
	col = bp_project(b->col_by, res);
	resid = bp_project(b->residue, res);
	m->resid = resid;
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
		m->cells[i] = c;
		bt_cell_add(c, res->values[i].value, resid);
	}
}

struct bt_cell *
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

void
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
void
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

void
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

void
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

void
bt_notes_release(struct bt_notes *nt)
{
	strvec_clear(&nt->msgs);
	free(nt->lens);
	memset(nt, 0, sizeof *nt);
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
	bt_notes_release(&nt);
	strbuf_release(&sb);
}

/*
 * printTables: the "NAME: VALUE" lines of changed table-key fields and a
 * blank line between tables; hdr(NULL) means the blank line.
 */
void
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
