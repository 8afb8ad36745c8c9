/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go's regexps (lib/goregexp/goregexp.c): the error texts of Go's own tests
 * (regexp/all_test.go badRe) and of regexp/syntax/parse.go's rules, the
 * matches Go makes (Unicode 13 classes, (?i) simple folding, invalid UTF-8
 * as U+FFFD, NUL, empty-width repeats, one-line ^ and $), the parse
 * limits, and linear time and bounded size on hostile patterns.
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "lib/util.h"
#include "lib/goregexp/goregexp.h"
#include "tap.h"

struct bad {
	const char	*re;
	const char	*err;	/* after "error parsing regexp: " */
};

static const struct bad bad[] = {
	/* regexp/all_test.go badRe */
	{ "*", "missing argument to repetition operator: `*`" },
	{ "+", "missing argument to repetition operator: `+`" },
	{ "?", "missing argument to repetition operator: `?`" },
	{ "(abc", "missing closing ): `(abc`" },
	{ "abc)", "unexpected ): `abc)`" },
	{ "x[a-z", "missing closing ]: `[a-z`" },
	{ "[z-a]", "invalid character class range: `z-a`" },
	{ "abc\\", "trailing backslash at end of expression: ``" },
	{ "a**", "invalid nested repetition operator: `**`" },
	{ "a*+", "invalid nested repetition operator: `*+`" },
	{ "\\x", "invalid escape sequence: `\\x`" },
	/* the lazy operator keeps its '?' */
	{ "x|*?", "missing argument to repetition operator: `*?`" },
	{ "a*?+", "invalid nested repetition operator: `*?+`" },
	{ "(?:*)", "missing argument to repetition operator: `*`" },
	{ "a{1001}", "invalid repeat count: `{1001}`" },
	{ "a{2,1}", "invalid repeat count: `{2,1}`" },
	{ "a{1000000000}", "invalid repeat count: `{1000000000}`" },
	{ "(a{100}){100}", "invalid repeat count: `{100}`" },
	{ "(a{1000}){1000}", "invalid repeat count: `{1000}`" },
	{ "((a{10}){10}){11}", "invalid repeat count: `{11}`" },
	{ "a**{2}", "invalid nested repetition operator: `**`" },
	/* Perl syntax: Go 1.19 knows (?P<name> only */
	{ "(?<n>A)", "invalid or unsupported Perl syntax: `(?<`" },
	{ "(?P=n)", "invalid or unsupported Perl syntax: `(?P`" },
	{ "(?i", "invalid or unsupported Perl syntax: `(?i`" },
	{ "(?-)", "invalid or unsupported Perl syntax: `(?-)`" },
	{ "(?i-i-s)", "invalid or unsupported Perl syntax: `(?i-i-`" },
	{ "(?x)", "invalid or unsupported Perl syntax: `(?x`" },
	{ "(?P<>A)", "invalid named capture: `(?P<>`" },
	{ "(?P<a-b>A)", "invalid named capture: `(?P<a-b>`" },
	{ "(?P<name", "invalid named capture: `(?P<name`" },
	/* escapes */
	{ "\\C", "invalid escape sequence: `\\C`" },
	{ "\\1", "invalid escape sequence: `\\1`" },
	{ "\\8", "invalid escape sequence: `\\8`" },
	{ "\\q", "invalid escape sequence: `\\q`" },
	{ "\\x{110000}", "invalid escape sequence: `\\x{110000`" },
	{ "\\x{}", "invalid escape sequence: `\\x{}`" },
	{ "\\xg0", "invalid escape sequence: `\\xg0`" },
	/* classes */
	{ "\\p{Foo}", "invalid character class range: `\\p{Foo}`" },
	{ "\\pX", "invalid character class range: `\\pX`" },
	{ "\\p", "invalid character class range: `\\p`" },
	{ "\\p{Greek", "invalid character class range: `\\p{Greek`" },
	{ "\\p{Vithkuqi}", "invalid character class range: `\\p{Vithkuqi}`" },
	{ "\\p{greek}", "invalid character class range: `\\p{greek}`" },
	{ "[[:foo:]]", "invalid character class range: `[:foo:]`" },
	{ "[a", "missing closing ]: `[a`" },
	{ "[]", "missing closing ]: `[]`" },
	{ "x)y", "unexpected ): `x)y`" },
	{ "\xff", "invalid UTF-8: `\xff`" },
	{ "a\xe2\x82", "invalid UTF-8: `\xe2\x82`" },
};

