/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/gomath: every line of go_math_reference.txt and
 * go_choose_table.txt bit for bit, Go ParseFloat/Atoi semantics and Go's
 * %v float formatting.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gomath.h"
#include "tests/unit/tap.h"

static int
same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0 || (isnan(a) && isnan(b));
}

static void
test_math_reference(void)
{
	FILE	*f = tap_open_ref("go_math_reference.txt");
	char	 line[8192], *fn, *args, *res, *p;
	int	 n[5] = { 0 }, bad[5] = { 0 }, k;
	double	 want, got, xs[256];
	size_t	 nx;
	const char *names[5] = { "exp", "log", "lgamma", "erfc", "geomean" };

	if (!tap_ok(f != NULL, "open go_math_reference.txt"))
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		p = strchr(line, ' ');
		if (p == NULL)
			continue;
		*p = '\0';
		fn = line;
		args = p + 1;
		res = strchr(args, ' ');
		if (res == NULL)
			continue;
		*res++ = '\0';
		want = strtod(res, NULL);
		for (k = 0; k < 5; k++)
			if (strcmp(fn, names[k]) == 0)
				break;
		if (k == 5) {
			tap_ok(0, "unknown function '%s'", fn);
			continue;
		}
		if (k == 4) {
			nx = 0;
			for (p = strtok(args, ","); p != NULL && nx < 256;
			    p = strtok(NULL, ","))
				xs[nx++] = strtod(p, NULL);
			got = go_geomean(xs, nx);
		} else {
			double x = strtod(args, NULL);

			got = k == 0 ? go_exp(x) : k == 1 ? go_log(x) :
			    k == 2 ? go_lgamma_int(x) : go_erfc(x);
		}
		n[k]++;
		if (!same_bits(got, want)) {
			if (bad[k]++ < 5)
				TAP_DIAG("%s(%s) = %a, want %a", fn, args, got,
				    want);
		}
	}
	fclose(f);
	for (k = 0; k < 5; k++) {
		tap_ok(n[k] > 0 && bad[k] == 0, "%s: %d reference values, "
		    "%d mismatches", names[k], n[k], bad[k]);
	}
	tap_int_eq(n[0], 1500, "exp reference count");
	tap_int_eq(n[1], 1500, "log reference count");
	tap_int_eq(n[2], 300, "lgamma reference count");
	tap_int_eq(n[3], 1000, "erfc reference count");
	tap_int_eq(n[4], 300, "geomean reference count");
}

static void
test_choose_table(void)
{
	FILE	*f = tap_open_ref("go_choose_table.txt");
	char	 line[256], hex[64];
	int	 nn, kk, count = 0, bad = 0;
	double	 want, got;

	if (!tap_ok(f != NULL, "open go_choose_table.txt"))
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%d %d %63s", &nn, &kk, hex) != 3)
			continue;
		want = strtod(hex, NULL);
		got = go_choose(nn, kk);
		count++;
		if (!same_bits(got, want) && bad++ < 5)
			TAP_DIAG("Choose(%d,%d) = %a, want %a", nn, kk, got,
			    want);
	}
	fclose(f);
	tap_ok(count == 1660 && bad == 0, "Choose table: %d entries, "
	    "%d mismatches", count, bad);

	/* Small n are exact integers; out-of-range k gives 0. */
	tap_ok(go_choose(20, 10) == 184756.0, "Choose(20,10) exact");
	tap_ok(go_choose(5, 0) == 1 && go_choose(5, 5) == 1, "Choose k=0,n");
	tap_ok(go_choose(5, 6) == 0 && go_choose(5, -1) == 0,
	    "Choose out of range is 0");
	tap_ok(go_choose(21, 1) != 21.0, "Choose(21,1) is Go's inexact value");
}

