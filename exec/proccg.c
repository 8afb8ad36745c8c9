/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cgroup directories of processes abbench did not start,
 * read from /proc (a container's pid comes from docker inspect or the
 * OCI runtime's state). Pitfall 5: read them while the process runs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/cgroup.h"
#include "exec/proccg.h"
#include "lib/util.h"

char *
proccg_read(long pid, char **cause)
{
	char	path[64];

	snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
	return read_file(path, NULL, cause);
}

char *
proccg_dir(const char *text, const char *controller)
{
	const char	*p = text;
	char		*res = NULL;
	int		 v2 = controller == NULL || *controller == '\0';

	while (p != NULL && *p != '\0' && res == NULL) {
		const char	*nl = strchr(p, '\n');
		char		*line = nl ? xstrndup(p, (size_t)(nl - p)) :
				    xstrdup(p);
		char		*c1 = strchr(line, ':');
		char		*c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		p = nl ? nl + 1 : NULL;
		if (c2 != NULL) {
			*c2 = '\0';
			if ((v2 && c2 == c1 + 1) ||
			    (!v2 && cgrp_has_word(c1 + 1, controller)))
				res = cgrp_path_dir(controller, c2 + 1);
		}
		free(line);
	}
	return res;
}
