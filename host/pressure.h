/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's pressure stall information over a stretch of time: the
 * share of wall time in which some (at least one) or all non-idle tasks
 * waited for a CPU, for I/O or for memory (/proc/pressure/{cpu,io,
 * memory}, Linux 4.20 with CONFIG_PSI). A run stores it with its
 * metadata: a disk kept busy by someone else shows as io stalls, and
 * explains a row that moved with it between two runs. The files are
 * system-wide: a run's own I/O waits are in them too.
 */
#ifndef ABBENCH_PRESSURE_H
#define ABBENCH_PRESSURE_H

#include <stdint.h>

enum { PSI_CPU, PSI_IO, PSI_MEMORY, PSI_NRES };

/* The stall totals in microseconds (-1: the line is absent) and when
 * they were read (CLOCK_MONOTONIC). */
struct psi_totals {
	long long	some[PSI_NRES];
	long long	full[PSI_NRES];
	int64_t		at_ns;
};

/* Read all three files; -1 when none of them can be read (no PSI). */
int	psi_read(struct psi_totals *t);

/* One file's text: its "some" and "full" totals, -1 where a line or its
 * total= is absent. */
void	psi_parse(const char *text, long long *some, long long *full);

/* The kernel's own average over the last minute of RES's "some" line
 * (avg60=, in percent); -1 when it cannot be read. */
double	psi_avg60(int res);

/* One file's text: its "some" line's avg60, -1 when absent. */
double	psi_parse_avg60(const char *text);

/* The stalls between two reads, as stored: "cpu 3.1% some; io 41.2%
 * some, 30.0% full; memory 0.0% some, 0.0% full; over 177 s". cpu's
 * full is left out (the kernel reports it as 0 for the whole system).
 * NULL when nothing was measured between them. malloc'd. */
char	*psi_text(const struct psi_totals *a, const struct psi_totals *b);

#endif
