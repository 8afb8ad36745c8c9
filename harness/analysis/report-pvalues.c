/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's table of p-values (see report-int.h): every comparison of
 * an arm against the baseline, Holm- and Benjamini-Hochberg-corrected,
 * with the MDE each could have seen (powerdata.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/core/experiment.h"
#include "harness/analysis/nightly.h"
#include "harness/analysis/plot.h"
#include "harness/analysis/powerdata.h"
#include "harness/analysis/markup.h"
#include "harness/analysis/report.h"
#include "harness/analysis/report-int.h"
#include "harness/analysis/run-advice.h"
#include "harness/analysis/shifts.h"
#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchmath.h"
#include "stats/benchstat.h"
#include "stats/benchunit.h"
#include "stats/correct.h"
#include "stats/sampletab.h"


/*
 * Each arm but the baseline against it, per row of the sample table: in
 * the order of the arm's first value there.
 */
static struct report_cmp *
report_pvalues_collect(const struct report *r, const struct sampletab *t,
    size_t *ncp)
{
	struct report_cmp	*c = NULL;
	size_t			 nc = 0, capc = 0, i;
	int			 base = sampletab_arm(t, r->run.arms[0]);

	for (i = 0; i < t->ncells; i++) {
		const struct sampletab_cell	*cell = &t->cells[i];
		const struct sampletab_row	*row = &t->rows[cell->row];

		if ((int)cell->arm == base)
			continue;
		XGROW(c, nc, capc);
		memset(&c[nc], 0, sizeof(c[nc]));
		c[nc].benchmark = row->benchmark;
		c[nc].unit = row->unit;
		c[nc].arm = t->arms[cell->arm];
		c[nc].cell = cell;
		c[nc].base = base < 0 ? NULL : sampletab_cell(t, row,
		    (size_t)base);
		c[nc].n1 = c[nc].base != NULL ? c[nc].base->n : 0;
		c[nc].n2 = cell->n;
		nc++;
	}
	*ncp = nc;
	return c;
}

/*
 * Each comparison's centers, delta and U-test p, then Holm and BH over
 * the tested ones; returns how many were tested.
 */
static size_t
report_pvalues_test(const struct report *r, const struct sampletab *t,
    struct report_cmp *c, size_t nc)
{
	struct bm_ucache	*uc;
	size_t			 i, k, n1, n2, ntested = 0;
	double			*x1, *x2, *ps, *holm, *bh;

	uc = bm_ucache_new();
	x1 = xcalloc(t->nvalues + 1, sizeof(double));
	x2 = xcalloc(t->nvalues + 1, sizeof(double));
	ps = xcalloc(nc + 1, sizeof(double));
	holm = xcalloc(nc + 1, sizeof(double));
	bh = xcalloc(nc + 1, sizeof(double));
	for (k = 0; k < nc; k++) {
		struct bm_comparison	cmp;
		struct bm_summary	s1, s2;

		n1 = c[k].n1;
		n2 = c[k].n2;
		for (i = 0; i < n1; i++)
			x1[i] = c[k].base->v[i].value;
		for (i = 0; i < n2; i++)
			x2[i] = c[k].cell->v[i].value;
		c[k].p = c[k].holm = c[k].bh = c[k].delta = NAN;
		if (n1 == 0 || n2 == 0)
			continue;
		xqsort(x1, n1, sizeof(double), cmp_double);
		xqsort(x2, n2, sizeof(double), cmp_double);
		bm_summarize(x1, n1, BM_ASSUME_NOTHING, 0.95, &s1);
		bm_summarize(x2, n2, BM_ASSUME_NOTHING, 0.95, &s2);
		c[k].base_center = s1.center;
		c[k].center = s2.center;
		if (s1.center != 0)
			c[k].delta = s2.center / s1.center - 1;
		bm_summary_release(&s1);
		bm_summary_release(&s2);
		/* The same test and p benchstat prints. */
		bm_compare(x1, n1, x2, n2, BM_ASSUME_NOTHING, r->alpha, uc,
		    &cmp);
		if (!isnan(cmp.p)) {
			c[k].p = cmp.p;
			c[k].tested = 1;
			ps[ntested++] = cmp.p;
		}
		bm_comparison_release(&cmp);
	}
	pvalues_holm(ps, ntested, holm);
	pvalues_bh(ps, ntested, bh);
	for (k = 0, i = 0; k < nc; k++)
		if (c[k].tested) {
			c[k].holm = holm[i];
			c[k].bh = bh[i];
			i++;
		}
	bm_ucache_free(uc);
	free(x1);
	free(x2);
	free(ps);
	free(holm);
	free(bh);
	return ntested;
}

/* The paragraphs that say how the table was made. */
static void
report_pvalues_intro(struct report *r, const struct padvice *adv,
    size_t ntested)
{
	char	*intro, buf[64], mbuf[64];

	snprintf(buf, sizeof(buf), "%g", r->alpha);
	/* The MDE's: the run's (adv is zeroed when it could not be made). */
	snprintf(mbuf, sizeof(mbuf), "%g", adv->opt.alpha > 0 ?
	    adv->opt.alpha : EXPERIMENT_ALPHA);
	intro = xasprintf("Each arm against %s, Mann-Whitney "
	    "U as in the tables above; %zu tests adjusted "
	    "together with Holm (family-wise error) and "
	    "Benjamini-Hochberg (false discovery rate). A "
	    "change survives when its adjusted p < %s.",
	    r->run.arms[0], ntested, buf);
	report_para(r, intro);
	free(intro);
	if (adv->calib_run != 0)
		intro = xasprintf("MDE: the smallest change the U test "
		    "at this n (executions; a gobench invocation's "
		    "lines count once) detects with 80%% power at "
		    "alpha %s, by resampling the noise of calibration "
		    "run %" PRId64 " (abbench power).", mbuf,
		    adv->calib_run);
	else
		intro = xasprintf("MDE: the smallest change the U test "
		    "at this n (executions; a gobench invocation's "
		    "lines count once) detects with 80%% power at "
		    "alpha %s, by resampling the noise of the baseline "
		    "arm %s (abbench power).", mbuf, r->run.arms[0]);
	report_para(r, intro);
	free(intro);
}

static int
report_cmp_adv(const void *a, const void *b)
{
	const struct padvice_row	*x = *(const struct padvice_row *const *)a;
	const struct padvice_row	*y = *(const struct padvice_row *const *)b;
	int				 c;

	if ((c = strcmp(x->benchmark, y->benchmark)) != 0)
		return c;
	return strcmp(x->unit, y->unit);
}

static int
report_cmp_adv_stable(const void *a, const void *b)
{
	const struct padvice_row *const	*x = a, *const *y = b;
	int				 c;

	if ((c = report_cmp_adv(a, b)) != 0)
		return c;
	return *x < *y ? -1 : *x > *y;
}

/* One comparison's row of the table; adv's rows sorted in by (NULL: none). */
static void
report_pvalues_row(struct report *r, const struct report_cmp *c,
    const struct padvice_row *const *by, size_t nby)
{
	char				 b1[32], b2[32], d[32], p[32], h[32];
	char				 q[32], m[32];
	int				 sh = c->tested && c->holm < r->alpha;
	int				 sb = c->tested && c->bh < r->alpha;
	double				 vals[2] = { c->base_center, c->center };
	struct scaler			 sc;
	struct padvice_row		 key;
	const struct padvice_row	*kp = &key;
	const struct padvice_row *const	*hit;

	/* Scaled as benchstat scales a row. */
	scaler_common(vals, 2, unit_class_of(c->unit), &sc);
	scaler_format(&sc, vals[0], b1, sizeof(b1));
	scaler_format(&sc, vals[1], b2, sizeof(b2));
	snprintf(d, sizeof(d), isnan(c->delta) ? "?" : "%+.2f%%",
	    100 * c->delta);
	snprintf(p, sizeof(p), c->tested ? "%.4f" : "-", c->p);
	snprintf(h, sizeof(h), c->tested ? "%.4f" : "-", c->holm);
	snprintf(q, sizeof(q), c->tested ? "%.4f" : "-", c->bh);
	report_row_begin(r);
	report_cell(r, c->benchmark);
	report_cell(r, c->unit);
	report_cell(r, c->arm);
	report_cell(r, b1);
	report_cell(r, b2);
	report_cell(r, d);
	snprintf(m, sizeof(m), "?");
	key.benchmark = c->benchmark;
	key.unit = c->unit;
	if (nby > 0 && (hit = bsearch(&kp, by, nby, sizeof(*by),
	    report_cmp_adv)) != NULL) {
		/* The last of equal rows, as the scan it replaces found. */
		while ((size_t)(hit - by) + 1 < nby &&
		    report_cmp_adv(hit + 1, &kp) == 0)
			hit++;
		power_pct((*hit)->mde, m, sizeof(m));
	}
	report_cell(r, m);
	report_cell(r, p);
	report_cell(r, h);
	report_cell(r, q);
	if (r->html) {
		strbuf_addf(&r->out, "<td class=\"%s\">%s</td>"
		    "<td class=\"%s\">%s</td>", sh ? "yes" : "no",
		    sh ? "yes" : "no", sb ? "yes" : "no",
		    sb ? "yes" : "no");
	} else {
		report_cell(r, sh ? "**yes**" : "no");
		report_cell(r, sb ? "**yes**" : "no");
	}
	report_row_end(r);
}

/* Every (benchmark, unit, arm) against the baseline arm, p corrected. */
void
report_pvalues(struct report *r)
{
	static const char *const head[] = { "benchmark", "unit", "arm",
		"baseline", "arm median", "delta", "MDE", "p", "Holm", "BH",
		"survives Holm", "survives BH", NULL };
	struct sampletab	*t = r->tab;
	struct report_cmp	*c;
	struct padvice		 adv;
	const struct padvice_row **by;
	struct power_options	 o;
	size_t			 nc, k, ntested;
	char			*cause = NULL;

	report_h2(r, "corrected", "P-values corrected across benchmarks");
	if (r->run.narms < 2) {
		report_para(r, "The run has one arm: no comparisons within "
		    "it (compare runs with abbench stat or nightly).");
		return;
	}
	if (t == NULL) {
		report_para(r, r->tabcause);
		return;
	}
	c = report_pvalues_collect(r, t, &nc);
	ntested = report_pvalues_test(r, t, c, nc);
	/*
	 * What each comparison could have seen (powerdata.h): at the run's
	 * alpha, not --alpha, so that the MDE is the one the decisions'
	 * table, abbench power and the end of the run print.
	 */
	power_advice_options_init(&o);
	o.alpha = EXPERIMENT_ALPHA;
	if (padvice_compute_tab(r->st, r->run.id, t, 0, &o, PADVICE_MDE |
	    PADVICE_CALIBRATION, 0, NULL, NULL, &adv, &cause) == -1) {
		report_para(r, cause);
		free(cause);
		cause = NULL;
		memset(&adv, 0, sizeof(adv));
	}
	report_pvalues_intro(r, &adv, ntested);
	report_table_begin(r, head);
	/* Sorted (stably: by position on ties) for a lookup per row. */
	by = xcalloc(adv.n + 1, sizeof(*by));
	for (k = 0; k < adv.n; k++)
		by[k] = &adv.rows[k];
	if (adv.n > 0)
		xqsort(by, adv.n, sizeof(*by), report_cmp_adv_stable);
	for (k = 0; k < nc; k++)
		report_pvalues_row(r, &c[k], by, adv.n);
	free(by);
	report_table_end(r);
	padvice_release(&adv);
	free(c);
}
