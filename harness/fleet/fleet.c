/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet itself, for the subcommands of cmd-fleet.c: its directory and
 * store, the scheduler's view of each shape, submitting shapes and the
 * merge job, waiting, listing and collecting.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "harness/fleet/fleet.h"
#include "lib/util.h"
#include "results/fleet-store.h"
#include "results/store.h"

/* --wait polls the scheduler every 0.1 s, backing off to 2 s while
 * nothing changes. */
#define FLEET_POLL_MIN_NS	(NSEC_PER_SEC / 10)
#define FLEET_POLL_MAX_NS	(2 * NSEC_PER_SEC)


static const char *const shape_outcome_names[] = {
	[SHAPE_PENDING] = "pending",
	[SHAPE_RUNNING] = "running",
	[SHAPE_DONE] = "done",
	[SHAPE_FAILED] = "failed",
	[SHAPE_MISSING] = "missing",
};

static const char fleet_script_text[] =
    "#!/bin/sh\n"
    "# Written by abbench fleet submit. It holds no data: the scheduler\n"
    "# passes abbench's path and its arguments, and this executes them.\n"
    "exec \"$@\"\n";


int
fleet_usage(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	error("fleet: %s (see abbench fleet --help)", msg);
	free(msg);
	return EXIT_USAGE;
}

/* The directory fleets go under: --dir, else $ABBENCH_FLEET_DIR. */
const char *
fleet_base(const char *opt)
{
	const char	*env;

	if (opt != NULL)
		return opt;
	if ((env = getenv("ABBENCH_FLEET_DIR")) != NULL && *env != '\0')
		return env;
	return NULL;
}

char *
fleet_new_id(void)
{
	unsigned char	 r[3];
	time_t		 t = time(NULL);
	struct tm	 tm;
	char		 ts[32];

	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		int64_t	 ns = now_wall_ns();

		r[0] = (unsigned char)ns;
		r[1] = (unsigned char)(ns >> 8);
		r[2] = (unsigned char)(ns >> 16);
	}
	gmtime_r(&t, &tm);
	strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
	return xasprintf("%s-%02x%02x%02x", ts, r[0], r[1], r[2]);
}

