/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cgroups made for a run, v1 and v2 behind one interface (detected at run
 * time). Each lives below the cgroup abbench itself runs in, per hierarchy
 * (read from /proc/self/cgroup), never at a hierarchy's root. Created and
 * deleted with libcgroup; controller files are read and written directly.
 *
 * ABBENCH_CGROUP_ROOT overrides /sys/fs/cgroup (tests use a directory laid
 * out like a cgroup2 tree); ABBENCH_CGROUP_VERSION forces 1 or 2.
 */
#ifndef ABBENCH_CGROUP_H
#define ABBENCH_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util.h"

struct cgrp_hier {
	char	*controller;	/* v1 controller name; "" for v2 */
	char	*dir;		/* absolute directory of this cgroup */
};

struct cgrp {
	char		*rel;	/* name below abbench's own cgroup */
	int		 version;
	struct cgrp_hier *h;
	size_t		 nh;
	struct strvec	 procs;	/* cgroup.procs files, for spawn */
	int		 removed;
};

/* Is word one of the comma-separated items of list ("rw,cpu,cpuacct")? */
int		 cgrp_has_word(const char *list, const char *word);
/* 1 or 2: where the cpu controller is. */
int		 cgrp_version(void);
const char	*cgrp_root(void);
/* The directory of abbench's own cgroup for a controller (v1), or the
 * v2 directory when controller is NULL or "". malloc'd. */
char		*cgrp_self_dir(const char *controller, char **cause);
/*
 * Whether abbench may make cgroups below its own in every hierarchy
 * cgrp_create uses by default: 0, or -1 with *cause naming the directory
 * and the reason (permission denied, read-only file system).
 */
int		 cgrp_can_create(char **cause);
/*
 * v2: abbench can make a cgroup below its own and, when ctl is not NULL,
 * its cgroup has the controller ctl (its parent delegated it); otherwise
 * -1 and *cause says what is missing and what to do, after "where: "
 * (FILE:LINE: key) when where is not NULL. 0 on v1.
 */
int		 cgrp_check_delegation(const char *ctl, const char *where,
		    char **cause);
/* v2: abbench's cgroup (malloc'd) and its cgroup.subtree_control now in
 * *value, before a run changes it; NULL on v1, on a mock tree, or once
 * abbench moved. */
char		*cgrp_v2_subtree_base(char **value);
/* Disable in dir's cgroup.subtree_control what original did not have. */
int		 cgrp_v2_subtree_put_back(const char *dir, const char *original,
		    char **cause);
/* abbench's own cgroup in a controller's hierarchy as /proc/self/cgroup
 * shows it ("/a/b"; NULL or "": the unified one). malloc'd. */
char		*cgrp_self_path(const char *controller, char **cause);
/* Every distinct path of abbench's own cgroups in /proc/self/cgroup,
 * "/" first, one per line. malloc'd. */
char		*cgrp_self_paths(void);
/* The directory of a cgroup path ("/a/b", as /proc/PID/cgroup shows it)
 * in the hierarchy of a v1 controller or named hierarchy ("name=systemd";
 * NULL or "": cgroup2). malloc'd, NULL if there is no such hierarchy. */
char		*cgrp_path_dir(const char *controller, const char *path);
/* The mount points of every cgroup hierarchy (v1, named, unified) and
 * their roots (mountinfo), appended; a test tree under
 * $ABBENCH_CGROUP_ROOT instead of the real ones. */
void		 cgrp_hierarchies(struct strvec *mnts, struct strvec *roots);
/*
 * Create REL (may contain '/') below abbench's own cgroup in the
 * hierarchies of the given controllers (NULL: cpu, cpuacct, memory, blkio
 * on v1; on v2 the same controllers, cpuacct aside and blkio as io, are
 * enabled in the subtree_control of each cgroup above it that is offered
 * them). On v2, when abbench's own cgroup is not the root and holds only
 * abbench, abbench moves itself into REL's first component's leaf "self"
 * (no internal processes), and moves back before that is removed; when
 * it holds other processes too the controllers stay off, and writing a
 * controller's file says why.
 */
