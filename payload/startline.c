/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench-startline: a program's side of a start barrier (exec/barrier.h).
 *
 *   abbench-startline [-r READY] [-t SECONDS] GO [PROG [ARG...]]
 *
 * In the directory $ABBENCH_STARTLINE_DIR (the current one if unset):
 * with -r, append one line to the file READY (the program is ready: one
 * line per process, so that abbench can count the jobs of a container);
 * then wait until the file GO exists; with -r, append the wall-clock time
 * (CLOCK_REALTIME, ns) at which it saw GO to READY.GO (the moment this
 * process was released, which abbench reads as the start of the run that
 * follows: a sandbox's clock is the host's); and exec PROG (or exit 0). GO is
 * polled every millisecond with stat(2): a host file reached through a
 * bind mount is the one thing every runtime shares with the host (runsc
 * refuses a host FIFO there, and its flock and inotify stay inside the
 * sandbox). Exits 3 when GO has not appeared after SECONDS (default 600),
 * 2 on bad usage. It prints nothing on stdout (fio runs it before a job,
 * and its JSON follows). Static, without libabbench: it is copied as it is
 * into the tools image.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int
usage(void)
{
	fprintf(stderr, "usage: abbench-startline [-r READY] [-t SECONDS] "
	    "GO [PROG [ARG...]]\n");
	return 2;
}

/* Append "NS\n" (the wall clock now) to READY.GO; errors are the
 * reader's to notice (a missing time), never the program's. */
static void
mark_released(const char *ready, const char *go)
{
	struct timespec	 ts;
	char		 path[4096], line[32];
	const char	*base = strrchr(go, '/');
	int		 fd, len;

	clock_gettime(CLOCK_REALTIME, &ts);
	base = base != NULL ? base + 1 : go;
	len = snprintf(path, sizeof path, "%s.%s", ready, base);
	if (len < 0 || (size_t)len >= sizeof path)
		return;
	len = snprintf(line, sizeof line, "%lld\n",
	    (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd == -1)
		return;
	if (write(fd, line, (size_t)len) != len)
		fprintf(stderr, "abbench-startline: %s: %s\n", path,
		    strerror(errno));
	close(fd);
}

static double
mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	const struct timespec	 tick = { 0, 1000000 };
	const char		*dir = getenv("ABBENCH_STARTLINE_DIR");
	const char		*ready = NULL, *go;
	char			*end, line[32];
	double			 timeout = 600, until;
	struct stat		 sb;
	int			 c, fd, len;

	while ((c = getopt(argc, argv, "+r:t:")) != -1) {
		switch (c) {
		case 'r':
			ready = optarg;
			break;
		case 't':
			timeout = strtod(optarg, &end);
			if (*end != '\0' || !(timeout > 0))
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc)
		return usage();
	go = argv[optind++];
	if (dir != NULL && *dir != '\0' && chdir(dir) == -1) {
		fprintf(stderr, "abbench-startline: %s: %s\n", dir,
		    strerror(errno));
		return 1;
	}
	if (ready != NULL) {
		fd = open(ready, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		    0644);
		len = snprintf(line, sizeof line, "%ld\n", (long)getpid());
		if (fd == -1 || write(fd, line, (size_t)len) != len) {
			fprintf(stderr, "abbench-startline: %s: %s\n", ready,
			    strerror(errno));
			return 1;
		}
		close(fd);
	}
	until = mono() + timeout;
	while (stat(go, &sb) == -1) {
		if (errno != ENOENT) {
			fprintf(stderr, "abbench-startline: %s: %s\n", go,
			    strerror(errno));
			return 1;
		}
		if (mono() >= until) {
			fprintf(stderr, "abbench-startline: not released "
			    "within %g s (no %s)\n", timeout, go);
			return 3;
		}
		nanosleep(&tick, NULL);
	}
	if (ready != NULL)
		mark_released(ready, go);
	if (optind < argc) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "abbench-startline: %s: %s\n", argv[optind],
		    strerror(errno));
		return 127;
	}
	return 0;
}
