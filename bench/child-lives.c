/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/child-lives [-o FILE] CMD [ARG]...: runs CMD (a benchmark tool:
 * abbench, hyperfine) and prints (to FILE, else standard output), from
 * the kernel's own accounting, how long each of its children lived:
 *
 *   wall_ns W children N lives_us L
 *
 * W is CMD's wall time (CLOCK_MONOTONIC, fork to reap), N the number of
 * CMD's direct children that exited while it ran, L the sum of their
 * lives in us: the kernel's ac_etime, from the child's fork (copy_process)
 * to its exit (taskstats_exit in do_exit), sent to listeners by the
 * taskstats netlink family as each task exits. One clock for every
 * tool's children, whatever span each tool itself counts as the child's
 * (hyperfine's clock starts before its spawn's setup, abbench's just
 * before clone): W less L is what the tool added, with the kernel's
 * wake of the parent after an exit on both sides.
 *
 * Exits with CMD's status; 2 when taskstats cannot be listened to here
 * (a kernel without CONFIG_TASKSTATS, no CAP_NET_ADMIN) or records were
 * lost (the socket's buffer overran: the sum would be short).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#define BUFSZ	(1 << 16)

static int	lost;

static int64_t
mono_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One generic netlink request: cmd with one attribute. */
static int
gn_send(int fd, uint16_t family, uint8_t cmd, uint16_t type,
    const void *data, size_t len)
{
	struct {
		struct nlmsghdr		n;
		struct genlmsghdr	g;
		char			buf[256];
	} msg;
	struct nlattr		*na;
	struct sockaddr_nl	 to;

	if (len > sizeof msg.buf - NLA_HDRLEN)
		return -1;
	memset(&msg, 0, sizeof msg);
	msg.n.nlmsg_type = family;
	msg.n.nlmsg_flags = NLM_F_REQUEST;
	msg.n.nlmsg_pid = (uint32_t)getpid();
	msg.g.cmd = cmd;
	msg.g.version = 1;
	na = (struct nlattr *)msg.buf;
	na->nla_type = type;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)na + NLA_HDRLEN, data, len);
	msg.n.nlmsg_len = (uint32_t)(NLMSG_LENGTH(GENL_HDRLEN) +
	    NLA_ALIGN(na->nla_len));
	memset(&to, 0, sizeof to);
	to.nl_family = AF_NETLINK;
	return sendto(fd, &msg, msg.n.nlmsg_len, 0, (struct sockaddr *)&to,
	    sizeof to) < 0 ? -1 : 0;
}

/* The taskstats family's id, or 0. */
static uint16_t
family_id(int fd)
{
	static char	 buf[BUFSZ];
	struct nlmsghdr	*n;
	struct nlattr	*na;
	ssize_t		 r;
	int		 left;

	if (gn_send(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
	    CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME,
	    sizeof TASKSTATS_GENL_NAME) == -1)
		return 0;
	if ((r = recv(fd, buf, sizeof buf, 0)) <= 0)
		return 0;
	n = (struct nlmsghdr *)buf;
	if (!NLMSG_OK(n, (size_t)r) || n->nlmsg_type == NLMSG_ERROR)
		return 0;
	na = (struct nlattr *)((char *)NLMSG_DATA(n) + GENL_HDRLEN);
	left = (int)n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN) {
		if (na->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)na + NLA_HDRLEN);
		left -= NLA_ALIGN(na->nla_len);
		na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len));
	}
	return 0;
}

/* The stats of one exited task, if it is a child of parent. */
static void
take_stats(const char *p, size_t len, uint32_t parent, long *n,
    uint64_t *lives)
{
	struct taskstats	ts;

	memset(&ts, 0, sizeof ts);
	memcpy(&ts, p, len < sizeof ts ? len : sizeof ts);
	if (len < offsetof(struct taskstats, ac_etime) + sizeof ts.ac_etime)
		return;
	if (ts.ac_ppid == parent) {
		(*n)++;
		*lives += ts.ac_etime;
	}
}

