/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Undoing what runs left on the host (recover.h): settings per disk and
 * per file, objects through the teardown table, and the search of the
 * host journal for dead runs.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/hostset-int.h"
#include "host/journal.h"
#include "host/recover.h"
#include "host/trust.h"
#include "host/undo.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "results/journal-db.h"
#include "results/store.h"

void
hostset_report_release(struct hostset_report *rep)
{
	strvec_clear(&rep->done);
	strvec_clear(&rep->failed);
	strvec_clear(&rep->notes);
}

int
undo_mark_restored(struct undo_mark *m, int64_t id, char **cause)
{
	int64_t	copy = 0;

	/* An entry only the database has: id is the database's. */
	if (m->hj == NULL)
		return store_journal_set_state(m->st, id, JOURNAL_RESTORED,
		    NULL, cause);
	if (hjournal_set_state(m->hj, id, JOURNAL_RESTORED, NULL,
	    cause) == -1)
		return -1;
	/* The copy is the record only: a failure there is not fatal. */
	if (m->st != NULL && hjournal_copy_id(m->hj, id, &copy, NULL) == 0 &&
	    copy > 0)
		(void)store_journal_set_state(m->st, copy, JOURNAL_RESTORED,
		    NULL, NULL);
	return 0;
}

/* The disk of a /sys/block/DISK/queue/... target, malloc'd, or NULL. */
static char *
hs_target_disk(const char *target)
{
	const char	*p;

	if (!str_startswith(target, "/sys/block/"))
		return NULL;
	p = target + strlen("/sys/block/");
	return xstrndup(p, strcspn(p, "/"));
}

static int
hs_is_knob_entry(const struct store_journal *j)
{
	return str_startswith(j->kind, "host.block.") &&
	    strcmp(j->kind, "host.block.scheduler") != 0;
}

static int
hs_mark_restored(struct undo_mark *m, struct store_journal *j,
    struct hostset_report *rep, int *undone, const char *what)
{
	char	*why = NULL;

	if (undo_mark_restored(m, j->id, &why) == -1) {
		strvec_pushf(&rep->failed, "run %lld: %s: %s",
		    (long long)j->run_id, what, why);
		free(why);
		return -1;
	}
	free(j->state);
	j->state = xstrdup(JOURNAL_RESTORED);
	strvec_pushf(&rep->done, "run %lld: %s", (long long)j->run_id, what);
	(*undone)++;
	return 0;
}

static int	hs_write_back(const char *target, const char *value,
		    char **cause);

/* Write a journal entry's original back to its file. */
static int
hs_write_original(struct undo_mark *m, struct store_journal *j,
    struct hostset_report *rep, int *undone)
{
	char	*why = NULL, *what, *cur;
	int	 rc = 0;

	if (j->original == NULL) {
		what = xasprintf("%s (%s): no original recorded, left as is",
		    j->kind, j->target);
		rc = hs_mark_restored(m, j, rep, undone, what);
		free(what);
		return rc;
	}
	cur = hostset_read(j->target, hostset_bracketed(j->target), NULL);
	if (cur == NULL || !hostset_same(cur, j->original))
		rc = hs_write_back(j->target, j->original, &why);
	if (rc == -1) {
		strvec_pushf(&rep->failed, "run %lld: %s: %s",
		    (long long)j->run_id, j->kind, why);
		free(why);
	} else {
		what = xasprintf("%s = %s (%s)", j->kind, j->original,
		    j->target);
		rc = hs_mark_restored(m, j, rep, undone, what);
		free(what);
	}
	free(cur);
	return rc;
}

/*
 * ABBENCH_DEBUG_DIE_AFTER_WRITES=N: SIGKILL this process right after its
 * Nth write of an original back (a restore killed half way, made exact
 * for the tests).
 */
static int
hs_write_back(const char *target, const char *value, char **cause)
{
	static long	 writes, die_after = -1;
	int		 rc;

	if (die_after == -1) {
		const char	*e = getenv("ABBENCH_DEBUG_DIE_AFTER_WRITES");

		die_after = e != NULL && *e != '\0' ? atol(e) : 0;
	}
	rc = write_small_file(target, value, cause);
	if (die_after > 0 && ++writes >= die_after)
		raise(SIGKILL);
	return rc;
}

