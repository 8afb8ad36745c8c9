/*
 * Block devices behind a path: /proc/self/mountinfo parsing, the mount that
 * holds a path (longest mount point prefix), and the disks under /sys/block
 * behind a mount (partitions to their disk, device-mapper and md to their
 * slaves, loop devices to their backing file's disks, overlay to its upper
 * and lower directories). Also small readers of a disk's I/O scheduler.
 *
 * The parser takes the mountinfo text and the resolver a sysfs root, so
 * both work on fixtures. Not thread-safe (nothing global is kept, though).
 */
#ifndef ABBENCH_BLOCKDEV_H
#define ABBENCH_BLOCKDEV_H

#include <stddef.h>

#include "lib/util.h"

/* One line of mountinfo, with octal escapes (\040) decoded. */
struct mount_entry {
	int		 id;
	int		 parent;
	unsigned	 major;
	unsigned	 minor;
	char		*root;		/* path inside the filesystem */
	char		*mountpoint;
	char		*mount_opts;	/* per-mount options (rw,relatime) */
	char		*fstype;
	char		*source;
	char		*super_opts;	/* per-superblock (lowerdir=...) */
};

struct mountinfo {
	struct mount_entry	*e;
	size_t			 n;
};

/* Parse mountinfo text; a malformed line is an error naming its number. */
int	mountinfo_parse(const char *text, struct mountinfo *mi, char **cause);
/* Read and parse /proc/self/mountinfo. */
int	mountinfo_read(struct mountinfo *mi, char **cause);
void	mountinfo_release(struct mountinfo *mi);
/*
 * The mount holding PATH (an absolute, already canonical path): the
 * longest mount point that is a prefix at a component boundary; among
 * equal mount points the last one (mounted on top). NULL if none.
 */
const struct mount_entry *mountinfo_find(const struct mountinfo *mi,
		    const char *path);
/*
 * Overlay layers of an overlay mount's super options: upperdir, then the
 * lowerdirs in order (lowerdir=a:b with \: escapes, or lowerdir+=), and
 * datadir+= entries. Returns the number pushed.
 */
size_t	mountinfo_overlay_dirs(const struct mount_entry *m, struct strvec *dirs);

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
