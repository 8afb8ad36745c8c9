/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the cgroups of a run: what cgroup.c (the hierarchies, abbench's
 * own cgroup, v2's leaf, the files) hands cgroup-make.c (making and
 * removing a run's cgroups). cgroup.c calls nothing of cgroup-make.c.
 */
#ifndef ABBENCH_CGROUP_INT_H
#define ABBENCH_CGROUP_INT_H

struct strvec;

/* The controllers a run's cgroup gets (v1 names), NULL-ended. */
extern const char *const cgrp_default_controllers[];
/*
 * The mount point and root of the hierarchy of a controller (a v1
 * controller, or a named hierarchy "name=systemd"), or of cgroup2 when
 * controller is "". 0, or -1 with *cause.
 */
int		 cgrp_hier_mount(const char *controller, char **mnt,
		    char **root, char **cause);
/*
 * v2: enable the controllers of ctl (v2 names) in the
 * cgroup.subtree_control of every cgroup from base down to dir's parent,
 * each where its parent offers it. Moves abbench into a leaf when base
 * holds it; when base holds other processes too, leaves the controllers
 * off and notes why.
 */
void		 cgrp_v2_enable(const char *base, const char *dir,
		    const struct strvec *ctl, const char *rel);
/* ABBENCH_CGROUP_ROOT names a test tree (not a mounted cgroupfs). */
int		 cgrp_fake_root(void);
/* The directory of PATH (as /proc/PID/cgroup shows it) below a mount
 * whose root is root (not "/" inside a cgroup namespace). malloc'd. */
char		*cgrp_mount_path_dir(const char *mnt, const char *root,
		    const char *path);
/* v2: the leaf abbench moved itself into (v2_move_to_leaf), or NULL. */
const char	*cgrp_v2_leaf(void);
/* v2: back where abbench was, its controllers off again (safe to call
 * when it did not move). */
void		 cgrp_v2_return(void);
/*
 * What /proc/self/cgroup says from now on (cgrp_self_path and
 * cgrp_self_paths): text (taken over), or NULL for the file again.
 */
void		 cgrp_self_freeze(char *text);
/* Write value to dir/file (a cgroup's file): 0, or the errno. */
int		 cgrp_put(const char *dir, const char *file, const char *value);
/*
 * The pids a cgroup.procs (or tasks) file lists, up to the first line
 * that is not one: malloc'd, *n of them (NULL and 0 when it cannot be
 * read or lists none).
 */
long		*cgrp_read_pids(const char *path, size_t *n);
/* A cgroup-home.c's home directory is dir or below it: move back first. */
void		 cgrp_home_leave_under(const char *dir);

#endif
