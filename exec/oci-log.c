/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runsc's logs of a container whose call failed, kept past the container
 * (exec/exec-oci.h: oci_keep_sandbox_logs).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "exec/exec-oci.h"
#include "lib/util.h"

/* Copy a file; 0 or -1. */
static int
copy_small_file(const char *from, const char *to)
{
	size_t	 len = 0;
	char	*text = read_file(from, &len, NULL);
	FILE	*fp;
	int	 r = -1;

	if (text == NULL)
		return -1;
	if ((fp = fopen(to, "we")) != NULL) {
		r = fwrite(text, 1, len, fp) == len ? 0 : -1;
		if (fclose(fp) != 0)
			r = -1;
	}
	free(text);
	return r;
}

char *
oci_keep_sandbox_logs(const char *top, const char *logdir, const char *id)
{
	DIR		*d;
	struct dirent	*de;
	char		*dir, *from, *to;
	int		 ok = 1;

	if (top == NULL)
		return NULL;
	dir = xasprintf("%s/%s", top, id);
	if ((mkdir(top, 0700) == -1 && errno != EEXIST) ||
	    (mkdir(dir, 0700) == -1 && errno != EEXIST) ||
	    (d = opendir(logdir)) == NULL) {
		free(dir);
		return NULL;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		from = xasprintf("%s/%s", logdir, de->d_name);
		to = xasprintf("%s/%s", dir, de->d_name);
		if (copy_small_file(from, to) == -1)
			ok = 0;
		free(from);
		free(to);
	}
	closedir(d);
	if (!ok) {
		free(dir);
		return NULL;
	}
	return dir;
}
