/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Go-syntax parser of lib/goregexp/goregexp.c: regexp/syntax/parse.go
 * ported rule for rule, into the tree of lib/goregexp/goregexp-int.h.
 */
#include "config.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/goregexp/goregexp-int.h"
#include "lib/goregexp/uniprop.h"


/* --- errors ---------------------------------------------------------- */

static void __attribute__((noreturn))
re_fail(struct rparser *p, const char *code, const char *expr, size_t len)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_adds(&sb, "error parsing regexp: ");
	strbuf_adds(&sb, code);
	strbuf_adds(&sb, ": `");
	strbuf_add(&sb, expr, len);
	strbuf_addc(&sb, '`');
	p->err = strbuf_detach(&sb);
	longjmp(p->fail, 1);
}

#define E_CHARCLASS	"invalid character class"
#define E_CHARRANGE	"invalid character class range"
#define E_ESCAPE	"invalid escape sequence"
#define E_NAMEDCAP	"invalid named capture"
#define E_PERLOP	"invalid or unsupported Perl syntax"
#define E_REPEATOP	"invalid nested repetition operator"
#define E_REPEATSIZE	"invalid repeat count"
#define E_UTF8		"invalid UTF-8"
#define E_BRACKET	"missing closing ]"
#define E_PAREN		"missing closing )"
#define E_REPEATARG	"missing argument to repetition operator"
#define E_BACKSLASH	"trailing backslash at end of expression"
#define E_UNEXPPAREN	"unexpected )"
#define E_DEPTH		"expression nests too deeply"

/* nextRune: the rune at s[0..len); invalid UTF-8 is an error. */
static uint32_t
next_rune(struct rparser *p, const char *s, size_t len, size_t *n)
{
	uint32_t	r;

	if (len == 0) {
		/* utf8.DecodeRuneInString(""): RuneError, size 0. */
		*n = 0;
		return UNI_ERROR;
	}
	r = uni_decode(s, len, n);
	if (r == UNI_ERROR && *n == 1)
		re_fail(p, E_UTF8, s, len);
	return r;
}

static void
check_utf8(struct rparser *p, const char *s, size_t len)
{
	size_t	i = 0, n;

	while (i < len) {
		if (uni_decode(s + i, len - i, &n) == UNI_ERROR && n == 1)
			re_fail(p, E_UTF8, s + i, len - i);
		i += n;
	}
}

/* --- Unicode and Perl groups ----------------------------------------- */

/* A named Unicode table: ranges of tab whose flags are selected. */
struct utable {
	const struct uni_range	*tab;
	unsigned		 n;
	int			 any;		/* \p{Any} */
	unsigned		 gcmask;	/* bits of uni_gc_names */
	int			 script;	/* uni_script_names index */
};

static int
unicode_table(const char *name, size_t len, struct utable *t)
{
	unsigned	i;

	memset(t, 0, sizeof(*t));
	t->script = -1;
	if (len == 3 && memcmp(name, "Any", 3) == 0) {
		t->any = 1;
		return 1;
	}
	/* unicode.Categories: "L", "Lu", ... ("C" has no "Cn"). */
	for (i = 0; i < uni_ngc_names; i++) {
		if ((len == 1 && name[0] == uni_gc_names[i][0]) ||
		    (len == 2 && memcmp(name, uni_gc_names[i], 2) == 0))
			t->gcmask |= 1u << i;
	}
	if (t->gcmask != 0) {
		t->tab = uni_gc;
		t->n = uni_ngc;
		return 1;
	}
	for (i = 0; i < uni_nscript_names; i++) {
		if (strlen(uni_script_names[i]) == len &&
		    memcmp(uni_script_names[i], name, len) == 0) {
			t->tab = uni_scripts;
			t->n = uni_nscripts;
			t->script = (int)i;
			return 1;
		}
	}
	return 0;
}

/* The table as a clean class. */
static void
utable_class(const struct utable *t, struct runes *out)
{
	unsigned	i;

	if (t->any) {
		goregexp_append_range(out, 0, MAX_RUNE);
		return;
	}
	for (i = 0; i < t->n; i++) {
		if (t->script >= 0 ? t->tab[i].flags == (unsigned)t->script :
		    (t->gcmask >> t->tab[i].flags & 1) != 0)
			goregexp_append_range(out, t->tab[i].lo, t->tab[i].hi);
	}
}

struct group {
	const char	*name;
	int		 sign;
	const char	*ranges;	/* pairs of bytes */
};

