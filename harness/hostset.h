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
/* sync, then vm.drop_caches=3. */
int	hostset_drop_caches(char **cause);
/* Current values of the settings for the host metadata ("key: value"). */

/*
 * Undo every pending journal entry (of run_id, or of all runs when 0):
 * settings back to their originals, cgroups removed, containers labelled
 * with the run removed, loop devices detached. Returns the number undone.
 */
int	hostset_restore_journal(struct store *st, int64_t run_id, int *undone,
	    char **cause);

/* The block devices (names under /sys/block, e.g. "loop3", "sda") that
 * hold PATH: mountinfo -> device, partitions -> disk, dm -> slaves,
 * loop -> backing file's disk too, overlay -> upper/lower dirs. */
int	blockdev_for_path(const char *path, char ***disks, size_t *n,
	    char **cause);

#endif
