/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the filter and projection parsers (stats/query.c) and of
 * filter evaluation and projections (stats/benchproc.c): Go's exact
 * syntax-error texts and caret positions, RE2 regexps, per-measurement
 * .unit masks, fixed orders and sort orders.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchproc.h"
#include "stats/query.h"
#include "tests/unit/tap.h"

static void
filter_err(const char *q, const char *want)
{
	struct query_filter	*f = NULL;
	struct query_error	 e;
	char			*s = NULL;

	if (query_parse_filter(q, &f, &e) < 0) {
		s = query_error_string(&e);
		query_error_release(&e);
	}
	tap_str_eq(s != NULL ? s : "(no error)", want, "filter '%s'", q);
	free(s);
	query_filter_free(f);
}

static void
proj_err(const char *q, const char *want)
{
	struct bp_parser	*p = bp_parser_new();
	struct bp_proj		*pr;
	struct query_error	 e;
	char			*s = NULL;

	if (bp_parse(p, q, 0, &pr, &e) < 0) {
		s = query_error_string(&e);
		query_error_release(&e);
	}
	tap_str_eq(s != NULL ? s : "(no error)", want, "projection '%s'", q);
	free(s);
	bp_parser_free(p);
}

static void
test_filter_errors(void)
{
	filter_err(".name:(a OR",
	    "syntax error: expected value\n\t.name:(a OR\n\t           ^");
	filter_err("", "syntax error: expected key:value or subexpression\n"
	    "\t\n\t^");
	filter_err("a:b)", "syntax error: unexpected \")\"\n\ta:b)\n\t   ^");
	filter_err("a:b :c", "syntax error: unexpected \":\"\n\ta:b :c\n"
	    "\t    ^");
	filter_err("(a:b", "syntax error: missing \")\"\n\t(a:b\n\t    ^");
	filter_err("  foo", "syntax error: expected key:value\n\t  foo\n"
	    "\t  ^");
	filter_err("a:(x y)", "syntax error: value list must be separated by "
	    "OR\n\ta:(x y)\n\t     ^");
	filter_err("a:\"x", "syntax error: missing end quote\n\ta:\"x\n"
	    "\t  ^");
	filter_err("a:\"\\q\"", "syntax error: bad escape sequence\n"
	    "\ta:\"\\q\"\n\t  ^");
	filter_err("a:/x", "syntax error: missing close \"/\"\n\ta:/x\n"
	    "\t  ^");
	filter_err("a:/x/y", "syntax error: regexp must be followed by space "
	    "or an operator (unescaped \"/\"?)\n\ta:/x/y\n\t     ^");
	filter_err("a:/**/", "syntax error: error parsing regexp: missing "
	    "argument to repetition operator: `*`\n\ta:/**/\n\t  ^");
	filter_err("a:/x**/", "syntax error: error parsing regexp: invalid "
	    "nested repetition operator: `**`\n\ta:/x**/\n\t  ^");
	filter_err("a:/\\q/", "syntax error: error parsing regexp: invalid "
	    "escape sequence: `\\q`\n\ta:/\\q/\n\t  ^");
	filter_err("a:/[z-a]/", "syntax error: error parsing regexp: invalid "
	    "character class range: `z-a`\n\ta:/[z-a]/\n\t  ^");
	filter_err("a:/[[:foo:]]/", "syntax error: error parsing regexp: "
	    "invalid character class range: `[:foo:]`\n\ta:/[[:foo:]]/\n"
	    "\t  ^");
	filter_err("a:/(?i-)/", "syntax error: error parsing regexp: "
	    "invalid or unsupported Perl syntax: `(?i-)`\n\ta:/(?i-)/\n"
	    "\t  ^");
	filter_err("a:/[a-\\d]/", "syntax error: error parsing regexp: "
	    "invalid escape sequence: `\\d`\n\ta:/[a-\\d]/\n\t  ^");
	filter_err("a:/[\xc3\xa9-a]/", "syntax error: error parsing regexp: "
	    "invalid character class range: `\xc3\xa9-a`\n"
	    "\ta:/[\xc3\xa9-a]/\n\t  ^");
	filter_err("a:/x{1001}/", "syntax error: error parsing regexp: "
	    "invalid repeat count: `{1001}`\n\ta:/x{1001}/\n\t  ^");
	filter_err("x:y .config:z", "syntax error: .config is only allowed in "
	    "projections\n\tx:y .config:z\n\t    ^");
	filter_err("\"\":z", "syntax error: key must not be empty\n\t\"\":z\n"
	    "\t^");
	/* The caret counts graphic runes: a tab does not count. */
	filter_err("\xc3\xa9\t(", "syntax error: expected key:value\n"
	    "\t\xc3\xa9\t(\n\t^");
	filter_err("-", "syntax error: expected key:value or subexpression\n"
	    "\t-\n\t ^");
	filter_err("a:b AND OR", "syntax error: expected key:value or "
	    "subexpression\n\ta:b AND OR\n\t          ^");
	filter_err("a:b AND c:d OR -(e:/f\\//) OR g:(h OR \"i j\" OR /k/)",
	    "(no error)");
	filter_err("*", "(no error)");
	filter_err("a:*x", "syntax error: expected key:value\n\ta:*x\n\t^");
}

