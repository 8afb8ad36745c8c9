/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/benchunit: unit tidying (spec §2.6), unit classes
 * and the common scaler (spec §9.1, x/perf benchunit's scale_test cases).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/benchunit.h"
#include "tests/unit/tap.h"

static void
check_tidy(const char *unit, const char *want, double want_factor)
{
	double	 factor = -1;
	char	*got = unit_tidy(unit, &factor);

	tap_str_eq(got, want, "tidy '%s' -> '%s'", unit, want);
	tap_ok(factor == want_factor, "tidy '%s' factor %g (got %g)", unit,
	    want_factor, factor);
	free(got);
}

static void
test_tidy(void)
{
	check_tidy("ns/op", "sec/op", 1e-9);
	check_tidy("MB/s", "B/s", 1e6);
	check_tidy("B/op", "B/op", 1);
	check_tidy("allocs/op", "allocs/op", 1);
	check_tidy("user-ns/op", "user-sec/op", 1 / 1e9);
	check_tidy("ns/GC", "sec/GC", 1 / 1e9);
	check_tidy("MB", "B", 1e6);
	check_tidy("GC/ns", "GC/ns", 1);
	check_tidy("nsec", "nsec", 1);
	check_tidy("u01-ns", "u01-sec", 1 / 1e9);
	check_tidy("ns*MB/op", "sec*B/op", 1 / 1e9 * 1e6);
	check_tidy("ns/op*MB", "sec/op*B", 1 / 1e9 * 1e6);
	check_tidy("ns ns", "sec sec", 1 / 1e9 / 1e9);
	check_tidy("ns\xc2\xa0" "MB", "sec\xc2\xa0" "B", 1 / 1e9 * 1e6);
	check_tidy("x\xe2\x80\x83ns", "x\xe2\x80\x83sec", 1 / 1e9);
	check_tidy("sec/op", "sec/op", 1);
	check_tidy("", "", 1);
}

static void
test_class(void)
{
	tap_int_eq(unit_class_of("B/op"), UNIT_BINARY, "B/op is binary");
	tap_int_eq(unit_class_of("B/s"), UNIT_BINARY, "B/s is binary");
	tap_int_eq(unit_class_of("text-bytes"), UNIT_BINARY,
	    "text-bytes is binary");
	tap_int_eq(unit_class_of("MB"), UNIT_BINARY, "MB is binary");
	tap_int_eq(unit_class_of("bytes_per_second"), UNIT_DECIMAL,
	    "bytes_per_second is decimal");
	tap_int_eq(unit_class_of("average_container_size.bytes"),
	    UNIT_DECIMAL, "average_container_size.bytes is decimal");
	tap_int_eq(unit_class_of("KiB/op"), UNIT_DECIMAL, "KiB/op is decimal");
	tap_int_eq(unit_class_of("sec/op"), UNIT_DECIMAL, "sec/op is decimal");
	tap_int_eq(unit_class_of("op/B"), UNIT_DECIMAL, "op/B is decimal");
	tap_int_eq(unit_class_of("op/x*B"), UNIT_BINARY, "op/x*B is binary");
}

static enum unit_class cls;

static void
scale_one(double v, char *buf, size_t len)
{
	struct scaler	sc;

	scaler_common(&v, 1, cls, &sc);
	scaler_format(&sc, v, buf, len);
}

/* Go's benchunit TestScale: v and its predecessor towards zero. */
static void
check_scale(double num, const char *want, const char *want_pred)
{
	char	buf[64];

	scale_one(num, buf, sizeof(buf));
	tap_str_eq(buf, want, "%s scale %.17g", cls ? "binary" : "decimal",
	    num);
	scale_one(nextafter(num, 0), buf, sizeof(buf));
	tap_str_eq(buf, want_pred, "%s scale pred(%.17g)",
	    cls ? "binary" : "decimal", num);
}

static void
test_scale(void)
{
	struct scaler	sc;
	char		buf[64];
	double		vals[3];

	cls = UNIT_DECIMAL;
	check_scale(0, "0.000", "0.000");
	check_scale(1, "1.000", "1.000");
	check_scale(-1, "-1.000", "-1.000");
	check_scale(9999500000000000, "9999.5T", "9999.5T");
	check_scale(999950000000000, "1000.0T", "999.9T");
	check_scale(99995000000000, "100.0T", "99.99T");
	check_scale(9999500000000, "10.00T", "9.999T");
	check_scale(999950000000, "1.000T", "999.9G");
	check_scale(99995000000, "100.0G", "99.99G");
	check_scale(9999500000, "10.00G", "9.999G");
	check_scale(999950000, "1.000G", "999.9M");
	check_scale(99995000, "100.0M", "99.99M");
	check_scale(9999500, "10.00M", "9.999M");
	check_scale(999950, "1.000M", "999.9k");
	check_scale(99995, "100.0k", "99.99k");
	check_scale(9999.5, "10.00k", "9.999k");
	check_scale(999.95, "1.000k", "999.9");
	check_scale(99.995, "100.0", "99.99");
	check_scale(9.9995, "10.00", "9.999");
	check_scale(.99995, "1.000", "999.9m");
	check_scale(.099995, "100.0m", "99.99m");
	check_scale(.0099995, "10.00m", "9.999m");
	check_scale(.00099995, "1.000m", "999.9\xc2\xb5");
	check_scale(.000099995, "100.0\xc2\xb5", "99.99\xc2\xb5");
	check_scale(.0000099995, "10.00\xc2\xb5", "9.999\xc2\xb5");
	check_scale(.00000099995, "1.000\xc2\xb5", "999.9n");
	check_scale(.000000099995, "100.0n", "99.99n");
	check_scale(.0000000099995, "10.00n", "9.999n");
	check_scale(.00000000099995, "1.000n", "0.9999n");
	check_scale(nextafter(.000000000099995, 1), "0.1000n", "0.09999n");
	check_scale(.0000000000099995, "0.01000n", "0.009999n");
	check_scale(nextafter(.00000000000099995, 1), "0.001000n",
	    "0.0009999n");
	check_scale(.000000000000099995, "0.0001000n", "0.00009999n");
	check_scale(.0000000000000099995, "0.00001000n", "0.000009999n");
	check_scale(nextafter(.00000000000000099995, 1), "0.000001000n",
	    "0.0000009999n");
	check_scale(-99995000000000, "-100.0T", "-99.99T");
	check_scale(-.0000000099995, "-10.00n", "-9.999n");

	cls = UNIT_BINARY;
	check_scale(0, "0.000", "0.000");
	check_scale(1, "1.000", "1.000");
	check_scale(-1, "-1.000", "-1.000");
	check_scale(.99995 * 0x1p50, "1023.9Ti", "1023.9Ti");
	check_scale(99.995 * 0x1p40, "100.0Ti", "99.99Ti");
	check_scale(9.9995 * 0x1p40, "10.00Ti", "9.999Ti");
	check_scale(.99995 * 0x1p40, "1.000Ti", "1023.9Gi");
	check_scale(99.995 * 0x1p30, "100.0Gi", "99.99Gi");
	check_scale(9.9995 * 0x1p30, "10.00Gi", "9.999Gi");
	check_scale(.99995 * 0x1p30, "1.000Gi", "1023.9Mi");
	check_scale(99.995 * 0x1p20, "100.0Mi", "99.99Mi");
	check_scale(9.9995 * 0x1p20, "10.00Mi", "9.999Mi");
	check_scale(.99995 * 0x1p20, "1.000Mi", "1023.9Ki");
	check_scale(99.995 * 0x1p10, "100.0Ki", "99.99Ki");
	check_scale(9.9995 * 0x1p10, "10.00Ki", "9.999Ki");
	check_scale(.99995 * 0x1p10, "1.000Ki", "1023.9");
	check_scale(99.995, "100.0", "99.99");
	check_scale(9.9995, "10.00", "9.999");
	check_scale(.99995, "1.000", "0.9999");
	check_scale(.099995, "0.1000", "0.09999");
	check_scale(.0099995, "0.01000", "0.009999");
	check_scale(.00099995, "0.001000", "0.0009999");
	check_scale(.000099995, "0.0001000", "0.00009999");
	check_scale(.0000099995, "0.00001000", "0.000009999");
	check_scale(.00000099995, "0.000001000", "0.0000009999");
	check_scale(.00000009995, "0.0000001000", "0.0000000999");
	check_scale(nextafter(.00000000995, 1), "0.0000000100",
	    "0.0000000099");
	check_scale(.00000000095, "0.0000000010", "0.0000000009");
	check_scale(.00000000005, "0.0000000001", "0.0000000000");
	check_scale(.000000000009, "0.0000000000", "0.0000000000");

	/* Spec §9.1 examples: [1000, 1024) keeps the smaller prefix. */
	scale_one(1000, buf, sizeof(buf));
	tap_str_eq(buf, "1000.0", "binary 1000 stays unprefixed");
	scale_one(1023.5 * 1024, buf, sizeof(buf));
	tap_str_eq(buf, "1023.5Ki", "binary 1023.5Ki");

	/* The smallest non-zero magnitude decides the common scale. */
	vals[0] = 1.734e-6;
	vals[1] = 0;
	vals[2] = -89.77e-9;
	scaler_common(vals, 3, UNIT_DECIMAL, &sc);
	tap_int_eq(sc.prec, 2, "common scale prec");
	tap_str_eq(sc.prefix, "n", "common scale prefix");
	scaler_format(&sc, vals[0], buf, sizeof(buf));
	tap_str_eq(buf, "1734.00n", "common scale formats the larger value");

	/* Infinities scale as huge values; NaN first sticks (prec 10). */
	vals[0] = INFINITY;
	scaler_common(vals, 1, UNIT_DECIMAL, &sc);
	scaler_format(&sc, vals[0], buf, sizeof(buf));
	tap_str_eq(buf, "+InfT", "+Inf scales to T");
	vals[0] = NAN;
	vals[1] = 5;
	scaler_common(vals, 2, UNIT_DECIMAL, &sc);
	tap_int_eq(sc.prec, 10, "NaN first sticks as the minimum");
	scaler_format(&sc, vals[0], buf, sizeof(buf));
	tap_str_eq(buf, "NaNn", "NaN formats as NaN");
	cls = UNIT_DECIMAL;
	scale_one(89.77e-9, buf, sizeof(buf));
	tap_str_eq(buf, "89.77n", "89.77n");
	scale_one(1.734e-6, buf, sizeof(buf));
	tap_str_eq(buf, "1.734\xc2\xb5", "1.734µ");
}

int
main(void)
{
	test_tidy();
	test_class();
	test_scale();
	return tap_done();
}
