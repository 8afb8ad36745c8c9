/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checks that stand between a file anyone may have written and what
 * root does on its word (trust.h, docs/threat-model.md).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "host/hostset-int.h"
#include "host/trust.h"
#include "lib/util.h"
#include "results/store.h"

#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC		0x62656572
#endif
#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC	0x9fa0
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC	0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

/* Owned by us or root, and writable by no one else. */
static int
trust_owned(const char *path, const struct stat *sb, const char *what,
    char **cause)
{
	uid_t	me = geteuid();

	if (sb->st_uid != me && sb->st_uid != 0 && me == 0)
		return set_cause(cause, "%s '%s' is owned by uid %ld, not by "
		    "root", what, path, (long)sb->st_uid);
	if (sb->st_uid != me && sb->st_uid != 0)
		return set_cause(cause, "%s '%s' is owned by uid %ld, not by "
		    "uid %ld or root", what, path, (long)sb->st_uid, (long)me);
	if (sb->st_mode & S_IWOTH)
		return set_cause(cause, "%s '%s' is writable by anyone",
		    what, path);
	/* A group of one's own is one's own choice; another is not. */
	if ((sb->st_mode & S_IWGRP) && sb->st_gid != getegid() &&
	    sb->st_gid != 0)
		return set_cause(cause, "%s '%s' is writable by group %ld",
		    what, path, (long)sb->st_gid);
	return 0;
}

