/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Projections, keys and filters (x/perf benchproc semantics): how
 * benchstat turns each result into table, row, column and residue keys,
 * which values survive -filter, and in which order keys are shown.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchproc.h"
#include "stats/gomath.h"

enum bp_ext {
	EXT_NAME,		/* .name */
	EXT_FULL,		/* .fullname (with exclusions) */
	EXT_FULL_RAW,		/* .fullname as read (fixed-order filters) */
	EXT_SUBKEY,		/* /key */
	EXT_CONFIG		/* a file config key, or .file */
};

/* One part of a projection: a .config group, .fullname or one key. */
struct bp_part {
	int			 group;		/* .config */
	enum bp_ext		 ext;
	const char		*key;		/* canonical */
	size_t			 keylen;
	struct bp_field		*field;		/* the group for .config */
	enum bp_order		 order;		/* for new .config sub-fields */
	struct u64map		*fixed;
	struct u64map		 seen;		/* .config key -> field */
};

struct bp_proj {
	struct bp_parser	*parser;
	struct bp_field		 root;
	int			 nfields;
	struct bp_field		*unit_field;
	struct bp_part		**parts;
	size_t			 nparts;
	const char		**row;
	size_t			 rowcap;
	/* Interned keys: open addressing on the row hash. */
	struct bp_key		**slots;
	size_t			 nslots;
	struct bp_key		**keys;		/* by id */
	size_t			 nkeys;
	size_t			 capkeys;
	struct bp_field		**flat;
	size_t			 nflat;
	int			 flat_valid;
};

/* A fixed-order filter part: the key's value must be listed. */
struct bp_fixed_filter {
	enum bp_ext		 ext;
	const char		*key;
	size_t			 keylen;
	struct u64map		*fixed;
};

struct bp_parser {
	struct strpool		*pool;
	const char		*empty;
	struct u64map		 config_keys;	/* excluded from .config */
	const char		**fullname_keys;	/* "/key" excluded */
	size_t			 nfullname_keys;
	int			 exc_name;
	int			 have_config;
	int			 have_fullname;
	struct bp_proj		**projs;
	size_t			 nprojs;
	struct bp_fixed_filter	*fixed;
	size_t			 nfixed;
	struct u64map		**fixed_maps;
	size_t			 nfixed_maps;
	struct strbuf		 scratch;
};

struct bp_filter {
	struct query_filter	*q;
	unsigned char		*stack;
	size_t			 capstack;
};

/* --- parser ---------------------------------------------------------- */

struct bp_parser *
bp_parser_new(void)
{
	struct bp_parser	*p = xcalloc(1, sizeof(*p));

	p->pool = strpool_new();
	p->empty = strpool_intern(p->pool, "", 0);
	return p;
}

static void
bp_field_free(struct bp_field *f)
{
	size_t	i;

	for (i = 0; i < f->nsub; i++) {
		bp_field_free(f->sub[i]);
		free(f->sub[i]);
	}
	free(f->sub);
	u64map_release(&f->obs);
}

static void
bp_proj_free(struct bp_proj *pr)
{
	size_t	i;

	bp_field_free(&pr->root);
	for (i = 0; i < pr->nparts; i++) {
		u64map_release(&pr->parts[i]->seen);
		free(pr->parts[i]);
	}
	free(pr->parts);
	free(pr->row);
	free(pr->slots);
	free(pr->keys);
	free(pr->flat);
	free(pr);
}

void
bp_parser_free(struct bp_parser *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nprojs; i++)
		bp_proj_free(p->projs[i]);
	free(p->projs);
	for (i = 0; i < p->nfixed_maps; i++) {
		u64map_release(p->fixed_maps[i]);
		free(p->fixed_maps[i]);
	}
	free(p->fixed_maps);
	free(p->fixed);
	free(p->fullname_keys);
	u64map_release(&p->config_keys);
	strbuf_release(&p->scratch);
	strpool_free(p->pool);
	free(p);
}

/* The parser's string pool: values handed to it must come from here. */
struct strpool *
bp_parser_pool(struct bp_parser *p)
{
	return p->pool;
}

static const char *
bp_intern(struct bp_parser *p, const char *s, size_t len)
{
	if (len == 0)
		return p->empty;
	return strpool_intern(p->pool, s, len);
}

/* A pooled string equals a literal (NUL bytes count). */
static int
bp_is(const char *pooled, const char *lit)
{
	size_t	n = strlen(lit);

	return strpool_len(pooled) == n && memcmp(pooled, lit, n) == 0;
}

