/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the benchfmt reader (stats/benchfmt.c): line kinds,
 * configuration scoping and benchstat's swap-on-delete order, Unit
 * metadata and its errors, benchmark-name rules, malformed lines and the
 * bufio.Scanner line limit.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/strpool.h"
#include "tests/unit/tap.h"

/*
 * Read everything; return results as "name|k=v,k=v|v unit;..." lines.
 * chunk > 0: hand the text to the reader chunk bytes at a time with
 * bf_reader_feed, carrying incomplete lines over as `abbench stat` does.
 */
/* read_chunks: lines too long are skipped (gobench's reading). */
static int	skip_long;

static char *
read_chunks(const char *path, const char *label, const char *text,
    struct bf_units *units, char **errors, int *rc_out, size_t chunk)
{
	struct bf_reader	*r;
	const struct bf_result	*res;
	struct strbuf		 sb = STRBUF_INIT, eb = STRBUF_INIT;
	const char *const	*msgs;
	char			*cause = NULL;
	size_t			 i, n;
	int			 rc;
	struct strbuf		 buf = STRBUF_INIT;
	size_t			 off = 0, len = strlen(text), take, used;

	r = bf_reader_new(path, label, text, len, units);
	if (skip_long)
		bf_reader_skip_long_lines(r);
	strbuf_add(&sb, "", 0);
	strbuf_add(&eb, "", 0);
	strbuf_add(&buf, "", 0);
feed:
	if (chunk > 0) {
		take = len - off < chunk ? len - off : chunk;
		strbuf_add(&buf, text + off, take);
		off += take;
		bf_reader_feed(r, buf.buf, buf.len, off < len);
	}
	while ((rc = bf_reader_next(r, &res, &cause)) == 1) {
		strbuf_addf(&sb, "%d:%s:%s|", res->line, res->label,
		    res->name);
		for (i = 0; i < res->nconfig; i++)
			strbuf_addf(&sb, "%s%s=%s", i ? "," : "",
			    res->config[i].key, res->config[i].value);
		strbuf_addc(&sb, '|');
		for (i = 0; i < res->nvalues; i++)
			strbuf_addf(&sb, "%s%.17g %s(%.17g %s)", i ? ";" : "",
			    res->values[i].value, res->values[i].unit,
			    res->values[i].orig_value,
			    res->values[i].orig_unit);
		strbuf_addc(&sb, '\n');
		msgs = bf_reader_errors(r, &n);
		for (i = 0; i < n; i++)
			strbuf_addf(&eb, "%s\n", msgs[i]);
		bf_reader_clear_errors(r);
	}
	if (rc == 2) {
		used = bf_reader_consumed(r);
		memmove(buf.buf, buf.buf + used, buf.len - used);
		buf.len -= used;
		goto feed;
	}
	strbuf_release(&buf);
	msgs = bf_reader_errors(r, &n);
	for (i = 0; i < n; i++)
		strbuf_addf(&eb, "%s\n", msgs[i]);
	if (rc < 0) {
		strbuf_addf(&eb, "FATAL %s\n", cause);
		free(cause);
	}
	bf_reader_free(r);
	*errors = strbuf_detach(&eb);
	if (rc_out != NULL)
		*rc_out = rc;
	return strbuf_detach(&sb);
}

static char *
read_all(const char *path, const char *label, const char *text,
    struct bf_units *units, char **errors, int *rc_out)
{
	return read_chunks(path, label, text, units, errors, rc_out, 0);
}

