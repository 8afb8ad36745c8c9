/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Undoing what runs left on the host, from the host-wide journal: the
 * settings of a run (an I/O scheduler before its tunables, the oldest
 * original last) and its objects (newest first, through undo.h), for the
 * run itself at its end and for dead runs found by the next run or by
 * `abbench restore`. Each undone entry is marked in the host journal and
 * in its copy in the run's database.
 */
#ifndef ABBENCH_RECOVER_H
#define ABBENCH_RECOVER_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct hjournal;
struct journal;
struct store;
struct store_journal;

struct hostset_report {
	struct strvec	done;	/* what was undone, one line each */
	struct strvec	failed;	/* what could not be undone (left pending) */
	struct strvec	notes;	/* runs skipped, docker unreachable... */
};
#define HOSTSET_REPORT_INIT { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT }
void	hostset_report_release(struct hostset_report *rep);

/* Where an undone entry is marked: the host journal, and the copy. */
struct undo_mark {
	struct hjournal	*hj;
	struct store	*st;	/* the run's database, or NULL */
};
int	undo_mark_restored(struct undo_mark *m, int64_t id, char **cause);

/* The settings among entries j (one run's, newest first). */
int	recover_settings(struct undo_mark *m, struct store_journal *j,
	    size_t n, struct hostset_report *rep, int *undone);
/* The objects among entries j (one run's, newest first). */
int	recover_objects(struct undo_mark *m, struct store_journal *j,
	    size_t n, struct hostset_report *rep, int *undone);

enum recover_flags {
	/* Also runs that look alive. */
	RECOVER_FORCE = 1 << 0,
	/* Settings too (the caller holds the host lock). */
	RECOVER_SETTINGS = 1 << 1,
	/*
	 * recover_db_only: act on what only the database journaled (the
	 * user vouches for it, --trust-db); without, each entry is named
	 * and left. Entries are vetted (trust_entry) either way.
	 */
	RECOVER_TRUST_DB = 1 << 2,
};
struct recover_filter {
	const char	*db;		/* only runs of this database, or NULL */
	int64_t		 run_id;	/* only this run of db, or 0 */
};
/*
 * Undo what dead runs left (every run of the host journal but the one
 * attached to jr, filtered by f when not NULL): their pending entries
 * and the docker containers labelled with their uuid. A run marked
 * running in its database becomes interrupted. *undone counts the items.
 * 0, or -1 when something could not be undone (rep->failed) or on a
 * journal error (*cause).
 */
int	recover_runs(struct journal *jr, const struct recover_filter *f,
	    int flags, struct hostset_report *rep, int *undone, char **cause);

/*
 * Whether a run of jr that is not alive left host settings pending (a
 * restore then waits for the host, when asked to).
 */
int	recover_settings_pending(struct journal *jr);
/*
 * The host lock held (journal_lock_host, journal_try_host): when its last
 * holder died holding it and was of another state directory, undo the
 * dead runs of that directory's journal (settings included) first, so
 * that this one journals the host's real originals.
 */
int	recover_prev_dir(struct journal *jr, struct hostset_report *rep,
	    int *undone, char **cause);

/*
 * Entries only a database has (journaled by an abbench older than the host
 * journal, or whose host journal is gone): the pending entries of st (of
 * run_id, or every run when 0) whose run is not in the host journal and
 * whose process is gone are undone there, and marked in st, only with
 * RECOVER_TRUST_DB; without it they are named in rep->failed (-1).
 */
int	recover_db_only(struct journal *jr, struct store *st, int64_t run_id,
	    int flags, struct hostset_report *rep, int *undone, char **cause);

#endif
