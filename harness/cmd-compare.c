/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench compare: two runs side by side with every arm of each — the
 * name people looked for first; a thin alias of `abbench stat --db FILE
 * RUN RUN`, so that its tables, flags of selection (RUN:ARM) and exit
 * statuses are stat's and cannot drift from them.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "harness/cmd.h"
#include "lib/util.h"

extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_stat_entry;

static const struct cmd_flag compare_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_compare_exec(int argc, char **argv)
{
	const char	*db = NULL;
	char		*av[6];
	int		 c;

	optind = 1;
	opterr = 0;
	while ((c = cmd_getopt(&cmd_compare_entry, NULL, 0, argc, argv)) !=
	    -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		error("compare: expected two runs, RUN RUN (an id, a uuid "
		    "prefix, last or NAME@last; RUN:ARM for one arm)");
		return EXIT_USAGE;
	}
	av[0] = "stat";
	av[1] = "--db";
	av[2] = (char *)cmd_db_path(db);
	av[3] = argv[optind];
	av[4] = argv[optind + 1];
	av[5] = NULL;
	return cmd_stat_entry.exec(5, av);
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
	.shortopts = "d:",
	.flags = CMD_STORE,
};
