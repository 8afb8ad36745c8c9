/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runner loop: plan, host settings per arm, one sample at a time, each
 * stored in its own transaction as soon as it exists; progress; faults and
 * max-failures; signals; and the restoration of the host on every way out.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/spawn.h"
#include "host/hostset.h"
#include "host/journal.h"
#include "host/trust.h"
#include "host/undo.h"
#include "harness/core/runner-int.h"
#include "harness/core/verdict.h"
#include "results/night-summary.h"
#include "results/sampletab-load.h"
#include "stats/sampletab.h"

static volatile sig_atomic_t	stop_flag;

static int	run_load_bad(struct run_state *r, char **cause);

static void
on_signal(int sig)
{
	(void)sig;
	if (stop_flag < 2)
		stop_flag++;
	/* End the current sample now; the main loop restores the host. */
	spawn_kill_all_now();
}

/*
 * Every signal whose default action ends the process and that a handler
 * can return from ends a run through its restore, as SIGTERM does: a
 * script's `kill -USR1`, a CPU or file size limit, a library's timer, the
 * power daemon's SIGPWR would otherwise leave the host changed until the
 * next run or `abbench restore`. Not the faults (SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGABRT, SIGTRAP, SIGSYS: their handler returns into them
 * again; `abbench restore` undoes what they leave), and not SIGPIPE,
 * which main ignores for good: a reader of the progress that goes away
 * (`| head`) costs a write its EPIPE, and the run goes on to its end and
 * its restore. The real-time signals (SIGRTMIN..SIGRTMAX) end a process
 * by default too and are caught with these.
 */
static const int	runner_stop_sigs[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
	SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGSTKFLT, SIGPWR
};

#define RUNNER_NSTOP_SIGS \
	(sizeof runner_stop_sigs / sizeof runner_stop_sigs[0])

static void
install_signals(struct sigaction *old)
{
	struct sigaction	sa;
	size_t			i;
	int			sig;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < RUNNER_NSTOP_SIGS; i++)
		sigaction(runner_stop_sigs[i], &sa, &old[runner_stop_sigs[i]]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX && sig < NSIG; sig++)
		sigaction(sig, &sa, &old[sig]);
}

static void
restore_signals(struct sigaction *old)
{
	size_t	i;
	int	sig;

	for (i = 0; i < RUNNER_NSTOP_SIGS; i++)
		sigaction(runner_stop_sigs[i], &old[runner_stop_sigs[i]], NULL);
	for (sig = SIGRTMIN; sig <= SIGRTMAX && sig < NSIG; sig++)
		sigaction(sig, &old[sig], NULL);
}

/* The run context's journal hooks: the host journal (journal.h). */
static int64_t
runner_journal_object(struct run_ctx *ctx, const char *kind,
    const char *target)
{
	int64_t	 id;
	char	*cause = NULL, *where = NULL;

	if (ctx->journal == NULL)
		return -1;
	/*
	 * A cgroup of the run: restore (another abbench, maybe in other
	 * cgroups) must know where this one ran to find it (undo.h).
	 */
	if (strcmp(kind, "cgroup") == 0 && target[0] != '/')
		where = cgrp_self_paths();
	if ((id = journal_add(ctx->journal, kind, kind, target, where,
	    &cause)) == -1) {
		warning("cannot journal %s '%s': %s", kind, target, cause);
		free(cause);
	}
	free(where);
	return id;
}

static void
runner_forget_object(struct run_ctx *ctx, int64_t id)
{
	char	*cause = NULL;

	if (id <= 0 || ctx->journal == NULL)
		return;
	if (journal_set_state(ctx->journal, id, JOURNAL_RESTORED, NULL,
	    &cause) == -1) {
		warning("%s", cause);
		free(cause);
	}
}

static int
run_store_sets(struct run_state *r, char **cause)
{
	char	*k, *eq;
	size_t	 i;
	int	 rc = 0;

	for (i = 0; r->opt->set != NULL && r->opt->set[i] != NULL &&
	    rc == 0; i++) {
		eq = strchr(r->opt->set[i], '=');
		k = xasprintf("set.%.*s", (int)(eq - r->opt->set[i]),
		    r->opt->set[i]);
		rc = store_config_set(r->st, r->ctx.run_id, NULL, k, eq + 1,
		    cause);
		free(k);
	}
	return rc;
}

static int
run_set_owner(struct run_state *r, char **cause)
{
	char	*host = runner_host_name();
	char	*start = journal_proc_start((int64_t)getpid());
	int	 rc;

	rc = store_run_set_owner(r->st, r->old.id, (int64_t)getpid(), start,
	    host, cause);
	free(start);
	free(host);
	return rc;
}