static void
test_config(void)
{
	char	*out, *err;

	/* Config persists, overwrite keeps position, delete swaps. */
	out = read_all("f.txt", "F",
	    "a: 1\nb: 2\nc: 3\n"
	    "BenchmarkX 1 2 B/op\n"
	    "b: 20\n"
	    "BenchmarkY 1 2 B/op\n"
	    "a:\n"
	    "BenchmarkZ 1 2 B/op\n"
	    "d:    four  \n"
	    "BenchmarkW 1 2 B/op\n",
	    NULL, &err, NULL);
	tap_str_eq(out,
	    "4:F:X|a=1,b=2,c=3|2 B/op(2 B/op)\n"
	    "6:F:Y|a=1,b=20,c=3|2 B/op(2 B/op)\n"
	    "8:F:Z|c=3,b=20|2 B/op(2 B/op)\n"
	    "10:F:W|c=3,b=20,d=four  |2 B/op(2 B/op)\n",
	    "config: persists, overwrite in place, delete swaps with last, "
	    "value keeps trailing spaces");
	tap_str_eq(err, "", "config: no errors");
	free(out);
	free(err);

	/* Lines that are not configuration. */
	out = read_all("f.txt", "F",
	    "k:v\nUpper: x\nkeY: x\n key: x\n:x: y\nk\xc3\xa9y: ok\n"
	    "k:\t\ttabbed\nzz:   \n"
	    "BenchmarkX 1 2 B/op\n",
	    NULL, &err, NULL);
	tap_str_eq(out, "9:F:X|k\xc3\xa9y=ok,k=tabbed|2 B/op(2 B/op)\n",
	    "config: 'k:v', upper case and leading space are not config, "
	    "unicode lower case is, 'zz:   ' deletes nothing");
	free(out);
	free(err);

	/* A new reader starts with an empty config. */
	out = read_all("g.txt", "G", "BenchmarkX 1 2 B/op\n", NULL, &err,
	    NULL);
	tap_str_eq(out, "1:G:X||2 B/op(2 B/op)\n", "config: fresh per file");
	free(out);
	free(err);
}

static void
test_bench_lines(void)
{
	char	*out, *err;
	int	 rc;

	out = read_all("m.txt", "M",
	    "BenchmarkOnly\n"			/* go test -v: skipped */
	    "Benchmark\n"			/* skipped */
	    "BenchmarkX \n"			/* 3 */
	    "BenchmarkX 12a 1 ns/op\n"		/* 4 */
	    "BenchmarkX 99999999999999999999 1 ns/op\n"	/* 5 */
	    "BenchmarkX 10\n"			/* 6 */
	    "BenchmarkX 10 5\n"			/* 7 */
	    "BenchmarkX 10 5 ns/op extra\n"	/* 8 */
	    "BenchmarkX 10 1e400 ns/op\n"	/* 9 */
	    "BenchmarkX 10 1__0 ns/op\n"	/* 10 */
	    "Benchmark 1 2 ns/op\r\n"		/* 11: empty name */
	    "BenchmarkY-8\t+5\t0 ns/op\t1.5 MB/s\t0x1p4 x-ns\n"
	    "BenchmarkZ 1 1e-400 B/op",		/* no final newline */
	    NULL, &err, &rc);
	tap_str_eq(err,
	    "m.txt:3: missing iteration count\n"
	    "m.txt:4: parsing iteration count: invalid syntax\n"
	    "m.txt:5: parsing iteration count: value out of range\n"
	    "m.txt:6: missing measurements\n"
	    "m.txt:7: missing units\n"
	    "m.txt:8: parsing measurement: invalid syntax\n"
	    "m.txt:9: parsing measurement: value out of range\n"
	    "m.txt:10: parsing measurement: invalid syntax\n",
	    "bench lines: errors in order with line numbers");
	tap_str_eq(out,
	    "11:M:||2.0000000000000001e-09 sec/op(2 ns/op)\n"
	    "12:M:Y-8||0 ns/op(0 ns/op);1500000 B/s(1.5 MB/s);"
	    "1.6000000000000001e-08 x-sec(16 x-ns)\n"
	    "13:M:Z||0 B/op(0 B/op)\n",
	    "bench lines: empty name, CRLF, tidying (0 ns/op keeps its unit), "
	    "hex float, underflow to 0, last line without newline");
	tap_int_eq(rc, 0, "bench lines: end without fatal error");
	free(out);
	free(err);
}

