/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Child processes from argv arrays with deadlines: clone (CLONE_VM |
 * CLONE_VFORK, as posix_spawn does), join the requested cgroups, exec;
 * collect output through pipes while waiting for SIGCHLD (a signalfd) or
 * on the pidfd clone gave;
 * SIGTERM the process group at the deadline, SIGKILL after the grace time,
 * and always reap (wait4 keeps the rusage). Once reaped, what is left in
 * the group is killed too, unless the child was started to leave
 * something behind (SPAWN_KEEP_GROUP).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/spawn-serve.h"
#include "exec/spawn.h"
#include "lib/proc.h"

_Static_assert(HELPER_KEEP_GROUP == SPAWN_KEEP_GROUP,
    "exec/spawn-serve.h and exec/spawn.h disagree");

/* AddressSanitizer: gcc says so with a macro, clang with a feature. */
#if defined(__SANITIZE_ADDRESS__)
#define SPAWN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPAWN_ASAN 1
#endif
#endif
#ifdef SPAWN_ASAN
#include <sanitizer/asan_interface.h>
/*
 * The child's code runs on a stack ASan does not know: left instrumented,
 * its noreturn calls make ASan warn that it cannot clean that stack.
 */
#define SPAWN_CHILD_CODE __attribute__((no_sanitize_address))
#else
#define SPAWN_CHILD_CODE
#endif

#define SPAWN_MAX_LIVE		1024
#define SPAWN_ERR_KEEP		(64 * 1024)
#define SPAWN_DEFAULT_GRACE	(2 * NSEC_PER_SEC)
/*
 * How long a child may outlive its SIGKILL before spawn_wait gives up on
 * it, in graces (10 s at the default): a process in uninterruptible sleep
 * (a hung filesystem, a stuck device, a frozen cgroup) cannot die, and a
 * harness that waited for it would hang with it. It is left to the kernel
 * (and to the cgroup removal that follows), and the wait fails naming its
 * state and where it sleeps.
 */
#define SPAWN_UNKILLABLE_GRACES	5
#define SPAWN_STACK		(256 * 1024)

/* The children's stack: one child at a time runs on it until exec. */
static void		*child_stack;

extern char **environ;

/* Process groups of live children, for the signal path. */
static volatile pid_t	live[SPAWN_MAX_LIVE];

static void
live_add(pid_t pid)
{
	int	i;

	for (i = 0; i < SPAWN_MAX_LIVE; i++) {
		if (live[i] == 0) {
			live[i] = pid;
			return;
		}
	}
}

static void
live_remove(pid_t pid)
{
	int	i;

	for (i = 0; i < SPAWN_MAX_LIVE; i++) {
		if (live[i] == pid)
			live[i] = 0;
	}
}

void
spawn_kill_all_now(void)
{
	int	i;

	for (i = 0; i < SPAWN_MAX_LIVE; i++) {
		if (live[i] > 0) {
			kill(-live[i], SIGKILL);
			kill(live[i], SIGKILL);
		}
	}
}

static char **
build_env(char *const *add)
{
	struct strvec	sv = STRVEC_INIT;
	char *const	*e;
	char *const	*a;
	size_t		 klen;
	int		 replaced;

	for (e = environ; *e != NULL; e++) {
		replaced = 0;
		for (a = add; a != NULL && *a != NULL; a++) {
			klen = strcspn(*a, "=");
			if (strncmp(*e, *a, klen) == 0 && (*e)[klen] == '=')
				replaced = 1;
		}
		if (!replaced)
			strvec_push(&sv, *e);
	}
	for (a = add; a != NULL && *a != NULL; a++)
		strvec_push(&sv, *a);
	return sv.v;
}

/*
 * What the child needs; it runs on its own stack in the parent's memory
 * (CLONE_VM, like posix_spawn), so it must not allocate, and leaves by
 * exec or _exit only. The parent is suspended meanwhile (CLONE_VFORK):
 * what the child writes here (join_ns, err) is read once it has exec'd
 * or died.
 */
struct spawn_args {
	struct child	 *c;
	char		**envp;
	pid_t		  parent;
	int		  devnull;
	int		  outp[2], errp[2], inp[2];
	int64_t		  join_ns;	/* the cgroups' join took that */
	char		  err[512];	/* why it did not exec, or "" */
};

/*
 * The child side of spawn_start. Sharing the parent's memory instead of a
 * copy of it (fork) keeps the exec cheap whatever the size of abbench: the
 * old address space is not torn down inside the timed window. What it
 * does before exec is the spawn helper's children's (spawn-serve.c).
 */
