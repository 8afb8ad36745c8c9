/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The benchfmt reader (x/perf benchfmt/reader.go semantics, spec §2):
 * splits a buffer into lines like bufio.Scanner, classifies each line as a
 * benchmark result, a Unit metadata line or a configuration line, and
 * keeps the file configuration with benchstat's swap-on-delete order.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchunit.h"
#include "stats/gomath.h"
#include "stats/strpool.h"
#include "lib/goregexp/uniprop.h"

/*
 * BF_MAX_LINE (benchfmt.h): longer lines are a fatal error, as in
 * bufio.Scanner, unless skip_long.
 */

struct bf_unit_entry {
	const char	*unit;		/* tidied */
	const char	*key;
	const char	*value;
};

struct bf_units {
	struct strpool		*pool;
	struct bf_unit_entry	*v;
	size_t			 n;
	size_t			 cap;
};

/* Cache of unit tidying: original unit -> tidied unit and factor. */
struct bf_tidy {
	const char	*orig;		/* interned in the reader pool */
	const char	*tidied;
	double		 factor;
};

struct bf_reader {
	const char		*data;
	size_t			 len;
	size_t			 pos;
	int			 line;
	int			 done;
	int			 more;		/* bf_reader_feed: more to come */
	int			 skip_long;	/* skip lines too long */
	int			 skipping;	/* inside one, to its \n */

	struct strpool		*pool;
	struct bf_units		*units;
	int			 own_units;

	struct bf_config	*config;
	size_t			 nconfig;
	size_t			 capconfig;

	struct bf_value		*values;
	size_t			 nvalues;
	size_t			 capvalues;
	size_t			 nunits;	/* values[i].orig_unit set */

	char			*name;
	size_t			 capname;

	struct bf_tidy		*tidy;		/* open-addressed by pointer */
	size_t			 ntidy;
	size_t			 captidy;	/* power of two */

	struct strvec		 errors;
	size_t			*errlen;	/* lengths of errors.v[] */
	size_t			 caperrlen;
	struct bf_result	 result;
};

/* --- unit metadata ------------------------------------------------- */

struct bf_units *
bf_units_new(void)
{
	struct bf_units	*u = xcalloc(1, sizeof(*u));

	u->pool = strpool_new();
	return u;
}

void
bf_units_free(struct bf_units *u)
{
	if (u == NULL)
		return;
	strpool_free(u->pool);
	free(u->v);
	free(u);
}

static int
bf_bytes_eq(const char *pooled, const char *s, size_t len)
{
	return strpool_len(pooled) == len && memcmp(pooled, s, len) == 0;
}

static struct bf_unit_entry *
bf_units_find(const struct bf_units *u, const char *unit, size_t unitlen,
    const char *key, size_t keylen)
{
	size_t	i;

	for (i = 0; i < u->n; i++)
		if (bf_bytes_eq(u->v[i].unit, unit, unitlen) &&
		    bf_bytes_eq(u->v[i].key, key, keylen))
			return &u->v[i];
	return NULL;
}

const char *
bf_units_get(const struct bf_units *u, const char *unit, size_t unitlen,
    const char *key)
{
	struct bf_unit_entry	*e = bf_units_find(u, unit, unitlen, key,
				    strlen(key));

	return e != NULL ? e->value : NULL;
}

size_t
bf_units_count(const struct bf_units *u)
{
	return u->n;
}

int
bf_units_entry(const struct bf_units *u, size_t i, const char **unit,
    const char **key, const char **value)
{
	if (i >= u->n)
		return -1;
	*unit = u->v[i].unit;
	*key = u->v[i].key;
	*value = u->v[i].value;
	return 0;
}

/* --- reader ---------------------------------------------------------- */

unsigned long	bf_text_lines;

struct bf_reader *
bf_reader_new(const char *path, const char *label, const char *data,
    size_t len, struct bf_units *units)
{
	struct bf_reader	*r = xcalloc(1, sizeof(*r));

	r->data = data;
	r->len = len;
	r->pool = strpool_new();
	if (units == NULL) {
		units = bf_units_new();
		r->own_units = 1;
	}
	r->units = units;
	r->result.path = strpool_interns(r->pool, path != NULL &&
	    *path != '\0' ? path : "<unknown>");
	r->result.label = strpool_interns(r->pool, label != NULL ? label :
	    "");
	r->captidy = 16;
	r->tidy = xcalloc(r->captidy, sizeof(*r->tidy));
	return r;
}