static void
test_projection_errors(void)
{
	proj_err(".name,/format@alpha goos@num x@(a b)", "(no error)");
	proj_err(",a", "syntax error: expected key\n\t,a\n\t^");
	proj_err("a,,b", "syntax error: expected key\n\ta,,b\n\t  ^");
	proj_err("a@", "syntax error: expected named sort order or "
	    "parenthesized list\n\ta@\n\t  ^");
	proj_err("a@()", "syntax error: nothing to match\n\ta@()\n\t   ^");
	proj_err("a@(x", "syntax error: missing )\n\ta@(x\n\t    ^");
	proj_err("a@(x,", "syntax error: missing )\n\ta@(x,\n\t    ^");
	proj_err("goos@bogus", "syntax error: unknown order \"bogus\"\n"
	    "\tgoos@bogus\n\t     ^");
	proj_err(".config@(x)", "syntax error: fixed order not allowed for "
	    ".config\n\t.config@(x)\n\t        ^");
	proj_err("a .unit", "syntax error: .unit is only allowed in filters\n"
	    "\ta .unit\n\t  ^");
	proj_err("\"\"", "syntax error: key must not be empty\n\t\"\"\n\t^");
	proj_err("a:b", "syntax error: expected key\n\ta:b\n\t ^");
}

static void
test_regex(void)
{
	struct query_regex	*re;
	char			*msg = NULL;
	static const struct {
		const char	*re;
		const char	*s;
		int		 match;
	} cases[] = {
		{ "^json$", "json", 1 },
		{ "json", "xjsonx", 1 },
		{ "^son", "json", 0 },
		{ "\\d+k", "bs=64k", 1 },
		{ "\\d", "abc", 0 },
		{ "a.*?c", "abbc", 1 },
		{ "(?i)JSON", "json", 1 },
		{ "(?:ab)+$", "xabab", 1 },
		{ "[\\d_]x", "_x", 1 },
		{ "[^\\]]", "]", 0 },
		{ "a|", "zzz", 1 },
		{ "\\Qa.b\\E", "a.b", 1 },
		{ "\\Qa.b\\E", "axb", 0 },
		{ "\\.", "a", 0 },
		{ "^\\w+$", "a_b9", 1 },
		{ "^\\S+$", "a b", 0 },
		{ "x{2}", "xx", 1 },
		{ "x{2}", "x{2}", 0 },
		{ "a{,2}", "a{,2}", 1 },
		{ "", "", 1 },
		/* RE2 matches runes, not bytes. */
		{ "^.$", "\xc3\xa9", 1 },
		{ "^..$", "\xc3\xa9", 0 },
		{ "^[^a]$", "\xc3\xa9", 1 },
		{ "^\\S$", "\xc3\xa9", 1 },
		{ "^[\xc2\xb5n]s$", "\xc2\xb5s", 1 },
		{ "^\xc3\xa9+$", "\xc3\xa9\xc3\xa9", 1 },
		{ "^[\xce\xb1-\xcf\x89]+$", "\xce\xbb", 1 },
		{ "^[^\xce\xb1]$", "\xce\xb1", 0 },
		/* Flags anywhere, scoped to their group. */
		{ "a(?i)bc", "aBC", 1 },
		{ "a(?i:b)c", "aBC", 0 },
		{ "a(?i:b)c", "aBc", 1 },
		{ "(?i)a(?-i:b)", "AB", 0 },
		{ "(?i)[a-c]", "B", 1 },
		{ "(?s).", "x", 1 },
		{ "(?U)^a+?$", "aa", 1 },
		/* POSIX and negated Perl classes inside brackets. */
		{ "[[:^alpha:]]", "a", 0 },
		{ "[[:^alpha:]]", "1", 1 },
		{ "[[:punct:]]", ",", 1 },
		{ "[\\D]", "5", 0 },
		{ "[\\D]", "x", 1 },
		{ "^[\\^x]$", "^", 1 },
		{ "[]a]", "]", 1 },
		{ "[a-c-]", "-", 1 },
		{ "^[-^]$", "^", 1 },
		{ "^[-^]$", "-", 1 },
		{ "^[-^]$", "a", 0 },
		{ "^[^-^]$", "a", 1 },
		{ "^[^-^]$", "^", 0 },
		{ "^[\\^]$", "^", 1 },
		{ "^[^\\^]$", "^", 0 },
	};
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		re = query_regex_compile(cases[i].re, strlen(cases[i].re),
		    &msg);
		if (re == NULL) {
			tap_ok(0, "regexp /%s/ compiles: %s", cases[i].re,
			    msg);
			free(msg);
			continue;
		}
		tap_int_eq(query_regex_match(re, cases[i].s,
		    strlen(cases[i].s)), cases[i].match, "/%s/ on '%s'",
		    cases[i].re, cases[i].s);
		query_regex_free(re);
	}
	msg = query_go_quote("a\"\\\t\x01\xff\xe2\x80\x8b\xc3\xa9", 11);
	tap_str_eq(msg, "\"a\\\"\\\\\\t\\x01\\xff\\u200b\xc3\xa9\"",
	    "Go strconv.Quote");
	free(msg);
}

