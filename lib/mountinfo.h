/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /proc/self/mountinfo: parsing (octal escapes decoded), the mount that
 * holds a path, and the layers of an overlay mount.
 *
 * The parser takes the text, so it works on fixtures.
 */
#ifndef ABBENCH_MOUNTINFO_H
#define ABBENCH_MOUNTINFO_H

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

#endif