static struct bp_proj *
bp_proj_new(struct bp_parser *p)
{
	struct bp_proj	*pr = xcalloc(1, sizeof(*pr));

	pr->parser = p;
	pr->root.idx = -1;
	pr->nslots = 64;
	pr->slots = xcalloc(pr->nslots, sizeof(*pr->slots));
	p->projs = xreallocarray(p->projs, p->nprojs + 1, sizeof(*p->projs));
	p->projs[p->nprojs++] = pr;
	return pr;
}

static struct bp_field *
bp_add_field(struct bp_proj *pr, struct bp_field *group, const char *name,
    enum bp_order order)
{
	struct bp_field	*f = xcalloc(1, sizeof(*f));

	f->name = name;
	f->idx = pr->nfields++;
	f->order = order;
	/* Only top-level fields get observation indices (QUIRK). */
	f->track = order == BP_FIRST && group == &pr->root;
	group->sub = xreallocarray(group->sub, group->nsub + 1,
	    sizeof(*group->sub));
	group->sub[group->nsub++] = f;
	pr->flat_valid = 0;
	if ((size_t)pr->nfields > pr->rowcap) {
		pr->rowcap = pr->rowcap ? pr->rowcap * 2 : 8;
		pr->row = xreallocarray(pr->row, pr->rowcap,
		    sizeof(*pr->row));
	}
	pr->row[f->idx] = pr->parser->empty;
	return f;
}

static struct bp_field *
bp_add_group(struct bp_proj *pr, const char *name)
{
	struct bp_field	*f = xcalloc(1, sizeof(*f));

	f->name = name;
	f->idx = -1;
	pr->root.sub = xreallocarray(pr->root.sub, pr->root.nsub + 1,
	    sizeof(*pr->root.sub));
	pr->root.sub[pr->root.nsub++] = f;
	pr->flat_valid = 0;
	return f;
}

static int
bp_syntax(struct query_error *err, const char *q, int off, char *msg)
{
	err->query = xstrdup(q);
	err->off = off;
	err->msg = msg;
	return -1;
}

static struct u64map *
bp_fixed_map(struct bp_parser *p, const struct query_field *qf)
{
	struct u64map	*m = xcalloc(1, sizeof(*m));
	size_t		 i;

	for (i = 0; i < qf->nfixed; i++)
		u64map_put(m, (uintptr_t)bp_intern(p, qf->fixed[i],
		    qf->fixedlen[i]), (void *)(uintptr_t)(i + 1));
	p->fixed_maps = xreallocarray(p->fixed_maps, p->nfixed_maps + 1,
	    sizeof(*p->fixed_maps));
	p->fixed_maps[p->nfixed_maps++] = m;
	return m;
}

