/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The end of `abbench run`: for each benchmark that came out `~` (no
 * significant difference, as abbench stat prints it), one line when the
 * measured noise could not have shown the effect the user cares about,
 * with the rounds that would. Silent otherwise. The rows are those
 * `abbench stat` prints for the run: its experiment's stat-filter.
 * Then a warning for each of those rows whose comparison moved with a
 * shift of the run's level (harness/analysis/shifts.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "harness/analysis/powerdata.h"
#include "harness/analysis/run-advice.h"
#include "harness/analysis/shifts.h"
#include "lib/util.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchmath.h"
#include "stats/rowfilter.h"
#include "stats/sampletab.h"
#include "stats/sequential.h"

struct advice_key {
	char	**bench;
	char	**unit;
	size_t	  n, cap;
};

static int
advice_keep(const char *benchmark, const char *unit, void *arg)
{
	const struct advice_key	*k = arg;
	size_t			 i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->bench[i], benchmark) == 0 &&
		    strcmp(k->unit[i], unit) == 0)
			return 1;
	return 0;
}

/* The (benchmark, unit) pairs that F keeps where some arm is `~` against
 * the first, other than by being the same constant: compared on every
 * value, as abbench stat compares them. */
static void
advice_unchanged(const struct sampletab *t, const struct store_run *run,
    struct rowfilter *f, struct advice_key *k)
{
	struct bm_ucache	*uc;
	size_t			 i, j, a;
	double			*x1, *x2;

	if (run->narms == 0)
		return;
	uc = bm_ucache_new();
	/* The baseline's rows, in the order of their first values. */
	for (i = 0; i < t->ncells; i++) {
		const struct sampletab_cell	*b = &t->cells[i];
		const struct sampletab_row	*br = &t->rows[b->row];

		if (strcmp(t->arms[b->arm], run->arms[0]) != 0 ||
		    !rowfilter_keep(f, br->benchmark, br->unit))
			continue;
		for (a = 1; a < run->narms; a++) {
			const struct sampletab_cell	*r = sampletab_lookup(t,
			    run->arms[a], br->benchmark, br->unit);
			struct bm_comparison		 c;
			int				 same;

			if (r == NULL || r->n == 0)
				continue;
			/* Every line, as abbench stat compares them. */
			x1 = xcalloc(b->n + 1, sizeof(*x1));
			x2 = xcalloc(r->n + 1, sizeof(*x2));
			for (j = 0; j < b->n; j++)
				x1[j] = b->v[j].value;
			for (j = 0; j < r->n; j++)
				x2[j] = r->v[j].value;
			sort_doubles(x1, b->n);
			sort_doubles(x2, r->n);
			bm_compare(x1, b->n, x2, r->n,
			    BM_ASSUME_NOTHING, 0.05, uc, &c);
			/* `~` and not the same constant in both arms (as
			 * Go's `0 allocs/op`): nothing more to show there. */
			same = !(c.p <= c.alpha) &&
			    !seq_all_equal(x1, b->n, x2, r->n);
			bm_comparison_release(&c);
			free(x1);
			free(x2);
			if (same) {
				XGROW(k->bench, k->n, k->cap);
				k->unit = xreallocarray(k->unit, k->cap,
				    sizeof(*k->unit));
				k->bench[k->n] = xstrdup(br->benchmark);
				k->unit[k->n] = xstrdup(br->unit);
				k->n++;
				break;
			}
		}
	}
	bm_ucache_free(uc);
}

/*
 * Tails heavier than a normal's: its 10th/90th percentiles are 1.9 MADs
 * from the median; past 3, the outliers are what the MDE is made of.
 */
static int
heavy_tails(const struct power_noise *n)
{
	double	tail = fmax(n->p10_rel, n->p90_rel);

	return isfinite(tail) && isfinite(n->mad_rel) &&
	    tail > 3 * n->mad_rel;
}