/* Mark entries restored, all in one transaction of the host journal. */
static int
hs_mark_all(struct undo_mark *m, struct store_journal **e, char **what,
    size_t n, struct hostset_report *rep, int *undone)
{
	size_t	i;
	int	rc = 0, txn;

	txn = m->hj != NULL ? hjournal_begin(m->hj, NULL) == 0 :
	    store_begin(m->st, NULL) == 0;
	for (i = 0; i < n && rc == 0; i++)
		if (hs_mark_restored(m, e[i], rep, undone, what[i]) == -1)
			rc = -1;
	if (txn && rc == 0)
		rc = m->hj != NULL ? hjournal_commit(m->hj, NULL) :
		    store_commit(m->st, NULL);
	else if (txn)
		(void)(m->hj != NULL ? hjournal_rollback(m->hj) :
		    store_rollback(m->st));
	return rc;
}

#define HS_RESTORE_PASSES	8

struct hs_knob {
	const char		*target;
	const char		*original;	/* the oldest entry's */
	struct store_journal	*oldest;
};

/*
 * The block settings of one disk (entries of one run, newest first): the
 * scheduler first (switching drops the current scheduler's tunables and
 * brings the defaults of the new one), then the tunables of the scheduler
 * now active, each to its oldest original; tunables of a scheduler no
 * longer active vanished with it. The kernel couples some tunables (bfq
 * raises slice_idle to 8 ms when strict_guarantees goes 0 -> 1), so no
 * order of writes is right for every case: the tunables are written, then
 * all read back, and again until a whole pass finds every one equal to
 * its original (at most HS_RESTORE_PASSES). Only then are the disk's
 * entries marked restored, in one transaction: a restore killed half way
 * leaves them all pending for the next one. A tunable that will not stay
 * at its original is named and left pending.
 */
