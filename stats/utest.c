/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The two-sided Mann-Whitney U test of go-moremath (utest.go, udist.go),
 * reproduced bit for bit but much faster: the exact distribution without
 * ties is the Mann-Whitney recurrence, cached per (n1, n2); with ties it is
 * the Cheung-Klotz recurrence of makeUmemo, computed bottom-up over dense
 * arrays instead of hash maps and cached per (n1, n2, tie pattern).
 *
 * Why the arrays give identical bits: every makeUmemo entry A[k][(n, 2U)]
 * is a function of its key alone (it sums, for rk ascending, the entry of
 * level k-1, or Choose(tsum, n') above twoUmax, or 0 below twoUmin, times
 * Choose(t[k-1], rk)), so computing a superset of the keys Go visits, with
 * the same operations in the same order, yields the same doubles.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/utest.h"
#include "stats/gomath.h"

/* go-moremath MannWhitneyExactLimit and MannWhitneyTiesExactLimit. */
#define UTEST_EXACT_LIMIT	50
#define UTEST_TIES_EXACT_LIMIT	25
#define UTEST_MAXN		(2 * UTEST_TIES_EXACT_LIMIT)

#define NONE			INT_MIN

struct uentry {
	struct uentry	*next;
	uint64_t	 hash;
	int		 ties;		/* 0: no-ties CDF, 1: tie counts */
	int		 n1, n2, k;
	int		*t;		/* tie run lengths (ties only) */
	/*
	 * No ties: vals[u] = CDF numerator sums for u in [0, hi].
	 * Ties: vals[0] = the count for 2U <= lo (== hi).
	 */
	double		*vals;
	int		 lo, hi;
};

struct bm_ucache {
	struct uentry	**buckets;
	size_t		  nbuckets;
	size_t		  count;
	/* Go's Choose(n, k) for n <= UTEST_MAXN (the tie recurrence). */
	double		  choose[UTEST_MAXN + 1][UTEST_MAXN + 1];
	/* Scratch for the tie recurrence. */
	double		 *lvl[2];
	size_t		  lvlcap[2];
};

struct bm_ucache *
bm_ucache_new(void)
{
	struct bm_ucache	*c = xcalloc(1, sizeof(*c));
	int			 n, k;

	c->nbuckets = 256;
	c->buckets = xcalloc(c->nbuckets, sizeof(*c->buckets));
	for (n = 0; n <= UTEST_MAXN; n++)
		for (k = 0; k <= n; k++)
			c->choose[n][k] = go_choose(n, k);
	return c;
}

void
bm_ucache_free(struct bm_ucache *c)
{
	struct uentry	*e, *next;
	size_t		 i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nbuckets; i++) {
		for (e = c->buckets[i]; e != NULL; e = next) {
			next = e->next;
			free(e->t);
			free(e->vals);
			free(e);
		}
	}
	free(c->buckets);
	free(c->lvl[0]);
	free(c->lvl[1]);
	free(c);
}

static uint64_t
ukey_hash(int ties, int n1, int n2, const int *t, int k)
{
	uint64_t	h = 14695981039346656037ULL;
	int		i;

#define MIX(v) do { h ^= (uint64_t)(unsigned)(v); h *= 1099511628211ULL; } \
	while (0)
	MIX(ties);
	MIX(n1);
	MIX(n2);
	MIX(k);
	for (i = 0; i < k; i++)
		MIX(t[i]);
#undef MIX
	return h;
}

static struct uentry *
ucache_find(struct bm_ucache *c, uint64_t h, int ties, int n1, int n2,
    const int *t, int k, int w)
{
	struct uentry	*e;

	for (e = c->buckets[h % c->nbuckets]; e != NULL; e = e->next) {
		if (e->hash == h && e->ties == ties && e->n1 == n1 &&
		    e->n2 == n2 && e->k == k && e->lo == w &&
		    (k == 0 || memcmp(e->t, t, k * sizeof(*t)) == 0))
			return e;
	}
	return NULL;
}

