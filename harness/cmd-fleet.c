/*
 * abbench fleet: hand one experiment to a cluster scheduler (Slurm) as one
 * exclusive job per (partition, replica), each running the experiment on
 * its node into its own database under SHARED_DIR/FLEET_ID/runs/, plus one
 * job that waits for all of them (afterany) and merges what arrived into
 * SHARED_DIR/FLEET_ID/fleet.db. The fleet's state (its jobs, every attempt,
 * the scheduler's last word on each) lives in fleet.db too, so that
 * status, collect, cancel and resubmit need nothing else.
 *
 * The batch script never holds data: it is a fixed text that executes its
 * arguments, and sbatch passes abbench's path and arguments as an argv.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
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

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/core/runner.h"
#include "harness/fleet-sched.h"
#include "host/hostinfo.h"
#include "lib/util.h"
#include "results/fleet-store.h"
#include "results/store.h"

#define FLEET_DB	"fleet.db"
#define FLEET_SCRIPT	"job"
/* --wait polls the scheduler every 0.1 s, backing off to 2 s while
 * nothing changes. */
#define FLEET_POLL_MIN_NS	(100 * 1000000LL)
#define FLEET_POLL_MAX_NS	(2000 * 1000000LL)

static const char fleet_script_text[] =
    "#!/bin/sh\n"
    "# Written by abbench fleet submit. It holds no data: the scheduler\n"
    "# passes abbench's path and its arguments, and this executes them.\n"
    "exec \"$@\"\n";

enum shape_outcome {
	SHAPE_PENDING,
	SHAPE_RUNNING,
	SHAPE_DONE,
	SHAPE_FAILED,
	SHAPE_MISSING,
};

static const char *const shape_outcome_names[] = {
	[SHAPE_PENDING] = "pending",
	[SHAPE_RUNNING] = "running",
	[SHAPE_DONE] = "done",
	[SHAPE_FAILED] = "failed",
	[SHAPE_MISSING] = "missing",
};

/* One (partition, replica) of a fleet: its latest job and its run. */
struct shape {
	struct fleet_job_rec	*job;
	struct fleet_job_state	 js;
	char			*name;		/* "c4/2" */
	char			*run_uuid;	/* NULL: no run yet */
	char			*run_status;
	char			*run_version;
	int64_t			 nsamples;
	enum shape_outcome	 outcome;
};

struct fleet_ctx {
	char				*dir;
	char				*id;
	struct store			*st;
	struct fleet_rec		 f;
	const struct fleet_sched_ops	*sched;
	struct fleet_job_rec		*jobs;
	size_t				 njobs;
	struct shape			*shapes;
};

static int
fleet_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
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
static const char *
fleet_base(const char *opt)
{
	const char	*env;

	if (opt != NULL)
		return opt;
	if ((env = getenv("ABBENCH_FLEET_DIR")) != NULL && *env != '\0')
		return env;
	return NULL;
}

static char *
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

