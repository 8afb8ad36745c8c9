/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `idle-memory`: what an idle container costs the host. Per
 * sample, N idle containers of the arm's runtime are started one after
 * the other (DockerRunAll: the time for all N `docker run -d`, including
 * the executor's one `docker inspect` per container), left alone for
 * `settle`, then read from the host:
 *
 *   ContainerNonReclaimableMem  B, mean over the N containers: cgroup
 *                               usage - (file - shmem) - reclaimable slab
 *                               (lcmem.c explains the formula)
 *   ContainerAnonMem            B, mean: memory.stat anon (v1 total_rss)
 *   GoferMem, SandboxMem        runsc only, one value per container:
 *                               Pss-B, Pss_Anon-B (smaps_rollup), threads
 *
 * With size-benchmark = NAME (SizeEmpty, SizeNginx: gVisor's size_test
 * and usage_test rows) the sample also stores, as those tests name them:
 *
 *   NAME                        sec/op: the time to start one container
 *                               (DockerRunAll / N)
 *   NAME average_container_size.bytes: host MemAvailable before the
 *                               first start minus after settle, / N
 *   NAME average_container_memory_usage.bytes: cgroup usage, mean
 *
 * The idle program is touchmem (payload/idle/touchmem.c in the tools
 * image), which touches `touch` bytes and sleeps. quota = leaf gives each
 * container --cpus=quota-cpus; quota = parent puts that quota on a parent
 * cgroup made for each container (--cgroup-parent), as in the GOMAXPROCS
 * report (exec/quota.h). All containers and parents are removed at the
 * end of every sample, also when it fails.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/quota.h"
#include "exec/context.h"
#include "workloads/lcmem.h"
#include "workloads/lifecycle.h"
#include "workloads/workload.h"

struct idle_opts {
	struct lc_opts	 lc;		/* first: lc_opts() */
	int		 containers;
	int64_t		 settle;
	int		 quota;		/* enum quota_mode */
	double		 quota_cpus;
	char		*size_benchmark;
};
/* `quota` is bound as its index among "none leaf parent". */
_Static_assert(QUOTA_NONE == 0 && QUOTA_LEAF == 1 && QUOTA_PARENT == 2,
    "quota choices in enum quota_mode order");
#define IDLE(member)	OPT_AT(struct idle_opts, member)

/* What it asks of its daemon executor beyond start/wait/destroy. */
#define IDLE_HOOKS	(EXEC_HOOK_GOFER_PID | EXEC_HOOK_CONTAINER_NAME)

static const struct opt_spec idle_opts[] = {
	OPT_INT("containers", IDLE(containers), "10", 1, 1000,
	    "idle containers per sample",
	    .flags = OPT_ARM,
	    .text = LC_OFF(struct idle_opts, containers_text)),
	OPT_DURATION("settle", IDLE(settle), "10s", 0, 3600,
	    "wait this long after the last start before reading",
	    .flags = OPT_ARM),
	LC_IDLE_CMD_OPTS(struct idle_opts),
	OPT_CHOICE("quota", IDLE(quota), "none", "none leaf parent",
	    "CPU quota: none, on each container (leaf), or on a parent "
	    "cgroup of all of them (parent)",
	    .flags = OPT_ARM, .text = LC_OFF(struct idle_opts, quota_text)),
	OPT_FLOAT("quota-cpus", IDLE(quota_cpus), "0.25", 0.01, 1024,
	    "the quota in CPUs",
	    .flags = OPT_ARM),
	LC_NAME_TAGS_OPT(struct idle_opts),
	OPT_STR("size-benchmark", IDLE(size_benchmark), NULL,
	    "also store gVisor's size_test/usage_test rows under this name "
	    "(SizeEmpty, SizeNginx): sec/op per container start, "
	    "average_container_size.bytes (host MemAvailable drop per "
	    "container), average_container_memory_usage.bytes"),
	OPT_END
};

static int
idle_validate(const struct experiment *e, struct workload *wl, char **cause)
{
	enum quota_mode	 m;
	size_t		 j;
	const char	*lacks;

	if (wl->exec == NULL || !(wl->exec->caps & EXEC_DAEMON))
		return set_cause(cause, "executor: idle-memory runs "
		    "containers of a daemon (executor = %s)",
		    exec_lookup_daemon(IDLE_HOOKS) != NULL ?
		    exec_lookup_daemon(IDLE_HOOKS)->name : "none");
	if ((lacks = exec_missing(wl->exec, IDLE_HOOKS)) != NULL)
		return set_cause(cause, "executor: '%s' has no %s hook, which "
		    "idle-memory needs", wl->exec->name, lacks);
	for (j = 0; j < e->narms; j++) {
		m = (enum quota_mode)((const struct idle_opts *)wl_opts(wl,
		    &e->arms[j]))->quota;
		if (quota_check_executor(m, wl->exec, cause) == -1)
			return -1;
		/* Its CPU limits are the quota's: an arm's cpu would be lost. */
		if (e->arms[j].cpus > 0)
			return set_cause(cause, "cpu: arm '%s' sets a CPU limit, "
			    "which idle-memory does not apply: use quota = leaf "
			    "(or parent) and quota-cpus", e->arms[j].name);
	}
	return 0;
}

/* MemAvailable of /proc/meminfo in bytes, or -1. */
static long long
idle_mem_available(void)
{
	char		*t = read_file("/proc/meminfo", NULL, NULL);
	const char	*p;
	long long	 kb = -1;

	if (t != NULL && (p = strstr(t, "MemAvailable:")) != NULL)
		kb = strtoll(p + 13, NULL, 10);
	free(t);
	return kb >= 0 ? kb * 1024 : -1;
}

/* Is pid a runsc sandbox (argv[0] runsc-sandbox)? */
static int
idle_is_sandbox(long pid)
{
	char	 path[64], buf[256];
	FILE	*f;
	size_t	 n;

	snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n > 0 && lcmem_cmdline_match(buf, n + 1, "runsc-sandbox",
	    NULL);
}

static void
idle_add_proc(struct sample_result *out, const struct workload *wl,
    const struct arm *arm, const char *metric, const struct lcmem_proc *p)
{
	char	*name = lc_name(wl, arm, metric);

	sample_result_add(out, name, "Pss-B", (double)p->pss);
	sample_result_add(out, name, "Pss_Anon-B", (double)p->pss_anon);
	if (p->threads > 0)
		sample_result_add(out, name, "threads", (double)p->threads);
	free(name);
}

static void
idle_sample(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out)
{
	const struct idle_opts	 *o = wl_opts(wl, arm);
	struct exec_proc	**procs;
	struct exec_spec	  spec;
	struct strvec		  cmd = STRVEC_INIT;
	struct quota		  q;
	enum quota_mode		  qmode = QUOTA_NONE;
	int			  qset = 0;
	const char		 *quota = o->lc.quota_text;
	double			  qcpus = o->quota_cpus;
	long			  n = o->containers;
	int			  version = cgrp_version();
	char			 *cause = NULL, *qtag = NULL, *name;
	int64_t			  t0, t1;
	double			  nonrecl = 0, anon = 0, usage = 0;
	long long		  avail0 = -1, avail1 = -1;
	const char		 *sizeb = o->size_benchmark;
	long			  i, started = 0;

	procs = xcalloc((size_t)n, sizeof *procs);
	memset(&q, 0, sizeof q);
	lc_idle_cmd(wl, arm, &cmd);
	workload_spec_init(&spec, wl, arm, cmd.v);
	spec.detach = 1;
	qtag = lc_new_id(ctx, wl, "q");
	if (quota_mode_parse(quota, &qmode, &cause) == -1 ||
	    quota_setup(ctx, &q, qmode, qcpus, CGRP_CFS_PERIOD_US, (size_t)n, qtag,
	    &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "quota: %s",
		    cause);
		goto done;
	}
	qset = 1;
	avail0 = idle_mem_available();
	t0 = now_mono_ns();
	for (i = 0; i < n; i++) {
		quota_apply_spec(&q, (size_t)i, &spec);
		if (wl->exec->start(ctx, &spec, &procs[i], &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "container %ld of %ld: %s", i + 1, n, cause);
			goto done;
		}
		started++;
		if (run_should_stop(ctx))
			goto stopped;
	}
	t1 = now_mono_ns();
	if (lc_sleep(ctx, o->settle) == -1)
		goto stopped;
	avail1 = idle_mem_available();

	for (i = 0; i < n; i++) {
		struct lcmem_cg		 cg;
		struct lcmem_proc	 pm;
		char			*dir;
		long			 sb, gofer;

		dir = wl->exec->cgroup_dir(procs[i], version == 1 ?
		    "memory" : NULL);
		if (dir == NULL) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "no memory cgroup for container %ld (did it "
			    "exit?)", i + 1);
			goto done;
		}
		if (lcmem_cg_read(dir, version, &cg, &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s",
			    cause);
			free(dir);
			goto done;
		}
		free(dir);
		nonrecl += (double)lcmem_nonreclaimable(&cg);
		anon += (double)cg.anon;
		usage += (double)cg.usage;
		sb = wl->exec->pid(procs[i]);
		if (sb <= 0 || !idle_is_sandbox(sb))
			continue;	/* not runsc: no gofer, no sandbox */
		gofer = wl->exec->gofer_pid(procs[i]);
		if (gofer <= 0) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "runsc container '%s': no runsc-gofer process",
			    wl->exec->container_name(procs[i]));
			goto done;
		}
		if (lcmem_proc_read(gofer, &pm, &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "gofer: %s", cause);
			goto done;
		}
		idle_add_proc(out, wl, arm, "GoferMem", &pm);
		if (lcmem_proc_read(sb, &pm, &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "sandbox: %s", cause);
			goto done;
		}
		idle_add_proc(out, wl, arm, "SandboxMem", &pm);
	}
	name = lc_name(wl, arm, "DockerRunAll");
	sample_result_add(out, name, "sec/op", (double)(t1 - t0) / 1e9);
	free(name);
	name = lc_name(wl, arm, "ContainerNonReclaimableMem");
	sample_result_add(out, name, "B", nonrecl / (double)n);
	free(name);
	name = lc_name(wl, arm, "ContainerAnonMem");
	sample_result_add(out, name, "B", anon / (double)n);
	free(name);
	if (sizeb != NULL) {
		name = lc_name_go(wl, sizeb);
		sample_result_add(out, name, "sec/op",
		    (double)(t1 - t0) / 1e9 / (double)n);
		if (avail0 >= 0 && avail1 >= 0)
			sample_result_add(out, name,
			    "average_container_size.bytes",
			    (double)(avail0 - avail1) / (double)n);
		sample_result_add(out, name,
		    "average_container_memory_usage.bytes", usage / (double)n);
		free(name);
	}
	goto done;
stopped:
	sample_result_fail(out, SAMPLE_STATUS_FAILED, "interrupted");
done:
	for (i = 0; i < started; i++)
		wl->exec->destroy(ctx, procs[i]);
	free(cause);
	cause = NULL;
	if (qset && quota_release(ctx, &q, &cause) == -1)
		warning("%s", cause);
	free(qtag);
	free(procs);
	free(cause);
	strvec_clear(&cmd);
}

static void
idle_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	lc_cleanup(ctx, wl);
}

static const char *const idle_units[] = {
	"sec/op", "lower", "B", "lower", "Pss-B", "lower",
	"Pss_Anon-B", "lower", "threads", "lower",
	"average_container_size.bytes", "lower",
	"average_container_memory_usage.bytes", "lower", NULL
};

const struct workload_ops wl_idle_memory_ops = {
	.type = "idle-memory",
	.help = "memory of N idle containers: cgroup, gofer and sandbox PSS",
	.opts = idle_opts,
	.opts_size = sizeof(struct idle_opts),
	.default_exec = EXEC_DEFAULT_DAEMON,
	.validate = idle_validate,
	.sample = idle_sample,
	.cleanup = idle_cleanup,
	.units = idle_units,
};
