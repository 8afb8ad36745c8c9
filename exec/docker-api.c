/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A minimal HTTP/1.1 client for the docker daemon's API over AF_UNIX
 * (exec/docker-api.h): non-blocking connect, write and read under one
 * deadline with ppoll, a Content-Length or chunked body, the JSON of the
 * container list parsed with jansson.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "exec/docker-api.h"
#include "lib/util.h"

#define DOCKER_API_DEFAULT_SOCKET	"/var/run/docker.sock"
/* A container list of thousands is well under this. */
#define DOCKER_API_MAX_RESPONSE		(32u << 20)

char *
docker_api_socket(void)
{
	const char	*h = getenv("DOCKER_HOST");

	if (h == NULL || *h == '\0')
		return xstrdup(DOCKER_API_DEFAULT_SOCKET);
	if (strncmp(h, "unix://", 7) != 0)
		return NULL;
	return xstrdup(h + 7);
}

/* Wait for EVENTS on fd until deadline: 1 ready, 0 timed out, -1 error. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd	pfd;
	struct timespec	ts;
	int64_t		left;
	int		n;

	for (;;) {
		left = deadline - now_mono_ns();
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		pfd.fd = fd;
		pfd.events = events;
		pfd.revents = 0;
		n = ppoll(&pfd, 1, &ts, NULL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			return 0;
		return 1;
	}
}

/*
 * Connected to the socket, or DOCKER_API_ABSENT/-1 with fd -1. A unix
 * socket's connect completes at once or fails (EAGAIN: the listener's
 * backlog is full, i.e. a daemon that does not accept).
 */
static int
api_connect(const char *path, int *fdp, char **cause)
{
	struct sockaddr_un	sa;
	int			fd;

	*fdp = -1;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path)
		return set_cause(cause, "docker socket path '%s' is too long",
		    path);
	memcpy(sa.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return set_cause(cause, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == -1) {
		int	e = errno;

		close(fd);
		/*
		 * No daemon there; or one this user may not use, and then
		 * neither could a program of this user's have started
		 * containers in it.
		 */
		if (e == ENOENT || e == ECONNREFUSED || e == ENOTDIR ||
		    e == EACCES || e == EPERM)
			return DOCKER_API_ABSENT;
		if (e == EAGAIN)
			return set_cause(cause, "docker daemon at '%s' does "
			    "not accept connections (backlog full)", path);
		return set_cause(cause, "cannot connect to the docker daemon "
		    "at '%s': %s", path, strerror(e));
	}
	*fdp = fd;
	return 0;
}

static int
api_send(int fd, const char *req, size_t len, int64_t deadline,
    const char *path, char **cause)
{
	size_t	off = 0;
	ssize_t	n;
	int	w;

	while (off < len) {
		n = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno != EAGAIN && errno != EWOULDBLOCK)
			return set_cause(cause, "writing to the docker daemon "
			    "at '%s': %s", path, strerror(errno));
		if ((w = wait_fd(fd, POLLOUT, deadline)) <= 0)
			return set_cause(cause, "docker daemon at '%s' did "
			    "not take the request in time", path);
	}
	return 0;
}

/* Where the header block ends (after CRLFCRLF), or 0. */
static size_t
header_end(const char *buf, size_t len)
{
	size_t	i;

	for (i = 3; i < len; i++) {
		if (buf[i - 3] == '\r' && buf[i - 2] == '\n' &&
		    buf[i - 1] == '\r' && buf[i] == '\n')
			return i + 1;
	}
	return 0;
}

/* The value of header NAME in the header block, borrowed up to CR. */
static const char *
header_value(const char *hdr, size_t hlen, const char *name, size_t *vlen)
{
	const char	*p = hdr, *end = hdr + hlen, *eol, *v;
	size_t		 nl = strlen(name);

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0 &&
		    p[nl] == ':') {
			v = p + nl + 1;
			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			*vlen = (size_t)(eol - v);
			while (*vlen > 0 && (v[*vlen - 1] == '\r' ||
			    v[*vlen - 1] == ' '))
				(*vlen)--;
			return v;
		}
		p = eol + 1;
	}
	return NULL;
}

/*
 * De-chunk body (len bytes) into out: 1 = the last chunk was seen,
 * 0 = more is needed, -1 = malformed.
 */
static int
dechunk(const char *body, size_t len, struct strbuf *out)
{
	size_t		 off = 0, size;
	const char	*eol;
	char		*end;

	strbuf_reset(out);
	for (;;) {
		eol = memchr(body + off, '\n', len - off);
		if (eol == NULL)
			return 0;
		errno = 0;
		size = strtoul(body + off, &end, 16);
		if (end == body + off || errno != 0 ||
		    size > DOCKER_API_MAX_RESPONSE)
			return -1;
		off = (size_t)(eol - body) + 1;
		if (size == 0)
			return 1;
		if (len - off < size + 2)
			return 0;
		strbuf_add(out, body + off, size);
		off += size;
		if (body[off] != '\r' || body[off + 1] != '\n')
			return -1;
		off += 2;
	}
}

