/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench run: run an experiment file, storing every sample.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "harness/core/runner.h"
#include "harness/git-version.h"
#include "harness/analysis/powerdata.h"
#include "harness/analysis/run-advice.h"
#include "lib/options.h"
#include "lib/util.h"

/*
 * $ABBENCH_DEBUG_BALLAST=SIZE (e.g. 256m): hold that much touched memory
 * for the whole run, so a test can show that a measurement does not move
 * with abbench's own size (max-rss-B of `command`). Debugging only.
 */
static int
run_ballast(void **p, size_t *len)
{
	const char	*s = getenv("ABBENCH_DEBUG_BALLAST");
	char		*cause = NULL;
	uint64_t	 size;
	size_t		 off;
	long		 page = sysconf(_SC_PAGESIZE);

	*p = NULL;
	*len = 0;
	if (s == NULL || *s == '\0')
		return 0;
	if (parse_size(s, &size, &cause) == -1) {
		error("ABBENCH_DEBUG_BALLAST: %s", cause);
		free(cause);
		return -1;
	}
	if (size == 0)
		return 0;
	*p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*p == MAP_FAILED) {
		*p = NULL;
		error("ABBENCH_DEBUG_BALLAST: cannot map %s: %s", s,
		    strerror(errno));
		return -1;
	}
	*len = (size_t)size;
	for (off = 0; off < *len; off += (size_t)page)
		((volatile char *)*p)[off] = 1;
	return 0;
}

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_stat_entry;

/* run's command line; the experiment's keys in exp, by its table. */
struct run_cmd_opts {
	const char		*db;
	struct run_options	 opt;
	struct experiment	 exp;
	struct strvec		 set;	/* KEY=VALUE, as opt.set */
	const char		*until;
	double			 effect;
	int			 rounds_set, effect_set;
};
#define RUN(m)	OPT_AT(struct run_cmd_opts, m)

/*
 * --until decided: stop = decided, as if the file said so (stored with the
 * run as set.stop, metadata).
 */
static int
run_until(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	struct run_cmd_opts	*o = opts;

	if (cmd_flag_experiment(f, opts, value, cause) == -1)
		return -1;
	strvec_pushf(&o->set, "stop=%s", value);
	o->until = value;
	return 0;
}

