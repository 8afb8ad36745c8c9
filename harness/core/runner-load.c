/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Before a run touches anything: its experiment (from the file, or the
 * store for --resume), order, seed and plan, what only root may do, each
 * executor's and workload's checks, the host settings; then the host
 * journal, the host lock and the store, and what dead runs left.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "exec/exec.h"
#include "host/hostset.h"
#include "host/journal.h"
#include "host/recover.h"
#include "harness/core/runner-int.h"
#include "harness/core/verdict.h"
#include "lib/options.h"

char *
runner_host_name(void)
{
	struct utsname	u;

	if (uname(&u) == -1)
		return xstrdup("unknown");
	return xstrdup(u.nodename);
}

/* Directories whose disks host.block.* settings apply to. */
static void
collect_paths(const struct experiment *e, struct strvec *paths)
{
	size_t		 w, i;
	const char	*dir;

	for (w = 0; w < e->nworkloads; w++) {
		dir = e->workloads[w].common.dir;
		if (dir == NULL)
			continue;
		for (i = 0; i < paths->n; i++) {
			if (strcmp(paths->v[i], dir) == 0)
				break;
		}
		if (i == paths->n)
			strvec_push(paths, dir);
	}
}

/*
 * The --KEY=VALUE of the run resumed: stored with it as the config lines
 * "set.KEY" (metadata: shown by db show, not in its exports), to be
 * applied again.
 */
