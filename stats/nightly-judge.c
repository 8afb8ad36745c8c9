/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (nightly-judge.h): per row, the rule replayed
 * over the nights (each night against the distribution of the nights
 * before it since the reference started), the changes it found, and
 * tonight's verdict with its reason.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"
#include "stats/power.h"
#include "stats/quantile.h"

/* The two-night test's power term: Phi^-1(0.8), see the MDE. */
#define NIGHTLY_POWER_Z	0.84

const char *
nightly_verdict_name(enum nightly_verdict v)
{
	switch (v) {
	case NIGHTLY_UNCHANGED:
		return "unchanged";
	case NIGHTLY_IMPROVED:
		return "improved";
	case NIGHTLY_REGRESSED:
		return "regressed";
	case NIGHTLY_INCONCLUSIVE:
		return "inconclusive";
	}
	return "?";
}

const char *
nightly_test_name(enum nightly_test t)
{
	switch (t) {
	case NIGHTLY_TEST_NIGHT:
		return "night test";
	case NIGHTLY_TEST_TWO:
		return "two-night test";
	case NIGHTLY_TEST_ACK:
		return "accepted";
	}
	return "?";
}

void
nightly_judge_options_init(struct nightly_judge_options *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.0005;
	o->window = 30;
	o->min_nights = 3;
}

