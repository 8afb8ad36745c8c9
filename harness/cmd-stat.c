/*
 * abbench stat: compare benchmark results like Go's benchstat.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_stat_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("stat: not implemented yet (issue 3)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_stat_entry = {
	.name = "stat",
	.args = "[flags] [LABEL=]FILE... | --db FILE RUN[:ARM]...",
	.summary = "compare benchmark results like Go's benchstat",
	.help = "A drop-in for Go's benchstat.\n",
	.exec = cmd_stat_exec,
};
