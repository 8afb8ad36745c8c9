/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench calibrate: A/A runs. The experiment runs with its baseline arm
 * in every arm's place (the same plan, interleaving, host settings,
 * drop-caches and timeouts: the runner runs the experiment's A/A version,
 * experiment_aa_text, whose other arms are the baseline's keys under new
 * names), for `repeats`
 * times its rounds; each block of rounds is one A/A comparison. Stored as
 * a calibration of the experiment and host class (results/calibration.h)
 * with, per benchmark and unit, the noise and how often identical arms
 * came out significantly different.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/core/runner.h"
#include "harness/analysis/powerdata.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/aa.h"
#include "stats/power.h"
#include "stats/sequential.h"

/* The printf width that right-aligns UTF-8 s in cols columns. */
static int
calib_width(const char *s, int cols)
{
	int	extra = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) == 0x80)
			extra++;
	return cols + extra;
}

/* The table of --until decided: per row its rule's A/A outcomes. */
static void
calib_print_decided(int64_t run_id, const struct experiment *e,
    const struct store_calibration *cal, const struct store_run *run,
    const struct seq_design *sd, struct store_calib_row *rows,
    const struct aa_row *aa, size_t nrows, int *excess)
{
	char	a[32], looks[256];
	size_t	i, len = 0;

	looks[0] = '\0';
	for (i = 0; i < sd->nlooks && len < sizeof(looks) - 12; i++)
		len += (size_t)snprintf(looks + len, sizeof(looks) - len,
		    "%s%d", i ? " " : "", sd->looks[i]);
	printf("calibration run %" PRId64 " of '%s' on host class '%s': "
	    "%d repeat%s of stop = decided (max-rounds %d, looks %s, effect "
	    "%g%%, alpha %g), order %s, arms all '%s'\n", run_id, e->name,
	    cal->host_class, cal->repeats, cal->repeats == 1 ? "" : "s",
	    sd->max_rounds, looks, sd->effect * 100, sd->alpha,
	    run->order_kind, run->arms[0]);
	printf("each comparison: the rule replayed on a block of max-rounds "
	    "rounds, stopped at its first decided look\n\n");
	printf("%-24s %-12s %6s %9s %8s %8s  %s\n", "benchmark", "unit", "n",
	    "MAD/med", "equiv", "undec", "mean rounds  false positives");
	for (i = 0; i < nrows; i++) {
		struct store_calib_row	*r = &rows[i];
		double			 ep = aa_excess_p(r->flagged,
		    r->comparisons, sd->alpha);

		power_pct(r->mad_rel, a, sizeof(a));
		printf("%-24s %-12s %6" PRId64 " %9s %8d %8d  %11.1f  "
		    "%d/%d = %.3f%s\n", r->benchmark, r->unit, r->n, a,
		    aa[i].equivalent, aa[i].undecided, r->comparisons ?
		    (double)aa[i].rounds_sum / r->comparisons : 0.0,
		    r->flagged, r->comparisons, r->comparisons ?
		    (double)r->flagged / r->comparisons : 0.0,
		    ep < 0.01 ? "  DRIFT? more than alpha allows" : "");
		if (ep < 0.01)
			*excess = 1;
	}
}

