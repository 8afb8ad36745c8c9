/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench history: the history of a run's experiment as one
 * self-contained HTML page, or as JSON (harness/history.h).
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/analysis/history.h"
#include "harness/analysis/markup.h"
#include "lib/util.h"
#include "results/store.h"

extern const struct cmd_entry cmd_history_entry;

static const struct cmd_flag history_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "output", 'o', "FILE",
	    "write there, also -o (default: history.html; with --json the\n"
	    "standard output)", NULL },
	{ "json", 'j', NULL, "JSON instead of the page", NULL },
	{ "threshold", 't', "F",
	    "nightly's minimum relative effect (default 0.02)", NULL },
	{ "max-p", 'p', "P",
	    "a change point's t-test p at most (default 0.0001)", NULL },
	{ "window", 'w', "N",
	    "nights a change point window holds (default 50)", NULL },
	{ "nights", 'n', "N",
	    "the latest N nights of each place only (default: all)", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_history_exec(int argc, char **argv)
{
	struct history_options	 o;
	struct history		 h;
	struct store_run	 run;
	struct store		*st;
	struct strbuf		 sb = STRBUF_INIT;
	const char		*db = NULL, *path = NULL;
	char			*cause = NULL;
	long long		 n;
	int			 c, json = 0, rc = EXIT_OK;

	history_options_init(&o);
	optind = 1;
	while ((c = cmd_getopt(&cmd_history_entry, NULL, 0, argc, argv)) !=
	    -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'o':
			path = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 't':
			if (parse_double(optarg, &o.threshold, &cause) == -1 ||
			    !(o.threshold >= 0 && o.threshold < 1)) {
				error("history: --threshold '%s' is not in "
				    "[0, 1)", optarg);
				free(cause);
				return EXIT_USAGE;
			}
			break;
		case 'p':
			if (parse_double(optarg, &o.ed.max_p, &cause) == -1 ||
			    !(o.ed.max_p > 0 && o.ed.max_p < 1)) {
				error("history: --max-p '%s' is not in (0, 1)",
				    optarg);
				free(cause);
				return EXIT_USAGE;
			}
			break;
		case 'w':
			if (parse_int(optarg, 4, INT_MAX, &n, &cause) == -1) {
				error("history: --window '%s' is not an "
				    "integer of 4 or more", optarg);
				free(cause);
				return EXIT_USAGE;
			}
			o.ed.window = (size_t)n;
			break;
		case 'n':
			if (parse_int(optarg, 1, INT_MAX, &n, &cause) == -1) {
				error("history: --nights '%s' is not a "
				    "positive integer", optarg);
				free(cause);
				return EXIT_USAGE;
			}
			o.nights = (size_t)n;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cmd_open_run("history", db, argc, argv, &st, &run) == -1)
		return EXIT_USAGE;
	if (history_build(st, run.name, &o, &h, &cause) == -1) {
		error("history: %s", cause);
		free(cause);
		store_run_release(&run);
		store_close(st);
		return EXIT_USAGE;
	}
	if (json)
		history_format_json(&h, &sb);
	else
		history_format_html(&h, &sb);
	if (json && path == NULL) {
		fwrite(sb.buf, 1, sb.len, stdout);
	} else {
		if (path == NULL)
			path = "history.html";
		if (markup_save(path, sb.buf, sb.len, &cause) == -1) {
			error("history: %s", cause);
			free(cause);
			rc = EXIT_FAIL;
		} else
			printf("%s\n", path);
	}
	strbuf_release(&sb);
	history_release(&h);
	store_run_release(&run);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.args = "[--db FILE] RUN [-o FILE] [--json]",
	.summary = "draw the nightly history of a run's experiment",
	.help =
"Writes the history of RUN's experiment (every finished run of its name)\n"
"as one self-contained HTML page (no network: inline SVG and a few lines\n"
"of JavaScript), or as JSON with the same data (--json). For every place\n"
"it ran (a host, or a fleet's shape: partition and vCPUs) and every\n"
"series there (an arm, benchmark and unit of the place's latest run):\n"
"a small chart of each night's median and its 95% interval (as `abbench\n"
"nightly` judges nights), the change points of the nights' medians marked\n"
"with their size, and the nights `abbench nightly` judged regressed or\n"
"improved; filters by shape and benchmark (page.html#shape=S&bench=B\n"
"presets them); the table of every change point (night, date, run,\n"
"levels before and after, size, t, p) and of every alarm.\n"
"\n"
"Change points: E-divisive means with Student's t-test instead of\n"
"permutations, in windows of 50 nights, weak points merged (Apache\n"
"Otava's method, Fleming et al., ICPE 2023): deterministic, the same\n"
"history gives the same change points; a point needs 2 nights on each\n"
"side, so a step shows a night or more after it (nightly alarms on the\n"
"night itself). --nights N draws the latest N nights of each place (the\n"
"nights keep their numbers). Prints the path written.\n"
"\n"
"Exit status: 0 written, 1 the file could not be written, 2 on a usage\n"
"or database error.\n",
	.exec = cmd_history_exec,
	.opts = history_flags,
	.shortopts = "d:o:jt:p:w:n:",
	.flags = CMD_STORE,
};
