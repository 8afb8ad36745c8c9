/*
 * abbench report: write an HTML or Markdown report of a run.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_report_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("report: not implemented yet (issue 9)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.args = "--db FILE RUN [-o FILE.html|FILE.md]",
	.summary = "write an HTML or Markdown report of a run",
	.help = "Writes a self-contained report.\n",
	.exec = cmd_report_exec,
};
