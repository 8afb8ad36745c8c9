/*
 * Cgroup directories and relatives of processes abbench did not start,
 * read from /proc (a container's pid comes from docker inspect or the
 * OCI runtime's state). Pitfall 5: read them while the process runs.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/proccg.h"
#include "harness/util.h"

char *
proccg_read(long pid, char **cause)
{
	char	path[64];

	snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
	return read_file(path, NULL, cause);
}

static int
has_item(const char *list, const char *item)
{
	size_t		 n = strlen(item);
	const char	*p = list;

	while (*p != '\0') {
		size_t	len = strcspn(p, ",");

		if (len == n && strncmp(p, item, n) == 0)
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/*
 * The mount point and root of the hierarchy of a controller (v1) or of
 * cgroup2 (controller NULL), from /proc/self/mountinfo.
 */
static int
find_mount(const char *controller, char **mnt, char **root)
{
	FILE	*f = fopen("/proc/self/mountinfo", "r");
	char	*line = NULL;
	size_t	 cap = 0;
	int	 found = 0;

	if (f == NULL)
		return -1;
	while (!found && getline(&line, &cap, f) != -1) {
		char	*f4, *f5, *sep, *fstype, *opts, *save = NULL;
		int	 i;
		char	*tok = strtok_r(line, " ", &save);

		f4 = f5 = NULL;
		for (i = 1; tok != NULL && i <= 5; i++) {
			if (i == 4)
				f4 = tok;
			if (i == 5)
				f5 = tok;
			if (i < 5)
				tok = strtok_r(NULL, " ", &save);
		}
		if (f4 == NULL || f5 == NULL)
			continue;
		while ((sep = strtok_r(NULL, " ", &save)) != NULL &&
		    strcmp(sep, "-") != 0)
			;
		if (sep == NULL)
			continue;
		fstype = strtok_r(NULL, " ", &save);
		(void)strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " \n", &save);
		if (fstype == NULL)
			continue;
		if (controller == NULL || *controller == '\0') {
			if (strcmp(fstype, "cgroup2") != 0)
				continue;
		} else {
			if (strcmp(fstype, "cgroup") != 0 || opts == NULL ||
			    !has_item(opts, controller))
				continue;
		}
		*mnt = xstrdup(f5);
		*root = xstrdup(f4);
		found = 1;
	}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

char *
proccg_dir(const char *text, const char *controller)
{
	const char	*p = text;
	char		*mnt = NULL, *root = NULL, *res = NULL;
	int		 v2 = controller == NULL || *controller == '\0';

	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		char		*line = nl ? xstrndup(p, (size_t)(nl - p)) :
				    xstrdup(p);
		char		*c1 = strchr(line, ':');
		char		*c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		p = nl ? nl + 1 : NULL;
		if (c2 == NULL) {
			free(line);
			continue;
		}
		*c2 = '\0';
		if ((v2 && c2 == c1 + 1) || (!v2 && has_item(c1 + 1,
		    controller))) {
			const char	*rel = c2 + 1;

			if (find_mount(controller, &mnt, &root) == -1) {
				free(line);
				return NULL;
			}
			if (strcmp(root, "/") != 0 &&
			    str_startswith(rel, root))
				rel += strlen(root);
			res = xasprintf("%s%s%s", mnt, *rel == '/' ? "" : "/",
			    rel);
			free(mnt);
			free(root);
			free(line);
			return res;
		}
		free(line);
	}
	return NULL;
}

long
proc_ppid(long pid)
{
	char	 path[64], *text, *p;
	long	 ppid = -1;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((text = read_file(path, NULL, NULL)) == NULL)
		return -1;
	/* The command name may hold spaces and parentheses: after the last
	 * ')' come the state and the parent pid. */
	if ((p = strrchr(text, ')')) != NULL)
		sscanf(p + 1, " %*c %ld", &ppid);
	free(text);
	return ppid;
}

long
proc_child_named(long ppid, const char *prefix)
{
	DIR		*d = opendir("/proc");
	struct dirent	*de;
	long		 found = -1;

	if (d == NULL)
		return -1;
	while (found == -1 && (de = readdir(d)) != NULL) {
		char	*end, path[300], *cmd;
		long	 pid = strtol(de->d_name, &end, 10);

		if (*end != '\0' || pid <= 0 || proc_ppid(pid) != ppid)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		if ((cmd = read_file(path, NULL, NULL)) == NULL)
			continue;
		if (str_startswith(cmd, prefix))
			found = pid;
		free(cmd);
	}
	closedir(d);
	return found;
}

int
proccg_rmdir_everywhere(const char *path)
{
	FILE	*f = fopen("/proc/self/mountinfo", "r");
	char	*line = NULL;
	size_t	 cap = 0;
	int	 left = 0;

	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) != -1) {
		char	 mnt[4096], fstype[64], *sep;
		char	*dir;

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		if ((sep = strstr(line, " - ")) == NULL ||
		    sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		if (strcmp(fstype, "cgroup") != 0 &&
		    strcmp(fstype, "cgroup2") != 0)
			continue;
		dir = xasprintf("%s%s", mnt, path);
		if (rmdir(dir) == -1 && errno != ENOENT)
			left = 1;
		free(dir);
	}
	free(line);
	fclose(f);
	return left ? -1 : 0;
}
