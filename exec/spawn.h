/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Child processes: spawned from argv arrays (never through a shell), with
 * optional environment additions, an optional cgroup to join before exec,
 * captured output, and a deadline after which the child (and its process
 * group) gets SIGTERM, a grace period, then SIGKILL. Every child is reaped;
 * the raw wait status and rusage (wait4) are kept.
 *
 * Children registered here are killed by spawn_kill_all_now() (used by
 * the signal path so that Ctrl-C never leaves a child behind).
 */
#ifndef ABBENCH_SPAWN_H
#define ABBENCH_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "lib/util.h"

enum spawn_flags {
	SPAWN_CAPTURE_OUT = 1 << 0,	/* keep stdout in child->out */
	SPAWN_CAPTURE_ERR = 1 << 1,	/* keep stderr in child->err */
	SPAWN_NULL_OUT = 1 << 2,	/* stdout to /dev/null */
	SPAWN_NULL_ERR = 1 << 3,	/* stderr to /dev/null */
	SPAWN_NULL_IN = 1 << 4,		/* stdin from /dev/null (default) */
	SPAWN_STDIN_BUF = 1 << 5,	/* feed child->in (then close) */
	/*
	 * The child leaves long-lived processes behind that must outlive it
	 * (`runc create`, `runsc create` and `runsc restore` leave the
	 * container's init, gofer and sandbox): it starts a session of its
	 * own (setsid), so no terminal signal reaches them, and its process
	 * group is not killed when it is reaped. A timeout or spawn_kill()
	 * still kills the whole group: what a hung call left is garbage.
	 * Output cannot be captured (spawn_start fails): what the child
	 * leaves behind inherits its stdio and would hold the pipes, or die
	 * of SIGPIPE once they are closed. Use /dev/null and a log file.
	 */
	SPAWN_KEEP_GROUP = 1 << 6,
	/*
	 * The child's peak RSS (ru_maxrss) will be read: start it from the
	 * spawn helper (spawn_helper_start), whose small address space is
	 * the one the child runs on until exec, instead of abbench's. The
	 * kernel records that address space's high-water mark into the
	 * child's maxrss at exec, so otherwise ru_maxrss >= abbench's own
	 * peak. abbench stays the parent. Fails when there is no helper.
	 */
	SPAWN_OWN_RSS = 1 << 7,
	/*
	 * With SPAWN_CAPTURE_ERR: stderr goes to the caller's pipe
	 * child->err_pipe ([0] the read end, O_NONBLOCK; both close-on-exec),
	 * kept from one child to the next, instead of a pipe made and closed
	 * for each (a pipe2 before the clock and two closes inside it, ~4 us
	 * a sample here). One child at a time may use it. What the child
	 * wrote is what the poll that saw it exit found there; the pipe's
	 * ends are never closed here. A child that left processes in its
	 * group (group_left) may have left them writing to it: the caller
	 * makes a new one.
	 */
	SPAWN_ERR_SHARED = 1 << 8,
};