/* The run's row (or the resumed one's), and the journal's owner. */
static int
run_create(struct run_state *r, char **cause)
{
	struct experiment	*e = r->e;
	struct store_run	 run;
	const char		**arms;
	char			*host;
	size_t			 i;
	int			 rc;

	r->ctx.store = r->st;
	r->ctx.exp = e;
	r->ctx.stop = &stop_flag;
	r->ctx.journal = r->jr;
	r->ctx.journal_object = runner_journal_object;
	r->ctx.forget_object = runner_forget_object;
	if (r->opt->resume != NULL) {
		r->ctx.run_id = r->old.id;
		snprintf(r->ctx.run_uuid, sizeof r->ctx.run_uuid, "%s",
		    r->old.uuid);
		/* What its killed owner wrote to its log is stored first. */
		if (store_log_import_run(r->st, r->old.id, cause) == -1 ||
		    store_done_plan(r->st, r->old.id, &r->done, &r->ndone,
		    cause) == -1 || run_load_bad(r, cause) == -1 ||
		    store_run_set_status(r->st, r->old.id, RUN_RUNNING, 0,
		    cause) == -1 ||
		    /* The new owner, so a later stale check sees us. */
		    run_set_owner(r, cause) == -1)
			return -1;
	} else {
		memset(&run, 0, sizeof run);
		host = runner_host_name();
		arms = xcalloc(e->narms + 1, sizeof *arms);
		for (i = 0; i < e->narms; i++)
			arms[i] = e->arms[i].name;
		run.name = e->name;
		run.host = host;
		run.status = (char *)RUN_RUNNING;
		run.started_wall_ns = now_wall_ns();
		run.order_kind = (char *)run_order_name(r->order);
		run.seed = r->seed;
		run.rounds = e->rounds;
		run.warmup = e->warmup;
		run.experiment_path = e->path;
		run.experiment_text = e->text;
		run.abbench_version = (char *)PACKAGE_VERSION;
		run.pid = (int64_t)getpid();
		run.pid_start = journal_proc_start(run.pid);
		rc = store_run_create(r->st, &run, arms, e->narms, cause);
		free(run.pid_start);
		free(host);
		free(arms);
		if (rc == -1)
			return -1;
		r->ctx.run_id = run.id;
		snprintf(r->ctx.run_uuid, sizeof r->ctx.run_uuid, "%s",
		    run.uuid);
		free(run.uuid);
		runner_store_units(r->st, run.id, e);
		if (run_store_sets(r, cause) == -1)
			return -1;
	}
	/* Its samples go to a log of its own, committed in batches. */
	if (store_log_start(r->st, r->ctx.run_id, cause) == -1) {
		warning("%s: each sample is committed on its own", *cause);
		free(*cause);
		*cause = NULL;
	}
	snprintf(r->ctx.cgroup_name, sizeof r->ctx.cgroup_name,
	    "abbench-%.8s", r->ctx.run_uuid);
	r->opt->run_id = r->ctx.run_id;
	/* The looks' table: a resumed run's stored samples, read once. */
	if (r->verdicts != NULL && r->opt->resume != NULL &&
	    (r->samples = sampletab_load(r->st, r->ctx.run_id,
	    &(const struct sampletab_filter){ NULL, 0, 0 }, cause)) == NULL)
		return -1;
	if (r->verdicts != NULL && r->samples == NULL) {
		arms = xcalloc(e->narms + 1, sizeof *arms);
		for (i = 0; i < e->narms; i++)
			arms[i] = e->arms[i].name;
		r->samples = sampletab_new(arms, e->narms);
		free(arms);
	}
	return journal_attach(r->jr, r->st, r->ctx.run_id, r->ctx.run_uuid,
	    e->name, cause);
}

