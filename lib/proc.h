/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Processes, read from /proc: the one place that walks it and parses a
 * process's stat line. A process that has exited and been reaped (or
 * never was) is "gone": NULL, -1 or 1 as each says; a zombie is still
 * there, with state 'Z', until its parent reaps it.
 */
#ifndef ABBENCH_LIB_PROC_H
#define ABBENCH_LIB_PROC_H

#include <stddef.h>

/* /proc/PID/NAME, whole and NUL-terminated (len: its length, for files
 * of NUL-separated words such as cmdline and environ); NULL if gone. */
char	*proc_read(long pid, const char *name, size_t *len);
/* Does /proc/PID/comm say exactly comm (the kernel keeps 15 bytes)? */
int	 proc_comm_is(long pid, const char *comm);

/*
 * /proc/PID/stat's fields after the command name, which may hold blanks
 * and parentheses of its own ("pid (a) Z (b) S 1 ..."): the fields are
 * read after the last ')'.
 */
struct proc_stat {
	char			state;		/* R, S, D, Z, X, ... */
	long			ppid;
	unsigned long long	utime, stime;	/* clock ticks */
	unsigned long long	start;		/* clock ticks after boot */
};
/* 0, or -1 if gone. */
int	 proc_stat(long pid, struct proc_stat *ps);
/* The parent's pid, or -1 if gone. */
long	 proc_ppid(long pid);
/* Has pid exited: gone, or a zombie (or dead) not yet reaped? */
int	 proc_exited(long pid);

/*
 * Every process of /proc, one pid a call:
 *
 *	struct proc_walk w;
 *	long pid;
 *	if (proc_walk_start(&w) == 0) {
 *		while ((pid = proc_walk_next(&w)) > 0)
 *			...;
 *		proc_walk_end(&w);
 *	}
 *
 * A process that starts or ends during the walk may or may not be seen.
 */
struct proc_walk {
	void	*dir;
};
/* 0, or -1 if /proc cannot be read. */
int	 proc_walk_start(struct proc_walk *w);
/* The next pid; -1 at the end. */
long	 proc_walk_next(struct proc_walk *w);
void	 proc_walk_end(struct proc_walk *w);
/* The first child of ppid whose command line starts with prefix, -1 if
 * none. */
long	 proc_child_named(long ppid, const char *prefix);

/*
 * "BOOT_ID:START" of process pid (its start time, field 22 of
 * /proc/PID/stat, in this boot), malloc'd, NULL if it is gone.
 */
char	*proc_start_id(long pid);
/*
 * Is the process that was (pid, start) alive: 1 yes, 0 no (gone, or the
 * pid is another process now), -1 unknown (no start given).
 */
int	 proc_alive_as(long pid, const char *start);

#endif
