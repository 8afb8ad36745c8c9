/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench plot: draw gnuplot plots of a run (harness/analysis/plot.h), one file per
 * plot, and print their paths.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/analysis/plot.h"
#include "lib/util.h"
#include "results/store.h"

/* --x KEY: RUN... or "all", each metric against KEY, a line per arm. */
static int
plot_shapes_cmd(struct store *st, const char *xkey, const char *ignore,
    struct plot_options *po, int argc, char **argv)
{
	struct store_run	 run, *runs;
	struct plot_list	 list = { NULL, 0, 0, 0, 0 };
	struct strvec		 ign = STRVEC_INIT;
	int64_t			*ids = NULL;
	size_t			 nids = 0, n, i;
	char			*cause = NULL, *copy, *p, *save;
	int			 k, rc;

	for (k = 0; k < argc; k++) {
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
	return rc;
fail:
	error("plot: %s", cause);
	free(cause);
	free(ids);
	return EXIT_USAGE;
}

extern const struct cmd_entry cmd_plot_entry;

struct plot_cmd_opts {
	const char		*db, *dir, *xkey, *ignore;
	struct plot_options	 po;
};
#define PLT(m)	OPT_AT(struct plot_cmd_opts, m)

/* --format png|svg. */
static int
plot_format(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	enum plot_format	*fmt = opt_member(&f->opt, opts);

	if (strcmp(value, "png") == 0)
		*fmt = PLOT_PNG;
	else if (strcmp(value, "svg") == 0)
		*fmt = PLOT_SVG;
	else
		return set_cause(cause, "format '%s' is not png or svg",
		    value);
	return 0;
}

static const struct cmd_flag plot_flags[] = {
	CMD_STR("db", 'd', "FILE", PLT(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_STR("output", 'o', "DIR", PLT(dir),
	    "where to write, also -o (default: the current directory)"),
	CMD_FN("format", 'f', "FMT", PLT(po.format), plot_format,
	    "the image format: png or svg (default png)"),
	CMD_STR("gnuplot", 0, "PATH", PLT(po.gnuplot),
	    "the gnuplot program (default: gnuplot on PATH)"),
	CMD_STR("x", 0, "KEY", PLT(xkey),
	    "across shapes: the runs' numeric config key on the x axis"),
	CMD_STR("ignore", 0, "KEYS", PLT(ignore),
	    "across shapes: name parts that follow the shape, dropped"),
	CMD_FLAG_END
};

static void
plot_cmd_init(void *opts)
{
	struct plot_cmd_opts	*o = opts;

	o->po.format = PLOT_PNG;
	o->dir = ".";
}

/* One RUN, or with --x RUN... or all: said before the store is opened. */
static int
plot_check(const struct cmd_ctx *c)
{
	const struct plot_cmd_opts	*o = c->opts;

	if (o->xkey != NULL && c->argc == 0) {
		error("plot: --x needs RUN... or all");
		return EXIT_USAGE;
	}
	if (o->xkey == NULL && c->argc != 1) {
		error("plot: one run is needed (an id, uuid prefix, last or "
		    "NAME@last)");
		return EXIT_USAGE;
	}
	return 0;
}

static int
cmd_plot_exec(struct cmd_ctx *c)
{
	struct plot_cmd_opts	*o = c->opts;
	struct plot_list	 list = { NULL, 0, 0, 0, 0 };
	struct store_run	 run;
	char			*cause = NULL;
	size_t			 i;
	int			 rc;

	o->po.dir = o->dir;
	if (o->xkey != NULL)
		return plot_shapes_cmd(c->st, o->xkey, o->ignore, &o->po,
		    c->argc, c->argv);
	if (cmd_find_run(c, &run) == -1)
		return EXIT_USAGE;
	rc = plot_run(c->st, run.id, &o->po, &list, &cause);
	for (i = 0; i < list.n; i++)
		printf("%s\n", list.v[i].path);
	if (rc == -1) {
		error("plot: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else {
		if (list.n == 0)
			warning("plot: run %s has no samples to plot",
			    c->argv[0]);
		rc = EXIT_OK;
	}
	plot_list_release(&list);
	store_run_release(&run);
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
	.opts_size = sizeof(struct plot_cmd_opts),
	.opts_init = plot_cmd_init,
	.check = plot_check,
	.flags = CMD_STORE_RO,
};
