/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (nightly-judge.h): per row a U test against the
 * baseline (Holm across rows), change points in the nightly medians
 * (E-divisive means), the MDE against the threshold, and the verdict with
 * its reason.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/changepoint.h"
#include "stats/correct.h"
#include "stats/nightly-judge.h"
#include "stats/power.h"
#include "stats/quantile.h"
#include "stats/utest.h"

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

void
nightly_judge_options_init(struct nightly_judge_options *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->cp_alpha = 0.01;
	o->cp_permutations = 199;
	o->cp_min_size = 3;
	o->seed = 1;
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

static double
nightly_sorted_median(const double *sorted, size_t n)
{
	return n == 0 ? NAN : stats_quantile_sorted(sorted, n, 0.5);
}

/* The change points of in's nights into row. */
static int
nightly_changes(const struct nightly_judge_options *o,
    const struct nightly_input *in, const int64_t *night_ids,
    size_t nnights, struct nightly_row *row, char **cause)
{
	struct cp_options	 co;
	struct cp_result	 res;
	double			*series;
	size_t			*night, n = 0, h, i;
	int			 rc;

	series = xcalloc(nnights + 1, sizeof(*series));
	night = xcalloc(nnights + 1, sizeof(*night));
	for (h = 0; h < nnights; h++) {
		if (isnan(in->nights[h]))
			continue;
		series[n] = in->nights[h];
		night[n++] = h;
	}
	row->nnights = n;
	cp_options_init(&co);
	co.alpha = o->cp_alpha;
	co.permutations = o->cp_permutations;
	co.min_size = o->cp_min_size;
	co.rng = gsl_rng_alloc(gsl_rng_mt19937);
	/* The same seed for every row: a row's answer never depends on the
	 * others. */
	gsl_rng_set(co.rng, (unsigned long)o->seed);
	rc = cp_detect(series, n, &co, &res, cause);
	gsl_rng_free(co.rng);
	if (rc == 0 && res.n > 0) {
		row->changes = xcalloc(res.n, sizeof(*row->changes));
		row->nchanges = res.n;
		for (i = 0; i < res.n; i++) {
			struct nightly_change	*c = &row->changes[i];

			c->night = night[res.changes[i].index];
			c->run_id = night_ids[c->night];
			c->p = res.changes[i].p;
			c->before = res.changes[i].median_before;
			c->after = res.changes[i].median_after;
			c->rel_median = res.changes[i].rel_median;
			c->rel_mean = res.changes[i].rel_mean;
		}
	}
	cp_result_release(&res);
	free(series);
	free(night);
	return rc;
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

static void
nightly_decide(const struct nightly_judge_options *o, const char *unit,
    struct nightly_row *row)
{
	const struct nightly_change	*last = NULL;
	struct strbuf			 why = STRBUF_INIT;
	int				 s1 = 0, s2 = 0, powered, enough;

	powered = row->tested && power_min_p(row->nbase, row->ncand) <=
	    o->alpha;
	enough = row->nnights >= 2 * (o->cp_min_size < 2 ? 2 :
	    o->cp_min_size);
	if (row->tested && row->p_holm <= o->alpha)
		s1 = nightly_sense(row, row->delta, row->threshold);
	if (row->nchanges > 0) {
		last = &row->changes[row->nchanges - 1];
		s2 = nightly_sense(row, last->rel_median, row->threshold);
	}
	if (s1 == -1 || s2 == -1)
		row->verdict = NIGHTLY_REGRESSED;
	else if (s1 == 2 || s2 == 2)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (s1 == 1 || s2 == 1)
		row->verdict = NIGHTLY_IMPROVED;
	else if (!powered && !enough)
		row->verdict = NIGHTLY_INCONCLUSIVE;
	else if (!(row->mde <= row->threshold)) {
		row->verdict = NIGHTLY_INCONCLUSIVE;
		row->too_noisy = 1;
	} else
		row->verdict = NIGHTLY_UNCHANGED;

	if (row->too_noisy) {
		char	m[32], t[32];

		power_pct(row->mde, m, sizeof(m));
		power_pct(row->threshold, t, sizeof(t));
		strbuf_addf(&why, "MDE %s at n=%zu+%zu > threshold %s%s; ", m,
		    row->ncand, row->nbase, t, row->threshold_calibrated ?
		    " (calibrated)" : "");
	}
	if (row->nbase == 0)
		strbuf_adds(&why, "no baseline");
	else {
		if (isnan(row->delta))
			strbuf_adds(&why, "?");
		else
			strbuf_addf(&why, "%+.2f%%", 100 * row->delta);
		strbuf_addf(&why, " vs baseline (p=%.3f holm=%.3f n=%zu+%zu)",
		    row->p, row->p_holm, row->ncand, row->nbase);
		if (!powered)
			strbuf_adds(&why, " too few samples for the test");
	}
	if (last != NULL)
		strbuf_addf(&why, "; change at night %zu (run %" PRId64
		    "): %+.2f%%", last->night, last->run_id,
		    100 * last->rel_median);
	else if (!enough)
		strbuf_addf(&why, "; %zu night%s of history, too few for "
		    "change points", row->nnights,
		    row->nnights == 1 ? "" : "s");
	else
		strbuf_addf(&why, "; no change point in %zu nights",
		    row->nnights);
	if (row->better == 0 && (s1 == 2 || s2 == 2))
		strbuf_addf(&why, "; direction of unit '%s' unknown", unit);
	row->reason = strbuf_detach(&why);
}

/* Everything of row from in but the verdict; the U test's p into *p. */
static int
nightly_measure(const struct nightly_judge_options *o,
    const struct power_options *po, struct bm_ucache *uc,
    const struct nightly_input *in, const int64_t *night_ids,
    size_t nnights, struct nightly_row *row, char **cause)
{
	char	*why = NULL;

	row->better = in->better;
	row->verdict = NIGHTLY_INCONCLUSIVE;
	row->reason = NULL;
	row->ncand = in->ncand;
	row->nbase = in->nbase;
	row->cand_median = nightly_sorted_median(in->cand, in->ncand);
	row->base_median = nightly_sorted_median(in->base, in->nbase);
	row->delta = NAN;
	row->tested = 0;
	row->p = row->p_holm = NAN;
	row->nnights = 0;
	row->threshold = in->threshold;
	row->threshold_calibrated = in->threshold_calibrated;
	row->too_noisy = 0;
	row->changes = NULL;
	row->nchanges = 0;
	if (row->nbase > 0 && row->base_median != 0)
		row->delta = (row->cand_median - row->base_median) /
		    fabs(row->base_median);
	if (row->nbase > 0 && row->ncand > 0) {
		if (utest_mann_whitney(in->base, in->nbase, in->cand,
		    in->ncand, uc, &row->p, &why) == -1) {
			/* All values equal: no difference. */
			row->p = 1;
			free(why);
		}
		row->tested = 1;
	}
	if (nightly_changes(o, in, night_ids, nnights, row, cause) == -1)
		return -1;
	row->mde = row->nbase >= 2 && row->ncand > 0 ?
	    power_mde(in->base, row->nbase, row->nbase, row->ncand, po, uc) :
	    INFINITY;
	return 0;
}

int
nightly_judge_rows(const struct nightly_judge_options *o,
    const struct nightly_input *in, size_t n, const int64_t *night_ids,
    size_t nnights, struct nightly_row *rows, char **cause)
{
	struct power_options	 po;
	struct bm_ucache	*uc = bm_ucache_new();
	double			*ps = xcalloc(n + 1, sizeof(*ps));
	size_t			 i, j, ntested = 0;
	int			 rc = -1;

	power_options_init(&po);
	po.alpha = o->alpha;
	po.seed = o->seed;
	for (i = 0; i < n; i++) {
		if (nightly_measure(o, &po, uc, &in[i], night_ids, nnights,
		    &rows[i], cause) == -1)
			goto out;
		if (rows[i].tested)
			ps[ntested++] = rows[i].p;
	}
	pvalues_holm(ps, ntested, ps);
	for (i = 0, j = 0; i < n; i++)
		if (rows[i].tested)
			rows[i].p_holm = ps[j++];
	for (i = 0; i < n; i++)
		nightly_decide(o, in[i].unit, &rows[i]);
	rc = 0;
out:
	bm_ucache_free(uc);
	free(ps);
	return rc;
}

void
nightly_row_release(struct nightly_row *row)
{
	free(row->arm);
	free(row->benchmark);
	free(row->unit);
	free(row->reason);
	free(row->changes);
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