static const struct group perl_groups[] = {
	{ "\\d", 1, "09" }, { "\\D", -1, "09" },
	{ "\\s", 1, "\t\n\f\r  " }, { "\\S", -1, "\t\n\f\r  " },
	{ "\\w", 1, "09AZ__az" }, { "\\W", -1, "09AZ__az" },
};

static const struct group posix_groups[] = {
	{ "[:alnum:]", 1, "09AZaz" }, { "[:^alnum:]", -1, "09AZaz" },
	{ "[:alpha:]", 1, "AZaz" }, { "[:^alpha:]", -1, "AZaz" },
	{ "[:ascii:]", 1, "\x01\x7f" }, { "[:^ascii:]", -1, "\x01\x7f" },
	{ "[:blank:]", 1, "\t\t  " }, { "[:^blank:]", -1, "\t\t  " },
	{ "[:cntrl:]", 1, "\x01\x1f\x7f\x7f" },
	{ "[:^cntrl:]", -1, "\x01\x1f\x7f\x7f" },
	{ "[:digit:]", 1, "09" }, { "[:^digit:]", -1, "09" },
	{ "[:graph:]", 1, "!~" }, { "[:^graph:]", -1, "!~" },
	{ "[:lower:]", 1, "az" }, { "[:^lower:]", -1, "az" },
	{ "[:print:]", 1, " ~" }, { "[:^print:]", -1, " ~" },
	{ "[:punct:]", 1, "!/:@[`{~" }, { "[:^punct:]", -1, "!/:@[`{~" },
	{ "[:space:]", 1, "\t\r  " }, { "[:^space:]", -1, "\t\r  " },
	{ "[:upper:]", 1, "AZ" }, { "[:^upper:]", -1, "AZ" },
	{ "[:word:]", 1, "09AZ__az" }, { "[:^word:]", -1, "09AZ__az" },
	{ "[:xdigit:]", 1, "09AFaf" }, { "[:^xdigit:]", -1, "09AFaf" },
};

/* The class of a group; [:ascii:] and [:cntrl:] start at NUL. */
static void
group_class(const struct group *g, struct runes *out)
{
	const char	*s;
	uint32_t	 lo;

	for (s = g->ranges; *s != '\0'; s += 2) {
		lo = (unsigned char)s[0];
		if (lo == 1)
			lo = 0;
		goregexp_append_range(out, lo, (unsigned char)s[1]);
	}
}

/* appendGroup: the group, case-folded under (?i), negated if sign < 0. */
static void
append_group(struct rparser *p, struct runes *r, const struct group *g)
{
	struct runes	x = { NULL, 0, 0 }, tmp = { NULL, 0, 0 };
	size_t		i;

	group_class(g, &x);
	if (p->flags & F_FOLD) {
		for (i = 0; i < x.n; i += 2)
			goregexp_append_folded_range(&tmp, x.v[i], x.v[i + 1]);
		goregexp_clean_class(&tmp);
		free(x.v);
		x = tmp;
	}
	if (g->sign < 0)
		goregexp_append_negated(r, x.v, x.n);
	else
		for (i = 0; i < x.n; i += 2)
			goregexp_append_range(r, x.v[i], x.v[i + 1]);
	free(x.v);
}

/* --- the parse stack ------------------------------------------------- */

static struct rnode *
new_node(struct rparser *p, int op)
{
	struct rnode	*re = xcalloc(1, sizeof(*re));

	re->op = op;
	re->flags = p->flags;
	re->height = 1;
	re->clsid = -1;
	re->all = p->all;
	p->all = re;
	return re;
}

static void
add_sub(struct rnode *re, struct rnode *sub)
{
	re->sub = xreallocarray(re->sub, re->nsub + 1, sizeof(*re->sub));
	re->sub[re->nsub++] = sub;
	if (re->height < sub->height + 1)
		re->height = sub->height + 1;
}

static long long
calc_size(const struct rnode *re)
{
	long long	size = 0, sub;
	size_t		i;

	switch (re->op) {
	case OP_LITERAL:
		size = (long long)re->r.n;
		break;
	case OP_CAPTURE:
	case OP_STAR:
		size = 2 + re->sub[0]->size;
		break;
	case OP_PLUS:
	case OP_QUEST:
		size = 1 + re->sub[0]->size;
		break;
	case OP_CONCAT:
	case OP_ALT:
		for (i = 0; i < re->nsub; i++)
			size += re->sub[i]->size;
		if (re->op == OP_ALT && re->nsub > 1)
			size += (long long)re->nsub - 1;
		break;
	case OP_REPEAT:
		sub = re->sub[0]->size;
		if (re->max == -1)
			size = re->min == 0 ? 2 + sub :
			    1 + (long long)re->min * sub;
		else
			size = (long long)re->max * sub + (re->max - re->min);
		break;
	}
	return size < 1 ? 1 : size;
}

