/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Removal of cgroups (cgroup.h): of one of ours (cgrp_remove), of a
 * directory and what it holds (rmdir children first, after killing what
 * is left), and of a run's cgroup in every hierarchy, where runtimes and
 * docker made it behind our back (cgrp_remove_everywhere).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/mountinfo.h"
#include "exec/cgroup.h"
#include "exec/cgroup-int.h"

/*
 * SIGKILL every process in dir and below (never abbench itself or init):
 * what is left in a cgroup we remove has no one else to stop it.
 */
static void
kill_procs(const char *dir, int depth)
{
	DIR		*d;
	struct dirent	*de;
	char		*path, *text, *p;

	path = xasprintf("%s/cgroup.procs", dir);
	text = read_file(path, NULL, NULL);
	free(path);
	for (p = text; p != NULL && *p != '\0'; ) {
		long	pid = strtol(p, &p, 10);

		if (pid > 1 && pid != (long)getpid())
			kill((pid_t)pid, SIGKILL);
		while (*p == '\n')
			p++;
		if (*p != '\0' && (*p < '0' || *p > '9'))
			break;
	}
	free(text);
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
