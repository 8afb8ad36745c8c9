/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The container daemons' CLI core (daemon-cli.h): docker's and podman's
 * calls written once, each with a timeout (pitfall 1), their container's
 * pid and cgroups read from /proc while it runs (pitfall 5: the daemon
 * removes the cgroups when it exits).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/context.h"
#include "exec/daemon-cli.h"
#include "exec/proccg.h"
#include "lib/proc.h"

int
dcli_call(const struct dcli *d, char *const *args, int64_t timeout_ns,
    char **out, char **cause)
{
	struct strvec	 argv = STRVEC_INIT;
	char		*o = NULL, *e = NULL, *how, *c = NULL;
	int		 status = -1, r;

	strvec_push(&argv, d->bin());
	strvec_pushv(&argv, args);
	r = spawn_capture(argv.v, timeout_ns, &o, &e, &status, &c);
	if (r == -1) {
		set_cause(cause, "'%s %s' failed: %s", d->name, args[0], c);
		free(c);
	} else if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'%s %s' %s: %s", d->name, args[0], how,
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

int
dcli_do(const struct dcli *d, int64_t timeout_ns, char **out, char **cause,
    const char *a0, const char *a1, const char *a2, const char *a3,
    const char *a4)
{
	const char	*args[] = { a0, a1, a2, a3, a4, NULL };

	return dcli_call(d, (char *const *)args, timeout_ns, out, cause);
}

/*
 * "PID/BOOT_ID:START" of this process (proc_start_id), for the label
 * abbench.owner: `abbench restore` removes a labelled container whose
 * owner is gone, journaled or not (a kill -9 between the daemon's create
 * and the journal, or a sweep that ran before the daemon finished).
 */
static const char *
dcli_owner(void)
{
	static char	*owner;
	static pid_t	 of;
	char		*start;

	if (owner == NULL || of != getpid()) {
		free(owner);
		of = getpid();
		start = proc_start_id((long)of);
		owner = xasprintf("%ld/%s", (long)of, start != NULL ? start :
		    "");
		free(start);
	}
	return owner;
}

void
dcli_push_head(struct strvec *av, const struct run_ctx *ctx,
    const char *verb, const struct exec_spec *spec, const char *name,
    int detach)
{
	strvec_push(av, verb);
	if (detach)
		strvec_push(av, "-d");
	strvec_push(av, "--name");
	strvec_push(av, name);
	strvec_pushf(av, "--label=abbench.run=%s",
	    ctx != NULL && ctx->run_uuid[0] ? ctx->run_uuid : "none");
	strvec_pushf(av, "--label=abbench.owner=%s", dcli_owner());
	if (spec->name != NULL && !spec->bare)
		strvec_pushf(av, "--label=abbench.workload=%s", spec->name);
}

void
dcli_push_limits(struct strvec *av, const struct exec_spec *spec)
{
	if (spec->cpus > 0)
		strvec_pushf(av, "--cpus=%g", spec->cpus);
	if (spec->memory > 0)
		strvec_pushf(av, "--memory=%llu",
		    (unsigned long long)spec->memory);
}

void
dcli_push_mounts_env(struct strvec *av, const struct exec_spec *spec)
{
	size_t	i;

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
}

void
dcli_proc_init(struct dcli_proc *p, const struct exec_spec *spec)
{
	p->attached = !spec->detach;
	p->capture = spec->capture;
	p->on_out = spec->capture ? spec->on_out : NULL;
	p->on_out_arg = spec->on_out_arg;
	p->bare = spec->bare;
}

int
dcli_start(const struct dcli *d, const struct run_ctx *ctx,
    struct dcli_proc *p, struct strvec *av, char **cause)
{
	char	*out = NULL, *err = NULL, *c = NULL, *how;
	int	 status = -1, r = -1;
	int64_t	 limit;

	p->start_ns = now_mono_ns();
	if (p->attached) {
		p->cli_argv = *av;
		memset(av, 0, sizeof *av);
		p->cli.argv = p->cli_argv.v;
		p->cli.flags = SPAWN_CAPTURE_ERR | (p->capture ?
		    SPAWN_CAPTURE_OUT : SPAWN_NULL_OUT);
		p->cli.on_out = p->on_out;
		p->cli.on_out_arg = p->on_out_arg;
		return spawn_start(&p->cli, cause);
	}
	limit = DCLI_RUN_TIMEOUT_NS;
	if (ctx != NULL && ctx->deadline_ns > 0 &&
	    ctx->deadline_ns - now_mono_ns() < limit)
		limit = ctx->deadline_ns - now_mono_ns();
	if (limit < NSEC_PER_SEC)
		limit = NSEC_PER_SEC;
	if (spawn_capture(av->v, limit, &out, &err, &status, &c) == -1) {
		set_cause(cause, "'%s run' of '%s' failed: %s", d->name,
		    p->name, c);
		free(c);
	} else if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'%s run' of '%s' %s: %s", d->name, p->name,
		    how, strtrim(err));
		free(how);
	} else
		r = 0;
	free(out);
	free(err);
	strvec_clear(av);
	if (r == 0)
		dcli_learn_pid(d, p);
	return r;
}