static int SPAWN_CHILD_CODE
spawn_child(void *arg)
{
	struct spawn_args	*a = arg;
	struct child		*c = a->c;
	struct spawn_child_args	 ca;

	memset(&ca, 0, sizeof ca);
	ca.argv = c->argv;
	ca.envp = a->envp;
	ca.cg = c->cgroup_procs;
	ca.cg_fds = c->cgroup_fds;
	ca.cwd = c->cwd;
	ca.flags = (c->flags & SPAWN_KEEP_GROUP) ? HELPER_KEEP_GROUP : 0;
	ca.parent = a->parent;
	ca.devnull = a->devnull;
	ca.fd[HFD_CWD] = -1;
	ca.fd[HFD_SYNC] = -1;
	ca.fd[HFD_GO] = -1;
	ca.fd[HFD_IN] = (c->flags & SPAWN_STDIN_BUF) ? a->inp[0] : -1;
	ca.fd[HFD_OUT] = (c->flags & SPAWN_CAPTURE_OUT) ? a->outp[1] :
	    (c->flags & SPAWN_NULL_OUT) ? -1 : 1;
	ca.fd[HFD_ERR] = (c->flags & SPAWN_CAPTURE_ERR) ? a->errp[1] :
	    (c->flags & SPAWN_NULL_ERR) ? -1 : 2;
	ca.close_fd = -1;
	ca.join_ns = &a->join_ns;
	ca.err = a->err;
	ca.errlen = sizeof a->err;
	return spawn_child_exec(&ca);
}

static void
free_env(char **envp)
{
	struct strvec	sv = { envp, 0, 0 };

	if (envp == NULL)
		return;
	while (envp[sv.n] != NULL)
		sv.n++;
	strvec_clear(&sv);
}

/* The one stack children are cloned on, mapped once; -1 and errno. */
static int
spawn_stack_ready(void)
{
	if (child_stack == NULL) {
		void	*st = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		if (st == MAP_FAILED)
			return -1;
		child_stack = st;
	}
#ifdef SPAWN_ASAN
	/*
	 * The last child left the shadow of its frames as it was when it
	 * exec'd (it never returned to clean it), and instrumented code
	 * assumes a new frame's locals start out unpoisoned.
	 */
	__asan_unpoison_memory_region(child_stack, SPAWN_STACK);
#endif
	return 0;
}

/* Does c's stderr go to the caller's pipe (SPAWN_ERR_SHARED)? */
static int
err_shared(const struct child *c)
{
	return (c->flags & SPAWN_ERR_SHARED) && (c->flags & SPAWN_CAPTURE_ERR);
}

/* Close the child's ends of the pipes; keep the parent's in c. */
static void
spawn_parent_ends(struct child *c, const int outp[2], const int errp[2],
    const int inp[2])
{
	if (outp[1] != -1)
		close(outp[1]);
	if (errp[1] != -1)
		close(errp[1]);
	if (inp[0] != -1)
		close(inp[0]);
	c->out_fd = outp[0];
	c->err_fd = err_shared(c) ? c->err_pipe[0] : errp[0];
	c->in_fd = inp[1];
	if (c->in_fd != -1)
		fcntl(c->in_fd, F_SETFL, O_NONBLOCK);
	/* drain() after a poll timeout must not block on a silent child. */
	if (c->out_fd != -1)
		fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
	if (errp[0] != -1)
		fcntl(errp[0], F_SETFL, O_NONBLOCK);
}

/*
 * Wait on the sync pipe sync0 (closed here, as are gop's ends): with a
 * handshake, for the ready byte, then let the child go on through gop;
 * then for exec. Returns the length of the child's error message in msg
 * (size bytes), <= 0 when the child exec'd.
 */
static ssize_t
spawn_sync(struct child *c, int handshake, int sync0, const int gop[2],
    char *msg, size_t size)
{
	ssize_t	n;

	if (handshake) {
		char	r = 0;

		close(gop[0]);
		do
			n = read(sync0, &r, 1);
		while (n == -1 && errno == EINTR);
		if (n == 1 && r == 'R') {
			c->start_ns = now_mono_ns();
			(void)!write(gop[1], "G", 1);
		} else if (n == 1) {
			/* An error message instead of the ready byte. */
			msg[0] = r;
			do
				n = read(sync0, msg + 1, size - 2);
			while (n == -1 && errno == EINTR);
			n = n < 0 ? 1 : n + 1;
			close(gop[1]);
			close(sync0);
			return n;
		}
		close(gop[1]);
	}
	/* The sync pipe closes on exec; a message means exec failed. */
	do
		n = read(sync0, msg, size - 1);
	while (n == -1 && errno == EINTR);
	close(sync0);
	return n;
}

/*
 * The spawn helper (SPAWN_OWN_RSS). At exec the kernel records the old
 * address space's RSS high-water mark into the new program's maxrss
 * (fs/exec.c), and a CLONE_VM child's old address space is abbench's: its
 * ru_maxrss would be at least abbench's own peak (a fork child's, the
 * size of its copy). So children whose peak RSS is read are cloned by a
 * small process, with CLONE_PARENT so that abbench is still their parent
 * (wait4, rusage, timeouts, process groups and reaping are unchanged).
 * That process is the static program abbench-spawn (~0.7 MiB), or a fork
 * of abbench made before it grows (~2 MiB) when the program is missing;
 * it resets its high-water mark before each clone, so its RSS is the
 * floor of the child's maxrss, whatever abbench's. The protocol and the
 * server are in exec/spawn-serve.[ch]; the client is here.
 */
