/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The quota setups on cgroup v2, against a directory laid out like a
 * cgroup2 tree (a MOCK tree). The real v2 kernel runs these paths in t0750
 * (scripts/v2-guest, root and qemu); what stays here is what a kernel
 * cannot be made to show: exact counter values (cpu.stat's periods,
 * throttled_usec in ns), a 50 ms period's cpu.max, without root or qemu. The code above the
 * controller files is the one v1 runs: quota_setup makes the parents with
 * cgrp_create, writes the limit with cgrp_set_cpu_limit (cpu.max), and the
 * workload reads usage and throttling with cgrp_dir_cpu_usage/_stat. The
 * test plays the kernel: it makes the pseudo-files, fills cpu.stat, and
 * removes them before the cgroups are removed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/quota.h"
#include "harness/core/runner.h"
#include "tests/unit/tap.h"

static void
put(const char *dir, const char *file, const char *text)
{
	char	 path[512];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((f = fopen(path, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static char *
get(const char *dir, const char *file)
{
	char	path[512];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return read_small_file(path, NULL);
}

/* The kernel's side: a cgroup directory with its files. */
static void
kernel_mkcg(const char *dir)
{
	mkdir(dir, 0755);
	put(dir, "cgroup.procs", "");
	put(dir, "cgroup.subtree_control", "");
	/* What the parent gives: all of it, here. */
	put(dir, "cgroup.controllers", "cpu io memory pids\n");
	put(dir, "cpu.max", "max 100000\n");
	put(dir, "cpu.stat", "usage_usec 0\nnr_periods 0\nnr_throttled 0\n"
	    "throttled_usec 0\n");
}

static void
kernel_rmfiles(const char *dir)
{
	static const char *const f[] = { "cgroup.procs", "cgroup.controllers",
	    "cgroup.subtree_control", "cpu.max", "cpu.stat", NULL };
	char	path[512];
	int	i;

	for (i = 0; f[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, f[i]);
		unlink(path);
	}
}

int
main(void)
{
	char			 root[] = "/tmp/abbench-v2-mock-XXXXXX";
	char			 run[600], p0[700], p1[700], *v, *cause = NULL;
	struct run_ctx		 ctx;
	struct quota		 q;
	struct exec_spec	 spec;
	struct cgrp_cpu_stat	 st;
	uint64_t		 ns = 0;
	char			*td;

	if (mkdtemp(root) == NULL) {
		printf("1..0 # SKIP cannot make a temporary directory\n");
		return 0;
	}
	setenv("ABBENCH_CGROUP_ROOT", root, 1);
	setenv("ABBENCH_CGROUP_VERSION", "2", 1);
	memset(&ctx, 0, sizeof ctx);
	snprintf(ctx.cgroup_name, sizeof ctx.cgroup_name, "abbench-mock");
	put(root, "cgroup.subtree_control", "");
	put(root, "cgroup.controllers", "cpu io memory pids\n");
	snprintf(run, sizeof run, "%s/abbench-mock", root);
	snprintf(p0, sizeof p0, "%s/cs0-p0", run);
	snprintf(p1, sizeof p1, "%s/cs0-p1", run);
	kernel_mkcg(run);
	kernel_mkcg(p0);
	kernel_mkcg(p1);

	tap_int_eq(cgrp_version(), 2, "the mock tree is cgroup v2");
	tap_int_eq(quota_setup(&ctx, &q, QUOTA_PARENT, 0.25, 100000, 2, "cs0",
	    &cause), 0, "parent quota for 2 sandboxes");
	if (cause != NULL)
		TAP_DIAG("%s", cause);
	v = get(p0, "cpu.max");
	tap_str_eq(v, "25000 100000", "parent 0 holds cpu.max 0.25 CPU");
	free(v);
	v = get(p1, "cpu.max");
	tap_str_eq(v, "25000 100000", "parent 1 too");
	free(v);
	v = get(run, "cgroup.subtree_control");
	tap_ok(v != NULL && strstr(v, "+cpu") != NULL,
	    "cpu enabled for the children of the run's cgroup");
	free(v);

	memset(&spec, 0, sizeof spec);
	quota_apply_spec(&q, 1, &spec);
	tap_str_eq(spec.cgroup_parent, "cs0-p1",
	    "sandbox 1 goes below parent 1");
	tap_ok(spec.cpus == 0, "and has no limit of its own");

	td = quota_throttle_dir(&q, 1, "/elsewhere/leaf");
	tap_str_eq(td, p1, "throttling is read in the parent (pitfall 7)");
	put(p1, "cpu.stat", "usage_usec 1500\nuser_usec 1000\nsystem_usec 500"
	    "\nnr_periods 40\nnr_throttled 12\nthrottled_usec 2500\n");
	tap_ok(cgrp_dir_cpu_stat(td, 2, &st, NULL) == 0 &&
	    st.nr_periods == 40 && st.nr_throttled == 12 &&
	    st.throttled_ns == 2500000, "v2 cpu.stat: periods, throttled, "
	    "throttled_usec in ns");
	tap_ok(cgrp_dir_cpu_usage(td, 2, &ns, NULL) == 0 && ns == 1500000,
	    "v2 usage_usec in ns");
	free(td);

	/* The kernel drops the pseudo-files with the directory. */
	kernel_rmfiles(p0);
	kernel_rmfiles(p1);
	tap_int_eq(quota_release(&ctx, &q, &cause), 0, "parents removed");
	tap_ok(access(p0, F_OK) != 0 && access(p1, F_OK) != 0,
	    "no parent directory left");
	tap_int_eq(quota_release(&ctx, &q, &cause), 0, "release twice");

	/* Leaf mode with another period: cpu.max rewritten in the leaf. */
	tap_int_eq(quota_setup(&ctx, &q, QUOTA_LEAF, 0.5, 50000, 1, "cs1",
	    &cause), 0, "leaf quota");
	memset(&spec, 0, sizeof spec);
	quota_apply_spec(&q, 0, &spec);
	tap_ok(spec.cpus == 0.5 && spec.cgroup_parent == NULL,
	    "leaf: the sandbox's own limit");
	snprintf(p0, sizeof p0, "%s/l0", run);
	kernel_mkcg(p0);
	tap_int_eq(quota_fix_leaf(&q, p0, &cause), 0, "leaf period fixed");
	v = get(p0, "cpu.max");
	tap_str_eq(v, "25000 50000", "leaf cpu.max 0.5 CPU per 50 ms");
	free(v);
	td = quota_throttle_dir(&q, 0, p0);
	tap_str_eq(td, p0, "leaf: throttling in the leaf");
	free(td);
	quota_release(&ctx, &q, NULL);

	tap_ok(quota_setup(&ctx, &q, QUOTA_PARENT, 0, 100000, 1, "cs2",
	    &cause) == -1 && cause != NULL, "parent without a limit: error");
	free(cause);

	kernel_rmfiles(p0);
	rmdir(p0);
	kernel_rmfiles(run);
	rmdir(run);
	unlink(strcat(strcpy(run, root), "/cgroup.subtree_control"));
	unlink(strcat(strcpy(run, root), "/cgroup.controllers"));
	rmdir(root);
	return tap_done();
}
