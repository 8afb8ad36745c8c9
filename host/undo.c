/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The teardown of each kind of host object (undo.h): one table, used by
 * every way a run ends and by `abbench restore`.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "host/undo.h"
#include "lib/util.h"
#include "results/store.h"

struct undo_kind {
	const char	*kind;
	int		(*undo)(const struct store_journal *e, char **cause);
	const char	*done;		/* "removed container '%s'" */
};

static int
undo_cgroup(const struct store_journal *e, char **cause)
{
	struct strvec	 mnts = STRVEC_INIT, roots = STRVEC_INIT;
	const char	*target = e->target, *rel = target;
	struct stat	 sb;
	size_t		 i;
	int		 rc = 0;

	if (target[0] != '/')
		return cgrp_remove_everywhere(target, e->original, cause);
	if (strstr(target, "/../") != NULL)
		return set_cause(cause, "refusing cgroup '%s'", target);
	cgrp_hierarchies(&mnts, &roots);
	for (i = 0; i < mnts.n; i++) {
		size_t	n = strlen(mnts.v[i]);

		if (strncmp(target, mnts.v[i], n) == 0 && target[n] == '/' &&
		    target[n + 1] != '\0') {
			rc = cgrp_remove_dir(target, cause);
			goto done;
		}
	}
	while (*rel == '/')
		rel++;
	if (*rel == '\0' || strstr(target, "..") != NULL) {
		rc = set_cause(cause, "refusing cgroup '%s'", target);
		goto done;
	}
	for (i = 0; i < mnts.n; i++) {
		char	*dir = xasprintf("%s/%s", mnts.v[i], rel);

		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    cgrp_remove_dir(dir, rc == 0 ? cause : NULL) == -1)
			rc = -1;
		free(dir);
	}
done:
	strvec_clear(&mnts);
	strvec_clear(&roots);
	return rc;
}

/* Our cgroup's subtree_control as it was before the run (v2). */
static int
undo_cgroup_subtree(const struct store_journal *e, char **cause)
{
	return cgrp_v2_subtree_put_back(e->target, e->original, cause);
}

/* A scratch place: /tmp, /var/tmp, $TMPDIR, or named abbench-*. */
static int
undo_scratch_ok(const char *real)
{
	const char	*base = strrchr(real, '/') + 1;
	const char	*tmp = getenv("TMPDIR");
	char		*rtmp = tmp != NULL && *tmp != '\0' ?
			    realpath(tmp, NULL) : NULL;
	int		 ok;

	ok = (str_startswith(real, "/tmp/") && real[5] != '\0') ||
	    (str_startswith(real, "/var/tmp/") && real[9] != '\0') ||
	    str_startswith(base, "abbench-") ||
	    /* inside a run's own directory (run_scratch_file) */
	    (strstr(real, "/abbench-") != NULL &&
	    strchr(strstr(real, "/abbench-") + 1, '/') != NULL);
	if (!ok && rtmp != NULL && strcmp(rtmp, "/") != 0) {
		size_t	n = strlen(rtmp);

		ok = strncmp(real, rtmp, n) == 0 && real[n] == '/' &&
		    real[n + 1] != '\0';
	}
	free(rtmp);
	return ok;
}

static int
undo_dir(const struct store_journal *e, char **cause)
{
	char	*real = realpath(e->target, NULL);
	int	 r;

	if (real == NULL)
		return errno == ENOENT ? 0 : set_cause(cause,
		    "cannot resolve '%s': %s", e->target, strerror(errno));
	if (!undo_scratch_ok(real)) {
		set_cause(cause, "refusing to remove '%s': not under /tmp, "
		    "/var/tmp or $TMPDIR and not an abbench- scratch "
		    "directory", real);
		free(real);
		return -1;
	}
	r = rmtree(real, cause);
	free(real);
	return r;
}

/*
 * A directory the run made where it was asked for one (a workload's dir
 * that did not exist): removed only if empty (what the run put in it is
 * journaled and undone first); something else put in it is left.
 */
static int
undo_mkdir(const struct store_journal *e, char **cause)
{
	if (rmdir(e->target) == 0 || errno == ENOENT || errno == ENOTEMPTY ||
	    errno == EEXIST)
		return 0;
	return set_cause(cause, "cannot remove '%s': %s", e->target,
	    strerror(errno));
}