int
fleet_is_dir(const char *p)
{
	struct stat	sb;

	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int
fleet_is_file(const char *p)
{
	struct stat	sb;

	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The newest fleet directory under base (ids sort by time). */
static char *
fleet_last(const char *base)
{
	DIR		*d;
	struct dirent	*de;
	char		*best = NULL, *p;

	if ((d = opendir(base)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/%s", base, de->d_name, FLEET_DB);
		if (fleet_is_file(p) && (best == NULL || strcmp(de->d_name,
		    best) > 0)) {
			free(best);
			best = xstrdup(de->d_name);
		}
		free(p);
	}
	closedir(d);
	return best;
}

/*
 * FLEET: a fleet directory, its fleet.db, or an id (or "last") under the
 * base directory. Opens fleet.db and reads the fleet; prints why not.
 */
int
fleet_open(struct fleet_ctx *fc, const char *sel, const char *base, int flags)
{
	char	*cause = NULL, *dir = NULL, *db, *slash, *last;

	memset(fc, 0, sizeof *fc);
	if (strchr(sel, '/') != NULL || fleet_is_dir(sel)) {
		dir = xstrdup(sel);
		if (fleet_is_file(dir) && (slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		else if (fleet_is_file(dir))
			strcpy(dir, ".");
	} else {
		if (base == NULL)
			return fleet_usage("fleet '%s': give a fleet directory, "
			    "or --dir SHARED_DIR (or $ABBENCH_FLEET_DIR)", sel);
		if (strcmp(sel, "last") == 0) {
			if ((last = fleet_last(base)) == NULL) {
				error("fleet: no fleet under '%s'", base);
				return EXIT_USAGE;
			}
			dir = xasprintf("%s/%s", base, last);
			free(last);
		} else
			dir = xasprintf("%s/%s", base, sel);
	}
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	db = xasprintf("%s/%s", dir, FLEET_DB);
	if (!fleet_is_file(db)) {
		error("fleet: no fleet at '%s' (no %s)", dir, FLEET_DB);
		free(db);
		free(dir);
		return EXIT_USAGE;
	}
	/* Jobs submitted from here need absolute paths. */
	if ((fc->dir = realpath(dir, NULL)) == NULL)
		fc->dir = xstrdup(dir);
	free(dir);
	dir = fc->dir;
	slash = strrchr(dir, '/');
	fc->id = xstrdup(slash != NULL ? slash + 1 : dir);
	fc->st = store_open(db, flags, &cause);
	free(db);
	if (fc->st == NULL)
		goto fail;
	if (fleet_store_get(fc->st, fc->id, &fc->f, &cause) != 0)
		goto fail;
	if ((fc->sched = fleet_sched_find(fc->f.scheduler, &cause)) == NULL)
		goto fail;
	return 0;
fail:
	error("fleet: %s", cause);
	free(cause);
	return EXIT_USAGE;
}

static void
shapes_release(struct fleet_ctx *fc)
{
	size_t	i;

	for (i = 0; fc->shapes != NULL && i < fc->njobs; i++) {
		struct shape	*s = &fc->shapes[i];

		fleet_job_state_release(&s->js);
		free(s->name);
		free(s->run_uuid);
		free(s->run_status);
		free(s->run_version);
		free(s->run_moved);
	}
	free(fc->shapes);
	fc->shapes = NULL;
	fleet_job_state_release(&fc->merge_js);
	fleet_jobs_free(fc->jobs, fc->njobs);
	fc->jobs = NULL;
	fc->njobs = 0;
}

void
fleet_close(struct fleet_ctx *fc)
{
	shapes_release(fc);
	if (fc->st != NULL)
		store_close(fc->st);
	fleet_rec_release(&fc->f);
	free(fc->dir);
	free(fc->id);
	memset(fc, 0, sizeof *fc);
}

/* The nodes the shape's run moved between (metadata moved.N, in order). */
static void
shape_read_moves(struct shape *s, struct store *st, int64_t run_id)
{
	struct store_kv	*kv;
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 n, i, k;
	char		*cause = NULL, key[32];

	if (store_config_list(st, run_id, &kv, &n, &cause) == -1) {
		warning("fleet: %s: %s", s->name, cause);
		free(cause);
		return;
	}
	for (k = 1;; k++) {
		snprintf(key, sizeof key, "moved.%zu", k);
		for (i = 0; i < n; i++)
			if (kv[i].arm[0] == '\0' && strcmp(kv[i].key, key) ==
			    0)
				break;
		if (i == n)
			break;
		strbuf_addf(&sb, "%s%s", k > 1 ? "; " : "", kv[i].value);
	}
	store_kv_free(kv, n);
	if (sb.len > 0)
		s->run_moved = strbuf_detach(&sb);
	strbuf_release(&sb);
}

/* What the shape's own database holds: its run's status and samples. */
static void
shape_read_run(struct shape *s)
{
	struct store		*st;
	struct store_run	*runs = NULL;
	size_t			 n = 0, i;
	char			*cause = NULL;

	if (!fleet_is_file(s->job->db))
		return;
	if ((st = store_open(s->job->db, STORE_READONLY, &cause)) == NULL) {
		warning("fleet: %s: %s", s->name, cause);
		free(cause);
		return;
	}
	if (store_runs_list(st, &runs, &n, &cause) != 0) {
		warning("fleet: %s: %s", s->name, cause);
		free(cause);
	} else if (n > 0) {
		s->run_uuid = xstrdup(runs[n - 1].uuid);
		s->run_status = xstrdup(runs[n - 1].status);
		s->run_version = xstrdup(runs[n - 1].abbench_version ?
		    runs[n - 1].abbench_version : "");
		s->nsamples = runs[n - 1].nsamples;
		shape_read_moves(s, st, runs[n - 1].id);
	}
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	store_close(st);
}

static int
state_pending(const char *state)
{
	return strcmp(state, "SUBMITTED") == 0 ||
	    strcmp(state, "PENDING") == 0 || strcmp(state, "RUNNING") == 0 ||
	    strcmp(state, "REQUEUED") == 0 ||
	    strcmp(state, "CONFIGURING") == 0 ||
	    strcmp(state, "COMPLETING") == 0;
}

/*
 * Read the fleet's latest jobs, ask the scheduler about them (recording
 * its answer when write), and read each shape's run: fills fc->shapes.
 */
int
fleet_refresh(struct fleet_ctx *fc, int write)
{
	char	*cause = NULL, **ids;
	size_t	 i, nids;
	int	 live = 1;

	shapes_release(fc);
	if (fleet_store_jobs(fc->st, fc->id, 1, &fc->jobs, &fc->njobs,
	    &cause) != 0) {
		error("fleet: %s", cause);
		free(cause);
		return -1;
	}
	fc->shapes = xcalloc(fc->njobs + 1, sizeof *fc->shapes);
	ids = xcalloc(fc->njobs + 2, sizeof *ids);
	for (i = 0; i < fc->njobs; i++) {
		fc->shapes[i].job = &fc->jobs[i];
		fc->shapes[i].name = xasprintf("%s/%d", fc->jobs[i].partition,
		    fc->jobs[i].replica);
		ids[i] = fc->jobs[i].job_id;
	}
	/* The merge job in the same question, after the shapes. */
	nids = fc->njobs;
	if (fc->f.merge_job != NULL)
		ids[nids++] = fc->f.merge_job;
	{
		struct fleet_job_state	*js = xcalloc(nids + 1, sizeof *js);

		if (fc->sched->state(ids, nids, js, &cause) != 0) {
			warning("fleet: the scheduler did not answer (%s); "
			    "using the last states recorded", cause);
			free(cause);
			cause = NULL;
			live = 0;
		}
		for (i = 0; i < fc->njobs; i++) {
			fc->shapes[i].js = js[i];
			if (fc->shapes[i].js.id == NULL) {
				fc->shapes[i].js.id = xstrdup(ids[i]);
				fc->shapes[i].js.state = xstrdup("UNKNOWN");
				fc->shapes[i].js.reason = xstrdup("");
				fc->shapes[i].js.partition = xstrdup("");
				fc->shapes[i].js.node = xstrdup("");
				fc->shapes[i].js.exit_code = xstrdup("");
			}
		}
		if (nids > fc->njobs && js[fc->njobs].id != NULL)
			fc->merge_js = js[fc->njobs];
		else if (nids > fc->njobs) {
			fc->merge_js.id = xstrdup(fc->f.merge_job);
			fc->merge_js.state = xstrdup("UNKNOWN");
			fc->merge_js.reason = xstrdup("");
			fc->merge_js.partition = xstrdup("");
			fc->merge_js.node = xstrdup("");
			fc->merge_js.exit_code = xstrdup("");
		}
		free(js);
	}
	free(ids);
	for (i = 0; i < fc->njobs; i++) {
		struct shape		*s = &fc->shapes[i];
		struct fleet_job_state	*js = &s->js;

		if (live && js->known && write && fleet_store_job_update(fc->st,
		    fc->id, s->job->job_id, js->state, js->reason, js->node,
		    now_wall_ns(), &cause) != 0) {
			warning("fleet: %s", cause);
			free(cause);
			cause = NULL;
		}
		if (!js->known) {
			/* Forgotten by the scheduler: its last recorded word. */
			free(js->state);
			free(js->reason);
			js->state = xstrdup(s->job->state);
			js->reason = xstrdup(s->job->reason);
			if (*js->node == '\0') {
				free(js->node);
				js->node = xstrdup(s->job->node);
			}
		}
		shape_read_run(s);
		if (s->run_status != NULL && strcmp(s->run_status, RUN_DONE) ==
		    0)
			s->outcome = SHAPE_DONE;
		else if (js->known && !js->terminal)
			s->outcome = strcmp(js->state, "RUNNING") == 0 ||
			    strcmp(js->state, "COMPLETING") == 0 ?
			    SHAPE_RUNNING : SHAPE_PENDING;
		else if (js->known || !state_pending(js->state))
			s->outcome = SHAPE_FAILED;
		else if (!live)
			s->outcome = strcmp(js->state, "RUNNING") == 0 ?
			    SHAPE_RUNNING : SHAPE_PENDING;
		else
			s->outcome = SHAPE_MISSING;
	}
	return 0;
}

/* "CANCELLED, exit 0:15, reason ...", what Slurm said about a shape. */
static char *
shape_slurm_words(const struct shape *s)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s job %s %s", s->js.known ? "" : "(last seen)",
	    s->job->job_id, s->js.state);
	if (s->js.exit_code != NULL && *s->js.exit_code != '\0')
		strbuf_addf(&sb, ", exit %s", s->js.exit_code);
	if (s->js.reason != NULL && *s->js.reason != '\0')
		strbuf_addf(&sb, ", reason %s", s->js.reason);
	if (!s->js.known && s->outcome == SHAPE_MISSING)
		strbuf_adds(&sb, ", no longer known to the scheduler");
	if (sb.buf[0] == ' ')
		memmove(sb.buf, sb.buf + 1, strlen(sb.buf));
	return strbuf_detach(&sb);
}

/* The job script: fixed text, mode 0700, in the fleet directory. */
int
fleet_write_script(const char *dir, char **path, char **cause)
{
	FILE	*fp;

	*path = xasprintf("%s/%s", dir, FLEET_SCRIPT);
	if ((fp = fopen(*path, "wx")) == NULL) {
		set_cause(cause, "cannot create '%s': %s", *path,
		    strerror(errno));
		return -1;
	}
	if (fputs(fleet_script_text, fp) == EOF || fchmod(fileno(fp), 0700) ==
	    -1) {
		set_cause(cause, "cannot write '%s': %s", *path,
		    strerror(errno));
		fclose(fp);
		return -1;
	}
	if (fclose(fp) == EOF)
		return set_cause(cause, "cannot write '%s': %s", *path,
		    strerror(errno));
	return 0;
}

/* Submit one attempt of one shape and record it. */
int
fleet_submit_shape(struct fleet_ctx *fc, const char *partition, int replica,
    int attempt, char **job_id, char **cause)
{
	struct fleet_submit	 s;
	struct fleet_job_rec	 j;
	char			*script, *db, *out, *name, *rep;
	struct strvec		 args = STRVEC_INIT;
	size_t			 i;
	int			 rc;

	*job_id = NULL;
	script = xasprintf("%s/%s", fc->dir, FLEET_SCRIPT);
	db = xasprintf("%s/runs/%s-%d.db", fc->dir, partition, replica);
	out = xasprintf("%s/logs/%s-%d-%%j.out", fc->dir, partition, replica);
	name = xasprintf("abbench-%s-%s-%d", fc->f.experiment_name, partition,
	    replica);
	rep = xasprintf("%d", replica);
	strvec_push(&args, fc->f.abbench_path);
	strvec_push(&args, "fleet");
	strvec_push(&args, "job");
	strvec_push(&args, "--fleet-id");
	strvec_push(&args, fc->id);
	strvec_push(&args, "--replica");
	strvec_push(&args, rep);
	strvec_push(&args, "--db");
	strvec_push(&args, db);
	/* The fleet's rule (submit --until) on every shape, every attempt. */
	for (i = 0; i < fc->f.run_keys.n; i++) {
		strvec_push(&args, "--set");
		strvec_push(&args, fc->f.run_keys.v[i]);
	}
	strvec_push(&args, fc->f.experiment_path);
	memset(&s, 0, sizeof s);
	s.name = name;
	s.partition = partition;
	s.exclusive = 1;
	s.requeue = 1;
	s.time_limit = fc->f.time_limit;
	s.workdir = fc->dir;
	s.output = out;
	s.extra = fc->f.args.v;
	s.nextra = fc->f.args.n;
	s.script = script;
	s.args = args.v;
	s.nargs = args.n;
	rc = fc->sched->submit(&s, job_id, cause);
	if (rc == 0) {
		memset(&j, 0, sizeof j);
		j.partition = (char *)partition;
		j.replica = replica;
		j.attempt = attempt;
		j.job_id = *job_id;
		j.db = db;
		j.updated_wall_ns = now_wall_ns();
		rc = fleet_store_job_add(fc->st, fc->id, &j, cause);
	}
	free(script);
	free(db);
	free(out);
	free(name);
	free(rep);
	strvec_clear(&args);
	return rc;
}

/* The merge job: after every job in ids has ended, however. */
int
fleet_submit_merge(struct fleet_ctx *fc, const char *partition,
    char *const *ids, size_t nids, char **job_id, char **cause)
{
	struct fleet_submit	 s;
	char			*script, *out;
	char			*args[5];
	int			 rc;

	script = xasprintf("%s/%s", fc->dir, FLEET_SCRIPT);
	out = xasprintf("%s/logs/merge-%%j.out", fc->dir);
	args[0] = fc->f.abbench_path;
	args[1] = "fleet";
	args[2] = "collect";
	args[3] = "--merge-job";
	args[4] = fc->dir;
	memset(&s, 0, sizeof s);
	s.name = "abbench-merge";
	s.partition = partition;
	s.requeue = 1;
	s.workdir = fc->dir;
	s.output = out;
	s.after = ids;
	s.nafter = nids;
	s.extra = fc->f.args.v;
	s.nextra = fc->f.args.n;
	s.script = script;
	s.args = args;
	s.nargs = ARRAY_SIZE(args);
	rc = fc->sched->submit(&s, job_id, cause);
	if (rc == 0)
		rc = fleet_store_set_merge_job(fc->st, fc->id, *job_id, cause);
	free(script);
	free(out);
	return rc;
}


/*
 * --wait: one live line (rewritten in place on a terminal, printed when it
 * changes otherwise) until every job and the merge job have ended; then
 * collect, whose status is the fleet's.
 */
int
fleet_wait(struct fleet_ctx *fc, int quiet)
{
	struct strbuf	 line = STRBUF_INIT, last = STRBUF_INIT;
	int		 tty = isatty(STDERR_FILENO), busy, rc;
	int64_t		 poll = FLEET_POLL_MIN_NS;
	size_t		 i;

	for (;;) {
		if (fleet_refresh(fc, 1) != 0)
			return EXIT_USAGE;
		busy = 0;
		strbuf_reset(&line);
		for (i = 0; i < fc->njobs; i++) {
			struct shape	*s = &fc->shapes[i];
			const char	*word;

			/* A done run whose job still winds down is done. */
			word = shape_outcome_names[s->outcome];
			if (s->js.known && !s->js.terminal)
				busy = 1;
			strbuf_addf(&line, "%s%s %s", i ? "  " : "", s->name,
			    word);
		}
		if (fc->f.merge_job != NULL) {
			struct fleet_job_state	js;
			char			*id = fc->f.merge_job;
			char			*cause = NULL;

			memset(&js, 0, sizeof js);
			if (fc->sched->state(&id, 1, &js, &cause) == 0) {
				if (js.known && !js.terminal)
					busy = 1;
				strbuf_addf(&line, "  merge %s", js.known ?
				    (js.terminal ? "done" : "pending") :
				    "done");
			} else {
				free(cause);
				busy = 1;
			}
			fleet_job_state_release(&js);
		}
		if (last.buf == NULL || strcmp(last.buf, line.buf) != 0)
			poll = FLEET_POLL_MIN_NS;
		else if ((poll *= 2) > FLEET_POLL_MAX_NS)
			poll = FLEET_POLL_MAX_NS;
		if (!quiet && (last.buf == NULL || strcmp(last.buf, line.buf) !=
		    0)) {
			if (tty)
				fprintf(stderr, "\r\033[K%s", line.buf);
			else
				fprintf(stderr, "%s\n", line.buf);
			strbuf_reset(&last);
			strbuf_adds(&last, line.buf);
		}
		if (!busy)
			break;
		{
			struct timespec	ts = { poll / NSEC_PER_SEC,
					    poll % NSEC_PER_SEC };

			nanosleep(&ts, NULL);
		}
	}
	if (!quiet && tty)
		fputc('\n', stderr);
	strbuf_release(&line);
	strbuf_release(&last);
	rc = fleet_collect_run(fc, quiet, 0);
	return rc;
}

/*
 * "merge job 12 CANCELLED -> DIR/fleet.db": a merge that was cancelled or
 * failed merged nothing, whatever the shapes say (issue #53).
 */
static void
fleet_print_merge(const struct fleet_ctx *fc)
{
	const struct fleet_job_state	*js = &fc->merge_js;
	const char			*state = js->state != NULL ?
					    js->state : "UNKNOWN";

	printf("  merge job %s %s", fc->f.merge_job, state);
	if (js->reason != NULL && *js->reason != '\0')
		printf(" (%s)", js->reason);
	else if (js->exit_code != NULL && *js->exit_code != '\0' &&
	    strcmp(js->exit_code, "0:0") != 0)
		printf(" (exit %s)", js->exit_code);
	else if (js->id != NULL && !js->known)
		printf(" (the scheduler no longer knows it)");
	printf(" -> %s/%s\n", fc->dir, FLEET_DB);
}

/* How many shapes the scheduler says were cancelled (fleet cancel, scancel). */
static size_t
fleet_ncancelled(const struct fleet_ctx *fc)
{
	size_t	i, n = 0;

	for (i = 0; i < fc->njobs; i++)
		n += fc->shapes[i].outcome != SHAPE_DONE &&
		    fc->shapes[i].js.state != NULL &&
		    str_startswith(fc->shapes[i].js.state, "CANCELLED");
	return n;
}

/* "fleet ID: cancelled: ..." when any shape was; nothing otherwise. */
static void
fleet_print_cancelled(const struct fleet_ctx *fc)
{
	size_t	n = fleet_ncancelled(fc);

	if (n > 0)
		printf("fleet %s: cancelled: %zu of %zu shape%s CANCELLED "
		    "before %s run ended\n", fc->id, n, fc->njobs,
		    fc->njobs == 1 ? "" : "s", n == 1 ? "its" : "their");
}

void
fleet_print_shapes(struct fleet_ctx *fc)
{
	size_t	i;
	char	t[64];

	format_wall_time(fc->f.created_wall_ns, t, sizeof t);
	printf("fleet %s: %s, submitted %s, %s\n", fc->id,
	    fc->f.experiment_name, t, fc->dir);
	printf("  %-12s %-8s %-8s %-10s %-12s %-12s %s\n", "SHAPE", "STATUS",
	    "JOB", "STATE", "NODE", "SAMPLES", "REASON");
	for (i = 0; i < fc->njobs; i++) {
		struct shape	*s = &fc->shapes[i];
		char		 n[32];

		if (s->run_uuid != NULL)
			snprintf(n, sizeof n, "%" PRId64 " (%s)", s->nsamples,
			    s->run_status);
		else
			snprintf(n, sizeof n, "-");
		printf("  %-12s %-8s %-8s %-10s %-12s %-12s %s\n", s->name,
		    shape_outcome_names[s->outcome], s->job->job_id,
		    s->js.state, *s->js.node ? s->js.node : "-", n,
		    *s->js.reason ? s->js.reason : "-");
		if (s->run_moved != NULL)
			printf("  %-12s its run moved: %s\n", "", s->run_moved);
	}
	if (fc->f.merge_job != NULL)
		fleet_print_merge(fc);
	fleet_print_cancelled(fc);
}

/* status without FLEET: every fleet under the base directory. */
int
fleet_list(const char *base)
{
	DIR		*d;
	struct dirent	*de;
	struct strvec	 names = STRVEC_INIT;
	size_t		 i;
	int		 rc = EXIT_OK;

	if (base == NULL)
		return fleet_usage("status without FLEET needs --dir "
		    "SHARED_DIR (or $ABBENCH_FLEET_DIR)");
	if ((d = opendir(base)) == NULL) {
		error("fleet: cannot read '%s': %s", base, strerror(errno));
		return EXIT_USAGE;
	}
	while ((de = readdir(d)) != NULL) {
		char	*p;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/%s", base, de->d_name, FLEET_DB);
		if (fleet_is_file(p))
			strvec_push(&names, de->d_name);
		free(p);
	}
	closedir(d);
	strvec_sort(&names);
	printf("%-24s %-24s %-6s %-5s %-7s %-6s %s\n", "FLEET", "EXPERIMENT",
	    "SHAPES", "DONE", "RUNNING", "FAILED", "DIR");
	for (i = 0; i < names.n; i++) {
		struct fleet_ctx	fc;
		size_t			k, nd = 0, nr = 0, nf = 0;

		if (fleet_open(&fc, names.v[i], base, STORE_READONLY) != 0) {
			rc = EXIT_USAGE;
			continue;
		}
		if (fleet_refresh(&fc, 0) == 0) {
			for (k = 0; k < fc.njobs; k++) {
				nd += fc.shapes[k].outcome == SHAPE_DONE;
				nr += fc.shapes[k].outcome == SHAPE_RUNNING ||
				    fc.shapes[k].outcome == SHAPE_PENDING;
				nf += fc.shapes[k].outcome == SHAPE_FAILED ||
				    fc.shapes[k].outcome == SHAPE_MISSING;
			}
			printf("%-24s %-24s %-6zu %-5zu %-7zu %-6zu %s\n",
			    fc.id, fc.f.experiment_name, fc.njobs, nd, nr, nf,
			    fc.dir);
		}
		fleet_close(&fc);
	}
	strvec_clear(&names);
	return rc;
}

/*
 * Merge every shape whose run is done into fleet.db (runs already there,
 * by UUID, are skipped: collecting twice adds nothing); name every shape
 * that is not done with the scheduler's state and reason; warn when the
 * runs were made by different abbench versions. 0 when every shape is
 * done, 1 otherwise.
 */
int
fleet_collect_run(struct fleet_ctx *fc, int quiet, int merge_job)
{
	struct strvec	 versions = STRVEC_INIT;
	struct strbuf	 vs = STRBUF_INIT;
	char		*cause = NULL, *words;
	int		 added, nadded = 0, ndone = 0, nbad = 0, nbusy = 0;
	int64_t		 samples, nsamples = 0;
	size_t		 i, k;

	if (fleet_refresh(fc, 1) != 0)
		return EXIT_USAGE;
	for (i = 0; i < fc->njobs; i++) {
		struct shape	*s = &fc->shapes[i];

		if (s->outcome == SHAPE_DONE) {
			if (store_merge(fc->st, s->job->db, &added, &samples,
			    &cause) != 0) {
				error("fleet: %s: merging '%s': %s", s->name,
				    s->job->db, cause);
				free(cause);
				cause = NULL;
				nbad++;
				continue;
			}
			nadded += added;
			nsamples += samples;
			ndone++;
			if (!quiet)
				printf("%-12s done     %s%s%s%s%s\n", s->name,
				    added > 0 ? "merged run " : "run ",
				    s->run_uuid, s->run_moved != NULL ?
				    " (moved: " : "", s->run_moved != NULL ?
				    s->run_moved : "", s->run_moved != NULL ?
				    ")" : "");
			if (s->run_version != NULL &&
			    !strvec_has(&versions, s->run_version))
				strvec_push(&versions, s->run_version);
			continue;
		}
		words = shape_slurm_words(s);
		if (s->outcome == SHAPE_PENDING || s->outcome ==
		    SHAPE_RUNNING) {
			nbusy++;
			if (!quiet)
				printf("%-12s %-8s %s\n", s->name,
				    shape_outcome_names[s->outcome], words);
		} else {
			nbad++;
			/* Always said, even with --quiet. */
			printf("%-12s %-8s %s", s->name,
			    shape_outcome_names[s->outcome], words);
			if (s->run_uuid != NULL)
				printf("; its unfinished run %.8s (%" PRId64
				    " samples) stays in %s for resubmit",
				    s->run_uuid, s->nsamples, s->job->db);
			printf("\n");
		}
		free(words);
	}
	if (versions.n > 1) {
		for (k = 0; k < versions.n; k++)
			strbuf_addf(&vs, "%s%s", k ? ", " : "", versions.v[k]);
		warning("fleet %s mixes abbench versions: %s (install one "
		    "build on the shared filesystem)", fc->id, vs.buf);
	}
	if (!quiet || merge_job)
		printf("fleet %s: %d of %zu shapes done, %d running or "
		    "pending, %d failed or missing; merged %d new run%s "
		    "(%" PRId64 " samples) into %s/%s\n", fc->id, ndone,
		    fc->njobs, nbusy, nbad, nadded, nadded == 1 ? "" : "s",
		    nsamples, fc->dir, FLEET_DB);
	fleet_print_cancelled(fc);
	fflush(stdout);
	strvec_clear(&versions);
	strbuf_release(&vs);
	return ndone == (int)fc->njobs ? EXIT_OK : EXIT_FAIL;
}
