/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host-wide lock, the runs' liveness locks and the host journal with
 * its copy in each run's database (journal.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "host/journal.h"
#include "host/trust.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "results/journal-db.h"
#include "results/store.h"

struct journal {
	char		*dir;		/* its state directory */
	char		*prev_dir;	/* a dead holder's, when not ours */
	struct hjournal	*hj;
	struct store	*st;		/* the attached run's database */
	int64_t		 run_id;
	char		 uuid[37];
	int		 run_fd;	/* liveness lock, -1 = none */
	int		 host_fd;	/* host lock, -1 = not held */
};

const char *
journal_state_dir(void)
{
	const char	*d = getenv("ABBENCH_STATE_DIR");

	if (d != NULL && *d != '\0')
		return d;
	return journal_host_dir();
}

/* $HOME when the state directory is below it: a home is not ours to make. */
static char *journal_home;

const char *
journal_host_dir(void)
{
	static char	*user;
	const char	*x, *h;

	if (geteuid() == 0)
		return JOURNAL_STATE_DIR;
	/*
	 * Another user cannot change host settings (sysfs is root's) nor
	 * write /var/lib: the journal of its objects is its own.
	 */
	if (user == NULL) {
		x = getenv("XDG_STATE_HOME");
		h = getenv("HOME");
		if (x != NULL && *x == '/')
			user = xasprintf("%s/abbench", x);
		else if (h != NULL && *h == '/') {
			user = xasprintf("%s/.local/state/abbench", h);
			journal_home = xstrdup(h);
		}
		else
			user = xasprintf("/tmp/abbench-state-%ld",
			    (long)geteuid());
	}
	return user;
}

/*
 * Make the state directory dir and its parents, but not $HOME (a missing
 * home is the account's problem, not a directory for abbench to make). The
 * message names the state directory and what chooses it.
 */
static int
journal_mkdirs(const char *dir, char **cause)
{
	const char	*env = getenv("ABBENCH_STATE_DIR");
	char		*copy = xstrdup(dir), *p, *why = NULL;
	struct stat	 sb;
	size_t		 n;
	int		 from_env = env != NULL && *env != '\0' &&
			    str_startswith(dir, env);

	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char	c = *p;

			*p = '\0';
			if (!from_env && journal_home != NULL &&
			    strcmp(copy, journal_home) == 0 &&
			    stat(copy, &sb) == -1) {
				why = xasprintf("$HOME '%s' does not exist",
				    copy);
				break;
			}
			if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
				why = xasprintf("cannot create '%s': %s", copy,
				    strerror(errno));
				break;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	free(copy);
	if (why == NULL)
		return 0;
	/* The state directory, not its runs/ inside. */
	n = strlen(dir);
	if (n > 5 && strcmp(dir + n - 5, "/runs") == 0)
		n -= 5;
	if (from_env)
		set_cause(cause, "cannot make the state directory '%.*s' "
		    "($ABBENCH_STATE_DIR): %s", (int)n, dir, why);
	else
		set_cause(cause, "cannot make abbench's state directory '%.*s' "
		    "(where a run journals what it changes): %s; set "
		    "$ABBENCH_STATE_DIR%s to a directory you can write",
		    (int)n, dir, why, geteuid() == 0 ? "" :
		    " (or $XDG_STATE_HOME)");
	free(why);
	return -1;
}

struct journal *
journal_open(char **cause)
{
	return journal_open_dir(journal_state_dir(), 1, cause);
}

