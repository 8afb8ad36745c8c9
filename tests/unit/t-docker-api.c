/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docker API client (exec/docker-api.h) against a fake daemon: a
 * forked process on a unix socket that answers one connection with a
 * canned response (Content-Length, chunked, error, or nothing at all),
 * and hands back the request line it got.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/docker-api.h"
#include "lib/util.h"
#include "tap.h"

static char	sockpath[108];

struct fake {
	pid_t	pid;
	int	reqfd;		/* the request line comes back on it */
};

/*
 * A daemon on sockpath answering one connection with resp (NULL: accept,
 * read, then never answer), split in two writes to exercise reassembly.
 */
static struct fake
fake_start(const char *resp)
{
	struct sockaddr_un	sa;
	struct fake		f;
	int			ls, c, p[2];
	char			buf[4096];
	size_t			len = 0;
	ssize_t			n;

	unlink(sockpath);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, sockpath);
	if ((ls = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(ls, (struct sockaddr *)&sa, sizeof sa) == -1 ||
	    listen(ls, 4) == -1 || pipe(p) == -1) {
		perror("fake daemon");
		exit(99);
	}
	f.pid = fork();
	if (f.pid == 0) {
		close(p[0]);
		c = accept(ls, NULL, NULL);
		while (c >= 0 && len < sizeof buf - 1 &&
		    (n = read(c, buf + len, sizeof buf - 1 - len)) > 0) {
			len += (size_t)n;
			buf[len] = '\0';
			if (strstr(buf, "\r\n\r\n") != NULL)
				break;
		}
		if (strchr(buf, '\r') != NULL)
			*strchr(buf, '\r') = '\0';
		if (write(p[1], buf, strlen(buf)) < 0)
			_exit(1);
		close(p[1]);
		if (resp == NULL) {
			pause();
			_exit(0);
		}
		n = (ssize_t)strlen(resp) / 2;
		if (write(c, resp, (size_t)n) < 0)
			_exit(1);
		usleep(20000);
		if (write(c, resp + n, strlen(resp + n)) < 0)
			_exit(1);
		close(c);
		_exit(0);
	}
	close(ls);
	close(p[1]);
	f.reqfd = p[0];
	return f;
}

