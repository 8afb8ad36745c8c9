/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The benchstat pipeline: options, inputs, filter, projections, tables.
 * Mirrors cmd/benchstat/main.go, which prints syntax errors while reading
 * and decides everything else before printing any table.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchproc.h"
#include "stats/benchstat.h"
#include "stats/benchtab.h"

struct benchstat {
	struct benchstat_opts	 o;
	struct bp_parser	*parser;
	struct bp_filter	*filter;
	struct bp_proj		*table_by;
	struct bp_proj		*row_by;
	struct bp_proj		*col_by;
	struct bp_proj		*residue;
	struct bt_builder	*builder;
	struct bf_units		*units;
	struct bp_res		 res;
	struct strbuf		 err;
};

void
benchstat_opts_init(struct benchstat_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->table = ".config";
	o->row = ".fullname";
	o->col = ".file";
	o->ignore = "";
	o->filter = "*";
	o->alpha = 0.05;
	o->confidence = 0.95;
	o->format = "text";
}

static char *
benchstat_syntax(const char *what, struct query_error *e)
{
	char	*s = query_error_string(e);
	char	*msg = xasprintf("parsing %s: %s", what, s);

	free(s);
	query_error_release(e);
	return msg;
}

struct benchstat *
benchstat_new(const struct benchstat_opts *o, char **cause)
{
	struct benchstat	*bs = xcalloc(1, sizeof(*bs));
	struct query_error	 e;
	struct bp_proj		*ignore;
	char			*first = NULL;
	static const char *const names[] = { "-table", "-row", "-col",
	    "-ignore" };
	const char		*qs[4];
	struct bp_proj		**outs[4];
	int			 i;

	bs->o = *o;
	bs->parser = bp_parser_new();
	bs->units = bf_units_new();
	if (bp_filter_new(bs->parser, o->filter, &bs->filter, &e) < 0) {
		*cause = benchstat_syntax("-filter", &e);
		benchstat_free(bs);
		return NULL;
	}
	qs[0] = o->table;
	qs[1] = o->row;
	qs[2] = o->col;
	qs[3] = o->ignore;
	outs[0] = &bs->table_by;
	outs[1] = &bs->row_by;
	outs[2] = &bs->col_by;
	outs[3] = &ignore;
	for (i = 0; i < 4; i++) {
		if (bp_parse(bs->parser, qs[i], i == 0, outs[i], &e) < 0) {
			if (first == NULL)
				first = benchstat_syntax(names[i], &e);
			else
				query_error_release(&e);
		}
	}
	if (first != NULL) {
		*cause = first;
		benchstat_free(bs);
		return NULL;
	}
	bs->residue = bp_residue(bs->parser);
	if (o->alpha < 0 || o->alpha > 1) {
		*cause = xstrdup("-alpha must be in range [0, 1]");
		benchstat_free(bs);
		return NULL;
	}
	if (o->confidence < 0 || o->confidence > 1) {
		*cause = xstrdup("-confidence must be in range [0, 1]");
		benchstat_free(bs);
		return NULL;
	}
	/* json and markdown are abbench's own; the message stays
	 * benchstat's. */
	if (strcmp(o->format, "text") != 0 && strcmp(o->format, "csv") != 0 &&
	    strcmp(o->format, "json") != 0 &&
	    strcmp(o->format, "markdown") != 0) {
		*cause = xstrdup("-format must be text or csv");
		benchstat_free(bs);
		return NULL;
	}
	bs->builder = bt_builder_new(bs->table_by, bs->row_by, bs->col_by,
	    bs->residue);
	return bs;
}

void
benchstat_free(struct benchstat *bs)
{
	if (bs == NULL)
		return;
	bt_builder_free(bs->builder);
	bp_filter_free(bs->filter);
	bp_res_release(&bs->res);
	bp_parser_free(bs->parser);
	bf_units_free(bs->units);
	strbuf_release(&bs->err);
	free(bs);
}

static void
benchstat_errors(struct benchstat *bs, struct bf_reader *r)
{
	const char *const	*msgs;
	size_t			 n, i;

	msgs = bf_reader_errors(r, &n);
	for (i = 0; i < n; i++) {
		strbuf_add(&bs->err, msgs[i], bf_reader_error_len(r, i));
		strbuf_addc(&bs->err, '\n');
	}
	bf_reader_clear_errors(r);
}

struct benchstat_input {
	struct benchstat	*bs;
	struct bf_reader	*r;
};

struct benchstat_input *
benchstat_input_new(struct benchstat *bs, const char *label,
    const char *path)
{
	struct benchstat_input	*in = xcalloc(1, sizeof(*in));

	in->bs = bs;
	in->r = bf_reader_new(path, label, "", 0, bs->units);
	bp_res_new_input(&bs->res);
	return in;
}

