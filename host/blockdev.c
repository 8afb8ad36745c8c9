/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block devices behind a path: the walk from a mount (lib/mountinfo.h)
 * to the disks under /sys/block (partitions, stacked devices, loop devices
 * and their backing files, overlay layers).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/hostset.h"
#include "lib/mountinfo.h"
#include "lib/util.h"

/* Overlay on a loop file on an overlay ... deeper than this is a cycle. */
#define BLOCKDEV_MAX_DEPTH	8

static void
disks_add(struct strvec *disks, const char *name)
{
	size_t	i;

	for (i = 0; i < disks->n; i++)
		if (strcmp(disks->v[i], name) == 0)
			return;
	strvec_push(disks, name);
}

static int resolve_path(const char *path, const struct mountinfo *mi,
    const char *sysfs, int flags, int depth, struct strvec *disks,
    char **cause);

/*
 * DEVDIR is a canonical device directory in sysfs (…/block/sda/sda1,
 * …/virtual/block/dm-0, …/virtual/block/loop3).
 */
static int
resolve_devdir(const char *devdir_in, const struct mountinfo *mi,
    const char *sysfs, int flags, int depth, struct strvec *disks,
    char **cause)
{
	char		*devdir = xstrdup(devdir_in);
	char		*p, *name, *backing;
	struct stat	 st;
	struct dirent	**names = NULL;
	int		 nslaves = 0, rc = 0, n, i;

	if (depth > BLOCKDEV_MAX_DEPTH) {
		free(devdir);
		return set_cause(cause, "'%s': devices nested too deeply",
		    devdir_in);
	}
	p = xasprintf("%s/partition", devdir);
	if (stat(p, &st) == 0) {
		char	*slash = strrchr(devdir, '/');

		if (slash != NULL && slash != devdir)
			*slash = '\0';
	}
	free(p);
	name = strrchr(devdir, '/') != NULL ? strrchr(devdir, '/') + 1 :
	    devdir;

	/* Stacked devices (dm, md): the work happens on the slaves. */
	p = xasprintf("%s/slaves", devdir);
	if ((n = scandir(p, &names, NULL, alphasort)) > 0) {
		for (i = 0; i < n; i++) {
			char	*link, *real;

			if (names[i]->d_name[0] == '.' || rc == -1)
				continue;
			link = xasprintf("%s/%s", p, names[i]->d_name);
			real = realpath(link, NULL);
			if (real == NULL)
				rc = set_cause(cause, "cannot resolve '%s': %s",
				    link, strerror(errno));
			else
				rc = resolve_devdir(real, mi, sysfs, flags,
				    depth + 1, disks, cause);
			nslaves++;
			free(real);
			free(link);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(p);
	if (rc == 0 && nslaves == 0)
		disks_add(disks, name);

	/* A loop device: the I/O continues on its backing file's disk. */
	p = xasprintf("%s/loop/backing_file", devdir);
	if (rc == 0 && !(flags & BLOCKDEV_NO_BACKING) &&
	    (backing = read_small_file(p, NULL)) != NULL) {
		size_t	n = strlen(backing);

		if (n > 10 && strcmp(backing + n - 10, " (deleted)") == 0)
			backing[n - 10] = '\0';
		if (backing[0] == '/')
			rc = resolve_path(backing, mi, sysfs, flags, depth + 1,
			    disks, cause);
		free(backing);
	}
	free(p);
	free(devdir);
	return rc;
}

static int
resolve_dev(unsigned major, unsigned minor, const struct mountinfo *mi,
    const char *sysfs, int flags, int depth, struct strvec *disks,
    char **cause)
{
	char	*link = xasprintf("%s/dev/block/%u:%u", sysfs, major, minor);
	char	*real = realpath(link, NULL);
	int	 rc;

	if (real == NULL) {
		rc = set_cause(cause, "no block device %u:%u in '%s': %s",
		    major, minor, link, strerror(errno));
		free(link);
		return rc;
	}
	rc = resolve_devdir(real, mi, sysfs, flags, depth, disks, cause);
	free(real);
	free(link);
	return rc;
}

/* The canonical form of PATH, or of its nearest existing ancestor. */
static char *
canonical_path(const char *path, char **cause)
{
	char	*p = xstrdup(path);
	char	*real;

	if (path[0] != '/') {
		free(p);
		if ((real = realpath(path, NULL)) == NULL)
			set_cause(cause, "cannot resolve '%s': %s", path,
			    strerror(errno));
		return real;
	}
	for (;;) {
		char	*slash;

		if ((real = realpath(p, NULL)) != NULL || errno != ENOENT)
			break;
		slash = strrchr(p, '/');
		if (slash == p) {
			strcpy(p, "/");
			continue;
		}
		*slash = '\0';
	}
	if (real == NULL)
		set_cause(cause, "cannot resolve '%s': %s", path,
		    strerror(errno));
	free(p);
	return real;
}

static int
resolve_path(const char *path, const struct mountinfo *mi, const char *sysfs,
    int flags, int depth, struct strvec *disks, char **cause)
{
	const struct mount_entry *m;
	char		*canon;
	struct stat	 st;
	int		 rc = 0;

	if (depth > BLOCKDEV_MAX_DEPTH)
		return set_cause(cause, "'%s': mounts nested too deeply", path);
	/* Fixtures name paths of another host: take them as written. */
	if (strcmp(sysfs, "/sys") == 0) {
		if ((canon = canonical_path(path, cause)) == NULL)
			return -1;
	} else
		canon = xstrdup(path);
	if ((m = mountinfo_find(mi, canon)) == NULL) {
		rc = set_cause(cause, "no mount holds '%s'", canon);
		free(canon);
		return rc;
	}
	if (strcmp(m->fstype, "overlay") == 0) {
		struct strvec	dirs = STRVEC_INIT;
		size_t		i;

		mountinfo_overlay_dirs(m, &dirs);
		for (i = 0; rc == 0 && i < dirs.n; i++)
			rc = resolve_path(dirs.v[i], mi, sysfs, flags,
			    depth + 1, disks, cause);
		strvec_clear(&dirs);
	} else if (m->major != 0)
		rc = resolve_dev(m->major, m->minor, mi, sysfs, flags, depth,
		    disks, cause);
	else if (str_startswith(m->source, "/dev/") &&
	    stat(m->source, &st) == 0 && S_ISBLK(st.st_mode))
		/* btrfs and friends report an anonymous device. */
		rc = resolve_dev(major(st.st_rdev), minor(st.st_rdev), mi,
		    sysfs, flags, depth, disks, cause);
	free(canon);
	return rc;
}

int
blockdev_resolve(const char *path, const struct mountinfo *mi,
    const char *sysfs, int flags, struct strvec *disks, char **cause)
{
	return resolve_path(path, mi, sysfs, flags, 0, disks, cause);
}

int
blockdev_for_path_flags(const char *path, int flags, struct strvec *disks,
    char **cause)
{
	struct mountinfo	mi;
	int			rc;

	if (mountinfo_read(&mi, cause) == -1)
		return -1;
	rc = blockdev_resolve(path, &mi, "/sys", flags, disks, cause);
	mountinfo_release(&mi);
	return rc;
}

char *
blockdev_mount_point(const char *path, char **cause)
{
	struct mountinfo		 mi;
	const struct mount_entry	*m;
	char				*real, *mnt = NULL;

	if ((real = realpath(path, NULL)) == NULL) {
		set_cause(cause, "cannot resolve '%s': %s", path,
		    strerror(errno));
		return NULL;
	}
	if (mountinfo_read(&mi, cause) == -1) {
		free(real);
		return NULL;
	}
	if ((m = mountinfo_find(&mi, real)) == NULL)
		set_cause(cause, "no mount holds '%s'", real);
	else
		mnt = xstrdup(m->mountpoint);
	mountinfo_release(&mi);
	free(real);
	return mnt;
}

int
blockdev_for_path(const char *path, char ***disks, size_t *n, char **cause)
{
	struct strvec	sv = STRVEC_INIT;

	*disks = NULL;
	*n = 0;
	if (blockdev_for_path_flags(path, 0, &sv, cause) == -1) {
		strvec_clear(&sv);
		return -1;
	}
	/* Always a NULL-terminated array, even when empty. */
	if (sv.v == NULL)
		sv.v = xcalloc(1, sizeof(*sv.v));
	*disks = sv.v;
	*n = sv.n;
	return 0;
}

char *
bracketed_word(const char *s)
{
	const char	*a = strchr(s, '['), *b;

	if (a == NULL || (b = strchr(a, ']')) == NULL) {
		char	*t = xstrdup(s);
		char	*r = xstrdup(strtrim(t));

		free(t);
		return r;
	}
	return xstrndup(a + 1, (size_t)(b - a - 1));
}

char *
blockdev_scheduler(const char *disk, char **available, char **cause)
{
	char	*path = xasprintf("/sys/block/%s/queue/scheduler", disk);
	char	*text, *cur, *p, *w;
	struct stat st;

	if (available != NULL)
		*available = NULL;
	if ((text = read_small_file(path, NULL)) == NULL) {
		char	*dir = xasprintf("/sys/block/%s", disk);
		int	 exists = stat(dir, &st) == 0;

		free(dir);
		free(path);
		if (!exists) {
			set_cause(cause, "no disk '%s' in /sys/block", disk);
			return NULL;
		}
		if (available != NULL)
			*available = xstrdup("none");
		return xstrdup("none");
	}
	free(path);
	cur = bracketed_word(text);
	if (available != NULL) {
		for (p = w = text; *p != '\0'; p++)
			if (*p != '[' && *p != ']')
				*w++ = *p;
		*w = '\0';
		*available = xstrdup(strtrim(text));
	}
	free(text);
	return cur;
}

int
blockdev_any_scheduler(const char *sched)
{
	glob_t	g;
	char	*want = xasprintf("[%s]", sched);
	size_t	i;
	int	found = 0;

	if (glob("/sys/block/*/queue/scheduler", 0, NULL, &g) != 0) {
		free(want);
		return 0;
	}
	for (i = 0; i < g.gl_pathc && !found; i++) {
		char	*text = read_small_file(g.gl_pathv[i], NULL);

		if (text != NULL && strstr(text, want) != NULL)
			found = 1;
		free(text);
	}
	globfree(&g);
	free(want);
	return found;
}