/* makeProjection: -1 and *err on a semantic error. */
static int
bp_make_part(struct bp_parser *p, struct bp_proj *pr, const char *q,
    const struct query_field *qf, struct bp_fixed_filter *filter,
    int *has_filter, struct query_error *err)
{
	enum bp_order	 order;
	struct bp_part	*part;
	const char	*key = bp_intern(p, qf->key, qf->keylen);
	struct u64map	*fixed = NULL;
	char		*qq;

	*has_filter = 0;
	if (qf->orderlen == 5 && memcmp(qf->order, "fixed", 5) == 0)
		order = BP_FIXED;
	else if (qf->orderlen == 5 && memcmp(qf->order, "first", 5) == 0)
		order = BP_FIRST;
	else if (qf->orderlen == 5 && memcmp(qf->order, "alpha", 5) == 0)
		order = BP_ALPHA;
	else if (qf->orderlen == 3 && memcmp(qf->order, "num", 3) == 0)
		order = BP_NUM;
	else {
		qq = query_go_quote(qf->order, qf->orderlen);
		bp_syntax(err, q, qf->order_off, xasprintf("unknown order %s",
		    qq));
		free(qq);
		return -1;
	}

	part = xcalloc(1, sizeof(*part));
	part->key = key;
	part->keylen = qf->keylen;
	part->order = order;
	if (bp_is(key, ".config")) {
		if (order == BP_FIXED) {
			free(part);
			return bp_syntax(err, q, qf->order_off,
			    xstrdup("fixed order not allowed for .config"));
		}
		p->have_config = 1;
		part->group = 1;
		part->field = bp_add_group(pr, key);
	} else if (bp_is(key, ".fullname")) {
		p->have_fullname = 1;
		part->ext = EXT_FULL;
		part->field = bp_add_field(pr, &pr->root, key, order);
		if (order == BP_FIXED) {
			fixed = bp_fixed_map(p, qf);
			filter->ext = EXT_FULL_RAW;
		}
	} else if (bp_is(key, ".unit")) {
		free(part);
		return bp_syntax(err, q, qf->key_off,
		    xstrdup(".unit is only allowed in filters"));
	} else {
		if (bp_is(key, ".name") || key[0] == '/') {
			size_t	i;
			int	dup = 0;

			if (key[0] == '.')
				p->exc_name = 1;
			for (i = 0; i < p->nfullname_keys; i++)
				dup |= p->fullname_keys[i] == key;
			if (!dup && key[0] == '/') {
				p->fullname_keys = xreallocarray(
				    p->fullname_keys, p->nfullname_keys + 1,
				    sizeof(*p->fullname_keys));
				p->fullname_keys[p->nfullname_keys++] = key;
			}
		} else if (part->keylen != 0)
			u64map_put(&p->config_keys, (uintptr_t)key,
			    (void *)1);
		if (part->keylen == 0) {
			free(part);
			return bp_syntax(err, q, qf->key_off,
			    xstrdup("key must not be empty"));
		}
		if (bp_is(key, ".name"))
			part->ext = EXT_NAME;
		else if (key[0] == '/')
			part->ext = EXT_SUBKEY;
		else
			part->ext = EXT_CONFIG;
		part->field = bp_add_field(pr, &pr->root, key, order);
		if (order == BP_FIXED) {
			fixed = bp_fixed_map(p, qf);
			filter->ext = part->ext;
		}
	}
	if (fixed != NULL) {
		part->field->fixed = fixed;
		part->fixed = fixed;
		filter->key = key;
		filter->keylen = part->keylen;
		filter->fixed = fixed;
		*has_filter = 1;
	}
	pr->parts = xreallocarray(pr->parts, pr->nparts + 1,
	    sizeof(*pr->parts));
	pr->parts[pr->nparts++] = part;
	return 0;
}

int
bp_parse(struct bp_parser *p, const char *q, int with_unit,
    struct bp_proj **out, struct query_error *err)
{
	struct query_field	*fields;
	size_t			 n, i, nf = 0;
	struct bp_proj		*pr;
	struct bp_fixed_filter	*filters;
	int			 has;

	*out = NULL;
	if (query_parse_projection(q, &fields, &n, err) < 0)
		return -1;
	pr = bp_proj_new(p);
	filters = xcalloc(n + 1, sizeof(*filters));
	for (i = 0; i < n; i++) {
		if (bp_make_part(p, pr, q, &fields[i], &filters[nf], &has,
		    err) < 0) {
			free(filters);
			query_fields_free(fields, n);
			return -1;
		}
		nf += has;
	}
	query_fields_free(fields, n);
	/* Only a valid projection adds its filters. */
	for (i = 0; i < nf; i++) {
		p->fixed = xreallocarray(p->fixed, p->nfixed + 1,
		    sizeof(*p->fixed));
		p->fixed[p->nfixed++] = filters[i];
	}
	free(filters);
	if (with_unit)
		pr->unit_field = bp_add_field(pr, &pr->root,
		    bp_intern(p, ".unit", 5), BP_FIRST);
	*out = pr;
	return 0;
}

struct bp_proj *
bp_residue(struct bp_parser *p)
{
	struct bp_proj	*pr = bp_proj_new(p);
	struct bp_part	*part;

	if (!p->have_config) {
		part = xcalloc(1, sizeof(*part));
		part->group = 1;
		part->order = BP_FIRST;
		part->key = bp_intern(p, ".config", 7);
		part->field = bp_add_group(pr, part->key);
		pr->parts = xreallocarray(pr->parts, pr->nparts + 1,
		    sizeof(*pr->parts));
		pr->parts[pr->nparts++] = part;
	}
	if (!p->have_fullname) {
		part = xcalloc(1, sizeof(*part));
		part->ext = EXT_FULL;
		part->key = bp_intern(p, ".fullname", 9);
		part->field = bp_add_field(pr, &pr->root, part->key,
		    BP_FIRST);
		pr->parts = xreallocarray(pr->parts, pr->nparts + 1,
		    sizeof(*pr->parts));
		pr->parts[pr->nparts++] = part;
	}
	return pr;
}

/* --- results and extraction ------------------------------------------ */

/* Grow n arrays of string pointers to cap entries each. */
static void
bp_grow_arrays(const char ***const arrs[], size_t n, size_t *capp, size_t cap)
{
	size_t	i;

	for (i = 0; i < n; i++)
		*arrs[i] = xreallocarray(*arrs[i], cap, sizeof(**arrs[i]));
	*capp = cap;
}

