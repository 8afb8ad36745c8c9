/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host watched (hostset.h): the host as a run finds it when it takes
 * it (the originals of everything it changes), and before and after every
 * sample, what someone else changed of what the run set.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/hostset.h"
#include "host/hostset-int.h"
#include "host/hostset-state.h"
#include "lib/util.h"

void
hostset_attach(struct hostset *hs, struct journal *jr, struct store *st)
{
	size_t	i;

	hs->jr = jr;
	hs->st = st;
	/*
	 * The host as the run finds it, now that it holds the host (dead
	 * runs undone): each disk's scheduler and its tunables, and every
	 * other setting's files. These are the originals, whatever someone
	 * else writes later (hs_journal).
	 */
	for (i = 0; i < hs->ndisks; i++) {
		struct hs_disk	*hd = &hs->disks[i];
		char		*path = xasprintf("/sys/block/%s/queue/scheduler",
				    hd->name);
		char		*cur = hostset_read(path, 1, NULL);
		char		*dir;
		DIR		*d;
		struct dirent	*de;

		if (cur != NULL) {
			free(hd->orig_sched);
			hd->orig_sched = xstrdup(cur);
			hs_base_add(hs, path, NULL, cur);
		}
		free(path);
		dir = xasprintf("/sys/block/%s/queue/iosched", hd->name);
		if ((d = opendir(dir)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				if (de->d_name[0] == '.')
					continue;
				path = xasprintf("%s/%s", dir, de->d_name);
				if (access(path, W_OK) == 0)
					hs_base_add(hs, path, hd->orig_sched,
					    hostset_read(path, 0, NULL));
				free(path);
			}
			closedir(d);
		}
		free(dir);
	}
	for (i = 0; i < hs->nitems; i++)
		if (hs->items[i].sched == NULL)
			hs_base_add(hs, hs->items[i].path, NULL,
			    hostset_read(hs->items[i].path,
			    hostset_bracketed(hs->items[i].path), NULL));
}

/* The files the watch reads. */
static void
hs_watch_files(struct hostset *hs, struct strvec *paths)
{
	size_t	i;

	for (i = 0; i < hs->ndisks; i++) {
		char		*dir = xasprintf("/sys/block/%s/queue/iosched",
				    hs->disks[i].name);
		DIR		*d;
		struct dirent	*de;

		strvec_pushf(paths, "/sys/block/%s/queue/scheduler",
		    hs->disks[i].name);
		if ((d = opendir(dir)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				char	*p;

				if (de->d_name[0] == '.')
					continue;
				/* Tunables only: what anyone could set. */
				p = xasprintf("%s/%s", dir, de->d_name);
				if (access(p, W_OK) == 0)
					strvec_push(paths, p);
				free(p);
			}
			closedir(d);
		}
		free(dir);
	}
	for (i = 0; i < hs->nitems; i++)
		if (hs->items[i].sched == NULL &&
		    !str_startswith(hs->items[i].name, "host.block.") &&
		    !strvec_has(paths, hs->items[i].path))
			strvec_push(paths, hs->items[i].path);
}

void
hostset_watch_take(struct hostset *hs)
{
	struct strvec	paths = STRVEC_INIT;
	size_t		i;

	strvec_clear(&hs->seen_paths);
	strvec_clear(&hs->seen_values);
	if (hs->jr == NULL)
		return;
	hs_watch_files(hs, &paths);
	for (i = 0; i < paths.n; i++) {
		char	*v = hostset_read(paths.v[i],
			    hostset_bracketed(paths.v[i]), NULL);

		if (v == NULL)
			continue;	/* write-only */
		strvec_push(&hs->seen_paths, paths.v[i]);
		strvec_push(&hs->seen_values, v);
		free(v);
	}
	strvec_clear(&paths);
}

int
hostset_watch_check(struct hostset *hs, int put_back, struct strvec *changes)
{
	struct strvec	switched = STRVEC_INIT;
	size_t		i, n0 = changes->n;

	for (i = 0; i < hs->outside.n; i++)
		strvec_push(changes, hs->outside.v[i]);
	strvec_clear(&hs->outside);
	for (i = 0; i < hs->seen_paths.n; i++) {
		const char	*path = hs->seen_paths.v[i];
		const char	*was = hs->seen_values.v[i];
		char		*now, *disk = NULL, *why = NULL;
		size_t		 k;
		int		 gone = 0;

		/* A disk switched: its tunables went with its scheduler. */
		for (k = 0; k < switched.n && !gone; k++)
			gone = str_startswith(path, switched.v[k]);
		if (gone)
			continue;
		now = hostset_read(path, hostset_bracketed(path), NULL);
		if (now != NULL && hostset_same(now, was)) {
			free(now);
			continue;
		}
		if (str_startswith(path, "/sys/block/") &&
		    strstr(path, "/queue/scheduler") != NULL) {
			disk = xstrndup(path, strstr(path, "/queue/") - path);
			strvec_pushf(&switched, "%s/queue/iosched/", disk);
			strvec_pushf(changes, "the I/O scheduler of '%s' is "
			    "%s, not %s as the run set it: switched by "
			    "someone else", disk + strlen("/sys/block/"),
			    now != NULL ? now : "unreadable", was);
			free(disk);
			free(now);
			continue;	/* the next apply switches it back */
		}
		strvec_pushf(changes, "%s is %s, not %s as the run set it: "
		    "written by someone else%s", path, now != NULL ? now :
		    "unreadable", was, put_back ? ", put back" : "");
		if (put_back && now != NULL &&
		    write_small_file(path, was, &why) == -1) {
			strvec_pushf(changes, "cannot put back %s in %s: %s",
			    was, path, why);
			free(why);
		}
		free(now);
	}
	strvec_clear(&switched);
	return changes->n > n0;
}
