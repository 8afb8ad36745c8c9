/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files: read whole, written small, trees removed, paths named (their
 * declarations in lib/util.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

char *
read_file(const char *path, size_t *lenp, char **cause)
{
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		set_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	return read_fd(fd, path, lenp, cause);
}

char *
read_fd(int fd, const char *path, size_t *lenp, char **cause)
{
	struct strbuf	sb = STRBUF_INIT;
	char		buf[65536];
	ssize_t		n;

	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			set_cause(cause, "cannot read '%s': %s", path,
			    strerror(errno));
			close(fd);
			strbuf_release(&sb);
			return NULL;
		}
		if (n == 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	close(fd);
	if (lenp != NULL)
		*lenp = sb.len;
	return strbuf_detach(&sb);
}

char *
read_small_file(const char *path, char **cause)
{
	char	*s = read_file(path, NULL, cause);
	size_t	 n;

	if (s == NULL)
		return NULL;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

int
write_small_file(const char *path, const char *value, char **cause)
{
	size_t	n = strlen(value);
	ssize_t	w;
	int	fd;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
	w = write(fd, value, n);
	if (w < 0 || (size_t)w != n) {
		int	e = w < 0 ? errno : EIO;

		close(fd);
		return set_cause(cause, "cannot write '%s' to '%s': %s",
		    value, path, strerror(e));
	}
	if (close(fd) == -1)
		return set_cause(cause, "cannot write '%s' to '%s': %s",
		    value, path, strerror(errno));
	return 0;
}

static int
rmtree_one(const char *path, const struct stat *sb, int type,
    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path) == -1 && errno != ENOENT ? -1 : 0;
	return unlink(path) == -1 && errno != ENOENT ? -1 : 0;
}

char *
tmp_path(const char *name)
{
	const char	*t = getenv("TMPDIR");

	return xasprintf("%s/%s", t != NULL && *t != '\0' ? t : "/tmp",
	    name);
}

int
rmtree(const char *path, char **cause)
{
	struct stat	sb;

	if (lstat(path, &sb) == -1 && errno == ENOENT)
		return 0;
	if (nftw(path, rmtree_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) ==
	    -1)
		return set_cause(cause, "cannot remove '%s': %s", path,
		    strerror(errno));
	return 0;
}

char *
path_dir(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}
