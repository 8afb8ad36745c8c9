/*
 * Parsers for benchstat's filter and projection expressions, written to
 * follow x/perf benchproc/internal/parse token by token so that syntax
 * errors carry the same messages and byte offsets as Go's.  Go's
 * tokenizer skips white space in place when it peeks at a token; the
 * `size_t *pos` arguments below model exactly that.
 */
#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/query.h"
#include "stats/uniprop.h"

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

/* --- RE2 syntax check and translation to POSIX ERE --------------------- */

struct query_regex {
	regex_t	re;
};

struct re_tr {
	const char	*s;
	size_t		 len;
	size_t		 i;
	struct strbuf	 out;
	char		*err;
	int		 icase;
	int		 dotnl;
	unsigned char	*saved;		/* flags outside each open group */
};

static int
re_fail(struct re_tr *t, const char *code, const char *arg, size_t arglen)
{
	if (t->err == NULL)
		t->err = xasprintf("error parsing regexp: %s: `%.*s`", code,
		    (int)arglen, arg);
	return -1;
}

static int
re_is_punct(unsigned char c)
{
	return c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '_');
}

/* Emit a literal byte string safely in ERE (outside brackets). */
static void
re_lit(struct strbuf *out, const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (strchr(".[]()*+?{}|^$\\", c) != NULL && c != '\0') {
			strbuf_addc(out, '[');
			if (c == '^' || c == '\\' || c == ']')
				strbuf_addc(out, c == ']' ? ']' : (char)c);
			else
				strbuf_addc(out, (char)c);
			strbuf_addc(out, ']');
			if (c == '^') {
				/* "[^]" would be a negation: use "\^". */
				out->len -= 3;
				out->buf[out->len] = '\0';
				strbuf_adds(out, "\\^");
			}
		} else
			strbuf_addc(out, (char)c);
	}
}

/* The value of a hex digit, or -1. */
static int
hex_digit(char h)
{
	if (h >= '0' && h <= '9')
		return h - '0';
	if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
		return (h | 0x20) - 'a' + 10;
	return -1;
}

/*
 * Translate one escape (at t->i pointing after the backslash).  in_class
 * selects bracket-expression output.  Classes are returned as a bracket
 * body in *cls (e.g. "0-9") with *neg set, or a literal code point.
 */
static int
re_escape(struct re_tr *t, int in_class, char *cls, size_t clsz, int *neg,
    uint32_t *lit, int *is_lit)
{
	const char	*start = t->s + t->i - 1;
	unsigned char	 c;
	uint32_t	 v;
	size_t		 j, n;

	*is_lit = 0;
	*neg = 0;
	cls[0] = '\0';
	if (t->i >= t->len)
		return re_fail(t, "trailing backslash at end of expression",
		    "", 0);
	c = (unsigned char)t->s[t->i];
	if (c >= 0x80) {
		uni_decode(t->s + t->i, t->len - t->i, &n);
		return re_fail(t, "invalid escape sequence", start, n + 1);
	}
	t->i++;
	if (re_is_punct(c)) {
		*lit = c;
		*is_lit = 1;
		return 0;
	}
	switch (c) {
	case 'a': *lit = '\a'; *is_lit = 1; return 0;
	case 'f': *lit = '\f'; *is_lit = 1; return 0;
	case 'n': *lit = '\n'; *is_lit = 1; return 0;
	case 'r': *lit = '\r'; *is_lit = 1; return 0;
	case 't': *lit = '\t'; *is_lit = 1; return 0;
	case 'v': *lit = '\v'; *is_lit = 1; return 0;
	case 'd': case 'D':
		snprintf(cls, clsz, "0-9");
		*neg = c == 'D';
		return 0;
	case 's': case 'S':
		snprintf(cls, clsz, "\t\n\f\r ");
		*neg = c == 'S';
		return 0;
	case 'w': case 'W':
		snprintf(cls, clsz, "0-9A-Za-z_");
		*neg = c == 'W';
		return 0;
	case '0': case '1': case '2': case '3':
	case '4': case '5': case '6': case '7':
		/* Octal: \0 or up to three digits if not a backreference. */
		if (c != '0' && (t->i >= t->len || t->s[t->i] < '0' ||
		    t->s[t->i] > '7'))
			return re_fail(t, "invalid escape sequence", start, 2);
		v = c - '0';
		for (j = 0; j < 2 && t->i < t->len && t->s[t->i] >= '0' &&
		    t->s[t->i] <= '7'; j++)
			v = v * 8 + (uint32_t)(t->s[t->i++] - '0');
		*lit = v;
		*is_lit = 1;
		return 0;
	case 'x':
		if (t->i < t->len && t->s[t->i] == '{') {
			t->i++;
			v = 0;
			n = 0;
			while (t->i < t->len && t->s[t->i] != '}') {
				int	d = hex_digit(t->s[t->i++]);

				if (d >= 0)
					v = v * 16 + (uint32_t)d;
				else
					return re_fail(t,
					    "invalid escape sequence", start,
					    (size_t)(t->s + t->i - start));
				if (++n > 8 || v > 0x10FFFF)
					return re_fail(t,
					    "invalid escape sequence", start,
					    (size_t)(t->s + t->i - start));
			}
			if (t->i >= t->len || n == 0)
				return re_fail(t, "invalid escape sequence",
				    start, (size_t)(t->s + t->i - start));
			t->i++;
		} else {
			v = 0;
			for (j = 0; j < 2; j++) {
				int	d = hex_digit(t->i < t->len ?
				    t->s[t->i] : 0);

				if (d >= 0)
					v = v * 16 + (uint32_t)d;
				else
					return re_fail(t,
					    "invalid escape sequence", start,
					    (size_t)(t->s + t->i - start) +
					    (t->i < t->len));
				t->i++;
			}
		}
		*lit = v;
		*is_lit = 1;
		return 0;
	default:
		break;
	}
	(void)in_class;
	return re_fail(t, "invalid escape sequence", start, 2);
}

