/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One teardown per kind of object a run makes on the host: the run's
 * normal end, Ctrl-C, a sample's timeout and `abbench restore` all undo an
 * object here. An executor's objects (containers) are undone by its own
 * hook (exec_ops.journal_kind, .undo: the docker executor's "container",
 * the OCI executor's "oci-container"); the host's kinds by this table:
 *
 * Kinds (journal kind, target):
 *   "cgroup"         a run's cgroup "abbench-<uuid8>[/...]" (relative):
 *                    removed in every hierarchy below each path of the
 *                    entry's original (where the run's abbench was), below
 *                    ours and at the root; an absolute directory in a
 *                    hierarchy: that one; "/a/b": from every root;
 *   "cgroup-subtree" abbench's own cgroup (v2, a directory), original: its
 *                    cgroup.subtree_control before the run enabled
 *                    controllers there: what it did not have is disabled
 *                    (journaled before the run's cgroup, so undone after);
 *   "dir"            removed recursively, only under /tmp, /var/tmp,
 *                    $TMPDIR or if its last component starts "abbench-";
 *   "mkdir"          a directory the run made for a workload (its dir
 *                    and missing parents): rmdir, left if not empty;
 *   "file"           a file the run made (scratch, a workload's data):
 *                    unlinked if it is a regular file;
 *   "loop"           /dev/loopN: detached;
 *   "mount"          a mount point: unmounted (lazily when busy).
 */
#ifndef ABBENCH_UNDO_H
#define ABBENCH_UNDO_H

#include <stdint.h>

struct store_journal;
struct strvec;

/*
 * Undo one object entry. *what (malloc'd, may be NULL) says what was done
 * for a report line. 0 = undone (or already gone), -1 = not (*cause).
 */
int	undo_object(const struct store_journal *e, char **what, char **cause);
/*
 * Remove every container labelled abbench.run=UUID (the run's own and
 * whatever a workload's program started with the label), through each
 * executor's sweep hook; their ids go to removed (may be NULL). -1 when a
 * daemon cannot be asked or a removal failed (*cause).
 */
int	undo_labelled_containers(const char *uuid, struct strvec *removed,
	    char **cause);
/*
 * The same with each daemon's listing bounded by timeout_ns (a sweep
 * after a sample: a hung daemon must not hold it up; the removals of
 * what it found have their usual timeout).
 */
int	undo_labelled_within(const char *uuid, int64_t timeout_ns,
	    struct strvec *removed, char **cause);

#endif