struct journal *
journal_open_dir(const char *dir, int create, char **cause)
{
	struct journal	*jr;
	char		*runs = xasprintf("%s/runs", dir);
	char		*path;
	struct stat	 sb;

	if (!create) {
		path = xasprintf("%s/journal.db", dir);
		if (stat(path, &sb) == -1 || !S_ISREG(sb.st_mode)) {
			set_cause(cause, "no host journal in '%s'", dir);
			free(path);
			free(runs);
			return NULL;
		}
		free(path);
	}
	/*
	 * What this journal names, root undoes: one anyone else may write
	 * would let them name any file (docs/threat-model.md). Checked
	 * before anything is made in it, and again once it is all there.
	 */
	if (trust_state_dir(dir, cause) == -1) {
		free(runs);
		return NULL;
	}
	if (create && journal_mkdirs(runs, cause) == -1) {
		free(runs);
		return NULL;
	}
	free(runs);
	if (trust_state_dir(dir, cause) == -1)
		return NULL;
	jr = xcalloc(1, sizeof *jr);
	jr->run_fd = jr->host_fd = -1;
	/* Absolute: the host lock's details name it to other directories. */
	if ((jr->dir = realpath(dir, NULL)) == NULL)
		jr->dir = xstrdup(dir);
	path = xasprintf("%s/journal.db", dir);
	jr->hj = hjournal_open(path, cause);
	free(path);
	if (jr->hj == NULL) {
		free(jr->dir);
		free(jr);
		return NULL;
	}
	return jr;
}

const char *
journal_dir(const struct journal *jr)
{
	return jr->dir;
}

const char *
journal_prev_dir(const struct journal *jr)
{
	return jr->prev_dir;
}

void
journal_close(struct journal *jr)
{
	if (jr == NULL)
		return;
	if (jr->run_fd != -1)
		close(jr->run_fd);
	journal_unlock_host(jr);
	hjournal_close(jr->hj);
	free(jr->prev_dir);
	free(jr->dir);
	free(jr);
}

struct hjournal *
journal_hj(struct journal *jr)
{
	return jr->hj;
}

/*
 * The host lock is the host's, whatever directory holds the journal: a
 * flock on the directory journal_host_dir() itself (/var/lib/abbench for
 * root). A lock file can be unlinked under its holder and made anew by the
 * next run, which then locks a file nobody holds; a directory that holds
 * anything (host.lock, the holder's details) cannot be. After each flock
 * the locked directory is compared with the one at the path (removed and
 * made anew between open and flock): another one is let go and the lock
 * taken again.
 */
static char *
host_info_path(void)
{
	return xasprintf("%s/host.lock", journal_host_dir());
}

static int
host_open(char **cause)
{
	const char	*dir = journal_host_dir();
	int		 fd;

	if (journal_mkdirs(dir, cause) == -1)
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		set_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
	return fd;
}

