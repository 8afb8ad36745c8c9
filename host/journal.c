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
#include <time.h>
#include <unistd.h>

#include "host/journal.h"
#include "lib/util.h"
#include "results/hostjournal.h"
#include "results/store.h"

struct journal {
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
	static char	*user;
	const char	*d = getenv("ABBENCH_STATE_DIR"), *x, *h;

	if (d != NULL && *d != '\0')
		return d;
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
		else if (h != NULL && *h == '/')
			user = xasprintf("%s/.local/state/abbench", h);
		else
			user = xasprintf("/tmp/abbench-state-%ld",
			    (long)geteuid());
	}
	return user;
}

static int
journal_mkdirs(const char *dir, char **cause)
{
	char	*copy = xstrdup(dir), *p;

	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char	c = *p;

			*p = '\0';
			if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
				set_cause(cause, "cannot create '%s': %s",
				    copy, strerror(errno));
				free(copy);
				return -1;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	free(copy);
	return 0;
}

struct journal *
journal_open(char **cause)
{
	struct journal	*jr;
	const char	*dir = journal_state_dir();
	char		*runs = xasprintf("%s/runs", dir);
	char		*path;

	if (journal_mkdirs(runs, cause) == -1) {
		free(runs);
		return NULL;
	}
	free(runs);
	jr = xcalloc(1, sizeof *jr);
	jr->run_fd = jr->host_fd = -1;
	path = xasprintf("%s/journal.db", dir);
	jr->hj = hjournal_open(path, cause);
	free(path);
	if (jr->hj == NULL) {
		free(jr);
		return NULL;
	}
	return jr;
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
	free(jr);
}

struct hjournal *
journal_hj(struct journal *jr)
{
	return jr->hj;
}

static char *
host_lock_path(void)
{
	return xasprintf("%s/host.lock", journal_state_dir());
}

/* "pid P, experiment 'E', database 'D'" of the holder, from the file. */
static char *
host_holder(int fd)
{
	char	buf[PATH_MAX * 2 + 64];
	ssize_t	n = pread(fd, buf, sizeof buf - 1, 0);
	char	*f[3] = { NULL, NULL, NULL }, *p;
	int	 i;

	if (n <= 0)
		return xstrdup("another abbench (its details are not written "
		    "yet)");
	buf[n] = '\0';
	strtrim(buf);
	for (i = 0, p = buf; i < 3 && p != NULL; i++) {
		f[i] = p;
		if ((p = strchr(p, '\t')) != NULL)
			*p++ = '\0';
	}
	return xasprintf("pid %s, experiment '%s', database '%s'",
	    f[0] != NULL ? f[0] : "?", f[1] != NULL ? f[1] : "?",
	    f[2] != NULL ? f[2] : "?");
}

/*
 * Whether the holder named in the lock file is gone: its abbench was killed
 * but a child of it still shares the locked descriptor for a moment (it is
 * between clone and exec, or dying of its parent's death signal).
 */
