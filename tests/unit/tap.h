/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small TAP producer for the C unit tests.  Each test binary prints
 * "1..N" at the end (tap_done) and one "ok"/"not ok" line per check, which
 * automake's tap-driver.sh counts.
 */
#ifndef ABBENCH_TAP_H
#define ABBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int
tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define TAP_DIAG(...) do { printf("# "); printf(__VA_ARGS__); \
	printf("\n"); } while (0)

/* Compare two strings; on mismatch, show both. */
#define tap_str_eq(got, want, ...) do { \
	const char *tap_g_ = (got), *tap_w_ = (want); \
	int tap_c_ = tap_g_ != NULL && tap_w_ != NULL && \
	    strcmp(tap_g_, tap_w_) == 0; \
	if (!tap_ok(tap_c_, __VA_ARGS__)) \
		TAP_DIAG("got '%s', want '%s'", tap_g_ ? tap_g_ : "(null)", \
		    tap_w_ ? tap_w_ : "(null)"); \
} while (0)

#define tap_int_eq(got, want, ...) do { \
	long long tap_g_ = (got), tap_w_ = (want); \
	if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__)) \
		TAP_DIAG("got %lld, want %lld", tap_g_, tap_w_); \
} while (0)

/*
 * Open FILE of the recorded reference data, tests/data/benchstat-data/FILE
 * under $ABBENCH_SRCDIR or the current directory (an in-tree build).
 * NULL if neither has it.
 */
static inline FILE *
tap_open_ref(const char *file)
{
	const char	*dirs[2];
	char		 path[4096];
	FILE		*f;
	int		 i;

	dirs[0] = getenv("ABBENCH_SRCDIR");
	dirs[1] = ".";
	for (i = 0; i < 2; i++) {
		if (dirs[i] == NULL || *dirs[i] == '\0')
			continue;
		snprintf(path, sizeof(path), "%s/tests/data/benchstat-data/%s",
		    dirs[i], file);
		if ((f = fopen(path, "r")) != NULL)
			return f;
	}
	return NULL;
}

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
