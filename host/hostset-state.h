/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The state of a run's host settings, shared by the files that make,
 * watch and try them (hostset.c, hostset-watch.c, hostset-trial.c); not
 * an API for anyone else (hostset.h is).
 */
#ifndef ABBENCH_HOSTSET_STATE_H
#define ABBENCH_HOSTSET_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct hostset_op;
struct journal;
struct store;

/* One file a setting lives in, and what the run did to it. */
struct hs_item {
	const struct hostset_op	*op;
	char		*name;		/* setting name (journal kind) */
	char		*unit;		/* disk or CPU, or NULL */
	char		*path;
	char		*sched;		/* knob: scheduler it belongs to */
	char		*original;	/* as read before the first write */
	int64_t		 jid;		/* journal entry, 0 = none yet */
};

struct hs_disk {
	char		*name;
	char		*orig_sched;	/* at prepare, then at attach */
	char		*available;
	int		 snapshotted;	/* original tunables journaled */
};

/*
 * A file's value when the run took the host (hostset_attach: the host
 * lock held, dead runs undone): the true original of every setting the
 * run may change, whatever someone else writes there later. sched: the
 * scheduler a tunable belongs to, NULL for any other file.
 */
struct hs_base {
	char		*path;
	char		*sched;
	char		*value;
};

struct hs_arm {
	char		*name;
	struct strvec	 keys;		/* host.* settings (not path) */
	struct strvec	 values;
	struct strvec	 disks;		/* for this arm's host.block.* */
};

struct hostset {
	struct journal	*jr;
	struct store	*st;
	struct strvec	 paths;
	struct hs_disk	*disks;
	size_t		 ndisks, capdisks;
	struct hs_item	*items;
	size_t		 nitems, capitems;
	struct hs_arm	*arms;
	size_t		 narms;
	struct strvec	 names;		/* non-block settings of any arm */
	struct strvec	 knobs;		/* block tunables of any arm */
	int		 prepared;
	struct hs_base	*base;		/* the host as the run found it */
	size_t		 nbase, capbase;
	struct strvec	 seen_paths;	/* the watch: files and values as */
	struct strvec	 seen_values;	/* the last apply left them */
	struct strvec	 outside;	/* changes found, not yet reported */
};

struct hs_item	*hs_find_item(struct hostset *hs, const char *path,
		    const char *sched);
/* The item of (path, sched), made when missing. */
struct hs_item	*hs_get_item(struct hostset *hs, const char *name,
		    const char *unit, const char *path, const char *sched);
struct hs_disk	*hs_find_disk(struct hostset *hs, const char *name);
/* The value of path (of scheduler sched) when the run took the host. */
const char	*hs_base_value(const struct hostset *hs, const char *path,
		    const char *sched);
/* Record it (value handed over; NULL or known already: freed). */
void		 hs_base_add(struct hostset *hs, const char *path,
		    const char *sched, char *value);
/* Journal it->original (once) before its first write. */
int		 hs_journal(struct hostset *hs, struct hs_item *it,
		    char **cause);
/* The value an arm gives key, or NULL. */
const char	*hs_arm_value(const struct hs_arm *ha, const char *key);
/* Journal every tunable of scheduler sched on the disk. */
int		 hs_snapshot_knobs(struct hostset *hs, struct hs_disk *hd,
		    const char *sched, char **cause);

#endif