/* checkLimits: Go panics with these, reporting the whole regexp. */
static void
check_limits(struct rparser *p, struct rnode *re)
{
	if (p->numrunes > MAX_RUNES)
		re_fail(p, E_LARGE, p->whole, p->wlen);
	re->size = calc_size(re);
	if (re->size > MAX_SIZE)
		re_fail(p, E_LARGE, p->whole, p->wlen);
	if (re->height > MAX_HEIGHT)
		re_fail(p, E_DEPTH, p->whole, p->wlen);
}

static uint64_t
class_hash(const struct runes *r)
{
	uint64_t	h = 1469598103934665603ULL;
	size_t		i;

	for (i = 0; i < r->n; i++) {
		h ^= r->v[i];
		h *= 1099511628211ULL;
	}
	return h ^ r->n;
}

/* Move re's class into the interned set; re->clsid names it. */
static void
intern_class(struct rparser *p, struct rnode *re)
{
	size_t		 i, mask, k;
	uint64_t	 h;
	struct runes	*c;

	if (2 * (p->nclasses + 1) > p->capchash) {
		free(p->chash);
		p->capchash = p->capchash ? 2 * p->capchash : 64;
		p->chash = xcalloc(p->capchash, sizeof(*p->chash));
		for (k = 0; k < p->nclasses; k++) {
			mask = p->capchash - 1;
			for (i = class_hash(&p->classes[k]) & mask;
			    p->chash[i] != 0; i = (i + 1) & mask)
				;
			p->chash[i] = (uint32_t)k + 1;
		}
	}
	mask = p->capchash - 1;
	h = class_hash(&re->r);
	for (i = h & mask; p->chash[i] != 0; i = (i + 1) & mask) {
		c = &p->classes[p->chash[i] - 1];
		if (c->n == re->r.n && (c->n == 0 ||
		    memcmp(c->v, re->r.v, c->n * sizeof(*c->v)) == 0)) {
			free(re->r.v);
			memset(&re->r, 0, sizeof(re->r));
			re->clsid = (int)(p->chash[i] - 1);
			return;
		}
	}
	XGROW(p->classes, p->nclasses, p->capclasses);
	p->classes[p->nclasses] = re->r;
	memset(&re->r, 0, sizeof(re->r));
	re->clsid = (int)p->nclasses;
	p->chash[i] = (uint32_t)++p->nclasses;
}

static struct rnode *
push(struct rparser *p, struct rnode *re)
{
	/* Go counts the runes of an expression each time it is pushed. */
	p->numrunes += re->clsid >= 0 ?
	    (long long)p->classes[re->clsid].n : (long long)re->r.n;
	if (re->op == OP_CLASS && re->r.n == 2 && re->r.v[0] == re->r.v[1]) {
		/* A single rune. */
		re->op = OP_LITERAL;
		re->r.n = 1;
		re->flags = p->flags & ~F_FOLD;
	} else if (re->op == OP_CLASS && ((re->r.n == 4 &&
	    re->r.v[0] == re->r.v[1] && re->r.v[2] == re->r.v[3] &&
	    uni_simple_fold(re->r.v[0]) == re->r.v[2] &&
	    uni_simple_fold(re->r.v[2]) == re->r.v[0]) ||
	    (re->r.n == 2 && re->r.v[0] + 1 == re->r.v[1] &&
	    uni_simple_fold(re->r.v[0]) == re->r.v[1] &&
	    uni_simple_fold(re->r.v[1]) == re->r.v[0]))) {
		/* A case-insensitive rune like [Aa]. */
		re->op = OP_LITERAL;
		re->r.n = 1;
		re->flags = p->flags | F_FOLD;
	}
	if (re->op == OP_CLASS && re->clsid < 0)
		intern_class(p, re);
	XGROW(p->stack, p->n, p->capstack);
	p->stack[p->n++] = re;
	check_limits(p, re);
	return re;
}

static uint32_t
min_fold_rune(uint32_t r)
{
	uint32_t	m = r, r0 = r;

	if (r < MIN_FOLD || r > MAX_FOLD)
		return r;
	for (r = uni_simple_fold(r); r != r0; r = uni_simple_fold(r))
		if (r < m)
			m = r;
	return m;
}

static void
literal(struct rparser *p, uint32_t r)
{
	struct rnode	*re = new_node(p, OP_LITERAL);

	if (p->flags & F_FOLD)
		r = min_fold_rune(r);
	goregexp_runes_push(&re->r, r);
	push(p, re);
}