/* The `~` rows F keeps whose noise could not have shown effect. */
static int
advice_power(struct store *st, struct sampletab *t,
    const struct store_run *run, struct rowfilter *f, double effect,
    FILE *fp, char **cause)
{
	struct advice_key	 k;
	struct power_options	 o;
	struct padvice		 a;
	char			 e[32], m[32], noise[32], lo[32], hi[32];
	size_t			 i;
	int			 rc = 0;

	memset(&k, 0, sizeof(k));
	advice_unchanged(t, run, f, &k);
	if (k.n == 0)
		goto out;
	/*
	 * The options of every advice at the run's alpha (power.h), so
	 * that the verdict line, power and the report say the same.
	 */
	power_advice_options_init(&o);
	o.alpha = EXPERIMENT_ALPHA;
	if (padvice_compute_tab(st, run->id, t, effect, &o, PADVICE_MDE |
	    PADVICE_ROUNDS | PADVICE_CALIBRATION, 0, advice_keep, &k, &a,
	    cause) == -1) {
		rc = -1;
		goto out;
	}
	power_pct(effect, e, sizeof(e));
	for (i = 0; i < a.n; i++) {
		const struct padvice_row	*r = &a.rows[i];

		if (r->nexec < 2) {
			fprintf(fp, "~ %s %s: %zu execution%s of the baseline: "
			    "too few to tell its noise\n", r->benchmark,
			    r->unit, r->nexec, r->nexec == 1 ? "" : "s");
			continue;
		}
		if (!isfinite(r->noise.mad_rel)) {
			/* A median of 0 (a CPU time too small to count):
			 * no change in percent to size. */
			fprintf(fp, "~ %s %s: the baseline's median is %g: "
			    "no relative change to size\n", r->benchmark,
			    r->unit, r->noise.median);
			continue;
		}
		if (!(r->mde > effect))
			continue;
		power_pct(r->mde, m, sizeof(m));
		power_pct(r->noise.mad_rel, noise, sizeof(noise));
		if (heavy_tails(&r->noise)) {
			/*
			 * A small MAD beside "too noisy" reads as a
			 * contradiction: the tails are what widen the
			 * interval, said with their numbers.
			 */
			power_pct(r->noise.p10_rel, lo, sizeof(lo));
			power_pct(r->noise.p90_rel, hi, sizeof(hi));
			fprintf(fp, "~ %s %s: cannot show %s at n=%zu+%zu: "
			    "half the values lie within %s of the median "
			    "(MAD/median, %s), but the 10th and 90th "
			    "percentiles are -%s and +%s from it: outliers "
			    "widen the interval to an MDE of %s at alpha %g; ",
			    r->benchmark, r->unit, e, r->n_base, r->n_cand,
			    noise, r->from_calibration ? "calibrated" :
			    "in this run", lo, hi, m, o.alpha);
		} else
			fprintf(fp, "~ %s %s: too noisy to show %s at "
			    "n=%zu+%zu (MAD/median %s %s, MDE %s at alpha "
			    "%g); ", r->benchmark, r->unit, e, r->n_base,
			    r->n_cand, noise, r->from_calibration ?
			    "calibrated" : "in this run", m, o.alpha);
		if (r->rounds > 0)
			fprintf(fp, "%zu rounds would\n", r->rounds);
		else
			fprintf(fp, "not even %zu rounds would\n", o.max_n);
	}
	padvice_release(&a);
out:
	for (i = 0; i < k.n; i++) {
		free(k.bench[i]);
		free(k.unit[i]);
	}
	free(k.bench);
	free(k.unit);
	return rc;
}

/* A warning for each row F keeps whose comparison moved at a shift. */
static int
advice_shifts(const struct sampletab *tab, const struct store_run *run,
    struct rowfilter *f, char **cause)
{
	struct shift_scan	 s;
	char			*t;
	size_t			 i, k, a;

	if (shift_scan_tab(tab, run, &s, cause) == -1)
		return -1;
	for (i = 0; i < s.n; i++) {
		const struct shift_row	*row = &s.rows[i];

		if (!rowfilter_keep(f, row->benchmark, row->unit))
			continue;
		for (k = 0; k < row->res.n; k++)
			for (a = 1; a < row->res.narms; a++) {
				if (!row->res.shifts[k].arms[a].changed)
					continue;
				t = shift_moved_text(run, row,
				    &row->res.shifts[k], a);
				warning("%s: the table's delta averages both "
				    "(abbench report shows the run's level "
				    "shifts)", t);
				free(t);
			}
	}
	shift_scan_release(&s);
	return 0;
}

const char run_advice_lines_why[] = "benchstat takes every line as a "
    "sample; lines of one invocation are not independent (abbench report, "
    "power and nightly take one median per invocation)";

/* The executions of a cell: its values' distinct exec. */
static size_t
advice_execs(const struct sampletab_cell *c)
{
	struct u64map	seen;
	size_t		j, n = 0;

	if (c->x != NULL && c->grouped == c->n)
		return c->nx;
	memset(&seen, 0, sizeof(seen));
	for (j = 0; j < c->n; j++)
		if (u64map_get(&seen, (uint64_t)c->v[j].exec) == NULL) {
			u64map_put(&seen, (uint64_t)c->v[j].exec, (void *)1);
			n++;
		}
	u64map_release(&seen);
	return n;
}

