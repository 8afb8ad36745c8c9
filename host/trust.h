/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What abbench trusts before it acts as root on what a file says
 * (docs/threat-model.md): a results database is untrusted input, the
 * state directory and its host journal must be the invoking user's own,
 * and a journal entry names only what abbench itself would have written
 * for its kind. Each check answers 0 (trusted) or -1 with a cause naming
 * what was refused and why.
 */
#ifndef ABBENCH_TRUST_H
#define ABBENCH_TRUST_H

struct store_journal;

/*
 * The database at path may be acted on by this user (restore, --resume):
 * its file (and its -journal / -wal, when there) owned by the invoking
 * user or root and writable by no one else (group only when the group is
 * the user's own), in a directory nobody else can swap it in (sticky, or
 * writable by its owner only, the user or root). A path that is missing
 * or not a regular file passes: opening it fails on its own.
 */
int	trust_db_file(const char *path, char **cause);

/*
 * The state directory dir and the host journal in it (when there) are
 * the invoking user's own: owned by them (or root) and writable by no one
 * else. A journal anyone may write would let them name what root undoes.
 */
int	trust_state_dir(const char *dir, char **cause);

/*
 * e is an entry of a kind abbench writes, whose target is a path abbench
 * would write for that kind: a host setting's file under /sys or
 * /proc/sys exactly as its key makes it (resolved: it must stay in sysfs
 * or procfs), an object abbench makes (its cgroups, scratch directories,
 * loop devices, containers named abbench-*); never a relative path or a
 * ".." component.
 */
int	trust_entry(const struct store_journal *e, char **cause);

#endif
