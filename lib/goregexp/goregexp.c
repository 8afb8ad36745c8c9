/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go's regexp for `abbench stat -filter` (see lib/goregexp/goregexp.h).
 *
 * Why our own engine: the filter must accept, reject and match exactly as
 * Go's regexp does.  PCRE2 backtracks (or, in its DFA mode, still differs
 * in syntax and carries its own Unicode version), so it would need a full
 * Go-syntax front end to validate and rewrite patterns and would still
 * disagree on \pL tables and (?i) folding; RE2 has Go's syntax but is C++
 * with its own Unicode tables.  A front end that parses Go's syntax is
 * needed in every case, and once the pattern is parsed a Thompson NFA over
 * it is a few hundred lines: no backtracking, so no pattern or subject
 * can explode, and it uses the Unicode 13 tables Go 1.19 has.
 *
 * The parser follows regexp/syntax/parse.go (Go 1.19 with the parse
 * limits of CVE-2022-41715): a stack of parsed expressions with the
 * pseudo-operators '(' and '|', the same error codes and the same error
 * text.  What does not change which patterns are valid or what they match
 * (literal-prefix factoring, merging of alternated characters into
 * classes) is left out.  The size limit is checked on every expression
 * (Go skips the check while a cheap estimate is in budget), so nothing
 * larger than Go's budget is ever built.
 */
#include "config.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/goregexp/goregexp.h"
#include "lib/goregexp/goregexp-int.h"
#include "lib/goregexp/uniprop.h"

/* --- the program ----------------------------------------------------- */

enum {
	I_FAIL, I_MATCH, I_RUNE, I_ANY, I_ANYNOTNL, I_SPLIT, I_EMPTY, I_NOP
};

/* Empty-width conditions. */
enum {
	C_BOL = 1, C_EOL = 2, C_BOT = 4, C_EOT = 8, C_WORDB = 16,
	C_NOWORDB = 32
};

struct inst {
	uint32_t	op : 4;
	uint32_t	cond : 8;
	uint32_t	out;
	uint32_t	arg;	/* I_SPLIT: second out; I_RUNE: class */
};

struct goregexp {
	struct inst	*inst;
	size_t		 ninst, capinst;
	struct runes	*cls;		/* clean classes lo,hi,... */
	size_t		 ncls, capcls;
	uint32_t	 start;
	int		 failed;	/* the program grew past its bound */
};

/* A fragment: its start and a list of dangling outs (index*2 + which). */
struct frag {
	uint32_t	start;
	uint32_t	holes;	/* 0: none (inst 0 has no outs) */
};

static uint32_t
emit(struct goregexp *g, int o)
{
	if (g->ninst >= 2 * (size_t)MAX_SIZE) {
		g->failed = 1;
		return 0;
	}
	XGROW(g->inst, g->ninst, g->capinst);
	memset(&g->inst[g->ninst], 0, sizeof(g->inst[0]));
	g->inst[g->ninst].op = (unsigned)o;
	return (uint32_t)g->ninst++;
}

static uint32_t *
hole_field(struct goregexp *g, uint32_t h)
{
	return h & 1 ? &g->inst[h >> 1].arg : &g->inst[h >> 1].out;
}

static void
patch(struct goregexp *g, uint32_t holes, uint32_t to)
{
	uint32_t	next, *f;

	while (holes != 0) {
		f = hole_field(g, holes);
		next = *f;
		*f = to;
		holes = next;
	}
}

static uint32_t
append_holes(struct goregexp *g, uint32_t a, uint32_t b)
{
	uint32_t	h = a, *f;

	if (a == 0)
		return b;
	if (b == 0)
		return a;
	for (;;) {
		f = hole_field(g, h);
		if (*f == 0)
			break;
		h = *f;
	}
	*f = b;
	return a;
}

static struct frag
frag_inst(struct goregexp *g, int o)
{
	struct frag	f;

	f.start = emit(g, o);
	f.holes = f.start << 1;
	return f;
}

