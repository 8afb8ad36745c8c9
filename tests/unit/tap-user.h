/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks that need an ordinary user, for the C unit tests (after tap.h,
 * with config.h first: setresuid is GNU's).
 */
#ifndef ABBENCH_TAP_USER_H
#define ABBENCH_TAP_USER_H

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * fn(arg), n checks that need an ordinary user (a file root could write
 * anyway): run here when not root, else in a child as nobody (65534),
 * whose check lines are counted here and whose failures are ours (its
 * exit status; a fork that fails is n failed checks). Not skipped as
 * root, which is how CI runs.
 */
static inline void
tap_unprivileged(void (*fn)(void *), void *arg, int n)
{
	pid_t	pid;
	int	status = 0;

	if (geteuid() != 0) {
		fn(arg);
		return;
	}
	fflush(stdout);
	if ((pid = fork()) == -1) {
		while (n-- > 0)
			tap_ok(0, "cannot fork to become nobody");
		return;
	}
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setresgid(65534, 65534,
		    65534) != 0 || setresuid(65534, 65534, 65534) != 0) {
			printf("Bail out! cannot become nobody\n");
			_exit(1);
		}
		fn(arg);
		fflush(stdout);
		_exit(tap_failed > 0);
	}
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	tap_count += n;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		tap_failed++;
}

#endif