/*
 * A set of code points, kept as an ASCII bitmap plus a list of non-ASCII
 * ranges, emitted as an ERE that matches one whole UTF-8 encoded rune (the
 * process runs in the C locale, so regcomp sees bytes).
 */
struct cset {
	uint32_t	 ascii[4];
	uint32_t	*r;		/* lo, hi pairs, all >= 0x80 */
	size_t		 nr;
	size_t		 cap;
};

#define RUNE_MAX	0x10FFFF

static void
cset_add(struct cset *cs, uint32_t lo, uint32_t hi)
{
	uint32_t	c;

	if (hi > RUNE_MAX)
		hi = RUNE_MAX;
	for (c = lo; c <= hi && c < 0x80; c++)
		cs->ascii[c >> 5] |= 1u << (c & 31);
	if (hi < 0x80)
		return;
	if (lo < 0x80)
		lo = 0x80;
	if (cs->nr + 2 > cs->cap) {
		cs->cap = cs->cap ? cs->cap * 2 : 8;
		cs->r = xreallocarray(cs->r, cs->cap, sizeof(*cs->r));
	}
	cs->r[cs->nr++] = lo;
	cs->r[cs->nr++] = hi;
}

static int
cset_has(const struct cset *cs, uint32_t c)
{
	return c < 0x80 && (cs->ascii[c >> 5] >> (c & 31) & 1);
}

static void
cset_add_chars(struct cset *cs, const char *chars)
{
	for (; *chars != '\0'; chars++)
		cset_add(cs, (unsigned char)*chars, (unsigned char)*chars);
}

/* Case folding of the ASCII letters (RE2 (?i)). */
static void
cset_fold(struct cset *cs)
{
	uint32_t	c;

	for (c = 'A'; c <= 'Z'; c++) {
		if (cset_has(cs, c) || cset_has(cs, c + 32)) {
			cset_add(cs, c, c);
			cset_add(cs, c + 32, c + 32);
		}
	}
}

