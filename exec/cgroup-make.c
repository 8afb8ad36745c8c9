/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Making and removing a run's cgroups (cgroup.h): creation with libcgroup
 * on real v1 hierarchies (mkdir on v2 and on test trees, the controllers
 * enabled on the way down on v2), and removal: of one of ours
 * (cgrp_remove), of a directory and what it holds (rmdir children first,
 * after killing what is left), and of a run's cgroup in every hierarchy,
 * where runtimes and docker made it behind our back
 * (cgrp_remove_everywhere). What it knows of the hierarchies and of
 * abbench's own cgroup is cgroup.c's (cgroup-int.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libcgroup.h>

#include "lib/mountinfo.h"
#include "exec/cgroup.h"
#include "exec/cgroup-int.h"

static int
libcgroup_ready(void)
{
	static int	state;	/* 0 unknown, 1 ok, -1 unusable */

	if (state == 0)
		state = cgroup_init() == 0 ? 1 : -1;
	return state == 1;
}

/* The hierarchy-relative name of a directory, for libcgroup. */
static const char *
rel_to_mount(const char *dir, const char *controller)
{
	char		*mnt = NULL;
	const char	*p = NULL;
	size_t		 l;

	if (cgrp_hier_mount(controller, &mnt, NULL, NULL) == 0) {
		l = strlen(mnt);
		if (strncmp(dir, mnt, l) == 0 && dir[l] == '/')
			p = dir + l;
		free(mnt);
	}
	return p;
}

static int
make_dir(const char *dir, const char *controller, int use_lib, char **cause)
{
	const char	*rel;
	struct cgroup	*c;
	int		 r;

	if (use_lib && (rel = rel_to_mount(dir, controller)) != NULL) {
		c = cgroup_new_cgroup(rel);
		if (c == NULL)
			return set_cause(cause, "cannot create cgroup '%s'",
			    dir);
		if (cgroup_add_controller(c, controller) == NULL) {
			cgroup_free(&c);
			return set_cause(cause, "cannot create cgroup '%s'",
			    dir);
		}
		r = cgroup_create_cgroup(c, 0);
		cgroup_free(&c);
		if (r != 0)
			return set_cause(cause, "cannot create cgroup '%s': %s",
			    dir, cgroup_strerror(r));
		return 0;
	}
	/* mkdir -p */
	{
		char	*p = xstrdup(dir), *s;

		for (s = p + 1; *s != '\0'; s++) {
			if (*s != '/')
				continue;
			*s = '\0';
			if (mkdir(p, 0755) == -1 && errno != EEXIST) {
				set_cause(cause, "cannot create '%s': %s", p,
				    strerror(errno));
				free(p);
				return -1;
			}
			*s = '/';
		}
		free(p);
	}
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		return set_cause(cause, "cannot create cgroup '%s': %s", dir,
		    strerror(errno));
	return 0;
}

static void
cgrp_add_hier(struct cgrp *cg, const char *controller, char *dir)
{
	cg->h = xreallocarray(cg->h, cg->nh + 1, sizeof *cg->h);
	cg->h[cg->nh].controller = xstrdup(controller);
	cg->h[cg->nh].dir = dir;
	cg->nh++;
	strvec_pushf(&cg->procs, "%s/cgroup.procs", dir);
}

int
cgrp_can_create(char **cause)
{
	const char *const	*c;
	char			*dir;
	int			 rc = 0;

	for (c = cgrp_default_controllers; *c != NULL && rc == 0; c++) {
		if ((dir = cgrp_self_dir(cgrp_version() == 2 ? NULL : *c,
		    cause)) == NULL)
			return -1;
		if (access(dir, W_OK) == -1)
			rc = set_cause(cause, "cannot make cgroups below "
			    "'%s': %s", dir, strerror(errno));
		free(dir);
		if (cgrp_version() == 2)
			break;
	}
	return rc;
}

struct cgrp *
cgrp_create(const char *rel, const char *const *controllers, char **cause)
{
	struct cgrp		*cg = xcalloc(1, sizeof *cg);
	const char *const	*c;
	char			*base, *dir;
	size_t			 i;

	cg->rel = xstrdup(rel);
	cg->version = cgrp_version();
	if (controllers == NULL)
		controllers = cgrp_default_controllers;
	if (cg->version == 2) {
		struct strvec	ctl = STRVEC_INIT;

		if ((base = cgrp_self_dir(NULL, cause)) == NULL)
			goto fail;
		dir = xasprintf("%s/%s", base, rel);
		for (c = controllers; *c != NULL; c++) {
			const char	*v2 = strcmp(*c, "blkio") == 0 ? "io" :
			    strcmp(*c, "cpuacct") == 0 ? NULL : *c;

			if (v2 != NULL && !strvec_has(&ctl, v2))
				strvec_push(&ctl, v2);
		}
		if (make_dir(dir, "", 0, cause) == -1) {
			free(base);
			free(dir);
			strvec_clear(&ctl);
			goto fail;
		}
		/* Enable the controllers on the way down. */
		cgrp_v2_enable(base, dir, &ctl, rel);
		free(base);
		strvec_clear(&ctl);
		cgrp_add_hier(cg, "", dir);
		return cg;
	}
	for (c = controllers; *c != NULL; c++) {
		if ((base = cgrp_self_dir(*c, cause)) == NULL)
			goto fail;
		dir = xasprintf("%s/%s", base, rel);
		free(base);
		/* Co-mounted controllers (cpu,cpuacct) share a directory. */
		for (i = 0; i < cg->nh; i++) {
			if (strcmp(cg->h[i].dir, dir) == 0)
				break;
		}
		if (i < cg->nh) {
			free(dir);
			continue;
		}
		if (make_dir(dir, *c, !cgrp_fake_root() && libcgroup_ready(),
		    cause) == -1) {
			free(dir);
			goto fail;
		}
		cgrp_add_hier(cg, *c, dir);
	}
	return cg;

fail:
	cgrp_remove(cg, NULL);
	cgrp_free(cg);
	return NULL;
}

char *
cgrp_runtime_path(const char *rel)
{
	char	*self, *p;

	if (cgrp_fake_root() || cgrp_version() != 2 ||
	    (self = cgrp_self_path("", NULL)) == NULL)
		return xstrdup(rel);
	p = xasprintf("%s/%s", strcmp(self, "/") == 0 ? "" : self, rel);
	free(self);
	return p;
}

/*
 * SIGKILL every process in dir and below (never abbench itself or init):
 * what is left in a cgroup we remove has no one else to stop it.
 */
static void
kill_procs(const char *dir, int depth)
{
	DIR		*d;
	struct dirent	*de;
	char		*path;
	long		*pids;
	size_t		 n, i;

	path = xasprintf("%s/cgroup.procs", dir);
	pids = cgrp_read_pids(path, &n);
	free(path);
	for (i = 0; i < n; i++)
		if (pids[i] > 1 && pids[i] != (long)getpid())
			kill((pid_t)pids[i], SIGKILL);
	free(pids);
	if (depth < 64 && (d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_type == DT_DIR && de->d_name[0] != '.') {
				char	*sub = xasprintf("%s/%s", dir,
				    de->d_name);

				kill_procs(sub, depth + 1);
				free(sub);
			}
		}
		closedir(d);
	}
}

