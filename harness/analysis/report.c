/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report of a run (see report.h): gathers what the store knows about a
 * run, the benchstat tables, the plots and the corrected p-values, and
 * writes them as one HTML file (SVG inlined) or Markdown (PNG beside it).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/core/experiment.h"
#include "harness/analysis/history.h"
#include "harness/analysis/nightly.h"
#include "harness/analysis/plot.h"
#include "harness/analysis/powerdata.h"
#include "harness/analysis/markup.h"
#include "harness/analysis/report.h"
#include "harness/analysis/report-int.h"
#include "harness/analysis/run-advice.h"
#include "harness/analysis/shifts.h"
#include "lib/util.h"
#include "results/benchstat-run.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchmath.h"
#include "stats/benchstat.h"
#include "stats/benchunit.h"
#include "stats/correct.h"

enum report_format
report_format_of(const char *path)
{
	size_t	n = strlen(path);

	if ((n >= 3 && strcmp(path + n - 3, ".md") == 0) ||
	    (n >= 9 && strcmp(path + n - 9, ".markdown") == 0))
		return REPORT_MARKDOWN;
	return REPORT_HTML;
}


/* Preformatted text; id names the block in HTML. */
static void
report_pre(struct report *r, const char *id, const char *text)
{
	char	*clean;

	if (r->html) {
		strbuf_addf(&r->out, "<pre id=\"%s\">", id);
		report_esc(r, text);
		strbuf_adds(&r->out, "</pre>\n");
		return;
	}
	/*
	 * Four backticks: tables and INI files do not hold such a run.
	 * Entities mean nothing in a code block: bytes that are no UTF-8
	 * become U+FFFD itself.
	 */
	clean = utf8_sanitize(text, strlen(text));
	strbuf_adds(&r->out, "````text\n");
	strbuf_adds(&r->out, clean);
	if (*clean != '\0' && clean[strlen(clean) - 1] != '\n')
		strbuf_addc(&r->out, '\n');
	strbuf_adds(&r->out, "````\n\n");
	free(clean);
}

static void
report_kv_row(struct report *r, const char *k, const char *v)
{
	report_row_begin(r);
	report_cell(r, k);
	report_cell(r, v);
	report_row_end(r);
}

static void
report_head(struct report *r)
{
	char	*title = xasprintf("abbench report: run %" PRId64 " %s",
		    r->run.id, r->run.name ? r->run.name : "");

	if (r->html) {
		strbuf_adds(&r->out, "<!DOCTYPE html>\n<html lang=\"en\">\n"
		    "<head>\n<meta charset=\"utf-8\">\n<title>");
		report_esc(r, title);
		strbuf_adds(&r->out, "</title>\n<style>\n"
		    "body{font-family:sans-serif;max-width:1100px;margin:2em "
		    "auto;padding:0 1em;color:#222}\n"
		    "pre{background:#f6f6f6;padding:.8em;overflow-x:auto;"
		    "font-family:\"DejaVu Sans Mono\",Menlo,Consolas,"
		    "\"Liberation Mono\",monospace;"
		    "font-size:13px;line-height:1.25}\n"
		    "table{border-collapse:collapse;margin:.5em 0 1em}\n"
		    "td,th{border:1px solid #ccc;padding:.2em .6em;"
		    "text-align:left;vertical-align:top;font-size:14px}\n"
		    "th{background:#eee}\n.yes{color:#060;font-weight:bold}\n"
		    ".no{color:#888}\n.regressed{color:#b00;font-weight:bold}\n"
		    ".improved{color:#060;font-weight:bold}\n"
		    "figure{margin:1em 0}\nfigure svg{max-width:100%;"
		    "height:auto}\n</style>\n</head>\n<body>\n<h1>");
		report_esc(r, title);
		strbuf_adds(&r->out, "</h1>\n");
	} else {
		strbuf_adds(&r->out, "# ");
		report_esc(r, title);
		strbuf_addc(&r->out, '\n');
	}
	free(title);
}