void
bf_reader_free(struct bf_reader *r)
{
	if (r == NULL)
		return;
	if (r->own_units)
		bf_units_free(r->units);
	strpool_free(r->pool);
	free(r->config);
	free(r->values);
	free(r->name);
	free(r->tidy);
	strvec_clear(&r->errors);
	free(r->errlen);
	free(r);
}

const char *const *
bf_reader_errors(const struct bf_reader *r, size_t *n)
{
	*n = r->errors.n;
	return (const char *const *)r->errors.v;
}

void
bf_reader_clear_errors(struct bf_reader *r)
{
	strvec_clear(&r->errors);
}

size_t
bf_reader_error_len(const struct bf_reader *r, size_t i)
{
	return r->errlen[i];
}

/* Record "PATH:LINE: MSG"; msg[0..len) may hold NUL bytes (a unit). */
static void
bf_errorn(struct bf_reader *r, const char *msg, size_t len)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%d: ", r->result.path, r->line);
	strbuf_add(&sb, msg, len);
	if (r->errors.n + 1 > r->caperrlen) {
		r->caperrlen = r->errors.n + 16;
		r->errlen = xreallocarray(r->errlen, r->caperrlen,
		    sizeof(*r->errlen));
	}
	r->errlen[r->errors.n] = sb.len;
	strvec_push_nodup(&r->errors, strbuf_detach(&sb));
}

static void
bf_error(struct bf_reader *r, const char *msg)
{
	bf_errorn(r, msg, strlen(msg));
}

/*
 * The class of a byte for bf_split_field: 1 an ASCII space (Go's
 * unicode.IsSpace below 0x80), 2 the start of a multi-byte rune (or a
 * stray byte), 0 anything else.
 */
static const unsigned char bf_byte_class[256] = {
	['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
#define BF_HI8(b) [b] = 2, [b + 1] = 2, [b + 2] = 2, [b + 3] = 2, \
	[b + 4] = 2, [b + 5] = 2, [b + 6] = 2, [b + 7] = 2
#define BF_HI32(b) BF_HI8(b), BF_HI8(b + 8), BF_HI8(b + 16), BF_HI8(b + 24)
	BF_HI32(0x80), BF_HI32(0xa0), BF_HI32(0xc0), BF_HI32(0xe0),
#undef BF_HI32
#undef BF_HI8
};

/* The first byte in [q, end) whose class is not cls. */
static const unsigned char *
bf_skip_class(const unsigned char *q, const unsigned char *end,
    unsigned char cls)
{
	while (end - q >= 4) {
		if (bf_byte_class[q[0]] != cls)
			return q;
		if (bf_byte_class[q[1]] != cls)
			return q + 1;
		if (bf_byte_class[q[2]] != cls)
			return q + 2;
		if (bf_byte_class[q[3]] != cls)
			return q + 3;
		q += 4;
	}
	while (q < end && bf_byte_class[*q] == cls)
		q++;
	return q;
}

/*
 * splitField: returns the run of non-space bytes at *s (length *flen) and
 * advances *s / *len past it and the whitespace after it.  ASCII bytes are
 * classed by a table; a byte of 0x80 and above is decoded as a rune.
 */
static const char *
bf_split_field(const char **s, size_t *len, size_t *flen)
{
	const unsigned char	*p = (const unsigned char *)*s;
	const unsigned char	*q = p, *end = p + *len;
	size_t			 n;

	for (;;) {
		q = bf_skip_class(q, end, 0);
		if (q == end || bf_byte_class[*q] == 1 ||
		    uni_is_space(uni_decode((const char *)q, end - q, &n)))
			break;
		q += n;
	}
	*flen = q - p;
	/* Skip the separator and the whitespace after it. */
	for (;;) {
		q = bf_skip_class(q, end, 1);
		if (q == end || bf_byte_class[*q] == 0 ||
		    (n = uni_space_len((const char *)q, end - q)) == 0)
			break;
		q += n;
	}
	*s = (const char *)q;
	*len = end - q;
	return (const char *)p;
}

static void
bf_config_set(struct bf_reader *r, const char *key, const char *value)
{
	size_t	i;

	for (i = 0; i < r->nconfig; i++) {
		if (r->config[i].key == key) {
			r->config[i].value = value;
			return;
		}
	}
	XGROW(r->config, r->nconfig, r->capconfig);
	r->config[r->nconfig].key = key;
	r->config[r->nconfig].value = value;
	r->nconfig++;
}

static void
bf_config_delete(struct bf_reader *r, const char *key)
{
	size_t	i;

	for (i = 0; i < r->nconfig; i++) {
		if (r->config[i].key == key) {
			/* Go swaps the last entry into the hole. */
			r->config[i] = r->config[r->nconfig - 1];
			r->nconfig--;
			return;
		}
	}
}

/* parseKeyValueLine; returns 1 for a configuration line. */
static int
bf_parse_kv(const char *s, size_t len, const char **key, size_t *keylen,
    const char **val, size_t *vallen)
{
	size_t		i = 0, n, klen = 0;
	uint32_t	rune;
	int		ok = 0;

	while (i < len) {
		rune = uni_decode(s + i, len - i, &n);
		if (i == 0 && !uni_is_lower(rune))
			return 0;
		if (uni_is_space(rune) || uni_is_upper(rune))
			return 0;
		if (i > 0 && rune == ':') {
			klen = i;
			break;
		}
		i += n;
	}
	if (klen == 0)
		return 0;
	*key = s;
	*keylen = klen;
	s += klen + 1;
	len -= klen + 1;
	if (len == 0) {
		*val = s;
		*vallen = 0;
		return 1;
	}
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
		ok = 1;
	}
	*val = s;
	*vallen = len;
	return ok;
}

