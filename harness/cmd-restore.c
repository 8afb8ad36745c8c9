/*
 * abbench restore: undo host changes left by a killed run.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_restore_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("restore: not implemented yet (issue 5)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_restore_entry = {
	.name = "restore",
	.args = "[--db FILE] [RUN]",
	.summary = "undo host changes left by a killed run",
	.help = "Restores host settings and removes objects left by a killed run.\n",
	.exec = cmd_restore_exec,
};
