/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docker daemon's HTTP API on its unix socket, for what must not cost
 * a docker process: finding and removing the containers labelled with a
 * run (the sweep after a sample of a program that may start them). One
 * request per connection, HTTP/1.1 with "Connection: close", every step
 * (connect, write, read) bounded by one deadline: a hung daemon costs the
 * caller at most its timeout, an absent one (no socket, or nobody
 * listening on it) a failed connect(2).
 *
 * The socket is $DOCKER_HOST's when it says unix://PATH, else
 * /var/run/docker.sock; with a $DOCKER_HOST of another kind (tcp://,
 * ssh://) the API is not reachable here and callers use the CLI (the
 * docker executor, exec/exec-docker.c, which also uses the CLI whenever
 * $ABBENCH_DOCKER names one). Not thread-safe only in that $DOCKER_HOST
 * is read with getenv on every call.
 */
#ifndef ABBENCH_DOCKER_API_H
#define ABBENCH_DOCKER_API_H

#include <stdint.h>

struct strvec;

/*
 * No daemon for us: no socket, no one listening on it, or one this user
 * may not connect to (nor could a program run by this user).
 */
#define DOCKER_API_ABSENT	1
/* $DOCKER_HOST names a transport other than a unix socket. */
#define DOCKER_API_NOT_UNIX	2

/*
 * The socket path the API is asked on, malloc'd; NULL when $DOCKER_HOST
 * is not unix:// (then the API is not reachable from here).
 */
char	*docker_api_socket(void);

/*
 * The full ids of the containers, running or not, that carry the label
 * LABEL ("key=value", or "key" for any value), appended to ids.
 * 0 = listed (maybe none); DOCKER_API_ABSENT = no daemon, so none;
 * DOCKER_API_NOT_UNIX; -1 = the daemon failed, refused (permissions) or
 * did not answer within timeout_ns (*cause).
 */
int	docker_api_list_labelled(const char *label, struct strvec *ids,
	    int64_t timeout_ns, char **cause);

/* The ids of the running containers (as `docker ps -q`), the same way. */
int	docker_api_list_running(struct strvec *ids, int64_t timeout_ns,
	    char **cause);

/*
 * Remove container ID (id or name) with its anonymous volumes, killing it
 * if it runs (DELETE /containers/ID?force=1&v=1). A container that is
 * gone already is fine; one whose removal is under way is waited for,
 * within timeout_ns. 0 = gone; DOCKER_API_ABSENT, DOCKER_API_NOT_UNIX as
 * above; -1 = not removed (*cause).
 */
int	docker_api_remove(const char *id, int64_t timeout_ns, char **cause);

/*
 * The daemon's version (GET /version, its "Version") into *version,
 * malloc'd. Return values as above.
 */
int	docker_api_version(char **version, int64_t timeout_ns, char **cause);

/*
 * The daemon's root directory (GET /info, its "DockerRootDir": where
 * containers/ID/checkpoints/ are) into *dir, malloc'd. Return values as
 * above.
 */
int	docker_api_root_dir(char **dir, int64_t timeout_ns, char **cause);

/*
 * One request: METHOD PATH (already %-encoded) to the socket, within
 * timeout_ns. *status gets the HTTP status and *body (malloc'd, NUL
 * terminated, may be NULL) the de-chunked body. Return values as above.
 * For tests and for callers with other requests in mind.
 */
int	docker_api_request(const char *method, const char *path,
	    int64_t timeout_ns, int *status, char **body, size_t *bodylen,
	    char **cause);

#endif