static int
is_dir(const char *p)
{
	struct stat	sb;

	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int
is_file(const char *p)
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
		if (is_file(p) && (best == NULL || strcmp(de->d_name,
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
static int
fleet_open(struct fleet_ctx *fc, const char *sel, const char *base, int flags)
{
	char	*cause = NULL, *dir = NULL, *db, *slash, *last;

	memset(fc, 0, sizeof *fc);
	if (strchr(sel, '/') != NULL || is_dir(sel)) {
		dir = xstrdup(sel);
		if (is_file(dir) && (slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		else if (is_file(dir))
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
	if (!is_file(db)) {
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
	}
	free(fc->shapes);
	fc->shapes = NULL;
	fleet_jobs_free(fc->jobs, fc->njobs);
	fc->jobs = NULL;
	fc->njobs = 0;
}

static void
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

/* What the shape's own database holds: its run's status and samples. */
static void
shape_read_run(struct shape *s)
{
	struct store		*st;
	struct store_run	*runs = NULL;
	size_t			 n = 0, i;
	char			*cause = NULL;

	if (!is_file(s->job->db))
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
static int
fleet_refresh(struct fleet_ctx *fc, int write)
{
	char	*cause = NULL, **ids;
	size_t	 i;
	int	 live = 1;

	shapes_release(fc);
	if (fleet_store_jobs(fc->st, fc->id, 1, &fc->jobs, &fc->njobs,
	    &cause) != 0) {
		error("fleet: %s", cause);
		free(cause);
		return -1;
	}
	fc->shapes = xcalloc(fc->njobs + 1, sizeof *fc->shapes);
	ids = xcalloc(fc->njobs + 1, sizeof *ids);
	for (i = 0; i < fc->njobs; i++) {
		fc->shapes[i].job = &fc->jobs[i];
		fc->shapes[i].name = xasprintf("%s/%d", fc->jobs[i].partition,
		    fc->jobs[i].replica);
		ids[i] = fc->jobs[i].job_id;
	}
	{
		struct fleet_job_state	*js = xcalloc(fc->njobs + 1,
					    sizeof *js);

		if (fc->sched->state(ids, fc->njobs, js, &cause) != 0) {
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
static int
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
static int
fleet_submit_shape(struct fleet_ctx *fc, const char *partition, int replica,
    int attempt, char **job_id, char **cause)
{
	struct fleet_submit	 s;
	struct fleet_job_rec	 j;
	char			*script, *db, *out, *name, *rep;
	char			*args[10];
	int			 rc;

	*job_id = NULL;
	script = xasprintf("%s/%s", fc->dir, FLEET_SCRIPT);
	db = xasprintf("%s/runs/%s-%d.db", fc->dir, partition, replica);
	out = xasprintf("%s/logs/%s-%d-%%j.out", fc->dir, partition, replica);
	name = xasprintf("abbench-%s-%s-%d", fc->f.experiment_name, partition,
	    replica);
	rep = xasprintf("%d", replica);
	args[0] = fc->f.abbench_path;
	args[1] = "fleet";
	args[2] = "job";
	args[3] = "--fleet-id";
	args[4] = fc->id;
	args[5] = "--replica";
	args[6] = rep;
	args[7] = "--db";
	args[8] = db;
	args[9] = fc->f.experiment_path;
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
	s.args = args;
	s.nargs = ARRAY_SIZE(args);
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
	return rc;
}

/* The merge job: after every job in ids has ended, however. */
static int
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

static int fleet_collect_run(struct fleet_ctx *fc, int quiet, int merge_job);

/*
 * --wait: one live line (rewritten in place on a terminal, printed when it
 * changes otherwise) until every job and the merge job have ended; then
 * collect, whose status is the fleet's.
 */
static int
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
			struct timespec	ts = { poll / 1000000000LL,
					    poll % 1000000000LL };

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

static int
fleet_submit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "partitions", required_argument, NULL, 'p' },
		{ "per-partition", required_argument, NULL, 'n' },
		{ "dir", required_argument, NULL, 'd' },
		{ "time", required_argument, NULL, 't' },
		{ "sbatch-arg", required_argument, NULL, 'a' },
		{ "scheduler", required_argument, NULL, 's' },
		{ "wait", no_argument, NULL, 'w' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct fleet_ctx	 fc;
	struct strvec		 parts = STRVEC_INIT, have = STRVEC_INIT;
	struct strvec		 ids = STRVEC_INIT, extra = STRVEC_INIT;
	struct experiment	*e = NULL;
	const char		*base = NULL, *time_limit = NULL;
	const char		*sched_name = "slurm";
	char			*cause = NULL, *exp_abs = NULL, *self = NULL;
	char			*script = NULL, *db = NULL, *p, *save, *list;
	char			*job = NULL, *sub, *colon;
	struct strvec		 counts = STRVEC_INIT;
	long long		 per = 1, v, nrep;
	int			 c, wait = 0, quiet = 0, rc = EXIT_USAGE;
	int			 r;
	size_t			 i;

	memset(&fc, 0, sizeof fc);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:n:d:t:a:s:wq", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'p':
			list = xstrdup(optarg);
			for (p = strtok_r(list, ",", &save); p != NULL;
			    p = strtok_r(NULL, ",", &save)) {
				p = strtrim(p);
				if (*p == '\0')
					continue;
				/* P:N: N replicas on P, whatever
				 * --per-partition says. */
				if ((colon = strchr(p, ':')) != NULL) {
					*colon = '\0';
					if (parse_int(colon + 1, 1, 1000, &v,
					    &cause) == -1) {
						rc = fleet_usage("--partitions "
						    "%s: %s", p, cause);
						free(cause);
						free(list);
						goto out;
					}
					strvec_pushf(&counts, "%s:%lld", p, v);
				}
				if (strchr(p, '/') != NULL || *p == '.' ||
				    strchr(p, '\n') != NULL) {
					free(list);
					rc = fleet_usage("partition '%s' is "
					    "not a partition name", p);
					goto out;
				}
				if (!strvec_has(&parts, p))
					strvec_push(&parts, p);
			}
			free(list);
			break;
		case 'n':
			if (parse_int(optarg, 1, 1000, &v, &cause) == -1) {
				rc = fleet_usage("--per-partition: %s", cause);
				free(cause);
				goto out;
			}
			per = v;
			break;
		case 'd':
			base = optarg;
			break;
		case 't':
			if (*optarg == '\0' || strchr(optarg, '\n') != NULL) {
				rc = fleet_usage("--time: bad limit '%s'",
				    optarg);
				goto out;
			}
			time_limit = optarg;
			break;
		case 'a':
			strvec_push(&extra, optarg);
			break;
		case 's':
			sched_name = optarg;
			break;
		case 'w':
			wait = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		default:
			rc = fleet_usage("submit: unknown option or missing "
			    "value '%s'", argv[optind - 1]);
			goto out;
		}
	}
	if (optind + 1 != argc) {
		rc = fleet_usage("submit takes one EXPERIMENT.ini");
		goto out;
	}
	if (parts.n == 0) {
		rc = fleet_usage("submit needs --partitions P1,P2,...");
		goto out;
	}
	base = fleet_base(base);
	if (base == NULL) {
		rc = fleet_usage("submit needs --dir SHARED_DIR");
		goto out;
	}
	/* Bad input is found before anything is submitted. */
	if ((e = experiment_load(argv[optind], &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		goto out;
	}
	if ((exp_abs = realpath(argv[optind], NULL)) == NULL) {
		error("fleet: '%s': %s", argv[optind], strerror(errno));
		goto out;
	}
	if ((p = realpath(base, NULL)) == NULL || !is_dir(p)) {
		error("fleet: shared directory '%s': %s", base, p == NULL ?
		    strerror(errno) : "not a directory");
		free(p);
		goto out;
	}
	fc.dir = p;
	/* sbatch reads %j, %N... in --output and --chdir as patterns. */
	if (strchr(fc.dir, '%') != NULL || strchr(fc.dir, '\n') != NULL) {
		rc = fleet_usage("shared directory '%s': a '%%' or a newline "
		    "in its path would reach sbatch as a pattern", fc.dir);
		goto out;
	}
	if ((self = realpath("/proc/self/exe", NULL)) == NULL) {
		error("fleet: cannot find abbench's own path: %s",
		    strerror(errno));
		goto out;
	}
	if ((fc.sched = fleet_sched_find(sched_name, &cause)) == NULL) {
		rc = fleet_usage("%s", cause);
		free(cause);
		goto out;
	}
	if (fc.sched->available(&cause) != 0 ||
	    fc.sched->partitions(&have, &cause) != 0) {
		error("fleet: %s is not available: %s", sched_name, cause);
		free(cause);
		rc = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < parts.n; i++)
		if (!strvec_has(&have, parts.v[i])) {
			rc = fleet_usage("no partition '%s' in %s (there are: "
			    "%s%s%s%s)", parts.v[i], sched_name, have.n > 0 ?
			    have.v[0] : "none", have.n > 1 ? ", " : "",
			    have.n > 1 ? have.v[1] : "", have.n > 2 ?
			    ", ..." : "");
			goto out;
		}

	/* The fleet directory and its store. */
	fc.id = fleet_new_id();
	p = xasprintf("%s/%s", fc.dir, fc.id);
	free(fc.dir);
	fc.dir = p;
	if (mkdir(fc.dir, 0755) == -1) {
		error("fleet: cannot create '%s': %s", fc.dir, strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	sub = xasprintf("%s/runs", fc.dir);
	r = mkdir(sub, 0755);
	free(sub);
	sub = xasprintf("%s/logs", fc.dir);
	if (r == -1 || mkdir(sub, 0755) == -1) {
		error("fleet: cannot create '%s': %s", sub, strerror(errno));
		free(sub);
		rc = EXIT_FAIL;
		goto out;
	}
	free(sub);
	if (fleet_write_script(fc.dir, &script, &cause) != 0)
		goto fail_cause;
	db = xasprintf("%s/%s", fc.dir, FLEET_DB);
	if ((fc.st = store_open(db, STORE_CREATE, &cause)) == NULL)
		goto fail_cause;
	fc.f.id = xstrdup(fc.id);
	fc.f.created_wall_ns = now_wall_ns();
	fc.f.dir = xstrdup(fc.dir);
	fc.f.experiment_path = xstrdup(exp_abs);
	fc.f.experiment_name = xstrdup(e->name);
	fc.f.scheduler = xstrdup(sched_name);
	fc.f.abbench_path = xstrdup(self);
	fc.f.abbench_version = xstrdup(PACKAGE_VERSION);
	fc.f.time_limit = time_limit != NULL ? xstrdup(time_limit) : NULL;
	strvec_pushv(&fc.f.args, extra.v);
	if (fleet_store_add(fc.st, &fc.f, &cause) != 0)
		goto fail_cause;

	if (!quiet)
		printf("fleet %s in %s\n", fc.id, fc.dir);
	else
		printf("%s\n", fc.id);
	fflush(stdout);
	for (i = 0; i < parts.n; i++) {
		nrep = per;
		for (r = 0; r < (int)counts.n; r++) {
			size_t	l = strlen(parts.v[i]);

			if (strncmp(counts.v[r], parts.v[i], l) == 0 &&
			    counts.v[r][l] == ':')
				nrep = strtoll(counts.v[r] + l + 1, NULL, 10);
		}
		for (r = 1; r <= nrep; r++) {
			if (fleet_submit_shape(&fc, parts.v[i], r, 1, &job,
			    &cause) != 0) {
				error("fleet: %s/%d: %s", parts.v[i], r, cause);
				free(cause);
				cause = NULL;
				free(job);
				goto cancel;
			}
			if (!quiet)
				printf("%s/%d job %s\n", parts.v[i], r, job);
			strvec_push_nodup(&ids, job);
			job = NULL;
		}
	}
	if (fleet_submit_merge(&fc, parts.v[0], ids.v, ids.n, &job,
	    &cause) != 0) {
		error("fleet: the merge job: %s", cause);
		free(cause);
		cause = NULL;
		free(job);
		goto cancel;
	}
	free(fc.f.merge_job);
	fc.f.merge_job = job;
	if (!quiet)
		printf("merge job %s -> %s/%s\n", job, fc.dir, FLEET_DB);
	fflush(stdout);
	rc = EXIT_OK;
	if (wait)
		rc = fleet_wait(&fc, quiet);
	goto out;

cancel:
	/* Half a fleet is not submitted: take back what was. */
	if (ids.n > 0 && fc.sched->cancel(ids.v, ids.n, &cause) != 0) {
		error("fleet: cancelling the jobs submitted: %s", cause);
		free(cause);
		cause = NULL;
	}
	rc = EXIT_FAIL;
	goto out;
fail_cause:
	error("fleet: %s", cause);
	free(cause);
	rc = EXIT_FAIL;
out:
	if (e != NULL)
		experiment_free(e);
	free(exp_abs);
	free(self);
	free(script);
	free(db);
	strvec_clear(&parts);
	strvec_clear(&counts);
	strvec_clear(&have);
	strvec_clear(&ids);
	strvec_clear(&extra);
	fleet_close(&fc);
	return rc;
}

/* Options shared by status, collect, cancel and resubmit. */
struct fleet_common {
	const char	*base;
	int		 quiet;
	int		 failed;
	int		 wait;
	int		 merge_job;
	const char	*sel;
};

static int
fleet_parse_common(int argc, char **argv, struct fleet_common *o,
    const char *verb, int need_sel)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "failed", no_argument, NULL, 'f' },
		{ "wait", no_argument, NULL, 'w' },
		{ "merge-job", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	int	c;

	memset(o, 0, sizeof *o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->base = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'f':
			o->failed = 1;
			break;
		case 'w':
			o->wait = 1;
			break;
		case 'm':
			o->merge_job = 1;
			break;
		default:
			return fleet_usage("%s: unknown option or missing value "
			    "'%s'", verb, argv[optind - 1]);
		}
	}
	o->base = fleet_base(o->base);
	if (optind < argc)
		o->sel = argv[optind++];
	if (optind < argc)
		return fleet_usage("%s: too many arguments", verb);
	if (need_sel && o->sel == NULL)
		return fleet_usage("%s needs a FLEET (a directory, or an id "
		    "with --dir)", verb);
	return 0;
}

static void
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
	}
	if (fc->f.merge_job != NULL)
		printf("  merge job %s -> %s/%s\n", fc->f.merge_job, fc->dir,
		    FLEET_DB);
}

/* status without FLEET: every fleet under the base directory. */
static int
fleet_list(const char *base)
{
	DIR		*d;
	struct dirent	*de;
	struct strvec	 names = STRVEC_INIT;
	size_t		 i, j;
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
		if (is_file(p))
			strvec_push(&names, de->d_name);
		free(p);
	}
	closedir(d);
	for (i = 1; i < names.n; i++)
		for (j = i; j > 0 && strcmp(names.v[j - 1], names.v[j]) > 0;
		    j--) {
			char	*t = names.v[j];

			names.v[j] = names.v[j - 1];
			names.v[j - 1] = t;
		}
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

static int
fleet_status(int argc, char **argv)
{
	struct fleet_common	o;
	struct fleet_ctx	fc;
	int			rc;

	if ((rc = fleet_parse_common(argc, argv, &o, "status", 0)) != 0)
		return rc;
	if (o.sel == NULL)
		return fleet_list(o.base);
	if ((rc = fleet_open(&fc, o.sel, o.base, 0)) != 0)
		return rc;
	if (fleet_refresh(&fc, 1) != 0) {
		fleet_close(&fc);
		return EXIT_USAGE;
	}
	fleet_print_shapes(&fc);
	fleet_close(&fc);
	return EXIT_OK;
}

/*
 * Merge every shape whose run is done into fleet.db (runs already there,
 * by UUID, are skipped: collecting twice adds nothing); name every shape
 * that is not done with the scheduler's state and reason; warn when the
 * runs were made by different abbench versions. 0 when every shape is
 * done, 1 otherwise.
 */
static int
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
				printf("%-12s done     %s%s\n", s->name,
				    added > 0 ? "merged run " : "run ",
				    s->run_uuid);
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
	fflush(stdout);
	strvec_clear(&versions);
	strbuf_release(&vs);
	return ndone == (int)fc->njobs ? EXIT_OK : EXIT_FAIL;
}

static int
fleet_collect(int argc, char **argv)
{
	struct fleet_common	o;
	struct fleet_ctx	fc;
	int			rc;

	if ((rc = fleet_parse_common(argc, argv, &o, "collect", 1)) != 0)
		return rc;
	if ((rc = fleet_open(&fc, o.sel, o.base, 0)) != 0)
		return rc;
	rc = fleet_collect_run(&fc, o.quiet, o.merge_job);
	fleet_close(&fc);
	return rc;
}

static int
fleet_cancel(int argc, char **argv)
{
	struct fleet_common	o;
	struct fleet_ctx	fc;
	struct strvec		ids = STRVEC_INIT;
	char			*cause = NULL;
	size_t			i;
	int			rc;

	if ((rc = fleet_parse_common(argc, argv, &o, "cancel", 1)) != 0)
		return rc;
	if ((rc = fleet_open(&fc, o.sel, o.base, 0)) != 0)
		return rc;
	if (fleet_refresh(&fc, 1) != 0) {
		fleet_close(&fc);
		return EXIT_USAGE;
	}
	for (i = 0; i < fc.njobs; i++)
		if (fc.shapes[i].outcome == SHAPE_PENDING ||
		    fc.shapes[i].outcome == SHAPE_RUNNING)
			strvec_push(&ids, fc.shapes[i].job->job_id);
	if (fc.f.merge_job != NULL)
		strvec_push(&ids, fc.f.merge_job);
	rc = EXIT_OK;
	if (fc.sched->cancel(ids.v, ids.n, &cause) != 0) {
		error("fleet: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else if (!o.quiet)
		printf("fleet %s: cancelled %zu job%s\n", fc.id, ids.n,
		    ids.n == 1 ? "" : "s");
	strvec_clear(&ids);
	fleet_close(&fc);
	return rc;
}

/*
 * Submit again every shape that failed or went missing (a new attempt of
 * the same job: it resumes the run in the shape's database), then a new
 * merge job after them.
 */
static int
fleet_resubmit(int argc, char **argv)
{
	struct fleet_common	o;
	struct fleet_ctx	fc;
	struct strvec		ids = STRVEC_INIT;
	char			*cause = NULL, *job = NULL;
	size_t			i;
	int			rc;

	if ((rc = fleet_parse_common(argc, argv, &o, "resubmit", 1)) != 0)
		return rc;
	if (!o.failed)
		return fleet_usage("resubmit needs --failed");
	if ((rc = fleet_open(&fc, o.sel, o.base, 0)) != 0)
		return rc;
	if (fleet_refresh(&fc, 1) != 0) {
		fleet_close(&fc);
		return EXIT_USAGE;
	}
	rc = EXIT_OK;
	for (i = 0; i < fc.njobs; i++) {
		struct shape	*s = &fc.shapes[i];

		if (s->outcome != SHAPE_FAILED && s->outcome != SHAPE_MISSING)
			continue;
		if (fleet_submit_shape(&fc, s->job->partition, s->job->replica,
		    s->job->attempt + 1, &job, &cause) != 0) {
			error("fleet: %s: %s", s->name, cause);
			free(cause);
			cause = NULL;
			rc = EXIT_FAIL;
			continue;
		}
		if (!o.quiet)
			printf("%s job %s (attempt %d, was job %s %s)\n",
			    s->name, job, s->job->attempt + 1, s->job->job_id,
			    s->js.state);
		strvec_push_nodup(&ids, job);
		job = NULL;
	}
	if (ids.n == 0) {
		if (!o.quiet)
			printf("fleet %s: no failed shape\n", fc.id);
		fleet_close(&fc);
		strvec_clear(&ids);
		return rc;
	}
	if (fleet_submit_merge(&fc, fc.shapes[0].job->partition, ids.v, ids.n,
	    &job, &cause) != 0) {
		error("fleet: the merge job: %s", cause);
		free(cause);
		rc = EXIT_FAIL;
	} else {
		free(fc.f.merge_job);
		fc.f.merge_job = job;
		if (!o.quiet)
			printf("merge job %s\n", job);
	}
	fflush(stdout);
	if (rc == EXIT_OK && o.wait)
		rc = fleet_wait(&fc, o.quiet);
	strvec_clear(&ids);
	fleet_close(&fc);
	return rc;
}

/*
 * What the batch script runs on the node: the experiment into the shape's
 * database, or, when that database already holds its unfinished run (a
 * requeued or resubmitted job), `run --resume` of that run.
 */
static int
fleet_job(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fleet-id", required_argument, NULL, 'f' },
		{ "replica", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct run_options	 ro;
	struct store		*st;
	struct store_run	*runs = NULL;
	struct strvec		 where = STRVEC_INIT;
	const char		*fleet_id = NULL, *replica = NULL, *db = NULL;
	char			*cause = NULL, *resume = NULL;
	size_t			 n = 0, i;
	int			 c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fleet_id = optarg;
			break;
		case 'r':
			replica = optarg;
			break;
		case 'd':
			db = optarg;
			break;
		default:
			return fleet_usage("job: unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (fleet_id == NULL || db == NULL || optind + 1 != argc)
		return fleet_usage("job needs --fleet-id ID --db FILE "
		    "EXPERIMENT.ini");
	/* hostinfo_scheduler() records these with the run. */
	setenv("ABBENCH_FLEET_ID", fleet_id, 1);
	if (replica != NULL)
		setenv("ABBENCH_FLEET_REPLICA", replica, 1);

	if (is_file(db)) {
		if ((st = store_open(db, STORE_READONLY, &cause)) == NULL ||
		    store_runs_list(st, &runs, &n, &cause) != 0) {
			error("fleet: %s", cause);
			free(cause);
			if (st != NULL)
				store_close(st);
			return EXIT_USAGE;
		}
		if (n > 0 && strcmp(runs[n - 1].status, RUN_DONE) == 0) {
			printf("fleet: run %s in '%s' is already done\n",
			    runs[n - 1].uuid, db);
			rc = EXIT_OK;
			goto out_runs;
		}
		if (n > 0)
			resume = xstrdup(runs[n - 1].uuid);
		for (i = 0; i < n; i++)
			store_run_release(&runs[i]);
		free(runs);
		runs = NULL;
		n = 0;
		store_close(st);
	}
	memset(&ro, 0, sizeof ro);
	ro.db_path = db;
	ro.rounds = -1;
	ro.resume = resume;
	if (resume != NULL)
		printf("fleet: resuming run %s in '%s'\n", resume, db);
	fflush(stdout);
	rc = runner_run(resume != NULL ? NULL : argv[optind], &ro);

	/* A resumed run says where it ran last. */
	if (resume != NULL && ro.run_id > 0 && (st = store_open(db, 0,
	    &cause)) != NULL) {
		hostinfo_scheduler(&where);
		for (i = 0; i < where.n; i++) {
			char	*colon = strstr(where.v[i], ": ");

			if (colon == NULL)
				continue;
			*colon = '\0';
			(void)store_config_set(st, ro.run_id, NULL, where.v[i],
			    colon + 2, NULL);
		}
		strvec_clear(&where);
		store_close(st);
	} else if (cause != NULL) {
		free(cause);
	}
	free(resume);
	return rc;

out_runs:
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	store_close(st);
	return rc;
}

static const struct {
	const char	*name;
	int		(*fn)(int, char **);
} fleet_subs[] = {
	{ "submit", fleet_submit },
	{ "status", fleet_status },
	{ "collect", fleet_collect },
	{ "cancel", fleet_cancel },
	{ "resubmit", fleet_resubmit },
	{ "job", fleet_job },
};

static int
cmd_fleet_exec(int argc, char **argv)
{
	size_t	i;

	if (argc < 2)
		return fleet_usage("missing subcommand (submit, status, "
		    "collect, cancel, resubmit)");
	for (i = 0; i < ARRAY_SIZE(fleet_subs); i++)
		if (strcmp(argv[1], fleet_subs[i].name) == 0)
			return fleet_subs[i].fn(argc - 1, argv + 1);
	return fleet_usage("unknown subcommand '%s' (submit, status, collect, "
	    "cancel, resubmit)", argv[1]);
}

const struct cmd_entry cmd_fleet_entry = {
	.name = "fleet",
	.args = "submit EXPERIMENT.ini --partitions P1,P2 [--per-partition N] "
	    "--dir SHARED_DIR [--time LIMIT] [--sbatch-arg ARG]... [--wait] | "
	    "status [FLEET] | collect FLEET | cancel FLEET | "
	    "resubmit FLEET --failed [--wait]",
	.summary = "run an experiment on a Slurm cluster, one shape per job",
	.help =
"Hands an experiment to Slurm: one --exclusive job per (partition,\n"
"replica), each running `abbench run` on its node into its own database\n"
"SHARED_DIR/FLEET_ID/runs/PARTITION-REPLICA.db, then one job that waits\n"
"for all of them (afterany) and merges what arrived into\n"
"SHARED_DIR/FLEET_ID/fleet.db. Every run records where it ran (fleet-id,\n"
"partition, node, job-id, cluster) and the host's shape (vcpus, memory,\n"
"cpu, kernel) as config keys, so `abbench stat --db fleet.db -row\n"
"partition -col arm -table .fullname all` puts shapes on rows.\n"
"\n"
"  submit EXPERIMENT.ini --partitions P1,P2[:N],... --dir SHARED_DIR\n"
"      [--per-partition N] [--time LIMIT] [--sbatch-arg ARG]... [--wait]\n"
"      [--quiet]\n"
"                  N replicas per partition (--per-partition, default 1;\n"
"                  P:N for one partition); --time and every --sbatch-arg\n"
"                  go to sbatch as they are (one argument each);\n"
"                  prints the fleet id and the job ids (--quiet: the id\n"
"                  only); --wait shows one live line (pending, running,\n"
"                  done, failed per shape) and exits with the fleet's\n"
"                  status, as collect does\n"
"  status [FLEET]  every shape: its job, Slurm's state and reason, its\n"
"                  run; without FLEET, every fleet under --dir\n"
"  collect FLEET   merge the shapes whose run is done (again: nothing is\n"
"                  added twice); name every shape missing or failed with\n"
"                  Slurm's state and reason; warn when the runs were made\n"
"                  by different abbench versions. Exit 0 when every shape\n"
"                  is done, 1 otherwise\n"
"  cancel FLEET    scancel the fleet's jobs that have not ended\n"
"  resubmit FLEET --failed [--wait]\n"
"                  submit the failed or missing shapes again; each resumes\n"
"                  its unfinished run (`run --resume`), and a new merge\n"
"                  job follows\n"
"\n"
"FLEET is a fleet directory, or an id (or \"last\") under --dir SHARED_DIR\n"
"(default $ABBENCH_FLEET_DIR). SHARED_DIR must be on a filesystem every\n"
"node sees, as must abbench itself (install it there: jobs run the same\n"
"binary that submitted them). A requeued job resumes its run.\n",
	.exec = cmd_fleet_exec,
};
