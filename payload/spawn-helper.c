/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench-spawn: the spawn helper as a program of its own (see
 * exec/spawn-serve.h). abbench forks and execs it when it starts, with
 * the socket's descriptor and abbench's pid:
 *
 *   abbench-spawn FD PARENT-PID
 *
 * Static, without the sanitizers or libabbench, so that its RSS, the
 * floor of every max-rss-B, is small and the same in every build.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exec/spawn-serve.h"

int
main(int argc, char **argv)
{
	char	*end1, *end2;
	long	 fd, parent;

	if (argc != 3)
		goto usage;
	fd = strtol(argv[1], &end1, 10);
	parent = strtol(argv[2], &end2, 10);
	if (*end1 != '\0' || *end2 != '\0' || fd < 3 || parent <= 1)
		goto usage;
	spawn_serve((int)fd, (pid_t)parent);

usage:
	fprintf(stderr, "usage: abbench-spawn FD PARENT-PID (started by "
	    "abbench)\n");
	return 2;
}
