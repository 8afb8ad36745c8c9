/*
 * Executors behind one ops table: where and how a workload's program runs.
 *
 *   local   a host process in its own cgroup (libcgroup), below the cgroup
 *           abbench runs in;
 *   docker  the docker CLI (--runtime from the arm, --label abbench.run);
 *   oci     a generated bundle driven with an OCI runtime binary.
 *
 * start() launches one program and returns a handle; wait() waits for it
 * with a deadline (killing it when the deadline passes); destroy() kills,
 * reaps and removes everything the handle owns and is safe to call twice.
 */
#ifndef ABBENCH_EXEC_H
#define ABBENCH_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "lib/util.h"

struct run_ctx;

struct exec_mount {
	const char	*type;		/* "bind" or "tmpfs" */
	const char	*source;	/* host path (bind) */
	const char	*target;	/* path inside */
	const char	*options;	/* "ro", "size=64m", ... or NULL */
};

struct exec_spec {
	char *const	*argv;		/* the program and its arguments */
	char *const	*env;		/* extra NAME=VALUE, NULL-terminated */
	const char	*name;		/* a name for logs and container names */
	const char	*runtime;	/* docker --runtime / OCI binary */
	char *const	*runtime_args;	/* global runtime flags (oci) */
	const char	*image;		/* docker image / OCI rootfs dir */
	double		 cpus;		/* 0 = no limit */
	uint64_t	 memory;	/* bytes, 0 = no limit */
	const char	*cgroup_parent;	/* below the run's cgroup, or NULL
					 * (EXEC_CGROUP_PARENT) */
	const struct exec_mount *mounts;
	size_t		 nmounts;
	int		 capture;	/* keep stdout (and stderr's tail) */
	int		 detach;	/* docker: run -d */
	int		 own_rss;	/* local: ru_maxrss is read, so the
					 * program's own must not include
					 * abbench's (SPAWN_OWN_RSS) */
};

struct exec_status {
	int		 status;	/* raw wait status (-1 if unknown) */
	int		 timed_out;
	struct rusage	 ru;		/* local: from wait4 */
	int64_t		 start_ns;	/* spawn, CLOCK_MONOTONIC */
	int64_t		 end_ns;	/* reap */
	char		*out;		/* captured stdout (capture) */
	size_t		 outlen;
	char		*err;		/* last lines of stderr */
	uint64_t	 oom_kills;	/* the OOM killer's kills in its cgroup */
};
void	exec_status_release(struct exec_status *st);
struct child;
/* Fill st from a reaped child: raw status, timeout, rusage, times, its
 * stdout (taken from c) and the last 10 lines of its stderr. */
void	exec_status_from_child(struct exec_status *st, struct child *c);
/* "exited 3", "killed by SIGKILL", "timed out after 5s". */
char	*exec_status_describe(const struct exec_status *st);

struct exec_proc;

/* What an executor checks before the first sample of a workload. */
struct exec_check {
	const char *const *arms;	/* arm names, for messages */
	const char *const *runtimes;	/* each arm's runtime, or NULL */
	size_t		 narms;
	const char	*image;		/* the workload's image, or NULL */
};

/*
 * What an executor can do, so that workloads ask for a capability and
 * never compare executor names.
 */
enum exec_caps {
	/* A sandbox of its own: an image or rootfs, mounts, a runtime. */
	EXEC_CONTAINER = 1 << 0,
	/* Containers kept by a daemon (docker): they outlive the CLI call,
	 * have a gofer process and a checkpoint of their own. */
	EXEC_DAEMON = 1 << 1,
	/* Drives the OCI runtime binary step by step (exec-oci.h): create,
	 * start, checkpoint, restore, delete, each timed. */
	EXEC_RUNTIME_STEPS = 1 << 2,
	/* Makes the sandbox's cgroup inside a cgroup the caller made
	 * (exec_spec.cgroup_parent, below the run's cgroup), in every
	 * hierarchy the sandbox joins, so that a limit there holds it:
	 * what quota = parent needs (exec/quota.h). */
	EXEC_CGROUP_PARENT = 1 << 3,
};

struct exec_ops {
	const char	*name;
	int		 caps;		/* enum exec_caps */
	/* How samples name the runtime when an arm sets none. */
	const char	*runtime_label;
	/* Before the first sample: daemon up, runtimes registered, ... */
	int	(*check)(struct run_ctx *ctx, const struct exec_check *chk,
		    char **cause);
	int	(*start)(struct run_ctx *ctx, const struct exec_spec *spec,
		    struct exec_proc **proc, char **cause);
	/* Wait until the program ends or deadline_ns (monotonic) passes. */
	int	(*wait)(struct run_ctx *ctx, struct exec_proc *proc,
		    int64_t deadline_ns, struct exec_status *st, char **cause);
	void	(*destroy)(struct run_ctx *ctx, struct exec_proc *proc);
	/* The cgroup directory of the process for a v1 controller (or the
	 * v2 directory when controller is NULL); malloc'd. */
	char	*(*cgroup_dir)(struct exec_proc *proc, const char *controller);
	/* Host pid of the main process (sandbox for runsc), or -1. */
	long	(*pid)(struct exec_proc *proc);

	/* Optional hooks (NULL when the executor cannot): */
	/* Run argv inside the running sandbox of proc; its stdout in *out. */
	int	(*exec_into)(struct exec_proc *proc, char *const *argv,
		    int64_t timeout_ns, char **out, int *status, char **cause);
	/* What a detached program has printed so far (it keeps running). */
	int	(*logs)(struct exec_proc *proc, int64_t timeout_ns, char **out,
		    char **cause);
	/* Send signal sig to the program (through the runtime if need be). */
	int	(*signal)(struct exec_proc *proc, int sig, char **cause);
};

const struct exec_ops	*exec_lookup(const char *name);
/* The first executor with every capability in caps, or NULL. */
const struct exec_ops	*exec_lookup_caps(int caps);
extern const struct exec_ops *const exec_types[];
/* The registered names, space separated ("local docker oci"): the
 * choices of the workloads' `executor` key. */
const char		*exec_names(void);

#endif
