/*
 * abbench db: inspect and manage the results database.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_db_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("db: not implemented yet (issue 4)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.args = "ls | show RUN | export RUN | import FILE... | merge DB... | check | rm RUN",
	.summary = "inspect and manage the results database",
	.help = "Manages the SQLite results store.\n",
	.exec = cmd_db_exec,
};
