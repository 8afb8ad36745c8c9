/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `checkpoint`: runsc checkpoint/restore of one idle container
 * per sample (an executor whose runtime steps checkpoint: oci, the arm's
 * runtime a runsc binary; image = the rootfs directory):
 *
 *   create + start from a bundle, wait `settle`,
 *   Checkpoint   `runsc checkpoint --image-path=NEW_DIR` (sec/op),
 *   delete       not timed: it waits for the sandbox to exit,
 *   Restore      `runsc restore --detach --image-path=DIR` (sec/op),
 *   the restored container must be running; after `restored-settle`
 *   RestoredNonReclaimableMem and RestoredAnonMem (B) from its cgroup.
 *
 * With docker = yes (needs the daemon's "experimental": true), the same
 * through docker: DockerCheckpoint (`docker checkpoint create`) and
 * DockerRestore (`docker start --checkpoint`), the arm's runtime used as
 * the docker runtime name (docker-runtime overrides it). Images, bundles,
 * containers and cgroups are removed at the end of every sample, also
 * when it fails.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/proccg.h"
#include "exec/context.h"
#include "workloads/lcmem.h"
#include "workloads/lifecycle.h"
#include "workloads/workload.h"

struct ckpt_opts {
	struct lc_opts	 lc;		/* first: lc_opts() */
	int64_t		 settle;
	int64_t		 restored_settle;
	int		 docker;
	char		*docker_image;
	char		*docker_runtime;
	char		*go_suffix;
};
#define CKPT(member)	OPT_AT(struct ckpt_opts, member)
/* What the daemon path (docker = yes) asks of its executor. */
#define CKPT_DAEMON_HOOKS	EXEC_HOOK_CHECKPOINT

static const struct opt_spec ckpt_opts[] = {
	OPT_DURATION("settle", CKPT(settle), "1s", 0, 3600,
	    "wait this long after start before the checkpoint",
	    .flags = OPT_ARM),
	OPT_DURATION("restored-settle", CKPT(restored_settle), "500ms", 0,
	    3600, "wait this long after restore before reading memory",
	    .flags = OPT_ARM),
	LC_IDLE_CMD_OPTS(struct ckpt_opts),
	OPT_BOOL("docker", CKPT(docker), "no",
	    "also checkpoint/restore through docker (experimental daemon)"),
	OPT_STR("docker-image", CKPT(docker_image), "abbench/tools",
	    "the image of the docker path"),
	OPT_STR("docker-runtime", CKPT(docker_runtime), NULL,
	    "docker runtime name of the docker path (default: the arm's "
	    "runtime without its directory)",
	    .flags = OPT_ARM),
	LC_NAME_TAGS_OPT(struct ckpt_opts),
	OPT_STR("go-suffix", CKPT(go_suffix), NULL,
	    "also store the oci path's times as gVisor's checkpoint rows "
	    "CheckpointSUFFIX and RestoreSUFFIX (Empty; Nginx with the "
	    "nginx rootfs and cmd = abbench-app nginx-serve)"),
	OPT_END
};

static int
ckpt_validate(const struct experiment *e, struct workload *wl, char **cause)
{
	const char	*lacks;

	(void)e;
	if (wl->exec == NULL || !(wl->exec->caps & EXEC_RUNTIME_STEPS))
		return set_cause(cause, "executor: checkpoint drives runsc "
		    "directly (executor = %s)", EXEC_DEFAULT_STEPS);
	if ((lacks = exec_missing(wl->exec, EXEC_HOOK_STEP_CHECKPOINT)) !=
	    NULL)
		return set_cause(cause, "executor: '%s' has no %s, which "
		    "checkpoint needs", wl->exec->name, lacks);
	if (((const struct ckpt_opts *)wl_opts(wl, NULL))->docker &&
	    exec_lookup_daemon(CKPT_DAEMON_HOOKS) == NULL)
		return set_cause(cause, "docker: no container daemon "
		    "executor has a checkpoint hook");
	return 0;
}

static void
ckpt_add(struct sample_result *out, const struct workload *wl,
    const struct arm *arm, const char *metric, const char *unit, double v)
{
	char	*name = lc_name(wl, arm, metric);

	sample_result_add(out, name, unit, v);
	free(name);
}

/* Memory of a cgroup directory (v1 memory controller or v2). */
static int
ckpt_mem(const char *dir, struct lcmem_cg *cg, char **cause)
{
	if (dir == NULL)
		return set_cause(cause, "no memory cgroup");
	return lcmem_cg_read(dir, cgrp_version(), cg, cause);
}

static int
ckpt_steps(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out, char **cause)
{
	const struct ckpt_opts	*o = wl_opts(wl, arm);
	const struct exec_ops	*ex = wl->exec;
	const struct exec_steps	*rt = ex->steps;
	struct exec_proc	*p = NULL;
	struct exec_spec	 spec;
	struct strvec		 cmd = STRVEC_INIT;
	struct lcmem_cg		 cg;
	const char		*dir;
	char			*img = NULL, *st = NULL, *cgdir = NULL, *c2;
	int64_t			 tck, trs, img_journal = -1;
	int			 r = -1;

	if ((dir = lc_workdir(ctx, wl, cause)) == NULL)
		return -1;
	lc_idle_cmd(wl, arm, &cmd);
	if (lc_steps_spec(ctx, wl, arm, cmd.v, &spec, cause) == -1 ||
	    rt->can_checkpoint(&spec, cause) == -1)
		goto done;
	if (rt->prepare(ctx, &spec, &p, cause) == -1 ||
	    rt->create(p, NULL, cause) == -1 ||
	    rt->start(p, NULL, cause) == -1)
		goto done;
	if (lc_sleep(ctx, o->settle) == -1) {
		set_cause(cause, "interrupted");
		goto done;
	}
	img = xasprintf("%s/%s.img", dir, rt->id(p));
	img_journal = run_journal_object(ctx, "dir", img);
	if (rt->checkpoint(p, img, 0, &tck, cause) == -1)
		goto done;
	/* Pitfall: this waits for the checkpointed sandbox to exit. */
	if (rt->delete(p, 0, NULL, cause) == -1)
		goto done;
	if (rt->restore(p, img, &trs, cause) == -1)
		goto done;
	if (rt->state(p, &st, NULL, cause) == -1)
		goto done;
	if (strcmp(st, "running") != 0) {
		set_cause(cause, "restored container '%s' is '%s', not "
		    "running", rt->id(p), st);
		goto done;
	}
	if (lc_sleep(ctx, o->restored_settle) == -1) {
		set_cause(cause, "interrupted");
		goto done;
	}
	cgdir = ex->cgroup_dir(p, cgrp_version() == 1 ? "memory" : NULL);
	if (ckpt_mem(cgdir, &cg, cause) == -1)
		goto done;
	ckpt_add(out, wl, arm, "Checkpoint", "sec/op", (double)tck / 1e9);
	ckpt_add(out, wl, arm, "Restore", "sec/op", (double)trs / 1e9);
	if (o->go_suffix != NULL) {
		const char	*sfx = o->go_suffix;
		char		*m = xasprintf("Checkpoint%s", sfx);
		char		*name = lc_name_go(wl, m);

		sample_result_add(out, name, "sec/op", (double)tck / 1e9);
		free(name);
		free(m);
		m = xasprintf("Restore%s", sfx);
		name = lc_name_go(wl, m);
		sample_result_add(out, name, "sec/op", (double)trs / 1e9);
		free(name);
		free(m);
	}
	ckpt_add(out, wl, arm, "RestoredNonReclaimableMem", "B",
	    (double)lcmem_nonreclaimable(&cg));
	ckpt_add(out, wl, arm, "RestoredAnonMem", "B", (double)cg.anon);
	r = 0;
done:
	if (p != NULL)
		ex->destroy(ctx, p);
	if (img != NULL) {
		c2 = NULL;
		if (rmtree(img, &c2) == -1)
			warning("%s", c2);
		else if (img_journal > 0)
			run_forget_object(ctx, img_journal);
		free(c2);
	}
	strvec_clear(&cmd);
	free(img);
	free(st);
	free(cgdir);
	return r;
}

static int
ckpt_daemon(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out, char **cause)
{
	const struct exec_ops	*ex;
	struct exec_proc	*p = NULL;
	struct exec_spec	 spec;
	struct strvec		 cmd = STRVEC_INIT;
	struct lcmem_cg		 cg;
	const struct ckpt_opts	*o = wl_opts(wl, arm);
	const char		*rt = o->docker_runtime;
	char			*cp = NULL, *dir = NULL, *text;
	int64_t			 t1 = 0, t2 = 0;
	long			 pid = 0;
	int			 r = -1;

	if ((ex = exec_lookup_daemon(CKPT_DAEMON_HOOKS)) == NULL)
		return set_cause(cause, "no container daemon executor can "
		    "checkpoint");
	if (rt == NULL && arm->runtime != NULL) {
		rt = strrchr(arm->runtime, '/');
		rt = rt != NULL ? rt + 1 : arm->runtime;
	}
	lc_idle_cmd(wl, arm, &cmd);
	memset(&spec, 0, sizeof spec);
	spec.argv = cmd.v;
	spec.name = wl->name;
	spec.runtime = rt;
	spec.image = o->docker_image;
	spec.cpus = arm->cpus;
	spec.memory = arm->memory;
	spec.detach = 1;
	if (ex->start(ctx, &spec, &p, cause) == -1)
		goto done;
	if (lc_sleep(ctx, o->settle) == -1) {
		set_cause(cause, "interrupted");
		goto done;
	}
	cp = xasprintf("cp%u", lc_state(wl)->counter++);
	if (ex->checkpoint(p, cp, lc_call_ns(ctx, EXEC_CALL_TIMEOUT_NS), &t1,
	    cause) == -1 ||
	    ex->restore(p, cp, lc_call_ns(ctx, EXEC_CALL_TIMEOUT_NS), &t2, &pid,
	    cause) == -1)
		goto done;
	if (lc_sleep(ctx, o->restored_settle) == -1) {
		set_cause(cause, "interrupted");
		goto done;
	}
	/* The restored sandbox is a new process: its cgroup. */
	if ((text = proccg_read(pid, NULL)) != NULL) {
		dir = proccg_dir(text, cgrp_version() == 1 ? "memory" : NULL);
		free(text);
	}
	if (ckpt_mem(dir, &cg, cause) == -1)
		goto done;
	ckpt_add(out, wl, arm, "DockerCheckpoint", "sec/op", (double)t1 / 1e9);
	ckpt_add(out, wl, arm, "DockerRestore", "sec/op", (double)t2 / 1e9);
	ckpt_add(out, wl, arm, "DockerRestoredNonReclaimableMem", "B",
	    (double)lcmem_nonreclaimable(&cg));
	r = 0;
done:
	if (p != NULL)
		ex->destroy(ctx, p);	/* rm -f: its checkpoints too */
	strvec_clear(&cmd);
	free(cp);
	free(dir);
	return r;
}

static void
ckpt_sample(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out)
{
	char	*cause = NULL;

	if (ckpt_steps(ctx, wl, arm, out, &cause) == -1 ||
	    (((const struct ckpt_opts *)wl_opts(wl, arm))->docker &&
	    ckpt_daemon(ctx, wl, arm, out, &cause) == -1))
		sample_result_fail(out, lc_past_deadline(ctx) ?
		    SAMPLE_STATUS_TIMEOUT : SAMPLE_STATUS_FAILED, "%s", cause);
	free(cause);
}

static void
ckpt_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	lc_cleanup(ctx, wl);
}

static const char *const ckpt_units[] = {
	"sec/op", "lower", "B", "lower", NULL
};

const struct workload_ops wl_checkpoint_ops = {
	.type = "checkpoint",
	.help = "runsc checkpoint/restore loop and the restored memory",
	.opts = ckpt_opts,
	.opts_size = sizeof(struct ckpt_opts),
	.default_exec = EXEC_DEFAULT_STEPS,
	.validate = ckpt_validate,
	.sample = ckpt_sample,
	.cleanup = ckpt_cleanup,
	.units = ckpt_units,
};
