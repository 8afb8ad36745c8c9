/* SPDX-License-Identifier: Apache-2.0 */
/*
 * containerd's copies of docker checkpoints (exec/ctrd-ckpt.h): found
 * from /proc (each containerd's environment) and the directory listings,
 * matched against docker's own checkpoint by the names and sizes of its
 * files, then by their bytes: side by side with docker's (a live
 * restore, whose listing from before narrows the copies to those that
 * appeared) or by their sha256, taken before docker's went with the
 * container (a dead run's).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/sha256.h"
#include "lib/util.h"
#include "exec/ctrd-ckpt.h"

void
ctrd_ckpt_tmpdirs(struct strvec *dirs)
{
	struct proc_walk	 w;
	size_t			 n0 = dirs->n;
	long			 pid;

	if (proc_walk_start(&w) == 0) {
		while ((pid = proc_walk_next(&w)) > 0) {
			const char	*xdg = "", *tmp = "";
			char		*t, *path;
			size_t		 len = 0, off;

			if (!proc_comm_is(pid, "containerd"))
				continue;
			t = proc_read(pid, "environ", &len);
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
		proc_walk_end(&w);
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

/*
 * What checkpoint directory dir holds, as one string: a line "NAME SIZE"
 * per regular file and "NAME/" per directory, sorted (the top level
 * only: docker's checkpoint is flat). With bytes, a line "sha256:" and
 * the digest of each regular file follow, in the same order. NULL when
 * dir holds nothing, or with bytes when a file cannot be read or is of
 * another kind (a fifo, which reading could block on). malloc'd.
 */
static char *
ckpt_print(const char *dir, int bytes)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	struct strvec	 files = STRVEC_INIT;
	struct strbuf	 out = STRBUF_INIT;
	size_t		 i;
	int		 odd = 0;

	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) ==
		    -1)
			continue;
		if (S_ISDIR(sb.st_mode))
			strvec_pushf(&files, "%s/", de->d_name);
		else if (S_ISREG(sb.st_mode))
			strvec_pushf(&files, "%s %lld", de->d_name,
			    (long long)sb.st_size);
		else {
			strvec_pushf(&files, "%s ?", de->d_name);
			odd = 1;
		}
	}
	closedir(d);
	strvec_sort(&files);
	for (i = 0; i < files.n; i++)
		strbuf_addf(&out, "%s\n", files.v[i]);
	if (bytes && !odd && files.n > 0)
		strbuf_adds(&out, "sha256:\n");
	for (i = 0; bytes && !odd && i < files.n; i++) {
		char	*sp = strrchr(files.v[i], ' '), *path, hex[65];

		if (sp == NULL)
			continue;	/* a directory: its name is printed */
		*sp = '\0';
		path = xasprintf("%s/%s", dir, files.v[i]);
		if (sha256_file(path, hex, NULL) == -1)
			odd = 1;
		else
			strbuf_addf(&out, "%s\n", hex);
		free(path);
	}
	strvec_clear(&files);
	if (out.buf == NULL || (bytes && odd)) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out);
}