static const struct bf_tidy *
bf_tidy_lookup(struct bf_reader *r, const char *unit)
{
	size_t		 j;
	struct bf_tidy	*t;
	struct strbuf	 tidied = STRBUF_INIT;

	j = ((uintptr_t)unit >> 3) * 0x9e3779b97f4a7c15ULL >> 7;
	for (;;) {
		j &= r->captidy - 1;
		t = &r->tidy[j];
		if (t->orig == unit)
			return t;
		if (t->orig == NULL)
			break;
		j++;
	}
	if ((r->ntidy + 1) * 2 > r->captidy) {
		struct bf_tidy	*old = r->tidy;
		size_t		 oldcap = r->captidy, i;

		r->captidy *= 2;
		r->tidy = xcalloc(r->captidy, sizeof(*r->tidy));
		for (i = 0; i < oldcap; i++) {
			if (old[i].orig == NULL)
				continue;
			j = ((uintptr_t)old[i].orig >> 3) *
			    0x9e3779b97f4a7c15ULL >> 7;
			while (r->tidy[j & (r->captidy - 1)].orig != NULL)
				j++;
			r->tidy[j & (r->captidy - 1)] = old[i];
		}
		free(old);
		return bf_tidy_lookup(r, unit);
	}
	t->orig = unit;
	unit_tidy_n(unit, strpool_len(unit), &t->factor, &tidied);
	t->tidied = strpool_intern(r->pool, tidied.buf, tidied.len);
	strbuf_release(&tidied);
	r->ntidy++;
	return t;
}

/* The next value of the result: v in the unit f[0..flen), tidied. */
static void
bf_add_value(struct bf_reader *r, double v, const char *f, size_t flen)
{
	const struct bf_tidy	*t;
	const char		*unit;
	struct bf_value		*val;

	XGROW(r->values, r->nvalues, r->capvalues);
	val = &r->values[r->nvalues];
	/* The unit of the same value of the previous line, or new. */
	if (r->nvalues < r->nunits &&
	    strpool_len(val->orig_unit) == flen &&
	    memcmp(val->orig_unit, f, flen) == 0)
		unit = val->orig_unit;
	else
		unit = strpool_intern(r->pool, f, flen);
	if (++r->nvalues > r->nunits)
		r->nunits = r->nvalues;
	t = bf_tidy_lookup(r, unit);
	val->orig_value = v;
	val->orig_unit = unit;
	val->value = v * t->factor;
	if (val->value == v) {
		/* QUIRK: an unchanged value keeps its unit (0 ns/op). */
		val->value = v;
		val->unit = unit;
	} else
		val->unit = t->tidied;
}

static void
bf_result_done(struct bf_reader *r)
{
	r->result.values = r->values;
	r->result.nvalues = r->nvalues;
	r->result.config = r->config;
	r->result.nconfig = r->nconfig;
	r->result.line = r->line;
}