static void
report_summary(struct report *r)
{
	static const char *const head[] = { "field", "value", NULL };
	char	 t[64], *s;

	report_h2(r, "run", "Run");
	report_table_begin(r, head);
	report_kv_row(r, "uuid", r->run.uuid);
	report_kv_row(r, "experiment", r->run.name);
	report_kv_row(r, "host", r->run.host);
	report_kv_row(r, "status", r->run.status);
	format_wall_time(r->run.started_wall_ns, t, sizeof(t));
	report_kv_row(r, "started", t);
	if (r->run.ended_wall_ns != 0) {
		format_wall_time(r->run.ended_wall_ns, t, sizeof(t));
		report_kv_row(r, "ended", t);
	}
	s = xasprintf("%s (seed %" PRIu64 ")", r->run.order_kind ?
	    r->run.order_kind : "?", r->run.seed);
	report_kv_row(r, "order", s);
	free(s);
	/* The rounds taken, as db show says them. */
	s = store_run_rounds_text(r->st, &r->run);
	report_kv_row(r, "rounds", s);
	free(s);
	s = xasprintf("%" PRId64 " (%" PRId64 " values, %" PRId64 " failed)",
	    r->run.nsamples, r->run.nvalues, r->run.nfailed);
	report_kv_row(r, "samples", s);
	free(s);
	report_kv_row(r, "experiment file", r->run.experiment_path);
	report_kv_row(r, "abbench", r->run.abbench_version);
	report_table_end(r);
}

static void
report_experiment(struct report *r)
{
	report_h2(r, "experiment", "Experiment");
	if (r->run.experiment_text == NULL || *r->run.experiment_text == '\0')
		report_para(r,
		    "The run stores no experiment file (an import).");
	else
		report_pre(r, "experiment-text", r->run.experiment_text);
}

static void
report_arms(struct report *r, const struct store_kv *kv, size_t nkv)
{
	static const char *const head[] = { "arm", "settings",
		"recorded for the arm", NULL };
	struct experiment	*e = NULL;
	struct strbuf		 sb = STRBUF_INIT;
	char			*cause = NULL;
	size_t			 a, i, j;

	if (r->run.experiment_text != NULL && *r->run.experiment_text != '\0')
		e = experiment_parse(r->run.experiment_path ?
		    r->run.experiment_path : "(stored)",
		    r->run.experiment_text, strlen(r->run.experiment_text),
		    &cause);
	free(cause);
	report_h2(r, "arms", "Arms");
	report_table_begin(r, head);
	for (a = 0; a < r->run.narms; a++) {
		report_row_begin(r);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s", r->run.arms[a], a == 0 ?
		    " (baseline)" : "");
		report_cell(r, sb.buf);
		strbuf_reset(&sb);
		for (i = 0; e != NULL && i < e->narms; i++) {
			if (strcmp(e->arms[i].name, r->run.arms[a]) != 0)
				continue;
			for (j = 0; j < e->arms[i].nkv; j++)
				strbuf_addf(&sb, "%s%s = %s",
				    sb.len ? "; " : "", e->arms[i].kv[j].key,
				    e->arms[i].kv[j].value);
		}
		report_cell(r, sb.buf != NULL ? sb.buf : "");
		strbuf_reset(&sb);
		for (i = 0; i < nkv; i++)
			if (strcmp(kv[i].arm, r->run.arms[a]) == 0)
				strbuf_addf(&sb, "%s%s: %s", sb.len ? "; " : "",
				    kv[i].key, kv[i].value);
		report_cell(r, sb.buf != NULL ? sb.buf : "");
		strbuf_reset(&sb);
		report_row_end(r);
	}
	report_table_end(r);
	strbuf_release(&sb);
	experiment_free(e);
}

/* A run-level key of the moment (imported runs keep their files' keys). */
static int
is_meta(const struct report *r, const char *key)
{
	return strcmp(r->run.status, RUN_IMPORTED) != 0 &&
	    store_key_is_metadata(key);
}

