/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target of the benchfmt reader, the query parsers, Go's regexps
 * and the whole `abbench stat` pipeline behind them.  The input is split
 * into lines 1 and 2 (a -filter and a -row expression) and the rest
 * (benchfmt text); the bytes of line 2 also pick the other flags (-col,
 * -table, -ignore, -alpha, -confidence with NaN, 0, 1 and tiny values,
 * -format), and line 1 is compiled as a regexp on its own and matched
 * against every line of the text.  Nothing may crash, leak or trip a
 * sanitizer, and:
 *   - every syntax error starts with "fuzz.txt:LINE: " with LINE growing;
 *   - results come in line order, each with >= 1 value, a name of
 *     name_len bytes and unique (interned) config keys;
 *   - a fatal error is "fuzz.txt:N: bufio.Scanner: token too long";
 *   - query errors render as "syntax error: ...\n\tQUERY\n\t   ^";
 *   - a regexp either compiles or fails with "error parsing regexp: ",
 *     its program stays within Go's size budget, and matching is
 *     deterministic;
 *   - the pipeline exits 0, or 2 where Go's benchstat panics.
 *
 * tests/integration/t0310-fuzz-benchfmt.sh builds and runs it for 20 s in
 * `make check`.  A longer run, from the source directory:
 *
 *   S=stats G=lib/goregexp
 *   clang -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined \
 *       -I. tests/fuzz/fuzz-benchfmt.c lib/util.c lib/jsonw.c $S/strpool.c \
 *       $G/uniprop.c $G/unitab.c $S/benchfmt.c $S/benchunit.c \
 *       $S/gomath.c $G/goregexp.c $G/goregexp-parse.c $G/goregexp-class.c \
 *       $S/query.c $S/benchproc.c \
 *       $S/benchtab.c $S/benchtab-render.c $S/benchtab-md.c \
 *       $S/benchstat.c $S/benchmath.c $S/quantile.c $S/utest.c \
 *       $S/texttab.c -ljansson -lm -o /tmp/fuzz-benchfmt
 *   mkdir -p /tmp/bf-corpus
 *   find tests/data/benchstat-vectors/vectors -name '*.txt' \
 *       -exec cp {} /tmp/bf-corpus/ ';'
 *   /tmp/fuzz-benchfmt -max_total_time=3600 -jobs=$(nproc) \
 *       -max_len=8192 -dict=tests/fuzz/benchfmt.dict /tmp/bf-corpus
 *
 * A crash leaves crash-* files to replay with `/tmp/fuzz-benchfmt crash-...`.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchstat.h"
#include "lib/goregexp/goregexp.h"
#include "stats/query.h"
#include "stats/strpool.h"

#define FUZZ_PATH "fuzz.txt"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz-benchfmt: invariant broken: %s\n", what);
		abort();
	}
}

/* Take one line (up to '\n'; NUL bytes cut it short) as a C string. */
static char *
fuzz_line(const char **p, size_t *len)
{
	const char	*nl = memchr(*p, '\n', *len);
	size_t		 n = nl != NULL ? (size_t)(nl - *p) : *len;
	char		*s = xstrndup(*p, n);

	*p += n + (nl != NULL);
	*len -= n + (nl != NULL);
	return s;
}

static void
fuzz_reader(const char *text, size_t len)
{
	struct bf_units		*units = bf_units_new();
	struct bf_reader	*r;
	const struct bf_result	*res;
	const char *const	*errs;
	char			*cause = NULL, *end;
	size_t			 n, i, j;
	long			 line, last_err = 0;
	int			 rc, last_line = 0;

	r = bf_reader_new(FUZZ_PATH, "fuzz", text, len, units);
	while ((rc = bf_reader_next(r, &res, &cause)) == 1) {
		fuzz_check(res->line > last_line, "results in line order");
		last_line = res->line;
		fuzz_check(res->nvalues >= 1, "a result has values");
		fuzz_check(res->name[res->name_len] == '\0', "name ends");
		for (i = 0; i < res->nconfig; i++)
			for (j = i + 1; j < res->nconfig; j++)
				fuzz_check(res->config[i].key !=
				    res->config[j].key,
				    "config keys are unique");
		/* Pooled strings carry their length (NUL bytes kept). */
		for (i = 0; i < res->nconfig; i++)
			fuzz_check(strpool_len(res->config[i].value) > 0 &&
			    res->config[i].value[strpool_len(
			    res->config[i].value)] == '\0',
			    "a config value has its length");
		for (i = 0; i < res->nvalues; i++)
			fuzz_check(strpool_len(res->values[i].orig_unit) > 0,
			    "a unit is not empty");
		for (i = 0; i < res->nvalues; i++)
			fuzz_check(res->values[i].unit != NULL &&
			    res->values[i].orig_unit != NULL &&
			    (res->values[i].unit == res->values[i].orig_unit ||
			    res->values[i].value != res->values[i].orig_value),
			    "a tidied value has a new unit");
		errs = bf_reader_errors(r, &n);
		for (i = 0; i < n; i++) {
			fuzz_check(strncmp(errs[i], FUZZ_PATH ":",
			    strlen(FUZZ_PATH ":")) == 0, "error has path");
			line = strtol(errs[i] + strlen(FUZZ_PATH ":"), &end,
			    10);
			fuzz_check(line >= last_err && line <= last_line &&
			    *end == ':', "error line numbers grow");
			last_err = line;
		}
		bf_reader_clear_errors(r);
	}
	if (rc < 0) {
		fuzz_check(cause != NULL && strstr(cause,
		    ": bufio.Scanner: token too long") != NULL,
		    "fatal error is the line limit");
		free(cause);
	} else
		fuzz_check(rc == 0 && cause == NULL, "clean end");
	bf_reader_free(r);
	bf_units_free(units);
}