static int
cmp_u32pair(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and merge the non-ASCII ranges. */
static void
cset_norm(struct cset *cs)
{
	size_t	i, j = 0;

	if (cs->nr == 0)
		return;
	qsort(cs->r, cs->nr / 2, 2 * sizeof(*cs->r), cmp_u32pair);
	for (i = 2; i < cs->nr; i += 2) {
		if (cs->r[i] <= cs->r[j + 1] + 1) {
			if (cs->r[i + 1] > cs->r[j + 1])
				cs->r[j + 1] = cs->r[i + 1];
		} else {
			j += 2;
			cs->r[j] = cs->r[i];
			cs->r[j + 1] = cs->r[i + 1];
		}
	}
	cs->nr = j + 2;
}

static void
cset_negate(struct cset *cs)
{
	uint32_t	*old, next = 0x80;
	size_t		 n, i;
	int		 k;

	for (k = 0; k < 4; k++)
		cs->ascii[k] = ~cs->ascii[k];
	cset_norm(cs);
	old = cs->r;
	n = cs->nr;
	cs->r = NULL;
	cs->nr = cs->cap = 0;
	for (i = 0; i < n; i += 2) {
		if (old[i] > next)
			cset_add(cs, next, old[i] - 1);
		next = old[i + 1] + 1;
	}
	if (next <= RUNE_MAX)
		cset_add(cs, next, RUNE_MAX);
	free(old);
}

static void
cset_release(struct cset *cs)
{
	free(cs->r);
	memset(cs, 0, sizeof(*cs));
}

/* A POSIX bracket of bytes lo..hi (both >= 0x80, or a single byte). */
static void
re_byte_range(struct strbuf *out, unsigned lo, unsigned hi)
{
	if (lo == hi && lo >= 0x80) {
		strbuf_addc(out, (char)lo);
		return;
	}
	strbuf_addc(out, '[');
	strbuf_addc(out, (char)lo);
	if (hi != lo) {
		strbuf_addc(out, '-');
		strbuf_addc(out, (char)hi);
	}
	strbuf_addc(out, ']');
}

/* The UTF-8 byte sequences of the code points lo..hi (>= 0x80). */
static void
re_utf8_ranges(struct strbuf *out, uint32_t lo, uint32_t hi, int *nalt)
{
	char		a[4], b[4];
	size_t		n, i;
	uint32_t	m;

	if (lo > hi)
		return;
	if (lo < 0xD800 && hi > 0xDFFF) {
		re_utf8_ranges(out, lo, 0xD7FF, nalt);
		re_utf8_ranges(out, 0xE000, hi, nalt);
		return;
	}
	if (lo >= 0xD800 && hi <= 0xDFFF)
		return;
	if (lo >= 0xD800 && lo <= 0xDFFF)
		lo = 0xE000;
	if (hi >= 0xD800 && hi <= 0xDFFF)
		hi = 0xD7FF;
	if (lo > hi)
		return;
	if (lo <= 0x7FF && hi > 0x7FF) {
		re_utf8_ranges(out, lo, 0x7FF, nalt);
		re_utf8_ranges(out, 0x800, hi, nalt);
		return;
	}
	if (lo <= 0xFFFF && hi > 0xFFFF) {
		re_utf8_ranges(out, lo, 0xFFFF, nalt);
		re_utf8_ranges(out, 0x10000, hi, nalt);
		return;
	}
	n = uni_encode(lo, a);
	for (i = 1; i < n; i++) {
		m = (1u << (6 * i)) - 1;
		if ((lo & ~m) != (hi & ~m)) {
			if ((lo & m) != 0) {
				re_utf8_ranges(out, lo, lo | m, nalt);
				re_utf8_ranges(out, (lo | m) + 1, hi, nalt);
				return;
			}
			if ((hi & m) != m) {
				re_utf8_ranges(out, lo, (hi & ~m) - 1, nalt);
				re_utf8_ranges(out, hi & ~m, hi, nalt);
				return;
			}
		}
	}
	uni_encode(hi, b);
	if ((*nalt)++ > 0)
		strbuf_addc(out, '|');
	for (i = 0; i < n; i++)
		re_byte_range(out, (unsigned char)a[i], (unsigned char)b[i]);
}

/* Emit cs as an ERE atom matching one rune. */
static void
cset_emit(struct cset *cs, struct strbuf *out)
{
	struct strbuf	 br = STRBUF_INIT, alts = STRBUF_INIT;
	uint32_t	 c, e;
	int		 nalt = 0, caret = 0, dash = 0;
	size_t		 i;

	/* NUL never occurs in a value: leave it out. */
	cs->ascii[0] &= ~1u;
	if (cset_has(cs, ']'))
		strbuf_addc(&br, ']');
	caret = cset_has(cs, '^');
	dash = cset_has(cs, '-');
	for (c = 1; c < 0x80; c++) {
		if (!cset_has(cs, c) || c == ']' || c == '^' || c == '-')
			continue;
		for (e = c; e + 1 < 0x80 && cset_has(cs, e + 1) &&
		    e + 1 != ']' && e + 1 != '^' && e + 1 != '-'; e++)
			;
		strbuf_addc(&br, (char)c);
		if (e > c + 1)
			strbuf_addc(&br, '-');
		if (e > c)
			strbuf_addc(&br, (char)e);
		c = e;
	}
	if (br.len == 0 && dash) {
		/* "[-^]": a leading "-" is literal, "^" after it too. */
		strbuf_addc(&br, '-');
		dash = 0;
	}
	if (caret && br.len == 0) {
		/* "[^]" would be a negation: use "\^" as an alternative. */
		strbuf_adds(&alts, "\\^");
		nalt++;
	} else if (caret)
		strbuf_addc(&br, '^');
	if (dash)
		strbuf_addc(&br, '-');
	cset_norm(cs);
	for (i = 0; i < cs->nr; i += 2)
		re_utf8_ranges(&alts, cs->r[i], cs->r[i + 1], &nalt);
	if (br.len == 0 && nalt == 0) {
		/* The empty set: nothing matches. */
		strbuf_adds(out, "[^\x01-\xff]");
	} else if (nalt == 0) {
		strbuf_addc(out, '[');
		strbuf_add(out, br.buf, br.len);
		strbuf_addc(out, ']');
	} else {
		strbuf_addc(out, '(');
		if (br.len > 0) {
			strbuf_addc(out, '[');
			strbuf_add(out, br.buf, br.len);
			strbuf_adds(out, "]|");
		}
		strbuf_add(out, alts.buf, alts.len);
		strbuf_addc(out, ')');
	}
	strbuf_release(&br);
	strbuf_release(&alts);
}

/* Add a Perl class (\d \s \w, negated if upper case); 0 if c is none. */
static int
cset_perl(struct cset *cs, int c)
{
	struct cset	tmp;
	const char	*chars;
	size_t		 i;

	switch (c | 0x20) {
	case 'd': chars = "0123456789"; break;
	case 's': chars = "\t\n\f\r "; break;
	case 'w': chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz_"; break;
	default: return 0;
	}
	memset(&tmp, 0, sizeof(tmp));
	cset_add_chars(&tmp, chars);
	if (c >= 'A' && c <= 'Z')
		cset_negate(&tmp);
	for (c = 0; c < 4; c++)
		cs->ascii[c] |= tmp.ascii[c];
	for (i = 0; i < tmp.nr; i += 2)
		cset_add(cs, tmp.r[i], tmp.r[i + 1]);
	cset_release(&tmp);
	return 1;
}

/* RE2's ASCII-only POSIX classes, [:name:] and [:^name:]. */
static int
cset_posix(struct cset *cs, const char *name, size_t len)
{
	static const struct {
		const char	*name;
		const char	*ranges;	/* lo,hi byte pairs */
	} groups[] = {
		{ "alnum", "09AZaz" }, { "alpha", "AZaz" },
		{ "ascii", "\x01\x7f" }, { "blank", "\t\t  " },
		{ "cntrl", "\x01\x1f\x7f\x7f" }, { "digit", "09" },
		{ "graph", "!~" }, { "lower", "az" }, { "print", " ~" },
		{ "punct", "!/:@[`{~" }, { "space", "\t\r  " },
		{ "upper", "AZ" }, { "word", "09AZaz__" },
		{ "xdigit", "09AFaf" },
	};
	struct cset	tmp;
	size_t		i, k;
	int		neg = 0;

	if (len > 0 && name[0] == '^') {
		neg = 1;
		name++;
		len--;
	}
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		if (strlen(groups[i].name) != len ||
		    memcmp(groups[i].name, name, len) != 0)
			continue;
		memset(&tmp, 0, sizeof(tmp));
		for (k = 0; groups[i].ranges[k] != '\0'; k += 2)
			cset_add(&tmp, (unsigned char)groups[i].ranges[k],
			    (unsigned char)groups[i].ranges[k + 1]);
		if (strcmp(groups[i].name, "ascii") == 0 ||
		    strcmp(groups[i].name, "cntrl") == 0)
			cset_add(&tmp, 0, 0);
		if (neg)
			cset_negate(&tmp);
		for (k = 0; k < 4; k++)
			cs->ascii[k] |= tmp.ascii[k];
		for (k = 0; k < tmp.nr; k += 2)
			cset_add(cs, tmp.r[k], tmp.r[k + 1]);
		cset_release(&tmp);
		return 1;
	}
	return 0;
}

