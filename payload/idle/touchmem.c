/* SPDX-License-Identifier: Apache-2.0 */
/*
 * touchmem: an idle container's program that owns a known amount of
 * memory. It allocates SIZE (bytes, or with a k/m/g suffix), writes every
 * page so the kernel really backs it, writes "touched N" on stdout and
 * then sleeps until SIGTERM/SIGINT (it exits 0 then; as a container's PID 1
 * it needs its own handler, pitfall 4).
 *
 *   touchmem SIZE
 *   touchmem -x SIZE	touch, print, exit 0 at once (a peak RSS of SIZE
 *			plus the program's own, for `command` report = rss)
 *
 * Static and self-contained (no libabbench): it is copied as it is into
 * the tools image and the OCI rootfs.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t	touchmem_stop;

static void
touchmem_on_signal(int sig)
{
	(void)sig;
	touchmem_stop = 1;
}

static int
touchmem_parse(const char *s, uint64_t *out)
{
	char			*end;
	unsigned long long	 v;

	v = strtoull(s, &end, 10);
	if (end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		v <<= 10;
		end++;
		break;
	case 'm': case 'M':
		v <<= 20;
		end++;
		break;
	case 'g': case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end != '\0')
		return -1;
	*out = v;
	return 0;
}

int
main(int argc, char **argv)
{
	struct sigaction	 sa;
	sigset_t		 block, old;
	uint64_t		 size;
	volatile unsigned char	*p;
	long			 page = sysconf(_SC_PAGESIZE);
	uint64_t		 off;
	int			 exit_now = 0;

	if (argc == 3 && strcmp(argv[1], "-x") == 0) {
		exit_now = 1;
		argv++;
		argc--;
	}
	if (argc != 2 || touchmem_parse(argv[1], &size) == -1) {
		fprintf(stderr, "usage: touchmem [-x] SIZE (e.g. 6m)\n");
		return 2;
	}
	/* Blocked until sigsuspend, so a signal can never slip in between
	 * the check of touchmem_stop and the wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = touchmem_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (size > 0) {
		/* mmap, not malloc: the amount is exactly what we touch. */
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("touchmem: mmap");
			return 1;
		}
		for (off = 0; off < size; off += (uint64_t)page)
			p[off] = (unsigned char)(off / (uint64_t)page | 1);
	}
	printf("touched %llu\n", (unsigned long long)size);
	fflush(stdout);
	if (exit_now)
		return 0;
	sigdelset(&old, SIGTERM);
	sigdelset(&old, SIGINT);
	while (!touchmem_stop)
		sigsuspend(&old);
	return 0;
}
