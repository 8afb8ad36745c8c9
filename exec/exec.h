/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Executors behind one ops table: where and how a workload's program runs.
 *
 *   local   a host process in its own cgroup (libcgroup), below the cgroup
 *           abbench runs in;
 *   docker  the docker CLI (--runtime from the arm, --label abbench.run);
 *   oci     a generated bundle driven with an OCI runtime binary;
 *   podman  the podman CLI, rootful, runc or runsc (exec-podman.c);
 *   crun    crun driven step by step through the OCI layer (exec-crun.c);
 *   unshare a host process as local runs it, in namespaces of its own
 *           made by unshare(1) (exec-unshare.c).
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
	/*
	 * With capture: stdout handed to this reader as it comes
	 * (struct child's on_out) instead of kept whole; exec_status.out
	 * then holds only what it left. Executors that get the output
	 * only at the end (docker logs) call it once with everything.
	 */
	size_t		(*on_out)(void *arg, const char *data, size_t len,
			    int eof);
	void		*on_out_arg;
	int		 detach;	/* docker: run -d */
	int		 bare;		/* daemon: no init process, no
					 * workload label: the container as
					 * a plain `run` makes it (startup) */
	int		 own_rss;	/* local: ru_maxrss is read, so the
					 * program's own must not include
					 * abbench's (SPAWN_OWN_RSS) */
	const char	*platform;	/* oci, runsc: --platform, or NULL */
	int		 sandbox_log;	/* oci, runsc: 0 none, 1 --debug-log
					 * into the bundle, 2 also --debug;
					 * a failed call's error ends with
					 * the sandbox log's last lines */
	const char	*join_procs;	/* local: a cgroup.procs the program
					 * also joins before exec (the
					 * cgroup perf stat counts) */
	int		 home;		/* local, cgroup v1, no limit: born
					 * in the run's cgroup abbench sits
					 * in, joining nothing; what it left
					 * there is killed when it ends (the
					 * workload runs one at a time) */
	const char	*state_dir;	/* runtime steps: where the runtime
					 * keeps its containers' state (its
					 * --root), or NULL: its default */
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
struct exec_barrier;

/*
 * The container daemon executor a workload type runs in by default
 * (workload_ops.default_exec): the registry's choice, not the type's.
 */
#define EXEC_DEFAULT_DAEMON	"docker"
/* The executor that drives a runtime step by step, for the workload
 * types that time each step (EXEC_RUNTIME_STEPS). */
#define EXEC_DEFAULT_STEPS	"oci"
/* The executor of host processes, for the types that run programs on
 * the host unless told otherwise. */
#define EXEC_DEFAULT_HOST	"local"

/* Default time limit of one call to a daemon's CLI: every call has one. */
#define EXEC_CALL_TIMEOUT_NS	(60 * NSEC_PER_SEC)

/* What an executor checks before the first sample of a workload. */
struct exec_check {
	const char *const *arms;	/* arm names, for messages */
	const char *const *runtimes;	/* each arm's runtime, or NULL */
	size_t		 narms;
	const char	*image;		/* the workload's image, or NULL */
	/* The workload can run its programs without a cgroup of their own
	 * (it reads nothing from it and no arm sets a cpu or memory limit). */
	int		 cgroup_optional;
	/* When an arm's limit is what needs one: "FILE:LINE: cpu", or "". */
	char		 cgroup_need[128];
	/* An arm's cpu / memory limit ("FILE:LINE: cpu"), or a workload's
	 * key that needs the controller (a quota, io weights), or "": the
	 * v2 controllers abbench's cgroup must have been given. */
	char		 cpu_need[128];
	char		 memory_need[128];
	char		 io_need[128];
	/* Each arm's runsc platform for the workload (NULL: none), and
	 * where it is set ("FILE:LINE: platform"). */
	const char *const *platforms;
	const char *const *platform_at;
	/* Where the workload names its executor ("FILE:LINE: executor"),
	 * or NULL when it takes its type's default: the place of a
	 * message about the executor itself. */
	const char	*executor_at;
};

/*
 * cgroup v2, before the first sample: each controller chk names a need
 * for was delegated to abbench's cgroup (cgrp_check_delegation), the
 * error at the need's "FILE:LINE: key". 0 on v1, or with no need.
 */
