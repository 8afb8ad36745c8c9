/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU quota setups (see quota.h): parents made with the cgroup module,
 * limits written through it, throttling read where the limit is.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/quota.h"
#include "exec/context.h"

static const char *const quota_names[] = {
	[QUOTA_NONE] = "none",
	[QUOTA_LEAF] = "leaf",
	[QUOTA_PARENT] = "parent",
};

/* Pitfall 7: cpu and cpuacct may be separate v1 hierarchies. */
static const char *const parent_controllers[] = { "cpu", "cpuacct", NULL };

int
quota_mode_parse(const char *s, enum quota_mode *m, char **cause)
{
	size_t	i;

	for (i = 0; i < sizeof quota_names / sizeof quota_names[0]; i++) {
		if (strcmp(s, quota_names[i]) == 0) {
			*m = (enum quota_mode)i;
			return 0;
		}
	}
	return set_cause(cause, "unknown quota '%s' (use none, leaf, parent)",
	    s);
}

int
quota_check_executor(enum quota_mode m, const struct exec_ops *ex,
    char **cause)
{
	const struct exec_ops *const	*e;
	struct strbuf			 can = STRBUF_INIT;
	int				 r;

	if (m != QUOTA_PARENT || ex == NULL || (ex->caps & EXEC_CGROUP_PARENT))
		return 0;
	for (e = exec_types; *e != NULL; e++) {
		if ((*e)->caps & EXEC_CGROUP_PARENT)
			strbuf_addf(&can, "%s%s", can.len ? ", " : "",
			    (*e)->name);
	}
	r = set_cause(cause, "quota: 'parent' needs an executor that creates "
	    "the sandbox inside a cgroup parent; executor '%s' cannot (use "
	    "quota = leaf, or executor = %s)", ex->name,
	    can.len ? can.buf : "none");
	strbuf_release(&can);
	return r;
}

int
quota_setup(struct run_ctx *ctx, struct quota *q, enum quota_mode mode,
    double cpus, int64_t period_us, size_t n, const char *tag, char **cause)
{
	size_t	i;
	char	*rel;

	memset(q, 0, sizeof *q);
	q->mode = mode;
	q->cpus = cpus;
	q->period_us = period_us > 0 ? period_us : CGRP_CFS_PERIOD_US;
	q->version = cgrp_version();
	q->n = n;
	if (mode != QUOTA_PARENT)
		return 0;
	if (cpus <= 0)
		return set_cause(cause, "quota 'parent' needs a cpu limit");
	q->parents = xcalloc(n, sizeof *q->parents);
	q->parent_names = xcalloc(n, sizeof *q->parent_names);
	q->journal = xcalloc(n, sizeof *q->journal);
	for (i = 0; i < n; i++) {
		q->journal[i] = -1;
		q->parent_names[i] = xasprintf("%s-p%zu", tag, i);
		rel = xasprintf("%s/%s", ctx->cgroup_name,
		    q->parent_names[i]);
		if (ctx->store != NULL)
			q->journal[i] = run_journal_object(ctx, "cgroup", rel);
		q->parents[i] = cgrp_create(rel, parent_controllers, cause);
		free(rel);
		if (q->parents[i] == NULL)
			goto fail;
		if (cgrp_set_cpu_limit(q->parents[i], cpus, q->period_us,
		    cause) == -1)
			goto fail;
	}
	return 0;

fail:
	quota_release(ctx, q, NULL);
	return -1;
}

void
quota_apply_spec(const struct quota *q, size_t i, struct exec_spec *spec)
{
	spec->cpus = 0;
	spec->cgroup_parent = NULL;
	if (q->mode == QUOTA_LEAF && q->cpus > 0)
		spec->cpus = q->cpus;
	else if (q->mode == QUOTA_PARENT && i < q->n &&
	    q->parent_names != NULL)
		spec->cgroup_parent = q->parent_names[i];
}

int
quota_fix_leaf(const struct quota *q, const char *cpu_dir, char **cause)
{
	char	*path, buf[64];
	long long quota;
	int	 r;

	if (q->mode != QUOTA_LEAF || q->cpus <= 0 ||
	    q->period_us == CGRP_CFS_PERIOD_US)
		return 0;
	if (cpu_dir == NULL)
		return set_cause(cause, "no cpu cgroup for the sandbox");
	quota = (long long)(q->cpus * (double)q->period_us + 0.5);
	if (q->version == 2) {
		path = xasprintf("%s/cpu.max", cpu_dir);
		snprintf(buf, sizeof buf, "%lld %" PRId64, quota,
		    q->period_us);
		r = write_small_file(path, buf, cause);
		free(path);
		return r;
	}
	path = xasprintf("%s/cpu.cfs_period_us", cpu_dir);
	snprintf(buf, sizeof buf, "%" PRId64, q->period_us);
	r = write_small_file(path, buf, cause);
	free(path);
	if (r == -1)
		return -1;
	path = xasprintf("%s/cpu.cfs_quota_us", cpu_dir);
	snprintf(buf, sizeof buf, "%lld", quota);
	r = write_small_file(path, buf, cause);
	free(path);
	return r;
}

char *
quota_throttle_dir(const struct quota *q, size_t i, const char *own_cpu_dir)
{
	const char	*d;

	if (q->mode == QUOTA_PARENT) {
		if (q->parents == NULL || i >= q->n || q->parents[i] == NULL)
			return NULL;
		d = cgrp_dir(q->parents[i], "cpu");
		return d != NULL ? xstrdup(d) : NULL;
	}
	return own_cpu_dir != NULL ? xstrdup(own_cpu_dir) : NULL;
}

int
quota_release(struct run_ctx *ctx, struct quota *q, char **cause)
{
	size_t	i;
	int	r = 0;
	char	*c = NULL;

	for (i = 0; q->parents != NULL && i < q->n; i++) {
		int	ok = 1;

		if (q->parents[i] != NULL) {
			/* Where we made it, and where docker made it too, in
			 * every hierarchy (pitfall 8). */
			if (cgrp_remove_everywhere(q->parents[i]->rel, NULL,
			    &c) == -1) {
				ok = 0;
				if (r == 0 && cause != NULL)
					*cause = c;
				else
					free(c);
				c = NULL;
				r = -1;
			}
			cgrp_free(q->parents[i]);
			q->parents[i] = NULL;
		}
		if (ok && q->journal[i] > 0 && ctx != NULL &&
		    ctx->store != NULL)
			run_forget_object(ctx, q->journal[i]);
		free(q->parent_names[i]);
	}
	free(q->parents);
	free(q->parent_names);
	free(q->journal);
	q->parents = NULL;
	q->parent_names = NULL;
	q->journal = NULL;
	q->n = 0;
	return r;
}