static struct rnode *
op(struct rparser *p, int o)
{
	return push(p, new_node(p, o));
}

/* repeatIsValid: at most n copies of the innermost thing. */
static int
repeat_valid(const struct rnode *re, int n)
{
	size_t	i;
	int	m;

	if (re->op == OP_REPEAT) {
		m = re->max;
		if (m == 0)
			return 1;
		if (m < 0)
			m = re->min;
		if (m > n)
			return 0;
		if (m > 0)
			n /= m;
	}
	for (i = 0; i < re->nsub; i++)
		if (!repeat_valid(re->sub[i], n))
			return 0;
	return 1;
}

/*
 * The repetition operator at before[0..blen) (the operator text ends at
 * after, where parsing goes on); last is the previous operator, if the
 * previous item was one.  Returns the new position.
 */
static size_t
repeat(struct rparser *p, int o, int min, int max, size_t before,
    size_t after, size_t last, int had_last)
{
	struct rnode	*sub, *re;
	unsigned	 flags = p->flags;

	if (p->flags & F_PERLX) {
		if (after < p->wlen && p->whole[after] == '?') {
			after++;
			flags ^= F_NONGREEDY;
		}
		if (had_last)
			re_fail(p, E_REPEATOP, p->whole + last, after - last);
	}
	if (p->n == 0 || p->stack[p->n - 1]->op >= OP_PSEUDO)
		re_fail(p, E_REPEATARG, p->whole + before, after - before);
	sub = p->stack[p->n - 1];
	re = new_node(p, o);
	re->min = min;
	re->max = max;
	re->flags = flags;
	add_sub(re, sub);
	p->stack[p->n - 1] = re;
	check_limits(p, re);
	if (o == OP_REPEAT && (min >= 2 || max >= 2) &&
	    !repeat_valid(re, MAX_REPEAT))
		re_fail(p, E_REPEATSIZE, p->whole + before, after - before);
	return after;
}

/* Merge adjacent literals with the same case folding (maybeConcat). */
static void
concat_literals(struct rnode **subs, size_t *n)
{
	size_t	i, w = 0;

	for (i = 0; i < *n; i++) {
		if (w > 0 && subs[i]->op == OP_LITERAL &&
		    subs[w - 1]->op == OP_LITERAL &&
		    (subs[i]->flags & F_FOLD) ==
		    (subs[w - 1]->flags & F_FOLD)) {
			struct rnode	*d = subs[w - 1];
			size_t		 k;

			if (d->nsub == 0 && d->cls == NULL && d->r.v != NULL) {
				for (k = 0; k < subs[i]->r.n; k++)
					goregexp_runes_push(&d->r, subs[i]->r.v[k]);
				d->size = calc_size(d);
				continue;
			}
		}
		subs[w++] = subs[i];
	}
	*n = w;
}

/* collapse: subs under one op node, flattening nested ones. */
static struct rnode *
collapse(struct rparser *p, struct rnode **subs, size_t n, int o)
{
	struct rnode	*re;
	size_t		 i, j;

	if (n == 1)
		return subs[0];
	re = new_node(p, o);
	for (i = 0; i < n; i++) {
		if (subs[i]->op == o)
			for (j = 0; j < subs[i]->nsub; j++)
				add_sub(re, subs[i]->sub[j]);
		else
			add_sub(re, subs[i]);
	}
	return re;
}

/* Index of the first stack item above the topmost pseudo-operator. */
static size_t
above_pseudo(struct rparser *p)
{
	size_t	i = p->n;

	while (i > 0 && p->stack[i - 1]->op < OP_PSEUDO)
		i--;
	return i;
}

static void
concat(struct rparser *p)
{
	size_t		 i = above_pseudo(p), n = p->n - i;
	struct rnode	**subs;

	if (n == 0) {
		op(p, OP_EMPTY);
		return;
	}
	subs = xreallocarray(NULL, n, sizeof(*subs));
	memcpy(subs, p->stack + i, n * sizeof(*subs));
	concat_literals(subs, &n);
	p->n = i;
	push(p, collapse(p, subs, n, OP_CONCAT));
	free(subs);
}

static void
alternate(struct rparser *p)
{
	size_t		 i = above_pseudo(p), n = p->n - i;
	struct rnode	**subs;

	if (n == 0) {
		op(p, OP_NOMATCH);
		return;
	}
	subs = xreallocarray(NULL, n, sizeof(*subs));
	memcpy(subs, p->stack + i, n * sizeof(*subs));
	p->n = i;
	push(p, collapse(p, subs, n, OP_ALT));
	free(subs);
}

