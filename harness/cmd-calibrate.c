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

#include <getopt.h>
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

static const struct cmd_flag calibrate_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "repeats", 'k', "K",
	    "A/A comparisons per benchmark (default 5)", NULL },
	{ "rounds", 'r', "N",
	    "rounds of one comparison (default: the file's)", NULL },
	{ "order", 'o', "ORDER",
	    "override the file's order (alternate, abba, random,\n"
	    "sequential)", NULL },
	{ "alpha", 'a', "A",
	    "level of the comparisons (default 0.05; not with\n"
	    "--until decided, whose rule is at 0.05 as run's)", NULL },
	{ "until", 'U', "decided",
	    "each comparison by the rule of run --until decided\n"
	    "(stop = decided): its false-positive rate and mean\n"
	    "rounds here", NULL },
	{ "max-rounds", 'M', "N",
	    "with --until decided: the rule's max-rounds\n"
	    "(default: the file's)", NULL },
	{ "seed", 's', "N",
	    "seed of a random order", NULL },
	{ "quiet", 'q', NULL,
	    "no progress", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

static int
cmd_calibrate_exec(int argc, char **argv)
{
	struct run_options	 ro;
	struct power_options	 po;
	struct experiment	*e = NULL, *aa = NULL;
	struct experiment	 tmp;	/* the table checks and parses */
	struct store		*st = NULL;
	const char		*db = NULL;
	char			*cause = NULL, *text = NULL, *aatext = NULL;
	size_t			 len;
	long long		 v;
	double			 alpha = 0.05;
	int			 c, repeats = 5, rounds = -1, rc, excess = 0;
	int			 alpha_set = 0, max_rounds = -1, decided = -1;
	struct seq_design	 sd;
	/* The A/A run itself is fixed: blocks of rounds, analysed here. */
	char			*fixed[] = { "stop=rounds", NULL };

	memset(&ro, 0, sizeof(ro));
	memset(&tmp, 0, sizeof(tmp));
	power_options_init(&po);
	optind = 1;
	opterr = 0;
	while ((c = cmd_getopt(&cmd_calibrate_entry, NULL, 0, argc, argv)) !=
	    -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'k':
			if (parse_int(optarg, 1, 100000, &v, &cause) == -1)
				goto bad;
			repeats = (int)v;
			break;
		/* The experiment's own keys: parsed by its table. */
		case 'r':
			if (experiment_set(&tmp, "rounds", optarg,
			    &cause) == -1)
				goto bad;
			rounds = tmp.rounds;
			break;
		case 'o':
			if (experiment_set(&tmp, "order", optarg,
			    &cause) == -1)
				goto bad;
			ro.order = tmp.order;
			ro.order_set = 1;
			break;
		case 'a':
			if (parse_double(optarg, &alpha, &cause) == -1)
				goto bad;
			if (!(alpha > 0 && alpha < 1)) {
				error("calibrate: alpha '%s' is not in (0, 1)",
				    optarg);
				return EXIT_USAGE;
			}
			alpha_set = 1;
			break;
		case 'U':
			if (experiment_set(&tmp, "stop", optarg,
			    &cause) == -1)
				goto bad;
			decided = tmp.stop_decided;
			break;
		case 'M':
			if (experiment_set(&tmp, "max-rounds", optarg,
			    &cause) == -1)
				goto bad;
			max_rounds = tmp.max_rounds;
			break;
		case 's':
			if (experiment_set(&tmp, "seed", optarg,
			    &cause) == -1)
				goto bad;
			ro.seed = tmp.seed;
			ro.seed_set = 1;
			break;
		case 'q':
			ro.quiet = 1;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		error("calibrate: expected one experiment file (see abbench "
		    "calibrate --help)");
		return EXIT_USAGE;
	}
	if ((text = read_file(argv[optind], &len, &cause)) == NULL ||
	    (e = experiment_parse(argv[optind], text, len, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		free(text);
		return EXIT_USAGE;
	}
	if (rounds > 0)
		e->rounds = rounds;
	if (decided != -1)
		e->stop_decided = decided;
	if (max_rounds > 0)
		e->max_rounds = max_rounds;
	if (e->stop_decided) {
		if (alpha_set) {
			error("calibrate: --alpha does not apply to the rule of "
			    "--until decided (its alpha is 0.05, as in run)");
			rc = EXIT_USAGE;
			goto out;
		}
		if (e->order == ORDER_SEQUENTIAL || (ro.order_set &&
		    ro.order == ORDER_SEQUENTIAL)) {
			error("calibrate: --until decided needs an interleaved "
			    "order (alternate, abba or random), not "
			    "sequential");
			rc = EXIT_USAGE;
			goto out;
		}
		if (experiment_design(e, &sd, &cause) == -1) {
			error("calibrate: --until decided: %s", cause);
			free(cause);
			rc = EXIT_USAGE;
			goto out;
		}
		/* A block of the fixed A/A run is one run of the rule. */
		e->rounds = sd.max_rounds;
		alpha = sd.alpha;
	}
	if ((aatext = experiment_aa_text(e, &cause)) == NULL) {
		error("calibrate: %s", cause);
		free(cause);
		rc = EXIT_USAGE;
		goto out;
	}
	/* The copy must load as the original did (it is what is stored). */
	if ((aa = experiment_parse(argv[optind], aatext, strlen(aatext),
	    &cause)) == NULL) {
		error("calibrate: the A/A copy of '%s' does not load: %s",
		    argv[optind], cause);
		free(cause);
		rc = EXIT_USAGE;
		goto out;
	}
	if (aa->narms != e->narms) {
		error("calibrate: the A/A copy of '%s' has %zu arms, not %zu",
		    argv[optind], aa->narms, e->narms);
		rc = EXIT_USAGE;
		goto out;
	}
	if (e->narms < 2)
		warning("calibrate: '%s' has one arm: the calibration measures "
		    "its noise but makes no A/A comparisons", argv[optind]);
	ro.db_path = cmd_db_path(db);
	ro.exp_text = aatext;
	ro.set = fixed;
	ro.rounds = e->rounds * repeats;
	rc = runner_run(argv[optind], &ro);
	if (ro.run_id == 0)
		goto out;
	if (rc != EXIT_OK) {
		error("calibrate: the A/A run %" PRId64 " did not finish "
		    "cleanly (exit %d): not recorded as a calibration",
		    ro.run_id, rc);
		goto out;
	}
	if ((st = store_open(ro.db_path, 0, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		rc = EXIT_USAGE;
		goto out;
	}
	if (calib_analyse(st, ro.run_id, e, repeats, alpha, &po,
	    e->stop_decided ? &sd : NULL, &excess) == -1)
		rc = EXIT_USAGE;
	else
		rc = excess ? EXIT_FAIL : EXIT_OK;
out:
	store_close(st);
	experiment_free(aa);
	experiment_free(e);
	free(aatext);
	free(text);
	return rc;

bad:
	error("calibrate: %s", cause);
	free(cause);
	return EXIT_USAGE;
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
	.shortopts = "qd:k:r:",
	.flags = CMD_STORE,
};