struct m {
	const char	*re;
	const char	*s;
	size_t		 slen;	/* 0: strlen(s) */
	int		 want;
};

static const struct m matches[] = {
	/* Unicode 13 classes */
	{ "^\\pL$", "\xc3\xa9", 0, 1 },
	{ "\\pL", "1", 0, 0 },
	{ "^\\p{Greek}", "\xce\xb2" "eta", 0, 1 },
	{ "^\\p{Greek}", "beta", 0, 0 },
	{ "^\\PL$", "1", 0, 1 },
	{ "^\\PL$", "a", 0, 0 },
	{ "^\\P{Lu}$", "a", 0, 1 },
	{ "^\\P{Lu}$", "A", 0, 0 },
	{ "^\\p{^Greek}$", "a", 0, 1 },
	{ "^\\p{^Greek}$", "\xce\xb2", 0, 0 },
	{ "^\\P{^Greek}$", "\xce\xb2", 0, 1 },
	{ "^[\\p{Nd}x]+$", "x\xd9\xa3" "7", 0, 1 },
	{ "\\p{Yezidi}", "\xf0\x90\xba\x80", 0, 1 },	/* U+10E80, new in 13 */
	{ "\\pL", "\xea\x9f\x91", 0, 0 },	/* U+A7D1: Unicode 14 */
	{ "\\p{Any}", "\xff", 0, 1 },
	{ "^\\pN$", "\xc2\xbd", 0, 1 },		/* No */
	{ "^\\p{Zs}$", "\xe3\x80\x80", 0, 1 },
	{ "^\\pC$", "\xc2\xad", 0, 1 },		/* Cf */
	{ "^\\pC$", "\xcd\xb8", 0, 0 },		/* U+0378 unassigned */
	/* (?i): simple case folding, not just ASCII */
	{ "(?i)\xc3\xbc", "\xc3\x9c" "ber", 0, 1 },
	{ "(?i)^k", "\xe2\x84\xaa", 0, 1 },	/* KELVIN SIGN */
	{ "(?i)[k]", "\xe2\x84\xaa", 0, 1 },
	{ "[k]", "K", 0, 0 },
	{ "(?i)\xc5\xbf", "S", 0, 1 },		/* long s */
	{ "(?i)\\W", "\xc5\xbf", 0, 0 },	/* folded \w has it */
	{ "\\W", "\xc5\xbf", 0, 1 },
	{ "(?i)\\p{Lu}", "a", 0, 1 },
	{ "(?i)\xce\xa3", "\xcf\x82", 0, 1 },	/* Σ ς */
	{ "(?i:A)a", "aA", 0, 0 },
	{ "(?i:A)a", "Aa", 0, 1 },
	{ "(?i)a(?-i)a", "AA", 0, 0 },
	/* invalid UTF-8 is U+FFFD, one byte at a time */
	{ "^Inv..X$", "Inv\xff\xfeX", 0, 1 },
	{ "^[^a]$", "\xff", 0, 1 },
	{ "^\\W$", "\xff", 0, 1 },
	{ "^\\x{fffd}$", "\xff", 0, 1 },
	{ "^.$", "\xe2\x82", 0, 0 },
	{ "^..$", "\xe2\x82", 0, 1 },
	/* NUL */
	{ "\\0", "a\0b", 3, 1 },
	{ "\\0", "ab", 0, 0 },
	{ "a\\x00b", "a\0b", 3, 1 },
	{ "\\x{0}", "\0", 1, 1 },
	{ "^a\\000$", "a\0", 2, 1 },
	{ "a\0b", "xa\0b", 4, 1 },
	/* empty-width repeats, \Q\E */
	{ "\\b*", "", 0, 1 },
	{ "^*$", "", 0, 1 },
	{ "$+", "x", 0, 1 },
	{ "\\A?x", "x", 0, 1 },
	{ "x\\z{2}", "x", 0, 1 },
	{ "x\\z{2}", "xy", 0, 0 },
	{ "a*\\Q\\E+", "b", 0, 1 },
	{ "^\\Qa.b\\E$", "a.b", 0, 1 },
	{ "^\\Qa.b\\E$", "axb", 0, 0 },
	{ "^\\Qa.b$", "a.b$", 0, 1 },
	{ "\\_", "a_b", 0, 1 },
	/* one-line ^ and $, (?m), (?s), \b */
	{ "a$", "a\n", 0, 0 },
	{ "(?m)a$", "a\nb", 0, 1 },
	{ "(?m)^b", "a\nb", 0, 1 },
	{ "^b", "a\nb", 0, 0 },
	{ ".", "\n", 0, 0 },
	{ "(?s).", "\n", 0, 1 },
	{ "[^a]", "\n", 0, 1 },
	{ "\\bfoo\\b", "a foo b", 0, 1 },
	{ "\\bfoo\\b", "afoo", 0, 0 },
	{ "\\Bfoo", "afoo", 0, 1 },
	/* repeats, alternation, groups */
	{ "^a{2,3}$", "aa", 0, 1 },
	{ "^a{2,3}$", "aaaa", 0, 0 },
	{ "^a{2,}$", "aaaaa", 0, 1 },
	{ "^a{2,}$", "a", 0, 0 },
	{ "^x{0}y$", "y", 0, 1 },
	{ "^(a|b)*c$", "ababc", 0, 1 },
	{ "^(?:ab|cd)+$", "abcdab", 0, 1 },
	{ "^(?:ab|cd)+$", "abc", 0, 0 },
	{ "^(?P<x>a)(b)$", "ab", 0, 1 },
	{ "a{,2}", "a{,2}", 0, 1 },		/* not a repeat */
	{ "^[[:^alpha:]]$", "1", 0, 1 },
	{ "^[[:^alpha:]]$", "a", 0, 0 },
	{ "^[a-c\\d]+$", "ab12c", 0, 1 },
	{ "^[\\d-z]+$", "1-z", 0, 1 },	/* '-' after a class is itself */
	{ "^[^\\x00-\\x{10FFFF}]", "a", 0, 0 },
	{ "", "", 0, 1 },
	{ "|", "x", 0, 1 },
	{ "()", "", 0, 1 },
	/* patterns that make backtracking engines explode */
	{ "^(a*)*b$", NULL, 0, 0 },
	{ "^(a|a)*b$", NULL, 0, 0 },
	{ "^(a+)+$", NULL, 0, 1 },
};