/* Signals, metadata, the run's cgroup, the workloads' prepare. */
static int
run_prepare(struct run_state *r, char **cause)
{
	size_t	w;

	install_signals(r->oldsa);
	r->signals = 1;
	r->psi_ok = psi_read(&r->psi0) == 0;
	if (r->opt->resume == NULL)
		runner_store_metadata(&r->ctx, r->e, &r->paths, r->opt->quiet);
	else
		runner_store_resume(&r->ctx, &r->old, r->opt->build,
		    r->opt->quiet);
	hostset_attach(r->hs, r->jr, r->st);
	r->ctx.hostset = r->hs;
	/*
	 * The run's own directory for scratch files, journaled before it
	 * exists; mkdir refuses one that is there already.
	 */
	{
		char	*name = xasprintf("abbench-%s", r->ctx.run_uuid);

		r->ctx.scratch = tmp_path(name);
		r->ctx.keep_dir = xasprintf("%s/sandbox-logs",
		    journal_state_dir());
		free(name);
		r->scratch_journal = run_journal_object(&r->ctx, "dir",
		    r->ctx.scratch);
		if (mkdir(r->ctx.scratch, 0700) == -1 && errno != EEXIST) {
			set_cause(cause, "cannot create '%s': %s",
			    r->ctx.scratch, strerror(errno));
			return -1;
		}
	}
	/* The run's own cgroup, journaled before it exists (none when
	 * abbench may make none: the check said so once). */
	if (r->ctx.no_cgroup[0] != '\0')
		r->ctx.cgroup_name[0] = '\0';
	else {
		/*
		 * v2: cgrp_create may enable controllers in our cgroup's
		 * subtree_control (moving us into <run>/self): its value
		 * now, journaled before the run's cgroup so that restore
		 * puts it back after the cgroups below are gone.
		 */
		r->sub_dir = cgrp_v2_subtree_base(&r->sub_was);
		if (r->sub_dir != NULL && r->ctx.journal != NULL &&
		    (r->sub_journal = journal_add(r->ctx.journal,
		    "cgroup-subtree", "cgroup-subtree", r->sub_dir, r->sub_was,
		    cause)) == -1) {
			warning("cannot journal '%s/cgroup.subtree_control': "
			    "%s", r->sub_dir, *cause);
			free(*cause);
			*cause = NULL;
		}
		r->cg_journal = run_journal_object(&r->ctx, "cgroup",
		    r->ctx.cgroup_name);
		if ((r->runcg = cgrp_create(r->ctx.cgroup_name, NULL,
		    cause)) == NULL) {
			warning("%s", *cause);
			free(*cause);
			*cause = NULL;
		}
	}
	for (w = 0; w < r->e->nworkloads; w++) {
		struct workload	*wl = &r->e->workloads[w];
		char		*why = NULL;

		if (wl->ops->prepare != NULL &&
		    wl->ops->prepare(&r->ctx, wl, &why) == -1) {
			set_cause(cause, "workload '%s': %s", wl->name, why);
			free(why);
			return -1;
		}
		r->prepared_upto = (int)w + 1;
		if (stop_flag)
			break;
	}
	return 0;
}

/*
 * Containers a workload's own program started with the run's label: after
 * a sample of a workload that says its program may start them, through
 * the daemon's socket with a short timeout (a hung daemon costs one
 * sample that much, then the samples skip the sweep: the run's end does
 * it); at the end of the run (pe NULL) always, with a longer one (a hung
 * daemon leaves them to abbench restore).
 */
#define RUN_SWEEP_TIMEOUT_NS	(500 * 1000000)
#define RUN_END_SWEEP_TIMEOUT_NS	(10 * NSEC_PER_SEC)

static void
run_sweep(struct run_state *r, const struct plan_entry *pe)
{
	struct strvec	 removed = STRVEC_INIT;
	char		*cause = NULL;
	size_t		 i;
	int		 rc;

	if (pe != NULL && (r->sweep == NULL || !r->sweep[pe->workload] ||
	    r->sweep_off))
		return;
	/* At the end too, a daemon that did not answer gets the short one. */
	rc = undo_labelled_within(r->ctx.run_uuid, pe != NULL ||
	    r->sweep_off ? RUN_SWEEP_TIMEOUT_NS : RUN_END_SWEEP_TIMEOUT_NS,
	    &removed, &cause);
	/* Nothing removed and an error: the daemon cannot be asked. */
	if (rc == -1 && removed.n == 0 && pe != NULL) {
		r->sweep_off = 1;
		if (!r->opt->quiet)
			warning("%s: containers left by the samples are "
			    "looked for at the end of the run only", cause);
	} else if (rc == -1 && removed.n == 0 && !r->opt->quiet)
		warning("%s: containers labelled with the run are not "
		    "removed (abbench restore does it)", cause);
	else if (rc == -1)
		warning("%s", cause);
	for (i = 0; i < removed.n && !r->opt->quiet; i++)
		warning("removed container '%s' left by the %s (label "
		    "abbench.run)", removed.v[i], pe != NULL ? "sample" :
		    "run");
	free(cause);
	strvec_clear(&removed);
}

/*
 * ABBENCH_DEBUG_DIE_BEFORE_STORE=N: SIGKILL this process once its Nth
 * sample of the process has ended, before it is stored: the worst moment
 * of a kill, when a measured sample is only in memory (the tests of what
 * a kill -9 loses).
 */
static void
run_die_before_store(void)
{
	static long	 samples, die_at = -1;
	const char	*v;

	if (die_at == -1)
		die_at = (v = getenv("ABBENCH_DEBUG_DIE_BEFORE_STORE")) !=
		    NULL && *v != '\0' ? atol(v) : 0;
	if (die_at > 0 && ++samples >= die_at)
		raise(SIGKILL);
}

