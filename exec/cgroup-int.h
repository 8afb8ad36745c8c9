/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the cgroups of a run: what cgroup.c (discovery, creation, v2's
 * leaf, the files) hands cgroup-remove.c (removal).
 */
#ifndef ABBENCH_CGROUP_INT_H
#define ABBENCH_CGROUP_INT_H

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

#endif
