/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The podman executor: containers run with Debian's podman, rootful, its
 * OCI runtime the arm's (runc by default, runsc by name or path), from
 * images imported offline (scripts/build-image --podman). Every call is
 * an argv with a timeout to $ABBENCH_PODMAN (default podman); containers
 * are labelled abbench.run=<run uuid> and journaled as "podman-container"
 * before they exist, so that `abbench restore` removes them after a kill.
 *
 * What podman needs here (ENVIRONMENT.md): with runc its default rlimits
 * exceed the host's hard limits, so every runc container gets
 * --ulimit nofile=1024:1024 --ulimit nproc=1024:1024; runsc refuses to
 * run in the root network namespace, so it gets the global
 * --runtime-flag=network=none with --network=none. podman has no init
 * process here (no catatonit): `podman kill` and `rm -f` send SIGKILL.
 * Under conmon the runsc sandbox (State.Pid) and its gofer are siblings,
 * as under docker's shim.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exec/barrier.h"
#include "exec/daemon-cli.h"
#include "exec/exec.h"
#include "exec/context.h"
#include "exec/proccg.h"
#include "exec/spawn.h"

#define PODMAN_IMAGE		"abbench/tools"
#define PODMAN_KIND		"podman-container"
/* Rootful podman's store. */
#define PODMAN_STORE		"/var/lib/containers/storage"

struct exec_proc {
	struct dcli_proc c;		/* name, the attached CLI, pid... */
	int64_t		 journal;
};

static const char *
podman_bin(void)
{
	const char	*p = getenv("ABBENCH_PODMAN");

	return p != NULL && *p != '\0' ? p : "podman";
}

static const char *const podman_not_started[] = {
	"created", "configured", NULL
};

static const struct dcli podman_dcli = {
	.name = "podman",
	.bin = podman_bin,
	.not_started = podman_not_started,
};

/* `podman ARGS...` with a timeout; stdout into *out (may be NULL). */
static int
podman_cli(char *const *args, int64_t timeout_ns, char **out, char **cause)
{
	return dcli_call(&podman_dcli, args, timeout_ns, out, cause);
}

static int
podman_do(int64_t timeout_ns, char **out, char **cause, const char *a0,
    const char *a1, const char *a2, const char *a3, const char *a4)
{
	return dcli_do(&podman_dcli, timeout_ns, out, cause, a0, a1, a2,
	    a3, a4);
}

static int
is_runsc(const char *runtime)
{
	const char	*b;

	if (runtime == NULL)
		return 0;
	b = strrchr(runtime, '/');
	return str_startswith(b != NULL ? b + 1 : runtime, "runsc");
}

/*
 * The one builder of a container's command line: `podman [--runtime=RT
 * [--runtime-flag=network=none]] VERB [-d] --name NAME ... [--rm] IMAGE
 * ARGV`.
 */
/*
 * `podman [--runtime=RT [--runtime-flag=network=none]]`: the runtime's
 * flags are podman's global ones, given again to every call that runs
 * the runtime to start a container (run, start).
 */
static void
push_podman_runtime(struct strvec *av, const char *rt)
{
	strvec_push(av, podman_bin());
	if (rt != NULL && *rt != '\0')
		strvec_pushf(av, "--runtime=%s", rt);
	if (is_runsc(rt))
		strvec_push(av, "--runtime-flag=network=none");
}

static void
push_run_args(struct run_ctx *ctx, const char *verb,
    const struct exec_spec *spec, const char *name, int detach, int rm,
    struct strvec *av)
{
	const char	*rt = spec->runtime;

	push_podman_runtime(av, rt);
	dcli_push_head(av, ctx, verb, spec, name, detach);
	strvec_push(av, "--network=none");
	if (!is_runsc(rt)) {
		strvec_push(av, "--ulimit=nofile=1024:1024");
		strvec_push(av, "--ulimit=nproc=1024:1024");
	}
	dcli_push_limits(av, spec);
	dcli_push_mounts_env(av, spec);
	if (rm)
		strvec_push(av, "--rm");
	strvec_push(av, spec->image != NULL ? spec->image : PODMAN_IMAGE);
	strvec_pushv(av, spec->argv);
}

static int
podman_check(struct run_ctx *ctx, const struct exec_check *chk,
    char **cause)
{
	const char	*image = chk->image;
	char		*c = NULL;
	size_t		 i;

	(void)ctx;
	if (image == NULL)
		image = PODMAN_IMAGE;
	if (podman_do(20 * NSEC_PER_SEC, NULL, &c, "info", "--format",
	    "{{.Host.OCIRuntime.Name}}", NULL, NULL) == -1) {
		set_cause(cause, "podman does not answer (%s): install it "
		    "with scripts/setup --all", c);
		free(c);
		return -1;
	}
	for (i = 0; i < chk->narms; i++) {
		const char	*rt = chk->runtimes[i];

		if (rt != NULL && strchr(rt, '/') != NULL &&
		    access(rt, X_OK) != 0)
			return set_cause(cause, "arm '%s': runtime '%s' is "
			    "not an executable", chk->arms[i], rt);
	}
	if (podman_do(20 * NSEC_PER_SEC, NULL, &c, "image", "exists", image,
	    NULL, NULL) == -1) {
		set_cause(cause, "podman image '%s' not found: import it "
		    "with scripts/build-image --podman", image);
		free(c);
		return -1;
	}
	return 0;
}

