/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a cgroup v2 VM cannot give, on a MOCK tree of files (no root, no
 * qemu): the shape of a 192-vCPU host (192 sandboxes, each below a quota
 * parent of its own; a leaf of 96 CPUs per 50 ms) and exact counter
 * values (cpu.stat's periods, throttled_usec and usage_usec in ns). The
 * rest of the v2 quota paths -- a parent's cpu.max and its sandbox below
 * it, the leaf's limit, cpu enabled in the run's subtree_control,
 * throttling read in the parent, removal -- run against a real 6.1 kernel
 * in t0750 (scripts/v2-guest) and are no longer asserted here. The test
 * plays the kernel: it makes the pseudo-files, fills cpu.stat, and removes
 * them before the cgroups are removed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/context.h"
#include "exec/exec.h"
#include "exec/quota.h"
#include "tests/unit/tap.h"

static void
put(const char *dir, const char *file, const char *text)
{
	char	 path[4096];
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
	char	path[4096];

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
	char	path[4096];
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
	char			 run[600], p[700], *v, *cause = NULL;
	struct run_ctx		 ctx;
	struct quota		 q;
	struct exec_spec	 spec;
	struct cgrp_cpu_stat	 st;
	uint64_t		 ns = 0;
	char			*td;
	int			 i, n_ok;

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
	kernel_mkcg(run);
	for (i = 0; i < 192; i++) {
		snprintf(p, sizeof p, "%s/cs0-p%d", run, i);
		kernel_mkcg(p);
	}

	tap_int_eq(cgrp_version(), 2, "mock only: the tree is cgroup v2");
	/* 192 sandboxes of 1.5 CPU each, a parent each (a 192-vCPU host
	 * with its CPUs over-committed 1.5 times). */
	tap_int_eq(quota_setup(&ctx, &q, QUOTA_PARENT, 1.5, 100000, 192,
	    "cs0", &cause), 0, "mock only: parent quota for 192 sandboxes");
	if (cause != NULL)
		TAP_DIAG("%s", cause);
	for (i = 0, n_ok = 0; i < 192; i++) {
		snprintf(p, sizeof p, "%s/cs0-p%d", run, i);
		v = get(p, "cpu.max");
		n_ok += v != NULL && strcmp(v, "150000 100000") == 0;
		free(v);
	}
	tap_int_eq(n_ok, 192, "mock only: each of the 192 parents holds "
	    "cpu.max 150000 100000");
	memset(&spec, 0, sizeof spec);
	quota_apply_spec(&q, 191, &spec);
	tap_str_eq(spec.cgroup_parent, "cs0-p191",
	    "mock only: sandbox 191 goes below parent 191");

	/* Exact counters: the kernel's values, unknowable in a real run. */
	snprintf(p, sizeof p, "%s/cs0-p191", run);
	td = quota_throttle_dir(&q, 191, "/elsewhere/leaf");
	put(p, "cpu.stat", "usage_usec 1500\nuser_usec 1000\nsystem_usec 500"
	    "\nnr_periods 40\nnr_throttled 12\nthrottled_usec 2500\n");
	tap_ok(td != NULL && cgrp_dir_cpu_stat(td, 2, &st, NULL) == 0 &&
	    st.nr_periods == 40 && st.nr_throttled == 12 &&
	    st.throttled_ns == 2500000, "mock only: cpu.stat's exact periods, "
	    "throttled, throttled_usec in ns");
	tap_ok(td != NULL && cgrp_dir_cpu_usage(td, 2, &ns, NULL) == 0 &&
	    ns == 1500000, "mock only: usage_usec 1500 is 1500000 ns");
	free(td);

	/* The kernel drops the pseudo-files with the directory. */
	for (i = 0; i < 192; i++) {
		snprintf(p, sizeof p, "%s/cs0-p%d", run, i);
		kernel_rmfiles(p);
	}
	tap_int_eq(quota_release(&ctx, &q, &cause), 0,
	    "mock only: the 192 parents removed");
	for (i = 0, n_ok = 0; i < 192; i++) {
		snprintf(p, sizeof p, "%s/cs0-p%d", run, i);
		n_ok += access(p, F_OK) != 0;
	}
	tap_int_eq(n_ok, 192, "mock only: no parent directory left");

	/* A leaf of 96 CPUs (half of the 192) per 50 ms. */
	tap_int_eq(quota_setup(&ctx, &q, QUOTA_LEAF, 96, 50000, 1, "cs1",
	    &cause), 0, "mock only: leaf quota of 96 CPUs");
	snprintf(p, sizeof p, "%s/l0", run);
	kernel_mkcg(p);
	tap_int_eq(quota_fix_leaf(&q, p, &cause), 0, "mock only: leaf fixed");
	v = get(p, "cpu.max");
	tap_str_eq(v, "4800000 50000", "mock only: leaf cpu.max 96 CPUs per "
	    "50 ms");
	free(v);
	quota_release(&ctx, &q, NULL);

	tap_ok(quota_setup(&ctx, &q, QUOTA_PARENT, 0, 100000, 1, "cs2",
	    &cause) == -1 && cause != NULL, "parent without a limit: error");
	free(cause);

	kernel_rmfiles(p);
	rmdir(p);
	kernel_rmfiles(run);
	rmdir(run);
	unlink(strcat(strcpy(run, root), "/cgroup.subtree_control"));
	unlink(strcat(strcpy(run, root), "/cgroup.controllers"));
	rmdir(root);
	return tap_done();
}