/*
 * The canonical string of the reader's pooled s at slot i: the reader
 * interns its strings, so an unchanged pointer means an unchanged string
 * (within one reader: see bp_res_new_input).
 */
static void
bp_canon(struct bp_parser *p, const char **raw, const char **canon,
    size_t i, size_t nvalid, const char *s)
{
	if (i >= nvalid || raw[i] != s) {
		raw[i] = s;
		canon[i] = bp_intern(p, s, strpool_len(s));
	}
}

void
bp_res_init(struct bp_parser *p, struct bp_res *res,
    const struct bf_result *r)
{
	size_t	i;

	if (r->nconfig + 1 > res->capconfig) {
		const char	***const arrs[] = { &res->ckeys, &res->cvals,
				    &res->rkeys, &res->rvals };

		bp_grow_arrays(arrs, 4, &res->capconfig, r->nconfig + 8);
		res->nvalid = 0;
	}
	for (i = 0; i < r->nconfig; i++) {
		bp_canon(p, res->rkeys, res->ckeys, i, res->nvalid,
		    r->config[i].key);
		bp_canon(p, res->rvals, res->cvals, i, res->nvalid,
		    r->config[i].value);
	}
	res->nconfig = r->nconfig;
	if (r->nconfig > res->nvalid)
		res->nvalid = r->nconfig;
	if (res->rlabel != r->label || res->label == NULL) {
		res->rlabel = r->label;
		res->label = bp_intern(p, r->label, strpool_len(r->label));
	}
	res->r = r;
	/* The next sample of a benchmark has the name of the previous. */
	if (res->fullname == NULL || strpool_len(res->fullname) !=
	    r->name_len || memcmp(res->fullname, r->name, r->name_len) != 0)
		res->fullname = bp_intern(p, r->name, r->name_len);
	res->fullx = NULL;
	res->values = r->values;
	res->nvalues = r->nvalues;
	if (r->nvalues + 1 > res->capunits) {
		const char	***const arrs[] = { &res->units, &res->runits,
				    &res->cunits };

		bp_grow_arrays(arrs, 3, &res->capunits, r->nvalues + 8);
		res->nuvalid = 0;
	}
	for (i = 0; i < r->nvalues; i++) {
		bp_canon(p, res->runits, res->cunits, i, res->nuvalid,
		    r->values[i].unit);
		res->units[i] = res->cunits[i];
	}
	if (r->nvalues > res->nuvalid)
		res->nuvalid = r->nvalues;
}

void
bp_res_new_input(struct bp_res *res)
{
	res->nvalid = 0;
	res->nuvalid = 0;
	res->rlabel = NULL;
	res->label = NULL;
}

void
bp_res_release(struct bp_res *res)
{
	free(res->ckeys);
	free(res->cvals);
	free(res->rkeys);
	free(res->rvals);
	free(res->units);
	free(res->runits);
	free(res->cunits);
	free(res->own);
	memset(res, 0, sizeof(*res));
}

static int
bp_has_prefix_key(const char *part, size_t plen, const char *key,
    size_t keylen)
{
	return plen > keylen && memcmp(part, key, keylen) == 0 &&
	    part[keylen] == '=';
}

