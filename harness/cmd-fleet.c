/* SPDX-License-Identifier: Apache-2.0 */
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/core/runner.h"
#include "harness/fleet/fleet.h"
#include "harness/fleet/fleet-sched.h"
#include "harness/git-version.h"
#include "host/hostinfo.h"
#include "lib/util.h"
#include "results/fleet-store.h"
#include "results/store.h"


/* What a fleet subcommand was asked for (each takes some of it). */
struct submit_opts {
	struct strvec	 parts;		/* partitions, each once, in order */
	struct strvec	 counts;	/* "P:N": N replicas on P */
	struct strvec	 extra;		/* --sbatch-arg */
	struct strvec	 keys;		/* --until, --max-rounds: KEY=VALUE */
	int64_t		 per;
	const char	*base, *time_limit, *sched_name;
	int		 wait, quiet;
	int		 failed, merge_job;	/* resubmit, collect */
	/* job: */
	const char	*fleet_id, *replica, *job_db;
	struct strvec	 set;
};
#define FLT(m)	OPT_AT(struct submit_opts, m)

static void
submit_opts_init(void *opts)
{
	struct submit_opts	*o = opts;

	o->per = 1;
	o->sched_name = "slurm";
}

static void
submit_opts_release(void *opts)
{
	struct submit_opts	*o = opts;

	strvec_clear(&o->parts);
	strvec_clear(&o->counts);
	strvec_clear(&o->extra);
	strvec_clear(&o->keys);
	strvec_clear(&o->set);
}

/* One partition name of --partitions into o (P:N too); 0, or -1. */
static int
submit_partition(struct submit_opts *o, char *p, char **cause)
{
	char		*colon, *why = NULL;
	long long	 v;

	/* P:N: N replicas on P, whatever --per-partition says. */
	if ((colon = strchr(p, ':')) != NULL) {
		*colon = '\0';
		if (parse_int(colon + 1, 1, 1000, &v, &why) == -1) {
			set_cause(cause, "--partitions %s: %s (see abbench "
			    "fleet --help)", p, why);
			free(why);
			return -1;
		}
		strvec_pushf(&o->counts, "%s:%lld", p, v);
	}
	if (strchr(p, '/') != NULL || *p == '.' || strchr(p, '\n') != NULL)
		return set_cause(cause, "partition '%s' is not a partition "
		    "name (see abbench fleet --help)", p);
	if (!strvec_has(&o->parts, p))
		strvec_push(&o->parts, p);
	return 0;
}

/* --partitions P1,P2:N,... */
static int
submit_partitions(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	char	*p, *save, *list = xstrdup(value);
	int	 rc = 0;

	(void)f;
	for (p = strtok_r(list, ",", &save); p != NULL && rc == 0;
	    p = strtok_r(NULL, ",", &save)) {
		p = strtrim(p);
		if (*p != '\0')
			rc = submit_partition(opts, p, cause);
	}
	free(list);
	return rc;
}

/* --time LIMIT: one line, not empty. */
static int
submit_time(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	if (*value == '\0' || strchr(value, '\n') != NULL)
		return set_cause(cause, "--time: bad limit '%s' (see abbench "
		    "fleet --help)", value);
	*(const char **)opt_member(&f->opt, opts) = value;
	return 0;
}

/*
 * --until, --max-rounds: checked as run checks them (the file's other
 * keys with them in submit_check), kept as KEY=VALUE.
 */
static int
submit_key(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	struct experiment	 tmp;
	char			*why = NULL;
	int			 rc;

	memset(&tmp, 0, sizeof tmp);
	rc = experiment_set(&tmp, f->key, value, &why);
	opt_release(experiment_opts, &tmp);
	if (rc == -1) {
		set_cause(cause, "--%s: %s (see abbench fleet --help)",
		    f->name, why);
		free(why);
		return -1;
	}
	strvec_pushf(opt_member(&f->opt, opts), "%s=%s", f->key, value);
	return 0;
}

/* job --set KEY=VALUE. */
static int
job_set(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	if (strchr(value, '=') == NULL)
		return set_cause(cause, "job: --set '%s' is not KEY=VALUE "
		    "(see abbench fleet --help)", value);
	return cmd_flag_push(f, opts, value, cause);
}

#define COMMON	"status collect cancel resubmit"