static int
host_holder_dead(int fd)
{
	char		buf[64];
	ssize_t		n = pread(fd, buf, sizeof buf - 1, 0);
	long long	pid;
	char		*end;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	pid = strtoll(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\t' || pid <= 0)
		return 0;
	return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

static int
host_open(char **cause)
{
	char	*path = host_lock_path();
	int	 fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd == -1)
		set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
	free(path);
	return fd;
}

int
journal_lock_host(struct journal *jr, const char *experiment, const char *db,
    int wait, char **cause)
{
	char	*line, *who;
	int	 fd, tries;

	if (jr->host_fd != -1)
		return 0;
	if ((fd = host_open(cause)) == -1)
		return -1;
	for (tries = 0; flock(fd, LOCK_EX | LOCK_NB) == -1; tries++) {
		if (errno != EWOULDBLOCK) {
			close(fd);
			return set_cause(cause, "cannot lock the host: %s",
			    strerror(errno));
		}
		/* A dead holder's children let go within moments. */
		if (!wait && tries < 250 && host_holder_dead(fd)) {
			struct timespec	ts = { 0, 20 * 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (!wait) {
			who = host_holder(fd);
			close(fd);
			set_cause(cause, "the host is in use by another run "
			    "that changes it (%s): wait for it with "
			    "--wait-lock", who);
			free(who);
			return -1;
		}
		while (flock(fd, LOCK_EX) == -1)
			if (errno != EINTR) {
				close(fd);
				return set_cause(cause, "cannot lock the "
				    "host: %s", strerror(errno));
			}
	}
	{
		/* The database as the refused user can find it. */
		char	cwd[PATH_MAX];

		if (db != NULL && db[0] != '/' && getcwd(cwd, sizeof cwd) !=
		    NULL)
			line = xasprintf("%ld\t%s\t%s/%s\n", (long)getpid(),
			    experiment != NULL ? experiment : "", cwd, db);
		else
			line = xasprintf("%ld\t%s\t%s\n", (long)getpid(),
			    experiment != NULL ? experiment : "",
			    db != NULL ? db : "");
	}
	if (ftruncate(fd, 0) == -1 ||
	    pwrite(fd, line, strlen(line), 0) != (ssize_t)strlen(line)) {
		/* The lock holds all the same; only the message is poorer. */
	}
	free(line);
	jr->host_fd = fd;
	return 0;
}

int
journal_try_host(struct journal *jr)
{
	int	fd, tries;

	if (jr->host_fd != -1)
		return 0;
	if ((fd = host_open(NULL)) == -1)
		return 1;
	for (tries = 0; flock(fd, LOCK_EX | LOCK_NB) == -1; tries++) {
		/* A dead holder's children let go within moments. */
		if (errno == EWOULDBLOCK && tries < 250 &&
		    host_holder_dead(fd)) {
			struct timespec	ts = { 0, 20 * 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		close(fd);
		return 1;
	}
	jr->host_fd = fd;
	return 0;
}

void
journal_unlock_host(struct journal *jr)
{
	if (jr->host_fd == -1)
		return;
	/* Emptied first: a reader never names a holder that is gone. */
	if (ftruncate(jr->host_fd, 0) == -1) {
		/* harmless */
	}
	close(jr->host_fd);
	jr->host_fd = -1;
}

int
journal_host_locked(const struct journal *jr)
{
	return jr->host_fd != -1;
}

static char *
run_lock_path(const char *uuid)
{
	return xasprintf("%s/runs/%s.lock", journal_state_dir(), uuid);
}

int
journal_attach(struct journal *jr, struct store *st, int64_t run_id,
    const char *uuid, const char *experiment, char **cause)
{
	struct hjournal_owner	 o;
	char			*path = run_lock_path(uuid);
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
	o.experiment = (char *)experiment;
	o.started_wall_ns = now_wall_ns();
	rc = hjournal_owner_add(jr->hj, &o, cause);
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
		char	*path = run_lock_path(jr->uuid);

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
journal_claim_run(const char *uuid, int64_t pid, int *fd, char **cause)
{
	char	*path = run_lock_path(uuid);
	int	 tries;

	*fd = -1;
	if (strchr(uuid, '/') != NULL) {
		free(path);
		return set_cause(cause, "bad run uuid '%s'", uuid);
	}
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
		if (errno == EWOULDBLOCK && pid > 0 && tries < 250 &&
		    kill((pid_t)pid, 0) == -1 && errno == ESRCH) {
			struct timespec	ts = { 0, 20 * 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		close(*fd);
		*fd = -1;
		if (errno == EWOULDBLOCK)
			return 0;
		return set_cause(cause, "cannot lock run %s: %s", uuid,
		    strerror(errno));
	}
	return 1;
}

void
journal_release_run(const char *uuid, int fd, int forget)
{
	if (forget) {
		char	*path = run_lock_path(uuid);

		(void)unlink(path);
		free(path);
	}
	if (fd != -1)
		close(fd);
}
