/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host settings: named, typed operations with read / validate / apply /
 * restore (host.block.*, host.thp.*, host.sysctl.*, host.cpufreq.governor),
 * and the drop-caches action. The original value of everything changed is
 * written to the host journal (journal.h) before the first write, and
 * restored at the end of a run, on error, on a signal, and by the next run
 * or `abbench restore` after a kill -9 (recover.h).
 */
#ifndef ABBENCH_HOSTSET_H
#define ABBENCH_HOSTSET_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

#include "host/recover.h"

struct store;
struct arm;
struct experiment;

/* Is NAME a known setting and VALUE acceptable for it? (no host access
 * for the syntax check; used by the experiment loader) */
int	hostset_check(const char *name, const char *value, char **cause);

struct hostset;
struct journal;
/* paths: directories whose disks host.block.* settings apply to. */
struct hostset	*hostset_new(char *const *paths, size_t npaths);
/*
 * Read every setting named by any arm of e and validate it on this host
 * (device exists, scheduler available, knob present). Touches nothing:
 * the runner calls it before it opens a store.
 */
int	hostset_prepare(struct hostset *hs, const struct experiment *e,
	    char **cause);
/*
 * With the host lock held and before the run's row exists: write once and
 * put back (journaled) every sysctl value whose range is not documented,
 * so that one the kernel refuses is an input error naming FILE:LINE: KEY.
 */
int	hostset_trial(const struct experiment *e, struct journal *jr,
	    char **cause);
/*
 * The same for I/O scheduler tunables (with the host lock held, before
 * the run's row exists): each arm's tunables on each of its disks whose
 * scheduler is already the arm's are written, read back and judged
 * (hostset_knob_same: a tick-based tunable holds within HOSTSET_TICK_MS
 * above), then everything goes back as `restore` puts it. A value the
 * kernel refuses or does not keep is an input error naming FILE:LINE: KEY.
 */
int	hostset_trial_block(struct hostset *hs, const struct experiment *e,
	    struct journal *jr, char **cause);
/*
 * Where changes are journaled (the host journal, with copies in st); the
 * host as the run finds it then is the original of everything it changes.
 */
void	hostset_attach(struct hostset *hs, struct journal *jr,
	    struct store *st);
/*
 * The watch (before and after every sample): hostset_watch_take reads what
 * the last apply left (each disk's scheduler and tunables, the other
 * settings' files); hostset_watch_check reads them again and appends to
 * changes one line per file someone else changed since (a switched
 * scheduler once, not its tunables), with put_back writing the run's
 * value back (a scheduler is switched back by the next apply), and what
 * the run found changed before it first wrote there. 1 when any.
 */
void	hostset_watch_take(struct hostset *hs);
int	hostset_watch_check(struct hostset *hs, int put_back,
	    struct strvec *changes);
/* Does any arm of e change a host setting (and so need the host lock)? */
int	hostset_changes_host(const struct experiment *e);
/*
 * Make the host as the arm wants it: apply the arm's settings (journaling
 * originals first), and put settings that other arms change but this arm
 * does not back to their originals.
 */
int	hostset_apply_arm(struct hostset *hs, const struct arm *arm,
	    char **cause);
/* Restore every setting this run changed; safe to call twice. */
int	hostset_restore_all(struct hostset *hs, char **cause);
void	hostset_free(struct hostset *hs);
/*
 * The i-th host setting an arm may set, for help: its name (a prefix, such
 * as "host.sysctl.", when *prefix) and its help text; NULL past the last.
 */
const char	*hostset_key_help(size_t i, const char **name, int *prefix);
/* sync, then vm.drop_caches=3. */
int	hostset_drop_caches(char **cause);

/* The block devices (names under /sys/block, e.g. "loop3", "sda") that
 * hold PATH: mountinfo -> device, partitions -> disk, dm -> slaves,
 * loop -> backing file's disk too, overlay -> upper/lower dirs. */
int	blockdev_for_path(const char *path, char ***disks, size_t *n,
	    char **cause);

#endif
