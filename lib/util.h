/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small utilities shared by every module: allocators that die on
 * out-of-memory, error reporting for commands, a growable string buffer and
 * a growable vector of strings.
 */
#ifndef ABBENCH_UTIL_H
#define ABBENCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Time: every duration abbench keeps is in nanoseconds (int64_t). */
#define NSEC_PER_SEC	INT64_C(1000000000)

/* Exit statuses of abbench (DESIGN.md). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* a regression, a failed sample or check */
#define EXIT_USAGE	2	/* usage or input error */
#define EXIT_INTERRUPTED 130	/* Ctrl-C, SIGTERM: 128 + SIGINT */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocators: never return NULL; print a message and exit(3) on OOM. */
void	*xmalloc(size_t n);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *p, size_t n);
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *fmt, va_list ap);

/* Grow an array *pp of *cap elements so that index n fits. */
#define XGROW(pp, n, cap) do { \
	if ((size_t)(n) >= (cap)) { \
		(cap) = (cap) ? (cap) * 2 : 8; \
		while ((size_t)(n) >= (cap)) (cap) *= 2; \
		(pp) = xreallocarray((pp), (cap), sizeof(*(pp))); \
	} \
} while (0)

/*
 * Set *cause (if cause is not NULL) to a formatted, malloc'd message and
 * return -1, so that fallible functions can `return set_cause(cause, ...)`.
 */
int	 set_cause(char **cause, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Messages to stderr prefixed with "abbench: ". error() returns -1. */
int	 error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	 warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	 die(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
void	 bug_at(const char *file, int line, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4), noreturn));

/* A growable NUL-terminated string. */
struct strbuf {
	char	*buf;
	size_t	 len;
	size_t	 cap;
};
#define STRBUF_INIT { NULL, 0, 0 }
void	 strbuf_add(struct strbuf *sb, const char *s, size_t n);
void	 strbuf_adds(struct strbuf *sb, const char *s);
void	 strbuf_addc(struct strbuf *sb, char c);
void	 strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strbuf_reset(struct strbuf *sb);
/* Hand the buffer to the caller (never NULL) and reset sb. */
char	*strbuf_detach(struct strbuf *sb);
void	 strbuf_release(struct strbuf *sb);

/* A growable NULL-terminated vector of malloc'd strings (argv style). */
struct strvec {
	char	**v;
	size_t	  n;
	size_t	  cap;
};
#define STRVEC_INIT { NULL, 0, 0 }
void	 strvec_push(struct strvec *sv, const char *s);
void	 strvec_pushf(struct strvec *sv, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strvec_push_nodup(struct strvec *sv, char *s);
void	 strvec_pushv(struct strvec *sv, char *const *v);
/* Is s one of the strings? */
int	 strvec_has(const struct strvec *sv, const char *s);
/*
 * qsort(3), where fewer than 2 elements ask for nothing: qsort's base is
 * declared nonnull, and an empty array's pointer may be NULL (UBSan's
 * nonnull-attribute). Every sort of the sources goes through it.
 */
static inline void
xqsort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}
/* qsort's comparison of doubles, ascending. */
int	 cmp_double(const void *a, const void *b);
/*
 * Sort doubles ascending, as qsort with cmp_double does (equal values are
 * alike, so the order is the same), without a call per comparison: the
 * power bootstrap and the sequential simulations sort millions of small
 * arrays. Introsort: median-of-three quicksort, insertion sort below 16
 * values, heapsort past 2 log2(n) levels, so O(n log n) on any input. NaN
 * has no place in the order (as with cmp_double); the sort still ends.
 * Where the order of equal values reaches the output (-0 and 0 in a
 * benchstat table), stats/gomath.h's go_sort_float64s is Go's order.
 */
void	 sort_doubles(double *v, size_t n);
/* Sort the strings in strcmp order. */
void	 strvec_sort(struct strvec *sv);
void	 strvec_clear(struct strvec *sv);
/* Split a value on runs of blanks; honours "double quotes" around words. */
int	 strvec_split_words(struct strvec *sv, const char *s, char **cause);
/*
 * Split a command line into argv without a shell (abbench run -- 'CMD'):
 * words are separated by blanks; 'single quotes' keep what they hold as
 * is; "double quotes" too, but for \" and \\ (a " and a \); outside
 * quotes a backslash keeps the next character as is. Quotes may join a
 * word's parts (a'b c'd is one word). Nothing else is special: $, *, ;,
 * |, <, % stay text. 0, or -1 with *cause (an unclosed quote, a trailing
 * backslash).
 */
int	 strvec_split_command(struct strvec *sv, const char *s, char **cause);

/* Time: CLOCK_MONOTONIC and CLOCK_REALTIME in nanoseconds. */
int64_t	 now_mono_ns(void);
int64_t	 now_wall_ns(void);
/* CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time the system was suspended. */
int64_t	 now_boot_ns(void);
/* Format a wall-clock time in ns as "2026-11-30T04:07:50Z" into buf. */
void	 format_wall_time(int64_t wall_ns, char *buf, size_t len);