/* The table of the fixed design: per row its noise and false positives. */
static void
calib_print_fixed(int64_t run_id, const struct experiment *e,
    const struct store_calibration *cal, const struct store_run *run,
    double alpha, struct store_calib_row *rows, size_t nrows, int *excess)
{
	char	a[32], b[32], c[32];
	size_t	i;

	printf("calibration run %" PRId64 " of '%s' on host class '%s': "
	    "%d repeat%s of %d rounds, order %s, arms all '%s'\n", run_id,
	    e->name, cal->host_class, cal->repeats,
	    cal->repeats == 1 ? "" : "s", e->rounds, run->order_kind,
	    run->arms[0]);
	printf("n: executions, all arms (each counts once, by the median of "
	    "its lines); CI and MDE at %d rounds\n\n", e->rounds);
	printf("%-24s %-12s %6s %9s %11s %8s  %s\n", "benchmark", "unit", "n",
	    "MAD/med", "median CI", "MDE", "false positives");
	for (i = 0; i < nrows; i++) {
		struct store_calib_row	*r = &rows[i];
		double			 ep = aa_excess_p(r->flagged,
		    r->comparisons, alpha);
		char			 ci[48];

		power_pct(r->mad_rel, a, sizeof(a));
		power_pct(r->ci_rel, b, sizeof(b));
		power_pct(r->mde, c, sizeof(c));
		snprintf(ci, sizeof(ci), "\xc2\xb1 %s", b);
		printf("%-24s %-12s %6" PRId64 " %9s %*s %*s  %d/%d = %.3f%s\n",
		    r->benchmark, r->unit, r->n, a, calib_width(ci, 11), ci,
		    calib_width(c, 8), c, r->flagged, r->comparisons,
		    r->comparisons ? (double)r->flagged / r->comparisons :
		    0.0, ep < 0.01 ? "  DRIFT? more than alpha allows" : "");
		if (ep < 0.01)
			*excess = 1;
	}
}

/*
 * The A/A comparisons of the run (stats/aa.h: sd NULL, a U test at alpha
 * per block of e->rounds rounds; sd set, --until decided, the rule per
 * block of sd->max_rounds rounds), stored as a calibration and shown.
 */
static int
calib_analyse(struct store *st, int64_t run_id, const struct experiment *e,
    int repeats, double alpha, const struct power_options *po,
    const struct seq_design *sd, int *excess)
{
	struct store_calibration	 cal;
	struct store_calib_row		*rows = NULL;
	struct store_run		 run;
	struct sampletab		*t = NULL;
	struct aa_design		 ad;
	struct aa_row			*aa = NULL;
	size_t				 nrows = 0, i;
	char				*cause = NULL;
	int				 rc = -1, tot = 0, totflag = 0;
	int				 totequiv = 0, totundec = 0;
	long				 totrounds = 0;

	*excess = 0;
	memset(&run, 0, sizeof(run));
	memset(&cal, 0, sizeof(cal));
	if (store_run_get(st, run_id, &run, &cause) == -1 ||
	    (t = sampletab_load(st, run_id, NULL, &cause)) == NULL) {
		error("calibrate: %s", cause);
		free(cause);
		store_run_release(&run);
		return -1;
	}
	memset(&ad, 0, sizeof(ad));
	ad.baseline = run.arms[0];
	ad.warmup = e->warmup;
	ad.rounds = e->rounds;
	ad.repeats = repeats;
	ad.alpha = alpha;
	ad.sd = sd;
	ad.paired = strcmp(run.order_kind, "alternate") == 0 ||
	    strcmp(run.order_kind, "abba") == 0;
	ad.po = po;
	aa_analyse(t, &ad, &aa, &nrows);
	rows = xcalloc(nrows + 1, sizeof(*rows));
	for (i = 0; i < nrows; i++) {
		const struct sampletab_row	*s = &t->rows[aa[i].row];
		struct store_calib_row		*r = &rows[i];

		r->benchmark = xstrdup(s->benchmark);
		r->unit = xstrdup(s->unit);
		r->n = aa[i].n;
		r->median = aa[i].median;
		r->mad_rel = aa[i].mad_rel;
		r->ci_rel = aa[i].ci_rel;
		r->mde = aa[i].mde;
		r->comparisons = aa[i].comparisons;
		r->flagged = aa[i].flagged;
		tot += aa[i].comparisons;
		totflag += aa[i].flagged;
		totequiv += aa[i].equivalent;
		totundec += aa[i].undecided;
		totrounds += aa[i].rounds_sum;
	}

	cal.run_id = run_id;
	cal.experiment = xstrdup(e->name);
	cal.host_class = store_run_host_class(st, run_id, &cause);
	cal.repeats = repeats;
	cal.rounds = e->rounds;
	cal.alpha = alpha;
	if (cal.host_class == NULL ||
	    store_calibration_put(st, &cal, rows, nrows, &cause) == -1) {
		error("calibrate: %s", cause);
		free(cause);
		goto out;
	}

	if (sd != NULL) {
		calib_print_decided(run_id, e, &cal, &run, sd, rows, aa,
		    nrows, excess);
		printf("\nall: %d of %d A/A comparisons decided different by "
		    "the rule at alpha %g: %.3f (expected at most %g; binomial "
		    "P(>= %d) = %.3g); %d equivalent, %d undecided at "
		    "max-rounds; mean rounds %.1f of %d\n", totflag, tot,
		    sd->alpha, tot ? (double)totflag / tot : 0.0, sd->alpha,
		    totflag, aa_excess_p(totflag, tot, sd->alpha),
		    totequiv, totundec, tot ? (double)totrounds / tot : 0.0,
		    sd->max_rounds);
		goto warn;
	}
	calib_print_fixed(run_id, e, &cal, &run, alpha, rows, nrows, excess);
	printf("\nall: %d of %d A/A comparisons flagged at alpha %g: %.3f "
	    "(expected at most %g; binomial P(>= %d) = %.3g)\n", totflag, tot,
	    alpha, tot ? (double)totflag / tot : 0.0, alpha, totflag,
	    aa_excess_p(totflag, tot, alpha));
warn:
	if (*excess)
		warning("calibrate: identical arms differ more often than "
		    "alpha allows: drift or an order effect (see abbench plot; "
		    "order = alternate or abba cancels steady drift)");
	rc = 0;
out:
	free(aa);
	store_calibration_release(&cal);
	store_calib_rows_free(rows, nrows);
	sampletab_free(t);
	store_run_release(&run);
	return rc;
}

