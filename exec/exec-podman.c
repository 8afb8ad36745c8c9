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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec/barrier.h"
#include "exec/exec.h"
#include "exec/context.h"
#include "exec/proccg.h"
#include "exec/spawn.h"

#define PODMAN_RUN_TIMEOUT_NS	(180 * NSEC_PER_SEC)
#define PODMAN_NO_DEADLINE_NS	(24 * 3600 * NSEC_PER_SEC)
#define PODMAN_IMAGE		"abbench/tools"
#define PODMAN_KIND		"podman-container"
/* Rootful podman's store. */
#define PODMAN_STORE		"/var/lib/containers/storage"

struct exec_proc {
	char		*name;
	int64_t		 journal;
	int		 attached;
	struct child	 cli;		/* attached: `podman run` */
	struct strvec	 cli_argv;
	int		 capture;
	/* exec_spec.on_out: stdout handed over as it comes (attached) or
	 * once, whole, from podman logs (detached). */
	size_t		(*on_out)(void *, const char *, size_t, int);
	void		*on_out_arg;
	int		 bare;
	long		 pid;		/* State.Pid, 0 = unknown */
	char		*cgroup_text;	/* /proc/PID/cgroup, running */
	int64_t		 start_ns;
};

static const char *
podman_bin(void)
{
	const char	*p = getenv("ABBENCH_PODMAN");

	return p != NULL && *p != '\0' ? p : "podman";
}

/* `podman ARGS...` with a timeout; stdout into *out (may be NULL). */
static int
podman_cli(char *const *args, int64_t timeout_ns, char **out, char **cause)
{
	struct strvec	 argv = STRVEC_INIT;
	char		*o = NULL, *e = NULL, *how, *c = NULL;
	int		 status = -1, r;

	strvec_push(&argv, podman_bin());
	strvec_pushv(&argv, args);
	r = spawn_capture(argv.v, timeout_ns, &o, &e, &status, &c);
	if (r == -1) {
		set_cause(cause, "'podman %s' failed: %s", args[0], c);
		free(c);
	} else if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'podman %s' %s: %s", args[0], how,
		    e != NULL ? strtrim(e) : "");
		free(how);
		r = -1;
	}
	if (r == 0 && out != NULL) {
		*out = o;
		o = NULL;
	}
	free(o);
	free(e);
	strvec_clear(&argv);
	return r;
}

static int
podman_do(int64_t timeout_ns, char **out, char **cause, const char *a0,
    const char *a1, const char *a2, const char *a3, const char *a4)
{
	const char	*args[] = { a0, a1, a2, a3, a4, NULL };

	return podman_cli((char *const *)args, timeout_ns, out, cause);
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
	size_t		 i;

	push_podman_runtime(av, rt);
	strvec_push(av, verb);
	if (detach)
		strvec_push(av, "-d");
	strvec_push(av, "--name");
	strvec_push(av, name);
	strvec_pushf(av, "--label=abbench.run=%s",
	    ctx != NULL && ctx->run_uuid[0] ? ctx->run_uuid : "none");
	if (spec->name != NULL && !spec->bare)
		strvec_pushf(av, "--label=abbench.workload=%s", spec->name);
	strvec_push(av, "--network=none");
	if (!is_runsc(rt)) {
		strvec_push(av, "--ulimit=nofile=1024:1024");
		strvec_push(av, "--ulimit=nproc=1024:1024");
	}
	if (spec->cpus > 0)
		strvec_pushf(av, "--cpus=%g", spec->cpus);
	if (spec->memory > 0)
		strvec_pushf(av, "--memory=%llu",
		    (unsigned long long)spec->memory);
	for (i = 0; i < spec->nmounts; i++) {
		const struct exec_mount	*m = &spec->mounts[i];
		const char		*o = m->options;

		if (strcmp(m->type, "tmpfs") == 0)
			strvec_pushf(av, "--tmpfs=%s%s%s", m->target,
			    o ? ":" : "", o ? o : "");
		else
			strvec_pushf(av, "--volume=%s:%s%s%s", m->source,
			    m->target, o ? ":" : "", o ? o : "");
	}
	for (i = 0; spec->env != NULL && spec->env[i] != NULL; i++) {
		strvec_push(av, "--env");
		strvec_push(av, spec->env[i]);
	}
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

	if (ctx != NULL && ctx->cgroup_name[0] != '\0')
		return xasprintf("%s-p%u", ctx->cgroup_name, counter++);
	return xasprintf("abbench-%ld-p%u", (long)getpid(), counter++);
}