static struct frag
frag_cat(struct goregexp *g, struct frag a, struct frag b)
{
	struct frag	f;

	if (a.start == 0 || b.start == 0) {
		f.start = 0;
		f.holes = 0;
		return f;
	}
	patch(g, a.holes, b.start);
	f.start = a.start;
	f.holes = b.holes;
	return f;
}

static struct frag
frag_alt(struct goregexp *g, struct frag a, struct frag b)
{
	struct frag	f;

	if (a.start == 0)
		return b;
	if (b.start == 0)
		return a;
	f.start = emit(g, I_SPLIT);
	if (g->failed)
		return a;
	g->inst[f.start].out = a.start;
	g->inst[f.start].arg = b.start;
	f.holes = append_holes(g, a.holes, b.holes);
	return f;
}

static struct frag
frag_quest(struct goregexp *g, struct frag a)
{
	struct frag	f;

	f.start = emit(g, I_SPLIT);
	if (g->failed)
		return a;
	if (a.start == 0) {
		f.holes = f.start << 1;
		return f;
	}
	g->inst[f.start].out = a.start;
	f.holes = append_holes(g, a.holes, f.start << 1 | 1);
	return f;
}

static struct frag
frag_star(struct goregexp *g, struct frag a)
{
	struct frag	f;

	f.start = emit(g, I_SPLIT);
	if (g->failed)
		return a;
	f.holes = f.start << 1 | 1;
	if (a.start == 0)
		return f;
	g->inst[f.start].out = a.start;
	patch(g, a.holes, f.start);
	return f;
}

static struct frag
frag_plus(struct goregexp *g, struct frag a)
{
	struct frag	s;

	if (a.start == 0)
		return a;
	s = frag_star(g, a);
	s.start = a.start;
	return s;
}

static uint32_t
add_class(struct goregexp *g, struct runes *r)
{
	XGROW(g->cls, g->ncls, g->capcls);
	g->cls[g->ncls] = *r;
	r->v = NULL;
	r->n = r->cap = 0;
	return (uint32_t)g->ncls++;
}

static struct frag
frag_rune(struct goregexp *g, uint32_t cls)
{
	struct frag	f = frag_inst(g, I_RUNE);

	if (!g->failed)
		g->inst[f.start].arg = cls;
	return f;
}

static struct frag
frag_empty(struct goregexp *g, int cond)
{
	struct frag	f = frag_inst(g, cond != 0 ? I_EMPTY : I_NOP);

	if (!g->failed)
		g->inst[f.start].cond = (unsigned)cond;
	return f;
}

/* Classes of a node, made once so that repeated copies share them. */
static void
node_classes(struct goregexp *g, struct rnode *re)
{
	struct runes	r = { NULL, 0, 0 };
	size_t		i;

	if (re->cls != NULL)
		return;
	if (re->op == OP_CLASS) {
		/* The interned classes are the program's first ones. */
		re->cls = xmalloc(sizeof(int));
		re->cls[0] = re->clsid;
		return;
	}
	re->cls = xreallocarray(NULL, re->r.n, sizeof(int));
	for (i = 0; i < re->r.n; i++) {
		if (re->flags & F_FOLD)
			goregexp_append_folded_range(&r, re->r.v[i], re->r.v[i]);
		else
			goregexp_append_range(&r, re->r.v[i], re->r.v[i]);
		goregexp_clean_class(&r);
		re->cls[i] = (int)add_class(g, &r);
	}
}