/* The outcome of one sample: stored, counted, shown. 0 = go on. */
static int
run_record(struct run_state *r, const struct plan_entry *pe,
    struct sample_result *res, int64_t t0, int64_t t1, int64_t w0,
    int64_t w1)
{
	struct experiment	*e = r->e;
	const struct arm	*arm = &e->arms[pe->arm];
	struct workload		*wl = &e->workloads[pe->workload];
	char			*cause = NULL;

	run_die_before_store();
	if (res->status == SAMPLE_STATUS_OK && res->nmetrics == 0 &&
	    res->failed.n == 0)
		sample_result_fail(res, SAMPLE_STATUS_FAILED,
		    "workload reported no metrics");
	if (runner_store_result(&r->ctx, pe, e, res, t0, t1, w0, w1,
	    r->samples, &cause) == -1) {
		error("%s", cause);
		free(cause);
		/* The store failed, not the file: status 1, as any abort. */
		r->exitcode = EXIT_FAIL;
		r->aborted = 1;
		return -1;
	}
	r->prog.done++;
	if (res->status == SAMPLE_STATUS_HOST_CHANGED && res->failed.n == 0)
		r->disturbed++;		/* said by the watch already */
	else if (res->status != SAMPLE_STATUS_OK || res->failed.n > 0) {
		r->failures++;
		r->prog.failures++;
		if (!r->opt->quiet) {
			runner_progress_end(&r->prog);
			warning("round %d, arm '%s', workload '%s': %s",
			    pe->round + 1, arm->name,
			    res->failed.n > 0 && res->error == NULL ?
			    res->failed.v[0] : wl->name,
			    res->error ? res->error : res->failed.n > 0 ?
			    res->failed_error.v[0] : "failed");
		}
	}
	runner_progress_sample(&r->prog, pe, e, store_sample_status_text(res->status),
	    (double)(t1 - t0) / 1e9);
	return 0;
}

/*
 * The host watched (hostset_watch_check): what someone else changed of
 * what the run set, said at once, kept with the run's warnings, and put
 * back. 1 when anything changed.
 */
static int
run_watch(struct run_state *r, const char *when, struct strvec *changes)
{
	size_t	i;

	if (r->hs == NULL || !hostset_watch_check(r->hs, 1, changes))
		return 0;
	for (i = 0; i < changes->n; i++) {
		char	*w = xasprintf("host changed %s: %s", when,
			    changes->v[i]);

		if (!r->opt->quiet)
			runner_progress_end(&r->prog);
		warning("%s", w);
		(void)store_warning_add(r->st, r->ctx.run_id, w, NULL);
		free(w);
	}
	return 1;
}

/*
 * A sample that ended ok later than its timeout allows was not held to
 * it: abbench stopped (SIGSTOP, a debugger, a frozen cgroup) or the host
 * suspended (a VM paused, a laptop's lid) while it ran. The deadline is
 * only checked when abbench runs, so the workload's child had ended
 * long before abbench reaped it, and the span abbench then measured
 * (a command's time, 30 s for 0.1) is not the workload's. It is marked
 * timeout, without its values, and said like any failed sample. The
 * suspended time is in CLOCK_BOOTTIME, not CLOCK_MONOTONIC: the larger
 * of the two spans counts.
 */
static void
run_check_overrun(const struct workload *wl, struct sample_result *res,
    int64_t mono_ns, int64_t boot_ns)
{
	int64_t	span = boot_ns > mono_ns ? boot_ns : mono_ns;
	char	*took, *limit;

	if (res->status != SAMPLE_STATUS_OK || wl->timeout_ns <= 0 ||
	    span <= wl->timeout_ns)
		return;
	took = format_duration_sec((double)span / 1e9);
	limit = format_duration_sec((double)wl->timeout_ns / 1e9);
	sample_result_fail(res, SAMPLE_STATUS_TIMEOUT, "the sample took %s, "
	    "past its timeout of %s: abbench was stopped or the host "
	    "suspended while it ran, so its values are not kept", took,
	    limit);
	free(took);
	free(limit);
}

