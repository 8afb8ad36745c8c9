/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench compare: two runs side by side with every arm of each — the
 * name people looked for first; a thin alias of `abbench stat --db FILE
 * RUN RUN`, so that its tables, flags of selection (RUN:ARM) and exit
 * statuses are stat's and cannot drift from them.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "lib/util.h"

extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_stat_entry;

struct compare_opts {
	const char	*db;
};
#define CMP(m)	OPT_AT(struct compare_opts, m)

static const struct cmd_flag compare_flags[] = {
	CMD_STR("db", 'd', "FILE", CMP(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_FLAG_END
};

static int
cmd_compare_exec(struct cmd_ctx *c)
{
	char	*av[6];

	if (c->argc != 2) {
		error("compare: expected two runs, RUN RUN (an id, a uuid "
		    "prefix, last or NAME@last; RUN:ARM for one arm)");
		return EXIT_USAGE;
	}
	av[0] = "stat";
	av[1] = "--db";
	av[2] = (char *)c->db;
	av[3] = c->argv[0];
	av[4] = c->argv[1];
	av[5] = NULL;
	return cmd_exec(&cmd_stat_entry, 5, av);
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.args = "RUN RUN [--db FILE]",
	.summary = "compare two runs, every arm of each (stat --db RUN RUN)",
	.help =
	    "Prints benchstat's tables of two stored runs side by side, each\n"
	    "arm of each run a column labelled RUN:ARM, the first the\n"
	    "baseline: the same as `abbench stat --db FILE RUN RUN` (its\n"
	    "--help says more; stat takes benchstat's flags too). A RUN is an\n"
	    "id, a uuid prefix, last or NAME@last (an inline run's NAME is\n"
	    "inline); RUN:ARM takes one arm.\n"
	    "\n"
	    "Exit status: stat's (0, 2 for an unreadable database or a\n"
	    "missing run or arm).\n",
	.exec = cmd_compare_exec,
	.opts = compare_flags,
	.opts_size = sizeof(struct compare_opts),
};
