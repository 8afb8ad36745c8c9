/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rune classes for Go's regexp (Go's appendRange, appendFoldedRange,
 * cleanClass, negateClass): used by the parser (lib/goregexp/goregexp-parse.c)
 * and the compiler (lib/goregexp/goregexp.c), below both.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/goregexp/goregexp-int.h"
#include "lib/goregexp/uniprop.h"
/* --- rune classes (Go's appendRange, cleanClass, ...) ---------------- */

void
goregexp_runes_push(struct runes *r, uint32_t x)
{
	XGROW(r->v, r->n, r->cap);
	r->v[r->n++] = x;
}

void
goregexp_append_range(struct runes *r, uint32_t lo, uint32_t hi)
{
	size_t		i, n = r->n;
	uint32_t	rlo, rhi;

	/* Expand one of the last two ranges if it overlaps or abuts. */
	for (i = 2; i <= 4; i += 2) {
		if (n >= i) {
			rlo = r->v[n - i];
			rhi = r->v[n - i + 1];
			if (lo <= rhi + 1 && rlo <= hi + 1) {
				if (lo < rlo)
					r->v[n - i] = lo;
				if (hi > rhi)
					r->v[n - i + 1] = hi;
				return;
			}
		}
	}
	goregexp_runes_push(r, lo);
	goregexp_runes_push(r, hi);
}

void
goregexp_append_folded_range(struct runes *r, uint32_t lo, uint32_t hi)
{
	uint32_t	c, f;

	if (lo <= MIN_FOLD && hi >= MAX_FOLD) {
		goregexp_append_range(r, lo, hi);
		return;
	}
	if (hi < MIN_FOLD || lo > MAX_FOLD) {
		goregexp_append_range(r, lo, hi);
		return;
	}
	if (lo < MIN_FOLD) {
		goregexp_append_range(r, lo, MIN_FOLD - 1);
		lo = MIN_FOLD;
	}
	if (hi > MAX_FOLD) {
		goregexp_append_range(r, MAX_FOLD + 1, hi);
		hi = MAX_FOLD;
	}
	for (c = lo; c <= hi; c++) {
		goregexp_append_range(r, c, c);
		for (f = uni_simple_fold(c); f != c; f = uni_simple_fold(f))
			goregexp_append_range(r, f, f);
	}
}

static int
range_cmp(const void *pa, const void *pb)
{
	const uint32_t	*a = pa, *b = pb;

	/* lo increasing, hi decreasing. */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	if (a[1] != b[1])
		return a[1] > b[1] ? -1 : 1;
	return 0;
}

void
goregexp_clean_class(struct runes *r)
{
	size_t	i, w;

	if (r->n < 2)
		return;
	xqsort(r->v, r->n / 2, 2 * sizeof(uint32_t), range_cmp);
	w = 2;
	for (i = 2; i < r->n; i += 2) {
		if (r->v[i] <= r->v[w - 1] + 1) {
			if (r->v[i + 1] > r->v[w - 1])
				r->v[w - 1] = r->v[i + 1];
			continue;
		}
		r->v[w] = r->v[i];
		r->v[w + 1] = r->v[i + 1];
		w += 2;
	}
	r->n = w;
}

/* Append the complement of the clean class x[0..n). */
void
goregexp_append_negated(struct runes *r, const uint32_t *x, size_t n)
{
	uint32_t	next = 0;
	size_t		i;

	for (i = 0; i < n; i += 2) {
		if (x[i] > next)
			goregexp_append_range(r, next, x[i] - 1);
		next = x[i + 1] + 1;
	}
	if (next <= MAX_RUNE)
		goregexp_append_range(r, next, MAX_RUNE);
}

void
goregexp_negate_class(struct runes *r)
{
	struct runes	out = { NULL, 0, 0 };

	goregexp_append_negated(&out, r->v, r->n);
	free(r->v);
	*r = out;
}
