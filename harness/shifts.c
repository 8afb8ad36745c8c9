/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level shifts of a stored run (see shifts.h): the run's good samples
 * grouped by row and arranged by round for stats/levelshift.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "harness/shifts.h"
#include "lib/util.h"
#include "results/store.h"
#include "stats/sequential.h"

/* One value of a row: its stored round, the arm's index, the value. */
struct shift_val {
	int	round;
	size_t	arm;
	double	value;
};

/* By benchmark, unit, then order of appearance (the pointers' order). */
static int
shift_cmp_ptr(const void *a, const void *b)
{
	const struct store_value	*x = *(const struct store_value *const *)a;
	const struct store_value	*y = *(const struct store_value *const *)b;
	int				 c;

	if ((c = strcmp(x->benchmark, y->benchmark)) != 0 ||
	    (c = strcmp(x->unit, y->unit)) != 0)
		return c;
	return (x > y) - (x < y);
}

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

static int
shift_cmp_row(const void *a, const void *b)
{
	const size_t	*x = a, *y = b;

	return (x[1] > y[1]) - (x[1] < y[1]);
}

double
shift_run_effect(const struct store_run *run)
{
	struct experiment	*e;
	char			*cause = NULL;
	double			 effect = SEQ_DEFAULT_EFFECT;

	if (run->experiment_text == NULL || *run->experiment_text == '\0')
		return effect;
	e = experiment_parse(run->experiment_path != NULL ?
	    run->experiment_path : "(stored)", run->experiment_text,
	    strlen(run->experiment_text), &cause);
	free(cause);
	if (e != NULL && e->effect_pct > 0)
		effect = e->effect_pct / 100;
	experiment_free(e);
	return effect;
}

int
shift_shown(const struct shift_scan *s, const struct ls_shift *sh)
{
	return sh->effect_changed || fabs(sh->level) >= s->min_change;
}

/*
 * The matrix of one row (vals sorted by round, arm, value): each arm's
 * median in each round. Fills row->rounds; returns the matrix.
 */
static double *
shift_matrix(struct shift_row *row, const struct shift_val *vals, size_t n,
    size_t narms)
{
	double	*m;
	size_t	 i, j, k, nr = 0;

	row->rounds = xcalloc(n + 1, sizeof(*row->rounds));
	for (i = 0; i < n; i++)
		if (nr == 0 || row->rounds[nr - 1] != vals[i].round)
			row->rounds[nr++] = vals[i].round;
	row->nrounds = nr;
	m = xcalloc(nr * narms + 1, sizeof(*m));
	for (k = 0; k < nr * narms; k++)
		m[k] = NAN;
	for (i = 0, k = 0; i < n; i = j) {
		for (j = i; j < n && vals[j].round == vals[i].round &&
		    vals[j].arm == vals[i].arm; j++)
			;
		while (row->rounds[k] != vals[i].round)
			k++;
		m[k * narms + vals[i].arm] = (j - i) % 2 == 1 ?
		    vals[i + (j - i) / 2].value :
		    (vals[i + (j - i) / 2 - 1].value +
		    vals[i + (j - i) / 2].value) / 2;
	}
	return m;
}

int
shift_scan_run(struct store *st, const struct store_run *run,
    double min_change, struct shift_scan *out, char **cause)
{
	struct store_value	*v = NULL;
	struct shift_val	*vals;
	struct ls_options	 o;
	const struct store_value **p;
	size_t			 nv = 0, (*groups)[2] = NULL, ng = 0;
	size_t			 capg = 0, i, j, g, k, a, nvals;
	int			 rc = 0;

	memset(out, 0, sizeof(*out));
	out->min_change = min_change;
	if (store_values(st, run->id, NULL, 0, &v, &nv, cause) == -1)
		return -1;
	p = xcalloc(nv + 1, sizeof(*p));
	for (i = 0; i < nv; i++)
		p[i] = &v[i];
	qsort(p, nv, sizeof(*p), shift_cmp_ptr);
	/* Groups: [start in p, first appearance], then in run order. */
	for (i = 0; i < nv; i = j) {
		for (j = i + 1; j < nv &&
		    strcmp(p[j]->benchmark, p[i]->benchmark) == 0 &&
		    strcmp(p[j]->unit, p[i]->unit) == 0; j++)
			;
		XGROW(groups, ng, capg);
		groups[ng][0] = i;
		groups[ng][1] = (size_t)(p[i] - v);
		ng++;
	}
	if (ng > 1)
		qsort(groups, ng, sizeof(*groups), shift_cmp_row);
	out->nrows = ng;
	ls_options_init(&o);
	o.min_change = min_change;
	vals = xcalloc(nv + 1, sizeof(*vals));
	for (g = 0; g < ng && rc == 0; g++) {
		struct shift_row	 row;
		double			*m;
		size_t			 first = groups[g][0];

		memset(&row, 0, sizeof(row));
		nvals = 0;
		for (k = first; k < nv && strcmp(p[k]->benchmark,
		    p[first]->benchmark) == 0 && strcmp(p[k]->unit,
		    p[first]->unit) == 0; k++) {
			const struct store_value	*s = p[k];

			for (a = 0; a < run->narms; a++)
				if (strcmp(s->arm, run->arms[a]) == 0)
					break;
			if (a == run->narms || isnan(s->value))
				continue;
			vals[nvals].round = s->round;
			vals[nvals].arm = a;
			vals[nvals].value = s->value;
			nvals++;
		}
		qsort(vals, nvals, sizeof(*vals), shift_cmp_val);
		m = shift_matrix(&row, vals, nvals, run->narms);
		rc = ls_detect(m, row.nrounds, run->narms, &o, &row.res,
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
			row.benchmark = xstrdup(p[first]->benchmark);
			row.unit = xstrdup(p[first]->unit);
			out->rows = xreallocarray(out->rows, out->n + 1,
			    sizeof(*out->rows));
			out->rows[out->n++] = row;
		} else {
			free(row.rounds);
			ls_result_release(&row.res);
		}
	}
	free(vals);
	free(groups);
	free(p);
	store_values_free(v, nv);
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
shift_moved_text(const struct store_run *run, const struct shift_row *row,
    const struct ls_shift *sh, size_t arm)
{
	const struct ls_arm	*la = &sh->arms[arm];
	int			 first = row->rounds[sh->start] + 1;
	int			 at = row->rounds[sh->round] + 1;
	int			 prev = row->rounds[sh->round - 1] + 1;
	int			 last = row->rounds[sh->end - 1] + 1;

	return xasprintf("%s %s: %s vs %s %+.1f%% in rounds %d-%d, %+.1f%% "
	    "in rounds %d-%d (p=%.3f; the level %s %.0f%% at round %d)",
	    row->benchmark, row->unit, run->arms[arm], run->arms[0],
	    100 * la->before,
	    first, prev, 100 * la->after, at, last, la->p,
	    sh->level < 0 ? "fell" : "rose", 100 * fabs(sh->level), at);
}
