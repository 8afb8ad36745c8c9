/*
 * The docker executor's extras beyond the exec_ops table, for workloads
 * that need more than start/wait/destroy: running the docker CLI with a
 * timeout, exec into a container, and finding a container's processes
 * (for runsc: the sandbox is State.Pid, the gofer is the shim's child
 * whose command line starts with runsc-gofer).
 *
 * The exec_proc functions below only accept handles made by the docker
 * executor (exec_lookup("docker")->start).
 */
#ifndef ABBENCH_EXEC_DOCKER_H
#define ABBENCH_EXEC_DOCKER_H

#include <stdint.h>

#include "lib/util.h"

struct exec_proc;

/* Default timeout of one docker CLI call (pitfall 1: every call has one). */
#define EXEC_DOCKER_TIMEOUT_NS	(60 * NSEC_PER_SEC)

/*
 * Run `docker ARGS...` (args without the leading "docker"), capture
 * stdout (malloc'd into *out when out is not NULL); fails with docker's
 * stderr in *cause on a non-zero exit or on the timeout.
 */
/*
 * `docker rm -f -v NAME`; failed = the container never started properly,
 * so also kill the containerd shim a failed runsc start leaves behind and
 * remove its state (pitfall 3). A container that is gone already is fine.
 */
int		 exec_docker_rm(const char *name, int failed, char **cause);
/*
 * The containers (ids) labelled abbench.run=UUID, running or not: what a
 * workload's own program may have started for the run. -1 when docker
 * cannot be asked.
 */
struct strvec;
int		 exec_docker_labelled(const char *uuid, struct strvec *ids,
		    char **cause);
/* The shim part of that, for a container already removed (--rm): kill
 * the containerd shim of full container id ID and remove its state. */
void		 exec_docker_reap_failed(const char *id);
int		 exec_docker_cli(char *const *args, int64_t timeout_ns,
		    char **out, char **cause);
/*
 * `docker exec NAME argv...`: *status gets the raw wait status of the CLI
 * (docker passes the program's exit code through); out may be NULL.
 */
int		 exec_docker_exec(struct exec_proc *p, char *const *argv,
		    int64_t timeout_ns, char **out, int *status, char **cause);
/* The container's name (abbench-<uuid8>-<n>); borrowed. */
const char	*exec_docker_name(struct exec_proc *p);
/* The gofer's host pid (runsc), or -1 (runc, or not running). */
long		 exec_docker_gofer_pid(struct exec_proc *p);

#endif