/* Is the locked descriptor still the directory at the path? */
static int
host_same(int fd)
{
	struct stat	a, b;

	return fstat(fd, &a) == 0 && stat(journal_host_dir(), &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * The holder's details "pid<TAB>experiment<TAB>db<TAB>state dir" split
 * into f[4] (pointers into the returned buffer, which the caller frees);
 * NULL when there are none (no holder, or it let go cleanly).
 */
static char *
host_info_read(char *f[4])
{
	char	*path = host_info_path(), *text, *p;
	int	 i;

	text = read_small_file(path, NULL);
	free(path);
	for (i = 0; i < 4; i++)
		f[i] = NULL;
	if (text == NULL)
		return NULL;
	if ((p = strchr(text, '\n')) != NULL)
		*p = '\0';
	if (*text == '\0') {
		free(text);
		return NULL;
	}
	for (i = 0, p = text; i < 4 && p != NULL; i++) {
		f[i] = p;
		if ((p = strchr(p, '\t')) != NULL)
			*p++ = '\0';
	}
	return text;
}

/* "pid P, experiment 'E', database 'D'" of the holder. */
static char *
host_holder(void)
{
	char	*f[4], *text = host_info_read(f), *who;

	if (text == NULL)
		return xstrdup("another abbench (its details are not written "
		    "yet)");
	who = xasprintf("pid %s, experiment '%s', database '%s'",
	    f[0] != NULL ? f[0] : "?", f[1] != NULL ? f[1] : "?",
	    f[2] != NULL ? f[2] : "?");
	free(text);
	return who;
}

/*
 * Whether the holder named in the details is gone: its abbench was killed
 * but a child of it still shares the locked descriptor for a moment (it is
 * between clone and exec, or dying of its parent's death signal).
 */
static int
host_holder_dead(void)
{
	char		*f[4], *text = host_info_read(f), *end;
	long long	 pid;
	int		 dead = 0;

	if (text == NULL)
		return 0;
	errno = 0;
	pid = strtoll(f[0], &end, 10);
	if (errno == 0 && end != f[0] && *end == '\0' && pid > 0)
		dead = kill((pid_t)pid, 0) == -1 && errno == ESRCH;
	free(text);
	return dead;
}

/* ABBENCH_WAIT_LOCK=1: wait for the host as --wait-lock does. */
static int
host_env_wait(void)
{
	const char	*w = getenv("ABBENCH_WAIT_LOCK");

	return w != NULL && *w != '\0' && strcmp(w, "0") != 0;
}

static void	(*wait_notice)(const char *holder, int64_t waited_ns);

void
journal_set_wait_notice(void (*fn)(const char *holder, int64_t waited_ns))
{
	wait_notice = fn;
}

/* 0 = taken, 1 = held by another (no wait), -1 = error. */
static int
host_acquire(struct journal *jr, int wait, char **cause)
{
	char	*f[4], *text;
	int64_t	 t0 = 0;
	int	 fd, tries, locked;

	for (;;) {
		if ((fd = host_open(cause)) == -1)
			return -1;
		for (tries = 0, locked = 0; !locked; tries++) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0)
				break;
			if (errno == EINTR)
				continue;
			if (errno != EWOULDBLOCK) {
				close(fd);
				return set_cause(cause, "cannot lock the "
				    "host: %s", strerror(errno));
			}
			/* A dead holder's children let go within moments. */
			if (!wait && tries < 250 && host_holder_dead()) {
				struct timespec	ts = { 0, 20 * 1000000 };

				nanosleep(&ts, NULL);
				continue;
			}
			if (!wait) {
				close(fd);
				return 1;
			}
			if (wait_notice != NULL) {
				char	*who = host_holder();

				t0 = now_mono_ns();
				wait_notice(who, 0);
				free(who);
			}
			while (flock(fd, LOCK_EX) == -1)
				if (errno != EINTR) {
					close(fd);
					return set_cause(cause, "cannot lock "
					    "the host: %s", strerror(errno));
				}
			if (wait_notice != NULL)
				wait_notice(NULL, now_mono_ns() - t0);
			locked = 1;
		}
		if (host_same(fd))
			break;
		close(fd);	/* replaced under us: lock the one there now */
	}
	jr->host_fd = fd;
	/*
	 * Details left behind: a holder that died with the host changed.
	 * When its journal is another state directory's, the new holder
	 * undoes what it left (recover_prev_dir) before changing anything.
	 */
	free(jr->prev_dir);
	jr->prev_dir = NULL;
	if ((text = host_info_read(f)) != NULL) {
		if (f[3] != NULL && *f[3] == '/' && strcmp(f[3], jr->dir) != 0)
			jr->prev_dir = xstrdup(f[3]);
		free(text);
	}
	return 0;
}

static void
host_info_write(struct journal *jr, const char *experiment, const char *db)
{
	char	*path = host_info_path(), *line, cwd[PATH_MAX];
	int	 fd;

	/* The database as the refused user can find it. */
	if (db != NULL && db[0] != '/' && getcwd(cwd, sizeof cwd) != NULL)
		line = xasprintf("%ld\t%s\t%s/%s\t%s\n", (long)getpid(),
		    experiment != NULL ? experiment : "", cwd, db, jr->dir);
	else
		line = xasprintf("%ld\t%s\t%s\t%s\n", (long)getpid(),
		    experiment != NULL ? experiment : "", db != NULL ? db : "",
		    jr->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd != -1) {
		if (write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
			/* The lock holds all the same; the message is poorer. */
		}
		close(fd);
	}
	free(line);
	free(path);
}

int
journal_lock_host(struct journal *jr, const char *experiment, const char *db,
    int wait, char **cause)
{
	char	*who;
	int	 rc;

	if (jr->host_fd != -1)
		return 0;
	rc = host_acquire(jr, wait || host_env_wait(), cause);
	if (rc == -1)
		return -1;
	if (rc == 1) {
		who = host_holder();
		set_cause(cause, "the host is in use by another run that "
		    "changes it (%s): wait for it with --wait-lock", who);
		free(who);
		return -1;
	}
	host_info_write(jr, experiment, db);
	return 0;
}

