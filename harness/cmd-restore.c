/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench restore: undo host changes left by killed runs (the host-wide
 * journal of settings and objects, whichever database each run used), and
 * remove their labelled containers.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/daemon-cli.h"
#include "harness/cmd.h"
#include "host/journal.h"
#include "host/recover.h"
#include "host/trust.h"
#include "lib/util.h"
#include "results/store.h"

static int
restore_db_only(struct journal *jr, const struct recover_filter *f,
    int flags, struct hostset_report *rep, int *undone, char **cause)
{
	struct store	*st;
	struct stat	 sb;
	int		 more = 0, rc;

	/* Never set up a file that is not a database yet. */
	if (stat(f->db, &sb) == -1 || sb.st_size == 0)
		return 0;
	if ((st = store_open(f->db, 0, cause)) == NULL)
		return -2;
	rc = recover_db_only(jr, st, f->run_id, flags, rep, &more, cause);
	*undone += more;
	store_close(st);
	return rc;
}

/* Does the database named hold host settings pending of its own? */
static int
restore_db_settings_pending(const struct recover_filter *f)
{
	struct store		*st;
	struct store_journal	*j = NULL;
	size_t			 n = 0, i;
	int			 pending = 0;

	if (f->db == NULL || (st = store_open(f->db, STORE_READONLY,
	    NULL)) == NULL)
		return 0;
	if (store_journal_pending(st, f->run_id, &j, &n, NULL) == 0)
		for (i = 0; i < n; i++)
			pending |= str_startswith(j[i].kind, "host.");
	store_journal_free(j, n);
	store_close(st);
	return pending;
}

/*
 * Containers labelled abbench.run that no journal names (a run killed as
 * the daemon created one, or swept before the daemon finished): removed
 * when the process that made them is gone (their abbench.owner label).
 */
static int
restore_orphans(struct hostset_report *rep, int *undone, char **cause)
{
	struct strvec	 removed = STRVEC_INIT, unowned = STRVEC_INIT;
	size_t		 i;
	int		 rc;

	rc = exec_docker_sweep_orphans(&removed, &unowned, cause);
	for (i = 0; i < removed.n; i++)
		strvec_pushf(&rep->done, "removed container '%.12s' (labelled "
		    "abbench.run, journaled nowhere, its abbench process "
		    "gone)", removed.v[i]);
	for (i = 0; i < unowned.n; i++)
		strvec_pushf(&rep->notes, "container %s is labelled "
		    "abbench.run by an abbench that named no owner: left "
		    "(docker rm -f it once no run of that uuid is alive)",
		    unowned.v[i]);
	*undone += (int)removed.n;
	strvec_clear(&removed);
	strvec_clear(&unowned);
	return rc;
}

extern const struct cmd_entry cmd_restore_entry;

struct restore_opts {
	const char	*db;
	int		 force, wait_lock, trust_db;
};
#define RST(m)	OPT_AT(struct restore_opts, m)

static const struct cmd_flag restore_flags[] = {
	CMD_STR("db", 'd', "FILE", RST(db),
	    "only runs of this database (it must exist)"),
	CMD_BOOL("force", 'f', RST(force),
	    "also runs that look alive"),
	CMD_BOOL("wait-lock", 0, RST(wait_lock),
	    "wait for the host lock when settings are to be undone"),
	CMD_BOOL("trust-db", 0, RST(trust_db),
	    "act on a database another user owns, and on what\n"
	    "only it journaled"),
	CMD_FLAG_END
};

/*
 * A database named is checked before anything is undone: missing, a
 * directory, damaged or of a newer schema is an input error (exit 2), like
 * every command that reads one, never "could not be undone" (exit 1). A
 * RUN names a run of it (never created): its id into f->run_id. 0, or -1
 * after saying why.
 */
static int
restore_check_db(const struct restore_opts *o, const char *run,
    struct recover_filter *f)
{
	struct store		*st;
	struct store_run	 r;
	char			*cause = NULL;

	/*
	 * A database is untrusted input: one another user may have
	 * written is refused before SQLite even opens it (it would roll
	 * their hot journal into it).
	 */
	if (!o->trust_db && trust_db_file(f->db, &cause) == -1) {
		error("refusing database: %s (--trust-db to use it all the "
		    "same)", cause);
		free(cause);
		return -1;
	}
	if ((st = store_open(f->db, STORE_READONLY, &cause)) == NULL)
		goto fail;
	memset(&r, 0, sizeof(r));
	if (run != NULL && store_run_find(st, run, &r, &cause) == -1) {
		store_close(st);
		goto fail;
	}
	f->run_id = r.id;
	store_run_release(&r);
	store_close(st);
	return 0;
fail:
	error("%s", cause);
	free(cause);
	return -1;
}

/*
 * Settings are undone by whoever holds the host: a live run that holds it
 * undoes them at its start, or with --wait-lock (or ABBENCH_WAIT_LOCK)
 * this waits for it when a dead run left some. RECOVER_SETTINGS, or 0.
 */
static int
restore_take_host(struct journal *jr, const struct recover_filter *f,
    int wait)
{
	if (journal_try_host(jr, 0) == 0)
		return RECOVER_SETTINGS;
	if (journal_wait_wanted(wait) && (recover_settings_pending(jr) ||
	    restore_db_settings_pending(f))) {
		printf("note: waiting for the host (another run holds it)\n");
		fflush(stdout);
		if (journal_try_host(jr, 1) == 0)
			return RECOVER_SETTINGS;
	}
	return 0;
}

/*
 * Everything the journal (and a database named, f->db) holds undone into
 * rep: 0, -1 with *cause (something not undone), -2 with *cause (the
 * database's fault: exit 2).
 */
