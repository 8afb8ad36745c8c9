/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static table of workload types, the sample_result helpers every
 * type uses to report metrics or a failure, and what they share to run
 * programs through an executor.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/cgroup.h"
#include "exec/perfstat.h"
#include "host/hostinfo.h"
#include "lib/util.h"
#include "workloads/workload.h"

extern const struct workload_ops wl_command_ops;
extern const struct workload_ops wl_fio_ops;
extern const struct workload_ops wl_gobench_ops;
extern const struct workload_ops wl_cpu_steady_ops;
extern const struct workload_ops wl_startup_ops;
extern const struct workload_ops wl_idle_memory_ops;
extern const struct workload_ops wl_checkpoint_ops;
extern const struct workload_ops wl_app_ops;

const struct workload_ops *const workload_types[] = {
	&wl_command_ops,
	&wl_fio_ops,
	&wl_gobench_ops,
	&wl_cpu_steady_ops,
	&wl_startup_ops,
	&wl_idle_memory_ops,
	&wl_checkpoint_ops,
	&wl_app_ops,
	NULL
};

const struct workload_ops *
workload_lookup(const char *type)
{
	const struct workload_ops *const	*w;

	for (w = workload_types; *w != NULL; w++) {
		if (strcmp((*w)->type, type) == 0)
			return *w;
	}
	return NULL;
}

int
bench_gomaxprocs(void)
{
	static int	n;

	/*
	 * The CPUs the run may use: the host's `vcpus` config line too.
	 * Asked once (a system call per value otherwise).
	 */
	if (n == 0)
		n = (int)hostinfo_vcpus();
	return n;
}

/* Does an element of the name (between slashes) start with "vcpus="? */
static int
names_vcpus(const char *name)
{
	const char	*p = name;

	for (;;) {
		if (strncmp(p, "vcpus=", 6) == 0)
			return 1;
		if ((p = strchr(p, '/')) == NULL)
			return 0;
		p++;
	}
}

char *
bench_name_final(const char *name)
{
	/* "-GOMAXPROCS", made once: no printf a value. */
	static char	 suf[24];
	size_t		 n, k;
	char		*out;

	if (names_vcpus(name))
		return xstrdup(name);
	if (suf[0] == '\0')
		snprintf(suf, sizeof suf, "-%d", bench_gomaxprocs());
	n = strlen(name);
	k = strlen(suf);
	out = xmalloc(n + k + 1);
	memcpy(out, name, n);
	memcpy(out + n, suf, k + 1);
	return out;
}

/* A metric whose benchmark's name is the caller's to give (malloc'd). */
static void
sample_result_take(struct sample_result *r, char *benchmark,
    const char *unit, double value)
{
	struct store_metric	*m;

	XGROW(r->metrics, r->nmetrics, r->cap);
	m = &r->metrics[r->nmetrics++];
	m->benchmark = benchmark;
	m->unit = xstrdup(unit);
	m->value = value;
}

void
sample_result_add_raw(struct sample_result *r, const char *benchmark,
    const char *unit, double value)
{
	sample_result_take(r, xstrdup(benchmark), unit, value);
}

void
sample_result_add(struct sample_result *r, const char *benchmark,
    const char *unit, double value)
{
	sample_result_take(r, bench_name_final(benchmark), unit, value);
}

void
sample_result_fail(struct sample_result *r, enum sample_status st,
    const char *fmt, ...)
{
	va_list	ap;

	r->status = st;
	free(r->error);
	va_start(ap, fmt);
	r->error = xvasprintf(fmt, ap);
	va_end(ap);
}

void
sample_result_fail_benchmark(struct sample_result *r, const char *benchmark,
    const char *error)
{
	strvec_push(&r->failed, benchmark);
	strvec_push(&r->failed_error, error != NULL ? error : "failed");
}

void
sample_result_release(struct sample_result *r)
{
	size_t	i;

	for (i = 0; i < r->nmetrics; i++) {
		free((char *)r->metrics[i].benchmark);
		free((char *)r->metrics[i].unit);
	}
	free(r->metrics);
	free(r->error);
	strvec_clear(&r->config);
	strvec_clear(&r->failed);
	strvec_clear(&r->failed_error);
	memset(r, 0, sizeof *r);
}

