/* SPDX-License-Identifier: Apache-2.0 */
/*
 * containerd's copies of docker checkpoints. containerd 1.6 unpacks the
 * checkpoint that `docker start --checkpoint` hands it into a new
 * "ctrd-checkpoint*" directory of its temporary directory and never
 * removes it (containerd#10166): a copy of the checkpoint image per
 * restore, in /tmp as a rule. The docker executor removes the copy of
 * each restore it makes, and its sweep (the end of a run, `abbench
 * restore` after a kill -9) those of the containers it removes.
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
 * directories of tmpdirs: those that hold the same files with the same
 * sizes. With before, those listed there (there before the restore) are
 * left; without, the files' bytes must match too (sha256). Returns how
 * many were removed.
 */
int	ctrd_ckpt_remove(const char *ckpt, const struct strvec *tmpdirs,
	    const struct strvec *before);

/*
 * Before container ID (a full id or its prefix) of the daemon whose root
 * directory is root is removed: remove the copies of each of its
 * checkpoints (ctrd_ckpt_remove without before). A run killed during a
 * restore leaves one, which only docker's checkpoint, gone with the
 * container, can name. Returns how many were removed.
 */
int	ctrd_ckpt_remove_container(const char *root, const char *id,
	    const struct strvec *tmpdirs);

#endif