/* Put the concatenation on top under an existing '|' (1), or not (0). */
static int
swap_vertical_bar(struct rparser *p)
{
	struct rnode	*t;

	if (p->n >= 2 && p->stack[p->n - 2]->op == OP_VBAR) {
		t = p->stack[p->n - 1];
		p->stack[p->n - 1] = p->stack[p->n - 2];
		p->stack[p->n - 2] = t;
		return 1;
	}
	return 0;
}

static void
parse_vertical_bar(struct rparser *p)
{
	concat(p);
	if (!swap_vertical_bar(p))
		op(p, OP_VBAR);
}

static void
parse_right_paren(struct rparser *p)
{
	struct rnode	*re1, *re2;

	concat(p);
	if (swap_vertical_bar(p))
		p->n--;
	alternate(p);
	if (p->n < 2)
		re_fail(p, E_UNEXPPAREN, p->whole, p->wlen);
	re1 = p->stack[p->n - 1];
	re2 = p->stack[p->n - 2];
	p->n -= 2;
	if (re2->op != OP_LPAREN)
		re_fail(p, E_UNEXPPAREN, p->whole, p->wlen);
	p->flags = re2->flags;
	if (re2->cap == 0)
		push(p, re1);
	else {
		re2->op = OP_CAPTURE;
		add_sub(re2, re1);
		push(p, re2);
	}
}

/* --- lexical pieces -------------------------------------------------- */

int
goregexp_is_alnum(uint32_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
	    (c >= 'a' && c <= 'z');
}

static int
unhex(uint32_t c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (int)(c - 'A' + 10);
	return -1;
}

/* parseEscape at s = whole + i (on the '\\'); returns the rune. */
static uint32_t
parse_escape(struct rparser *p, size_t i, size_t *rest)
{
	const char	*w = p->whole;
	size_t		 end = p->wlen, t = i + 1, n;
	uint32_t	 c, r;
	int		 x, y, nhex;

	if (t >= end)
		re_fail(p, E_BACKSLASH, "", 0);
	c = next_rune(p, w + t, end - t, &n);
	t += n;
	switch (c) {
	case '1': case '2': case '3': case '4': case '5': case '6': case '7':
		/* A single non-zero digit is a backreference: unsupported. */
		if (t >= end || w[t] < '0' || w[t] > '7')
			break;
		/* FALLTHROUGH */
	case '0':
		r = c - '0';
		for (x = 1; x < 3; x++) {
			if (t >= end || w[t] < '0' || w[t] > '7')
				break;
			r = r * 8 + (uint32_t)(w[t] - '0');
			t++;
		}
		*rest = t;
		return r;
	case 'x':
		if (t >= end)
			break;
		c = next_rune(p, w + t, end - t, &n);
		t += n;
		if (c == '{') {
			nhex = 0;
			r = 0;
			for (;;) {
				if (t >= end)
					goto bad;
				c = next_rune(p, w + t, end - t, &n);
				t += n;
				if (c == '}')
					break;
				if ((x = unhex(c)) < 0)
					goto bad;
				r = r * 16 + (uint32_t)x;
				if (r > MAX_RUNE)
					goto bad;
				nhex++;
			}
			if (nhex == 0)
				goto bad;
			*rest = t;
			return r;
		}
		x = unhex(c);
		c = next_rune(p, w + t, end - t, &n);
		t += n;
		y = unhex(c);
		if (x < 0 || y < 0)
			break;
		*rest = t;
		return (uint32_t)(x * 16 + y);
	case 'a':
		*rest = t;
		return '\a';
	case 'f':
		*rest = t;
		return '\f';
	case 'n':
		*rest = t;
		return '\n';
	case 'r':
		*rest = t;
		return '\r';
	case 't':
		*rest = t;
		return '\t';
	case 'v':
		*rest = t;
		return '\v';
	default:
		/* Escaped punctuation (and \_) is itself. */
		if (c < 0x80 && !goregexp_is_alnum(c)) {
			*rest = t;
			return c;
		}
		break;
	}
bad:
	re_fail(p, E_ESCAPE, w + i, t - i);
}

/*
 * parseUnicodeClass at i (\p or \P): 1 with the class appended to r and
 * *rest set, 0 if there is none.
 */
