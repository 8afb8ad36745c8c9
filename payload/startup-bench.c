/* SPDX-License-Identifier: Apache-2.0 */
/*
 * startup-bench: a small stand-in for gVisor's //test/benchmarks/base
 * startup_test, printing Go benchmark format so that the gobench workload
 * (and Go's benchstat) read it. It times `docker run --rm [--runtime RT]
 * IMAGE true` N times and prints one line per run:
 *
 *   BenchmarkStartupEmpty-2   1   312345678 ns/op
 *
 * Flags follow Go's test binaries where they overlap:
 *   -runtime=RT        docker runtime (default: docker's default)
 *   -image=IMG         image (default abbench/tools)
 *   -test.benchtime=Nx runs per invocation (default 1x)
 *   -timeout=SECONDS   per docker run (default 60)
 * The docker CLI is $ABBENCH_DOCKER when set, as for abbench itself.
 * Exit status 1 (after printing "--- FAIL: BenchmarkStartupEmpty" and the
 * reason) when a docker run fails or times out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

static long long
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Run argv with a timeout; 0 on exit status 0. */
static int
run(char **argv, int timeout_s, char *why, size_t whylen)
{
	long long	deadline = now_ns() + (long long)timeout_s * NSEC_PER_SEC;
	pid_t		pid, r;
	int		status;

	pid = fork();
	if (pid == -1) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r == -1 && errno != EINTR) {
			snprintf(why, whylen, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (now_ns() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, whylen, "timed out after %d s", timeout_s);
			return -1;
		}
		usleep(1000);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		snprintf(why, whylen, "docker run exited %d",
		    WEXITSTATUS(status));
	else
		snprintf(why, whylen, "docker run killed by signal %d",
		    WTERMSIG(status));
	return -1;
}

int
main(int argc, char **argv)
{
	const char	*runtime = NULL, *image = "abbench/tools";
	char		 rtflag[256], why[256];
	char		*dargv[10];
	long		 n = 1, timeout = 60, i, procs;
	int		 a, k;

	for (a = 1; a < argc; a++) {
		const char	*s = argv[a];

		while (*s == '-')
			s++;
		if (strncmp(s, "runtime=", 8) == 0)
			runtime = s + 8;
		else if (strncmp(s, "image=", 6) == 0)
			image = s + 6;
		else if (strncmp(s, "test.benchtime=", 15) == 0)
			n = strtol(s + 15, NULL, 10);
		else if (strncmp(s, "timeout=", 8) == 0)
			timeout = strtol(s + 8, NULL, 10);
		else if (strncmp(s, "test.", 5) == 0)
			continue;	/* other Go test flags: accepted */
		else {
			fprintf(stderr, "startup-bench: unknown flag '%s'\n",
			    argv[a]);
			return 2;
		}
	}
	if (n < 1 || timeout < 1) {
		fprintf(stderr, "startup-bench: bad -test.benchtime or "
		    "-timeout\n");
		return 2;
	}
	procs = sysconf(_SC_NPROCESSORS_ONLN);
	printf("goos: linux\ngoarch: %s\npkg: abbench/workloads/startup-bench\n",
#if defined(__x86_64__)
	    "amd64"
#elif defined(__aarch64__)
	    "arm64"
#else
	    "unknown"
#endif
	    );
	fflush(stdout);
	k = 0;
	/* The docker CLI abbench uses ($ABBENCH_DOCKER), like gVisor's. */
	dargv[k++] = getenv("ABBENCH_DOCKER") != NULL &&
	    *getenv("ABBENCH_DOCKER") != '\0' ? getenv("ABBENCH_DOCKER") :
	    "docker";
	dargv[k++] = "run";
	dargv[k++] = "--rm";
	dargv[k++] = "--network=none";
	if (runtime != NULL && *runtime != '\0') {
		snprintf(rtflag, sizeof rtflag, "--runtime=%s", runtime);
		dargv[k++] = rtflag;
	}
	dargv[k++] = (char *)image;
	dargv[k++] = "true";
	dargv[k] = NULL;
	for (i = 0; i < n; i++) {
		long long	t0 = now_ns(), t1;

		if (run(dargv, (int)timeout, why, sizeof why) != 0) {
			printf("--- FAIL: BenchmarkStartupEmpty\n    %s\n",
			    why);
			printf("FAIL\n");
			fprintf(stderr, "startup-bench: %s\n", why);
			return 1;
		}
		t1 = now_ns();
		printf("BenchmarkStartupEmpty-%ld\t       1\t%lld ns/op\n",
		    procs, t1 - t0);
		fflush(stdout);
	}
	printf("PASS\n");
	return 0;
}
