/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sample table (sampletab.h): rows by benchmark and unit, a cell per
 * arm.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/power.h"
#include "stats/sampletab.h"

/* The index's key of a row (a hash: a row found by it is checked). */
static uint64_t
sampletab_key(const char *benchmark, const char *unit)
{
	return u64_mix(strpool_hash(benchmark, strlen(benchmark)) ^
	    u64_mix(strpool_hash(unit, strlen(unit))));
}

static size_t
sampletab_arm_add(struct sampletab *t, const char *arm)
{
	int	a = sampletab_arm(t, arm);

	if (a >= 0)
		return (size_t)a;
	XGROW(t->arms, t->narms, t->caparms);
	t->arms[t->narms] = xstrdup(arm);
	return t->narms++;
}

struct sampletab *
sampletab_new(const char *const *arms, size_t narms)
{
	struct sampletab	*t = xcalloc(1, sizeof(*t));
	size_t			 a;

	for (a = 0; a < narms; a++)
		sampletab_arm_add(t, arms[a]);
	return t;
}

void
sampletab_free(struct sampletab *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->narms; i++)
		free(t->arms[i]);
	for (i = 0; i < t->nrows; i++) {
		free(t->rows[i].benchmark);
		free(t->rows[i].unit);
		free(t->rows[i].cell);
	}
	for (i = 0; i < t->ncells; i++) {
		free(t->cells[i].v);
		free(t->cells[i].x);
		free(t->cells[i].xround);
	}
	free(t->arms);
	free(t->src);
	strpool_free(t->pool);
	free(t->rows);
	free(t->cells);
	u64map_release(&t->index);
	free(t);
}

int
sampletab_arm(const struct sampletab *t, const char *arm)
{
	size_t	a;

	for (a = 0; a < t->narms; a++)
		if (strcmp(t->arms[a], arm) == 0)
			return (int)a;
	return -1;
}

static size_t
sampletab_row_index(const struct sampletab *t, const char *benchmark,
    const char *unit)
{
	const struct sampletab_row	*r;
	uintptr_t			 at;
	size_t				 i;

	at = (uintptr_t)u64map_get(&t->index, sampletab_key(benchmark,
	    unit));
	if (at == 0)
		return 0;
	r = &t->rows[at - 1];
	if (strcmp(r->benchmark, benchmark) == 0 && strcmp(r->unit, unit) == 0)
		return at;
	/* Two rows with one hash (the later one holds the key). */
	for (i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].benchmark, benchmark) == 0 &&
		    strcmp(t->rows[i].unit, unit) == 0)
			return i + 1;
	return 0;
}

const struct sampletab_row *
sampletab_find(const struct sampletab *t, const char *benchmark,
    const char *unit)
{
	size_t	at = sampletab_row_index(t, benchmark, unit);

	return at == 0 ? NULL : &t->rows[at - 1];
}

const struct sampletab_cell *
sampletab_cell(const struct sampletab *t, const struct sampletab_row *r,
    size_t arm)
{
	if (r == NULL || arm >= r->ncell || r->cell[arm] == 0)
		return NULL;
	return &t->cells[r->cell[arm] - 1];
}

const struct sampletab_cell *
sampletab_lookup(const struct sampletab *t, const char *arm,
    const char *benchmark, const char *unit)
{
	int	a = sampletab_arm(t, arm);

	if (a < 0)
		return NULL;
	return sampletab_cell(t, sampletab_find(t, benchmark, unit),
	    (size_t)a);
}