/* 20000 a's: the subject of the hostile patterns above. */
static char *
many_a(size_t n)
{
	char	*s = xmalloc(n + 1);

	memset(s, 'a', n);
	s[n] = '\0';
	return s;
}

static void
check_bad(void)
{
	struct goregexp	*re;
	char		*msg = NULL, *want;
	size_t		 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		msg = NULL;
		re = goregexp_compile(bad[i].re, strlen(bad[i].re), &msg);
		want = xasprintf("error parsing regexp: %s", bad[i].err);
		tap_str_eq(msg, want, "rejects %s", bad[i].re);
		free(want);
		free(msg);
		goregexp_free(re);
	}
}

static void
check_matches(void)
{
	struct goregexp	*re;
	char		*msg = NULL, *a = many_a(20000);
	const char	*s;
	size_t		 i, len;
	clock_t		 t0 = clock();

	for (i = 0; i < ARRAY_SIZE(matches); i++) {
		msg = NULL;
		re = goregexp_compile(matches[i].re, strlen(matches[i].re),
		    &msg);
		if (!tap_ok(re != NULL, "compile %s", matches[i].re)) {
			TAP_DIAG("%s", msg);
			free(msg);
			continue;
		}
		s = matches[i].s != NULL ? matches[i].s : a;
		len = matches[i].slen != 0 ? matches[i].slen : strlen(s);
		tap_int_eq(goregexp_match(re, s, len), matches[i].want,
		    "%s against subject %zu", matches[i].re, i);
		goregexp_free(re);
	}
	/* Linear: the hostile ones took milliseconds, not years. */
	tap_ok((double)(clock() - t0) / CLOCKS_PER_SEC < 5,
	    "all matches in under 5 s of CPU");
	free(a);
}

