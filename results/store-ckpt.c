/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's checkpoints, behind it. SQLite checkpoints the -wal file into
 * the database when a commit leaves 1000 pages or more in it, inside
 * that commit: with synchronous = NORMAL three fdatasyncs (the -wal's ~4
 * MB, the database's pages, the -wal's header at its restart), 3 to 36
 * ms on the project's VM at load 6, once every ~300 samples of a command
 * run: ~35 us a sample on average, between two samples, and most of the
 * spread of a run's time per sample (bench/inline-vs-hyperfine). Here a
 * thread of abbench with a connection of its own does them (PASSIVE: it
 * waits for nobody), woken by the commit that passes the 1000, while the
 * run's connection goes on: the samples stop waiting for the disk.
 * Nothing else changes: every sample is still committed into the -wal
 * before the next one starts (what a kill -9 keeps), a checkpoint still
 * syncs the -wal before it writes the database (what a power loss keeps),
 * and SQLite makes a checkpoint that is killed half way safe. A -wal
 * that grows past 16000 pages anyway (a checkpoint cannot end while a
 * reader keeps an older snapshot, or the thread lags) is checkpointed by
 * the run's commit as before.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "lib/util.h"
#include "results/store-int.h"

#define CKPT_PAGES	1000		/* SQLite's own default */
#define CKPT_CAP_PAGES	(16 * CKPT_PAGES)

struct store_ckpt {
	sqlite3		*db;		/* the thread's connection */
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 running, stop;
};

static void *
ckpt_main(void *arg)
{
	struct store_ckpt	*c = arg;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->running && !c->stop)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stop)
			break;
		pthread_mutex_unlock(&c->mu);
		/* Busy (a reader, the run's own) is no error: next time. */
		(void)sqlite3_wal_checkpoint_v2(c->db, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&c->mu);
		c->running = 0;
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/*
 * After each commit of the run's connection, NPAGES in the -wal: past
 * 1000 the thread is woken unless it is at work. The -wal starts again
 * from its beginning only at a commit that finds it all checkpointed,
 * which a checkpoint running beside the commits seldom leaves (the
 * samples committed meanwhile): the thread goes on with the few pages
 * since, until one of its checkpoints ends between two commits (20-30
 * checkpoints a 1000 samples of /bin/true, the -wal at most ~6 MB
 * instead of ~4). Doing that rest here instead, a few pages, cost two
 * fdatasyncs of 1-30 ms at load 9, between two samples, again.
 */
static int
ckpt_hook(void *arg, sqlite3 *db, const char *name, int npages)
{
	struct store_ckpt	*c = arg;

	pthread_mutex_lock(&c->mu);
	if (!c->running && npages >= CKPT_PAGES) {
		c->running = 1;
		pthread_cond_signal(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	if (npages >= CKPT_CAP_PAGES)
		(void)sqlite3_wal_checkpoint_v2(db, name,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

void
store_checkpoint_behind(struct store *st)
{
	struct store_ckpt	*c;
	sigset_t		 all, old;
	char			*uri;
	int			 rc;

	/* Two connections in two threads need a thread-safe SQLite. */
	if (st->ckpt != NULL || (st->flags & STORE_READONLY) ||
	    st->wal_lost || !sqlite3_threadsafe())
		return;
	c = xcalloc(1, sizeof *c);
	uri = store_uri(st->path, NULL);
	rc = sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	/* A read: the connection then knows the file is in WAL mode (a
	 * checkpoint before it does nothing). */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(c->db, "SELECT 1 FROM sqlite_master LIMIT 1",
		    NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		/* SQLite's own checkpoints then, as before. */
		sqlite3_close(c->db);
		free(c);
		return;
	}
	sqlite3_busy_timeout(c->db, STORE_BUSY_MS);
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	/* The run's signals are the main thread's to take. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&c->thread, NULL, ckpt_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&c->cv);
		pthread_mutex_destroy(&c->mu);
		sqlite3_close(c->db);
		free(c);
		return;
	}
	st->ckpt = c;
	/* Replaces SQLite's autocheckpoint (a hook too). */
	sqlite3_wal_hook(st->db, ckpt_hook, c);
}

void
store_checkpoint_inline(struct store *st)
{
	struct store_ckpt	*c = st->ckpt;

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->mu);
	c->stop = 1;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->thread, NULL);
	sqlite3_close(c->db);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
	st->ckpt = NULL;
	sqlite3_wal_autocheckpoint(st->db, CKPT_PAGES);
}
