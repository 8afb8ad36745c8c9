/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `startup`: how long a container takes to start, per arm's
 * runtime.
 *
 *   executor docker (default)
 *     DockerRun     `docker run --rm IMAGE CMD` end to end (the CLI call)
 *     StartupEmpty  `docker create` + `docker start` (returns once the
 *                   container runs; waiting and removal are not timed)
 *   an executor with runtime steps (EXEC_RUNTIME_STEPS: oci, crun;
 *   runtime = an OCI runtime binary, image = a rootfs dir)
 *     OCICreate, OCIStart, OCIDelete  each runtime call
 *     OCITotal      create + start + until CMD has exited + delete
 *
 * Every container is journaled before it exists and removed after the
 * sample, also when a call fails.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "workloads/lifecycle.h"
#include "workloads/workload.h"

#define STARTUP_DEFAULT_IMAGE	"abbench/tools"

struct startup_opts {
	struct lc_opts	 lc;		/* first: lc_opts() */
	struct strvec	 measure;
	char		*benchmark;
};
#define STARTUP(member)	OPT_AT(struct startup_opts, member)

static const struct opt_spec startup_opts[] = {
	OPT_WORDS("cmd", LC_OFF(struct startup_opts, cmd), "true",
	    "the container's program and arguments",
	    .flags = OPT_ARM),
	OPT_WORDS("measure", STARTUP(measure), "run create-start",
	    "docker: run (DockerRun) and/or create-start (StartupEmpty)"),
	LC_NAME_TAGS_OPT(struct startup_opts),
	OPT_STR("benchmark", STARTUP(benchmark), NULL,
	    "docker: store the run measure as this gVisor startup_test row "
	    "instead of DockerRun (StartupNginx with image abbench/nginx "
	    "and cmd = abbench-app nginx-up, which exits once nginx "
	    "listens)"),
	OPT_END
};

static int
startup_measures(const struct workload *wl, const char *what)
{
	const struct startup_opts	*o = wl_opts(wl, NULL);

	return strvec_has(&o->measure, what);
}

static int
startup_validate(const struct experiment *e, struct workload *wl,
    char **cause)
{
	const struct startup_opts	*o = wl_opts(wl, NULL);
	const struct strvec		*sv = &o->measure;
	const char			*lacks;
	size_t				 i;
	int				 hooks = 0;

	(void)e;
	for (i = 0; i < sv->n; i++) {
		if (strcmp(sv->v[i], "run") != 0 &&
		    strcmp(sv->v[i], "create-start") != 0)
			return set_cause(cause, "measure: unknown '%s' (use "
			    "run, create-start)", sv->v[i]);
	}
	if (wl->exec != NULL && !(wl->exec->caps & EXEC_CONTAINER))
		return set_cause(cause, "executor: '%s' has no container to "
		    "start (use %s or %s)", wl->exec->name,
		    EXEC_DEFAULT_DAEMON, EXEC_DEFAULT_STEPS);
	if (wl->exec == NULL || (wl->exec->caps & EXEC_RUNTIME_STEPS))
		return 0;
	/* A daemon's: run --rm and create + start are its hooks. */
	if (startup_measures(wl, "run"))
		hooks |= EXEC_HOOK_RUN_ONCE;
	if (startup_measures(wl, "create-start"))
		hooks |= EXEC_HOOK_CREATE_START;
	if ((lacks = exec_missing(wl->exec, hooks)) != NULL)
		return set_cause(cause, "executor: '%s' has no %s hook, which "
		    "startup's measure needs", wl->exec->name, lacks);
	return 0;
}

static void
startup_add(struct sample_result *out, const struct workload *wl,
    const struct arm *arm, const char *metric, int64_t ns)
{
	/* StartupEmpty (or `benchmark`) is a gVisor startup_test row: no
	 * harness tags. */
	const struct startup_opts *o = wl_opts(wl, arm);
	const char *b = o->benchmark;
	char	*name = strcmp(metric, "StartupEmpty") == 0 ||
		    (b != NULL && strcmp(metric, b) == 0) ?
		    lc_name_go(wl, metric) : lc_name(wl, arm, metric);

	sample_result_add(out, name, "sec/op", (double)ns / 1e9);
	free(name);
}

/* A daemon's container of the arm: as a plain `run` makes it. */
static void
startup_spec(const struct workload *wl, const struct arm *arm,
    char *const *cmd, struct exec_spec *spec)
{
	memset(spec, 0, sizeof *spec);
	spec->argv = cmd;
	spec->runtime = arm->runtime;
	spec->image = wl->common.image != NULL ? wl->common.image :
	    STARTUP_DEFAULT_IMAGE;
	spec->cpus = arm->cpus;
	spec->memory = arm->memory;
	spec->bare = 1;
}

