/*
 * Tests of harness/spawn.c's process groups: a grandchild left by a child
 * dies when the child is reaped, unless the child was spawned with
 * SPAWN_KEEP_GROUP (then it survives, in a session of its own), and a
 * timeout still kills the whole group. The test is a child subreaper, so
 * that it reaps the grandchildren and sees how they ended.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/spawn.h"
#include "harness/util.h"
#include "tests/unit/tap.h"

#define SEC	1000000000LL

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

int
main(void)
{
	char	tmpl[] = "/tmp/abbench-t-spawn-XXXXXX";

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1 || mkdtemp(tmpl) == NULL) {
		printf("1..0 # SKIP cannot be a subreaper or make a "
		    "directory: %s\n", strerror(errno));
		return 0;
	}
	pidfile = xasprintf("%s/pid", tmpl);
	check_default_kills_group();
	check_keep_group_survives();
	check_keep_group_timeout();
	check_keep_group_no_capture();
	unlink(pidfile);
	rmdir(tmpl);
	free(pidfile);
	return tap_done();
}
