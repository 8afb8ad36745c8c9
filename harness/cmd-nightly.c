/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench nightly: run an experiment (or take a stored run) and judge it
 * against its baseline and history (harness/analysis/nightly.h): one verdict line
 * per benchmark, JSON with --json, a report with -o, exit 1 on any
 * regression.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "exec/spawn.h"
#include "harness/cmd.h"
#include "harness/fleet/fleet.h"
#include "harness/core/experiment.h"
#include "harness/analysis/nightly.h"
#include "harness/analysis/report.h"
#include "harness/core/runner.h"
#include "lib/util.h"
#include "results/store.h"

/* --strict: nothing regressed, but something could not be judged. */
#define EXIT_INCONCLUSIVE	3

/* Run the experiment; *run_id = the run it made. */
static int
nightly_run(const char *exp_path, const char *db, int rounds, int quiet,
    int64_t *run_id)
{
	struct run_options	ro;
	int			rc;

	memset(&ro, 0, sizeof(ro));
	ro.db_path = db;
	ro.rounds = rounds;
	ro.quiet = quiet;
	rc = runner_run(exp_path, &ro);
	*run_id = ro.run_id;
	if (rc == EXIT_USAGE && ro.run_id == 0)
		return -1;
	if (rc != EXIT_OK)
		warning("nightly: the run of '%s' exited %d", exp_path, rc);
	if (*run_id == 0) {
		error("nightly: the run of '%s' left no run in '%s'", exp_path,
		    db);
		return -1;
	}
	return 0;
}

static int
nightly_parse_pct(const char *s, double *out)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (end == s || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(v >= 0 && v < 1000))
		return -1;
	*out = v / 100;
	return 0;
}

/* The fleet-id config key of a run, or NULL (malloc'd). */
static char *
nightly_run_fleet(struct store *st, int64_t run_id)
{
	struct store_kv	*kv = NULL;
	size_t		 n = 0, i;
	char		*id = NULL;

	if (store_config_list(st, run_id, &kv, &n, NULL) == -1)
		return NULL;
	for (i = 0; i < n && id == NULL; i++)
		if (kv[i].arm[0] == '\0' && strcmp(kv[i].key, "fleet-id") == 0)
			id = xstrdup(kv[i].value);
	store_kv_free(kv, n);
	return id;
}

/*
 * The shapes of a submitted fleet that have no judged run: those whose
 * nodes were all down or drained (gone: "PARTITION\tWHY"), and those of
 * want that ran and left no done run. Printed (a block, or a JSON object
 * each) and named in *missing: missing is not passing.
 */
static void
nightly_fleet_missing(const struct strvec *want, const struct strvec *gone,
    const struct strvec *judged, struct strvec *missing, int json,
    size_t nshapes)
{
	struct strvec	 why = STRVEC_INIT;
	size_t		 i, k;
	char		*tab;

	for (i = 0; gone != NULL && i < gone->n; i++) {
		tab = strchr(gone->v[i], '\t');
		strvec_pushf(missing, "%.*s", (int)(tab - gone->v[i]),
		    gone->v[i]);
		strvec_pushf(&why, "all its nodes are down or drained: %s",
		    tab + 1);
	}
	for (i = 0; want != NULL && i < want->n; i++)
		if (!strvec_has(judged, want->v[i]) &&
		    !strvec_has(missing, want->v[i])) {
			strvec_push(missing, want->v[i]);
			strvec_push(&why, "its job left no done run "
			    "(abbench fleet status says how it ended)");
		}
	for (k = 0; k < missing->n; k++) {
		if (json) {
			json_t	*o = json_pack("{s:s,s:s,s:s}", "shape",
			    missing->v[k], "verdict", "missing", "why",
			    why.v[k]);
			char	*t = json_dumps(o, JSON_INDENT(2));

			fputs(nshapes + k == 0 ? "[\n" : ",\n", stdout);
			fputs(t, stdout);
			free(t);
			json_decref(o);
		} else
			printf("# shape %s: missing: %s\n", missing->v[k],
			    why.v[k]);
	}
	strvec_clear(&why);
}

