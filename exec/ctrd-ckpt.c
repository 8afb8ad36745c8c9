/* SPDX-License-Identifier: Apache-2.0 */
/*
 * containerd's copies of docker checkpoints (exec/ctrd-ckpt.h): found
 * from /proc (each containerd's environment) and the directory listings,
 * matched against docker's own checkpoint by names, sizes and, when no
 * listing from before the restore narrows them, sha256.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/sha256.h"
#include "lib/util.h"
#include "exec/ctrd-ckpt.h"

void
ctrd_ckpt_tmpdirs(struct strvec *dirs)
{
	DIR		*d;
	struct dirent	*de;
	size_t		 n0 = dirs->n;

	if ((d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char		*path, *t;
			const char	*xdg = "", *tmp = "";
			size_t		 len = 0, off;

			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			path = xasprintf("/proc/%s/comm", de->d_name);
			t = read_small_file(path, NULL);
			free(path);
			if (t == NULL || strcmp(strtrim(t), "containerd") != 0) {
				free(t);
				continue;
			}
			free(t);
			path = xasprintf("/proc/%s/environ", de->d_name);
			t = read_file(path, &len, NULL);
			free(path);
			for (off = 0; t != NULL && off < len;
			    off += strlen(t + off) + 1)
				if (str_startswith(t + off, "XDG_RUNTIME_DIR="))
					xdg = t + off + 16;
				else if (str_startswith(t + off, "TMPDIR="))
					tmp = t + off + 7;
			path = xstrdup(*xdg ? xdg : *tmp ? tmp : "/tmp");
			if (!strvec_has(dirs, path))
				strvec_push(dirs, path);
			free(path);
			free(t);
		}
		closedir(d);
	}
	if (dirs->n == n0 && !strvec_has(dirs, "/tmp"))
		strvec_push(dirs, "/tmp");
}

void
ctrd_ckpt_list(const struct strvec *tmpdirs, struct strvec *out)
{
	DIR		*d;
	struct dirent	*de;
	size_t		 i;

	for (i = 0; i < tmpdirs->n; i++) {
		if ((d = opendir(tmpdirs->v[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL)
			if (str_startswith(de->d_name, "ctrd-checkpoint"))
				strvec_pushf(out, "%s/%s", tmpdirs->v[i],
				    de->d_name);
		closedir(d);
	}
}

/* What dir holds: "NAME SIZE" per file, "NAME/" per directory, sorted. */
static void
ckpt_files(const char *dir, struct strvec *out)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) ==
		    -1)
			continue;
		if (S_ISDIR(sb.st_mode))
			strvec_pushf(out, "%s/", de->d_name);
		else if (S_ISREG(sb.st_mode))
			strvec_pushf(out, "%s %lld", de->d_name,
			    (long long)sb.st_size);
		else
			strvec_pushf(out, "%s ?", de->d_name);
	}
	closedir(d);
	strvec_sort(out);
}

/*
 * The regular files listed in files (ckpt_files) have the same bytes in
 * dirs a and b (compared at the top level only, as they are listed; a
 * file of another kind, which reading could block on, counts as not).
 */
static int
ckpt_same_bytes(const char *a, const char *b, const struct strvec *files)
{
	size_t	i;
	int	same = 1;

	for (i = 0; same && i < files->n; i++) {
		char	*name = xstrdup(files->v[i]), *sp, *pa, *pb;
		char	 ha[65], hb[65];

		if ((sp = strrchr(name, ' ')) == NULL) {
			free(name);	/* a directory: its name matched */
			continue;
		}
		*sp = '\0';
		if (strcmp(sp + 1, "?") == 0) {
			free(name);	/* not a regular file: not read */
			return 0;
		}
		pa = xasprintf("%s/%s", a, name);
		pb = xasprintf("%s/%s", b, name);
		same = sha256_file(pa, ha, NULL) == 0 &&
		    sha256_file(pb, hb, NULL) == 0 && strcmp(ha, hb) == 0;
		free(pa);
		free(pb);
		free(name);
	}
	return same;
}

int
ctrd_ckpt_remove(const char *ckpt, const struct strvec *tmpdirs,
    const struct strvec *before)
{
	struct strvec	 now = STRVEC_INIT, ours = STRVEC_INIT;
	size_t		 i, j;
	int		 removed = 0;

	ckpt_files(ckpt, &ours);
	if (ours.n > 0)
		ctrd_ckpt_list(tmpdirs, &now);
	for (i = 0; i < now.n; i++) {
		struct strvec	 theirs = STRVEC_INIT;
		int		 same;

		if (before != NULL && strvec_has(before, now.v[i]))
			continue;
		ckpt_files(now.v[i], &theirs);
		same = theirs.n == ours.n;
		for (j = 0; same && j < ours.n; j++)
			same = strcmp(theirs.v[j], ours.v[j]) == 0;
		if (same && before == NULL)
			same = ckpt_same_bytes(ckpt, now.v[i], &ours);
		if (same && rmtree(now.v[i], NULL) == 0)
			removed++;
		strvec_clear(&theirs);
	}
	strvec_clear(&now);
	strvec_clear(&ours);
	return removed;
}

int
ctrd_ckpt_remove_container(const char *root, const char *id,
    const struct strvec *tmpdirs)
{
	DIR		*d;
	struct dirent	*de;
	char		*dir, *full = NULL;
	int		 removed = 0;

	/* The container's directory: its full id starts with id. */
	dir = xasprintf("%s/containers", root);
	if ((d = opendir(dir)) != NULL) {
		while (full == NULL && (de = readdir(d)) != NULL)
			if (*id != '\0' && de->d_name[0] != '.' &&
			    str_startswith(de->d_name, id))
				full = xasprintf("%s/%s/checkpoints", dir,
				    de->d_name);
		closedir(d);
	}
	free(dir);
	if (full == NULL || (d = opendir(full)) == NULL) {
		free(full);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		char	*ckpt;

		if (de->d_name[0] == '.')
			continue;
		ckpt = xasprintf("%s/%s", full, de->d_name);
		removed += ctrd_ckpt_remove(ckpt, tmpdirs, NULL);
		free(ckpt);
	}
	closedir(d);
	free(full);
	return removed;
}