void
workload_spec_init(struct exec_spec *spec, const struct workload *wl,
    const struct arm *arm, char *const *argv)
{
	memset(spec, 0, sizeof *spec);
	spec->argv = argv;
	spec->env = arm->env.v;
	spec->name = wl->name;
	spec->runtime = arm->runtime;
	spec->runtime_args = arm->runtime_args.v;
	spec->image = wl->common.image;
	spec->cpus = arm->cpus;
	spec->memory = arm->memory;
	spec->platform = workload_platform(wl, arm);
	spec->sandbox_log = workload_sandbox_log(wl);
}

const char *
workload_platform(const struct workload *wl, const struct arm *arm)
{
	if (arm != NULL && arm->platform_name != NULL)
		return arm->platform_name;
	return wl->common.platform_name;
}

int
workload_sandbox_log(const struct workload *wl)
{
	switch (wl->common.sandbox_log) {
	case SANDBOX_LOG_DEBUG:
		return 2;
	case SANDBOX_LOG_OFF:
		return 0;
	default:
		return 1;
	}
}

int
workload_platform_check(const struct experiment *e,
    const struct workload *wl, char **cause)
{
	const char	*pf, *rt, *base;
	size_t		 i;

	for (i = 0; i < e->narms; i++) {
		if ((pf = workload_platform(wl, &e->arms[i])) == NULL)
			continue;
		if (wl->exec == NULL || !(wl->exec->caps & EXEC_CONTAINER))
			return set_cause(cause, "platform: '%s' is runsc's; "
			    "workload '%s' runs host processes (executor "
			    "%s)", pf, wl->name, wl->exec != NULL ?
			    wl->exec->name : "none");
		if (!(wl->exec->caps & EXEC_RUNTIME_STEPS))
			return set_cause(cause, "platform: executor '%s' "
			    "cannot pass runtime flags per container: "
			    "register a docker runtime per platform "
			    "(runsc install --runtime=runsc-%s -- "
			    "--platform=%s) and name it in the arm's "
			    "runtime, or use executor = %s", wl->exec->name,
			    pf, pf, EXEC_DEFAULT_STEPS);
		rt = e->arms[i].runtime != NULL ? e->arms[i].runtime : "runc";
		base = strrchr(rt, '/');
		if (!str_startswith(base != NULL ? base + 1 : rt, "runsc"))
			return set_cause(cause, "platform: arm '%s' runs "
			    "'%s', not runsc: --platform=%s is runsc's",
			    e->arms[i].name, rt, pf);
	}
	return 0;
}

int
workload_run_program(struct run_ctx *ctx, struct workload *wl,
    const struct exec_spec *spec, struct exec_proc **proc,
    struct exec_status *st, struct sample_result *out)
{
	char	*cause = NULL;