/* One sample: the arm's host, the workload, the record. 0 = go on. */
static int
run_sample(struct run_state *r, const struct plan_entry *pe)
{
	struct strvec		 changes = STRVEC_INIT;
	struct workload		*wl = &r->e->workloads[pe->workload];
	const struct arm	*arm = &r->e->arms[pe->arm];
	struct sample_result	 res;
	int64_t			 t0, t1, w0, w1, b0, b1;
	char			*cause = NULL;
	int			 rc;

	/* Since the last sample's end: said and put back (not a sample's). */
	run_watch(r, "between samples", &changes);
	strvec_clear(&changes);
	if (hostset_apply_arm(r->hs, arm, &cause) == -1) {
		error("arm '%s': %s", arm->name, cause);
		free(cause);
		r->exitcode = EXIT_FAIL;
		r->aborted = 1;
		return -1;
	}
	hostset_watch_take(r->hs);
	/* What the apply found changed (originals it did not take). */
	run_watch(r, "before the sample", &changes);
	strvec_clear(&changes);
	if (wl->drop_caches && hostset_drop_caches(&cause) == -1) {
		error("%s", cause);
		free(cause);
		r->exitcode = EXIT_FAIL;
		r->aborted = 1;
		return -1;
	}
	memset(&res, 0, sizeof res);
	r->ctx.entry = pe;
	w0 = now_wall_ns();
	b0 = now_boot_ns();
	t0 = now_mono_ns();
	r->ctx.deadline_ns = wl->timeout_ns > 0 ? t0 + wl->timeout_ns : 0;
	wl->ops->sample(&r->ctx, wl, arm, &res);
	t1 = now_mono_ns();
	b1 = now_boot_ns();
	w1 = now_wall_ns();
	run_check_overrun(wl, &res, t1 - t0, b1 - b0);
	run_sweep(r, pe);
	/*
	 * During the sample: it was measured on a host the run did not set
	 * up; its values are kept, marked (stat leaves it out, a make-up
	 * round replaces it).
	 */
	if (run_watch(r, "during the sample", &changes)) {
		if (res.status == SAMPLE_STATUS_OK)
			sample_result_fail(&res, SAMPLE_STATUS_HOST_CHANGED,
			    "host changed during the sample: %s",
			    changes.v[0]);
		/* Said once: values are back, a scheduler the next apply
		 * switches back. */
		hostset_watch_take(r->hs);
	}
	strvec_clear(&changes);
	if (stop_flag && res.status != SAMPLE_STATUS_OK &&
	    res.status != SAMPLE_STATUS_HOST_CHANGED) {
		/* Killed by our own signal path: not a result. */
		sample_result_release(&res);
		return -1;
	}
	rc = run_record(r, pe, &res, t0, t1, w0, w1);
	sample_result_release(&res);
	return rc;
}

/* The whole-run plan of order `sequential`, entry by entry. */
static void
run_loop_plan(struct run_state *r)
{
	struct progress	*prog = &r->prog;
	size_t		 i;

	/* A resumed run's samples keep their numbers. */
	prog->total = r->nplan;
	prog->done = prog->replayed = r->ndone;
	for (i = 0; i < r->nplan && !stop_flag; i++) {
		const struct plan_entry	*pe = &r->plan[i];

		if (store_done_contains(r->done, r->ndone, pe->idx))
			continue;
		if (run_sample(r, pe) == -1)
			break;
		if (i + 1 == r->nplan || r->plan[i + 1].round != pe->round)
			runner_progress_round_end(prog, pe->round,
			    r->e->arms[pe->arm].name);
		if (r->e->max_failures > 0 &&
		    r->failures >= r->e->max_failures) {
			runner_progress_end(prog);
			error("%d samples failed (max-failures = %d): "
			    "aborting the run", r->failures,
			    r->e->max_failures);
			r->aborted = 1;
			break;
		}
	}
}

static int
run_cmp_int(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* plan_idx values of the run's stored samples with a row not ok. */
static int
run_load_bad(struct run_state *r, char **cause)
{
	struct store_value	*v = NULL;
	size_t			 n = 0, i, cap = 0;

	if (store_values(r->st, r->ctx.run_id, NULL, STORE_Q_WARMUP |
	    STORE_Q_FAILED, &v, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].status, SAMPLE_OK) == 0)
			continue;
		XGROW(r->bad, r->nbad, cap);
		r->bad[r->nbad++] = v[i].plan_idx;
	}
	store_values_free(v, n);
	xqsort(r->bad, r->nbad, sizeof(*r->bad), run_cmp_int);
	return 0;
}

/* Rounds each arm still runs, at most: the ETA's upper bound. */
static void
run_progress_total(struct run_state *r, const int *active, const int *good,
    int round)
{
	const struct experiment	*e = r->e;
	size_t			 w, per = e->narms *
	    (r->order == ORDER_ABBA ? 2 : 1), left = 0;
	int			 warm = e->warmup - round, rest;

	for (w = 0; w < e->nworkloads; w++) {
		if (!active[w])
			continue;
		rest = (e->stop_decided ? e->max_rounds : e->rounds) -
		    good[w];
		left += per * (size_t)((warm > 0 ? warm : 0) +
		    (rest > 0 ? rest : 0));
	}
	r->prog.total = r->prog.done + left;
	if (r->verdicts != NULL)
		verdicts_count(r->verdicts, &r->prog.rows,
		    &r->prog.rows_decided, &r->prog.rows_stopped,
		    &r->prog.rows_reopened);
}

/*
 * A workload whose failed rounds are no longer made up, after `measured`
 * rounds of which `good` were good, for `target` good rounds: a failed
 * round earns a make-up round (all arms, in the order's rule), up to half
 * the target (rounded up) of them; none when all of the target's rounds
 * failed (a broken arm or workload, not chance: more rounds would fail
 * the same way).
 */
static int
run_gave_up(int good, int measured, int target)
{
	return measured >= target + (target + 1) / 2 ||
	    (good == 0 && measured >= target);
}

