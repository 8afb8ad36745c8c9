/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the store keeps of a run, written by the runner: the units its
 * workload types report, the host's metadata and checks at the start, and
 * each sample the moment it is taken (with the benchmarks that failed
 * inside it and the config lines it learned).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "host/envcheck.h"
#include "host/hostinfo.h"
#include "harness/core/runner-int.h"

void
runner_store_units(struct store *st, int64_t run_id,
    const struct experiment *e)
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

void
runner_store_metadata(struct run_ctx *ctx, const struct experiment *e,
    struct strvec *paths, int quiet)
{
	struct strvec	 config = STRVEC_INIT, warnings = STRVEC_INIT;
	struct strvec	 report = STRVEC_INIT;
	char		*cause = NULL, *ver, *key, *path, sha[65];
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
		/* What was measured: two builds of one commit print one
		 * version; their paths and digests differ or not. */
		if (hostinfo_runtime_binary(a->runtime, &path, sha,
		    &cause) == 0) {
			key = xasprintf("runtime-path-%s", a->name);
			store_config_set(ctx->store, ctx->run_id, NULL, key,
			    path, NULL);
			free(key);
			key = xasprintf("runtime-sha256-%s", a->name);
			store_config_set(ctx->store, ctx->run_id, NULL, key,
			    sha, NULL);
			free(key);
			free(path);
		} else {
			warning("arm '%s': %s", a->name, cause);
			free(cause);
			cause = NULL;
		}
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

/*
 * A run resumed on another node than the one it ran on (a fleet's job
 * requeued after its node died, or resubmitted): metadata moved.N, "node
 * A -> B at round R (after S samples, job J)", and a warning with the
 * run's warnings, so that the report says which samples came from where.
 * The node is Slurm's name for it (SLURMD_NODENAME, the run's node key),
 * else the host's name.
 */
static void
runner_store_moved(struct run_ctx *ctx, const struct store_run *old,
    const char *was_node, size_t seq, int quiet)
{
	const char	*node = getenv("SLURMD_NODENAME");
	const char	*job = getenv("SLURM_JOB_ID");
	const char	*from, *to;
	struct utsname	 u;
	int64_t		 nsamples;
	int		 round;
	char		*cause = NULL, *key, *val, *msg;

	if (uname(&u) == -1)
		return;
	if (node != NULL && *node != '\0' && was_node != NULL &&
	    *was_node != '\0') {
		from = was_node;
		to = node;
	} else {
		from = old->host;
		to = u.nodename;
	}
	if (*from == '\0' || strcmp(from, to) == 0)
		return;
	if (store_run_next_round(ctx->store, ctx->run_id, &nsamples, &round,
	    &cause) == -1) {
		warning("%s", cause);
		free(cause);
		return;
	}
	key = xasprintf("moved.%zu", seq);
	val = xasprintf("node %s -> %s at round %d (after %" PRId64
	    " samples%s%s)", from, to, round + 1, nsamples,
	    job != NULL && *job != '\0' ? ", job " : "",
	    job != NULL && *job != '\0' ? job : "");
	if (store_config_set(ctx->store, ctx->run_id, NULL, key, val,
	    &cause) == -1) {
		warning("%s", cause);
		free(cause);
	}
	{
		char	of[32] = "";

		if (old->rounds > 0)
			snprintf(of, sizeof of, " of %d", old->rounds);
		msg = xasprintf("run %" PRId64 " moved from node %s to %s at "
		    "round %d%s: its %" PRId64 " samples before were measured "
		    "on %s, the rest on %s (metadata %s)", old->id, from, to,
		    round + 1, of, nsamples, from, to, key);
	}
	if (!quiet)
		warning("%s", msg);
	store_warning_add(ctx->store, ctx->run_id, msg, NULL);
	free(msg);
	free(val);
	free(key);
}

/*
 * A resumed run's samples come from more than one abbench process, and
 * maybe from more than one version of it, while the run's row names the
 * version that started it: each resume is recorded as the run metadata
 * resume.N (N from 1: the version, its commit when known, when), so the
 * samples stored after that time can be told apart, and a version other
 * than the starter's is warned about, on the terminal and with the run's
 * warnings (db show, the report).
 */
void
runner_store_resume(struct run_ctx *ctx, const struct store_run *old,
    const char *build, int quiet)
{
	struct store_kv	*kv;
	size_t		 n, i, nres = 0, nmoved = 0;
	char		*cause = NULL, *key, *val, when[32], *was_node = NULL;

	if (store_config_list(ctx->store, ctx->run_id, &kv, &n, &cause) == -1) {
		warning("%s", cause);
		free(cause);
		return;
	}
	for (i = 0; i < n; i++) {
		if (kv[i].arm[0] != '\0')
			continue;
		if (strncmp(kv[i].key, "resume.", 7) == 0)
			nres++;
		else if (strncmp(kv[i].key, "moved.", 6) == 0)
			nmoved++;
		else if (strcmp(kv[i].key, "node") == 0 && was_node == NULL)
			was_node = xstrdup(kv[i].value);
	}
	store_kv_free(kv, n);
	runner_store_moved(ctx, old, was_node, nmoved + 1, quiet);
	free(was_node);
	format_wall_time(now_wall_ns(), when, sizeof when);
	key = xasprintf("resume.%zu", nres + 1);
	val = build != NULL ? xasprintf("abbench %s (%s) at %s",
	    PACKAGE_VERSION, build, when) : xasprintf("abbench %s at %s",
	    PACKAGE_VERSION, when);
	if (store_config_set(ctx->store, ctx->run_id, NULL, key, val,
	    &cause) == -1) {
		warning("%s", cause);
		free(cause);
		cause = NULL;
	}
	free(val);
	if (strcmp(old->abbench_version, PACKAGE_VERSION) != 0) {
		val = xasprintf("run %" PRId64 " was started by abbench %s and "
		    "is resumed by abbench %s: its samples come from both "
		    "(metadata %s)", old->id, old->abbench_version[0] != '\0' ?
		    old->abbench_version : "of unknown version",
		    PACKAGE_VERSION, key);
		if (!quiet)
			warning("%s", val);
		store_warning_add(ctx->store, ctx->run_id, val, NULL);
		free(val);
	}
	free(key);
}

int
runner_store_result(struct run_ctx *ctx, const struct plan_entry *pe,
    const struct experiment *e, struct sample_result *res, int64_t t0,
    int64_t t1, int64_t w0, int64_t w1, char **cause)
{
	struct store_sample	 s;
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
	s.status = res->status;
	s.error = res->error;
	s.start_ns = res->start_ns ? res->start_ns : t0;
	s.end_ns = res->end_ns ? res->end_ns : t1;
	/* Wall times follow the monotonic window. */
	s.start_wall_ns = w0 + (s.start_ns - t0);
	s.end_wall_ns = w1 - (t1 - s.end_ns);
	/* The metrics are in the store's form already: handed over. */
	s.metrics = res->metrics;
	/* A sample the host changed under keeps its values, marked. */
	s.nmetrics = res->status == SAMPLE_STATUS_OK ||
	    res->status == SAMPLE_STATUS_HOST_CHANGED ? res->nmetrics : 0;
	if (res->failed.n == 0)
		r = store_sample_add(ctx->store, &s, cause);
	else if ((r = store_begin(ctx->store, cause)) == 0) {
		/* The sample and the benchmarks that failed inside it. */
		if (s.nmetrics > 0 || res->status != SAMPLE_STATUS_OK)
			r = store_sample_add_locked(ctx->store, &s, cause);
		for (i = 0; r == 0 && i < res->failed.n; i++) {
			struct store_sample	f = s;

			f.workload = res->failed.v[i];
			f.status = SAMPLE_STATUS_FAILED;
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