	memset(st, 0, sizeof *st);
	if (wl->exec->start(ctx, spec, proc, &cause) == -1 ||
	    wl->exec->wait(ctx, *proc, ctx->deadline_ns, st, &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
		return -1;
	}
	out->start_ns = st->start_ns;
	out->end_ns = st->end_ns;
	return 0;
}

/* An executable regular file (access() alone passes directories). */
static int
runnable(const char *path)
{
	struct stat	st;

	if (access(path, X_OK) == -1)
		return -1;
	if (stat(path, &st) == -1)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

/*
 * Can perf count wl's programs under every arm? Host processes, or runsc
 * sandboxes the oci executor starts where runsc leaves them in the cgroup
 * perf counts (the cgroup2 one, on a host whose controllers are v1).
 */
static int
perf_reaches(const struct experiment *e, const struct workload *wl,
    char **cause)
{
	const char	*rt, *base;
	size_t		 i;

	if (wl->exec == NULL || !(wl->exec->caps & EXEC_CONTAINER))
		return 0;
	if (!(wl->exec->caps & EXEC_RUNTIME_STEPS))
		return set_cause(cause, "perf: executor '%s' starts its "
		    "containers from a daemon, outside any cgroup abbench "
		    "can count (use executor %s, or %s with runsc)",
		    wl->exec->name, EXEC_DEFAULT_HOST, EXEC_DEFAULT_STEPS);
	if (!perf_counts_sandboxes())
		return set_cause(cause, "perf: on this host runsc moves its "
		    "sandbox into the container's cgroup in the hierarchy "
		    "perf counts: containers cannot be counted here (use "
		    "executor local)");
	for (i = 0; e != NULL && i < e->narms; i++) {
		rt = e->arms[i].runtime != NULL ? e->arms[i].runtime : "runc";
		base = strrchr(rt, '/');
		if (!str_startswith(base != NULL ? base + 1 : rt, "runsc"))
			return set_cause(cause, "perf: arm '%s' runs '%s': "
			    "in containers only runsc's sandbox can be "
			    "counted (runc moves the container out of the "
			    "counted cgroup)", e->arms[i].name, rt);
	}
	return 0;
}

int
workload_check_program(const struct experiment *e, const struct workload *wl,
    const struct arm *arm, const char *argv0, const char *cwd, char **cause)
{
	const char	*path, *p, *end;
	char		*full = NULL, *why;
	int		 line, found = 0, err = ENOENT;

	if (argv0 == NULL || strchr(argv0, '{') != NULL ||
	    (wl->exec != NULL && (wl->exec->caps & EXEC_CONTAINER)))
		return 0;
	if (strchr(argv0, '/') != NULL) {
		full = argv0[0] != '/' && cwd != NULL ?
		    xasprintf("%s/%s", cwd, argv0) : xstrdup(argv0);
		if (runnable(full) == 0)
			found = 1;
		else
			err = errno;
	} else {
		path = getenv("PATH");
		if (path == NULL || *path == '\0')
			path = "/usr/local/bin:/usr/bin:/bin";
		for (p = path; !found && p != NULL; p = end != NULL ?
		    end + 1 : NULL) {
			end = strchr(p, ':');
			free(full);
			full = xasprintf("%.*s/%s", end != NULL ?
			    (int)(end - p) : (int)strlen(p), p, argv0);
			if (runnable(full) == 0)
				found = 1;
			else if (errno == EACCES)
				err = EACCES;
		}
	}
	free(full);
	if (found)
		return 0;
	line = kv_line(arm->kv, arm->nkv, "args");
	if (line == 0)
		line = kv_line(wl->kv, wl->nkv, "args");
	if (line == 0)
		line = wl->line;
	why = err == ENOENT ? xstrdup(strchr(argv0, '/') != NULL ?
	    "no such file" : "not found on $PATH") :
	    xasprintf("cannot run it: %s", strerror(err));
	set_cause(cause, "%s:%d: args: arm '%s': '%s': %s", e->path, line,
	    arm->name, argv0, why);
	free(why);
	return -1;
}

int
workload_check_programs(const struct experiment *e,
    const struct workload *wl, size_t args_off, size_t cwd_off,
    char **cause)
{
	const char		*o;
	const struct strvec	*args;
	size_t			 j;

	for (j = 0; j < e->narms; j++) {
		o = wl_opts(wl, &e->arms[j]);
		args = (const struct strvec *)(const void *)(o + args_off);
		if (args->n > 0 && workload_check_program(e, wl, &e->arms[j],
		    args->v[0], cwd_off == WL_NO_CWD ? NULL :
		    *(char *const *)(const void *)(o + cwd_off), cause) == -1)
			return -1;
	}
	return 0;
}

/*
 * perf counts a program in a cgroup of its own that the program joins
 * besides the sample's (exec_spec.join_procs). On cgroup v2 a process is
 * in one cgroup only: joining perf's takes it out of the sample's, where
 * an arm's cpu or memory limit holds it. Refused there, naming the limit.
 */
static int
perf_limits_v2(const struct experiment *e, const struct workload *wl,
    char **cause)
{
	size_t	i, k;

	if (e == NULL || cgrp_version() != 2 ||
	    (wl->exec != NULL && (wl->exec->caps & EXEC_CONTAINER)))
		return 0;
	for (i = 0; i < e->narms; i++) {
		const struct arm	*a = &e->arms[i];

		for (k = 0; k < a->nkv; k++) {
			if (!((strcmp(a->kv[k].key, "cpu") == 0 &&
			    a->cpus > 0) || (strcmp(a->kv[k].key, "memory") ==
			    0 && a->memory != 0)))
				continue;
			return set_cause(cause, "perf: on cgroup v2 a process "
			    "is in one cgroup only: the one perf counts would "
			    "take the program out of its sample's, where "
			    "%s:%d: %s (arm '%s') limits it: drop perf or the "
			    "limit", e->path, a->kv[k].line, a->kv[k].key,
			    a->name);
		}
	}
	return 0;
}

int
workload_perf_validate(const struct experiment *e, const struct workload *wl,
    const char *perf, char **cause)
{
	struct strvec	 events = STRVEC_INIT;
	char		*why = NULL;
	int		 rc = 0;

	if (perf == NULL)
		return 0;
	if (perf_events_parse(perf, &events, &why) == -1)
		rc = set_cause(cause, "perf: %s", why);
	else if (perf_reaches(e, wl, cause) == -1)
		rc = -1;
	else if (perf_limits_v2(e, wl, cause) == -1)
		rc = -1;
	else if (perf_events_check(&events, &why) == -1)
		rc = set_cause(cause, "perf: %s", why);
	free(why);
	strvec_clear(&events);
	return rc;
}

int
workload_run_counted(struct run_ctx *ctx, struct workload *wl,
    struct exec_spec *spec, const char *perf, struct wl_counts *counts,
    struct exec_proc **proc, struct exec_status *st,
    struct sample_result *out)
{
	struct perf_stat	*ps;
	const char		*procs;
	char			*cause = NULL;
	int			 rc;

	memset(counts, 0, sizeof *counts);
	if (perf == NULL)
		return workload_run_program(ctx, wl, spec, proc, st, out);
	if (perf_events_parse(perf, &counts->events, &cause) == -1 ||
	    (ps = perf_stat_start(ctx, &counts->events, 1, &procs,
	    &cause)) == NULL) {
		memset(st, 0, sizeof *st);
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: %s",
		    cause);
		free(cause);
		return -1;
	}
	spec->join_procs = procs;
	rc = workload_run_program(ctx, wl, spec, proc, st, out);
	spec->join_procs = NULL;
	counts->values = xcalloc(counts->events.n, sizeof *counts->values);
	if (perf_stat_stop(ps, counts->values, &cause) == 0)
		counts->counted = 1;
	else if (rc == 0) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: %s",
		    cause);
		rc = -1;
	}
	free(cause);
	perf_stat_free(ps);
	return rc;
}