/* The request line the fake got; malloc'd. */
static char *
fake_end(struct fake *f)
{
	char	buf[4096];
	ssize_t	n;
	size_t	len = 0;

	kill(f->pid, SIGTERM);
	while ((n = read(f->reqfd, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(f->reqfd);
	waitpid(f->pid, NULL, 0);
	return xstrdup(buf);
}

int
main(void)
{
	struct strvec	 ids = STRVEC_INIT;
	struct fake	 f;
	char		*cause = NULL, *req, env[160];
	int64_t		 t0, took;
	int		 rc, fd;

	snprintf(sockpath, sizeof sockpath, "/tmp/t-docker-api-%d.sock",
	    (int)getpid());
	snprintf(env, sizeof env, "unix://%s", sockpath);
	setenv("DOCKER_HOST", env, 1);
	signal(SIGPIPE, SIG_IGN);

	/* A list with Content-Length; the filter as the daemon wants it. */
	f = fake_start("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
	    "Content-Length: 75\r\n\r\n"
	    "[{\"Id\":\"aaaa1111\",\"Names\":[\"/x\"]},{\"Id\":\"bbbb2222\","
	    "\"Labels\":{}}]      ");
	rc = docker_api_list_labelled("abbench.run=u-1", &ids,
	    2 * NSEC_PER_SEC, &cause);
	req = fake_end(&f);
	tap_int_eq(rc, 0, "list: answered (%s)", cause ? cause : "");
	tap_int_eq((long long)ids.n, 2, "list: two containers");
	tap_str_eq(ids.n > 1 ? ids.v[1] : NULL, "bbbb2222", "list: their ids");
	tap_str_eq(req, "GET /containers/json?all=1&filters="
	    "%7B%22label%22%3A%5B%22abbench.run%3Du-1%22%5D%7D HTTP/1.1",
	    "list: all containers, filtered by the label, %%-encoded");
	free(req);
	strvec_clear(&ids);

	/* Chunked, with a chunk split across the fake's two writes. */
	f = fake_start("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "a\r\n[{\"Id\":\"cc\r\n"
	    "6;ext=1\r\nc3\"},{\r\n"
	    "b\r\n\"Id\":\"dd\"}]\r\n"
	    "0\r\n\r\n");
	rc = docker_api_list_labelled("abbench.run=u-2", &ids,
	    2 * NSEC_PER_SEC, &cause);
	free(fake_end(&f));
	tap_int_eq(rc, 0, "chunked list: answered (%s)", cause ? cause : "");
	tap_int_eq((long long)ids.n, 2, "chunked list: two containers");
	tap_str_eq(ids.n > 0 ? ids.v[0] : NULL, "ccc3", "chunked list: "
	    "an id split across chunks");
	strvec_clear(&ids);

	/* A daemon that accepts and never answers: the timeout holds. */
	f = fake_start(NULL);
	t0 = now_mono_ns();
	free(cause);
	cause = NULL;
	rc = docker_api_list_labelled("abbench.run=u-3", &ids,
	    200 * 1000000, &cause);
	took = now_mono_ns() - t0;
	free(fake_end(&f));
	tap_int_eq(rc, -1, "hung daemon: an error");
	tap_ok(took >= 190 * 1000000 && took < 1500 * 1000000,
	    "hung daemon: after the 200 ms timeout (%.0f ms)", took / 1e6);
	tap_ok(cause != NULL && strstr(cause, "in time") != NULL,
	    "hung daemon: says so (%s)", cause ? cause : "");
	free(cause);
	cause = NULL;

	/* No socket: absent, at once. */
	unlink(sockpath);
	t0 = now_mono_ns();
	rc = docker_api_list_labelled("abbench.run=u-4", &ids,
	    2 * NSEC_PER_SEC, &cause);
	took = now_mono_ns() - t0;
	tap_int_eq(rc, DOCKER_API_ABSENT, "no socket: no daemon");
	tap_ok(took < 100 * 1000000, "no socket: at once (%.3f ms)",
	    took / 1e6);
	tap_int_eq((long long)ids.n, 0, "no socket: nothing listed");

	/* A socket file nobody listens on (a dead daemon's): absent. */
	{
		struct sockaddr_un	sa;

		memset(&sa, 0, sizeof sa);
		sa.sun_family = AF_UNIX;
		strcpy(sa.sun_path, sockpath);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd == -1 || bind(fd, (struct sockaddr *)&sa,
		    sizeof sa) == -1)
			return 99;
		rc = docker_api_remove("x", 2 * NSEC_PER_SEC, &cause);
		tap_int_eq(rc, DOCKER_API_ABSENT, "stale socket: no daemon");
		close(fd);
		unlink(sockpath);
	}

	/*
	 * A daemon this user may not use (root's socket, mode 0600): none
	 * for us. As root, checked from a child that drops to nobody.
	 */
	if (geteuid() == 0) {
		struct sockaddr_un	sa;
		pid_t			pid;
		int			st = -1;

		memset(&sa, 0, sizeof sa);
		sa.sun_family = AF_UNIX;
		strcpy(sa.sun_path, sockpath);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd == -1 || bind(fd, (struct sockaddr *)&sa,
		    sizeof sa) == -1 || listen(fd, 4) == -1 ||
		    chmod(sockpath, 0600) == -1)
			return 99;
		if ((pid = fork()) == 0) {
			struct strvec	v = STRVEC_INIT;

			if (setgid(65534) == -1 || setuid(65534) == -1)
				_exit(98);
			_exit(docker_api_list_labelled("abbench.run=u", &v,
			    NSEC_PER_SEC, NULL) == DOCKER_API_ABSENT ? 0 : 1);
		}
		waitpid(pid, &st, 0);
		tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "a socket this user may not use: no daemon for us "
		    "(status %d)", st);
		close(fd);
		unlink(sockpath);
	} else
		tap_ok(1, "# SKIP not root: the permission case needs it");

	/* Removal: 204, 404 fine; an error carries the daemon's message. */
	f = fake_start("HTTP/1.1 204 No Content\r\n\r\n");
	rc = docker_api_remove("aaaa1111", 2 * NSEC_PER_SEC, &cause);
	req = fake_end(&f);
	tap_int_eq(rc, 0, "remove: 204 is removed");
	tap_str_eq(req, "DELETE /containers/aaaa1111?force=1&v=1 HTTP/1.1",
	    "remove: forced, with its volumes");
	free(req);
	f = fake_start("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n"
	    "{}");
	rc = docker_api_remove("gone", 2 * NSEC_PER_SEC, &cause);
	free(fake_end(&f));
	tap_int_eq(rc, 0, "remove: 404 is gone already");
	f = fake_start("HTTP/1.1 500 Internal Server Error\r\n"
	    "Content-Length: 26\r\n\r\n{\"message\":\"driver broke\"}");
	rc = docker_api_remove("c/d", 2 * NSEC_PER_SEC, &cause);
	req = fake_end(&f);
	tap_int_eq(rc, -1, "remove: 500 is an error");
	tap_ok(cause != NULL && strstr(cause, "driver broke") != NULL &&
	    strstr(cause, "500") != NULL, "remove: the daemon's message "
	    "(%s)", cause ? cause : "");
	tap_str_eq(req, "DELETE /containers/c%2Fd?force=1&v=1 HTTP/1.1",
	    "remove: the name %%-encoded");
	free(req);
	free(cause);
	cause = NULL;
	unlink(sockpath);	/* the last fake's: nothing left in /tmp */

	/* Another transport: not ours to reach. */
	setenv("DOCKER_HOST", "tcp://127.0.0.1:2375", 1);
	tap_int_eq(docker_api_list_labelled("abbench.run=u", &ids,
	    NSEC_PER_SEC, &cause), DOCKER_API_NOT_UNIX,
	    "tcp DOCKER_HOST: not unix");
	tap_ok(docker_api_socket() == NULL, "tcp DOCKER_HOST: no socket");
	unsetenv("DOCKER_HOST");
	req = docker_api_socket();
	tap_str_eq(req, "/var/run/docker.sock", "default socket");
	free(req);
	strvec_clear(&ids);
	return tap_done();
}
