/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counters of a workload's processes with perf stat: `perf = cycles,
 * page-faults, ...` on command, gobench and local fio. One perf stat
 * counts one cgroup of the perf_event hierarchy (v1 perf_event, else
 * cgroup2, as perf itself finds it) system-wide (-a -G), started with its
 * events disabled and enabled through its control fifo before the
 * program joins the cgroup, so that the counts are the program's and
 * its children's from exec to exit, and its time is not perf's.
 */
#ifndef ABBENCH_PERFSTAT_H
#define ABBENCH_PERFSTAT_H

#include "lib/util.h"

struct run_ctx;
struct perf_stat;

/*
 * Split "cycles,page-faults" into events (appended to *events). An empty
 * name or one with characters perf does not use is an error.
 */
int	perf_events_parse(const char *text, struct strvec *events,
	    char **cause);
/*
 * Ask this host, once per event and process, whether perf stat -a counts
 * it: an event perf does not know, that the host does not support
 * (`<not supported>`: no PMU in a VM) or that perf may not count here
 * (not root, perf_event_paranoid) is an error naming it.
 */
int	perf_events_check(const struct strvec *events, char **cause);
/*
 * Start perf stat of events in a new cgroup below the run's (ctx), its
 * counters off; with enable, returns once they are on. *procs is the
 * cgroup.procs file the programs must join before exec (borrowed from
 * the session). NULL on error.
 */
struct perf_stat *perf_stat_start(struct run_ctx *ctx,
	    const struct strvec *events, int enable, const char **procs,
	    char **cause);
/* Turn the counters on; returns once perf says they are. */
int	perf_stat_enable(struct perf_stat *ps, char **cause);
/*
 * Stop counting and read the counts, one per event in order, into
 * values (events->n of them). A count perf could not take is an error,
 * never a 0. The session stays to be freed.
 */
int	perf_stat_stop(struct perf_stat *ps, double *values, char **cause);
/* Stop perf if running, remove the cgroup and files; NULL is fine. */
void	perf_stat_free(struct perf_stat *ps);
/*
 * Does perf count the cgroup2 hierarchy while the cgroup controllers
 * are v1 (a hybrid host)? Then an OCI runtime that only places its
 * container in v1 hierarchies (runsc) leaves the sandbox where it was
 * started, in the cgroup perf counts.
 */
int	perf_counts_sandboxes(void);
/*
 * Is pid in the cgroup ps counts (a check that a container's processes
 * did not leave it)? 0 yes, -1 with *cause naming where it is.
 */
int	perf_stat_holds(const struct perf_stat *ps, long pid, char **cause);
/* "page-faults/op": the unit a count per sample is stored with. */
char	*perf_event_unit(const char *event);

#endif
