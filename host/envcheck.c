/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host noise check (`abbench env`, and the warnings `abbench run`
 * prints and stores at start). The rules, each a warning:
 *
 *   governor   a CPU's cpufreq governor is not "performance";
 *   turbo      turbo / boost is on (frequency depends on temperature and
 *              on what the other cores do);
 *   cpuidle    an enabled idle state has an exit latency above 10 us;
 *   thp        transparent hugepages "always" (khugepaged works behind
 *              the benchmark's back);
 *   swap       more than 1 MiB of swap in use;
 *   load       the 1-minute load average is above half the vCPUs;
 *   containers other docker containers are running;
 *   bfq        a disk holding one of the paths runs bfq with a non-zero
 *              slice_idle (bfq idles after each synchronous request of a
 *              process or cgroup: concurrent readers in different cgroups,
 *              containers, lose up to half their throughput).
 *
 * Absent facilities (no cpufreq in a VM, no docker) are reported, not
 * warned about. The disks of the paths are only resolved (mountinfo read)
 * when some disk runs bfq at all: otherwise the check stays cheap.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/envcheck.h"
#include "host/pressure.h"
#include "host/hostinfo.h"
#include "exec/exec.h"
#include "exec/spawn.h"
#include "lib/util.h"

#define ENVCHECK_DEEP_IDLE_US	10
#define ENVCHECK_SWAP_KB	1024
/* Warn when some task waited for I/O this share (%) of the last minute. */
#define ENVCHECK_IO_STALL	10.0

static void
check_cpu(struct strvec *w, struct strvec *r)
{
	struct strvec	 idle = STRVEC_INIT, deep = STRVEC_INIT;
	char		*gov = hostinfo_governor();
	size_t		 i;
	int		 turbo;

	if (gov == NULL)
		strvec_push(r, "cpufreq: not available (no governor to check)");
	else {
		strvec_pushf(r, "cpufreq governor: %s", gov);
		if (strcmp(gov, "performance") != 0)
			strvec_pushf(w, "cpufreq governor is '%s', not "
			    "'performance': the clock changes with load "
			    "(set host.cpufreq.governor = performance)", gov);
		free(gov);
	}
	turbo = hostinfo_turbo();
	strvec_pushf(r, "turbo: %s", turbo == 1 ? "on" : turbo == 0 ? "off" :
	    "unknown");
	if (turbo == 1)
		strvec_push(w, "turbo boost is on: the clock depends on "
		    "temperature and on the other cores");
	if (hostinfo_cpuidle(&idle, &deep, ENVCHECK_DEEP_IDLE_US) == -1)
		strvec_push(r, "cpuidle: not available");
	else {
		struct strbuf	sb = STRBUF_INIT;

		for (i = 0; i < idle.n; i++)
			strbuf_addf(&sb, "%s%s", i ? "," : "", idle.v[i]);
		strvec_pushf(r, "cpuidle states: %s", sb.len ? sb.buf :
		    "none");
		strbuf_reset(&sb);
		for (i = 0; i < deep.n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", deep.v[i]);
		if (deep.n > 0)
			strvec_pushf(w, "deep cpuidle states enabled: %s "
			    "(wake-up latency adds to short samples)", sb.buf);
		strbuf_release(&sb);
	}
	strvec_clear(&idle);
	strvec_clear(&deep);
}

/* The cgroup version; on v2 the controllers abbench can give its
 * cgroups (a v2 delegation may leave some out). */
static void
check_cgroup(struct strvec *r)
{
	const char	*v = hostinfo_cgroup_version();
	char		*c;

	if (v == NULL) {
		strvec_push(r, "cgroup: none mounted");
		return;
	}
	if (strcmp(v, "v2") == 0 && (c = hostinfo_cgroup_controllers()) !=
	    NULL) {
		strvec_pushf(r, "cgroup: v2, controllers: %s", c);
		free(c);
	} else
		strvec_pushf(r, "cgroup: %s", v);
}

static void
check_memory(struct strvec *w, struct strvec *r)
{
	char	*s, *thp;
	long	 ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double	 io;

	if ((s = read_small_file("/sys/kernel/mm/transparent_hugepage/enabled",
	    NULL)) != NULL) {
		thp = bracketed_word(s);
		strvec_pushf(r, "thp: %s", thp);
		if (strcmp(thp, "always") == 0)
			strvec_push(w, "transparent hugepages are 'always': "
			    "khugepaged and compaction run behind the "
			    "benchmark (set host.thp.enabled = madvise)");
		free(thp);
		free(s);
	}
	if ((s = read_file("/proc/meminfo", NULL, NULL)) != NULL) {
		long long	total = hostinfo_meminfo_kb(s, "SwapTotal");
		long long	sfree = hostinfo_meminfo_kb(s, "SwapFree");

		if (total >= 0 && sfree >= 0) {
			strvec_pushf(r, "swap: %lld MiB used of %lld MiB",
			    (total - sfree) / 1024, total / 1024);
			if (total - sfree > ENVCHECK_SWAP_KB)
				strvec_pushf(w, "%lld MiB of swap in use: "
				    "page-ins stall the benchmark",
				    (total - sfree) / 1024);
		}
		free(s);
	}
	if ((s = read_small_file("/proc/loadavg", NULL)) != NULL) {
		double	l1 = -1;

		if (sscanf(s, "%lf", &l1) == 1 && ncpu > 0) {
			strvec_pushf(r, "load average: %.2f (%ld vCPUs)", l1,
			    ncpu);
			if (l1 > 0.5 * (double)ncpu)
				strvec_pushf(w, "load average %.2f is above "
				    "half of the %ld vCPUs: something else is "
				    "running", l1, ncpu);
		}
		free(s);
	}
	if ((io = psi_avg60(PSI_IO)) >= 0) {
		strvec_pushf(r, "io pressure: some task waited for I/O %.1f%% "
		    "of the last minute", io);
		if (io >= ENVCHECK_IO_STALL)
			strvec_pushf(w, "some task waited for I/O %.0f%% of the "
			    "last minute (/proc/pressure/io): the disk is busy, "
			    "and every row that touches it measures that too",
			    io);
	}
}

/* The containers each daemon executor runs besides ours. */
static void
check_containers(struct strvec *w, struct strvec *r)
{
	const struct exec_ops *const	*e;
	const char			*name;
	int				 count;

	for (e = exec_types; *e != NULL; e++) {
		if ((*e)->count_running == NULL)
			continue;
		name = (*e)->name;
		if ((count = (*e)->count_running()) < 0) {
			strvec_pushf(r, "%s: not reachable (containers not "
			    "checked)", name);
			continue;
		}
		strvec_pushf(r, "%s: %d running container%s", name, count,
		    count == 1 ? "" : "s");
		if (count > 0)
			strvec_pushf(w, "%d other %s container%s running",
			    count, name, count == 1 ? " is" : "s are");
	}
}

static void
check_disk(const char *path, const char *disk, struct strvec *w,
    struct strvec *r)
{
	char	*sched = blockdev_scheduler(disk, NULL, NULL);
	char	*p, *idle = NULL, *idle_us = NULL;

	if (sched == NULL)
		return;
	if (strcmp(sched, "bfq") == 0) {
		p = xasprintf("/sys/block/%s/queue/iosched/slice_idle", disk);
		idle = read_small_file(p, NULL);
		free(p);
		p = xasprintf("/sys/block/%s/queue/iosched/slice_idle_us",
		    disk);
		idle_us = read_small_file(p, NULL);
		free(p);
		strvec_pushf(r, "'%s': disk '%s': scheduler bfq, slice_idle "
		    "%s", path, disk, idle != NULL ? idle : "?");
		if ((idle != NULL && strcmp(idle, "0") != 0) ||
		    (idle_us != NULL && strcmp(idle_us, "0") != 0))
			strvec_pushf(w, "'%s' is on disk '%s' with bfq and "
			    "slice_idle %s: bfq idles after each synchronous "
			    "request, concurrent readers in different cgroups "
			    "lose throughput (set host.block.slice_idle = 0)",
			    path, disk, idle != NULL ? idle : "?");
	} else
		strvec_pushf(r, "'%s': disk '%s': scheduler %s", path, disk,
		    sched);
	free(idle);
	free(idle_us);
	free(sched);
}

static void
check_paths(char *const *paths, size_t n, struct strvec *w, struct strvec *r)
{
	size_t	i, k;

	if (n == 0)
		return;
	/* Without bfq anywhere there is nothing to warn about: skip
	 * mountinfo (thousands of mounts on a busy container host). */
	if (!blockdev_any_scheduler("bfq")) {
		strvec_push(r, "disks: no disk uses bfq");
		return;
	}
	for (i = 0; i < n; i++) {
		struct strvec	disks = STRVEC_INIT;
		char		*why = NULL;

		if (blockdev_for_path_flags(paths[i], 0, &disks, &why) == -1) {
			strvec_pushf(w, "cannot check the disks of '%s': %s",
			    paths[i], why);
			free(why);
		} else if (disks.n == 0)
			strvec_pushf(r, "'%s': on no disk (tmpfs or similar)",
			    paths[i]);
		for (k = 0; k < disks.n; k++)
			check_disk(paths[i], disks.v[k], w, r);
		strvec_clear(&disks);
	}
}

int
envcheck_run(char *const *paths, size_t n, struct strvec *warnings,
    struct strvec *report, char **cause)
{
	(void)cause;
	check_cpu(warnings, report);
	check_memory(warnings, report);
	check_cgroup(report);
	check_containers(warnings, report);
	check_paths(paths, n, warnings, report);
	return 0;
}
