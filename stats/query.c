/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parsers for benchstat's filter and projection expressions, written to
 * follow x/perf benchproc/internal/parse token by token so that syntax
 * errors carry the same messages and byte offsets as Go's.  Go's
 * tokenizer skips white space in place when it peeks at a token; the
 * `size_t *pos` arguments below model exactly that.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/goregexp/goregexp.h"
#include "stats/query.h"
#include "lib/goregexp/uniprop.h"

/* --- errors ---------------------------------------------------------- */

void
query_error_release(struct query_error *e)
{
	free(e->query);
	free(e->msg);
	e->query = NULL;
	e->msg = NULL;
	e->off = 0;
}

char *
query_error_string(const struct query_error *e)
{
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 len = strlen(e->query), i = 0, n;
	int		 pos = 0;
	uint32_t	 r;

	while (i < len && (int)i < e->off) {
		r = uni_decode(e->query + i, len - i, &n);
		if (uni_is_graphic(r))
			pos++;
		i += n;
	}
	strbuf_addf(&sb, "syntax error: %s\n\t%s\n\t%*s^", e->msg, e->query,
	    pos, "");
	return strbuf_detach(&sb);
}

/* --- Go strconv.Quote ---------------------------------------------- */

char *
query_go_quote(const char *s, size_t len)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i = 0, n;
	uint32_t	r;

	strbuf_addc(&sb, '"');
	while (i < len) {
		r = uni_decode(s + i, len - i, &n);
		if (r == UNI_ERROR && n == 1) {
			strbuf_addf(&sb, "\\x%02x", (unsigned char)s[i]);
			i++;
			continue;
		}
		if (r == '"' || r == '\\') {
			strbuf_addc(&sb, '\\');
			strbuf_addc(&sb, (char)r);
		} else if (uni_is_print(r)) {
			strbuf_add(&sb, s + i, n);
		} else {
			switch (r) {
			case '\a': strbuf_adds(&sb, "\\a"); break;
			case '\b': strbuf_adds(&sb, "\\b"); break;
			case '\f': strbuf_adds(&sb, "\\f"); break;
			case '\n': strbuf_adds(&sb, "\\n"); break;
			case '\r': strbuf_adds(&sb, "\\r"); break;
			case '\t': strbuf_adds(&sb, "\\t"); break;
			case '\v': strbuf_adds(&sb, "\\v"); break;
			default:
				if (r < ' ' || r == 0x7f)
					strbuf_addf(&sb, "\\x%02x", r);
				else if (r < 0x10000)
					strbuf_addf(&sb, "\\u%04x", r);
				else
					strbuf_addf(&sb, "\\U%08x", r);
			}
		}
		i += n;
	}
	strbuf_addc(&sb, '"');
	return strbuf_detach(&sb);
}

