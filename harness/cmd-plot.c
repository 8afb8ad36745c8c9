/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench plot: draw gnuplot plots of a run (harness/plot.h), one file per
 * plot, and print their paths.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/analysis/plot.h"
#include "lib/util.h"
#include "results/store.h"

/* --x KEY: RUN... or "all", each metric against KEY, a line per arm. */
static int
plot_shapes_cmd(const char *db, const char *xkey, const char *ignore,
    struct plot_options *po, int argc, char **argv)
{
	struct store		*st;
	struct store_run	 run, *runs;
	struct plot_list	 list = { NULL, 0, 0, 0, 0 };
	struct strvec		 ign = STRVEC_INIT;
	int64_t			*ids = NULL;
	size_t			 nids = 0, n, i;
	char			*cause = NULL, *copy, *p, *save;
	int			 k, rc;

	if (optind >= argc) {
		error("plot: --x needs RUN... or all");
		return EXIT_USAGE;
	}
	if ((st = store_open(cmd_db_path(db), STORE_READONLY, &cause)) ==
	    NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	for (k = optind; k < argc; k++) {
		if (strcmp(argv[k], "all") == 0) {
			if (store_runs_list(st, &runs, &n, &cause) == -1)
				goto fail;
			ids = xreallocarray(ids, nids + n + 1, sizeof(*ids));
			for (i = 0; i < n; i++) {
				ids[nids++] = runs[i].id;
				store_run_release(&runs[i]);
			}
			free(runs);
			continue;
		}
		if (store_run_find(st, argv[k], &run, &cause) == -1)
			goto fail;
		ids = xreallocarray(ids, nids + 1, sizeof(*ids));
		ids[nids++] = run.id;
		store_run_release(&run);
	}
	if (ignore != NULL) {
		copy = xstrdup(ignore);
		for (p = strtok_r(copy, ",", &save); p != NULL;
		    p = strtok_r(NULL, ",", &save))
			strvec_push(&ign, strtrim(p));
		free(copy);
	}
	rc = plot_shapes(st, ids, nids, xkey, &ign, po, &list, &cause);
	for (i = 0; i < list.n; i++)
		printf("%s\n", list.v[i].path);
	if (rc < 0) {
		error("plot: %s", cause);
		free(cause);
		rc = rc == -2 ? EXIT_USAGE : EXIT_FAIL;
	} else
		rc = EXIT_OK;
	plot_list_release(&list);
	strvec_clear(&ign);
	free(ids);
	store_close(st);
	return rc;
fail:
	error("plot: %s", cause);
	free(cause);
	free(ids);
	store_close(st);
	return EXIT_USAGE;
}

extern const struct cmd_entry cmd_plot_entry;

static const struct cmd_flag plot_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "output", 'o', "DIR",
	    "where to write, also -o (default: the current directory)", NULL },
	{ "format", 'f', "FMT",
	    "the image format: png or svg (default png)", NULL },
	{ "gnuplot", 'g', "PATH",
	    "the gnuplot program (default: gnuplot on PATH)", NULL },
	{ "x", 'x', "KEY",
	    "across shapes: the runs' numeric config key on the x axis", NULL },
	{ "ignore", 'i', "KEYS",
	    "across shapes: name parts that follow the shape, dropped", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_plot_exec(int argc, char **argv)
{
	struct plot_options	 po;
	struct plot_list	 list = { NULL, 0, 0, 0, 0 };
	struct store_run	 run;
	struct store		*st;
	const char		*db = NULL, *xkey = NULL, *ignore = NULL;
	char			*cause = NULL, *dir = NULL;
	size_t			 i;
	int			 c, rc;

	memset(&po, 0, sizeof(po));
	po.format = PLOT_PNG;
	optind = 1;
	while ((c = cmd_getopt(&cmd_plot_entry, NULL, 0, argc, argv)) !=
	    -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "png") == 0)
				po.format = PLOT_PNG;
			else if (strcmp(optarg, "svg") == 0)
				po.format = PLOT_SVG;
			else {
				error("plot: format '%s' is not png or svg",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 'g':
			po.gnuplot = optarg;
			break;
		case 'x':
			xkey = optarg;
			break;
		case 'i':
			ignore = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (xkey != NULL) {
		po.dir = dir != NULL ? dir : ".";
		return plot_shapes_cmd(db, xkey, ignore, &po, argc, argv);
	}
	if (cmd_open_run("plot", db, argc, argv, &st, &run) == -1)
		return EXIT_USAGE;
	po.dir = dir != NULL ? dir : ".";
	rc = plot_run(st, run.id, &po, &list, &cause);
	for (i = 0; i < list.n; i++)
		printf("%s\n", list.v[i].path);
	if (rc == -1) {
		error("plot: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else {
		if (list.n == 0)
			warning("plot: run %s has no samples to plot",
			    argv[optind]);
		rc = EXIT_OK;
	}
	plot_list_release(&list);
	store_run_release(&run);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.args = "[--db FILE] RUN [-o DIR] [--format png|svg] | "
	    "[--db FILE] --x KEY [--ignore K,...] RUN...|all [-o DIR]",
	.summary = "draw gnuplot plots of a run",
	.help =
"Draws plots of a run with gnuplot (fed a script with the data inline on\n"
"its standard input) and prints the path of each file. Per benchmark and\n"
"unit: NAME.UNIT.samples (each arm's samples as a box plot with the points,\n"
"the median and benchstat's 95% confidence interval) and NAME.UNIT.time\n"
"(the samples against their start time in the run, one colour per arm:\n"
"drift and order effects; a dashed line at each level shift the report\n"
"lists, labelled with its round, the level's change and each comparison\n"
"that moved with it). Per matrix (benchmarks Name/key=value/...):\n"
"NAME.UNIT.matrix, grouped bars of each arm's change against the first\n"
"arm per combination, with an interval from the medians' CIs (with one\n"
"arm: the medians with their CIs). Values are scaled as benchstat scales\n"
"them; titles name the benchmark, unit, host and run.\n"
"\n"
"Across shapes (a merged fleet database, see abbench fleet): with --x KEY,\n"
"the runs given (or all) become one plot per benchmark and unit,\n"
"NAME.UNIT.shapes: the metric against the runs' numeric config key KEY\n"
"(vcpus), one line per arm, the median of every run with that KEY and its\n"
"95% confidence interval. The KEY=... part of benchmark names and the\n"
"parts named by --ignore (keys that follow the shape, e.g. sandboxes) are\n"
"dropped, so that one benchmark is one line across the shapes:\n"
"  abbench plot --db fleet.db --x vcpus --ignore sandboxes all -o plots/\n"
"\n"
"Exit status: 0 when every plot was drawn and checked, 1 when gnuplot\n"
"failed or wrote no valid image, 2 on a usage or database error.\n",
	.exec = cmd_plot_exec,
	.opts = plot_flags,
	.shortopts = "d:o:f:",
	.flags = CMD_STORE,
};