/* rmdir children first, then dir. Missing dir is fine. */
static int
remove_tree(const char *dir, int depth, char **cause)
{
	DIR		*d;
	struct dirent	*de;
	const char	*leaf = cgrp_v2_leaf();
	char		*held = NULL;
	int		 tries, r = 0;

	if (depth > 64)
		return set_cause(cause, "'%s': cgroups nested too deeply",
		    dir);
	/* Where abbench sits (cgrp_home_enter): back out first. */
	cgrp_home_leave_under(dir);
	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT ? 0 :
		    set_cause(cause, "cannot open '%s': %s", dir,
		    strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			char	*sub = xasprintf("%s/%s", dir, de->d_name);
			size_t	 sl = strlen(sub);

			/* Where abbench sits (v2_move_to_leaf): last. */
			if (leaf != NULL && held == NULL &&
			    strncmp(leaf, sub, sl) == 0 &&
			    (leaf[sl] == '/' || leaf[sl] == '\0')) {
				held = sub;
				continue;
			}
			if (remove_tree(sub, depth + 1, r == 0 ? cause :
			    NULL) == -1)
				r = -1;
			free(sub);
		}
	}
	closedir(d);
	if (held != NULL) {
		if (r == 0 && strcmp(held, leaf) == 0)
			cgrp_v2_return();
		if (remove_tree(held, depth + 1, r == 0 ? cause : NULL) == -1)
			r = -1;
		free(held);
	}
	if (r == -1)
		return -1;
	for (tries = 0; tries < 200; tries++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		kill_procs(dir, 0);
		usleep(10000);
	}
	return set_cause(cause, "cannot remove cgroup '%s': %s", dir,
	    strerror(errno));
}

