/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block devices behind a path (lib/mountinfo.h finds the mount that holds
 * it): the disks under /sys/block behind a mount (partitions to their disk,
 * device-mapper and md to their slaves, loop devices to their backing
 * file's disks, overlay to its upper and lower directories). Also small
 * readers of a disk's I/O scheduler.
 *
 * The resolver takes a sysfs root, so it works on fixtures. Not
 * thread-safe (nothing global is kept, though).
 */
#ifndef ABBENCH_BLOCKDEV_H
#define ABBENCH_BLOCKDEV_H

#include <stddef.h>

#include "lib/util.h"

#include "lib/mountinfo.h"

enum blockdev_flags {
	BLOCKDEV_NO_BACKING = 1 << 0,	/* loop: not the backing file's disk */
};

/*
 * Disks (names under SYSFS/block) that hold PATH, appended to disks without
 * duplicates: the mount's device (major:minor, or the rdev of a /dev source
 * for filesystems with anonymous devices such as btrfs), a partition's
 * disk, a stacked device's slaves (recursively), a loop device and (unless
 * BLOCKDEV_NO_BACKING) the disks of its backing file, an overlay's layers.
 * A path on a filesystem without a disk (tmpfs, proc) adds nothing.
 * PATH need not exist: its nearest existing ancestor is used.
 */
int	blockdev_resolve(const char *path, const struct mountinfo *mi,
	    const char *sysfs, int flags, struct strvec *disks, char **cause);
/* blockdev_for_path with flags (reads /proc/self/mountinfo and /sys). */
int	blockdev_for_path_flags(const char *path, int flags, struct strvec *disks,
	    char **cause);

/* The mount point holding an existing PATH (malloc'd), or NULL. */
char	*blockdev_mount_point(const char *path, char **cause);

/*
 * A disk's scheduler: the bracketed word of queue/scheduler ("none" when
 * the disk has no scheduler file). *available (if not NULL) gets the
 * words without brackets, space separated. Both malloc'd.
 */
char	*blockdev_scheduler(const char *disk, char **available, char **cause);
/* Is SCHED the active scheduler of any disk in /sys/block? (cheap check) */
int	blockdev_any_scheduler(const char *sched);
/* The bracketed word of "a [b] c", malloc'd; the whole text if none. */
char	*bracketed_word(const char *s);

#endif