/* A bracket expression [...] starting at t->i (on the '['). */
static int
re_class(struct re_tr *t)
{
	const char	*start = t->s + t->i;
	struct cset	 cs;
	int		 neg = 0, first = 1, eneg, is_lit;
	uint32_t	 lo, hi;
	char		 cls[32];
	size_t		 n, item;

	memset(&cs, 0, sizeof(cs));
	t->i++;
	if (t->i < t->len && t->s[t->i] == '^') {
		neg = 1;
		t->i++;
	}
	for (;;) {
		if (t->i >= t->len) {
			cset_release(&cs);
			return re_fail(t, "missing closing ]", start,
			    (size_t)(t->s + t->len - start));
		}
		if (t->s[t->i] == ']' && !first)
			break;
		first = 0;
		if (t->s[t->i] == '[' && t->i + 2 < t->len &&
		    t->s[t->i + 1] == ':') {
			const char	*end = NULL, *p;

			for (p = t->s + t->i + 2; p + 1 < t->s + t->len; p++)
				if (p[0] == ':' && p[1] == ']') {
					end = p;
					break;
				}
			if (end != NULL) {
				const char	*name = t->s + t->i + 2;

				if (!cset_posix(&cs, name, (size_t)(end -
				    name))) {
					cset_release(&cs);
					return re_fail(t, "invalid character "
					    "class range", t->s + t->i,
					    (size_t)(end + 2 - (t->s + t->i)));
				}
				t->i = (size_t)(end + 2 - t->s);
				continue;
			}
		}
		/* Perl classes \d \D \s \S \w \W. */
		if (t->s[t->i] == '\\' && t->i + 1 < t->len &&
		    strchr("dDsSwW", t->s[t->i + 1]) != NULL &&
		    t->s[t->i + 1] != '\0') {
			cset_perl(&cs, t->s[t->i + 1]);
			t->i += 2;
			continue;
		}
		/* One element: a literal, an escape or a range. */
		item = t->i;
		if (t->s[t->i] == '\\') {
			t->i++;
			if (re_escape(t, 1, cls, sizeof(cls), &eneg, &lo,
			    &is_lit) < 0) {
				cset_release(&cs);
				return -1;
			}
		} else {
			lo = uni_decode(t->s + t->i, t->len - t->i, &n);
			t->i += n;
		}
		hi = lo;
		if (t->i + 1 < t->len && t->s[t->i] == '-' &&
		    t->s[t->i + 1] != ']') {
			/* Go reports the whole range text. */
			const char	*rstart = t->s + item;

			t->i++;
			if (t->s[t->i] == '\\') {
				t->i++;
				if (re_escape(t, 1, cls, sizeof(cls), &eneg,
				    &hi, &is_lit) < 0) {
					cset_release(&cs);
					return -1;
				}
				if (!is_lit) {
					/* parseClassChar: \d is no escape. */
					cset_release(&cs);
					return re_fail(t,
					    "invalid escape sequence",
					    t->s + t->i - 2, 2);
				}
			} else {
				hi = uni_decode(t->s + t->i, t->len - t->i,
				    &n);
				t->i += n;
			}
			if (hi < lo) {
				cset_release(&cs);
				return re_fail(t, "invalid character class "
				    "range", rstart,
				    (size_t)(t->s + t->i - rstart));
			}
		}
		cset_add(&cs, lo, hi);
	}
	t->i++;	/* ']' */
	if (t->icase)
		cset_fold(&cs);
	if (neg) {
		/* [^...] never matches a newline in RE2's Perl mode. */
		cset_add(&cs, '\n', '\n');
		cset_negate(&cs);
	}
	cset_emit(&cs, &t->out);
	cset_release(&cs);
	return 0;
}