/* A file the run made (a scratch file, a workload's data file). */
static int
undo_file(const struct store_journal *e, char **cause)
{
	struct stat	sb;

	if (lstat(e->target, &sb) == -1)
		return errno == ENOENT ? 0 : set_cause(cause, "cannot stat "
		    "'%s': %s", e->target, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return set_cause(cause, "refusing to remove '%s': not a "
		    "regular file", e->target);
	if (unlink(e->target) == -1 && errno != ENOENT)
		return set_cause(cause, "cannot remove '%s': %s", e->target,
		    strerror(errno));
	return 0;
}

static int
undo_loop(const struct store_journal *e, char **cause)
{
	const char	*target = e->target;
	char		*dev = target[0] == '/' ? xstrdup(target) :
			    xasprintf("/dev/%s", target);
	int		 fd, rc = 0;

	if (!str_startswith(dev, "/dev/loop")) {
		rc = set_cause(cause, "'%s' is not a loop device", target);
		free(dev);
		return rc;
	}
	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) == -1) {
		rc = errno == ENOENT ? 0 : set_cause(cause,
		    "cannot open '%s': %s", dev, strerror(errno));
		free(dev);
		return rc;
	}
	/* ENXIO: not bound any more. Busy: the kernel detaches it on the
	 * last close (autoclear). */
	if (ioctl(fd, LOOP_CLR_FD, 0) == -1 && errno != ENXIO)
		rc = set_cause(cause, "cannot detach '%s': %s", dev,
		    strerror(errno));
	close(fd);
	free(dev);
	return rc;
}

static int
undo_mount(const struct store_journal *e, char **cause)
{
	if (umount2(e->target, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL ||
	    errno == ENOENT)
		return 0;
	if (errno == EBUSY && umount2(e->target, MNT_DETACH |
	    UMOUNT_NOFOLLOW) == 0)
		return 0;
	return set_cause(cause, "cannot unmount '%s': %s", e->target,
	    strerror(errno));
}

static const struct undo_kind undo_kinds[] = {
	{ "cgroup", undo_cgroup, "removed cgroup '%s'" },
	{ "cgroup-subtree", undo_cgroup_subtree, "put back the "
	  "cgroup.subtree_control of '%s'" },
	{ "dir", undo_dir, "removed directory '%s'" },
	{ "mkdir", undo_mkdir, "removed directory '%s' it made (unless "
	  "something else is in it)" },
	{ "file", undo_file, "removed file '%s'" },
	{ "loop", undo_loop, "detached loop device '%s'" },
	{ "mount", undo_mount, "unmounted '%s'" },
};

/* The executor that journals objects of kind, or NULL. */
static const struct exec_ops *
undo_executor(const char *kind)
{
	const struct exec_ops *const	*x;

	for (x = exec_types; *x != NULL; x++) {
		if ((*x)->journal_kind != NULL && (*x)->undo != NULL &&
		    strcmp((*x)->journal_kind, kind) == 0)
			return *x;
	}
	return NULL;
}

static const struct undo_kind *
undo_find(const char *kind)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(undo_kinds); i++)
		if (strcmp(undo_kinds[i].kind, kind) == 0)
			return &undo_kinds[i];
	return NULL;
}

int
undo_object(const struct store_journal *e, char **what, char **cause)
{
	const struct undo_kind	*k = undo_find(e->kind);
	const struct exec_ops	*x = undo_executor(e->kind);
	struct strvec		 also = STRVEC_INIT;
	struct strbuf		 sb = STRBUF_INIT;
	const char		*done;
	char			*shown, *tab;
	size_t			 i;

	if (what != NULL)
		*what = NULL;
	if (k == NULL && x == NULL)
		return set_cause(cause, "unknown journal entry kind '%s' for "
		    "'%s'", e->kind, e->target);
	/* An executor's object: its own undo. */
	if (x != NULL ? x->undo(e->target, &also, cause) == -1 :
	    k->undo(e, cause) == -1) {
		strvec_clear(&also);
		return -1;
	}
	done = x != NULL ? x->undo_done : k->done;
	if (what != NULL) {
		/* An OCI container shows as its id. */
		shown = xstrdup(e->target);
		if ((tab = strrchr(shown, '\t')) != NULL)
			memmove(shown, tab + 1, strlen(tab + 1) + 1);
		strbuf_addf(&sb, done, shown);
		for (i = 0; i < also.n; i++)
			strbuf_addf(&sb, " and %s", also.v[i]);
		*what = strbuf_detach(&sb);
		free(shown);
	}
	strvec_clear(&also);
	return 0;
}

int
undo_labelled_within(const char *uuid, int64_t timeout_ns,
    struct strvec *removed, char **cause)
{
	const struct exec_ops *const	*x;
	char				*why = NULL;
	int				 rc = 0;

	/* Each daemon executor sweeps its own. */
	for (x = exec_types; *x != NULL; x++) {
		if ((*x)->sweep == NULL || (*x)->sweep(uuid, timeout_ns,
		    removed, &why) == 0)
			continue;
		if (rc == 0)
			set_cause(cause, "%s", why);
		free(why);
		why = NULL;
		rc = -1;
	}
	return rc;
}

int
undo_labelled_containers(const char *uuid, struct strvec *removed,
    char **cause)
{
	return undo_labelled_within(uuid, EXEC_CALL_TIMEOUT_NS, removed,
	    cause);
}