static struct frag
compile(struct goregexp *g, struct rnode *re)
{
	struct frag	f = { 0, 0 }, x;
	size_t		i;
	int		k;

	if (g->failed)
		return f;
	switch (re->op) {
	case OP_NOMATCH:
		return f;
	case OP_EMPTY:
		return frag_empty(g, 0);
	case OP_LITERAL:
		node_classes(g, re);
		for (i = 0; i < re->r.n; i++) {
			x = frag_rune(g, (uint32_t)re->cls[i]);
			f = i == 0 ? x : frag_cat(g, f, x);
		}
		return re->r.n == 0 ? frag_empty(g, 0) : f;
	case OP_CLASS:
		node_classes(g, re);
		return frag_rune(g, (uint32_t)re->cls[0]);
	case OP_ANYNOTNL:
		return frag_inst(g, I_ANYNOTNL);
	case OP_ANY:
		return frag_inst(g, I_ANY);
	case OP_BOL:
		return frag_empty(g, C_BOL);
	case OP_EOL:
		return frag_empty(g, C_EOL);
	case OP_BOT:
		return frag_empty(g, C_BOT);
	case OP_EOT:
		return frag_empty(g, C_EOT);
	case OP_WORDB:
		return frag_empty(g, C_WORDB);
	case OP_NOWORDB:
		return frag_empty(g, C_NOWORDB);
	case OP_CAPTURE:
		return compile(g, re->sub[0]);
	case OP_STAR:
		return frag_star(g, compile(g, re->sub[0]));
	case OP_PLUS:
		return frag_plus(g, compile(g, re->sub[0]));
	case OP_QUEST:
		return frag_quest(g, compile(g, re->sub[0]));
	case OP_REPEAT:
		/* Simplify: x{n,m} is n copies of x then (x(x)?)? nested. */
		if (re->max == 0)
			return frag_empty(g, 0);
		if (re->max == -1) {
			if (re->min == 0)
				return frag_star(g, compile(g, re->sub[0]));
			for (k = 0; k < re->min - 1; k++) {
				x = compile(g, re->sub[0]);
				f = k == 0 ? x : frag_cat(g, f, x);
			}
			x = frag_plus(g, compile(g, re->sub[0]));
			return re->min == 1 ? x : frag_cat(g, f, x);
		}
		for (k = 0; k < re->min; k++) {
			x = compile(g, re->sub[0]);
			f = k == 0 ? x : frag_cat(g, f, x);
		}
		if (re->max > re->min) {
			struct frag	opt = { 0, 0 };
			int		j;

			for (j = re->min; j < re->max; j++) {
				x = compile(g, re->sub[0]);
				opt = j == re->min ? frag_quest(g, x) :
				    frag_quest(g, frag_cat(g, x, opt));
			}
			f = re->min == 0 ? opt : frag_cat(g, f, opt);
		}
		return f;
	case OP_CONCAT:
		for (i = 0; i < re->nsub; i++) {
			x = compile(g, re->sub[i]);
			f = i == 0 ? x : frag_cat(g, f, x);
		}
		return f;
	case OP_ALT:
		for (i = re->nsub; i-- > 0;) {
			x = compile(g, re->sub[i]);
			f = i + 1 == re->nsub ? x : frag_alt(g, x, f);
		}
		return f;
	}
	return f;
}

/* --- entry points ---------------------------------------------------- */


struct goregexp *
goregexp_compile(const char *expr, size_t len, char **msg)
{
	struct rparser	 p;
	struct rnode	*tree;
	struct goregexp	*g;
	struct frag	 f;
	uint32_t	 m;

	memset(&p, 0, sizeof(p));
	p.flags = F_PERL;
	p.whole = expr;
	p.wlen = len;
	if (setjmp(p.fail) != 0) {
		*msg = p.err;
		goregexp_parser_release(&p);
		return NULL;
	}
	tree = goregexp_parse(&p);

	g = xcalloc(1, sizeof(*g));
	g->cls = p.classes;
	g->ncls = g->capcls = p.nclasses;
	p.classes = NULL;
	p.nclasses = p.capclasses = 0;
	emit(g, I_FAIL);
	f = compile(g, tree);
	m = emit(g, I_MATCH);
	if (g->failed) {
		goregexp_free(g);
		goregexp_parser_release(&p);
		*msg = xasprintf("error parsing regexp: %s: `%.*s`", E_LARGE,
		    (int)len, expr);
		return NULL;
	}
	if (f.start == 0)
		g->start = 0;
	else {
		patch(g, f.holes, m);
		g->start = f.start;
	}
	goregexp_parser_release(&p);
	return g;
}