size_t
sampletab_add(struct sampletab *t, const char *arm, const char *benchmark,
    const char *unit, const struct sampletab_value *v)
{
	struct sampletab_row	*r;
	struct sampletab_cell	*c;
	size_t			 a = sampletab_arm_add(t, arm), at;

	if ((at = sampletab_row_index(t, benchmark, unit)) == 0) {
		XGROW(t->rows, t->nrows, t->caprows);
		r = &t->rows[t->nrows];
		memset(r, 0, sizeof(*r));
		r->benchmark = xstrdup(benchmark);
		r->unit = xstrdup(unit);
		at = ++t->nrows;
		u64map_put(&t->index, sampletab_key(benchmark, unit),
		    (void *)(uintptr_t)at);
	}
	r = &t->rows[at - 1];
	if (a >= r->ncell) {
		r->cell = xreallocarray(r->cell, t->narms, sizeof(*r->cell));
		memset(r->cell + r->ncell, 0, (t->narms - r->ncell) *
		    sizeof(*r->cell));
		r->ncell = t->narms;
	}
	if (r->cell[a] == 0) {
		XGROW(t->cells, t->ncells, t->capcells);
		c = &t->cells[t->ncells];
		memset(c, 0, sizeof(*c));
		c->row = at - 1;
		c->arm = a;
		r->cell[a] = ++t->ncells;
	}
	c = &t->cells[r->cell[a] - 1];
	XGROW(c->v, c->n, c->cap);
	c->v[c->n] = *v;
	c->v[c->n].seq = t->nvalues;
	if (t->pool != NULL) {
		XGROW(t->src, t->nvalues, t->capsrc);
		memset(&t->src[t->nvalues], 0, sizeof(*t->src));
		t->src[t->nvalues].cell = r->cell[a] - 1;
		t->src[t->nvalues].at = c->n;
	}
	t->nvalues++;
	c->n++;
	return at - 1;
}

void
sampletab_keep_src(struct sampletab *t)
{
	if (t->pool == NULL)
		t->pool = strpool_new();
}

void
sampletab_set_src(struct sampletab *t, size_t seq, const char *config,
    const char *orig_unit, double orig_value)
{
	struct sampletab_src	*s = &t->src[seq];

	s->config = config != NULL ? strpool_interns(t->pool, config) : NULL;
	s->orig_unit = orig_unit != NULL ? strpool_interns(t->pool,
	    orig_unit) : NULL;
	s->orig_value = orig_value;
}

static int
sampletab_cmp_cell(const void *a, const void *b)
{
	const struct sampletab_cell	*x = *(const struct sampletab_cell *
	    const *)a;
	const struct sampletab_cell	*y = *(const struct sampletab_cell *
	    const *)b;

	return (x > y) - (x < y);
}

size_t
sampletab_row_cells(const struct sampletab *t, const struct sampletab_row *r,
    const struct sampletab_cell **out)
{
	size_t	a, n = 0;

	for (a = 0; a < r->ncell; a++)
		if (r->cell[a] != 0)
			out[n++] = &t->cells[r->cell[a] - 1];
	xqsort(out, n, sizeof(*out), sampletab_cmp_cell);
	return n;
}

/* The cell's executions: each one's median and round, first seen first. */
static void
sampletab_group_cell(struct sampletab_cell *c)
{
	struct u64map	 seen;
	int64_t		*g;
	double		*v;
	size_t		 j, k;

	g = xcalloc(c->n + 1, sizeof(*g));
	v = xcalloc(c->n + 1, sizeof(*v));
	for (j = 0; j < c->n; j++) {
		g[j] = c->v[j].exec;
		v[j] = c->v[j].value;
	}
	free(c->x);
	free(c->xround);
	c->x = xcalloc(c->n + 1, sizeof(*c->x));
	c->xround = xcalloc(c->n + 1, sizeof(*c->xround));
	c->nx = power_group_medians(g, v, c->n, c->x);
	memset(&seen, 0, sizeof(seen));
	for (j = 0, k = 0; j < c->n && k < c->nx; j++) {
		if (u64map_get(&seen, (uint64_t)g[j]) != NULL)
			continue;
		u64map_put(&seen, (uint64_t)g[j], (void *)1);
		c->xround[k++] = c->v[j].round;
	}
	u64map_release(&seen);
	c->grouped = c->n;
	free(g);
	free(v);
}

void
sampletab_group(struct sampletab *t)
{
	size_t	i;

	for (i = 0; i < t->ncells; i++)
		if (t->cells[i].x == NULL ||
		    t->cells[i].grouped != t->cells[i].n)
			sampletab_group_cell(&t->cells[i]);
}

double *
sampletab_pool(const struct sampletab *t, const struct sampletab_row *r,
    size_t *n)
{
	const struct sampletab_cell	**c;
	double				 *x;
	size_t				  i, nc, total = 0;

	c = xcalloc(t->narms + 1, sizeof(*c));
	nc = sampletab_row_cells(t, r, c);
	for (i = 0; i < nc; i++)
		total += c[i]->nx;
	x = xcalloc(total + 1, sizeof(*x));
	*n = 0;
	for (i = 0; i < nc; i++) {
		memcpy(x + *n, c[i]->x, c[i]->nx * sizeof(*x));
		*n += c[i]->nx;
	}
	free(c);
	return x;
}