/* extractFullExcluded. */
static const char *
bp_fullname_excluded(struct bp_parser *p, struct bp_res *res)
{
	const char	*name = res->fullname;
	size_t		 len = strpool_len(name), i, k, procs, end, start;
	int		 found = p->exc_name, exc_procs = 0, skip;
	struct strbuf	*sb = &p->scratch;

	if (res->fullx != NULL)
		return res->fullx;
	if (!p->exc_name && p->nfullname_keys == 0) {
		res->fullx = name;
		return name;
	}
	for (k = 0; k < p->nfullname_keys; k++) {
		const char	*key = p->fullname_keys[k];
		size_t		 kl = strpool_len(key);

		if (bp_is(key, "/gomaxprocs"))
			exc_procs = 1;
		/* bytes.Contains(name, "/key=") */
		if (!found && len > kl) {
			const char	*s = name, *end = name + len;

			while ((s = memmem(s, (size_t)(end - s), key, kl)) !=
			    NULL) {
				if (s + kl < end && s[kl] == '=') {
					found = 1;
					break;
				}
				s++;
			}
		}
	}
	if (!found && exc_procs && memchr(name, '-', len) != NULL)
		found = 1;
	if (!found) {
		res->fullx = name;
		return name;
	}
	strbuf_reset(sb);
	procs = bf_name_procs(name, len);
	end = len - procs;
	/* Base part: up to the first '/' of the name without -N. */
	for (i = 0; i < end && name[i] != '/'; i++)
		;
	if (p->exc_name)
		strbuf_addc(sb, '*');
	else
		strbuf_add(sb, name, i);
	while (i < end) {
		start = i;
		for (i = start + 1; i < end && name[i] != '/'; i++)
			;
		skip = 0;
		for (k = 0; k < p->nfullname_keys && !skip; k++)
			skip = bp_has_prefix_key(name + start, i - start,
			    p->fullname_keys[k],
			    strpool_len(p->fullname_keys[k]));
		if (!skip)
			strbuf_add(sb, name + start, i - start);
	}
	if (procs > 0) {
		skip = exc_procs;
		for (k = 0; k < p->nfullname_keys && !skip; k++)
			skip = bp_has_prefix_key(name + end, procs,
			    p->fullname_keys[k],
			    strpool_len(p->fullname_keys[k]));
		if (!skip)
			strbuf_add(sb, name + end, procs);
	}
	res->fullx = bp_intern(p, sb->buf != NULL ? sb->buf : "", sb->len);
	return res->fullx;
}

static const char *
bp_extract(struct bp_parser *p, enum bp_ext ext, const char *key,
    size_t keylen, struct bp_res *res)
{
	const char	*name = res->fullname, *v;
	size_t		 len, vlen, i;

	switch (ext) {
	case EXT_NAME:
		len = strpool_len(name);
		return bp_intern(p, name, bf_name_base(name, len));
	case EXT_FULL:
		return bp_fullname_excluded(p, res);
	case EXT_FULL_RAW:
		return name;
	case EXT_SUBKEY:
		len = strpool_len(name);
		if (bf_name_key(name, len, key, keylen, &v, &vlen))
			return bp_intern(p, v, vlen);
		return p->empty;
	case EXT_CONFIG:
		if (bp_is(key, ".file"))
			return res->label;
		for (i = 0; i < res->nconfig; i++)
			if (res->ckeys[i] == key)
				return res->cvals[i];
		return p->empty;
	}
	return p->empty;
}

/* --- filters --------------------------------------------------------- */

int
bp_filter_new(struct bp_parser *p, const char *q, struct bp_filter **out,
    struct query_error *err)
{
	struct query_filter	*f;

	(void)p;
	if (query_parse_filter(q, &f, err) < 0)
		return -1;
	*out = xcalloc(1, sizeof(**out));
	(*out)->q = f;
	return 0;
}

void
bp_filter_free(struct bp_filter *f)
{
	if (f == NULL)
		return;
	query_filter_free(f->q);
	free(f->stack);
	free(f);
}

/*
 * Evaluate a filter node: returns -1 if it produced a per-value mask in
 * m[0..n), else the boolean result.  m is scratch of n bytes per level.
 */
static int
bp_eval(struct bp_parser *p, const struct query_filter *q,
    struct bp_res *res, unsigned char *m, unsigned char *scratch)
{
	size_t		 n = res->nvalues, i, j;
	int		 have = 0, r;
	const char	*v;

	switch (q->op) {
	case QUERY_MATCH:
		if (q->keylen == 5 && memcmp(q->key, ".unit", 5) == 0) {
			for (i = 0; i < n; i++) {
				const struct bf_value	*bv = &res->values[i];

				m[i] = query_match_value(q, bv->unit,
				    strpool_len(bv->unit)) ||
				    (bv->orig_unit != bv->unit &&
				    query_match_value(q, bv->orig_unit,
				    strpool_len(bv->orig_unit)));
			}
			return -1;
		}
		if (q->keylen == 5 && memcmp(q->key, ".name", 5) == 0)
			v = bp_extract(p, EXT_NAME, NULL, 0, res);
		else if (q->keylen == 9 && memcmp(q->key, ".fullname", 9) == 0)
			v = res->fullname;
		else if (q->key[0] == '/')
			v = bp_extract(p, EXT_SUBKEY, q->key, q->keylen, res);
		else
			v = bp_extract(p, EXT_CONFIG, bp_intern(p, q->key,
			    q->keylen), 0, res);
		return query_match_value(q, v, strpool_len(v));
	case QUERY_NOT:
		r = bp_eval(p, q->sub[0], res, m, scratch);
		if (r >= 0)
			return !r;
		for (i = 0; i < n; i++)
			m[i] = !m[i];
		return -1;
	case QUERY_AND:
	case QUERY_OR:
		for (j = 0; j < q->nsub; j++) {
			r = bp_eval(p, q->sub[j], res, scratch, scratch + n);
			if (r >= 0) {
				if (q->op == QUERY_AND && !r)
					return 0;
				if (q->op == QUERY_OR && r)
					return 1;
				continue;
			}
			if (!have) {
				memcpy(m, scratch, n);
				have = 1;
			} else if (q->op == QUERY_AND) {
				for (i = 0; i < n; i++)
					m[i] &= scratch[i];
			} else {
				for (i = 0; i < n; i++)
					m[i] |= scratch[i];
			}
		}
		if (have)
			return -1;
		return q->op == QUERY_AND;
	}
	return 0;
}

