/* SPDX-License-Identifier: Apache-2.0 */
/*
 * syscallbench: one system call in a loop, timed by the program itself,
 * for the app workload's Syscallbench rows (the loop of gVisor's
 * test/benchmarks/base syscallbench_test.go; this is our own program,
 * copied into the abbench/syscallbench image by scripts/build-image).
 *
 *   syscallbench [--loops N] [--syscall 0|1]
 *
 *   0  getpid     getpid through libc's syscall(2) wrapper: the number
 *                 arrives in a register, so the bytes before the syscall
 *                 instruction are not a "mov $NR, %eax";
 *   1  getpidopt  the same system call issued inline as exactly
 *                 "mov $SYS_getpid, %eax; syscall" (5 + 2 bytes): the
 *                 pattern gVisor's systrap platform rewrites into a jump
 *                 to a trampoline (pkg/sentry/usertrap), so that later
 *                 calls skip the SIGSYS round trip. x86-64 only.
 *
 * It prints one line, "syscallbench: syscall=NAME loops=N ns=T", T the
 * monotonic time of the loop alone (no process or container start-up).
 * Exit 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STR1(x)	#x
#define STR(x)	STR1(x)

static const char *const names[] = { "getpid", "getpidopt" };

static long long
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int
usage(const char *why)
{
	fprintf(stderr, "syscallbench: %s\nusage: syscallbench [--loops N] "
	    "[--syscall 0|1] (0 getpid, 1 getpidopt)\n", why);
	return 2;
}

/* A positive count from "--loops=N" or "--loops N"; -1 if malformed. */
static long long
count_arg(const char *s)
{
	char		*end;
	long long	 v;

	if (s == NULL || *s == '\0')
		return -1;
	v = strtoll(s, &end, 10);
	return *end == '\0' && v >= 0 ? v : -1;
}

int
main(int argc, char **argv)
{
	long long	 loops = 1000000, which = 0, i, t0, t1;
	const char	*v;
	int		 a;

	for (a = 1; a < argc; a++) {
		long long	*dst;
		size_t		 n;

		if (strncmp(argv[a], "--loops", 7) == 0) {
			dst = &loops;
			n = 7;
		} else if (strncmp(argv[a], "--syscall", 9) == 0) {
			dst = &which;
			n = 9;
		} else
			return usage("unknown argument");
		if (argv[a][n] == '=')
			v = argv[a] + n + 1;
		else if (argv[a][n] == '\0' && a + 1 < argc)
			v = argv[++a];
		else
			return usage("an option needs a value");
		if ((*dst = count_arg(v)) < 0)
			return usage("not a count");
	}
	if (loops <= 0)
		return usage("--loops must be positive");
	if (which > 1)
		return usage("--syscall is 0 (getpid) or 1 (getpidopt)");
#if !defined(__x86_64__)
	if (which == 1)
		return usage("getpidopt needs x86-64");
#endif

	t0 = now_ns();
	if (which == 0) {
		for (i = 0; i < loops; i++)
			(void)syscall(SYS_getpid);
	} else {
		for (i = 0; i < loops; i++) {
#if defined(__x86_64__)
			long	ret;

			__asm__ volatile("movl $" STR(SYS_getpid) ", %%eax\n\t"
			    "syscall" : "=a" (ret) : : "rcx", "r11", "memory");
			(void)ret;
#endif
		}
	}
	t1 = now_ns();
	printf("syscallbench: syscall=%s loops=%lld ns=%lld\n", names[which],
	    loops, t1 - t0);
	return 0;
}
