/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/util's sort_doubles against qsort with cmp_double: the same order
 * for every size from 0 to 300 and for large arrays, on random values,
 * few distinct values, sorted, reversed, equal, organ-pipe and
 * sawtooth inputs, signed zeros and infinities; arrays with NaN end
 * sorted around it with nothing lost.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/unit/tap.h"

static uint64_t	rng = 88172645463325252ULL;

static double
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

enum shape { RANDOM, FEW, SORTED, REVERSED, EQUAL, ORGAN, SAW, ZEROS,
	NSHAPES };
static const char *const shape_name[] = { "random", "few distinct",
	"sorted", "reversed", "all equal", "organ pipe", "sawtooth",
	"signed zeros and infinities" };

static void
fill(double *v, size_t n, enum shape s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		switch (s) {
		case RANDOM:
			v[i] = next() * 1e3 - 500;
			break;
		case FEW:
			v[i] = (double)(int)(next() * 3);
			break;
		case SORTED:
			v[i] = (double)i;
			break;
		case REVERSED:
			v[i] = (double)(n - i);
			break;
		case EQUAL:
			v[i] = 42;
			break;
		case ORGAN:
			v[i] = (double)(i < n / 2 ? i : n - i);
			break;
		case SAW:
			v[i] = (double)(i % 17);
			break;
		default: {
			static const double z[] = { 0.0, -0.0, 1, -1,
			    INFINITY, -INFINITY, 0.5 };

			v[i] = z[(size_t)(next() * 7)];
		}
		}
}

/* Whether sort_doubles orders like qsort: equal as values, place by place. */
static int
same_as_qsort(size_t n, enum shape s)
{
	double	*a = xcalloc(n + 1, sizeof(*a)), *b = xcalloc(n + 1,
		    sizeof(*b));
	size_t	 i;
	int	 same = 1;

	fill(a, n, s);
	memcpy(b, a, n * sizeof(*a));
	sort_doubles(a, n);
	qsort(b, n, sizeof(*b), cmp_double);
	for (i = 0; i < n; i++)
		if (!(a[i] == b[i]))
			same = 0;
	free(a);
	free(b);
	return same;
}

int
main(void)
{
	static const size_t	big[] = { 1000, 4096, 100000 };
	double			 v[64];
	size_t			 n, i, bad, nan;
	int			 s, ordered;

	for (s = 0; s < NSHAPES; s++) {
		bad = 0;
		for (n = 0; n <= 300; n++)
			bad += !same_as_qsort(n, (enum shape)s);
		tap_ok(bad == 0, "%s, 0 to 300 values: as qsort (%zu differ)",
		    shape_name[s], bad);
		for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
			tap_ok(same_as_qsort(big[i], (enum shape)s),
			    "%s, %zu values: as qsort", shape_name[s], big[i]);
	}

	/* NaN has no place in the order: the sort ends and loses nothing. */
	for (i = 0; i < 64; i++)
		v[i] = i % 5 == 0 ? NAN : (double)(63 - i);
	sort_doubles(v, 64);
	for (i = 0, nan = 0; i < 64; i++)
		nan += isnan(v[i]) != 0;
	tap_int_eq((long long)nan, 13LL, "NaN: the sort ends with all 13 NaNs kept");
	for (i = 0, ordered = 1; i < 64; i++)
		if (!isnan(v[i]) && (v[i] < 0 || v[i] > 63 ||
		    v[i] != floor(v[i])))
			ordered = 0;
	tap_ok(ordered, "NaN: every other value is one of those sorted");
	return tap_done();
}
