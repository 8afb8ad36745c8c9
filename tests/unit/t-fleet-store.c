/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of fleets in the store (results/fleet-store.h): a fleet with
 * its scheduler arguments, its jobs and their attempts, the latest
 * attempt of each shape, the scheduler's word recorded, and the errors.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/fleet-store.h"
#include "results/store.h"
#include "tap.h"

static char tmpdir[] = "/tmp/t-fleet-store.XXXXXX";

static void
job(struct store *st, const char *part, int replica, int attempt,
    const char *id)
{
	struct fleet_job_rec	 j;
	char			*cause = NULL, *db;

	memset(&j, 0, sizeof j);
	db = xasprintf("/shared/f/runs/%s-%d.db", part, replica);
	j.partition = (char *)part;
	j.replica = replica;
	j.attempt = attempt;
	j.job_id = (char *)id;
	j.db = db;
	j.updated_wall_ns = 1000 + attempt;
	tap_ok(fleet_store_job_add(st, "f1", &j, &cause) == 0,
	    "add job %s (%s/%d attempt %d)", id, part, replica, attempt);
	free(cause);
	free(db);
}

int
main(void)
{
	struct store		*st;
	struct fleet_rec	 f, g, *all;
	struct fleet_job_rec	*jobs;
	size_t			 n, i;
	char			*cause = NULL, *path;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	path = xasprintf("%s/fleet.db", tmpdir);
	st = store_open(path, STORE_CREATE, &cause);
	tap_ok(st != NULL, "create a store");
	if (st == NULL)
		die("%s", cause);

	memset(&f, 0, sizeof f);
	f.id = "f1";
	f.created_wall_ns = 42;
	f.dir = "/shared/f1";
	f.experiment_path = "/exp/e.ini";
	f.experiment_name = "e";
	f.scheduler = "slurm";
	f.abbench_path = "/shared/abbench/bin/abbench";
	f.abbench_version = "0.1.0";
	f.time_limit = NULL;
	strvec_push(&f.args, "--account=perf");
	strvec_push(&f.args, "--qos=low; rm -rf /");
	strvec_push(&f.run_keys, "stop=decided");
	strvec_push(&f.run_keys, "max-rounds=16");
	tap_ok(fleet_store_add(st, &f, &cause) == 0, "add a fleet");
	tap_ok(fleet_store_add(st, &f, &cause) == -1 && cause != NULL,
	    "the same fleet id twice is refused");
	free(cause);
	cause = NULL;

	tap_ok(fleet_store_get(st, "f1", &g, &cause) == 0, "get it back");
	tap_str_eq(g.dir, "/shared/f1", "its directory");
	tap_str_eq(g.abbench_path, "/shared/abbench/bin/abbench",
	    "the abbench its jobs run");
	tap_ok(g.time_limit == NULL, "no time limit stays NULL");
	tap_ok(g.merge_job == NULL, "no merge job yet");
	tap_int_eq(g.args.n, 2, "two scheduler arguments");
	tap_str_eq(g.args.v[1], "--qos=low; rm -rf /",
	    "an argument is kept as it is (data, never a shell line)");
	tap_int_eq(g.created_wall_ns, 42, "its creation time");
	tap_int_eq(g.run_keys.n, 2, "the keys of its runs (submit --until)");
	tap_str_eq(g.run_keys.n > 1 ? g.run_keys.v[0] : NULL, "stop=decided",
	    "... in order: stop=decided");
	tap_str_eq(g.run_keys.n > 1 ? g.run_keys.v[1] : NULL, "max-rounds=16",
	    "... and max-rounds=16");
	fleet_rec_release(&g);

	tap_ok(fleet_store_get(st, "nope", &g, &cause) == -1 && cause != NULL &&
	    strstr(cause, "no fleet 'nope'") != NULL,
	    "an unknown fleet is named in the error");
	free(cause);
	cause = NULL;

	tap_ok(fleet_store_set_merge_job(st, "f1", "17", &cause) == 0,
	    "record the merge job");
	job(st, "c2", 1, 1, "11");
	job(st, "c4", 1, 1, "12");
	job(st, "c4", 2, 1, "13");
	job(st, "c4", 1, 2, "15");
	{
		struct fleet_job_rec	 j;

		memset(&j, 0, sizeof j);
		j.partition = "c4";
		j.replica = 1;
		j.attempt = 2;
		j.job_id = "99";
		j.db = "/x";
		tap_ok(fleet_store_job_add(st, "f1", &j, &cause) == -1,
		    "the same attempt of a shape twice is refused");
		free(cause);
		cause = NULL;
	}

	tap_ok(fleet_store_jobs(st, "f1", 0, &jobs, &n, &cause) == 0,
	    "every job");
	tap_int_eq(n, 4, "4 jobs (attempts included)");
	fleet_jobs_free(jobs, n);
	tap_ok(fleet_store_jobs(st, "f1", 1, &jobs, &n, &cause) == 0,
	    "the latest attempts");
	tap_int_eq(n, 3, "3 shapes");
	for (i = 0; i < n; i++)
		if (strcmp(jobs[i].partition, "c4") == 0 &&
		    jobs[i].replica == 1)
			break;
	tap_ok(i < n && jobs[i].attempt == 2 && strcmp(jobs[i].job_id,
	    "15") == 0, "c4/1's latest attempt is 2, job 15");
	tap_str_eq(n > 0 ? jobs[0].state : NULL, "SUBMITTED",
	    "a new job is SUBMITTED");
	tap_str_eq(n > 0 ? jobs[0].db : NULL, "/shared/f/runs/c2-1.db",
	    "its database");
	fleet_jobs_free(jobs, n);

	tap_ok(fleet_store_job_update(st, "f1", "12", "RUNNING", "", "node-7",
	    2000, &cause) == 0, "record RUNNING on node-7");
	tap_ok(fleet_store_job_update(st, "f1", "12", "CANCELLED", "None", "",
	    3000, &cause) == 0, "record CANCELLED, no node");
	tap_ok(fleet_store_jobs(st, "f1", 0, &jobs, &n, &cause) == 0,
	    "read them again");
	for (i = 0; i < n && strcmp(jobs[i].job_id, "12") != 0; i++)
		;
	tap_ok(i < n, "job 12 is there");
	if (i < n) {
		tap_str_eq(jobs[i].state, "CANCELLED", "its last state");
		tap_str_eq(jobs[i].reason, "None", "its last reason");
		tap_str_eq(jobs[i].node, "node-7",
		    "the node it ran on is kept when the scheduler no longer "
		    "says");
		tap_int_eq(jobs[i].updated_wall_ns, 3000, "when");
	}
	fleet_jobs_free(jobs, n);

	tap_ok(fleet_store_list(st, &all, &n, &cause) == 0, "list fleets");
	tap_int_eq(n, 1, "one fleet");
	tap_int_eq(n > 0 ? (long long)all[0].run_keys.n : -1, 2,
	    "listed with its run keys");
	tap_str_eq(n > 0 ? all[0].merge_job : NULL, "17", "its merge job");
	for (i = 0; i < n; i++)
		fleet_rec_release(&all[i]);
	free(all);

	store_close(st);
	/* Read-only opens see the same. */
	st = store_open(path, STORE_READONLY, &cause);
	tap_ok(st != NULL && fleet_store_get(st, "f1", &g, &cause) == 0,
	    "read-only: the fleet is there");
	if (st != NULL) {
		fleet_rec_release(&g);
		store_close(st);
	}
	strvec_clear(&f.args);
	strvec_clear(&f.run_keys);
	free(cause);
	rmtree(tmpdir, NULL);
	free(path);
	return tap_done();
}
