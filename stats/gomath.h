/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go-bit-exact math and number conversions, so that `abbench stat` prints
 * exactly what Go's benchstat prints (spec §12, §2.3, §9.4).  Go's exp (the
 * amd64 FMA assembly routine), log, integer Lgamma, Erfc and
 * mathx.Choose differ from glibc in the last bits and those bits reach the
 * output.  All functions are pure and thread-safe.  Must be compiled with
 * -ffp-contract=off.
 */
#ifndef ABBENCH_STATS_GOMATH_H
#define ABBENCH_STATS_GOMATH_H

#include <stddef.h>

/* Go math.Exp on amd64 with FMA (exp_amd64.s). */
double	 go_exp(double x);

/* Go's pure-Go math.Log (identical to its amd64 assembly). */
double	 go_log(double x);

/* Go 1.19 sort.Float64s (pdqsort; equal values keep Go's order). */
void	 go_sort_float64s(double *x, size_t n);

/* Go math.Lgamma at positive integers x (other arguments: NaN). */
double	 go_lgamma_int(double x);

/* Go math.Erfc (fdlibm structure, calls go_exp). */
double	 go_erfc(double x);

/* go-moremath mathx.Choose(n, k): exact for n <= 20, else exp(lgammas). */
double	 go_choose(int n, int k);

/* go-moremath stats.GeoMean: NaN if n == 0 or any x <= 0. */
double	 go_geomean(const double *xs, size_t n);

/*
 * Go strconv.ParseFloat(s[:len], 64), with benchfmt's all-digits int64
 * fast path.  Returns 0 on success, -1 on a syntax error (*out = 0), -2
 * on overflow (*out = +-Inf).  Underflow silently gives 0.
 */
int	 go_parse_float(const char *s, size_t len, double *out);

/*
 * Go strconv.Atoi(s[:len]) on a 64-bit platform: 0 ok, -1 syntax error,
 * -2 out of range (*out clamped as Go does).
 */
int	 go_atoi64(const char *s, size_t len, long long *out);

/*
 * Go fmt "%v" of a float64: shortest round-trip digits, exponent form if
 * the decimal exponent is < -4 or >= 6; "+Inf", "-Inf", "NaN", "-0".
 * 32 bytes always suffice.
 */
void	 go_format_v(double v, char *buf, size_t len);

/*
 * Go strconv.FormatFloat(v, 'f', prec, 64): like C "%.*f" but infinities
 * and NaN are spelled "+Inf", "-Inf", "NaN".
 */
void	 go_format_f(double v, int prec, char *buf, size_t len);

#endif
