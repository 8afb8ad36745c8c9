/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of benchstat_add_run (results/benchstat-run.h): a run's arms
 * as benchstat inputs from its sample table print what benchstat prints
 * on the run's export, byte for byte (tables and messages), without
 * reading any text: names and config values with " % \ < >, Unit metadata,
 * ns/op and MB/s tidied, config blocks that change and delete keys, a
 * runner's run with metadata keys asked for by a projection, several runs
 * in one table, -filter/-row/-col/-ignore, csv; a run whose export
 * benchfmt reads otherwise (a name with a Unicode space) goes as text.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/benchstat-run.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchfmt.h"
#include "stats/benchstat.h"
#include "tap.h"

static char tmpdir[] = "/tmp/t-benchstat-run.XXXXXX";

static char *
tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void
write_text(const char *path, const char *text)
{
	FILE	*fp = fopen(path, "w");

	if (fp == NULL || fputs(text, fp) == EOF)
		die("cannot write '%s'", path);
	fclose(fp);
}

static const char old_txt[] =
    "Unit ns/op assume=exact\n"
    "goos: linux\n"
    "pkg: a \"b\" % c\\d <e>\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 12 ns/op 3 B/op\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 13 ns/op 3 B/op\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 12.5 ns/op 4 B/op\n"
    "BenchmarkMB 1 100 MB/s\n"
    "BenchmarkMB 1 101 MB/s\n"
    "BenchmarkMB 1 99.5 MB/s\n"
    "goos:\n"
    "note:   spaced  \n"
    "BenchmarkLess<3>-2 1 7 ns/op\n"
    "BenchmarkLess<3>-2 1 7.5 ns/op\n"
    "BenchmarkLess<3>-2 1 8 ns/op\n";

static const char new_txt[] =
    "Unit ns/op assume=exact\n"
    "Unit B/op better=lower\n"
    "goos: linux\n"
    "pkg: a \"b\" % c\\d <e>\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 20 ns/op 3 B/op\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 21 ns/op 5 B/op\n"
    "BenchmarkQuote\"x/y=%d\\z<w>-4 1 22 ns/op 5 B/op\n"
    "BenchmarkMB 1 100 MB/s\n"
    "BenchmarkMB 1 102 MB/s\n"
    "BenchmarkMB 1 98 MB/s\n"
    "BenchmarkLess<3>-2 1 7 ns/op\n"
    "BenchmarkLess<3>-2 1 7.25 ns/op\n"
    "BenchmarkLess<3>-2 1 8 ns/op\n";

/* Unit metadata the others set otherwise: benchstat says so, by line. */
static const char conflict_txt[] =
    "goos: plan9\n"
    "Unit ns/op assume=nothing\n"
    "Unit MB/s better=higher\n"
    "BenchmarkLess<3>-2 1 9 ns/op\n"
    "BenchmarkLess<3>-2 1 9.5 ns/op\n";