/* Each flag names the subcommands that take it. */
static const struct cmd_flag fleet_flags[] = {
	CMD_FN("partitions", 'p', "P1,P2[:N],...", FLT(parts),
	    submit_partitions,
	    "the Slurm partitions, one shape each (N replicas: P:N)",
	    .scope = "submit"),
	CMD_INT64("per-partition", 'n', "N", FLT(per), 1, 1000,
	    "replicas per partition (default 1)", .scope = "submit"),
	CMD_STR("dir", 'd', "SHARED_DIR", FLT(base),
	    "where fleets live, seen by every node\n"
	    "(default $ABBENCH_FLEET_DIR)", .scope = "submit"),
	CMD_FN("time", 't', "LIMIT", FLT(time_limit), submit_time,
	    "sbatch --time of each job", .scope = "submit"),
	CMD_FN("sbatch-arg", 'a', "ARG", FLT(extra), cmd_flag_push,
	    "one more argument for sbatch (repeatable)", .scope = "submit"),
	CMD_STR("scheduler", 's', "NAME", FLT(sched_name),
	    "the cluster scheduler: slurm (default), or\n"
	    "mock, the tests' double", .scope = "submit"),
	CMD_BOOL("wait", 'w', FLT(wait),
	    "one live line until every shape ends; exit with\n"
	    "the fleet's status, as collect does", .scope = "submit"),
	CMD_BOOL("quiet", 'q', FLT(quiet), "print only the fleet id",
	    .scope = "submit"),
	CMD_FN("until", 0, "decided", FLT(keys), submit_key,
	    "every shape's run stops by the rule of run\n"
	    "--until decided (stop = decided; rounds: the\n"
	    "fixed design), kept for resubmits", .scope = "submit",
	    .key = "stop"),
	CMD_FN("max-rounds", 0, "N", FLT(keys), submit_key,
	    "with --until decided: the rule's max-rounds\n"
	    "on every shape (default: the file's)", .scope = "submit",
	    .key = "max-rounds"),
	CMD_STR("dir", 'd', "SHARED_DIR", FLT(base),
	    "where FLEET ids are looked up\n"
	    "(default $ABBENCH_FLEET_DIR)", .scope = COMMON),
	CMD_BOOL("quiet", 'q', FLT(quiet), "less output", .scope = COMMON),
	CMD_BOOL("failed", 0, FLT(failed),
	    "resubmit: the failed or missing shapes", .scope = COMMON),
	CMD_BOOL("wait", 'w', FLT(wait),
	    "resubmit: wait as submit --wait does", .scope = COMMON),
	CMD_BOOL("merge-job", 0, FLT(merge_job),
	    "collect: run as the fleet's merge job\n"
	    "(what submit hands to Slurm)", .scope = COMMON),
	CMD_STR("fleet-id", 0, "ID", FLT(fleet_id),
	    "job (internal: one shape's batch job): the fleet",
	    .scope = "job"),
	CMD_STR("replica", 0, "N", FLT(replica),
	    "job: the replica of the shape", .scope = "job"),
	CMD_STR("db", 'd', "FILE", FLT(job_db), "job: the shape's database",
	    .scope = "job"),
	CMD_FN("set", 0, "KEY=VALUE", FLT(set), job_set,
	    "job: an [experiment] key of the fleet\n"
	    "(what submit --until gave; repeatable)", .scope = "job"),
	CMD_FLAG_END
};

/*
 * Bad input is found before anything is submitted: the experiment, the
 * shared directory (into fc->dir), abbench's own path, the scheduler and
 * its partitions. 0, or an EXIT_* code after saying why.
 */
