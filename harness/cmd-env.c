/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench env: check the host for sources of noise (see envcheck.c for
 * the rules).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/cmd.h"
#include "host/envcheck.h"
#include "lib/util.h"

extern const struct cmd_entry cmd_env_entry;

static const struct cmd_flag env_flags[] = {
	{ "strict", 's', NULL,
	    "exit 1 if there is any warning", NULL },
	{ "quiet", 'q', NULL,
	    "print only the warnings", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_env_exec(int argc, char **argv)
{
	struct strvec	 warnings = STRVEC_INIT, report = STRVEC_INIT;
	char		*cause = NULL;
	int		 c, strict = 0, quiet = 0;
	size_t		 i;

	optind = 1;
	while ((c = cmd_getopt(&cmd_env_entry, NULL, 0, argc, argv)) != -1) {
		switch (c) {
		case 's':
			strict = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (envcheck_run(argv + optind, (size_t)(argc - optind), &warnings,
	    &report, &cause) == -1) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (!quiet)
		for (i = 0; i < report.n; i++)
			printf("%s\n", report.v[i]);
	for (i = 0; i < warnings.n; i++)
		printf("warning: %s\n", warnings.v[i]);
	if (!quiet && warnings.n == 0)
		printf("no warnings\n");
	c = strict && warnings.n > 0 ? EXIT_FAIL : EXIT_OK;
	strvec_clear(&warnings);
	strvec_clear(&report);
	return c;
}

const struct cmd_entry cmd_env_entry = {
	.name = "env",
	.args = "[--strict] [--quiet] [PATH...]",
	.summary = "check the host for sources of noise",
	.help =
"Checks the host for sources of benchmark noise and prints a short report\n"
"and one 'warning:' line per problem. `abbench run` prints and stores the\n"
"same warnings at its start. A warning is given when:\n"
"\n"
"  - a CPU's cpufreq governor is not 'performance';\n"
"  - turbo boost is on (intel_pstate/no_turbo = 0 or cpufreq/boost = 1);\n"
"  - an enabled cpuidle state has an exit latency above 10 us;\n"
"  - transparent hugepages are 'always';\n"
"  - more than 1 MiB of swap is in use;\n"
"  - the 1-minute load average is above half the number of vCPUs;\n"
"  - other docker containers are running (when docker answers);\n"
"  - a disk holding a PATH runs bfq with a non-zero slice_idle.\n"
"\n"
"Missing facilities (no cpufreq in a VM, no docker) are reported, not\n"
"warned about. The disks of the PATHs (mountinfo: partitions, device-\n"
"mapper, loop devices with their backing files, overlay layers) are only\n"
"resolved when some disk runs bfq.\n",
	.exec = cmd_env_exec,
	.opts = env_flags,
	.shortopts = "+sq",
};