extern const struct cmd_entry cmd_calibrate_entry;

/* calibrate's command line; the experiment's keys in exp, by its table. */
struct calib_opts {
	const char		*db;
	int			 repeats, quiet;
	double			 alpha;
	struct experiment	 exp;
	int			 rounds_set, order_set, until_set;
	int			 max_rounds_set, seed_set, alpha_set;
};
#define CAL(m)	OPT_AT(struct calib_opts, m)

static const struct cmd_flag calibrate_flags[] = {
	CMD_STR("db", 'd', "FILE", CAL(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_INT("repeats", 'k', "K", CAL(repeats), 1, 100000,
	    "A/A comparisons per benchmark (default 5)"),
	CMD_EXP("rounds", 'r', "N", CAL(exp), "rounds",
	    "rounds of one comparison (default: the file's)",
	    .given = CAL(rounds_set)),
	CMD_EXP("order", 0, "ORDER", CAL(exp), "order",
	    "override the file's order (alternate, abba, random,\n"
	    "sequential)", .given = CAL(order_set)),
	CMD_FN("alpha", 0, "A", CAL(alpha), cmd_flag_fraction,
	    "level of the comparisons (default 0.05; not with\n"
	    "--until decided, whose rule is at 0.05 as run's)",
	    .given = CAL(alpha_set)),
	CMD_EXP("until", 0, "decided", CAL(exp), "stop",
	    "each comparison by the rule of run --until decided\n"
	    "(stop = decided): its false-positive rate and mean\n"
	    "rounds here", .given = CAL(until_set)),
	CMD_EXP("max-rounds", 0, "N", CAL(exp), "max-rounds",
	    "with --until decided: the rule's max-rounds\n"
	    "(default: the file's)", .given = CAL(max_rounds_set)),
	CMD_EXP("seed", 0, "N", CAL(exp), "seed",
	    "seed of a random order", .given = CAL(seed_set)),
	CMD_BOOL("quiet", 'q', CAL(quiet),
	    "no progress"),
	CMD_FLAG_END
};

static void
calib_opts_init(void *opts)
{
	struct calib_opts	*o = opts;

	o->repeats = 5;
	o->alpha = 0.05;
}

static void
calib_opts_release(void *opts)
{
	opt_release(experiment_opts, &((struct calib_opts *)opts)->exp);
}

/* The experiment file with the flags' keys in it; NULL after saying why. */
static struct experiment *
calib_load(const struct calib_opts *o, const char *path)
{
	struct experiment	*e;
	char			*cause = NULL, *text;
	size_t			 len;

	if ((text = read_file(path, &len, &cause)) == NULL ||
	    (e = experiment_parse(path, text, len, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		free(text);
		return NULL;
	}
	free(text);
	if (o->rounds_set && o->exp.rounds > 0)
		e->rounds = o->exp.rounds;
	if (o->until_set)
		e->stop_decided = o->exp.stop_decided;
	if (o->max_rounds_set && o->exp.max_rounds > 0)
		e->max_rounds = o->exp.max_rounds;
	return e;
}

/*
 * Under --until decided (or the file's stop = decided): the rule's design
 * into *sd, one block of the A/A run one run of it, at its alpha. 0, or -1
 * after saying why.
 */
static int
calib_rule(const struct calib_opts *o, struct experiment *e,
    struct seq_design *sd, double *alpha)
{
	char	*cause = NULL;

	if (o->alpha_set) {
		error("calibrate: --alpha does not apply to the rule of "
		    "--until decided (its alpha is 0.05, as in run)");
		return -1;
	}
	if (e->order == ORDER_SEQUENTIAL || (o->order_set &&
	    o->exp.order == ORDER_SEQUENTIAL)) {
		error("calibrate: --until decided needs an interleaved "
		    "order (alternate, abba or random), not sequential");
		return -1;
	}
	if (experiment_design(e, sd, &cause) == -1) {
		error("calibrate: --until decided: %s", cause);
		free(cause);
		return -1;
	}
	/* A block of the fixed A/A run is one run of the rule. */
	e->rounds = sd->max_rounds;
	*alpha = sd->alpha;
	return 0;
}

/*
 * The A/A copy of e (experiment_aa_text), checked to load as e did (it is
 * what is stored); NULL after saying why.
 */
static char *
calib_aa_text(const struct experiment *e, const char *path)
{
	struct experiment	*aa;
	char			*cause = NULL, *text;

	if ((text = experiment_aa_text(e, &cause)) == NULL) {
		error("calibrate: %s", cause);
		free(cause);
		return NULL;
	}
	if ((aa = experiment_parse(path, text, strlen(text), &cause)) ==
	    NULL) {
		error("calibrate: the A/A copy of '%s' does not load: %s",
		    path, cause);
		free(cause);
		free(text);
		return NULL;
	}
	if (aa->narms != e->narms) {
		error("calibrate: the A/A copy of '%s' has %zu arms, not %zu",
		    path, aa->narms, e->narms);
		experiment_free(aa);
		free(text);
		return NULL;
	}
	experiment_free(aa);
	if (e->narms < 2)
		warning("calibrate: '%s' has one arm: the calibration measures "
		    "its noise but makes no A/A comparisons", path);
	return text;
}

/* The A/A run of aatext into db: its exit status, its id in *run_id. */
static int
calib_run(const struct calib_opts *o, const struct experiment *e,
    const char *db, const char *path, const char *aatext, int64_t *run_id)
{
	struct run_options	 ro;
	/* The A/A run itself is fixed: blocks of rounds, analysed here. */
	char			*fixed[] = { "stop=rounds", NULL };
	int			 rc;

	memset(&ro, 0, sizeof(ro));
	ro.order = o->exp.order;
	ro.order_set = o->order_set;
	ro.seed = o->exp.seed;
	ro.seed_set = o->seed_set;
	ro.quiet = o->quiet;
	ro.db_path = db;
	ro.exp_text = aatext;
	ro.set = fixed;
	ro.rounds = e->rounds * o->repeats;
	rc = runner_run(path, &ro);
	*run_id = ro.run_id;
	if (ro.run_id != 0 && rc != EXIT_OK)
		error("calibrate: the A/A run %" PRId64 " did not finish "
		    "cleanly (exit %d): not recorded as a calibration",
		    ro.run_id, rc);
	return rc;
}

/* The finished A/A run analysed and stored as a calibration. */
static int
calib_record(const struct calib_opts *o, const struct experiment *e,
    const char *db, int64_t run_id, double alpha,
    const struct seq_design *sd)
{
	struct power_options	 po;
	struct store		*st;
	char			*cause = NULL;
	int			 excess = 0, rc;

	power_options_init(&po);
	if ((st = store_open(db, 0, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (calib_analyse(st, run_id, e, o->repeats, alpha, &po, sd,
	    &excess) == -1)
		rc = EXIT_USAGE;
	else
		rc = excess ? EXIT_FAIL : EXIT_OK;
	store_close(st);
	return rc;
}

static int
cmd_calibrate_exec(struct cmd_ctx *c)
{
	const struct calib_opts	*o = c->opts;
	struct experiment	*e;
	struct seq_design	 sd;
	double			 alpha = o->alpha;
	char			*aatext = NULL;
	int64_t			 run_id = 0;
	int			 rc = EXIT_USAGE;

	if (c->argc != 1) {
		error("calibrate: expected one experiment file (see abbench "
		    "calibrate --help)");
		return EXIT_USAGE;
	}
	if ((e = calib_load(o, c->argv[0])) == NULL)
		return EXIT_USAGE;
	if ((e->stop_decided && calib_rule(o, e, &sd, &alpha) == -1) ||
	    (aatext = calib_aa_text(e, c->argv[0])) == NULL)
		goto out;
	rc = calib_run(o, e, c->db, c->argv[0], aatext, &run_id);
	if (run_id != 0 && rc == EXIT_OK)
		rc = calib_record(o, e, c->db, run_id, alpha,
		    e->stop_decided ? &sd : NULL);
out:
	experiment_free(e);
	free(aatext);
	return rc;
}

const struct cmd_entry cmd_calibrate_entry = {
	.name = "calibrate",
	.args = "EXPERIMENT.ini [--repeats K] [--db FILE] [--rounds N] "
	    "[--order ORDER] [--alpha A] [--seed N] [--until decided] "
	    "[--max-rounds N] [--quiet]",
	.summary = "A/A runs: the noise floor and false-positive rate",
	.help =
"Runs the experiment with its baseline arm in every arm's place: the same\n"
"plan and interleaving, host settings, drop-caches and timeouts, the other\n"
"arms renamed BASE.2, BASE.3... The run lasts K x its rounds; each block of\n"
"rounds is one A/A comparison (Mann-Whitney U, as abbench stat tests). It\n"
"is stored as a calibration of the experiment on this host class (the\n"
"run's `host-class` config, else its host name), named NAME.calibration so\n"
"that nightly's history never takes it for a night.\n"
"\n"
"Per benchmark and unit it records and prints: n (executions, all arms;\n"
"a gobench invocation's lines count once, by their median), the noise\n"
"(MAD / median, and the +- of the median's 95% CI at the experiment's\n"
"rounds), the MDE at the experiment's rounds (abbench power --help), and\n"
"how many of the K comparisons between identical arms were flagged at\n"
"alpha. More flagged comparisons than alpha allows (binomial P < 0.01)\n"
"is marked DRIFT?: drift or order effects that the interleaving does not\n"
"cancel.\n"
"\n"
"With --until decided (or stop = decided in the file) each comparison\n"
"is one run of the group-sequential rule of abbench run --until decided,\n"
"on the same looks, effect and max-rounds: the run lasts K x max-rounds\n"
"rounds, and on each block the rule is replayed on the rounds a\n"
"sequential run would have had at each look, stopping at the first\n"
"decided one. Per benchmark it prints how many comparisons ended\n"
"equivalent, undecided at max-rounds, the mean rounds they took, and the\n"
"false positives (ended \"different\"), which the rule keeps <= 0.05.\n"
"Each row is replayed on its own: a workload with several rows stops in\n"
"a run only when all of them are decided, so its rounds there can be\n"
"more.\n"
"\n"
"abbench power takes its noise from the latest calibration, and\n"
"abbench nightly --threshold auto its per-benchmark thresholds.\n"
"\n"
"Exit status: 0, 1 when identical arms differed more often than alpha\n"
"allows (or the run failed), 2 on a usage or input error.\n",
	.exec = cmd_calibrate_exec,
	.opts = calibrate_flags,
	.opts_size = sizeof(struct calib_opts),
	.opts_init = calib_opts_init,
	.opts_release = calib_opts_release,
};