/* Parse a {n}, {n,} or {n,m} at t->i; 1 if it is one, 0 if literal. */
static int
re_repeat(struct re_tr *t, size_t *end, int *min, int *max)
{
	size_t	i = t->i + 1;
	long	a = -1, b = -1;

	if (i >= t->len || t->s[i] < '0' || t->s[i] > '9')
		return 0;
	a = 0;
	while (i < t->len && t->s[i] >= '0' && t->s[i] <= '9') {
		if (a < 100000)
			a = a * 10 + (t->s[i] - '0');
		i++;
	}
	b = a;
	if (i < t->len && t->s[i] == ',') {
		i++;
		if (i < t->len && t->s[i] >= '0' && t->s[i] <= '9') {
			b = 0;
			while (i < t->len && t->s[i] >= '0' &&
			    t->s[i] <= '9') {
				if (b < 100000)
					b = b * 10 + (t->s[i] - '0');
				i++;
			}
		} else
			b = -1;
	}
	if (i >= t->len || t->s[i] != '}')
		return 0;
	*end = i + 1;
	*min = (int)a;
	*max = (int)b;
	return 1;
}

/* One literal rune: [xX] under (?i), a group for a multi-byte rune. */
static void
re_rune(struct re_tr *t, uint32_t r)
{
	char	enc[4], b;
	size_t	n;

	if (r < 0x80) {
		b = (char)r;
		if (t->icase && ((b >= 'a' && b <= 'z') ||
		    (b >= 'A' && b <= 'Z'))) {
			strbuf_addc(&t->out, '[');
			strbuf_addc(&t->out, (char)(b & ~0x20));
			strbuf_addc(&t->out, (char)(b | 0x20));
			strbuf_addc(&t->out, ']');
		} else
			re_lit(&t->out, &b, 1);
		return;
	}
	n = uni_encode(r, enc);
	strbuf_addc(&t->out, '(');
	strbuf_add(&t->out, enc, n);
	strbuf_addc(&t->out, ')');
}