static void
report_host(struct report *r, const struct store_kv *kv, size_t nkv)
{
	static const char *const head[] = { "key", "value", NULL };
	char	**warn = NULL, *cause = NULL;
	size_t	  nwarn = 0, i;

	report_h2(r, "host", "Host");
	report_table_begin(r, head);
	for (i = 0; i < nkv; i++)
		if (kv[i].arm[0] == '\0' && !is_meta(r, kv[i].key))
			report_kv_row(r, kv[i].key, kv[i].value);
	report_table_end(r);
	/* What measured the moment: shown, never a config of the tables. */
	for (i = 0; i < nkv; i++)
		if (kv[i].arm[0] == '\0' && is_meta(r, kv[i].key))
			break;
	if (i < nkv) {
		report_h2(r, "metadata", "Run metadata");
		report_table_begin(r, head);
		for (; i < nkv; i++)
			if (kv[i].arm[0] == '\0' && is_meta(r, kv[i].key))
				report_kv_row(r, kv[i].key, kv[i].value);
		report_table_end(r);
	}
	report_h2(r, "warnings", "Warnings");
	if (store_warnings_list(r->st, r->run.id, &warn, &nwarn, &cause) ==
	    -1) {
		report_para(r, cause);
		free(cause);
		return;
	}
	if (nwarn == 0)
		report_para(r, "None stored with the run.");
	else if (r->html) {
		strbuf_adds(&r->out, "<ul>\n");
		for (i = 0; i < nwarn; i++) {
			strbuf_adds(&r->out, "<li>");
			report_esc(r, warn[i]);
			strbuf_adds(&r->out, "</li>\n");
		}
		strbuf_adds(&r->out, "</ul>\n");
	} else {
		for (i = 0; i < nwarn; i++) {
			strbuf_adds(&r->out, "- ");
			report_esc(r, warn[i]);
			strbuf_addc(&r->out, '\n');
		}
		strbuf_addc(&r->out, '\n');
	}
	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
}

/* Exactly `abbench stat --db F RUN` (stdout), each arm one input, with
 * the experiment's stat-filter as stat applies it. */
static int
report_benchstat_text(struct report *r, struct strbuf *out, char **cause)
{
	struct benchstat_opts	 bo;
	struct benchstat	*bs;
	struct strbuf		 err = STRBUF_INIT;
	char			*filter;
	size_t			 a;

	if (r->tab == NULL) {
		*cause = xstrdup(r->tabcause);
		return -1;
	}
	benchstat_opts_init(&bo);
	filter = experiment_stat_filter(r->run.experiment_path,
	    r->run.experiment_text);
	if (filter != NULL)
		bo.filter = filter;
	bs = benchstat_new(&bo, cause);
	if (bs == NULL) {
		free(filter);
		return -1;
	}
	for (a = 0; a < r->run.narms; a++) {
		if (benchstat_add_run(bs, r->st, &r->run, r->tab,
		    r->run.arms[a], r->run.arms[a], NULL, NULL, cause) < 0) {
			benchstat_free(bs);
			free(filter);
			return -1;
		}
	}
	benchstat_finish(bs, out, &err);
	strbuf_release(&err);
	benchstat_free(bs);
	free(filter);
	return 0;
}

/* The value of a run-level config key, or NULL (malloc'd). */
static char *
report_run_key(struct store *st, int64_t run_id, const char *key)
{
	struct store_kv	*kv = NULL;
	size_t		 n = 0, i;
	char		*v = NULL;

	if (store_config_list(st, run_id, &kv, &n, NULL) == -1)
		return NULL;
	for (i = 0; i < n && v == NULL; i++)
		if (kv[i].arm[0] == '\0' && strcmp(kv[i].key, key) == 0)
			v = xstrdup(kv[i].value);
	store_kv_free(kv, n);
	return v;
}

/*
 * A run of a fleet whose other shapes are in the same database (a merged
 * fleet.db): the cross-shape table, shapes on rows and arms on columns,
 * as `abbench stat --db F -table .fullname -row partition -col arm` of
 * the fleet's runs prints it.
 */