static void
ucache_insert(struct bm_ucache *c, struct uentry *e)
{
	struct uentry	**nb, *x, *next;
	size_t		  i, nn;

	if (c->count >= c->nbuckets) {
		nn = c->nbuckets * 2;
		nb = xcalloc(nn, sizeof(*nb));
		for (i = 0; i < c->nbuckets; i++) {
			for (x = c->buckets[i]; x != NULL; x = next) {
				next = x->next;
				x->next = nb[x->hash % nn];
				nb[x->hash % nn] = x;
			}
		}
		free(c->buckets);
		c->buckets = nb;
		c->nbuckets = nn;
	}
	e->next = c->buckets[e->hash % c->nbuckets];
	c->buckets[e->hash % c->nbuckets] = e;
	c->count++;
}

/*
 * UDist.p without ties: the Mann-Whitney recurrence for U = 0..ulim,
 * ported operation for operation.  Returns the cumulative sums
 * cum[i] = pdf[0] + ... + pdf[i], added in increasing i as CDF does.
 */
static double *
udist_cumulative(int n1, int n2, int ulim)
{
	int	 nn = n1 < n2 ? n1 : n2, mm = n1 < n2 ? n2 : n1;
	int	 m, n, nlim, u1, ul;
	double	*memo, *lp, *rp, *out, *cum, nplusm, l, r, p;

	memo = xcalloc((size_t)(nn + 1) * (ulim + 1), sizeof(*memo));
#define ROW(i) (memo + (size_t)(i) * (ulim + 1))
	for (m = 0; m <= mm; m++) {
		ROW(0)[0] = 1;
		nlim = nn < m ? nn : m;
		for (n = 1; n <= nlim; n++) {
			lp = ROW(n - 1);
			rp = n <= m - 1 ? ROW(n) : ROW(m - 1);
			ul = n * m < ulim ? n * m : ulim;
			out = ROW(n);
			nplusm = (double)(n + m);
			for (u1 = ul; u1 >= 0; u1--) {
				l = 0.0;
				if (u1 - m >= 0)
					l = (double)n * lp[u1 - m];
				r = (double)m * rp[u1];
				out[u1] = (l + r) / nplusm;
			}
		}
	}
	cum = xmalloc((size_t)(ulim + 1) * sizeof(*cum));
	p = 0.0;
	out = ROW(nn);
	for (u1 = 0; u1 <= ulim; u1++) {
		p += out[u1];
		cum[u1] = p;
	}
#undef ROW
	free(memo);
	return cum;
}

/* UDist{n1, n2}.CDF(u) without ties. */
static double
udist_cdf_noties(struct bm_ucache *c, int n1, int n2, double u)
{
	struct uentry	*e;
	uint64_t	 h;
	int		 ui, flip, nn, mm, nm = n1 * n2;
	double		 p;

	if (u < 0)
		return 0;
	if (u >= (double)nm)
		return 1;
	ui = (int)floor(u);
	flip = ui >= (nm + 1) / 2;
	if (flip)
		ui = nm - ui - 1;

	/* p_{n,m} = p_{m,n}: one table per unordered pair. */
	nn = n1 < n2 ? n1 : n2;
	mm = n1 < n2 ? n2 : n1;
	h = ukey_hash(0, nn, mm, NULL, 0);
	e = ucache_find(c, h, 0, nn, mm, NULL, 0, 0);
	if (e == NULL) {
		e = xcalloc(1, sizeof(*e));
		e->hash = h;
		e->n1 = nn;
		e->n2 = mm;
		e->lo = 0;
		e->hi = (nm + 1) / 2 - 1 > 0 ? (nm + 1) / 2 - 1 : 0;
		e->vals = udist_cumulative(nn, mm, e->hi);
		ucache_insert(c, e);
	}
	p = e->vals[ui];
	return flip ? 1 - p : p;
}