int
benchstat_input_feed(struct benchstat_input *in, const char *data,
    size_t len, int eof, size_t *used, char **cause)
{
	struct benchstat	*bs = in->bs;
	const struct bf_result	*res;
	int			 rc;

	bf_reader_feed(in->r, data, len, !eof);
	while ((rc = bf_reader_next(in->r, &res, cause)) == 1) {
		benchstat_errors(bs, in->r);
		if (bs->o.parse_only)
			continue;
		bp_res_init(bs->parser, &bs->res, res);
		if (bp_apply(bs->parser, bs->filter, &bs->res) == 0)
			continue;
		bt_builder_add(bs->builder, &bs->res);
	}
	benchstat_errors(bs, in->r);
	*used = bf_reader_consumed(in->r);
	return rc < 0 ? -1 : 0;
}

void
benchstat_input_config(struct benchstat_input *in, const char *key,
    const char *value)
{
	bf_reader_put_config(in->r, key, value);
}

void
benchstat_input_units(struct benchstat_input *in, const char *unit,
    const char *const *keys, const char *const *values, size_t n)
{
	bf_reader_put_units(in->r, unit, keys, values, n);
	benchstat_errors(in->bs, in->r);
}

void
benchstat_input_result(struct benchstat_input *in, const char *name,
    const double *v, const char *const *units, size_t n)
{
	struct benchstat	*bs = in->bs;
	const struct bf_result	*res;

	res = bf_reader_put_result(in->r, name, v, units, n);
	if (bs->o.parse_only)
		return;
	bp_res_init(bs->parser, &bs->res, res);
	if (bp_apply(bs->parser, bs->filter, &bs->res) != 0)
		bt_builder_add(bs->builder, &bs->res);
}

int
benchstat_input_line(const struct benchstat_input *in)
{
	return bf_reader_line(in->r);
}

void
benchstat_input_free(struct benchstat_input *in)
{
	if (in == NULL)
		return;
	bf_reader_free(in->r);
	free(in);
}

int
benchstat_add(struct benchstat *bs, const char *label, const char *path,
    const char *data, size_t len, char **cause)
{
	struct benchstat_input	*in = benchstat_input_new(bs, label, path);
	size_t			 used;
	int			 rc;

	rc = benchstat_input_feed(in, data, len, 1, &used, cause);
	benchstat_input_free(in);
	return rc;
}

void
benchstat_take_stderr(struct benchstat *bs, struct strbuf *err)
{
	if (bs->err.len > 0)
		strbuf_add(err, bs->err.buf, bs->err.len);
	strbuf_reset(&bs->err);
}

int
benchstat_finish(struct benchstat *bs, struct strbuf *out,
    struct strbuf *err)
{
	struct bt_opts	o;

	benchstat_take_stderr(bs, err);
	if (bs->o.parse_only)
		return 0;
	o.confidence = bs->o.confidence;
	o.alpha = bs->o.alpha;
	o.units = bs->units;
	o.keep_values = strcmp(bs->o.format, "json") == 0;
	if (strcmp(bs->o.format, "csv") == 0)
		bt_render_csv(bs->builder, &o, out, err);
	else if (strcmp(bs->o.format, "json") == 0)
		bt_render_json(bs->builder, &o, out);
	else if (strcmp(bs->o.format, "markdown") == 0)
		bt_render_markdown(bs->builder, &o, out);
	else
		bt_render_text(bs->builder, &o, out);
	if (bt_panicked(bs->builder)) {
		/* Go's runtime prints a goroutine trace after this line. */
		strbuf_adds(err, "panic: runtime error: index out of range "
		    "[-9223372036854775808]\n\n");
		return 2;
	}
	return 0;
}

void
benchstat_labels(char *const *args, size_t n, struct strvec *labels,
    struct strvec *paths)
{
	size_t		 i, j, count, idx;
	const char	*eq;
	char		*labelled;

	labelled = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		eq = strchr(args[i], '=');
		if (eq != NULL) {
			strvec_push_nodup(labels, xstrndup(args[i],
			    (size_t)(eq - args[i])));
			strvec_push(paths, eq + 1);
			labelled[i] = 1;
		} else {
			strvec_push(labels, args[i]);
			strvec_push(paths, args[i]);
		}
	}
	for (i = 0; i < n; i++) {
		if (labelled[i])
			continue;
		count = 0;
		idx = 0;
		for (j = 0; j < n; j++) {
			if (labelled[j] || strcmp(paths->v[j], paths->v[i]) != 0)
				continue;
			if (j < i)
				idx++;
			count++;
		}
		if (count == 1)
			continue;
		free(labels->v[i]);
		labels->v[i] = xasprintf("%s#%zu", paths->v[i], idx);
	}
	free(labelled);
}
