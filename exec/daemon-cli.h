/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core the container daemons' executors share (exec-docker.c,
 * exec-podman.c): their CLIs take the same verbs and flags, so a call
 * with a timeout, the container's pid and cgroups while it runs, its
 * start (attached: the CLI is the child; detached: `run -d` then `wait`
 * and `logs`), exec, logs and the gofer are written once here, and each
 * executor names its CLI (struct dcli) and keeps what is its own (docker:
 * --init, --cgroup-parent, the shim runsc leaks, the socket API; podman:
 * the runtime as a global flag, ulimits).
 */
#ifndef ABBENCH_DAEMON_CLI_H
#define ABBENCH_DAEMON_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "exec/spawn.h"

struct run_ctx;

/* Both daemons: a detached `run` may take this long (an image to unpack). */
#define DCLI_RUN_TIMEOUT_NS	(180 * NSEC_PER_SEC)
/* A wait without a deadline waits this long. */
#define DCLI_NO_DEADLINE_NS	(24 * 3600 * NSEC_PER_SEC)

/* One daemon's CLI. */
struct dcli {
	const char		*name;	/* in messages: 'docker run' */
	const char		*(*bin)(void);	/* its program ($ABBENCH_...) */
	/* State.Status of a container that exists but has not started. */
	const char *const	*not_started;
};

/* What both executors keep of a container (the head of their exec_proc). */
struct dcli_proc {
	char		*name;
	int		 attached;
	struct child	 cli;		/* attached: `run` itself */
	struct strvec	 cli_argv;
	int		 capture;
	/* exec_spec.on_out: stdout handed over as it comes (attached) or
	 * once, whole, from `logs` (detached). */
	size_t		(*on_out)(void *, const char *, size_t, int);
	void		*on_out_arg;
	int		 bare;		/* exec_spec.bare: logs unread */
	long		 pid;		/* State.Pid, 0 = unknown */
	char		*cgroup_text;	/* /proc/PID/cgroup while running */
	int64_t		 start_ns;
};

/* `CLI ARGS...` with a timeout; stdout into *out (may be NULL). */
int	dcli_call(const struct dcli *d, char *const *args, int64_t timeout_ns,
	    char **out, char **cause);
/* The same with a short argument list (NULL ends it). */
int	dcli_do(const struct dcli *d, int64_t timeout_ns, char **out,
	    char **cause, const char *a0, const char *a1, const char *a2,
	    const char *a3, const char *a4);

/*
 * The flags of a container's command line both CLIs take alike: after the
 * program (and its global flags), `VERB [-d] --name NAME
 * --label=abbench.run=UUID [--label=abbench.workload=W]`...
 */
void	dcli_push_head(struct strvec *av, const struct run_ctx *ctx,
	    const char *verb, const struct exec_spec *spec, const char *name,
	    int detach);
/* ...`[--cpus=N] [--memory=B]`... */
void	dcli_push_limits(struct strvec *av, const struct exec_spec *spec);
/* ...`--tmpfs=`/`--volume=` of each mount and `--env` of each variable. */
void	dcli_push_mounts_env(struct strvec *av, const struct exec_spec *spec);

/* p's fields from spec (attached unless detach, capture, on_out, bare). */
void	dcli_proc_init(struct dcli_proc *p, const struct exec_spec *spec);
/*
 * Start the container of av (a `run`, av->v[0] the program): attached,
 * the CLI becomes p's child (av moves into p); detached, `run -d` within
 * the sample's deadline (DCLI_RUN_TIMEOUT_NS at most, a second at least),
 * then its pid. av is empty after. 0, or -1 with *cause.
 */
int	dcli_start(const struct dcli *d, const struct run_ctx *ctx,
	    struct dcli_proc *p, struct strvec *av, char **cause);
/* State.Pid and the cgroups while it runs; an attached one may lag. */
void	dcli_learn_pid(const struct dcli *d, struct dcli_proc *p);
/* Until it ends or deadline_ns (killed then), with its output. */
int	dcli_wait(const struct dcli *d, struct dcli_proc *p,
	    int64_t deadline_ns, struct exec_status *st, char **cause);
/* Release the attached CLI and its argv (before the container's rm). */
void	dcli_proc_release(struct dcli_proc *p);
char	*dcli_cgroup_dir(const struct dcli *d, struct dcli_proc *p,
	    const char *controller);
long	dcli_pid(const struct dcli *d, struct dcli_proc *p);
/* runsc's gofer: the sandbox's sibling under the shim (docker's
 * containerd shim, podman's conmon). -1 when there is none. */
long	dcli_gofer_pid(const struct dcli *d, struct dcli_proc *p);
/* `CLI exec NAME ARGV...` with a timeout. */
int	dcli_exec_into(const struct dcli *d, struct dcli_proc *p,
	    char *const *argv, int64_t timeout_ns, char **out, int *status,
	    char **cause);
/* `CLI logs NAME`. */
int	dcli_logs(const struct dcli *d, struct dcli_proc *p, int64_t timeout_ns,
	    char **out, char **cause);
/* A container name of this run: CGROUPNAME-SEPN, or abbench-PID-SEPN. */
char	*dcli_new_name(const struct run_ctx *ctx, const char *sep,
	    unsigned *counter);

/*
 * `abbench restore`: docker containers labelled abbench.run (any run)
 * whose abbench.owner (the process that made them, "PID/BOOT:START") is
 * gone are removed, journaled or not; their ids are pushed to removed.
 * Those without an owner label (an older abbench's) are left, "ID UUID"
 * pushed to unowned. 0, or -1 with *cause.
 */
int	exec_docker_sweep_orphans(struct strvec *removed,
	    struct strvec *unowned, char **cause);

#endif
