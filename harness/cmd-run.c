/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench run: run an experiment file, storing every sample.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
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

static const struct cmd_flag run_flags[] = {
	{ "db", 'd', "FILE",
	    "the database (default $ABBENCH_DB, else ./abbench.db)", NULL },
	{ "rounds", 'r', "N",
	    "measured rounds (overrides the file)", NULL },
	{ "order", 'o', "ORDER",
	    "alternate (AB BA ...), abba (A B B A per round),\n"
	    "random (a seeded permutation per round), or\n"
	    "sequential (all of A, then B: shows drift only)", NULL },
	{ "seed", 's', "N",
	    "the seed of the random order (stored)", NULL },
	{ "resume", 'R', "RUN",
	    "continue an interrupted run: same plan, samples\n"
	    "already stored are not repeated. A run marked\n"
	    "running is resumed only when its abbench\n"
	    "process is gone from this host", NULL },
	{ "takeover", 'T', NULL,
	    "resume a run marked running on another host\n"
	    "(a requeued batch job): only once it is gone", NULL },
	{ "trust-db", 't', NULL,
	    "--resume a run of a database another user owns\n"
	    "(or may write): its stored experiment runs as you", NULL },
	{ "until", 'U', "decided",
	    "run until every row is decided (different, or\n"
	    "equivalent within the effect) or max-rounds:\n"
	    "a group-sequential rule at alpha (stop = decided)", NULL },
	{ "effect", 'e', "PCT",
	    "the change that matters (default: the\n"
	    "experiment's effect, else 2): for each\n"
	    "benchmark that came out ~ and whose noise could\n"
	    "not have shown it, one line with the rounds\n"
	    "that would (abbench power --help)", NULL },
	{ "quiet", 'q', NULL,
	    "no progress and no summary", NULL },
	{ "json-progress", 'j', NULL,
	    "one JSON object per sample on stdout", NULL },
	{ "durable", 'D', NULL,
	    "synchronous=FULL (default NORMAL)", NULL },
	{ "wait-lock", 'W', NULL,
	    "when another run holds the host (it changes\n"
	    "host settings too), wait for it instead of\n"
	    "failing (also ABBENCH_WAIT_LOCK=1), with a line\n"
	    "on stderr when the wait begins and ends; the host\n"
	    "lock is one per host, whatever\n"
	    "$ABBENCH_STATE_DIR says", NULL },
	{ "no-restore-check", 'N', NULL,
	    "do not undo what earlier runs left on the host\n"
	    "before starting (abbench restore does it later)", NULL },
	{ NULL, 0, NULL, NULL, NULL }
};

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
		struct strbuf	sb = STRBUF_INIT;

		for (k = 0; k < cmds[i].n; k++) {
			if (k > 0)
				strbuf_addc(&sb, ' ');
			if (cmds[i].v[k][strcspn(cmds[i].v[k],
			    " \t'\"\\")] != '\0' || cmds[i].v[k][0] == '\0') {
				strbuf_addc(&sb, '\'');
				strbuf_adds(&sb, cmds[i].v[k]);
				strbuf_addc(&sb, '\'');
			} else
				strbuf_adds(&sb, cmds[i].v[k]);
		}
		fprintf(stderr, "arm %c: %s\n", (char)('A' + i), sb.buf);
		strbuf_release(&sb);
	}
done:
	for (i = 0; i < n; i++)
		strvec_clear(&cmds[i]);
	free(cmds);
	return text;
}