static void
report_shapes(struct report *r)
{
	static const struct sampletab_filter tf = { NULL, 0, 0 };
	struct benchstat_opts	 bo;
	struct benchstat	*bs = NULL;
	struct store_run	*runs = NULL;
	struct sampletab	*t;
	struct strbuf		 out = STRBUF_INIT;
	struct strbuf		 err = STRBUF_INIT;
	struct strvec		 key = STRVEC_INIT, val = STRVEC_INIT;
	char			*fleet, *cause = NULL, *label;
	size_t			 n = 0, i, a, nfleet = 0;
	int			 rc;

	if ((fleet = report_run_key(r->st, r->run.id, "fleet-id")) == NULL)
		return;
	if (store_runs_with(r->st, "fleet-id", fleet, &runs, &n, NULL) == -1)
		goto out;
	benchstat_opts_init(&bo);
	bo.table = ".fullname";
	bo.row = "partition";
	bo.col = "arm";
	if (n < 2 || (bs = benchstat_new(&bo, &cause)) == NULL)
		goto out;
	strvec_push(&key, "arm");
	strvec_push(&val, "");
	for (i = 0; i < n; i++) {
		nfleet++;
		t = runs[i].id == r->run.id ? r->tab : sampletab_load_src(
		    r->st, runs[i].id, &tf, &cause);
		if (t == NULL) {
			if (cause == NULL)
				cause = xstrdup(r->tabcause);
			goto out;
		}
		for (a = 0, rc = 0; a < runs[i].narms && rc == 0; a++) {
			free(val.v[0]);
			val.v[0] = xstrdup(runs[i].arms[a]);
			label = xasprintf("%" PRId64 ":%s", runs[i].id,
			    runs[i].arms[a]);
			rc = benchstat_add_run(bs, r->st, &runs[i], t,
			    runs[i].arms[a], label, &key, &val, &cause);
			free(label);
		}
		if (t != r->tab)
			sampletab_free(t);
		if (rc != 0)
			goto out;
	}
	if (nfleet < 2)
		goto out;
	benchstat_finish(bs, &out, &err);
	report_h2(r, "shapes", "Across the fleet's shapes");
	label = xasprintf("The %zu runs of fleet %s in this database, shapes "
	    "(partitions) on rows, arms on columns: abbench stat --db F "
	    "-table .fullname -row partition -col arm all.", nfleet, fleet);
	report_para(r, label);
	free(label);
	report_pre(r, "shapes", out.buf != NULL ? out.buf : "");
out:
	if (cause != NULL) {
		report_h2(r, "shapes", "Across the fleet's shapes");
		report_para(r, cause);
		free(cause);
	}
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	benchstat_free(bs);
	strvec_clear(&key);
	strvec_clear(&val);
	strbuf_release(&out);
	strbuf_release(&err);
	free(fleet);
}

static void
report_tables(struct report *r)
{
	struct strbuf	 tab = STRBUF_INIT;
	struct strvec	 notes = STRVEC_INIT;
	char		*cause = NULL;
	size_t		 i;

	report_h2(r, "benchstat", "Benchstat tables");
	if (report_benchstat_text(r, &tab, &cause) == -1) {
		report_para(r, cause);
		free(cause);
		return;
	}
	report_pre(r, "benchstat", tab.buf != NULL ? tab.buf : "");
	strbuf_reset(&tab);
	/* Their n counts lines: what it counts where a line is not a run. */
	run_advice_lines_tab(r->tab, NULL, NULL, &notes);
	for (i = 0; i < notes.n; i++)
		strbuf_addf(&tab, "%s%s", i > 0 ? "; " : "", notes.v[i]);
	if (notes.n > 0) {
		strbuf_addf(&tab, ". %s.", run_advice_lines_why);
		report_para(r, tab.buf);
	}
	strvec_clear(&notes);
	strbuf_release(&tab);
}