/*
 * Round by round (plan_round) for the workloads still active. A measured
 * round is good for a workload when each of its samples was ok, and
 * rounds count good rounds, a failed one made up as run_gave_up says.
 * Fixed design: a workload leaves the plan at `rounds` good rounds. stop =
 * decided: it is looked at after each good round that is a look of the
 * design and leaves the plan once its rows are decided or at max-rounds
 * good rounds. On --resume the stored samples replay the
 * same rounds, statuses and looks, so the plan goes on where it stopped.
 */
static void
run_loop_rounds(struct run_state *r)
{
	struct experiment	*e = r->e;
	struct progress		*prog = &r->prog;
	size_t			 nw = e->nworkloads, w, i, first, cap = 0;
	size_t			 nidx = 0, capidx = 0;
	int			*active, *good, *measured, *ok, *wl_of_idx = NULL;
	int			 decided = e->stop_decided, nactive, ran, rc;
	int			 target = decided ? e->max_rounds : e->rounds;
	int			 round, before, dbefore;
	char			*cause = NULL;

	active = xcalloc(nw, sizeof(*active));
	good = xcalloc(nw, sizeof(*good));
	measured = xcalloc(nw, sizeof(*measured));
	ok = xcalloc(nw, sizeof(*ok));
	free(r->unmade);
	r->unmade = xcalloc(nw, sizeof(*r->unmade));
	for (w = 0; w < nw; w++) {
		active[w] = 1;
		r->unmade[w] = -1;
	}
	nactive = (int)nw;
	free(r->plan);
	r->plan = NULL;
	r->nplan = 0;
	prog->rounds = e->warmup + (decided ? e->max_rounds : e->rounds);
	prog->decided_mode = decided;
	run_progress_total(r, active, good, 0);
	for (round = 0; nactive > 0 && !stop_flag && !r->aborted; round++) {
		first = r->nplan;
		plan_round(e, r->order, r->seed, round, active, &r->plan,
		    &r->nplan, &cap);
		for (i = first; i < r->nplan; i++) {
			XGROW(wl_of_idx, nidx, capidx);
			wl_of_idx[nidx++] = r->plan[i].workload;
		}
		for (w = 0; w < nw; w++)
			ok[w] = 1;
		ran = 0;
		for (i = first; i < r->nplan && !stop_flag; i++) {
			const struct plan_entry	*pe = &r->plan[i];

			if (store_done_contains(r->done, r->ndone, pe->idx)) {
				if (store_done_contains(r->bad, r->nbad, pe->idx))
					ok[pe->workload] = 0;
				/* A resumed run's samples keep their
				 * numbers. */
				prog->done++;
				prog->replayed++;
				continue;
			}
			before = r->failures;
			dbefore = r->disturbed;
			if (run_sample(r, pe) == -1)
				goto out;
			ran = 1;
			if (r->failures != before || r->disturbed != dbefore)
				ok[pe->workload] = 0;
			if (e->max_failures > 0 &&
			    r->failures >= e->max_failures) {
				runner_progress_end(prog);
				error("%d samples failed (max-failures = %d): "
				    "aborting the run", r->failures,
				    e->max_failures);
				r->aborted = 1;
				goto out;
			}
		}
		if (stop_flag)
			break;
		if (round >= e->warmup) {
			for (w = 0; w < nw; w++) {
				if (!active[w])
					continue;
				measured[w]++;
				if (!decided) {
					good[w] += ok[w];
					if (good[w] >= target)
						active[w] = 0;
					else if (run_gave_up(good[w],
					    measured[w], target)) {
						r->unmade[w] = good[w];
						active[w] = 0;
					}
					continue;
				}
				if (ok[w]) {
					good[w]++;
					/* A look may read the run's samples
					 * (a round between two looks leaves
					 * the batch as it is). */
					rc = verdicts_at_look(r->verdicts,
					    good[w]) ? store_log_flush(r->st,
					    &cause) : 0;
					if (rc == 0)
						rc = verdicts_look(r->verdicts,
						    r->st, r->ctx.run_id,
						    r->samples, wl_of_idx,
						    nidx, (int)w, good[w],
						    round, &cause);
					if (rc == -1) {
						runner_progress_end(prog);
						error("%s", cause);
						free(cause);
						r->exitcode = EXIT_FAIL;
						r->aborted = 1;
						goto out;
					}
					if (rc == 1) {
						active[w] = 0;
						continue;
					}
				}
				if (run_gave_up(good[w], measured[w],
				    target)) {
					verdicts_unmade(r->verdicts, (int)w,
					    good[w]);
					active[w] = 0;
				}
			}
		}
		for (w = 0, nactive = 0; w < nw; w++)
			nactive += active[w];
		run_progress_total(r, active, good, round + 1);
		if (ran)
			runner_progress_round_end(prog, round, NULL);
	}
out:
	free(wl_of_idx);
	free(active);
	free(good);
	free(measured);
	free(ok);
}

