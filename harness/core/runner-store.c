/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the store keeps of a run, written by the runner: the units its
 * workload types report, the host's metadata and checks at the start, and
 * each sample the moment it is taken, to the run's log first
 * (results/store-log.c), with the benchmarks that failed inside it and
 * the config lines it learned.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "exec/exec.h"
#include "exec/exec-oci.h"
#include "host/envcheck.h"
#include "host/hostinfo.h"
#include "harness/core/runner-int.h"
#include "stats/sampletab.h"

/* `PROGRAM --version` of a user's program: it may not know the flag. */
#define PROGRAM_VERSION_TIMEOUT	(5 * NSEC_PER_SEC)

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

/* STEM-WHO: value, a run-level config key. */
static void
store_key(struct run_ctx *ctx, const char *stem, const char *who,
    const char *value)
{
	char	*key = xasprintf("%s-%s", stem, who);

	store_config_set(ctx->store, ctx->run_id, NULL, key, value, NULL);
	free(key);
}

/*
 * A program's identity: STEM-WHO (as written), STEM-path-WHO (symlinks
 * resolved: what was measured; two builds of one commit print one
 * version, their paths and digests differ or not), STEM-sha256-WHO and
 * STEM-version-WHO when `--version` answers in time. A runtime is a
 * daemon's runtime name or an OCI runtime binary (hostinfo.h).
 */
static void
store_binary(struct run_ctx *ctx, const char *stem, const char *who,
    const char *name, int runtime, char **resolved)
{
	char	*cause = NULL, *path, *ver, *sub, sha[65];
	int	 r;

	store_key(ctx, stem, who, name);
	r = runtime ? hostinfo_runtime_binary(name, &path, sha, &cause) :
	    hostinfo_program_binary(name, &path, sha, &cause);
	if (r == 0) {
		sub = xasprintf("%s-path", stem);
		store_key(ctx, sub, who, path);
		free(sub);
		sub = xasprintf("%s-sha256", stem);
		store_key(ctx, sub, who, sha);
		free(sub);
		if (resolved != NULL)
			*resolved = path;
		else
			free(path);
	} else {
		warning("%s '%s': %s", runtime ? "arm" : "program", who,
		    cause);
		free(cause);
		cause = NULL;
	}
	/*
	 * A user's tool may not know --version: a short wait, no error. A
	 * user's script is not asked at all: it reads no --version, its body
	 * runs, with whatever it does (writes its files, counts its calls);
	 * its path and digest name it.
	 */
	if (!runtime && hostinfo_is_script(name))
		return;
	r = runtime ? hostinfo_runtime_version(name, &ver, &cause) :
	    hostinfo_program_version(name, PROGRAM_VERSION_TIMEOUT, &ver,
	    &cause);
	if (r == 0) {
		sub = xasprintf("%s-version", stem);
		store_key(ctx, sub, who, ver);
		free(sub);
		free(ver);
	} else
		free(cause);
}

/*
 * The programs of command and gobench workloads that run on the host (in
 * a container they are the image's), and the tool a wrapper among them
 * runs (sh -c 'runsc ...', timeout 5 /usr/local/bin/x): program-WHO and
 * tool-WHO, and its whole argv, args-WHO (what differs between two
 * arms running one program: `runsc do` and `runsc --overlay do`, so that
 * two runs of other commands split tables). WHO is the arm when its own `args` give the argv (the same in
 * every workload), else the workload, whose argv all arms share; a
 * workload named like an arm is WORKLOAD.workload.
 */
static void
store_programs(struct run_ctx *ctx, const struct experiment *e)
{
	struct strvec	 done = STRVEC_INIT;
	size_t		 w, i, j;

	for (w = 0; w < e->nworkloads; w++) {
		const struct workload	*wl = &e->workloads[w];

		if (wl->ops->program == NULL || wl->exec == NULL ||
		    (wl->exec->caps & EXEC_CONTAINER))
			continue;
		for (i = 0; i < e->narms; i++) {
			const struct arm	*a = &e->arms[i];
			struct strvec		 argv = STRVEC_INIT;
			char			*who, *tool;

			if (kv_line(a->kv, a->nkv, "args") != 0)
				who = xstrdup(a->name);
			else {
				for (j = 0; j < e->narms; j++)
					if (strcmp(e->arms[j].name,
					    wl->base) == 0)
						break;
				who = j < e->narms ? xasprintf("%s.workload",
				    wl->base) : xstrdup(wl->base);
			}
			if (strvec_has(&done, who)) {
				free(who);
				continue;
			}
			wl->ops->program(wl, a, &argv);
			if (argv.n > 0) {
				char	*line = experiment_argv_line(argv.v,
				    argv.n);

				store_key(ctx, "args", who, line);
				free(line);
				store_binary(ctx, "program", who, argv.v[0],
				    0, NULL);
				if ((tool = hostinfo_wrapped_tool(argv.v)) !=
				    NULL) {
					store_binary(ctx, "tool", who, tool, 0,
					    NULL);
					free(tool);
				}
			}
			strvec_clear(&argv);
			strvec_push_nodup(&done, who);
		}
	}
	strvec_clear(&done);
}