static void
check_limits(void)
{
	struct strbuf	 sb = STRBUF_INIT;
	struct goregexp	*re;
	char		*msg = NULL;
	int		 i;

	/* regexp/all_test.go: 27000 \pL are over maxRunes. */
	for (i = 0; i < 27000; i++)
		strbuf_adds(&sb, "\\pL");
	re = goregexp_compile(sb.buf, sb.len, &msg);
	tap_ok(re == NULL && msg != NULL && strncmp(msg,
	    "error parsing regexp: expression too large: `\\pL\\pL",
	    50) == 0, "27000 \\pL: expression too large");
	free(msg);
	goregexp_free(re);
	strbuf_reset(&sb);

	/* 1000 nested groups are fine, 1001 too deep (maxHeight). */
	for (i = 0; i < 999; i++)
		strbuf_addc(&sb, '(');
	strbuf_addc(&sb, 'a');
	for (i = 0; i < 999; i++)
		strbuf_addc(&sb, ')');
	msg = NULL;
	re = goregexp_compile(sb.buf, sb.len, &msg);
	tap_ok(re != NULL && goregexp_match(re, "a", 1), "999 groups");
	goregexp_free(re);
	free(msg);
	strbuf_reset(&sb);
	for (i = 0; i < 1001; i++)
		strbuf_addc(&sb, '(');
	strbuf_addc(&sb, 'a');
	for (i = 0; i < 1001; i++)
		strbuf_addc(&sb, ')');
	msg = NULL;
	re = goregexp_compile(sb.buf, sb.len, &msg);
	tap_ok(re == NULL && msg != NULL && strncmp(msg,
	    "error parsing regexp: expression nests too deeply: `((", 53) == 0,
	    "1001 groups: expression nests too deeply");
	free(msg);
	goregexp_free(re);
	strbuf_reset(&sb);

	/*
	 * The largest nested repeat Go allows is 1000 copies: the program
	 * stays proportional to that, not to the product of the counts.
	 */
	msg = NULL;
	re = goregexp_compile("((a{10}){10}){10}", 17, &msg);
	tap_ok(re != NULL && goregexp_size(re) < 1100,
	    "((a{10}){10}){10}: %zu instructions",
	    re != NULL ? goregexp_size(re) : 0);
	goregexp_free(re);
	/*
	 * A long literal repeated 1000 times is over Go's size budget
	 * (Go's cheap pre-check lets this one through to a 160 MB
	 * program; the budget is checked on every expression here).
	 */
	strbuf_adds(&sb, "(?:");
	for (i = 0; i < 4000; i++)
		strbuf_addc(&sb, 'x');
	strbuf_adds(&sb, "){1000}");
	msg = NULL;
	re = goregexp_compile(sb.buf, sb.len, &msg);
	tap_ok(re == NULL && msg != NULL && strstr(msg, "expression too large")
	    != NULL, "x{4000 runes}{1000}: expression too large");
	free(msg);
	goregexp_free(re);
	strbuf_release(&sb);
}

int
main(void)
{
	check_bad();
	check_matches();
	check_limits();
	return tap_done();
}