static char *
podman_new_name(const struct run_ctx *ctx)
{
	static unsigned	counter;

	return dcli_new_name(ctx, "p", &counter);
}

/* `podman rm -f -v NAME`; a container that is gone already is fine. */
static int
podman_rm(const char *name, char **cause)
{
	char	*c = NULL;

	if (podman_do(EXEC_CALL_TIMEOUT_NS, NULL, &c, "rm", "-f", "-v", name,
	    NULL) == -1 && strstr(c, "no such container") == NULL) {
		set_cause(cause, "cannot remove container '%s': %s", name, c);
		free(c);
		return -1;
	}
	free(c);
	return 0;
}

static void
podman_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	char	*c = NULL;

	if (p == NULL)
		return;
	dcli_proc_release(&p->c);
	if (p->c.name != NULL && podman_rm(p->c.name, &c) == -1) {
		warning("%s", c);	/* the journal keeps it */
		free(c);
	} else if (ctx != NULL && p->journal > 0)
		run_forget_object(ctx, p->journal);
	free(p->c.name);
	free(p->c.cgroup_text);
	free(p);
}

static int
podman_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct strvec		 av = STRVEC_INIT;

	p->journal = -1;
	dcli_proc_init(&p->c, spec);
	p->c.name = podman_new_name(ctx);
	/* Journaled before it exists: restore removes it after a kill -9. */
	if (ctx != NULL)
		p->journal = run_journal_object(ctx, PODMAN_KIND, p->c.name);
	push_run_args(ctx, "run", spec, p->c.name, !p->c.attached, 0, &av);
	if (dcli_start(&podman_dcli, ctx, &p->c, &av, cause) == -1) {
		podman_destroy(ctx, p);
		return -1;
	}
	*procp = p;
	return 0;
}

static int
podman_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	(void)ctx;
	return dcli_wait(&podman_dcli, &p->c, deadline_ns, st, cause);
}

static char *
podman_cgroup_dir(struct exec_proc *p, const char *controller)
{
	return dcli_cgroup_dir(&podman_dcli, &p->c, controller);
}

static long
podman_pid(struct exec_proc *p)
{
	return dcli_pid(&podman_dcli, &p->c);
}

static int
podman_exec_into(struct exec_proc *p, char *const *argv, int64_t timeout_ns,
    char **out, int *status, char **cause)
{
	return dcli_exec_into(&podman_dcli, &p->c, argv, timeout_ns, out,
	    status, cause);
}

static int
podman_logs(struct exec_proc *p, int64_t timeout_ns, char **out,
    char **cause)
{
	return dcli_logs(&podman_dcli, &p->c, timeout_ns, out, cause);
}

static const char *
podman_container_name(struct exec_proc *p)
{
	return p->c.name;
}

/* The gofer is the sandbox's sibling under conmon. */
static long
podman_gofer_pid(struct exec_proc *p)
{
	return dcli_gofer_pid(&podman_dcli, &p->c);
}

static int
podman_run_once(struct run_ctx *ctx, const struct exec_spec *spec,
    int64_t timeout_ns, int64_t *ns, char **cause)
{
	struct strvec	 av = STRVEC_INIT;
	char		*name = podman_new_name(ctx), *c = NULL;
	int64_t		 journal, t0;
	int		 r;

	journal = run_journal_object(ctx, PODMAN_KIND, name);
	push_run_args(ctx, "run", spec, name, 0, 1, &av);
	t0 = now_mono_ns();
	r = podman_cli(av.v + 1, timeout_ns, NULL, cause);
	*ns = now_mono_ns() - t0;
	/* --rm removed it, unless the run failed half way. */
	if (podman_rm(name, &c) == -1) {
		warning("%s", c);
		free(c);
	} else if (journal > 0)
		run_forget_object(ctx, journal);
	strvec_clear(&av);
	free(name);
	return r;
}

static int
podman_create_start(struct run_ctx *ctx, const struct exec_spec *spec,
    int64_t timeout_ns, struct exec_proc **procp, int64_t *ns,
    char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct strvec		 av = STRVEC_INIT, start = STRVEC_INIT;
	int64_t			 t0;
	int			 r;

	p->journal = -1;
	p->c.bare = spec->bare;
	p->c.name = podman_new_name(ctx);
	p->journal = run_journal_object(ctx, PODMAN_KIND, p->c.name);
	push_run_args(ctx, "create", spec, p->c.name, 0, 0, &av);
	push_podman_runtime(&start, spec->runtime);
	strvec_push(&start, "start");
	strvec_push(&start, p->c.name);
	t0 = now_mono_ns();
	r = podman_cli(av.v + 1, timeout_ns, NULL, cause);
	if (r == 0)
		r = podman_cli(start.v + 1, timeout_ns, NULL, cause);
	*ns = now_mono_ns() - t0;
	p->c.start_ns = t0;
	strvec_clear(&av);
	strvec_clear(&start);
	if (r == -1) {
		podman_destroy(ctx, p);
		return -1;
	}
	*procp = p;
	return 0;
}

