/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench env: check the host for sources of noise (see envcheck.c for
 * the rules).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "harness/cmd.h"
#include "host/envcheck.h"
#include "lib/util.h"

extern const struct cmd_entry cmd_env_entry;

struct env_opts {
	int	strict, quiet;
};
#define ENV(m)	OPT_AT(struct env_opts, m)

static const struct cmd_flag env_flags[] = {
	CMD_BOOL("strict", 's', ENV(strict),
	    "exit 1 if there is any warning"),
	CMD_BOOL("quiet", 'q', ENV(quiet),
	    "print only the warnings"),
	CMD_FLAG_END
};

static int
cmd_env_exec(struct cmd_ctx *c)
{
	const struct env_opts	*o = c->opts;
	struct strvec		 warnings = STRVEC_INIT, report = STRVEC_INIT;
	char			*cause = NULL;
	int			 rc;
	size_t			 i;

	if (envcheck_run(c->argv, (size_t)c->argc, &warnings,
	    &report, &cause) == -1) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (!o->quiet)
		for (i = 0; i < report.n; i++)
			printf("%s\n", report.v[i]);
	for (i = 0; i < warnings.n; i++)
		printf("warning: %s\n", warnings.v[i]);
	if (!o->quiet && warnings.n == 0)
		printf("no warnings\n");
	rc = o->strict && warnings.n > 0 ? EXIT_FAIL : EXIT_OK;
	strvec_clear(&warnings);
	strvec_clear(&report);
	return rc;
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
	.opts_size = sizeof(struct env_opts),
	.flags = CMD_FLAGS_FIRST,
};