/* Up to n bytes of fd into buf: fewer only at the end; -1 on an error. */
static ssize_t
fill(int fd, char *buf, size_t n)
{
	size_t	got = 0;
	ssize_t	r;

	while (got < n) {
		if ((r = read(fd, buf + got, n - got)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Files pa and pb hold the same bytes (read side by side, to the first
 * difference; opened without blocking, should one have become a fifo). */
static int
file_same(const char *pa, const char *pb)
{
	enum { CHUNK = 65536 };
	char	*ba, *bb;
	int	 fa, fb, same = 0;
	ssize_t	 na, nb;

	if ((fa = open(pa, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return 0;
	if ((fb = open(pb, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		close(fa);
		return 0;
	}
	ba = xmalloc(CHUNK);
	bb = xmalloc(CHUNK);
	for (;;) {
		na = fill(fa, ba, CHUNK);
		nb = fill(fb, bb, CHUNK);
		if (na < 0 || na != nb || memcmp(ba, bb, (size_t)na) != 0)
			break;
		if (na == 0) {
			same = 1;
			break;
		}
	}
	free(ba);
	free(bb);
	close(fa);
	close(fb);
	return same;
}

/* Directories a and b, whose ckpt_print (without bytes) is print, hold
 * the same bytes in each regular file. */
static int
ckpt_same_bytes(const char *a, const char *b, const char *print)
{
	const char	*line, *nl;
	int		 same = 1;

	for (line = print; same && *line != '\0'; line = nl + 1) {
		char	*l, *sp, *pa, *pb;

		if ((nl = strchr(line, '\n')) == NULL)
			break;
		l = xstrndup(line, (size_t)(nl - line));
		if ((sp = strrchr(l, ' ')) != NULL) {
			*sp = '\0';
			pa = xasprintf("%s/%s", a, l);
			pb = xasprintf("%s/%s", b, l);
			same = strcmp(sp + 1, "?") != 0 && file_same(pa, pb);
			free(pa);
			free(pb);
		}
		free(l);
	}
	return same;
}

int
ctrd_ckpt_remove(const char *ckpt, const struct strvec *tmpdirs,
    const struct strvec *before)
{
	struct strvec	 now = STRVEC_INIT;
	char		*ours, *theirs;
	size_t		 i;
	int		 removed = 0;

	if ((ours = ckpt_print(ckpt, 0)) == NULL)
		return 0;
	ctrd_ckpt_list(tmpdirs, &now);
	for (i = 0; i < now.n; i++) {
		if (before != NULL && strvec_has(before, now.v[i]))
			continue;
		theirs = ckpt_print(now.v[i], 0);
		if (theirs != NULL && strcmp(theirs, ours) == 0 &&
		    ckpt_same_bytes(ckpt, now.v[i], ours) &&
		    rmtree(now.v[i], NULL) == 0)
			removed++;
		free(theirs);
	}
	strvec_clear(&now);
	free(ours);
	return removed;
}

void
ctrd_ckpt_prints(const char *root, const char *id, struct strvec *prints)
{
	DIR		*d;
	struct dirent	*de;
	char		*dir, *full = NULL, *pr;

	/* The container's directory: its full id starts with id. */
	dir = xasprintf("%s/containers", root);
	if (*id != '\0' && (d = opendir(dir)) != NULL) {
		while (full == NULL && (de = readdir(d)) != NULL)
			if (de->d_name[0] != '.' &&
			    str_startswith(de->d_name, id))
				full = xasprintf("%s/%s/checkpoints", dir,
				    de->d_name);
		closedir(d);
	}
	free(dir);
	if (full == NULL || (d = opendir(full)) == NULL) {
		free(full);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		char	*ckpt;

		if (de->d_name[0] == '.')
			continue;
		ckpt = xasprintf("%s/%s", full, de->d_name);
		if ((pr = ckpt_print(ckpt, 1)) != NULL)
			strvec_push(prints, pr);
		free(pr);
		free(ckpt);
	}
	closedir(d);
	free(full);
}

int
ctrd_ckpt_remove_printed(const struct strvec *prints,
    const struct strvec *tmpdirs, struct strvec *removed)
{
	struct strvec	 now = STRVEC_INIT;
	size_t		 i, j;
	int		 n = 0;

	if (prints->n > 0)
		ctrd_ckpt_list(tmpdirs, &now);
	for (i = 0; i < now.n; i++) {
		char	*files = ckpt_print(now.v[i], 0), *all = NULL;

		/* The bytes are read only when the names and sizes match. */
		for (j = 0; files != NULL && j < prints->n; j++)
			if (str_startswith(prints->v[j], files) &&
			    str_startswith(prints->v[j] + strlen(files),
			    "sha256:\n"))
				break;
		if (files != NULL && j < prints->n &&
		    (all = ckpt_print(now.v[i], 1)) != NULL &&
		    strvec_has(prints, all) && rmtree(now.v[i], NULL) == 0) {
			if (removed != NULL)
				strvec_push(removed, now.v[i]);
			n++;
		}
		free(all);
		free(files);
	}
	strvec_clear(&now);
	return n;
}
