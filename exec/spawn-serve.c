/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spawn helper's server: receive a request from abbench, clone the
 * child with CLONE_VM | CLONE_PARENT on our small address space, answer
 * its pid, wait for its exec. Protocol in exec/spawn-serve.h. Runs as the
 * static program abbench-spawn, or in a fork of abbench when that program
 * cannot be found. libc only (no libabbench: see the header).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "exec/spawn-serve.h"

#if defined(__SANITIZE_ADDRESS__)
#define SERVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SERVE_ASAN 1
#endif
#endif
#ifdef SERVE_ASAN
#include <sanitizer/asan_interface.h>
#define SPAWN_CHILD_CODE __attribute__((no_sanitize_address))
#else
#define SPAWN_CHILD_CODE
#endif

#define HELPER_STACK	(64 * 1024)
#define SERVE_NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void SPAWN_CHILD_CODE
serve_fail(const struct spawn_child_args *a, const char *what, int err)
{
	char	buf[512];
	int	n;

	if (a->err != NULL && a->errlen > 0) {
		snprintf(a->err, a->errlen, "%s: %s", what, strerror(err));
		_exit(127);
	}
	n = snprintf(buf, sizeof buf, "%s: %s\n", what, strerror(err));
	if (n > 0 && a->fd[HFD_SYNC] >= 0)
		(void)!write(a->fd[HFD_SYNC], buf, (size_t)n);
	_exit(127);
}