/* Returns 0 for a result, 1 to skip silently, -1 after an error. */
static int
bf_parse_bench(struct bf_reader *r, const char *line, size_t len)
{
	const char		*f;
	size_t			 flen, namelen;
	double			 v;
	long long		 iters;
	int			 rc;

	line += 9;
	len -= 9;
	f = bf_split_field(&line, &len, &namelen);
	if (len == 0 && line == f + namelen)
		return 1;	/* "go test -v" prints the bare name */
	if (namelen + 1 > r->capname) {
		r->capname = namelen + 64;
		r->name = xrealloc(r->name, r->capname);
	}
	memcpy(r->name, f, namelen);
	r->name[namelen] = '\0';
	r->result.name = r->name;
	r->result.name_len = namelen;

	f = bf_split_field(&line, &len, &flen);
	if (flen == 0) {
		bf_error(r, "missing iteration count");
		return -1;
	}
	rc = go_atoi64(f, flen, &iters);
	if (rc != 0) {
		bf_error(r, rc == -2 ? "parsing iteration count: value out of "
		    "range" : "parsing iteration count: invalid syntax");
		return -1;
	}
	r->result.iters = iters;

	r->nvalues = 0;
	for (;;) {
		f = bf_split_field(&line, &len, &flen);
		if (flen == 0) {
			if (r->nvalues > 0)
				break;
			bf_error(r, "missing measurements");
			return -1;
		}
		rc = go_parse_float(f, flen, &v);
		if (rc != 0) {
			bf_error(r, rc == -2 ? "parsing measurement: value out "
			    "of range" : "parsing measurement: invalid syntax");
			return -1;
		}
		f = bf_split_field(&line, &len, &flen);
		if (flen == 0) {
			bf_error(r, "missing units");
			return -1;
		}
		bf_add_value(r, v, f, flen);
	}
	bf_result_done(r);
	return 0;
}

/* One key=value of a Unit line: unit as written, tidied its tidy form. */
static void
bf_unit_pair(struct bf_reader *r, const char *unit, const char *tidied,
    const char *k, size_t klen, const char *v, size_t vlen)
{
	struct bf_units		*u = r->units;
	struct bf_unit_entry	*e;
	struct strbuf		 msg = STRBUF_INIT;
	const char		*key, *value;

	key = strpool_intern(u->pool, k, klen);
	value = strpool_intern(u->pool, v, vlen);
	e = bf_units_find(u, tidied, strpool_len(tidied), key,
	    strpool_len(key));
	if (e != NULL) {
		if (e->value == value)
			return;
		strbuf_adds(&msg, "metadata ");
		strbuf_add(&msg, key, strpool_len(key));
		strbuf_adds(&msg, " of unit ");
		strbuf_add(&msg, unit, strpool_len(unit));
		strbuf_adds(&msg, " already set to ");
		strbuf_add(&msg, e->value, strpool_len(e->value));
		bf_errorn(r, msg.buf, msg.len);
		strbuf_release(&msg);
		return;
	}
	XGROW(u->v, u->n, u->cap);
	u->v[u->n].unit = strpool_intern(u->pool, tidied,
	    strpool_len(tidied));
	u->v[u->n].key = key;
	u->v[u->n].value = value;
	u->n++;
}

static void
bf_parse_unit_line(struct bf_reader *r, const char *line, size_t len)
{
	const char		*f, *unit, *tidied;
	size_t			 flen;
	const char		*eq;

	f = bf_split_field(&line, &len, &flen);
	if (flen == 0) {
		bf_error(r, "missing unit");
		return;
	}
	unit = strpool_intern(r->pool, f, flen);
	tidied = bf_tidy_lookup(r, unit)->tidied;
	for (;;) {
		f = bf_split_field(&line, &len, &flen);
		if (flen == 0)
			break;
		eq = memchr(f, '=', flen);
		if (eq == NULL || eq == f) {
			bf_error(r, "expected key=value");
			continue;
		}
		bf_unit_pair(r, unit, tidied, f, (size_t)(eq - f), eq + 1,
		    flen - (size_t)(eq - f) - 1);
	}
}