static void
test_units(void)
{
	struct bf_units	*u = bf_units_new();
	char		*out, *err;
	const char	*unit, *key, *value;

	out = read_all("a.txt", "A",
	    "Unit ns/op assume=exact better=lower\n"
	    "Unit\n"
	    "Unit x/op =bad novalue k=\n"
	    "Unit sec/op assume=exact\n"
	    "BenchmarkX 1 2 ns/op\n",
	    u, &err, NULL);
	tap_str_eq(err,
	    "a.txt:2: missing unit\n"
	    "a.txt:3: expected key=value\n"
	    "a.txt:3: expected key=value\n",
	    "units: missing unit, expected key=value per bad field");
	free(out);
	free(err);
	/* Global across files: a conflicting value in another file. */
	out = read_all("b.txt", "B",
	    "Unit ns/op assume=nothing better=higher\n", u, &err, NULL);
	tap_str_eq(err,
	    "b.txt:1: metadata assume of unit ns/op already set to exact\n"
	    "b.txt:1: metadata better of unit ns/op already set to lower\n",
	    "units: conflicts name the unit as written, first value wins");
	free(out);
	free(err);
	tap_str_eq(bf_units_get(u, "sec/op", 6, "assume"), "exact",
	    "units: keyed by the tidied unit");
	tap_ok(bf_units_get(u, "ns/op", 5, "assume") == NULL,
	    "units: not by the untidied unit");
	tap_str_eq(bf_units_get(u, "x/op", 4, "k"), "", "units: empty value");
	tap_int_eq(bf_units_count(u), 3, "units: three entries");
	tap_ok(bf_units_entry(u, 1, &unit, &key, &value) == 0 &&
	    strcmp(unit, "sec/op") == 0 && strcmp(key, "better") == 0 &&
	    strcmp(value, "lower") == 0, "units: entries in order");
	tap_ok(bf_units_entry(u, 3, &unit, &key, &value) < 0,
	    "units: entry out of range");
	bf_units_free(u);
}

static void
test_long_lines(void)
{
	size_t	 n = 65536 + 100;
	char	*text = xmalloc(n + 64), *out, *err;
	int	 rc;

	/* Line 2 has 65535 bytes: fine.  Line 3 has 65536: fatal. */
	strcpy(text, "BenchmarkA 1 1 B/op\n");
	memset(text + 20, 'x', 65535);
	strcpy(text + 20 + 65535, "\nBenchmarkB 1 1 B/op\n");
	out = read_all("l.txt", "L", text, NULL, &err, &rc);
	tap_str_eq(err, "", "long lines: 65535 bytes are fine");
	tap_int_eq(rc, 0, "long lines: no fatal error");
	free(out);
	free(err);

	strcpy(text, "BenchmarkA 1 1 B/op\n");
	memset(text + 20, 'x', 65536);
	strcpy(text + 20 + 65536, "\nBenchmarkB 1 1 B/op\n");
	out = read_all("l.txt", "L", text, NULL, &err, &rc);
	tap_str_eq(err, "FATAL l.txt:1: bufio.Scanner: token too long\n",
	    "long lines: 65536 bytes are fatal after 1 line read");
	tap_int_eq(rc, -1, "long lines: next() returns -1");
	tap_str_eq(out, "1:L:A||1 B/op(1 B/op)\n",
	    "long lines: results before it were returned");
	free(out);
	free(err);
	free(text);
}

static void
name_check(const char *name, const char *base, size_t procs)
{
	size_t	len = strlen(name);

	tap_int_eq(bf_name_base(name, len), strlen(base), "base of '%s' is "
	    "'%s'", name, base);
	tap_int_eq(bf_name_procs(name, len), procs, "procs part of '%s'",
	    name);
}