static int
startup_daemon(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out, char **cause)
{
	const struct exec_ops	*ex = wl->exec;
	const struct startup_opts *o = wl_opts(wl, arm);
	struct strvec		 cmd = STRVEC_INIT;
	struct exec_spec	 spec;
	struct exec_status	 st;
	struct exec_proc	*p = NULL;
	char			*c = NULL;
	int64_t			 ns;
	int			 r = 0;

	strvec_pushv(&cmd, o->lc.cmd.v);
	startup_spec(wl, arm, cmd.v, &spec);
	if (startup_measures(wl, "run")) {
		r = ex->run_once(ctx, &spec, lc_call_ns(ctx,
		    EXEC_CALL_TIMEOUT_NS), &ns, cause);
		if (r == -1)
			goto done;
		startup_add(out, wl, arm, o->benchmark != NULL ?
		    o->benchmark : "DockerRun", ns);
	}
	if (startup_measures(wl, "create-start")) {
		r = ex->create_start(ctx, &spec, lc_call_ns(ctx,
		    EXEC_CALL_TIMEOUT_NS), &p, &ns, cause);
		if (r == -1)
			goto done;
		/* Not timed: let it finish before removing it. */
		if (ex->wait(ctx, p, now_mono_ns() + lc_call_ns(ctx,
		    EXEC_CALL_TIMEOUT_NS), &st, &c) == -1 || st.timed_out) {
			r = lc_past_deadline(ctx) ? -1 : 0;
			if (r == -1)
				set_cause(cause, "the container still ran at "
				    "the sample's timeout: %s", c != NULL ? c :
				    "timed out");
			else if (c != NULL)
				warning("%s", c);
			free(c);
		}
		exec_status_release(&st);
		ex->destroy(ctx, p);
		if (r == -1)
			goto done;
		startup_add(out, wl, arm, "StartupEmpty", ns);
	}
done:
	strvec_clear(&cmd);
	return r;
}

/* The runtime's steps, each timed (OCICreate...: the rows of oci's). */
static int
startup_steps(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out, char **cause)
{
	const struct exec_ops	*ex = wl->exec;
	const struct exec_steps	*rt = ex->steps;
	struct exec_proc	*p = NULL;
	struct exec_spec	 spec;
	struct strvec		 cmd = STRVEC_INIT;
	int64_t			 tcreate, tstart, tdelete, t0, t1;
	int64_t			 deadline;
	int			 r = -1;

	strvec_pushv(&cmd, lc_opts(wl, arm)->cmd.v);
	if (lc_steps_spec(ctx, wl, arm, cmd.v, &spec, cause) == -1 ||
	    rt->prepare(ctx, &spec, &p, cause) == -1)
		goto done;
	/* create learns the container's pid (not timed). */
	if (rt->create(p, &tcreate, cause) == -1 ||
	    rt->start(p, &tstart, cause) == -1)
		goto done;
	t0 = now_mono_ns();
	deadline = ctx->deadline_ns > 0 ? ctx->deadline_ns :
	    t0 + EXEC_CALL_TIMEOUT_NS;
	if (rt->wait_exit(p, deadline, cause) == -1)
		goto done;
	t1 = now_mono_ns();
	if (rt->delete(p, 0, &tdelete, cause) == -1)
		goto done;
	startup_add(out, wl, arm, "OCICreate", tcreate);
	startup_add(out, wl, arm, "OCIStart", tstart);
	startup_add(out, wl, arm, "OCIDelete", tdelete);
	startup_add(out, wl, arm, "OCITotal",
	    tcreate + tstart + (t1 - t0) + tdelete);
	r = 0;
done:
	if (p != NULL)
		ex->destroy(ctx, p);
	strvec_clear(&cmd);
	return r;
}

static void
startup_sample(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out)
{
	char	*cause = NULL;
	int	 r;

	if (wl->exec->caps & EXEC_RUNTIME_STEPS)
		r = startup_steps(ctx, wl, arm, out, &cause);
	else
		r = startup_daemon(ctx, wl, arm, out, &cause);
	if (r == -1)
		sample_result_fail(out, lc_past_deadline(ctx) ?
		    SAMPLE_STATUS_TIMEOUT : SAMPLE_STATUS_FAILED, "%s", cause);
	free(cause);
}

static void
startup_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	lc_cleanup(ctx, wl);
}

static const char *const startup_units[] = { "sec/op", "lower", NULL };

const struct workload_ops wl_startup_ops = {
	.type = "startup",
	.help = "container start time: docker run, create+start, OCI calls",
	.opts = startup_opts,
	.opts_size = sizeof(struct startup_opts),
	.default_exec = EXEC_DEFAULT_DAEMON,
	.validate = startup_validate,
	.sample = startup_sample,
	.cleanup = startup_cleanup,
	.units = startup_units,
};
