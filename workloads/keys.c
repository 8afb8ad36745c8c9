/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload keys: the table every workload type shares, and the binding of
 * a workload's keys into its type's options struct (one per arm: the
 * table's default, then the workload's value, then the arm's for OPT_ARM
 * keys), which samples read with wl_opts().
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include "lib/options.h"
#include "exec/exec.h"
#include "lib/util.h"
#include "workloads/workload.h"

#define COMMON(member)	OPT_AT(struct workload_common, member)

const struct opt_spec workload_common_opts[] = {
	OPT_STR("type", COMMON(type), NULL,
	    "the workload type (command, fio, ...)",
	    .flags = OPT_NOMATRIX | OPT_REQUIRED),
	/* The words are the executor registry's (exec/exec.c). */
	OPT_CHOICE("executor", COMMON(executor), NULL, NULL,
	    "where the workload runs (default: the type's)",
	    .flags = OPT_NOMATRIX, .given = COMMON(executor_set),
	    .choices_fn = exec_names),
	OPT_DURATION("timeout", COMMON(timeout_ns), NULL, 0.001, 1e7,
	    "time limit of one sample (default: the experiment's)",
	    .flags = OPT_NOMATRIX, .given = COMMON(timeout_set)),
	OPT_BOOL("drop-caches", COMMON(drop_caches), NULL,
	    "drop the page cache before every sample (default: the "
	    "experiment's)",
	    .flags = OPT_NOMATRIX, .given = COMMON(drop_caches_set)),
	OPT_STR("dir", COMMON(dir), NULL,
	    "directory the workload works in; host.block.* settings apply to "
	    "its disks"),
	OPT_STR("image", COMMON(image), NULL,
	    "docker image (abbench/tools, abbench/NAME[:TAG]); for executor "
	    "oci the same name (its rootfs from scripts/build-image) or a "
	    "rootfs directory"),
	OPT_TEXT("description", COMMON(description), NULL,
	    "free text, stored with the run"),
	OPT_CHOICE("platform", COMMON(platform), NULL, "ptrace kvm systrap",
	    "runsc --platform of the sandboxes, a matrix like any key "
	    "(platform = ptrace kvm); executor oci with a runsc runtime: "
	    "docker cannot pass a runtime flag per container (register one "
	    "runtime per platform there)", .text = COMMON(platform_name)),
	OPT_CHOICE("sandbox-log", COMMON(sandbox_log), "info",
	    "info debug off",
	    "runsc's own logs (--debug-log, with debug also --debug, which "
	    "slows the sandbox) into the run's directory; the end of the "
	    "sandbox's log is stored with a failed sample (executor oci)",
	    .flags = OPT_NOMATRIX),
	OPT_END
};

const char *
arm_get(const struct arm *arm, const char *key)
{
	size_t	i;

	if (arm == NULL)
		return NULL;
	for (i = 0; i < arm->nkv; i++) {
		if (strcmp(arm->kv[i].key, key) == 0)
			return arm->kv[i].value;
	}
	return NULL;
}

void
workload_need(char *need, size_t size, const struct experiment *e,
    const struct workload *wl, const struct arm *arm, const char *key)
{
	int	line = wl->line;
	size_t	i;

	if (need[0] != '\0')
		return;
	for (i = 0; i < wl->nkv; i++) {
		if (strcmp(wl->kv[i].key, key) == 0)
			line = wl->kv[i].line;
	}
	for (i = 0; arm != NULL && i < arm->nkv; i++) {
		if (strcmp(arm->kv[i].key, key) == 0)
			line = arm->kv[i].line;
	}
	snprintf(need, size, "%s:%d: %s", e->path, line, key);
}

const char *
workload_get(const struct workload *wl, const struct arm *arm,
    const char *key)
{
	const struct opt_spec	*o;
	const char		*v;
	size_t			 i;

	o = opt_find(workload_common_opts, key);
	if (o == NULL && wl->ops != NULL)
		o = opt_find(wl->ops->opts, key);
	if (o != NULL && (o->flags & OPT_ARM) &&
	    (v = arm_get(arm, key)) != NULL)
		return v;
	for (i = 0; i < wl->nkv; i++) {
		if (strcmp(wl->kv[i].key, key) == 0)
			return wl->kv[i].value;
	}
	if (strcmp(key, "executor") == 0 && wl->ops != NULL)
		return wl->ops->default_exec;
	return o != NULL ? o->def : NULL;
}

const void *
wl_opts(const struct workload *wl, const struct arm *arm)
{
	size_t	i = arm != NULL ? arm->index + 1 : 0;

	if (wl->opts == NULL)
		BUG("workload '%s' has no bound options", wl->name);
	if (i >= wl->nopts)
		BUG("arm '%s' is not one of workload '%s'", arm->name,
		    wl->name);
	return wl->opts[i];
}

/* Store kv into base by table opts when it binds the key. */
static int
bind_kv(const struct opt_spec *opts, void *base, const struct kv *kv,
    int arm_only, const struct kv **bad, char **cause)
{
	const struct opt_spec	*o = opt_find(opts, kv->key);

	if (o == NULL || !opt_bound(o) || (arm_only && !(o->flags & OPT_ARM)))
		return 0;
	if (opt_set(o, base, kv->value, cause) != 0) {
		*bad = kv;
		return -1;
	}
	/* Where the value came from: 2 says the arm. */
	if (arm_only)
		opt_mark_given(o, base, 2);
	return 0;
}

int
workload_bind(struct workload *wl, const struct arm *arms, size_t narms,
    const struct kv **bad, char **cause)
{
	const struct workload_ops	*ops = wl->ops;
	size_t				 i, k;
	void				*base;

	opt_set_defaults(workload_common_opts, &wl->common);
	for (k = 0; k < wl->nkv; k++) {
		if (bind_kv(workload_common_opts, &wl->common, &wl->kv[k], 0,
		    bad, cause) != 0)
			return -1;
	}
	if (ops == NULL || ops->opts_size == 0)
		return 0;
	wl->nopts = narms + 1;
	wl->opts = xcalloc(wl->nopts, sizeof *wl->opts);
	for (i = 0; i < wl->nopts; i++) {
		base = wl->opts[i] = xcalloc(1, ops->opts_size);
		opt_set_defaults(ops->opts, base);
		for (k = 0; k < wl->nkv; k++) {
			if (bind_kv(ops->opts, base, &wl->kv[k], 0, bad,
			    cause) != 0)
				return -1;
		}
		if (i == 0)
			continue;
		for (k = 0; k < arms[i - 1].nkv; k++) {
			if (bind_kv(ops->opts, base, &arms[i - 1].kv[k], 1,
			    bad, cause) != 0)
				return -1;
		}
	}
	return 0;
}

void
workload_unbind(struct workload *wl)
{
	size_t	i;

	opt_release(workload_common_opts, &wl->common);
	for (i = 0; i < wl->nopts; i++) {
		if (wl->opts[i] == NULL)
			continue;
		opt_release(wl->ops->opts, wl->opts[i]);
		free(wl->opts[i]);
	}
	free(wl->opts);
	wl->opts = NULL;
	wl->nopts = 0;
}
