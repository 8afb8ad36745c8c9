/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The oci executor, and abbench's one layer over OCI runtimes: a bundle
 * generated from our own config.json template (jansson) over a rootfs
 * directory (the tools rootfs from scripts/build-image, read-only, never
 * copied), driven with any OCI runtime binary (runc, crun, runsc) and the
 * arm's global flags (--root DIR, --platform=ptrace...; runsc also gets
 * --network=none unless they set --network: the bundle has no network).
 *
 * The exec_ops table runs a program with `RUNTIME run`. Workloads that
 * time each verb (startup, checkpoint) reach the verbs below through its
 * runtime steps (exec_ops.steps, EXEC_RUNTIME_STEPS), never by name:
 *
 *	prepare -> create -> start -> state / wait_exit -> checkpoint
 *	    -> delete -> restore -> exec_ops destroy (kill, delete --force,
 *	       remove the container's cgroup and the bundle; safe after any
 *	       step, and twice)
 *
 * Another OCI runtime's executor (exec-crun.c) drives its binary with
 * the same layer.
 *
 * Handles come from oci_prepare() or from the executor's start(). Every
 * runtime call is a child with a timeout (pitfall 1). The bundle, the
 * container's cgroup and the container itself (kind "oci-container",
 * see hostset.h) are journaled before they exist, so that `abbench
 * restore` removes them after a kill -9. A container's cgroupsPath is
 * relative, <run cgroup>/<id>, or <run cgroup>/<parent>/<id> when the
 * spec names a cgroup parent (quota = parent: the limit on the parent
 * then holds the sandbox): the runtime makes it below its own cgroup,
 * which is abbench's (pitfall 12), in every hierarchy it joins. `create`
 * and `restore` leave the container's processes behind (runc init; runsc
 * gofer and sandbox): they run with SPAWN_KEEP_GROUP, the container's
 * stdio on /dev/null, and the runtime's errors read from its --log file
 * in the bundle.
 */
#ifndef ABBENCH_EXEC_OCI_H
#define ABBENCH_EXEC_OCI_H

#include <stdint.h>

#include "lib/util.h"

struct exec_proc;
struct exec_spec;
struct run_ctx;

#define EXEC_OCI_TIMEOUT_NS	(60 * NSEC_PER_SEC)
#define EXEC_OCI_DEFAULT_ROOTFS	"/var/lib/abbench/current"

/* $ABBENCH_ROOTFS, else EXEC_OCI_DEFAULT_ROOTFS; borrowed. */
const char *oci_default_rootfs(void);
/*
 * The rootfs directory of a workload's `image`, so that the name every
 * other executor takes works here too: scripts/build-image writes each
 * image twice, as a docker image and as a directory under
 * $ABBENCH_IMAGE_DIR (default /var/lib/abbench):
 *
 *	NULL, abbench/tools, abbench/tools:latest -> oci_default_rootfs()
 *	    (ABBENCH_IMAGE_DIR alone: $ABBENCH_IMAGE_DIR/current)
 *	abbench/tools:HASH	-> rootfs-HASH
 *	abbench/NAME[:latest]	-> NAME-current	(build-image --app NAME)
 *	abbench/NAME:HASH	-> NAME-rootfs-HASH
 *	/PATH			-> /PATH
 *
 * Whether it exists is the caller's question. Malloc'd, or NULL with
 * *cause for a name that is no image of build-image's.
 */
char	*oci_image_rootfs(const char *image, char **cause);
/* The command that makes an image's rootfs ("scripts/build-image
 * --app NAME"); malloc'd. */
char	*oci_image_build_hint(const char *image);
/*
 * "; did you mean 'abbench/tools'?" for an image that is not there: the
 * nearest of have (names separated by blanks or newlines: docker's
 * images), or with have NULL of build-image's images whose rootfs
 * exists; else "". Malloc'd.
 */
