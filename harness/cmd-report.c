/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench report: write one self-contained report of a run (HTML with the
 * plots inlined as SVG, or Markdown with PNG plots beside it).
 */
#include "config.h"

#include <getopt.h>
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

static const struct cmd_flag report_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "output", 'o', "FILE",
	    "the report, also -o (default: report-RUNID.html)", NULL },
	{ "no-plots", 'P', NULL,
	    "leave the plots out (no gnuplot)", NULL },
	{ "plots", 'L', "N",
	    "per-benchmark plots for the first N benchmark and unit pairs "
	    "only, or all (default 40: the tables hold every row)", NULL },
	{ "alpha", 'a', "A",
	    "significance for the corrected p-values (default\n"
	    "0.05; the MDE stays at the run's alpha)", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_report_exec(int argc, char **argv)
{
	struct report_options	 ro;
	struct store_run	 run;
	struct store		*st;
	const char		*db = NULL;
	char			*cause = NULL, *path = NULL;
	long long		 n;
	int			 c, rc = EXIT_OK;

	memset(&ro, 0, sizeof(ro));
	optind = 1;
	while ((c = cmd_getopt(&cmd_report_entry, NULL, 0, argc, argv)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'o':
			path = optarg;
			break;
		case 'P':
			ro.no_plots = 1;
			break;
		case 'L':
			if (strcmp(optarg, "all") == 0) {
				ro.max_plots = REPORT_PLOTS_ALL;
				break;
			}
			if (parse_int(optarg, 1, INT_MAX, &n, &cause) == -1) {
				free(cause);
				error("report: --plots '%s' is not a positive "
				    "integer or all", optarg);
				return EXIT_USAGE;
			}
			ro.max_plots = (size_t)n;
			break;
		case 'a':
			if (parse_double(optarg, &ro.alpha, &cause) == -1 ||
			    !(ro.alpha > 0 && ro.alpha < 1)) {
				error("report: alpha '%s' is not in (0, 1)",
				    optarg);
				free(cause);
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cmd_open_run("report", db, argc, argv, &st, &run) == -1)
		return EXIT_USAGE;
	ro.path = path != NULL ? path : xasprintf("report-%" PRId64 ".html",
	    run.id);
	ro.format = report_format_of(ro.path);
	if (report_write(st, run.id, &ro, &cause) == -1) {
		error("report: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else
		printf("%s\n", ro.path);
	if (path == NULL)
		free((char *)ro.path);
	store_run_release(&run);
	store_close(st);
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
	.shortopts = "d:o:",
	.flags = CMD_STORE,
};
