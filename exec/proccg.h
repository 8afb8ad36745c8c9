/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cgroup directories of a process that abbench did not start itself
 * (a container's init, a runsc sandbox or gofer), read from /proc. Used
 * by the docker and oci executors, which learn a container's pid from
 * the runtime; its parent and children are lib/proc.h's.
 */
#ifndef ABBENCH_PROCCG_H
#define ABBENCH_PROCCG_H

/* The text of /proc/PID/cgroup, malloc'd, or NULL with *cause. */
char	*proccg_read(long pid, char **cause);
/*
 * The absolute directory of a v1 controller's cgroup (or of the v2 cgroup
 * when controller is NULL or "") from a /proc/PID/cgroup text, resolved
 * against the mounts in /proc/self/mountinfo. malloc'd, or NULL.
 */
char	*proccg_dir(const char *cgroup_text, const char *controller);

#endif
