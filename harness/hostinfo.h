/*
 * Host metadata stored with every run and exported as benchfmt config
 * lines: kernel, CPU, vCPUs, memory, cgroup version, docker version, THP,
 * governor, cpuidle, swap, load, and the scheduler of each disk under test.
 */
#ifndef ABBENCH_HOSTINFO_H
#define ABBENCH_HOSTINFO_H

#include <stddef.h>

#include "harness/util.h"

/* Append "key: value" strings describing the host and the disks that hold
 * paths. Parts that cannot be read are left out. */
int	hostinfo_collect(char *const *paths, size_t npaths,
	    struct strvec *config, char **cause);
/* The version of an OCI runtime binary or a docker runtime name. */
int	hostinfo_runtime_version(const char *runtime, char **version,
	    char **cause);

#endif
