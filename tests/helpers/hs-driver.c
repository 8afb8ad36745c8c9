/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test driver of the host settings (tests/integration/t0500): loads an
 * experiment, creates a run in a store, prepares its host settings and
 * applies arms in the order given, printing the journal after each step,
 * so shell tests can check apply / restore / crash recovery without the
 * runner.
 *
 *   hs-driver DB EXPERIMENT PATH STEP...
 *
 * STEP is an arm name (apply it), "restore" (hostset_restore_all),
 * "cat=FILE" (print "value FILE CONTENT") or "hang" (print "hanging" and
 * sleep until killed).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/core/experiment.h"
#include "host/hostset.h"
#include "host/journal.h"
#include "lib/util.h"
#include "results/store.h"

static void
print_journal(struct store *st, int64_t run_id)
{
	struct store_journal	*j;
	size_t			 n, i;
	char			*cause = NULL;

	if (store_journal_list(st, run_id, &j, &n, &cause) == -1)
		die("%s", cause);
	for (i = 0; i < n; i++)
		printf("journal %s %s %s %s %s\n", j[i].kind, j[i].target,
		    j[i].original != NULL ? j[i].original : "-",
		    j[i].applied != NULL ? j[i].applied : "-", j[i].state);
	store_journal_free(j, n);
}

int
main(int argc, char **argv)
{
	struct experiment	*e;
	struct store		*st;
	struct store_run	 r;
	struct hostset		*hs;
	struct journal		*jr;
	const char		**arms;
	char			*cause = NULL;
	char			*paths[1];
	size_t			 i;
	int			 a;

	if (argc < 5)
		die("usage: hs-driver DB EXPERIMENT PATH STEP...");
	if ((e = experiment_load(argv[2], &cause)) == NULL)
		die("%s", cause);
	if ((st = store_open(argv[1], STORE_CREATE, &cause)) == NULL)
		die("%s", cause);
	memset(&r, 0, sizeof(r));
	r.name = e->name;
	r.host = "";
	r.order_kind = "alternate";
	r.rounds = 1;
	r.pid = getpid();
	r.started_wall_ns = now_wall_ns();
	arms = xcalloc(e->narms, sizeof(*arms));
	for (i = 0; i < e->narms; i++)
		arms[i] = e->arms[i].name;
	if (store_run_create(st, &r, arms, e->narms, &cause) == -1)
		die("%s", cause);
	printf("run %lld %s\n", (long long)r.id, r.uuid);
	paths[0] = argv[3];
	hs = hostset_new(paths, 1);
	if (hostset_prepare(hs, e, &cause) == -1)
		die("prepare: %s", cause);
	if ((jr = journal_open(&cause)) == NULL ||
	    journal_attach(jr, st, r.id, r.uuid, e->name, &cause) == -1)
		die("%s", cause);
	hostset_attach(hs, jr, st);
	for (a = 4; a < argc; a++) {
		if (strcmp(argv[a], "restore") == 0) {
			if (hostset_restore_all(hs, &cause) == -1)
				die("restore: %s", cause);
		} else if (strncmp(argv[a], "cat=", 4) == 0) {
			char	*v = read_small_file(argv[a] + 4, &cause);

			if (v == NULL)
				die("%s", cause);
			printf("value %s %s\n", argv[a] + 4, v);
			free(v);
			fflush(stdout);
			continue;
		} else if (strcmp(argv[a], "hang") == 0) {
			printf("hanging\n");
			fflush(stdout);
			for (;;)
				pause();
		} else {
			const struct arm *arm = NULL;

			for (i = 0; i < e->narms; i++)
				if (strcmp(e->arms[i].name, argv[a]) == 0)
					arm = &e->arms[i];
			if (arm == NULL)
				die("no arm '%s'", argv[a]);
			if (hostset_apply_arm(hs, arm, &cause) == -1)
				die("apply %s: %s", argv[a], cause);
		}
		printf("step %s\n", argv[a]);
		print_journal(st, r.id);
		fflush(stdout);
	}
	hostset_free(hs);
	journal_detach(jr);
	journal_close(jr);
	free(arms);
	free(r.uuid);
	store_close(st);
	experiment_free(e);
	return 0;
}
