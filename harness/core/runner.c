/*
 * The runner loop: plan, host settings per arm, one sample at a time, each
 * stored in its own transaction as soon as it exists; progress; faults and
 * max-failures; signals; and the restoration of the host on every way out.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sqlite3.h>

#include "harness/exec/cgroup.h"
#include "harness/host/envcheck.h"
#include "harness/exec/exec.h"
#include "harness/host/hostinfo.h"
#include "harness/host/hostset.h"
#include "harness/core/runner.h"
#include "harness/exec/spawn.h"
#include "results/store.h"
#include "workloads/workload.h"

static volatile sig_atomic_t	stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	if (stop_flag < 2)
		stop_flag++;
	/* End the current sample now; the main loop restores the host. */
	spawn_kill_all_now();
}

static void
install_signals(struct sigaction *old)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
}

static void
restore_signals(struct sigaction *old)
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
}

int
run_should_stop(const struct run_ctx *ctx)
{
	return ctx->stop != NULL && *ctx->stop != 0;
}

int64_t
run_journal_object(struct run_ctx *ctx, const char *kind, const char *target)
{
	int64_t	 id = -1;
	char	*cause = NULL, *where = NULL;

	/*
	 * A cgroup of the run: restore (another abbench, maybe in other
	 * cgroups) must know where this one ran to find it (hostset.h).
	 */
	if (strcmp(kind, "cgroup") == 0 && target[0] != '/')
		where = cgrp_self_paths();
	if (store_journal_add(ctx->store, ctx->run_id, kind, kind, target,
	    where, &id, &cause) == -1) {
		warning("cannot journal %s '%s': %s", kind, target, cause);
		free(cause);
		id = -1;
	}
	free(where);
	return id;
}

void
run_forget_object(struct run_ctx *ctx, int64_t id)
{
	char	*cause = NULL;

	if (id <= 0)
		return;
	if (store_journal_set_state(ctx->store, id, JOURNAL_RESTORED, NULL,
	    &cause) == -1) {
		warning("%s", cause);
		free(cause);
	}
}

/* Progress: a live line on a terminal, a line per round elsewhere. */
struct progress {
	int		 tty;
	int		 quiet;
	int		 json;
	int64_t		 start_ns;
	size_t		 total;
	size_t		 done;
	int		 failures;
	int		 last_round;
	int		 rounds;
	int		 line_open;
};

static void
fmt_secs(double s, char *buf, size_t len)
{
	if (s < 0 || !isfinite(s))
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600),
		    (int)fmod(s / 60, 60));
	else if (s >= 60)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60),
		    (int)fmod(s, 60));
	else
		snprintf(buf, len, "%.1fs", s);
}

static void
progress_sample(struct progress *p, const struct plan_entry *pe,
    const struct experiment *e, const char *status, double value_secs)
{
	double	elapsed = (double)(now_mono_ns() - p->start_ns) / 1e9;
	double	eta = p->done > 0 ? elapsed / (double)p->done *
	    (double)(p->total - p->done) : -1;
	char	el[32], et[32];

	if (p->quiet)
		return;
	fmt_secs(elapsed, el, sizeof el);
	fmt_secs(eta, et, sizeof et);
	if (p->json) {
		printf("{\"round\":%d,\"rounds\":%d,\"sample\":%zu,"
		    "\"samples\":%zu,\"arm\":\"%s\",\"workload\":\"%s\","
		    "\"status\":\"%s\",\"seconds\":%.6f,\"elapsed\":%.3f,"
		    "\"eta\":%.3f,\"failures\":%d,\"warmup\":%s}\n",
		    pe->round + 1, p->rounds, p->done, p->total,
		    e->arms[pe->arm].name, e->workloads[pe->workload].name,
		    status, value_secs, elapsed, eta, p->failures,
		    pe->warmup ? "true" : "false");
		fflush(stdout);
		return;
	}
	if (p->tty) {
		fprintf(stderr, "\r\033[Kround %d/%d  sample %zu/%zu  %s  %s  "
		    "elapsed %s  eta %s  failures %d", pe->round + 1,
		    p->rounds, p->done, p->total, e->arms[pe->arm].name,
		    e->workloads[pe->workload].name, el, et, p->failures);
		p->line_open = 1;
		return;
	}
	if (pe->round != p->last_round) {
		p->last_round = pe->round;
	}
}

