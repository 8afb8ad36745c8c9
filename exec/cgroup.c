/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cgroups of a run (see cgroup.h): hierarchy discovery from
 * /proc/self/mountinfo and /proc/self/cgroup, abbench's own cgroup and
 * its v2 leaf, and the cpu/cpuacct files both versions expose. Making and
 * removing a run's cgroups is cgroup-make.c's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/mountinfo.h"
#include "exec/cgroup.h"
#include "exec/cgroup-int.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

const char *const cgrp_default_controllers[] = {
	"cpu", "cpuacct", "memory", "blkio", NULL
};

/*
 * cgroup v2's no-internal-processes rule: a cgroup other than the root
 * that holds processes cannot give controllers to its children. When
 * abbench runs alone in such a cgroup (a service's), it moves itself into
 * a leaf of the run's cgroup, "<run>/self", and enables the controllers in
 * its former cgroup, which stays the base of every cgroup it makes; before
 * the run's cgroup is removed it puts the base's subtree_control back as
 * it was (what it enabled, and what a runtime enabled there: runc enables
 * every controller on its way down) and moves back.
 * When other processes share its cgroup it cannot (and does not move
 * them): the controllers stay off and v2why says why, for the errors.
 */
static struct {
	char		*base;		/* dir abbench was in, once moved */
	char		*base_path;	/* the same as /proc/self/cgroup says */
	char		*leaf;		/* the dir it moved into */
	char		*was;		/* base's subtree_control before */
	char		*why;		/* why controllers are off, if they are */
} v2self = { NULL, NULL, NULL, NULL, NULL };

int
cgrp_put(const char *dir, const char *file, const char *value)
{
	char	*path = xasprintf("%s/%s", dir, file);
	int	 fd, e = 0;
	ssize_t	 w;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		e = errno;
	else {
		w = write(fd, value, strlen(value));
		if (w < 0)
			e = errno;
		else if ((size_t)w != strlen(value))
			e = EIO;
		if (close(fd) == -1 && e == 0)
			e = errno;
	}
	free(path);
	return e;
}

static char *
v2_get(const char *dir, const char *file)
{
	char	*path = xasprintf("%s/%s", dir, file), *v;
	size_t	 l;

	v = read_small_file(path, NULL);
	free(path);
	if (v == NULL)
		v = xstrdup("");
	l = strlen(v);
	while (l > 0 && (v[l - 1] == '\n' || v[l - 1] == ' '))
		v[--l] = '\0';
	return v;
}