/*
 * A runsc arm's effective platform and where it comes from (hostinfo.h):
 * the arm's `platform`, else the workloads' (when they all set one), else
 * a --platform in its runtime args, in docker's runtimeArgs for its
 * runtime name, else runsc's default. Without it, `runsc` against
 * `platform = ptrace` on a ptrace-default runsc reads as two platforms.
 * NULL for an arm that runs no runsc (or whose runsc does not say).
 */
static char *
arm_platform(const struct experiment *e, const struct arm *a,
    const char *binary)
{
	const char	*wp = NULL, *p, *daemon = NULL;
	size_t		 w;
	int		 all = e->nworkloads > 0;

	if (a->runtime == NULL || binary == NULL ||
	    !oci_runtime_is_runsc(binary))
		return NULL;
	for (w = 0; w < e->nworkloads; w++) {
		const struct workload	*wl = &e->workloads[w];

		if ((p = wl->common.platform_name) == NULL ||
		    (wp != NULL && strcmp(wp, p) != 0))
			all = 0;
		wp = p;
		/* A docker runtime name: the daemon's runtimeArgs. */
		if (wl->exec != NULL && strcmp(wl->exec->name, "docker") == 0 &&
		    strchr(a->runtime, '/') == NULL)
			daemon = a->runtime;
	}
	if (a->platform_name != NULL)
		return hostinfo_runsc_platform(a->platform_name, "arm", NULL,
		    0, NULL, binary);
	if (all && wp != NULL)
		return hostinfo_runsc_platform(wp, "workload", NULL, 0, NULL,
		    binary);
	return hostinfo_runsc_platform(NULL, NULL, a->runtime_args.v,
	    a->runtime_args.n, daemon, binary);
}

/* Keys that say what an arm runs, compared by their effect. */
static int
runs_key(const char *key)
{
	return strcmp(key, "runtime") == 0 ||
	    strcmp(key, "runtime-args") == 0 ||
	    strcmp(key, "platform") == 0 || strcmp(key, "description") == 0;
}

/* Do a and b write the same keys (but those runs_key names) alike? */
static int
same_other_keys(const struct arm *a, const struct arm *b)
{
	size_t	i, j, na = 0, nb = 0;

	for (i = 0; i < a->nkv; i++) {
		if (runs_key(a->kv[i].key))
			continue;
		na++;
		for (j = 0; j < b->nkv; j++)
			if (strcmp(a->kv[i].key, b->kv[j].key) == 0 &&
			    strcmp(a->kv[i].value, b->kv[j].value) == 0)
				break;
		if (j == b->nkv)
			return 0;
	}
	for (j = 0; j < b->nkv; j++)
		nb += !runs_key(b->kv[j].key);
	return na == nb;
}

/* The words of an arm's runtime args but a --platform (and its value). */
static char *
args_but_platform(const struct arm *a)
{
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 k;
	const char	*w;

	for (k = 0; k < a->runtime_args.n; k++) {
		w = a->runtime_args.v[k];
		w += *w == '-';
		w += *w == '-';
		if (w != a->runtime_args.v[k] && str_startswith(w, "platform")) {
			k += w[strlen("platform")] == '\0';
			continue;
		}
		strbuf_addf(&sb, "%s ", a->runtime_args.v[k]);
	}
	return strbuf_detach(&sb);
}

/*
 * Two arms written differently (runtime, runtime-args, platform) that run
 * the same runtime binary with the same flags and platform, and differ in
 * nothing else: an A/A comparison the user may not mean. (Arms written
 * alike are an A/A on purpose, as calibrate's.)
 */