/* Read text, apply filter q, and describe what survives. */
static char *
filtered(const char *q, const char *text, const char *proj)
{
	struct bp_parser	*p = bp_parser_new();
	struct bp_filter	*f = NULL;
	struct bp_proj		*pr;
	struct query_error	 e;
	struct bf_reader	*r;
	const struct bf_result	*res;
	struct bp_res		 br;
	struct strbuf		 sb = STRBUF_INIT;
	char			*cause = NULL;
	size_t			 i;

	memset(&br, 0, sizeof(br));
	strbuf_add(&sb, "", 0);
	if (proj != NULL && bp_parse(p, proj, 0, &pr, &e) < 0) {
		query_error_release(&e);
		bp_parser_free(p);
		return xstrdup("(projection error)");
	}
	if (bp_filter_new(p, q, &f, &e) < 0) {
		query_error_release(&e);
		bp_parser_free(p);
		return xstrdup("(filter error)");
	}
	r = bf_reader_new("f.txt", "lbl", text, strlen(text), NULL);
	bp_res_new_input(&br);
	while (bf_reader_next(r, &res, &cause) == 1) {
		bp_res_init(p, &br, res);
		if (bp_apply(p, f, &br) == 0)
			continue;
		strbuf_addf(&sb, "%s:", res->name);
		for (i = 0; i < br.nvalues; i++)
			strbuf_addf(&sb, " %s", br.values[i].unit);
		strbuf_addc(&sb, '\n');
	}
	bf_reader_free(r);
	bp_res_release(&br);
	bp_filter_free(f);
	bp_parser_free(p);
	return strbuf_detach(&sb);
}