static void
run_loop(struct run_state *r)
{
	struct progress	*prog = &r->prog;

	prog->tty = isatty(STDERR_FILENO) && !r->opt->json_progress;
	prog->quiet = r->opt->quiet;
	prog->json = r->opt->json_progress;
	prog->start_ns = now_mono_ns();
	prog->rounds = r->e->warmup + r->e->rounds;
	if (r->order == ORDER_SEQUENTIAL)
		run_loop_plan(r);
	else
		run_loop_rounds(r);
	runner_progress_end(prog);
}

/* Put the host back: workloads' cleanup, settings, the run's cgroup. */
static void
run_restore(struct run_state *r)
{
	char	*cause = NULL;
	size_t	 w;

	for (w = 0; w < (size_t)r->prepared_upto; w++) {
		struct workload	*wl = &r->e->workloads[w];

		if (wl->ops->cleanup != NULL)
			wl->ops->cleanup(&r->ctx, wl);
	}
	run_sweep(r, NULL);
	if (r->hs != NULL && r->jr != NULL &&
	    hostset_restore_all(r->hs, &cause) == -1) {
		error("restoring host settings: %s", cause);
		free(cause);
		cause = NULL;
		r->exitcode = EXIT_FAIL;
	}
	/*
	 * The run's cgroup where we made it, and where runtimes and docker
	 * --cgroup-parent made it behind our back: in every hierarchy, at
	 * the root and below our own cgroup (pitfall 8).
	 */
	if (r->ctx.cgroup_name[0] != '\0') {
		if (cgrp_remove_everywhere(r->ctx.cgroup_name, NULL,
		    &cause) == -1) {
			warning("%s", cause);
			free(cause);
		} else {
			run_forget_object(&r->ctx, r->cg_journal);
			/* The removal put back what we enabled (and only
			 * that: others may have enabled more since). */
			if (r->sub_dir != NULL)
				run_forget_object(&r->ctx, r->sub_journal);
		}
	}
	free(r->sub_dir);
	free(r->sub_was);
	r->sub_dir = r->sub_was = NULL;
	cgrp_free(r->runcg);
	r->runcg = NULL;
	if (r->ctx.scratch != NULL) {
		if (rmtree(r->ctx.scratch, &cause) == -1) {
			warning("%s", cause);
			free(cause);
			cause = NULL;
		} else
			run_forget_object(&r->ctx, r->scratch_journal);
		free(r->ctx.scratch);
		r->ctx.scratch = NULL;
	}
	free(r->ctx.keep_dir);
	r->ctx.keep_dir = NULL;
	if (r->signals)
		restore_signals(r->oldsa);
	r->signals = 0;
}

/*
 * The kernel's stall shares over this process's part of the run (a
 * resumed run: since the resume), with the metadata. System-wide on
 * cgroup v1: the run's own workloads' waits are in it (fio's reads,
 * dd's O_DSYNC writes), so it is stored to explain a difference between
 * runs, not judged here.
 */
static void
run_pressure(struct run_state *r)
{
	struct psi_totals	 now;
	char			*text;

	if (!r->psi_ok || psi_read(&now) == -1 ||
	    (text = psi_text(&r->psi0, &now)) == NULL)
		return;
	store_config_set(r->st, r->ctx.run_id, NULL, "pressure", text, NULL);
	free(text);
}

/* The fixed design's workloads whose failed rounds were not made up. */
static void
run_print_unmade(const struct run_state *r)
{
	size_t	w;

	if (r->unmade == NULL || r->verdicts != NULL || stop_flag ||
	    r->aborted)
		return;
	for (w = 0; w < r->e->nworkloads; w++)
		if (r->unmade[w] >= 0)
			warning("workload '%s': failed rounds could not be "
			    "made up (%d good rounds of rounds %d)",
			    r->e->workloads[w].name, r->unmade[w],
			    r->e->rounds);
}

