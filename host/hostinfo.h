/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host metadata stored with every run and exported as benchfmt config
 * lines: kernel, CPU, vCPUs, memory, cgroup version, daemon versions, THP,
 * governor, cpuidle, swap, load, and the scheduler of each disk under test.
 */
#ifndef ABBENCH_HOSTINFO_H
#define ABBENCH_HOSTINFO_H

#include <stddef.h>

#include "lib/util.h"

/* Append "key: value" strings describing the host and the disks that hold
 * paths. Parts that cannot be read are left out. */
int	hostinfo_collect(char *const *paths, size_t npaths,
	    struct strvec *config, char **cause);
/* The CPUs this process may run on (its affinity, as nproc counts):
 * "vcpus". At least 1. */
long	hostinfo_vcpus(void);
/* "fleet-id", "partition", "node", "job-id", "cluster" from the fleet job's
 * environment (ABBENCH_FLEET_ID, SLURM_*), when set, and
 * "abbench-version". Part of hostinfo_collect. */
void	hostinfo_scheduler(struct strvec *config);
/*
 * A program's binary (prog as is when it has a '/', else looked up in
 * $PATH), with symlinks resolved, into *path (caller frees), and its
 * SHA-256. 0, or -1 with *cause.
 */
int	hostinfo_program_binary(const char *prog, char **path,
	    char sha256[65], char **cause);
/* Does prog (a path, or a name on $PATH) start with "#!"? */
int	hostinfo_is_script(const char *prog);

/*
 * What `PROG --version` prints on stdout within timeout_ns (stdin
 * /dev/null), its version lines joined: NULL with *cause when it fails,
 * prints nothing, or more than HOSTINFO_VERSION_MAX bytes (its help).
 */
#define HOSTINFO_VERSION_MAX	200
int	hostinfo_program_version(const char *prog, int64_t timeout_ns,
	    char **version, char **cause);
/*
 * The binary a runtime name stands for (the path a daemon executor has
 * for it, as docker's runtimes, else the name itself, looked up in $PATH
 * when it has no '/'),
 * with symlinks resolved, into *path (caller frees), and its SHA-256.
 */
int	hostinfo_runtime_binary(const char *runtime, char **path,
	    char sha256[65], char **cause);
/* The version of an OCI runtime binary or a daemon's runtime name. */
int	hostinfo_runtime_version(const char *runtime, char **version,
	    char **cause);
/*
 * The tool a wrapper runs: when argv[0] is a shell or a program that runs
 * another one (env, timeout, taskset, nice, sudo... — the list in
 * hostinfo.c), its first argument that names an executable file, as an
 * absolute path or on $PATH (a shell's: the first word of its -c
 * script). Options and values that name no program are passed over. The
 * word as written (malloc'd), or NULL.
 */
char	*hostinfo_wrapped_tool(char *const *argv);
/*
 * The runsc platform a sandbox gets, and where it comes from: platform
 * (set in the file; platform_from says where, as "arm"), else a
 * --platform among args (the arm's runtime-args), else among the
 * runtimeArgs daemon.json gives daemon_runtime (a docker runtime name, or
 * NULL; $ABBENCH_DOCKER_DAEMON_JSON, else /etc/docker/daemon.json), else
 * the default `BINARY flags` prints: "ptrace (runsc default)". Malloc'd,
 * or NULL when the binary does not say.
 */
char	*hostinfo_runsc_platform(const char *platform,
	    const char *platform_from, char *const *args, size_t nargs,
	    const char *daemon_runtime, const char *binary);

/* Pieces shared with the noise check (envcheck.c): */
/* Every CPU's cpufreq governor: "performance", or "mixed(a,b)"; NULL
 * when there is no cpufreq (VMs). */
char	*hostinfo_governor(void);
/* 1 turbo/boost on, 0 off, -1 unknown (no intel_pstate or cpufreq boost). */
int	hostinfo_turbo(void);
/* cpu0's enabled cpuidle states (names), and those with an exit latency
 * above deep_us as "NAME(LATus)". -1 when there is no cpuidle. */
int	hostinfo_cpuidle(struct strvec *enabled, struct strvec *deep,
	    long long deep_us);
/* "disk-NAME-scheduler: S" and "disk-NAME-KNOB: V" for one disk. */
void	hostinfo_disk(const char *disk, struct strvec *config);
/* A field of /proc/meminfo text in kB, or -1. */
long long hostinfo_meminfo_kb(const char *meminfo, const char *field);

/* "v1", "hybrid", "v2" or NULL (no cgroup mounted). */
const char	*hostinfo_cgroup_version(void);
/* v2: the controllers abbench's own cgroup is offered (its
 * cgroup.controllers: what it can enable for the cgroups it makes),
 * "cpu io memory pids" or "none"; NULL if unreadable. malloc'd. */
char		*hostinfo_cgroup_controllers(void);

#endif
