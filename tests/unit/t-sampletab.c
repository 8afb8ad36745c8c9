/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/sampletab and results/sampletab-load: rows by
 * benchmark and unit in the order of their first values, a cell per arm
 * in the order of its first value, an arm the table was not given joins
 * it, each value's seq is its place, a row is found by hash among many,
 * the per-execution values are each execution's median with its round
 * (made again when values come), a row's pool takes its cells in order;
 * and a run's table read from the store holds its ok values (warm-up as
 * the filter says, one arm when asked), the run's arms first, and the
 * scale of a value that benchfmt's tidying changed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/sampletab.h"
#include "tap.h"

static char tmpdir[] = "/tmp/t-sampletab.XXXXXX";

static void
add(struct sampletab *t, const char *arm, const char *bench, double value,
    int round, int exec)
{
	struct sampletab_value	v;

	memset(&v, 0, sizeof(v));
	v.value = value;
	v.round = round;
	v.position = exec % 2;
	v.exec = exec;
	sampletab_add(t, arm, bench, "sec/op", &v);
}

static void
t_table(void)
{
	const char *const		 arms[] = { "a", "b" };
	struct sampletab		*t = sampletab_new(arms, 2);
	const struct sampletab_row	*x, *y;
	const struct sampletab_cell	*c, *cs[4];
	double				*pool;
	size_t				 n, i;
	char				 name[32];

	add(t, "b", "X", 10, 0, 0);
	add(t, "a", "Y", 1, 0, 1);
	add(t, "a", "X", 5, 0, 1);
	add(t, "b", "X", 30, 1, 2);
	add(t, "b", "X", 20, 1, 2);
	add(t, "b", "X", 40, 1, 2);
	add(t, "c", "X", 7, 1, 3);
	tap_int_eq((int)t->narms, 3, "an arm not given joins the table");
	tap_str_eq(t->arms[2], "c", "  after the given ones");
	tap_int_eq(sampletab_arm(t, "z"), -1, "an unknown arm is -1");
	tap_int_eq((int)t->nrows, 2, "two rows");
	tap_str_eq(t->rows[0].benchmark, "X", "rows in the order of their "
	    "first values: X");
	tap_str_eq(t->rows[1].benchmark, "Y", "  then Y");
	tap_int_eq((int)t->ncells, 4, "four cells");
	tap_ok(t->cells[0].arm == 1 && t->cells[0].row == 0 &&
	    t->cells[1].arm == 0 && t->cells[1].row == 1 &&
	    t->cells[2].arm == 0 && t->cells[2].row == 0 &&
	    t->cells[3].arm == 2, "cells in the order of their first values: "
	    "X/b, Y/a, X/a, X/c");
	tap_int_eq((int)t->nvalues, 7, "seven values");
	c = sampletab_lookup(t, "b", "X", "sec/op");
	tap_ok(c != NULL && c->n == 4 && c->v[0].seq == 0 &&
	    c->v[3].seq == 5 && c->v[1].value == 30,
	    "a cell's values in order, each with its place");
	x = sampletab_find(t, "X", "sec/op");
	y = sampletab_find(t, "Y", "sec/op");
	tap_ok(x == &t->rows[0] && y == &t->rows[1], "rows found by name");
	tap_ok(sampletab_find(t, "X", "B/op") == NULL &&
	    sampletab_lookup(t, "b", "Y", "sec/op") == NULL &&
	    sampletab_lookup(t, "z", "X", "sec/op") == NULL,
	    "no row, no cell, no arm: NULL");
	tap_ok(sampletab_cell(t, y, 2) == NULL, "a row has no cell of an "
	    "arm that joined after it");

	sampletab_group(t);
	tap_ok(c->nx == 2 && c->x[0] == 10 && c->x[1] == 30 &&
	    c->xround[0] == 0 && c->xround[1] == 1,
	    "per execution: the median of its values, with its round");
	add(t, "b", "X", 50, 2, 4);
	sampletab_group(t);
	c = sampletab_lookup(t, "b", "X", "sec/op");
	tap_ok(c->nx == 3 && c->x[2] == 50 && c->xround[2] == 2,
	    "a value added later is grouped again");
	n = sampletab_row_cells(t, x, cs);
	tap_ok(n == 3 && cs[0]->arm == 1 && cs[1]->arm == 0 &&
	    cs[2]->arm == 2, "a row's cells in the order of their first "
	    "values");
	pool = sampletab_pool(t, x, &n);
	tap_ok(n == 5 && pool[0] == 10 && pool[1] == 30 && pool[2] == 50 &&
	    pool[3] == 5 && pool[4] == 7, "the pool: every arm's executions, "
	    "cells in order");
	free(pool);
	sampletab_free(t);

	t = sampletab_new(NULL, 0);
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "B%zu", i);
		add(t, i % 2 ? "a" : "b", name, (double)i, 0, (int)i);
	}
	for (i = 0; i < 3000; i += 7) {
		snprintf(name, sizeof(name), "B%zu", i);
		x = sampletab_find(t, name, "sec/op");
		if (x == NULL || x != &t->rows[i])
			break;
	}
	tap_ok(i >= 3000, "3000 rows, each found by hash");
	sampletab_free(t);
}

