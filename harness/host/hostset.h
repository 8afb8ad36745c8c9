/*
 * Host settings: named, typed operations with read / validate / apply /
 * restore (host.block.*, host.thp.*, host.sysctl.*, host.cpufreq.governor),
 * and the drop-caches action. The original value of everything changed is
 * written to the store's journal before the first write, and restored at
 * the end of a run, on error, on a signal, and by `abbench restore`.
 */
#ifndef ABBENCH_HOSTSET_H
#define ABBENCH_HOSTSET_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct store;
struct arm;
struct experiment;

/* Is NAME a known setting and VALUE acceptable for it? (no host access
 * for the syntax check; used by the experiment loader) */
int	hostset_check(const char *name, const char *value, char **cause);

struct hostset;
/* paths: directories whose disks host.block.* settings apply to. */
struct hostset	*hostset_new(struct store *st, int64_t run_id,
		    char *const *paths, size_t npaths);
/* Read every setting named by any arm of e and validate it on this host
 * (device exists, scheduler available, knob present). */
int	hostset_prepare(struct hostset *hs, const struct experiment *e,
	    char **cause);
/*
 * Make the host as the arm wants it: apply the arm's settings (journaling
 * originals first), and put settings that other arms change but this arm
 * does not back to their originals.
 */
int	hostset_apply_arm(struct hostset *hs, const struct arm *arm,
	    char **cause);
/* Restore everything this hostset changed; safe to call twice. */
int	hostset_restore_all(struct hostset *hs, char **cause);
void	hostset_free(struct hostset *hs);
/*
 * The i-th host setting an arm may set, for help: its name (a prefix, such
 * as "host.sysctl.", when *prefix) and its help text; NULL past the last.
 */
const char	*hostset_key_help(size_t i, const char **name, int *prefix);
/* sync, then vm.drop_caches=3. */
int	hostset_drop_caches(char **cause);


/*
 * Journal entries of objects (kind, target):
 *   "container"  a docker container id or name: `docker rm -f`;
 *   "oci-container"  a container of an OCI runtime, target
 *                RUNTIME<TAB>ROOT<TAB>ID (ROOT empty: the runtime's
 *                default --root): `RUNTIME --root=ROOT kill ID KILL`, then
 *                `delete --force ID` (each with a timeout); gone, or its
 *                ROOT gone, is fine;
 *   "cgroup"     a run's cgroup "abbench-<uuid8>" or a path below it
 *                (relative): removed in every mounted hierarchy (v1,
 *                named, unified) below each path of `original` (where the
 *                abbench that journaled it ran: cgrp_self_paths(), one per
 *                line), below this abbench's own cgroup and at the root
 *                (cgrp_remove_everywhere); an absolute directory under a
 *                mounted hierarchy (or under $ABBENCH_CGROUP_ROOT): that
 *                directory; or a cgroup path as /proc/self/cgroup shows it
 *                ("/a/b"), from every hierarchy's root, where it exists.
 *                Child cgroups go first (deepest first); processes still
 *                inside get SIGKILL;
 *   "dir"        removed recursively, only under /tmp/ or /var/tmp/ or if
 *                its last component starts with "abbench-" (the run's
 *                scratch prefix); never across a mount point;
 *   "loop"       /dev/loopN or loopN: detached (LOOP_CLR_FD);
 *   "mount"      a mount point: unmounted (lazily when busy).
 * Objects and settings of one run are undone newest first, settings before
 * objects (a loop device's tunables go before the device).
 */
struct hostset_report {
	struct strvec	done;	/* what was undone, one line each */
	struct strvec	failed;	/* what could not be undone (left pending) */
	struct strvec	notes;	/* runs skipped, docker unreachable... */
};
#define HOSTSET_REPORT_INIT { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT }
void	hostset_report_release(struct hostset_report *rep);

enum hostset_restore_flags {
	/* Also runs whose abbench process is alive, or of another host. */
	HOSTSET_FORCE = 1 << 0,
	/* Only runs whose process is dead (the runner's check at start). */
	HOSTSET_STALE = 1 << 1,
};
/*
 * Undo the pending entries of run_id (0: of every run) and remove the
 * docker containers labelled abbench.run=<uuid> of those runs and of runs
 * left running or interrupted. Without HOSTSET_FORCE a run whose pid is a
 * live abbench process (other than this one) or whose host is another is
 * skipped (a note says so). A run still marked running whose process is
 * gone becomes interrupted. *undone counts the items undone. Returns 0, or
 * -1 when something could not be undone (*cause says how many, details in
 * rep->failed) or on a store error.
 */
int	hostset_restore_runs(struct store *st, int64_t run_id, int flags,
	    struct hostset_report *rep, int *undone, char **cause);
/*
 * hostset_restore_stale with what was done (rep->done, one line per item
 * for the caller to print as warnings) and what could not be (rep->failed;
 * the return is then still the count undone, not -1: the caller warns).
 * -1 only on a store error.
 */
int	hostset_restore_stale_report(struct store *st,
	    struct hostset_report *rep, char **cause);

/*
 * At the start of a run: restore what runs whose process died (kill -9)
 * left behind, and mark those runs interrupted. Returns how many journal
 * entries were undone, or -1.
 */
int	hostset_restore_stale(struct store *st, char **cause);

/* The block devices (names under /sys/block, e.g. "loop3", "sda") that
 * hold PATH: mountinfo -> device, partitions -> disk, dm -> slaves,
 * loop -> backing file's disk too, overlay -> upper/lower dirs. */
int	blockdev_for_path(const char *path, char ***disks, size_t *n,
	    char **cause);

#endif