static int
submit_check(struct fleet_ctx *fc, const struct submit_opts *o,
    const char *exp_path, struct experiment **e, char **exp_abs,
    char **self)
{
	struct strvec	 have = STRVEC_INIT;
	char		*cause = NULL, *p;
	int		 rc;
	size_t		 i;

	if ((*e = experiment_load_set(exp_path, o->keys.n > 0 ? o->keys.v :
	    NULL, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if ((*exp_abs = realpath(exp_path, NULL)) == NULL) {
		error("fleet: '%s': %s", exp_path, strerror(errno));
		return EXIT_USAGE;
	}
	if ((p = realpath(o->base, NULL)) == NULL || !fleet_is_dir(p)) {
		error("fleet: shared directory '%s': %s", o->base, p == NULL ?
		    strerror(errno) : "not a directory");
		free(p);
		return EXIT_USAGE;
	}
	fc->dir = p;
	/* sbatch reads %j, %N... in --output and --chdir as patterns. */
	if (strchr(fc->dir, '%') != NULL || strchr(fc->dir, '\n') != NULL)
		return fleet_usage("shared directory '%s': a '%%' or a "
		    "newline in its path would reach sbatch as a pattern",
		    fc->dir);
	if ((*self = realpath("/proc/self/exe", NULL)) == NULL) {
		error("fleet: cannot find abbench's own path: %s",
		    strerror(errno));
		return EXIT_USAGE;
	}
	if ((fc->sched = fleet_sched_find(o->sched_name, &cause)) == NULL) {
		rc = fleet_usage("%s", cause);
		free(cause);
		return rc;
	}
	if (fc->sched->available(&cause) != 0 ||
	    fc->sched->partitions(&have, &cause) != 0) {
		error("fleet: %s is not available: %s", o->sched_name, cause);
		free(cause);
		strvec_clear(&have);
		return EXIT_FAIL;
	}
	rc = 0;
	for (i = 0; i < o->parts.n; i++)
		if (!strvec_has(&have, o->parts.v[i])) {
			rc = fleet_usage("no partition '%s' in %s (there are: "
			    "%s%s%s%s)", o->parts.v[i], o->sched_name,
			    have.n > 0 ? have.v[0] : "none", have.n > 1 ?
			    ", " : "", have.n > 1 ? have.v[1] : "",
			    have.n > 2 ? ", ..." : "");
			break;
		}
	strvec_clear(&have);
	return rc;
}

/*
 * The fleet directory FLEET_ID under fc->dir, its runs/ and logs/, the
 * batch script and fleet.db with the fleet's record. 0, or EXIT_FAIL
 * after saying why.
 */
static int
submit_create(struct fleet_ctx *fc, const struct submit_opts *o,
    const struct experiment *e, const char *exp_abs, const char *self)
{
	char	*cause = NULL, *script = NULL, *db = NULL, *p, *sub;
	int	 r, rc = EXIT_FAIL;

	fc->id = fleet_new_id();
	p = xasprintf("%s/%s", fc->dir, fc->id);
	free(fc->dir);
	fc->dir = p;
	if (mkdir(fc->dir, 0755) == -1) {
		error("fleet: cannot create '%s': %s", fc->dir,
		    strerror(errno));
		return EXIT_FAIL;
	}
	sub = xasprintf("%s/runs", fc->dir);
	r = mkdir(sub, 0755);
	free(sub);
	sub = xasprintf("%s/logs", fc->dir);
	if (r == -1 || mkdir(sub, 0755) == -1) {
		error("fleet: cannot create '%s': %s", sub, strerror(errno));
		free(sub);
		return EXIT_FAIL;
	}
	free(sub);
	if (fleet_write_script(fc->dir, &script, &cause) != 0)
		goto fail_cause;
	db = xasprintf("%s/%s", fc->dir, FLEET_DB);
	if ((fc->st = store_open(db, STORE_CREATE, &cause)) == NULL)
		goto fail_cause;
	fc->f.id = xstrdup(fc->id);
	fc->f.created_wall_ns = now_wall_ns();
	fc->f.dir = xstrdup(fc->dir);
	fc->f.experiment_path = xstrdup(exp_abs);
	fc->f.experiment_name = xstrdup(e->name);
	fc->f.scheduler = xstrdup(o->sched_name);
	fc->f.abbench_path = xstrdup(self);
	fc->f.abbench_version = xstrdup(PACKAGE_VERSION);
	fc->f.time_limit = o->time_limit != NULL ?
	    xstrdup(o->time_limit) : NULL;
	strvec_pushv(&fc->f.args, o->extra.v);
	strvec_pushv(&fc->f.run_keys, o->keys.v);
	if (fleet_store_add(fc->st, &fc->f, &cause) != 0)
		goto fail_cause;
	rc = 0;
	goto out;
fail_cause:
	error("fleet: %s", cause);
	free(cause);
out:
	free(script);
	free(db);
	return rc;
}

/* The replicas asked for on partition part: P:N, else --per-partition. */
static long long
submit_replicas(const struct submit_opts *o, const char *part)
{
	long long	nrep = o->per;
	size_t		i, l = strlen(part);

	for (i = 0; i < o->counts.n; i++)
		if (strncmp(o->counts.v[i], part, l) == 0 &&
		    o->counts.v[i][l] == ':')
			nrep = strtoll(o->counts.v[i] + l + 1, NULL, 10);
	return nrep;
}

/*
 * A job per (partition, replica), then the merge job after them all.
 * Half a fleet is not submitted: on a failure the jobs already submitted
 * are cancelled. EXIT_OK or EXIT_FAIL.
 */
static int
submit_jobs(struct fleet_ctx *fc, const struct submit_opts *o)
{
	struct strvec	 ids = STRVEC_INIT;
	char		*cause = NULL, *job = NULL;
	long long	 nrep;
	int		 r, rc = EXIT_FAIL;
	size_t		 i;

	if (!o->quiet)
		printf("fleet %s in %s\n", fc->id, fc->dir);
	else
		printf("%s\n", fc->id);
	fflush(stdout);
	for (i = 0; i < o->parts.n; i++) {
		nrep = submit_replicas(o, o->parts.v[i]);
		for (r = 1; r <= nrep; r++) {
			if (fleet_submit_shape(fc, o->parts.v[i], r, 1, &job,
			    &cause) != 0) {
				error("fleet: %s/%d: %s", o->parts.v[i], r,
				    cause);
				free(cause);
				cause = NULL;
				free(job);
				goto cancel;
			}
			if (!o->quiet)
				printf("%s/%d job %s\n", o->parts.v[i], r,
				    job);
			strvec_push_nodup(&ids, job);
			job = NULL;
		}
	}
	if (fleet_submit_merge(fc, o->parts.v[0], ids.v, ids.n, &job,
	    &cause) != 0) {
		error("fleet: the merge job: %s", cause);
		free(cause);
		cause = NULL;
		free(job);
		goto cancel;
	}
	free(fc->f.merge_job);
	fc->f.merge_job = job;
	if (!o->quiet)
		printf("merge job %s -> %s/%s\n", job, fc->dir, FLEET_DB);
	fflush(stdout);
	rc = EXIT_OK;
	goto out;

cancel:
	if (ids.n > 0 && fc->sched->cancel(ids.v, ids.n, &cause) != 0) {
		error("fleet: cancelling the jobs submitted: %s", cause);
		free(cause);
	}
out:
	strvec_clear(&ids);
	return rc;
}

static int
fleet_submit(struct cmd_ctx *c)
{
	struct submit_opts	*o = c->opts;
	struct fleet_ctx	 fc;
	struct experiment	*e = NULL;
	char			*exp_abs = NULL, *self = NULL;
	int			 rc;

	if (c->argc != 1)
		return fleet_usage("submit takes one EXPERIMENT.ini");
	if (o->parts.n == 0)
		return fleet_usage("submit needs --partitions P1,P2,...");
	if ((o->base = fleet_base(o->base)) == NULL)
		return fleet_usage("submit needs --dir SHARED_DIR");
	memset(&fc, 0, sizeof fc);
	if ((rc = submit_check(&fc, o, c->argv[0], &e, &exp_abs,
	    &self)) != 0)
		goto out;
	if ((rc = submit_create(&fc, o, e, exp_abs, self)) != 0)
		goto out;
	rc = submit_jobs(&fc, o);
	if (rc == EXIT_OK && o->wait)
		rc = fleet_wait(&fc, o->quiet);
out:
	if (e != NULL)
		experiment_free(e);
	free(exp_abs);
	free(self);
	fleet_close(&fc);
	return rc;
}

/*
 * The FLEET operand of status, collect, cancel and resubmit (NULL: none),
 * and --dir: 0, or EXIT_USAGE after saying why.
 */
static int
fleet_sel(struct cmd_ctx *c, int need_sel, const char **sel)
{
	struct submit_opts	*o = c->opts;
	const char		*verb = c->sub->name;

	o->base = fleet_base(o->base);
	*sel = c->argc > 0 ? c->argv[0] : NULL;
	if (c->argc > 1)
		return fleet_usage("%s: too many arguments", verb);
	if (need_sel && *sel == NULL)
		return fleet_usage("%s needs a FLEET (a directory, or an id "
		    "with --dir)", verb);
	return 0;
}

static int
fleet_status(struct cmd_ctx *c)
{
	struct submit_opts	*o = c->opts;
	struct fleet_ctx	 fc;
	const char		*sel;
	int			 rc;

	if ((rc = fleet_sel(c, 0, &sel)) != 0)
		return rc;
	if (sel == NULL)
		return fleet_list(o->base);
	if ((rc = fleet_open(&fc, sel, o->base, 0)) != 0)
		return rc;
	if (fleet_refresh(&fc, 1) != 0) {
		fleet_close(&fc);
		return EXIT_USAGE;
	}
	fleet_print_shapes(&fc);
	fleet_close(&fc);
	return EXIT_OK;
}


static int
fleet_collect(struct cmd_ctx *c)
{
	struct submit_opts	*o = c->opts;
	struct fleet_ctx	 fc;
	const char		*sel;
	int			 rc;

	if ((rc = fleet_sel(c, 1, &sel)) != 0)
		return rc;
	if ((rc = fleet_open(&fc, sel, o->base, 0)) != 0)
		return rc;
	rc = fleet_collect_run(&fc, o->quiet, o->merge_job);
	fleet_close(&fc);
	return rc;
}

static int
fleet_cancel(struct cmd_ctx *c)
{
	struct submit_opts	*o = c->opts;
	struct fleet_ctx	 fc;
	struct strvec		 ids = STRVEC_INIT;
	const char		*sel;
	char			*cause = NULL;
	size_t			 i;
	int			 rc;

	if ((rc = fleet_sel(c, 1, &sel)) != 0)
		return rc;
	if ((rc = fleet_open(&fc, sel, o->base, 0)) != 0)
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
	} else if (!o->quiet)
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
fleet_resubmit(struct cmd_ctx *c)
{
	struct submit_opts	*o = c->opts;
	struct fleet_ctx	 fc;
	struct strvec		 ids = STRVEC_INIT;
	const char		*sel;
	char			*cause = NULL, *job = NULL;
	size_t			 i;
	int			 rc;

	if ((rc = fleet_sel(c, 1, &sel)) != 0)
		return rc;
	if (!o->failed)
		return fleet_usage("resubmit needs --failed");
	if ((rc = fleet_open(&fc, sel, o->base, 0)) != 0)
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
		if (!o->quiet)
			printf("%s job %s (attempt %d, was job %s %s)\n",
			    s->name, job, s->job->attempt + 1, s->job->job_id,
			    s->js.state);
		strvec_push_nodup(&ids, job);
		job = NULL;
	}
	if (ids.n == 0) {
		if (!o->quiet)
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
		if (!o->quiet)
			printf("merge job %s\n", job);
	}
	fflush(stdout);
	if (rc == EXIT_OK && o->wait)
		rc = fleet_wait(&fc, o->quiet);
	strvec_clear(&ids);
	fleet_close(&fc);
	return rc;
}

/*
 * What the batch script runs on the node: the experiment into the shape's
 * database, or, when that database already holds its unfinished run (a
 * requeued or resubmitted job), `run --resume` of that run.
 */
/*
 * The unfinished run the shape's database db holds (a requeued or
 * resubmitted job) into *resume: 0 (*resume NULL: none), 1 its run is
 * done already, or -1 after saying why.
 */
static int
job_find_resume(const char *db, char **resume)
{
	struct store		*st;
	struct store_run	*runs = NULL;
	char			*cause = NULL;
	size_t			 n = 0, i;
	int			 rc = 0;

	*resume = NULL;
	if (!fleet_is_file(db))
		return 0;
	if ((st = store_open(db, STORE_READONLY, &cause)) == NULL ||
	    store_runs_list(st, &runs, &n, &cause) != 0) {
		error("fleet: %s", cause);
		free(cause);
		if (st != NULL)
			store_close(st);
		return -1;
	}
	if (n > 0 && strcmp(runs[n - 1].status, RUN_DONE) == 0) {
		printf("fleet: run %s in '%s' is already done\n",
		    runs[n - 1].uuid, db);
		rc = 1;
	} else if (n > 0)
		*resume = xstrdup(runs[n - 1].uuid);
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	store_close(st);
	return rc;
}

/* A resumed run says where it ran last: the scheduler's keys, the host. */
static void
job_record_where(const char *db, int64_t run_id)
{
	struct strvec	 where = STRVEC_INIT;
	struct store	*st;
	struct utsname	 u;
	char		*cause = NULL;
	size_t		 i;

	if ((st = store_open(db, 0, &cause)) == NULL) {
		free(cause);
		return;
	}
	hostinfo_scheduler(&where);
	/* The host too: the run's row names it (the run's owner). */
	if (uname(&u) == 0)
		strvec_pushf(&where, "host: %s", u.nodename);
	for (i = 0; i < where.n; i++) {
		char	*colon = strstr(where.v[i], ": ");

		if (colon == NULL)
			continue;
		*colon = '\0';
		(void)store_config_set(st, run_id, NULL, where.v[i],
		    colon + 2, NULL);
	}
	strvec_clear(&where);
	store_close(st);
}

/*
 * What the batch script runs on the node: the experiment into the shape's
 * database, or, when that database already holds its unfinished run (a
 * requeued or resubmitted job), `run --resume` of that run.
 */
static int
fleet_job(struct cmd_ctx *c)
{
	const struct submit_opts	*o = c->opts;
	struct run_options		 ro;
	char				*resume = NULL;
	int				 rc;

	if (o->fleet_id == NULL || o->job_db == NULL || c->argc != 1)
		return fleet_usage("job needs --fleet-id ID --db FILE "
		    "EXPERIMENT.ini");
	/* hostinfo_scheduler() records these with the run. */
	setenv("ABBENCH_FLEET_ID", o->fleet_id, 1);
	if (o->replica != NULL)
		setenv("ABBENCH_FLEET_REPLICA", o->replica, 1);
	if ((rc = job_find_resume(o->job_db, &resume)) != 0)
		return rc == 1 ? EXIT_OK : EXIT_USAGE;
	memset(&ro, 0, sizeof ro);
	ro.db_path = o->job_db;
	ro.rounds = -1;
	ro.resume = resume;
	ro.build = ABBENCH_GIT_DESCRIBE;
	/* The fleet's keys (submit --until); a resumed run has them stored. */
	ro.set = o->set.n > 0 ? o->set.v : NULL;
	/* A requeued or resubmitted job: the scheduler ended the earlier
	 * instance, perhaps on another node, whose pid means nothing here. */
	ro.takeover = resume != NULL;
	if (resume != NULL)
		printf("fleet: resuming run %s in '%s'\n", resume, o->job_db);
	fflush(stdout);
	rc = runner_run(resume != NULL ? NULL : c->argv[0], &ro);
	if (resume != NULL && ro.run_id > 0)
		job_record_where(o->job_db, ro.run_id);
	free(resume);
	return rc;
}

/* The subcommands: each parses the flags its scope names. */
static const struct cmd_sub fleet_subs[] = {
	{ "submit", NULL, 0, fleet_submit },
	{ "status", NULL, 0, fleet_status },
	{ "collect", NULL, 0, fleet_collect },
	{ "cancel", NULL, 0, fleet_cancel },
	{ "resubmit", NULL, 0, fleet_resubmit },
	{ "job", NULL, CMD_HIDDEN, fleet_job },
	{ NULL, NULL, 0, NULL }
};

const struct cmd_entry cmd_fleet_entry = {
	.name = "fleet",
	.args = "submit EXPERIMENT.ini --partitions P1,P2 [--per-partition N] "
	    "--dir SHARED_DIR [--time LIMIT] [--sbatch-arg ARG]... "
	    "[--until decided] [--max-rounds N] [--wait] | "
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
"      [--until decided] [--max-rounds N] [--quiet]\n"
"                  --until decided: every shape's run stops by the rule\n"
"                  of `abbench run --until decided` (stop = decided, with\n"
"                  --max-rounds or the file's), also when resubmitted;\n"
"                  N replicas per partition (--per-partition, default 1;\n"
"                  P:N for one partition); --time and every --sbatch-arg\n"
"                  go to sbatch as they are (one argument each);\n"
"                  prints the fleet id and the job ids (--quiet: the id\n"
"                  only); --wait shows one live line (pending, running,\n"
"                  done, failed per shape) and exits with the fleet's\n"
"                  status, as collect does\n"
"  status [FLEET]  every shape: its job, Slurm's state and reason, its\n"
"                  run; the merge job and its state (CANCELLED: nothing\n"
"                  was merged); without FLEET, every fleet under --dir\n"
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
	.opts = fleet_flags,
	.opts_size = sizeof(struct submit_opts),
	.opts_init = submit_opts_init,
	.opts_release = submit_opts_release,
	.subs = fleet_subs,
};