void
workload_counts_add(struct sample_result *out, const char *benchmark,
    const struct wl_counts *counts)
{
	char	*unit;
	size_t	 i;

	if (!counts->counted)
		return;
	for (i = 0; i < counts->events.n; i++) {
		unit = perf_event_unit(counts->events.v[i]);
		sample_result_add(out, benchmark, unit, counts->values[i]);
		free(unit);
	}
}

void
workload_counts_release(struct wl_counts *counts)
{
	strvec_clear(&counts->events);
	free(counts->values);
	memset(counts, 0, sizeof *counts);
}

int
workload_exec_check(struct run_ctx *ctx, const struct experiment *e,
    const struct workload *wl, char **cause)
{
	struct exec_check	 chk;
	const char		**names, **runtimes, **platforms;
	char			**platform_at, *executor_at;
	size_t			 i;
	int			 rc, eline;

	if (wl->exec == NULL || wl->exec->check == NULL)
		return 0;
	names = xcalloc(e->narms + 1, sizeof *names);
	runtimes = xcalloc(e->narms + 1, sizeof *runtimes);
	for (i = 0; i < e->narms; i++) {
		names[i] = e->arms[i].name;
		runtimes[i] = e->arms[i].runtime;
	}
	chk.arms = names;
	chk.runtimes = runtimes;
	chk.narms = e->narms;
	chk.image = wl->common.image;
	chk.cgroup_optional = wl->ops->cgroup_optional;
	chk.cgroup_need[0] = '\0';
	chk.cpu_need[0] = chk.memory_need[0] = chk.io_need[0] = '\0';
	for (i = 0; i < e->narms; i++) {
		const struct arm	*a = &e->arms[i];
		size_t			 k;

		for (k = 0; k < a->nkv; k++) {
			char	*need = NULL;

			if (strcmp(a->kv[k].key, "cpu") == 0 && a->cpus > 0)
				need = chk.cpu_need;
			else if (strcmp(a->kv[k].key, "memory") == 0 &&
			    a->memory != 0)
				need = chk.memory_need;
			if (need != NULL && need[0] == '\0')
				snprintf(need, sizeof chk.cpu_need,
				    "%s:%d: %s", e->path, a->kv[k].line,
				    a->kv[k].key);
		}
	}
	for (i = 0; i < e->narms && chk.cgroup_optional; i++) {
		const struct arm	*a = &e->arms[i];
		const char		*key = a->cpus > 0 ? "cpu" : "memory";
		size_t			 k;
		int			 line = a->line;

		if (a->cpus <= 0 && a->memory == 0)
			continue;
		for (k = 0; k < a->nkv; k++)
			if (strcmp(a->kv[k].key, key) == 0)
				line = a->kv[k].line;
		snprintf(chk.cgroup_need, sizeof chk.cgroup_need,
		    "%s:%d: %s", e->path, line, key);
		chk.cgroup_optional = 0;
	}
	if (wl->ops->cgroup_needs != NULL)
		wl->ops->cgroup_needs(e, wl, &chk);
	/* The arm's platform wins over the workload's (workload_platform). */
	platforms = xcalloc(e->narms + 1, sizeof *platforms);
	platform_at = xcalloc(e->narms + 1, sizeof *platform_at);
	for (i = 0; i < e->narms; i++) {
		const struct arm	*a = &e->arms[i];
		int			 line;

		if ((platforms[i] = workload_platform(wl, a)) == NULL)
			continue;
		line = a->platform_name != NULL ?
		    kv_line(a->kv, a->nkv, "platform") :
		    kv_line(wl->kv, wl->nkv, "platform");
		platform_at[i] = line > 0 ? xasprintf("%s:%d: platform",
		    e->path, line) : xasprintf("%s: platform", e->path);
	}
	chk.platforms = platforms;
	chk.platform_at = (const char *const *)platform_at;
	eline = kv_line(wl->kv, wl->nkv, "executor");
	executor_at = eline > 0 ? xasprintf("%s:%d: executor", e->path,
	    eline) : NULL;
	chk.executor_at = executor_at;
	rc = wl->exec->check(ctx, &chk, cause);
	free(executor_at);
	for (i = 0; i < e->narms; i++)
		free(platform_at[i]);
	free(platform_at);
	free(platforms);
	free(names);
	free(runtimes);
	return rc;
}

