/*
 * abbench run: run an experiment, storing every sample.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_run_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("run: not implemented yet (issue 2)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.args = "EXPERIMENT.ini [--db FILE] [--rounds N] [--order ORDER] [--seed N] [--resume RUN] [--quiet] [--json-progress] [--durable]",
	.summary = "run an experiment, storing every sample",
	.help = "Runs the experiment's rounds x workloads x arms in an interleaved order.\n",
	.exec = cmd_run_exec,
};
