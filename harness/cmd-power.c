/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench power: what a run could have seen. Per benchmark and unit of the
 * baseline arm: the executions, the noise, the minimum detectable effect
 * of the U test at the run's size and the rounds needed for --effect, by
 * a smoothed bootstrap of the measured samples (stats/power.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/analysis/powerdata.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "results/store.h"

/* Columns of UTF-8 text: bytes that do not continue a character. */
static int
power_cols(const char *s)
{
	int	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* The advice as a table. */
static void
power_print(const struct padvice *a, FILE *fp)
{
	size_t	i, w = strlen("benchmark"), wu = strlen("unit");
	char	eff[32], noise[32], ci[48], mde[32], n[48], rounds[64];
	int	split = 0;

	if (a->calib_run != 0)
		fprintf(fp, "noise: from calibration run %" PRId64 " of '%s' "
		    "on host class '%s' (%d repeat%s of %d rounds, arms "
		    "pooled)\n", a->calib_run, a->name, a->host_class,
		    a->calib_repeats, a->calib_repeats == 1 ? "" : "s",
		    a->calib_rounds);
	else
		fprintf(fp, "noise: from the run's baseline arm '%s' (no "
		    "calibration of '%s' on host class '%s' before the "
		    "run)\n", a->baseline_arm, a->name, a->host_class);
	if (a->later_cal != 0)
		fprintf(fp, "noise: not from calibration run %" PRId64 ", "
		    "made after this run (--latest-calibration uses it)\n",
		    a->later_cal);
	power_pct(a->effect, eff, sizeof(eff));
	fprintf(fp, "test: Mann-Whitney U, alpha %g, power %g; smoothed "
	    "bootstrap, %u resamples, seed %" PRIu64 "\n", a->opt.alpha,
	    a->opt.power, a->opt.reps, a->opt.seed);
	fprintf(fp, "n: executions per arm (baseline+other)%s; each counts "
	    "once, by the median of its lines\n\n", a->at > 0 ?
	    ", as asked (--at)" : "");
	for (i = 0; i < a->n; i++) {
		if (strlen(a->rows[i].benchmark) > w)
			w = strlen(a->rows[i].benchmark);
		if (strlen(a->rows[i].unit) > wu)
			wu = strlen(a->rows[i].unit);
	}
	snprintf(rounds, sizeof(rounds), "rounds for %s", eff);
	fprintf(fp, "%-*s  %-*s  %-9s  %-9s  %-9s  %-8s  %s\n", (int)w,
	    "benchmark", (int)wu, "unit", "n", "MAD/med", "median CI",
	    "MDE", rounds);
	for (i = 0; i < a->n; i++) {
		const struct padvice_row	*r = &a->rows[i];

		snprintf(n, sizeof(n), "%zu+%zu%s", r->n_base, r->n_cand,
		    r->nlines > r->nexec ? "*" : "");
		if (r->nlines > r->nexec)
			split = 1;
		power_pct(r->noise.mad_rel, noise, sizeof(noise));
		if (isinf(r->noise.ci_half_rel))
			snprintf(ci, sizeof(ci), "\xc2\xb1 \xe2\x88\x9e");
		else {
			char	p[32];

			power_pct(r->noise.ci_half_rel, p, sizeof(p));
			snprintf(ci, sizeof(ci), "\xc2\xb1 %s", p);
		}
		power_pct(r->mde, mde, sizeof(mde));
		if (r->rounds == 0)
			snprintf(rounds, sizeof(rounds), "> %zu",
			    a->opt.max_n);
		else
			snprintf(rounds, sizeof(rounds), "%zu", r->rounds);
		/* The UTF-8 "±" and "∞" are 2 and 3 bytes, one column. */
		fprintf(fp, "%-*s  %-*s  %-9s  %-9s  %-*s  %-*s  %s%s\n",
		    (int)w, r->benchmark, (int)wu, r->unit, n, noise,
		    9 + (int)(strlen(ci) - power_cols(ci)), ci,
		    8 + (int)(strlen(mde) - power_cols(mde)), mde, rounds,
		    r->from_calibration || a->calib_run == 0 ? "" :
		    " (noise of this run: not in the calibration)");
	}
	if (split)
		fprintf(fp, "\n* several lines per execution (gobench "
		    "-test.count): n counts executions, not lines\n");
}

/* The advice as JSON (the schema is in the README, "power --json"). */
static void
power_print_json(const struct store_run *run, const struct padvice *a,
    FILE *fp)
{
	json_t		*root = json_object(), *rows = json_array(), *r, *noise;
	struct strbuf	 out = STRBUF_INIT;
	size_t		 i;

	/* Names as lib/jsonw writes them ("o": never refused). */
	json_object_set_new(root, "run", json_pack("{s:I, s:o}", "id",
	    (json_int_t)run->id, "name", jw_str(run->name)));
	json_object_set_new(root, "host_class", jw_str(a->host_class));
	if (a->calib_run != 0)
		noise = json_pack("{s:s, s:I, s:i, s:i}", "from",
		    "calibration", "calibration_run",
		    (json_int_t)a->calib_run, "repeats", a->calib_repeats,
		    "rounds", a->calib_rounds);
	else
		noise = json_pack("{s:s, s:o}", "from", "baseline",
		    "baseline_arm", jw_str(a->baseline_arm));
	if (a->later_cal != 0)
		json_object_set_new(noise, "later_calibration_run",
		    json_integer((json_int_t)a->later_cal));
	json_object_set_new(root, "noise", noise);
	json_object_set_new(root, "test", json_pack("{s:s, s:f, s:f, s:i, "
	    "s:I, s:I}", "name", "mann-whitney-u", "alpha", a->opt.alpha,
	    "power", a->opt.power, "reps", (int)a->opt.reps, "seed",
	    (json_int_t)a->opt.seed, "max_rounds", (json_int_t)a->opt.max_n));
	json_object_set_new(root, "effect", json_real(a->effect));
	json_object_set_new(root, "at", a->at > 0 ?
	    json_integer((json_int_t)a->at) : json_null());
	for (i = 0; i < a->n; i++) {
		const struct padvice_row	*row = &a->rows[i];

		r = json_pack("{s:o, s:o, s:I, s:I, s:I, s:I, s:b}",
		    "benchmark", jw_str(row->benchmark), "unit",
		    jw_str(row->unit),
		    "n_base", (json_int_t)row->n_base,
		    "n_other", (json_int_t)row->n_cand,
		    "lines", (json_int_t)row->nlines,
		    "executions", (json_int_t)row->nexec,
		    "from_calibration", row->from_calibration);
		json_object_set_new(r, "median",
		    jw_num(row->noise.median));
		json_object_set_new(r, "mad_rel",
		    jw_num(row->noise.mad_rel));
		json_object_set_new(r, "ci_half_rel",
		    jw_num(row->noise.ci_half_rel));
		json_object_set_new(r, "mde", jw_num(row->mde));
		json_object_set_new(r, "rounds", row->rounds > 0 ?
		    json_integer((json_int_t)row->rounds) : json_null());
		json_array_append_new(rows, r);
	}
	json_object_set_new(root, "rows", rows);
	jw_dump(root, JSON_INDENT(2) | JSON_REAL_PRECISION(15), &out);
	fputs(out.buf, fp);
	strbuf_release(&out);
}

extern const struct cmd_entry cmd_power_entry;

struct power_cmd_opts {
	const char		*db;
	double			 effect;	/* 0: the run's */
	struct power_options	 o;
	int			 no_cal, latest_cal, json;
	size_t			 at;
};
#define POW(m)	OPT_AT(struct power_cmd_opts, m)

static const struct cmd_flag power_flags[] = {
	CMD_STR("db", 'd', "FILE", POW(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_FN("effect", 0, "PCT", POW(effect), cmd_flag_percent,
	    "the change that matters, percent (default: the\n"
	    "run's effect, else 2)"),
	CMD_FN("power", 0, "P", POW(o.power), cmd_flag_fraction,
	    "the wanted power (default 0.8)"),
	CMD_FN("alpha", 0, "A", POW(o.alpha), cmd_flag_fraction,
	    "the test's level (default: the run's, 0.05)"),
	CMD_INT64("seed", 0, "N", POW(o.seed), 0, INT64_MAX,
	    "seed of the resampling (default 1)"),
	CMD_INT("reps", 0, "N", POW(o.reps), 10, 1000000,
	    "replicates per power estimate (default 400)"),
	CMD_INT64("max-rounds", 0, "N", POW(o.max_n), 2, 1000000,
	    "search bound for the rounds (default 2000)"),
	CMD_BOOL("no-calibration", 0, POW(no_cal),
	    "the run's own baseline arm even if calibrated"),
	CMD_BOOL("latest-calibration", 0, POW(latest_cal),
	    "the latest calibration, even one made after the\n"
	    "run (default: the latest before it, the one the\n"
	    "run's end used)"),
	CMD_INT64("at", 0, "N", POW(at), 2, 1000000,
	    "n, CI and MDE for N executions per arm, not the run's"),
	CMD_BOOL("json", 0, POW(json),
	    "the same as one JSON object (schema: docs/guide.md,\n"
	    "\"Machine-readable output\")"),
	CMD_FLAG_END
};

/*
 * The options of every advice at the run's alpha (power.h): the verdict
 * line, the end of `run` and the report say the same.
 */
static void
power_cmd_init(void *opts)
{
	struct power_cmd_opts	*p = opts;

	power_advice_options_init(&p->o);
	p->o.alpha = EXPERIMENT_ALPHA;
}

static int
cmd_power_exec(struct cmd_ctx *c)
{
	struct power_cmd_opts	*p = c->opts;
	struct padvice		 a;
	struct store_run	 run;
	char			*cause = NULL;
	double			 effect = p->effect;

	if (cmd_find_run(c, &run) == -1)
		return EXIT_USAGE;
	/* The effect the verdicts of `--until decided` were for. */
	if (effect == 0)
		effect = experiment_stored_effect(run.experiment_path,
		    run.experiment_text);
	if (padvice_compute_some(c->st, run.id, effect, &p->o, PADVICE_MDE |
	    PADVICE_ROUNDS | (!p->no_cal ? PADVICE_CALIBRATION : 0) |
	    (p->latest_cal ? PADVICE_LATEST_CAL : 0), p->at,
	    NULL, NULL, &a, &cause) == -1) {
		error("power: %s", cause);
		free(cause);
		store_run_release(&run);
		return EXIT_USAGE;
	}
	if (p->json)
		power_print_json(&run, &a, stdout);
	else {
		printf("run %" PRId64 " (%s)\n", run.id, run.name);
		power_print(&a, stdout);
	}
	if (a.n == 0)
		warning("power: run %" PRId64 " has no samples in its baseline "
		    "arm", run.id);
	padvice_release(&a);
	store_run_release(&run);
	return EXIT_OK;
}

const struct cmd_entry cmd_power_entry = {
	.name = "power",
	.args = "--db FILE RUN [--effect PCT] [--power P] [--alpha A] "
	    "[--at N] [--seed N] [--reps N] [--max-rounds N] "
	    "[--no-calibration] [--json]",
	.summary = "what a run could have detected: noise, MDE, rounds needed",
	.help =
"For every benchmark and unit of the run's baseline arm: n (executions per\n"
"arm), the noise (MAD / median, and the +- of the median's 95% confidence\n"
"interval that benchstat prints, at this n), the minimum detectable effect\n"
"(MDE: the smallest relative change the two-sided Mann-Whitney U test at\n"
"this n and --alpha detects with probability --power), and the rounds per\n"
"arm needed to detect --effect.\n"
"\n"
"Method: power is estimated by resampling the measured samples, not from a\n"
"normal formula, so it holds for skewed and bimodal samples: a smoothed\n"
"bootstrap (draws with replacement plus a Gaussian kernel of Silverman's\n"
"bandwidth, variance kept) makes both arms, the candidate arm multiplied by\n"
"(1 + effect); the power is the fraction of --reps replicates the U test\n"
"(the test of abbench stat) finds significant. The RNG is GSL's mt19937\n"
"with --seed, reset for every estimate. The MDE is found by bisection on\n"
"the effect, the rounds by a search on n. The rounds are planned for the\n"
"upper 95% confidence bound of the measured spread (deviations scaled by\n"
"sqrt((n-1) / chi2_0.05(n-1)): 1.23 for 40 values), since the measured\n"
"spread is below the truth about half the time; the MDE is at the spread\n"
"measured. One computation on one input gives every MDE and rounds abbench\n"
"prints for a row: abbench run's `N rounds would` lines, the verdict line of\n"
"an undecided row under --until decided, the report's MDE columns; at the\n"
"run's alpha and effect (the experiment's `effect`, 2% when it has none),\n"
"this command's defaults, they print the numbers it prints.\n"
"\n"
"The noise comes from the latest calibration (abbench calibrate) of the\n"
"run's experiment on its host class made before the run, the one the end\n"
"of the run used, so that a run's MDE stays what it printed; else from\n"
"the run's baseline arm; the output says which, and names a calibration\n"
"made after the run (--latest-calibration takes it). n counts executions: when a\n"
"gobench invocation prints a benchmark several times (-test.count), its\n"
"lines are not independent and count once, by their median (abbench stat\n"
"keeps benchstat's view, every line a sample).\n"
"\n"
"Exit status: 0, or 2 on a usage or database error.\n",
	.exec = cmd_power_exec,
	.opts = power_flags,
	.opts_size = sizeof(struct power_cmd_opts),
	.opts_init = power_cmd_init,
	.flags = CMD_STORE_RO | CMD_ONE_RUN,
};