static void
key_check(const char *name, const char *key, const char *want)
{
	const char	*v;
	size_t		 vlen;
	int		 found;
	char		*got;

	found = bf_name_key(name, strlen(name), key, strlen(key), &v, &vlen);
	got = found ? xstrndup(v, vlen) : xstrdup("(absent)");
	tap_str_eq(got, want, "%s of '%s'", key, name);
	free(got);
}

static void
test_names(void)
{
	name_check("Encode/format=json-48", "Encode", 3);
	name_check("Odd/a=b=c/x=-16", "Odd", 3);
	name_check("Dash-name-x-16", "Dash-name-x", 3);
	name_check("Trailing/-16", "Trailing", 3);
	name_check("NoProcs", "NoProcs", 0);
	name_check("Minus-", "Minus-", 0);
	name_check("-5", "", 2);
	name_check("", "", 0);
	key_check("Encode/format=json-48", "/format", "json");
	key_check("Encode/format=json-48", "/gomaxprocs", "48");
	key_check("Encode/gomaxprocs=4/x=1", "/gomaxprocs", "4");
	key_check("Encode/format=json-48", "/form", "(absent)");
	key_check("Odd/a=b=c/x=-16", "/a", "b=c");
	key_check("Odd/a=b=c/x=-16", "/x", "");
	key_check("format=json/y=2", "/format", "(absent)");
	key_check("A/k=1/k=2", "/k", "1");
}

/* Streamed in any chunk size, the reader reads the same. */
static void
test_chunks(void)
{
	static const size_t	 sizes[] = { 1, 2, 7, 64, 4096 };
	struct strbuf		 t = STRBUF_INIT;
	char			*want, *werr, *got, *gerr;
	size_t			 i;
	int			 wrc, grc;

	strbuf_adds(&t, "goos: linux\r\nUnit ns/op assume=exact\n"
	    "BenchmarkA-8 10 5 ns/op 3 B/op\r\nbad line\npkg: x\n"
	    "BenchmarkA-8 x 5 ns/op\nUnit B/op a=1 a=2\ngoos:\n");
	for (i = 0; i < 300; i++)
		strbuf_addf(&t, "BenchmarkB/n=%zu-4 1 %zu.5 ns/op\n", i, i);
	strbuf_adds(&t, "BenchmarkLast 1 7 MB/s");	/* no newline */
	want = read_all("c.txt", "c", t.buf, NULL, &werr, &wrc);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		got = read_chunks("c.txt", "c", t.buf, NULL, &gerr, &grc,
		    sizes[i]);
		tap_ok(strcmp(got, want) == 0 && strcmp(gerr, werr) == 0 &&
		    grc == wrc, "chunks of %zu bytes read the same", sizes[i]);
		free(got);
		free(gerr);
	}
	tap_ok(strstr(want, "BenchmarkLast") == NULL &&
	    strstr(want, ":Last|") != NULL, "the last line without newline");
	free(want);
	free(werr);
	/* A line over the limit is fatal when streamed, too. */
	strbuf_reset(&t);
	strbuf_adds(&t, "BenchmarkA 1 5 ns/op\n");
	for (i = 0; i < 70000; i++)
		strbuf_addc(&t, 'x');
	strbuf_adds(&t, "\nBenchmarkB 1 5 ns/op\n");
	want = read_all("c.txt", "c", t.buf, NULL, &werr, &wrc);
	got = read_chunks("c.txt", "c", t.buf, NULL, &gerr, &grc, 65536);
	tap_ok(strcmp(got, want) == 0 && strcmp(gerr, werr) == 0 &&
	    grc == wrc && wrc < 0 && strstr(gerr, "c.txt:1: bufio.Scanner: "
	    "token too long") != NULL, "a 70000-byte line streamed: %s", gerr);
	free(want);
	free(werr);
	free(got);
	free(gerr);
	/*
	 * Skipping them (gobench): the line is left out, counted as a line,
	 * and the results around it read, whatever the chunks (a 65536-byte
	 * chunk holds no newline of the long line: skipped as it streams).
	 */
	skip_long = 1;
	{
		static const size_t	 ks[] = {
			0, 1, 4096, 65536, 100000
		};

		for (i = 0; i < ARRAY_SIZE(ks); i++) {
			got = read_chunks("c.txt", "c", t.buf, NULL, &gerr,
			    &grc, ks[i]);
			tap_ok(grc == 0 && strcmp(gerr, "") == 0 &&
			    strcmp(got, "1:c:A||5.0000000000000001e-09 "
			    "sec/op(5 ns/op)\n3:c:B||5.0000000000000001e-09 "
			    "sec/op(5 ns/op)\n") == 0,
			    "a 70000-byte line skipped, in chunks of %zu: "
			    "%s%s", ks[i], got, gerr);
			free(got);
			free(gerr);
		}
	}
	skip_long = 0;
	strbuf_release(&t);
}