static int
parse_unicode_class(struct rparser *p, size_t i, struct runes *r,
    size_t *rest)
{
	const char	*w = p->whole, *name, *close;
	size_t		 end = p->wlen, t, n, seq, nlen, k;
	int		 sign;
	uint32_t	 c;
	struct utable	 tab;
	struct runes	 x = { NULL, 0, 0 }, tmp = { NULL, 0, 0 };

	if (!(p->flags & F_UNIGROUPS) || end - i < 2 || w[i] != '\\' ||
	    (w[i + 1] != 'p' && w[i + 1] != 'P'))
		return 0;
	sign = w[i + 1] == 'P' ? -1 : 1;
	t = i + 2;
	c = next_rune(p, w + t, end - t, &n);
	t += n;
	if (c != '{') {
		seq = t;
		name = w + i + 2;
		nlen = t - (i + 2);
	} else {
		close = memchr(w + i, '}', end - i);
		if (close == NULL) {
			check_utf8(p, w + i, end - i);
			re_fail(p, E_CHARRANGE, w + i, end - i);
		}
		seq = (size_t)(close - w) + 1;
		t = seq;
		name = w + i + 3;
		nlen = (size_t)(close - name);
		check_utf8(p, name, nlen);
	}
	if (nlen > 0 && name[0] == '^') {
		sign = -sign;
		name++;
		nlen--;
	}
	if (!unicode_table(name, nlen, &tab))
		re_fail(p, E_CHARRANGE, w + i, seq - i);
	utable_class(&tab, &x);
	if (p->flags & F_FOLD) {
		/*
		 * Go adds unicode.FoldCategory / FoldScript: the runes
		 * outside the table that fold to one in it.
		 */
		for (k = 0; k < x.n; k += 2)
			goregexp_append_folded_range(&tmp, x.v[k], x.v[k + 1]);
		goregexp_clean_class(&tmp);
		free(x.v);
		x = tmp;
	}
	if (sign > 0)
		for (k = 0; k < x.n; k += 2)
			goregexp_append_range(r, x.v[k], x.v[k + 1]);
	else
		goregexp_append_negated(r, x.v, x.n);
	free(x.v);
	*rest = t;
	return 1;
}

/* parsePerlClassEscape: \d \s \w \D \S \W. */
static int
parse_perl_class(struct rparser *p, size_t i, struct runes *r, size_t *rest)
{
	size_t	k;

	if (!(p->flags & F_PERLX) || p->wlen - i < 2 || p->whole[i] != '\\')
		return 0;
	for (k = 0; k < ARRAY_SIZE(perl_groups); k++) {
		if (memcmp(p->whole + i, perl_groups[k].name, 2) == 0) {
			append_group(p, r, &perl_groups[k]);
			*rest = i + 2;
			return 1;
		}
	}
	return 0;
}

/* parseNamedClass: [:alpha:] at i. */
static int
parse_named_class(struct rparser *p, size_t i, struct runes *r,
    size_t *rest)
{
	const char	*w = p->whole;
	size_t		 end = p->wlen, j, nlen, k;

	if (end - i < 2 || w[i] != '[' || w[i + 1] != ':')
		return 0;
	for (j = i + 2; j + 1 < end; j++)
		if (w[j] == ':' && w[j + 1] == ']')
			break;
	if (j + 1 >= end)
		return 0;
	nlen = j + 2 - i;
	for (k = 0; k < ARRAY_SIZE(posix_groups); k++) {
		if (strlen(posix_groups[k].name) == nlen &&
		    memcmp(posix_groups[k].name, w + i, nlen) == 0) {
			append_group(p, r, &posix_groups[k]);
			*rest = i + nlen;
			return 1;
		}
	}
	re_fail(p, E_CHARRANGE, w + i, nlen);
}

static uint32_t
parse_class_char(struct rparser *p, size_t i, size_t whole_class,
    size_t *rest)
{
	size_t	n;
	uint32_t c;

	if (i >= p->wlen)
		re_fail(p, E_BRACKET, p->whole + whole_class,
		    p->wlen - whole_class);
	if (p->whole[i] == '\\')
		return parse_escape(p, i, rest);
	c = next_rune(p, p->whole + i, p->wlen - i, &n);
	*rest = i + n;
	return c;
}