/* A runner's run: its config, a metadata key, values of two units. */
static int64_t
runner_run(struct store *st, const char *bench, int64_t start)
{
	const char *const	 arms[] = { "base", "new%<x>" };
	struct store_run	 r;
	struct store_metric	 m[2];
	struct store_sample	 s;
	char			*cause = NULL;
	int			 plan;

	memset(&r, 0, sizeof r);
	r.name = (char *)"runner";
	r.host = (char *)"host-a";
	r.started_wall_ns = start;
	r.order_kind = (char *)"alternate";
	r.rounds = 4;
	r.experiment_text = (char *)"[experiment]\nname = x\n";
	if (store_run_create(st, &r, arms, 2, &cause) != 0)
		die("run create: %s", cause);
	free(r.uuid);
	store_config_set(st, r.id, NULL, "vcpus", "2", &cause);
	store_config_set(st, r.id, NULL, "set.stop", "decided", &cause);
	store_config_set(st, r.id, NULL, "Odd Key", "a\nb \"q\"", &cause);
	store_config_set(st, r.id, "base", "runtime", "runc", &cause);
	store_config_set(st, r.id, "new%<x>", "runtime", "runsc \\ 1", &cause);
	store_unit_set(st, r.id, "sec/op", "better", "lower", &cause);
	for (plan = 0; plan < 8; plan++) {
		m[0].benchmark = bench;
		m[0].unit = "sec/op";
		m[0].value = 0.001 * (1 + plan % 3) * (plan % 2 ? 1.5 : 1);
		m[1].benchmark = bench;
		m[1].unit = "max-rss-B";
		m[1].value = 1024 * (1 + plan % 2);
		memset(&s, 0, sizeof s);
		s.run_id = r.id;
		s.plan_idx = plan;
		s.round = plan / 2;
		s.position = plan % 2;
		s.arm = arms[plan % 2];
		s.workload = "cmd";
		s.status = SAMPLE_STATUS_OK;
		s.start_ns = 1000 + plan;
		s.end_ns = 2000 + plan;
		s.metrics = m;
		s.nmetrics = 2;
		if (store_sample_add(st, &s, &cause) != 0)
			die("sample add: %s", cause);
	}
	return r.id;
}

struct out {
	struct strbuf	out, err;
	int		rc;
};

/*
 * Every arm of the runs as one input each (labelled RUN:ARM, with the
 * config line "set.stop: VALUE" first when meta): by the export's text
 * when text, else by benchstat_add_run from each run's table.
 */
static void
stat_runs(struct store *st, const int64_t *ids, size_t n,
    const struct benchstat_opts *o, int meta, int text, struct out *res)
{
	struct benchstat	*bs;
	struct store_run	 r;
	struct sampletab	*t;
	struct strbuf		 buf = STRBUF_INIT;
	struct strvec		 k = STRVEC_INIT, v = STRVEC_INIT;
	char			*cause = NULL, *label;
	size_t			 i, a;

	memset(res, 0, sizeof(*res));
	if ((bs = benchstat_new(o, &cause)) == NULL)
		die("benchstat: %s", cause);
	if (meta) {
		strvec_push(&k, "set.stop");
		strvec_push(&v, "decided");
	}
	for (i = 0; i < n; i++) {
		if (store_run_get(st, ids[i], &r, &cause) != 0)
			die("%s", cause);
		t = text ? NULL : sampletab_load_src(st, r.id,
		    &(const struct sampletab_filter){ NULL, 0, 0 }, &cause);
		for (a = 0; a < r.narms; a++) {
			label = xasprintf("%lld:%s", (long long)r.id,
			    r.arms[a]);
			if (text) {
				strbuf_reset(&buf);
				if (meta)
					strbuf_adds(&buf, "set.stop: decided\n");
				if (export_run_benchfmt(st, r.id, r.arms[a],
				    &buf, &cause) != 0 || benchstat_add(bs,
				    label, label, buf.buf, buf.len,
				    &cause) != 0)
					die("%s", cause);
			} else if (benchstat_add_run(bs, st, &r, t, r.arms[a],
			    label, &k, &v, &cause) != 0)
				die("%s", cause);
			free(label);
		}
		sampletab_free(t);
		store_run_release(&r);
	}
	res->rc = benchstat_finish(bs, &res->out, &res->err);
	benchstat_free(bs);
	strbuf_release(&buf);
	strvec_clear(&k);
	strvec_clear(&v);
}

