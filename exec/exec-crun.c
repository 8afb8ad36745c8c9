/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The crun executor (`executor = crun`): crun (Debian's package, C, no
 * Go runtime to start) driven step by step, a second runtime-level
 * executor beside oci. What is crun's is here: its binary is the runtime
 * when an arm names none, and it names the samples' runtime "crun". The
 * bundle, the verbs and their journal are abbench's one layer over OCI
 * runtimes (exec-oci.h), which drives any runc-compatible binary; this
 * file, its entry in exec_types[] and Makefile.am are all a new runtime
 * needed (no file of workloads/ names it: they ask for capabilities).
 *
 * Debian's crun is built without CRIU, so it has no checkpoint step: the
 * checkpoint workload refuses it when the file is loaded.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exec/barrier.h"
#include "exec/cgroup.h"
#include "exec/exec-oci.h"
#include "exec/exec.h"

#define CRUN_RUNTIME	"crun"
/* A v1 host's cgroup2 mount (a hybrid host when it holds controllers). */
#define CRUN_UNIFIED	"/sys/fs/cgroup/unified/cgroup.controllers"

extern const struct exec_ops exec_oci_ops;

/* spec with crun as its runtime when it names none. */
static struct exec_spec
crun_spec(const struct exec_spec *spec)
{
	struct exec_spec	s = *spec;

	if (s.runtime == NULL)
		s.runtime = CRUN_RUNTIME;
	return s;
}

static int
crun_check(struct run_ctx *ctx, const struct exec_check *chk, char **cause)
{
	struct exec_check	 c = *chk;
	const char		**rt = xcalloc(chk->narms + 1, sizeof *rt);
	size_t			 i;
	int			 r;

	/* crun refuses every container there ("cgroups in hybrid mode
	 * not supported"): say so once, before the first sample. */
	if (cgrp_version() == 1) {
		char	*ctl = read_file(CRUN_UNIFIED, NULL, NULL);
		int	 hybrid = ctl != NULL && strspn(ctl, " \n") <
			    strlen(ctl);

		if (hybrid)
			set_cause(cause, "crun cannot run on this host: its "
			    "cgroup2 hierarchy has controllers (%.*s) beside "
			    "v1's (hybrid mode); use executor = oci",
			    (int)strcspn(ctl, "\n"), ctl);
		free(ctl);
		if (hybrid) {
			free(rt);
			return -1;
		}
	}
	for (i = 0; i < chk->narms; i++)
		rt[i] = chk->runtimes != NULL && chk->runtimes[i] != NULL ?
		    chk->runtimes[i] : CRUN_RUNTIME;
	c.runtimes = rt;
	r = exec_oci_ops.check(ctx, &c, cause);
	free(rt);
	return r;
}

static int
crun_prepare(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **proc, char **cause)
{
	struct exec_spec	s = crun_spec(spec);

	return oci_prepare(ctx, &s, proc, cause);
}

static int
crun_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **proc, char **cause)
{
	struct exec_spec	s = crun_spec(spec);

	return exec_oci_ops.start(ctx, &s, proc, cause);
}

static int
crun_wait(struct run_ctx *ctx, struct exec_proc *proc, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	return exec_oci_ops.wait(ctx, proc, deadline_ns, st, cause);
}

static void
crun_destroy(struct run_ctx *ctx, struct exec_proc *proc)
{
	exec_oci_ops.destroy(ctx, proc);
}

static char *
crun_cgroup_dir(struct exec_proc *proc, const char *controller)
{
	return exec_oci_ops.cgroup_dir(proc, controller);
}

static long
crun_pid(struct exec_proc *proc)
{
	return exec_oci_ops.pid(proc);
}

static const char *
crun_peek(struct exec_proc *proc)
{
	return exec_oci_ops.peek(proc);
}

static int
crun_signal(struct exec_proc *proc, int sig, char **cause)
{
	return exec_oci_ops.signal(proc, sig, cause);
}

static const struct exec_steps crun_steps = {
	.prepare = crun_prepare,
	.create = oci_create,
	.start = oci_start,
	.state = oci_state,
	.wait_exit = oci_wait_exit,
	.delete = oci_delete,
	.id = oci_id,
};

/* Its containers are the OCI layer's ("oci-container"): oci undoes them. */
const struct exec_ops exec_crun_ops = {
	.name = "crun",
	.caps = EXEC_CONTAINER | EXEC_RUNTIME_STEPS | EXEC_CGROUP_PARENT |
	    EXEC_ROOT,
	.runtime_label = CRUN_RUNTIME,
	.check = crun_check,
	.steps = &crun_steps,
	.start = crun_start,
	.wait = crun_wait,
	.destroy = crun_destroy,
	.cgroup_dir = crun_cgroup_dir,
	.pid = crun_pid,
	.peek = crun_peek,
	.signal = crun_signal,
	.barrier_join = exec_barrier_join_sandbox,
};
