/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of exec/spawn.c: exit statuses and their descriptions, captured
 * output, stdin, the environment and working directory, exec failures,
 * deadlines (SIGTERM, then SIGKILL after the grace time), the cgroup
 * join before exec; and process groups: a grandchild left by a child
 * dies when the child is reaped, unless the child was spawned with
 * SPAWN_KEEP_GROUP (then it survives, in a session of its own), and a
 * timeout still kills the whole group. The test is a child subreaper, so
 * that it reaps the grandchildren and sees how they ended.
 *
 * SPAWN_OWN_RSS: with the test holding 128 MiB, `true` spawned directly
 * has a ru_maxrss of at least that (the defect), from the spawn helper
 * a few MiB; that path keeps output, stdin, env, cwd, process group,
 * parent, timeout and exec errors; the helper is reaped when stopped and
 * dies when its owner is killed with SIGKILL; without the program
 * abbench-spawn a fork of the test serves, and measures right too.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/spawn.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

#define SEC	1000000000LL
#define MSEC	1000000LL

static char	*pidfile;

/*
 * Run `sh -c 'sleep 60 & echo $! >PIDFILE; TAIL'` with flags and a
 * timeout; returns the grandchild's (the sleep's) pid, or -1.
 */
static pid_t
run_parent(int flags, const char *tail, int64_t timeout_ns,
    struct child *c)
{
	char	*script, *text, *cause = NULL;
	pid_t	 pid;

	unlink(pidfile);
	script = xasprintf("sleep 60 </dev/null >/dev/null 2>&1 & "
	    "echo $! >'%s'; %s", pidfile, tail);
	{
		char *const	argv[] = { "sh", "-c", script, NULL };

		memset(c, 0, sizeof *c);
		c->argv = argv;
		c->flags = flags | SPAWN_NULL_OUT | SPAWN_NULL_ERR;
		c->grace_ns = SEC / 5;
		if (spawn_run(c, timeout_ns, &cause) == -1) {
			TAP_DIAG("spawn: %s", cause);
			free(cause);
			free(script);
			return -1;
		}
	}
	free(script);
	if ((text = read_small_file(pidfile, &cause)) == NULL) {
		TAP_DIAG("%s", cause);
		free(cause);
		return -1;
	}
	pid = (pid_t)strtol(text, NULL, 10);
	free(text);
	return pid > 0 ? pid : -1;
}

/* How the grandchild ended (raw status), waiting up to 5 s; -1 if it
 * still runs. */
static int
reap_within(pid_t pid, int64_t ns)
{
	int64_t		 end = now_mono_ns() + ns;
	struct timespec	 ts = { 0, 10 * 1000000 };
	int		 status;
	pid_t		 r;

	do {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r == -1)
			return -2;
		nanosleep(&ts, NULL);
	} while (now_mono_ns() < end);
	return -1;
}