static pid_t	helper_pid = -1;
static int	helper_fd = -1;
static pid_t	helper_owner = -1;
static char	helper_error[256];

static void
helper_atexit(void)
{
	spawn_helper_stop();
}

/*
 * Fork the helper; in the child, exec path (abbench-spawn) or, when path
 * is NULL, serve from the fork itself. 0 once it said it is ready.
 */
static int
helper_fork(const char *path, pid_t self)
{
	char	fdarg[16], pidarg[16], r = 0;
	pid_t	pid;
	int	sv[2], e;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		return -1;
	snprintf(fdarg, sizeof fdarg, "%d", sv[1]);
	snprintf(pidarg, sizeof pidarg, "%d", (int)self);
	pid = fork();
	if (pid == -1) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		sigset_t	none;

		/* SIGCHLD is blocked in abbench once it waited for one. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(sv[0]);
		if (path != NULL) {
			/* Survives exec; the helper checks getppid too. */
			(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (fcntl(sv[1], F_SETFD, 0) == 0)
				execl(path, "abbench-spawn", fdarg, pidarg,
				    (char *)NULL);
			_exit(127);
		}
		spawn_serve(sv[1], self);
	}
	close(sv[1]);
	if (spawn_serve_read_full(sv[0], &r, 1) == -1 || r != HELPER_READY) {
		close(sv[0]);
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		errno = ECHILD;
		return -1;
	}
	helper_pid = pid;
	helper_fd = sv[0];
	helper_owner = self;
	return 0;
}

int
spawn_helper_start(char **cause)
{
	static int	 registered;
	pid_t		 self = getpid();
	char		*path, *ignore = NULL;

	if (helper_pid > 0 && helper_owner == self)
		return 0;
	/*
	 * The static program: its RSS (a few hundred KiB) is the floor of
	 * max-rss-B whatever abbench's build and size (ASan's runtime alone
	 * is megabytes). Without it, a fork of abbench serves, and
	 * abbench's RSS at this moment is the floor.
	 */
	path = libexec_find("abbench-spawn", &ignore);
	free(ignore);
	if ((path == NULL || helper_fork(path, self) == -1) &&
	    helper_fork(NULL, self) == -1) {
		free(path);
		snprintf(helper_error, sizeof helper_error, "%s",
		    strerror(errno));
		return set_cause(cause, "cannot start the spawn helper: %s",
		    helper_error);
	}
	free(path);
	helper_error[0] = '\0';
	if (!registered) {
		atexit(helper_atexit);
		registered = 1;
	}
	return 0;
}