static int
podman_undo(const char *target, struct strvec *also, char **cause)
{
	(void)also;
	return podman_rm(target, cause);
}

/* Is the podman CLI installed? A host without it has no container. */
static int
podman_installed(void)
{
	const char	*bin = podman_bin();
	const char	*path = getenv("PATH");
	char		*dirs, *d, *save = NULL, *f;
	int		 found = 0;

	if (strchr(bin, '/') != NULL)
		return access(bin, X_OK) == 0;
	dirs = xstrdup(path != NULL ? path : "/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d != NULL && !found;
	    d = strtok_r(NULL, ":", &save)) {
		f = xasprintf("%s/%s", d, bin);
		found = access(f, X_OK) == 0;
		free(f);
	}
	free(dirs);
	return found;
}

/*
 * The store of this user's podman: rootful podman's for root; a rootless
 * one's under $XDG_DATA_HOME or $HOME (containers/storage). NULL when the
 * user has no home: rootless podman cannot run there, so it keeps no
 * container. Malloc'd.
 */
static char *
podman_store(void)
{
	const char	*x, *h;
	struct stat	 sb;

	if (geteuid() == 0)
		return xstrdup(PODMAN_STORE);
	x = getenv("XDG_DATA_HOME");
	h = getenv("HOME");
	if (x != NULL && *x == '/')
		return xasprintf("%s/containers/storage", x);
	if (h != NULL && *h == '/' && stat(h, &sb) == 0)
		return xasprintf("%s/.local/share/containers/storage", h);
	return NULL;
}

/*
 * Does this user's podman keep no container at all? Its store lists them
 * in containers.json ("[]" when none), per storage driver; a store never
 * made holds none. A file read, where `podman ps` costs a process and its
 * lock (the runner sweeps after every command sample) — and, for a user
 * whose podman cannot work (nobody, whose home does not exist), a failure
 * that warned at the end of every run of local programs.
 */
static int
podman_has_none(void)
{
	static const char *const drivers[] = { "overlay", "vfs", "btrfs" };
	struct stat	 sb;
	char		*store, *path, *s;
	size_t		 i;
	int		 none = -1;

	if (getenv("ABBENCH_PODMAN") != NULL)
		return 0;	/* another CLI, another store */
	if ((store = podman_store()) == NULL)
		return 1;
	if (stat(store, &sb) == -1 && errno == ENOENT) {
		free(store);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(drivers) && none != 0; i++) {
		path = xasprintf("%s/%s-containers/containers.json", store,
		    drivers[i]);
		if ((s = read_small_file(path, NULL)) != NULL)
			none = strcmp(strtrim(s), "[]") == 0;
		free(s);
		free(path);
	}
	free(store);
	return none == 1;
}

static int
podman_sweep(const char *uuid, int64_t timeout_ns, struct strvec *removed,
    char **cause)
{
	char	*filter, *out = NULL, *line, *save = NULL, *why = NULL;
	int	 rc = 0;

	if (!podman_installed() || podman_has_none())
		return 0;
	filter = xasprintf("label=abbench.run=%s", uuid);
	rc = podman_do(timeout_ns < EXEC_CALL_TIMEOUT_NS ? timeout_ns :
	    EXEC_CALL_TIMEOUT_NS, &out, cause, "ps", "-a", "-q", "--filter",
	    filter);
	free(filter);
	if (rc == -1)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (*strtrim(line) == '\0')
			continue;
		if (podman_rm(strtrim(line), &why) == -1) {
			if (rc == 0)
				set_cause(cause, "%s", why);
			free(why);
			why = NULL;
			rc = -1;
		} else if (removed != NULL)
			strvec_push(removed, strtrim(line));
	}
	free(out);
	return rc;
}

const struct exec_ops exec_podman_ops = {
	.name = "podman",
	.caps = EXEC_CONTAINER | EXEC_DAEMON,
	.runtime_label = "runc",
	.check = podman_check,
	.start = podman_start,
	.wait = podman_wait,
	.destroy = podman_destroy,
	.cgroup_dir = podman_cgroup_dir,
	.pid = podman_pid,
	.exec_into = podman_exec_into,
	.logs = podman_logs,
	.journal_kind = PODMAN_KIND,
	.undo_done = "removed podman container '%s'",
	.undo = podman_undo,
	.sweep = podman_sweep,
	.container_name = podman_container_name,
	.gofer_pid = podman_gofer_pid,
	.run_once = podman_run_once,
	.create_start = podman_create_start,
	.barrier_join = exec_barrier_join_sandbox,
};
