/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocators, error reporting, strings and time used across the harness
 * (files: lib/files.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

static void __attribute__((noreturn))
oom(size_t n)
{
	fprintf(stderr, "abbench: out of memory (allocating %zu bytes)\n", n);
	exit(3);
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void	*q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

int
set_cause(char **cause, const char *fmt, ...)
{
	va_list	 ap;

	if (cause != NULL) {
		va_start(ap, fmt);
		*cause = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
vreport(const char *prefix, const char *fmt, va_list ap)
{
	char	*msg = xvasprintf(fmt, ap);

	fprintf(stderr, "abbench: %s%s\n", prefix, msg);
	free(msg);
}

int
error(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void
warning(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void
die(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(2);
}

void
bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "abbench: BUG: %s:%d: %s\n", file, line, msg);
	abort();
}

void
strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t	cap = sb->cap ? sb->cap : 64;

		while (sb->len + n + 1 > cap)
			cap *= 2;
		sb->buf = xrealloc(sb->buf, cap);
		sb->cap = cap;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	strbuf_adds(sb, s);
	free(s);
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf != NULL)
		sb->buf[0] = '\0';
}

char *
strbuf_detach(struct strbuf *sb)
{
	char	*s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void
strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void
strvec_push_nodup(struct strvec *sv, char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 8;
		sv->v = xreallocarray(sv->v, sv->cap, sizeof *sv->v);
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void
strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_nodup(sv, xstrdup(s));
}

void
strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	strvec_push_nodup(sv, xvasprintf(fmt, ap));
	va_end(ap);
}

void
strvec_pushv(struct strvec *sv, char *const *v)
{
	for (; v != NULL && *v != NULL; v++)
		strvec_push(sv, *v);
}

int
strvec_has(const struct strvec *sv, const char *s)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return 1;
	return 0;
}

int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
dsort_insertion(double *v, size_t n)
{
	size_t	i, j;
	double	x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
dsort_sift(double *v, size_t root, size_t n)
{
	size_t	child;
	double	x = v[root];

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (!(v[child] > x))
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

static void
dsort_heap(double *v, size_t n)
{
	size_t	i;
	double	x;

	for (i = n / 2; i > 0; i--)
		dsort_sift(v, i - 1, n);
	for (i = n; i > 1; i--) {
		x = v[0];
		v[0] = v[i - 1];
		v[i - 1] = x;
		dsort_sift(v, 0, i - 1);
	}
}

#define DSORT_SWAP(a, b) do { double t_ = (a); (a) = (b); (b) = t_; } \
	while (0)

static void
dsort_intro(double *v, size_t n, unsigned depth)
{
	size_t	i, j, m;
	double	p;

	while (n > 16) {
		if (depth-- == 0) {
			dsort_heap(v, n);
			return;
		}
		/* Median of three: v[0] <= v[m] <= v[n - 1] are sentinels. */
		m = n / 2;
		if (v[m] < v[0])
			DSORT_SWAP(v[m], v[0]);
		if (v[n - 1] < v[m]) {
			DSORT_SWAP(v[n - 1], v[m]);
			if (v[m] < v[0])
				DSORT_SWAP(v[m], v[0]);
		}
		p = v[m];
		/* Hoare: v[0..j] <= p <= v[j+1..n-1], both parts non-empty. */
		i = 0;
		j = n - 1;
		for (;;) {
			do
				i++;
			while (i < n - 1 && v[i] < p);
			do
				j--;
			while (j > 0 && v[j] > p);
			if (i >= j)
				break;
			DSORT_SWAP(v[i], v[j]);
		}
		/* The smaller part by recursion, the larger in the loop. */
		if (j + 1 < n - (j + 1)) {
			dsort_intro(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			dsort_intro(v + j + 1, n - (j + 1), depth);
			n = j + 1;
		}
	}
	dsort_insertion(v, n);
}

void
sort_doubles(double *v, size_t n)
{
	unsigned	depth = 0;
	size_t		k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	dsort_intro(v, n, depth);
}

static int
strvec_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
strvec_sort(struct strvec *sv)
{
	xqsort(sv->v, sv->n, sizeof *sv->v, strvec_cmp);
}

void
strvec_clear(struct strvec *sv)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

int
strvec_split_words(struct strvec *sv, const char *s, char **cause)
{
	struct strbuf	word = STRBUF_INIT;
	int		in_word = 0;

	while (*s != '\0') {
		if (isspace((unsigned char)*s)) {
			if (in_word) {
				strvec_push_nodup(sv, strbuf_detach(&word));
				in_word = 0;
			}
			s++;
			continue;
		}
		in_word = 1;
		if (*s == '"') {
			s++;
			while (*s != '"') {
				if (*s == '\0') {
					strbuf_release(&word);
					return set_cause(cause,
					    "missing closing quote");
				}
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				strbuf_addc(&word, *s++);
			}
			s++;
			if (word.buf == NULL)
				strbuf_adds(&word, "");
			continue;
		}
		strbuf_addc(&word, *s++);
	}
	if (in_word)
		strvec_push_nodup(sv, strbuf_detach(&word));
	return 0;
}

int
strvec_split_command(struct strvec *sv, const char *s, char **cause)
{
	struct strbuf	word = STRBUF_INIT;
	int		in_word = 0;
	char		q;

	while (*s != '\0') {
		if (isspace((unsigned char)*s)) {
			if (in_word)
				strvec_push_nodup(sv, strbuf_detach(&word));
			in_word = 0;
			s++;
			continue;
		}
		/* '' and "" are a word, empty. */
		if (!in_word)
			strbuf_adds(&word, "");
		in_word = 1;
		if (*s == '\\') {
			if (s[1] == '\0') {
				strbuf_release(&word);
				return set_cause(cause, "a backslash ends it");
			}
			strbuf_addc(&word, s[1]);
			s += 2;
			continue;
		}
		if (*s != '\'' && *s != '"') {
			strbuf_addc(&word, *s++);
			continue;
		}
		for (q = *s++; *s != q; s++) {
			if (*s == '\0') {
				strbuf_release(&word);
				return set_cause(cause, "missing closing %s",
				    q == '"' ? "\"" : "'");
			}
			if (q == '"' && *s == '\\' && (s[1] == '"' ||
			    s[1] == '\\'))
				s++;
			strbuf_addc(&word, *s);
		}
		s++;
	}
	if (in_word)
		strvec_push_nodup(sv, strbuf_detach(&word));
	return 0;
}

int64_t
now_mono_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t
now_boot_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t
now_wall_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void
format_wall_time(int64_t wall_ns, char *buf, size_t len)
{
	time_t		t = (time_t)(wall_ns / NSEC_PER_SEC);
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int
kv_u64(const char *text, const char *key, uint64_t *out)
{
	size_t		 n = strlen(key);
	const char	*p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, n) == 0 && p[n] == ' ') {
			*out = strtoull(p + n + 1, NULL, 10);
			return 0;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -1;
}

char *
strtrim(char *s)
{
	char	*e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int
str_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

size_t
str_edit_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, r[3][100], *p2, *p, *c;

	if (la > 98 || lb > 98)
		return 99;
	for (j = 0; j <= lb; j++)
		r[0][j] = j;
	for (i = 1; i <= la; i++) {
		p2 = r[(i + 1) % 3], p = r[(i - 1) % 3], c = r[i % 3];
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			c[j] = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (c[j - 1] + 1 < c[j])
				c[j] = c[j - 1] + 1;
			if (p[j] + 1 < c[j])
				c[j] = p[j] + 1;
			/* Swapped neighbours are one slip of the fingers. */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && p2[j - 2] + 1 < c[j])
				c[j] = p2[j - 2] + 1;
		}
	}
	return r[la % 3][lb];
}

void
nearest_init(struct nearest *n, const char *name)
{
	n->name = name;
	n->best = NULL;
	/*
	 * Two edits ("reprot", "roudns"); one for a name of three or less,
	 * where two would make any short name look like any other.
	 */
	n->dist = strlen(name) <= 3 ? 2 : 3;
}

void
nearest_try(struct nearest *n, const char *cand)
{
	size_t	d;

	if (cand == NULL || *cand == '\0' || strcmp(cand, n->name) == 0)
		return;
	d = str_edit_distance(n->name, cand);
	if (d < n->dist) {
		n->dist = d;
		n->best = cand;
	}
}

/* Go's time units, and "min", which abbench took before it took Go's. */
static const struct {
	const char	*unit;
	double		 ns;
} duration_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "\xce\xbcs", 1e3 },
	{ "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "min", 60e9 },
	{ "h", 3600e9 },
};

/*
 * Go's time.ParseDuration: [+]?([0-9]*(\.[0-9]*)?UNIT)+ or "0", summed
 * in nanoseconds. 0, or -1 when s is not in the grammar.
 */
static int
duration_go(const char *s, double *out)
{
	const char	*p = s, *num, *u;
	double		 total = 0, v;
	size_t		 i, ulen;
	int		 digits;

	if (*p == '+')
		p++;
	if (strcmp(p, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (*p == '\0')
		return -1;
	while (*p != '\0') {
		num = p;
		digits = 0;
		while (*p >= '0' && *p <= '9') {
			p++;
			digits = 1;
		}
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9') {
				p++;
				digits = 1;
			}
		}
		if (!digits)
			return -1;
		v = strtod(num, NULL);
		u = p;
		while (*p != '\0' && *p != '.' && !(*p >= '0' && *p <= '9'))
			p++;
		ulen = (size_t)(p - u);
		if (ulen == 0)
			return -1;	/* a number without a unit */
		for (i = 0; i < ARRAY_SIZE(duration_units); i++)
			if (strlen(duration_units[i].unit) == ulen &&
			    memcmp(u, duration_units[i].unit, ulen) == 0)
				break;
		if (i == ARRAY_SIZE(duration_units))
			return -1;
		total += v * duration_units[i].ns;
	}
	*out = total;
	return 0;
}

/*
 * What a user who wrote "5 minutes", "2sec" or a bare "1" meant, in the
 * grammar: spelled-out units shortened, blanks dropped, a bare number
 * taken as seconds. NULL when nothing sensible comes out (malloc'd).
 */
static char *
duration_suggest(const char *s)
{
	static const struct {
		const char	*word;
		const char	*unit;
	} words[] = {
		{ "nanoseconds", "ns" }, { "nanosecond", "ns" },
		{ "nsec", "ns" }, { "microseconds", "us" },
		{ "microsecond", "us" }, { "usec", "us" },
		{ "milliseconds", "ms" }, { "millisecond", "ms" },
		{ "msec", "ms" }, { "millis", "ms" }, { "seconds", "s" },
		{ "second", "s" }, { "secs", "s" }, { "sec", "s" },
		{ "minutes", "m" }, { "minute", "m" }, { "mins", "m" },
		{ "hours", "h" }, { "hour", "h" }, { "hrs", "h" },
		{ "hr", "h" }, { "", "s" },
	};
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p = s, *u;
	double		 d;
	size_t		 i, n, ntok = 0;

	while (*p != '\0') {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		u = p;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		if (p == u)
			goto fail;
		strbuf_add(&sb, u, (size_t)(p - u));
		while (isspace((unsigned char)*p))
			p++;
		u = p;
		while (isalpha((unsigned char)*p) || (unsigned char)*p >= 0x80)
			p++;
		n = (size_t)(p - u);
		/* A bare number is seconds only when it is all there is. */
		if (n == 0 && (ntok > 0 || *p != '\0'))
			goto fail;
		ntok++;
		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (strlen(words[i].word) == n &&
			    strncasecmp(u, words[i].word, n) == 0)
				break;
		if (i < ARRAY_SIZE(words)) {
			strbuf_adds(&sb, words[i].unit);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(duration_units); i++)
			if (strlen(duration_units[i].unit) == n &&
			    strncasecmp(u, duration_units[i].unit, n) == 0)
				break;
		if (i == ARRAY_SIZE(duration_units))
			goto fail;
		strbuf_adds(&sb, duration_units[i].unit);
	}
	if (sb.buf == NULL || strcmp(sb.buf, s) == 0 ||
	    duration_go(sb.buf, &d) != 0)
		goto fail;
	return strbuf_detach(&sb);
fail:
	strbuf_release(&sb);
	return NULL;
}

int
parse_duration(const char *s, int64_t *ns, char **cause)
{
	double	 v;
	char	*hint;

	if (s[0] == '-' && duration_go(s + 1, &v) == 0 && v > 0)
		return set_cause(cause, "invalid duration '%s': a duration "
		    "cannot be negative", s);
	if (duration_go(s, &v) != 0) {
		/* The one message for every duration, file or flag. */
		hint = duration_suggest(s);
		set_cause(cause, "invalid duration '%s': write a number and a "
		    "unit as Go does (300ms, 1.5s, 2m, 1h30m; units ns, us, "
		    "ms, s, m or min, h)%s%s%s", s, hint != NULL ?
		    "; did you mean '" : "", hint != NULL ? hint : "",
		    hint != NULL ? "'?" : "");
		free(hint);
		return -1;
	}
	/* Beyond int64 nanoseconds (292 years) wraps. */
	if (!isfinite(v) || v >= 9.2e18)
		return set_cause(cause, "duration '%s' is out of range (at "
		    "most 292 years)", s);
	*ns = (int64_t)llround(v);
	return 0;
}

char *
format_duration_sec(double sec)
{
	static const struct {
		const char	*suffix;
		double		 mult;
	} units[] = {
		{ "h", 3600 }, { "m", 60 }, { "s", 1 }, { "ms", 1e-3 },
		{ "us", 1e-6 }, { "ns", 1e-9 },
	};
	size_t	i;

	if (sec == 0)
		return xstrdup("0s");
	for (i = 0; i + 1 < ARRAY_SIZE(units) && sec < units[i].mult; i++)
		;
	return xasprintf("%g%s", sec / units[i].mult, units[i].suffix);
}

int
parse_size(const char *s, uint64_t *bytes, char **cause)
{
	static const struct {
		const char	*suffix;
		double		 mult;
	} units[] = {
		{ "", 1 }, { "b", 1 }, { "k", 1024.0 }, { "kb", 1024.0 },
		{ "kib", 1024.0 }, { "m", 1048576.0 }, { "mb", 1048576.0 },
		{ "mib", 1048576.0 }, { "g", 1073741824.0 },
		{ "gb", 1073741824.0 }, { "gib", 1073741824.0 },
		{ "t", 1099511627776.0 }, { "tib", 1099511627776.0 },
	};
	char	 suffix[8];
	char	*end;
	double	 v;
	size_t	 i, n;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0 || !isfinite(v) || v < 0)
		return set_cause(cause, "invalid size '%s'", s);
	n = strlen(end);
	if (n >= sizeof suffix)
		return set_cause(cause, "invalid size '%s'", s);
	for (i = 0; i <= n; i++)
		suffix[i] = (char)tolower((unsigned char)end[i]);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(suffix, units[i].suffix) == 0) {
			*bytes = (uint64_t)llround(v * units[i].mult);
			return 0;
		}
	}
	return set_cause(cause, "invalid size '%s' (use k, m, g or t)", s);
}

