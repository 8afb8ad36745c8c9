/*
 * abbench nightly: run and judge a nightly regression job.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_nightly_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("nightly: not implemented yet (issue 9)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_nightly_entry = {
	.name = "nightly",
	.args = "EXPERIMENT.ini --db FILE [--baseline N] [--threshold PCT] [--no-run RUN] [--json]",
	.summary = "run and judge a nightly regression job",
	.help = "Runs an experiment and compares it with its history.\n",
	.exec = cmd_nightly_exec,
};