/* (?flags) or (?flags:, at t->i; *group set for the latter. */
static int
re_flags(struct re_tr *t, int *group)
{
	size_t		j = t->i + 2, n;
	int		sign = 1, saw = 0, icase = t->icase, dotnl = t->dotnl;
	uint32_t	r;

	while (j < t->len) {
		r = uni_decode(t->s + j, t->len - j, &n);
		j += n;
		switch (r) {
		case 'i':
			icase = sign > 0;
			saw = 1;
			continue;
		case 's':
			dotnl = sign > 0;
			saw = 1;
			continue;
		case 'm':
		case 'U':
			saw = 1;
			continue;
		case '-':
			if (sign < 0)
				break;
			sign = -1;
			saw = 0;
			continue;
		case ':':
		case ')':
			if (sign < 0 && !saw)
				break;
			*group = r == ':';
			t->i = j;
			t->icase = icase;
			t->dotnl = dotnl;
			return 0;
		default:
			break;
		}
		break;
	}
	return re_fail(t, "invalid or unsupported Perl syntax", t->s + t->i,
	    j - t->i);
}

/*
 * Translate RE2 syntax to POSIX ERE, reporting the RE2 errors that a
 * delimited benchstat regexp can produce.
 */
static int
re_translate(struct re_tr *t)
{
	size_t		 atom_start = (size_t)-1;	/* out offset */
	size_t		 last_rep = (size_t)-1;		/* src offset */
	int		 can_repeat = 0, depth = 0;
	char		 cls[32];
	int		 neg, is_lit, min, max;
	uint32_t	 lit;
	size_t		 end, n, k;
	struct cset	 cs;

	(void)atom_start;
	/* Flags in effect outside each open group, restored at its ")". */
	t->saved = xcalloc(t->len + 1, sizeof(*t->saved));
	while (t->i < t->len) {
		unsigned char	c = (unsigned char)t->s[t->i];
		size_t		op_start = t->i;

		switch (c) {
		case '*': case '+': case '?':
			if (!can_repeat) {
				if (last_rep != (size_t)-1)
					return re_fail(t, "invalid nested "
					    "repetition operator", t->s +
					    last_rep, t->i + 1 - last_rep);
				return re_fail(t, "missing argument to "
				    "repetition operator", t->s + t->i, 1);
			}
			strbuf_addc(&t->out, (char)c);
			t->i++;
			if (t->i < t->len && t->s[t->i] == '?')
				t->i++;	/* non-greedy: same matches */
			last_rep = op_start;
			can_repeat = 0;
			continue;
		case '{':
			if (re_repeat(t, &end, &min, &max)) {
				if (!can_repeat) {
					if (last_rep != (size_t)-1)
						return re_fail(t, "invalid "
						    "nested repetition "
						    "operator", t->s + last_rep,
						    end - last_rep);
					return re_fail(t, "missing argument "
					    "to repetition operator", t->s +
					    t->i, end - t->i);
				}
				if (min > 1000 || max > 1000 ||
				    (max >= 0 && max < min))
					return re_fail(t, "invalid repeat "
					    "count", t->s + t->i, end - t->i);
				strbuf_add(&t->out, t->s + t->i, end - t->i);
				t->i = end;
				if (t->i < t->len && t->s[t->i] == '?')
					t->i++;
				last_rep = op_start;
				can_repeat = 0;
				continue;
			}
			re_lit(&t->out, "{", 1);
			t->i++;
			break;
		case '(':
			t->saved[depth] = (unsigned char)(t->icase | t->dotnl << 1);
			if (t->i + 1 < t->len && t->s[t->i + 1] == '?') {
				if (!(t->i + 2 < t->len &&
				    (t->s[t->i + 2] == 'P' ||
				    t->s[t->i + 2] == '<'))) {
					int	group = 0;

					if (re_flags(t, &group) < 0)
						return -1;
					if (!group) {
						can_repeat = 0;
						last_rep = (size_t)-1;
						continue;
					}
				} else if (t->i + 2 < t->len &&
				    (t->s[t->i + 2] == 'P' ||
				    t->s[t->i + 2] == '<')) {
					/* Named group: skip the name. */
					const char	*gt = memchr(t->s + t->i,
					    '>', t->len - t->i);

					if (gt == NULL) {
						return re_fail(t, "invalid "
						    "named capture", t->s +
						    t->i, t->len - t->i);
					}
					t->i = (size_t)(gt - t->s) + 1;
				}
			} else
				t->i++;
			strbuf_addc(&t->out, '(');
			depth++;
			can_repeat = 0;
			last_rep = (size_t)-1;
			continue;
		case ')':
			if (depth == 0)
				return re_fail(t, "unexpected )", t->s,
				    t->len);
			if (t->out.len > 0 && (t->out.buf[t->out.len - 1] ==
			    '(' || t->out.buf[t->out.len - 1] == '|'))
				strbuf_adds(&t->out, "()");
			strbuf_addc(&t->out, ')');
			depth--;
			t->icase = t->saved[depth] & 1;
			t->dotnl = t->saved[depth] >> 1 & 1;
			t->i++;
			break;
		case '|':
			if (t->out.len == 0 || t->out.buf[t->out.len - 1] ==
			    '(' || t->out.buf[t->out.len - 1] == '|')
				strbuf_adds(&t->out, "()");
			strbuf_addc(&t->out, '|');
			t->i++;
			can_repeat = 0;
			last_rep = (size_t)-1;
			continue;
		case '^': case '$':
			strbuf_addc(&t->out, (char)c);
			t->i++;
			can_repeat = 1;
			last_rep = (size_t)-1;
			continue;
		case '.':
			memset(&cs, 0, sizeof(cs));
			cset_add(&cs, 0, RUNE_MAX);
			if (!t->dotnl)
				cs.ascii[0] &= ~(1u << '\n');
			cset_emit(&cs, &t->out);
			cset_release(&cs);
			t->i++;
			break;
		case '[':
			if (re_class(t) < 0)
				return -1;
			break;
		case '\\':
			t->i++;
			if (t->i < t->len && (t->s[t->i] == 'A' ||
			    t->s[t->i] == 'z')) {
				strbuf_addc(&t->out, t->s[t->i] == 'A' ? '^' :
				    '$');
				t->i++;
				break;
			}
			if (t->i < t->len && (t->s[t->i] == 'b' ||
			    t->s[t->i] == 'B')) {
				strbuf_addc(&t->out, '\\');
				strbuf_addc(&t->out, t->s[t->i]);
				t->i++;
				break;
			}
			if (t->i < t->len && t->s[t->i] == 'Q') {
				const char	*e;
				size_t		 from = t->i + 1;

				e = NULL;
				for (end = from; end + 1 < t->len; end++)
					if (t->s[end] == '\\' &&
					    t->s[end + 1] == 'E') {
						e = t->s + end;
						break;
					}
				n = e != NULL ? (size_t)(e - (t->s + from)) :
				    t->len - from;
				t->i = from + n + (e != NULL ? 2 : 0);
				if (n == 0) {
					/* Nothing quoted: not an atom. */
					continue;
				}
				for (end = from; end < from + n; end += k)
					re_rune(t, uni_decode(t->s + end,
					    from + n - end, &k));
				break;
			}
			if (t->i < t->len && strchr("dDsSwW",
			    t->s[t->i]) != NULL && t->s[t->i] != '\0') {
				memset(&cs, 0, sizeof(cs));
				cset_perl(&cs, t->s[t->i]);
				cset_emit(&cs, &t->out);
				cset_release(&cs);
				t->i++;
				break;
			}
			if (re_escape(t, 0, cls, sizeof(cls), &neg, &lit,
			    &is_lit) < 0)
				return -1;
			re_rune(t, lit);
			break;
		default:
			re_rune(t, uni_decode(t->s + t->i, t->len - t->i, &n));
			t->i += n;
			break;
		}
		can_repeat = 1;
		last_rep = (size_t)-1;
	}
	if (depth > 0)
		return re_fail(t, "missing closing )", t->s, t->len);
	if (t->out.len > 0 && t->out.buf[t->out.len - 1] == '|')
		strbuf_adds(&t->out, "()");
	return 0;
}

