/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Processes, read from /proc (lib/proc.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/proc.h"
#include "lib/util.h"

char *
proc_read(long pid, const char *name, size_t *len)
{
	char	path[64];

	if (pid <= 0 || strchr(name, '/') != NULL ||
	    (size_t)snprintf(path, sizeof path, "/proc/%ld/%s", pid, name) >=
	    sizeof path)
		return NULL;
	return read_file(path, len, NULL);
}

int
proc_comm_is(long pid, const char *comm)
{
	char	*t = proc_read(pid, "comm", NULL);
	size_t	 n = strlen(comm);
	int	 yes;

	/* "name\n"; a command name may itself end in blanks. */
	yes = t != NULL && strncmp(t, comm, n) == 0 &&
	    (t[n] == '\0' || (t[n] == '\n' && t[n + 1] == '\0'));
	free(t);
	return yes;
}

int
proc_stat(long pid, struct proc_stat *ps)
{
	char	*t = proc_read(pid, "stat", NULL), *p;
	int	 n;

	memset(ps, 0, sizeof(*ps));
	ps->ppid = -1;
	if (t == NULL || (p = strrchr(t, ')')) == NULL) {
		free(t);
		return -1;
	}
	/* Fields 3 (state) to 22 (starttime): proc(5). */
	n = sscanf(p + 1, " %c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u "
	    "%llu %llu %*d %*d %*d %*d %*d %*d %llu", &ps->state, &ps->ppid,
	    &ps->utime, &ps->stime, &ps->start);
	free(t);
	return n == 5 ? 0 : -1;
}

long
proc_ppid(long pid)
{
	struct proc_stat	s;

	return proc_stat(pid, &s) == 0 ? s.ppid : -1;
}

int
proc_exited(long pid)
{
	struct proc_stat	s;

	return proc_stat(pid, &s) == -1 || s.state == 'Z' || s.state == 'X';
}

int
proc_walk_start(struct proc_walk *w)
{
	w->dir = opendir("/proc");
	return w->dir != NULL ? 0 : -1;
}

long
proc_walk_next(struct proc_walk *w)
{
	struct dirent	*de;

	while (w->dir != NULL && (de = readdir(w->dir)) != NULL) {
		char	*end;
		long	 pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, &end, 10);
		if (*end == '\0' && pid > 0)
			return pid;
	}
	return -1;
}

void
proc_walk_end(struct proc_walk *w)
{
	if (w->dir != NULL)
		closedir(w->dir);
	w->dir = NULL;
}

long
proc_child_named(long ppid, const char *prefix)
{
	struct proc_walk	 w;
	long			 pid, found = -1;

	if (proc_walk_start(&w) == -1)
		return -1;
	while (found == -1 && (pid = proc_walk_next(&w)) > 0) {
		char	*cmd;

		if (proc_ppid(pid) != ppid ||
		    (cmd = proc_read(pid, "cmdline", NULL)) == NULL)
			continue;
		if (str_startswith(cmd, prefix))
			found = pid;
		free(cmd);
	}
	proc_walk_end(&w);
	return found;
}

char *
proc_start_id(long pid)
{
	struct proc_stat	 s;
	char			*boot, *out;

	if (pid <= 0 || proc_stat(pid, &s) == -1)
		return NULL;
	boot = read_small_file("/proc/sys/kernel/random/boot_id", NULL);
	out = xasprintf("%s:%llu", boot != NULL ? strtrim(boot) : "?",
	    s.start);
	free(boot);
	return out;
}

int
proc_alive_as(long pid, const char *start)
{
	char	*now;
	int	 same;

	if (pid <= 0)
		return 0;
	if (kill((pid_t)pid, 0) == -1 && errno == ESRCH)
		return 0;
	if (start == NULL || *start == '\0')
		return -1;
	now = proc_start_id(pid);
	same = now != NULL && strcmp(now, start) == 0;
	free(now);
	return same;
}