/* The run's status, the closing line. */
static void
run_finish(struct run_state *r)
{
	struct store_run	 sr;
	const char		*status;
	char			*load, *cause = NULL, *sp;
	int64_t			 nfailed = 0;
	int			 f, have_sr = 0;

	/* Every sample in the database before the run's status. */
	if (store_log_flush(r->st, &cause) == -1) {
		error("%s", cause);
		free(cause);
		cause = NULL;
		r->exitcode = EXIT_FAIL;
		r->aborted = 1;
	}
	/* The load at the end, next to the one at the start. */
	if ((load = read_small_file("/proc/loadavg", NULL)) != NULL) {
		for (sp = load, f = 0; f < 3 && sp != NULL; f++)
			sp = strchr(sp + 1, ' ');
		if (sp != NULL)
			*sp = '\0';
		store_config_set(r->st, r->ctx.run_id, NULL, "load-avg-end",
		    load, NULL);
		free(load);
	}
	run_pressure(r);
	if (stop_flag) {
		status = RUN_INTERRUPTED;
		r->exitcode = EXIT_INTERRUPTED;
	} else if (r->aborted)
		status = RUN_FAILED;
	else
		status = RUN_DONE;
	if ((strcmp(status, RUN_DONE) == 0 ?
	    store_run_done(r->st, r->ctx.run_id, now_wall_ns(), &cause) :
	    store_run_set_status(r->st, r->ctx.run_id, status, now_wall_ns(),
	    &cause)) == -1) {
		error("%s", cause);
		free(cause);
	}
	if (r->verdicts != NULL && !r->opt->quiet && !r->opt->json_progress)
		verdicts_print(r->verdicts, stderr);
	run_print_unmade(r);
	/*
	 * The counts of `db ls` and `db show`: the whole run's, also for the
	 * exit status. A resumed run's failures from before it stopped are
	 * its failures too (this process counted only its own).
	 */
	if (store_run_get(r->st, r->ctx.run_id, &sr, &cause) == 0) {
		have_sr = 1;
		nfailed = sr.nfailed;
	} else {
		error("%s", cause);
		free(cause);
		cause = NULL;
	}
	if (have_sr && !r->opt->quiet && !r->opt->json_progress)
		fprintf(stderr, "run %" PRId64 " (%s) %s: %" PRId64
		    " samples (%" PRId64 " values), %" PRId64
		    " failed; compare with: abbench stat --db %s %"
		    PRId64 "\n", r->ctx.run_id, r->e->name, status,
		    sr.nsamples, sr.nvalues, sr.nfailed,
		    store_path(r->st), r->ctx.run_id);
	if (stop_flag && !r->opt->quiet && !r->opt->json_progress)
		fprintf(stderr, "continue it with: abbench run "
		    "--resume %" PRId64 " --db %s\n", r->ctx.run_id,
		    store_path(r->st));
	if (have_sr)
		store_run_release(&sr);
	/* Not all samples ok: someone else's change to the host included. */
	if (r->exitcode == EXIT_OK && (r->failures > 0 || nfailed > 0 ||
	    r->disturbed > 0))
		r->exitcode = EXIT_FAIL;
}

static void
run_release(struct run_state *r)
{
	if (r->jr != NULL)
		journal_detach(r->jr);
	journal_close(r->jr);
	hostset_free(r->hs);
	strvec_clear(&r->paths);
	free(r->plan);
	free(r->done);
	free(r->sweep);
	free(r->bad);
	free(r->unmade);
	verdicts_free(r->verdicts);
	sampletab_free(r->samples);
	store_run_release(&r->old);
	free(r->claim_status);
	if (r->e != NULL)
		experiment_free(r->e);
	store_close(r->st);
}

int
runner_run(const char *exp_path, struct run_options *opt)
{
	struct run_state	 r;
	char		*cause = NULL;

	memset(&r, 0, sizeof r);
	r.exp_path = exp_path;
	r.opt = opt;
	r.cg_journal = -1;
	r.sub_journal = -1;
	stop_flag = 0;
	opt->run_id = 0;

	/*
	 * A resumed run's experiment is in the store: a database another
	 * user may have written would have us run their experiment (as
	 * root, host settings and all), unless we vouch for it.
	 */
	if (opt->resume != NULL && !opt->trust_db &&
	    trust_db_file(opt->db_path, &cause) == -1) {
		char	*why = cause;

		cause = xasprintf("refusing to resume from database: %s "
		    "(--trust-db to use it all the same)", why);
		free(why);
		goto usage;
	}
	if (opt->resume != NULL && (r.st = store_open(opt->db_path, 0,
	    &cause)) == NULL)
		goto usage;
	if (runner_load(&r, &cause) == -1 || runner_open(&r, &cause) == -1)
		goto usage;
	runner_recover(&r);
	/* Values only the kernel can judge: tried before the run's row. */
	if (journal_host_locked(r.jr) && (hostset_trial(r.e, r.jr,
	    &cause) == -1 || hostset_trial_block(r.hs, r.e, r.jr,
	    &cause) == -1))
		goto usage;
	if (run_create(&r, &cause) == -1) {
		/* The store or the journal failed, not the file: 1. */
		error("%s", cause);
		free(cause);
		runner_unclaim(&r);
		run_release(&r);
		return EXIT_FAIL;
	}
	if (run_prepare(&r, &cause) == -1) {
		error("%s", cause);
		free(cause);
		r.exitcode = EXIT_FAIL;
		r.aborted = 1;
	} else if (!stop_flag)
		run_loop(&r);
	run_restore(&r);
	run_finish(&r);
	run_release(&r);
	return r.exitcode;

usage:
	error("%s", cause);
	free(cause);
	runner_unclaim(&r);
	run_release(&r);
	return EXIT_USAGE;
}