static void
report_failed(struct report *r)
{
	static const char *const head[] = { "round", "position", "arm",
		"benchmark", "status", "error", NULL };
	struct store_value	*v = NULL;
	size_t			 nv = 0, i, nfail = 0;
	char			*cause = NULL, a[32], b[16];

	report_h2(r, "failed", "Failed samples");
	if (store_values(r->st, r->run.id, NULL, STORE_Q_FAILED |
	    STORE_Q_WARMUP, &v, &nv, &cause) == -1) {
		report_para(r, cause);
		free(cause);
		return;
	}
	for (i = 0; i < nv; i++)
		if (strcmp(v[i].status, SAMPLE_OK) != 0)
			nfail++;
	if (nfail == 0)
		report_para(r, "None.");
	else {
		report_table_begin(r, head);
		for (i = 0; i < nv; i++) {
			if (strcmp(v[i].status, SAMPLE_OK) == 0)
				continue;
			snprintf(a, sizeof(a), "%d%s", v[i].round + 1,
			    v[i].warmup ? " (warm-up)" : "");
			snprintf(b, sizeof(b), "%d", v[i].position + 1);
			report_row_begin(r);
			report_cell(r, a);
			report_cell(r, b);
			report_cell(r, v[i].arm);
			report_cell(r, v[i].benchmark);
			report_cell(r, v[i].status);
			report_cell(r, v[i].error != NULL ? v[i].error : "");
			report_row_end(r);
		}
		report_table_end(r);
	}
	store_values_free(v, nv);
}

/* Level shifts within the run, and the comparisons that moved there. */
static void
report_shifts(struct report *r)
{
	static const char *const head[] = { "benchmark", "unit", "round",
		"level change", "p", "arm", "before", "after", "p (effect)",
		"effect moved", NULL };
	const struct shift_scan	*s = &r->shifts;
	char			*t, rd[16], lv[32], p[32];
	char			 b[32], a[32], pe[32];
	size_t			 i, k, arm;

	report_h2(r, "shifts", "Level shifts within the run");
	if (r->shiftcause != NULL) {
		report_para(r, r->shiftcause);
		return;
	}
	t = xasprintf("Each row's level is what its arms share in a round "
	    "(each arm's values over the arm's median, the mean of their "
	    "logs); its change points are found by E-divisive means "
	    "(a permutation p of %g or less, at least %zu rounds on each "
	    "side). Interleaving exposes every arm to such a change alike; "
	    "it matters when the comparison moves with it (Mann-Whitney U of "
	    "the per-round ratios on either side, p of %g or less divided "
	    "by the row's shifts, by %g%% or more): "
	    "the table's delta then averages two regimes. Shown: shifts of "
	    "the level by %g%% (the experiment's effect) or more, and every "
	    "one at which a comparison moved.", s->opt.alpha,
	    s->opt.min_rounds, s->opt.alpha, 100 * s->opt.min_change,
	    100 * s->opt.min_change);
	report_para(r, t);
	free(t);
	if (s->n == 0) {
		t = xasprintf("None: the level of each of the %zu rows tested "
		    "held. (The run has %zu rows; a row with fewer than %zu "
		    "rounds or a value without a log, 0 or less or infinite, "
		    "is not tested.)", s->ntested, s->nrows,
		    2 * s->opt.min_rounds);
		report_para(r, t);
		free(t);
		return;
	}
	t = xasprintf("%zu of the %zu rows tested shifted; in %zu a "
	    "comparison moved with the level. (The run has %zu rows; a row "
	    "with fewer than %zu rounds or a value without a log, 0 or less "
	    "or infinite, is not tested.)%s", s->n, s->ntested, s->nmoved,
	    s->nrows, 2 * s->opt.min_rounds, r->ntime == 0 ? "" : " The time "
	    "plots above mark each shift shown with a dashed line.");
	report_para(r, t);
	free(t);
	report_table_begin(r, head);
	for (i = 0; i < s->n; i++) {
		const struct shift_row	*row = &s->rows[i];

		for (k = 0; k < row->res.n; k++) {
			const struct ls_shift	*sh = &row->res.shifts[k];

			if (!shift_shown(s, sh))
				continue;
			snprintf(rd, sizeof(rd), "%d",
			    row->rounds[sh->round] + 1);
			snprintf(lv, sizeof(lv), "%+.1f%%", 100 * sh->level);
			snprintf(p, sizeof(p), "%.3f", sh->p);
			for (arm = row->res.narms > 1 ? 1 : 0;
			    arm < row->res.narms; arm++) {
				const struct ls_arm	*la = &sh->arms[arm];

				b[0] = a[0] = pe[0] = '\0';
				if (arm > 0 && !isnan(la->before))
					snprintf(b, sizeof(b), "%+.1f%%",
					    100 * la->before);
				if (arm > 0 && !isnan(la->after))
					snprintf(a, sizeof(a), "%+.1f%%",
					    100 * la->after);
				if (arm > 0 && !isnan(la->p))
					snprintf(pe, sizeof(pe), "%.3g", la->p);
				report_row_begin(r);
				report_cell(r, row->benchmark);
				report_cell(r, row->unit);
				report_cell(r, rd);
				report_cell(r, lv);
				report_cell(r, p);
				report_cell(r, arm > 0 ? r->run.arms[arm] : "");
				report_cell(r, b);
				report_cell(r, a);
				report_cell(r, pe);
				report_cell(r, arm == 0 ? "" :
				    la->changed ? "yes" : "no");
				report_row_end(r);
			}
		}
	}
	report_table_end(r);
}