static int
run_resume_sets(struct run_state *r, struct strvec *set, char **cause)
{
	struct store_kv	*kv;
	size_t		 n, i;

	if (store_config_list(r->st, r->old.id, &kv, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (kv[i].arm[0] == '\0' && strncmp(kv[i].key, "set.", 4) == 0)
			strvec_pushf(set, "%s=%s", kv[i].key + 4, kv[i].value);
	}
	store_kv_free(kv, n);
	return 0;
}

/*
 * A run marked running may be resumed once the abbench process that ran
 * it is gone. On this host: its pid is no longer the process that started
 * the run (journal_run_owner_alive: the pid and its start time; after a
 * reboot, or a kill -9 and enough processes since, the pid may be another
 * program's, or another abbench's). On another host nothing here can
 * tell: only --takeover (a fleet's requeued job, whose earlier instance
 * the scheduler has ended) takes the run over.
 */
static int
run_owner_gone(const struct store_run *old, int takeover, char **cause)
{
	if (old->pid <= 0)
		return 0;
	if (!journal_host_is_here(old->host)) {
		if (takeover)
			return 0;
		return set_cause(cause, "run %" PRId64 " is marked running on "
		    "host '%s' (pid %" PRId64 "), which cannot be checked from "
		    "here: stop it there, or resume with --takeover once it is "
		    "gone", old->id, old->host, old->pid);
	}
	/* Not this process, which is only starting to resume it. */
	if (!takeover && old->pid != (int64_t)getpid() &&
	    journal_run_owner_alive(old->pid, old->pid_start))
		return set_cause(cause, "run %" PRId64 " is running (pid %"
		    PRId64 "); only an interrupted run can be resumed",
		    old->id, old->pid);
	return 0;
}

/* The experiment of the run resumed, from the store. */
static int
run_load_resume(struct run_state *r, char **cause)
{
	struct store_run	*old = &r->old;
	struct strvec		 set = STRVEC_INIT;

	if (store_run_find(r->st, r->opt->resume, old, cause) == -1)
		return -1;
	if (strcmp(old->status, RUN_DONE) == 0)
		return set_cause(cause, "run %" PRId64 " (%s) is already done",
		    old->id, old->name);
	if (strcmp(old->status, RUN_RUNNING) == 0) {
		if (run_owner_gone(old, r->opt->takeover, cause) == -1)
			return -1;
	} else if (strcmp(old->status, RUN_INTERRUPTED) != 0 &&
	    strcmp(old->status, RUN_FAILED) != 0)
		return set_cause(cause, "run %" PRId64 " is %s; only an "
		    "interrupted run can be resumed", old->id, old->status);
	if (run_resume_sets(r, &set, cause) == -1)
		return -1;
	r->e = experiment_parse_set(old->experiment_path ?
	    old->experiment_path : "(stored)", old->experiment_text,
	    strlen(old->experiment_text), set.v, cause);
	strvec_clear(&set);
	if (r->e == NULL)
		return -1;
	r->e->rounds = old->rounds;
	r->e->warmup = old->warmup;
	if (run_order_parse(old->order_kind, &r->order) == -1)
		r->order = r->e->order;
	r->seed = old->seed;
	return 0;
}

/*
 * What only root may do, refused for anyone else before anything is
 * touched, at the key that asks for it: host settings, dropping the
 * page cache and an executor whose runtime needs root (EXEC_ROOT).
 */
static int
run_check_root(const struct experiment *e, char **cause)
{
	size_t	a, w;
	int	line;

	if (geteuid() == 0)
		return 0;
	for (a = 0; a < e->narms; a++)
		if (e->arms[a].nhost > 0)
			return set_cause(cause, "%s:%d: %s: changing a host "
			    "setting needs root (abbench is uid %ld): run it "
			    "as root, or remove the host.* keys", e->path,
			    e->arms[a].host[0].line, e->arms[a].host[0].key,
			    (long)geteuid());
	for (w = 0; w < e->nworkloads; w++) {
		const struct workload	*wl = &e->workloads[w];

		line = kv_line(wl->kv, wl->nkv, "executor");
		if (wl->exec != NULL && (wl->exec->caps & EXEC_ROOT))
			return set_cause(cause, "%s:%d: %s: '%s' needs root "
			    "(abbench is uid %ld): its runtime makes the "
			    "container's namespaces and cgroups as root: run "
			    "abbench as root", e->path, line > 0 ? line :
			    wl->line, line > 0 ? "executor" : "workload's "
			    "executor", wl->exec->name, (long)geteuid());
		if (!wl->drop_caches)
			continue;
		line = kv_line(wl->kv, wl->nkv, "drop-caches");
		if (line == 0)
			line = kv_line(e->settings, e->nsettings,
			    "drop-caches");
		if (line > 0)
			return set_cause(cause, "%s:%d: drop-caches: "
			    "dropping the page cache needs root (abbench is "
			    "uid %ld): run it as root, or set drop-caches = "
			    "no", e->path, line, (long)geteuid());
		return set_cause(cause, "%s: drop-caches: dropping the page "
		    "cache needs root (abbench is uid %ld): run it as root, "
		    "or --drop-caches=no", e->path, (long)geteuid());
	}
	return 0;
}

/*
 * Load and check everything before anything is touched: the experiment,
 * the plan, the executors' prerequisites and the host settings (the disk
 * under each dir, the knobs of the scheduler named, the sysctls...).
 */
int
runner_load(struct run_state *r, char **cause)
{
	struct run_options	*opt = r->opt;
	size_t			 w;

	if (opt->resume != NULL) {
		if (run_load_resume(r, cause) == -1)
			return -1;
	} else {
		if (opt->exp_text != NULL)
			r->e = experiment_parse_set(r->exp_path, opt->exp_text,
			    strlen(opt->exp_text), opt->set, cause);
		else
			r->e = experiment_load_set(r->exp_path, opt->set,
			    cause);
		if (r->e == NULL)
			return -1;
		if (opt->rounds > 0)
			r->e->rounds = opt->rounds;
		r->order = opt->order_set ? opt->order : r->e->order;
		if (opt->seed_set)
			r->seed = opt->seed;
		else if (r->e->seed_set)
			r->seed = r->e->seed;
		else if (getrandom(&r->seed, sizeof r->seed, 0) !=
		    sizeof r->seed)
			r->seed = (uint64_t)now_wall_ns();
	}
	if (r->order == ORDER_SEQUENTIAL && !opt->quiet)
		warning("order 'sequential' runs all of one arm before the "
		    "next: drift is confounded with the arms (use it only to "
		    "demonstrate drift)");
	if (r->e->stop_decided) {
		struct seq_design	d;

		/* --rounds N would be ignored by the rule: say so rather
		 * than run something else than was asked. */
		if (opt->resume == NULL && opt->rounds > 0)
			return set_cause(cause, "--rounds %d: this run stops "
			    "by the rule (stop = decided), which --rounds does "
			    "not bound: say --max-rounds %d to bound it, or "
			    "--until rounds --rounds %d for a fixed design",
			    opt->rounds, opt->rounds, opt->rounds);
		if (r->order == ORDER_SEQUENTIAL)
			return set_cause(cause, "stop = decided (--until "
			    "decided) needs an interleaved order (alternate, "
			    "abba or random), not 'sequential'");
		if (experiment_design(r->e, &d, cause) == -1 ||
		    (r->verdicts = verdicts_new(r->e, &d, r->e->stat_filter,
		    r->order == ORDER_ALTERNATE || r->order == ORDER_ABBA,
		    cause)) == NULL)
			return -1;
	}
	if (plan_build(r->e, r->order, r->seed, &r->plan, &r->nplan,
	    cause) == -1)
		return -1;
	if (run_check_root(r->e, cause) == -1)
		return -1;
	for (w = 0; w < r->e->nworkloads; w++) {
		struct workload	*wl = &r->e->workloads[w];
		char		*why = NULL;

		if (wl->exec == NULL)
			return set_cause(cause, "%s: workload '%s': executor "
			    "not available", r->e->path, wl->name);
		if (workload_exec_check(&r->ctx, r->e, wl, &why) == -1) {
			size_t	plen = strlen(r->e->path);

			/* A message at a key's line keeps its own place. */
			if (strncmp(why, r->e->path, plen) == 0 &&
			    why[plen] == ':')
				set_cause(cause, "%s (workload '%s')", why,
				    wl->name);
			else
				set_cause(cause, "%s:%d: workload '%s': %s",
				    r->e->path, wl->line, wl->name, why);
			free(why);
			return -1;
		}
		if (wl->ops->preflight != NULL &&
		    wl->ops->preflight(r->e, wl, cause) == -1)
			return -1;
		/*
		 * A program that says it may start containers labelled with
		 * the run (starts-containers): swept after each sample.
		 */
		{
			const char	*sc = workload_get(wl, NULL,
			    "starts-containers");
			int		 yes = 0;

			if (r->sweep == NULL)
				r->sweep = xcalloc(r->e->nworkloads, 1);
			r->sweep[w] = wl->ops->own_program && sc != NULL &&
			    opt_parse_bool(sc, &yes) == 0 && yes;
		}
	}
	collect_paths(r->e, &r->paths);
	r->hs = hostset_new(r->paths.v, r->paths.n);
	return hostset_prepare(r->hs, r->e, cause);
}

/*
 * The run resumed becomes ours in one write transaction of its database
 * (BEGIN IMMEDIATE: one writer at a time): its row is read again, checked
 * as run_load_resume did, and its owner (pid, start, host) and status set
 * together. Two resumes started together both passed run_load_resume's
 * look; only one passes here, and the other is refused with the owner
 * named, whatever the host lock says (a run that changes no host setting
 * takes none). With --takeover, a row claimed since it was loaded by a
 * process alive here is refused too: that is another takeover, not the
 * earlier instance.
 */
static int
run_claim(struct run_state *r, char **cause)
{
	struct store_run	 cur;
	char			*host = NULL, *start = NULL;
	int64_t			 me = (int64_t)getpid();
	int			 rc = -1;

	memset(&cur, 0, sizeof cur);
	if (store_begin(r->st, cause) == -1)
		return -1;
	if (store_run_get(r->st, r->old.id, &cur, cause) == -1)
		goto out;
	if (cur.uuid == NULL || r->old.uuid == NULL ||
	    strcmp(cur.uuid, r->old.uuid) != 0) {
		set_cause(cause, "run %" PRId64 " changed under this resume",
		    r->old.id);
		goto out;
	}
	if (strcmp(cur.status, RUN_RUNNING) == 0 && cur.pid != me) {
		int	same = cur.pid == r->old.pid &&
			    strcmp(cur.pid_start != NULL ? cur.pid_start : "",
			    r->old.pid_start != NULL ? r->old.pid_start : "") ==
			    0 && strcmp(r->old.status, RUN_RUNNING) == 0;

		if (!same && journal_host_is_here(cur.host) &&
		    journal_run_owner_alive(cur.pid, cur.pid_start)) {
			set_cause(cause, "run %" PRId64 " is already resumed "
			    "by pid %" PRId64 " (started %s); only one "
			    "abbench runs it", cur.id, cur.pid,
			    cur.pid_start != NULL ? cur.pid_start : "?");
			goto out;
		}
		if (run_owner_gone(&cur, r->opt->takeover, cause) == -1)
			goto out;
	} else if (strcmp(cur.status, RUN_INTERRUPTED) != 0 &&
	    strcmp(cur.status, RUN_FAILED) != 0 &&
	    strcmp(cur.status, RUN_RUNNING) != 0) {
		set_cause(cause, "run %" PRId64 " is %s; only an interrupted "
		    "run can be resumed", cur.id, cur.status);
		goto out;
	}
	host = runner_host_name();
	start = journal_proc_start(me);
	if (store_run_set_status(r->st, cur.id, RUN_RUNNING, 0, cause) == -1 ||
	    store_run_set_owner(r->st, cur.id, me, start, host, cause) == -1)
		goto out;
	rc = 0;
out:
	if (rc == 0 && store_commit(r->st, cause) == -1)
		rc = -1;
	else if (rc == -1)
		(void)store_rollback(r->st);
	if (rc == 0) {
		r->claimed = 1;
		/* What to give back if this resume stops before it runs. */
		free(r->claim_status);
		r->claim_status = xstrdup(cur.status);
	}
	free(start);
	free(host);
	store_run_release(&cur);
	return rc;
}

void
runner_unclaim(struct run_state *r)
{
	struct store_run	cur;

	if (!r->claimed || r->st == NULL)
		return;
	r->claimed = 0;
	memset(&cur, 0, sizeof cur);
	/* Only while it is still ours (nobody resumes a live run's row). */
	if (store_begin(r->st, NULL) == -1)
		return;
	if (store_run_get(r->st, r->old.id, &cur, NULL) == 0 &&
	    cur.pid == (int64_t)getpid() &&
	    strcmp(cur.status, RUN_RUNNING) == 0 &&
	    store_run_set_status(r->st, r->old.id, strcmp(r->claim_status,
	    RUN_RUNNING) == 0 ? RUN_INTERRUPTED : r->claim_status, 0,
	    NULL) == 0)
		(void)store_commit(r->st, NULL);
	else
		(void)store_rollback(r->st);
	store_run_release(&cur);
}

/* How long --takeover waits for an earlier instance on this host. */
#define TAKEOVER_WAIT_NS	(60 * NSEC_PER_SEC)

/*
 * A run waiting for the host says so, on a terminal or not: a cron log
 * must tell a run waiting for another from one that hangs. Also with
 * --quiet: it is neither progress nor a summary.
 */
static void
run_wait_notice(const char *holder, int64_t waited_ns)
{
	char	 t[32];
	time_t	 now = time(NULL);
	double	 s = (double)waited_ns / 1e9;

	strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (holder != NULL)
		fprintf(stderr, "abbench: note: %s: waiting for the host: "
		    "another run that changes it holds it (%s)\n", t, holder);
	else if (s < 60)
		fprintf(stderr, "abbench: note: %s: the host is free after "
		    "%.1fs of waiting: starting\n", t, s);
	else
		fprintf(stderr, "abbench: note: %s: the host is free after "
		    "%dm%02ds of waiting: starting\n", t, (int)(s / 60),
		    (int)s % 60);
	fflush(stderr);
}

/*
 * The store (checked), the host journal, and the host lock when the run
 * changes host settings.
 */
int
runner_open(struct run_state *r, char **cause)
{
	struct run_options	*opt = r->opt;

	/* The host first: a refused run makes not even its database. */
	if ((r->jr = journal_open(cause)) == NULL)
		return -1;
	/* Said once the run can go on: not before a fatal error (a user
	 * without a state directory learns of that alone). */
	if (r->ctx.no_cgroup[0] != '\0' && !opt->quiet)
		warning("%s: programs run in abbench's own cgroup, not one "
		    "of their own: their cgroup CPU time and memory are not "
		    "measured apart (times and rusage are)", r->ctx.no_cgroup);
	/* --takeover: the earlier instance on this host ends first (it may
	 * still be storing what it did), before the done plan is read. */
	if (opt->resume != NULL && opt->takeover && journal_wait_run(r->jr,
	    r->old.uuid, now_mono_ns() + TAKEOVER_WAIT_NS, cause) == -1)
		return -1;
	journal_set_wait_notice(run_wait_notice);
	if (opt->resume != NULL && run_claim(r, cause) == -1)
		return -1;
	if (hostset_changes_host(r->e) && journal_lock_host(r->jr,
	    r->e->name, opt->db_path, opt->wait_lock, cause) == -1)
		return -1;
	if (r->st == NULL && (r->st = store_open(opt->db_path, STORE_CREATE |
	    (opt->durable ? STORE_DURABLE : 0), cause)) == NULL)
		return -1;
	if (store_quick_check(r->st, cause) == -1)
		return -1;
	/* No sample waits for a checkpoint's fdatasyncs. */
	store_checkpoint_behind(r->st);
	return 0;
}

/* What dead runs left on the host, whichever database they used. */
void
runner_recover(struct run_state *r)
{
	struct hostset_report	 rep = HOSTSET_REPORT_INIT;
	char			*cause = NULL;
	int			 undone = 0, flags = 0, borrowed = 0;
	size_t			 i;

	if (r->opt->no_restore_check)
		return;
	/* Settings only by whoever holds the host (or may take it now). */
	if (!journal_host_locked(r->jr))
		borrowed = journal_try_host(r->jr, 0) == 0;
	if (journal_host_locked(r->jr))
		flags |= RECOVER_SETTINGS;
	if (recover_prev_dir(r->jr, &rep, &undone, &cause) == -1) {
		warning("restoring after an earlier run: %s", cause);
		free(cause);
		cause = NULL;
	}
	if (recover_runs(r->jr, NULL, flags, &rep, &undone, &cause) == -1) {
		warning("restoring after an earlier run: %s", cause);
		free(cause);
	}
	if (borrowed)
		journal_unlock_host(r->jr);
	for (i = 0; i < rep.done.n && !r->opt->quiet; i++)
		warning("restored: %s", rep.done.v[i]);
	if (undone > 0)
		warning("restored %d host change%s left by an earlier run that "
		    "did not finish", undone, undone == 1 ? "" : "s");
	hostset_report_release(&rep);
}