static int
hs_restore_disk(struct undo_mark *m, struct store_journal *j, size_t n,
    const char *disk, struct hostset_report *rep, int *undone)
{
	struct store_journal *s = NULL, **mark;
	struct hs_knob	*k;
	char		*dir = xasprintf("/sys/block/%s", disk);
	char		*cur = NULL, *why = NULL, **whats;
	struct stat	 sb;
	size_t		 i, h, nk = 0, nmark = 0;
	int		 rc = 0, pass, changed, bad;

	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);

		if (d != NULL && strcmp(d, disk) == 0 &&
		    strcmp(j[i].kind, "host.block.scheduler") == 0)
			s = &j[i];	/* the oldest wins */
		free(d);
	}
	mark = xcalloc(n + 1, sizeof *mark);
	whats = xcalloc(n + 1, sizeof *whats);
	k = xcalloc(n + 1, sizeof *k);
	if (stat(dir, &sb) == -1) {
		free(dir);
		for (i = 0; i < n; i++) {
			char	*d = hs_target_disk(j[i].target);

			if (d != NULL && strcmp(d, disk) == 0 &&
			    str_startswith(j[i].kind, "host.block.")) {
				mark[nmark] = &j[i];
				whats[nmark++] = xasprintf("%s of '%s': the "
				    "disk is gone, nothing to restore",
				    j[i].kind, disk);
			}
			free(d);
		}
		goto mark;
	}
	free(dir);
	if (s != NULL && s->original != NULL) {
		cur = hostset_read(s->target, 1, &why);
		if (cur != NULL && strcmp(cur, s->original) != 0 &&
		    hs_write_back(s->target, s->original, &why) == -1) {
			free(cur);
			cur = NULL;
		}
		if (cur == NULL) {
			strvec_pushf(&rep->failed, "run %lld: "
			    "host.block.scheduler of '%s': %s",
			    (long long)s->run_id, disk, why);
			free(why);
			rc = -1;	/* its tunables cannot be right */
			goto out;
		}
		free(cur);
	}
	if ((cur = blockdev_scheduler(disk, NULL, &why)) == NULL) {
		strvec_pushf(&rep->failed, "run %lld: '%s': %s",
		    (long long)j[0].run_id, disk, why);
		free(why);
		rc = -1;
		goto out;
	}
	/* Each tunable once, with its oldest original (entries newest first). */
	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);
		int	 mine = d != NULL && strcmp(d, disk) == 0 &&
			    hs_is_knob_entry(&j[i]) &&
			    strcmp(j[i].state, JOURNAL_RESTORED) != 0;

		free(d);
		if (!mine)
			continue;
		if (j[i].name != NULL && *j[i].name != '\0' &&
		    strcmp(j[i].name, cur) != 0) {
			mark[nmark] = &j[i];
			whats[nmark++] = xasprintf("%s of '%s': scheduler '%s' "
			    "is no longer active, nothing to restore",
			    j[i].kind, disk, j[i].name);
			continue;
		}
		mark[nmark] = &j[i];
		whats[nmark++] = j[i].original != NULL ? xasprintf("%s = %s "
		    "(%s)", j[i].kind, j[i].original, j[i].target) :
		    xasprintf("%s (%s): no original recorded, left as is",
		    j[i].kind, j[i].target);
		if (j[i].original == NULL)
			continue;
		for (h = 0; h < nk && strcmp(k[h].target, j[i].target) != 0;
		    h++)
			;
		if (h == nk)
			nk++;
		k[h].target = j[i].target;
		k[h].original = j[i].original;
		k[h].oldest = &j[i];
	}
	free(cur);
	cur = NULL;
	/* Write, read every one back, until a pass changes nothing. */
	for (pass = 0, changed = 1; changed && pass < HS_RESTORE_PASSES;
	    pass++) {
		for (h = nk, changed = 0; h > 0; h--) {
			char	*now = hostset_read(k[h - 1].target,
			    hostset_bracketed(k[h - 1].target), NULL);

			if (now == NULL || !hostset_knob_same(
			    k[h - 1].oldest->kind, now, k[h - 1].original)) {
				(void)hs_write_back(k[h - 1].target,
				    k[h - 1].original, NULL);
				changed = 1;
			}
			free(now);
		}
	}
	for (h = 0, bad = 0; h < nk; h++) {
		char	*now = hostset_read(k[h].target,
		    hostset_bracketed(k[h].target), &why);

		if (now == NULL || !hostset_knob_same(k[h].oldest->kind, now,
		    k[h].original)) {
			strvec_pushf(&rep->failed, "run %lld: %s of '%s' is "
			    "%s, not its original %s, after %d passes (%s)",
			    (long long)k[h].oldest->run_id, k[h].oldest->kind,
			    disk, now != NULL ? now : why, k[h].original,
			    pass, k[h].target);
			bad = 1;
		}
		free(why);
		why = NULL;
		free(now);
	}
	if (bad) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);

		if (d != NULL && strcmp(d, disk) == 0 &&
		    strcmp(j[i].kind, "host.block.scheduler") == 0 &&
		    strcmp(j[i].state, JOURNAL_RESTORED) != 0) {
			mark[nmark] = &j[i];
			whats[nmark++] = xasprintf("host.block.scheduler = %s "
			    "(%s)", s->original != NULL ? s->original : "?",
			    j[i].target);
		}
		free(d);
	}
mark:
	if (hs_mark_all(m, mark, whats, nmark, rep, undone) == -1)
		rc = -1;
out:
	for (i = 0; i < nmark; i++)
		free(whats[i]);
	free(whats);
	free(mark);
	free(k);
	return rc;
}

/* Settings of one run (newest first): plain ones, then per disk. */
static int
hs_restore_settings(struct undo_mark *m, struct store_journal *j, size_t n,
    struct hostset_report *rep, int *undone)
{
	struct strvec	disks = STRVEC_INIT;
	size_t		i;
	int		rc = 0;

	for (i = 0; i < n; i++) {
		char	*d;

		if (!str_startswith(j[i].kind, "host."))
			continue;
		if ((d = hs_target_disk(j[i].target)) != NULL &&
		    str_startswith(j[i].kind, "host.block.")) {
			if (!strvec_has(&disks, d))
				strvec_push(&disks, d);
		} else if (hs_write_original(m, &j[i], rep, undone) == -1)
			rc = -1;
		free(d);
	}
	for (i = 0; i < disks.n; i++)
		if (hs_restore_disk(m, j, n, disks.v[i], rep, undone) == -1)
			rc = -1;
	strvec_clear(&disks);
	return rc;
}