/* Files (lib/files.c) as far as path_dir. */
/* Read a whole file (text); returns NULL and sets *cause on error. */
char	*read_file(const char *path, size_t *len, char **cause);
/* The same of an open fd (path names it in *cause), which it closes. */
char	*read_fd(int fd, const char *path, size_t *len, char **cause);
/* Read a small sysfs/procfs file, strip the trailing newline. */
char	*read_small_file(const char *path, char **cause);
/* Write a string to an existing file (sysfs/procfs knob). */
int	 write_small_file(const char *path, const char *value, char **cause);
/*
 * Remove a directory tree (or a file) without following links or crossing
 * into another filesystem (a mount inside makes it fail); a missing
 * path is fine.
 */
int	 rmtree(const char *path, char **cause);
/* "$TMPDIR/NAME" (TMPDIR unset or empty: /tmp), malloc'd. */
char	*tmp_path(const char *name);
/* The directory part of a path ("." when it has none, "/" for "/x"),
 * malloc'd. */
char	*path_dir(const char *path);
/*
 * The number after "KEY " at the start of a line of a key/value text
 * (cgroup memory.stat, cpu.stat): 0 with *out, or -1 when no line has it.
 */
int	 kv_u64(const char *text, const char *key, uint64_t *out);
/* Strip leading and trailing white space in place; returns s. */
char	*strtrim(char *s);
int	 str_startswith(const char *s, const char *prefix);
/*
 * Damerau-Levenshtein distance (optimal string alignment: a swap of
 * neighbours is one edit, "rnu" for "run") of a and b, at most 99.
 */
size_t	 str_edit_distance(const char *a, const char *b);
/*
 * "Did you mean": nearest_init, then nearest_try with every name that
 * would have been right; best is the closest one within two edits (one
 * for names of three letters or less), or NULL. Borrows the strings.
 */
struct nearest {
	const char	*name;
	const char	*best;
	size_t		 dist;
};
void	 nearest_init(struct nearest *n, const char *name);
void	 nearest_try(struct nearest *n, const char *cand);
/*
 * Parse a duration into nanoseconds: Go's time.ParseDuration grammar
 * ("20s", "500ms", "1.5h", "1h30m", "0"; units ns, us, µs, ms, s, m, h)
 * plus the unit "min". A bare number other than 0 has no unit and is
 * refused; the message then suggests what was meant ("5 minutes" -> 5m).
 */
int	 parse_duration(const char *s, int64_t *ns, char **cause);
/*
 * A duration in seconds as parse_duration reads it back, in the largest
 * unit that keeps it at least 1: 0.001 -> "1ms", 90 -> "1.5m" (malloc'd).
 */
char	*format_duration_sec(double sec);
/* Parse a size such as "4k", "1m", "64KiB", "2g" into bytes (1024-based). */
int	 parse_size(const char *s, uint64_t *bytes, char **cause);
/*
 * Is text[0..len) valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF)?
 * If not, *bad_off (may be NULL) gets the offset of the first bad byte.
 */
int	 utf8_valid(const char *text, size_t len, size_t *bad_off);
/*
 * The length of the valid UTF-8 sequence that starts s[0..len) (len > 0):
 * 1 for ASCII, 2..4, or 0 when no valid sequence starts there (a stray
 * continuation byte, an overlong form, a surrogate, a cut sequence: Go's
 * utf8.DecodeRune reads such a byte as U+FFFD of width 1).
 */
size_t	 utf8_seq_len(const char *s, size_t len);
/*
 * s[0..len) as valid UTF-8 for formats that require it (JSON through
 * jansson, HTML): each byte that starts no valid sequence becomes U+FFFD,
 * and a NUL byte too (malloc'd, NUL-terminated).
 */
char	*utf8_sanitize(const char *s, size_t len);
/*
 * s[0..len) as a C string: each NUL byte becomes the four characters
 * "\x00", so that a name holding one is neither cut there (C strings,
 * SQLite text bound by its strlen) nor made equal to its prefix
 * (malloc'd).
 */
char	*str_escape_nul(const char *s, size_t len);
/* Decimal digits only (no sign, no blanks), 0 .. 2^64-1. */
int	 parse_uint64(const char *s, uint64_t *out, char **cause);
int	 parse_int(const char *s, long long min, long long max, long long *out,
	    char **cause);
int	 parse_double(const char *s, double *out, char **cause);

/*
 * Find one of abbench's own programs (payload/: startup-bench, the cpu
 * programs, touchmem, abbench-spawn, abbench-startline): $ABBENCH_LIBEXEC,
 * its payload/, payload/cpu/ and payload/idle/, the same subdirectories
 * next to the running abbench (a build tree), then the installed libexec
 * directory. The one lookup for all of them. malloc'd path, or NULL with *cause.
 */
char	*libexec_find(const char *name, char **cause);

/* A random 128-bit UUID (v4) as a 36-character string. */
void	 uuid_v4(char out[37]);

#endif