int
cgrp_remove_dir(const char *dir, char **cause)
{
	kill_procs(dir, 0);
	return remove_tree(dir, 0, cause);
}

int
cgrp_remove(struct cgrp *cg, char **cause)
{
	size_t	i;
	int	r = 0;

	if (cg == NULL || cg->removed)
		return 0;
	for (i = 0; i < cg->nh; i++)
		kill_procs(cg->h[i].dir, 0);
	for (i = 0; i < cg->nh; i++) {
		if (remove_tree(cg->h[i].dir, 0, r == 0 ? cause : NULL) == -1)
			r = -1;
	}
	if (r == 0)
		cg->removed = 1;
	return r;
}

void
cgrp_free(struct cgrp *cg)
{
	size_t	i;

	if (cg == NULL)
		return;
	for (i = 0; i < cg->nh; i++) {
		free(cg->h[i].controller);
		free(cg->h[i].dir);
	}
	free(cg->h);
	strvec_clear(&cg->procs);
	free(cg->rel);
	free(cg);
}

void
cgrp_hierarchies(struct strvec *mnts, struct strvec *roots)
{
	struct mountinfo	mi;
	size_t			i;

	if (cgrp_fake_root()) {
		/* A test tree: v2 is the directory, v1 its subdirectories. */
		if (cgrp_version() == 2) {
			strvec_push(mnts, cgrp_root());
			strvec_push(roots, "/");
		} else {
			DIR		*d = opendir(cgrp_root());
			struct dirent	*de;

			while (d != NULL && (de = readdir(d)) != NULL) {
				if (de->d_type != DT_DIR ||
				    de->d_name[0] == '.')
					continue;
				strvec_pushf(mnts, "%s/%s", cgrp_root(),
				    de->d_name);
				strvec_push(roots, "/");
			}
			if (d != NULL)
				closedir(d);
		}
		return;
	}
	if (mountinfo_read(&mi, NULL) == -1)
		return;
	for (i = 0; i < mi.n; i++) {
		if ((strcmp(mi.e[i].fstype, "cgroup") == 0 ||
		    strcmp(mi.e[i].fstype, "cgroup2") == 0) &&
		    !strvec_has(mnts, mi.e[i].mountpoint)) {
			strvec_push(mnts, mi.e[i].mountpoint);
			strvec_push(roots, mi.e[i].root);
		}
	}
	mountinfo_release(&mi);
}

/* Add each line of paths not seen yet. */
static void
add_paths(struct strvec *sv, const char *paths)
{
	const char	*p = paths, *nl;
	char		*one;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		one = nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		if (one[0] == '/' && !strvec_has(sv, one))
			strvec_push(sv, one);
		free(one);
		p = nl != NULL ? nl + 1 : NULL;
	}
}

int
cgrp_remove_everywhere(const char *rel, const char *bases, char **cause)
{
	struct strvec	 mnts = STRVEC_INIT, roots = STRVEC_INIT;
	struct strvec	 paths = STRVEC_INIT, dirs = STRVEC_INIT;
	char		*self, *base, *dir;
	size_t		 i, j;
	int		 r = 0;

	if (rel == NULL || rel[0] == '/' || strstr(rel, "..") != NULL ||
	    !str_startswith(rel, "abbench-"))
		return set_cause(cause, "refusing cgroup '%s': not a run's "
		    "cgroup (abbench-...)", rel != NULL ? rel : "");
	/* At the root, where we are, where the caller's abbench was. */
	strvec_push(&paths, "/");
	if (!cgrp_fake_root()) {
		self = cgrp_self_paths();
		add_paths(&paths, self);
		free(self);
		add_paths(&paths, bases);
	}
	cgrp_hierarchies(&mnts, &roots);
	for (i = 0; i < mnts.n; i++) {
		for (j = 0; j < paths.n; j++) {
			base = cgrp_mount_path_dir(mnts.v[i], roots.v[i],
			    paths.v[j]);
			dir = xasprintf("%s/%s", base, rel);
			free(base);
			if (!strvec_has(&dirs, dir))
				strvec_push(&dirs, dir);
			free(dir);
		}
	}
	for (i = 0; i < dirs.n; i++) {
		if (cgrp_remove_dir(dirs.v[i], r == 0 ? cause : NULL) == -1)
			r = -1;
	}
	strvec_clear(&mnts);
	strvec_clear(&roots);
	strvec_clear(&paths);
	strvec_clear(&dirs);
	return r;
}
