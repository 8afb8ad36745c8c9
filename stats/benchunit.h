/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark units (x/perf benchunit): tidying pre-scaled units such as
 * "ns/op" to base units, the decimal/binary class of a unit, and the
 * common-scale number formatting of benchstat's text tables (spec §2.6,
 * §9.1).  Pure functions, thread-safe.
 */
#ifndef ABBENCH_STATS_BENCHUNIT_H
#define ABBENCH_STATS_BENCHUNIT_H

#include <stddef.h>

enum unit_class {
	UNIT_DECIMAL,
	UNIT_BINARY
};

/*
 * Tidy a unit: "ns/op" -> "sec/op" (factor 1e-9), "MB/s" -> "B/s" (1e6),
 * every numerator token "ns" -> "sec" and "MB" -> "B".  Returns a
 * malloc'd unit (the caller frees it) and sets *factor, the multiplier
 * that converts a value to the tidied unit (1 when unchanged).
 */
char		*unit_tidy(const char *unit, double *factor);
/* The same on unit[0..len) (NUL bytes kept), into out (reset first). */
struct strbuf;
void		 unit_tidy_n(const char *unit, size_t len, double *factor,
		    struct strbuf *out);

/* Binary if a numerator token is "B", "MB" or "bytes", else decimal. */
enum unit_class	 unit_class_of(const char *unit);
enum unit_class	 unit_class_of_n(const char *unit, size_t len);

/*
 * A scaler formats numbers as FormatFloat(v / factor, 'f', prec) followed
 * by prefix ("k", "Mi", "µ" ...).  prefix points to static storage.
 */
struct scaler {
	int		 prec;
	double		 factor;
	const char	*prefix;
};

/* benchunit.CommonScale: the scale that shows >= 3 digits of every value. */
void	 scaler_common(const double *vals, size_t n, enum unit_class cls,
	    struct scaler *out);

/* Scaler.Format(v) into buf, truncated to len (64 is plenty in practice). */
void	 scaler_format(const struct scaler *sc, double v, char *buf,
	    size_t len);

#endif