/* The nearest existing ancestor of dir (dir itself if it exists). */
static char *
wl_existing_parent(const char *dir)
{
	char		*at = xstrdup(dir), *slash;
	struct stat	 sb;

	while (stat(at, &sb) == -1 && (errno == ENOENT || errno == ENOTDIR)) {
		if ((slash = strrchr(at, '/')) == NULL || slash == at) {
			free(at);
			return xstrdup(*dir == '/' ? "/" : ".");
		}
		*slash = '\0';
	}
	return at;
}

int
workload_dir_check(const char *dir, char **cause)
{
	char		*at;
	struct stat	 sb;
	int		 rc = 0;

	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode))
			return set_cause(cause, "'%s' is not a directory",
			    dir);
		return 0;
	}
	if (errno != ENOENT && errno != ENOTDIR)
		return set_cause(cause, "cannot use '%s': %s", dir,
		    strerror(errno));
	at = wl_existing_parent(dir);
	if (stat(at, &sb) == -1)
		rc = set_cause(cause, "cannot create '%s': %s: %s", dir, at,
		    strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		rc = set_cause(cause, "cannot create '%s': '%s' is not a "
		    "directory", dir, at);
	else if (access(at, W_OK | X_OK) == -1)
		rc = set_cause(cause, "cannot create '%s': '%s': %s", dir, at,
		    strerror(errno));
	free(at);
	return rc;
}

int
workload_make_dir(struct run_ctx *ctx, const char *dir, struct strvec *made,
    int64_t **jids, char **cause)
{
	struct strvec	 missing = STRVEC_INIT;
	char		*at = xstrdup(dir), *slash;
	struct stat	 sb;
	size_t		 i;
	int		 rc = 0;

	/* The levels to make, outermost last. */
	while (stat(at, &sb) == -1 && errno == ENOENT) {
		strvec_push(&missing, at);
		if ((slash = strrchr(at, '/')) == NULL || slash == at)
			break;
		*slash = '\0';
	}
	free(at);
	for (i = missing.n; rc == 0 && i > 0; i--) {
		const char	*d = missing.v[i - 1];

		/* Journaled first: a kill -9 in between is undone too. */
		*jids = xreallocarray(*jids, made->n + 1, sizeof **jids);
		(*jids)[made->n] = run_journal_object(ctx, "mkdir", d);
		if (mkdir(d, 0755) == -1 && errno != EEXIST) {
			rc = set_cause(cause, "cannot create '%s': %s", d,
			    strerror(errno));
			run_forget_object(ctx, (*jids)[made->n]);
			break;
		}
		strvec_push(made, d);
	}
	strvec_clear(&missing);
	return rc;
}

void
workload_remove_dirs(struct run_ctx *ctx, struct strvec *made, int64_t *jids)
{
	size_t	i;

	for (i = made->n; i > 0; i--)
		if (rmdir(made->v[i - 1]) == 0 || errno == ENOENT)
			run_forget_object(ctx, jids[i - 1]);
	strvec_clear(made);
}
