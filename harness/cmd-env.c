/*
 * abbench env: check the host for sources of noise.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_env_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("env: not implemented yet (issue 5)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_env_entry = {
	.name = "env",
	.args = "[--strict] [PATH...]",
	.summary = "check the host for sources of noise",
	.help = "Checks the host for sources of noise.\n",
	.exec = cmd_env_exec,
};