int
bf_reader_next(struct bf_reader *r, const struct bf_result **res,
    char **cause)
{
	const char	*line, *nl, *key, *val, *f, *rest;
	size_t		 len, keylen, vallen, flen, restlen;

	*res = NULL;
	while (!r->done && r->pos < r->len) {
		line = r->data + r->pos;
		nl = memchr(line, '\n', r->len - r->pos);
		len = nl != NULL ? (size_t)(nl - line) : r->len - r->pos;
		if (r->skipping) {
			/* The rest of a line too long, up to its newline. */
			r->pos += len + (nl != NULL);
			r->skipping = nl == NULL;
			continue;
		}
		if (nl == NULL && r->more && len < BF_MAX_LINE)
			return 2;	/* the rest of this line is to come */
		if (len >= BF_MAX_LINE && r->skip_long) {
			r->line++;
			r->pos += len + (nl != NULL);
			r->skipping = nl == NULL && r->more;
			continue;
		}
		if (len >= BF_MAX_LINE) {
			r->done = 1;
			return set_cause(cause, "%s:%d: bufio.Scanner: token "
			    "too long", r->result.path, r->line);
		}
		r->pos += len + (nl != NULL);
		r->line++;
		bf_text_lines++;
		if (len > 0 && line[len - 1] == '\r')
			len--;

		if (len >= 9 && memcmp(line, "Benchmark", 9) == 0) {
			if (bf_parse_bench(r, line, len) == 0) {
				*res = &r->result;
				return 1;
			}
			continue;
		}
		if (len > 0 && line[0] == 'U') {
			rest = line;
			restlen = len;
			f = bf_split_field(&rest, &restlen, &flen);
			if (flen == 4 && memcmp(f, "Unit", 4) == 0) {
				bf_parse_unit_line(r, rest, restlen);
				continue;
			}
		}
		if (bf_parse_kv(line, len, &key, &keylen, &val, &vallen)) {
			key = strpool_intern(r->pool, key, keylen);
			if (vallen == 0)
				bf_config_delete(r, key);
			else
				bf_config_set(r, key, strpool_intern(r->pool,
				    val, vallen));
		}
	}
	if (r->more && !r->done)
		return 2;
	r->done = 1;
	return 0;
}

void
bf_reader_feed(struct bf_reader *r, const char *data, size_t len, int more)
{
	r->data = data;
	r->len = len;
	r->pos = 0;
	r->more = more;
}

size_t
bf_reader_consumed(const struct bf_reader *r)
{
	return r->pos;
}

int
bf_reader_line(const struct bf_reader *r)
{
	return r->line;
}

void
bf_reader_skip_long_lines(struct bf_reader *r)
{
	r->skip_long = 1;
}

/* --- benchmark names (spec §2.7) ------------------------------------- */

size_t
bf_name_procs(const char *name, size_t len)
{
	size_t	i;

	for (i = len; i > 0; i--) {
		char	c = name[i - 1];

		if (c == '-' && i - 1 < len - 1)
			return len - (i - 1);
		if (c < '0' || c > '9')
			break;
	}
	return 0;
}

size_t
bf_name_base(const char *name, size_t len)
{
	const char	*slash = memchr(name, '/', len);

	if (slash != NULL)
		return (size_t)(slash - name);
	return len - bf_name_procs(name, len);
}

int
bf_name_key(const char *name, size_t len, const char *key, size_t keylen,
    const char **val, size_t *vlen)
{
	size_t	procs = bf_name_procs(name, len);
	size_t	end = len - procs, i, start, plen;

	if (procs > 0 && keylen == 11 && memcmp(key, "/gomaxprocs", 11) == 0) {
		*val = name + end + 1;
		*vlen = procs - 1;
		return 1;
	}
	/* Parts after the base: each starts at a '/'. */
	for (i = 0; i < end; i++) {
		if (name[i] != '/')
			continue;
		start = i;
		for (i = start + 1; i < end && name[i] != '/'; i++)
			;
		plen = i - start;
		if (plen > keylen && memcmp(name + start, key, keylen) == 0 &&
		    name[start + keylen] == '=') {
			*val = name + start + keylen + 1;
			*vlen = plen - keylen - 1;
			return 1;
		}
		i--;
	}
	return 0;
}

/* --- structured input ------------------------------------------------ */

int
bf_field_plain(const char *s, size_t len)
{
	const char	*p = s;
	size_t		 rest = len, flen;

	if (len == 0 || len >= BF_MAX_LINE)
		return 0;
	(void)bf_split_field(&p, &rest, &flen);
	return flen == len;
}

