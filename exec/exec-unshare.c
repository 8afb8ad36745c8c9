/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The unshare executor (`executor = unshare`): a host program run as the
 * local executor runs it (its cgroup below the run's, an arm's cpu and
 * memory limits, wait4's rusage, the deadline), but through util-linux's
 * unshare(1) ($ABBENCH_UNSHARE, default unshare on PATH) in namespaces of
 * its own: pid (the program is pid 1 there, with a /proc of its own in a
 * private mount namespace), uts, ipc and net (loopback only), and, when
 * abbench is not root, a user namespace that maps it to root.
 *
 * Nothing to journal and nothing to label: the namespaces have no names,
 * no bind mount keeps one, and they go with their last process. The
 * program dies with unshare (--kill-child), and the pid namespace takes
 * every process it left, even one in a session of its own. A kill -9 of
 * abbench leaves them in the run's cgroup, whose journal entry (the
 * local executor's) has `abbench restore` kill them and remove it.
 *
 * As its namespace's init the program ignores a signal it has no handler
 * for (the kernel's rule for an init), but SIGKILL: a timeout's SIGTERM
 * reaches only a program that handles it, the SIGKILL after the grace
 * time every one. A sample's time includes unshare's fork and the
 * namespaces' creation (several ms, docs/guide.md): arms under the
 * same executor share it, an A/B against executor = local does not.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/spawn.h"

#define UNSHARE_BIN		"unshare"
/* The probe before the first sample: unshare run once with `true`. */
#define UNSHARE_PROBE_NS	(10 * NSEC_PER_SEC)

extern const struct exec_ops exec_local_ops;

static const char *const unshare_flags[] = {
	"--fork", "--kill-child", "--pid", "--mount-proc", "--uts", "--ipc",
	"--net", NULL
};

struct exec_proc {
	/* The local executor's handle (its own struct, opaque here). */
	struct exec_proc	*local;
	/* unshare, its flags, --, the program: alive as long as local. */
	struct strvec		 argv;
};

static const char *
unshare_bin(void)
{
	const char	*p = getenv("ABBENCH_UNSHARE");

	return p != NULL && *p != '\0' ? p : UNSHARE_BIN;
}

static void
unshare_argv(struct strvec *v, char *const *argv)
{
	strvec_push(v, unshare_bin());
	strvec_pushv(v, (char *const *)unshare_flags);
	if (geteuid() != 0)
		strvec_push(v, "--map-root-user");
	strvec_push(v, "--");
	strvec_pushv(v, argv);
}

/*
 * unshare can make the namespaces here: `unshare ... -- true` exits 0.
 * at: where the message goes ("FILE:LINE: executor"), or NULL.
 */
static int
unshare_probe(const char *at, char **cause)
{
	char *const	 prog[] = { "true", NULL };
	struct strvec	 v = STRVEC_INIT;
	char		*out = NULL, *err = NULL, *why = NULL, *how;
	int		 status = -1, rc = 0;

	unshare_argv(&v, prog);
	if (spawn_capture(v.v, UNSHARE_PROBE_NS, &out, &err, &status,
	    &why) == -1) {
		rc = set_cause(cause, "%s%sunshare: %s (install util-linux, "
		    "or name it in $ABBENCH_UNSHARE)", at != NULL ? at : "",
		    at != NULL ? ": " : "executor ", why);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		how = spawn_describe_status(status, 0);
		rc = set_cause(cause, "%s%sunshare: '%s' cannot make the "
		    "namespaces here (%s%s%.*s)", at != NULL ? at : "",
		    at != NULL ? ": " : "executor ", v.v[0], how,
		    err != NULL && *err != '\0' ? ": " : "",
		    err != NULL ? (int)strcspn(err, "\n") : 0,
		    err != NULL ? err : "");
		free(how);
	}
	free(why);
	free(out);
	free(err);
	strvec_clear(&v);
	return rc;
}

static int
unshare_check(struct run_ctx *ctx, const struct exec_check *chk,
    char **cause)
{
	if (unshare_probe(chk->executor_at, cause) == -1)
		return -1;
	return exec_local_ops.check(ctx, chk, cause);
}

static int
unshare_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct exec_spec	 s = *spec;

	unshare_argv(&p->argv, spec->argv);
	s.argv = p->argv.v;
	if (exec_local_ops.start(ctx, &s, &p->local, cause) == -1) {
		strvec_clear(&p->argv);
		free(p);
		return -1;
	}
	*procp = p;
	return 0;
}

static int
unshare_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	return exec_local_ops.wait(ctx, p->local, deadline_ns, st, cause);
}

static void
unshare_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	if (p == NULL)
		return;
	exec_local_ops.destroy(ctx, p->local);
	strvec_clear(&p->argv);
	free(p);
}

static char *
unshare_cgroup_dir(struct exec_proc *p, const char *controller)
{
	return exec_local_ops.cgroup_dir(p->local, controller);
}

/* unshare's pid: the program is its child (pid 1 of the namespace). */
static long
unshare_pid(struct exec_proc *p)
{
	return exec_local_ops.pid(p->local);
}

static const char *
unshare_peek(struct exec_proc *p)
{
	return exec_local_ops.peek(p->local);
}

/*
 * To unshare's process group, the program with it: unshare blocks
 * SIGTERM and SIGINT while it waits, and passes nothing on.
 */
static int
unshare_signal(struct exec_proc *p, int sig, char **cause)
{
	long	pid = unshare_pid(p);

	if (pid <= 0)
		return 0;	/* reaped already: nothing to signal */
	if (kill(-(pid_t)pid, sig) == -1 && errno != ESRCH)
		return set_cause(cause, "cannot signal the group of %ld: %s",
		    pid, strerror(errno));
	return 0;
}

const struct exec_ops exec_unshare_ops = {
	.name = "unshare",
	.caps = EXEC_CGROUP_PARENT,
	.runtime_label = "unshare",
	.check = unshare_check,
	.start = unshare_start,
	.wait = unshare_wait,
	.destroy = unshare_destroy,
	.cgroup_dir = unshare_cgroup_dir,
	.pid = unshare_pid,
	.peek = unshare_peek,
	.signal = unshare_signal,
};