static int
killed_by(int status, int sig)
{
	return status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static void
check_default_kills_group(void)
{
	struct child	c;
	pid_t		g;
	int		st;

	g = run_parent(0, "exit 0", 10 * SEC, &c);
	tap_ok(g > 0, "default: the child started a grandchild");
	tap_ok(c.reaped && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
	    "default: the child exited 0");
	spawn_release(&c);
	if (g <= 0)
		return;
	st = reap_within(g, 5 * SEC);
	if (!tap_ok(killed_by(st, SIGKILL),
	    "default: the grandchild was killed (SIGKILL) at the reap")) {
		TAP_DIAG("status %d", st);
		kill(g, SIGKILL);
		reap_within(g, 5 * SEC);
	}
}

static void
check_keep_group_survives(void)
{
	struct child	c;
	pid_t		g;
	int		st;

	g = run_parent(SPAWN_KEEP_GROUP, "exit 0", 10 * SEC, &c);
	tap_ok(g > 0, "keep-group: the child started a grandchild");
	tap_ok(c.reaped && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
	    "keep-group: the child exited 0");
	spawn_release(&c);
	if (g <= 0)
		return;
	/* Longer than the kill at the reap would take to land. */
	st = reap_within(g, SEC / 2);
	if (!tap_ok(st == -1, "keep-group: the grandchild survives the reap"))
		TAP_DIAG("status %d", st);
	tap_ok(getsid(g) != -1 && getsid(g) != getsid(0),
	    "keep-group: the grandchild is in a session of its own");
	tap_ok(getpgid(g) == c.pid,
	    "keep-group: in the child's group (the child led it)");
	kill(g, SIGTERM);
	st = reap_within(g, 5 * SEC);
	tap_ok(killed_by(st, SIGTERM),
	    "keep-group: the grandchild ran until we killed it");
}

static void
check_keep_group_timeout(void)
{
	struct child	c;
	pid_t		g;
	int		st;

	/* exec: no shell left to reap the grandchild before we can. */
	g = run_parent(SPAWN_KEEP_GROUP, "exec sleep 60", SEC / 2, &c);
	tap_ok(g > 0 && c.timed_out, "keep-group: the child timed out");
	spawn_release(&c);
	if (g <= 0)
		return;
	st = reap_within(g, 5 * SEC);
	if (!tap_ok(killed_by(st, SIGTERM) || killed_by(st, SIGKILL),
	    "keep-group: a timeout still kills the whole group")) {
		TAP_DIAG("status %d", st);
		kill(g, SIGKILL);
		reap_within(g, 5 * SEC);
	}
}

static void
check_keep_group_no_capture(void)
{
	char *const	 argv[] = { "true", NULL };
	struct child	 c;
	char		*cause = NULL;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.flags = SPAWN_KEEP_GROUP | SPAWN_CAPTURE_ERR;
	tap_ok(spawn_start(&c, &cause) == -1 && cause != NULL &&
	    strstr(cause, "cannot have its output captured") != NULL,
	    "keep-group: capturing output is refused");
	free(cause);
	spawn_release(&c);
}

/* echo TEXT > PATH; 0 or -1. */
static int
put(const char *path, const char *text)
{
	FILE	*f = fopen(path, "we");
	int	 rc;

	if (f == NULL)
		return -1;
	rc = fputs(text, f) < 0 ? -1 : 0;
	return fclose(f) == 0 ? rc : -1;
}

/*
 * A child that cannot die: frozen by the v1 freezer, SIGKILL stays
 * pending. The wait must not hang with it: it gives up 5 graces after
 * the SIGKILL and names the process's state; thawed, it dies.
 */
static void
check_unkillable(void)
{
	char *const	 argv[] = { "sleep", "30", NULL };
	struct child	 c;
	char		*cg, *p, *cause = NULL, buf[32];
	char		 state[32] = "";
	int64_t		 t0, took;
	int		 rc, i;
	FILE		*f;

	cg = xasprintf("/sys/fs/cgroup/freezer/abbench-t-spawn-%ld",
	    (long)getpid());
	if (geteuid() != 0 || mkdir(cg, 0755) == -1) {
		for (i = 0; i < 3; i++)
			tap_ok(1, "# SKIP no v1 freezer to make a child "
			    "unkillable (not root, or cgroup v2)");
		free(cg);
		return;
	}
	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.grace_ns = 100 * MSEC;
	if (spawn_start(&c, &cause) == -1) {
		tap_ok(0, "spawn of sleep: %s", cause);
		free(cause);
		rmdir(cg);
		free(cg);
		return;
	}
	snprintf(buf, sizeof buf, "%ld\n", (long)c.pid);
	p = xasprintf("%s/cgroup.procs", cg);
	put(p, buf);
	free(p);
	p = xasprintf("%s/freezer.state", cg);
	put(p, "FROZEN\n");
	for (i = 0; i < 200; i++) {
		if ((f = fopen(p, "re")) != NULL) {
			if (fgets(state, sizeof state, f) == NULL)
				state[0] = '\0';
			fclose(f);
		}
		if (strncmp(state, "FROZEN", 6) == 0)
			break;
		usleep(10000);
	}
	t0 = now_mono_ns();
	rc = spawn_wait(&c, t0 + 50 * MSEC, &cause);
	took = now_mono_ns() - t0;
	tap_ok(rc == -1 && cause != NULL &&
	    strstr(cause, "did not die") != NULL &&
	    strstr(cause, "after SIGKILL") != NULL,
	    "an unkillable child: the wait gives up (%s)",
	    cause != NULL ? cause : "no cause");
	tap_ok(took < 5 * SEC, "  after %.1f s, not hung (grace 0.1 s)",
	    (double)took / SEC);
	free(cause);
	put(p, "THAWED\n");
	free(p);
	rc = -1;
	for (i = 0; i < 500 && rc != c.pid; i++) {
		rc = waitpid(c.pid, NULL, WNOHANG);
		if (rc != c.pid)
			usleep(10000);
	}
	tap_ok(rc == c.pid, "  thawed, it dies of the SIGKILL and is reaped");
	spawn_release(&c);
	rmdir(cg);
	free(cg);
}

static int64_t
elapsed(const struct child *c)
{
	return c->end_ns - c->start_ns;
}

static void
check_basics(const char *dir)
{
	struct child	 c;
	char		*cause = NULL, *d, *procs, *text;
	int64_t		 t0;

	{
		char *const	argv[] = { "sh", "-c",
		    "echo out; echo err >&2; exit 3", NULL };

		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.flags = SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR;
		tap_ok(spawn_run(&c, 10 * SEC, &cause) == 0, "a child runs");
		tap_ok(c.reaped && WIFEXITED(c.status) &&
		    WEXITSTATUS(c.status) == 3, "its exit status is kept");
		tap_str_eq(c.out.buf, "out\n", "stdout is captured");
		tap_str_eq(c.err.buf, "err\n", "stderr is captured");
		d = spawn_describe_status(c.status, c.timed_out);
		tap_str_eq(d, "exited 3", "the status reads 'exited 3'");
		free(d);
		tap_ok(elapsed(&c) > 0 && elapsed(&c) < 10 * SEC,
		    "start and end times are ordered");
		spawn_release(&c);
	}
	{
		char *const	argv[] = { "sh", "-c",
		    "echo \"$ABB_T_X $ABB_T_Y $(pwd)\"; cat", NULL };
		char *const	env[] = { "ABB_T_X=one", "ABB_T_Y=two", NULL };

		setenv("ABB_T_X", "old", 1);
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.env_add = env;
		c.cwd = dir;
		c.in = "from stdin\n";
		c.inlen = strlen(c.in);
		c.flags = SPAWN_CAPTURE_OUT | SPAWN_STDIN_BUF;
		tap_ok(spawn_run(&c, 10 * SEC, &cause) == 0 &&
		    WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "a child with env, cwd and stdin runs");
		text = xasprintf("one two %s\nfrom stdin\n", dir);
		tap_str_eq(c.out.buf, text, "env_add overrides and adds, cwd "
		    "and stdin reach the child");
		free(text);
		spawn_release(&c);
	}
	{
		char *const	argv[] = { "abbench-no-such-program", NULL };

		memset(&c, 0, sizeof c);
		c.argv = argv;
		tap_ok(spawn_start(&c, &cause) == -1 && cause != NULL &&
		    strstr(cause, "cannot run 'abbench-no-such-program'") !=
		    NULL && strstr(cause, "No such file") != NULL,
		    "an exec failure is an error naming the program");
		free(cause);
		cause = NULL;
		spawn_release(&c);
	}
	{
		/* A child that ignores SIGTERM is killed after the grace. */
		char *const	argv[] = { "sh", "-c",
		    "trap '' TERM; while :; do sleep 0.05; done", NULL };

		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.grace_ns = SEC / 5;
		t0 = now_mono_ns();
		tap_ok(spawn_run(&c, SEC / 2, &cause) == 0, "a hanging child "
		    "is reaped at its deadline");
		tap_ok(c.timed_out && WIFSIGNALED(c.status) &&
		    WTERMSIG(c.status) == SIGKILL, "one that ignores SIGTERM "
		    "gets SIGKILL after the grace time");
		t0 = now_mono_ns() - t0;
		if (!tap_ok(t0 >= SEC / 2 && t0 < 5 * SEC, "it ends after the "
		    "deadline plus the grace time"))
			TAP_DIAG("took %lld ns", (long long)t0);
		d = spawn_describe_status(c.status, c.timed_out);
		tap_str_eq(d, "timed out", "the status reads 'timed out'");
		free(d);
		spawn_release(&c);
	}
	{
		/* The cgroup join: the child writes its pid first. */
		char *const	argv[] = { "sh", "-c", "echo $$", NULL };
		char *const	files[] = { NULL, NULL };
		long		pid;

		procs = xasprintf("%s/cgroup.procs", dir);
		close(creat(procs, 0644));
		((char **)files)[0] = procs;
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.cgroup_procs = files;
		c.flags = SPAWN_CAPTURE_OUT;
		tap_ok(spawn_run(&c, 10 * SEC, &cause) == 0 &&
		    WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "a child joining cgroups runs");
		text = read_small_file(procs, &cause);
		pid = text != NULL ? strtol(text, NULL, 10) : -1;
		tap_int_eq(pid, c.pid, "it wrote its pid to cgroup.procs "
		    "before exec");
		tap_int_eq(strtol(c.out.buf ? c.out.buf : "0", NULL, 10),
		    c.pid, "and exec'd as the same process");
		free(text);
		spawn_release(&c);
		unlink(procs);
		free(procs);
		procs = xasprintf("%s/no/such/cgroup.procs", dir);
		((char **)files)[0] = procs;
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.cgroup_procs = files;
		tap_ok(spawn_start(&c, &cause) == -1 && cause != NULL &&
		    strstr(cause, "cgroup.procs") != NULL,
		    "a cgroup it cannot join is an error, before exec");
		free(cause);
		cause = NULL;
		spawn_release(&c);
		free(procs);
	}
	{
		/* The join through cgroup.procs files open already. */
		char *const	argv[] = { "sh", "-c", "echo $$", NULL };
		char *const	files[] = { NULL, NULL };
		int		fds[2] = { -1, -1 };
		long		pid;

		procs = xasprintf("%s/open.procs", dir);
		((char **)files)[0] = procs;
		fds[0] = open(procs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.cgroup_procs = files;
		c.cgroup_fds = fds;
		c.flags = SPAWN_CAPTURE_OUT;
		tap_ok(spawn_run(&c, 10 * SEC, &cause) == 0 &&
		    WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "a child joining cgroups by open files runs");
		text = read_small_file(procs, &cause);
		pid = text != NULL ? strtol(text, NULL, 10) : -1;
		tap_int_eq(pid, c.pid, "it wrote its pid to the open file");
		tap_int_eq(strtol(c.out.buf ? c.out.buf : "0", NULL, 10),
		    c.pid, "and exec'd as the same process");
		free(text);
		spawn_release(&c);
		close(fds[0]);
		/* Read-only: the write fails, named by its path. */
		fds[0] = open(procs, O_RDONLY | O_CLOEXEC);
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.cgroup_procs = files;
		c.cgroup_fds = fds;
		tap_ok(spawn_start(&c, &cause) == -1 && cause != NULL &&
		    strstr(cause, "open.procs") != NULL,
		    "an open file it cannot write is an error naming it");
		free(cause);
		cause = NULL;
		spawn_release(&c);
		close(fds[0]);
		unlink(procs);
		free(procs);
	}
	{
		/*
		 * The join's cost is not the child's: start_ns is taken
		 * after it (by the child itself, just before exec). Here
		 * cgroup.procs is a FIFO whose reader comes 300 ms late.
		 */
		char *const	argv[] = { "true", NULL };
		char *const	files[] = { NULL, NULL };
		pid_t		reader;

		procs = xasprintf("%s/slow.procs", dir);
		unlink(procs);
		if (mkfifo(procs, 0644) == -1)
			perror("mkfifo");
		((char **)files)[0] = procs;
		if ((reader = fork()) == 0) {
			char	buf[64];
			int	fd;

			usleep(300000);
			fd = open(procs, O_RDONLY);
			while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
				;
			_exit(0);
		}
		memset(&c, 0, sizeof c);
		c.argv = argv;
		c.cgroup_procs = files;
		t0 = now_mono_ns();
		tap_ok(spawn_run(&c, 10 * SEC, &cause) == 0 &&
		    WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "a child whose cgroup join takes 300 ms runs");
		t0 = c.end_ns - t0;
		if (!tap_ok(t0 >= 290 * MSEC && elapsed(&c) < t0 - 200 * MSEC,
		    "its time starts after the join"))
			TAP_DIAG("spawn to end %lld ns, start to end %lld ns",
			    (long long)t0, (long long)elapsed(&c));
		waitpid(reader, NULL, 0);
		spawn_release(&c);
		unlink(procs);
		free(procs);
	}
}


/* Descriptors open in this process. */
static int
count_fds(void)
{
	char	path[64];
	int	fd, n = 0;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		if (access(path, F_OK) == 0)
			n++;
	}
	return n;
}

/*
 * The per-sample path: a child's pidfd (from clone) and pipes are closed
 * once it is reaped, whether or not it exec'd, and /dev/null stays one
 * descriptor; the time starts before the child exists (clone), so it
 * holds what the child did before exec, the join of cgroups aside.
 */
static void
check_no_leak(const char *dir)
{
	char *const	 ok[] = { "true", NULL };
	char *const	 bad[] = { "abbench-no-such-program", NULL };
	char *const	 files[] = { NULL, NULL };
	struct child	 c;
	char		*cause = NULL, *procs;
	int64_t		 t0, t1;
	int		 before, i, fails = 0;

	/* /dev/null, opened by the first child. */
	memset(&c, 0, sizeof c);
	c.argv = ok;
	if (spawn_run(&c, 10 * SEC, &cause) == -1)
		fails++;
	spawn_release(&c);
	before = count_fds();
	for (i = 0; i < 50; i++) {
		memset(&c, 0, sizeof c);
		c.argv = i % 2 ? ok : bad;
		c.flags = SPAWN_CAPTURE_ERR | SPAWN_NULL_OUT;
		if ((spawn_run(&c, 10 * SEC, &cause) == 0) != (i % 2))
			fails++;
		free(cause);
		cause = NULL;
		spawn_release(&c);
	}
	tap_int_eq(fails, 0, "50 children, half of them not found: each as "
	    "expected");
	tap_int_eq(count_fds(), before, "and no descriptor is left open");

	procs = xasprintf("%s/leak.procs", dir);
	if ((i = open(procs, O_WRONLY | O_CREAT | O_TRUNC, 0644)) != -1)
		close(i);
	((char **)files)[0] = procs;
	memset(&c, 0, sizeof c);
	c.argv = ok;
	c.cgroup_procs = files;
	t0 = now_mono_ns();
	tap_ok(spawn_start(&c, &cause) == 0, "a child joining a cgroup "
	    "starts");
	t1 = now_mono_ns();
	if (!tap_ok(c.start_ns >= t0 && c.start_ns <= t1,
	    "its start lies within spawn_start, before the child exists"))
		TAP_DIAG("call %lld..%lld, start %lld", (long long)t0,
		    (long long)t1, (long long)c.start_ns);
	spawn_wait(&c, 0, NULL);
	spawn_release(&c);
	unlink(procs);
	free(procs);
}

/*
 * SPAWN_ERR_SHARED: one stderr pipe for children one after the other
 * (the local executor's samples). Each child's err holds its own lines
 * only, also after one that wrote 4 times the pipe's capacity (drained
 * as it came, its tail kept), one that could not exec, one started from
 * the spawn helper and one killed at its deadline; group_left says when
 * the child left processes in its group; the pipe stays open, and no
 * other descriptor is left.
 */
static void
check_shared_err(void)
{
	struct child	 c;
	char		*cause = NULL, *want, *script;
	int		 errp[2], before, i, bad = 0, kinds = 0;

	if (!tap_ok(pipe2(errp, O_CLOEXEC) == 0 &&
	    fcntl(errp[0], F_SETFL, O_NONBLOCK) == 0, "a pipe to share"))
		return;
	before = count_fds();
	for (i = 0; i < 25; i++) {
		int	 kind = i % 5, started;

		memset(&c, 0, sizeof c);
		c.flags = SPAWN_CAPTURE_ERR | SPAWN_NULL_OUT | SPAWN_ERR_SHARED;
		if (kind == 3)
			c.flags |= SPAWN_OWN_RSS;
		c.err_pipe[0] = errp[0];
		c.err_pipe[1] = errp[1];
		want = xasprintf("mark-%d", i);
		script = kind == 1 ?
		    xasprintf("head -c 262144 /dev/zero | tr '\\0' x >&2; "
		    "echo; echo %s >&2", want) : kind == 4 ?
		    xasprintf("echo %s >&2; exec sleep 30", want) :
		    xasprintf("echo %s >&2", want);
		{
			char *const	argv[] = { "sh", "-c", script, NULL };
			char *const	none[] = { "abbench-no-such-program",
			    NULL };

			c.argv = kind == 2 ? none : argv;
			started = spawn_start(&c, &cause) == 0;
			if (started)
				spawn_wait(&c, kind == 4 ?
				    now_mono_ns() + 300 * MSEC : 0, NULL);
		}
		if (kind == 2) {
			/* Its error is the cause, its pipe untouched. */
			if (started || cause == NULL)
				bad++;
		} else if (!started || c.err.buf == NULL ||
		    strstr(c.err.buf, want) == NULL ||
		    (i > 0 && strstr(c.err.buf, "mark-") !=
		    strstr(c.err.buf, want)) ||
		    (kind == 4) != (c.timed_out != 0)) {
			TAP_DIAG("child %d (kind %d): err '%.60s'%s", i, kind,
			    c.err.buf != NULL ? c.err.buf : "(none)",
			    cause != NULL ? cause : "");
			bad++;
		} else
			kinds |= 1 << kind;
		free(cause);
		cause = NULL;
		free(want);
		free(script);
		spawn_release(&c);
	}
	tap_int_eq(bad, 0, "25 children on one stderr pipe: each one's err "
	    "holds its own lines only");
	tap_int_eq(kinds, 0x1b, "among them one of 256 KiB, one from the "
	    "helper, one killed at its deadline");
	tap_ok(fcntl(errp[0], F_GETFD) != -1 && fcntl(errp[1], F_GETFD) !=
	    -1, "the shared pipe is still open");
	tap_int_eq(count_fds(), before, "and nothing else is left open");

	memset(&c, 0, sizeof c);
	{
		char *const	argv[] = { "sh", "-c", "sleep 60 & exit 0", NULL };

		c.argv = argv;
		c.flags = SPAWN_CAPTURE_ERR | SPAWN_ERR_SHARED;
		c.err_pipe[0] = errp[0];
		c.err_pipe[1] = errp[1];
		spawn_run(&c, 10 * SEC, NULL);
		tap_int_eq(c.group_left, 1, "a child that left a process in "
		    "its group: group_left");
		spawn_release(&c);
		c.argv = (char *const[]){ "true", NULL };
		spawn_run(&c, 10 * SEC, NULL);
		tap_int_eq(c.group_left, 0, "one that left none: not");
		spawn_release(&c);
	}
	close(errp[0]);
	close(errp[1]);
}

/*
 * Exits are seen through one signalfd of SIGCHLD, which does not queue:
 * the wait of one child reads (and so takes) the SIGCHLD of another
 * that exited meanwhile. A child that exited while another was waited
 * for is reaped at once when it is waited for (not at its deadline),
 * its status and stderr its own; in either order.
 */
static void
check_two_children(void)
{
	char *const	 fast[] = { "sh", "-c", "echo fast >&2; sleep 0.1",
	    NULL };
	char *const	 slow[] = { "sh", "-c", "sleep 0.3; exit 3", NULL };
	struct child	 a, b;
	int64_t		 t0, took;
	int		 order;

	for (order = 0; order < 2; order++) {
		memset(&a, 0, sizeof a);
		memset(&b, 0, sizeof b);
		a.argv = fast;
		b.argv = slow;
		a.flags = b.flags = SPAWN_CAPTURE_ERR;
		if (!tap_ok(spawn_start(&a, NULL) == 0 &&
		    spawn_start(&b, NULL) == 0, "two children (order %d)",
		    order))
			return;
		if (order == 0) {
			/* The slow one first: the fast one's exit is read
			 * by its wait. */
			spawn_wait(&b, now_mono_ns() + 10 * SEC, NULL);
			t0 = now_mono_ns();
			spawn_wait(&a, now_mono_ns() + 10 * SEC, NULL);
			took = now_mono_ns() - t0;
		} else {
			spawn_wait(&a, now_mono_ns() + 10 * SEC, NULL);
			t0 = now_mono_ns();
			spawn_wait(&b, now_mono_ns() + 10 * SEC, NULL);
			took = now_mono_ns() - t0;
		}
		tap_ok(a.reaped && !a.timed_out && WIFEXITED(a.status) &&
		    WEXITSTATUS(a.status) == 0 && a.err.buf != NULL &&
		    strcmp(a.err.buf, "fast\n") == 0, "order %d: the fast "
		    "one exited 0, its stderr its own", order);
		tap_ok(b.reaped && !b.timed_out && WIFEXITED(b.status) &&
		    WEXITSTATUS(b.status) == 3, "order %d: the slow one "
		    "exited 3", order);
		if (!tap_ok(took < (order == 0 ? 100 : 350) * MSEC,
		    "order %d: the second wait took %lld ms, not its "
		    "deadline's 10 s", order, (long long)(took / MSEC)))
			TAP_DIAG("took %lld ns", (long long)took);
		spawn_release(&a);
		spawn_release(&b);
	}
}

/* The pidfd path: children of a process whose first spawn was not made
 * by its main thread (no SIGCHLD fd then). 0 when all went right. */
static void *
pidfd_thread(void *arg)
{
	char *const	 ok[] = { "sh", "-c", "echo own >&2; exit 5", NULL };
	char *const	 slow[] = { "sleep", "30", NULL };
	struct child	 c;
	int		*bad = arg;
	int64_t		 t0;

	memset(&c, 0, sizeof c);
	c.argv = ok;
	c.flags = SPAWN_CAPTURE_ERR;
	if (spawn_run(&c, 10 * SEC, NULL) != 0 || c.by_sigfd ||
	    !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 5 ||
	    c.err.buf == NULL || strcmp(c.err.buf, "own\n") != 0)
		*bad |= 1;
	spawn_release(&c);
	memset(&c, 0, sizeof c);
	c.argv = slow;
	t0 = now_mono_ns();
	if (spawn_run(&c, 200 * MSEC, NULL) != 0 || !c.timed_out ||
	    now_mono_ns() - t0 > 5 * SEC)
		*bad |= 2;
	spawn_release(&c);
	return NULL;
}

static void
check_pidfd_path(void)
{
	pid_t	pid = fork();
	int	status = -1;

	if (pid == 0) {
		pthread_t	t;
		int		bad = 0;

		if (pthread_create(&t, NULL, pidfd_thread, &bad) != 0)
			_exit(9);
		pthread_join(t, NULL);
		_exit(bad);
	}
	while (pid > 0 && waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (!tap_ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "without a SIGCHLD fd (the first spawn from a thread): pidfds; "
	    "a status, stderr and a timeout as with it"))
		TAP_DIAG("status %#x", status);
}

/* The parent pid of pid from /proc, or -1. */
static pid_t
ppid_of(pid_t pid)
{
	char	*path = xasprintf("/proc/%d/stat", (int)pid), buf[512];
	char	*p;
	FILE	*f = fopen(path, "r");
	int	 ppid = -1;

	free(path);
	if (f == NULL)
		return -1;
	if (fgets(buf, sizeof buf, f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL)
		(void)sscanf(p + 2, "%*c %d", &ppid);
	fclose(f);
	return ppid;
}

static long
maxrss_kib(int flags, char *const *argv)
{
	struct child	 c;
	char		*cause = NULL;
	long		 kib = -1;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.flags = flags;
	if (spawn_run(&c, 10 * SEC, &cause) == 0 && WIFEXITED(c.status) &&
	    WEXITSTATUS(c.status) == 0)
		kib = c.ru.ru_maxrss;
	else
		TAP_DIAG("spawn: %s", cause != NULL ? cause : "failed");
	free(cause);
	spawn_release(&c);
	return kib;
}

static void
check_own_rss(const char *dir)
{
	static char *const	 truev[] = { "true", NULL };
	char *const		 shv[] = { "sh", "-c", "echo $T_SPAWN; pwd; cat",
	    NULL };
	char *const		 env[] = { "T_SPAWN=helper", NULL };
	char *const		 badv[] = { "/no/such/program", NULL };
	char *const		 sleepv[] = { "sleep", "30", NULL };
	const size_t		 ballast = 128u << 20;
	struct child		 c;
	char			*cause = NULL, *want;
	volatile char		*b;
	pid_t			 hp = spawn_helper_pid(), sub;
	long			 direct, own;
	size_t			 off;
	int			 fds[2], st, i, r;

	{
		char	*exe = xasprintf("/proc/%d/exe", (int)hp), path[4096];
		ssize_t	 l = readlink(exe, path, sizeof path - 1);

		path[l > 0 ? l : 0] = '\0';
		free(exe);
		tap_ok(hp > 0 && ppid_of(hp) == getpid() &&
		    strstr(path, "/payload/abbench-spawn") != NULL,
		    "the spawn helper runs, a child of ours: "
		    "payload/abbench-spawn (pid %d)", (int)hp);
	}
	b = mmap(NULL, ballast, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED) {
		tap_ok(0, "map 128 MiB of ballast");
		return;
	}
	for (off = 0; off < ballast; off += 4096)
		b[off] = 1;
	direct = maxrss_kib(0, truev);
	own = maxrss_kib(SPAWN_OWN_RSS, truev);
	tap_ok(direct >= (long)(ballast >> 10),
	    "with 128 MiB held, a direct spawn's `true` reports >= 128 MiB "
	    "(%ld KiB: ours)", direct);
	tap_ok(own > 0 && own < 2048,
	    "from the helper, `true` reports < 2 MiB (%ld KiB)", own);
	munmap((void *)b, ballast);

	/* Everything else a child gets holds on that path. */
	memset(&c, 0, sizeof c);
	c.argv = shv;
	c.env_add = env;
	c.cwd = dir;
	c.in = "from stdin";
	c.inlen = strlen(c.in);
	c.flags = SPAWN_OWN_RSS | SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR |
	    SPAWN_STDIN_BUF;
	want = xasprintf("helper\n%s\nfrom stdin", dir);
	r = spawn_run(&c, 10 * SEC, &cause) == 0 && c.status == 0 &&
	    c.out.buf != NULL && strcmp(c.out.buf, want) == 0;
	tap_ok(r,
	    "helper path: env, cwd, stdin and stdout as asked");
	free(want);
	spawn_release(&c);

	memset(&c, 0, sizeof c);
	c.argv = badv;
	c.flags = SPAWN_OWN_RSS | SPAWN_CAPTURE_ERR;
	r = spawn_start(&c, &cause) == -1 && cause != NULL &&
	    strstr(cause, "/no/such/program") != NULL &&
	    strstr(cause, "No such file") != NULL;
	tap_ok(r,
	    "helper path: a failed exec is an error (%s)",
	    cause != NULL ? cause : "none");
	free(cause);
	cause = NULL;
	spawn_release(&c);

	memset(&c, 0, sizeof c);
	c.argv = sleepv;
	c.flags = SPAWN_OWN_RSS | SPAWN_NULL_OUT;
	c.grace_ns = SEC / 10;
	tap_ok(spawn_start(&c, &cause) == 0 && ppid_of(c.pid) == getpid() &&
	    getpgid(c.pid) == c.pid,
	    "helper path: we are the parent, the child leads its group");
	free(cause);
	cause = NULL;
	tap_ok(spawn_wait(&c, now_mono_ns() + SEC / 5, &cause) == 0 &&
	    c.timed_out && WIFSIGNALED(c.status) &&
	    WTERMSIG(c.status) == SIGTERM,
	    "helper path: a timeout kills the child, which is reaped");
	spawn_release(&c);

	/* Stopped: reaped, and the flag is an error without it. */
	spawn_helper_stop();
	tap_ok(kill(hp, 0) == -1 && errno == ESRCH && spawn_helper_pid() ==
	    -1, "a stopped helper is gone and reaped");
	memset(&c, 0, sizeof c);
	c.argv = truev;
	c.flags = SPAWN_OWN_RSS;
	r = spawn_start(&c, &cause) == -1 && cause != NULL &&
	    strstr(cause, "helper") != NULL;
	tap_ok(r,
	    "without a helper SPAWN_OWN_RSS is an error (%s)",
	    cause != NULL ? cause : "none");
	free(cause);
	cause = NULL;
	spawn_release(&c);

	/* Its owner killed with SIGKILL: the helper dies too. */
	if (pipe(fds) == -1) {
		tap_ok(0, "pipe");
		return;
	}
	sub = fork();
	if (sub == 0) {
		pid_t	h = -1;

		if (spawn_helper_start(NULL) == 0)
			h = spawn_helper_pid();
		(void)!write(fds[1], &h, sizeof h);
		raise(SIGKILL);
		_exit(1);
	}
	close(fds[1]);
	hp = -1;
	(void)!read(fds[0], &hp, sizeof hp);
	close(fds[0]);
	waitpid(sub, NULL, 0);
	/* We are a subreaper: the orphaned helper comes to us. */
	st = 0;
	for (i = 0; i < 200 && hp > 0; i++) {
		if (waitpid(hp, &st, WNOHANG) == hp)
			break;
		usleep(10000);
	}
	/* Whichever comes first: PR_SET_PDEATHSIG or EOF on the socket. */
	tap_ok(hp > 0 && i < 200 && ((WIFSIGNALED(st) &&
	    WTERMSIG(st) == SIGKILL) || (WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0)),
	    "the helper of an owner killed with SIGKILL dies (status 0x%x)",
	    st);

	/*
	 * Without the program a fork of ours serves: small as long as we
	 * were small when it was forked, whatever we hold afterwards.
	 */
	{
		char	*saved = xstrdup(getenv("ABBENCH_LIBEXEC") ?
		    getenv("ABBENCH_LIBEXEC") : "");
		char	*exe, path[4096];
		ssize_t	 l;

		setenv("ABBENCH_LIBEXEC", "/nonexistent", 1);
		r = spawn_helper_start(&cause) == 0;
		hp = spawn_helper_pid();
		exe = xasprintf("/proc/%d/exe", (int)hp);
		l = readlink(exe, path, sizeof path - 1);
		path[l > 0 ? l : 0] = '\0';
		free(exe);
		free(cause);
		cause = NULL;
		tap_ok(r && hp > 0 && strstr(path, "abbench-spawn") == NULL,
		    "without abbench-spawn, a fork of ours is the helper");
		b = mmap(NULL, ballast, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b != MAP_FAILED) {
			for (off = 0; off < ballast; off += 4096)
				b[off] = 1;
			own = maxrss_kib(SPAWN_OWN_RSS, truev);
			munmap((void *)b, ballast);
		} else
			own = -1;
		/* ~1 MiB, ~5 MiB with ASan: the fork's size, not ours. */
		tap_ok(own > 0 && own < 16384,
		    "from that fork, with 128 MiB held, `true` reports "
		    "< 16 MiB (%ld KiB)", own);
		spawn_helper_stop();
		if (*saved != '\0')
			setenv("ABBENCH_LIBEXEC", saved, 1);
		else
			unsetenv("ABBENCH_LIBEXEC");
		free(saved);
	}
	/* Back for the next tests' sake (none use it yet). */
	spawn_helper_start(NULL);
}

int
main(void)
{
	char	tmpl[] = "/tmp/abbench-t-spawn-XXXXXX";
	char	*cause = NULL;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1 || mkdtemp(tmpl) == NULL) {
		printf("1..0 # SKIP cannot be a subreaper or make a "
		    "directory: %s\n", strerror(errno));
		return 0;
	}
	pidfile = xasprintf("%s/pid", tmpl);
	/* The helper program, payload/abbench-spawn, from the build tree. */
	if (getenv("ABBENCH_LIBEXEC") == NULL) {
		char	 self[4096];
		ssize_t	 l = readlink("/proc/self/exe", self, sizeof self - 1);
		char	*dir;

		if (l > 0) {
			self[l] = '\0';
			/* tests/unit/t-spawn -> the build directory */
			dir = xasprintf("%s/../..", dirname(self));
			setenv("ABBENCH_LIBEXEC", dir, 1);
			free(dir);
		}
	}
	/* First, while we are small: what abbench's main does. */
	if (spawn_helper_start(&cause) == -1) {
		TAP_DIAG("%s", cause);
		free(cause);
	}
	check_pidfd_path();
	check_basics(tmpl);
	check_no_leak(tmpl);
	check_shared_err();
	check_two_children();
	check_default_kills_group();
	check_keep_group_survives();
	check_keep_group_timeout();
	check_keep_group_no_capture();
	check_unkillable();
	check_own_rss(tmpl);
	unlink(pidfile);
	rmdir(tmpl);
	free(pidfile);
	return tap_done();
}