struct query_regex *
query_regex_compile(const char *expr, size_t len, char **msg)
{
	struct re_tr		 t;
	struct query_regex	*re;
	int			 rc;

	memset(&t, 0, sizeof(t));
	t.s = expr;
	t.len = len;
	if (memchr(expr, '\0', len) != NULL) {
		*msg = xstrdup("error parsing regexp: NUL byte in regexp "
		    "(not supported)");
		return NULL;
	}
	rc = re_translate(&t);
	free(t.saved);
	if (rc < 0) {
		*msg = t.err;
		strbuf_release(&t.out);
		return NULL;
	}
	re = xcalloc(1, sizeof(*re));
	rc = regcomp(&re->re, t.out.buf != NULL ? t.out.buf : "",
	    REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char	buf[128];

		regerror(rc, &re->re, buf, sizeof(buf));
		*msg = xasprintf("error parsing regexp: %s: `%.*s`", buf,
		    (int)len, expr);
		free(re);
		strbuf_release(&t.out);
		return NULL;
	}
	strbuf_release(&t.out);
	return re;
}

int
query_regex_match(const struct query_regex *re, const char *s, size_t len)
{
	regmatch_t	m;

	if (memchr(s, '\0', len) != NULL)
		len = strlen(s);
	m.rm_so = 0;
	m.rm_eo = (regoff_t)len;
	return regexec(&re->re, s, 1, &m, REG_STARTEND) == 0;
}

void
query_regex_free(struct query_regex *re)
{
	if (re == NULL)
		return;
	regfree(&re->re);
	free(re);
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

	f->key = xstrndup(key->text, key->len);
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
		if (strcmp(f->key, ".unit") == 0)
			return 0;
		if (strcmp(f->key, ".config") == 0) {
			qp_error(p, (size_t)f->off,
			    ".config is only allowed in projections");
			return -1;
		}
		if (f->key[0] == '\0') {
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
		return qp_error(p, toks, "expected key");
	}
	toks = toks2;
	f->key = xstrndup(key.text, key.len);
	f->key_off = key.off;
	f->order = xstrdup("first");
	f->order_off = key.off + (int)key.len;
	toks2 = tk_next(p, &toks, 0, &sep);
	if (sep.kind != '@')
		return toks;
	toks = toks2;
	toks2 = tk_next(p, &toks, 0, &order);
	f->order_off = order.off;
	if (order.kind == 'w' || order.kind == 'q') {
		free(f->order);
		f->order = xstrndup(order.text, order.len);
		return toks2;
	}
	if (order.kind == '(') {
		free(f->order);
		f->order = xstrdup("fixed");
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