int
recover_settings(struct undo_mark *m, struct store_journal *j, size_t n,
    struct hostset_report *rep, int *undone)
{
	return hs_restore_settings(m, j, n, rep, undone);
}

int
recover_objects(struct undo_mark *m, struct store_journal *j, size_t n,
    struct hostset_report *rep, int *undone)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; i < n; i++) {
		struct store_journal *e = &j[i];
		char	*why = NULL, *what = NULL;

		if (str_startswith(e->kind, "host.") ||
		    strcmp(e->state, JOURNAL_RESTORED) == 0)
			continue;
		if (undo_object(e, &what, &why) == -1) {
			strvec_pushf(&rep->failed, "run %lld: %s",
			    (long long)e->run_id, why);
			rc = -1;
		} else if (hs_mark_restored(m, e, rep, undone, what) == -1)
			rc = -1;
		free(why);
		free(what);
	}
	return rc;
}

static int
recover_match(const struct hjournal_owner *o, const struct recover_filter *f)
{
	char	*real;
	int	 same;

	if (f == NULL)
		return 1;
	if (f->db != NULL) {
		real = realpath(f->db, NULL);
		same = strcmp(real != NULL ? real : f->db, o->db) == 0;
		free(real);
		if (!same)
			return 0;
	}
	return f->run_id == 0 || f->run_id == o->run_id;
}

/*
 * Helpers a dead run left running (a `docker run` CLI, a runtime call):
 * their command lines name the run (its label, or its cgroup and
 * container prefix abbench-<uuid8>). They go first, or one could still
 * make a container after its journal entry was undone.
 *
 * Not conmon: its command line names the podman container too, but it
 * is the container's monitor, not a helper, and it makes nothing. Killed,
 * it orphans the container: `podman rm -f` then removes the container's
 * storage but never calls the runtime's delete, and runc's state
 * (/run/runc/<id>, "stopped") and the cgroup libpod_parent/libpod-<id>
 * stay on the host for good (t1400 checks both).
 */
