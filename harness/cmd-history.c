/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench history: the history of a run's experiment as one
 * self-contained HTML page, or as JSON (harness/analysis/history.h).
 */
#include "config.h"

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

struct history_cmd_opts {
	const char		*db, *path;
	int			 json;
	struct history_options	 o;
};
#define HIS(m)	OPT_AT(struct history_cmd_opts, m)

/* --threshold: a fraction in [0, 1). */
static int
history_threshold(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	double	*d = opt_member(&f->opt, opts);
	char	*why = NULL;

	if (parse_double(value, d, &why) == -1 || !(*d >= 0 && *d < 1)) {
		free(why);
		return set_cause(cause, "--threshold '%s' is not in [0, 1)",
		    value);
	}
	return 0;
}

static const struct cmd_flag history_flags[] = {
	CMD_STR("db", 'd', "FILE", HIS(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_STR("output", 'o', "FILE", HIS(path),
	    "write there, also -o (default: history.html; with --json the\n"
	    "standard output)"),
	CMD_BOOL("json", 'j', HIS(json), "JSON instead of the page"),
	CMD_FN("threshold", 't', "F", HIS(o.threshold), history_threshold,
	    "nightly's minimum relative effect (default 0.02)"),
	CMD_FN("max-p", 'p', "P", HIS(o.ed.max_p), cmd_flag_fraction,
	    "a change point's t-test p at most (default 0.0001)"),
	CMD_INT64("window", 'w', "N", HIS(o.ed.window), 4, INT_MAX,
	    "nights a change point window holds (default 50)"),
	CMD_INT64("nights", 'n', "N", HIS(o.nights), 1, INT_MAX,
	    "the latest N nights of each place only (default: all)"),
	CMD_FLAG_END
};

static void
history_cmd_init(void *opts)
{
	history_options_init(&((struct history_cmd_opts *)opts)->o);
}

static int
cmd_history_exec(struct cmd_ctx *c)
{
	struct history_cmd_opts	*ho = c->opts;
	struct history		 h;
	struct store_run	 run;
	struct strbuf		 sb = STRBUF_INIT;
	const char		*path = ho->path;
	char			*cause = NULL;
	int			 rc = EXIT_OK;

	if (cmd_find_run(c, &run) == -1)
		return EXIT_USAGE;
	if (history_build(c->st, run.name, &ho->o, &h, &cause) == -1) {
		error("history: %s", cause);
		free(cause);
		store_run_release(&run);
		return EXIT_USAGE;
	}
	if (ho->json)
		history_format_json(&h, &sb);
	else
		history_format_html(&h, &sb);
	if (ho->json && path == NULL) {
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
	.opts_size = sizeof(struct history_cmd_opts),
	.opts_init = history_cmd_init,
	.flags = CMD_STORE_RO | CMD_ONE_RUN,
};