/* Go strconv.Unquote of a double-quoted string; -1 on a bad escape. */
static int
go_unquote(const char *s, size_t len, struct strbuf *out)
{
	size_t		i, j, n;
	uint32_t	v;
	char		enc[4];
	int		digits;

	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return -1;
	s++;
	len -= 2;
	for (i = 0; i < len; ) {
		unsigned char	c = (unsigned char)s[i];

		if (c == '"' || c == '\n')
			return -1;
		if (c != '\\') {
			strbuf_addc(out, (char)c);
			i++;
			continue;
		}
		if (++i >= len)
			return -1;
		c = (unsigned char)s[i++];
		switch (c) {
		case 'a': strbuf_addc(out, '\a'); break;
		case 'b': strbuf_addc(out, '\b'); break;
		case 'f': strbuf_addc(out, '\f'); break;
		case 'n': strbuf_addc(out, '\n'); break;
		case 'r': strbuf_addc(out, '\r'); break;
		case 't': strbuf_addc(out, '\t'); break;
		case 'v': strbuf_addc(out, '\v'); break;
		case '\\': strbuf_addc(out, '\\'); break;
		case '"': strbuf_addc(out, '"'); break;
		case 'x': case 'u': case 'U':
			digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			if (i + (size_t)digits > len)
				return -1;
			v = 0;
			for (j = 0; j < (size_t)digits; j++) {
				char	h = s[i + j];

				v <<= 4;
				if (h >= '0' && h <= '9')
					v |= (uint32_t)(h - '0');
				else if (h >= 'a' && h <= 'f')
					v |= (uint32_t)(h - 'a' + 10);
				else if (h >= 'A' && h <= 'F')
					v |= (uint32_t)(h - 'A' + 10);
				else
					return -1;
			}
			i += (size_t)digits;
			if (c == 'x') {
				strbuf_addc(out, (char)v);
				break;
			}
			if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
				return -1;
			n = uni_encode(v, enc);
			strbuf_add(out, enc, n);
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			if (i + 2 > len)
				return -1;
			v = (uint32_t)(c - '0');
			for (j = 0; j < 2; j++) {
				char	o = s[i + j];

				if (o < '0' || o > '7')
					return -1;
				v = v * 8 + (uint32_t)(o - '0');
			}
			if (v > 255)
				return -1;
			i += 2;
			strbuf_addc(out, (char)v);
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/* --- regexps: Go's syntax and semantics (lib/goregexp/goregexp.c) ---- */

struct query_regex *
query_regex_compile(const char *expr, size_t len, char **msg)
{
	return (struct query_regex *)goregexp_compile(expr, len, msg);
}

int
query_regex_match(const struct query_regex *re, const char *s, size_t len)
{
	return goregexp_match((const struct goregexp *)re, s, len);
}

void
query_regex_free(struct query_regex *re)
{
	goregexp_free((struct goregexp *)re);
}

/* --- tokenizer ------------------------------------------------------- */

struct qp {
	const char	*q;
	size_t		 len;
	int		 have_err;
	int		 err_off;
	char		*err_msg;
	struct strvec	 garbage;	/* token texts */
};

struct tok {
	int		 kind;	/* 'w' 'q' 'r' 'A' 'O', an operator, or 0 */
	int		 off;
	const char	*text;	/* owned by qp->garbage */
	size_t		 len;
};

static int
tk_is_op(unsigned char c)
{
	return c == '(' || c == ')' || c == ':' || c == '@' || c == ',';
}

static int
tk_is_start_op(unsigned char c)
{
	return tk_is_op(c) || c == '-' || c == '*';
}

/* Record the first error at pos; returns the end position. */
static size_t
qp_error(struct qp *p, size_t pos, const char *msg)
{
	if (!p->have_err) {
		p->have_err = 1;
		p->err_off = (int)pos;
		p->err_msg = xstrdup(msg);
	}
	return p->len;
}

static const char *
qp_keep(struct qp *p, const char *s, size_t len)
{
	strvec_push_nodup(&p->garbage, xstrndup(s, len));
	return p->garbage.v[p->garbage.n - 1];
}

static size_t
tk_make(struct tok *t, int kind, size_t off, const char *text, size_t len,
    size_t rest)
{
	t->kind = kind;
	t->off = (int)off;
	t->text = text;
	t->len = len;
	return rest;
}

/* t.error(msg): an EOF token at *pos and the end position. */
static size_t
tk_error(struct qp *p, size_t pos, struct tok *t, const char *msg)
{
	qp_error(p, pos, msg);
	return tk_make(t, 0, pos, "", 0, p->len);
}

static size_t
tk_regexp(struct qp *p, size_t pos, struct tok *t)
{
	size_t			 i = pos + 1, start = pos + 1, q2;
	int			 cs = 0, cp = 0;
	struct query_regex	*re;
	char			*msg = NULL;
	unsigned char		 c;

	for (;;) {
		if (i >= p->len)
			return tk_error(p, pos, t, "missing close \"/\"");
		if (cs == 0 && cp == 0 && p->q[i] == '/')
			break;
		switch (p->q[i]) {
		case '[':
			cs++;
			break;
		case ']':
			if (--cs < 0)
				cs = 0;
			break;
		case '(':
			if (cs == 0)
				cp++;
			break;
		case ')':
			if (cs == 0)
				cp--;
			break;
		case '\\':
			i++;
			break;
		}
		i++;
	}
	re = query_regex_compile(p->q + start, i - start, &msg);
	if (re == NULL) {
		tk_error(p, pos, t, msg);
		free(msg);
		return p->len;
	}
	query_regex_free(re);
	q2 = i + 1;
	if (q2 < p->len) {
		c = (unsigned char)p->q[q2];
		/* Go tests the byte as a rune: only ASCII spaces and 0x85. */
		if (!(uni_is_space(c) || tk_is_start_op(c)))
			return tk_error(p, q2, t, "regexp must be followed by "
			    "space or an operator (unescaped \"/\"?)");
	}
	return tk_make(t, 'r', pos, qp_keep(p, p->q + start, i - start),
	    i - start, q2);
}

static size_t
tk_next(struct qp *p, size_t *pos, int allow_re, struct tok *t)
{
	size_t		i, n, end;
	uint32_t	r;
	struct strbuf	sb = STRBUF_INIT;

	while (*pos < p->len) {
		unsigned char	c = (unsigned char)p->q[*pos];

		if (tk_is_start_op(c))
			return tk_make(t, c, *pos, qp_keep(p, p->q + *pos, 1),
			    1, *pos + 1);
		if (c == ' ') {
			(*pos)++;
			continue;
		}
		n = uni_space_len(p->q + *pos, p->len - *pos);
		if (n > 0) {
			*pos += n;
			continue;
		}
		if (allow_re && c == '/')
			return tk_regexp(p, *pos, t);
		if (c == '"') {
			i = *pos + 1;
			while (i < p->len && (p->q[i] != '"' ||
			    p->q[i - 1] == '\\'))
				i++;
			if (i == p->len)
				return tk_error(p, *pos, t,
				    "missing end quote");
			if (go_unquote(p->q + *pos, i + 1 - *pos, &sb) < 0) {
				strbuf_release(&sb);
				return tk_error(p, *pos, t,
				    "bad escape sequence");
			}
			strbuf_add(&sb, "", 0);
			n = sb.len;
			strvec_push_nodup(&p->garbage, strbuf_detach(&sb));
			return tk_make(t, 'q', *pos,
			    p->garbage.v[p->garbage.n - 1], n, i + 1);
		}
		/* A bare word: up to white space or an operator. */
		end = p->len;
		for (i = *pos; i < p->len; i += n) {
			r = uni_decode(p->q + i, p->len - i, &n);
			if (uni_is_space(r) || (r < 0x80 && tk_is_op(r))) {
				end = i;
				break;
			}
		}
		n = end - *pos;
		if (n == 3 && memcmp(p->q + *pos, "AND", 3) == 0)
			return tk_make(t, 'A', *pos, "AND", 3, end);
		if (n == 2 && memcmp(p->q + *pos, "OR", 2) == 0)
			return tk_make(t, 'O', *pos, "OR", 2, end);
		return tk_make(t, 'w', *pos, qp_keep(p, p->q + *pos, n), n,
		    end);
	}
	return tk_make(t, 0, *pos, "", 0, p->len);
}

/* --- filter parser --------------------------------------------------- */

static struct query_filter *
qf_new(enum query_op op)
{
	struct query_filter	*f = xcalloc(1, sizeof(*f));

	f->op = op;
	return f;
}

static void
qf_add(struct query_filter *f, struct query_filter *sub)
{
	f->sub = xreallocarray(f->sub, f->nsub + 1, sizeof(*f->sub));
	f->sub[f->nsub++] = sub;
}

void
query_filter_free(struct query_filter *f)
{
	size_t	i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nsub; i++)
		query_filter_free(f->sub[i]);
	free(f->sub);
	free(f->key);
	free(f->lit);
	query_regex_free(f->re);
	free(f);
}

int
query_match_value(const struct query_filter *m, const char *s, size_t len)
{
	if (m->re != NULL)
		return query_regex_match(m->re, s, len);
	return m->litlen == len && memcmp(m->lit, s, len) == 0;
}

static struct query_filter *
qf_match(struct qp *p, const struct tok *key, const struct tok *val)
{
	struct query_filter	*f = qf_new(QUERY_MATCH);
	char			*msg = NULL;

	f->key = xmalloc(key->len + 1);
	memcpy(f->key, key->text, key->len);
	f->key[key->len] = '\0';
	f->keylen = key->len;
	f->off = key->off;
	if (val->kind == 'r') {
		f->re = query_regex_compile(val->text, val->len, &msg);
		if (f->re == NULL) {
			/* Checked by the tokenizer already. */
			qp_error(p, (size_t)val->off, msg);
			free(msg);
		}
	} else {
		f->lit = xmalloc(val->len + 1);
		memcpy(f->lit, val->text, val->len);
		f->lit[val->len] = '\0';
		f->litlen = val->len;
	}
	return f;
}

static size_t qf_expr(struct qp *, size_t, struct query_filter **);

static size_t
qf_unexpected(struct qp *p, size_t pos, const struct tok *op)
{
	char	*q = query_go_quote(op->text, op->len);
	char	*msg = xasprintf("unexpected %s", q);

	pos = qp_error(p, pos, msg);
	free(msg);
	free(q);
	return pos;
}

static size_t
qf_match_expr(struct qp *p, size_t start, struct query_filter **out)
{
	struct tok		 tok, op, val, key;
	size_t			 rest, toks2;
	struct query_filter	*q = NULL, *list;

	*out = NULL;
	rest = tk_next(p, &start, 0, &tok);
	switch (tok.kind) {
	case '(':
		rest = qf_expr(p, rest, &q);
		toks2 = tk_next(p, &rest, 0, &op);
		if (op.kind != ')') {
			query_filter_free(q);
			return qp_error(p, rest, "missing \")\"");
		}
		*out = q;
		return toks2;
	case '-':
		rest = qf_match_expr(p, rest, &q);
		*out = qf_new(QUERY_NOT);
		qf_add(*out, q);
		return rest;
	case '*':
		*out = qf_new(QUERY_AND);
		return rest;
	case 'w':
	case 'q':
		key = tok;
		toks2 = tk_next(p, &rest, 0, &op);
		if (op.kind != ':')
			return qp_error(p, start, "expected key:value");
		rest = toks2;
		rest = tk_next(p, &rest, 1, &val);
		switch (val.kind) {
		case 'w':
		case 'q':
		case 'r':
			*out = qf_match(p, &key, &val);
			return rest;
		case '(':
			break;
		default:
			return qp_error(p, start, "expected key:value");
		}
		list = qf_new(QUERY_OR);
		for (;;) {
			toks2 = tk_next(p, &rest, 1, &val);
			switch (val.kind) {
			case 'w':
			case 'q':
			case 'r':
				qf_add(list, qf_match(p, &key, &val));
				break;
			default:
				query_filter_free(list);
				return qp_error(p, rest, "expected value");
			}
			rest = toks2;
			toks2 = tk_next(p, &rest, 1, &val);
			if (val.kind == ')') {
				*out = list;
				return toks2;
			}
			if (val.kind != 'O') {
				query_filter_free(list);
				return qp_error(p, rest,
				    "value list must be separated by OR");
			}
			rest = toks2;
		}
	}
	return qp_error(p, start, "expected key:value or subexpression");
}

static size_t
qf_and_expr(struct qp *p, size_t pos, struct query_filter **out)
{
	struct query_filter	*q, *and = NULL;
	struct tok		 op;
	size_t			 toks2;

	pos = qf_match_expr(p, pos, &q);
	for (;;) {
		toks2 = tk_next(p, &pos, 0, &op);
		if (op.kind == 'A') {
			pos = toks2;
			continue;
		}
		if (op.kind == '(' || op.kind == '-' || op.kind == '*' ||
		    op.kind == 'w' || op.kind == 'q') {
			if (and == NULL) {
				and = qf_new(QUERY_AND);
				qf_add(and, q);
			}
			pos = qf_match_expr(p, pos, &q);
			qf_add(and, q);
			continue;
		}
		if (op.kind == ')' || op.kind == 'O' || op.kind == 0)
			break;
		query_filter_free(and != NULL ? and : q);
		*out = NULL;
		return qf_unexpected(p, pos, &op);
	}
	*out = and != NULL ? and : q;
	return pos;
}

static size_t
qf_expr(struct qp *p, size_t pos, struct query_filter **out)
{
	struct query_filter	*q, *or = NULL;
	struct tok		 op;
	size_t			 toks2;

	for (;;) {
		pos = qf_and_expr(p, pos, &q);
		if (or == NULL) {
			or = qf_new(QUERY_OR);
		}
		qf_add(or, q);
		toks2 = tk_next(p, &pos, 0, &op);
		if (op.kind != 'O')
			break;
		pos = toks2;
	}
	if (or->nsub == 1) {
		*out = or->sub[0];
		or->nsub = 0;
		query_filter_free(or);
	} else
		*out = or;
	return pos;
}

static void
qp_release(struct qp *p)
{
	strvec_clear(&p->garbage);
	free(p->err_msg);
}

static int
qp_fail(struct qp *p, struct query_error *err)
{
	err->query = xstrndup(p->q, p->len);
	err->off = p->err_off;
	err->msg = p->err_msg;
	p->err_msg = NULL;
	return -1;
}

/* Reject what benchproc.NewFilter rejects when it compiles the tree. */
static int
qf_check(const struct query_filter *f, struct qp *p)
{
	size_t	i;

	if (f == NULL)
		return 0;
	if (f->op == QUERY_MATCH) {
		if (f->keylen == 5 && memcmp(f->key, ".unit", 5) == 0)
			return 0;
		if (f->keylen == 7 && memcmp(f->key, ".config", 7) == 0) {
			qp_error(p, (size_t)f->off,
			    ".config is only allowed in projections");
			return -1;
		}
		if (f->keylen == 0) {
			qp_error(p, (size_t)f->off, "key must not be empty");
			return -1;
		}
		return 0;
	}
	for (i = 0; i < f->nsub; i++)
		if (qf_check(f->sub[i], p) < 0)
			return -1;
	return 0;
}

int
query_parse_filter(const char *q, struct query_filter **out,
    struct query_error *err)
{
	struct qp	 p;
	struct tok	 tok;
	size_t		 pos;

	memset(&p, 0, sizeof(p));
	memset(err, 0, sizeof(*err));
	p.q = q;
	p.len = strlen(q);
	pos = qf_expr(&p, 0, out);
	/* toks.end() */
	tk_next(&p, &pos, 0, &tok);
	if (tok.kind != 0)
		qf_unexpected(&p, pos, &tok);
	if (!p.have_err)
		qf_check(*out, &p);
	if (p.have_err) {
		query_filter_free(*out);
		*out = NULL;
		qp_fail(&p, err);
		qp_release(&p);
		return -1;
	}
	qp_release(&p);
	return 0;
}

/* --- projection parser ----------------------------------------------- */

static void
qfield_release(struct query_field *f)
{
	size_t	i;

	free(f->key);
	free(f->order);
	for (i = 0; i < f->nfixed; i++)
		free(f->fixed[i]);
	free(f->fixed);
	free(f->fixedlen);
}

void
query_fields_free(struct query_field *f, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		qfield_release(&f[i]);
	free(f);
}

static size_t
qp_field(struct qp *p, size_t toks, struct query_field *f)
{
	struct tok	key, sep, order, t;
	size_t		toks2;

	memset(f, 0, sizeof(*f));
	toks2 = tk_next(p, &toks, 0, &key);
	if (key.kind != 'w' && key.kind != 'q') {
		f->key = xstrdup("");
		f->order = xstrdup("first");
		f->orderlen = 5;
		return qp_error(p, toks, "expected key");
	}
	toks = toks2;
	f->key = xmalloc(key.len + 1);
	memcpy(f->key, key.text, key.len);
	f->key[key.len] = '\0';
	f->keylen = key.len;
	f->key_off = key.off;
	f->order = xstrdup("first");
	f->orderlen = 5;
	f->order_off = key.off + (int)key.len;
	toks2 = tk_next(p, &toks, 0, &sep);
	if (sep.kind != '@')
		return toks;
	toks = toks2;
	toks2 = tk_next(p, &toks, 0, &order);
	f->order_off = order.off;
	if (order.kind == 'w' || order.kind == 'q') {
		free(f->order);
		f->order = xmalloc(order.len + 1);
		memcpy(f->order, order.text, order.len);
		f->order[order.len] = '\0';
		f->orderlen = order.len;
		return toks2;
	}
	if (order.kind == '(') {
		free(f->order);
		f->order = xstrdup("fixed");
		f->orderlen = 5;
		toks = toks2;
		for (;;) {
			toks2 = tk_next(p, &toks, 0, &t);
			if (t.kind == 'w' || t.kind == 'q') {
				toks = toks2;
				f->fixed = xreallocarray(f->fixed,
				    f->nfixed + 1, sizeof(*f->fixed));
				f->fixedlen = xreallocarray(f->fixedlen,
				    f->nfixed + 1, sizeof(*f->fixedlen));
				f->fixed[f->nfixed] = xmalloc(t.len + 1);
				memcpy(f->fixed[f->nfixed], t.text, t.len);
				f->fixed[f->nfixed][t.len] = '\0';
				f->fixedlen[f->nfixed] = t.len;
				f->nfixed++;
			} else if (t.kind == ')') {
				if (f->nfixed == 0)
					toks = qp_error(p, toks,
					    "nothing to match");
				else
					toks = toks2;
				break;
			} else {
				toks = qp_error(p, toks, "missing )");
				break;
			}
		}
		return toks;
	}
	return qp_error(p, toks,
	    "expected named sort order or parenthesized list");
}

int
query_parse_projection(const char *q, struct query_field **out, size_t *n,
    struct query_error *err)
{
	struct qp		 p;
	struct tok		 tok;
	size_t			 pos = 0, toks2, nf = 0;
	struct query_field	*fields = NULL;

	memset(&p, 0, sizeof(p));
	memset(err, 0, sizeof(*err));
	p.q = q;
	p.len = strlen(q);
	for (;;) {
		toks2 = tk_next(&p, &pos, 0, &tok);
		if (tok.kind == 0)
			break;
		if (tok.kind == ',' && nf > 0)
			pos = toks2;
		fields = xreallocarray(fields, nf + 1, sizeof(*fields));
		pos = qp_field(&p, pos, &fields[nf]);
		nf++;
	}
	if (p.have_err) {
		query_fields_free(fields, nf);
		qp_fail(&p, err);
		qp_release(&p);
		return -1;
	}
	qp_release(&p);
	*out = fields;
	*n = nf;
	return 0;
}
