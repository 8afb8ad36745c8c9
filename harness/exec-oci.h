/*
 * The oci executor: a bundle generated from our own config.json template
 * (jansson) over a rootfs directory (the tools rootfs from
 * scripts/build-image, read-only, never copied), driven with any OCI
 * runtime binary (runc, crun, runsc) and the arm's global flags
 * (--root DIR, --network=none, --platform=ptrace...).
 *
 * Beyond the exec_ops table (which uses `RUNTIME run`), the lifecycle
 * calls below are separate, each timed (elapsed ns of the runtime call),
 * for workloads such as checkpoint/restore:
 *
 *	oci_prepare -> oci_create -> oci_start -> oci_state
 *	    -> oci_checkpoint / oci_restore -> oci_kill -> oci_delete
 *	    -> exec_ops destroy (deletes what is left, removes the bundle)
 *
 * Handles come from oci_prepare() or from the executor's start().
 */
#ifndef ABBENCH_EXEC_OCI_H
#define ABBENCH_EXEC_OCI_H

#include <stdint.h>

struct exec_proc;
struct exec_spec;
struct run_ctx;

#define EXEC_OCI_TIMEOUT_NS	(60 * 1000000000LL)
#define EXEC_OCI_DEFAULT_ROOTFS	"/var/lib/abbench/current"

/*
 * Make the bundle (config.json over the rootfs) and a container id, but
 * create nothing in the runtime yet. The handle is destroyed with
 * exec_lookup("oci")->destroy(), which deletes the container if it exists.
 */
int	oci_prepare(struct run_ctx *ctx, const struct exec_spec *spec,
	    struct exec_proc **procp, char **cause);
/* Write config.json for spec into bundle_dir (tests use it alone). */
int	oci_write_config(const char *bundle_dir, const struct exec_spec *spec,
	    const char *cgroups_path, char **cause);

/* `RUNTIME GLOBAL... create --bundle B ID` (the container waits). */
int	oci_create(struct exec_proc *p, int64_t *elapsed_ns, char **cause);
int	oci_start(struct exec_proc *p, int64_t *elapsed_ns, char **cause);
/* `state`: status ("created", "running", "stopped"...) malloc'd, pid. */
int	oci_state(struct exec_proc *p, char **status, long *pid,
	    char **cause);
int	oci_kill(struct exec_proc *p, const char *signal, char **cause);
int	oci_delete(struct exec_proc *p, int force, int64_t *elapsed_ns,
	    char **cause);
/* `checkpoint --image-path DIR` (DIR must be new: pitfall 9). */
int	oci_checkpoint(struct exec_proc *p, const char *image_path,
	    int leave_running, int64_t *elapsed_ns, char **cause);
/* `restore --image-path DIR --bundle B --detach ID`. */
int	oci_restore(struct exec_proc *p, const char *image_path,
	    int64_t *elapsed_ns, char **cause);
/* The container id and bundle directory; borrowed. */
const char *oci_id(struct exec_proc *p);
const char *oci_bundle(struct exec_proc *p);

#endif