static void
test_special_values(void)
{
	double xs[3] = { 1, 2, 0 };

	tap_ok(go_exp(0) == 1, "exp(0) = 1");
	tap_ok(go_exp(710) == INFINITY, "exp overflow");
	tap_ok(go_exp(-INFINITY) == 0, "exp(-Inf) = 0");
	tap_ok(go_exp(-800) == 0, "exp underflow");
	tap_ok(go_exp(-1e300) == 0, "exp of huge negative");
	tap_ok(go_exp(-740) > 0 && go_exp(-740) < 1e-300, "exp denormal");
	tap_ok(isnan(go_exp(NAN)), "exp(NaN)");
	tap_ok(go_log(0) == -INFINITY, "log(0)");
	tap_ok(isnan(go_log(-1)), "log(-1)");
	tap_ok(go_log(1) == 0, "log(1)");
	tap_ok(go_erfc(0) == 1, "erfc(0)");
	tap_ok(go_erfc(-30) == 2 && go_erfc(30) == 0, "erfc tails");
	tap_ok(isnan(go_geomean(xs, 0)), "geomean of nothing is NaN");
	tap_ok(isnan(go_geomean(xs, 3)), "geomean with a zero is NaN");
	tap_ok(go_geomean(xs, 2) == go_exp(go_log(2) / 2),
	    "geomean formula");
}

static void
check_parse(const char *s, int want_rc, double want)
{
	double	got = -12345;
	int	rc = go_parse_float(s, strlen(s), &got);

	if (want_rc != 0) {
		tap_ok(rc == want_rc && (want_rc != -2 || got == want),
		    "ParseFloat('%s') fails with %d (got %d, %g)", s, want_rc,
		    rc, got);
		return;
	}
	tap_ok(rc == 0 && same_bits(got, want),
	    "ParseFloat('%s') = %a (got rc %d, %a)", s, want, rc, got);
}

static void
test_parse_float(void)
{
	check_parse("0", 0, 0);
	check_parse("123", 0, 123);
	check_parse("1234567890123456789", 0, 1234567890123456789.0);
	check_parse("99999999999999999999", 0, 1e20);
	check_parse("12.5", 0, 12.5);
	check_parse("-12.5", 0, -12.5);
	check_parse("+3", 0, 3);
	check_parse(".5", 0, 0.5);
	check_parse("5.", 0, 5);
	check_parse("1e3", 0, 1000);
	check_parse("1E-3", 0, 0.001);
	check_parse("1e+3", 0, 1000);
	check_parse("1_000", 0, 1000);
	check_parse("1_000.5_5", 0, 1000.55);
	check_parse("0x1p4", 0, 16);
	check_parse("0X1.8P1", 0, 3);
	check_parse("0x_1p0", 0, 1);
	check_parse("0x1.fffffffffffffp1023", 0, 0x1.fffffffffffffp1023);
	check_parse("inf", 0, INFINITY);
	check_parse("+Inf", 0, INFINITY);
	check_parse("-infinity", 0, -INFINITY);
	check_parse("INFINITY", 0, INFINITY);
	check_parse("1e-400", 0, 0);
	check_parse("4.9e-324", 0, 0x1p-1074);
	check_parse("0.1", 0, 0.1);
	check_parse("2.2250738585072011e-308", 0, 2.2250738585072011e-308);
	check_parse("1e400", -2, INFINITY);
	check_parse("-1e400", -2, -INFINITY);
	check_parse("0x1p2000", -2, INFINITY);
	check_parse("", -1, 0);
	check_parse(".", -1, 0);
	check_parse("+", -1, 0);
	check_parse("1__0", -1, 0);
	check_parse("_1", -1, 0);
	check_parse("1_", -1, 0);
	check_parse("1_.5", -1, 0);
	check_parse("0x10", -1, 0);
	check_parse("0x", -1, 0);
	check_parse("1e", -1, 0);
	check_parse("1e+", -1, 0);
	check_parse("1e_5", -1, 0);
	check_parse("e5", -1, 0);
	check_parse("abc", -1, 0);
	check_parse("1.2.3", -1, 0);
	check_parse("infin", -1, 0);
	check_parse("-nan", -1, 0);
	check_parse("12 ", -1, 0);
	check_parse("1,5", -1, 0);
	{
		double	v = 0;
		int	rc = go_parse_float("NaN", 3, &v);

		tap_ok(rc == 0 && isnan(v), "ParseFloat('NaN')");
		rc = go_parse_float("nAn", 3, &v);
		tap_ok(rc == 0 && isnan(v), "ParseFloat('nAn')");
		/* Length is honoured: "12" out of "123". */
		rc = go_parse_float("123", 2, &v);
		tap_ok(rc == 0 && v == 12, "ParseFloat honours len");
	}
}

