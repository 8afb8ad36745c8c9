/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench nightly: run an experiment (or take a stored run) and judge it
 * against its baseline and history (harness/nightly.h): one verdict line
 * per benchmark, JSON with --json, a report with -o, exit 1 on any
 * regression.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/nightly.h"
#include "harness/report.h"
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
 * --fleet: judge every run of one fleet (merged into the database), each
 * shape against the history of its own host class; exit 1 naming every
 * shape that regressed.
 */
static int
nightly_fleet(const char *db, const char *fleet,
    const struct nightly_options *no, int json, int quiet)
{
	struct store		*st;
	struct store_run	*runs = NULL;
	struct strvec		 regressed = STRVEC_INIT;
	struct nightly_result	 res;
	struct strbuf		 out = STRBUF_INIT, names = STRBUF_INIT;
	char			*cause = NULL, *id, *want = NULL;
	size_t			 n = 0, i, nshapes = 0;
	int			 rc = EXIT_OK;

	if ((st = store_open(db, STORE_READONLY, &cause)) == NULL ||
	    store_runs_list(st, &runs, &n, &cause) == -1) {
		error("nightly: %s", cause);
		free(cause);
		if (st != NULL)
			store_close(st);
		return EXIT_USAGE;
	}
	if (strcmp(fleet, "last") == 0) {
		for (i = n; i > 0 && want == NULL; i--)
			want = nightly_run_fleet(st, runs[i - 1].id);
	} else
		want = xstrdup(fleet);
	for (i = 0; want != NULL && i < n; i++) {
		id = nightly_run_fleet(st, runs[i].id);
		if (id == NULL || strcmp(id, want) != 0) {
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
	if (json && nshapes > 0)
		fputs("\n]\n", stdout);
	fflush(stdout);
	if (nshapes == 0 && rc == EXIT_OK) {
		error("nightly: no run of fleet '%s' in '%s'", want != NULL ?
		    want : fleet, db);
		rc = EXIT_USAGE;
	}
	for (i = 0; i < regressed.n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", regressed.v[i]);
	if (regressed.n > 0)
		fprintf(stderr, "nightly: fleet %s: %zu of %zu shapes "
		    "regressed: %s\n", want, regressed.n, nshapes, names.buf);
	else if (!quiet && nshapes > 0)
		fprintf(stderr, "nightly: fleet %s: %zu shapes, none "
		    "regressed\n", want, nshapes);
	for (i = 0; i < n; i++)
		store_run_release(&runs[i]);
	free(runs);
	free(want);
	strvec_clear(&regressed);
	strbuf_release(&out);
	strbuf_release(&names);
	store_close(st);
	return rc;
}

/* nightly's command line. */
struct nightly_exec_args {
	struct nightly_options	 no;
	const char		*db, *no_run, *report, *exp_path, *fleet;
	int			 json, quiet, rounds, strict;
	int64_t			 ack;		/* a night, 0 none */
};

/* The options and the experiment; 0, or EXIT_USAGE after saying why. */
extern const struct cmd_entry cmd_nightly_entry;

static const struct cmd_flag nightly_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "baseline", 'b', "N",
	    "nights a benchmark is compared with at most (default 30)",
	    NULL },
	{ "baseline-from", 'B', "NIGHT",
	    "compare with the nights from NIGHT on only (its number\n"
	    "as the verdict lines print it), this time", NULL },
	{ "ack", 'A', "NIGHT",
	    "accept night NIGHT's level as the new normal for good:\n"
	    "stored with the run of that night (of the judged run's\n"
	    "history), then judge", NULL },
	{ "history", 'H', "N",
	    "nights of history the rule is replayed over (default\n"
	    "60, 0 all)", NULL },
	{ "threshold", 't', "PCT",
	    "minimum change that counts, percent (default 2), or\n"
	    "auto: per benchmark, from the latest calibration", NULL },
	{ "strict", 'S', NULL,
	    "exit 3 when nothing regressed but something was\n"
	    "inconclusive", NULL },
	{ "alpha", 'a', "A",
	    "the night test's level, per night (default 0.0005;\n"
	    "the two-night test's is 6 times it)", NULL },
	{ "rounds", 'r', "N",
	    "override the experiment's rounds", NULL },
	{ "no-run", 'n', "RUN",
	    "judge a stored run (id, uuid prefix, last, NAME@last)", NULL },
	{ "fleet", 'F', "ID",
	    "judge every run of a fleet (an id or last) merged into\n"
	    "--db, each shape against its own host class's history;\n"
	    "exit 1 naming the shapes that regressed", NULL },
	{ "json", 'j', NULL,
	    "print the verdicts as JSON", NULL },
	{ "output", 'o', "FILE",
	    "also write a report (.html or .md), also -o", NULL },
	{ "quiet", 'q', NULL,
	    "no summary on stderr, no progress (also -q)", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
nightly_exec_parse(int argc, char **argv, struct nightly_exec_args *a)
{
	char		*cause = NULL;
	long long	 v;
	int		 c;

	memset(a, 0, sizeof *a);
	a->rounds = -1;
	nightly_options_init(&a->no);
	optind = 1;
	while ((c = cmd_getopt(&cmd_nightly_entry, NULL, 0, argc, argv)) != -1) {
		switch (c) {
		case 'd':
			a->db = optarg;
			break;
		case 'b':
			if (parse_int(optarg, 1, 100000, &v, &cause) == -1)
				goto usage;
			a->no.baseline = (size_t)v;
			break;
		case 'H':
			if (parse_int(optarg, 0, 1000000, &v, &cause) == -1)
				goto usage;
			a->no.history = (size_t)v;
			break;
		case 'B':
			if (parse_int(optarg, 1, INT64_MAX, &v, &cause) == -1)
				goto usage;
			a->no.baseline_from = (int64_t)v;
			break;
		case 'A':
			if (parse_int(optarg, 1, INT64_MAX, &v, &cause) == -1)
				goto usage;
			a->ack = (int64_t)v;
			break;
		case 'r': {
			/* The experiment's key, parsed by its table. */
			struct experiment	tmp;

			memset(&tmp, 0, sizeof tmp);
			if (experiment_set(&tmp, "rounds", optarg,
			    &cause) == -1)
				goto usage;
			a->rounds = tmp.rounds;
			break;
		}
		case 't':
			if (strcmp(optarg, "auto") == 0) {
				a->no.threshold_auto = 1;
				break;
			}
			if (nightly_parse_pct(optarg, &a->no.threshold) == -1) {
				cause = xasprintf("threshold '%s' is not a "
				    "percentage", optarg);
				goto usage;
			}
			break;
		case 'a':
			if (parse_double(optarg, &a->no.alpha, &cause) == -1)
				goto usage;
			if (!(a->no.alpha > 0 && a->no.alpha < 0.0625)) {
				cause = xasprintf("alpha '%s' is not in "
				    "(0, 0.0625)", optarg);
				goto usage;
			}
			break;
		case 'n':
			a->no_run = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'o':
			a->report = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'S':
			a->strict = 1;
			break;
		case 'F':
			a->fleet = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		a->exp_path = argv[optind++];
	if (optind < argc) {
		error("nightly: too many arguments");
		return EXIT_USAGE;
	}
	return 0;

usage:
	error("nightly: %s", cause);
	free(cause);
	return EXIT_USAGE;
}

/*
 * The run to judge: the experiment run now into db, or --no-run's stored
 * run; *st is db opened read-only. 0, or EXIT_USAGE after saying why.
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
	if ((*st = store_open(db, STORE_READONLY, &cause)) == NULL) {
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
 * reopen it read-only into *st. 0, or EXIT_USAGE after saying why.
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
	if ((*st = store_open(db, STORE_READONLY, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	return 0;
}

static int
cmd_nightly_exec(int argc, char **argv)
{
	struct nightly_exec_args	 a;
	struct store			*st = NULL;
	const char			*db;
	int64_t				 run_id = 0;
	int				 rc;

	if ((rc = nightly_exec_parse(argc, argv, &a)) != 0)
		return rc;
	if (a.fleet != NULL) {
		if (a.exp_path != NULL || a.no_run != NULL ||
		    a.report != NULL || a.ack != 0) {
			error("nightly: --fleet judges stored runs: no "
			    "experiment, --no-run, --ack or -o with it");
			return EXIT_USAGE;
		}
		return nightly_fleet(cmd_db_path(a.db), a.fleet, &a.no,
		    a.json, a.quiet);
	}
	if (a.exp_path == NULL && a.no_run == NULL) {
		error("nightly: an experiment file (or --no-run RUN) is "
		    "needed");
		return EXIT_USAGE;
	}
	db = cmd_db_path(a.db);
	if ((rc = nightly_exec_pick_run(&a, db, &st, &run_id)) != 0)
		return rc;
	if (a.ack != 0) {
		store_close(st);
		if ((rc = nightly_exec_ack(&a, db, run_id, &st)) != 0)
			return rc;
	}
	rc = nightly_exec_judge(st, run_id, &a);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_nightly_entry = {
	.name = "nightly",
	.args = "[EXPERIMENT.ini] [--db FILE] [--baseline N] "
	    "[--threshold PCT|auto] [--ack NIGHT] [--baseline-from NIGHT] "
	    "[--strict] [--no-run RUN | --fleet ID] [--json] [-o REPORT]",
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
"--ack NIGHT accepts a night's level as the new normal for good (stored\n"
"with that night's run); --baseline-from NIGHT does the same for one\n"
"judgement. Every arm is judged against the same arm of earlier runs.\n"
"Whether higher or lower is better comes from the run's `Unit ...\n"
"better=` metadata, else from the unit (sec/op, B, overhead: lower; iops,\n"
"bytes_per_second, work/s, B/s: higher).\n"
"\n"
"Prints one line per benchmark: regressed or improved (a new change of\n"
"at least the threshold), unchanged, or inconclusive: too few nights to\n"
"compare with (3 are needed), or `inconclusive (too noisy: MDE x%)` when\n"
"the smallest step the two-night test would catch (80% power) is above\n"
"the threshold, never unchanged. --threshold auto takes each benchmark's\n"
"threshold from the latest calibration of the experiment on this host\n"
"class (abbench calibrate); benchmarks it lacks keep 2%. Measured over\n"
"generated years (tests/unit/t-nightly-sim): 0.17-0.48 false alarms a\n"
"benchmark-year, a step of twice the samples' noise caught on its night\n"
"or the next in 91-99%.\n"
"\n"
"Exit status: 0 nothing regressed, 1 a regression, 2 on error, and with\n"
"--strict 3 when nothing regressed but something was inconclusive.\n",
	.exec = cmd_nightly_exec,
	.opts = nightly_flags,
	.shortopts = "d:b:t:H:a:r:n:jo:q",
	.flags = CMD_STORE,
};