/* Is word one of the space-separated words of list? */
static int
has_spaced_word(const char *list, const char *word)
{
	size_t	n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' ||
		    p[n] == ' ' || p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

long *
cgrp_read_pids(const char *path, size_t *n)
{
	char	*text = read_file(path, NULL, NULL), *p;
	long	*pids = NULL, pid;
	size_t	 k = 0, cap = 0;

	for (p = text; p != NULL && *p != '\0'; ) {
		pid = strtol(p, &p, 10);
		if (pid > 0) {
			XGROW(pids, k, cap);
			pids[k++] = pid;
		}
		while (*p == '\n')
			p++;
		if (*p != '\0' && (*p < '0' || *p > '9'))
			break;
	}
	free(text);
	*n = k;
	return pids;
}

/* The pids of a cgroup other than ours, "1 2 3" (at most a few). */
static char *
v2_other_pids(const char *dir)
{
	struct strbuf	 sb = STRBUF_INIT;
	char		*text = v2_get(dir, "cgroup.procs"), *p = text;
	int		 n = 0;

	while (*p != '\0') {
		long	pid = strtol(p, &p, 10);

		if (pid > 0 && pid != (long)getpid() && n++ < 5)
			strbuf_addf(&sb, "%s%ld", sb.len ? " " : "", pid);
		while (*p != '\0' && (*p < '0' || *p > '9'))
			p++;
	}
	free(text);
	return strbuf_detach(&sb);
}

/*
 * Move abbench into base/<run>/self (run: the first component of rel) so
 * that base can enable controllers. 0, or the errno of the move.
 */
static int
v2_move_to_leaf(const char *base, const char *rel)
{
	char	*run = xstrndup(rel, strcspn(rel, "/"));
	char	*leaf = xasprintf("%s/%s/self", base, run), *self, buf[32];
	int	 e;

	free(run);
	if (mkdir(leaf, 0755) == -1 && errno != EEXIST) {
		e = errno;
		free(leaf);
		return e;
	}
	snprintf(buf, sizeof buf, "%ld", (long)getpid());
	if ((e = cgrp_put(leaf, "cgroup.procs", buf)) != 0) {
		rmdir(leaf);
		free(leaf);
		return e;
	}
	v2self.was = v2_get(base, "cgroup.subtree_control");
	self = cgrp_self_path("", NULL);
	v2self.base = xstrdup(base);
	/* Our path before the move: the leaf's, less "/<run>/self". */
	if (self != NULL) {
		char	*s = strrchr(self, '/');

		if (s != NULL) {
			*s = '\0';
			if ((s = strrchr(self, '/')) != NULL)
				*s = '\0';
		}
		v2self.base_path = xstrdup(self[0] != '\0' ? self : "/");
		free(self);
	}
	v2self.leaf = leaf;
	return 0;
}

/*
 * Enable the controllers of ctl (v2 names) in the cgroup.subtree_control
 * of every cgroup from base down to dir's parent, each where its parent
 * offers it. Moves abbench into a leaf when base holds it; when base holds
 * other processes too, leaves the controllers off and notes why.
 */
void
cgrp_v2_enable(const char *base, const char *dir, const struct strvec *ctl,
    const char *rel)
{
	char	*d = xstrdup(base);
	size_t	 i, bl = strlen(base);
	int	 skip_base = 0;

	/*
	 * Processes in base (not the root): move first, or enable nothing
	 * there. Enabling a threaded controller (cpu, pids) in a cgroup with
	 * processes is allowed and makes it a thread root: the domain ones
	 * (memory, io) then fail with EOPNOTSUPP, and no process can join a
	 * cgroup below it.
	 */
	if (!cgrp_fake_root() && v2self.leaf == NULL &&
	    strcmp(base, cgrp_root()) != 0) {
		char	*procs = v2_get(base, "cgroup.procs");

		if (procs[0] != '\0') {
			char	*others = v2_other_pids(base);

			if (others[0] != '\0' ||
			    v2_move_to_leaf(base, rel) != 0) {
				skip_base = 1;
				if (v2self.why == NULL)
					v2self.why = xasprintf("cgroup v2 lets "
					    "no controller reach the cgroups "
					    "below '%s' while processes sit in "
					    "it, and other processes than "
					    "abbench do (%s): start abbench in "
					    "a cgroup of its own (e.g. "
					    "systemd-run --scope)", base,
					    others);
			}
			free(others);
		}
		free(procs);
	}
	for (;;) {
		char	*avail = v2_get(d, "cgroup.controllers");
		char	*on = v2_get(d, "cgroup.subtree_control");
		char	*next;
		const char *slash;

		for (i = 0; i < ctl->n; i++) {
			char	 buf[64];
			int	 e;

			if (!has_spaced_word(avail, ctl->v[i]) ||
			    has_spaced_word(on, ctl->v[i]) ||
			    (skip_base && strcmp(d, base) == 0))
				continue;
			snprintf(buf, sizeof buf, "+%s", ctl->v[i]);
			e = cgrp_put(d, "cgroup.subtree_control", buf);
			if (e != 0 && v2self.why == NULL)
				v2self.why = xasprintf("cannot enable %s in "
				    "'%s/cgroup.subtree_control': %s",
				    ctl->v[i], d, strerror(e));
		}
		free(avail);
		free(on);
		/* One level down towards dir. */
		slash = strchr(dir + strlen(d) + 1, '/');
		if (slash == NULL)
			break;
		next = xstrndup(dir, (size_t)(slash - dir));
		free(d);
		d = next;
		if (strlen(d) <= bl)
			break;
	}
	free(d);
}

const char *
cgrp_v2_leaf(void)
{
	return v2self.leaf;
}

/*
 * Back where abbench was before v2_move_to_leaf (before the run's cgroup,
 * holding the leaf, is removed): the controllers off again in the cgroups
 * between, then base's subtree_control as it was before the move (not
 * only what abbench enabled: an OCI runtime enables the rest, and a
 * controller left on keeps abbench from moving back), then the move.
 */
void
cgrp_v2_return(void)
{
	char	*d, *s, buf[32];

	if (v2self.leaf == NULL)
		return;
	d = xstrdup(v2self.leaf);
	while ((s = strrchr(d, '/')) != NULL && (*s = '\0',
	    strlen(d) > strlen(v2self.base))) {
		char	*on = v2_get(d, "cgroup.subtree_control"), *tok,
			*save = NULL;

		for (tok = strtok_r(on, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			snprintf(buf, sizeof buf, "-%s", tok);
			(void)cgrp_put(d, "cgroup.subtree_control", buf);
		}
		free(on);
	}
	free(d);
	(void)cgrp_v2_subtree_put_back(v2self.base, v2self.was != NULL ?
	    v2self.was : "", NULL);
	snprintf(buf, sizeof buf, "%ld", (long)getpid());
	if (cgrp_put(v2self.base, "cgroup.procs", buf) != 0)
		return;		/* stay: the leaf cannot be removed */
	free(v2self.was);
	free(v2self.leaf);
	free(v2self.base);
	free(v2self.base_path);
	v2self.leaf = v2self.base = v2self.base_path = v2self.was = NULL;
}

/*
 * Before the first sample (v2): abbench can make a cgroup below its own,
 * and its cgroup was given ctl (when not NULL) by its parent; "where"
 * ("FILE:LINE: key", may be NULL) names what asks for ctl.
 */
int
cgrp_check_delegation(const char *ctl, const char *where, char **cause)
{
	char	*base, *avail, *probe, *file;
	int	 rc = 0;

	if (cgrp_version() != 2)
		return 0;
	if ((base = cgrp_self_dir(NULL, cause)) == NULL)
		return -1;
	if (!cgrp_fake_root()) {
		probe = xasprintf("%s/abbench-probe-%ld", base, (long)getpid());
		if (mkdir(probe, 0755) == -1 && errno != EEXIST) {
			rc = set_cause(cause, "%s%scannot make a cgroup below "
			    "abbench's own '%s': %s: run abbench as root, or "
			    "in a cgroup delegated to it (e.g. systemd-run "
			    "--scope -p Delegate=yes abbench ...)",
			    where != NULL ? where : "",
			    where != NULL ? ": " : "", base, strerror(errno));
			free(probe);
			free(base);
			return rc;
		}
		(void)rmdir(probe);
		free(probe);
	}
	file = xasprintf("%s/cgroup.controllers", base);
	if (ctl != NULL && (!cgrp_fake_root() || access(file, R_OK) == 0)) {
		avail = v2_get(base, "cgroup.controllers");
		if (!has_spaced_word(avail, ctl)) {
			char	*parent = xstrdup(base), *s;

			if ((s = strrchr(parent, '/')) != NULL)
				*s = '\0';
			rc = set_cause(cause, "%s%sthe cgroup v2 controller "
			    "'%s' is not delegated to abbench's cgroup '%s' "
			    "(its cgroup.controllers: '%s'): its parent must "
			    "enable it ('echo +%s > %s/cgroup.subtree_control')"
			    ", or start abbench in a cgroup that has it (e.g. "
			    "systemd-run --scope -p Delegate=yes abbench ...)",
			    where != NULL ? where : "",
			    where != NULL ? ": " : "", ctl, base, avail, ctl,
			    parent);
			free(parent);
		}
		free(avail);
	}
	free(file);
	free(base);
	return rc;
}

/*
 * The cgroup whose cgroup.subtree_control a run's cgroup_create may change
 * (abbench's own, v2 only, not on a mock tree), and its value now, for the
 * journal; NULL otherwise.
 */
char *
cgrp_v2_subtree_base(char **value)
{
	char	*base;

	*value = NULL;
	if (cgrp_version() != 2 || cgrp_fake_root() || v2self.base != NULL ||
	    (base = cgrp_self_dir(NULL, NULL)) == NULL)
		return NULL;
	*value = v2_get(base, "cgroup.subtree_control");
	return base;
}

/*
 * Put dir's cgroup.subtree_control back to original: every controller
 * enabled now and not then is disabled (the cgroups below that enabled
 * them further down must be gone).
 */
int
cgrp_v2_subtree_put_back(const char *dir, const char *original, char **cause)
{
	char	*on, *tok, *save = NULL, buf[64];
	int	 rc = 0, e;

	if (original == NULL)
		return set_cause(cause, "no original cgroup.subtree_control "
		    "for '%s'", dir);
	if (access(dir, F_OK) == -1)
		return errno == ENOENT ? 0 : set_cause(cause, "'%s': %s", dir,
		    strerror(errno));
	on = v2_get(dir, "cgroup.subtree_control");
	for (tok = strtok_r(on, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (has_spaced_word(original, tok))
			continue;
		snprintf(buf, sizeof buf, "-%s", tok);
		if ((e = cgrp_put(dir, "cgroup.subtree_control", buf)) != 0 &&
		    rc == 0)
			rc = set_cause(cause, "cannot disable %s in "
			    "'%s/cgroup.subtree_control': %s", tok, dir,
			    strerror(e));
	}
	free(on);
	return rc;
}

const char *
cgrp_root(void)
{
	const char	*r = getenv("ABBENCH_CGROUP_ROOT");

	return r != NULL && *r != '\0' ? r : "/sys/fs/cgroup";
}

int
cgrp_fake_root(void)
{
	const char	*r = getenv("ABBENCH_CGROUP_ROOT");

	return r != NULL && *r != '\0';
}

int
cgrp_version(void)
{
	const char	*v = getenv("ABBENCH_CGROUP_VERSION");
	struct statfs	 sf;

	if (v != NULL && (strcmp(v, "1") == 0 || strcmp(v, "2") == 0))
		return atoi(v);
	if (statfs(cgrp_root(), &sf) == 0 &&
	    (unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC)
		return 2;
	if (cgrp_fake_root())
		return 2;
	return 1;
}

int
cgrp_has_word(const char *list, const char *word)
{
	size_t		 n = strlen(word);
	const char	*p = list;

	while (*p != '\0') {
		size_t	l = strcspn(p, ",");

		if (l == n && strncmp(p, word, n) == 0)
			return 1;
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

/*
 * /proc/self/cgroup as it was before abbench moved into a cgroup of its
 * run (cgroup-home.c), or NULL: while it sits there, its own cgroups are
 * still the ones it left (the base of every cgroup it makes, and where
 * restore looks).
 */
static char	*self_frozen;

void
cgrp_self_freeze(char *text)
{
	free(self_frozen);
	self_frozen = text;
}

static char *
self_cgroup_text(char **cause)
{
	if (self_frozen != NULL)
		return xstrdup(self_frozen);
	return read_file("/proc/self/cgroup", NULL, cause);
}

char *
cgrp_self_path(const char *controller, char **cause)
{
	char	*text, *line, *save = NULL, *result = NULL;

	if (controller == NULL)
		controller = "";
	if (*controller == '\0' && v2self.base_path != NULL)
		return xstrdup(v2self.base_path);
	if ((text = self_cgroup_text(cause)) == NULL)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char	*c1 = strchr(line, ':'), *c2;

		if (c1 == NULL || (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if ((*controller == '\0' && c1[1] == '\0' &&
		    strcmp(line, "0:") == 0) || (*controller != '\0' &&
		    cgrp_has_word(c1 + 1, controller))) {
			result = xstrdup(c2 + 1);
			break;
		}
	}
	free(text);
	if (result == NULL)
		set_cause(cause, "controller '%s' not in /proc/self/cgroup",
		    *controller ? controller : "unified");
	return result;
}

char *
cgrp_self_paths(void)
{
	struct strvec	 seen = STRVEC_INIT;
	struct strbuf	 sb = STRBUF_INIT;
	char		*text, *line, *save = NULL, *c;
	size_t		 i;

	strvec_push(&seen, "/");
	if (v2self.base_path != NULL && !strvec_has(&seen, v2self.base_path))
		strvec_push(&seen, v2self.base_path);
	text = self_cgroup_text(NULL);
	for (line = text != NULL ? strtok_r(text, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if ((c = strchr(line, ':')) != NULL &&
		    (c = strchr(c + 1, ':')) != NULL && c[1] == '/' &&
		    !strvec_has(&seen, c + 1))
			strvec_push(&seen, c + 1);
	}
	free(text);
	for (i = 0; i < seen.n; i++)
		strbuf_addf(&sb, "%s\n", seen.v[i]);
	strvec_clear(&seen);
	return strbuf_detach(&sb);
}

/*
 * The mount point and root of the hierarchy of a controller (a v1
 * controller, or a named hierarchy "name=systemd"), or of cgroup2 when
 * controller is "".
 */
int
cgrp_hier_mount(const char *controller, char **mnt, char **root, char **cause)
{
	struct mountinfo	mi;
	size_t			i;
	int			r = -1;

	if (mountinfo_read(&mi, cause) == -1)
		return -1;
	for (i = 0; i < mi.n && r == -1; i++) {
		const struct mount_entry	*m = &mi.e[i];

		if (*controller == '\0' ? strcmp(m->fstype, "cgroup2") != 0 :
		    (strcmp(m->fstype, "cgroup") != 0 ||
		    !cgrp_has_word(m->super_opts, controller)))
			continue;
		*mnt = xstrdup(m->mountpoint);
		if (root != NULL)
			*root = xstrdup(m->root);
		r = 0;
	}
	mountinfo_release(&mi);
	if (r == -1)
		set_cause(cause, "no cgroup%s hierarchy for '%s'",
		    *controller == '\0' ? "2" : " v1", controller);
	return r;
}

/* The directory of PATH (as /proc/PID/cgroup shows it) below a mount
 * whose root is root (not "/" inside a cgroup namespace). */
char *
cgrp_mount_path_dir(const char *mnt, const char *root, const char *path)
{
	size_t	rl = strlen(root);

	if (strcmp(root, "/") != 0 && strncmp(path, root, rl) == 0 &&
	    (path[rl] == '/' || path[rl] == '\0'))
		path += rl;
	while (*path == '/')
		path++;
	return *path == '\0' ? xstrdup(mnt) : xasprintf("%s/%s", mnt, path);
}

char *
cgrp_path_dir(const char *controller, const char *path)
{
	char	*mnt, *root, *dir;

	if (cgrp_hier_mount(controller != NULL ? controller : "", &mnt, &root,
	    NULL) == -1)
		return NULL;
	dir = cgrp_mount_path_dir(mnt, root, path);
	free(mnt);
	free(root);
	return dir;
}

char *
cgrp_self_dir(const char *controller, char **cause)
{
	char	*self, *dir;

	if (controller == NULL)
		controller = "";
	if (cgrp_fake_root()) {
		if (cgrp_version() == 2 || *controller == '\0')
			return xstrdup(cgrp_root());
		return xasprintf("%s/%s", cgrp_root(), controller);
	}
	if (cgrp_version() == 2) {
		if (v2self.base != NULL)
			return xstrdup(v2self.base);
		if ((self = cgrp_self_path("", cause)) == NULL)
			return NULL;
		dir = xasprintf("%s%s", cgrp_root(),
		    strcmp(self, "/") == 0 ? "" : self);
		free(self);
		return dir;
	}
	if ((self = cgrp_self_path(controller, cause)) == NULL)
		return NULL;
	{
		char	*mnt, *root;

		if (cgrp_hier_mount(controller, &mnt, &root, cause) == -1) {
			free(self);
			return NULL;
		}
		dir = cgrp_mount_path_dir(mnt, root, self);
		free(mnt);
		free(root);
	}
	free(self);
	return dir;
}

const char *
cgrp_dir(const struct cgrp *cg, const char *controller)
{
	size_t	i;

	if (cg->version == 2 || controller == NULL)
		return cg->nh > 0 ? cg->h[0].dir : NULL;
	for (i = 0; i < cg->nh; i++) {
		if (strcmp(cg->h[i].controller, controller) == 0)
			return cg->h[i].dir;
	}
	/* Co-mounted: cpuacct may live in cpu's directory. */
	for (i = 0; i < cg->nh; i++) {
		char	*d = cgrp_self_dir(controller, NULL);
		int	 same = 0;

		if (d != NULL) {
			char	*full = xasprintf("%s/%s", d, cg->rel);

			same = strcmp(full, cg->h[i].dir) == 0;
			free(full);
			free(d);
		}
		if (same)
			return cg->h[i].dir;
	}
	return NULL;
}

/*
 * A controller's file missing from a v2 cgroup: its controller is not
 * enabled for it. Say which, and why when that is known.
 */
static int
v2_missing(const char *dir, const char *file, char **cause)
{
	char	*ctl = xstrndup(file, strcspn(file, "."));
	char	*parent = xstrdup(dir), *s, *avail, *on;
	int	 r;

	if ((s = strrchr(parent, '/')) != NULL)
		*s = '\0';
	avail = v2_get(parent, "cgroup.controllers");
	on = v2_get(parent, "cgroup.subtree_control");
	if (!has_spaced_word(avail, ctl))
		r = set_cause(cause, "cgroup v2: no %s in '%s': the %s "
		    "controller is not available to its parent '%s' (its "
		    "cgroup.controllers: '%s'; the cgroup above must enable "
		    "it, or delegate it)%s%s", file, dir, ctl, parent, avail,
		    v2self.why != NULL ? ": " : "",
		    v2self.why != NULL ? v2self.why : "");
	else
		r = set_cause(cause, "cgroup v2: no %s in '%s': the %s "
		    "controller is not enabled in '%s/cgroup.subtree_control' "
		    "('%s')%s%s", file, dir, ctl, parent, on,
		    v2self.why != NULL ? ": " : "",
		    v2self.why != NULL ? v2self.why : "");
	free(ctl);
	free(parent);
	free(avail);
	free(on);
	return r;
}

int
cgrp_write(struct cgrp *cg, const char *controller, const char *file,
    const char *value, char **cause)
{
	const char	*dir = cgrp_dir(cg, controller);
	char		*path;
	int		 r;

	if (dir == NULL)
		return set_cause(cause, "cgroup '%s' has no '%s' controller",
		    cg->rel, controller);
	path = xasprintf("%s/%s", dir, file);
	if (cg->version == 2 && !cgrp_fake_root() && access(path, F_OK) == -1 &&
	    errno == ENOENT && access(dir, F_OK) == 0) {
		r = v2_missing(dir, file, cause);
		free(path);
		return r;
	}
	r = write_small_file(path, value, cause);
	free(path);
	return r;
}

char *
cgrp_read(struct cgrp *cg, const char *controller, const char *file,
    char **cause)
{
	const char	*dir = cgrp_dir(cg, controller);
	char		*path, *v;

	if (dir == NULL) {
		set_cause(cause, "cgroup '%s' has no '%s' controller",
		    cg->rel, controller);
		return NULL;
	}
	path = xasprintf("%s/%s", dir, file);
	v = read_small_file(path, cause);
	free(path);
	return v;
}

int
cgrp_set_cpu_limit(struct cgrp *cg, double cpus, int64_t period_us,
    char **cause)
{
	char	buf[64];

	if (period_us <= 0)
		period_us = CGRP_CFS_PERIOD_US;
	if (cg->version == 2) {
		if (cpus <= 0)
			snprintf(buf, sizeof buf, "max %" PRId64, period_us);
		else
			snprintf(buf, sizeof buf, "%lld %" PRId64,
			    (long long)(cpus * (double)period_us + 0.5),
			    period_us);
		return cgrp_write(cg, "cpu", "cpu.max", buf, cause);
	}
	snprintf(buf, sizeof buf, "%" PRId64, period_us);
	if (cgrp_write(cg, "cpu", "cpu.cfs_period_us", buf, cause) == -1)
		return -1;
	if (cpus <= 0)
		snprintf(buf, sizeof buf, "-1");
	else
		snprintf(buf, sizeof buf, "%lld",
		    (long long)(cpus * (double)period_us + 0.5));
	return cgrp_write(cg, "cpu", "cpu.cfs_quota_us", buf, cause);
}

int
cgrp_dir_cpu_usage(const char *dir, int version, uint64_t *ns, char **cause)
{
	char		*path, *v;
	uint64_t	 usec;
	int		 r = 0;

	if (version == 2) {
		path = xasprintf("%s/cpu.stat", dir);
		v = read_small_file(path, cause);
		free(path);
		if (v == NULL)
			return -1;
		if (kv_u64(v, "usage_usec", &usec) == -1)
			r = set_cause(cause, "no usage_usec in '%s/cpu.stat'",
			    dir);
		else
			*ns = usec * 1000;
		free(v);
		return r;
	}
	path = xasprintf("%s/cpuacct.usage", dir);
	v = read_small_file(path, cause);
	free(path);
	if (v == NULL)
		return -1;
	*ns = strtoull(v, NULL, 10);
	free(v);
	return 0;
}

int
cgrp_dir_cpu_stat(const char *dir, int version, struct cgrp_cpu_stat *st,
    char **cause)
{
	char		*path, *v;
	uint64_t	 t = 0;

	path = xasprintf("%s/cpu.stat", dir);
	v = read_small_file(path, cause);
	free(path);
	if (v == NULL)
		return -1;
	memset(st, 0, sizeof *st);
	kv_u64(v, "nr_periods", &st->nr_periods);
	kv_u64(v, "nr_throttled", &st->nr_throttled);
	if (version == 2) {
		if (kv_u64(v, "throttled_usec", &t) == 0)
			st->throttled_ns = t * 1000;
	} else
		kv_u64(v, "throttled_time", &st->throttled_ns);
	free(v);
	return 0;
}

int
cgrp_cpu_stat(struct cgrp *cg, struct cgrp_cpu_stat *st, char **cause)
{
	const char	*dir = cgrp_dir(cg, "cpu");

	if (dir == NULL)
		return set_cause(cause, "cgroup '%s' has no cpu controller",
		    cg->rel);
	return cgrp_dir_cpu_stat(dir, cg->version, st, cause);
}

uint64_t
cgrp_oom_kills(struct cgrp *cg)
{
	char		*v;
	uint64_t	 n = 0;

	v = cgrp_read(cg, "memory", cg->version == 2 ? "memory.events" :
	    "memory.oom_control", NULL);
	if (v != NULL && kv_u64(v, "oom_kill", &n) == -1)
		n = 0;
	free(v);
	return n;
}