void
dcli_learn_pid(const struct dcli *d, struct dcli_proc *p)
{
	int64_t			 until = now_mono_ns() + (p->attached ? 30 :
				    0) * NSEC_PER_SEC;
	char			*out = NULL, state[32];
	const char *const	*s;
	int			 waiting;

	while (p->pid <= 0) {
		if (dcli_do(d, EXEC_CALL_TIMEOUT_NS, &out, NULL, "inspect",
		    "--format", "{{.State.Pid}} {{.State.Status}}", p->name,
		    NULL) == 0) {
			state[0] = '\0';
			if (sscanf(out, "%ld %31s", &p->pid, state) < 1)
				p->pid = 0;
			free(out);
			out = NULL;
			for (s = d->not_started, waiting = 0; *s != NULL &&
			    !waiting; s++)
				waiting = strcmp(state, *s) == 0;
			if (p->pid <= 0 && !waiting)
				break;	/* exited (or dead) */
		}
		if (p->pid > 0 || now_mono_ns() >= until)
			break;
		usleep(50000);
	}
	if (p->pid > 0 && p->cgroup_text == NULL)
		p->cgroup_text = proccg_read(p->pid, NULL);
}

/* What a detached container printed (`logs`), unless bare. */
static void
dcli_collect_logs(const struct dcli *d, struct dcli_proc *p,
    struct exec_status *st)
{
	const char	*args[] = { d->bin(), "logs", p->name, NULL };
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

int
dcli_wait(const struct dcli *d, struct dcli_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	struct child	 w;
	const char	*args[4];
	int		 code;

	memset(st, 0, sizeof *st);
	st->status = -1;
	st->start_ns = p->start_ns;
	if (deadline_ns <= 0)
		deadline_ns = now_mono_ns() + DCLI_NO_DEADLINE_NS;
	if (p->attached) {
		dcli_learn_pid(d, p);
		if (spawn_wait(&p->cli, deadline_ns, cause) == -1)
			return -1;
		st->end_ns = p->cli.end_ns;
		if (p->cli.timed_out) {
			st->timed_out = 1;
			(void)dcli_do(d, EXEC_CALL_TIMEOUT_NS, NULL, NULL,
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
	args[0] = d->bin();
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
		(void)dcli_do(d, EXEC_CALL_TIMEOUT_NS, NULL, NULL, "kill",
		    p->name, NULL, NULL, NULL);
	} else if (w.status != 0 || w.out.buf == NULL ||
	    sscanf(w.out.buf, "%d", &code) != 1) {
		set_cause(cause, "'%s wait %s' failed: %s", d->name, p->name,
		    w.err.buf ? strtrim(w.err.buf) : "no output");
		spawn_release(&w);
		return -1;
	} else
		st->status = (code & 0xff) << 8;
	spawn_release(&w);
	dcli_collect_logs(d, p, st);
	return 0;
}

void
dcli_proc_release(struct dcli_proc *p)
{
	if (p->attached) {
		spawn_release(&p->cli);
		strvec_clear(&p->cli_argv);
	}
}

char *
dcli_cgroup_dir(const struct dcli *d, struct dcli_proc *p,
    const char *controller)
{
	if (p->cgroup_text == NULL)
		dcli_learn_pid(d, p);
	if (p->cgroup_text == NULL)
		return NULL;
	return proccg_dir(p->cgroup_text, controller);
}

long
dcli_pid(const struct dcli *d, struct dcli_proc *p)
{
	dcli_learn_pid(d, p);
	return p->pid > 0 ? p->pid : -1;
}

long
dcli_gofer_pid(const struct dcli *d, struct dcli_proc *p)
{
	long	shim;

	/* Pitfall 11: the gofer is the sandbox's sibling under the shim. */
	if (dcli_pid(d, p) <= 0 || (shim = proc_ppid(p->pid)) <= 0)
		return -1;
	return proc_child_named(shim, "runsc-gofer");
}

int
dcli_exec_into(const struct dcli *d, struct dcli_proc *p, char *const *argv,
    int64_t timeout_ns, char **out, int *status, char **cause)
{
	struct strvec	 av = STRVEC_INIT;
	char		*o = NULL, *e = NULL;
	int		 r;

	strvec_push(&av, d->bin());
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

int
dcli_logs(const struct dcli *d, struct dcli_proc *p, int64_t timeout_ns,
    char **out, char **cause)
{
	char	*args[] = { "logs", p->name, NULL };

	return dcli_call(d, args, timeout_ns, out, cause);
}

char *
dcli_new_name(const struct run_ctx *ctx, const char *sep, unsigned *counter)
{
	if (ctx != NULL && ctx->cgroup_name[0] != '\0')
		return xasprintf("%s-%s%u", ctx->cgroup_name, sep,
		    (*counter)++);
	return xasprintf("abbench-%ld-%s%u", (long)getpid(), sep,
	    (*counter)++);
}