/*
 * The response: status and body. Read until the body is complete (by
 * Content-Length or the last chunk) or the daemon closes.
 */
static int
api_receive(int fd, int64_t deadline, const char *path, int *status,
    struct strbuf *body, char **cause)
{
	struct strbuf	 in = STRBUF_INIT;
	const char	*v;
	size_t		 hend = 0, vlen;
	long long	 clen = -1;
	int		 chunked = 0, eof = 0, w, rc = -1, d;
	char		 buf[16384];
	ssize_t		 n;

	for (;;) {
		n = recv(fd, buf, sizeof buf, 0);
		if (n > 0) {
			strbuf_add(&in, buf, (size_t)n);
			if (in.len > DOCKER_API_MAX_RESPONSE) {
				set_cause(cause, "docker daemon at '%s': "
				    "response too large", path);
				goto out;
			}
		} else if (n == 0)
			eof = 1;
		else if (errno == EINTR)
			continue;
		else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if ((w = wait_fd(fd, POLLIN, deadline)) == 1)
				continue;
			set_cause(cause, w == 0 ? "docker daemon at '%s' did "
			    "not answer in time" : "docker daemon at '%s': "
			    "poll failed", path);
			goto out;
		} else {
			set_cause(cause, "reading from the docker daemon at "
			    "'%s': %s", path, strerror(errno));
			goto out;
		}
		if (hend == 0 && in.len > 0 &&
		    (hend = header_end(in.buf, in.len)) != 0) {
			if (sscanf(in.buf, "HTTP/1.%*d %d", status) != 1) {
				set_cause(cause, "docker daemon at '%s': not "
				    "an HTTP response", path);
				goto out;
			}
			if ((v = header_value(in.buf, hend, "Content-Length",
			    &vlen)) != NULL)
				clen = strtoll(v, NULL, 10);
			if ((v = header_value(in.buf, hend,
			    "Transfer-Encoding", &vlen)) != NULL &&
			    vlen == 7 && strncasecmp(v, "chunked", 7) == 0)
				chunked = 1;
		}
		if (hend != 0) {
			if (chunked) {
				d = dechunk(in.buf + hend, in.len - hend,
				    body);
				if (d == 1)
					break;
				if (d == -1) {
					set_cause(cause, "docker daemon at "
					    "'%s': malformed chunked body",
					    path);
					goto out;
				}
			} else if (clen >= 0 &&
			    (long long)(in.len - hend) >= clen) {
				strbuf_reset(body);
				strbuf_add(body, in.buf + hend, (size_t)clen);
				break;
			} else if (eof) {
				strbuf_reset(body);
				strbuf_add(body, in.buf + hend, in.len - hend);
				break;
			}
		}
		if (eof) {
			set_cause(cause, "docker daemon at '%s' closed the "
			    "connection before the end of its answer", path);
			goto out;
		}
	}
	rc = 0;
out:
	strbuf_release(&in);
	return rc;
}

int
docker_api_request(const char *method, const char *path, int64_t timeout_ns,
    int *status, char **body, size_t *bodylen, char **cause)
{
	struct strbuf	 b = STRBUF_INIT;
	char		*sock, *req;
	int64_t		 deadline = now_mono_ns() + timeout_ns;
	int		 fd, rc;

	*status = 0;
	if (body != NULL)
		*body = NULL;
	if (bodylen != NULL)
		*bodylen = 0;
	if ((sock = docker_api_socket()) == NULL)
		return DOCKER_API_NOT_UNIX;
	if ((rc = api_connect(sock, &fd, cause)) != 0) {
		free(sock);
		return rc;
	}
	req = xasprintf("%s %s HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: abbench\r\nConnection: close\r\n\r\n", method, path);
	rc = api_send(fd, req, strlen(req), deadline, sock, cause);
	free(req);
	if (rc == 0)
		rc = api_receive(fd, deadline, sock, status, &b, cause);
	close(fd);
	free(sock);
	if (rc == 0) {
		if (bodylen != NULL)
			*bodylen = b.len;
		if (body != NULL) {
			strbuf_add(&b, "", 0);
			*body = b.buf != NULL ? strbuf_detach(&b) :
			    xstrdup("");
		}
	}
	strbuf_release(&b);
	return rc;
}

/* s %-encoded for a query or path segment (RFC 3986 unreserved kept). */
static void
url_encode(struct strbuf *out, const char *s)
{
	static const char	hex[] = "0123456789ABCDEF";

	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		    c == '.' || c == '~')
			strbuf_addc(out, (char)c);
		else {
			strbuf_addc(out, '%');
			strbuf_addc(out, hex[c >> 4]);
			strbuf_addc(out, hex[c & 15]);
		}
	}
}