/*
 * db opened for judging: for writing when it can be (the judgement keeps
 * each night's state with its run, harness/analysis/nightly-state.h, so
 * that the next night judges one night), else read-only (the judgement
 * replays every night then, with the same answers). NULL and *cause.
 */
static struct store *
nightly_store_open(const char *db, char **cause)
{
	struct store	*st;
	char		*why = NULL;

	if ((st = store_open(db, 0, &why)) != NULL)
		return st;
	free(why);
	return store_open(db, STORE_READONLY, cause);
}

/*
 * --fleet judges every run of one fleet (merged into the database), each
 * shape against the history of its own host class; exit 1 naming every
 * shape that regressed.
 */
static int
nightly_fleet(const char *db, const char *fleet,
    const struct nightly_options *no, int json, int quiet, int strict,
    const struct strvec *want, const struct strvec *gone)
{
	size_t			 ninconclusive = 0;
	struct strvec		 judged = STRVEC_INIT, missing = STRVEC_INIT;
	struct store		*st;
	struct store_run	*runs = NULL;
	struct strvec		 regressed = STRVEC_INIT;
	struct nightly_result	 res;
	struct strbuf		 out = STRBUF_INIT, names = STRBUF_INIT;
	char			*cause = NULL, *id, *id_want = NULL;
	size_t			 n = 0, i, nshapes = 0;
	int			 rc = EXIT_OK;

	if ((st = nightly_store_open(db, &cause)) == NULL ||
	    store_runs_list(st, &runs, &n, &cause) == -1) {
		error("nightly: %s", cause);
		free(cause);
		if (st != NULL)
			store_close(st);
		return EXIT_USAGE;
	}
	if (strcmp(fleet, "last") == 0) {
		for (i = n; i > 0 && id_want == NULL; i--)
			id_want = nightly_run_fleet(st, runs[i - 1].id);
	} else
		id_want = xstrdup(fleet);
	for (i = 0; id_want != NULL && i < n; i++) {
		id = nightly_run_fleet(st, runs[i].id);
		if (id == NULL || strcmp(id, id_want) != 0) {
			free(id);
			continue;
		}
		free(id);
		if (nightly_judge(st, runs[i].id, no, &res, &cause) == -1) {
			error("nightly: run %" PRId64 ": %s", runs[i].id,
			    cause);
			free(cause);
			cause = NULL;
			rc = EXIT_USAGE;
			continue;
		}
		nshapes++;
		ninconclusive += res.ninconclusive;
		if (res.host_class != NULL)
			strvec_pushf(&judged, "%.*s", (int)strcspn(
			    res.host_class, "/"), res.host_class);
		strbuf_reset(&out);
		if (json) {
			/* One JSON array of the shapes' documents. */
			fputs(nshapes == 1 ? "[\n" : ",\n", stdout);
			nightly_format_json(&res, &out);
			while (out.len > 0 && out.buf[out.len - 1] == '\n')
				out.buf[--out.len] = '\0';
		} else {
			printf("# shape %s: run %" PRId64 " on %s against %zu "
			    "baseline run%s, %zu night%s of history\n",
			    res.host_class != NULL ? res.host_class : res.host,
			    res.run_id, res.host, res.nbaseline,
			    res.nbaseline == 1 ? "" : "s", res.nhistory,
			    res.nhistory == 1 ? "" : "s");
			nightly_format_text(&res, &out);
		}
		if (out.len > 0)
			fwrite(out.buf, 1, out.len, stdout);
		if (res.nregressed > 0) {
			strvec_push(&regressed, res.host_class != NULL ?
			    res.host_class : res.host);
			if (rc == EXIT_OK)
				rc = EXIT_FAIL;
		}
		nightly_result_release(&res);
	}
	nightly_fleet_missing(want, gone, &judged, &missing, json, nshapes);
	if (json && nshapes + missing.n > 0)
		fputs("\n]\n", stdout);
	fflush(stdout);
	if (missing.n > 0 && rc == EXIT_OK)
		rc = EXIT_FAIL;
	/* The worst shape's verdict: --strict's inconclusive last. */
	if (rc == EXIT_OK && strict && ninconclusive > 0)
		rc = EXIT_INCONCLUSIVE;
	if (nshapes == 0 && missing.n == 0 && rc == EXIT_OK) {
		error("nightly: no run of fleet '%s' in '%s'", id_want != NULL ?
		    id_want : fleet, db);
		rc = EXIT_USAGE;
	}
	for (i = 0; i < regressed.n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", regressed.v[i]);
	if (regressed.n > 0)
		fprintf(stderr, "nightly: fleet %s: %zu of %zu shapes "
		    "regressed: %s\n", id_want, regressed.n, nshapes +
		    missing.n, names.buf);
	else if (!quiet && nshapes > 0 && missing.n == 0)
		fprintf(stderr, "nightly: fleet %s: %zu shapes, none "
		    "regressed\n", id_want, nshapes);
	strbuf_reset(&names);
	for (i = 0; i < missing.n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", missing.v[i]);
	if (missing.n > 0)
		fprintf(stderr, "nightly: fleet %s: %zu of %zu shapes "
		    "missing (not judged, not passing): %s\n", id_want,
		    missing.n, nshapes + missing.n, names.buf);
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	free(id_want);
	strvec_clear(&regressed);
	strvec_clear(&judged);
	strvec_clear(&missing);
	strbuf_release(&out);
	strbuf_release(&names);
	store_close(st);
	return rc;
}

/* nightly's command line. */
struct nightly_exec_args {
	struct nightly_options	 no;
	const char		*db, *no_run, *report, *exp_path, *fleet;
	const char		*fleet_dir, *fleet_time;
	int			 json, quiet, rounds, strict;
	int64_t			 ack;		/* a night, 0 none */
	struct experiment	 exp;		/* --rounds, by its table */
	int			 rounds_set;
};

#define NIG(m)	OPT_AT(struct nightly_exec_args, m)

/* --threshold PCT or auto. */
static int
nightly_threshold(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	struct nightly_options	*no = &((struct nightly_exec_args *)opts)->no;

	(void)f;
	if (strcmp(value, "auto") == 0) {
		no->threshold_auto = 1;
		return 0;
	}
	if (nightly_parse_pct(value, &no->threshold) == -1)
		return set_cause(cause, "threshold '%s' is not a percentage",
		    value);
	return 0;
}

/* --alpha A, per night: in (0, 0.0625). */
static int
nightly_alpha(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	double	*alpha = opt_member(&f->opt, opts);

	if (parse_double(value, alpha, cause) == -1)
		return -1;
	if (!(*alpha > 0 && *alpha < 0.0625))
		return set_cause(cause, "alpha '%s' is not in (0, 0.0625)",
		    value);
	return 0;
}

static const struct cmd_flag nightly_flags[] = {
	CMD_STR("db", 'd', "FILE", NIG(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_INT64("baseline", 'b', "N", NIG(no.baseline), 1, 100000,
	    "nights a benchmark is compared with at most (default 30)"),
	CMD_INT64("baseline-from", 0, "NIGHT", NIG(no.baseline_from), 1,
	    INT64_MAX,
	    "compare with the nights from NIGHT on only (its number\n"
	    "as the verdict lines print it), this time"),
	CMD_INT64("ack", 0, "NIGHT", NIG(ack), 1, INT64_MAX,
	    "accept night NIGHT's level as the new normal for good:\n"
	    "stored with the run of that night (of the judged run's\n"
	    "history), then judge"),
	CMD_INT64("history", 'H', "N", NIG(no.history), 0, 1000000,
	    "replay the rule over the last N nights only (default 0:\n"
	    "every night, from the state the last night judged kept)"),
	CMD_FN("threshold", 't', "PCT", NIG(no.threshold), nightly_threshold,
	    "minimum change that counts, percent (default 2), or\n"
	    "auto: per benchmark, from the latest calibration"),
	CMD_BOOL("strict", 0, NIG(strict),
	    "exit 3 when nothing regressed but something was\n"
	    "inconclusive"),
	CMD_FN("alpha", 'a', "A", NIG(no.alpha), nightly_alpha,
	    "the night test's level, per night (default 0.0005;\n"
	    "the two-night test's is 6 times it)"),
	CMD_EXP("rounds", 'r', "N", NIG(exp), "rounds",
	    "override the experiment's rounds", .given = NIG(rounds_set)),
	CMD_STR("no-run", 'n', "RUN", NIG(no_run),
	    "judge a stored run (id, uuid prefix, last, NAME@last)"),
	CMD_STR("fleet", 0, "ID", NIG(fleet),
	    "judge every run of a fleet (an id or last) merged into\n"
	    "--db, each shape against its own host class's history;\n"
	    "exit 1 naming the shapes that regressed or are missing.\n"
	    "With an experiment: PARTITIONS (a comma list) or all,\n"
	    "submit it as a fleet there (--fleet-dir), wait, merge\n"
	    "it into --db, judge it; a partition whose nodes are\n"
	    "all down is missing, not passing"),
	CMD_STR("fleet-dir", 0, "DIR", NIG(fleet_dir),
	    "with an experiment and --fleet PARTITIONS|all: the\n"
	    "fleets' shared directory (default $ABBENCH_FLEET_DIR)"),
	CMD_STR("fleet-time", 0, "LIMIT", NIG(fleet_time),
	    "with --fleet-dir: sbatch --time of each shape's job"),
	CMD_BOOL("json", 'j', NIG(json),
	    "print the verdicts as JSON"),
	CMD_STR("output", 'o', "FILE", NIG(report),
	    "also write a report (.html or .md), also -o"),
	CMD_BOOL("quiet", 'q', NIG(quiet),
	    "no summary on stderr, no progress (also -q)"),
	CMD_FLAG_END
};

static void
nightly_args_init(void *opts)
{
	nightly_options_init(&((struct nightly_exec_args *)opts)->no);
}

static void
nightly_args_release(void *opts)
{
	opt_release(experiment_opts, &((struct nightly_exec_args *)opts)->exp);
}

/*
 * The run to judge: the experiment run now into db, or --no-run's stored
 * run; *st is db opened (nightly_store_open). 0, or EXIT_USAGE after
 * saying why.
 */
static int
nightly_exec_pick_run(const struct nightly_exec_args *a, const char *db,
    struct store **st, int64_t *run_id)
{
	struct store_run	 run;
	char			*cause = NULL;

	if (a->no_run == NULL) {
		if (nightly_run(a->exp_path, db, a->rounds, a->quiet,
		    run_id) == -1)
			return EXIT_USAGE;
	}
	if ((*st = nightly_store_open(db, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (a->no_run != NULL) {
		memset(&run, 0, sizeof(run));
		if (store_run_find(*st, a->no_run, &run, &cause) == -1) {
			error("%s", cause);
			free(cause);
			store_close(*st);
			*st = NULL;
			return EXIT_USAGE;
		}
		*run_id = run.id;
		store_run_release(&run);
	}
	return 0;
}

/* Judge run_id, print the verdicts, write the report (-o); EXIT_*. */
static int
nightly_exec_judge(struct store *st, int64_t run_id,
    struct nightly_exec_args *a)
{
	struct nightly_result	 res;
	struct report_options	 ro;
	struct strbuf		 out = STRBUF_INIT;
	char			*cause = NULL;
	int			 rc;

	if (nightly_judge(st, run_id, &a->no, &res, &cause) == -1) {
		error("nightly: %s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (res.nrows == 0)
		warning("nightly: run %" PRId64 " has no samples to judge",
		    run_id);
	if (a->no.threshold_auto && res.calib_run == 0)
		warning("nightly: --threshold auto: no calibration of '%s' on "
		    "this host class (abbench calibrate): thresholds %g%%",
		    res.name, 100 * a->no.threshold);
	if (a->json)
		nightly_format_json(&res, &out);
	else
		nightly_format_text(&res, &out);
	if (out.len > 0)
		fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	strbuf_release(&out);
	if (!a->quiet)
		fprintf(stderr, "nightly: run %" PRId64 " of '%s' on '%s' "
		    "against %zu baseline run%s, %zu night%s of history: "
		    "%d regressed, %d improved, %d inconclusive\n", res.run_id,
		    res.name, res.host, res.nbaseline,
		    res.nbaseline == 1 ? "" : "s", res.nhistory,
		    res.nhistory == 1 ? "" : "s", res.nregressed,
		    res.nimproved, res.ninconclusive);
	rc = res.nregressed > 0 ? EXIT_FAIL : EXIT_OK;
	if (rc == EXIT_OK && a->strict && res.ninconclusive > 0)
		rc = EXIT_INCONCLUSIVE;
	if (a->report != NULL) {
		memset(&ro, 0, sizeof(ro));
		ro.path = a->report;
		ro.format = report_format_of(a->report);
		ro.nightly = &res;
		if (report_write(st, run_id, &ro, &cause) == -1) {
			error("nightly: report: %s", cause);
			free(cause);
			rc = EXIT_USAGE;
		}
	}
	nightly_result_release(&res);
	return rc;
}

/*
 * --ack NIGHT: store the mark in db (opened for writing just for it), then
 * reopen it into *st (nightly_store_open). 0, or EXIT_USAGE after saying
 * why.
 */
static int
nightly_exec_ack(const struct nightly_exec_args *a, const char *db,
    int64_t run_id, struct store **st)
{
	char	*cause = NULL;
	int64_t	 acked = 0;

	if ((*st = store_open(db, 0, &cause)) == NULL ||
	    nightly_ack(*st, run_id, a->ack, &a->no, &acked, &cause) == -1) {
		error("nightly: --ack %" PRId64 ": %s", a->ack, cause);
		free(cause);
		if (*st != NULL)
			store_close(*st);
		*st = NULL;
		return EXIT_USAGE;
	}
	store_close(*st);
	if (!a->quiet)
		fprintf(stderr, "nightly: night %" PRId64 " (run %" PRId64 ") "
		    "accepted: a new reference starts there\n", a->ack, acked);
	if ((*st = nightly_store_open(db, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	return 0;
}

/* The longest a nightly fleet may take, submission to merge. */
#define NIGHTLY_FLEET_TIMEOUT_NS	(48LL * 3600 * NSEC_PER_SEC)

/*
 * The partitions of --fleet PARTITIONS|all that can take a job (*up) and
 * those whose nodes are all down or drained (*gone, "PARTITION\tWHY").
 */
static int
nightly_fleet_shapes(const struct fleet_sched_ops *sc, const char *which,
    struct strvec *want, struct strvec *up, struct strvec *gone)
{
	char	*cause = NULL, *why, *list, *p, *save;
	size_t	 i, n;

	if (strcmp(which, "all") == 0) {
		if (sc->partitions(want, &cause) == -1)
			goto fail;
	} else {
		list = xstrdup(which);
		for (p = strtok_r(list, ",", &save); p != NULL;
		    p = strtok_r(NULL, ",", &save))
			if (*p != '\0' && !strvec_has(want, p))
				strvec_push(want, p);
		free(list);
	}
	if (want->n == 0) {
		cause = xasprintf("no partitions in '%s'", which);
		goto fail;
	}
	for (i = 0; i < want->n; i++) {
		if (sc->usable(want->v[i], &n, &why, &cause) == -1)
			goto fail;
		if (n > 0)
			strvec_push(up, want->v[i]);
		else
			strvec_pushf(gone, "%s\t%s", want->v[i], why);
		free(why);
	}
	return 0;
fail:
	error("nightly: --fleet %s: %s", which, cause);
	free(cause);
	return -1;
}

/*
 * nightly EXPERIMENT --fleet PARTITIONS|all: submit the experiment to
 * every partition that has a node up (abbench fleet submit --wait, this
 * binary), merge the fleet's fleet.db into the history database, judge
 * each shape against its own history; the worst verdict is the exit
 * status, and a shape that could not run (its nodes all down) or left no
 * done run is missing, which is not passing.
 */
static int
nightly_fleet_submit(struct nightly_exec_args *a, const char *db)
{
	const struct fleet_sched_ops	*sc;
	struct strvec			 want = STRVEC_INIT, up = STRVEC_INIT;
	struct strvec			 gone = STRVEC_INIT, argv = STRVEC_INIT;
	struct strbuf			 parts = STRBUF_INIT;
	struct store			*st;
	const char			*base = fleet_base(a->fleet_dir);
	char				*cause = NULL, *out = NULL, *err = NULL;
	char				*self = NULL, *id = NULL, *fdb;
	int				 status = -1, added = 0;
	int				 rc = EXIT_USAGE;
	int64_t				 samples = 0;
	size_t				 i;

	if (base == NULL) {
		error("nightly: --fleet with an experiment needs --fleet-dir "
		    "DIR (or $ABBENCH_FLEET_DIR): the fleets' shared "
		    "directory");
		return EXIT_USAGE;
	}
	if ((sc = fleet_sched_find("slurm", &cause)) == NULL ||
	    sc->available(&cause) == -1) {
		error("nightly: --fleet: %s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (nightly_fleet_shapes(sc, a->fleet, &want, &up, &gone) == -1)
		goto out;
	if (up.n > 0) {
		if ((self = realpath("/proc/self/exe", NULL)) == NULL) {
			error("nightly: /proc/self/exe: %s", strerror(errno));
			goto out;
		}
		for (i = 0; i < up.n; i++)
			strbuf_addf(&parts, "%s%s", i ? "," : "", up.v[i]);
		strvec_push(&argv, self);
		strvec_push(&argv, "fleet");
		strvec_push(&argv, "submit");
		strvec_push(&argv, a->exp_path);
		strvec_pushf(&argv, "--partitions=%s", parts.buf);
		strvec_pushf(&argv, "--dir=%s", base);
		strvec_push(&argv, "--wait");
		strvec_push(&argv, "--quiet");
		if (a->fleet_time != NULL)
			strvec_pushf(&argv, "--time=%s", a->fleet_time);
		if (spawn_capture(argv.v, NIGHTLY_FLEET_TIMEOUT_NS, &out, &err,
		    &status, &cause) == -1) {
			error("nightly: fleet submit: %s", cause);
			free(cause);
			goto out;
		}
		if (err != NULL && *err != '\0')
			fputs(err, stderr);
		/* 0 every shape done, 1 some not: they are missing. */
		if (out == NULL || (id = strtok(out, "\n")) == NULL ||
		    !WIFEXITED(status) || WEXITSTATUS(status) > 1) {
			error("nightly: fleet submit of '%s' failed",
			    a->exp_path);
			goto out;
		}
		fdb = xasprintf("%s/%s/%s", base, id, "fleet.db");
		if ((st = store_open(db, STORE_CREATE, &cause)) == NULL ||
		    store_merge(st, fdb, &added, &samples, &cause) != 0) {
			error("nightly: merging '%s' into '%s': %s", fdb, db,
			    cause);
			free(cause);
			free(fdb);
			if (st != NULL)
				store_close(st);
			goto out;
		}
		store_close(st);
		if (!a->quiet)
			fprintf(stderr, "nightly: fleet %s: merged %d run%s "
			    "(%" PRId64 " samples) into %s\n", id, added,
			    added == 1 ? "" : "s", samples, db);
		free(fdb);
		rc = nightly_fleet(db, id, &a->no, a->json, a->quiet,
		    a->strict, &want, &gone);
	} else {
		struct strvec	 none = STRVEC_INIT, missing = STRVEC_INIT;

		rc = EXIT_FAIL;
		nightly_fleet_missing(&want, &gone, &none, &missing, a->json,
		    0);
		strvec_clear(&missing);
		if (a->json)
			fputs("\n]\n", stdout);
		fprintf(stderr, "nightly: --fleet %s: every shape is missing "
		    "(no partition has a node up): nothing submitted\n",
		    a->fleet);
	}
out:
	free(self);
	free(out);
	free(err);
	strbuf_release(&parts);
	strvec_clear(&want);
	strvec_clear(&up);
	strvec_clear(&gone);
	strvec_clear(&argv);
	return rc;
}

static int
cmd_nightly_exec(struct cmd_ctx *c)
{
	struct nightly_exec_args	*a = c->opts;
	struct store			*st = NULL;
	const char			*db;
	int64_t				 run_id = 0;
	int				 rc;

	a->rounds = a->rounds_set ? a->exp.rounds : -1;
	a->exp_path = c->argc > 0 ? c->argv[0] : NULL;
	if (c->argc > 1) {
		error("nightly: too many arguments");
		return EXIT_USAGE;
	}
	if (a->fleet != NULL && a->exp_path != NULL) {
		if (a->no_run != NULL || a->report != NULL || a->ack != 0 ||
		    a->rounds >= 0) {
			error("nightly: --fleet with an experiment: no "
			    "--no-run, --ack, --rounds or -o with it");
			return EXIT_USAGE;
		}
		return nightly_fleet_submit(a, c->db);
	}
	if (a->fleet != NULL) {
		if (a->exp_path != NULL || a->no_run != NULL ||
		    a->report != NULL || a->ack != 0) {
			error("nightly: --fleet judges stored runs: no "
			    "experiment, --no-run, --ack or -o with it");
			return EXIT_USAGE;
		}
		return nightly_fleet(c->db, a->fleet, &a->no,
		    a->json, a->quiet, a->strict, NULL, NULL);
	}
	if (a->exp_path == NULL && a->no_run == NULL) {
		error("nightly: an experiment file (or --no-run RUN) is "
		    "needed");
		return EXIT_USAGE;
	}
	db = c->db;
	if ((rc = nightly_exec_pick_run(a, db, &st, &run_id)) != 0)
		return rc;
	if (a->ack != 0) {
		store_close(st);
		if ((rc = nightly_exec_ack(a, db, run_id, &st)) != 0)
			return rc;
	}
	rc = nightly_exec_judge(st, run_id, a);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_nightly_entry = {
	.name = "nightly",
	.args = "[EXPERIMENT.ini] [--db FILE] [--baseline N] "
	    "[--threshold PCT|auto] [--ack NIGHT] [--baseline-from NIGHT] "
	    "[--strict] [--no-run RUN | --fleet ID] [--fleet PARTITIONS|all "
	    "--fleet-dir DIR [--fleet-time LIMIT]] [--json] [-o REPORT]",
	.summary = "run and judge a nightly regression job",
	.help =
"Runs EXPERIMENT.ini (or, with --no-run RUN, takes a stored run) and judges\n"
"it against its history: the runs of the same experiment name on the same\n"
"host with status done. A run a cluster scheduler placed (one with a\n"
"partition config key, see `abbench fleet`) is judged against the runs of\n"
"its host class instead, partition and vcpus, whatever its node's name:\n"
"cloud nodes are new every night.\n"
"\n"
"Each (arm, benchmark, unit) is judged by its nights: one value a night,\n"
"the median of that night's samples (a gobench invocation that prints a\n"
"benchmark several times counts once, by its median), with that median's\n"
"standard error. Tonight is compared with the nights before it since the\n"
"last change (at most --baseline of them), their mean and night-to-night\n"
"spread, never with their samples pooled: samples of different nights are\n"
"not independent. Two tests, with Student's t limits:\n"
"  night test      tonight alone, at --alpha (0.0005) a night;\n"
"  two-night test  the mean of last night and tonight, at 6 x alpha: a\n"
"                  smaller step is caught the night after.\n"
"A noisy night (a loaded machine: its samples spread far more than other\n"
"nights') is judged with its own noise and left out of later references;\n"
"one night off on its own, the next night back, is an outlier: it alarms\n"
"on its night, the night back does not.\n"
"\n"
"The rule is replayed over the history, so a change is reported once, as\n"
"`new change at night N (run R): +x% vs K nights, TEST z=Z beyond L` on\n"
"the night it was found, and as `known change ...` on the later nights,\n"
"which are judged against the nights since it: a known change fails\n"
"nothing. Nights count from 1, the experiment's first run on this host.\n"
"Each judged night keeps the rule's state with its run (the `nightly.state`\n"
"metadata), so the next night judges that one night, not the history,\n"
"with the answers of the whole replay (without a state, or from a store\n"
"that cannot be written, every night is judged again).\n"
"--ack NIGHT accepts a night's level as the new normal for good (stored\n"
"with that night's run); --baseline-from NIGHT does the same for one\n"
"judgement. Every arm is judged against the same arm of earlier runs.\n"
"\n"
"A machine shared with other work, or a cloud VM, changes speed from\n"
"night to night, and a benchmark measured alone cannot tell that from a\n"
"regression. An experiment whose [experiment] `control = ARM` names an\n"
"arm that runs an unchanged program (interleaved with the others in\n"
"every round) has every other arm judged on its ratio to that arm,\n"
"night by night (`ratio to ARM:` in its line): what slows both cancels.\n"
"The control arm's own rows are printed as `control`, the machine's\n"
"changes, and never fail the job.\n"
"Whether higher or lower is better comes from the run's `Unit ...\n"
"better=` metadata, else from the unit (sec/op, B, overhead: lower; iops,\n"
"bytes_per_second, work/s, B/s: higher).\n"
"\n"
"Prints one line per benchmark: regressed or improved (a new change of\n"
"at least the threshold; or last night's change, read below it on its\n"
"night, when its two nights' mean reaches it), unchanged, or\n"
"inconclusive: too few nights to\n"
"compare with (3 are needed), or `inconclusive (too noisy: MDE x%)` when\n"
"the smallest step the two-night test would catch (80% power) is above\n"
"the threshold, never unchanged. --threshold auto takes each benchmark's\n"
"threshold from the latest calibration of the experiment on this host\n"
"class (abbench calibrate); benchmarks it lacks keep 2%. Measured over\n"
"generated years (tests/unit/t-nightly-sim): 0.17-0.48 false alarms a\n"
"benchmark-year, a step of twice the samples' noise caught on its night\n"
"or the next in 91-99%.\n"
"\n"
"With --fleet PARTITIONS|all and an experiment, the experiment is\n"
"submitted as a fleet (abbench fleet submit --wait, under --fleet-dir) to\n"
"those partitions, or every partition of the cluster, its fleet.db merged\n"
"into --db, and every shape judged against its own host class's history.\n"
"A partition whose nodes are all down or drained gets no job and is\n"
"reported missing (`# shape c2: missing: ...`), as is one whose job left\n"
"no done run; missing is not passing (exit 1). The exit status is the\n"
"worst shape's.\n"
"\n"
"Exit status: 0 nothing regressed, 1 a regression, 2 on error, and with\n"
"--strict 3 when nothing regressed but something was inconclusive.\n",
	.exec = cmd_nightly_exec,
	.opts = nightly_flags,
	.opts_size = sizeof(struct nightly_exec_args),
	.opts_init = nightly_args_init,
	.opts_release = nightly_args_release,
};
