/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spawn helper's protocol and server side (see SPAWN_OWN_RSS in
 * exec/spawn.h, and spawn.c for the client). Self-contained, libc only:
 * it is built into libabbench and into the static, uninstrumented
 * program abbench-spawn (payload/spawn-helper.c).
 *
 * On a stream socketpair abbench sends struct helper_req with the
 * child's descriptors attached (SCM_RIGHTS, in enum helper_fd order,
 * those in fdmask), then the strings (argv, envp, cgroup.procs paths,
 * cwd, each NUL-terminated). The helper answers the child's pid or
 * -errno, then waits until the child has exec'd or died (it runs on the
 * helper's stack and strings) before it reads the next request. Once
 * started, the helper sends one byte, HELPER_READY.
 */
#ifndef ABBENCH_SPAWN_SERVE_H
#define ABBENCH_SPAWN_SERVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HELPER_READY	'H'
/* exec/spawn.h's SPAWN_KEEP_GROUP (spawn.c checks they agree). */
#define HELPER_KEEP_GROUP	(1 << 6)
#define HELPER_MAX_LEN	(64u * 1024 * 1024)

enum helper_fd {
	HFD_CWD,	/* abbench's working directory (O_PATH) */
	HFD_SYNC,	/* sync pipe, write end: exec error or ready byte */
	HFD_GO,		/* go pipe, read end (handshake) */
	HFD_IN,		/* stdin, stdout, stderr; absent: /dev/null */
	HFD_OUT,
	HFD_ERR,
	HFD_N
};

struct helper_req {
	uint32_t	flags;
	int32_t		parent;
	uint32_t	argc, envc, ncg, has_cwd;
	uint32_t	fdmask;
	uint32_t	handshake;
	uint64_t	len;
};

/*
 * What a new child does between clone and exec, on both paths (spawn.c's
 * own clone and the helper's): in the memory of whoever cloned it, so
 * nothing here allocates.
 */
struct spawn_child_args {
	char *const	*argv;
	char *const	*envp;		/* NULL: the environment as it is */
	char *const	*cg;		/* cgroup.procs files to join */
	const int	*cg_fds;	/* or: them open, -1 ended; or NULL */
	const char	*cwd;		/* or NULL */
	int		 flags;		/* HELPER_KEEP_GROUP */
	int		 handshake;	/* "R" on HFD_SYNC, wait on HFD_GO */
	pid_t		 parent;	/* dies unless this is its parent */
	/* HFD_CWD: -1 stays; HFD_IN..HFD_ERR: -1 is /dev/null. */
	int		 fd[HFD_N];
	int		 close_fd;	/* closed before the handshake, or -1 */
	int		 devnull;	/* /dev/null open O_RDWR, or -1 */
	/*
	 * Instead of the handshake, for a CLONE_VM child of abbench itself:
	 * the CLOCK_MONOTONIC time the joining of its cgroups took, written
	 * there (the parent reads it once the child has exec'd, and takes
	 * it out of the child's time). No round trip, and no wake-up of the
	 * child inside the timed window.
	 */
	int64_t		*join_ns;
	/*
	 * Where an error goes instead of HFD_SYNC, NUL-terminated: a
	 * CLONE_VFORK child of abbench itself, whose parent reads it once
	 * the child has exec'd or died (no sync pipe). NULL: HFD_SYNC.
	 */
	char		*err;
	size_t		 errlen;
};
/*
 * Dies with parent, joins the cgroups, sets up its descriptors and
 * directory, then execs; an error goes to err or HFD_SYNC ("what:
 * strerror") and it exits 127. Never returns.
 */
int	spawn_child_exec(void *arg);

/* Serve requests on sock until EOF; the children's parent is parent
 * (abbench, CLONE_PARENT). Dies with parent. Never returns. */
void	spawn_serve(int sock, pid_t parent) __attribute__((noreturn));
/* read/send exactly len bytes (EINTR retried, no SIGPIPE); 0 or -1. */
int	spawn_serve_read_full(int fd, void *buf, size_t len);
int	spawn_serve_write_full(int fd, const void *buf, size_t len);

#endif