static int64_t SPAWN_CHILD_CODE
serve_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int SPAWN_CHILD_CODE
spawn_child_exec(void *arg)
{
	struct spawn_child_args	*a = arg;
	char *const		*cg;
	int			 fd, devnull, plen, i;
	char			 pidbuf[32];
	sigset_t		 all;
	static const int	 sigs[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD
	};

	/*
	 * A child dies with abbench (kill -9 included): an orphaned helper
	 * (fio writing its data file, a docker CLI making a container)
	 * would otherwise redo what `abbench restore` just undid.
	 */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(127);
	if (a->flags & HELPER_KEEP_GROUP)
		(void)setsid();
	else
		setpgid(0, 0);
	/* Ignored in the helper, and SIG_IGN survives exec. */
	for (i = 0; i < (int)SERVE_NELEM(sigs); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* abbench's working directory now, not when the helper began. */
	if (a->fd[HFD_CWD] != -1 && fchdir(a->fd[HFD_CWD]) == -1)
		serve_fail(a, "working directory", errno);
	plen = snprintf(pidbuf, sizeof pidbuf, "%d", (int)getpid());
	if (a->join_ns != NULL)
		*a->join_ns = serve_now();
	for (i = 0; a->cg_fds != NULL && a->cg_fds[i] != -1; i++) {
		if (write(a->cg_fds[i], pidbuf, (size_t)plen) != plen)
			serve_fail(a, a->cg != NULL &&
			    a->cg[i] != NULL ? a->cg[i] : "cgroup.procs",
			    errno);
	}
	for (cg = a->cg_fds != NULL ? NULL : a->cg; cg != NULL && *cg != NULL;
	    cg++) {
		fd = open(*cg, O_WRONLY);
		if (fd == -1 || write(fd, pidbuf, (size_t)plen) != plen)
			serve_fail(a, *cg, errno);
		close(fd);
	}
	if (a->join_ns != NULL)
		*a->join_ns = serve_now() - *a->join_ns;
	devnull = a->devnull != -1 ? a->devnull :
	    open("/dev/null", O_RDWR | O_CLOEXEC);
	for (i = 0; i < 3; i++) {
		fd = a->fd[HFD_IN + i] != -1 ? a->fd[HFD_IN + i] : devnull;
		if (fd >= 0 && fd != i && dup2(fd, i) == -1)
			serve_fail(a, "dup2", errno);
	}
	if (a->cwd != NULL && chdir(a->cwd) == -1)
		serve_fail(a, a->cwd, errno);
	if (a->handshake) {
		/*
		 * Joining cgroups (an RCU sync on v1) is the harness's
		 * cost, not the child's: tell the parent we are ready, and
		 * exec when it has taken the time. Everything else is set
		 * up already: "go" is exec. Our copy of the go pipe's write
		 * end goes first: if the parent dies (kill -9) the read
		 * sees EOF instead of blocking forever.
		 */
		char	go;

		if (a->close_fd != -1)
			close(a->close_fd);
		if (write(a->fd[HFD_SYNC], "R", 1) != 1 ||
		    read(a->fd[HFD_GO], &go, 1) != 1)
			_exit(127);
	}
	execvpe(a->argv[0], a->argv, a->envp != NULL ? a->envp : environ);
	serve_fail(a, a->argv[0], errno);
	_exit(127);
}

/* n NUL-terminated strings from *p (up to end) into a new NULL-ended
 * array; NULL when they are not all there. */
static char **
helper_strings(char **p, char *end, uint32_t n)
{
	char		**v;
	uint32_t	  i;
	size_t		  l;

	if ((v = calloc((size_t)n + 1, sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (*p >= end || (l = strnlen(*p, (size_t)(end - *p))) ==
		    (size_t)(end - *p)) {
			free(v);
			return NULL;
		}
		v[i] = *p;
		*p += l + 1;
	}
	return v;
}

int
spawn_serve_read_full(int fd, void *buf, size_t len)
{
	char	*b = buf;
	ssize_t	 n;

	while (len > 0) {
		n = read(fd, b, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

int
spawn_serve_write_full(int fd, const void *buf, size_t len)
{
	const char	*b = buf;
	ssize_t		 n;

	while (len > 0) {
		n = send(fd, b, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One request: 0 when served, -1 when abbench is gone or wrong. */
static int
helper_serve_one(int sock, pid_t parent, void *stack, int clear_refs)
{
	struct helper_req		 req;
	struct spawn_child_args		 a;
	union {
		char		buf[CMSG_SPACE(HFD_N * sizeof(int))];
		struct cmsghdr	align;
	} u;
	struct msghdr		 mh;
	struct iovec		 iov;
	struct cmsghdr		*cm;
	int			 got[HFD_N], ngot = 0, i, j, ep[2], rc = -1;
	char			*blob = NULL, *p, c;
	ssize_t			 n;
	int32_t			 reply;
	pid_t			 pid;

	memset(&a, 0, sizeof a);
	for (i = 0; i < HFD_N; i++)
		a.fd[i] = -1;
	a.close_fd = -1;
	a.devnull = -1;
	memset(&mh, 0, sizeof mh);
	iov.iov_base = &req;
	iov.iov_len = sizeof req;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof u.buf;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n == -1 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_RIGHTS)
			continue;
		j = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (i = 0; i < j && ngot < HFD_N; i++)
			memcpy(&got[ngot++], CMSG_DATA(cm) + i * sizeof(int),
			    sizeof(int));
	}
	for (i = 0, j = 0; i < HFD_N; i++) {
		if ((req.fdmask & (1u << i)) && j < ngot)
			a.fd[i] = got[j++];
	}
	if ((mh.msg_flags & MSG_CTRUNC) ||
	    ((size_t)n < sizeof req && spawn_serve_read_full(sock,
	    (char *)&req + n, sizeof req - (size_t)n) == -1) ||
	    req.len > HELPER_MAX_LEN || a.fd[HFD_CWD] == -1 ||
	    a.fd[HFD_SYNC] == -1 || (req.handshake && a.fd[HFD_GO] == -1) ||
	    (blob = malloc((size_t)req.len + 1)) == NULL ||
	    spawn_serve_read_full(sock, blob, (size_t)req.len) == -1)
		goto out;
	p = blob;
	if ((a.argv = helper_strings(&p, blob + req.len, req.argc)) == NULL ||
	    req.argc == 0 ||
	    (a.envp = helper_strings(&p, blob + req.len, req.envc)) == NULL ||
	    (a.cg = helper_strings(&p, blob + req.len, req.ncg)) == NULL)
		goto out;
	if (req.has_cwd) {
		char	**cwd = helper_strings(&p, blob + req.len, 1);

		if (cwd == NULL)
			goto out;
		a.cwd = cwd[0];
		free(cwd);
	}
	a.flags = (int)req.flags;
	a.handshake = req.handshake != 0;
	a.parent = parent;
	if (pipe2(ep, O_CLOEXEC) == -1) {
		reply = -errno;
		pid = -1;
		ep[0] = ep[1] = -1;
	} else {
		/* The child's maxrss starts from our RSS now, not a peak. */
		if (clear_refs != -1)
			(void)!pwrite(clear_refs, "5", 1, 0);
#ifdef SERVE_ASAN
		__asan_unpoison_memory_region(stack, HELPER_STACK);
#endif
		pid = clone(spawn_child_exec, (char *)stack + HELPER_STACK,
		    CLONE_VM | CLONE_PARENT | SIGCHLD, &a);
		reply = pid == -1 ? -errno : (int32_t)pid;
		close(ep[1]);
	}
	if (spawn_serve_write_full(sock, &reply, sizeof reply) == 0)
		rc = 0;
	if (pid != -1) {
		/* The exec (or the death) of the child closes ep[1]. */
		do
			n = read(ep[0], &c, 1);
		while (n == -1 && errno == EINTR);
	}
	if (ep[0] != -1)
		close(ep[0]);
out:
	for (i = 0; i < HFD_N; i++) {
		if (a.fd[i] != -1)
			close(a.fd[i]);
	}
	free((void *)a.argv);
	free((void *)a.envp);
	free((void *)a.cg);
	free(blob);
	return rc;
}

void
spawn_serve(int sock, pid_t parent)
{
	static const int	 ign[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	void			*stack;
	int			 clear_refs, fd, i;
	char			 c;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	(void)prctl(PR_SET_NAME, "abbench-spawn");
	/* Ctrl-C is abbench's to handle; we go when abbench goes. */
	for (i = 0; i < (int)SERVE_NELEM(ign); i++)
		signal(ign[i], SIG_IGN);
	/* Received descriptors must not land on 0-2. */
	for (i = 0; i < 3; i++) {
		if (fcntl(i, F_GETFD) == -1 &&
		    (fd = open("/dev/null", O_RDWR)) != -1 && fd != i)
			close(fd);
	}
	stack = mmap(NULL, HELPER_STACK, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		_exit(1);
	clear_refs = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	c = HELPER_READY;
	if (spawn_serve_write_full(sock, &c, 1) == -1)
		_exit(0);
	while (helper_serve_one(sock, parent, stack, clear_refs) == 0)
		;
	_exit(0);
}

