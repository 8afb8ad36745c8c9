/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What burner, tick and getppid share: the command line (-d, -i), the
 * signals (SIGUSR1 reports and goes on, SIGTERM/SIGINT report and exit),
 * the clocks, a unit of compute work, and the one report line the harness
 * parses (workloads/cpu-work.h):
 *
 *   abbench-work prog=NAME why=WHY units=U cpu_ns=C wall_ns=W real_ns=R
 *
 * U is the program's units of work so far, C its own CPU time
 * (CLOCK_PROCESS_CPUTIME_ID), W the CLOCK_MONOTONIC time since it started,
 * R CLOCK_REALTIME when the line was made. WHY is start, tick (a report
 * boundary: every -i ms of CLOCK_REALTIME, aligned to multiples of -i so
 * that the harness can read its cgroups at the same instants), usr1, term
 * or exit. Lines are written with one write(2), never from a handler.
 *
 * These programs are static and self-contained: no libabbench.
 */
#ifndef ABBENCH_CPU_PROG_H
#define ABBENCH_CPU_PROG_H

#include <signal.h>
#include <stdint.h>

struct prog {
	const char	*name;
	uint64_t	 units;
	int64_t		 start_mono;	/* ns */
	int64_t		 end_real;	/* -d: exit at this time; 0 = never */
	int64_t		 every_ns;	/* -i: report boundary; 0 = never */
	int64_t		 next_report;	/* CLOCK_REALTIME ns */
};

extern volatile sig_atomic_t prog_usr1, prog_term;

/*
 * Parse the common flags (-d SECONDS, -i MS) and the program's own (the
 * letters in own, each taking a number, stored in own_vals in order);
 * prints usage and exits 2 on a bad command line. Installs the handlers
 * and writes the start line.
 */
void	prog_init(struct prog *p, const char *name, int argc, char **argv,
	    const char *own, double *own_vals, const char *usage);
int64_t	prog_real_ns(void);
int64_t	prog_mono_ns(void);
/* Report (one line) with a reason. */
void	prog_report(struct prog *p, const char *why);
/*
 * Call often: handles pending signals, report boundaries and the end.
 * now is CLOCK_REALTIME ns. Returns 1 when the program must exit (after
 * the last line was written).
 */
int	prog_poll(struct prog *p, int64_t now);
/* Sleep until the CLOCK_REALTIME time t, or a signal, or a report
 * boundary; never past the end of the run. */
void	prog_sleep_until(struct prog *p, int64_t t);
/* One unit of compute work (about 0.1-0.3 us), not optimised away. */
void	prog_work_unit(void);

#endif