struct child {
	/* Filled by the caller before spawn: */
	char *const	*argv;
	char *const	*env_add;	/* NAME=VALUE added to the env */
	int		 flags;
	const char	*cwd;
	/* cgroup.procs files the child writes its pid into before exec. */
	char *const	*cgroup_procs;
	/*
	 * The same files already open for writing (O_CLOEXEC), ended by -1,
	 * or NULL: the child writes to these instead of opening the paths
	 * (a kernfs path walk per hierarchy per sample). cgroup_procs must
	 * still name them: the spawn helper's children use the paths.
	 */
	const int	*cgroup_fds;
	const char	*in;		/* SPAWN_STDIN_BUF data */
	size_t		 inlen;
	int64_t		 grace_ns;	/* SIGTERM to SIGKILL (default 2s) */
	/*
	 * With SPAWN_CAPTURE_OUT: a reader of stdout as it comes, so that
	 * out holds only what it has not taken yet (memory stays bounded
	 * whatever the child prints). Called with the bytes kept so far
	 * (at least one new), returns how many of them it consumed; at the
	 * end (spawn_wait done) once more with eof 1.
	 */
	size_t		(*on_out)(void *arg, const char *data, size_t len,
			    int eof);
	void		*on_out_arg;
	int		 err_pipe[2];	/* SPAWN_ERR_SHARED's pipe */
	/* Filled by spawn / wait: */
	pid_t		 pid;
	/*
	 * Monotonic: just before clone, like any launcher's (hyperfine's,
	 * time(1)'s), later by the time the child spent joining cgroups
	 * (abbench's bookkeeping, not the program's). From the spawn
	 * helper (SPAWN_OWN_RSS) with cgroups: once the child has joined
	 * them and is about to exec.
	 */
	int64_t		 start_ns;
	int64_t		 end_ns;	/* reaped, monotonic */
	int		 status;	/* raw wait status */
	int		 timed_out;
	int		 reaped;
	/* At the reap, processes were left in its group (then killed). */
	int		 group_left;
	struct rusage	 ru;
	struct strbuf	 out;
	struct strbuf	 err;
	int		 out_fd, err_fd, in_fd;	/* internal */
	int		 pidfd;			/* internal: from clone */
	int		 by_sigfd;		/* internal: its exit seen */
	unsigned long	 sig_gen;		/* by the SIGCHLD fd */
	size_t		 in_off;		/* internal */
};

/*
 * The spawn helper: the static program abbench-spawn (libexec_find), or
 * without it a fork of abbench (call this early, before abbench grows),
 * that starts SPAWN_OWN_RSS children on its behalf with
 * clone(CLONE_VM | CLONE_PARENT). It dies with abbench (PR_SET_PDEATHSIG,
 * EOF on its socket) and is killed and reaped at exit (atexit) or by
 * spawn_helper_stop(). Start: 0, or -1 with *cause; safe twice.
 */
int	spawn_helper_start(char **cause);
void	spawn_helper_stop(void);
/* Pid of the helper, -1 when none. */
pid_t	spawn_helper_pid(void);

/* Start the child; it runs in its own process group (with
 * SPAWN_KEEP_GROUP in its own session). */
int	spawn_start(struct child *c, char **cause);
/*
 * Wait for the child (collecting output) until it exits or deadline_ns
 * (CLOCK_MONOTONIC; 0 = no deadline) passes, then kill it. Returns 0
 * when reaped (check status/timed_out), -1 with *cause on a system error.
 */
int	spawn_wait(struct child *c, int64_t deadline_ns, char **cause);
/*
 * What a running child with SPAWN_CAPTURE_OUT has printed so far, taken
 * into c->out without waiting (spawn_wait collects the rest, and the
 * whole stays in c->out); "" when nothing yet. Borrowed, valid until the
 * next call on c. For a look at a program's progress while it runs.
 */
const char *spawn_peek(struct child *c);
/* Run a child to completion with a timeout (ns, 0 = none). */
int	spawn_run(struct child *c, int64_t timeout_ns, char **cause);
/* Convenience: run argv, capture stdout (and stderr), timeout in ns. The
 * returned status is the raw wait status; output strings are malloc'd. */
int	spawn_capture(char *const *argv, int64_t timeout_ns, char **out,
	    char **err, int *status, char **cause);
/* Kill (TERM, grace, KILL) and reap; safe twice. */
void	spawn_kill(struct child *c);
void	spawn_release(struct child *c);
/* Kill every live child (signal path). Async-signal-safe part: sends
 * SIGKILL to each registered process group. */
void	spawn_kill_all_now(void);
/* "exited 3", "killed by SIGKILL", "timed out". malloc'd. */
char	*spawn_describe_status(int status, int timed_out);
/* The last n lines of a buffer, malloc'd. */
char	*last_lines(const char *s, size_t len, int n);

#endif
