/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench: run A/B experiments on container runtimes and Linux hosts, store
 * every sample, and compare arms the way Go's benchstat does.
 */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "exec/exec.h"
#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/git-version.h"
#include "host/journal.h"
#include "lib/util.h"
#include "results/store.h"

static void
usage(FILE *fp)
{
	const struct cmd_entry *const	*e;
	const struct cmd_topic		*t;
	const struct cmd_note		*n;

	fprintf(fp, "usage: abbench [--version] [--help] COMMAND [ARGS]\n\n"
	    "abbench runs interleaved A/B experiments on container runtimes "
	    "and hosts,\nstores every sample in SQLite and compares arms "
	    "like Go's benchstat.\n\ncommands (any unique prefix works):\n");
	for (e = cmd_table; *e != NULL; e++)
		fprintf(fp, "  %-8s %s\n", (*e)->name, (*e)->summary);
	fprintf(fp, "\nhelp topics ('abbench help TOPIC'):\n");
	for (t = cmd_topics; t->name != NULL; t++)
		fprintf(fp, "  %-10s %s\n", t->name, t->summary);
	fprintf(fp, "\n'abbench COMMAND --help' describes a command, "
	    "'man abbench' all of them.\n\nexit status:\n");
	for (n = cmd_exit_status; n->name != NULL; n++)
		fprintf(fp, "  %-4s %s\n", n->name, n->text);
	fprintf(fp, "\nReport bugs to <%s>.\n", PACKAGE_BUGREPORT);
}

/* A run's owner for the store's logs of samples (store_log_import_dead). */
static int
run_owner_alive(int64_t pid, const char *start, const char *host)
{
	return !journal_host_is_here(host) || journal_run_owner_alive(pid,
	    start);
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*e;
	char			*cause = NULL;
	int			 rc;

	gsl_set_error_handler_off();
	/* A reader that goes away is an EPIPE to handle, not a death
	 * (children get SIGPIPE back: see spawn.c). */
	signal(SIGPIPE, SIG_IGN);
	/* An entry that would write past or beside its member is a BUG. */
	experiment_tables_check();
	/* An executor without a hook its capabilities need, too. */
	exec_ops_check();
	/* A command's flag outside its options struct, too. */
	cmd_tables_check();
	store_log_set_owner_check(run_owner_alive);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			const struct cmd_topic	*t = cmd_topic_find(argv[2]);

			if (t != NULL) {
				cmd_topic_print(t, stdout);
				return EXIT_OK;
			}
			if ((e = cmd_find(argv[2], &cause)) == NULL) {
				error("%s", cause);
				free(cause);
				return EXIT_USAGE;
			}
			cmd_print_usage(e, stdout);
			return EXIT_OK;
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("abbench %s (%s)\nReport bugs to <%s>.\n",
		    PACKAGE_VERSION, ABBENCH_GIT_DESCRIBE, PACKAGE_BUGREPORT);
		return EXIT_OK;
	}
	if ((e = cmd_find(argv[1], &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	/* A command with flags of its own (benchstat's -h) handles help. */
	if (!(e->flags & CMD_OWN_FLAGS) && (rc = cmd_wants_help(e, argc - 1,
	    argv + 1)) != -1)
		return rc;
	return cmd_exec(e, argc - 1, argv + 1);
}
