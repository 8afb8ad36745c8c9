/*
 * OCI runtime calls for the lifecycle workloads (startup, idle-memory,
 * checkpoint): a bundle made from a rootfs directory, and runtime create,
 * start, state, kill, delete, checkpoint and restore, each a child with a
 * timeout. Every container gets a relative cgroupsPath below the run's
 * cgroup (pitfall 12), so its memory can be read and the cgroup removed.
 *
 * Why not exec-oci: these workloads time each verb separately and need
 * checkpoint/restore; and `runtime create` must run in its own session,
 * because the gofer it leaves behind stays in its process group, which
 * spawn kills when the child is reaped. So create/restore run as
 * `setsid -w RUNTIME ...` (about 1 ms of extra fork+exec in OCICreate).
 */
#ifndef ABBENCH_OCIRT_H
#define ABBENCH_OCIRT_H

#include <stdint.h>

#include "harness/util.h"

struct run_ctx;

struct ocirt {
	char		*runtime;	/* binary (runc, runsc, a path) */
	struct strvec	 gflags;	/* --root=DIR, runtime-args, ... */
	char		*root;		/* --root state directory */
	int		 is_runsc;
	int64_t		 timeout_ns;	/* per call */
};

struct ocirt_ctr {
	char		*id;
	char		*bundle;	/* directory with config.json */
	char		*cgrel;		/* cgroup below abbench's own */
	int64_t		 cg_journal;
	int64_t		 bundle_journal;
	long		 pid;		/* from state, 0 = unknown */
	int		 exists;	/* created or restored, not deleted */
};

/*
 * Set up a runtime with its global flags; root is the --root directory
 * (made if missing, journaled by the caller). runsc gets --network=none
 * unless args set --network (the bundle has no network).
 */
void	ocirt_init(struct ocirt *rt, const char *runtime,
	    char *const *args, const char *root);
void	ocirt_release(struct ocirt *rt);

/*
 * Write a bundle for a container ID in DIR/ID (journaled as a dir) with
 * rootfs (absolute, read-only), argv, and cgroupsPath cgparent/ID
 * (journaled as a cgroup). c is filled; ocirt_ctr_destroy undoes it.
 */
int	ocirt_bundle(struct run_ctx *ctx, const char *dir, const char *id,
	    const char *rootfs, char *const *argv, const char *cgparent,
	    struct ocirt_ctr *c, char **cause);
/* The verbs. *ns (may be NULL) gets the wall time of the call. */
int	ocirt_create(struct ocirt *rt, struct ocirt_ctr *c, int64_t *ns,
	    char **cause);
int	ocirt_start(struct ocirt *rt, struct ocirt_ctr *c, int64_t *ns,
	    char **cause);
/* Status ("created", "running", "stopped"...) malloc'd; fills c->pid. */
char	*ocirt_state(struct ocirt *rt, struct ocirt_ctr *c, char **cause);
/* Wait until c->pid has exited (polled every 1 ms), or the deadline. */
int	ocirt_wait_exit(struct ocirt_ctr *c, int64_t deadline_ns,
	    char **cause);
int	ocirt_delete(struct ocirt *rt, struct ocirt_ctr *c, int force,
	    int64_t *ns, char **cause);
/* runsc checkpoint --image-path=DIR (DIR must not exist yet: made here). */
int	ocirt_checkpoint(struct ocirt *rt, struct ocirt_ctr *c,
	    const char *image_dir, int64_t *ns, char **cause);
/* runsc restore --detach --image-path=DIR. */
int	ocirt_restore(struct ocirt *rt, struct ocirt_ctr *c,
	    const char *image_dir, int64_t *ns, char **cause);
/* The container's v1 controller (or v2 when NULL) cgroup directory. */
char	*ocirt_cgroup_dir(struct ocirt_ctr *c, const char *controller);
/* Kill, delete --force, remove the bundle and cgroup; safe twice. */
void	ocirt_ctr_destroy(struct run_ctx *ctx, struct ocirt *rt,
	    struct ocirt_ctr *c);

/*
 * rmdir REL below abbench's own cgroup in every mounted hierarchy where
 * it exists and is empty: runtimes also make cgroups in hierarchies that
 * harness/cgroup.c does not manage (pids, name=systemd, unified).
 */
void	ocirt_cg_rmdir(const char *rel);

/* Remove a directory tree (checkpoint images, bundles); safe if absent. */
int	ocirt_rmtree(const char *path, char **cause);

#endif
