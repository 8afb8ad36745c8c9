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
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/exec.h"
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
	cpu_set_t	set;
	long		n;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
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
	if (names_vcpus(name))
		return xstrdup(name);
	return xasprintf("%s-%d", name, bench_gomaxprocs());
}

void
sample_result_add_raw(struct sample_result *r, const char *benchmark,
    const char *unit, double value)
{
	struct metric	*m;

	XGROW(r->metrics, r->nmetrics, r->cap);
	m = &r->metrics[r->nmetrics++];
	m->benchmark = xstrdup(benchmark);
	m->unit = xstrdup(unit);
	m->value = value;
}

void
sample_result_add(struct sample_result *r, const char *benchmark,
    const char *unit, double value)
{
	char	*name = bench_name_final(benchmark);

	sample_result_add_raw(r, name, unit, value);
	free(name);
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
		free(r->metrics[i].benchmark);
		free(r->metrics[i].unit);
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

int
workload_exec_check(struct run_ctx *ctx, const struct experiment *e,
    const struct workload *wl, char **cause)
{
	struct exec_check	 chk;
	const char		**names, **runtimes;
	size_t			 i;
	int			 rc;

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
	rc = wl->exec->check(ctx, &chk, cause);
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