static void
progress_round_end(struct progress *p, int round)
{
	double	elapsed = (double)(now_mono_ns() - p->start_ns) / 1e9;
	char	el[32];

	if (p->quiet || p->json || p->tty)
		return;
	fmt_secs(elapsed, el, sizeof el);
	fprintf(stderr, "round %d/%d done: %zu/%zu samples, %d failures, "
	    "elapsed %s\n", round + 1, p->rounds, p->done, p->total,
	    p->failures, el);
}

static void
progress_end(struct progress *p)
{
	if (p->tty && p->line_open && !p->quiet) {
		fputc('\n', stderr);
		p->line_open = 0;
	}
}

static void
store_units(struct store *st, int64_t run_id, const struct experiment *e)
{
	size_t	w, i;

	for (w = 0; w < e->nworkloads; w++) {
		const char *const	*u = e->workloads[w].ops->units;

		for (i = 0; u != NULL && u[i] != NULL && u[i + 1] != NULL;
		    i += 2)
			(void)store_unit_set(st, run_id, u[i], "better",
			    u[i + 1], NULL);
	}
}

/* Directories whose disks host.block.* settings apply to. */
static void
collect_paths(const struct experiment *e, struct strvec *paths)
{
	size_t		 w, i;
	const char	*dir;

	for (w = 0; w < e->nworkloads; w++) {
		dir = workload_get(&e->workloads[w], NULL, "dir");
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

static void
store_metadata(struct run_ctx *ctx, const struct experiment *e,
    struct strvec *paths, int quiet)
{
	struct strvec	 config = STRVEC_INIT, warnings = STRVEC_INIT;
	struct strvec	 report = STRVEC_INIT;
	char		*cause = NULL, *ver, *key;
	size_t		 i;

	if (e->pkg != NULL)
		store_config_set(ctx->store, ctx->run_id, NULL, "pkg", e->pkg,
		    NULL);
	if (hostinfo_collect(paths->v, paths->n, &config, &cause) == -1) {
		warning("host metadata: %s", cause);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < config.n; i++) {
		char	*c = strstr(config.v[i], ": ");

		if (c == NULL)
			continue;
		*c = '\0';
		if (e->pkg != NULL && strcmp(config.v[i], "pkg") == 0)
			continue;
		store_config_set(ctx->store, ctx->run_id, NULL, config.v[i],
		    c + 2, NULL);
	}
	/* Runtime versions as run-level keys named after the arm, so that
	 * every arm's export carries the same config (no table split). */
	for (i = 0; i < e->narms; i++) {
		const struct arm	*a = &e->arms[i];

		if (a->runtime == NULL)
			continue;
		key = xasprintf("runtime-%s", a->name);
		store_config_set(ctx->store, ctx->run_id, NULL, key,
		    a->runtime, NULL);
		free(key);
		if (hostinfo_runtime_version(a->runtime, &ver, &cause) == 0) {
			key = xasprintf("runtime-version-%s", a->name);
			store_config_set(ctx->store, ctx->run_id, NULL, key,
			    ver, NULL);
			free(key);
			free(ver);
		} else {
			free(cause);
			cause = NULL;
		}
	}
	if (envcheck_run(paths->v, paths->n, &warnings, &report, &cause) ==
	    -1) {
		warning("host check: %s", cause);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < warnings.n; i++) {
		if (!quiet)
			warning("%s", warnings.v[i]);
		store_warning_add(ctx->store, ctx->run_id, warnings.v[i], NULL);
	}
	strvec_clear(&config);
	strvec_clear(&warnings);
	strvec_clear(&report);
}

static const char *
status_text(enum sample_status s)
{
	switch (s) {
	case SAMPLE_STATUS_OK:
		return SAMPLE_OK;
	case SAMPLE_STATUS_TIMEOUT:
		return SAMPLE_TIMEOUT;
	default:
		return SAMPLE_FAILED;
	}
}

static int
store_result(struct run_ctx *ctx, const struct plan_entry *pe,
    const struct experiment *e, struct sample_result *res, int64_t t0,
    int64_t t1, int64_t w0, int64_t w1, char **cause)
{
	struct store_sample	 s;
	struct store_metric	*m;
	size_t			 i;
	int			 r;

	memset(&s, 0, sizeof s);
	s.run_id = ctx->run_id;
	s.plan_idx = pe->idx;
	s.round = pe->round;
	s.position = pe->position;
	s.arm = e->arms[pe->arm].name;
	s.workload = e->workloads[pe->workload].name;
	s.warmup = pe->warmup;
	s.status = status_text(res->status);
	s.error = res->error;
	s.start_ns = res->start_ns ? res->start_ns : t0;
	s.end_ns = res->end_ns ? res->end_ns : t1;
	/* Wall times follow the monotonic window. */
	s.start_wall_ns = w0 + (s.start_ns - t0);
	s.end_wall_ns = w1 - (t1 - s.end_ns);
	m = xcalloc(res->nmetrics ? res->nmetrics : 1, sizeof *m);
	for (i = 0; i < res->nmetrics; i++) {
		m[i].benchmark = res->metrics[i].benchmark;
		m[i].unit = res->metrics[i].unit;
		m[i].value = res->metrics[i].value;
	}
	s.metrics = m;
	s.nmetrics = res->status == SAMPLE_STATUS_OK ? res->nmetrics : 0;
	if (res->failed.n == 0)
		r = store_sample_add(ctx->store, &s, cause);
	else if ((r = store_begin(ctx->store, cause)) == 0) {
		/* The sample and the benchmarks that failed inside it. */
		if (s.nmetrics > 0 || res->status != SAMPLE_STATUS_OK)
			r = store_sample_add_locked(ctx->store, &s, cause);
		for (i = 0; r == 0 && i < res->failed.n; i++) {
			struct store_sample	f = s;

			f.workload = res->failed.v[i];
			f.status = SAMPLE_FAILED;
			f.error = res->failed_error.v[i];
			f.metrics = NULL;
			f.nmetrics = 0;
			r = store_sample_add_locked(ctx->store, &f, cause);
		}
		if (r == 0)
			r = store_commit(ctx->store, cause);
		else
			store_rollback(ctx->store);
	}
	free(m);
	for (i = 0; r == 0 && i < res->config.n; i++) {
		char	*c = strstr(res->config.v[i], ": ");

		if (c != NULL) {
			char	*k = xstrndup(res->config.v[i],
			    (size_t)(c - res->config.v[i]));

			store_config_set(ctx->store, ctx->run_id, NULL, k,
			    c + 2, NULL);
			free(k);
		}
	}
	return r;
}

static int
done_contains(const int *done, size_t n, int idx)
{
	size_t	lo = 0, hi = n;

	while (lo < hi) {
		size_t	mid = (lo + hi) / 2;

		if (done[mid] == idx)
			return 1;
		if (done[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void
set_run_pid(struct store *st, int64_t run_id)
{
	sqlite3_stmt	*stmt = NULL;

	if (sqlite3_prepare_v2(store_db(st),
	    "UPDATE runs SET pid = ? WHERE id = ?", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return;
	sqlite3_bind_int64(stmt, 1, (int64_t)getpid());
	sqlite3_bind_int64(stmt, 2, run_id);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		warning("cannot record the pid of run %" PRId64 ": %s", run_id,
		    sqlite3_errmsg(store_db(st)));
	sqlite3_finalize(stmt);
}

static char *
host_name(void)
{
	struct utsname	u;

	if (uname(&u) == -1)
		return xstrdup("unknown");
	return xstrdup(u.nodename);
}

int
runner_run(const char *exp_path, struct run_options *opt)
{
	struct experiment	*e = NULL;
	struct store		*st = NULL;
	struct store_run	 run, old;
	struct run_ctx		 ctx;
	struct plan_entry	*plan = NULL;
	struct progress		 prog;
	struct strvec		 paths = STRVEC_INIT;
	struct sigaction	 oldsa[3];
	struct cgrp		*runcg = NULL;
	const char		**arm_names = NULL;
	enum run_order		 order;
	uint64_t		 seed;
	size_t			 nplan = 0, ndone = 0, i, w;
	int			*done = NULL, exitcode = EXIT_OK, failures = 0;
	int			 aborted = 0, prepared_upto = 0, restored;
	int64_t			 cg_journal = -1;
	char			*cause = NULL;

	memset(&run, 0, sizeof run);
	memset(&old, 0, sizeof old);
	memset(&ctx, 0, sizeof ctx);
	memset(&prog, 0, sizeof prog);
	stop_flag = 0;
	opt->run_id = 0;

	if ((st = store_open(opt->db_path, STORE_CREATE |
	    (opt->durable ? STORE_DURABLE : 0), &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}

	/* A run that died (kill -9) may have left the host changed. */
	if (!opt->no_restore_check) {
		int	n = hostset_restore_stale(st, &cause);

		if (n == -1) {
			warning("restoring after an earlier run: %s", cause);
			free(cause);
			cause = NULL;
		} else if (n > 0)
			warning("restored %d host change%s left by an earlier "
			    "run that did not finish", n, n == 1 ? "" : "s");
	}

	if (opt->resume != NULL) {
		if (store_run_find(st, opt->resume, &old, &cause) == -1) {
			error("%s", cause);
			goto usage_error;
		}
		if (strcmp(old.status, RUN_DONE) == 0) {
			error("run %" PRId64 " (%s) is already done", old.id,
			    old.name);
			goto usage_error;
		}
		if (strcmp(old.status, RUN_INTERRUPTED) != 0 &&
		    strcmp(old.status, RUN_FAILED) != 0 &&
		    !(strcmp(old.status, RUN_RUNNING) == 0 &&
		    (old.pid <= 0 || kill((pid_t)old.pid, 0) == -1))) {
			error("run %" PRId64 " is %s; only an interrupted run "
			    "can be resumed", old.id, old.status);
			goto usage_error;
		}
		e = experiment_parse(old.experiment_path ?
		    old.experiment_path : "(stored)", old.experiment_text,
		    strlen(old.experiment_text), &cause);
		if (e == NULL) {
			error("%s", cause);
			goto usage_error;
		}
		e->rounds = old.rounds;
		e->warmup = old.warmup;
		if (run_order_parse(old.order_kind, &order) == -1)
			order = e->order;
		seed = old.seed;
	} else {
		if (opt->exp_text != NULL)
			e = experiment_parse(exp_path, opt->exp_text,
			    strlen(opt->exp_text), &cause);
		else
			e = experiment_load(exp_path, &cause);
		if (e == NULL) {
			error("%s", cause);
			goto usage_error;
		}
		if (opt->rounds > 0)
			e->rounds = opt->rounds;
		order = opt->order_set ? opt->order : e->order;
		if (opt->seed_set)
			seed = opt->seed;
		else if (e->seed_set)
			seed = e->seed;
		else if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
			seed = (uint64_t)now_wall_ns();
	}
	if (order == ORDER_SEQUENTIAL && !opt->quiet)
		warning("order 'sequential' runs all of one arm before the "
		    "next: drift is confounded with the arms (use it only to "
		    "demonstrate drift)");
	if (plan_build(e, order, seed, &plan, &nplan, &cause) == -1) {
		error("%s", cause);
		goto usage_error;
	}

	/* Executors check their prerequisites before anything changes. */
	for (w = 0; w < e->nworkloads; w++) {
		struct workload	*wl = &e->workloads[w];

		if (wl->exec == NULL) {
			error("%s: workload '%s': executor not available",
			    e->path, wl->name);
			goto usage_error;
		}
		if (workload_exec_check(&ctx, e, wl, &cause) == -1) {
			error("workload '%s': %s", wl->name, cause);
			goto usage_error;
		}
	}

	ctx.store = st;
	ctx.exp = e;
	ctx.stop = &stop_flag;
	if (opt->resume != NULL) {
		ctx.run_id = old.id;
		snprintf(ctx.run_uuid, sizeof ctx.run_uuid, "%s", old.uuid);
		if (store_done_plan(st, old.id, &done, &ndone, &cause) == -1) {
			error("%s", cause);
			goto usage_error;
		}
		if (store_run_set_status(st, old.id, RUN_RUNNING, 0,
		    &cause) == -1) {
			error("%s", cause);
			goto usage_error;
		}
		/* The new pid, so a later stale check sees this process. */
		set_run_pid(st, old.id);
	} else {
		char	*host = host_name();

		arm_names = xcalloc(e->narms + 1, sizeof *arm_names);
		for (i = 0; i < e->narms; i++)
			arm_names[i] = e->arms[i].name;
		run.name = e->name;
		run.host = host;
		run.status = (char *)RUN_RUNNING;
		run.started_wall_ns = now_wall_ns();
		run.order_kind = (char *)run_order_name(order);
		run.seed = seed;
		run.rounds = e->rounds;
		run.warmup = e->warmup;
		run.experiment_path = e->path;
		run.experiment_text = e->text;
		run.abbench_version = (char *)PACKAGE_VERSION;
		run.pid = (int64_t)getpid();
		if (store_run_create(st, &run, arm_names, e->narms,
		    &cause) == -1) {
			free(host);
			error("%s", cause);
			goto usage_error;
		}
		free(host);
		ctx.run_id = run.id;
		snprintf(ctx.run_uuid, sizeof ctx.run_uuid, "%s", run.uuid);
		store_units(st, run.id, e);
	}
	snprintf(ctx.cgroup_name, sizeof ctx.cgroup_name, "abbench-%.8s",
	    ctx.run_uuid);
	opt->run_id = ctx.run_id;

	install_signals(oldsa);
	collect_paths(e, &paths);
	if (opt->resume == NULL)
		store_metadata(&ctx, e, &paths, opt->quiet);

	/* The run's own cgroup, journaled before it exists. */
	cg_journal = run_journal_object(&ctx, "cgroup", ctx.cgroup_name);
	if ((runcg = cgrp_create(ctx.cgroup_name, NULL, &cause)) == NULL) {
		warning("%s", cause);
		free(cause);
		cause = NULL;
	}

	ctx.hostset = hostset_new(st, ctx.run_id, paths.v, paths.n);
	if (hostset_prepare(ctx.hostset, e, &cause) == -1) {
		error("%s", cause);
		exitcode = EXIT_USAGE;
		aborted = 1;
		goto finish;
	}
	for (w = 0; w < e->nworkloads; w++) {
		struct workload	*wl = &e->workloads[w];

		if (wl->ops->prepare != NULL &&
		    wl->ops->prepare(&ctx, wl, &cause) == -1) {
			error("workload '%s': %s", wl->name, cause);
			exitcode = EXIT_FAIL;
			aborted = 1;
			prepared_upto = (int)w;
			goto finish;
		}
		prepared_upto = (int)w + 1;
		if (stop_flag)
			goto finish;
	}

	prog.tty = isatty(STDERR_FILENO) && !opt->json_progress;
	prog.quiet = opt->quiet;
	prog.json = opt->json_progress;
	prog.start_ns = now_mono_ns();
	prog.total = nplan - ndone;
	prog.rounds = e->warmup + e->rounds;
	prog.last_round = -1;

	for (i = 0; i < nplan && !stop_flag; i++) {
		const struct plan_entry	*pe = &plan[i];
		struct workload		*wl = &e->workloads[pe->workload];
		const struct arm	*arm = &e->arms[pe->arm];
		struct sample_result	 res;
		int64_t			 t0, t1, w0, w1;

		if (done_contains(done, ndone, pe->idx))
			continue;
		if (hostset_apply_arm(ctx.hostset, arm, &cause) == -1) {
			error("arm '%s': %s", arm->name, cause);
			exitcode = EXIT_FAIL;
			aborted = 1;
			break;
		}
		if (wl->drop_caches && hostset_drop_caches(&cause) == -1) {
			error("%s", cause);
			exitcode = EXIT_FAIL;
			aborted = 1;
			break;
		}
		memset(&res, 0, sizeof res);
		ctx.entry = pe;
		w0 = now_wall_ns();
		t0 = now_mono_ns();
		ctx.deadline_ns = wl->timeout_ns > 0 ? t0 + wl->timeout_ns : 0;
		wl->ops->sample(&ctx, wl, arm, &res);
		t1 = now_mono_ns();
		w1 = now_wall_ns();
		if (stop_flag && res.status != SAMPLE_STATUS_OK) {
			/* Killed by our own signal path: not a result. */
			sample_result_release(&res);
			break;
		}
		if (res.status == SAMPLE_STATUS_OK && res.nmetrics == 0 &&
		    res.failed.n == 0)
			sample_result_fail(&res, SAMPLE_STATUS_FAILED,
			    "workload reported no metrics");
		if (store_result(&ctx, pe, e, &res, t0, t1, w0, w1,
		    &cause) == -1) {
			error("%s", cause);
			sample_result_release(&res);
			exitcode = EXIT_USAGE;
			aborted = 1;
			break;
		}
		prog.done++;
		if (res.status != SAMPLE_STATUS_OK || res.failed.n > 0) {
			failures++;
			prog.failures++;
			if (!opt->quiet) {
				progress_end(&prog);
				warning("round %d, arm '%s', workload '%s': %s",
				    pe->round + 1, arm->name,
				    res.failed.n > 0 && res.error == NULL ?
				    res.failed.v[0] : wl->name,
				    res.error ? res.error : res.failed.n > 0 ?
				    res.failed_error.v[0] : "failed");
			}
		}
		progress_sample(&prog, pe, e, status_text(res.status),
		    (double)(t1 - t0) / 1e9);
		sample_result_release(&res);
		if (i + 1 == nplan || plan[i + 1].round != pe->round)
			progress_round_end(&prog, pe->round);
		if (e->max_failures > 0 && failures >= e->max_failures) {
			progress_end(&prog);
			error("%d samples failed (max-failures = %d): "
			    "aborting the run", failures, e->max_failures);
			aborted = 1;
			break;
		}
	}
	progress_end(&prog);

finish:
	for (w = 0; w < (size_t)prepared_upto; w++) {
		struct workload	*wl = &e->workloads[w];

		if (wl->ops->cleanup != NULL)
			wl->ops->cleanup(&ctx, wl);
	}
	restored = 0;
	if (ctx.hostset != NULL) {
		if (hostset_restore_all(ctx.hostset, &cause) == -1) {
			error("restoring host settings: %s", cause);
			free(cause);
			cause = NULL;
			exitcode = EXIT_FAIL;
		} else
			restored = 1;
	}
	/*
	 * The run's cgroup where we made it, and where runtimes and docker
	 * --cgroup-parent made it behind our back: in every hierarchy, at
	 * the root and below our own cgroup (pitfall 8).
	 */
	if (cgrp_remove_everywhere(ctx.cgroup_name, NULL, &cause) == -1) {
		warning("%s", cause);
		free(cause);
		cause = NULL;
	} else
		run_forget_object(&ctx, cg_journal);
	cgrp_free(runcg);
	(void)restored;
	restore_signals(oldsa);

	{
		const char	*status;
		char		*load;

		/* The load at the end, next to the one at the start. */
		if ((load = read_small_file("/proc/loadavg", NULL)) != NULL) {
			char	*sp = load;
			int	 f;

			for (f = 0; f < 3 && sp != NULL; f++)
				sp = strchr(sp + 1, ' ');
			if (sp != NULL)
				*sp = '\0';
			store_config_set(st, ctx.run_id, NULL, "load-avg-end",
			    load, NULL);
			free(load);
		}
		if (stop_flag) {
			status = RUN_INTERRUPTED;
			exitcode = 130;
		} else if (aborted)
			status = RUN_FAILED;
		else
			status = RUN_DONE;
		if (store_run_set_status(st, ctx.run_id, status, now_wall_ns(),
		    &cause) == -1) {
			error("%s", cause);
			free(cause);
			cause = NULL;
		}
		if (!opt->quiet && !opt->json_progress) {
			fprintf(stderr, "run %" PRId64 " (%s) %s: %zu samples, "
			    "%d failed; compare with: abbench stat --db %s "
			    "%" PRId64 "\n", ctx.run_id, e->name, status,
			    prog.done, failures, store_path(st), ctx.run_id);
			if (stop_flag)
				fprintf(stderr, "continue it with: abbench run "
				    "--resume %" PRId64 " --db %s\n",
				    ctx.run_id, store_path(st));
		}
	}
	if (exitcode == EXIT_OK && failures > 0)
		exitcode = EXIT_FAIL;
	if (ctx.hostset != NULL)
		hostset_free(ctx.hostset);
	strvec_clear(&paths);
	free(plan);
	free(done);
	free(arm_names);
	free(run.uuid);
	store_run_release(&old);
	experiment_free(e);
	store_close(st);
	return exitcode;

usage_error:
	free(cause);
	free(plan);
	free(done);
	free(arm_names);
	free(run.uuid);
	store_run_release(&old);
	if (e != NULL)
		experiment_free(e);
	store_close(st);
	return EXIT_USAGE;
}
