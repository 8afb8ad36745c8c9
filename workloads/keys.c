/*
 * Workload keys: the table every workload type shares, and the getters a
 * sample reads its values with (arm, then workload, then the default).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/options.h"
#include "lib/util.h"
#include "workloads/workload.h"

const struct opt_spec workload_common_opts[] = {
	{ "type", OPT_STR, OPT_REQUIRED | OPT_NOMATRIX, NULL, 0, 0, NULL,
	  "the workload type (command, fio, ...)" },
	{ "executor", OPT_CHOICE, OPT_NOMATRIX, NULL, 0, 0, "local docker oci",
	  "where the workload runs (default: the type's)" },
	{ "timeout", OPT_DURATION, OPT_NOMATRIX, NULL, 0.001, 1e7, NULL,
	  "time limit of one sample (default: the experiment's)" },
	{ "drop-caches", OPT_BOOL, OPT_NOMATRIX, NULL, 0, 0, NULL,
	  "drop the page cache before every sample (default: the "
	  "experiment's)" },
	{ "dir", OPT_STR, 0, NULL, 0, 0, NULL,
	  "directory the workload works in; host.block.* settings apply to "
	  "its disks" },
	{ "image", OPT_STR, 0, NULL, 0, 0, NULL,
	  "docker image or OCI rootfs directory" },
	{ "description", OPT_STR, OPT_LIST, NULL, 0, 0, NULL,
	  "free text, stored with the run" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL }
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

long long
workload_get_int(const struct workload *wl, const struct arm *arm,
    const char *key, long long def)
{
	const char	*v = workload_get(wl, arm, key);
	long long	 ll;

	if (v == NULL || parse_int(v, LLONG_MIN, LLONG_MAX, &ll, NULL) != 0)
		return def;
	return ll;
}

double
workload_get_float(const struct workload *wl, const struct arm *arm,
    const char *key, double def)
{
	const char	*v = workload_get(wl, arm, key);
	double		 d;

	if (v == NULL || parse_double(v, &d, NULL) != 0)
		return def;
	return d;
}

int64_t
workload_get_duration(const struct workload *wl, const struct arm *arm,
    const char *key, int64_t def)
{
	const char	*v = workload_get(wl, arm, key);
	int64_t		 ns;

	if (v == NULL || parse_duration(v, &ns, NULL) != 0)
		return def;
	return ns;
}

uint64_t
workload_get_size(const struct workload *wl, const struct arm *arm,
    const char *key, uint64_t def)
{
	const char	*v = workload_get(wl, arm, key);
	uint64_t	 bytes;

	if (v == NULL || parse_size(v, &bytes, NULL) != 0)
		return def;
	return bytes;
}

int
workload_get_bool(const struct workload *wl, const struct arm *arm,
    const char *key, int def)
{
	const char	*v = workload_get(wl, arm, key);
	int		 b;

	if (v == NULL || opt_parse_bool(v, &b) != 0)
		return def;
	return b;
}

int
workload_get_words(const struct workload *wl, const struct arm *arm,
    const char *key, struct strvec *out)
{
	const char	*v = workload_get(wl, arm, key);

	if (v == NULL)
		return 0;
	return strvec_split_words(out, v, NULL);
}