int
journal_try_host(struct journal *jr, int wait)
{
	if (jr->host_fd != -1)
		return 0;
	if (host_acquire(jr, wait, NULL) != 0)
		return 1;
	host_info_write(jr, "(restore)", "");
	return 0;
}

int
journal_wait_wanted(int flag)
{
	return flag || host_env_wait();
}

void
journal_unlock_host(struct journal *jr)
{
	char	*path;
	int	 fd;

	if (jr->host_fd == -1)
		return;
	/* Emptied first: a reader never names a holder that is gone. */
	path = host_info_path();
	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) != -1)
		close(fd);
	free(path);
	close(jr->host_fd);
	jr->host_fd = -1;
}

int
journal_host_locked(const struct journal *jr)
{
	return jr->host_fd != -1;
}

static char *
run_lock_path(const struct journal *jr, const char *uuid)
{
	return xasprintf("%s/runs/%s.lock", jr->dir, uuid);
}

char *
journal_proc_start(int64_t pid)
{
	return proc_start_id((long)pid);
}

int
journal_owner_alive(int64_t pid, const char *start)
{
	/* -1 for no start: an older journal, the lock tells. */
	return proc_alive_as((long)pid, start);
}

int
journal_run_owner_alive(int64_t pid, const char *start)
{
	char	*comm;
	int	 alive;

	if ((alive = journal_owner_alive(pid, start)) != -1)
		return alive;
	if ((comm = proc_read((long)pid, "comm", NULL)) == NULL)
		/* Unreadable (hidepid), or gone since. */
		return !(kill((pid_t)pid, 0) == -1 && errno == ESRCH);
	alive = *comm == '\0' || str_startswith(comm, "abbench") ||
	    str_startswith(comm, "lt-abbench");
	free(comm);
	return alive;
}

int
journal_host_is_here(const char *host)
{
	struct utsname	u;

	if (host == NULL || *host == '\0')
		return 1;
	return uname(&u) == 0 && strcmp(u.nodename, host) == 0;
}