int	exec_check_needs(const struct exec_check *chk, char **cause);

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
	/* Drives a runtime step by step, each step timed: its `steps`
	 * table (struct exec_steps). */
	EXEC_RUNTIME_STEPS = 1 << 2,
	/* Makes the sandbox's cgroup inside a cgroup the caller made
	 * (exec_spec.cgroup_parent, below the run's cgroup), in every
	 * hierarchy the sandbox joins, so that a limit there holds it:
	 * what quota = parent needs (exec/quota.h). */
	EXEC_CGROUP_PARENT = 1 << 3,
	/* Its runtime makes the sandbox's namespaces and cgroups as root
	 * (runc, runsc, crun): refused for anyone else before anything is
	 * touched, at the executor key (harness/core/runner-load.c). */
	EXEC_ROOT = 1 << 4,
};

/*
 * The steps of a runtime driven verb by verb (EXEC_RUNTIME_STEPS), for
 * the workloads that time each: prepare -> create -> start -> state /
 * wait_exit -> checkpoint -> delete -> restore, then the executor's
 * destroy() (safe after any step, and twice). *ns (may be NULL) gets
 * the wall time of the runtime's call alone; errors carry the runtime's
 * message.
 */
struct exec_steps {
	/* The sandbox of spec made ready (its files, an id, journaled),
	 * nothing created in the runtime yet. */
	int	(*prepare)(struct run_ctx *ctx, const struct exec_spec *spec,
		    struct exec_proc **proc, char **cause);
	/* Created: waits to start; its pid is known. */
	int	(*create)(struct exec_proc *proc, int64_t *ns, char **cause);
	int	(*start)(struct exec_proc *proc, int64_t *ns, char **cause);
	/* Status ("created", "running", "stopped"...) malloc'd, pid;
	 * either may be NULL. */
	int	(*state)(struct exec_proc *proc, char **status, long *pid,
		    char **cause);
	/* Until its process has exited, or deadline_ns (monotonic). */
	int	(*wait_exit)(struct exec_proc *proc, int64_t deadline_ns,
		    char **cause);
	/* Deleted (force: killed first); the journal entry is then done. */
	int	(*delete)(struct exec_proc *proc, int force, int64_t *ns,
		    char **cause);
	/* The container's id; borrowed. */
	const char *(*id)(struct exec_proc *proc);

	/* Optional (EXEC_HOOK_STEP_CHECKPOINT): */
	/* Can a container of spec be checkpointed (its runtime can)? 0,
	 * or -1 with *cause before anything is made. */
	int	(*can_checkpoint)(const struct exec_spec *spec, char **cause);
	/* Checkpointed into image_dir, a new directory made here. */
	int	(*checkpoint)(struct exec_proc *proc, const char *image_dir,
		    int leave_running, int64_t *ns, char **cause);
	/* Restored from image_dir, detached: running again. */
	int	(*restore)(struct exec_proc *proc, const char *image_dir,
		    int64_t *ns, char **cause);
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

	/* EXEC_RUNTIME_STEPS: the runtime's steps, each timed. */
	const struct exec_steps *steps;

	/* Optional hooks (NULL when the executor cannot): */
	/* Run argv inside the running sandbox of proc; its stdout in *out. */
	int	(*exec_into)(struct exec_proc *proc, char *const *argv,
		    int64_t timeout_ns, char **out, int *status, char **cause);
	/* What a program started with capture has printed so far, without
	 * waiting (it keeps running; wait still returns all of it).
	 * Borrowed, valid until the next call on proc. */
	const char	*(*peek)(struct exec_proc *proc);
	/* What a detached program has printed so far (it keeps running). */
	int	(*logs)(struct exec_proc *proc, int64_t timeout_ns, char **out,
		    char **cause);
	/* Send signal sig to the program (through the runtime if need be). */
	int	(*signal)(struct exec_proc *proc, int sig, char **cause);

	/*
	 * The objects it journals (run_journal_object) under journal_kind,
	 * and how `abbench restore` undoes one (undo_done: "removed
	 * container '%s'"); NULL when it journals none of its own. also
	 * (may be NULL) gets a text for each further thing removed with
	 * it ("containerd's copy '...' of its checkpoint").
	 */
	const char	*journal_kind;
	const char	*undo_done;
	int	(*undo)(const char *target, struct strvec *also,
		    char **cause);
	/*
	 * Remove every container labelled abbench.run=UUID, pushing their
	 * ids to removed (may be NULL); -1 when the daemon cannot be asked
	 * (within timeout_ns, for the listing) or a removal failed. Called
	 * after samples of programs that may start containers: it should
	 * cost no process when there is nothing to find.
	 */
	int	(*sweep)(const char *uuid, int64_t timeout_ns,
		    struct strvec *removed, char **cause);

