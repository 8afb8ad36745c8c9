/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench report: write one self-contained report of a run (HTML with the
 * plots inlined as SVG, or Markdown with PNG plots beside it).
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/analysis/report.h"
#include "lib/util.h"
#include "results/store.h"

extern const struct cmd_entry cmd_report_entry;

struct report_cmd_opts {
	const char		*db, *path;
	struct report_options	 ro;
};
#define REP(m)	OPT_AT(struct report_cmd_opts, m)

/* --plots N or all. */
static int
report_plots(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	size_t		*max = opt_member(&f->opt, opts);
	long long	 n;
	char		*why = NULL;

	if (strcmp(value, "all") == 0) {
		*max = REPORT_PLOTS_ALL;
		return 0;
	}
	if (parse_int(value, 1, INT_MAX, &n, &why) == -1) {
		free(why);
		return set_cause(cause, "--plots '%s' is not a positive "
		    "integer or all", value);
	}
	*max = (size_t)n;
	return 0;
}

static const struct cmd_flag report_flags[] = {
	CMD_STR("db", 'd', "FILE", REP(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_STR("output", 'o', "FILE", REP(path),
	    "the report, also -o (default: report-RUNID.html)"),
	CMD_BOOL("no-plots", 0, REP(ro.no_plots),
	    "leave the plots out (no gnuplot)"),
	CMD_FN("plots", 0, "N", REP(ro.max_plots), report_plots,
	    "per-benchmark plots for the first N benchmark and unit pairs "
	    "only, or all (default 40: the tables hold every row)"),
	CMD_FN("alpha", 0, "A", REP(ro.alpha), cmd_flag_fraction,
	    "significance for the corrected p-values (default\n"
	    "0.05; the MDE stays at the run's alpha)"),
	CMD_FLAG_END
};

static int
cmd_report_exec(struct cmd_ctx *c)
{
	struct report_cmd_opts	*o = c->opts;
	struct report_options	*ro = &o->ro;
	struct store_run	 run;
	const char		*path = o->path;
	char			*cause = NULL;
	int			 rc = EXIT_OK;

	if (cmd_find_run(c, &run) == -1)
		return EXIT_USAGE;
	ro->path = path != NULL ? path : xasprintf("report-%" PRId64 ".html",
	    run.id);
	ro->format = report_format_of(ro->path);
	if (report_write(c->st, run.id, ro, &cause) == -1) {
		error("report: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else
		printf("%s\n", ro->path);
	if (path == NULL)
		free((char *)ro->path);
	store_run_release(&run);
	return rc;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.args = "[--db FILE] RUN [-o FILE.html|FILE.md]",
	.summary = "write an HTML or Markdown report of a run",
	.help =
"Writes one self-contained report of a run: the run and its experiment\n"
"file, the arms with their settings and recorded runtime versions, the\n"
"host metadata and stored warnings, the benchstat tables (exactly what\n"
"`abbench stat --db FILE RUN` prints), the plots (see abbench plot), the\n"
"failed samples, each arm's p-values against the baseline arm adjusted\n"
"across all benchmarks of the run (Holm and Benjamini-Hochberg), marking\n"
"which changes survive the correction, and the level shifts within the\n"
"run: where the level every arm of a row shares moved (E-divisive means)\n"
"and whether the comparison moved with it.\n"
"\n"
"HTML (the default) inlines the plots as SVG; a FILE.md gets PNG plots in\n"
"FILE-plots/ beside it. Prints the path written. Above 40 benchmark and\n"
"unit pairs (a matrix of many workloads) only the first 40 get their\n"
"samples and time plots, so that the report stays small and quick; the\n"
"tables and the matrix plots still cover every one, a line says so, and\n"
"--plots all draws them all.\n"
"\n"
"Exit status: 0 written, 1 the report could not be written, 2 on a usage\n"
"or database error.\n",
	.exec = cmd_report_exec,
	.opts = report_flags,
	.opts_size = sizeof(struct report_cmd_opts),
	.flags = CMD_STORE_RO | CMD_ONE_RUN,
};
