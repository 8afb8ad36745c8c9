/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x/perf benchmath: sample summaries (median with an order-statistic CI,
 * or the mode for assume=exact), comparisons (U test), and the strings
 * benchstat prints for them (spec §6, §7).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchmath.h"
#include "stats/quantile.h"
#include "stats/utest.h"
#include "stats/gomath.h"

static void
warnings_add(struct bm_warnings *w, char *msg)
{
	w->msg = xreallocarray(w->msg, w->n + 1, sizeof(*w->msg));
	w->msg[w->n++] = msg;
}

static void
warnings_release(struct bm_warnings *w)
{
	size_t	i;

	for (i = 0; i < w->n; i++)
		free(w->msg[i]);
	free(w->msg);
	w->msg = NULL;
	w->n = 0;
}

/*
 * QuantileCI(n, 0.5, confidence), memoized per thread: benchstat asks for
 * the same few (n, confidence) pairs thousands of times.
 */
static void
median_ci(int n, double confidence, struct quantile_ci *out)
{
	static _Thread_local struct {
		int			n;
		double			conf;
		struct quantile_ci	ci;
	} memo[16];
	static _Thread_local unsigned	nmemo, next;
	unsigned			i;

	for (i = 0; i < nmemo; i++) {
		if (memo[i].n == n && memcmp(&memo[i].conf, &confidence,
		    sizeof(confidence)) == 0) {
			*out = memo[i].ci;
			return;
		}
	}
	quantile_ci(n, 0.5, confidence, out);
	i = nmemo < 16 ? nmemo++ : next++ % 16;
	memo[i].n = n;
	memo[i].conf = confidence;
	memo[i].ci = *out;
}

void
bm_summarize(const double *xs, size_t n, enum bm_assumption a,
    double confidence, struct bm_summary *out)
{
	struct quantile_ci	ci;
	char			conf[32], lo[32], hi[32];
	size_t			i, count, mode_count;
	double			val, mode;
	int			need;

	memset(out, 0, sizeof(*out));
	if (a == BM_ASSUME_EXACT) {
		val = mode = xs[0];
		count = mode_count = 1;
		for (i = 1; i < n; i++) {
			if (xs[i] == val) {
				if (++count > mode_count) {
					mode = val;
					mode_count = count;
				}
			} else {
				val = xs[i];
				count = 1;
			}
		}
		out->center = mode;
		out->lo = xs[0];
		out->hi = xs[n - 1];
		if (mode_count != n) {
			go_format_v(xs[0], lo, sizeof(lo));
			go_format_v(xs[n - 1], hi, sizeof(hi));
			warnings_add(&out->warnings, xasprintf("exact "
			    "distribution expected, but values range from %s "
			    "to %s", lo, hi));
		}
		return;
	}

	median_ci((int)n, confidence, &ci);
	if (ci.nan_order) {
		out->panic = 1;
		return;
	}
	out->center = stats_quantile_sorted(xs, n, 0.5);
	out->lo = ci.lo_order < 1 ? -INFINITY : xs[ci.lo_order - 1];
	out->hi = ci.hi_order - 1 >= (int)n ? INFINITY : xs[ci.hi_order - 1];
	if (isinf(out->lo) || isinf(out->hi)) {
		/* How many samples would give a finite interval? */
		for (need = 2; need <= 50; need++) {
			median_ci(need, confidence, &ci);
			if (ci.lo_order > 0 && ci.hi_order <= need)
				break;
		}
		go_format_v(confidence, conf, sizeof(conf));
		warnings_add(&out->warnings, xasprintf("need %s %d samples for "
		    "confidence interval at level %s", need <= 50 ? ">=" : ">",
		    need <= 50 ? need : 50, conf));
	}
}

void
bm_summary_release(struct bm_summary *s)
{
	if (s != NULL)
		warnings_release(&s->warnings);
}

/* go-moremath mathx.Sign: NaN for NaN, which equals nothing. */
static double
sign_of(double x)
{
	return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : NAN;
}

