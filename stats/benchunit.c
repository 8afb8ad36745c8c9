/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tidying, unit classes and common-scale formatting, ported from
 * x/perf benchunit (tidy.go, parse.go, scale.go).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchunit.h"
#include "stats/gomath.h"

/*
 * Length of the Unicode white-space rune (unicode.IsSpace) starting at s,
 * or 0.  Matching the UTF-8 byte patterns is equivalent to decoding first,
 * because UTF-8 is self-synchronizing and all of these are valid sequences.
 */
static size_t
space_len(const unsigned char *s, size_t rem)
{
	if (rem >= 1 && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')))
		return 1;
	if (rem >= 2 && s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;
	if (rem < 3)
		return 0;
	if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] <= 0x8a || s[2] == 0xa8 ||
	    s[2] == 0xa9 || s[2] == 0xaf) && s[2] >= 0x80)
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
		return 3;
	if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return 3;
	return 0;
}

/* The unit tokenizer of benchunit/parse.go. */
struct unit_parser {
	const unsigned char	*s;
	size_t			 len;
	size_t			 pos;	/* next unread byte */
	size_t			 tok;	/* current token: offset and length */
	size_t			 toklen;
	int			 denom;
};

static int
unit_parser_next(struct unit_parser *p)
{
	size_t	n;

	for (;;) {
		if (p->pos >= p->len)
			return 0;
		if (p->s[p->pos] == '*') {
			p->denom = 0;
			p->pos++;
		} else if (p->s[p->pos] == '/') {
			p->denom = 1;
			p->pos++;
		} else if (p->s[p->pos] == '-')
			p->pos++;
		else if ((n = space_len(p->s + p->pos, p->len - p->pos)) > 0)
			p->pos += n;
		else
			break;
	}
	p->tok = p->pos;
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c == '*' || c == '/' || c == '-' ||
		    space_len(p->s + p->pos, p->len - p->pos) > 0)
			break;
		p->pos++;
	}
	p->toklen = p->pos - p->tok;
	return 1;
}

static int
unit_parser_tok_is(const struct unit_parser *p, const char *word)
{
	size_t	n = strlen(word);

	return p->toklen == n && memcmp(p->s + p->tok, word, n) == 0;
}

/*
 * Tidy unit[0..len) into out (reset first); the unit may hold NUL bytes.
 */
void
unit_tidy_n(const char *unit, size_t len, double *factor, struct strbuf *out)
{
	struct unit_parser	 p;
	size_t			 last = 0;

	*factor = 1;
	strbuf_reset(out);
	strbuf_add(out, "", 0);
	if (len == 5 && memcmp(unit, "ns/op", 5) == 0) {
		*factor = 1e-9;
		strbuf_adds(out, "sec/op");
		return;
	}
	if (len == 4 && memcmp(unit, "MB/s", 4) == 0) {
		*factor = 1e6;
		strbuf_adds(out, "B/s");
		return;
	}
	if (memmem(unit, len, "ns", 2) == NULL &&
	    memmem(unit, len, "MB", 2) == NULL) {
		strbuf_add(out, unit, len);
		return;
	}

	memset(&p, 0, sizeof(p));
	p.s = (const unsigned char *)unit;
	p.len = len;
	while (unit_parser_next(&p)) {
		if (p.denom)
			continue;
		if (unit_parser_tok_is(&p, "ns")) {
			strbuf_add(out, unit + last, p.tok - last);
			strbuf_adds(out, "sec");
			last = p.tok + p.toklen;
			*factor /= 1e9;
		} else if (unit_parser_tok_is(&p, "MB")) {
			strbuf_add(out, unit + last, p.tok - last);
			strbuf_adds(out, "B");
			last = p.tok + p.toklen;
			*factor *= 1e6;
		}
	}
	strbuf_add(out, unit + last, len - last);
}

char *
unit_tidy(const char *unit, double *factor)
{
	struct strbuf	sb = STRBUF_INIT;

	unit_tidy_n(unit, strlen(unit), factor, &sb);
	return strbuf_detach(&sb);
}

enum unit_class
unit_class_of_n(const char *unit, size_t len)
{
	struct unit_parser	p;

	memset(&p, 0, sizeof(p));
	p.s = (const unsigned char *)unit;
	p.len = len;
	while (unit_parser_next(&p)) {
		if (!p.denom && (unit_parser_tok_is(&p, "B") ||
		    unit_parser_tok_is(&p, "MB") ||
		    unit_parser_tok_is(&p, "bytes")))
			return UNIT_BINARY;
	}
	return UNIT_DECIMAL;
}

