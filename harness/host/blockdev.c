/*
 * Block devices behind a path: mountinfo parsing and the walk from a mount
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

#include "harness/host/blockdev.h"
#include "harness/host/hostset.h"
#include "lib/util.h"

/* Overlay on a loop file on an overlay ... deeper than this is a cycle. */
#define BLOCKDEV_MAX_DEPTH	8

/* Decode mountinfo's octal escapes (\040, \011, \012, \134) in place. */
static char *
mountinfo_unescape(char *s)
{
	char	*r = s, *w = s;

	while (*r != '\0') {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
			    (r[3] - '0'));
			r += 4;
		} else
			*w++ = *r++;
	}
	*w = '\0';
	return s;
}

static void
mount_entry_release(struct mount_entry *m)
{
	free(m->root);
	free(m->mountpoint);
	free(m->mount_opts);
	free(m->fstype);
	free(m->source);
	free(m->super_opts);
}

static int
mountinfo_parse_line(char *line, struct mount_entry *m, char **cause)
{
	char	*f[64];
	size_t	 nf = 0, sep, i;
	char	*save = NULL, *tok;

	for (tok = strtok_r(line, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (nf == ARRAY_SIZE(f))
			return set_cause(cause, "too many fields");
		f[nf++] = tok;
	}
	for (sep = 6; sep < nf; sep++)
		if (strcmp(f[sep], "-") == 0)
			break;
	if (nf < 7 || sep >= nf || nf - sep < 3)
		return set_cause(cause, "expected 'ID PARENT MAJ:MIN ROOT "
		    "MOUNTPOINT OPTIONS ... - TYPE SOURCE OPTIONS'");
	memset(m, 0, sizeof(*m));
	if (sscanf(f[0], "%d", &m->id) != 1 ||
	    sscanf(f[1], "%d", &m->parent) != 1 ||
	    sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return set_cause(cause, "bad id or device '%s %s %s'", f[0],
		    f[1], f[2]);
	m->root = xstrdup(mountinfo_unescape(f[3]));
	m->mountpoint = xstrdup(mountinfo_unescape(f[4]));
	m->mount_opts = xstrdup(f[5]);
	m->fstype = xstrdup(mountinfo_unescape(f[sep + 1]));
	m->source = xstrdup(mountinfo_unescape(f[sep + 2]));
	/* Options are split on ',' first, so their escapes are kept. */
	m->super_opts = xstrdup(sep + 3 < nf ? f[sep + 3] : "");
	for (i = sep + 4; i < nf; i++) {
		char	*t = xasprintf("%s %s", m->super_opts, f[i]);

		free(m->super_opts);
		m->super_opts = t;
	}
	return 0;
}

int
mountinfo_parse(const char *text, struct mountinfo *mi, char **cause)
{
	const char	*p = text;
	size_t		 cap = 0, lineno = 0;

	mi->e = NULL;
	mi->n = 0;
	while (*p != '\0') {
		size_t	 len = strcspn(p, "\n");
		char	*line = xstrndup(p, len);
		char	*why = NULL;

		lineno++;
		p += len;
		if (*p == '\n')
			p++;
		if (*strtrim(line) == '\0') {
			free(line);
			continue;
		}
		XGROW(mi->e, mi->n, cap);
		if (mountinfo_parse_line(line, &mi->e[mi->n], &why) == -1) {
			set_cause(cause, "mountinfo line %zu: %s", lineno, why);
			free(why);
			free(line);
			mountinfo_release(mi);
			return -1;
		}
		mi->n++;
		free(line);
	}
	return 0;
}

int
mountinfo_read(struct mountinfo *mi, char **cause)
{
	char	*text = read_file("/proc/self/mountinfo", NULL, cause);
	int	 rc;

	if (text == NULL)
		return -1;
	rc = mountinfo_parse(text, mi, cause);
	free(text);
	return rc;
}

void
mountinfo_release(struct mountinfo *mi)
{
	size_t	i;

	for (i = 0; i < mi->n; i++)
		mount_entry_release(&mi->e[i]);
	free(mi->e);
	mi->e = NULL;
	mi->n = 0;
}

/* Is mount point MP a prefix of PATH at a component boundary? */
static int
path_under(const char *path, const char *mp)
{
	size_t	n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	while (n > 1 && mp[n - 1] == '/')
		n--;
	return strncmp(path, mp, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

const struct mount_entry *
mountinfo_find(const struct mountinfo *mi, const char *path)
{
	const struct mount_entry *best = NULL;
	size_t	bestlen = 0, i;

	for (i = 0; i < mi->n; i++) {
		const struct mount_entry *m = &mi->e[i];
		size_t	len = strlen(m->mountpoint);

		if (!path_under(path, m->mountpoint))
			continue;
		if (best == NULL || len >= bestlen) {
			best = m;
			bestlen = len;
		}
	}
	return best;
}

/* Split a lowerdir value on ':' (not "\:"), skipping the "::" of data
 * layers, and decode escapes of each part. */
static size_t
overlay_split_layers(const char *v, struct strvec *dirs)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		n = 0;

	for (;; v++) {
		if (*v == '\\' && v[1] == ':') {
			strbuf_addc(&sb, ':');
			v++;
			continue;
		}
		if (*v == ':' || *v == '\0') {
			if (sb.len > 0) {
				strvec_push(dirs, mountinfo_unescape(sb.buf));
				n++;
			}
			strbuf_reset(&sb);
			if (*v == '\0')
				break;
			continue;
		}
		strbuf_addc(&sb, *v);
	}
	strbuf_release(&sb);
	return n;
}

size_t
mountinfo_overlay_dirs(const struct mount_entry *m, struct strvec *dirs)
{
	char	*opts = xstrdup(m->super_opts);
	char	*save = NULL, *o;
	size_t	 n = 0;
	int	 pass;

	/* upperdir first: that is where writes (and new files) go. */
	for (pass = 0; pass < 2; pass++) {
		strcpy(opts, m->super_opts);
		for (o = strtok_r(opts, ",", &save); o != NULL;
		    o = strtok_r(NULL, ",", &save)) {
			if (pass == 0 && str_startswith(o, "upperdir=")) {
				strvec_push(dirs, mountinfo_unescape(o + 9));
				n++;
			} else if (pass == 1 &&
			    str_startswith(o, "lowerdir="))
				n += overlay_split_layers(o + 9, dirs);
			else if (pass == 1 &&
			    (str_startswith(o, "lowerdir+=") ||
			    str_startswith(o, "datadir+="))) {
				strvec_push(dirs,
				    mountinfo_unescape(strchr(o, '=') + 1));
				n++;
			}
		}
	}
	free(opts);
	return n;
}

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