char	*image_hint(const char *image, const char *have);
/*
 * A failed call's runsc logs (LOGDIR, runsc's --debug-log) outlive the
 * container (its bundle goes with it, the run's directory at the end of
 * the run): copied into TOP/ID/ (the run's keep_dir, STATE/sandbox-logs),
 * whose path the error names. That directory (malloc'd), or NULL (no TOP,
 * or it cannot be made).
 */
char	*oci_keep_sandbox_logs(const char *top, const char *logdir,
	    const char *id);
/* Is the runtime (a name or a path) runsc? */
int	oci_runtime_is_runsc(const char *runtime);
/*
 * An arm's runsc platform, before anything is touched (the executor's
 * check): a runsc that does not know it (systrap is younger than 2023's
 * runsc) refuses it at its first container, and kvm without a usable
 * /dev/kvm fails there too, so that every sample of the arm failed and
 * the run ended with 1. The name is put to runsc, which lists the
 * containers of an empty root with it (nothing starts; an unknown name is
 * fatal before the listing); kvm, which runsc opens only when a sandbox
 * starts, by opening /dev/kvm as runsc will. Errors begin with `at`
 * ("FILE:LINE: platform"). 0, or -1 with *cause.
 */
int	oci_platform_check(const char *runtime, const char *platform,
	    const char *at, char **cause);

/*
 * Make the bundle (config.json over the rootfs: spec->image, else the
 * workload's `image`, else the default) and a container id, but create
 * nothing in the runtime yet. The handle is destroyed with
 * exec_lookup("oci")->destroy(), which deletes the container if it exists.
 */
int	oci_prepare(struct run_ctx *ctx, const struct exec_spec *spec,
	    struct exec_proc **procp, char **cause);
/* Write config.json for spec into bundle_dir (tests use it alone). */
int	oci_write_config(const char *bundle_dir, const struct exec_spec *spec,
	    const char *cgroups_path, char **cause);

/*
 * The verbs. *elapsed_ns (may be NULL) gets the wall time of the runtime
 * call alone. Errors carry the runtime's message.
 */
/* `create --bundle B ID` (the container waits); learns its pid. */
int	oci_create(struct exec_proc *p, int64_t *elapsed_ns, char **cause);
int	oci_start(struct exec_proc *p, int64_t *elapsed_ns, char **cause);
/* `state`: status ("created", "running", "stopped"...) malloc'd, pid;
 * either may be NULL. */
int	oci_state(struct exec_proc *p, char **status, long *pid,
	    char **cause);
/*
 * Wait until the container's process has exited (polled every 1 ms), or
 * the deadline (monotonic ns) passes.
 */
int	oci_wait_exit(struct exec_proc *p, int64_t deadline_ns, char **cause);
int	oci_kill(struct exec_proc *p, const char *signal, char **cause);
/* `delete [--force] ID`; the container's journal entry is then done. */
int	oci_delete(struct exec_proc *p, int force, int64_t *elapsed_ns,
	    char **cause);
/* `checkpoint --image-path DIR`: DIR is made here and must not exist yet
 * (pitfall 9). runsc only. */
int	oci_checkpoint(struct exec_proc *p, const char *image_path,
	    int leave_running, int64_t *elapsed_ns, char **cause);
/* `restore --image-path DIR --bundle B --detach ID`. */
int	oci_restore(struct exec_proc *p, const char *image_path,
	    int64_t *elapsed_ns, char **cause);
/*
 * The one teardown of an OCI container (kind "oci-container", target
 * RUNTIME<TAB>ROOT<TAB>ID, ROOT empty for the runtime's default): `kill
 * ID KILL`, then `delete --force ID`, each with a timeout. Gone, or its
 * ROOT gone, is fine. Used by destroy and by `abbench restore`.
 */
int	exec_oci_teardown(const char *target, char **cause);
/* The container id; borrowed. */
const char *oci_id(struct exec_proc *p);

#endif