static size_t
bp_depth(const struct query_filter *q)
{
	size_t	i, d = 0, s;

	for (i = 0; i < q->nsub; i++)
		if ((s = bp_depth(q->sub[i])) > d)
			d = s;
	return d + 1;
}

size_t
bp_apply(struct bp_parser *p, struct bp_filter *f, struct bp_res *res)
{
	size_t		 i, j, n = res->nvalues, need;
	const char	*v;
	unsigned char	*m;
	int		 r;

	for (i = 0; i < p->nfixed; i++) {
		v = bp_extract(p, p->fixed[i].ext, p->fixed[i].key,
		    p->fixed[i].keylen, res);
		if (u64map_get(p->fixed[i].fixed, (uintptr_t)v) == NULL)
			return 0;
	}
	if (f == NULL)
		return n;
	need = (bp_depth(f->q) + 2) * (n + 1);
	if (need > f->capstack) {
		f->capstack = need;
		f->stack = xrealloc(f->stack, need);
	}
	m = f->stack;
	r = bp_eval(p, f->q, res, m, m + n);
	if (r >= 0)
		return r ? n : 0;
	/* Keep only the matching values, in a copy owned by res. */
	for (i = 0; i < n && m[i]; i++)
		;
	if (i == n)
		return n;
	if (n > res->capown) {
		res->capown = n;
		res->own = xreallocarray(res->own, n, sizeof(*res->own));
	}
	for (i = 0, j = 0; i < n; i++) {
		if (!m[i])
			continue;
		res->own[j] = res->values[i];
		res->units[j] = res->units[i];
		j++;
	}
	res->values = res->own;
	res->nvalues = j;
	return j;
}

/* --- keys ------------------------------------------------------------ */

static uint64_t
bp_row_hash(const char **row, size_t n)
{
	uint64_t	h = 0x243f6a8885a308d3ULL;
	size_t		i;

	for (i = 0; i < n; i++)
		h = u64_mix(h ^ (uintptr_t)row[i]) + i;
	return h;
}

static void
bp_key_table_grow(struct bp_proj *pr)
{
	struct bp_key	**old = pr->slots;
	size_t		  oldn = pr->nslots, i, j;

	pr->nslots *= 2;
	pr->slots = xcalloc(pr->nslots, sizeof(*pr->slots));
	for (i = 0; i < oldn; i++) {
		if (old[i] == NULL)
			continue;
		for (j = old[i]->hash & (pr->nslots - 1); pr->slots[j] != NULL;
		    j = (j + 1) & (pr->nslots - 1))
			;
		pr->slots[j] = old[i];
	}
	free(old);
}

/* internRow: find or create the key for pr->row. */
static struct bp_key *
bp_intern_row(struct bp_proj *pr)
{
	struct bp_parser	*p = pr->parser;
	size_t			 n = (size_t)pr->nfields, j, i;
	uint64_t		 h;
	struct bp_key		*k;
	struct bp_field		*f;

	while (n > 0 && pr->row[n - 1] == p->empty)
		n--;
	h = bp_row_hash(pr->row, n);
	for (j = h & (pr->nslots - 1); (k = pr->slots[j]) != NULL;
	    j = (j + 1) & (pr->nslots - 1)) {
		if (k->hash == h && k->nvals == n && (n == 0 ||
		    memcmp(k->vals, pr->row, n * sizeof(*pr->row)) == 0))
			return k;
	}
	/* A new key: update observation orders of top-level fields. */
	for (i = 0; i < pr->root.nsub; i++) {
		const char	*val;

		f = pr->root.sub[i];
		if (!f->track)
			continue;
		val = (size_t)f->idx < n ? pr->row[f->idx] : p->empty;
		if (u64map_get(&f->obs, (uintptr_t)val) == NULL)
			u64map_put(&f->obs, (uintptr_t)val,
			    (void *)(uintptr_t)++f->nobs);
	}
	k = strpool_alloc(p->pool, sizeof(*k));
	k->vals = strpool_alloc(p->pool, (n ? n : 1) * sizeof(*k->vals));
	if (n > 0)
		memcpy(k->vals, pr->row, n * sizeof(*pr->row));
	k->nvals = (uint32_t)n;
	k->hash = h;
	k->id = (uint32_t)pr->nkeys;
	XGROW(pr->keys, pr->nkeys, pr->capkeys);
	pr->keys[pr->nkeys++] = k;
	pr->slots[j] = k;
	if (pr->nkeys * 2 > pr->nslots)
		bp_key_table_grow(pr);
	return k;
}