static double *
scratch(struct bm_ucache *c, int which, size_t n)
{
	if (n > c->lvlcap[which]) {
		c->lvlcap[which] = n * 2;
		c->lvl[which] = xreallocarray(c->lvl[which], c->lvlcap[which],
		    sizeof(double));
	}
	return c->lvl[which];
}

/*
 * The tie recurrence's bounds for one (n1, t): a[k] = 2*(ranks below group
 * k) + t[k-1], tsum[k] = sum t[:k], twoUmin(n) and twoUmax(n, t[:k]); per
 * (k, n) the interval [lo, hi] of 2U values the recurrence visits, and the
 * interval [slo, shi] kept in the level buffer: [lo, hi] and every value
 * level k+1 reads, those below twoUmin stored as 0 and those above twoUmax
 * as Choose(tsum[k], n), so the rows are read without a branch; base is
 * where 2U = 0 of a row would sit in its level buffer.
 */
struct tie_plan {
	const int	*t;
	int		 kk, n1;
	int		 a[UTEST_MAXN + 2], tsum[UTEST_MAXN + 2];
	int		 umin[UTEST_TIES_EXACT_LIMIT + 1];
	int		 umax[UTEST_MAXN + 2][UTEST_TIES_EXACT_LIMIT + 1];
	int		 hi[UTEST_MAXN + 2][UTEST_TIES_EXACT_LIMIT + 1];
	int		 lo[UTEST_MAXN + 2][UTEST_TIES_EXACT_LIMIT + 1];
	int		 shi[UTEST_MAXN + 2][UTEST_TIES_EXACT_LIMIT + 1];
	int		 slo[UTEST_MAXN + 2][UTEST_TIES_EXACT_LIMIT + 1];
	ptrdiff_t	 base[2][UTEST_TIES_EXACT_LIMIT + 1];
};

/* a, tsum, twoUmin and twoUmax; every (k, n) interval empty. */
static void
tie_bounds(struct tie_plan *tp)
{
	const int	*t = tp->t;
	int		 kk = tp->kk, n1 = tp->n1;
	int		 k, n, j, rem, take, s, nmax;

	tp->a[1] = t[0];
	for (k = 2; k <= kk; k++)
		tp->a[k] = tp->a[k - 1] + t[k - 2] + t[k - 1];
	tp->tsum[0] = 0;
	for (k = 1; k <= kk; k++)
		tp->tsum[k] = tp->tsum[k - 1] + t[k - 1];

	/* twoUmin(n, t[:k]) does not depend on k while n <= tsum[k]. */
	for (n = 0; n <= n1; n++) {
		s = -n * n;
		rem = n;
		for (j = 1; j <= kk && rem > 0; j++) {
			take = rem < t[j - 1] ? rem : t[j - 1];
			s += take * tp->a[j];
			rem -= take;
		}
		tp->umin[n] = s;
	}
	/* twoUmax(n, t[:k]): fill from group k downwards. */
	for (k = 2; k <= kk; k++) {
		nmax = n1 < tp->tsum[k] ? n1 : tp->tsum[k];
		s = 0;
		j = k;
		take = 0;
		tp->umax[k][0] = 0;
		for (n = 1; n <= nmax; n++) {
			while (take == t[j - 1]) {
				j--;
				take = 0;
			}
			s += tp->a[j];
			take++;
			tp->umax[k][n] = s - n * n;
		}
		for (n = 0; n <= n1; n++) {
			tp->hi[k][n] = tp->shi[k][n] = NONE;
			tp->lo[k][n] = tp->slo[k][n] = INT_MAX;
		}
	}
}

/*
 * Top-down: the keys (n', w') that makeUmemo adds to A[k] from a key
 * (n, w) of A[k+1] are w' = w - rk*(a[k+1] - 2n + rk) within
 * [twoUmin, twoUmax].  Keep the range of them per (k, n'), and the range
 * of every w' read (within those bounds or not).
 */