void
bm_summary_pct_range(const struct bm_summary *s, char *buf, size_t len)
{
	double	a, b, v;

	if (isinf(s->lo) || isinf(s->hi)) {
		snprintf(buf, len, "\xe2\x88\x9e");
		return;
	}
	if (sign_of(s->center) != sign_of(s->lo) ||
	    sign_of(s->center) != sign_of(s->hi)) {
		snprintf(buf, len, "?");
		return;
	}
	if (s->center == 0) {
		snprintf(buf, len, "0%%");
		return;
	}
	a = s->hi / s->center - 1;
	b = 1 - s->lo / s->center;
	/* Go math.Max: NaN wins. */
	v = isnan(a) || isnan(b) ? NAN : a > b ? a : b;
	/* Go's %.0f spells the specials "NaN", "+Inf", "-Inf". */
	if (isnan(v))
		snprintf(buf, len, "NaN%%");
	else if (isinf(100 * v))
		snprintf(buf, len, "%s%%", v > 0 ? "+Inf" : "-Inf");
	else
		snprintf(buf, len, "%.0f%%", 100 * v);
}

/* uTestMinP[n]: the smallest U-test p-value with two samples of size n. */
static const double utest_min_p[] = {
	0, 1, 0.3333333333333333, 0.1, 0.02857142857142857,
	0.007936507936507936, 0.0021645021645021645, 0.0005827505827505828,
	0.0001554001554001554, 4.113533525298231e-05,
};

void
bm_compare(const double *x1, size_t n1, const double *x2, size_t n2,
    enum bm_assumption a, double alpha, struct bm_ucache *cache,
    struct bm_comparison *out)
{
	char	*cause = NULL, astr[32];
	size_t	 need;
	double	 p;

	memset(out, 0, sizeof(*out));
	out->n1 = n1;
	out->n2 = n2;
	if (a == BM_ASSUME_EXACT) {
		out->p = 0;
		out->alpha = 0;
		return;
	}
	out->alpha = alpha;
	if (utest_mann_whitney(x1, n1, x2, n2, cache, &p, &cause) != 0) {
		out->p = 1;
		warnings_add(&out->warnings, cause);
		return;
	}
	out->p = p;
	if (out->p > out->alpha) {
		for (need = 1; need < 10; need++)
			if (utest_min_p[need] <= alpha)
				break;
		if (n1 < need && n2 < need) {
			go_format_v(alpha, astr, sizeof(astr));
			warnings_add(&out->warnings, xasprintf("need %s %zu "
			    "samples to detect a difference at alpha level %s",
			    need < 10 ? ">=" : ">", need, astr));
		}
	}
}

void
bm_comparison_release(struct bm_comparison *c)
{
	if (c != NULL)
		warnings_release(&c->warnings);
}

void
bm_format_delta(const struct bm_comparison *c, double old_center,
    double new_center, char *buf, size_t len)
{
	char	num[400];

	if (c->p > c->alpha)
		snprintf(buf, len, "~");
	else if (old_center == new_center)
		snprintf(buf, len, "0.00%%");
	else if (old_center == 0)
		snprintf(buf, len, "?");
	else {
		double pct = ((new_center / old_center) - 1.0) * 100.0;

		/* Go's %+.2f spells these "+NaN", "+Inf", "-Inf". */
		if (isnan(pct))
			snprintf(buf, len, "+NaN%%");
		else if (isinf(pct))
			snprintf(buf, len, "%s%%", pct > 0 ? "+Inf" : "-Inf");
		else {
			snprintf(num, sizeof(num), "%+.2f%%", pct);
			snprintf(buf, len, "%s", num);
		}
	}
}

void
bm_comparison_string(const struct bm_comparison *c, char *buf, size_t len)
{
	char	p[32] = "";

	if (c->p != 0) {
		/* Go's %.3f spells the specials NaN, +Inf, -Inf. */
		snprintf(p, sizeof(p), "p=");
		go_format_f(c->p, 3, p + 2, sizeof(p) - 3);
		strcat(p, " ");
	}
	if (c->n1 == c->n2)
		snprintf(buf, len, "%sn=%zu", p, c->n1);
	else
		snprintf(buf, len, "%sn=%zu+%zu", p, c->n1, c->n2);
}