/* stop = decided: each row's verdict and the round it was made at. */
static void
report_decisions(struct report *r)
{
	static const char *const head[] = { "benchmark", "unit", "arm",
		"verdict", "good rounds", "round", "test", "p", "U test p",
		"boundary", "n", "MDE", NULL };
	struct store_decision	*d = NULL;
	size_t			 nd = 0, i;
	char			*cause = NULL, g[16], rd[16], p[32], b[32];
	char			 n[48], m[32], pu[32], *t, note[SEQ_REOPEN_NOTE];

	if (store_decisions_list(r->st, r->run.id, &d, &nd, &cause) == -1) {
		report_h2(r, "decisions", "Decisions (stop = decided)");
		report_para(r, cause);
		free(cause);
		return;
	}
	if (nd == 0)
		return;
	report_h2(r, "decisions", "Decisions (stop = decided)");
	snprintf(m, sizeof(m), "%g", EXPERIMENT_ALPHA);
	t = xasprintf("An undecided row's MDE, at its last look: the one "
	    "of the corrected p-values' table (alpha %s; abbench power).", m);
	report_para(r, t);
	free(t);
	report_table_begin(r, head);
	for (i = 0; i < nd; i++) {
		snprintf(g, sizeof(g), "%d", d[i].good_rounds);
		snprintf(rd, sizeof(rd), "%d", d[i].round + 1);
		snprintf(p, sizeof(p), "%.3g", d[i].p);
		if (isnan(d[i].p_u))
			pu[0] = '\0';
		else
			snprintf(pu, sizeof(pu), "%.3g", d[i].p_u);
		snprintf(b, sizeof(b), "%.3g", d[i].boundary);
		snprintf(n, sizeof(n), "%lld+%lld", (long long)d[i].n1,
		    (long long)d[i].n2);
		if (isnan(d[i].mde))
			m[0] = '\0';
		else
			snprintf(m, sizeof(m), "%.3g%%", d[i].mde * 100);
		report_row_begin(r);
		report_cell(r, d[i].benchmark);
		report_cell(r, d[i].unit);
		report_cell(r, d[i].arm);
		/* "undecided (reopened: different at look 1 ...)" */
		if (seq_reopen_note(&d[i].ro, note, sizeof(note)) > 0) {
			t = xasprintf("%s (%s)", d[i].verdict, note);
			report_cell(r, t);
			free(t);
		} else
			report_cell(r, d[i].verdict);
		report_cell(r, g);
		report_cell(r, rd);
		report_cell(r, d[i].test != NULL ? d[i].test : "");
		report_cell(r, p);
		report_cell(r, pu);
		report_cell(r, b);
		report_cell(r, n);
		report_cell(r, m);
		report_row_end(r);
	}
	report_table_end(r);
	store_decisions_free(d, nd);
}

/*
 * The history of the night's experiment (harness/analysis/history.h) under the
 * verdict, HTML only: every night's median, the change points and the
 * alarms of every series. A history that cannot be built is said, not
 * fatal to the report.
 */