static void
tie_ranges(struct tie_plan *tp, int target)
{
	const int	*t = tp->t;
	int		 k, n, rk, rklo, rkhi, c0, np, wp, lv, hv, nmax;

	tp->hi[tp->kk][tp->n1] = tp->lo[tp->kk][tp->n1] = target;
	tp->shi[tp->kk][tp->n1] = tp->slo[tp->kk][tp->n1] = target;
	for (k = tp->kk - 1; k >= 2; k--) {
		nmax = tp->n1 < tp->tsum[k + 1] ? tp->n1 : tp->tsum[k + 1];
		for (n = 0; n <= nmax; n++) {
			if (tp->hi[k + 1][n] == NONE)
				continue;
			rklo = n - tp->tsum[k] > 0 ? n - tp->tsum[k] : 0;
			rkhi = n < t[k] ? n : t[k];
			for (rk = rklo; rk <= rkhi; rk++) {
				c0 = rk * (tp->a[k + 1] - 2 * n + rk);
				np = n - rk;
				wp = tp->hi[k + 1][n] - c0;
				lv = tp->lo[k + 1][n] - c0;
				if (wp > tp->shi[k][np])
					tp->shi[k][np] = wp;
				if (lv < tp->slo[k][np])
					tp->slo[k][np] = lv;
				if (wp < tp->umin[np] || lv > tp->umax[k][np])
					continue;
				hv = wp < tp->umax[k][np] ? wp : tp->umax[k][np];
				lv = lv > tp->umin[np] ? lv : tp->umin[np];
				if (hv > tp->hi[k][np])
					tp->hi[k][np] = hv;
				if (lv < tp->lo[k][np])
					tp->lo[k][np] = lv;
			}
		}
	}
}

/* Level 2, from the first two groups alone: a sum of Choose products. */
static void
tie_row_first(const struct tie_plan *tp, const double (*ch)[UTEST_MAXN + 1],
    int n, double *buf, ptrdiff_t b)
{
	const int	*t = tp->t;
	int		 w, r2, r2lo, r2hi, n2tot = t[0] + t[1];
	double		 asum;

	r2lo = n - t[0] > 0 ? n - t[0] : 0;
	for (w = tp->lo[2][n]; w <= tp->hi[2][n]; w++) {
		asum = 0.0;
		/* Go's integer division truncates. */
		r2hi = (w - n * (t[0] - n)) / n2tot;
		/* Larger r2 only add Choose() == 0. */
		if (r2hi > n)
			r2hi = n;
		if (r2hi > t[1])
			r2hi = t[1];
		for (r2 = r2lo; r2 <= r2hi; r2++)
			asum += ch[t[0]][n - r2] * ch[t[1]][r2];
		buf[b + w] = asum;
	}
}

/*
 * Two doubles at a time (GCC's vector extension: SSE2 on x86-64); each
 * lane is the same IEEE operation as the scalar code.
 */
typedef double v2d __attribute__((vector_size(16)));