static int
nightly_has_suffix(const char *s, const char *suffix)
{
	size_t	ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

int
nightly_unit_better(const char *unit, const char *stored)
{
	if (stored != NULL) {
		if (strcmp(stored, "higher") == 0)
			return 1;
		if (strcmp(stored, "lower") == 0)
			return -1;
	}
	/* Costs first: a rate of context switches is still a cost. */
	if (strstr(unit, "ctxsw") != NULL || strstr(unit, "overhead") != NULL)
		return -1;
	if (strcmp(unit, "sec/op") == 0 ||
	    nightly_has_suffix(unit, "-sec/op") ||
	    strcmp(unit, "B") == 0 || nightly_has_suffix(unit, "-B") ||
	    strcmp(unit, "B/op") == 0 || strcmp(unit, "allocs/op") == 0)
		return -1;
	if (strcmp(unit, "iops") == 0 ||
	    strcmp(unit, "bytes_per_second") == 0 ||
	    strcmp(unit, "ops_per_second") == 0 ||
	    nightly_has_suffix(unit, "/s") ||
	    nightly_has_suffix(unit, "_per_second"))
		return 1;
	return 0;
}

double
nightly_median_se(const double *sorted, size_t n)
{
	double	*dev, med, mad;
	size_t	 i;

	if (n < 2)
		return NAN;
	med = stats_quantile_sorted(sorted, n, 0.5);
	dev = xcalloc(n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(sorted[i] - med);
	sort_doubles(dev, n);
	mad = stats_quantile_sorted(dev, n, 0.5);
	free(dev);
	/* 1.4826 MAD estimates a normal sd; the median's se is sqrt(pi/2)
	 * times the mean's. */
	return 1.2533 * 1.4826 * mad / sqrt((double)n);
}

void
nightly_night_of_values(struct nightly_night *t, const double *x, size_t n)
{
	double	*v = xcalloc(n + 1, sizeof(*v));

	memcpy(v, x, n * sizeof(*v));
	sort_doubles(v, n);
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->median = n > 0 ? stats_quantile_sorted(v, n, 0.5) : NAN;
	t->se = nightly_median_se(v, n);
	free(v);
}

/* The reference of a night: what it is compared with. */
struct nightly_ref {
	size_t	k;		/* nights of its level with a value */
	size_t	df;		/* degrees of freedom of sd */
	double	mean, sd;	/* sd at least sqrt(se2) */
	double	se2;		/* typical squared se of medians */
	int	unknown;	/* it needed a night not known */
};

/*
 * Nights [from, h) with a value, the last max of them, into idx (latest
 * first), noisy ones left out when there are 5 nights or more to tell: a
 * standard error over 3 times the typical one (*se2) and over 3 times the
 * nights' robust spread (1.4826 MAD of their medians), as a loaded
 * machine's night has: its median says little about the level,
 * and would widen the reference for `window` nights; a night whose
 * executions merely spread more than the others' while its median is as
 * good as any (bytes, a count: spreads of almost nothing) stays. The sum
 * of their medians into *sum; their count returned.
 */
static size_t
nightly_level(const struct nightly_night *nights, size_t from, size_t h,
    size_t max, size_t *idx, double *se2, double *sum, int *unknown)
{
	double	*v, limit, med, mad;
	size_t	 j, n = 0, nse = 0, k = 0;

	v = xcalloc(max + 1, sizeof(*v));
	for (j = h; j > from && n < max; j--) {
		if (nights[j - 1].unknown)
			*unknown = 1;
		if (isnan(nights[j - 1].median))
			continue;
		idx[n++] = j - 1;
		if (isfinite(nights[j - 1].se))
			v[nse++] = nights[j - 1].se * nights[j - 1].se;
	}
	/* Medians by selection: the sorts were most of nightly's time. */
	*se2 = 0;
	if (nse > 0)
		*se2 = stats_median_select(v, nse);
	limit = *se2;
	if (n > 2) {
		for (j = 0; j < n; j++)
			v[j] = nights[idx[j]].median;
		med = stats_median_select(v, n);
		for (j = 0; j < n; j++)
			v[j] = fabs(nights[idx[j]].median - med);
		mad = 1.4826 * stats_median_select(v, n);
		if (mad * mad > limit)
			limit = mad * mad;
	}
	free(v);
	*sum = 0;
	for (j = 0; j < n; j++) {
		const struct nightly_night	*t = &nights[idx[j]];

		if (n >= 5 && isfinite(t->se) && t->se * t->se > 9 * limit)
			continue;
		idx[k++] = idx[j];
		*sum += t->median;
	}
	return k;
}

/* The squared deviations of nights idx[0..k) from their mean. */
static double
nightly_ss(const struct nightly_night *nights, const size_t *idx, size_t k,
    double mean)
{
	double	ss = 0;
	size_t	i;

	for (i = 0; i < k; i++)
		ss += (nights[idx[i]].median - mean) *
		    (nights[idx[i]].median - mean);
	return ss;
}

/*
 * The reference of night h: the level of the nights since the latest
 * start (starts[ns - 1]: the first night, a change, an accepted night),
 * the last `window` of them; its spread pooled with the spreads of the
 * levels before, each about its own mean, latest first, up to `window`
 * nights in all: a change moves the level, not the night-to-night noise,
 * so the night after a change is judged already (against the one night
 * of the new level, with the noise the nights before showed), and a
 * change found in error does not leave the rule blind for a week.
 */
static void
nightly_ref_of(const struct nightly_night *nights, const size_t *starts,
    size_t ns, size_t h, size_t window, struct nightly_ref *r)
{
	double	 sum, psum, ss, pse2;
	size_t	*idx, i, pk, total;

	memset(r, 0, sizeof(*r));
	idx = xcalloc(window + 1, sizeof(*idx));
	r->k = nightly_level(nights, starts[ns - 1], h, window, idx, &r->se2,
	    &sum, &r->unknown);
	if (r->k == 0)
		goto out;
	r->mean = sum / (double)r->k;
	ss = nightly_ss(nights, idx, r->k, r->mean);
	r->df = r->k - 1;
	total = r->k;
	for (i = ns - 1; i > 0 && total < window; i--) {
		pse2 = r->se2;
		pk = nightly_level(nights, starts[i - 1], starts[i],
		    window - total, idx, &pse2, &psum, &r->unknown);
		total += pk;
		if (pk > 1) {
			ss += nightly_ss(nights, idx, pk, psum / (double)pk);
			r->df += pk - 1;
		}
	}
	r->sd = r->df > 0 ? sqrt(ss / (double)r->df) : 0;
	/* Nights cannot vary less than their medians do: a few nights that
	 * happen to agree would otherwise make any next night a change. */
	if (r->sd * r->sd < r->se2)
		r->sd = sqrt(r->se2);
out:
	free(idx);
}

/* The denominator of z for night t against r. */
static double
nightly_scale(const struct nightly_ref *r, const struct nightly_night *t)
{
	double	v = r->sd * r->sd * (1 + 1 / (double)r->k);

	/* A noisy night (a loaded machine) is judged with its own noise:
	 * what it has beyond the reference's typical. */
	if (isfinite(t->se) && t->se * t->se > r->se2)
		v += t->se * t->se - r->se2;
	return sqrt(v);
}

/* The denominator of the two-night test's z, were both nights like t. */
static double
nightly_scale2(const struct nightly_ref *r, const struct nightly_night *t)
{
	double	v = r->sd * r->sd * (0.5 + 1 / (double)r->k);

	if (isfinite(t->se) && t->se * t->se > r->se2)
		v += (t->se * t->se - r->se2) / 2;
	return sqrt(v);
}

static double
nightly_z(const struct nightly_ref *r, const struct nightly_night *t)
{
	double	d = t->median - r->mean, s = nightly_scale(r, t);

	if (s > 0)
		return d / s;
	return d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
}

/* z of the mean of nights a and b against r. */
static double
nightly_z2(const struct nightly_ref *r, const struct nightly_night *a,
    const struct nightly_night *b)
{
	double	d = (a->median + b->median) / 2 - r->mean;
	double	v = r->sd * r->sd * (0.5 + 1 / (double)r->k);

	if (isfinite(a->se) && a->se * a->se > r->se2)
		v += (a->se * a->se - r->se2) / 4;
	if (isfinite(b->se) && b->se * b->se > r->se2)
		v += (b->se * b->se - r->se2) / 4;
	if (v > 0)
		return d / sqrt(v);
	return d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
}

/* Quantiles kept: two levels (the night test's and the two-night test's)
 * at up to 64 degrees of freedom. */
#define NIGHTLY_TQ_DF	64

/*
 * Student's t quantile with df degrees of freedom, two-sided a. Each is
 * computed once (GSL's inversion is most of a night's work otherwise):
 * the same numbers, kept in a small table (not thread-safe, as nightly
 * is not).
 */
static double
nightly_limit(size_t df, double a)
{
	static double	level[2], q[2][NIGHTLY_TQ_DF];
	size_t		i;

	if (df >= NIGHTLY_TQ_DF)
		return gsl_cdf_tdist_Qinv(a / 2, (double)df);
	for (i = 0; i < 2; i++)
		if (level[i] == a)
			break;
	if (i == 2) {
		/* A new level: the last one used before moves down. */
		level[1] = level[0];
		memcpy(q[1], q[0], sizeof(q[0]));
		level[0] = a;
		memset(q[0], 0, sizeof(q[0]));
		i = 0;
	}
	if (q[i][df] == 0)
		q[i][df] = gsl_cdf_tdist_Qinv(a / 2, (double)df);
	return q[i][df];
}

static double
nightly_alpha2(const struct nightly_judge_options *o)
{
	/*
	 * Six times the night test's: the mean of two nights is checked on
	 * every night, and its alarms come in runs (and need both nights
	 * on one side); t-nightly-sim measures the false alarms of both.
	 */
	double	a2 = 6 * o->alpha;

	return a2 > 0.5 ? 0.5 : a2;
}

static double
nightly_rel(double before, double after)
{
	return before == 0 ? NAN : (after - before) / fabs(before);
}

static void
nightly_add_change(struct nightly_row *row, const struct nightly_change *c)
{
	row->changes = xreallocarray(row->changes, row->nchanges + 1,
	    sizeof(*row->changes));
	row->changes[row->nchanges++] = *c;
}

/*
 * The reference of the night judged last, kept for the next night, which
 * needs it again (the two-night test; the outlier's level before) unless
 * the starts changed since: gen counts their pushes and pops.
 */
struct nightly_memo {
	size_t			 h;	/* (size_t)-1: none */
	unsigned long		 gen;	/* the starts' when r was made */
	unsigned long		 now;	/* the starts' now */
	struct nightly_ref	 r;
};

/*
 * A change the night test found on night prev, alone on its level, when
 * night h is back within the two-night test's limit of the level before:
 * it was one outlier night (a machine loaded for one night), not a
 * change. It is marked transient, its night leaves every reference
 * (its median NaN in nt), and the level before is restored; so the
 * night back does not raise a second alarm. 1 when so.
 */
static int
nightly_outlier(const struct nightly_judge_options *o,
    struct nightly_night *nt, size_t h, size_t prev, size_t *starts,
    size_t *ns, struct nightly_row *row, struct nightly_memo *m)
{
	struct nightly_change	*last;
	struct nightly_ref	 r;

	if (row->nchanges == 0 || *ns < 2 || prev == (size_t)-1)
		return 0;
	last = &row->changes[row->nchanges - 1];
	if (last->test != NIGHTLY_TEST_NIGHT || last->transient ||
	    last->night != prev || starts[*ns - 1] != prev)
		return 0;
	/* Found on night prev, its start pushed after prev's reference. */
	if (m->h == prev && m->gen + 1 == m->now)
		r = m->r;
	else
		nightly_ref_of(nt, starts, *ns - 1, prev, o->window, &r);
	row->incomplete |= r.unknown;
	if (r.k == 0 || r.df + 1 < o->min_nights ||
	    fabs(nightly_z(&r, &nt[h])) >= nightly_limit(r.df,
	    nightly_alpha2(o)))
		return 0;
	last->transient = 1;
	last->back = h;
	nt[prev].median = NAN;
	(*ns)--;
	m->now++;
	return 1;
}

/*
 * Last night's change, found by the night test and still a level (not
 * made an outlier tonight, no change tonight), sized again over its two
 * nights (nightly_change.rel2).
 */
static void
nightly_resize(const struct nightly_night *nt, size_t h, size_t prev,
    struct nightly_row *row, int tonight)
{
	struct nightly_change	*c;

	if (row->nchanges == 0 || prev == (size_t)-1)
		return;
	c = &row->changes[row->nchanges - 1];
	if (c->test != NIGHTLY_TEST_NIGHT || c->transient || c->resized ||
	    c->night != prev)
		return;
	c->resized = 1;
	c->found2 = h;
	c->after2 = (nt[prev].median + nt[h].median) / 2;
	c->rel2 = nightly_rel(c->before, c->after2);
	if (tonight)
		row->resized = 1;
}

/*
 * Judge night h (with a value) of nt against its reference: the level
 * since (*starts)[*ns - 1], the spread pooled over the levels before; a
 * change found starts a new level at its night (appended to *starts).
 * prev: the night with a value before h, or (size_t)-1. tonight: set
 * tonight's numbers in row.
 */
static void
nightly_night_judge(const struct nightly_judge_options *o,
    struct nightly_night *nt, const int64_t *ids, const int64_t *no,
    size_t h, size_t prev, size_t **starts, size_t *ns,
    struct nightly_row *row, int tonight, struct nightly_memo *m)
{
	struct nightly_ref		 r, rp;
	struct nightly_memo		 last;
	struct nightly_change		 c;
	double				 z, z1, z2, lim;
	size_t				 from;
	int				 found = 0;

	memset(&c, 0, sizeof(c));
	if (nightly_outlier(o, nt, h, prev, *starts, ns, row, m)) {
		if (tonight)
			row->outlier_back = 1;
		prev = (size_t)-1;
	}
	from = (*starts)[*ns - 1];
	nightly_ref_of(nt, *starts, *ns, h, o->window, &r);
	row->incomplete |= r.unknown;
	last = *m;
	m->h = h;
	m->gen = m->now;
	m->r = r;
	if (tonight) {
		row->k = r.k;
		row->ref_from = from;
		row->ref_mean = r.mean;
		row->ref_sd = r.sd;
	}
	if (r.k >= 1 && r.df + 1 >= o->min_nights) {
		z = nightly_z(&r, &nt[h]);
		lim = nightly_limit(r.df, o->alpha);
		if (tonight) {
			double	a2;

			a2 = nightly_limit(r.df, nightly_alpha2(o));
			row->judged = 1;
			row->z = z;
			row->limit = lim;
			row->delta = nightly_rel(r.mean, nt[h].median);
			row->mde = r.mean == 0 ? INFINITY : (a2 +
			    NIGHTLY_POWER_Z) * nightly_scale2(&r, &nt[h]) /
			    fabs(r.mean);
		}
		if (fabs(z) >= lim) {
			c.night = c.found = h;
			c.test = NIGHTLY_TEST_NIGHT;
			c.z = z;
			c.limit = lim;
			c.k = r.k;
			c.before = r.mean;
			c.after = nt[h].median;
			found = 1;
		}
	}
	if (!found && prev != (size_t)-1 && prev >= from) {
		if (last.h == prev && last.gen == m->now)
			rp = last.r;
		else
			nightly_ref_of(nt, *starts, *ns, prev, o->window, &rp);
		row->incomplete |= rp.unknown;
		if (rp.k >= 1 && rp.df + 1 >= o->min_nights) {
			z1 = nightly_z(&rp, &nt[prev]);
			z2 = nightly_z(&rp, &nt[h]);
			z = nightly_z2(&rp, &nt[prev], &nt[h]);
			lim = nightly_limit(rp.df, nightly_alpha2(o));
			/* Both nights on the side of their mean: one night's
			 * outlier is the night test's to judge. */
			if (fabs(z) >= lim && (z1 > 0) == (z > 0) &&
			    (z2 > 0) == (z > 0)) {
				c.night = prev;
				c.found = h;
				c.test = NIGHTLY_TEST_TWO;
				c.z = z;
					c.limit = lim;
				c.k = rp.k;
				c.before = rp.mean;
				c.after = (nt[prev].median + nt[h].median) / 2;
				found = 1;
			}
		}
	}
	if (!found) {
		nightly_resize(nt, h, prev, row, tonight);
		return;
	}
	c.run_id = ids[c.night];
	c.number = no[c.night];
	c.rel = nightly_rel(c.before, c.after);
	nightly_add_change(row, &c);
	if (tonight)
		row->new_change = 1;
	*starts = xreallocarray(*starts, *ns + 1, sizeof(**starts));
	(*starts)[(*ns)++] = c.night;
	m->now++;
}

/*
 * Replay the rule over nights from.. of in; tonight's numbers into row.
 * From a state (from > 0): the starts are the first night and the nights
 * of the changes that were not outliers, in their order (an outlier's
 * start was taken back the night after it), and an outlier's night is
 * out of every reference again.
 */
static void
nightly_replay(const struct nightly_judge_options *o,
    const struct nightly_input *in, const int64_t *ids, const int64_t *no,
    size_t nnights, size_t from, struct nightly_row *row)
{
	struct nightly_night	*nt;
	struct nightly_memo	 memo;
	size_t			*starts, ns = 1, h, i;
	size_t			 prev = from > 0 ? row->last_night : (size_t)-1;

	memset(&memo, 0, sizeof(memo));
	memo.h = (size_t)-1;
	/* A copy: an outlier night's median is taken out of it. */
	nt = xcalloc(nnights + 1, sizeof(*nt));
	memcpy(nt, in->nights, nnights * sizeof(*nt));
	starts = xcalloc(row->nchanges + 1, sizeof(*starts));
	for (i = 0; i < row->nchanges; i++) {
		if (row->changes[i].transient) {
			if (row->changes[i].night < nnights) {
				nt[row->changes[i].night].median = NAN;
				nt[row->changes[i].night].unknown = 0;
			}
			continue;
		}
		starts[ns++] = row->changes[i].night;
	}
	for (h = from; h < nnights; h++) {
		if (nt[h].ack && h > starts[ns - 1]) {
			struct nightly_change	c;

			memset(&c, 0, sizeof(c));
			c.night = c.found = h;
			c.test = NIGHTLY_TEST_ACK;
			c.z = c.limit = NAN;
			c.before = c.after = c.rel = NAN;
			c.run_id = ids[h];
			c.number = no[h];
			nightly_add_change(row, &c);
			starts = xreallocarray(starts, ns + 1,
			    sizeof(*starts));
			starts[ns++] = h;
			memo.now++;
		}
		if (isnan(nt[h].median))
			continue;
		row->nnights++;
		nightly_night_judge(o, nt, ids, no, h, prev, &starts, &ns, row,
		    h + 1 == nnights, &memo);
		prev = h;
	}
	row->last_night = prev;
	free(starts);
	free(nt);
}

/* -1 bad, +1 good, 2 a change of unknown direction, 0 none, for a
 * relative change rel of row. */
static int
nightly_sense(const struct nightly_row *row, double rel, double threshold)
{
	if (isnan(rel) || fabs(rel) < threshold)
		return 0;
	if (row->better == 0)
		return 2;
	return (rel > 0) == (row->better > 0) ? 1 : -1;
}

/* "change at night 6 (run 7): +98.41% vs 5 nights, night test z=..." */
static void
nightly_change_text(struct strbuf *sb, const struct nightly_change *c)
{
	if (c->test == NIGHTLY_TEST_ACK) {
		strbuf_addf(sb, "new reference from night %" PRId64 " (run %"
		    PRId64 "), accepted", c->number, c->run_id);
		return;
	}
	strbuf_addf(sb, "%s at night %" PRId64 " (run %" PRId64 "): ",
	    c->transient ? "outlier" : "change", c->number, c->run_id);
	if (isnan(c->rel))
		strbuf_adds(sb, "?");
	else
		strbuf_addf(sb, "%+.2f%%", 100 * c->rel);
	strbuf_addf(sb, " vs %zu night%s, %s z=%+.2f", c->k, c->k == 1 ? "" :
	    "s", nightly_test_name(c->test), c->z);
	strbuf_addf(sb, " beyond %.2f", c->limit);
	if (c->found != c->night)
		strbuf_addf(sb, ", found the night after");
	if (c->transient)
		strbuf_addf(sb, ", back the night after: not a change");
}

static void
nightly_decide(const struct nightly_judge_options *o, const char *unit,
    const int64_t *no, struct nightly_row *row)
{
	const struct nightly_change	*last = NULL, *outlier = NULL;
	struct strbuf			 why = STRBUF_INIT;
	char				 m[32], t[32];
	size_t				 i;
	int				 s = 0, resized = 0;

	/* The latest change that was one: outliers are named only on the
	 * night that found them out. */
	for (i = row->nchanges; i > 0 && last == NULL; i--)
		if (!row->changes[i - 1].transient)
			last = &row->changes[i - 1];
	for (i = row->nchanges; i > 0 && outlier == NULL; i--)
		if (row->changes[i - 1].transient)
			outlier = &row->changes[i - 1];
	if (row->new_change)
		s = nightly_sense(row, last->rel, row->threshold);
	else if (row->resized && last != NULL && last->resized &&
	    nightly_sense(row, last->rel, row->threshold) == 0 &&
	    (s = nightly_sense(row, last->rel2, row->threshold)) != 0)
		resized = 1;
	if (s == -1)
		row->verdict = NIGHTLY_REGRESSED;
	else if (s == 2)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (s == 1)
		row->verdict = NIGHTLY_IMPROVED;
	else if (row->new_change)
		row->verdict = NIGHTLY_UNCHANGED;
	else if (!row->judged)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (!(row->mde <= row->threshold)) {
		row->verdict = NIGHTLY_INCONCLUSIVE;
		row->too_noisy = 1;
	} else
		row->verdict = NIGHTLY_UNCHANGED;

	power_pct(row->threshold, t, sizeof(t));
	if (row->too_noisy) {
		power_pct(row->mde, m, sizeof(m));
		strbuf_addf(&why, "MDE %s at %zu night%s > threshold %s%s; ",
		    m, row->k, row->k == 1 ? "" : "s", t,
		    row->threshold_calibrated ? " (calibrated)" : "");
	}
	if (row->new_change) {
		strbuf_adds(&why, "new ");
		nightly_change_text(&why, last);
		if (s == 0)
			strbuf_addf(&why, "; below the threshold %s", t);
	} else if (resized) {
		strbuf_addf(&why, "%+.2f%% over the 2 nights of ",
		    100 * last->rel2);
		nightly_change_text(&why, last);
	} else if (row->judged) {
		if (isnan(row->delta))
			strbuf_adds(&why, "?");
		else
			strbuf_addf(&why, "%+.2f%%", 100 * row->delta);
		strbuf_addf(&why, " vs %zu night%s, night test z=%+.2f within "
		    "%.2f", row->k, row->k == 1 ? "" : "s", row->z,
		    row->limit);
	} else if (row->ncand == 0)
		strbuf_adds(&why, "no value tonight");
	else
		strbuf_addf(&why, "%zu night%s to compare with since night %"
		    PRId64 ", %zu needed", row->k, row->k == 1 ? "" : "s",
		    no[row->ref_from], o->min_nights);
	if (row->outlier_back && outlier != NULL) {
		strbuf_adds(&why, "; ");
		nightly_change_text(&why, outlier);
	}
	if (last != NULL && !row->new_change && !resized) {
		strbuf_adds(&why, last->test == NIGHTLY_TEST_ACK ? "; " :
		    "; known ");
		nightly_change_text(&why, last);
	}
	if (row->better == 0 && s == 2)
		strbuf_addf(&why, "; direction of unit '%s' unknown", unit);
	row->reason = strbuf_detach(&why);
}

int
nightly_judge_rows(const struct nightly_judge_options *o,
    const struct nightly_input *in, size_t n, const int64_t *night_ids,
    const int64_t *night_no, size_t nnights, struct nightly_row *rows,
    char **cause)
{
	return nightly_judge_rows_from(o, in, n, night_ids, night_no, nnights,
	    0, rows, cause);
}

int
nightly_judge_rows_from(const struct nightly_judge_options *o,
    const struct nightly_input *in, size_t n, const int64_t *night_ids,
    const int64_t *night_no, size_t nnights, size_t from,
    struct nightly_row *rows, char **cause)
{
	size_t	i, h;

	if (!(o->alpha > 0 && o->alpha < 1))
		return set_cause(cause, "alpha '%g' is not in (0, 1)",
		    o->alpha);
	if (o->min_nights < 2 || o->window < o->min_nights)
		return set_cause(cause, "a reference of %zu to %zu nights "
		    "cannot be judged", o->min_nights, o->window);
	for (i = 0; i < n; i++)
		for (h = from; h < nnights; h++)
			if (isinf(in[i].nights[h].median))
				return set_cause(cause, "night %" PRId64
				    " (run %" PRId64 ") of '%s': median '%g' "
				    "is not finite", night_no[h], night_ids[h],
				    in[i].unit, in[i].nights[h].median);
	for (i = 0; i < n; i++) {
		struct nightly_row	*row = &rows[i];
		const struct nightly_night *tn = nnights > 0 ?
		    &in[i].nights[nnights - 1] : NULL;

		row->better = in[i].better;
		row->verdict = NIGHTLY_INCONCLUSIVE;
		row->reason = NULL;
		row->ncand = tn != NULL ? tn->n : 0;
		row->cand_median = tn != NULL ? tn->median : NAN;
		row->judged = 0;
		row->k = 0;
		row->ref_from = 0;
		row->ref_mean = row->ref_sd = NAN;
		row->delta = row->z = row->limit = NAN;
		row->mde = INFINITY;
		row->threshold = in[i].threshold;
		row->threshold_calibrated = in[i].threshold_calibrated;
		row->too_noisy = 0;
		if (from == 0) {
			row->changes = NULL;
			row->nchanges = 0;
			row->nnights = 0;
			row->last_night = (size_t)-1;
		}
		row->new_change = 0;
		row->outlier_back = 0;
		row->resized = 0;
		row->incomplete = 0;
		nightly_replay(o, &in[i], night_ids, night_no, nnights, from,
		    row);
		nightly_decide(o, in[i].unit, night_no, row);
	}
	return 0;
}

int
nightly_change_alarm(const struct nightly_change *c, double threshold,
    size_t *found, double *rel)
{
	if (c->test == NIGHTLY_TEST_ACK)
		return 0;
	if (fabs(c->rel) >= threshold) {
		*found = c->found;
		*rel = c->rel;
		return 1;
	}
	if (c->resized && fabs(c->rel2) >= threshold) {
		*found = c->found2;
		*rel = c->rel2;
		return 1;
	}
	return 0;
}

/* The version of nightly_state_text's line; another is not read. */
#define NIGHTLY_STATE_VERSION	1

/* The digits of a double's bits: 11 of 6 bits, most significant first. */
static const char nightly_b64[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/* " N" in decimal (by hand: printf was most of the writing). */
static void
nightly_state_num(struct strbuf *sb, uint64_t u)
{
	char	tmp[24];
	int	k = sizeof(tmp);

	do {
		tmp[--k] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	tmp[--k] = ' ';
	strbuf_add(sb, tmp + k, sizeof(tmp) - (size_t)k);
}

/* " " and the bits of d in 11 digits of nightly_b64. */
static void
nightly_state_bits(struct strbuf *sb, double d)
{
	char		tmp[12];
	uint64_t	u;
	int		k;

	memcpy(&u, &d, sizeof(u));
	tmp[0] = ' ';
	for (k = 11; k > 0; k--) {
		tmp[k] = nightly_b64[u & 63];
		u >>= 6;
	}
	strbuf_add(sb, tmp, sizeof(tmp));
}

char *
nightly_state_text(const struct nightly_row *row,
    const struct nightly_night *nights, size_t nnights, size_t window)
{
	struct strbuf	 sb = STRBUF_INIT, kept = STRBUF_INIT;
	size_t		*starts, ns = 1, i, j, taken, count = 0, nkept = 0;
	size_t		 at = 0, reread;
	unsigned char	*out;

	strbuf_addf(&sb, "%d %zu %zd %zu", NIGHTLY_STATE_VERSION,
	    row->nnights, row->last_night == (size_t)-1 ? (ssize_t)-1 :
	    (ssize_t)row->last_night, row->nchanges);
	/* The starts and the outliers' nights, as nightly_replay has them. */
	starts = xcalloc(row->nchanges + 1, sizeof(*starts));
	out = xcalloc(nnights + 1, 1);
	for (i = 0; i < row->nchanges; i++) {
		const struct nightly_change	*c = &row->changes[i];

		strbuf_addf(&sb, " %zu %zu %" PRId64 " %" PRId64 " %d %d %zu "
		    "%d %zu %zu", c->night, c->found, c->run_id, c->number,
		    (int)c->test, c->transient, c->back, c->resized,
		    c->found2, c->k);
		nightly_state_bits(&sb, c->z);
		nightly_state_bits(&sb, c->limit);
		nightly_state_bits(&sb, c->before);
		nightly_state_bits(&sb, c->after);
		nightly_state_bits(&sb, c->rel);
		nightly_state_bits(&sb, c->after2);
		nightly_state_bits(&sb, c->rel2);
		if (c->transient) {
			if (c->night < nnights)
				out[c->night] = 1;
		} else
			starts[ns++] = c->night;
	}
	/*
	 * Each level's last window + 1 (tomorrow's two-night test takes
	 * tonight's reference again), back to 2 (window + 1) in all: the
	 * levels before the latest are read for the nights its reference
	 * lacks, as many more as it left out as noisy (t-nightly-state: with
	 * window + 8 in all, 13 of 13,140 nights needed one more).
	 */
	reread = nnights > window + 1 ? nnights - 1 - window : 0;
	for (i = ns; i > 0 && count < 2 * (window + 1); i--) {
		taken = 0;
		for (j = i == ns ? nnights : starts[i]; j > starts[i - 1] &&
		    taken < window + 1; j--) {
			const struct nightly_night	*t = &nights[j - 1];

			/* An outlier's night is the changes'; a night
			 * without a value is kept (as NaN: the references
			 * pass over it) and not counted. */
			if (out[j - 1])
				continue;
			if (!t->unknown && !isnan(t->median)) {
				taken++;
				count++;
			} else if (t->unknown) {
				taken++;
				count++;
				continue;
			}
			/* The caller reads the last window + 1 nights
			 * again. */
			if (j - 1 >= reread)
				continue;
			/* The first night's index, then each one's
			 * distance from the one before (latest first). */
			nightly_state_num(&kept, nkept == 0 ? j - 1 :
			    at - (j - 1));
			at = j - 1;
			nightly_state_bits(&kept, t->median);
			nightly_state_bits(&kept, t->se);
			nkept++;
		}
	}
	strbuf_addf(&sb, " %zu", nkept);
	strbuf_add(&sb, kept.buf != NULL ? kept.buf : "", kept.len);
	strbuf_release(&kept);
	free(starts);
	free(out);
	return strbuf_detach(&sb);
}

/* The next number of *p, decimal (at most max) or the bits of a double
 * in hexadecimal; -1 when it is not one. By hand: strtoull's locale and
 * errno were most of a resumed night's time. */
static int
nightly_state_u(const char **p, uint64_t max, uint64_t *v)
{
	const char	*q = *p;
	uint64_t	 x = 0;

	while (*q == ' ')
		q++;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*q - '0');
	}
	if (x > max || (*q != ' ' && *q != '\0'))
		return -1;
	*v = x;
	*p = q;
	return 0;
}

static int
nightly_state_i(const char **p, int64_t *v)
{
	uint64_t	u;
	int		neg = 0;

	while (**p == ' ')
		(*p)++;
	if (**p == '-') {
		neg = 1;
		(*p)++;
	}
	if (nightly_state_u(p, INT64_MAX, &u) != 0)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int
nightly_state_d(const char **p, double *v)
{
	const char	*q = *p;
	uint64_t	 u = 0;
	int		 n, k;

	while (*q == ' ')
		q++;
	for (n = 0; n < 11; n++, q++) {
		if (*q >= '0' && *q <= '9')
			k = *q - '0';
		else if (*q >= 'A' && *q <= 'Z')
			k = *q - 'A' + 10;
		else if (*q >= 'a' && *q <= 'z')
			k = *q - 'a' + 36;
		else if (*q == '-' || *q == '_')
			k = *q == '-' ? 62 : 63;
		else
			return -1;
		u = u << 6 | (uint64_t)k;
	}
	if (*q != ' ' && *q != '\0')
		return -1;
	memcpy(v, &u, sizeof(*v));
	*p = q;
	return 0;
}

/* The changes of a state line at *p (nc of them) into *out. */
static int
nightly_state_changes(const char **p, uint64_t nc,
    struct nightly_change **out)
{
	struct nightly_change	*c;
	uint64_t		 u[8], i, j;
	int64_t			 id, no;
	double			*d[7];

	c = *out = xcalloc(nc + 1, sizeof(*c));
	for (i = 0; i < nc; i++, c++) {
		d[0] = &c->z;
		d[1] = &c->limit;
		d[2] = &c->before;
		d[3] = &c->after;
		d[4] = &c->rel;
		d[5] = &c->after2;
		d[6] = &c->rel2;
		if (nightly_state_u(p, SIZE_MAX / 2, &u[0]) != 0 ||
		    nightly_state_u(p, SIZE_MAX / 2, &u[1]) != 0 ||
		    nightly_state_i(p, &id) != 0 ||
		    nightly_state_i(p, &no) != 0 ||
		    nightly_state_u(p, NIGHTLY_TEST_ACK, &u[2]) != 0 ||
		    nightly_state_u(p, 1, &u[3]) != 0 ||
		    nightly_state_u(p, SIZE_MAX / 2, &u[4]) != 0 ||
		    nightly_state_u(p, 1, &u[5]) != 0 ||
		    nightly_state_u(p, SIZE_MAX / 2, &u[6]) != 0 ||
		    nightly_state_u(p, SIZE_MAX / 2, &u[7]) != 0)
			return -1;
		for (j = 0; j < 7; j++)
			if (nightly_state_d(p, d[j]) != 0)
				return -1;
		c->night = (size_t)u[0];
		c->found = (size_t)u[1];
		c->run_id = id;
		c->number = no;
		c->test = (enum nightly_test)u[2];
		c->transient = (int)u[3];
		c->back = (size_t)u[4];
		c->resized = (int)u[5];
		c->found2 = (size_t)u[6];
		c->k = (size_t)u[7];
	}
	return 0;
}

int
nightly_state_parse(const char *text, struct nightly_row *row,
    struct nightly_night *nights, size_t nnights)
{
	struct nightly_change	*c = NULL;
	const char		*p = text;
	uint64_t		 ver, nn, nc, nk, i, *at = NULL;
	int64_t			 last;
	double			*v = NULL;

	if (nightly_state_u(&p, 1000, &ver) != 0 ||
	    ver != NIGHTLY_STATE_VERSION ||
	    nightly_state_u(&p, SIZE_MAX / 2, &nn) != 0 ||
	    nightly_state_i(&p, &last) != 0 || last < -1 ||
	    nightly_state_u(&p, 1000000, &nc) != 0)
		return -1;
	if (nightly_state_changes(&p, nc, &c) != 0 ||
	    nightly_state_u(&p, nnights, &nk) != 0)
		goto bad;
	/* Read whole before a night is set. */
	at = xcalloc(nk + 1, sizeof(*at));
	v = xcalloc(2 * nk + 1, sizeof(*v));
	for (i = 0; i < nk; i++) {
		if (nightly_state_u(&p, i == 0 ? nnights - 1 : at[i - 1],
		    &at[i]) != 0 || (i > 0 && at[i] == 0) ||
		    nightly_state_d(&p, &v[2 * i]) != 0 ||
		    nightly_state_d(&p, &v[2 * i + 1]) != 0)
			goto bad;
		if (i > 0)
			at[i] = at[i - 1] - at[i];
	}
	if (*p != '\0')
		goto bad;
	for (i = 0; i < nk; i++) {
		nights[at[i]].median = v[2 * i];
		nights[at[i]].se = v[2 * i + 1];
		nights[at[i]].unknown = 0;
	}
	free(at);
	free(v);
	free(row->changes);
	row->changes = c;
	row->nchanges = (size_t)nc;
	row->nnights = (size_t)nn;
	row->last_night = last < 0 ? (size_t)-1 : (size_t)last;
	return 0;
bad:
	free(at);
	free(v);
	free(c);
	return -1;
}

void
nightly_row_release(struct nightly_row *row)
{
	free(row->arm);
	free(row->benchmark);
	free(row->unit);
	free(row->reason);
	free(row->changes);
	free(row->nights);
	memset(row, 0, sizeof(*row));
}

char *
nightly_verdict_text(const struct nightly_row *row)
{
	char	m[32];

	if (!row->too_noisy)
		return xstrdup(nightly_verdict_name(row->verdict));
	power_pct(row->mde, m, sizeof(m));
	return xasprintf("%s (too noisy: MDE %s)",
	    nightly_verdict_name(row->verdict), m);
}