void
goregexp_free(struct goregexp *g)
{
	size_t	i;

	if (g == NULL)
		return;
	for (i = 0; i < g->ncls; i++)
		free(g->cls[i].v);
	free(g->cls);
	free(g->inst);
	free(g);
}

size_t
goregexp_size(const struct goregexp *g)
{
	return g->ninst;
}

static int
class_has(const struct runes *c, uint32_t r)
{
	size_t	lo = 0, hi = c->n / 2, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (r < c->v[2 * mid])
			hi = mid;
		else if (r > c->v[2 * mid + 1])
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

/* A sparse set of instruction indexes. */
struct sset {
	uint32_t	*dense, *sparse;
	size_t		 n;
};

static int
sset_has(const struct sset *s, uint32_t i)
{
	return s->sparse[i] < s->n && s->dense[s->sparse[i]] == i;
}

static int
is_word(int32_t r)
{
	return r >= 0 && r < 0x80 && (goregexp_is_alnum((uint32_t)r) || r == '_');
}

/* Add pc and what it reaches without reading a rune; 1 on a match. */
static int
add_state(const struct goregexp *g, struct sset *s, uint32_t *stack,
    uint32_t pc, unsigned ctx)
{
	size_t			 sp = 0;
	const struct inst	*in;

	stack[sp++] = pc;
	while (sp > 0) {
		pc = stack[--sp];
		if (pc == 0 || sset_has(s, pc))
			continue;
		s->sparse[pc] = (uint32_t)s->n;
		s->dense[s->n++] = pc;
		in = &g->inst[pc];
		switch (in->op) {
		case I_MATCH:
			return 1;
		case I_NOP:
			stack[sp++] = in->out;
			break;
		case I_SPLIT:
			stack[sp++] = in->arg;
			stack[sp++] = in->out;
			break;
		case I_EMPTY:
			if ((in->cond & ~ctx) == 0)
				stack[sp++] = in->out;
			break;
		}
	}
	return 0;
}

static unsigned
context(int32_t prev, int32_t next)
{
	unsigned	c = 0;

	if (prev < 0)
		c |= C_BOT | C_BOL;
	else if (prev == '\n')
		c |= C_BOL;
	if (next < 0)
		c |= C_EOT | C_EOL;
	else if (next == '\n')
		c |= C_EOL;
	c |= is_word(prev) != is_word(next) ? C_WORDB : C_NOWORDB;
	return c;
}

int
goregexp_match(const struct goregexp *g, const char *s, size_t len)
{
	struct sset		 a, b, t;
	uint32_t		*mem, *stack, pc;
	size_t			 i = 0, w = 0, k, n = g->ninst;
	int32_t			 r, next;
	const struct inst	*in;
	int			 matched = 0;

	if (g->start == 0)
		return 0;
	mem = xreallocarray(NULL, 6 * n + 2, sizeof(*mem));
	a.dense = mem;
	a.sparse = mem + n;
	b.dense = mem + 2 * n;
	b.sparse = mem + 3 * n;
	stack = mem + 4 * n;
	a.n = b.n = 0;
	next = len > 0 ? (int32_t)uni_decode(s, len, &w) : -1;
	matched = add_state(g, &a, stack, g->start, context(-1, next));
	while (!matched && i < len) {
		r = next;
		i += w;
		next = i < len ? (int32_t)uni_decode(s + i, len - i, &w) : -1;
		b.n = 0;
		for (k = 0; k < a.n && !matched; k++) {
			in = &g->inst[a.dense[k]];
			pc = 0;
			switch (in->op) {
			case I_RUNE:
				if (class_has(&g->cls[in->arg], (uint32_t)r))
					pc = in->out;
				break;
			case I_ANY:
				pc = in->out;
				break;
			case I_ANYNOTNL:
				if (r != '\n')
					pc = in->out;
				break;
			}
			if (pc != 0)
				matched = add_state(g, &b, stack, pc,
				    context(r, next));
		}
		/* Unanchored: a match may also start here. */
		if (!matched)
			matched = add_state(g, &b, stack, g->start,
			    context(r, next));
		t = a;
		a = b;
		b = t;
	}
	free(mem);
	return matched;
}