	/* Container daemons (EXEC_DAEMON), as far as they can: */
	/* The name the daemon knows proc's container by; borrowed. */
	const char *(*container_name)(struct exec_proc *proc);
	/* Host pid of the gofer of proc's sandbox (runsc), or -1. */
	long	(*gofer_pid)(struct exec_proc *proc);
	/*
	 * A one-shot container of spec (`run --rm`), journaled, waited for
	 * and gone when it returns; *ns is the time of the run call.
	 */
	int	(*run_once)(struct run_ctx *ctx,
		    const struct exec_spec *spec, int64_t timeout_ns,
		    int64_t *ns, char **cause);
	/*
	 * spec's container created, then started (detached): *ns is the
	 * time of both calls; wait() and destroy() it as after start().
	 */
	int	(*create_start)(struct run_ctx *ctx,
		    const struct exec_spec *spec, int64_t timeout_ns,
		    struct exec_proc **proc, int64_t *ns, char **cause);
	/*
	 * Checkpoint proc's running container as tag (*ns: the checkpoint
	 * call), then wait until it has stopped (not timed).
	 */
	int	(*checkpoint)(struct exec_proc *proc, const char *tag,
		    int64_t timeout_ns, int64_t *ns, char **cause);
	/*
	 * Start proc's container again from checkpoint tag: *ns the call
	 * that worked, *pid the restored sandbox's host pid.
	 */
	int	(*restore)(struct exec_proc *proc, const char *tag,
		    int64_t timeout_ns, int64_t *ns, long *pid, char **cause);
	/* The daemon's version, or NULL when it is absent or down. */
	char	*(*daemon_version)(void);
	/* The binary of a runtime the daemon knows by name, or NULL. */
	char	*(*runtime_path)(const char *name);
	/* How many containers the daemon runs; -1 when it cannot say. */
	int	(*count_running)(void);

	/* Start barrier (exec/barrier.h): let the program spec is about to
	 * start wait at b's start line as member i (how it reaches the
	 * barrier's directory and helper: exec_barrier_join_host or
	 * exec_barrier_join_sandbox). */
	int	(*barrier_join)(struct exec_barrier *b, int i,
		    struct exec_spec *spec, char **cause);
};

/* The hooks a workload may need of its executor (exec_missing). */
enum exec_hook {
	EXEC_HOOK_GOFER_PID = 1 << 0,
	EXEC_HOOK_CONTAINER_NAME = 1 << 1,
	EXEC_HOOK_RUN_ONCE = 1 << 2,
	EXEC_HOOK_CREATE_START = 1 << 3,
	EXEC_HOOK_CHECKPOINT = 1 << 4,	/* and restore */
	EXEC_HOOK_BARRIER = 1 << 5,	/* barrier_join */
	/* steps: can_checkpoint, checkpoint and restore */
	EXEC_HOOK_STEP_CHECKPOINT = 1 << 6,
};
/*
 * The name of the first hook of `hooks` (enum exec_hook) that ex lacks,
 * or NULL when it has them all.
 */
const char		*exec_missing(const struct exec_ops *ex, int hooks);
/*
 * The first daemon executor (EXEC_DAEMON) that has every hook of hooks,
 * or NULL: the default of the workloads that need a container daemon.
 */
const struct exec_ops	*exec_lookup_daemon(int hooks);
/*
 * The first hook ex's capabilities require that its table lacks
 * ("steps.create"), or NULL: what exec_ops_check() refuses.
 */
const char		*exec_ops_lacks(const struct exec_ops *ex);
/*
 * Every registered executor has the hooks its capabilities require
 * (like fio's check_engine_ops); a table that lacks one is a BUG, named
 * at startup before any command runs.
 */
void			 exec_ops_check(void);

const struct exec_ops	*exec_lookup(const char *name);
/* The first executor with every capability in caps, or NULL. */
const struct exec_ops	*exec_lookup_caps(int caps);
extern const struct exec_ops *const exec_types[];
/* The registered names, space separated ("local docker oci"): the
 * choices of the workloads' `executor` key. */
const char		*exec_names(void);

#endif