struct cgrp	*cgrp_create(const char *rel, const char *const *controllers,
		    char **cause);
/*
 * The cgroupsPath to give an OCI runtime for REL: relative (below the
 * runtime's own cgroup) on v1; on v2 absolute, below the base of
 * abbench's cgroups, since abbench may have moved itself (and so the
 * runtimes it starts) into a leaf of the run's cgroup. malloc'd.
 */
char		*cgrp_runtime_path(const char *rel);
const char	*cgrp_dir(const struct cgrp *cg, const char *controller);
int		 cgrp_write(struct cgrp *cg, const char *controller,
		    const char *file, const char *value, char **cause);
char		*cgrp_read(struct cgrp *cg, const char *controller,
		    const char *file, char **cause);
/* The kernel's default CFS period, in microseconds (docker's too). */
#define CGRP_CFS_PERIOD_US	100000
/* CPU limit: cpus * period (v1 cfs_quota_us/cfs_period_us, v2 cpu.max);
 * cpus <= 0 removes the limit. */
int		 cgrp_set_cpu_limit(struct cgrp *cg, double cpus,
		    int64_t period_us, char **cause);
struct cgrp_cpu_stat {
	uint64_t	nr_periods;
	uint64_t	nr_throttled;
	uint64_t	throttled_ns;
};
int		 cgrp_cpu_stat(struct cgrp *cg, struct cgrp_cpu_stat *st,
		    char **cause);
/* Read a directory's cpu accounting the same way (for docker's cgroups). */
int		 cgrp_dir_cpu_usage(const char *cpuacct_dir, int version,
		    uint64_t *ns, char **cause);
int		 cgrp_dir_cpu_stat(const char *cpu_dir, int version,
		    struct cgrp_cpu_stat *st, char **cause);
/* The OOM killer's kills in the cgroup (v2 memory.events, v1
 * memory.oom_control: oom_kill); 0 when unknown. */
uint64_t	 cgrp_oom_kills(struct cgrp *cg);
/* Kill what is left inside, then remove (children first); safe twice. */
int		 cgrp_remove(struct cgrp *cg, char **cause);
void		 cgrp_free(struct cgrp *cg);
/* Kill what is left in a cgroup directory and below (SIGKILL; never
 * abbench itself), then remove it, children first; missing is fine. */
int		 cgrp_remove_dir(const char *dir, char **cause);
/*
 * Remove REL, a run's cgroup ("abbench-<uuid8>") or a path below it, in
 * every mounted hierarchy (the v1 ones, named ones such as name=systemd,
 * and the unified one: runtimes and docker --cgroup-parent make it in all
 * of them, pitfall 8): below each of abbench's own cgroup paths, below
 * the extra paths in bases (one per line, as cgrp_self_paths() of the
 * abbench that made it wrote them; may be NULL), and at the root. Only
 * directories of that name are touched; what is left inside them is
 * killed (cgrp_remove_dir). Refuses a REL that is not below abbench-*.
 * 0, or -1 when some directory remains (*cause names the first).
 */
int		 cgrp_remove_everywhere(const char *rel, const char *bases,
		    char **cause);
/*
 * v1 (cgroup-home.c): move abbench into cg in every hierarchy, so that the
 * programs it starts are born there and join nothing; its own cgroups
 * (cgrp_self_path, the base of what cgrp_create makes) stay the ones it
 * left. abbench moves back by cgrp_home_leave, or when a directory
 * holding cg is removed. 0; -2 when abbench could not move back (its
 * cgroup's cgroup.procs is not writable to it); -1 with *cause. abbench
 * is where it was unless 0.
 */
int		 cgrp_home_enter(const struct cgrp *cg, char **cause);
/* cgroup v1 hierarchies, not a mock tree: a home is possible. */
int		 cgrp_home_possible(void);
int		 cgrp_home_active(void);
void		 cgrp_home_leave(void);
/*
 * What else is in the home cgroup than abbench and keep (-1: none):
 * SIGKILLed and waited for, 1 s at most; how many there were.
 */
int		 cgrp_home_sweep(pid_t keep);

#endif
