/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU quota setups for a set of sandboxes, one interface over cgroup v1
 * (cpu.cfs_quota_us / cpu.cfs_period_us) and v2 (cpu.max), whatever the
 * executor (local, docker, oci):
 *
 *   none    no limit;
 *   leaf    each sandbox's own cgroup holds the limit (docker --cpus);
 *   parent  a cgroup made for the sample holds each sandbox's limit and
 *           the sandbox is created below it (--cgroup-parent; executors
 *           with EXEC_CGROUP_PARENT, exec.h): the shape
 *           of a Kubernetes pod or a systemd slice. Throttling then shows
 *           only in the parent's cpu.stat (ENVIRONMENT.md pitfall 7).
 *
 * Parents live at <run cgroup>/<tag>-p<i> below abbench's own cgroup in
 * every hierarchy, are journaled before they exist and removed (in every
 * hierarchy, docker makes them everywhere: pitfall 8) by quota_release().
 */
#ifndef ABBENCH_QUOTA_H
#define ABBENCH_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#include "exec/cgroup.h"

struct run_ctx;
struct exec_spec;
struct exec_ops;

enum quota_mode {
	QUOTA_NONE,
	QUOTA_LEAF,
	QUOTA_PARENT,
};

/* "none", "leaf", "parent"; 0 or -1 with *cause. */
int		 quota_mode_parse(const char *s, enum quota_mode *m,
		    char **cause);
/*
 * Can executor ex (NULL: not known yet, fine) hold a quota of this mode?
 * Parent needs EXEC_CGROUP_PARENT. The cause starts "quota: ", as a
 * workload's validate() names the key. 0 or -1.
 */
int		 quota_check_executor(enum quota_mode m,
		    const struct exec_ops *ex, char **cause);

struct quota {
	enum quota_mode	 mode;
	double		 cpus;		/* per sandbox; <= 0: no limit */
	int64_t		 period_us;
	int		 version;	/* cgroup version (1 or 2) */
	size_t		 n;
	struct cgrp	**parents;	/* QUOTA_PARENT: one per sandbox */
	char		**parent_names;	/* relative to the run cgroup */
	int64_t		*journal;
};

/*
 * Make what the mode needs for n sandboxes (parents: created, limited,
 * journaled when ctx has a store). tag must be unique within the run.
 * On error everything made so far is removed.
 */
int		 quota_setup(struct run_ctx *ctx, struct quota *q,
		    enum quota_mode mode, double cpus, int64_t period_us,
		    size_t n, const char *tag, char **cause);
/* Fill sandbox i's spec: cpus (leaf) or cgroup_parent (parent). The
 * strings stay owned by q. */
void		 quota_apply_spec(const struct quota *q, size_t i,
		    struct exec_spec *spec);
/* Leaf mode with a period other than docker's 100 ms: rewrite the limit
 * in the sandbox's own cpu directory after it started. */
int		 quota_fix_leaf(const struct quota *q, const char *cpu_dir,
		    char **cause);
/*
 * The cpu-controller directory whose cpu.stat shows sandbox i's
 * throttling: the parent's in parent mode, else the sandbox's own
 * (own_cpu_dir, from the executor). malloc'd, NULL when unknown.
 */
char		*quota_throttle_dir(const struct quota *q, size_t i,
		    const char *own_cpu_dir);
/* Remove the parents (every hierarchy) and forget their journal entries;
 * safe twice. */
int		 quota_release(struct run_ctx *ctx, struct quota *q,
		    char **cause);

#endif