size_t
utf8_seq_len(const char *text, size_t len)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 n, k;
	uint32_t		 c, min;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 1;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 2;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 3;
		c = s[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	for (k = 1; k <= n; k++) {
		if (k >= len || (s[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[k] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n + 1;
}

int
utf8_valid(const char *text, size_t len, size_t *bad_off)
{
	size_t	i = 0, n;

	while (i < len) {
		if ((n = utf8_seq_len(text + i, len - i)) == 0) {
			if (bad_off != NULL)
				*bad_off = i;
			return 0;
		}
		i += n;
	}
	return 1;
}

char *
utf8_sanitize(const char *s, size_t len)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i = 0, n;

	while (i < len) {
		n = utf8_seq_len(s + i, len - i);
		if (n == 0 || s[i] == '\0') {
			strbuf_adds(&sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		strbuf_add(&sb, s + i, n);
		i += n;
	}
	return strbuf_detach(&sb);
}

char *
str_escape_nul(const char *s, size_t len)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*nul;

	while ((nul = memchr(s, '\0', len)) != NULL) {
		strbuf_add(&sb, s, (size_t)(nul - s));
		strbuf_adds(&sb, "\\x00");
		len -= (size_t)(nul - s) + 1;
		s = nul + 1;
	}
	strbuf_add(&sb, s, len);
	return strbuf_detach(&sb);
}

int
parse_uint64(const char *s, uint64_t *out, char **cause)
{
	unsigned long long	 v;
	char			*end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return set_cause(cause, "'%s' is not an unsigned integer", s);
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		return set_cause(cause, "'%s' is not an unsigned integer", s);
	if (errno != 0)
		return set_cause(cause, "'%s' is out of range [0, %llu]", s,
		    (unsigned long long)UINT64_MAX);
	*out = (uint64_t)v;
	return 0;
}

int
parse_int(const char *s, long long min, long long max, long long *out,
    char **cause)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0)
		return set_cause(cause, "'%s' is not an integer", s);
	if (v < min || v > max)
		return set_cause(cause, "%lld is out of range [%lld, %lld]",
		    v, min, max);
	*out = v;
	return 0;
}

int
parse_double(const char *s, double *out, char **cause)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v))
		return set_cause(cause, "'%s' is not a number", s);
	*out = v;
	return 0;
}

