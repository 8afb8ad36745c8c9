/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-execution values of a run for the power computations (powerdata.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analysis/powerdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "stats/power.h"
#include "stats/sampletab.h"
#include "stats/utest.h"

int
padvice_parse_pct(const char *s, double *out)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (end == s || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(v > 0 && v < 1000))
		return -1;
	*out = v / 100;
	return 0;
}

int
padvice_compute(struct store *st, int64_t run_id, double effect,
    const struct power_options *o, int want, struct padvice *out,
    char **cause)
{
	return padvice_compute_some(st, run_id, effect, o, want, 0, NULL,
	    NULL, out, cause);
}

int
padvice_compute_some(struct store *st, int64_t run_id, double effect,
    const struct power_options *o, int want, size_t at,
    int (*keep)(const char *benchmark, const char *unit, void *arg),
    void *arg, struct padvice *out, char **cause)
{
	return padvice_compute_tab(st, run_id, NULL, effect, o, want, at,
	    keep, arg, out, cause);
}

int
padvice_compute_tab(struct store *st, int64_t run_id, struct sampletab *tab,
    double effect, const struct power_options *o, int want, size_t at,
    int (*keep)(const char *benchmark, const char *unit, void *arg),
    void *arg, struct padvice *out, char **cause)
{
	struct pdata_src	 src;
	struct bm_ucache	*uc;
	size_t			 i, cap = 0;

	memset(out, 0, sizeof(*out));
	out->run_id = run_id;
	out->effect = effect;
	out->at = at;
	out->opt = *o;
	if (tab != NULL)
		sampletab_group(tab);	/* a no-op when it is */
	if (pdata_src_load(st, run_id, !(want & PADVICE_CALIBRATION) ?
	    PDATA_CAL_NONE : (want & PADVICE_LATEST_CAL) ? PDATA_CAL_LATEST :
	    PDATA_CAL_RUN, tab, &src, cause) == -1)
		return -1;
	out->later_cal = src.later_cal;
	out->name = xstrdup(src.name);
	out->baseline_arm = xstrdup(src.baseline_arm);
	out->host_class = xstrdup(src.host_class);
	uc = bm_ucache_new();
	/* The baseline's rows, in the order of their first values. */
	for (i = 0; i < src.run->ncells; i++) {
		const struct sampletab_cell	*b = &src.run->cells[i];
		const struct sampletab_row	*br = &src.run->rows[b->row];
		struct padvice_row		*r;
		struct pdata_noise		 nz;
		struct power_advice		 adv;

		if (strcmp(src.run->arms[b->arm], src.baseline_arm) != 0 ||
		    b->nx == 0)
			continue;
		if (keep != NULL && !keep(br->benchmark, br->unit, arg))
			continue;
		if (pdata_noise_of(&src, br->benchmark, br->unit, at, &nz) !=
		    1)
			continue;
		XGROW(out->rows, out->n, cap);
		r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->benchmark = xstrdup(br->benchmark);
		r->unit = xstrdup(br->unit);
		r->n_base = nz.n_base;
		r->n_cand = nz.n_cand;
		r->nlines = nz.nlines;
		r->nexec = nz.nexec;
		r->from_calibration = nz.from_calibration;
		if (nz.from_calibration) {
			out->calib_run = src.cal.run_id;
			out->calib_repeats = src.cal.repeats;
			out->calib_rounds = src.cal.rounds;
		}
		power_noise(nz.x, nz.n, r->n_base, 0.95, &r->noise);
		/* The advice every command prints (power.h). */
		power_advise(nz.x, nz.n, r->n_base, r->n_cand,
		    (want & PADVICE_ROUNDS) ? effect : 0, o, uc, &adv);
		r->mde = (want & PADVICE_MDE) ? adv.mde : INFINITY;
		r->rounds = adv.rounds;
		pdata_noise_release(&nz);
	}
	bm_ucache_free(uc);
	pdata_src_release(&src);
	return 0;
}

void
padvice_release(struct padvice *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++) {
		free(a->rows[i].benchmark);
		free(a->rows[i].unit);
	}
	free(a->rows);
	free(a->name);
	free(a->host_class);
	free(a->baseline_arm);
	memset(a, 0, sizeof(*a));
}