/* parseClass at i (on the '['); returns the position after ']'. */
static size_t
parse_class(struct rparser *p, size_t i)
{
	const char	*w = p->whole;
	size_t		 end = p->wlen, t = i + 1, rng, nt;
	struct rnode	*re = new_node(p, OP_CLASS);
	int		 sign = 1, first = 1;
	uint32_t	 lo, hi;

	if (t < end && w[t] == '^') {
		sign = -1;
		t++;
		if (!(p->flags & F_CLASSNL))
			goregexp_append_range(&re->r, '\n', '\n');
	}
	while (t >= end || w[t] != ']' || first) {
		first = 0;
		if (end - t > 2 && w[t] == '[' && w[t + 1] == ':' &&
		    parse_named_class(p, t, &re->r, &nt)) {
			t = nt;
			continue;
		}
		if (t < end && parse_unicode_class(p, t, &re->r, &nt)) {
			t = nt;
			continue;
		}
		if (t < end && parse_perl_class(p, t, &re->r, &nt)) {
			t = nt;
			continue;
		}
		rng = t;
		lo = parse_class_char(p, t, i, &t);
		hi = lo;
		if (end - t >= 2 && w[t] == '-' && w[t + 1] != ']') {
			t++;
			hi = parse_class_char(p, t, i, &t);
			if (hi < lo)
				re_fail(p, E_CHARRANGE, w + rng, t - rng);
		}
		if (p->flags & F_FOLD)
			goregexp_append_folded_range(&re->r, lo, hi);
		else
			goregexp_append_range(&re->r, lo, hi);
	}
	t++;
	goregexp_clean_class(&re->r);
	if (sign < 0)
		goregexp_negate_class(&re->r);
	push(p, re);
	return t;
}

/* parseInt: decimal, no leading zeros; -1 if too big; 0 if none. */
static int
re_parse_int(const char *w, size_t end, size_t *t, int *out)
{
	size_t	s = *t, k;
	int	n = 0;

	if (s >= end || w[s] < '0' || w[s] > '9')
		return 0;
	if (end - s >= 2 && w[s] == '0' && w[s + 1] >= '0' && w[s + 1] <= '9')
		return 0;
	for (k = s; k < end && w[k] >= '0' && w[k] <= '9'; k++) {
		if (n >= 100000000) {
			n = -1;
			continue;
		}
		if (n >= 0)
			n = n * 10 + (w[k] - '0');
	}
	*t = k;
	*out = n;
	return 1;
}

/* parseRepeat: {n}, {n,} or {n,m} at i; 0 if it is none. */
static int
parse_repeat(struct rparser *p, size_t i, int *min, int *max, size_t *rest)
{
	const char	*w = p->whole;
	size_t		 end = p->wlen, t = i + 1;

	if (!re_parse_int(w, end, &t, min) || t >= end)
		return 0;
	if (w[t] != ',')
		*max = *min;
	else {
		t++;
		if (t >= end)
			return 0;
		if (w[t] == '}')
			*max = -1;
		else if (!re_parse_int(w, end, &t, max))
			return 0;
		else if (*max < 0)
			*min = -1;
	}
	if (t >= end || w[t] != '}')
		return 0;
	*rest = t + 1;
	return 1;
}

static int
valid_capture_name(const char *s, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] != '_' && !goregexp_is_alnum((unsigned char)s[i]))
			return 0;
	return 1;
}

/* parsePerlFlags at i (on "(?"): Go 1.19 knows only (?P<name>. */
static size_t
parse_perl_flags(struct rparser *p, size_t i)
{
	const char	*w = p->whole, *gt;
	size_t		 end = p->wlen, t, n, name;
	unsigned	 flags;
	int		 sign = 1, saw = 0;
	uint32_t	 c;
	struct rnode	*re;

	if (end - i > 4 && w[i + 2] == 'P' && w[i + 3] == '<') {
		gt = memchr(w + i, '>', end - i);
		if (gt == NULL) {
			check_utf8(p, w + i, end - i);
			re_fail(p, E_NAMEDCAP, w + i, end - i);
		}
		name = i + 4;
		check_utf8(p, w + name, (size_t)(gt - w) - name);
		if (!valid_capture_name(w + name, (size_t)(gt - w) - name))
			re_fail(p, E_NAMEDCAP, w + i, (size_t)(gt - w) + 1 - i);
		p->numcap++;
		re = op(p, OP_LPAREN);
		re->cap = p->numcap;
		return (size_t)(gt - w) + 1;
	}
	t = i + 2;
	flags = p->flags;
	while (t < end) {
		c = next_rune(p, w + t, end - t, &n);
		t += n;
		switch (c) {
		case 'i':
			flags |= F_FOLD;
			saw = 1;
			continue;
		case 'm':
			flags &= ~F_ONELINE;
			saw = 1;
			continue;
		case 's':
			flags |= F_DOTNL;
			saw = 1;
			continue;
		case 'U':
			flags |= F_NONGREEDY;
			saw = 1;
			continue;
		case '-':
			if (sign < 0)
				break;
			sign = -1;
			flags = ~flags;
			saw = 0;
			continue;
		case ':':
		case ')':
			if (sign < 0) {
				if (!saw)
					break;
				flags = ~flags;
			}
			if (c == ':')
				op(p, OP_LPAREN);
			p->flags = flags;
			return t;
		}
		break;
	}
	re_fail(p, E_PERLOP, w + i, t - i);
}