void
uuid_v4(char out[37])
{
	unsigned char	b[16];
	size_t		got = 0;
	ssize_t		n;
	int		i, j;

	while (got < sizeof b) {
		n = getrandom(b + got, sizeof b - got, 0);
		if (n <= 0) {
			/* Fall back on time and pid; uniqueness, not secrecy. */
			uint64_t x = (uint64_t)now_wall_ns() ^
			    ((uint64_t)getpid() << 32) ^
			    (uint64_t)now_mono_ns();
			for (; got < sizeof b; got++) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				b[got] = (unsigned char)x;
			}
			break;
		}
		got += (size_t)n;
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	for (i = 0, j = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[j++] = '-';
		snprintf(out + j, 3, "%02x", b[i]);
		j += 2;
	}
	out[36] = '\0';
}

static char *
libexec_try(const char *dir, const char *sub, const char *name)
{
	char	*p = xasprintf("%s%s/%s", dir, sub, name);

	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *
libexec_find(const char *name, char **cause)
{
	static const char *const subs[] = { "", "/payload", "/payload/cpu",
	    "/payload/idle" };
	const char	*env = getenv("ABBENCH_LIBEXEC");
	char		 self[PATH_MAX], *p, *slash;
	ssize_t		 l;
	size_t		 i;

	if (strchr(name, '/') != NULL) {
		set_cause(cause, "'%s' is a path, not a program name", name);
		return NULL;
	}
	for (i = 0; env != NULL && *env != '\0' && i < ARRAY_SIZE(subs); i++) {
		if ((p = libexec_try(env, subs[i], name)) != NULL)
			return p;
	}
	if ((l = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[l] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			*slash = '\0';
			for (i = 1; i < ARRAY_SIZE(subs); i++) {
				if ((p = libexec_try(self, subs[i], name)) !=
				    NULL)
					return p;
			}
		}
	}
#ifdef ABBENCH_LIBEXECDIR
	if ((p = libexec_try(ABBENCH_LIBEXECDIR, "", name)) != NULL)
		return p;
#endif
	set_cause(cause, "cannot find the program '%s' (build it with make, "
	    "or set ABBENCH_LIBEXEC)", name);
	return NULL;
}