static v2d
v2_load(const double *p)
{
	v2d	v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
v2_store(double *p, v2d v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * Level k >= 3 for n values, from level k-1 in pbuf: for each 2U value w,
 * the sum for rk ascending of the count of level k-1 at (n - rk, w - c0)
 * times Choose(t[k-1], rk), as Go adds them (w by w, the same sums).
 */
static void
tie_row(const struct tie_plan *tp, const double (*ch)[UTEST_MAXN + 1],
    const double *pbuf, int prv, int k, int n, double *row)
{
	int		 tk = tp->t[k - 1], ts = tp->tsum[k - 1];
	int		 i, rk, rklo, rkhi, c0, len = tp->hi[k][n] - tp->lo[k][n] + 1;
	const double	*p0, *p1;
	double		 x;
	v2d		 xv;

	rklo = n - ts > 0 ? n - ts : 0;
	rkhi = n < tk ? n : tk;
	if (rklo == rkhi) {
		/* One term, Choose() == 1: 0 + x*1 is exactly x (x >= 0). */
		c0 = rklo * (tp->a[k] - 2 * n + rklo);
		memcpy(row, pbuf + (tp->base[prv][n - rklo] - c0 +
		    tp->lo[k][n]), (size_t)len * sizeof(*row));
		return;
	}
	if (tk == 1) {
		/* A group of one: 0 + x0*1 + x1*1, which is exactly x0 + x1. */
		c0 = tp->a[k] - 2 * n + 1;
		p0 = pbuf + (tp->base[prv][n] + tp->lo[k][n]);
		p1 = pbuf + (tp->base[prv][n - 1] - c0 + tp->lo[k][n]);
		for (i = 0; i + 1 < len; i += 2)
			v2_store(row + i, v2_load(p0 + i) + v2_load(p1 + i));
		if (i < len)
			row[i] = p0[i] + p1[i];
		return;
	}
	for (rk = rklo; rk <= rkhi; rk++) {
		c0 = rk * (tp->a[k] - 2 * n + rk);
		p1 = pbuf + (tp->base[prv][n - rk] - c0 + tp->lo[k][n]);
		x = ch[tk][rk];
		xv = (v2d){ x, x };
		if (rk == rklo) {
			for (i = 0; i < len; i++)
				row[i] = 0.0 + p1[i] * x;
			continue;
		}
		for (i = 0; i + 1 < len; i += 2)
			v2_store(row + i, v2_load(row + i) +
			    v2_load(p1 + i) * xv);
		if (i < len)
			row[i] += p1[i] * x;
	}
}

/*
 * The stored values of (k, n) outside the computed [lo, hi]: 0 below
 * twoUmin, every placement above twoUmax (what Go's recurrence takes there
 * instead of a memo entry); 0 too for a gap between reads, never read.
 */
static void
tie_pad(double *buf, ptrdiff_t b, int from, int to, int umax, double all)
{
	int	w, mid = umax < to ? umax : to;

	for (w = from; w <= mid; w++)
		buf[b + w] = 0.0;
	for (w = mid >= from ? mid + 1 : from; w <= to; w++)
		buf[b + w] = all;
}

static void
tie_row_pad(const struct tie_plan *tp, const double (*ch)[UTEST_MAXN + 1],
    int k, int n, double *buf, ptrdiff_t b)
{
	int	 umax = tp->umax[k][n];
	double	 all = ch[tp->tsum[k]][n];

	if (tp->hi[k][n] == NONE) {
		/* Nothing computed: every read is out of bounds. */
		tie_pad(buf, b, tp->slo[k][n], tp->shi[k][n], umax, all);
		return;
	}
	tie_pad(buf, b, tp->slo[k][n], tp->lo[k][n] - 1, umax, all);
	tie_pad(buf, b, tp->hi[k][n] + 1, tp->shi[k][n], umax, all);
}

/*
 * makeUmemo(target, n1, t)[K][(n1, target)]: the number of placements of
 * n1 first-sample values in the tie groups t[0..kk-1] with 2U <= target.
 *
 * Top-down, each (k, n) gets the interval [lo, hi] of 2U values that the
 * single top key can reach (Go visits a subset of it); bottom-up, the
 * counts of every interval are computed into dense rows, two levels at a
 * time.
 */
static double
udist_tie_count(struct bm_ucache *c, int n1, const int *t, int kk,
    int target)
{
	struct tie_plan	 tp0, *tp = &tp0;
	const double	(*ch)[UTEST_MAXN + 1] = c->choose;
	int		 k, n, nmax, cur = 0, prv = 1;
	size_t		 total;
	double		*buf = NULL;

	tp->t = t;
	tp->kk = kk;
	tp->n1 = n1;
	tie_bounds(tp);
	tie_ranges(tp, target);

	/* Bottom-up over the dense rows [slo, shi] of each (k, n). */
	for (k = 2; k <= kk; k++) {
		nmax = n1 < tp->tsum[k] ? n1 : tp->tsum[k];
		total = 0;
		for (n = 0; n <= nmax; n++) {
			tp->base[cur][n] = (ptrdiff_t)total - tp->slo[k][n];
			if (tp->shi[k][n] != NONE)
				total += (size_t)(tp->shi[k][n] -
				    tp->slo[k][n] + 1);
		}
		buf = scratch(c, cur, total + 1);
		for (n = 0; n <= nmax; n++) {
			if (tp->shi[k][n] == NONE)
				continue;
			tie_row_pad(tp, ch, k, n, buf, tp->base[cur][n]);
			if (tp->hi[k][n] == NONE)
				continue;
			if (k == 2)
				tie_row_first(tp, ch, n, buf,
				    tp->base[cur][n]);
			else
				tie_row(tp, ch, c->lvl[prv], prv, k, n, buf +
				    (tp->base[cur][n] + tp->lo[k][n]));
		}
		cur ^= 1;
		prv ^= 1;
	}
	/* The last level computed is buf; its only row is (K, n1). */
	return buf[tp->base[prv][n1] + target];
}

/* UDist{n1, n2, t}.CDF(u) with ties. */
static double
udist_cdf_ties(struct bm_ucache *c, int n1, int n2, const int *t, int kk,
    double u)
{
	struct uentry	*e;
	uint64_t	 h;
	int		 w;

	if (u < 0)
		return 0;
	if (u >= (double)(n1 * n2))
		return 1;
	w = (int)(2 * u);
	/* Keyed by the pattern and 2U: the count for 2U <= w. */
	h = ukey_hash(1, n1, n2, t, kk) ^
	    ((uint64_t)(unsigned)w * 0x9e3779b97f4a7c15ULL);
	e = ucache_find(c, h, 1, n1, n2, t, kk, w);
	if (e == NULL) {
		e = xcalloc(1, sizeof(*e));
		e->hash = h;
		e->ties = 1;
		e->n1 = n1;
		e->n2 = n2;
		e->k = kk;
		e->t = xmalloc((size_t)kk * sizeof(*t));
		memcpy(e->t, t, (size_t)kk * sizeof(*t));
		e->vals = xmalloc(sizeof(*e->vals));
		e->vals[0] = udist_tie_count(c, n1, t, kk, w);
		e->lo = e->hi = w;
		ucache_insert(c, e);
	}
	return e->vals[0] / c->choose[n1 + n2][n1];
}

static double
std_normal_cdf(double x)
{
	return go_erfc(-(x - 0) / (1 * M_SQRT2)) / 2;
}

int
utest_mann_whitney(const double *x1, size_t n1, const double *x2, size_t n2,
    struct bm_ucache *cache, double *p, char **cause)
{
	struct bm_ucache	*own = NULL;
	double			*merged, r1 = 0, u1, u2, usmall, nf, mu, sigma;
	double			 numer, z, phi;
	unsigned char		*labels;
	int			*t;
	size_t			 nt = 0, i, j, o, rank1, nx1, n = n1 + n2;
	long long		 tc = 0;
	int			 has_ties = 0, exact;

	*p = 1;
	merged = xmalloc(n * sizeof(*merged));
	labels = xmalloc(n);
	t = xmalloc(n * sizeof(*t));
	for (i = j = o = 0; i < n1 && j < n2; o++) {
		if (x1[i] < x2[j]) {
			merged[o] = x1[i++];
			labels[o] = 1;
		} else {
			merged[o] = x2[j++];
			labels[o] = 2;
		}
	}
	for (; i < n1; i++, o++) {
		merged[o] = x1[i];
		labels[o] = 1;
	}
	for (; j < n2; j++, o++) {
		merged[o] = x2[j];
		labels[o] = 2;
	}

	for (i = 0; i < n;) {
		double v1 = merged[i];

		rank1 = i + 1;
		nx1 = 0;
		/* (Go loops forever on a NaN; always consume one value.) */
		do {
			if (labels[i] == 1)
				nx1++;
			i++;
		} while (i < n && merged[i] == v1);
		if (nx1 != 0)
			r1 += (double)(i + rank1) / 2 * (double)nx1;
		t[nt++] = (int)(i - rank1 + 1);
		tc += (long long)t[nt - 1] * t[nt - 1] * t[nt - 1] - t[nt - 1];
		if (i > rank1)
			has_ties = 1;
	}
	u1 = r1 - (double)(n1 * (n1 + 1)) / 2;
	u2 = (double)(n1 * n2) - u1;
	usmall = u1 < u2 ? u1 : u2;

	exact = (!has_ties && n1 <= UTEST_EXACT_LIMIT &&
	    n2 <= UTEST_EXACT_LIMIT) || (has_ties &&
	    n1 <= UTEST_TIES_EXACT_LIMIT && n2 <= UTEST_TIES_EXACT_LIMIT);
	if (exact) {
		if (nt == 1)
			goto equal;
		if (u1 == u2)
			*p = 1;
		else {
			if (cache == NULL)
				cache = own = bm_ucache_new();
			if (has_ties)
				*p = udist_cdf_ties(cache, (int)n1, (int)n2, t,
				    (int)nt, usmall) * 2;
			else
				*p = udist_cdf_noties(cache, (int)n1, (int)n2,
				    usmall) * 2;
		}
	} else {
		nf = (double)n;
		mu = (double)(n1 * n2) / 2;
		sigma = sqrt((double)(n1 * n2) * ((nf + 1) -
		    (double)tc / (nf * (nf - 1))) / 12);
		if (sigma == 0)
			goto equal;
		numer = u1 - mu;
		if (numer > 0)
			numer -= 0.5;
		else if (numer < 0)
			numer += 0.5;
		z = numer / sigma;
		phi = std_normal_cdf(z);
		*p = 2 * fmin(phi, 1 - std_normal_cdf(z));
	}
	bm_ucache_free(own);
	free(merged);
	free(labels);
	free(t);
	return 0;
equal:
	free(merged);
	free(labels);
	free(t);
	if (cause != NULL)
		*cause = xstrdup("all samples are equal");
	return -1;
}

double
utest_u_cdf(size_t n1, size_t n2, double u, struct bm_ucache *cache)
{
	struct bm_ucache	*own = NULL;
	double			 nm = (double)n1 * (double)n2, mu, sigma, p;

	if (n1 == 0 || n2 == 0)
		return 1;
	if (n1 > UTEST_EXACT_LIMIT || n2 > UTEST_EXACT_LIMIT) {
		if (u < 0)
			return 0;
		if (u >= nm)
			return 1;
		mu = nm / 2;
		sigma = sqrt(nm * ((double)(n1 + n2) + 1) / 12);
		return std_normal_cdf((floor(u) + 0.5 - mu) / sigma);
	}
	if (cache == NULL)
		cache = own = bm_ucache_new();
	p = udist_cdf_noties(cache, (int)n1, (int)n2, u);
	bm_ucache_free(own);
	return p;
}

long
utest_u_critical(size_t n1, size_t n2, double beta, struct bm_ucache *cache)
{
	struct bm_ucache	*own = NULL;
	long			 lo, hi, mid;

	if (n1 == 0 || n2 == 0)
		return -1;
	if (cache == NULL)
		cache = own = bm_ucache_new();
	/* P(U <= lo) <= beta < P(U <= hi); the CDF is 1 at n1*n2. */
	if (utest_u_cdf(n1, n2, 0, cache) > beta) {
		bm_ucache_free(own);
		return -1;
	}
	lo = 0;
	hi = (long)(n1 * n2);
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (utest_u_cdf(n1, n2, (double)mid, cache) <= beta)
			lo = mid;
		else
			hi = mid;
	}
	bm_ucache_free(own);
	return lo;
}