static void
warn_same_arms(struct run_ctx *ctx, const struct experiment *e,
    char *const *paths, char *const *platforms, int quiet)
{
	size_t	i, j, n;
	char	*ai, *aj, *msg;

	for (i = 0; i < e->narms; i++)
		for (j = i + 1; j < e->narms; j++) {
			const struct arm	*a = &e->arms[i];
			const struct arm	*b = &e->arms[j];

			if (paths[i] == NULL || paths[j] == NULL ||
			    strcmp(paths[i], paths[j]) != 0 ||
			    !same_other_keys(a, b))
				continue;
			n = platforms[i] != NULL ? strcspn(platforms[i], " ") :
			    0;
			if ((platforms[i] == NULL) != (platforms[j] == NULL) ||
			    (platforms[i] != NULL &&
			    (strcspn(platforms[j], " ") != n ||
			    strncmp(platforms[i], platforms[j], n) != 0)))
				continue;
			ai = args_but_platform(a);
			aj = args_but_platform(b);
			if (strcmp(ai, aj) == 0 && (strcmp(a->runtime,
			    b->runtime) != 0 || (platforms[i] != NULL &&
			    strcmp(platforms[i], platforms[j]) != 0) ||
			    a->runtime_args.n != b->runtime_args.n)) {
				msg = xasprintf("arms '%s' and '%s' run the "
				    "same runtime (%s), runtime args and "
				    "platform (%.*s): an A/A comparison",
				    a->name, b->name, paths[i], (int)n,
				    n > 0 ? platforms[i] : "none");
				if (!quiet)
					warning("%s", msg);
				store_warning_add(ctx->store, ctx->run_id,
				    msg, NULL);
				free(msg);
			}
			free(ai);
			free(aj);
		}
}

void
runner_store_metadata(struct run_ctx *ctx, const struct experiment *e,
    struct strvec *paths, int quiet)
{
	struct strvec	 config = STRVEC_INIT, warnings = STRVEC_INIT;
	struct strvec	 report = STRVEC_INIT;
	char		*cause = NULL, **paths_rt, **platforms;
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
	/*
	 * What each arm runs, as run-level keys named after the arm (as
	 * runtime-version-ARM), so that every arm's export carries the same
	 * config (no table split) while two runs of one experiment on one
	 * host still read alike.
	 */
	paths_rt = xcalloc(e->narms + 1, sizeof(*paths_rt));
	platforms = xcalloc(e->narms + 1, sizeof(*platforms));
	for (i = 0; i < e->narms; i++) {
		const struct arm	*a = &e->arms[i];

		if (a->runtime != NULL)
			store_binary(ctx, "runtime", a->name, a->runtime, 1,
			    &paths_rt[i]);
		if (a->runtime_args.n > 0) {
			struct strbuf	v = STRBUF_INIT;
			size_t		k;

			for (k = 0; k < a->runtime_args.n; k++)
				strbuf_addf(&v, "%s%s", k ? " " : "",
				    a->runtime_args.v[k]);
			store_key(ctx, "runtime-args", a->name, v.buf);
			strbuf_release(&v);
		}
		/* Its environment (env.NAME), what else it runs with. */
		if (a->env.n > 0) {
			char	*line = experiment_argv_line(a->env.v,
			    a->env.n);

			store_key(ctx, "env", a->name, line);
			free(line);
		}
		platforms[i] = arm_platform(e, a, paths_rt[i]);
		if (platforms[i] != NULL)
			store_key(ctx, "platform", a->name, platforms[i]);
		else if (a->platform_name != NULL)
			store_key(ctx, "platform", a->name, a->platform_name);
	}
	warn_same_arms(ctx, e, paths_rt, platforms, quiet);
	for (i = 0; i < e->narms; i++) {
		free(paths_rt[i]);
		free(platforms[i]);
	}
	free(paths_rt);
	free(platforms);
	store_programs(ctx, e);
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

/* The values of a stored sample, into the run's table. */
static void
runner_store_tab(struct sampletab *tab, const struct store_sample *s)
{
	struct sampletab_value	x;
	size_t			i;

	memset(&x, 0, sizeof(x));
	x.round = s->round;
	x.position = s->position;
	x.exec = s->plan_idx;
	x.start_ns = s->start_ns;
	x.start_wall_ns = s->start_wall_ns;
	for (i = 0; i < s->nmetrics; i++) {
		x.value = s->metrics[i].value;
		sampletab_add(tab, s->arm, s->metrics[i].benchmark,
		    s->metrics[i].unit, &x);
	}
}

int
runner_store_result(struct run_ctx *ctx, const struct plan_entry *pe,
    const struct experiment *e, struct sample_result *res, int64_t t0,
    int64_t t1, int64_t w0, int64_t w1, struct sampletab *tab,
    char **cause)
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
	/*
	 * One record of the run's log (copied into its mapping), with the
	 * benchmarks that failed inside it; committed to the database with
	 * the batch.
	 */
	r = store_log_sample(ctx->store, &s, res->failed.n == 0 ||
	    s.nmetrics > 0 || res->status != SAMPLE_STATUS_OK,
	    (const char *const *)res->failed.v,
	    (const char *const *)res->failed_error.v, res->failed.n, cause);
	/* As the store reads them back: the ok values of measured rounds. */
	if (r == 0 && tab != NULL && !s.warmup &&
	    s.status == SAMPLE_STATUS_OK)
		runner_store_tab(tab, &s);
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