/* The daemon's "message" of an error body, or the body; malloc'd. */
static char *
api_message(const char *body)
{
	json_t		*j;
	json_error_t	 err;
	const char	*m;
	char		*r;

	if (body == NULL)
		return xstrdup("");
	j = json_loads(body, 0, &err);
	m = json_is_object(j) ? json_string_value(json_object_get(j,
	    "message")) : NULL;
	r = xstrdup(m != NULL ? m : body);
	json_decref(j);
	m = strtrim(r);
	memmove(r, m, strlen(m) + 1);
	return r;
}

/* GET /containers/json: all or the running ones, with the label or any. */
static int
api_list(const char *label, int all, struct strvec *ids, int64_t timeout_ns,
    char **cause)
{
	struct strbuf	 path = STRBUF_INIT;
	json_t		*filt, *j, *c;
	json_error_t	 err;
	char		*f, *body = NULL, *m;
	size_t		 len, i;
	int		 status, rc;

	strbuf_adds(&path, all ? "/containers/json?all=1" :
	    "/containers/json");
	if (label != NULL) {
		filt = json_pack("{s:[s]}", "label", label);
		f = json_dumps(filt, JSON_COMPACT);
		json_decref(filt);
		strbuf_adds(&path, all ? "&filters=" : "?filters=");
		url_encode(&path, f);
		free(f);
	}
	rc = docker_api_request("GET", path.buf, timeout_ns, &status, &body,
	    &len, cause);
	strbuf_release(&path);
	if (rc != 0)
		return rc;
	if (status != 200) {
		m = api_message(body);
		set_cause(cause, "docker daemon: listing containers: HTTP %d: "
		    "%s", status, m);
		free(m);
		free(body);
		return -1;
	}
	j = json_loadb(body, len, 0, &err);
	free(body);
	if (!json_is_array(j)) {
		json_decref(j);
		return set_cause(cause, "docker daemon: listing containers: "
		    "not a JSON array (%s)", j == NULL ? err.text : "other");
	}
	json_array_foreach(j, i, c) {
		const char	*id = json_string_value(json_object_get(c,
		    "Id"));

		if (id != NULL && *id != '\0')
			strvec_push(ids, id);
	}
	json_decref(j);
	return 0;
}

int
docker_api_list_labelled(const char *label, struct strvec *ids,
    int64_t timeout_ns, char **cause)
{
	return api_list(label, 1, ids, timeout_ns, cause);
}

int
docker_api_list_running(struct strvec *ids, int64_t timeout_ns,
    char **cause)
{
	return api_list(NULL, 0, ids, timeout_ns, cause);
}

int
docker_api_remove(const char *id, int64_t timeout_ns, char **cause)
{
	struct strbuf	 path = STRBUF_INIT;
	int64_t		 deadline = now_mono_ns() + timeout_ns, left;
	char		*body = NULL, *m = NULL;
	int		 status, rc;

	strbuf_adds(&path, "/containers/");
	url_encode(&path, id);
	strbuf_adds(&path, "?force=1&v=1");
	for (;;) {
		left = deadline - now_mono_ns();
		if (left <= 0) {
			rc = set_cause(cause, "cannot remove container '%s': "
			    "%s", id, m != NULL ? m : "timed out");
			break;
		}
		free(body);
		body = NULL;
		rc = docker_api_request("DELETE", path.buf, left, &status,
		    &body, NULL, cause);
		if (rc != 0)
			break;
		/* 204 removed; 404 gone already. */
		if (status == 204 || status == 200 || status == 404)
			break;
		free(m);
		m = api_message(body);
		/* Someone else's removal under way: wait for it. */
		if (status == 409 && strstr(m, "in progress") != NULL) {
			struct timespec	ts = { 0, 100 * 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		rc = set_cause(cause, "cannot remove container '%s': HTTP "
		    "%d: %s", id, status, m);
		break;
	}
	free(m);
	free(body);
	strbuf_release(&path);
	return rc;
}

/* GET PATH, the string KEY of its JSON object into *value, malloc'd. */
static int
api_get_string(const char *path, const char *key, char **value,
    int64_t timeout_ns, char **cause)
{
	json_t		*j;
	json_error_t	 err;
	const char	*v;
	char		*body = NULL;
	size_t		 len;
	int		 status, rc;

	*value = NULL;
	rc = docker_api_request("GET", path, timeout_ns, &status, &body,
	    &len, cause);
	if (rc != 0)
		return rc;
	j = status == 200 ? json_loadb(body, len, 0, &err) : NULL;
	free(body);
	v = json_is_object(j) ? json_string_value(json_object_get(j, key)) :
	    NULL;
	if (v != NULL && *v != '\0')
		*value = xstrdup(v);
	json_decref(j);
	if (*value == NULL)
		return set_cause(cause, "docker daemon: %s: HTTP %d, no %s",
		    path + 1, status, key);
	return 0;
}

int
docker_api_version(char **version, int64_t timeout_ns, char **cause)
{
	return api_get_string("/version", "Version", version, timeout_ns,
	    cause);
}

int
docker_api_root_dir(char **dir, int64_t timeout_ns, char **cause)
{
	return api_get_string("/info", "DockerRootDir", dir, timeout_ns,
	    cause);
}
