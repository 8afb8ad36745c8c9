/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cgroup v1: abbench sits in a cgroup of its run, its "home", so that a
 * program it starts there is born in it and joins nothing. A join is a
 * write of the child's pid to cgroup.procs in every hierarchy, and on v1
 * the cpu hierarchy's write waits for an RCU grace period: 35 us a
 * sample at the median on the project's VM, milliseconds at worst under
 * load (bench/inline-vs-hyperfine). abbench does not pay it either: only
 * its main thread, the one that clones the programs, moves, by writing
 * "0" (itself) to the tasks file, and the kernel moves the calling
 * thread alone without the threadgroup lock whose writer waits for the
 * grace period (cgroup_procs_write_start: 20-50 us where a pid written to
 * cgroup.procs took 5-14 ms at the run's start and again at its end,
 * 2026-12-07). A thread born in home after that (none of abbench's is)
 * would keep home busy: the move back then moves the whole process, as
 * before. Meanwhile /proc/self/cgroup as it was is what cgrp_self_path and
 * cgrp_self_paths answer: the run's cgroups are still made below the
 * cgroups abbench left, and restore is told those paths. Before a
 * directory holding home is removed (the run's end, a new run, an
 * error), abbench moves back (cgrp_home_leave_under, from remove_tree).
 * After a kill -9 there is no one to move: restore removes the run's
 * cgroups, home with them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/cgroup-int.h"

static struct {
	struct strvec	dirs;	/* home, one directory per hierarchy */
	struct strvec	back;	/* the cgroups abbench left, one a hierarchy */
	int		pids;	/* home's pids.current open, or -1 */
	long		base;	/* its value with abbench's tasks alone */
	pid_t		self;
	int		thread;	/* the main thread alone moved (join_self) */
} home = { STRVEC_INIT, STRVEC_INIT, -1, 0, 0, 0 };

/* home's pids.current now (tasks in it), or -1 without the pids one. */
static long
pids_now(void)
{
	char	buf[32];
	ssize_t	n;

	if (home.pids == -1 ||
	    (n = pread(home.pids, buf, sizeof buf - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/*
 * abbench into the cgroup dir: its calling thread alone ("0", itself, to
 * the tasks file) when thread, else every thread (its pid to
 * cgroup.procs). 0, or the errno.
 */
static int
move(const char *dir, int thread)
{
	char	buf[32];

	if (thread)
		return cgrp_put(dir, "tasks", "0");
	snprintf(buf, sizeof buf, "%ld", (long)getpid());
	return cgrp_put(dir, "cgroup.procs", buf);
}

/* Is our pid in the cgroup of a cgroup.procs file (a thread of ours)? */
static int
ours_in(const char *procs)
{
	size_t	 n, i;
	long	*pids = cgrp_read_pids(procs, &n);
	int	 found = 0;

	for (i = 0; i < n && !found; i++)
		found = pids[i] == (long)getpid();
	free(pids);
	return found;
}

static void
forget(void)
{
	if (home.pids != -1)
		close(home.pids);
	home.pids = -1;
	home.thread = 0;
	strvec_clear(&home.dirs);
	strvec_clear(&home.back);
	cgrp_self_freeze(NULL);
}

/*
 * ABBENCH_DEBUG_HOME_THREAD=1: a thread started once abbench is in home,
 * so born there, that lives as long as the process: what would keep home
 * busy after the main thread alone moved back (t0596: the move back then
 * moves the whole process).
 */
static void *
debug_thread_main(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void
debug_home_thread(void)
{
	const char	*v = getenv("ABBENCH_DEBUG_HOME_THREAD");
	sigset_t	 all, old;
	pthread_t	 t;

	if (v == NULL || strcmp(v, "1") != 0)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, NULL, debug_thread_main, NULL) == 0)
		pthread_detach(t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int
cgrp_home_enter(const struct cgrp *cg, char **cause)
{
	char	*text, *dir, *procs;
	size_t	 i, j;
	int	 e;

	if (home.dirs.n > 0)
		return set_cause(cause, "abbench sits in '%s' already",
		    home.dirs.v[0]);
	if (cg->version != 1 || cgrp_fake_root())
		return set_cause(cause, "a home cgroup is for cgroup v1 "
		    "hierarchies only");
	if ((text = read_file("/proc/self/cgroup", NULL, cause)) == NULL)
		return -1;
	for (i = 0; i < cg->nh; i++) {
		if ((dir = cgrp_self_dir(cg->h[i].controller, cause)) ==
		    NULL) {
			free(text);
			forget();
			return -1;
		}
		strvec_push(&home.back, dir);
		strvec_push(&home.dirs, cg->h[i].dir);
		free(dir);
		/* A user given cgroups below one it cannot write: stay. */
		procs = xasprintf("%s/cgroup.procs", home.back.v[i]);
		e = access(procs, W_OK);
		free(procs);
		if (e != 0) {
			free(text);
			forget();
			return -2;
		}
	}
	cgrp_self_freeze(text);
	/* The main thread alone where every tasks file takes it back. */
	home.thread = 1;
	for (i = 0; i < cg->nh && home.thread; i++) {
		char	*t = xasprintf("%s/tasks", home.back.v[i]);

		home.thread = access(t, W_OK) == 0;
		free(t);
	}
	for (i = 0; i < cg->nh; i++) {
		if ((e = move(cg->h[i].dir, home.thread)) != 0) {
			set_cause(cause, "cannot move abbench into '%s': %s",
			    cg->procs.v[i], strerror(e));
			for (j = 0; j < i; j++)
				(void)move(home.back.v[j], home.thread);
			forget();
			return -1;
		}
		if (strcmp(cg->h[i].controller, "pids") == 0) {
			char	*f = xasprintf("%s/pids.current",
				    cg->h[i].dir);

			home.pids = open(f, O_RDONLY | O_CLOEXEC);
			free(f);
		}
	}
	home.self = getpid();
	debug_home_thread();
	home.base = pids_now();
	return 0;
}

int
cgrp_home_possible(void)
{
	return cgrp_version() == 1 && !cgrp_fake_root();
}

int
cgrp_home_active(void)
{
	return home.dirs.n > 0;
}

void
cgrp_home_leave(void)
{
	size_t	i;
	int	e;
	char	*procs;

	if (home.thread && home.dirs.n > 0) {
		for (i = 0; i < home.back.n; i++)
			(void)move(home.back.v[i], 1);
		/* Nothing of ours left in home: done. A thread born there
		 * (or a move that failed): the whole process, below. */
		procs = xasprintf("%s/cgroup.procs", home.dirs.v[0]);
		e = ours_in(procs);
		free(procs);
		if (!e) {
			forget();
			return;
		}
	}
	for (i = 0; i < home.back.n; i++) {
		if ((e = move(home.back.v[i], 0)) != 0)
			warning("cannot move abbench back into "
			    "'%s/cgroup.procs': %s", home.back.v[i],
			    strerror(e));
	}
	forget();
}

void
cgrp_home_leave_under(const char *dir)
{
	size_t	i, l = strlen(dir);

	for (i = 0; i < home.dirs.n; i++) {
		if (strncmp(home.dirs.v[i], dir, l) == 0 &&
		    (home.dirs.v[i][l] == '\0' || home.dirs.v[i][l] == '/')) {
			cgrp_home_leave();
			return;
		}
	}
}

/*
 * The pids in home's first hierarchy other than abbench and keep (a
 * helper of abbench's, or -1): SIGKILLed, then waited for (1 s at most).
 * The number found first. With the pids hierarchy, its counter says
 * whether to look (a pread of an open file, where reading cgroup.procs
 * is an open, a list built and sorted, and a close).
 */
int
cgrp_home_sweep(pid_t keep)
{
	char	*path;
	int	 found = 0, left, tries;
	long	 pid, *pids;
	size_t	 n, i;

	if (home.dirs.n == 0)
		return 0;
	/*
	 * No more tasks than abbench's: nothing to look for (one read).
	 * Fewer (a thread of abbench's ended): that is the count now.
	 */
	if ((pid = pids_now()) != -1 && pid <= home.base) {
		home.base = pid;
		return 0;
	}
	path = xasprintf("%s/cgroup.procs", home.dirs.v[0]);
	for (tries = 0; tries < 1000; tries++) {
		pids = cgrp_read_pids(path, &n);
		left = 0;
		for (i = 0; i < n; i++) {
			if (pids[i] > 1 && pids[i] != (long)home.self &&
			    pids[i] != (long)keep) {
				left++;
				(void)kill((pid_t)pids[i], SIGKILL);
			}
		}
		free(pids);
		if (tries == 0)
			found = left;
		if (left == 0)
			break;
		usleep(1000);
	}
	free(path);
	/* abbench's own (a helper, a thread) count from now on. */
	if (found == 0 && (pid = pids_now()) > home.base)
		home.base = pid;
	return found;
}