static int
restore_undo(struct journal *jr, const struct recover_filter *f, int flags,
    struct hostset_report *rep, int *undone, char **cause)
{
	const struct recover_filter	*only = f->db != NULL ? f : NULL;
	int				 rc, more = 0;
	char				*why = NULL;

	if ((rc = recover_prev_dir(jr, rep, undone, cause)) != 0) {
		(void)recover_runs(jr, only, flags, rep, &more, &why);
		*undone += more;
		free(why);
		return rc;
	}
	rc = recover_runs(jr, only, flags, rep, undone, cause);
	/* A database named: also what only it has journaled. */
	if (rc == 0 && f->db != NULL)
		return restore_db_only(jr, f, flags, rep, undone, cause);
	return rc;
}

/* What was done, noted and not done; the exit status of rc. */
static int
restore_report(const struct hostset_report *rep, int rc, int undone,
    const char *cause)
{
	size_t	i;

	for (i = 0; i < rep->done.n; i++)
		printf("restored: %s\n", rep->done.v[i]);
	for (i = 0; i < rep->notes.n; i++)
		printf("note: %s\n", rep->notes.v[i]);
	for (i = 0; i < rep->failed.n; i++)
		error("not restored: %s", rep->failed.v[i]);
	if (rc == -1 && rep->failed.n == 0)
		error("%s", cause);
	if (rc == 0 && undone == 0)
		printf("nothing to restore\n");
	return rc == 0 ? EXIT_OK : EXIT_FAIL;
}

static int
cmd_restore_exec(struct cmd_ctx *c)
{
	const struct restore_opts	*o = c->opts;
	struct hostset_report		 rep = HOSTSET_REPORT_INIT;
	struct recover_filter		 f;
	struct journal			*jr;
	char				*cause = NULL;
	int				 flags = 0, undone = 0, rc;

	if (c->argc > 1) {
		error("restore: too many arguments");
		return EXIT_USAGE;
	}
	memset(&f, 0, sizeof f);
	if (o->db != NULL || c->argc > 0)
		f.db = c->db;
	if (f.db != NULL && restore_check_db(o, c->argc > 0 ? c->argv[0] :
	    NULL, &f) == -1)
		return EXIT_USAGE;
	if (o->force)
		flags |= RECOVER_FORCE;
	if (f.db != NULL && o->trust_db)
		flags |= RECOVER_TRUST_DB;
	if ((jr = journal_open(&cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	flags |= restore_take_host(jr, &f, o->wait_lock);
	rc = restore_undo(jr, &f, flags, &rep, &undone, &cause);
	journal_close(jr);
	if (rc == -2) {
		/* It could be read but not written to: still its fault. */
		error("%s", cause);
		free(cause);
		hostset_report_release(&rep);
		return EXIT_USAGE;
	}
	if (rc == 0 && f.db == NULL)
		rc = restore_orphans(&rep, &undone, &cause);
	rc = restore_report(&rep, rc, undone, cause);
	free(cause);
	hostset_report_release(&rep);
	return rc;
}

const struct cmd_entry cmd_restore_entry = {
	.name = "restore",
	.args = "[--db FILE] [--force] [--wait-lock] [--trust-db] [RUN]",
	.summary = "undo host changes left by a killed run",
	.help =
"Undoes the host changes that runs recorded in the host-wide journal\n"
"($ABBENCH_STATE_DIR, else /var/lib/abbench) and did not undo themselves\n"
"(a run killed with SIGKILL, a crash), whichever database they used: host\n"
"settings go back to their original values (an I/O scheduler first, then\n"
"its tunables), OCI runtime containers (runc, runsc) are killed and\n"
"deleted, cgroups (in every hierarchy), scratch directories, mounts and\n"
"loop devices made for the run are removed, and docker containers\n"
"labelled abbench.run=<run uuid> are removed, each with containerd's\n"
"copies of its checkpoints (a run killed during `docker start\n"
"--checkpoint` leaves one in containerd's temporary directory). Without\n"
"--db or RUN, every docker container labelled abbench.run whose\n"
"abbench.owner (the process that made it) is gone is removed too, even\n"
"when no journal names it.\n"
"\n"
"Works from any directory and needs no database. With --db, only the\n"
"runs of that database; with RUN, only that run. A database is untrusted\n"
"input (docs/threat-model.md): what is undone comes from the host\n"
"journal, never from the database, and only entries of the kinds abbench\n"
"writes, for the files abbench would write for them, are acted on (every\n"
"other is named, and left). A database owned by another user (or\n"
"writable by one) is refused, and what only a database journaled (an\n"
"older abbench, a lost host journal) is named and left, unless\n"
"--trust-db says the database is yours to act on. Host\n"
"settings are undone only when no live run holds the host (the host lock\n"
"is one per host, in /var/lib/abbench, whatever $ABBENCH_STATE_DIR says);\n"
"with --wait-lock (or ABBENCH_WAIT_LOCK=1) restore waits for it when a dead\n"
"run left settings changed. A run whose process is alive (its pid and\n"
"start time) is never touched, whatever became of its lock file. The helper\n"
"processes a dead run left running are killed first. A run whose abbench\n"
"process is still alive is skipped unless --force is given. A run still\n"
"marked running in its database whose process is gone is marked\n"
"interrupted there; the database keeps its copy of the journal.\n"
"\n"
"Prints one line per item restored. Exit status 0 when everything was\n"
"undone (or nothing was pending), 1 when something could not be undone\n"
"(it stays in the journal), 2 on a usage or database error.\n"
"RUN is a run id, a uuid prefix (4 or more characters), \"last\" or\n"
"NAME@last.\n",
	.exec = cmd_restore_exec,
	.opts = restore_flags,
	.opts_size = sizeof(struct restore_opts),
	.flags = CMD_FLAGS_FIRST,
};