enum unit_class
unit_class_of(const char *unit)
{
	return unit_class_of_n(unit, strlen(unit));
}

struct scale_factor {
	double		 factor;
	const char	*prefix;
	double		 t100, t10, t1;	/* thresholds for 100.0, 10.00, 1.000 */
};

/*
 * Go builds these by parsing "99.995e%d" etc.; the C compiler rounds the
 * same literals correctly, so the doubles are identical.
 */
static const struct scale_factor si_factors[] = {
	{ 1e12, "T", 99.995e12, 9.9995e12, .99995e12 },
	{ 1e9, "G", 99.995e9, 9.9995e9, .99995e9 },
	{ 1e6, "M", 99.995e6, 9.9995e6, .99995e6 },
	{ 1e3, "k", 99.995e3, 9.9995e3, .99995e3 },
	{ 1, "", 99.995e0, 9.9995e0, .99995e0 },
	{ 1e-3, "m", 99.995e-3, 9.9995e-3, .99995e-3 },
	{ 1e-6, "\xc2\xb5", 99.995e-6, 9.9995e-6, .99995e-6 },
	{ 1e-9, "n", 99.995e-9, 9.9995e-9, .99995e-9 },
};

static const struct scale_factor iec_factors[] = {
	{ 0x1p40, "Ti", 0x1.8ffae147ae148p46, 0x1.3ffbe76c8b439p43,
	    0x1.fff972474538fp39 },
	{ 0x1p30, "Gi", 0x1.8ffae147ae148p36, 0x1.3ffbe76c8b439p33,
	    0x1.fff972474538fp29 },
	{ 0x1p20, "Mi", 0x1.8ffae147ae148p26, 0x1.3ffbe76c8b439p23,
	    0x1.fff972474538fp19 },
	{ 0x1p10, "Ki", 0x1.8ffae147ae148p16, 0x1.3ffbe76c8b439p13,
	    0x1.fff972474538fp9 },
	{ 1, "", 0x1.8ffae147ae148p6, 0x1.3ffbe76c8b439p3,
	    0x1.fff972474538fp-1 },
};

/* Thresholds for 3..10 digits after the decimal point. */
static const double sigfigs[] = {
	9.9995e-1, 9.9995e-2, 9.9995e-3, 9.9995e-4,
	9.9995e-5, 9.9995e-6, 9.9995e-7, 9.9995e-8,
};

void
scaler_common(const double *vals, size_t n, enum unit_class cls,
    struct scaler *out)
{
	const struct scale_factor	*factors, *f;
	size_t				 nfactors, i;
	double				 min = 0, v, val;

	for (i = 0; i < n; i++) {
		v = fabs(vals[i]);
		/* A NaN seen while min is 0 sticks, as in Go. */
		if (v != 0 && (min == 0 || v < min))
			min = v;
	}
	if (min == 0) {
		out->prec = 3;
		out->factor = 1;
		out->prefix = "";
		return;
	}
	if (cls == UNIT_BINARY) {
		factors = iec_factors;
		nfactors = sizeof(iec_factors) / sizeof(iec_factors[0]);
	} else {
		factors = si_factors;
		nfactors = sizeof(si_factors) / sizeof(si_factors[0]);
	}
	for (i = 0; i < nfactors; i++) {
		f = &factors[i];
		out->factor = f->factor;
		out->prefix = f->prefix;
		if (min >= f->t100) {
			out->prec = 1;
			return;
		}
		if (min >= f->t10) {
			out->prec = 2;
			return;
		}
		if (min >= f->t1) {
			out->prec = 3;
			return;
		}
	}
	f = &factors[nfactors - 1];
	val = min / f->factor;
	out->factor = f->factor;
	out->prefix = f->prefix;
	for (i = 0; i < sizeof(sigfigs) / sizeof(sigfigs[0]); i++) {
		if (val >= sigfigs[i])
			break;
	}
	if (i == sizeof(sigfigs) / sizeof(sigfigs[0]))
		i--;
	out->prec = 3 + (int)i;
}

void
scaler_format(const struct scaler *sc, double v, char *buf, size_t len)
{
	char	num[400];

	go_format_f(v / sc->factor, sc->prec, num, sizeof(num));
	snprintf(buf, len, "%s%s", num, sc->prefix);
}