int
trust_db_file(const char *path, char **cause)
{
	static const char *const sfx[] = { "-journal", "-wal" };
	struct stat	 sb;
	char		*real, *dir, *slash, *side;
	size_t		 i;
	int		 rc;

	/*
	 * Missing, or not a file: nothing anyone wrote to act on; opening
	 * it fails with the store's own message (an input error).
	 */
	if ((real = realpath(path, NULL)) == NULL)
		return 0;
	if (stat(real, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		free(real);
		return 0;
	}
	if (trust_owned(path, &sb, "database", cause) == -1) {
		free(real);
		return -1;
	}
	/*
	 * Its hot journal would be rolled back into it by SQLite on open:
	 * one made by someone else is their edit of the database.
	 */
	for (i = 0; i < ARRAY_SIZE(sfx); i++) {
		side = xasprintf("%s%s", real, sfx[i]);
		rc = lstat(side, &sb) == 0 ? trust_owned(side, &sb,
		    "database journal", cause) : 0;
		free(side);
		if (rc == -1) {
			free(real);
			return -1;
		}
	}
	/* Someone who may rename in its directory may swap it after this. */
	dir = xstrdup(real);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	rc = 0;
	if (stat(dir, &sb) == -1)
		rc = set_cause(cause, "cannot stat '%s': %s", dir,
		    strerror(errno));
	else if ((sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX))
		rc = set_cause(cause, "the directory '%s' of database '%s' is "
		    "writable by others and not sticky: it may be swapped",
		    dir, path);
	else if (sb.st_uid != geteuid() && sb.st_uid != 0)
		rc = set_cause(cause, "the directory '%s' of database '%s' is "
		    "owned by uid %ld", dir, path, (long)sb.st_uid);
	free(dir);
	free(real);
	return rc;
}

int
trust_state_dir(const char *dir, char **cause)
{
	static const char *const in[] = { "", "/runs", "/journal.db" };
	struct stat	 sb;
	size_t		 i;
	char		*p;
	int		 rc = 0;

	for (i = 0; i < ARRAY_SIZE(in) && rc == 0; i++) {
		p = xasprintf("%s%s", dir, in[i]);
		/* Not made yet: whoever makes it is us. */
		if (lstat(p, &sb) == -1) {
			free(p);
			continue;
		}
		if (i > 0 && S_ISLNK(sb.st_mode))
			rc = set_cause(cause, "host journal: '%s' is a "
			    "symbolic link", p);
		else if (i == 0 && stat(p, &sb) == -1)
			rc = set_cause(cause, "cannot stat '%s': %s", p,
			    strerror(errno));
		else
			rc = trust_owned(p, &sb, "state directory entry",
			    cause);
		free(p);
	}
	return rc;
}

/* Every component of an absolute path is a name: none empty, ".", "..". */
static int
trust_plain_path(const char *path, int absolute)
{
	const char	*p = path, *e;
	size_t		 len;

	if (absolute && *p++ != '/')
		return 0;
	if (*p == '\0')
		return 0;
	for (;;) {
		e = strchr(p, '/');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		if (len == 0 || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (e == NULL)
			return 1;
		p = e + 1;
	}
}

/* Has the path a component named abbench-* (the run's own things)? */
static int
trust_has_abbench(const char *path)
{
	const char	*p;

	if (str_startswith(path, "abbench-"))
		return 1;
	for (p = path; (p = strstr(p, "/abbench-")) != NULL; p++)
		if (p[9] != '\0' && p[9] != '/')
			return 1;
	return 0;
}

/* One component without '/', nonempty, not "." or "..". */
static int
trust_name(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || (len == 1 && s[0] == '.') ||
	    (len == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == '\0')
			return 0;
	return 1;
}

/*
 * The resolved file is on the filesystem of its kind (sysfs, procfs) and
 * under the tree named: a symbolic link out of it is refused. A file that
 * is gone (a disk unplugged) is nothing to act on and is let through: the
 * restore itself then reports it.
 */
static int
trust_resolved(const char *target, const char *tree, long magic,
    char **cause)
{
	struct statfs	 fs;
	char		*real = realpath(target, NULL);
	int		 rc = 0;

	if (real == NULL)
		return errno == ENOENT ? 0 : set_cause(cause, "cannot resolve "
		    "'%s': %s", target, strerror(errno));
	if (!str_startswith(real, tree))
		rc = set_cause(cause, "'%s' resolves to '%s', outside %s",
		    target, real, tree);
	else if (statfs(real, &fs) == -1 || (long)fs.f_type != magic)
		rc = set_cause(cause, "'%s' is not on the kernel's "
		    "filesystem for it", target);
	free(real);
	return rc;
}

/* A host setting: its file exactly as the key makes it. */
static int
trust_setting(const struct store_journal *e, char **cause)
{
	const struct hostset_op	*op = hostset_find_op(e->kind);
	const char		*t = e->target, *suffix, *unit;
	char			*want, *u = NULL;
	int			 rc;

	if (op == NULL || (op->flags & HS_META) || op->path == NULL)
		return set_cause(cause, "unknown host setting '%s'", e->kind);
	if (op->flags & HS_PREFIX) {
		suffix = e->kind + strlen(op->name);
		/* A knob or sysctl name never climbs out of its directory. */
		if (strchr(suffix, '/') != NULL || strstr(suffix, "..") !=
		    NULL || *suffix == '.' || suffix[strlen(suffix) - 1] ==
		    '.' || !hostset_is_word(suffix, "._-"))
			return set_cause(cause, "bad setting name '%s'",
			    e->kind);
	}
	if (op->flags & (HS_BLOCK | HS_PERCPU)) {
		const char	*root = (op->flags & HS_BLOCK) ?
				    "/sys/block/" : CPU_DIR "/";

		if (!str_startswith(t, root))
			return set_cause(cause, "'%s' is not under %s", t,
			    root);
		unit = t + strlen(root);
		if (!trust_name(unit, strcspn(unit, "/")))
			return set_cause(cause, "'%s': bad device in the path",
			    t);
		u = xstrndup(unit, strcspn(unit, "/"));
		if ((op->flags & HS_PERCPU) && (!str_startswith(u, "cpu") ||
		    !hostset_is_uint(u + 3))) {
			free(u);
			return set_cause(cause, "'%s': bad cpu in the path", t);
		}
	}
	want = op->path(e->kind, u);
	free(u);
	if (strcmp(want, t) != 0) {
		rc = set_cause(cause, "'%s' is not the file of %s (%s)", t,
		    e->kind, want);
		free(want);
		return rc;
	}
	free(want);
	if (str_startswith(t, "/proc/sys/"))
		return trust_resolved(t, "/proc/sys/", PROC_SUPER_MAGIC, cause);
	return trust_resolved(t, "/sys/", SYSFS_MAGIC, cause);
}

/*
 * A runtime abbench would run for "RUNTIME delete ID": an OCI runtime by
 * its name (runc, runsc, crun, youki and their variants: runsc-debug...),
 * found in PATH or, as a path, a program only root may change. Root runs
 * it: any other program named here would be run with root's rights.
 */
static int
trust_runtime(const char *rt, size_t len, char **cause)
{
	static const char *const known[] = { "runc", "runsc", "crun",
	    "youki" };
	struct stat	 sb;
	char		*r = xstrndup(rt, len);
	const char	*base = strrchr(r, '/') != NULL ?
			    strrchr(r, '/') + 1 : r;
	size_t		 i, n;
	int		 rc = 0, named = 0;

	for (i = 0; i < ARRAY_SIZE(known) && !named; i++) {
		n = strlen(known[i]);
		named = strncmp(base, known[i], n) == 0 && (base[n] == '\0' ||
		    base[n] == '-' || base[n] == '.');
	}
	if (!named || !hostset_is_word(base, "._-"))
		rc = set_cause(cause, "'%s' is not an OCI runtime (runc, "
		    "runsc, crun, youki)", r);
	else if (base != r && (r[0] != '/' || strstr(r, "/../") != NULL ||
	    stat(r, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_uid != 0 ||
	    (sb.st_mode & (S_IWGRP | S_IWOTH))))
		rc = set_cause(cause, "OCI runtime '%s' is not a program "
		    "only root may change", r);
	free(r);
	return rc;
}

int
trust_entry(const struct store_journal *e, char **cause)
{
	const char	*k = e->kind, *t = e->target;

	if (k == NULL || t == NULL || *t == '\0')
		return set_cause(cause, "an entry without kind or target");
	if (str_startswith(k, "host."))
		return trust_setting(e, cause);
	if (strcmp(k, "cgroup") == 0) {
		if (!trust_plain_path(t, t[0] == '/') || !trust_has_abbench(t))
			return set_cause(cause, "'%s' is not a cgroup of "
			    "abbench's (abbench-*)", t);
		return 0;
	}
	if (strcmp(k, "cgroup-subtree") == 0) {
		struct statfs	fs;

		if (!trust_plain_path(t, 1) ||
		    !str_startswith(t, "/sys/fs/cgroup") ||
		    statfs(t, &fs) == -1 ||
		    ((long)fs.f_type != CGROUP2_SUPER_MAGIC &&
		    (long)fs.f_type != CGROUP_SUPER_MAGIC))
			return set_cause(cause, "'%s' is not a cgroup "
			    "directory", t);
		if (e->original != NULL && *e->original != '\0' &&
		    !hostset_is_word(e->original, " _"))
			return set_cause(cause, "'%s' is not a list of "
			    "controllers", e->original);
		return 0;
	}
	if (strcmp(k, "dir") == 0) {
		/* Removed recursively: only what abbench names as its own. */
		if (!trust_plain_path(t, 1) || !trust_has_abbench(t))
			return set_cause(cause, "'%s' is not a directory of "
			    "abbench's (abbench-*)", t);
		return 0;
	}
	if (strcmp(k, "mkdir") == 0 || strcmp(k, "file") == 0 ||
	    strcmp(k, "mount") == 0) {
		if (!trust_plain_path(t, 1))
			return set_cause(cause, "'%s' is not an absolute path "
			    "without '..'", t);
		/* A workload's data files are named after abbench. */
		if (strcmp(k, "file") == 0 && !trust_has_abbench(t))
			return set_cause(cause, "'%s' is not a file of "
			    "abbench's (abbench-*)", t);
		return 0;
	}
	if (strcmp(k, "loop") == 0) {
		const char	*n = str_startswith(t, "/dev/") ? t + 5 : t;

		if (!str_startswith(n, "loop") || !hostset_is_uint(n + 4))
			return set_cause(cause, "'%s' is not a loop device", t);
		return 0;
	}
	if (strcmp(k, "container") == 0 || strcmp(k, "podman-container") == 0) {
		if (!str_startswith(t, "abbench-") ||
		    !hostset_is_word(t, "._-"))
			return set_cause(cause, "'%s' is not a container of "
			    "abbench's (abbench-*)", t);
		return 0;
	}
	if (strcmp(k, "oci-container") == 0) {
		/* "RUNTIME<TAB>ROOT<TAB>ID": root runs RUNTIME delete ID. */
		const char	*tab1 = strchr(t, '\t'), *tab2, *id;

		if (tab1 == NULL || (tab2 = strchr(tab1 + 1, '\t')) == NULL)
			return set_cause(cause, "'%s' is not RUNTIME, ROOT and "
			    "ID", t);
		id = tab2 + 1;
		if (trust_runtime(t, (size_t)(tab1 - t), cause) == -1)
			return -1;
		if (tab2 > tab1 + 1 && (tab1[1] != '/' ||
		    strstr(tab1, "/../") != NULL))
			return set_cause(cause, "bad OCI runtime root in '%s'",
			    t);
		if (!str_startswith(id, "abbench-") ||
		    !hostset_is_word(id, "._-"))
			return set_cause(cause, "'%s' is not a container of "
			    "abbench's (abbench-*)", id);
		return 0;
	}
	return set_cause(cause, "unknown journal entry kind '%s'", k);
}
