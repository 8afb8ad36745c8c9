/*
 * abbench restore: undo host changes left by a killed run (its journal of
 * settings and objects), and remove its labelled containers.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "harness/host/hostset.h"
#include "lib/util.h"
#include "results/store.h"

static int
cmd_restore_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	struct hostset_report	 rep = HOSTSET_REPORT_INIT;
	struct store_run	 r;
	struct store		*st;
	const char		*db = NULL;
	char			*cause = NULL;
	int64_t			 run_id = 0;
	int			 c, flags = 0, undone = 0, rc;
	size_t			 i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:f", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			flags |= HOSTSET_FORCE;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		error("restore: too many arguments");
		return EXIT_USAGE;
	}
	/* Never create a database just to find it empty. */
	if (optind == argc && access(cmd_db_path(db), F_OK) == -1 &&
	    errno == ENOENT) {
		printf("nothing to restore: no database '%s'\n",
		    cmd_db_path(db));
		return EXIT_OK;
	}
	if ((st = store_open(cmd_db_path(db), 0, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		memset(&r, 0, sizeof(r));
		if (store_run_find(st, argv[optind], &r, &cause) == -1) {
			error("%s", cause);
			free(cause);
			store_close(st);
			return EXIT_USAGE;
		}
		run_id = r.id;
		store_run_release(&r);
	}
	rc = hostset_restore_runs(st, run_id, flags, &rep, &undone, &cause);
	for (i = 0; i < rep.done.n; i++)
		printf("restored: %s\n", rep.done.v[i]);
	for (i = 0; i < rep.notes.n; i++)
		printf("note: %s\n", rep.notes.v[i]);
	for (i = 0; i < rep.failed.n; i++)
		error("not restored: %s", rep.failed.v[i]);
	if (rc == -1 && rep.failed.n == 0)
		error("%s", cause);
	if (rc == 0 && undone == 0)
		printf("nothing to restore\n");
	free(cause);
	hostset_report_release(&rep);
	store_close(st);
	return rc == 0 ? EXIT_OK : EXIT_FAIL;
}

const struct cmd_entry cmd_restore_entry = {
	.name = "restore",
	.args = "[--db FILE] [--force] [RUN]",
	.summary = "undo host changes left by a killed run",
	.help =
"Undoes the host changes that runs recorded in the database's journal and\n"
"did not undo themselves (a run killed with SIGKILL, a crash): host\n"
"settings go back to their original values (an I/O scheduler first, then\n"
"its tunables), OCI runtime containers (runc, runsc) are killed and\n"
"deleted, cgroups (in every hierarchy), scratch directories, mounts and\n"
"loop devices made for the run are removed, and docker containers\n"
"labelled abbench.run=<run uuid> are removed.\n"
"\n"
"Without RUN: every run with pending changes, and every run left running\n"
"or interrupted. A run whose abbench process is still alive, or that was\n"
"made on another host, is skipped unless --force is given. A run still\n"
"marked running whose process is gone is marked interrupted.\n"
"\n"
"Prints one line per item restored. Exit status 0 when everything was\n"
"undone (or nothing was pending), 1 when something could not be undone\n"
"(it stays in the journal), 2 on a usage or database error.\n"
"\n"
"  --db FILE   the database (default: $ABBENCH_DB, else ./abbench.db)\n"
"  --force     also runs that look alive or come from another host\n"
"  RUN         a run id, a uuid prefix, \"last\" or NAME@last\n",
	.exec = cmd_restore_exec,
	.flags = CMD_STORE,
};