static int
cmd_run_exec(int argc, char **argv)
{
	struct run_options	 opt;
	struct experiment	 tmp;	/* the table checks and parses */
	struct strvec		 set = STRVEC_INIT;
	const char		*db = NULL, *arg;
	char			*cause = NULL, *key;
	void			*ballast;
	size_t			 ballast_len;
	double			 effect = 0.02;
	const char		*until = NULL;
	char			*inline_text = NULL;
	int			 c, rc, effect_set = 0, dashdash, nargs;

	memset(&opt, 0, sizeof opt);
	memset(&tmp, 0, sizeof tmp);
	opt.rounds = -1;
	opt.build = ABBENCH_GIT_DESCRIBE;
	/* The flags end at the first "--"; inline commands follow it. */
	for (dashdash = 1; dashdash < argc && strcmp(argv[dashdash], "--") !=
	    0; dashdash++)
		;
	nargs = argc;
	argc = dashdash;
	optind = 1;
	opterr = 0;
	while ((c = cmd_getopt(&cmd_run_entry, NULL, 1, argc, argv)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		/* The experiment's own keys: parsed by its table. */
		case 'r':
			if (experiment_set(&tmp, "rounds", optarg,
			    &cause) == -1)
				goto bad;
			opt.rounds = tmp.rounds;
			break;
		case 'o':
			if (experiment_set(&tmp, "order", optarg,
			    &cause) == -1)
				goto bad;
			opt.order = tmp.order;
			opt.order_set = 1;
			break;
		case 's':
			if (experiment_set(&tmp, "seed", optarg,
			    &cause) == -1)
				goto bad;
			opt.seed = tmp.seed;
			opt.seed_set = 1;
			break;
		case 'R':
			opt.resume = optarg;
			break;
		case 'U':
			/* --until decided: stop = decided, as if the file said
			 * so (stored with the run as set.stop, metadata). */
			if (experiment_set(&tmp, "stop", optarg,
			    &cause) == -1)
				goto bad;
			strvec_pushf(&set, "stop=%s", optarg);
			until = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'j':
			opt.json_progress = 1;
			break;
		case 'D':
			opt.durable = 1;
			break;
		case 'N':
			opt.no_restore_check = 1;
			break;
		case 'W':
			opt.wait_lock = 1;
			break;
		case 'T':
			opt.takeover = 1;
			break;
		case 't':
			opt.trust_db = 1;
			break;
		case 'e':
			if (padvice_parse_pct(optarg, &effect) == -1) {
				error("run: --effect '%s' is not a percentage "
				    "in (0, 1000)", optarg);
				return EXIT_USAGE;
			}
			effect_set = 1;
			break;
		case '=':
			/*
			 * --KEY=VALUE or --KEY VALUE, one path: any other
			 * [experiment] key, checked here; or a workload's
			 * (--[WORKLOAD.]KEY), checked by the loader with the
			 * file's values.
			 */
			arg = optarg;
			key = xstrndup(arg, strcspn(arg, "="));
			rc = opt_find(experiment_opts, key) == NULL ? 0 :
			    experiment_set(&tmp, key, strchr(arg, '=') + 1,
			    &cause);
			free(key);
			if (rc == -1)
				goto bad;
			strvec_push(&set, arg);
			break;
		default:
			strvec_clear(&set);
			return EXIT_USAGE;
		}
	}
	opt_release(experiment_opts, &tmp);
	/* With --until decided, --effect is the design's effect too. */
	if (until != NULL && strcmp(until, "decided") == 0 && effect_set)
		strvec_pushf(&set, "effect=%.17g", effect * 100);
	opt.set = set.v;
	if (dashdash < nargs) {
		if (optind < argc || opt.resume != NULL) {
			error("run: inline commands after \"--\" stand for "
			    "the experiment: no file%s", opt.resume != NULL ?
			    " and no --resume" : "");
			strvec_clear(&set);
			return EXIT_USAGE;
		}
		inline_text = run_inline_text(nargs - dashdash - 1,
		    argv + dashdash + 1, opt.quiet || opt.json_progress);
		if (inline_text == NULL) {
			strvec_clear(&set);
			return EXIT_USAGE;
		}
		opt.exp_text = inline_text;
	}
	argc -= optind;
	argv += optind;
	if (opt.resume == NULL && inline_text == NULL && argc != 1) {
		error("run: expected one experiment file (see abbench run "
		    "--help)");
		strvec_clear(&set);
		return EXIT_USAGE;
	}
	if (opt.resume != NULL && (opt.rounds > 0 || opt.order_set ||
	    opt.seed_set || set.n > 0)) {
		error("run: --resume keeps the run's plan: --rounds, --order, "
		    "--seed and --KEY=VALUE cannot change it");
		strvec_clear(&set);
		return EXIT_USAGE;
	}
	if (opt.takeover && opt.resume == NULL) {
		error("run: --takeover goes with --resume RUN");
		strvec_clear(&set);
		free(inline_text);
		return EXIT_USAGE;
	}
	opt.db_path = cmd_db_path(db);
	if (run_ballast(&ballast, &ballast_len) == -1) {
		strvec_clear(&set);
		free(inline_text);
		return EXIT_USAGE;
	}
	rc = runner_run(inline_text != NULL ? "inline" : argc > 0 ? argv[0] :
	    NULL, &opt);
	/*
	 * Inline, as hyperfine: the table at the end, stat's own (a file's
	 * run names the stat command instead).
	 */
	if (inline_text != NULL && opt.run_id != 0 && !opt.quiet &&
	    !opt.json_progress && rc != EXIT_USAGE &&
	    rc != EXIT_INTERRUPTED) {
		char	 id[32], *av[5];

		snprintf(id, sizeof id, "%" PRId64, opt.run_id);
		av[0] = "stat";
		av[1] = "--db";
		av[2] = (char *)opt.db_path;
		av[3] = id;
		av[4] = NULL;
		fflush(stderr);
		if (cmd_stat_entry.exec(4, av) != EXIT_OK && rc == EXIT_OK)
			rc = EXIT_FAIL;
		fflush(stdout);
	}
	free(inline_text);
	if (ballast != NULL)
		munmap(ballast, ballast_len);
	strvec_clear(&set);
	/* Could a `~` have shown the effect that matters? (powerdata.h)
	 * Did a comparison move with the host during the run? (shifts.h) */
	if (opt.run_id != 0 && !opt.quiet && !opt.json_progress &&
	    rc != EXIT_USAGE && rc != EXIT_INTERRUPTED)
		run_advice(opt.db_path, opt.run_id, effect_set ? effect : 0,
		    stderr);
	return rc;

bad:
	error("run: %s", cause);
	free(cause);
	opt_release(experiment_opts, &tmp);
	strvec_clear(&set);
	return EXIT_USAGE;
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
	    "sample is stored in the database the moment it is taken.\n"
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
	    "operands between two -- are one command's argv as they are.\n"
	    "\n"
	    "Exit status: 0 all samples ok, 1 a sample failed or was\n"
	    "host-changed, or the run was aborted, 2 a bad experiment file or\n"
	    "option, 130 interrupted.\n",
	.exec = cmd_run_exec,
	.opts = run_flags,
	.shortopts = "qd:r:",
	.flags = CMD_STORE,
	.help_args = cmd_run_help,
};