static void
bp_populate_row(struct bp_proj *pr, struct bp_res *res)
{
	struct bp_parser	*p = pr->parser;
	struct bp_part		*part;
	struct bp_field		*f;
	size_t			 i, c;

	for (i = 0; i < (size_t)pr->nfields; i++)
		pr->row[i] = p->empty;
	for (i = 0; i < pr->nparts; i++) {
		part = pr->parts[i];
		if (!part->group) {
			pr->row[part->field->idx] = bp_extract(p, part->ext,
			    part->key, part->keylen, res);
			continue;
		}
		for (c = 0; c < res->nconfig; c++) {
			const char	*key = res->ckeys[c];

			f = u64map_get(&part->seen, (uintptr_t)key);
			if (f == NULL) {
				if (u64map_get(&p->config_keys,
				    (uintptr_t)key) != NULL)
					continue;
				f = bp_add_field(pr, part->field, key,
				    part->order);
				u64map_put(&part->seen, (uintptr_t)key, f);
			}
			pr->row[f->idx] = res->cvals[c];
		}
	}
}

struct bp_key *
bp_project(struct bp_proj *pr, struct bp_res *res)
{
	bp_populate_row(pr, res);
	return bp_intern_row(pr);
}

void
bp_project_values(struct bp_proj *pr, struct bp_res *res,
    struct bp_key **keys)
{
	size_t	i;

	bp_populate_row(pr, res);
	if (pr->unit_field == NULL) {
		struct bp_key	*k = bp_intern_row(pr);

		for (i = 0; i < res->nvalues; i++)
			keys[i] = k;
		return;
	}
	for (i = 0; i < res->nvalues; i++) {
		pr->row[pr->unit_field->idx] = res->units[i];
		keys[i] = bp_intern_row(pr);
	}
}

static void
bp_flatten(struct bp_proj *pr, struct bp_field *f)
{
	size_t	i;

	if (f->idx != -1) {
		pr->flat = xreallocarray(pr->flat, pr->nflat + 1,
		    sizeof(*pr->flat));
		pr->flat[pr->nflat++] = f;
		return;
	}
	for (i = 0; i < f->nsub; i++)
		bp_flatten(pr, f->sub[i]);
}

struct bp_field *const *
bp_flat_fields(struct bp_proj *pr, size_t *n)
{
	if (!pr->flat_valid) {
		pr->nflat = 0;
		bp_flatten(pr, &pr->root);
		pr->flat_valid = 1;
	}
	*n = pr->nflat;
	return pr->flat;
}

struct bp_field *
bp_unit_field(struct bp_proj *pr)
{
	return pr->unit_field;
}

const char *
bp_key_get(struct bp_proj *pr, const struct bp_key *k,
    const struct bp_field *f)
{
	if (f->idx < 0 || (uint32_t)f->idx >= k->nvals)
		return pr->parser->empty;
	return k->vals[f->idx];
}

/* parseNum: Go ParseFloat, else the first ([0-9.]+)([kKMGTPEZY]i?)? */
static int
bp_parse_num(const char *s, double *out)
{
	static const char	 prefixes[] = "KMGTPEZY";
	size_t			 len = strpool_len(s), i, j;
	double			 v;
	int			 exp = 0, iec = 0;
	const char		*pp;

	if (len > 0 && go_parse_float(s, len, out) == 0)
		return 0;
	for (i = 0; i < len; i++)
		if ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')
			break;
	if (i == len)
		return -1;
	for (j = i; j < len && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.');
	    j++)
		;
	if (go_parse_float(s + i, j - i, &v) != 0)
		return -1;
	if (j < len && s[j] != '\0' && (s[j] == 'k' ||
	    ((pp = strchr(prefixes, s[j])) != NULL))) {
		char	c = s[j] == 'k' ? 'K' : s[j];

		exp = 1 + (int)(strchr(prefixes, c) - prefixes);
		iec = j + 1 < len && s[j + 1] == 'i';
	}
	*out = v * pow(iec ? 1024 : 1000, exp);
	return 0;
}