/* --- the parser ------------------------------------------------------ */

struct rnode *
goregexp_parse(struct rparser *p)
{
	const char	*w = p->whole;
	size_t		 end = p->wlen, t = 0, n, after, before, q;
	size_t		 last = 0;
	int		 had_last = 0, is_repeat, min, max;
	uint32_t	 c;
	struct rnode	*re;

	while (t < end) {
		is_repeat = 0;
		before = t;
		switch (w[t]) {
		case '(':
			if ((p->flags & F_PERLX) && end - t >= 2 &&
			    w[t + 1] == '?') {
				t = parse_perl_flags(p, t);
				break;
			}
			p->numcap++;
			op(p, OP_LPAREN)->cap = p->numcap;
			t++;
			break;
		case '|':
			parse_vertical_bar(p);
			t++;
			break;
		case ')':
			parse_right_paren(p);
			t++;
			break;
		case '^':
			op(p, (p->flags & F_ONELINE) ? OP_BOT : OP_BOL);
			t++;
			break;
		case '$':
			op(p, (p->flags & F_ONELINE) ? OP_EOT : OP_EOL);
			t++;
			break;
		case '.':
			op(p, (p->flags & F_DOTNL) ? OP_ANY : OP_ANYNOTNL);
			t++;
			break;
		case '[':
			t = parse_class(p, t);
			break;
		case '*':
		case '+':
		case '?':
			t = repeat(p, w[t] == '*' ? OP_STAR : w[t] == '+' ?
			    OP_PLUS : OP_QUEST, 0, 0, t, t + 1, last,
			    had_last);
			is_repeat = 1;
			break;
		case '{':
			if (!parse_repeat(p, t, &min, &max, &after)) {
				literal(p, '{');
				t++;
				break;
			}
			if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT ||
			    (max >= 0 && min > max))
				re_fail(p, E_REPEATSIZE, w + t, after - t);
			t = repeat(p, OP_REPEAT, min, max, t, after, last,
			    had_last);
			is_repeat = 1;
			break;
		case '\\':
			if ((p->flags & F_PERLX) && end - t >= 2) {
				switch (w[t + 1]) {
				case 'A':
					op(p, OP_BOT);
					t += 2;
					goto next;
				case 'b':
					op(p, OP_WORDB);
					t += 2;
					goto next;
				case 'B':
					op(p, OP_NOWORDB);
					t += 2;
					goto next;
				case 'C':
					re_fail(p, E_ESCAPE, w + t, 2);
				case 'Q':
					/* \Q ... \E: literal text. */
					for (q = t + 2; q + 1 < end; q++)
						if (w[q] == '\\' &&
						    w[q + 1] == 'E')
							break;
					if (q + 1 >= end)
						q = end;
					for (t += 2; t < q; t += n) {
						c = next_rune(p, w + t, q - t,
						    &n);
						literal(p, c);
					}
					t = q < end ? q + 2 : end;
					goto next;
				case 'z':
					op(p, OP_EOT);
					t += 2;
					goto next;
				}
			}
			re = new_node(p, OP_CLASS);
			if (end - t >= 2 && (w[t + 1] == 'p' ||
			    w[t + 1] == 'P') &&
			    parse_unicode_class(p, t, &re->r, &after)) {
				t = after;
				push(p, re);
				break;
			}
			if (parse_perl_class(p, t, &re->r, &after)) {
				t = after;
				push(p, re);
				break;
			}
			c = parse_escape(p, t, &t);
			literal(p, c);
			break;
		default:
			c = next_rune(p, w + t, end - t, &n);
			t += n;
			literal(p, c);
			break;
		}
next:
		had_last = is_repeat;
		last = before;
	}
	concat(p);
	if (swap_vertical_bar(p))
		p->n--;
	alternate(p);
	if (p->n != 1)
		re_fail(p, E_PAREN, w, end);
	return p->stack[0];
}

void
goregexp_parser_release(struct rparser *p)
{
	struct rnode	*re, *next;
	size_t		 i;

	for (re = p->all; re != NULL; re = next) {
		next = re->all;
		free(re->r.v);
		free(re->sub);
		free(re->cls);
		free(re);
	}
	for (i = 0; i < p->nclasses; i++)
		free(p->classes[i].v);
	free(p->classes);
	free(p->chash);
	free(p->stack);
}