static void
check_atoi(const char *s, int want_rc, long long want)
{
	long long	got = -1;
	int		rc = go_atoi64(s, strlen(s), &got);

	tap_ok(rc == want_rc && (rc == -1 || got == want),
	    "Atoi('%s') = %lld rc %d (got %lld rc %d)", s, want, want_rc, got,
	    rc);
}

static void
test_atoi(void)
{
	check_atoi("0", 0, 0);
	check_atoi("1000", 0, 1000);
	check_atoi("+7", 0, 7);
	check_atoi("-42", 0, -42);
	check_atoi("007", 0, 7);
	check_atoi("9223372036854775807", 0, 9223372036854775807LL);
	check_atoi("-9223372036854775808", 0, -9223372036854775807LL - 1);
	check_atoi("9223372036854775808", -2, 9223372036854775807LL);
	check_atoi("-9223372036854775809", -2, -9223372036854775807LL - 1);
	check_atoi("99999999999999999999999", -2, 9223372036854775807LL);
	check_atoi("", -1, 0);
	check_atoi("-", -1, 0);
	check_atoi("1_000", -1, 0);
	check_atoi("1e3", -1, 0);
	check_atoi("12a", -1, 0);
	check_atoi(" 1", -1, 0);
	check_atoi("0x10", -1, 0);
}

static void
check_v(double v, const char *want)
{
	char	buf[64];

	go_format_v(v, buf, sizeof(buf));
	tap_str_eq(buf, want, "%%v of %a is '%s'", v, want);
}

static void
check_f(double v, int prec, const char *want)
{
	char	buf[64];

	go_format_f(v, prec, buf, sizeof(buf));
	tap_str_eq(buf, want, "FormatFloat(%a, 'f', %d) is '%s'", v, prec,
	    want);
}

static void
test_format(void)
{
	check_v(1234567, "1.234567e+06");
	check_v(123456, "123456");
	check_v(100, "100");
	check_v(0.0001, "0.0001");
	check_v(0.00001, "1e-05");
	check_v(2.1050000000000007e-07, "2.1050000000000007e-07");
	check_v(1e21, "1e+21");
	check_v(1e100, "1e+100");
	check_v(0.05, "0.05");
	check_v(0.95, "0.95");
	check_v(0, "0");
	check_v(-0.0, "-0");
	check_v(1, "1");
	check_v(-2.5, "-2.5");
	check_v(0.1 + 0.2, "0.30000000000000004");
	check_v(1.7180000000000001e-06, "1.7180000000000001e-06");
	check_v(1.0000000000000002e-06, "1.0000000000000002e-06");
	check_v(999999, "999999");
	check_v(1000000, "1e+06");
	check_v(123456.7, "123456.7");
	check_v(5e-324, "5e-324");
	check_v(1.7976931348623157e308, "1.7976931348623157e+308");
	check_v(0x1p-1022, "2.2250738585072014e-308");
	check_v(9007199254740992.0, "9.007199254740992e+15");
	check_v(INFINITY, "+Inf");
	check_v(-INFINITY, "-Inf");
	check_v(NAN, "NaN");

	check_f(1.7345, 3, "1.734");
	check_f(2.5, 0, "2");
	check_f(3.5, 0, "4");
	check_f(-0.0, 3, "-0.000");
	check_f(89.77, 2, "89.77");
	check_f(INFINITY, 3, "+Inf");
	check_f(-INFINITY, 1, "-Inf");
	check_f(NAN, 2, "NaN");
}

int
main(void)
{
	test_math_reference();
	test_choose_table();
	test_special_values();
	test_parse_float();
	test_atoi();
	test_format();
	return tap_done();
}
