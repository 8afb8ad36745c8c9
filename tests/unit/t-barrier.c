/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of the start barrier (exec/barrier.c) and its helper
 * (payload/startline.c), with host processes: members started one after
 * another wait at the start line until every one has marked itself ready
 * (as many times as it has processes) and are released within a fraction
 * of a second of exec_barrier_release; EXEC_BARRIER_SH, run by sh as fio
 * runs its exec_prerun (with a redirection appended), does the same; a
 * member that exits before it is ready ends the wait at once (with what
 * it left in the directory: a missing helper's "not found"), a deadline
 * ends it too; a member's pid that costs its executor 100 ms to ask for
 * (oci's `runc state` before the container is made) is asked for a few
 * times while the member takes a second to be ready, not every 100 ms;
 * the helper gives up after its own timeout; a sandbox's
 * join adds the bind mount and the image's paths; free removes the
 * directory with what members left in it; an executor without the hook
 * is refused.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/barrier.h"
#include "exec/context.h"
#include "exec/exec.h"
#include "exec/spawn.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

#define SEC	1000000000LL

struct exec_proc {
	struct child	c;
};

static long
fake_pid(struct exec_proc *p)
{
	return p->c.pid;
}

static const struct exec_ops fake_host = {
	.name = "fake-host",
	.pid = fake_pid,
	.barrier_join = exec_barrier_join_host,
};
static const struct exec_ops fake_sandbox = {
	.name = "fake-sandbox",
	.caps = EXEC_CONTAINER,
	.pid = fake_pid,
	.barrier_join = exec_barrier_join_sandbox,
};
static int	costly_calls;

/* The pid of a container its runtime has not made yet: not known, and
 * the runtime asked for it each time (100 ms). */
static long
costly_pid(struct exec_proc *p)
{
	(void)p;
	costly_calls++;
	usleep(100000);
	return 0;
}

static const struct exec_ops fake_costly = {
	.name = "fake-costly",
	.pid = costly_pid,
	.barrier_join = exec_barrier_join_host,
};
static const struct exec_ops fake_none = {
	.name = "fake-none",
};

static const char *
env_get(char *const *env, const char *name)
{
	size_t	n = strlen(name);

	for (; env != NULL && *env != NULL; env++) {
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	}
	return NULL;
}

/* Start argv as member i of b. */
static struct exec_proc *
start_member(struct exec_barrier *b, int i, char *const *argv)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct exec_spec	 spec;
	char			*cause = NULL;

	memset(&spec, 0, sizeof spec);
	if (exec_barrier_join(b, i, &spec, &cause) == -1) {
		TAP_DIAG("join: %s", cause);
		exit(1);
	}
	p->c.argv = argv;
	p->c.env_add = spec.env;
	p->c.flags = SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
	if (spawn_start(&p->c, &cause) == -1) {
		TAP_DIAG("spawn: %s", cause);
		exit(1);
	}
	return p;
}

/* Nonzero while p's process has not exited (not reaped, not a zombie). */
static int
running(struct exec_proc *p)
{
	siginfo_t	si;

	memset(&si, 0, sizeof si);
	if (waitid(P_PID, p->c.pid, &si, WEXITED | WNOHANG | WNOWAIT) == -1)
		return 0;
	return si.si_pid == 0;
}

static void
finish(struct exec_proc *p, int64_t deadline_ns)
{
	char	*cause = NULL;

	if (spawn_wait(&p->c, deadline_ns, &cause) == -1) {
		TAP_DIAG("wait: %s", cause);
		free(cause);
	}
}

int
main(void)
{
	struct run_ctx		 ctx;
	struct exec_barrier	*b;
	struct exec_proc	*p[3], *procs[2];
	struct exec_spec	 spec;
	struct exec_mount	 data = { "bind", "/srv/data", "/data", NULL };
	struct stat		 sb;
	char			*cause = NULL, *dir, *prog;
	char			*sh[] = { "sh", "-c",
				    EXEC_BARRIER_SH " > job.prerun.txt 2>&1",
				    NULL };
	char			 *helper1[] = { NULL, "-r", "ready.1", "go",
				    NULL };
	char			*dies[] = { "sh", "-c", "exit 3", NULL };
	char			*nohelper[] = { "sh", "-c",
				    "ABBENCH_STARTLINE=/nonexistent/"
				    "abbench-startline; " EXEC_BARRIER_SH
				    " > job.prerun.txt 2>&1", NULL };
	char			*late[] = { NULL, "-t", "0.2", "go", NULL };
	char			*slow[] = { "sh", "-c", "sleep 1; "
				    EXEC_BARRIER_SH " > job.prerun.txt 2>&1",
				    NULL };
	int			 per[2] = { 1, 2 }, i, all;
	int64_t			 t0, released, wall, released_wall;

	memset(&ctx, 0, sizeof ctx);

	tap_str_eq(exec_missing(&fake_none, EXEC_HOOK_BARRIER),
	    "barrier_join", "exec_missing names the barrier_join hook");
	tap_ok(exec_missing(&fake_host, EXEC_HOOK_BARRIER) == NULL &&
	    exec_missing(&fake_sandbox, EXEC_HOOK_BARRIER) == NULL,
	    "... and finds it in the host's and sandboxes' joins");
	b = exec_barrier_new(&ctx, &fake_none, 2, &cause);
	tap_ok(b == NULL && cause != NULL && strstr(cause, "cannot hold"),
	    "an executor without barrier_join is refused (%s)",
	    cause ? cause : "");
	free(cause);
	cause = NULL;

	/* Three processes: member 0 through sh as fio's exec_prerun,
	 * member 1 twice (two jobs) with the helper itself. */
	b = exec_barrier_new(&ctx, &fake_host, 2, &cause);
	tap_ok(b != NULL, "a barrier for two host members");
	dir = exec_barrier_path(b, "");
	memset(&spec, 0, sizeof spec);
	exec_barrier_join(b, 1, &spec, &cause);
	tap_str_eq(env_get(spec.env, "ABBENCH_STARTLINE_READY"), "ready.1",
	    "the member's ready file is in its environment");
	tap_ok(env_get(spec.env, "ABBENCH_STARTLINE_DIR") != NULL &&
	    strncmp(env_get(spec.env, "ABBENCH_STARTLINE_DIR"), dir,
	    strlen(dir) - 1) == 0, "the host directory as the member sees it");
	prog = xstrdup(exec_barrier_prog(b));
	tap_ok(strstr(prog, "abbench-startline") != NULL &&
	    access(prog, X_OK) == 0, "the host's helper (%s)", prog);
	helper1[0] = prog;
	late[0] = prog;
	p[0] = start_member(b, 0, sh);
	p[1] = start_member(b, 1, helper1);
	procs[0] = p[0];
	procs[1] = p[1];
	tap_int_eq(exec_barrier_wait_ready(b, procs, per,
	    now_mono_ns() + 2 * SEC, &cause), -1,
	    "member 1 with one of its two processes is not ready");
	TAP_DIAG("%s", cause);
	free(cause);
	cause = NULL;
	p[2] = start_member(b, 1, helper1);
	tap_int_eq(exec_barrier_wait_ready(b, procs, per,
	    now_mono_ns() + 30 * SEC, &cause), 0,
	    "every member ready (%s)", cause ? cause : "");
	usleep(200000);
	for (all = 1, i = 0; i < 3; i++)
		all = all && running(p[i]);
	tap_ok(all, "all three still wait at the start line");
	released_wall = now_wall_ns();
	released = exec_barrier_release(b, &cause);
	tap_ok(released > 0, "released");
	for (i = 0; i < 3; i++)
		finish(p[i], released + 10 * SEC);
	for (all = 1, i = 0; i < 3; i++) {
		int64_t	after = p[i]->c.end_ns - released;

		TAP_DIAG("process %d ended %.1f ms after the release", i,
		    (double)after / 1e6);
		all = all && WIFEXITED(p[i]->c.status) &&
		    WEXITSTATUS(p[i]->c.status) == 0 && after < SEC;
	}
	tap_ok(all, "and they all go within a second, exit status 0");
	{
		int64_t	first0, first1;
		int	n0, n1;

		wall = now_wall_ns();
		n0 = exec_barrier_released_at(b, 0, &first0);
		n1 = exec_barrier_released_at(b, 1, &first1);
		tap_ok(n0 == 1 && n1 == 2, "each process said when it went "
		    "(%d and %d times)", n0, n1);
		tap_ok(first0 > 0 && first1 > 0 && first0 <= wall &&
		    first1 <= wall && wall - first0 < 10 * SEC &&
		    wall - first1 < 10 * SEC && first0 >= released_wall &&
		    first1 >= released_wall,
		    "on the wall clock, after the release and before now");
		tap_int_eq(exec_barrier_released_at(b, 5, &first0), 0,
		    "a member that said nothing: 0");
	}
	tap_ok(access(dir, F_OK) == 0, "the directory exists until freed");
	exec_barrier_free(b);
	tap_ok(stat(dir, &sb) == -1 && errno == ENOENT,
	    "free removes it, with the prerun's output left in it");
	for (i = 0; i < 3; i++) {
		spawn_release(&p[i]->c);
		free(p[i]);
	}
	free(dir);

	/* A member that exits before it is ready. */
	b = exec_barrier_new(&ctx, &fake_host, 2, &cause);
	helper1[2] = "ready.0";
	p[0] = start_member(b, 0, helper1);
	p[1] = start_member(b, 1, dies);
	procs[0] = p[0];
	procs[1] = p[1];
	t0 = now_mono_ns();
	tap_int_eq(exec_barrier_wait_ready(b, procs, NULL,
	    t0 + 60 * SEC, &cause), -1, "a member that exits ends the wait");
	tap_ok(cause != NULL && strstr(cause, "2 of 2 exited") != NULL &&
	    now_mono_ns() - t0 < 10 * SEC, "at once, naming it (%s)",
	    cause ? cause : "");
	free(cause);
	cause = NULL;
	exec_barrier_release(b, NULL);
	for (i = 0; i < 2; i++) {
		finish(p[i], now_mono_ns() + 10 * SEC);
		spawn_release(&p[i]->c);
		free(p[i]);
	}
	exec_barrier_free(b);

	/* A member whose helper is missing (an image built before it): the
	 * shell's complaint, which fio's exec_prerun redirects into the
	 * directory, is in the message. */
	b = exec_barrier_new(&ctx, &fake_host, 1, &cause);
	p[0] = start_member(b, 0, nohelper);
	procs[0] = p[0];
	tap_int_eq(exec_barrier_wait_ready(b, procs, NULL,
	    now_mono_ns() + 60 * SEC, &cause), -1,
	    "a member without the helper ends the wait");
	tap_ok(cause != NULL && strstr(cause, "job.prerun.txt: ") != NULL &&
	    strstr(cause, "/nonexistent/abbench-startline") != NULL,
	    "with what the shell said (%s)", cause ? cause : "");
	free(cause);
	cause = NULL;
	finish(p[0], now_mono_ns() + 10 * SEC);
	spawn_release(&p[0]->c);
	free(p[0]);
	exec_barrier_free(b);

	/* A pid that costs 100 ms to ask for, while the member takes a
	 * second to be ready: asked for at most 4 times (every 100 ms it
	 * was 10 times or so). */
	b = exec_barrier_new(&ctx, &fake_costly, 1, &cause);
	p[0] = start_member(b, 0, slow);
	procs[0] = p[0];
	t0 = now_mono_ns();
	tap_int_eq(exec_barrier_wait_ready(b, procs, NULL, t0 + 60 * SEC,
	    &cause), 0, "a member slow to be ready (%s)", cause ? cause : "");
	tap_ok(costly_calls >= 1 && costly_calls <= 4, "its costly pid "
	    "asked for %d times in %.1f s", costly_calls,
	    (double)(now_mono_ns() - t0) / 1e9);
	exec_barrier_release(b, NULL);
	finish(p[0], now_mono_ns() + 10 * SEC);
	spawn_release(&p[0]->c);
	free(p[0]);
	exec_barrier_free(b);

	/* A deadline, and the helper's own timeout. */
	b = exec_barrier_new(&ctx, &fake_host, 1, &cause);
	t0 = now_mono_ns();
	tap_int_eq(exec_barrier_wait_ready(b, NULL, NULL, t0 + SEC / 5,
	    &cause), -1, "nobody ready: the deadline ends the wait");
	tap_ok(cause != NULL && strstr(cause, "not every") != NULL &&
	    now_mono_ns() - t0 < 5 * SEC, "soon after it (%s)",
	    cause ? cause : "");
	free(cause);
	cause = NULL;
	p[0] = start_member(b, 0, late);
	finish(p[0], now_mono_ns() + 30 * SEC);
	tap_ok(WIFEXITED(p[0]->c.status) && WEXITSTATUS(p[0]->c.status) == 3,
	    "the helper gives up after -t (exit 3)");
	spawn_release(&p[0]->c);
	free(p[0]);
	exec_barrier_free(b);

	/* A sandbox: the directory through a bind mount, the image's
	 * helper. */
	b = exec_barrier_new(&ctx, &fake_sandbox, 1, &cause);
	memset(&spec, 0, sizeof spec);
	spec.mounts = &data;
	spec.nmounts = 1;
	tap_int_eq(exec_barrier_join(b, 0, &spec, &cause), 0,
	    "a sandbox joins");
	dir = exec_barrier_path(b, "");
	dir[strlen(dir) - 1] = '\0';
	tap_ok(spec.nmounts == 2 && strcmp(spec.mounts[0].target,
	    "/data") == 0 && strcmp(spec.mounts[1].type, "bind") == 0 &&
	    strcmp(spec.mounts[1].source, dir) == 0 &&
	    strcmp(spec.mounts[1].target, EXEC_BARRIER_DIR) == 0,
	    "its mounts keep the spec's and add the directory's");
	tap_str_eq(env_get(spec.env, "ABBENCH_STARTLINE_DIR"),
	    EXEC_BARRIER_DIR, "the directory as the sandbox sees it");
	tap_str_eq(env_get(spec.env, "ABBENCH_STARTLINE"),
	    EXEC_BARRIER_PROG, "the tools image's helper");
	tap_int_eq(exec_barrier_join(b, 1, &spec, &cause), -1,
	    "no member 1 of 1");
	free(cause);
	exec_barrier_free(b);
	free(dir);
	free(prog);
	return tap_done();
}