static void
report_history(struct report *r, const struct nightly_result *n)
{
	struct history_options	 o;
	struct history		 h;
	char			*cause = NULL, *s;

	history_options_init(&o);
	o.threshold = n->opt.threshold;
	o.alpha = n->opt.alpha;
	o.baseline = n->opt.baseline;
	report_h2(r, "history", "History");
	if (history_build(r->st, r->run.name, &o, &h, &cause) == -1) {
		s = xasprintf("No history: %s.", cause);
		report_para(r, s);
		free(s);
		free(cause);
		return;
	}
	history_format_section(&h, &r->out);
	history_release(&h);
}

static void
report_nightly(struct report *r)
{
	static const char *const head[] = { "verdict", "arm", "benchmark",
		"unit", "why", NULL };
	const struct nightly_result	*n = r->o->nightly;
	char				*s;
	size_t				 i;

	if (n == NULL)
		return;
	report_h2(r, "nightly", "Nightly verdict");
	s = xasprintf("%d regressed, %d improved, %d inconclusive of %zu; "
	    "baseline: %zu runs, history: %zu nights, threshold %g%%.",
	    n->nregressed, n->nimproved, n->ninconclusive, n->nrows,
	    n->nbaseline, n->nhistory, 100 * n->opt.threshold);
	report_para(r, s);
	free(s);
	report_table_begin(r, head);
	for (i = 0; i < n->nrows; i++) {
		const char	*v = nightly_verdict_name(n->rows[i].verdict);
		char		*vt = nightly_row_verdict(n, i);

		report_row_begin(r);
		if (r->html) {
			strbuf_addf(&r->out, "<td class=\"%s\">%s</td>", v, vt);
		} else
			report_cell(r, vt);
		free(vt);
		report_cell(r, n->rows[i].arm);
		report_cell(r, n->rows[i].benchmark);
		report_cell(r, n->rows[i].unit);
		vt = nightly_row_reason(n, i);
		report_cell(r, vt);
		free(vt);
		report_row_end(r);
	}
	report_table_end(r);
	if (r->html)
		report_history(r, n);
}