int
bf_config_plain(const char *key, const char *value)
{
	size_t	klen = strlen(key), vlen = value != NULL ? strlen(value) : 0;

	/* Not a config line but a result or Unit line, or two lines. */
	if (strncmp(key, "Benchmark", 9) == 0 || strncmp(key, "Unit", 4) == 0)
		return 0;
	if (strchr(key, ':') != NULL || strchr(key, '\n') != NULL ||
	    (value != NULL && strchr(value, '\n') != NULL))
		return 0;
	return klen + vlen + 2 < BF_MAX_LINE;
}

int
bf_units_plain(const char *unit, const char *const *keys,
    const char *const *values, size_t n)
{
	size_t	i, len = 5 + strlen(unit), k, v;

	if (!bf_field_plain(unit, strlen(unit)) || strcmp(unit, "Unit") == 0)
		return 0;
	for (i = 0; i < n; i++) {
		k = strlen(keys[i]);
		v = strlen(values[i]);
		if (k == 0 || memchr(keys[i], '=', k) != NULL ||
		    !bf_field_plain(keys[i], k) ||
		    (v > 0 && !bf_field_plain(values[i], v)))
			return 0;
		len += k + v + 2;
	}
	return len < BF_MAX_LINE;
}

int
bf_result_plain(const char *name, const double *v,
    const char *const *units, size_t n)
{
	size_t	i, len = 12 + strlen(name);

	if (n == 0 || (*name != '\0' && !bf_field_plain(name, strlen(name))))
		return 0;
	for (i = 0; i < n; i++) {
		/* A value printed reads back as itself (no range errors). */
		if (!isfinite(v[i]) || (v[i] != 0 && fabs(v[i]) < DBL_MIN) ||
		    !bf_field_plain(units[i], strlen(units[i])))
			return 0;
		len += strlen(units[i]) + 32;
	}
	return len < BF_MAX_LINE;
}

/* parseKeyValueLine's test of a key: a lower-case rune first, no space
 * or upper case. */
static int
bf_key_ok(const char *key, size_t len)
{
	size_t		i, n;
	uint32_t	rune;

	for (i = 0; i < len; i += n) {
		rune = uni_decode(key + i, len - i, &n);
		if (i == 0 && !uni_is_lower(rune))
			return 0;
		if (uni_is_space(rune) || uni_is_upper(rune))
			return 0;
	}
	return len > 0;
}

void
bf_reader_put_config(struct bf_reader *r, const char *key, const char *value)
{
	size_t		 vlen = value != NULL ? strlen(value) : 0;
	const char	*k;

	r->line++;
	/* The line's '\r' goes, then the blanks after "key:". */
	if (vlen > 0 && value[vlen - 1] == '\r')
		vlen--;
	while (vlen > 0 && (*value == ' ' || *value == '\t')) {
		value++;
		vlen--;
	}
	if (!bf_key_ok(key, strlen(key)))
		return;
	k = strpool_interns(r->pool, key);
	if (vlen == 0)
		bf_config_delete(r, k);
	else
		bf_config_set(r, k, strpool_intern(r->pool, value, vlen));
}

void
bf_reader_put_units(struct bf_reader *r, const char *unit,
    const char *const *keys, const char *const *values, size_t n)
{
	const char	*u, *tidied;
	size_t		 i;

	r->line++;
	u = strpool_interns(r->pool, unit);
	tidied = bf_tidy_lookup(r, u)->tidied;
	for (i = 0; i < n; i++)
		bf_unit_pair(r, u, tidied, keys[i], strlen(keys[i]), values[i],
		    strlen(values[i]));
}

const struct bf_result *
bf_reader_put_result(struct bf_reader *r, const char *name,
    const double *v, const char *const *units, size_t n)
{
	size_t	namelen = strlen(name), i;

	r->line++;
	if (namelen + 1 > r->capname) {
		r->capname = namelen + 64;
		r->name = xrealloc(r->name, r->capname);
	}
	memcpy(r->name, name, namelen + 1);
	r->result.name = r->name;
	r->result.name_len = namelen;
	r->result.iters = 1;
	r->nvalues = 0;
	for (i = 0; i < n; i++)
		bf_add_value(r, v[i], units[i], strlen(units[i]));
	bf_result_done(r);
	return &r->result;
}
