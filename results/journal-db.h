/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host journal's database, journal.db: the file under host/journal.h
 * (which holds the host's locks and writes every change here before it is
 * made). A small SQLite file (synchronous=FULL, so every entry is on disk
 * before the change it announces is made) that records every change any
 * run makes to this host, with the run and the results database it belongs
 * to. Whoever finds a dead run's entries pending (the next run, `abbench
 * restore` from any directory) undoes them.
 *
 * Schema:
 *   owners(uuid, db, run_id, pid, experiment, started_wall_ns,
 *          pid_start)       -- pid_start: the process's start, see
 *                              journal_proc_start
 *   entries(id, owner, copy_id, kind, name, target, original, applied,
 *           state)           -- copy_id: the entry's id in the run's db
 *
 * Like the rest of results/: never prints, never exits; 0 / -1 with *cause.
 */
#ifndef ABBENCH_JOURNAL_DB_H
#define ABBENCH_JOURNAL_DB_H

#include <stddef.h>
#include <stdint.h>

struct store_journal;
struct hjournal;

struct hjournal_owner {
	char	*uuid;		/* the run's uuid */
	char	*db;		/* absolute path of its results database */
	int64_t	 run_id;	/* its id in that database */
	int64_t	 pid;
	char	*pid_start;	/* "BOOT_ID:START" of pid, or NULL */
	char	*experiment;
	int64_t	 started_wall_ns;
};
void	hjournal_owner_release(struct hjournal_owner *o);

/* Open (creating it and its schema) the journal file at path. */
struct hjournal	*hjournal_open(const char *path, char **cause);
void		 hjournal_close(struct hjournal *hj);

int	hjournal_owner_add(struct hjournal *hj, const struct hjournal_owner *o,
	    char **cause);
/* Every owner, oldest first. */
int	hjournal_owners(struct hjournal *hj, struct hjournal_owner **out,
	    size_t *n, char **cause);
void	hjournal_owners_free(struct hjournal_owner *o, size_t n);
/* Forget an owner and its entries (all restored). */
int	hjournal_owner_remove(struct hjournal *hj, const char *uuid,
	    char **cause);

int	hjournal_add(struct hjournal *hj, const char *owner, const char *kind,
	    const char *name, const char *target, const char *original,
	    int64_t *id, char **cause);
int	hjournal_set_copy(struct hjournal *hj, int64_t id, int64_t copy_id,
	    char **cause);
/* state: JOURNAL_SAVED / APPLIED / RESTORED (results/store.h). */
int	hjournal_set_state(struct hjournal *hj, int64_t id, const char *state,
	    const char *applied, char **cause);
/* The copy's id of entry id (0 = none). */
int	hjournal_copy_id(struct hjournal *hj, int64_t id, int64_t *copy_id,
	    char **cause);
/*
 * The owner's entries not yet restored, newest first, as store_journal
 * records: id is the host journal's, run_id the owner's run in its db.
 */
int	hjournal_pending(struct hjournal *hj, const char *owner,
	    struct store_journal **out, size_t *n, char **cause);

/*
 * One transaction over several changes (entries marked restored together:
 * a restore killed half way leaves them all pending). Not nested.
 */
int	hjournal_begin(struct hjournal *hj, char **cause);
int	hjournal_commit(struct hjournal *hj, char **cause);
int	hjournal_rollback(struct hjournal *hj);

#endif