/* NUL bytes are data: pooled strings carry their length (Go keeps them). */
static void
test_nul_bytes(void)
{
	static const char	 text[] = "note: ab\0cd\n"
	    "Unit x\0y assume=exact\n"
	    "BenchmarkA\0B/k=v\0w 1 5 x\0y 7 x\n";
	struct strpool		*p = strpool_new();
	const char		*a, *b, *c;
	struct bf_units		*u = bf_units_new();
	struct bf_reader	*r;
	const struct bf_result	*res;
	const char		*v;
	char			*cause = NULL;

	a = strpool_intern(p, "a\0b", 3);
	b = strpool_intern(p, "a", 1);
	c = strpool_intern(p, "a\0b", 3);
	tap_ok(a == c && a != b,
	    "strpool: \"a\\0b\" and \"a\" are two strings");
	tap_int_eq((int)strpool_len(a), 3, "strpool: length kept past NUL");
	tap_ok(strpool_cmp(b, a) < 0 && strpool_cmp(a, b) > 0 &&
	    strpool_cmp(a, c) == 0, "strpool: byte order, prefix first");
	tap_int_eq((int)strpool_len(strpool_copy(p, "x\0", 2)), 2,
	    "strpool: copies carry their length");
	strpool_free(p);

	r = bf_reader_new("n.txt", "n.txt", text, sizeof(text) - 1, u);
	tap_int_eq(bf_reader_next(r, &res, &cause), 1, "nul: one result");
	tap_ok(res->nconfig == 1 && strpool_len(res->config[0].value) == 5 &&
	    memcmp(res->config[0].value, "ab\0cd", 5) == 0,
	    "nul: config value keeps its NUL");
	tap_ok(res->name_len == 9 && memcmp(res->name, "A\0B/k=v\0w", 9) == 0,
	    "nul: name keeps its NUL");
	tap_ok(bf_name_key(res->name, res->name_len, "/k", 2, &v, &(size_t){0})
	    == 1 && memcmp(v, "v\0w", 3) == 0, "nul: sub-benchmark value");
	tap_ok(res->nvalues == 2 && strpool_len(res->values[0].unit) == 3 &&
	    memcmp(res->values[0].unit, "x\0y", 3) == 0 &&
	    res->values[0].unit != res->values[1].unit,
	    "nul: \"x\\0y\" is a unit of its own, not \"x\"");
	v = bf_units_get(u, "x\0y", 3, "assume");
	tap_ok(v != NULL && strcmp(v, "exact") == 0,
	    "nul: Unit metadata keyed by the whole unit");
	tap_ok(bf_units_get(u, "x", 1, "assume") == NULL,
	    "nul: not by its prefix");
	bf_reader_free(r);
	bf_units_free(u);
}

int
main(void)
{
	test_config();
	test_bench_lines();
	test_units();
	test_long_lines();
	test_names();
	test_chunks();
	test_nul_bytes();
	return tap_done();
}
