/* SPDX-License-Identifier: Apache-2.0 */
/*
 * containerd's copies of docker checkpoints. containerd 1.6 unpacks the
 * checkpoint that `docker start --checkpoint` hands it into a new
 * "ctrd-checkpoint*" directory of its temporary directory and never
 * removes it (containerd#10166): a copy of the checkpoint image per
 * restore, in /tmp as a rule. The docker executor removes the copy of
 * each restore it makes, and its undo and sweep (`abbench restore` after
 * a kill -9, the end of a run) those of the containers they remove.
 */
#ifndef ABBENCH_CTRD_CKPT_H
#define ABBENCH_CTRD_CKPT_H

struct strvec;

/*
 * containerd's temporary directories, appended to dirs: Go's
 * os.MkdirTemp("") under $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp, of
 * each running containerd (/tmp when none runs).
 */
void	ctrd_ckpt_tmpdirs(struct strvec *dirs);

/* The ctrd-checkpoint* directories in tmpdirs, as paths, appended. */
void	ctrd_ckpt_list(const struct strvec *tmpdirs, struct strvec *out);

/*
 * Remove the copies of checkpoint directory ckpt (docker's own:
 * ROOT/containers/ID/checkpoints/TAG) among the ctrd-checkpoint*
 * directories of tmpdirs that are not in before (when given: those
 * there before the restore): those that hold the same files with the
 * same sizes and bytes (compared with docker's, which the page cache
 * holds after a restore; a concurrent restore of the same workload by
 * another run may unpack a copy of the same names and sizes). Returns
 * how many were removed.
 */
int	ctrd_ckpt_remove(const char *ckpt, const struct strvec *tmpdirs,
	    const struct strvec *before);

/*
 * For a dead run's container: the prints of container ID's checkpoints
 * (a full id or its prefix, of the daemon whose root directory is root),
 * appended to prints: their files' names, sizes and sha256. Taken before
 * the container is removed, since its checkpoints go with it; matched
 * after (ctrd_ckpt_remove_printed), since a restore the dead run had
 * asked for may still be unpacking its copy, and the removal waits for
 * it.
 */
void	ctrd_ckpt_prints(const char *root, const char *id,
	    struct strvec *prints);

/*
 * Remove the ctrd-checkpoint* directories of tmpdirs whose files have
 * one of prints' names, sizes and bytes, their paths pushed to removed
 * (may be NULL). Returns how many were removed.
 */
int	ctrd_ckpt_remove_printed(const struct strvec *prints,
	    const struct strvec *tmpdirs, struct strvec *removed);

#endif
