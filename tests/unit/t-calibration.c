/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for results/calibration: a calibration and its rows survive
 * the round trip (infinities and NaN included), the latest one per
 * experiment and host class is found (done runs only), the host class of a
 * run placed by a scheduler is its partition and shape, a deleted run
 * takes its calibration along, and a run's values carry their execution.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/calibration.h"
#include "results/store.h"
#include "tap.h"

static char tmpdir[] = "/tmp/t-calibration.XXXXXX";

static int64_t
mkrun(struct store *st, const char *name, const char *host,
    const char *status)
{
	const char *const	arms[] = { "a", "a.2" };
	struct store_run	r;
	char			*cause = NULL;

	memset(&r, 0, sizeof(r));
	r.name = (char *)name;
	r.host = (char *)host;
	r.status = (char *)status;
	if (store_run_create(st, &r, arms, 2, &cause) == -1)
		die("%s", cause);
	free(r.uuid);
	return r.id;
}

int
main(void)
{
	struct store			*st;
	struct store_calibration	 c, got;
	struct store_calib_row		 rows[2], *back = NULL;
	struct store_metric		 m[2];
	struct store_sample		 s;
	struct store_value		*v = NULL;
	size_t				 n = 0, nv = 0;
	char				*cause = NULL, *path, *hc;
	int64_t				 r1, r2, r3;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	path = xasprintf("%s/c.db", tmpdir);
	if ((st = store_open(path, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	r1 = mkrun(st, "exp.calibration", "vm", RUN_DONE);
	r2 = mkrun(st, "exp.calibration", "vm", RUN_DONE);
	r3 = mkrun(st, "exp.calibration", "vm", RUN_FAILED);

	memset(&c, 0, sizeof(c));
	c.experiment = "exp";
	c.host_class = "vm";
	c.repeats = 5;
	c.rounds = 6;
	c.alpha = 0.05;
	memset(rows, 0, sizeof(rows));
	rows[0].benchmark = "T";
	rows[0].unit = "sec/op";
	rows[0].n = 60;
	rows[0].median = 0.5;
	rows[0].mad_rel = 0.03;
	rows[0].ci_rel = INFINITY;
	rows[0].mde = 0.12;
	rows[0].comparisons = 5;
	rows[0].flagged = 1;
	rows[1].benchmark = "T";
	rows[1].unit = "B";
	rows[1].n = 60;
	rows[1].median = 0;
	rows[1].mad_rel = NAN;
	rows[1].ci_rel = 0;
	rows[1].mde = INFINITY;
	rows[1].comparisons = 5;
	c.run_id = r1;
	tap_ok(store_calibration_put(st, &c, rows, 2, &cause) == 0,
	    "put a calibration");
	tap_ok(store_calibration_rows(st, r1, &back, &n, &cause) == 0 &&
	    n == 2, "two rows back");
	tap_ok(n == 2 && strcmp(back[0].unit, "sec/op") == 0 &&
	    back[0].n == 60 && back[0].mde == 0.12 && isinf(back[0].ci_rel) &&
	    back[0].flagged == 1 && back[0].comparisons == 5,
	    "row 1: values, an infinite CI");
	tap_ok(n == 2 && isnan(back[1].mad_rel) && isinf(back[1].mde) &&
	    back[1].ci_rel == 0, "row 2: NaN as NULL, an infinite MDE");
	store_calib_rows_free(back, n);
	/* Put again: replaced, not doubled. */
	tap_ok(store_calibration_put(st, &c, rows, 1, &cause) == 0 &&
	    store_calibration_rows(st, r1, &back, &n, &cause) == 0 && n == 1,
	    "put again replaces the rows");
	store_calib_rows_free(back, n);

	c.run_id = r2;
	store_calibration_put(st, &c, rows, 1, NULL);
	c.run_id = r3;
	store_calibration_put(st, &c, rows, 1, NULL);
	tap_int_eq(store_calibration_latest(st, "exp", "vm", &got, &cause), 1,
	    "the latest calibration of exp on vm is found");
	tap_int_eq(got.run_id, r2, "the latest done one (not the failed run)");
	tap_ok(got.repeats == 5 && got.rounds == 6 && got.alpha == 0.05 &&
	    strcmp(got.experiment, "exp") == 0, "its fields");
	store_calibration_release(&got);
	tap_int_eq(store_calibration_latest(st, "exp", "c4/vcpus=4", &got,
	    &cause), 0, "none on another host class");
	tap_int_eq(store_calibration_get(st, r1, &got, &cause), 1,
	    "the calibration of a run");
	store_calibration_release(&got);

	hc = store_run_host_class(st, r1, &cause);
	tap_str_eq(hc, "vm", "host class of a named host: its name");
	free(hc);
	store_config_set(st, r1, NULL, "partition", "c4", NULL);
	store_config_set(st, r1, NULL, "vcpus", "4", NULL);
	hc = store_run_host_class(st, r1, &cause);
	tap_str_eq(hc, "c4/vcpus=4", "host class of a fleet run: partition "
	    "and shape");
	free(hc);

	tap_ok(store_run_delete(st, r2, &cause) == 0 &&
	    store_calibration_get(st, r2, &got, &cause) == 0,
	    "a deleted run takes its calibration along");

	/* Values keep their execution (gobench -test.count lines). */
	memset(&s, 0, sizeof(s));
	m[0].benchmark = m[1].benchmark = "X";
	m[0].unit = m[1].unit = "sec/op";
	m[0].value = 1;
	m[1].value = 2;
	s.run_id = r1;
	s.plan_idx = 7;
	s.arm = "a";
	s.workload = "X";
	s.status = SAMPLE_STATUS_OK;
	s.metrics = m;
	s.nmetrics = 2;
	store_sample_add(st, &s, NULL);
	s.plan_idx = 8;
	s.nmetrics = 1;
	store_sample_add(st, &s, NULL);
	tap_ok(store_values(st, r1, NULL, 0, &v, &nv, &cause) == 0 &&
	    nv == 3 && v[0].plan_idx == 7 && v[1].plan_idx == 7 &&
	    v[2].plan_idx == 8, "store_values: plan_idx of each value");
	store_values_free(v, nv);

	store_close(st);
	rmtree(tmpdir, NULL);
	free(path);
	return tap_done();
}