static const struct cmd_flag run_flags[] = {
	CMD_STR("db", 'd', "FILE", RUN(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_EXP("rounds", 'r', "N", RUN(exp), "rounds",
	    "measured rounds (overrides the file)", .given = RUN(rounds_set)),
	CMD_EXP("order", 0, "ORDER", RUN(exp), "order",
	    "alternate (AB BA ...), abba (A B B A per round),\n"
	    "random (a seeded permutation per round), or\n"
	    "sequential (all of A, then B: shows drift only)",
	    .given = RUN(opt.order_set)),
	CMD_EXP("seed", 0, "N", RUN(exp), "seed",
	    "the seed of the random order (stored)",
	    .given = RUN(opt.seed_set)),
	CMD_STR("resume", 0, "RUN", RUN(opt.resume),
	    "continue an interrupted run: same plan, samples\n"
	    "already stored are not repeated. A run marked\n"
	    "running is resumed only when its abbench\n"
	    "process is gone from this host"),
	CMD_BOOL("takeover", 0, RUN(opt.takeover),
	    "resume a run marked running on another host\n"
	    "(a requeued batch job): only once it is gone"),
	CMD_BOOL("trust-db", 0, RUN(opt.trust_db),
	    "--resume a run of a database another user owns\n"
	    "(or may write): its stored experiment runs as you"),
	CMD_FLAG_("until", 0, "decided",
	    "run until every row is decided (different, or\n"
	    "equivalent within the effect) or max-rounds:\n"
	    "a group-sequential rule at alpha (stop = decided)",
	    .opt = { .name = "until", .at = RUN(exp) }, .parse = run_until,
	    .key = "stop"),
	CMD_FN("effect", 0, "PCT", RUN(effect), cmd_flag_percent,
	    "the change that matters (default: the\n"
	    "experiment's effect, else 2): for each\n"
	    "benchmark that came out ~ and whose noise could\n"
	    "not have shown it, one line with the rounds\n"
	    "that would (abbench power --help)", .given = RUN(effect_set)),
	CMD_BOOL("quiet", 'q', RUN(opt.quiet),
	    "no progress and no summary"),
	CMD_BOOL("json-progress", 0, RUN(opt.json_progress),
	    "one JSON object per sample on stdout"),
	CMD_BOOL("durable", 0, RUN(opt.durable),
	    "each sample committed on its own, waiting for\n"
	    "the disk (synchronous=FULL; default: batched from\n"
	    "the run's log, synchronous=NORMAL)"),
	CMD_BOOL("wait-lock", 0, RUN(opt.wait_lock),
	    "when another run holds the host (it changes\n"
	    "host settings too), wait for it instead of\n"
	    "failing (also ABBENCH_WAIT_LOCK=1), with a line\n"
	    "on stderr when the wait begins and ends; the host\n"
	    "lock is one per host, whatever\n"
	    "$ABBENCH_STATE_DIR says"),
	CMD_BOOL("no-restore-check", 0, RUN(opt.no_restore_check),
	    "do not undo what earlier runs left on the host\n"
	    "before starting (abbench restore does it later)"),
	CMD_FLAG_END
};

/*
 * --KEY=VALUE or --KEY VALUE, one path: any other [experiment] key,
 * checked here; or a workload's (--[WORKLOAD.]KEY), checked by the loader
 * with the file's values.
 */
static int
run_key(void *opts, const char *kv, char **cause)
{
	struct run_cmd_opts	*o = opts;
	char			*key = xstrndup(kv, strcspn(kv, "="));
	int			 rc;

	rc = opt_find(experiment_opts, key) == NULL ? 0 :
	    experiment_set(&o->exp, key, strchr(kv, '=') + 1, cause);
	free(key);
	if (rc == 0)
		strvec_push(&o->set, kv);
	return rc;
}

static void
run_opts_init(void *opts)
{
	struct run_cmd_opts	*o = opts;

	o->opt.rounds = -1;
	o->opt.build = ABBENCH_GIT_DESCRIBE;
	o->effect = 0.02;
}

static void
run_opts_release(void *opts)
{
	struct run_cmd_opts	*o = opts;

	opt_release(experiment_opts, &o->exp);
	strvec_clear(&o->set);
}

/*
 * A word of a command given as several operands that is one of run's
 * flags (--rounds, --quiet, --until=decided) or an [experiment] key
 * (--warmup 1): abbench's own flags, written after the commands, would
 * be the command's argv and every sample would fail. Refused; the
 * command written as one operand ('prog --quiet') keeps such a word.
 * The flag's name, or NULL.
 */
static const char *
run_inline_flag(const struct strvec *cmd)
{
	const struct cmd_flag	*f;
	const char		*w;
	char			*name;
	size_t			 k;
	int			 hit;

	for (k = 1; k < cmd->n; k++) {
		w = cmd->v[k];
		if (strncmp(w, "--", 2) != 0 || w[2] == '\0')
			continue;
		name = xstrndup(w + 2, strcspn(w + 2, "="));
		hit = opt_find(experiment_opts, name) != NULL;
		for (f = run_flags; !hit && f->name != NULL; f++)
			hit = strcmp(f->name, name) == 0;
		free(name);
		if (hit)
			return w;
	}
	return NULL;
}

/*
 * The commands after the first "--" (abbench run [flags] -- CMD [-- CMD]
 * ...): each group between two "--" is one command, a single operand
 * split by strvec_split_command (whitespace and quotes, no shell), or
 * several taken as its argv word for word (split by the user's shell).
 * The experiment's text (experiment_inline_text), or NULL with the error
 * printed.
 */
static char *
run_inline_text(int argc, char **argv, int quiet)
{
	struct strvec	*cmds = NULL;
	char		***argvs, *text = NULL, *cause = NULL;
	const char	*flag;
	size_t		 n = 0, i, k;
	int		 a, start;

	for (a = 0; a <= argc; a = start + 1) {
		for (start = a; start < argc && strcmp(argv[start], "--") != 0;
		    start++)
			;
		cmds = xreallocarray(cmds, n + 1, sizeof *cmds);
		memset(&cmds[n], 0, sizeof *cmds);
		if (start - a == 1) {
			if (strvec_split_command(&cmds[n], argv[a],
			    &cause) == -1) {
				error("run: command %zu: %s: %s", n + 1,
				    argv[a], cause);
				free(cause);
				n++;
				goto done;
			}
		} else
			for (k = (size_t)a; k < (size_t)start; k++)
				strvec_push(&cmds[n], argv[k]);
		n++;
		if (start - a > 1 &&
		    (flag = run_inline_flag(&cmds[n - 1])) != NULL) {
			error("run: command %zu (arm %c): '%s' is abbench "
			    "run's flag, not an argument of '%s': give "
			    "abbench's flags before the first \"--\" (or "
			    "write the command as one quoted operand, "
			    "'%s ... %s', to pass it on)", n, (char)('A' + n -
			    1), flag, cmds[n - 1].v[0], cmds[n - 1].v[0],
			    flag);
			goto done;
		}
	}
	argvs = xcalloc(n, sizeof *argvs);
	for (i = 0; i < n; i++) {
		/* An empty one is refused below, by the text's maker. */
		if (cmds[i].v == NULL)
			strvec_push(&cmds[i], "");
		argvs[i] = cmds[i].v;
	}
	text = experiment_inline_text(argvs, n, &cause);
	free(argvs);
	if (text == NULL) {
		error("run: %s (abbench run [flags] -- CMD [-- CMD]...)",
		    cause);
		free(cause);
		goto done;
	}
	/* Which column is which command, as the loader will run it. */
	for (i = 0; i < n && !quiet; i++) {
		char	*line = experiment_argv_line(cmds[i].v, cmds[i].n);

		fprintf(stderr, "arm %c: %s\n", (char)('A' + i), line);
		free(line);
	}
done:
	for (i = 0; i < n; i++)
		strvec_clear(&cmds[i]);
	free(cmds);
	return text;
}

/*
 * The flags' keys into the run's options, and the experiment: a file, the
 * commands after "--" (*inline_text), or --resume's. 0, or -1 after saying
 * why.
 */
static int
run_plan(struct cmd_ctx *c, char **inline_text)
{
	struct run_cmd_opts	*o = c->opts;
	struct run_options	*opt = &o->opt;

	if (o->rounds_set)
		opt->rounds = o->exp.rounds;
	opt->order = o->exp.order;
	opt->seed = o->exp.seed;
	/* With --until decided, --effect is the design's effect too. */
	if (o->until != NULL && strcmp(o->until, "decided") == 0 &&
	    o->effect_set)
		strvec_pushf(&o->set, "effect=%.17g", o->effect * 100);
	opt->set = o->set.v;
	opt->db_path = c->db;
	if (c->nrest >= 0) {
		if (c->argc > 0 || opt->resume != NULL) {
			error("run: inline commands after \"--\" stand for "
			    "the experiment: no file%s", opt->resume != NULL ?
			    " and no --resume" : "");
			return -1;
		}
		if ((*inline_text = run_inline_text(c->nrest, c->rest,
		    opt->quiet || opt->json_progress)) == NULL)
			return -1;
		opt->exp_text = *inline_text;
	}
	if (opt->resume == NULL && *inline_text == NULL && c->argc != 1) {
		error("run: expected one experiment file (see abbench run "
		    "--help)");
		return -1;
	}
	if (opt->resume != NULL && (opt->rounds > 0 || opt->order_set ||
	    opt->seed_set || o->set.n > 0)) {
		error("run: --resume keeps the run's plan: --rounds, --order, "
		    "--seed and --KEY=VALUE cannot change it");
		return -1;
	}
	if (opt->takeover && opt->resume == NULL) {
		error("run: --takeover goes with --resume RUN");
		return -1;
	}
	return 0;
}

/*
 * Inline, as hyperfine: the table at the end, stat's own (a file's run
 * names the stat command instead). The exit status rc becomes.
 */
static int
run_inline_table(const struct run_options *opt, int rc)
{
	char	 id[32], *av[5];

	snprintf(id, sizeof id, "%" PRId64, opt->run_id);
	av[0] = "stat";
	av[1] = "--db";
	av[2] = (char *)opt->db_path;
	av[3] = id;
	av[4] = NULL;
	fflush(stderr);
	if (cmd_exec(&cmd_stat_entry, 4, av) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_FAIL;
	fflush(stdout);
	return rc;
}

static int
cmd_run_exec(struct cmd_ctx *c)
{
	struct run_cmd_opts	*o = c->opts;
	struct run_options	*opt = &o->opt;
	char			*inline_text = NULL;
	void			*ballast;
	size_t			 ballast_len;
	int			 rc, told;

	if (run_plan(c, &inline_text) == -1 ||
	    run_ballast(&ballast, &ballast_len) == -1) {
		free(inline_text);
		return EXIT_USAGE;
	}
	rc = runner_run(inline_text != NULL ? "inline" : c->argc > 0 ?
	    c->argv[0] : NULL, opt);
	told = opt->run_id != 0 && !opt->quiet && !opt->json_progress &&
	    rc != EXIT_USAGE && rc != EXIT_INTERRUPTED;
	if (inline_text != NULL && told)
		rc = run_inline_table(opt, rc);
	free(inline_text);
	if (ballast != NULL)
		munmap(ballast, ballast_len);
	/* Could a `~` have shown the effect that matters? (powerdata.h)
	 * Did a comparison move with the host during the run? (shifts.h) */
	if (told)
		run_advice(opt->db_path, opt->run_id, o->effect_set ?
		    o->effect : 0, stderr);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.args = "EXPERIMENT.ini [--db FILE] [--rounds N] "
	    "[--order alternate|abba|random|sequential] [--seed N] "
	    "[--effect PCT] [--until decided|rounds] [--quiet] "
	    "[--json-progress] [--durable] "
	    "[--wait-lock] | "
	    "--resume RUN [--takeover] [--trust-db] | "
	    "[flags] -- CMD [-- CMD]...",
	.summary = "run an experiment, storing every sample",
	.help =
	    "Runs the experiment's rounds x workloads x arms in an interleaved\n"
	    "order, applying each arm's host settings before its samples and\n"
	    "restoring the host at the end, on error and on Ctrl-C. Every\n"
	    "sample is written to the run's log beside the database the\n"
	    "moment it is taken (a kill -9 keeps it), and is in the database\n"
	    "within half a second (one of 50 ms or more at once).\n"
	    "Everything is checked before anything is touched. A run that\n"
	    "changes host settings holds the host-wide lock; every change goes\n"
	    "first to the host journal, so that the next run or `abbench\n"
	    "restore` undoes what a killed run left. The host is watched before\n"
	    "and after every sample: a setting someone else changes (a disk's\n"
	    "scheduler or tunable, a sysctl) is said at once and put back, the\n"
	    "sample measured under it is stored with status host-changed (its\n"
	    "values kept; stat leaves it out, report lists it, a make-up round\n"
	    "replaces it), and the end restores what the run found, never the\n"
	    "outsider's value.\n"
	    "\n"
	    "At the end (not with --quiet): for a row shown as `~`, whether the\n"
	    "noise could have shown --effect and the rounds that would (the\n"
	    "MDE and rounds of the verdict line, abbench power and report\n"
	    "alike); and a warning for a row whose comparison moved during\n"
	    "the run together with the level every arm shares (the delta\n"
	    "averages two regimes; abbench report lists the run's level\n"
	    "shifts).\n"
	    "\n"
	    "--until decided answers to a contract, for every row whatever its\n"
	    "noise (coarse units, unequal spreads, drift, a position effect):\n"
	    "P(different | no change) <= 0.05 and P(equivalent | a change of\n"
	    "effect or more) <= 5%; a change inside +-effect may be called\n"
	    "either; undecided at max-rounds is allowed and printed with its\n"
	    "MDE. Under alternate and abba it decides on the per-round ratios\n"
	    "(signed-rank), else on the U and Brunner-Munzel tests both; the\n"
	    "verdict line names the test and its p beside the U test's that\n"
	    "stat prints.\n"
	    "\n"
	    "Any [experiment] key can be given as --KEY=VALUE or --KEY VALUE\n"
	    "(--timeout 5m), a workload key as --KEY or --WORKLOAD.KEY\n"
	    "(abbench run --help lists them).\n"
	    "\n"
	    "Inline, with no file (like hyperfine): abbench run [flags] --\n"
	    "'CMD A' -- 'CMD B' runs the experiment `inline`: one command\n"
	    "workload (cmd), an arm per command named A, B, C... (A is the\n"
	    "baseline; each arm's argv is printed first), interleaved, stored\n"
	    "and tabulated like a file's, with the same flags (--rounds,\n"
	    "--until decided...) and exit statuses. Each command is an argv,\n"
	    "never given to a shell: it is split at blanks; 'single quotes'\n"
	    "keep what they hold; \"double quotes\" too, but for \\\" and \\\\;\n"
	    "outside quotes a backslash keeps the next character. $, *, ;, |,\n"
	    "<, > and % are plain text (write sh -c '...' for a shell). Several\n"
	    "operands between two -- are one command's argv as they are, but\n"
	    "for a word that is one of run's flags or [experiment] keys\n"
	    "(--rounds 2 after the last command): refused, exit 2. abbench's\n"
	    "flags go before the first --; a command given as one operand\n"
	    "('prog --quiet') keeps such words as its own.\n"
	    "\n"
	    "Exit status: 0 all samples ok, 1 a sample failed or was\n"
	    "host-changed, or the run was aborted, 2 a bad experiment file or\n"
	    "option, 130 interrupted.\n",
	.exec = cmd_run_exec,
	.opts = run_flags,
	.opts_size = sizeof(struct run_cmd_opts),
	.opts_init = run_opts_init,
	.opts_release = run_opts_release,
	.keys = run_key,
	.flags = CMD_INLINE,
	.help_args = cmd_run_help,
};