void
spawn_helper_stop(void)
{
	int	saved = errno;

	if (helper_fd != -1)
		close(helper_fd);
	helper_fd = -1;
	/* A forked copy of abbench does not own the helper. */
	if (helper_pid > 0 && helper_owner == getpid()) {
		kill(helper_pid, SIGKILL);
		while (waitpid(helper_pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	helper_pid = -1;
	errno = saved;
}

pid_t
spawn_helper_pid(void)
{
	/* No helper (the common case): no getpid, a system call a sample. */
	return helper_pid > 0 && helper_owner == getpid() ? helper_pid : -1;
}

/*
 * Have the helper clone the child: fds are the child's ends (-1: none),
 * cwd_fd abbench's working directory. *pidp on success; -1 with *cause.
 */
static int
helper_spawn(struct child *c, char **envp, int handshake,
    const int fds[HFD_N], pid_t *pidp, char **cause)
{
	struct helper_req	 req;
	struct strbuf		 blob = STRBUF_INIT;
	union {
		char		buf[CMSG_SPACE(HFD_N * sizeof(int))];
		struct cmsghdr	align;
	} u;
	struct msghdr		 mh;
	struct iovec		 iov;
	struct cmsghdr		*cm;
	char *const		*s;
	int			 send_fds[HFD_N], nfds = 0, i;
	int32_t			 reply;
	ssize_t			 n;

	if (helper_fd == -1 || spawn_helper_pid() == -1)
		return set_cause(cause, "'%s': its peak RSS is measured from "
		    "the spawn helper, which is not running%s%s", c->argv[0],
		    helper_error[0] != '\0' ? ": " : "", helper_error);
	memset(&req, 0, sizeof req);
	req.flags = (uint32_t)c->flags;
	req.parent = (int32_t)getpid();
	req.handshake = handshake != 0;
	for (s = c->argv; *s != NULL; s++, req.argc++)
		strbuf_add(&blob, *s, strlen(*s) + 1);
	for (s = envp; *s != NULL; s++, req.envc++)
		strbuf_add(&blob, *s, strlen(*s) + 1);
	for (s = c->cgroup_procs; s != NULL && *s != NULL; s++, req.ncg++)
		strbuf_add(&blob, *s, strlen(*s) + 1);
	if (c->cwd != NULL) {
		req.has_cwd = 1;
		strbuf_add(&blob, c->cwd, strlen(c->cwd) + 1);
	}
	req.len = blob.len;
	for (i = 0; i < HFD_N; i++) {
		if (fds[i] != -1) {
			req.fdmask |= 1u << i;
			send_fds[nfds++] = fds[i];
		}
	}
	memset(&mh, 0, sizeof mh);
	memset(&u, 0, sizeof u);
	iov.iov_base = &req;
	iov.iov_len = sizeof req;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
	memcpy(CMSG_DATA(cm), send_fds, (size_t)nfds * sizeof(int));
	do
		n = sendmsg(helper_fd, &mh, MSG_NOSIGNAL);
	while (n == -1 && errno == EINTR);
	if (n < 0 || (n < (ssize_t)sizeof req && spawn_serve_write_full(helper_fd,
	    (char *)&req + n, sizeof req - (size_t)n) == -1) ||
	    spawn_serve_write_full(helper_fd, blob.buf, blob.len) == -1 ||
	    spawn_serve_read_full(helper_fd, &reply, sizeof reply) == -1) {
		strbuf_release(&blob);
		/* The helper is gone (or confused): no more from it. */
		snprintf(helper_error, sizeof helper_error, "it has gone");
		close(helper_fd);
		helper_fd = -1;
		return set_cause(cause, "cannot start '%s': the spawn helper "
		    "has gone", c->argv[0]);
	}
	strbuf_release(&blob);
	if (reply < 0)
		return set_cause(cause, "cannot start '%s': %s", c->argv[0],
		    strerror(-reply));
	*pidp = (pid_t)reply;
	return 0;
}

static void
spawn_close_all(int outp[2], int errp[2], int inp[2], int syncp[2],
    int gop[2])
{
	int	*fds[] = { outp, errp, inp, syncp, gop };
	size_t	 i;

	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		if (fds[i][0] != -1)
			close(fds[i][0]);
		if (fds[i][1] != -1)
			close(fds[i][1]);
	}
}

/*
 * /dev/null, open for every child's stdio (a path walk and a close per
 * sample otherwise). Above 2, so that it never is one of the
 * descriptors the child sets up. -1 and errno when it cannot be opened.
 */
static int
spawn_devnull(void)
{
	static int	fd = -1;
	int		tmp;

	if (fd != -1)
		return fd;
	if ((tmp = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		return -1;
	if (tmp > 2) {
		fd = tmp;
		return fd;
	}
	fd = fcntl(tmp, F_DUPFD_CLOEXEC, 3);
	close(tmp);
	return fd;
}

/*
 * The exits of our children, read from a signalfd of SIGCHLD, blocked in
 * every thread of abbench (the main thread's here; the others start with
 * every signal blocked, and the children with none: spawn_child_exec).
 * One descriptor for all of them: a pidfd a child is made by clone and
 * closed after the reap, ~2 us of abbench's time between two samples
 * here (bench/inline-vs-hyperfine), a read of this one ~1. SIGCHLD is
 * not queued: one read may take the exits of several children, so each
 * read counts (sigchld_gen), and the wait of a child started before the
 * last one tries its reap before it polls. -1: none (not the main
 * thread, no signalfd): the pidfds, as before.
 */
static int		sigchld_fd = -2;
static unsigned long	sigchld_gen;

static int
sigchld_get(void)
{
	sigset_t	s;

	if (sigchld_fd != -2)
		return sigchld_fd;
	sigchld_fd = -1;
	if (getpid() != (pid_t)syscall(SYS_gettid))
		return -1;
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	if (pthread_sigmask(SIG_BLOCK, &s, NULL) != 0)
		return -1;
	if ((sigchld_fd = signalfd(-1, &s, SFD_NONBLOCK | SFD_CLOEXEC)) == -1)
		(void)pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	return sigchld_fd;
}

/*
 * What SIGCHLD said, taken (pending, it would wake every poll): 1 when
 * it was the exit of pid (not its stop: an exit after a stop's SIGCHLD,
 * still pending, is not said again).
 */
static int
sigchld_take(pid_t pid)
{
	struct signalfd_siginfo	si[4];
	ssize_t			n, i;
	int			its = 0;

	while ((n = read(sigchld_fd, si, sizeof si)) == -1 && errno == EINTR)
		;
	for (i = 0; i < n / (ssize_t)sizeof si[0]; i++)
		its |= (pid_t)si[i].ssi_pid == pid &&
		    (si[i].ssi_code == CLD_EXITED ||
		    si[i].ssi_code == CLD_KILLED ||
		    si[i].ssi_code == CLD_DUMPED);
	sigchld_gen++;
	return its;
}

/*
 * clone() with the child's pidfd (CLONE_PIDFD, Linux 5.2) into *pidfd,
 * or -1 there where the kernel has none (it is then opened by
 * spawn_wait) or the SIGCHLD fd tells the exit.
 */
static pid_t
spawn_clone(struct spawn_args *args, int *pidfd)
{
#ifdef CLONE_PIDFD
	static int	no_pidfd;
#endif
	pid_t		pid;
	int		flags = CLONE_VM | CLONE_VFORK | SIGCHLD;

	*pidfd = -1;
#ifdef CLONE_PIDFD
	if (!no_pidfd && !args->c->by_sigfd) {
		pid = clone(spawn_child, (char *)child_stack + SPAWN_STACK,
		    flags | CLONE_PIDFD, args, pidfd);
		if (pid != -1 || errno != EINVAL)
			return pid;
		no_pidfd = 1;
		*pidfd = -1;
	}
#endif
	return clone(spawn_child, (char *)child_stack + SPAWN_STACK, flags,
	    args);
}

/*
 * A child cloned here (not by the helper). CLONE_VM | CLONE_VFORK, like
 * posix_spawn: it runs in our memory, and we are suspended until it has
 * exec'd or died, so there is no sync pipe to make, wait on and close:
 * a failure before exec is written into args.err, and how long the join
 * of its cgroups took into args.join_ns. The time starts just before
 * clone, like any launcher's (hyperfine's spawn, time(1)'s fork), and
 * the join is taken out of it: it is abbench's bookkeeping, which no
 * plain launch of the program does.
 */
static int
spawn_start_own(struct child *c, char **envp, const int outp[2],
    const int errp[2], const int inp[2], char **cause)
{
	struct spawn_args	 args;
	pid_t			 pid;
	int			 pidfd, devnull;

	if (spawn_stack_ready() == -1 || (devnull = spawn_devnull()) == -1)
		return set_cause(cause, "cannot start '%s': %s", c->argv[0],
		    strerror(errno));
	memset(&args, 0, sizeof args);
	args.c = c;
	args.envp = envp;
	args.parent = getpid();
	args.devnull = devnull;
	memcpy(args.outp, outp, sizeof args.outp);
	memcpy(args.errp, errp, sizeof args.errp);
	memcpy(args.inp, inp, sizeof args.inp);
	c->start_ns = now_mono_ns();
	pid = spawn_clone(&args, &pidfd);
	if (pid == -1)
		return set_cause(cause, "cannot start '%s': %s", c->argv[0],
		    strerror(errno));
	c->pid = pid;
	c->pidfd = pidfd;
	c->start_ns += args.join_ns;
	live_add(pid);
	if (args.err[0] != '\0') {
		spawn_wait(c, 0, NULL);
		return set_cause(cause, "cannot run '%s': %s", c->argv[0],
		    args.err);
	}
	return 0;
}

int
spawn_start(struct child *c, char **cause)
{
	int	 outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int	 inp[2] = { -1, -1 }, syncp[2] = { -1, -1 };
	int	 gop[2] = { -1, -1 };
	int	 handshake = c->cgroup_procs != NULL && c->cgroup_procs[0] != NULL;
	char	**envp = NULL;
	char	 msg[512];
	char	*hcause = NULL;
	int	 fds[HFD_N];
	const int *cerr = errp;	/* the child's stderr pipe */
	ssize_t	 n;
	pid_t	 pid;
	int	 e, rc;

	c->pid = -1;
	c->pidfd = -1;
	c->status = -1;
	c->timed_out = 0;
	c->reaped = 0;
	c->group_left = 0;
	c->by_sigfd = sigchld_get() != -1;
	c->sig_gen = sigchld_gen;
	c->out_fd = c->err_fd = c->in_fd = -1;
	c->in_off = 0;
	if (c->argv == NULL || c->argv[0] == NULL)
		return set_cause(cause, "empty command");
	if ((c->flags & SPAWN_KEEP_GROUP) &&
	    (c->flags & (SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR)))
		return set_cause(cause, "'%s': a child that leaves processes "
		    "behind cannot have its output captured", c->argv[0]);
	if (((c->flags & SPAWN_CAPTURE_OUT) && pipe2(outp, O_CLOEXEC) == -1) ||
	    ((c->flags & SPAWN_CAPTURE_ERR) && !err_shared(c) &&
	    pipe2(errp, O_CLOEXEC) == -1) ||
	    ((c->flags & SPAWN_STDIN_BUF) && pipe2(inp, O_CLOEXEC) == -1)) {
		e = errno;
		goto fail_errno;
	}
	if (c->env_add != NULL || (c->flags & SPAWN_OWN_RSS))
		envp = build_env(c->env_add);
	if (err_shared(c))
		cerr = c->err_pipe;

	if (!(c->flags & SPAWN_OWN_RSS)) {
		rc = spawn_start_own(c, envp, outp, cerr, inp, cause);
		/* The child has exec'd or is gone: its environment can go. */
		free_env(envp);
		if (rc == -1) {
			spawn_close_all(outp, errp, inp, syncp, gop);
			return -1;
		}
		spawn_parent_ends(c, outp, errp, inp);
		return 0;
	}

	/*
	 * The helper's children do not share our memory: a sync pipe says
	 * when they exec'd (or why they could not), and with cgroups to
	 * join, a handshake takes the start once they have joined.
	 */
	if (pipe2(syncp, O_CLOEXEC) == -1 ||
	    (handshake && pipe2(gop, O_CLOEXEC) == -1)) {
		e = errno;
		goto fail_errno;
	}
	c->start_ns = now_mono_ns();
	fds[HFD_CWD] = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	fds[HFD_SYNC] = syncp[1];
	fds[HFD_GO] = gop[0];
	fds[HFD_IN] = inp[0];
	fds[HFD_OUT] = (c->flags & SPAWN_CAPTURE_OUT) ? outp[1] :
	    (c->flags & SPAWN_NULL_OUT) ? -1 : 1;
	fds[HFD_ERR] = (c->flags & SPAWN_CAPTURE_ERR) ? cerr[1] :
	    (c->flags & SPAWN_NULL_ERR) ? -1 : 2;
	if (fds[HFD_CWD] == -1) {
		e = errno;
		goto fail_errno;
	}
	pid = -1;
	if (helper_spawn(c, envp, handshake, fds, &pid, &hcause) == -1) {
		close(fds[HFD_CWD]);
		spawn_close_all(outp, errp, inp, syncp, gop);
		free_env(envp);
		if (cause != NULL)
			*cause = hcause;
		else
			free(hcause);
		return -1;
	}
	close(fds[HFD_CWD]);
	c->pid = pid;
	/*
	 * Also from the parent: no race with a signal before setpgid. Not
	 * for a new session: setsid fails in a process group leader (a
	 * signal before it still reaches the child itself).
	 */
	if (!(c->flags & SPAWN_KEEP_GROUP))
		setpgid(pid, pid);
	live_add(pid);
	close(syncp[1]);
	syncp[1] = -1;
	spawn_parent_ends(c, outp, errp, inp);
	n = spawn_sync(c, handshake, syncp[0], gop, msg, sizeof msg);
	free_env(envp);
	if (n > 0) {
		msg[n] = '\0';
		if (n > 0 && msg[n - 1] == '\n')
			msg[n - 1] = '\0';
		spawn_wait(c, 0, NULL);
		return set_cause(cause, "cannot run '%s': %s", c->argv[0],
		    msg);
	}
	return 0;

fail_errno:
	spawn_close_all(outp, errp, inp, syncp, gop);
	free_env(envp);
	return set_cause(cause, "cannot start '%s': %s", c->argv[0],
	    strerror(e));
}

static void
drain(int *fd, struct strbuf *sb, size_t keep, struct child *feed,
    int shared)
{
	char	buf[16384];
	ssize_t	n;
	size_t	used;

	for (;;) {
		n = read(*fd, buf, sizeof buf);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n <= 0) {
			if (!shared)
				close(*fd);
			*fd = -1;
			return;
		}
		strbuf_add(sb, buf, (size_t)n);
		/* A reader of the stream: what it took is not kept. */
		if (feed != NULL && feed->on_out != NULL) {
			used = feed->on_out(feed->on_out_arg, sb->buf,
			    sb->len, 0);
			if (used > sb->len)
				used = sb->len;
			memmove(sb->buf, sb->buf + used, sb->len - used);
			sb->len -= used;
			sb->buf[sb->len] = '\0';
		}
		if (keep != 0 && sb->len > 2 * keep) {
			memmove(sb->buf, sb->buf + sb->len - keep, keep);
			sb->len = keep;
			sb->buf[keep] = '\0';
		}
		if ((size_t)n < sizeof buf)
			return;
	}
}

/* "state D, in wchan p9_client_rpc" from /proc (malloc'd). */
static char *
proc_state(pid_t pid)
{
	struct proc_stat	 s;
	char			*wchan = proc_read((long)pid, "wchan", NULL), *t;

	t = xasprintf("state %c, in wchan %s", proc_stat((long)pid, &s) == 0 ?
	    s.state : '?', wchan != NULL && *wchan != '\0' ? wchan : "?");
	free(wchan);
	return t;
}

static int
try_reap(struct child *c, int block)
{
	pid_t	r;
	int	status;

	do
		r = wait4(c->pid, &status, block ? 0 : WNOHANG, &c->ru);
	while (r == -1 && errno == EINTR);
	if (r == c->pid) {
		c->end_ns = now_mono_ns();
		c->status = status;
		c->reaped = 1;
		live_remove(c->pid);
		/* Anything left in the group goes too, unless it is meant
		 * to stay. */
		if (!(c->flags & SPAWN_KEEP_GROUP))
			c->group_left = kill(-c->pid, SIGKILL) == 0;
		return 1;
	}
	if (r == -1 && errno == ECHILD) {
		c->end_ns = now_mono_ns();
		c->reaped = 1;
		live_remove(c->pid);
		return 1;
	}
	return 0;
}

static int
pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

int
spawn_wait(struct child *c, int64_t deadline_ns, char **cause)
{
	struct pollfd	pfd[4];
	int64_t		now, kill_at = 0, grace, killed_at = 0;
	int		pidfd, sfd, n, timeout_ms, term_sent = 0, seen = 0;
	int		shared = err_shared(c);
	int		ip, io, ie, ii;	/* their places in pfd, or -1 */

	if (c->reaped || c->pid <= 0)
		return 0;
	grace = c->grace_ns > 0 ? c->grace_ns : SPAWN_DEFAULT_GRACE;
	/* The SIGCHLD fd; or a pidfd from clone (CLONE_PIDFD), or opened
	 * now. */
	sfd = c->by_sigfd ? sigchld_fd : -1;
	pidfd = c->pidfd >= 0 || sfd != -1 ? c->pidfd :
	    pidfd_open_compat(c->pid);
	c->pidfd = -1;
	/* Its SIGCHLD may have been read by the wait of another child. */
	if (sfd != -1 && c->sig_gen != sigchld_gen && try_reap(c, 0))
		goto reaped;
	for (;;) {
		n = 0;
		ip = io = ie = ii = -1;
		memset(pfd, 0, sizeof pfd);
		if (sfd != -1 || pidfd != -1) {
			pfd[ip = n].fd = sfd != -1 ? sfd : pidfd;
			pfd[n++].events = POLLIN;
		}
		if (c->out_fd != -1) {
			pfd[io = n].fd = c->out_fd;
			pfd[n++].events = POLLIN;
		}
		if (c->err_fd != -1) {
			pfd[ie = n].fd = c->err_fd;
			pfd[n++].events = POLLIN;
		}
		if (c->in_fd != -1) {
			pfd[ii = n].fd = c->in_fd;
			pfd[n++].events = POLLOUT;
		}
		now = now_mono_ns();
		if (!term_sent && deadline_ns > 0 && now >= deadline_ns) {
			c->timed_out = 1;
			kill(-c->pid, SIGTERM);
			kill(c->pid, SIGTERM);
			term_sent = 1;
			kill_at = now + grace;
		}
		if (term_sent && now >= kill_at) {
			if (killed_at == 0)
				killed_at = now;
			else if (now - killed_at >= SPAWN_UNKILLABLE_GRACES *
			    grace) {
				char	*st = proc_state(c->pid);

				if (pidfd != -1)
					close(pidfd);
				live_remove(c->pid);
				set_cause(cause, "pid %ld (%s) did not die %.1f s "
				    "after SIGKILL (%s); left to the kernel",
				    (long)c->pid, c->argv != NULL &&
				    c->argv[0] != NULL ? c->argv[0] : "?",
				    (double)(SPAWN_UNKILLABLE_GRACES * grace) /
				    NSEC_PER_SEC, st);
				free(st);
				return -1;
			}
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			kill_at = now + NSEC_PER_SEC;
		}
		if (ip == -1)
			timeout_ms = 5;
		else if (term_sent)
			timeout_ms = (int)((kill_at - now) / 1000000) + 1;
		else if (deadline_ns > 0)
			timeout_ms = (int)((deadline_ns - now) / 1000000) + 1;
		else
			timeout_ms = -1;
		if (n > 0 || timeout_ms >= 0) {
			if (poll(pfd, (nfds_t)n, timeout_ms) == -1 &&
			    errno != EINTR) {
				if (pidfd != -1)
					close(pidfd);
				return set_cause(cause, "poll: %s",
				    strerror(errno));
			}
		}
		/*
		 * Only what poll said is ready: a pipe's end of file comes
		 * before the exit (the child's files close first), and
		 * neither a read of an empty pipe nor a wait4 of a child
		 * still exiting is worth a system call.
		 */
		if (io != -1 && pfd[io].revents != 0)
			drain(&c->out_fd, &c->out, 0, c, 0);
		if (ie != -1 && pfd[ie].revents != 0)
			drain(&c->err_fd, &c->err, SPAWN_ERR_KEEP, NULL,
			    shared);
		if (ii != -1 && pfd[ii].revents != 0) {
			ssize_t	w = write(c->in_fd, c->in + c->in_off,
			    c->inlen - c->in_off);

			if (w > 0)
				c->in_off += (size_t)w;
			if ((w == -1 && errno != EAGAIN && errno != EINTR) ||
			    c->in_off >= c->inlen) {
				close(c->in_fd);
				c->in_fd = -1;
			}
		}
		if (sfd != -1 && pfd[ip].revents != 0) {
			/*
			 * Its exit, or another child's (or a stop): the reap
			 * first (its end is taken there), then what SIGCHLD
			 * said; and once more after, for an exit between.
			 * The poll saw all it wrote when its exit woke it.
			 */
			if (try_reap(c, 0)) {
				seen = sigchld_take(c->pid);
				break;
			}
			(void)sigchld_take(0);
			if (try_reap(c, 0))
				break;
		} else if ((ip == -1 || pfd[ip].revents != 0) &&
		    try_reap(c, 0)) {
			seen = ip != -1;
			break;
		}
	}
reaped:
	if (pidfd != -1)
		close(pidfd);
	/* Collect what is still buffered (the group may hold the pipe). */
	if (c->out_fd != -1) {
		fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
		drain(&c->out_fd, &c->out, 0, c, 0);
		if (c->out_fd != -1) {
			close(c->out_fd);
			c->out_fd = -1;
		}
	}
	if (c->err_fd != -1 && shared) {
		/*
		 * Never at its end of file: what the child wrote was there
		 * when the poll saw it exit, and drained with it; unless no
		 * poll saw its exit.
		 */
		if (!seen)
			drain(&c->err_fd, &c->err, SPAWN_ERR_KEEP, NULL, 1);
		c->err_fd = -1;
	} else if (c->err_fd != -1) {
		fcntl(c->err_fd, F_SETFL, O_NONBLOCK);
		drain(&c->err_fd, &c->err, SPAWN_ERR_KEEP, NULL, 0);
		if (c->err_fd != -1) {
			close(c->err_fd);
			c->err_fd = -1;
		}
	}
	if (c->in_fd != -1) {
		close(c->in_fd);
		c->in_fd = -1;
	}
	/* The end of the stream: the reader takes the last line. */
	if (c->on_out != NULL) {
		size_t	used = c->on_out(c->on_out_arg, c->out.buf != NULL ?
		    c->out.buf : "", c->out.len, 1);

		if (c->out.buf != NULL) {
			if (used > c->out.len)
				used = c->out.len;
			memmove(c->out.buf, c->out.buf + used, c->out.len -
			    used);
			c->out.len -= used;
			c->out.buf[c->out.len] = '\0';
		}
		c->on_out = NULL;
	}
	return 0;
}

const char *
spawn_peek(struct child *c)
{
	if (c->out_fd != -1)
		drain(&c->out_fd, &c->out, 0, c, 0);
	return c->out.buf != NULL ? c->out.buf : "";
}

int
spawn_run(struct child *c, int64_t timeout_ns, char **cause)
{
	if (spawn_start(c, cause) == -1)
		return -1;
	return spawn_wait(c, timeout_ns > 0 ? c->start_ns + timeout_ns : 0,
	    cause);
}

int
spawn_capture(char *const *argv, int64_t timeout_ns, char **out, char **err,
    int *status, char **cause)
{
	struct child	c;
	int		r;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.flags = SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR;
	r = spawn_run(&c, timeout_ns, cause);
	if (r == 0) {
		if (status != NULL)
			*status = c.status;
		if (c.timed_out) {
			set_cause(cause, "'%s' timed out", argv[0]);
			r = -1;
		}
	}
	/* Handed out with 0 only: a caller frees them when it succeeds. */
	if (r == 0 && out != NULL)
		*out = strbuf_detach(&c.out);
	if (r == 0 && err != NULL)
		*err = strbuf_detach(&c.err);
	spawn_release(&c);
	return r;
}

void
spawn_kill(struct child *c)
{
	if (c->pid <= 0 || c->reaped)
		return;
	kill(-c->pid, SIGTERM);
	kill(c->pid, SIGTERM);
	spawn_wait(c, now_mono_ns(), NULL);
}

void
spawn_release(struct child *c)
{
	spawn_kill(c);
	if (c->out_fd != -1 && c->out_fd != 0)
		close(c->out_fd);
	if (c->err_fd != -1 && c->err_fd != 0 && !err_shared(c))
		close(c->err_fd);
	c->out_fd = c->err_fd = -1;
	strbuf_release(&c->out);
	strbuf_release(&c->err);
}

char *
spawn_describe_status(int status, int timed_out)
{
	if (timed_out)
		return xstrdup("timed out");
	if (status == -1)
		return xstrdup("status unknown");
	if (WIFEXITED(status))
		return xasprintf("exited %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return xasprintf("killed by SIG%s",
		    sigabbrev_np(WTERMSIG(status)) ?
		    sigabbrev_np(WTERMSIG(status)) : "?");
	return xasprintf("wait status 0x%x", status);
}

char *
last_lines(const char *s, size_t len, int n)
{
	size_t	i = len;
	int	seen = 0;

	while (i > 0 && (s[i - 1] == '\n' || s[i - 1] == ' '))
		i--;
	len = i;
	while (i > 0) {
		if (s[i - 1] == '\n' && ++seen == n)
			break;
		i--;
	}
	return xstrndup(s + i, len - i);
}