static size_t
recover_kill_helpers(const char *uuid)
{
	char			 label[64], prefix[32];
	struct proc_walk	 w;
	size_t			 killed = 0;
	long			 pid, self = (long)getpid();

	snprintf(label, sizeof label, "abbench.run=%s", uuid);
	snprintf(prefix, sizeof prefix, "abbench-%.8s", uuid);
	if (proc_walk_start(&w) == -1)
		return 0;
	while ((pid = proc_walk_next(&w)) > 0) {
		char	*cmd;
		size_t	 len = 0, i;

		if (pid == self || proc_comm_is(pid, "conmon") ||
		    (cmd = proc_read(pid, "cmdline", &len)) == NULL)
			continue;
		for (i = 0; i + 1 < len; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (len > 0 && (strstr(cmd, label) != NULL ||
		    strstr(cmd, prefix) != NULL) &&
		    kill((pid_t)pid, SIGKILL) == 0)
			killed++;
		free(cmd);
	}
	proc_walk_end(&w);
	return killed;
}

/*
 * Entries of a kind abbench does not write, or whose target is not a
 * path abbench would write for their kind (trust_entry), are named and
 * left pending, whatever journal they came from: j is reordered (stably)
 * so that the first *n are the ones to act on; the rest stay allocated.
 * 1 when any was refused.
 */
static int
recover_vet(struct store_journal *j, size_t *n, const char *db,
    struct hostset_report *rep)
{
	struct store_journal	*tmp;
	size_t			 i, ok = 0, at, total = *n;
	char			*why = NULL;
	unsigned char		*refused;

	if (total == 0)
		return 0;
	tmp = xcalloc(total, sizeof *tmp);
	refused = xcalloc(total, 1);
	for (i = 0; i < total; i++) {
		if (strcmp(j[i].state, JOURNAL_RESTORED) == 0 ||
		    trust_entry(&j[i], &why) == 0)
			continue;
		strvec_pushf(&rep->failed, "run %lld of '%s': refused journal "
		    "entry %lld (kind '%s', target '%s'): %s",
		    (long long)j[i].run_id, db, (long long)j[i].id, j[i].kind,
		    j[i].target != NULL ? j[i].target : "", why);
		free(why);
		why = NULL;
		refused[i] = 1;
	}
	for (i = 0; i < total; i++)
		if (!refused[i])
			tmp[ok++] = j[i];
	for (i = 0, at = ok; i < total; i++)
		if (refused[i])
			tmp[at++] = j[i];
	memcpy(j, tmp, total * sizeof *j);
	free(tmp);
	free(refused);
	*n = ok;
	return ok < total;
}

/*
 * Whether the database still names the journal's dead owner o as run r's
 * (the same pid and start), not a process that took the run over since.
 */
/* "N host changes could not be undone: the first's why"; -1. */
static int
recover_failed(const struct hostset_report *rep, char **cause)
{
	return set_cause(cause, "%zu host change%s could not be undone%s%s",
	    rep->failed.n, rep->failed.n == 1 ? "" : "s",
	    rep->failed.n > 0 ? ": " : "",
	    rep->failed.n > 0 ? rep->failed.v[0] : "");
}

static int
recover_same_owner(const struct store_run *r, const struct hjournal_owner *o)
{
	if (r->pid != o->pid)
		return 0;
	return r->pid_start == NULL || *r->pid_start == '\0' ||
	    o->pid_start == NULL || strcmp(r->pid_start, o->pid_start) == 0;
}

/* One dead (claimed) run: its entries, its labelled containers. */
static int
recover_one(struct journal *jr, const struct hjournal_owner *o, int flags,
    struct hostset_report *rep, int *undone, int *left)
{
	struct undo_mark	 m;
	struct store_journal	*j = NULL;
	struct strvec		 removed = STRVEC_INIT;
	struct stat		 sb;
	char			*why = NULL;
	size_t			 n = 0, nall, i, k;
	int			 rc = 0, settings = 0, containers = 0;

	memset(&m, 0, sizeof m);
	m.hj = journal_hj(jr);
	*left = 0;
	if ((k = recover_kill_helpers(o->uuid)) > 0) {
		struct timespec	ts = { 0, 200 * 1000000 };

		strvec_pushf(&rep->notes, "run %lld: killed %zu process%s it "
		    "left running", (long long)o->run_id, k, k == 1 ? "" :
		    "es");
		nanosleep(&ts, NULL);	/* let their last calls land */
	}
	if (hjournal_pending(m.hj, o->uuid, &j, &n, &why) == -1) {
		strvec_pushf(&rep->failed, "run %lld of '%s': %s",
		    (long long)o->run_id, o->db, why);
		free(why);
		*left = 1;
		return -1;
	}
	/*
	 * Its database takes the copies, if it is still there and still one
	 * this user may write to: its owner may have swapped it since (a
	 * hot journal of theirs would be rolled into it on open).
	 */
	if (stat(o->db, &sb) == 0 && sb.st_size > 0) {
		if (trust_db_file(o->db, &why) == 0)
			m.st = store_open(o->db, 0, NULL);
		else {
			strvec_pushf(&rep->notes, "run %lld: its database is "
			    "not marked: %s", (long long)o->run_id, why);
			free(why);
			why = NULL;
		}
	}
	nall = n;
	if (recover_vet(j, &n, o->db, rep))
		rc = -1;
	for (i = 0; i < n; i++)
		settings |= str_startswith(j[i].kind, "host.");
	if (settings && !(flags & RECOVER_SETTINGS)) {
		strvec_pushf(&rep->notes, "run %lld of '%s' left host settings "
		    "changed: another run holds the host, it undoes them",
		    (long long)o->run_id, o->db);
		*left = 1;
	} else if (recover_settings(&m, j, n, rep, undone) == -1)
		rc = -1;
	if (recover_objects(&m, j, n, rep, undone) == -1)
		rc = -1;
	/* A container whose creation was under way at the kill. */
	for (i = 0; i < n; i++)
		containers |= strcmp(j[i].kind, "container") == 0;
	if (containers) {
		struct timespec	ts = { 1, 0 };

		nanosleep(&ts, NULL);
	}
	if (undo_labelled_containers(o->uuid, &removed, &why) == -1) {
		strvec_pushf(&rep->notes, "run %lld: labelled containers not "
		    "removed: %s", (long long)o->run_id, why);
		free(why);
		*left = 1;
	}
	for (k = 0; k < removed.n; k++) {
		strvec_pushf(&rep->done, "run %lld: removed container '%s' "
		    "(label abbench.run)", (long long)o->run_id, removed.v[k]);
		(*undone)++;
	}
	strvec_clear(&removed);
	if (rc == -1)
		*left = 1;
	if (m.st != NULL) {
		struct store_run	r;

		memset(&r, 0, sizeof r);
		/*
		 * Only while the database still names this dead owner: a
		 * run another process took over since (a requeued fleet job
		 * that resumed it on another node) is that owner's to mark.
		 */
		if (store_run_get(m.st, o->run_id, &r, NULL) == 0 &&
		    r.uuid != NULL && strcmp(r.uuid, o->uuid) == 0 &&
		    strcmp(r.status, RUN_RUNNING) == 0) {
			if (!recover_same_owner(&r, o))
				strvec_pushf(&rep->notes, "run %lld: taken "
				    "over by pid %lld on %s: its status is "
				    "left to it", (long long)o->run_id,
				    (long long)r.pid, r.host != NULL ?
				    r.host : "?");
			else if (store_run_set_status(m.st, o->run_id,
			    RUN_INTERRUPTED, now_wall_ns(), NULL) == 0)
				strvec_pushf(&rep->notes, "run %lld: its "
				    "process is gone, marked interrupted",
				    (long long)o->run_id);
		}
		store_run_release(&r);
		store_close(m.st);
	}
	store_journal_free(j, nall);
	return rc;
}

int
recover_runs(struct journal *jr, const struct recover_filter *f, int flags,
    struct hostset_report *rep, int *undone, char **cause)
{
	struct hjournal_owner	*o = NULL;
	size_t			 n = 0, i;
	int			 failed = 0;

	*undone = 0;
	if (hjournal_owners(journal_hj(jr), &o, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		char	*why = NULL;
		int	 fd = -1, dead, left = 0;

		if (strcmp(o[i].uuid, journal_uuid(jr)) == 0 ||
		    !recover_match(&o[i], f))
			continue;
		dead = journal_claim_run(jr, &o[i], &fd, &why);
		if (dead == -1) {
			strvec_pushf(&rep->failed, "run %lld of '%s': %s",
			    (long long)o[i].run_id, o[i].db, why);
			free(why);
			failed = 1;
			continue;
		}
		if (dead == 0 && !(flags & RECOVER_FORCE)) {
			strvec_pushf(&rep->notes, "run %lld of '%s' is still "
			    "running (pid %lld): skipped",
			    (long long)o[i].run_id, o[i].db,
			    (long long)o[i].pid);
			continue;
		}
		if (recover_one(jr, &o[i], flags, rep, undone, &left) == -1)
			failed = 1;
		if (!left)
			(void)hjournal_owner_remove(journal_hj(jr), o[i].uuid,
			    NULL);
		journal_release_run(jr, o[i].uuid, fd, !left && fd != -1);
	}
	hjournal_owners_free(o, n);
	return failed ? recover_failed(rep, cause) : 0;
}

int
recover_db_only(struct journal *jr, struct store *st, int64_t run_id,
    int flags, struct hostset_report *rep, int *undone, char **cause)
{
	struct hjournal_owner	*o = NULL;
	struct store_journal	*j = NULL, *sub;
	struct store_run	*runs = NULL;
	struct undo_mark	 m;
	size_t			 n = 0, no = 0, nruns = 0, i, k, nsub, nok;
	int			 failed = 0, known, settings;

	if (store_journal_pending(st, run_id, &j, &n, cause) == -1)
		return -1;
	if (n == 0) {
		store_journal_free(j, n);
		return 0;
	}
	if (store_runs_list(st, &runs, &nruns, cause) == -1 ||
	    hjournal_owners(journal_hj(jr), &o, &no, cause) == -1) {
		store_journal_free(j, n);
		return -1;
	}
	m.hj = NULL;
	m.st = st;
	sub = xcalloc(n, sizeof *sub);
	for (i = 0; i < nruns; i++) {
		for (k = 0, nsub = 0; k < n; k++)
			if (j[k].run_id == runs[i].id)
				sub[nsub++] = j[k];
		if (nsub == 0)
			continue;
		for (k = 0, known = 0; k < no && !known; k++)
			known = runs[i].uuid != NULL &&
			    strcmp(o[k].uuid, runs[i].uuid) == 0;
		if (known)
			continue;	/* the host journal has it */
		if (!(flags & RECOVER_FORCE) &&
		    runs[i].pid != (int64_t)getpid() &&
		    journal_run_owner_alive(runs[i].pid, runs[i].pid_start)) {
			strvec_pushf(&rep->notes, "run %lld is still running "
			    "(pid %lld): skipped", (long long)runs[i].id,
			    (long long)runs[i].pid);
			continue;
		}
		/*
		 * The database is untrusted input: what the host journal
		 * does not have is named and left, unless the user said
		 * this database is theirs to act on (--trust-db).
		 */
		if (!(flags & RECOVER_TRUST_DB)) {
			for (k = 0; k < nsub; k++)
				strvec_pushf(&rep->failed, "run %lld: refused "
				    "journal entry %lld (kind '%s', target "
				    "'%s'): only the database has it, the host "
				    "journal does not (--trust-db to undo it "
				    "all the same)", (long long)runs[i].id,
				    (long long)sub[k].id, sub[k].kind,
				    sub[k].target != NULL ? sub[k].target : "");
			failed = 1;
			continue;
		}
		nok = nsub;
		if (recover_vet(sub, &nok, store_path(st), rep))
			failed = 1;
		for (k = 0, settings = 0; k < nok; k++)
			settings |= str_startswith(sub[k].kind, "host.");
		if (settings && !(flags & RECOVER_SETTINGS))
			strvec_pushf(&rep->notes, "run %lld left host settings "
			    "changed: another run holds the host",
			    (long long)runs[i].id);
		else if (recover_settings(&m, sub, nok, rep, undone) == -1)
			failed = 1;
		if (recover_objects(&m, sub, nok, rep, undone) == -1)
			failed = 1;
		/* The copies own what the entries pointed to now (state). */
		for (k = 0, nsub = 0; k < n; k++)
			if (j[k].run_id == runs[i].id)
				j[k] = sub[nsub++];
		if (strcmp(runs[i].status, RUN_RUNNING) == 0 &&
		    store_run_set_status(st, runs[i].id, RUN_INTERRUPTED,
		    now_wall_ns(), NULL) == 0)
			strvec_pushf(&rep->notes, "run %lld: its process is "
			    "gone, marked interrupted", (long long)runs[i].id);
	}
	free(sub);
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);
	hjournal_owners_free(o, no);
	store_journal_free(j, n);
	return failed ? recover_failed(rep, cause) : 0;
}

int
recover_settings_pending(struct journal *jr)
{
	struct hjournal_owner	*o = NULL;
	struct store_journal	*j = NULL;
	size_t			 n = 0, nj, i, k;
	int			 pending = 0;

	if (hjournal_owners(journal_hj(jr), &o, &n, NULL) == -1)
		return 0;
	for (i = 0; i < n && !pending; i++) {
		if (strcmp(o[i].uuid, journal_uuid(jr)) == 0 ||
		    journal_owner_alive(o[i].pid, o[i].pid_start) == 1)
			continue;
		if (hjournal_pending(journal_hj(jr), o[i].uuid, &j, &nj,
		    NULL) == -1)
			continue;
		for (k = 0; k < nj; k++)
			pending |= str_startswith(j[k].kind, "host.");
		store_journal_free(j, nj);
	}
	hjournal_owners_free(o, n);
	return pending;
}

int
recover_prev_dir(struct journal *jr, struct hostset_report *rep, int *undone,
    char **cause)
{
	struct journal	*other;
	const char	*dir = journal_prev_dir(jr);
	int		 more = 0, rc;

	if (dir == NULL || !journal_host_locked(jr))
		return 0;
	/* Its journal gone (a test's directory removed): nothing to do. */
	if ((other = journal_open_dir(dir, 0, NULL)) == NULL)
		return 0;
	strvec_pushf(&rep->notes, "the host was last held by a run of state "
	    "directory '%s' that did not let go: its dead runs are undone "
	    "first", dir);
	rc = recover_runs(other, NULL, RECOVER_SETTINGS, rep, &more, cause);
	*undone += more;
	journal_close(other);
	return rc;
}