static void
test_filter_eval(void)
{
	static const char text[] =
	    "goos: linux\n"
	    "BenchmarkEnc/format=json-8 1 10 ns/op 5 B/op 1 allocs/op\n"
	    "BenchmarkEnc/format=gob-8 1 10 ns/op 5 B/op 1 allocs/op\n"
	    "goos: darwin\n"
	    "BenchmarkDec-8 1 0 ns/op 7 MB/s\n";
	char	*s;

	s = filtered("*", text, NULL);
	tap_str_eq(s, "Enc/format=json-8: sec/op B/op allocs/op\n"
	    "Enc/format=gob-8: sec/op B/op allocs/op\n"
	    "Dec-8: ns/op B/s\n", "filter *: everything");
	free(s);
	s = filtered(".unit:ns/op", text, NULL);
	tap_str_eq(s, "Enc/format=json-8: sec/op\nEnc/format=gob-8: sec/op\n"
	    "Dec-8: ns/op\n", ".unit matches the original unit too");
	free(s);
	s = filtered("-.unit:/op$/ OR /format:gob", text, NULL);
	tap_str_eq(s, "Enc/format=gob-8: sec/op B/op allocs/op\n"
	    "Dec-8: B/s\n", "OR with a true boolean keeps all values");
	free(s);
	s = filtered("goos:linux .unit:(B/op OR allocs/op) -/format:json",
	    text, NULL);
	tap_str_eq(s, "Enc/format=gob-8: B/op allocs/op\n",
	    "AND of booleans and masks");
	free(s);
	s = filtered(".name:Dec .file:lbl .fullname:/^Dec-8$/ goos:darwin",
	    text, NULL);
	tap_str_eq(s, "Dec-8: ns/op B/s\n", ".name, .file, .fullname, "
	    "config keys");
	free(s);
	s = filtered("/gomaxprocs:8 -nosuchkey:/./ nosuchkey:\"\"", text,
	    NULL);
	tap_ok(strstr(s, "Dec-8:") != NULL && strstr(s, "gob") != NULL,
	    "/gomaxprocs and absent keys (\"\")");
	free(s);
	s = filtered("*", text, "/format@(gob json)");
	tap_str_eq(s, "Enc/format=json-8: sec/op B/op allocs/op\n"
	    "Enc/format=gob-8: sec/op B/op allocs/op\n",
	    "a fixed order filters out unlisted values");
	free(s);
}

static void
test_sort(void)
{
	struct bp_parser	*p = bp_parser_new();
	struct bp_proj		*pr;
	struct query_error	 e;
	struct bf_reader	*r;
	const struct bf_result	*res;
	struct bp_res		 br;
	struct bp_key		*keys[16];
	size_t			 n = 0, i;
	char			*cause = NULL;
	struct strbuf		 sb = STRBUF_INIT;
	static const char	 text[] =
	    "BenchmarkX/size=2k 1 1 B/op\n"
	    "BenchmarkX/size=10 1 1 B/op\n"
	    "BenchmarkX/size=1Mi 1 1 B/op\n"
	    "BenchmarkX/size=abc 1 1 B/op\n"
	    "BenchmarkX/size=1.5 1 1 B/op\n"
	    "BenchmarkX/size=2k 1 1 B/op\n";

	memset(&br, 0, sizeof(br));
	tap_ok(bp_parse(p, "/size@num", 0, &pr, &e) == 0, "parse @num");
	r = bf_reader_new("s.txt", "s", text, strlen(text), NULL);
	while (bf_reader_next(r, &res, &cause) == 1) {
		struct bp_key	*k;

		bp_res_init(p, &br, res);
		k = bp_project(pr, &br);
		for (i = 0; i < n && keys[i] != k; i++)
			;
		if (i == n)
			keys[n++] = k;
	}
	tap_int_eq(n, 5, "five distinct keys (equal tuples interned)");
	bp_sort_keys(pr, keys, n);
	for (i = 0; i < n; i++) {
		const char	*v = bp_key_string_values(pr, keys[i]);

		strbuf_addf(&sb, "%s%s", i ? " " : "", v);
	}
	tap_str_eq(sb.buf, "1.5 10 2k 1Mi abc", "num order: prefixes, "
	    "non-numbers last");
	strbuf_release(&sb);
	bf_reader_free(r);
	bp_res_release(&br);
	bp_parser_free(p);
}

int
main(void)
{
	test_filter_errors();
	test_projection_errors();
	test_regex();
	test_filter_eval();
	test_sort();
	return tap_done();
}