int
journal_attach(struct journal *jr, struct store *st, int64_t run_id,
    const char *uuid, const char *experiment, char **cause)
{
	struct hjournal_owner	 o;
	char			*path = run_lock_path(jr, uuid);
	char			*db;
	int			 fd, rc;

	if (strchr(uuid, '/') != NULL || *uuid == '\0') {
		free(path);
		return set_cause(cause, "bad run uuid '%s'", uuid);
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1 || flock(fd, LOCK_EX | LOCK_NB) == -1) {
		set_cause(cause, "cannot lock '%s': %s", path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		free(path);
		return -1;
	}
	free(path);
	jr->run_fd = fd;
	jr->st = st;
	jr->run_id = run_id;
	snprintf(jr->uuid, sizeof jr->uuid, "%s", uuid);
	db = st != NULL ? realpath(store_path(st), NULL) : NULL;
	memset(&o, 0, sizeof o);
	o.uuid = (char *)uuid;
	o.db = db != NULL ? db : (char *)(st != NULL ? store_path(st) : "");
	o.run_id = run_id;
	o.pid = (int64_t)getpid();
	o.pid_start = journal_proc_start(o.pid);
	o.experiment = (char *)experiment;
	o.started_wall_ns = now_wall_ns();
	rc = hjournal_owner_add(jr->hj, &o, cause);
	free(o.pid_start);
	free(db);
	return rc;
}

const char *
journal_uuid(const struct journal *jr)
{
	return jr->uuid;
}

int64_t
journal_add(struct journal *jr, const char *kind, const char *name,
    const char *target, const char *original, char **cause)
{
	int64_t	 id = 0, copy = 0;
	char	*why = NULL;

	if (jr->uuid[0] == '\0')
		return set_cause(cause, "no run attached to the host journal");
	if (hjournal_add(jr->hj, jr->uuid, kind, name, target, original, &id,
	    cause) == -1)
		return -1;
	/* The copy is for the record: the host journal is what restores. */
	if (jr->st != NULL && store_journal_add(jr->st, jr->run_id, kind,
	    name, target, original, &copy, &why) == 0)
		(void)hjournal_set_copy(jr->hj, id, copy, NULL);
	free(why);
	return id;
}

int
journal_set_state(struct journal *jr, int64_t id, const char *state,
    const char *applied, char **cause)
{
	int64_t	copy = 0;

	if (hjournal_set_state(jr->hj, id, state, applied, cause) == -1)
		return -1;
	if (jr->st != NULL && hjournal_copy_id(jr->hj, id, &copy, NULL) == 0 &&
	    copy > 0)
		(void)store_journal_set_state(jr->st, copy, state, applied,
		    NULL);
	return 0;
}

int
journal_pending(struct journal *jr, struct store_journal **out, size_t *n,
    char **cause)
{
	*out = NULL;
	*n = 0;
	if (jr->uuid[0] == '\0')
		return 0;
	return hjournal_pending(jr->hj, jr->uuid, out, n, cause);
}

void
journal_detach(struct journal *jr)
{
	struct store_journal	*j = NULL;
	size_t			 n = 0;

	if (jr->uuid[0] == '\0')
		return;
	if (hjournal_pending(jr->hj, jr->uuid, &j, &n, NULL) == 0 && n == 0 &&
	    hjournal_owner_remove(jr->hj, jr->uuid, NULL) == 0) {
		char	*path = run_lock_path(jr, jr->uuid);

		(void)unlink(path);
		free(path);
	}
	store_journal_free(j, n);
	if (jr->run_fd != -1)
		close(jr->run_fd);
	jr->run_fd = -1;
	jr->uuid[0] = '\0';
	jr->st = NULL;
}

int
journal_claim_run(struct journal *jr, const struct hjournal_owner *o,
    int *fd, char **cause)
{
	char	*path;
	int	 tries;

	*fd = -1;
	if (strchr(o->uuid, '/') != NULL)
		return set_cause(cause, "bad run uuid '%s'", o->uuid);
	/*
	 * Its process alive (the same pid and start time, on this host): the
	 * run is alive whatever became of its lock file (one deleted by hand
	 * would let the lock below be taken under a live run).
	 */
	if (journal_owner_alive(o->pid, o->pid_start) == 1)
		return 0;
	path = run_lock_path(jr, o->uuid);
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd == -1) {
		set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	for (tries = 0; flock(*fd, LOCK_EX | LOCK_NB) == -1; tries++) {
		/*
		 * Its abbench is gone but the lock is held: a child between
		 * fork and exec still shares the descriptor (it exits or
		 * execs within moments). Wait for that, not for a live run.
		 */
		if (errno == EWOULDBLOCK && o->pid > 0 && tries < 250 &&
		    kill((pid_t)o->pid, 0) == -1 && errno == ESRCH) {
			struct timespec	ts = { 0, 20 * 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		close(*fd);
		*fd = -1;
		if (errno == EWOULDBLOCK)
			return 0;
		return set_cause(cause, "cannot lock run %s: %s", o->uuid,
		    strerror(errno));
	}
	return 1;
}

int
journal_wait_run(struct journal *jr, const char *uuid, int64_t deadline_ns,
    char **cause)
{
	const struct timespec	 tick = { 0, 50 * 1000000 };
	char			*path;
	int			 fd;

	if (strchr(uuid, '/') != NULL || *uuid == '\0')
		return set_cause(cause, "bad run uuid '%s'", uuid);
	path = run_lock_path(jr, uuid);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
		free(path);
		return -1;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK || now_mono_ns() >= deadline_ns) {
			set_cause(cause, "run %s is still held by its earlier "
			    "abbench on this host ('%s' locked): stop that "
			    "process first", uuid, path);
			close(fd);
			free(path);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	/* Ours for a moment: journal_attach takes it again for the run. */
	close(fd);
	free(path);
	return 0;
}

void
journal_release_run(struct journal *jr, const char *uuid, int fd, int forget)
{
	if (forget) {
		char	*path = run_lock_path(jr, uuid);

		(void)unlink(path);
		free(path);
	}
	if (fd != -1)
		close(fd);
}