static void
t_load(void)
{
	const char *const		 arms[] = { "base", "cand" };
	const char *const		 orig[] = { "ns/op" };
	const double			 origv[] = { 2000 };
	struct sampletab_filter		 f;
	struct store			*st;
	struct store_run		 r;
	struct store_sample		 s;
	struct store_metric		 m;
	struct sampletab		*t;
	const struct sampletab_cell	*c;
	char				*cause = NULL, *path;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	path = xasprintf("%s/s.db", tmpdir);
	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	memset(&r, 0, sizeof(r));
	r.name = (char *)"load";
	r.host = (char *)"h";
	if (store_run_create(st, &r, arms, 2, &cause) == -1)
		die("%s", cause);
	free(r.uuid);
	memset(&s, 0, sizeof(s));
	s.run_id = r.id;
	s.workload = "w";
	s.metrics = &m;
	s.nmetrics = 1;
	m.benchmark = "X";
	m.unit = "sec/op";
	/* The candidate first: the run's arms order the table's. */
	s.arm = "cand", s.plan_idx = 0, s.round = 0, s.warmup = 1;
	m.value = 99;
	tap_ok(store_sample_add(st, &s, &cause) == 0, "a warm-up sample");
	s.arm = "cand", s.plan_idx = 1, s.round = 1, s.warmup = 0;
	m.value = 2;
	/* (the store keeps times to the microsecond) */
	s.start_ns = 5000;
	s.start_wall_ns = 6000;
	tap_ok(store_sample_add(st, &s, &cause) == 0, "a measured sample");
	s.arm = "base", s.plan_idx = 2, s.position = 1;
	m.value = 1;
	s.orig_units = orig;
	s.orig_values = origv;
	tap_ok(store_sample_add(st, &s, &cause) == 0, "one written in ns/op");
	s.orig_units = NULL;
	s.orig_values = NULL;
	s.plan_idx = 3, s.status = SAMPLE_STATUS_FAILED, s.nmetrics = 0;
	s.error = "broke";
	tap_ok(store_sample_add(st, &s, &cause) == 0, "a failed sample");

	t = sampletab_load(st, r.id, NULL, &cause);
	tap_ok(t != NULL, "loaded");
	tap_ok(t->narms == 2 && strcmp(t->arms[0], "base") == 0 &&
	    strcmp(t->arms[1], "cand") == 0, "the run's arms, baseline "
	    "first");
	tap_int_eq((int)t->nvalues, 2, "its ok measured values");
	c = sampletab_lookup(t, "cand", "X", "sec/op");
	tap_ok(c != NULL && c->n == 1 && c->v[0].value == 2 &&
	    c->v[0].round == 1 && c->v[0].exec == 1 &&
	    c->v[0].start_ns == 5000 && c->v[0].start_wall_ns == 6000 && c->nx == 1 && c->x[0] == 2,
	    "a value with its round, execution and start; grouped");
	c = sampletab_lookup(t, "base", "X", "sec/op");
	tap_ok(c != NULL && c->v[0].position == 1 && c->row == 0 &&
	    t->cells[0].arm == 1, "the cells in store order: cand's first");
	tap_ok(t->rows[0].orig_scale == 2000, "the scale of a value benchfmt "
	    "tidied (ns/op as sec/op)");
	sampletab_free(t);

	memset(&f, 0, sizeof(f));
	f.warmup = 1;
	t = sampletab_load(st, r.id, &f, &cause);
	tap_ok(t != NULL && t->nvalues == 3 && t->cells[0].x == NULL,
	    "warm-up asked for: three values, not grouped unless asked");
	sampletab_free(t);
	f.warmup = 0;
	f.arm = "base";
	t = sampletab_load(st, r.id, &f, &cause);
	tap_ok(t != NULL && t->nvalues == 1 && t->ncells == 1 &&
	    t->cells[0].arm == 0, "one arm asked for: its values alone");
	sampletab_free(t);
	t = sampletab_load(st, r.id + 100, NULL, &cause);
	tap_ok(t == NULL && cause != NULL, "no such run: an error (%s)",
	    cause != NULL ? cause : "none");
	free(cause);
	store_close(st);
	free(path);
	rmtree(tmpdir, NULL);
}

int
main(void)
{
	t_table();
	t_load();
	return tap_done();
}
