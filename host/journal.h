/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host belongs to one run at a time: the host-wide lock, the per-run
 * liveness lock, and the host-wide journal every change is written to
 * (with a copy in the run's database for the record) before it is made.
 *
 * The host lock is one per host, whatever directory the journal is in:
 * a flock on the directory journal_host_dir() (/var/lib/abbench for root;
 * another user, who changes no host setting, has its own), which cannot be
 * unlinked under its holder as a lock file can. In it:
 *   host.lock        "pid<TAB>experiment<TAB>db<TAB>state dir" of the
 *                    holder (emptied when it lets go cleanly). The kernel
 *                    drops the lock when the holder dies, kill -9
 *                    included; details left behind name the state
 *                    directory whose runs may have left the host changed.
 *
 * The rest lives in the state directory ($ABBENCH_STATE_DIR, else the
 * host lock's directory):
 *   runs/UUID.lock   flock'd for the life of every run that journals
 *                    anything; with its pid and start time in the journal
 *                    (a live process is a live run, lock file or not).
 *   journal.db       the host journal (results/journal-db.h).
 */
#ifndef ABBENCH_JOURNAL_H
#define ABBENCH_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct store_journal;
struct hjournal;
struct hjournal_owner;

#define JOURNAL_STATE_DIR	"/var/lib/abbench"

/* The state directory (borrowed). */
const char	*journal_state_dir(void);
/*
 * Where the host lock lives, whatever $ABBENCH_STATE_DIR says: one place
 * per host (/var/lib/abbench for root; another user, who changes no host
 * setting, gets its own default state directory).
 */
const char	*journal_host_dir(void);

struct journal;
/* Open the host journal (making the state directory when missing). */
struct journal	*journal_open(char **cause);
/* The same for the journal in dir; without create, NULL if it has none. */
struct journal	*journal_open_dir(const char *dir, int create, char **cause);
/* Its state directory (borrowed). */
const char	*journal_dir(const struct journal *jr);
/*
 * After the host lock is taken: the state directory of a holder that died
 * holding it, when it is not this journal's (its runs may have left the
 * host changed), else NULL.
 */
const char	*journal_prev_dir(const struct journal *jr);
/* Release the locks held and close; NULL is fine. */
void		 journal_close(struct journal *jr);
struct hjournal	*journal_hj(struct journal *jr);

/*
 * Take the host lock for a run of experiment into db (with wait, or
 * ABBENCH_WAIT_LOCK set, waiting for it). Held: without wait, -1 with a cause naming the holder's pid, experiment and db; with
 * wait, blocks until the holder is gone, telling the wait notice (below)
 * when the wait begins and when it ends.
 */
int	journal_lock_host(struct journal *jr, const char *experiment,
	    const char *db, int wait, char **cause);
/*
 * Called when a wait for the host lock begins (holder: its pid, experiment
 * and database) and when it ends (holder NULL, waited: nanoseconds), so
 * that a log tells waiting from hung. NULL: none. The host module prints
 * nothing itself.
 */
void	journal_set_wait_notice(void (*fn)(const char *holder,
	    int64_t waited_ns));
/*
 * Take the host lock if it is free (0 = taken, 1 = held by another); with
 * wait, wait for it.
 */
int	journal_try_host(struct journal *jr, int wait);
/* flag, or ABBENCH_WAIT_LOCK set (not 0): wait for the host lock. */
int	journal_wait_wanted(int flag);
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
 * A run's liveness, for undoing what it left: 1 = it is dead (*fd holds
 * its lock until journal_release_run), 0 = alive, -1 error. Alive is its
 * process (pid and start time, journal_owner_alive) whatever its lock
 * file says, else its lock held. When its process is gone but the lock is
 * still held (a child of it between fork and exec), waits up to 5 s.
 */
int	journal_claim_run(struct journal *jr, const struct hjournal_owner *o,
	    int *fd, char **cause);
/*
 * Wait until no process holds run uuid's liveness lock (the lock
 * journal_attach takes for the run's whole life, released by the kernel
 * even at a kill -9), until deadline_ns (monotonic); -1 with *cause when
 * it is still held then. For --takeover: a scheduler may start a requeued
 * job on the same node while the instance it signalled still stores its
 * interruption and removes the run's scratch directory and cgroup.
 */
int	journal_wait_run(struct journal *jr, const char *uuid,
	    int64_t deadline_ns, char **cause);
/* Release a claimed run; with forget, its lock file goes too. */
void	journal_release_run(struct journal *jr, const char *uuid, int fd,
	    int forget);

/*
 * "BOOT_ID:START" of process pid (its start time, field 22 of
 * /proc/PID/stat, in this boot), malloc'd, NULL if it is gone.
 */
char	*journal_proc_start(int64_t pid);
/*
 * Is the process that recorded (pid, start) alive: 1 yes, 0 no (gone,
 * or the pid is another process now), -1 unknown (no start recorded).
 */
int	journal_owner_alive(int64_t pid, const char *start);
/*
 * Is a run's abbench process, (pid, start) as its row in the store says,
 * alive on this host: 1 yes, 0 no. With start, exactly as
 * journal_owner_alive. Without (a run stored by an older abbench), a live
 * process with that pid named abbench (or lt-abbench, libtool's) is taken
 * for it, and so is one whose name cannot be read: keeping a dead run's
 * changes is safe, undoing a live one's is not.
 */
int	journal_run_owner_alive(int64_t pid, const char *start);

/*
 * Is the host a run recorded (its row's host: the node name, uname's) this
 * one: 1 yes, or when none is recorded; 0 no. A run's owner on another
 * host cannot be checked from here.
 */
int	journal_host_is_here(const char *host);

#endif
