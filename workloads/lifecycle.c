/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers the lifecycle workloads share: state, scratch directory,
 * container ids, benchmark names with tags, OCI container specs per arm.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "host/hostinfo.h"
#include "workloads/lifecycle.h"
#include "workloads/workload.h"

const struct lc_opts *
lc_opts(const struct workload *wl, const struct arm *arm)
{
	return wl_opts(wl, arm);
}

struct lc_state *
lc_state(struct workload *wl)
{
	if (wl->priv == NULL) {
		struct lc_state	*s = xcalloc(1, sizeof *s);

		s->workdir_journal = -1;
		wl->priv = s;
	}
	return wl->priv;
}

const char *
lc_workdir(struct run_ctx *ctx, struct workload *wl, char **cause)
{
	static unsigned	 seq;
	struct lc_state	*s = lc_state(wl);
	char		*dir;

	if (s->workdir != NULL)
		return s->workdir;
	dir = run_scratch_file(ctx, "lc", NULL);
	{
		char	*d = xasprintf("%s%u", dir, seq++);

		free(dir);
		dir = d;
	}
	if (ctx != NULL)
		s->workdir_journal = run_journal_object(ctx, "dir", dir);
	if (mkdir(dir, 0700) == -1) {
		set_cause(cause, "cannot make '%s': %s", dir,
		    strerror(errno));
		free(dir);
		return NULL;
	}
	s->workdir = dir;
	return dir;
}

int64_t
lc_call_ns(const struct run_ctx *ctx, int64_t cap)
{
	int64_t	left;

	if (ctx == NULL || ctx->deadline_ns <= 0)
		return cap;
	left = ctx->deadline_ns - now_mono_ns();
	if (left < 1000000)
		left = 1000000;
	return left < cap ? left : cap;
}

int
lc_past_deadline(const struct run_ctx *ctx)
{
	return ctx != NULL && ctx->deadline_ns > 0 &&
	    now_mono_ns() >= ctx->deadline_ns;
}

char *
lc_new_id(struct run_ctx *ctx, struct workload *wl, const char *tag)
{
	struct lc_state	*s = lc_state(wl);

	return xasprintf("%s-%s%u",
	    ctx != NULL && ctx->cgroup_name[0] ? ctx->cgroup_name :
	    "abbench", tag, s->counter++);
}

void
lc_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	struct lc_state	*s = wl->priv;
	char		*cause = NULL;

	if (s == NULL)
		return;
	if (s->workdir != NULL) {
		if (rmtree(s->workdir, &cause) == -1)
			warning("%s", cause);
		else if (ctx != NULL && s->workdir_journal > 0)
			run_forget_object(ctx, s->workdir_journal);
		free(cause);
		free(s->workdir);
	}
	free(s->state_dir);
	free(s);
	wl->priv = NULL;
}

char *
lc_name(const struct workload *wl, const struct arm *arm, const char *metric)
{
	const struct lc_opts	*o = lc_opts(wl, arm);
	struct strbuf		 sb = STRBUF_INIT;
	const char		*q = o->quota_text, *v;
	size_t			 i;

	strbuf_adds(&sb, metric);
	for (i = 0; i < o->name_tags.n; i++) {
		const char	*t = o->name_tags.v[i];

		if (strcmp(t, "vcpus") == 0)
			strbuf_addf(&sb, "/vcpus=%ld", hostinfo_vcpus());
		else if (strcmp(t, "quota") == 0) {
			if (q == NULL || strcmp(q, "none") == 0)
				strbuf_adds(&sb, "/noquota");
			else
				strbuf_addf(&sb, "/quota=%s", q);
		} else {
			/* The value as written; other words tag nothing. */
			v = strcmp(t, "containers") == 0 ?
			    o->containers_text : strcmp(t, "touch") == 0 ?
			    o->touch_text : NULL;
			if (v != NULL)
				strbuf_addf(&sb, "/%s=%s", t, v);
		}
	}
	lc_add_axes(&sb, wl);
	return strbuf_detach(&sb);
}

void
lc_add_axes(struct strbuf *sb, const struct workload *wl)
{
	size_t	i;

	/* quota=none reads "noquota", as the seed reports name the row. */
	for (i = 0; i < wl->naxes; i++) {
		if (strcmp(wl->axes[i].key, "quota") == 0 &&
		    strcmp(wl->axes[i].value, "none") == 0)
			strbuf_adds(sb, "/noquota");
		else
			strbuf_addf(sb, "/%s=%s", wl->axes[i].key,
			    wl->axes[i].value);
	}
}

char *
lc_name_go(const struct workload *wl, const char *metric)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_adds(&sb, metric);
	lc_add_axes(&sb, wl);
	return strbuf_detach(&sb);
}

int
lc_steps_spec(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    char *const *argv, struct exec_spec *spec, char **cause)
{
	const char	*dir = lc_workdir(ctx, wl, cause);

	if (dir == NULL)
		return -1;
	memset(spec, 0, sizeof *spec);
	spec->argv = argv;
	spec->name = wl->name;
	/* NULL: the executor's own runtime. */
	spec->runtime = arm->runtime;
	spec->runtime_args = arm->runtime_args.v;
	/* The containers' state goes with the workdir (freed with the
	 * workload, after the executor has torn them down). */
	if (lc_state(wl)->state_dir == NULL)
		lc_state(wl)->state_dir = xasprintf("%s/state", dir);
	spec->state_dir = lc_state(wl)->state_dir;
	spec->image = lc_rootfs(wl, arm);
	spec->cpus = arm->cpus;
	spec->memory = arm->memory;
	spec->platform = workload_platform(wl, arm);
	spec->sandbox_log = workload_sandbox_log(wl);
	return 0;
}

const char *
lc_rootfs(const struct workload *wl, const struct arm *arm)
{
	(void)arm;
	/* The executor finds an image name's directory. */
	return wl->common.image;
}

void
lc_idle_cmd(const struct workload *wl, const struct arm *arm,
    struct strvec *cmd)
{
	const struct lc_opts	*o = lc_opts(wl, arm);

	if (o->cmd_set) {
		strvec_pushv(cmd, o->cmd.v);
		return;
	}
	strvec_push(cmd, "touchmem");
	strvec_pushf(cmd, "%llu", (unsigned long long)o->touch);
}

int
lc_sleep(struct run_ctx *ctx, int64_t ns)
{
	int64_t		end = now_mono_ns() + ns, now, step;
	struct timespec	ts;

	while ((now = now_mono_ns()) < end) {
		if (ctx != NULL && (run_should_stop(ctx) ||
		    (ctx->deadline_ns > 0 && now >= ctx->deadline_ns)))
			return -1;
		step = end - now;
		if (step > 100000000LL)
			step = 100000000LL;
		ts.tv_sec = (time_t)(step / NSEC_PER_SEC);
		ts.tv_nsec = (long)(step % NSEC_PER_SEC);
		nanosleep(&ts, NULL);
	}
	return 0;
}