static int
bp_field_cmp(const struct bp_field *f, const char *a, const char *b)
{
	uintptr_t	ia, ib;
	double		na, nb;
	int		ea, eb;

	switch (f->order) {
	case BP_FIRST:
		ia = (uintptr_t)u64map_get(&f->obs, (uintptr_t)a);
		ib = (uintptr_t)u64map_get(&f->obs, (uintptr_t)b);
		/* Go's map gives 0 for unseen values, and 0 for the first. */
		ia = ia ? ia - 1 : 0;
		ib = ib ? ib - 1 : 0;
		return ia < ib ? -1 : ia > ib ? 1 : 0;
	case BP_FIXED:
		ia = (uintptr_t)u64map_get(f->fixed, (uintptr_t)a);
		ib = (uintptr_t)u64map_get(f->fixed, (uintptr_t)b);
		ia = ia ? ia - 1 : 0;
		ib = ib ? ib - 1 : 0;
		return ia < ib ? -1 : ia > ib ? 1 : 0;
	case BP_ALPHA:
		return strpool_cmp(a, b);
	case BP_NUM:
		ea = bp_parse_num(a, &na);
		eb = bp_parse_num(b, &nb);
		if (ea == 0 && eb == 0) {
			if (na < nb || (!isnan(na) && isnan(nb)))
				return -1;
			if (na > nb || (isnan(na) && !isnan(nb)))
				return 1;
			return 0;
		}
		if (ea != 0 && eb != 0)
			return 0;
		return ea == 0 ? -1 : 1;
	}
	return 0;
}

static int
bp_key_cmp(const void *pa, const void *pb, void *ctx)
{
	struct bp_proj		*pr = ctx;
	const struct bp_key	*a = *(struct bp_key *const *)pa;
	const struct bp_key	*b = *(struct bp_key *const *)pb;
	size_t			 i;
	const char		*va, *vb;
	int			 c;

	for (i = 0; i < pr->nflat; i++) {
		va = bp_key_get(pr, a, pr->flat[i]);
		vb = bp_key_get(pr, b, pr->flat[i]);
		if (va == vb)
			continue;
		c = bp_field_cmp(pr->flat[i], va, vb);
		if (c != 0)
			return c;
		return strpool_cmp(va, vb) < 0 ? -1 : 1;
	}
	return 0;
}

void
bp_sort_keys(struct bp_proj *pr, struct bp_key **keys, size_t n)
{
	size_t	nf;

	bp_flat_fields(pr, &nf);
	qsort_r(keys, n, sizeof(*keys), bp_key_cmp, pr);
}

const char *
bp_key_string_values(struct bp_proj *pr, const struct bp_key *k)
{
	struct strbuf		*sb = &pr->parser->scratch;
	struct bp_field	*const	*flat;
	size_t			 n, i;
	const char		*v;

	flat = bp_flat_fields(pr, &n);
	strbuf_reset(sb);
	for (i = 0; i < n; i++) {
		v = bp_key_get(pr, k, flat[i]);
		if (strpool_len(v) == 0)
			continue;
		if (sb->len > 0)
			strbuf_addc(sb, ' ');
		strbuf_add(sb, v, strpool_len(v));
	}
	return bp_intern(pr->parser, sb->buf, sb->len);
}

const char *
bp_nonsingular(struct bp_proj *pr, struct bp_key *const *keys, size_t n)
{
	struct strbuf		*sbp = &pr->parser->scratch;
	struct bp_field	*const	*flat;
	size_t			 nf, i, j;
	const char		*base;

	if (n <= 1)
		return NULL;
	strbuf_reset(sbp);
	flat = bp_flat_fields(pr, &nf);
	for (i = 0; i < nf; i++) {
		base = bp_key_get(pr, keys[0], flat[i]);
		for (j = 1; j < n; j++) {
			if (bp_key_get(pr, keys[j], flat[i]) != base) {
				if (sbp->len > 0)
					strbuf_adds(sbp, ", ");
				strbuf_add(sbp, flat[i]->name,
				    strpool_len(flat[i]->name));
				break;
			}
		}
	}
	return sbp->len > 0 ? bp_intern(pr->parser, sbp->buf, sbp->len) :
	    NULL;
}