void
run_advice_lines_tab(const struct sampletab *t, const char *arm,
    const char *label, struct strvec *notes)
{
	size_t	i, nx;

	/* Cells in the order of their first values: the store's. */
	for (i = 0; i < t->ncells; i++) {
		const struct sampletab_cell	*c = &t->cells[i];
		const struct sampletab_row	*r = &t->rows[c->row];
		const char			*a = t->arms[c->arm];

		if ((arm != NULL && strcmp(arm, a) != 0) || c->n == 0 ||
		    (nx = advice_execs(c)) >= c->n)
			continue;
		if (c->n % nx == 0)
			strvec_pushf(notes, "%s %s (%s): n=%zu counts the %zu "
			    "lines of each of %zu invocations", r->benchmark,
			    r->unit, label != NULL ? label : a, c->n,
			    c->n / nx, nx);
		else
			strvec_pushf(notes, "%s %s (%s): n=%zu counts lines, "
			    "printed by %zu invocations", r->benchmark,
			    r->unit, label != NULL ? label : a, c->n, nx);
	}
}

void
run_advice_lines(struct store *st, int64_t run_id, const char *arm,
    const char *label, struct strvec *notes)
{
	struct sampletab_filter	 f = { arm, 0, 0 };
	struct sampletab	*t;
	char			*cause = NULL;

	if ((t = sampletab_load(st, run_id, &f, &cause)) == NULL) {
		free(cause);
		return;
	}
	run_advice_lines_tab(t, arm, label, notes);
	sampletab_free(t);
}

void
run_advice(const char *db, int64_t run_id, double effect, FILE *fp)
{
	struct store		*st;
	struct store_run	 run;
	struct sampletab	*t = NULL;
	struct rowfilter	*f = NULL;
	struct strvec		 notes = STRVEC_INIT;
	char			*cause = NULL, *filter;
	size_t			 i;

	memset(&run, 0, sizeof(run));
	if ((st = store_open(db, STORE_READONLY, &cause)) == NULL)
		goto fail;
	/* The run's values, read once for all that follows. */
	if ((t = sampletab_load(st, run_id, NULL, &cause)) == NULL)
		goto out;
	/* The n of the summary's table counts lines: say what it counts. */
	run_advice_lines_tab(t, NULL, NULL, &notes);
	run_advice_lines_one(&notes, 0);
	for (i = 0; i < notes.n; i++)
		fprintf(fp, "note: %s\n", notes.v[i]);
	if (notes.n > 0)
		fprintf(fp, "note: %s\n", run_advice_lines_why);
	strvec_clear(&notes);
	if (store_run_get(st, run_id, &run, &cause) == -1 || run.narms < 2)
		goto out;
	filter = experiment_stat_filter(run.experiment_path,
	    run.experiment_text);
	f = rowfilter_new(filter, &cause);
	free(filter);
	if (f == NULL)
		goto out;
	/* The effect the verdicts of `--until decided` were for. */
	if (!(effect > 0))
		effect = experiment_stored_effect(run.experiment_path,
		    run.experiment_text);
	if (advice_power(st, t, &run, f, effect, fp, &cause) == -1) {
		warning("power advice: %s", cause);
		free(cause);
		cause = NULL;
	}
	if (advice_shifts(t, &run, f, &cause) == -1) {
		warning("level shifts: %s", cause);
		free(cause);
		cause = NULL;
	}
out:
	sampletab_free(t);
	rowfilter_free(f);
	store_run_release(&run);
	store_close(st);
fail:
	if (cause != NULL)
		warning("power advice: %s", cause);
	free(cause);
}

void
run_advice_lines_one(struct strvec *notes, size_t from)
{
	const char	*what = NULL, *w;
	size_t		 i, n;
	int		 alike = 1;
	char		*one;

	if (from + 1 >= notes->n)
		return;
	n = notes->n - from - 1;
	/* What each counts, after "BENCHMARK UNIT (LABEL): ". */
	for (i = from; i < notes->n; i++) {
		w = strstr(notes->v[i], "): ");
		w = w != NULL ? w + 3 : notes->v[i];
		if (what == NULL)
			what = w;
		else if (strcmp(what, w) != 0)
			alike = 0;
	}
	if (alike)
		one = xasprintf("%s; so do%s %zu other row%s", notes->v[from],
		    n > 1 ? "" : "es", n, n > 1 ? "s" : "");
	else
		one = xasprintf("%s; %zu other row%s lines too",
		    notes->v[from], n, n > 1 ? "s count" : " counts");
	while (notes->n > from)
		free(notes->v[--notes->n]);
	strvec_push_nodup(notes, one);
}
