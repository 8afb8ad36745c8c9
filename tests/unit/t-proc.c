/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/proc: a process's stat fields, comm and files, its exit as a
 * zombie and after the reap, the walk of /proc, and a child found by its
 * command line; with a child whose command name ("x) Z 4242 (y") would
 * fool a parser that reads the fields after the first ')'.
 */
#include "config.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

#define ODD_COMM	"x) Z 4242 (y"

static int
walk_has(long want)
{
	struct proc_walk	w;
	long			pid;
	int			seen = 0;

	if (proc_walk_start(&w) == -1)
		return -1;
	while ((pid = proc_walk_next(&w)) > 0)
		seen += pid == want;
	proc_walk_end(&w);
	return seen;
}

/* Wait (bounded: this is not a timing check) until pid's state is st. */
static char
wait_state(long pid, char st)
{
	struct proc_stat	s;
	int			i;

	for (i = 0; i < 500; i++) {
		if (proc_stat(pid, &s) == -1)
			return '-';
		if (s.state == st)
			return st;
		(void)poll(NULL, 0, 10);
	}
	return s.state;
}

int
main(int argc, char **argv)
{
	struct proc_stat	 s;
	char			*t, c;
	int			 p[2], status;
	long			 self = (long)getpid(), child;
	size_t			 len = 0;

	(void)argc;
	tap_ok(proc_stat(self, &s) == 0, "proc_stat of this process");
	tap_ok(s.state == 'R', "its state is R (got %c)", s.state);
	tap_int_eq(s.ppid, (long)getppid(), "its parent");
	tap_ok(s.start > 0, "its start time in ticks after boot");
	{
		/* utime and stime as times(2) counts them (the same
		 * kernel sum): read between two of its readings. */
		struct proc_stat	u;
		struct tms		t1, t2;
		volatile unsigned	x = 1;
		long			hz = sysconf(_SC_CLK_TCK);
		unsigned long long	up = 0;
		char			*upt;
		int			ok;

		/* CPU time of 3 ticks at least, however loaded. */
		do {
			int	i;

			for (i = 0; i < 100000; i++)
				x = x * 1103515245u + 12345u;
			(void)times(&t1);
		} while (t1.tms_utime + t1.tms_stime < 3);
		ok = proc_stat(self, &u) == 0;
		(void)times(&t2);
		tap_ok(ok && u.utime + u.stime > 0 &&
		    (unsigned long long)t1.tms_utime <= u.utime &&
		    u.utime <= (unsigned long long)t2.tms_utime &&
		    (unsigned long long)t1.tms_stime <= u.stime &&
		    u.stime <= (unsigned long long)t2.tms_stime,
		    "utime %llu and stime %llu ticks, as times(2) says",
		    u.utime, u.stime);
		upt = read_small_file("/proc/uptime", NULL);
		if (upt != NULL)
			up = (unsigned long long)(strtod(upt, NULL) * hz);
		free(upt);
		tap_ok(up > 0 && s.start <= up,
		    "the start time is before now (%llu <= %llu ticks)",
		    s.start, up);
	}
	tap_int_eq(proc_ppid(self), (long)getppid(), "proc_ppid");
	tap_ok(!proc_exited(self), "a running process has not exited");
	tap_int_eq(walk_has(self), 1, "the walk sees this process once");
	t = proc_read(self, "cmdline", &len);
	tap_ok(t != NULL && len > strlen(argv[0]) &&
	    strcmp(t, argv[0]) == 0, "cmdline: NUL-separated, its length");
	free(t);
	tap_ok(proc_read(self, "../1/environ", NULL) == NULL,
	    "a name with a '/' is refused");
	tap_ok(proc_read(0, "stat", NULL) == NULL &&
	    proc_read(-1, "stat", NULL) == NULL, "pid 0 and -1 are no process");

	if (pipe(p) == -1)
		die("pipe");
	if ((child = fork()) == -1)
		die("fork");
	if (child == 0) {
		(void)prctl(PR_SET_NAME, ODD_COMM, 0, 0, 0);
		close(p[0]);
		(void)!write(p[1], "k", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		die("child");
	close(p[0]);
	tap_ok(proc_comm_is(child, ODD_COMM), "comm '%s'", ODD_COMM);
	tap_ok(!proc_comm_is(child, "x) Z 4242") && !proc_comm_is(child, "x"),
	    "a prefix of comm is not comm");
	tap_ok(wait_state(child, 'S') == 'S',
	    "the paused child sleeps: its state is read after the last ')'");
	tap_int_eq(proc_ppid(child), self, "and its parent is this process");
	{
		struct proc_stat	c;

		tap_ok(proc_stat(child, &c) == 0 && c.start >= s.start,
		    "it started after this process");
	}
	tap_ok(!proc_exited(child), "it has not exited");
	tap_int_eq(proc_child_named(self, argv[0]), child,
	    "proc_child_named finds it by its command line");
	tap_int_eq(proc_child_named(self, "no-such-program"), -1,
	    "and nothing by another");
	tap_int_eq(walk_has(child), 1, "the walk sees it");

	kill((pid_t)child, SIGKILL);
	tap_ok(wait_state(child, 'Z') == 'Z', "killed, it is a zombie");
	tap_ok(proc_exited(child), "a zombie has exited");
	tap_int_eq(proc_ppid(child), self, "a zombie keeps its parent");
	if (waitpid((pid_t)child, &status, 0) != (pid_t)child)
		die("waitpid");
	tap_ok(proc_stat(child, &s) == -1 && s.ppid == -1 && s.state == 0,
	    "reaped: no stat");
	tap_ok(proc_exited(child), "reaped: exited");
	tap_ok(proc_read(child, "cmdline", NULL) == NULL &&
	    !proc_comm_is(child, ODD_COMM), "reaped: no files");
	tap_int_eq(walk_has(child), 0, "reaped: the walk does not see it");
	tap_int_eq(proc_child_named(self, argv[0]), -1,
	    "reaped: no child by its name");
	return tap_done();
}