static void
fuzz_query(const char *q)
{
	struct query_filter	*f = NULL;
	struct query_field	*fields = NULL;
	struct query_error	 e;
	size_t			 n = 0;
	char			*s;

	if (query_parse_filter(q, &f, &e) < 0) {
		s = query_error_string(&e);
		fuzz_check(strncmp(s, "syntax error: ", 14) == 0 &&
		    strchr(s, '^') != NULL, "filter error text");
		free(s);
		query_error_release(&e);
	} else
		fuzz_check(f != NULL, "filter tree");
	query_filter_free(f);
	if (query_parse_projection(q, &fields, &n, &e) < 0) {
		s = query_error_string(&e);
		fuzz_check(strncmp(s, "syntax error: ", 14) == 0,
		    "projection error text");
		free(s);
		query_error_release(&e);
	} else
		query_fields_free(fields, n);
}

/* Line 1 as a regexp, against each line of the text (bounded). */
static void
fuzz_regexp(const char *re, size_t relen, const char *text, size_t len)
{
	struct goregexp	*g;
	char		*msg = NULL;
	const char	*p = text, *nl;
	size_t		 n, lines = 0;
	int		 m1, m2;

	if ((g = goregexp_compile(re, relen, &msg)) == NULL) {
		fuzz_check(msg != NULL && strncmp(msg,
		    "error parsing regexp: ", 22) == 0, "regexp error text");
		free(msg);
		return;
	}
	fuzz_check(goregexp_size(g) <= 2 * (128 << 20) / 40,
	    "program within Go's size budget");
	while (len > 0 && lines++ < 64) {
		nl = memchr(p, '\n', len);
		n = nl != NULL ? (size_t)(nl - p) : len;
		m1 = goregexp_match(g, p, n);
		m2 = goregexp_match(g, p, n);
		fuzz_check(m1 == m2 && (m1 == 0 || m1 == 1),
		    "matching is deterministic");
		p += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	goregexp_free(g);
}

static const double fuzz_levels[] = {
	0.95, 0.05, 0, 1, NAN, 0.5, 1e-300, 0.999999, -0.0, 0.1, 0.99, 0.9,
	INFINITY, 0.3, 0.7, 0.01,
};

static const char *const fuzz_projs[] = {
	".config", ".file", ".name", ".unit", "goos", "/format",
	".fullname", "", "pkg", ".name@alpha", ".file@num", "/gomaxprocs",
};

/* Input "a" of text[0..len) fed in pieces of chunk bytes, as cmd-stat does. */
static int
fuzz_stream(struct benchstat *bs, const char *text, size_t len,
    size_t chunk, char **cause)
{
	struct benchstat_input	*in = benchstat_input_new(bs, "a", FUZZ_PATH);
	char			*buf = xmalloc(len + 1);
	size_t			 have = 0, off = 0, take, used;
	int			 rc, eof;

	for (;;) {
		take = len - off < chunk ? len - off : chunk;
		memcpy(buf + have, text + off, take);
		have += take;
		off += take;
		eof = off == len;
		rc = benchstat_input_feed(in, buf, have, eof, &used, cause);
		if (rc < 0 || eof)
			break;
		fuzz_check(used <= have, "a feed takes what it was given");
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	free(buf);
	benchstat_input_free(in);
	return rc;
}

/* One input, whole (chunk 0) or streamed: its output and messages. */
static void
fuzz_render(const struct benchstat_opts *o, const char *text, size_t len,
    size_t chunk, struct strbuf *out, struct strbuf *err)
{
	struct benchstat	*bs;
	char			*cause = NULL;
	int			 rc;

	bs = benchstat_new(o, &cause);
	fuzz_check(bs != NULL, "valid options stay valid");
	rc = chunk == 0 ? benchstat_add(bs, "a", FUZZ_PATH, text, len,
	    &cause) : fuzz_stream(bs, text, len, chunk, &cause);
	if (rc < 0) {
		benchstat_take_stderr(bs, err);
		strbuf_adds(err, cause);
		free(cause);
	} else
		benchstat_finish(bs, out, err);
	benchstat_free(bs);
}

static void
fuzz_pipeline(const char *filter, const char *row, const char *text,
    size_t len, int csv)
{
	struct benchstat_opts	 o;
	struct benchstat	*bs;
	struct strbuf		 out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf		 out2 = STRBUF_INIT, err2 = STRBUF_INIT;
	char			*cause = NULL;
	size_t			 rl = strlen(row);
	unsigned		 h = 0;
	int			 rc = 0;

	/* The flags follow from the bytes of line 2. */
	while (rl-- > 0)
		h = h * 31 + (unsigned char)row[rl];
	benchstat_opts_init(&o);
	o.filter = filter;
	o.row = row[0] != '\0' ? row : ".fullname";
	o.format = csv ? "csv" : "text";
	if (h & 1)
		o.confidence = fuzz_levels[(h >> 1) % ARRAY_SIZE(fuzz_levels)];
	if (h & 32)
		o.alpha = fuzz_levels[(h >> 6) % ARRAY_SIZE(fuzz_levels)];
	if (h & 1024)
		o.col = fuzz_projs[(h >> 11) % ARRAY_SIZE(fuzz_projs)];
	if (h & (1u << 15))
		o.table = fuzz_projs[(h >> 16) % ARRAY_SIZE(fuzz_projs)];
	if (h & (1u << 20))
		o.ignore = fuzz_projs[(h >> 21) % ARRAY_SIZE(fuzz_projs)];
	if ((bs = benchstat_new(&o, &cause)) == NULL) {
		fuzz_check(cause != NULL, "option error has a message");
		free(cause);
		return;
	}
	if (benchstat_add(bs, "a", FUZZ_PATH, text, len, &cause) < 0) {
		free(cause);
	} else if (benchstat_add(bs, "b", FUZZ_PATH, text, len / 2,
	    &cause) < 0) {
		free(cause);
	} else {
		rc = benchstat_finish(bs, &out, &err);
		fuzz_check(rc == 0 || (rc == 2 && out.len == 0 &&
		    strstr(err.buf, "panic: ") != NULL),
		    "finish: 0, or 2 with Go's panic");
	}
	benchstat_free(bs);

	/*
	 * Streamed in pieces of 1 to 64 bytes, input "a" gives the same
	 * tables, messages and fatal error as when handed over whole.
	 */
	strbuf_reset(&out);
	strbuf_reset(&err);
	fuzz_render(&o, text, len, 0, &out, &err);
	fuzz_render(&o, text, len, 1 + (h >> 26) % 64, &out2, &err2);
	fuzz_check(out.len == out2.len && err.len == err2.len &&
	    (out.len == 0 || memcmp(out.buf, out2.buf, out.len) == 0) &&
	    (err.len == 0 || memcmp(err.buf, err2.buf, err.len) == 0),
	    "a streamed input reads as the whole buffer");

	/*
	 * A NUL byte is data (Go strings keep it): with every NUL of the
	 * input made \x01, which nothing tells apart from NUL but its value
	 * (next to it in byte order, neither space nor separator, one rune),
	 * the output is the same with \x01 made NUL again.  Only when the
	 * flags cannot name either byte (no escapes, no raw \x01).
	 */
	if (memchr(text, '\0', len) != NULL && memchr(text, 1, len) == NULL &&
	    strpbrk(filter, "\\\x01") == NULL &&
	    strpbrk(row, "\\\x01") == NULL) {
		char	*t1 = xmalloc(len);
		size_t	 i;

		for (i = 0; i < len; i++)
			t1[i] = text[i] == '\0' ? 1 : text[i];
		strbuf_reset(&out2);
		strbuf_reset(&err2);
		fuzz_render(&o, t1, len, 0, &out2, &err2);
		for (i = 0; i < out2.len; i++)
			if (out2.buf[i] == 1)
				out2.buf[i] = '\0';
		for (i = 0; i < err2.len; i++)
			if (err2.buf[i] == 1)
				err2.buf[i] = '\0';
		fuzz_check(out.len == out2.len && err.len == err2.len &&
		    (out.len == 0 || memcmp(out.buf, out2.buf, out.len) ==
		    0) && (err.len == 0 || memcmp(err.buf, err2.buf,
		    err.len) == 0), "a NUL byte reads as any other byte");
		free(t1);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&out2);
	strbuf_release(&err2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*p = (const char *)data;
	size_t		 len = size;
	char		*filter, *row, *text;
	const char	*nl = memchr(data, '\n', size);

	/* The reader on the raw bytes, then the split input. */
	fuzz_reader(p, len);
	filter = fuzz_line(&p, &len);
	row = fuzz_line(&p, &len);
	if (len < 4096)
		fuzz_regexp((const char *)data, nl != NULL ?
		    (size_t)(nl - (const char *)data) : size, p, len);
	fuzz_query(filter);
	fuzz_query(row);
	/* A copy of exactly len bytes, so that ASan sees over-reads. */
	text = xmalloc(len ? len : 1);
	memcpy(text, p, len);
	if (len < 4096)
		fuzz_pipeline(filter, row, text, len, size & 1);
	free(text);
	free(filter);
	free(row);
	return 0;
}
