/*
 * abbench plot: draw gnuplot plots of a run.
 */
#include "config.h"

#include <stdio.h>

#include "harness/cmd.h"
#include "harness/util.h"

static int
cmd_plot_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("plot: not implemented yet (issue 9)");
	return EXIT_USAGE;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.args = "--db FILE RUN [-o DIR] [--format png|svg]",
	.summary = "draw gnuplot plots of a run",
	.help = "Draws plots of a run with gnuplot.\n",
	.exec = cmd_plot_exec,
};