/* State.Pid and the cgroups while it runs; an attached one may lag. */
static void
podman_learn_pid(struct exec_proc *p)
{
	int64_t	 until = now_mono_ns() + (p->attached ? 30 : 0) *
		    NSEC_PER_SEC;
	char	*out = NULL, state[32];

	while (p->pid <= 0) {
		if (podman_do(EXEC_CALL_TIMEOUT_NS, &out, NULL, "inspect",
		    "--format", "{{.State.Pid}} {{.State.Status}}", p->name,
		    NULL) == 0) {
			state[0] = '\0';
			if (sscanf(out, "%ld %31s", &p->pid, state) < 1)
				p->pid = 0;
			free(out);
			out = NULL;
			if (p->pid <= 0 && strcmp(state, "created") != 0 &&
			    strcmp(state, "configured") != 0)
				break;
		}
		if (p->pid > 0 || now_mono_ns() >= until)
			break;
		usleep(50000);
	}
	if (p->pid > 0 && p->cgroup_text == NULL)
		p->cgroup_text = proccg_read(p->pid, NULL);
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
	if (p->attached) {
		spawn_release(&p->cli);
		strvec_clear(&p->cli_argv);
	}
	if (p->name != NULL && podman_rm(p->name, &c) == -1) {
		warning("%s", c);	/* the journal keeps it */
		free(c);
	} else if (ctx != NULL && p->journal > 0)
		run_forget_object(ctx, p->journal);
	free(p->name);
	free(p->cgroup_text);
	free(p);
}

static int
podman_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct strvec		 av = STRVEC_INIT;
	char			*out = NULL, *err = NULL, *c = NULL, *how;
	int			 status = -1;
	int64_t			 limit;

	p->journal = -1;
	p->attached = !spec->detach;
	p->capture = spec->capture;
	p->on_out = spec->capture ? spec->on_out : NULL;
	p->on_out_arg = spec->on_out_arg;
	p->bare = spec->bare;
	p->name = podman_new_name(ctx);
	/* Journaled before it exists: restore removes it after a kill -9. */
	if (ctx != NULL)
		p->journal = run_journal_object(ctx, PODMAN_KIND, p->name);
	push_run_args(ctx, "run", spec, p->name, !p->attached, 0, &av);
	p->start_ns = now_mono_ns();
	if (p->attached) {
		p->cli_argv = av;
		p->cli.argv = p->cli_argv.v;
		p->cli.flags = SPAWN_CAPTURE_ERR | (spec->capture ?
		    SPAWN_CAPTURE_OUT : SPAWN_NULL_OUT);
		p->cli.on_out = p->on_out;
		p->cli.on_out_arg = p->on_out_arg;
		if (spawn_start(&p->cli, cause) == -1)
			goto fail;
		*procp = p;
		return 0;
	}
	limit = PODMAN_RUN_TIMEOUT_NS;
	if (ctx != NULL && ctx->deadline_ns > 0 &&
	    ctx->deadline_ns - now_mono_ns() < limit)
		limit = ctx->deadline_ns - now_mono_ns();
	if (limit < NSEC_PER_SEC)
		limit = NSEC_PER_SEC;
	if (spawn_capture(av.v, limit, &out, &err, &status, &c) == -1) {
		set_cause(cause, "'podman run' of '%s' failed: %s", p->name,
		    c);
		free(c);
		goto fail;
	}
	if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'podman run' of '%s' %s: %s", p->name, how,
		    strtrim(err));
		free(how);
		goto fail;
	}
	free(out);
	free(err);
	strvec_clear(&av);
	podman_learn_pid(p);
	*procp = p;
	return 0;

fail:
	free(out);
	free(err);
	if (!p->attached)
		strvec_clear(&av);
	podman_destroy(ctx, p);
	return -1;
}

/* What a detached container printed (podman logs), unless bare. */
static void
podman_collect_logs(struct exec_proc *p, struct exec_status *st)
{
	const char	*args[] = { podman_bin(), "logs", p->name, NULL };
	char		*o = NULL, *e = NULL;
	int		 s;

	if (p->bare || spawn_capture((char *const *)args,
	    EXEC_CALL_TIMEOUT_NS, &o, &e, &s, NULL) != 0)
		return;
	if (p->capture) {
		size_t	len = strlen(o), used = 0;

		/* All at once: the reader takes it whole. */
		if (p->on_out != NULL)
			used = p->on_out(p->on_out_arg, o, len, 1);
		if (used > len)
			used = len;
		memmove(o, o + used, len - used + 1);
		st->outlen = len - used;
		st->out = o;
		o = NULL;
	}
	st->err = last_lines(e, strlen(e), 10);
	free(o);
	free(e);
}

