/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level shifts of a stored run (see shifts.h): the run's executions
 * (its sample table's per-execution values) arranged by row and round for stats/levelshift.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "harness/analysis/powerdata.h"
#include "harness/analysis/shifts.h"
#include "lib/util.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/quantile.h"
#include "stats/sampletab.h"

/* One value of a row: its round, the arm's index, the value. */
struct shift_val {
	int	round;
	size_t	arm;
	double	value;
};

static int
shift_cmp_val(const void *a, const void *b)
{
	const struct shift_val	*x = a, *y = b;

	if (x->round != y->round)
		return (x->round > y->round) - (x->round < y->round);
	if (x->arm != y->arm)
		return (x->arm > y->arm) - (x->arm < y->arm);
	return (x->value > y->value) - (x->value < y->value);
}

int
shift_shown(const struct shift_scan *s, const struct ls_shift *sh)
{
	return sh->effect_changed || fabs(sh->level) >= s->opt.min_change;
}

/*
 * The matrix of one row (vals sorted by round, arm, value): each arm's
 * median in each round (one execution in a round but in an import).
 * Fills row->rounds; returns the matrix.
 */
static double *
shift_matrix(struct shift_row *row, const struct shift_val *vals, size_t n,
    size_t narms)
{
	double	*m, *x;
	size_t	 i, j, k, nr = 0;

	row->rounds = xcalloc(n + 1, sizeof(*row->rounds));
	for (i = 0; i < n; i++)
		if (nr == 0 || row->rounds[nr - 1] != vals[i].round)
			row->rounds[nr++] = vals[i].round;
	row->nrounds = nr;
	m = xcalloc(nr * narms + 1, sizeof(*m));
	x = xcalloc(n + 1, sizeof(*x));
	for (k = 0; k < nr * narms; k++)
		m[k] = NAN;
	for (i = 0, k = 0; i < n; i = j) {
		for (j = i; j < n && vals[j].round == vals[i].round &&
		    vals[j].arm == vals[i].arm; j++)
			x[j - i] = vals[j].value;
		while (row->rounds[k] != vals[i].round)
			k++;
		m[k * narms + vals[i].arm] = stats_quantile_sorted(x, j - i,
		    0.5);
	}
	free(x);
	return m;
}

int
shift_scan_run(struct store *st, const struct store_run *run,
    struct shift_scan *out, char **cause)
{
	struct sampletab	*t;
	int			 rc;

	memset(out, 0, sizeof(*out));
	/* Each execution's median (a gobench -count gives several lines). */
	if ((t = sampletab_load(st, run->id, NULL, cause)) == NULL)
		return -1;
	rc = shift_scan_tab(t, run, out, cause);
	sampletab_free(t);
	return rc;
}

int
shift_scan_tab(const struct sampletab *t, const struct store_run *run,
    struct shift_scan *out, char **cause)
{
	struct shift_val	*vals = NULL;
	size_t			 i, k, a, nvals, cap = 0;
	int			 rc = 0;

	memset(out, 0, sizeof(*out));
	ls_options_init(&out->opt);
	out->opt.min_change = experiment_stored_effect(run->experiment_path,
	    run->experiment_text);
	/* Each (benchmark, unit) once, in the order of its first value. */
	for (i = 0; i < t->nrows && rc == 0; i++) {
		const struct sampletab_row	*first = &t->rows[i];
		struct shift_row		 row;
		double				*m;

		out->nrows++;
		nvals = 0;
		for (a = 0; a < run->narms; a++) {
			const struct sampletab_cell	*r = sampletab_lookup(t,
			    run->arms[a], first->benchmark, first->unit);

			for (k = 0; r != NULL && k < r->nx; k++) {
				XGROW(vals, nvals, cap);
				vals[nvals].round = r->xround[k];
				vals[nvals].arm = a;
				vals[nvals].value = r->x[k];
				nvals++;
			}
		}
		xqsort(vals, nvals, sizeof(*vals), shift_cmp_val);
		memset(&row, 0, sizeof(row));
		m = shift_matrix(&row, vals, nvals, run->narms);
		rc = ls_detect(m, row.nrounds, run->narms, &out->opt, &row.res,
		    cause);
		free(m);
		if (rc == 0 && row.res.tested)
			out->ntested++;
		for (k = 0; rc == 0 && k < row.res.n; k++)
			if (shift_shown(out, &row.res.shifts[k]))
				break;
		if (rc == 0 && k < row.res.n) {
			for (k = 0; k < row.res.n; k++)
				if (row.res.shifts[k].effect_changed)
					break;
			out->nmoved += k < row.res.n;
			row.benchmark = xstrdup(first->benchmark);
			row.unit = xstrdup(first->unit);
			out->rows = xreallocarray(out->rows, out->n + 1,
			    sizeof(*out->rows));
			out->rows[out->n++] = row;
		} else {
			free(row.rounds);
			ls_result_release(&row.res);
		}
	}
	free(vals);
	if (rc == -1)
		shift_scan_release(out);
	return rc;
}

void
shift_scan_release(struct shift_scan *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->rows[i].benchmark);
		free(s->rows[i].unit);
		free(s->rows[i].rounds);
		ls_result_release(&s->rows[i].res);
	}
	free(s->rows);
	s->rows = NULL;
	s->n = 0;
}

char *
shift_level_text(const struct ls_shift *sh)
{
	return xasprintf("level %s %.0f%%", sh->level < 0 ? "fell" : "rose",
	    100 * fabs(sh->level));
}

char *
shift_moved_text(const struct store_run *run, const struct shift_row *row,
    const struct ls_shift *sh, size_t arm)
{
	const struct ls_arm	*la = &sh->arms[arm];
	int			 first = row->rounds[sh->start] + 1;
	int			 at = row->rounds[sh->round] + 1;
	int			 prev = row->rounds[sh->round - 1] + 1;
	int			 last = row->rounds[sh->end - 1] + 1;
	char			*level = shift_level_text(sh), *t;

	t = xasprintf("%s %s: %s vs %s %+.1f%% in rounds %d-%d, %+.1f%% "
	    "in rounds %d-%d (p=%.3f; the %s at round %d)",
	    row->benchmark, row->unit, run->arms[arm], run->arms[0],
	    100 * la->before, first, prev, 100 * la->after, at, last, la->p,
	    level, at);
	free(level);
	return t;
}
