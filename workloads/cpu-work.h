/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness side of the CPU workload programs (payload/cpu/): parsing
 * their report lines, finding their counters at an instant, and the
 * arithmetic of the cpu-steady metrics. Pure computation: no I/O, no
 * clock.
 *
 * Report line (one per line, other lines are ignored):
 *
 *   abbench-work prog=NAME why=WHY units=U cpu_ns=C wall_ns=W real_ns=R
 */
#ifndef ABBENCH_CPU_WORK_H
#define ABBENCH_CPU_WORK_H

#include <stddef.h>
#include <stdint.h>

struct cpuwork_report {
	char		prog[16];
	char		why[8];
	uint64_t	units;
	int64_t		cpu_ns;		/* the program's own CPU time */
	int64_t		wall_ns;	/* since it started */
	int64_t		real_ns;	/* CLOCK_REALTIME of the line */
};

/*
 * Parse one line (without or with its newline). Returns 1 for a report,
 * 0 for a line that is not one (no "abbench-work " prefix), -1 with
 * *cause for a malformed report.
 */
int	cpuwork_parse_line(const char *line, size_t len,
	    struct cpuwork_report *r, char **cause);
/* Every report in a program's output, in order (malloc'd array). A
 * malformed report line is an error; a truncated last line is ignored. */
int	cpuwork_parse_output(const char *buf, size_t len,
	    struct cpuwork_report **out, size_t *n, char **cause);
/*
 * The counters at the instant t (CLOCK_REALTIME ns): those of the first
 * report made at or after t. The programs check for report boundaries
 * whenever they run, so that report holds the state at t unless they
 * were descheduled in between, when nothing changed anyway. *lag_ns gets
 * the report's delay after t. -1 when no report is that late.
 */
int	cpuwork_at(const struct cpuwork_report *r, size_t n, int64_t t,
	    const struct cpuwork_report **at, int64_t *lag_ns);

/* What the harness measured over one window, summed over sandboxes. */
struct cpuwork_window {
	int64_t		 window_ns;
	double		 sandbox_cpu_ns;	/* cgroup CPU usage delta */
	double		 app_cpu_ns;		/* programs' own CPU delta */
	double		 units;			/* programs' work delta */
	uint64_t	 ctxt;			/* /proc/stat ctxt delta */
	uint64_t	 nr_periods;		/* where the limit is */
	uint64_t	 nr_throttled;
	uint64_t	 throttled_ns;
	double		 perf_ctxsw;		/* < 0: no perf */
	double		 perf_window_ns;
};

struct cpuwork_metrics {
	double	overhead;		/* (sandbox - app) / app CPU */
	double	host_ctxsw_per_s;
	double	work_per_s;
	double	app_cpus;		/* app CPU seconds per second */
	double	sandbox_cpus;
	double	throttled_periods;
	double	throttled_frac;		/* throttled / periods, 0 if none */
	double	throttled_sec;
	double	perf_ctxsw_per_s;	/* < 0: none */
};

/* Metrics from a window; -1 with *cause when they are undefined (empty
 * window, no application CPU). */
int	cpuwork_compute(const struct cpuwork_window *w,
	    struct cpuwork_metrics *m, char **cause);

/*
 * A counter's delta between two readings, treating a decrease (a reset:
 * the cgroup was recreated) as an error: -1.
 */
int	cpuwork_delta(uint64_t before, uint64_t after, uint64_t *d);

/* Find "ctxt N" in /proc/stat text; 0 or -1. */
int	cpuwork_proc_stat_ctxt(const char *text, uint64_t *ctxt);
/* The count of `perf stat -x,` output for an event, or -1. */
int	cpuwork_perf_count(const char *text, const char *event, double *v);

#endif