static void
check_same(struct store *st, const int64_t *ids, size_t n,
    const struct benchstat_opts *o, int meta, int want_text,
    const char *what)
{
	struct out	 t, d;
	unsigned long	 lines, texts;
	int		 same;

	stat_runs(st, ids, n, o, meta, 1, &t);
	lines = bf_text_lines;
	texts = benchstat_run_texts;
	stat_runs(st, ids, n, o, meta, 0, &d);
	/* (An empty output's buffer is NULL: memcmp must not see it.) */
	same = t.out.len == d.out.len && (t.out.len == 0 ||
	    memcmp(t.out.buf, d.out.buf, t.out.len) == 0);
	tap_ok((t.out.len > 0 || want_text) && t.rc == d.rc && same,
	    "%s: the tables are the export's", what);
	if (!same)
		TAP_DIAG("export:\n%s\ntable:\n%s", t.out.buf ? t.out.buf : "",
		    d.out.buf ? d.out.buf : "");
	tap_str_eq(d.err.buf != NULL ? d.err.buf : "", t.err.buf != NULL ?
	    t.err.buf : "", "%s: the messages too", what);
	if (want_text)
		tap_ok(benchstat_run_texts > texts && bf_text_lines > lines,
		    "%s: read as text (the export's names would not read "
		    "back)", what);
	else
		tap_ok(benchstat_run_texts == texts && bf_text_lines == lines,
		    "%s: no text read (%lu lines)", what, bf_text_lines -
		    lines);
	strbuf_release(&t.out);
	strbuf_release(&t.err);
	strbuf_release(&d.out);
	strbuf_release(&d.err);
}

int
main(void)
{
	struct import_options	 io;
	struct store		*st;
	struct benchstat_opts	 o;
	struct strvec		 warn = STRVEC_INIT;
	char			*db, *p1, *p2, *p3, *cause = NULL, *args[2];
	int64_t			 ids[4], cids[2], nv;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp failed");
	db = tpath("r.db");
	p1 = tpath("old.txt");
	p2 = tpath("new.txt");
	write_text(p1, old_txt);
	write_text(p2, new_txt);
	p3 = tpath("conflict.txt");
	write_text(p3, conflict_txt);
	if ((st = store_open(db, STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	memset(&io, 0, sizeof io);
	args[0] = p1;
	args[1] = p2;
	if (import_benchfmt(st, args, 2, &io, &ids[0], &nv, &warn,
	    &cause) != 0 || import_benchfmt(st, args + 1, 1, &io, &ids[1], &nv,
	    &warn, &cause) != 0)
		die("import: %s", cause);
	cids[0] = ids[0];
	args[0] = p3;
	if (import_benchfmt(st, args, 1, &io, &cids[1], &nv, &warn,
	    &cause) != 0)
		die("import: %s", cause);
	ids[2] = runner_run(st, "Cmd/x=\"1\"%<2>", 100);
	ids[3] = runner_run(st, "Wide\xc2\xa0Space", 200);

	benchstat_opts_init(&o);
	check_same(st, ids, 1, &o, 0, 0, "an import of two files");
	check_same(st, ids, 3, &o, 0, 0, "two imports and a runner's run");
	o.format = "csv";
	check_same(st, ids, 3, &o, 0, 0, "csv");
	benchstat_opts_init(&o);
	o.filter = ".unit:(B/op OR sec/op) -.name:MB";
	check_same(st, ids, 3, &o, 0, 0, "-filter");
	benchstat_opts_init(&o);
	o.row = ".name";
	o.col = "pkg";
	o.ignore = "goos";
	check_same(st, ids, 2, &o, 0, 0, "-row .name -col pkg -ignore goos");
	benchstat_opts_init(&o);
	o.table = "";
	o.row = "note";
	o.col = ".file";
	check_same(st, ids, 1, &o, 0, 0, "a key set, deleted, set spaced");
	benchstat_opts_init(&o);
	check_same(st, cids, 2, &o, 0, 0, "Unit metadata set otherwise");
	o.col = "set.stop";
	o.row = "runtime";
	check_same(st, ids + 2, 1, &o, 1, 0,
	    "a runner's run, its set.stop asked for");
	benchstat_opts_init(&o);
	check_same(st, ids + 3, 1, &o, 0, 1,
	    "a name with a Unicode space");
	check_same(st, ids, 4, &o, 0, 1, "with the others");

	store_close(st);
	strvec_clear(&warn);
	free(db);
	free(p1);
	free(p2);
	free(p3);
	if (rmtree(tmpdir, NULL) != 0)
		TAP_DIAG("cannot remove %s", tmpdir);
	return tap_done();
}