static int
podman_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	struct child	 w;
	const char	*args[4];
	int		 code;

	(void)ctx;
	memset(st, 0, sizeof *st);
	st->status = -1;
	st->start_ns = p->start_ns;
	if (deadline_ns <= 0)
		deadline_ns = now_mono_ns() + PODMAN_NO_DEADLINE_NS;
	if (p->attached) {
		podman_learn_pid(p);
		if (spawn_wait(&p->cli, deadline_ns, cause) == -1)
			return -1;
		st->end_ns = p->cli.end_ns;
		if (p->cli.timed_out) {
			st->timed_out = 1;
			(void)podman_do(EXEC_CALL_TIMEOUT_NS, NULL, NULL,
			    "kill", p->name, NULL, NULL, NULL);
		} else
			st->status = p->cli.status;
		st->outlen = p->cli.out.len;
		st->out = strbuf_detach(&p->cli.out);
		st->err = last_lines(p->cli.err.buf ? p->cli.err.buf : "",
		    p->cli.err.len, 10);
		return 0;
	}
	memset(&w, 0, sizeof w);
	args[0] = podman_bin();
	args[1] = "wait";
	args[2] = p->name;
	args[3] = NULL;
	w.argv = (char *const *)args;
	w.flags = SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR;
	if (spawn_start(&w, cause) == -1)
		return -1;
	if (spawn_wait(&w, deadline_ns, cause) == -1) {
		spawn_release(&w);
		return -1;
	}
	st->end_ns = now_mono_ns();
	if (w.timed_out) {
		st->timed_out = 1;
		(void)podman_do(EXEC_CALL_TIMEOUT_NS, NULL, NULL, "kill",
		    p->name, NULL, NULL, NULL);
	} else if (w.status != 0 || w.out.buf == NULL ||
	    sscanf(w.out.buf, "%d", &code) != 1) {
		set_cause(cause, "'podman wait %s' failed: %s", p->name,
		    w.err.buf ? strtrim(w.err.buf) : "no output");
		spawn_release(&w);
		return -1;
	} else
		st->status = (code & 0xff) << 8;
	spawn_release(&w);
	podman_collect_logs(p, st);
	return 0;
}

static char *
podman_cgroup_dir(struct exec_proc *p, const char *controller)
{
	if (p->cgroup_text == NULL)
		podman_learn_pid(p);
	if (p->cgroup_text == NULL)
		return NULL;
	return proccg_dir(p->cgroup_text, controller);
}

static long
podman_pid(struct exec_proc *p)
{
	podman_learn_pid(p);
	return p->pid > 0 ? p->pid : -1;
}

static int
podman_exec_into(struct exec_proc *p, char *const *argv, int64_t timeout_ns,
    char **out, int *status, char **cause)
{
	struct strvec	 av = STRVEC_INIT;
	char		*o = NULL, *e = NULL;
	int		 r;

	strvec_push(&av, podman_bin());
	strvec_push(&av, "exec");
	strvec_push(&av, p->name);
	strvec_pushv(&av, argv);
	r = spawn_capture(av.v, timeout_ns, &o, &e, status, cause);
	if (r == 0 && out != NULL) {
		*out = o;
		o = NULL;
	}
	free(o);
	free(e);
	strvec_clear(&av);
	return r;
}

static int
podman_logs(struct exec_proc *p, int64_t timeout_ns, char **out,
    char **cause)
{
	char	*args[] = { "logs", p->name, NULL };

	return podman_cli(args, timeout_ns, out, cause);
}

static const char *
podman_container_name(struct exec_proc *p)
{
	return p->name;
}

static long
podman_gofer_pid(struct exec_proc *p)
{
	long	conmon;

	/* The gofer is the sandbox's sibling under conmon. */
	if (podman_pid(p) <= 0 || (conmon = proc_ppid(p->pid)) <= 0)
		return -1;
	return proc_child_named(conmon, "runsc-gofer");
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
	p->bare = spec->bare;
	p->name = podman_new_name(ctx);
	p->journal = run_journal_object(ctx, PODMAN_KIND, p->name);
	push_run_args(ctx, "create", spec, p->name, 0, 0, &av);
	push_podman_runtime(&start, spec->runtime);
	strvec_push(&start, "start");
	strvec_push(&start, p->name);
	t0 = now_mono_ns();
	r = podman_cli(av.v + 1, timeout_ns, NULL, cause);
	if (r == 0)
		r = podman_cli(start.v + 1, timeout_ns, NULL, cause);
	*ns = now_mono_ns() - t0;
	p->start_ns = t0;
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
podman_undo(const char *target, char **cause)
{
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
 * Does rootful podman keep no container at all? Its store lists them in
 * containers.json ("[]" when none): a file read, where `podman ps` costs
 * a process and its lock (the runner sweeps after every command sample).
 */
static int
podman_has_none(void)
{
	char	*s;
	int	 none;

	if (getenv("ABBENCH_PODMAN") != NULL)
		return 0;	/* another CLI, another store */
	s = read_small_file(PODMAN_STORE "/overlay-containers/containers.json",
	    NULL);
	none = s != NULL && strcmp(strtrim(s), "[]") == 0;
	free(s);
	return none;
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