/* Every record waiting on fd (nonblocking). */
static void
drain(int fd, uint32_t parent, long *n, uint64_t *lives)
{
	static char	 buf[BUFSZ];
	struct nlmsghdr	*h;
	ssize_t		 r;

	for (;;) {
		r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (r < 0) {
			if (errno == ENOBUFS) {
				lost = 1;
				continue;
			}
			return;	/* EAGAIN: nothing more now */
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)r);
		    h = NLMSG_NEXT(h, r)) {
			struct nlattr	*na, *nb;
			int		 left, inner;

			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE)
				continue;
			na = (struct nlattr *)((char *)NLMSG_DATA(h) +
			    GENL_HDRLEN);
			left = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
			while (left >= NLA_HDRLEN &&
			    na->nla_len >= NLA_HDRLEN) {
				if (na->nla_type == TASKSTATS_TYPE_AGGR_PID) {
					nb = (struct nlattr *)((char *)na +
					    NLA_HDRLEN);
					inner = na->nla_len - NLA_HDRLEN;
					while (inner >= NLA_HDRLEN &&
					    nb->nla_len >= NLA_HDRLEN) {
						if (nb->nla_type ==
						    TASKSTATS_TYPE_STATS)
							take_stats((char *)nb +
							    NLA_HDRLEN,
							    (size_t)(nb->nla_len -
							    NLA_HDRLEN), parent, n,
							    lives);
						inner -= NLA_ALIGN(nb->nla_len);
						nb = (struct nlattr *)((char *)nb +
						    NLA_ALIGN(nb->nla_len));
					}
				}
				left -= NLA_ALIGN(na->nla_len);
				na = (struct nlattr *)((char *)na +
				    NLA_ALIGN(na->nla_len));
			}
		}
	}
}

int
main(int argc, char **argv)
{
	struct sockaddr_nl	 me;
	struct pollfd		 pfd[2];
	char			 mask[32];
	uint16_t		 fam;
	uint64_t		 lives = 0;
	int64_t			 t0, t1;
	long			 n = 0, ncpu;
	int			 fd, size = 32 << 20, status, pidfd;
	pid_t			 pid;
	FILE			*out = stdout;

	if (argc > 2 && strcmp(argv[1], "-o") == 0) {
		if ((out = fopen(argv[2], "w")) == NULL) {
			fprintf(stderr, "child-lives: cannot write '%s': %s\n",
			    argv[2], strerror(errno));
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: child-lives [-o FILE] CMD [ARG]...\n");
		return 2;
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_GENERIC)) == -1) {
		perror("child-lives: netlink socket");
		return 2;
	}
	/* 2000 exits in a second are ~1 MiB of records. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
	    sizeof size) == -1)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size,
		    sizeof size);
	memset(&me, 0, sizeof me);
	me.nl_family = AF_NETLINK;
	if (bind(fd, (struct sockaddr *)&me, sizeof me) == -1 ||
	    (fam = family_id(fd)) == 0) {
		fprintf(stderr, "child-lives: no taskstats family here "
		    "(CONFIG_TASKSTATS)\n");
		return 2;
	}
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	snprintf(mask, sizeof mask, "0-%ld", ncpu > 0 ? ncpu - 1 : 0);
	if (gn_send(fd, fam, TASKSTATS_CMD_GET,
	    TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, mask, strlen(mask) + 1) ==
	    -1) {
		perror("child-lives: register");
		return 2;
	}
	t0 = mono_ns();
	fflush(NULL);
	if ((pid = fork()) == -1) {
		perror("child-lives: fork");
		return 2;
	}
	if (pid == 0) {
		close(fd);
		if (out != stdout)
			fclose(out);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "child-lives: cannot run '%s': %s\n", argv[1],
		    strerror(errno));
		_exit(127);
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		pfd[0].fd = fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = pidfd;
		pfd[1].events = POLLIN;
		/* Records while it runs (the buffer is finite); its end by
		 * its pidfd (without one, within 1 ms). */
		(void)poll(pfd, pidfd != -1 ? 2 : 1, pidfd != -1 ? -1 : 1);
		if (pfd[0].revents != 0)
			drain(fd, (uint32_t)pid, &n, &lives);
		if ((pidfd == -1 || pfd[1].revents != 0) &&
		    waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	t1 = mono_ns();
	if (pidfd != -1)
		close(pidfd);
	/* A child's record is sent at its exit, before its parent reaps
	 * it: all are queued by now. */
	drain(fd, (uint32_t)pid, &n, &lives);
	(void)gn_send(fd, fam, TASKSTATS_CMD_GET,
	    TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, mask, strlen(mask) + 1);
	close(fd);
	if (lost) {
		fprintf(stderr, "child-lives: taskstats records were lost "
		    "(the socket's buffer overran)\n");
		return 2;
	}
	fprintf(out, "wall_ns %lld children %ld lives_us %llu\n",
	    (long long)(t1 - t0), n, (unsigned long long)lives);
	if (fclose(out) != 0) {
		perror("child-lives: write");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
	    WTERMSIG(status);
}
