/*
 * The host belongs to one run at a time: the host-wide lock, the per-run
 * liveness lock, and the host-wide journal every change is written to
 * (with a copy in the run's database for the record) before it is made.
 *
 * Everything lives in the state directory ($ABBENCH_STATE_DIR, else
 * /var/lib/abbench for root, else the user's $XDG_STATE_HOME/abbench or
 * ~/.local/state/abbench: another user changes no host setting):
 *   host.lock        flock'd for the life of a run that changes host
 *                    settings; holds "pid<TAB>experiment<TAB>db" of the
 *                    holder. The kernel drops the lock when the holder
 *                    dies, kill -9 included.
 *   runs/UUID.lock   flock'd for the life of every run that journals
 *                    anything: a run whose lock can be taken is dead.
 *   journal.db       the host journal (results/hostjournal.h).
 */
#ifndef ABBENCH_JOURNAL_H
#define ABBENCH_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct store_journal;
struct hjournal;

#define JOURNAL_STATE_DIR	"/var/lib/abbench"

/* The state directory (borrowed). */
const char	*journal_state_dir(void);

struct journal;
/* Open the host journal (making the state directory when missing). */
struct journal	*journal_open(char **cause);
/* Release the locks held and close; NULL is fine. */
void		 journal_close(struct journal *jr);
struct hjournal	*journal_hj(struct journal *jr);

/*
 * Take the host lock for a run of experiment into db. Held: without
 * wait, -1 with a cause naming the holder's pid, experiment and db; with
 * wait, blocks until the holder is gone (a note is printed by the caller
 * beforehand if it wants one).
 */
int	journal_lock_host(struct journal *jr, const char *experiment,
	    const char *db, int wait, char **cause);
/* Take the host lock only if it is free (0 = taken, 1 = held by another). */
int	journal_try_host(struct journal *jr);
/* Drop the host lock taken by journal_try_host. */
void	journal_unlock_host(struct journal *jr);
int	journal_host_locked(const struct journal *jr);

/*
 * Register a run as an owner: take its liveness lock and record its uuid,
 * database (made absolute) and run id. st receives the copies.
 */
int	journal_attach(struct journal *jr, struct store *st, int64_t run_id,
	    const char *uuid, const char *experiment, char **cause);
const char	*journal_uuid(const struct journal *jr);
/*
 * Journal a change before it is made: in the host journal first, then a
 * copy in the run's database. Returns the host journal id (> 0) or -1.
 */
int64_t	journal_add(struct journal *jr, const char *kind, const char *name,
	    const char *target, const char *original, char **cause);
/* Both the host entry and its copy. */
int	journal_set_state(struct journal *jr, int64_t id, const char *state,
	    const char *applied, char **cause);
/* This run's pending entries, newest first (store_journal_free). */
int	journal_pending(struct journal *jr, struct store_journal **out,
	    size_t *n, char **cause);
/* At the run's end: forget the owner when nothing is pending. */
void	journal_detach(struct journal *jr);

/*
 * A run's liveness lock, taken for undoing what it left: 1 = it is dead
 * (*fd holds its lock until journal_release_run), 0 = alive, -1 error.
 * When its process pid is gone but the lock is still held (a child of it
 * between fork and exec), waits up to 5 s for the lock.
 */
int	journal_claim_run(const char *uuid, int64_t pid, int *fd,
	    char **cause);
/* Release a claimed run; with forget, its lock file goes too. */
void	journal_release_run(const char *uuid, int fd, int forget);

#endif