static void
report_plots(struct report *r)
{
	struct plot_options	 po;
	struct plot_list	 list = { NULL, 0, 0, 0, 0 };
	char			*cause = NULL, *dir = NULL, *data, *svg;
	char			*base, *dot, *rel, *alt;
	size_t			 i, len;
	int			 rc;

	report_h2(r, "plots", "Plots");
	if (r->o->no_plots) {
		report_para(r, "Plots were not asked for.");
		return;
	}
	memset(&po, 0, sizeof(po));
	if (r->html) {
		char	*tmpl = tmp_path("abbench-report.XXXXXX");

		if (mkdtemp(tmpl) == NULL) {
			report_para(r, "No plots: cannot make a temporary "
			    "directory.");
			free(tmpl);
			return;
		}
		dir = tmpl;
		po.format = PLOT_SVG;
	} else {
		/* FILE.md -> FILE-plots/ beside it. */
		base = xstrdup(r->o->path);
		if ((dot = strrchr(base, '.')) != NULL &&
		    strchr(dot, '/') == NULL)
			*dot = '\0';
		dir = xasprintf("%s-plots", base);
		free(base);
		po.format = PLOT_PNG;
	}
	po.dir = dir;
	po.max_groups = r->o->max_plots == 0 ? REPORT_MAX_PLOTS :
	    r->o->max_plots == REPORT_PLOTS_ALL ? 0 : r->o->max_plots;
	/* The run's table and shifts, read and scanned once. */
	if (r->tab == NULL || r->shiftcause != NULL) {
		rc = -1;
		cause = xstrdup(r->tab == NULL ? r->tabcause : r->shiftcause);
	} else
		rc = plot_run_tab(r->st, &r->run, r->tab, &r->shifts, &po,
		    &list, &cause);
	if (rc == -1) {
		char	*msg = xasprintf("Some plots are missing: %s", cause);

		report_para(r, msg);
		free(msg);
		free(cause);
	}
	for (i = 0; i < list.n; i++) {
		r->ntime += strcmp(list.v[i].kind, "time") == 0;
		if (!r->html) {
			char	*d = path_dir(r->o->path);

			rel = list.v[i].path;
			if (strcmp(d, ".") != 0 && str_startswith(rel, d) &&
			    rel[strlen(d)] == '/')
				rel += strlen(d) + 1;
			strbuf_adds(&r->out, "![");
			alt = utf8_sanitize(list.v[i].title,
			    strlen(list.v[i].title));
			for (data = alt; *data != '\0'; data++)
				strbuf_addc(&r->out, *data == '[' ||
				    *data == ']' ? '_' : *data);
			free(alt);
			strbuf_addf(&r->out, "](%s)\n\n", rel);
			free(d);
			continue;
		}
		if ((data = read_file(list.v[i].path, &len, &cause)) == NULL) {
			report_para(r, cause);
			free(cause);
			cause = NULL;
			continue;
		}
		svg = strstr(data, "<svg");
		strbuf_adds(&r->out, "<figure>\n");
		strbuf_adds(&r->out, svg != NULL ? svg : "");
		strbuf_adds(&r->out, "\n<figcaption>");
		report_esc(r, list.v[i].title);
		strbuf_adds(&r->out, "</figcaption>\n</figure>\n");
		free(data);
	}
	if (list.n == 0 && rc == 0)
		report_para(r, "The run has no samples to plot.");
	if (list.nskipped > 0 || list.nmatrix_cut > 0) {
		char	*msg = xasprintf("Plots of the first %zu of %zu "
		    "benchmark and unit pairs only%s; every row is in the "
		    "tables above. abbench report --plots all draws every "
		    "one, abbench plot writes them all as files.",
		    list.ngroups - list.nskipped, list.ngroups,
		    list.nmatrix_cut > 0 ? " (a matrix plot: its first "
		    "members)" : "");

		report_para(r, msg);
		free(msg);
	}
	/* Whatever the plot left there, also when it failed half way. */
	if (r->html)
		(void)rmtree(dir, NULL);
	plot_list_release(&list);
	free(dir);
}

static int
report_save(struct report *r, char **cause)
{
	return markup_save(r->o->path, r->out.buf, r->out.len, cause);
}

int
report_write(struct store *st, int64_t run_id,
    const struct report_options *o, char **cause)
{
	struct report	 r;
	struct store_kv	*kv = NULL;
	size_t		 nkv = 0;
	int		 rc = -1;

	memset(&r, 0, sizeof(r));
	r.st = st;
	r.o = o;
	r.html = o->format == REPORT_HTML;
	r.alpha = o->alpha > 0 ? o->alpha : 0.05;
	if (store_run_get(st, run_id, &r.run, cause) == -1)
		return -1;
	if (store_config_list(st, run_id, &kv, &nkv, cause) == -1)
		goto out;
	/* The run's values, read once for every section (grouped: the
	 * shifts, the plots' marks and the MDEs take each execution's
	 * median). */
	r.tab = sampletab_load_src(st, run_id, &(const struct sampletab_filter)
	    { NULL, 0, 1 }, &r.tabcause);
	if (r.tab == NULL)
		r.shiftcause = xstrdup(r.tabcause);
	else
		(void)shift_scan_tab(r.tab, &r.run, &r.shifts, &r.shiftcause);
	report_head(&r);
	report_summary(&r);
	report_nightly(&r);
	report_tables(&r);
	report_shapes(&r);
	report_pvalues(&r);
	report_plots(&r);
	report_shifts(&r);
	report_decisions(&r);
	report_failed(&r);
	report_arms(&r, kv, nkv);
	report_host(&r, kv, nkv);
	report_experiment(&r);
	if (r.html)
		strbuf_adds(&r.out, "</body>\n</html>\n");
	rc = report_save(&r, cause);
out:
	shift_scan_release(&r.shifts);
	free(r.shiftcause);
	sampletab_free(r.tab);
	free(r.tabcause);
	store_kv_free(kv, nkv);
	strbuf_release(&r.out);
	store_run_release(&r.run);
	return rc;
}
