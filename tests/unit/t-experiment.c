/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the experiment loader: every class of error with its exact
 * file:line:key message, comments, defaults, matrix expansion, arm
 * overrides, env.NAME, host.* and the options structs the loader fills.
 * A small workload type defined here has one key of every option type,
 * bound to struct test_opts; the shipped `command` type is checked
 * through experiment_parse as well.
 */
#include "config.h"

#include <limits.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "harness/core/experiment.h"
#include "lib/util.h"
#include "workloads/workload.h"
#include "tests/unit/tap.h"

struct test_opts {
	uint64_t	 bs;
	int		 rw;
	int		 jobs;
	double		 ratio;
	int		 ratio_set;
	int64_t		 delay;
	int		 verify;
	char		*flags;
	struct strvec	 args;
	int		 args_set;
	int		 threads;
	int		 threads_set;
	char		*mode;
	char		*tag;
};
#define T(member)	OPT_AT(struct test_opts, member)

/* Bound to struct test_opts, but for the prefixed key (not stored). */
static const struct opt_spec test_opts[] = {
	OPT_SIZE("bs", T(bs), "4k", 0, 0, "block size"),
	OPT_CHOICE("rw", T(rw), "read", "read write randread randwrite",
	    "pattern"),
	OPT_INT("jobs", T(jobs), "1", 1, 64, "jobs"),
	OPT_FLOAT("ratio", T(ratio), NULL, 0, 1, "ratio",
	    .given = T(ratio_set)),
	OPT_DURATION("delay", T(delay), "1s", 0, 0, "delay"),
	OPT_BOOL("verify", T(verify), "no", "verify"),
	OPT_TEXT("flags", T(flags), NULL, "flags"),
	OPT_WORDS("args", T(args), NULL, "argv",
	    .flags = OPT_ARM, .given = T(args_set)),
	OPT_INT("threads", T(threads), "2", 1, 1000, "threads",
	    .flags = OPT_ARM, .given = T(threads_set)),
	OPT_STR("mode", T(mode), NULL, "mode", .flags = OPT_NOMATRIX),
	OPT_STR("tag", T(tag), NULL, "tag"),
	/* An integer prefix, one word: none of the macros' kinds. */
	{ .name = "opt.", .type = OPT_T_INT, .form = OPT_FORM_PREFIX,
	  .help = "prefixed" },
	OPT_END
};

static const struct test_opts *
topts(const struct workload *wl, const struct arm *arm)
{
	return wl_opts(wl, arm);
}

static int
test_validate(const struct experiment *e, struct workload *wl, char **cause)
{
	(void)e;
	if (topts(wl, NULL)->jobs > 32 && topts(wl, NULL)->rw == 1)
		return set_cause(cause, "jobs: at most 32 writers");
	return 0;
}

static const struct workload_ops test_ops = {
	.type = "test",
	.help = "a type for the loader's tests",
	.opts = test_opts,
	.opts_size = sizeof(struct test_opts),
	.default_exec = "local",
	.validate = test_validate,
};

struct needy_opts {
	char	*target;
	char	*cmd;
};
#define NEEDY(member)	OPT_AT(struct needy_opts, member)

static const struct opt_spec needy_opts[] = {
	OPT_STR("target", NEEDY(target), NULL, "required",
	    .flags = OPT_REQUIRED),
	OPT_TEXT("cmd", NEEDY(cmd), NULL, "required, arms may give it",
	    .flags = OPT_REQUIRED | OPT_ARM),
	OPT_END
};

static const struct workload_ops needy_ops = {
	.type = "needy",
	.opts = needy_opts,
	.opts_size = sizeof(struct needy_opts),
	.default_exec = "docker",
};

static const struct workload_ops *const test_types[] = {
	&test_ops, &needy_ops, NULL
};

static struct experiment *
parse(const char *text, char **cause)
{
	*cause = NULL;
	return experiment_parse_types("exp.ini", text, strlen(text),
	    test_types, cause);
}

/* The file must fail with exactly this message. */
static void
check_error(const char *text, const char *want, const char *what)
{
	struct experiment	*e;
	char			*cause;

	e = parse(text, &cause);
	tap_ok(e == NULL, "%s: rejected", what);
	tap_str_eq(cause, want, "%s: message", what);
	experiment_free(e);
	free(cause);
}

#define HEAD "[experiment]\n[arm a]\n"

static void
test_errors(void)
{
	static const struct {
		const char	*text, *want, *what;
	} cases[] = {
		{ "[experiment]\nrounds = many\n[arm a]\n"
		  "[workload w]\ntype = test\n",
		  "exp.ini:2: rounds: 'many' is not an integer",
		  "bad integer" },
		{ "[experiment]\nrounds = 0\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: rounds: 0 is out of range [1, 1000000]",
		  "integer out of range" },
		{ "[experiment]\ncontrol = ref\n[arm a]\n[arm b]\n"
		  "[workload w]\ntype = test\n",
		  "exp.ini:2: control: no arm is named 'ref'",
		  "control names no arm" },
		{ "[experiment]\nname = x\ncontrol = a\n[arm a]\n"
		  "[workload w]\ntype = test\n",
		  "exp.ini:3: control: the control arm 'a' is the only arm: "
		  "nightly judges the other arms by their ratio to it",
		  "control is the only arm" },
		{ "[experiment]\norder = sideways\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: order: 'sideways' is not one of: alternate abba "
		  "random sequential", "bad choice" },
		{ "[experiment]\ndrop-caches = maybe\n[arm a]\n"
		  "[workload w]\ntype = test\n",
		  "exp.ini:2: drop-caches: 'maybe' is not a boolean (use "
		  "yes/no, true/false, on/off or 1/0)", "bad boolean" },
		{ "[experiment]\ntimeout = soon\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: timeout: invalid duration 'soon': write a number "
		  "and a unit as Go does (300ms, 1.5s, 2m, 1h30m; units ns, "
		  "us, ms, s, m or min, h)",
		  "bad duration" },
		{ "[experiment]\ntimeout = 0\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: timeout: '0': the duration must be at least "
		  "1ms (0 is not allowed)",
		  "zero timeout" },
		{ "[experiment]\nseed = -1\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: seed: '-1' is not an unsigned integer",
		  "negative seed" },
		{ "[experiment]\nrounds = 3 5\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: rounds: '3 5' has several values: a matrix is "
		  "only allowed in a [workload] section, not in [experiment]",
		  "matrix in [experiment]" },
		{ "[experiment]\nrounds = 3\nrounds = 4\n[arm a]\n"
		  "[workload w]\ntype = test\n",
		  "exp.ini:3: rounds: duplicate key in [experiment] (first "
		  "at line 2)", "duplicate key" },
		{ "[experiment]\nbogus = 1\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:2: bogus: unknown key in [experiment]",
		  "unknown experiment key" },
		{ HEAD "[workload w]\ntype = test\njobs = 2\n\n"
		  "; a comment\nbogus = 1\n",
		  "exp.ini:8: bogus: unknown key in [workload w] (type test)",
		  "unknown workload key" },
		{ HEAD "[workload w]\njobs = 2\n",
		  "exp.ini:3: type: missing in [workload w]",
		  "missing type" },
		{ HEAD "[workload w]\ntype = nosuch\n",
		  "exp.ini:4: type: unknown workload type 'nosuch' (known: "
		  "test, needy)", "unknown type" },
		{ HEAD "[workload w]\ntype = needy\ncmd = x\n",
		  "exp.ini:3: target: missing in [workload w]",
		  "missing required key" },
		{ HEAD "[workload w]\ntype = needy\ntarget = t\n",
		  "exp.ini:3: cmd: missing in [workload w]",
		  "required OPT_ARM key on no arm" },
		{ "[experiment]\n[arm a]\ncmd = x\n[arm b]\n[workload w]\n"
		  "type = needy\ntarget = t\n",
		  "exp.ini:5: cmd: missing in [workload w]",
		  "required OPT_ARM key on some arms only" },
		{ HEAD "[workload w]\ntype = test\nbs = 4q\n",
		  "exp.ini:5: bs: invalid size '4q' (use k, m, g or t)",
		  "bad size" },
		{ HEAD "[workload w]\ntype = test\nratio = 1.5\n",
		  "exp.ini:5: ratio: 1.5 is out of range [0, 1]",
		  "float out of range" },
		{ HEAD "[workload w]\ntype = test\nratio = half\n",
		  "exp.ini:5: ratio: 'half' is not a number", "bad float" },
		{ HEAD "[workload w]\ntype = test\nbs = 4k 8k x\n",
		  "exp.ini:5: bs: invalid size 'x'", "bad word in a matrix" },
		{ HEAD "[workload w]\ntype = test\nbs = 4k 8k 4k\n",
		  "exp.ini:5: bs: '4k' appears twice in the matrix",
		  "duplicate matrix value" },
		{ HEAD "[workload w]\ntype = test\nmode = a b\n",
		  "exp.ini:5: mode: 'a b' has several values, but this key "
		  "cannot make a matrix", "OPT_NOMATRIX" },
		{ HEAD "[workload w]\ntype = test\ntimeout = 1s 2s\n",
		  "exp.ini:5: timeout: '1s 2s' has several values, but this "
		  "key cannot make a matrix", "no matrix of timeouts" },
		{ HEAD "[workload w]\ntype = test\nflags = \"a b\n",
		  "exp.ini:5: flags: missing closing quote",
		  "unbalanced quote in a list" },
		{ HEAD "[workload w]\ntype = test\ntag =\n",
		  "exp.ini:5: tag: missing value", "empty value" },
		{ HEAD "[workload w]\ntype = test\nexecutor = ssh\n",
		  "exp.ini:5: executor: 'ssh' is not one of: local docker oci "
		  "podman crun unshare",
		  "bad executor" },
		{ HEAD "[workload w]\ntype = test\nopt.x = y\n",
		  "exp.ini:5: opt.x: 'y' is not an integer",
		  "prefix option value" },
		{ HEAD "[workload w]\ntype = test\nrw = write\njobs = 40\n",
		  "exp.ini:6: jobs: at most 32 writers",
		  "the type's validate()" },
		{ HEAD "[workload w]\ntype = test\nrw = read write\n"
		  "jobs = 40\n",
		  "exp.ini:6: jobs: at most 32 writers (in w/rw=write)",
		  "validate() of one combination" },
		{ "[experiment]\n[arm a]\ncpu = 1 2\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: cpu: '1 2' has several values: a matrix is only "
		  "allowed in a [workload] section, not in [arm a]",
		  "matrix on an arm" },
		{ "[experiment]\n[arm a]\ncpu = 0\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: cpu: 0 is out of range [0.01, 4096]",
		  "arm cpu" },
		{ "[experiment]\n[arm a]\nmemory = lots\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: memory: invalid size 'lots'", "arm memory" },
		{ "[experiment]\n[arm a]\nbogus = 1\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: bogus: unknown key in [arm a]",
		  "unknown arm key" },
		{ "[experiment]\n[arm a]\nbs = 4k\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: bs: unknown key in [arm a]: it is a key of "
		  "[workload] type test",
		  "a workload key that is not OPT_ARM" },
		{ "[experiment]\n[arm a]\nthreads = 0\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: threads: 0 is out of range [1, 1000]",
		  "OPT_ARM value checked on the arm" },
		{ "[experiment]\n[arm a]\nthreads = 4\n[workload w]\n"
		  "type = needy\ntarget = t\ncmd = c\n",
		  "exp.ini:3: threads: unknown key in [arm a]: it is a key of "
		  "[workload] type test",
		  "OPT_ARM of a type not in use" },
		{ "[experiment]\n[arm a]\nenv.1X = y\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: env.1X: '1X' is not a valid environment variable "
		  "name", "bad env name" },
		{ "[experiment]\n[arm a]\nenv. = y\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: env.: unknown key in [arm a]", "empty env name" },
		{ "[experiment]\n[arm a]\n[arm a]\n[workload w]\n"
		  "type = test\n",
		  "exp.ini:3: duplicate section [arm a] (first at line 2)",
		  "duplicate arm" },
		{ HEAD "[workload w]\ntype = test\n[workload w]\ntype = test\n",
		  "exp.ini:5: duplicate section [workload w] (first at line 3)",
		  "duplicate workload" },
		{ HEAD "[experiment]\n[workload w]\ntype = test\n",
		  "exp.ini:3: duplicate section [experiment] (first at line 1)",
		  "two [experiment] sections" },
		{ "[experiment]\n[arm]\n",
		  "exp.ini:2: [arm] needs a name: [arm NAME]", "unnamed arm" },
		{ "[experiment]\n[arm a b]\n",
		  "exp.ini:2: arm name 'a b' must not contain spaces",
		  "arm name with a space" },
		{ "[experiment]\n[arm a/b]\n",
		  "exp.ini:2: arm name 'a/b' must not contain '/'",
		  "arm name with a slash" },
		{ "[experiment]\n[arm a:b]\n",
		  "exp.ini:2: arm name 'a:b' must not contain ':'",
		  "arm name with a colon" },
		{ HEAD "[workload x/y]\n",
		  "exp.ini:3: workload name 'x/y' must not contain '/'",
		  "workload name with a slash" },
		{ "[experiment] name\n",
		  "exp.ini:1: unexpected text after ']'", "text after ]" },
		{ "[experiment test]\n",
		  "exp.ini:1: [experiment] takes no name", "named experiment" },
		{ "[experiment]\n[arms a]\n",
		  "exp.ini:2: unknown section [arms a] (expected [experiment], "
		  "[arm NAME] or [workload NAME]); did you mean '[arm a]'?",
		  "unknown section" },
		{ "[experiment\n", "exp.ini:1: missing ']' in section header",
		  "unclosed header" },
		{ "[experiment]\nrounds 5\n",
		  "exp.ini:2: expected 'key = value' or '[section]'",
		  "line without =" },
		{ "[experiment]\n= 5\n", "exp.ini:2: missing key before '='",
		  "line without a key" },
		{ "rounds = 5\n[experiment]\n",
		  "exp.ini:1: rounds: key before the first [section]",
		  "key outside a section" },
		{ "[arm a]\n[workload w]\ntype = test\n",
		  "exp.ini: no [experiment] section", "no [experiment]" },
		{ "[experiment]\n[workload w]\ntype = test\n",
		  "exp.ini: no [arm NAME] section", "no arm" },
		{ "[experiment]\n[arm a]\n",
		  "exp.ini: no [workload NAME] section", "no workload" },
		{ "", "exp.ini: no [experiment] section", "empty file" },
		{ HEAD "[workload w]\ntype = test\nbs = 1 2 3 4 5 6 7 8 9 10\n"
		  "jobs = 1 2 3 4 5 6 7 8 9 10\n"
		  "tag = 1 2 3 4 5 6 7 8 9 10\n"
		  "flags = x\nrw = read write\n"
		  "delay = 1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s\n",
		  "exp.ini:3: the matrix of [workload w] has more than 10000 "
		  "combinations", "matrix too large" },
	};
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_error(cases[i].text, cases[i].want, cases[i].what);
}

static void
test_long_and_binary_lines(void)
{
	struct strbuf	 sb = STRBUF_INIT;
	struct experiment *e;
	char		*cause;
	size_t		 i;
	static const char nul[] = "[experiment]\nname = a\0b\n";

	/* A long args line is fine (inih's own limit is 200 bytes). */
	strbuf_adds(&sb, HEAD "[workload w]\ntype = test\nargs =");
	for (i = 0; i < 2000; i++)
		strbuf_addf(&sb, " word%zu", i);
	strbuf_adds(&sb, "\n");
	e = parse(sb.buf, &cause);
	tap_ok(e != NULL, "a 15 kB line is read whole");
	if (e != NULL) {
		const struct strvec *w = &topts(&e->workloads[0],
				    NULL)->args;

		tap_int_eq(w->n, 2000, "all 2000 words of the long line");
		tap_str_eq(w->n == 2000 ? w->v[1999] : NULL, "word1999",
		    "the last word of the long line");
	} else
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);

	strbuf_reset(&sb);
	strbuf_adds(&sb, HEAD "[workload w]\ntype = test\nargs = ");
	for (i = 0; i < 70000; i++)
		strbuf_addc(&sb, 'x');
	strbuf_adds(&sb, "\n");
	check_error(sb.buf, "exp.ini:5: line too long (more than 65534 "
	    "bytes)", "a 70 kB line");
	strbuf_release(&sb);

	e = experiment_parse_types("exp.ini", nul, sizeof nul - 1,
	    test_types, &cause);
	tap_ok(e == NULL, "a NUL byte is rejected");
	tap_str_eq(cause, "exp.ini:2: NUL byte in line", "NUL message");
	free(cause);
}

static void
test_defaults_and_comments(void)
{
	static const char text[] =
	    "\xef\xbb\xbf# a comment\n"
	    "; another\n"
	    "[experiment]   ; the header may have a comment\n"
	    "  rounds = 5          ; five\n"
	    "order = abba # AB BA\n"
	    "pkg    = 16 concurrent fio containers   ; becomes pkg:\n"
	    "description = say \"a ; b # c\" ; and a comment\n"
	    "seed = 18446744073709551615\n"
	    "\n"
	    "[arm base]\n"
	    "[arm  new ]\n"
	    "runtime = runsc\n"
	    "[workload w]\n"
	    "type = test\n"
	    "bs=8k\n"
	    "rw : write\n"
	    /* A runtime that no workload uses is an error: one passes it. */
	    "args = prog --runtime={runtime}\n";
	struct experiment	*e;
	struct workload		*wl;
	char			*cause;

	e = experiment_parse_types("dir/bfq-test.ini", text, strlen(text),
	    test_types, &cause);
	if (!tap_ok(e != NULL, "comments and defaults: parsed")) {
		TAP_DIAG("%s", cause);
		free(cause);
		return;
	}
	tap_str_eq(e->name, "bfq-test", "name defaults to the base name");
	tap_int_eq(e->rounds, 5, "indented key with ; comment");
	tap_int_eq(e->order, ORDER_ABBA, "# inline comment");
	tap_str_eq(e->pkg, "16 concurrent fio containers", "pkg text");
	tap_str_eq(e->description, "say \"a ; b # c\"",
	    "comment characters inside quotes are kept");
	tap_ok(e->seed_set && e->seed == UINT64_MAX, "seed up to 2^64-1");
	tap_int_eq(e->warmup, 0, "warmup default");
	tap_int_eq(e->max_failures, 0, "max-failures default");
	tap_int_eq(e->drop_caches, 0, "drop-caches default");
	tap_int_eq(e->timeout_ns, 600000000000LL, "timeout default 10m");
	tap_int_eq(e->nsettings, 5, "settings keep the [experiment] keys");
	tap_str_eq(e->nsettings > 1 ? e->settings[1].key : NULL, "order",
	    "settings in file order");
	tap_int_eq(e->nsettings > 1 ? e->settings[1].line : 0, 5,
	    "settings keep line numbers");
	tap_int_eq(e->narms, 2, "two arms");
	tap_str_eq(e->arms[0].name, "base", "first arm is the baseline");
	tap_int_eq(e->arms[0].line, 10, "arm header line");
	tap_str_eq(e->arms[1].name, "new", "blanks in the header trimmed");
	tap_ok(e->arms[0].runtime == NULL, "runtime unset");
	tap_str_eq(e->arms[1].runtime, "runsc", "runtime set");
	tap_int_eq(e->nworkloads, 1, "one workload");
	wl = &e->workloads[0];
	tap_str_eq(wl->name, "w", "no matrix: the name is the base");
	tap_int_eq(wl->naxes, 0, "no axes");
	tap_int_eq(wl->line, 13, "workload header line");
	tap_ok(wl->ops == &test_ops, "ops from the type table");
	tap_str_eq(wl->type, "test", "type");
	tap_int_eq(wl->timeout_ns, 600000000000LL,
	    "workload timeout from the experiment");
	tap_str_eq(workload_get(wl, NULL, "bs"), "8k", "key=value without "
	    "blanks");
	tap_str_eq(workload_get(wl, NULL, "rw"), "write", "key : value");
	tap_int_eq(topts(wl, NULL)->bs, 8192, "size bound in bytes");
	tap_int_eq(topts(wl, NULL)->rw, 1, "choice bound as its index");
	tap_int_eq(topts(wl, NULL)->jobs, 1, "int: the option's default");
	tap_ok(topts(wl, NULL)->ratio == 0 && !topts(wl, NULL)->ratio_set,
	    "no value and no default: zero, not given");
	tap_int_eq(topts(wl, NULL)->delay, 1000000000, "duration default");
	tap_int_eq(topts(wl, NULL)->verify, 0, "bool default");
	tap_ok(workload_get(wl, NULL, "ratio") == NULL,
	    "no value and no default: NULL");
	tap_str_eq(workload_get(wl, NULL, "executor"), "local",
	    "executor defaults to the type's");
	tap_ok(strncmp(e->text, "\xef\xbb\xbf# a comment\n", 14) == 0,
	    "text keeps the file as read");
	experiment_free(e);
}

static void
test_settings_and_arms(void)
{
	static const char text[] =
	    "[experiment]\n"
	    "name = demo\n"
	    "rounds = 3\n"
	    "warmup = 2\n"
	    "order = random\n"
	    "timeout = 30s\n"
	    "max-failures = 4\n"
	    "drop-caches = on\n"
	    "[arm a]\n"
	    "runtime = runsc\n"
	    "runtime-args = --platform=systrap \"--debug-log=/tmp/a b\"\n"
	    "cpu = 1.5\n"
	    "memory = 2g\n"
	    "env.GOMAXPROCS = 4\n"
	    "env.MSG = \"hello world\"\n"
	    "env.RAW = a \"b c\"\n"
	    "args = /bin/sleep 0.1\n"
	    "threads = 8\n"
	    "description = the baseline\n"
	    "[arm b]\n"
	    "[workload w]\n"
	    "type = test\n"
	    "timeout = 5s\n"
	    "drop-caches = no\n"
	    "args = /bin/true\n"
	    "threads = 3\n"
	    "[workload v]\n"
	    "type = test\n"
	    /* Where the arm's runtime and runtime-args go. */
	    "executor = docker\n";
	struct experiment	*e;
	struct workload		*w, *v;
	struct arm		*a, *b;
	char			*cause;

	e = parse(text, &cause);
	if (!tap_ok(e != NULL, "settings and arms: parsed")) {
		TAP_DIAG("%s", cause);
		free(cause);
		return;
	}
	tap_str_eq(e->name, "demo", "name");
	tap_int_eq(e->rounds, 3, "rounds");
	tap_int_eq(e->warmup, 2, "warmup");
	tap_int_eq(e->order, ORDER_RANDOM, "order");
	tap_ok(!e->seed_set, "seed not set");
	tap_int_eq(e->timeout_ns, 30000000000LL, "timeout");
	tap_int_eq(e->max_failures, 4, "max-failures");
	tap_int_eq(e->drop_caches, 1, "drop-caches");
	a = &e->arms[0];
	b = &e->arms[1];
	tap_int_eq(a->runtime_args.n, 2, "runtime-args words");
	tap_str_eq(a->runtime_args.n == 2 ? a->runtime_args.v[1] : NULL,
	    "--debug-log=/tmp/a b", "quoted runtime arg");
	tap_str_eq(arm_get(a, "cpu"), "1.5", "arm_get cpu");
	tap_str_eq(arm_get(a, "memory"), "2g", "arm_get memory");
	tap_ok(arm_get(b, "cpu") == NULL, "arm_get unset");
	tap_int_eq(a->env.n, 3, "three env entries");
	tap_str_eq(a->env.n == 3 ? a->env.v[0] : NULL, "GOMAXPROCS=4",
	    "env NAME=VALUE");
	tap_str_eq(a->env.n == 3 ? a->env.v[1] : NULL, "MSG=hello world",
	    "one quoted env value is unquoted");
	tap_str_eq(a->env.n == 3 ? a->env.v[2] : NULL, "RAW=a \"b c\"",
	    "other env text kept as written");
	tap_int_eq(a->args.n, 2, "arm args split");
	tap_str_eq(a->args.n == 2 ? a->args.v[0] : NULL, "/bin/sleep",
	    "arm args argv[0]");
	tap_int_eq(b->args.n, 0, "args unset: n == 0");
	tap_str_eq(arm_get(a, "description"), "the baseline",
	    "arm description");

	w = &e->workloads[0];
	v = &e->workloads[1];
	tap_int_eq(w->timeout_ns, 5000000000LL, "workload timeout");
	tap_int_eq(w->drop_caches, 0, "workload drop-caches overrides");
	tap_int_eq(v->timeout_ns, 30000000000LL, "timeout from experiment");
	tap_int_eq(v->drop_caches, 1, "drop-caches from experiment");
	/* OPT_ARM: the arm wins, else the workload, else the default. */
	tap_str_eq(workload_get(w, a, "args"), "/bin/sleep 0.1",
	    "arm args win over the workload's");
	tap_str_eq(workload_get(w, b, "args"), "/bin/true",
	    "arm without args: the workload's");
	tap_str_eq(workload_get(w, NULL, "args"), "/bin/true",
	    "no arm: the workload's");
	tap_int_eq(topts(w, a)->threads, 8, "arm threads");
	tap_int_eq(topts(w, a)->threads_set, 2, "set by the arm");
	tap_int_eq(topts(w, b)->threads, 3,
	    "workload threads");
	tap_int_eq(topts(v, b)->threads, 2,
	    "default threads");
	tap_int_eq(topts(v, a)->threads, 8,
	    "arm threads over the default");
	tap_ok(topts(v, a)->args_set == 2 && topts(v, a)->args.n == 2,
	    "the arm's args as words");
	tap_ok(topts(v, b)->args_set == 0 && topts(v, b)->args.n == 0,
	    "unset args: no words");
	tap_ok(topts(v, NULL)->args_set == 0,
	    "the workload's own struct: no arm");
	experiment_free(e);
}

static void
test_matrix(void)
{
	static const char text[] =
	    "[experiment]\n"
	    "[arm a]\n"
	    "[workload m]\n"
	    "type = test\n"
	    "rw = randread randwrite\n"
	    "jobs = 1\n"
	    "bs = 4k 64k 1m\n"
	    "tag = \"two words\" one\n"
	    "flags = --a --b --c\n"
	    "args = sh -c \"echo x\"\n"
	    "[workload single]\n"
	    "type = test\n"
	    "tag = \"just one\"\n";
	static const char *const names[] = {
	    "m/rw=randread/bs=4k/tag=two_words",
	    "m/rw=randread/bs=4k/tag=one",
	    "m/rw=randread/bs=64k/tag=two_words",
	    "m/rw=randread/bs=64k/tag=one",
	    "m/rw=randread/bs=1m/tag=two_words",
	    "m/rw=randread/bs=1m/tag=one",
	    "m/rw=randwrite/bs=4k/tag=two_words",
	    "m/rw=randwrite/bs=4k/tag=one",
	    "m/rw=randwrite/bs=64k/tag=two_words",
	    "m/rw=randwrite/bs=64k/tag=one",
	    "m/rw=randwrite/bs=1m/tag=two_words",
	    "m/rw=randwrite/bs=1m/tag=one",
	    "single",
	};
	struct experiment	*e;
	struct workload		*wl;
	char			*cause;
	size_t			 i;

	e = parse(text, &cause);
	if (!tap_ok(e != NULL, "matrix: parsed")) {
		TAP_DIAG("%s", cause);
		free(cause);
		return;
	}
	tap_int_eq(e->nworkloads, 13, "2 x 3 x 2 combinations + 1");
	for (i = 0; i < e->nworkloads && i < ARRAY_SIZE(names); i++)
		tap_str_eq(e->workloads[i].name, names[i],
		    "combination %zu in order", i);
	wl = &e->workloads[7];
	tap_str_eq(wl->base, "m", "base name");
	tap_int_eq(wl->naxes, 3, "three axes");
	tap_str_eq(wl->axes[0].key, "rw", "axis 0 key");
	tap_str_eq(wl->axes[0].value, "randwrite", "axis 0 value");
	tap_str_eq(wl->axes[1].key, "bs", "axis 1 key");
	tap_str_eq(wl->axes[1].value, "4k", "axis 1 value");
	tap_int_eq(wl->axes[2].line, 8, "axis line");
	tap_str_eq(workload_get(wl, NULL, "rw"), "randwrite",
	    "kv holds the combination's value");
	tap_int_eq(topts(wl, NULL)->bs, 4096,
	    "the struct holds the combination's value");
	tap_int_eq(topts(wl, NULL)->rw, 3, "on every axis");
	tap_str_eq(workload_get(&e->workloads[0], NULL, "tag"), "two words",
	    "a quoted word stays together and loses its quotes");
	tap_str_eq(workload_get(wl, NULL, "flags"), "--a --b --c",
	    "a list option is one value");
	tap_str_eq(workload_get(wl, NULL, "args"), "sh -c \"echo x\"",
	    "a list keeps its text and quotes");
	tap_int_eq(wl->nkv, 7, "one value per key after expansion");
	tap_str_eq(workload_get(&e->workloads[12], NULL, "tag"), "just one",
	    "one quoted value is not a matrix");
	tap_int_eq(e->workloads[12].naxes, 0, "and has no axes");
	experiment_free(e);
}

static void
test_two_by_three(void)
{
	static const char text[] =
	    "[experiment]\n[arm a]\n[arm b]\n"
	    "[workload w]\ntype = test\nbs = 4k 1m\n"
	    "jobs = 1 2 4\n";
	struct experiment	*e;
	char			*cause;

	e = parse(text, &cause);
	if (!tap_ok(e != NULL, "2x3: parsed")) {
		free(cause);
		return;
	}
	tap_int_eq(e->nworkloads, 6, "2x3 axes make 6 workloads");
	tap_str_eq(e->workloads[0].name, "w/bs=4k/jobs=1", "first");
	tap_str_eq(e->workloads[2].name, "w/bs=4k/jobs=4", "last key fastest");
	tap_str_eq(e->workloads[3].name, "w/bs=1m/jobs=1", "first key slowest");
	tap_str_eq(e->workloads[5].name, "w/bs=1m/jobs=4", "last");
	experiment_free(e);
}

/* The shipped types: command under its default executor. */
static void
test_command_type(void)
{
	static const char text[] =
	    "[experiment]\nname = quick\n"
	    "[arm buffered]\nargs = dd if=/dev/zero of=f bs=4k count=8\n"
	    "[arm direct]\n"
	    "args = dd if=/dev/zero of=f bs=4k count=8 oflag=direct,dsync\n"
	    "[workload dd]\ntype = command\n";
	static const char bad[] =
	    "[experiment]\n[arm a]\n[workload w]\ntype = command\n"
	    "args = /bin/true\nok-status = 0 256\n";
	struct experiment	*e;
	char			*cause = NULL;

	e = experiment_parse("q.ini", text, strlen(text), &cause);
	if (!tap_ok(e != NULL, "command type: parsed")) {
		TAP_DIAG("%s", cause);
		free(cause);
		return;
	}
	tap_ok(e->workloads[0].ops == workload_lookup("command"),
	    "ops of the command type");
	tap_ok(e->workloads[0].exec != NULL &&
	    e->workloads[0].exec == exec_lookup(e->workloads[0].ops->
	    default_exec), "executor defaults to the type's");
	tap_str_eq(workload_get(&e->workloads[0], &e->arms[1], "args"),
	    "dd if=/dev/zero of=f bs=4k count=8 oflag=direct,dsync",
	    "args of the second arm");
	experiment_free(e);

	e = experiment_parse("b.ini", bad, strlen(bad), &cause);
	tap_ok(e == NULL, "command: list of ints checked word by word");
	tap_str_eq(cause, "b.ini:6: ok-status: 256 is out of range [0, 255]",
	    "command: ok-status message");
	free(cause);
}

/*
 * abbench run -- 'CMD' -- 'CMD': a command line split without a shell, and
 * the experiment text made of the argv reads back as the same argv, word
 * for word, whatever the words hold (quotes, backslashes, ;, #, %, <,
 * brackets, blanks, nothing at all): fixed cases, then random words.
 */
static int
argv_same(const struct strvec *got, char *const *want)
{
	size_t	i;

	for (i = 0; want[i] != NULL; i++)
		if (i >= got->n || strcmp(got->v[i], want[i]) != 0)
			return 0;
	return i == got->n;
}

static void
test_inline(void)
{
	static const struct {
		const char	*line;
		const char	*words[9];	/* NULL-terminated */
	} cases[] = {
		{ "sleep 0.1", { "sleep", "0.1" } },
		{ "  a\t b  ", { "a", "b" } },
		{ "a 'b c' \"d e\"", { "a", "b c", "d e" } },
		{ "'it''s' x'y'z", { "its", "xyz" } },
		{ "\"q\\\"d\" \"b\\\\s\" \"n\\n\"", { "q\"d", "b\\s", "n\\n" } },
		{ "'a\\b' '\"'", { "a\\b", "\"" } },
		{ "x\\ y \\' \\\\", { "x y", "'", "\\" } },
		{ "'' \"\"", { "", "" } },
		{ "100% <in >out ; # $HOME * |", { "100%", "<in", ">out",
		    ";", "#", "$HOME", "*", "|" } },
	};
	static const char *const bad[] = { "a 'b", "\"a", "a\\" };
	static const char *const alphabet[] = { "a", "b", " ", "\t", "\"",
	    "'", "\\", "%", "<", ">", ";", "#", "[", "]", "=", "$", "{", "}",
	    ":", "*", "\x01", "\xc3\xa9" };
	struct strvec		 sv;
	struct experiment	*e;
	char			*cause = NULL, *text, **argvs[2];
	char			*words[2][6];
	size_t			 i, k, j, good = 0, n = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&sv, 0, sizeof sv);
		tap_ok(strvec_split_command(&sv, cases[i].line, &cause) == 0 &&
		    argv_same(&sv, (char *const *)cases[i].words),
		    "split: %s", cases[i].line);
		strvec_clear(&sv);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&sv, 0, sizeof sv);
		k = strvec_split_command(&sv, bad[i], &cause) == -1;
		tap_ok(k && cause != NULL, "split refuses %s (%s)", bad[i],
		    cause ? cause : "");
		free(cause);
		cause = NULL;
		strvec_clear(&sv);
	}
	srand(54);
	for (n = 0; n < 300; n++) {
		for (k = 0; k < 2; k++) {
			for (j = 0; j < 5; j++) {
				size_t	len = (size_t)rand() % 6, c;

				/* Up to two bytes a token, and a 'p'. */
				words[k][j] = xcalloc(1, 2 * len + 2);
				for (c = 0; c < len; c++)
					strcat(words[k][j], alphabet[(size_t)
					    rand() % ARRAY_SIZE(alphabet)]);
			}
			/* The program's name is a word of its own. */
			if (words[k][0][0] == '\0')
				words[k][0][0] = 'p';
			words[k][5] = NULL;
			argvs[k] = words[k];
		}
		text = experiment_inline_text(argvs, 2, &cause);
		e = text != NULL ? experiment_parse("inline", text,
		    strlen(text), &cause) : NULL;
		if (e != NULL && e->narms == 2 &&
		    strcmp(e->arms[0].name, "A") == 0 &&
		    strcmp(e->arms[1].name, "B") == 0 &&
		    argv_same(&e->arms[0].args, words[0]) &&
		    argv_same(&e->arms[1].args, words[1]))
			good++;
		else if (good == n)
			TAP_DIAG("first failure: %s", cause != NULL ? cause :
			    "argv differs");
		experiment_free(e);
		free(text);
		free(cause);
		cause = NULL;
		for (k = 0; k < 2; k++)
			for (j = 0; j < 5; j++)
				free(words[k][j]);
	}
	tap_ok(good == n, "inline: %zu of %zu random argv pairs read back "
	    "word for word", good, n);
	argvs[0] = (char *[]){ "echo", "a\nb", NULL };
	tap_ok(experiment_inline_text(argvs, 1, &cause) == NULL &&
	    strstr(cause, "line break") != NULL, "inline: a line break is "
	    "refused");
	free(cause);
	cause = NULL;
	argvs[0] = (char *[]){ "echo", "\xc3", NULL };
	tap_ok(experiment_inline_text(argvs, 1, &cause) == NULL &&
	    strstr(cause, "not UTF-8") != NULL, "inline: a word that is not "
	    "UTF-8 is refused");
	free(cause);
	cause = NULL;
	argvs[0] = (char *[]){ "", NULL };
	tap_ok(experiment_inline_text(argvs, 1, &cause) == NULL &&
	    strstr(cause, "command 1 is empty") != NULL,
	    "inline: an empty command is refused");
	free(cause);
}

/*
 * quota = parent needs an executor that places a sandbox in a cgroup
 * parent (EXEC_CGROUP_PARENT). Every shipped executor can, so a FAKE
 * executor without the capability stands in for one that cannot: the
 * cpu-steady type's own validate() runs with it, and the loader names
 * file:line:key of the quota.
 */
static const struct exec_ops fake_nocg_exec = {
	.name = "fake-nocg",
	.caps = EXEC_CONTAINER,
};
static int (*steady_validate_real)(const struct experiment *,
    struct workload *, char **);

static int
fake_nocg_validate(const struct experiment *e, struct workload *wl,
    char **cause)
{
	wl->exec = &fake_nocg_exec;
	return steady_validate_real(e, wl, cause);
}

static void
test_quota_parent_caps(void)
{
	static const char text[] =
	    "[experiment]\nname = q\n[arm a]\n[workload w]\n"
	    "type = cpu-steady\nexecutor = oci\ncpu = 0.25\n"
	    "quota = %s\n";
	static struct workload_ops	 fake_steady;
	const struct workload_ops	*types[] = { &fake_steady, NULL };
	static const char *const	 parents[] = { "local", "docker",
	    "oci" };
	struct experiment		*e;
	char				*cause = NULL, *t;
	size_t				 i;

	for (i = 0; i < ARRAY_SIZE(parents); i++)
		tap_ok((exec_lookup(parents[i])->caps &
		    EXEC_CGROUP_PARENT) != 0,
		    "executor %s places a sandbox in a cgroup parent",
		    parents[i]);
	/* podman does not (yet): refused when the file is loaded. */
	t = xasprintf("[experiment]\nname = q\n[arm a]\n[workload w]\n"
	    "type = idle-memory\nexecutor = podman\nquota = parent\n");
	e = experiment_parse("q.ini", t, strlen(t), &cause);
	tap_ok(e == NULL && cause != NULL &&
	    strncmp(cause, "q.ini:", 6) == 0 && strstr(cause, "quota") !=
	    NULL && strstr(cause, "'podman' cannot") != NULL,
	    "quota = parent under executor = podman: refused at load");
	TAP_DIAG("%s", cause != NULL ? cause : "(parsed)");
	experiment_free(e);
	free(cause);
	cause = NULL;
	free(t);
	t = xasprintf(text, "parent");
	e = experiment_parse("q.ini", t, strlen(t), &cause);
	if (!tap_ok(e != NULL, "quota = parent under executor = oci"))
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);
	cause = NULL;

	fake_steady = *workload_lookup("cpu-steady");
	steady_validate_real = fake_steady.validate;
	fake_steady.validate = fake_nocg_validate;
	e = experiment_parse_types("q.ini", t, strlen(t), types, &cause);
	tap_ok(e == NULL, "quota = parent refused without the capability");
	tap_str_eq(cause, "q.ini:8: quota: 'parent' needs an executor that "
	    "creates the sandbox inside a cgroup parent; executor "
	    "'fake-nocg' cannot (use quota = leaf, or executor = local, "
	    "docker, oci, crun, unshare)", "it names file:line:key and what works");
	experiment_free(e);
	free(cause);
	cause = NULL;
	free(t);
	t = xasprintf(text, "leaf");
	e = experiment_parse_types("q.ini", t, strlen(t), types, &cause);
	if (!tap_ok(e != NULL, "quota = leaf is fine without it"))
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);
	free(t);
}

static void
test_host_settings(void)
{
	static const char good[] =
	    "[experiment]\n[arm a]\nhost.block.scheduler = bfq\n"
	    "host.block.slice_idle = 8\n[arm b]\n"
	    "host.block.scheduler = bfq\nhost.block.slice_idle = 0\n"
	    "[workload w]\ntype = test\n";
	static const char bad[] =
	    "[experiment]\n[arm a]\nhost.nosuch = 1\n[workload w]\n"
	    "type = test\n";
	struct experiment	*e;
	char			*cause;

	e = parse(good, &cause);
	if (tap_ok(e != NULL, "host settings: parsed")) {
		tap_int_eq(e->arms[0].nhost, 2, "two host settings");
		tap_str_eq(e->arms[0].host[1].key, "host.block.slice_idle",
		    "host settings in file order");
		tap_str_eq(e->arms[1].host[1].value, "0", "host value");
		tap_int_eq(e->arms[1].host[0].line, 6, "host setting line");
		tap_str_eq(arm_get(&e->arms[0], "host.block.slice_idle"), "8",
		    "arm_get on a host setting");
	} else {
		TAP_DIAG("%s", cause);
		free(cause);
	}
	experiment_free(e);

	e = parse(bad, &cause);
	tap_ok(e == NULL, "unknown host setting rejected");
	tap_ok(cause != NULL && strncmp(cause, "exp.ini:3: host.nosuch: ",
	    24) == 0 && strlen(cause) > 24, "host error names file:line:key");
	TAP_DIAG("%s", cause != NULL ? cause : "(null)");
	free(cause);
}

static void
test_opt_check_value(void)
{
	static const struct opt_spec any_int = { .name = "n",
	    .type = OPT_T_INT };
	static const struct opt_spec ints = { .name = "n", .type = OPT_T_INT,
	    .form = OPT_FORM_LIST, .min = 0, .max = 9 };
	static const struct opt_spec big = { .name = "s", .type = OPT_T_SIZE,
	    .min = 0, .max = 1024 };
	char	*cause = NULL;
	int	 b = -1;

	tap_int_eq(opt_check_value(&any_int, "-9223372036854775808", NULL), 0,
	    "any int: LLONG_MIN");
	tap_int_eq(opt_check_value(&any_int, "1.5", &cause), -1,
	    "int: 1.5 rejected");
	tap_str_eq(cause, "'1.5' is not an integer", "int message");
	free(cause);
	tap_int_eq(opt_check_value(&ints, "1 2 3", NULL), 0, "list of ints");
	tap_int_eq(opt_check_value(&ints, "1 20", &cause), -1,
	    "list with a bad word");
	tap_str_eq(cause, "20 is out of range [0, 9]", "list message");
	free(cause);
	tap_int_eq(opt_check_value(&big, "2k", &cause), -1, "size range");
	tap_str_eq(cause, "'2k' is out of range [0, 1024] bytes",
	    "size range message");
	free(cause);
	tap_int_eq(opt_check_value(&big, "1k", NULL), 0, "size in range");
	tap_ok(opt_parse_bool("Off", &b) == 0 && b == 0, "bool Off");
	tap_ok(opt_parse_bool("TRUE", &b) == 0 && b == 1, "bool TRUE");
	tap_int_eq(opt_parse_bool("2", &b), -1, "bool 2");
	tap_ok(opt_find(arm_opts, "env.X") != NULL, "prefix option found");
	tap_ok(opt_find(arm_opts, "env") == NULL, "prefix alone is not");
	tap_ok(opt_find(workload_common_opts, "type") != NULL, "type");
}

static void
test_run_order(void)
{
	enum run_order	o = ORDER_ALTERNATE;
	const char	*names[] = { "alternate", "abba", "random",
	    "sequential" };
	size_t		i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		tap_ok(run_order_parse(names[i], &o) == 0 && (size_t)o == i,
		    "run_order_parse %s", names[i]);
		tap_str_eq(run_order_name((enum run_order)i), names[i],
		    "run_order_name %zu", i);
	}
	tap_int_eq(run_order_parse("ab", &o), -1, "unknown order");
}

static void
test_load(void)
{
	const char	*src = getenv("ABBENCH_SRCDIR");
	struct experiment *e;
	char		*path, *cause = NULL, *want;

	e = experiment_load("/nonexistent/x.ini", &cause);
	tap_ok(e == NULL, "load: missing file");
	tap_str_eq(cause, "cannot open '/nonexistent/x.ini': No such file "
	    "or directory", "load: message");
	free(cause);
	cause = NULL;
	if (src == NULL)
		src = ".";

	path = xasprintf("%s/tests/data/experiments/good.ini", src);
	e = experiment_load(path, &cause);
	if (tap_ok(e != NULL, "load: good.ini")) {
		tap_str_eq(e->name, "good", "load: default name");
		tap_int_eq(e->nworkloads, 7, "load: 3 x 2 matrix + 1");
		tap_str_eq(e->workloads[6].name, "startup", "load: last");
	} else
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);
	free(path);

	path = xasprintf("%s/tests/data/experiments/bad-matrix-arm.ini", src);
	want = xasprintf("%s:7: cpu: '1 2' has several values: a matrix is "
	    "only allowed in a [workload] section, not in [arm half]", path);
	cause = NULL;
	e = experiment_load(path, &cause);
	tap_ok(e == NULL, "load: bad-matrix-arm.ini rejected");
	tap_str_eq(cause, want, "load: message names the path");
	free(cause);
	free(want);
	free(path);
}

/*
 * Every shipped experiment loads: the checks across keys (an arm's
 * runtime that no workload uses, ...) hold for what we ship.
 */
static void
test_shipped(void)
{
	const char		*src = getenv("ABBENCH_SRCDIR");
	char			*pattern, *cause = NULL;
	struct experiment	*e;
	glob_t			 g;
	size_t			 i;

	pattern = xasprintf("%s/experiments/*.ini", src != NULL ? src : ".");
	if (glob(pattern, 0, NULL, &g) != 0) {
		tap_ok(0, "shipped experiments: none found by %s", pattern);
		free(pattern);
		return;
	}
	tap_ok(g.gl_pathc >= 10, "shipped experiments: %zu found",
	    (size_t)g.gl_pathc);
	for (i = 0; i < g.gl_pathc; i++) {
		e = experiment_load(g.gl_pathv[i], &cause);
		if (!tap_ok(e != NULL, "shipped %s loads",
		    strrchr(g.gl_pathv[i], '/') + 1))
			TAP_DIAG("%s", cause);
		free(cause);
		cause = NULL;
		experiment_free(e);
	}
	globfree(&g);
	free(pattern);
}

/*
 * perf on cgroup v2 with an arm's cpu or memory limit: the program would
 * leave its limited cgroup for perf's (a process is in one cgroup only):
 * refused at load, naming the limit's file:line: key. Not on v1, nor on
 * v2 without a limit.
 */
static void
test_perf_limits_v2(void)
{
	static const char text[] =
	    "[experiment]\n[arm a]\ncpu = 0.5\n[arm b]\nmemory = 16m\n"
	    "[workload w]\ntype = command\nargs = /bin/true\n"
	    "perf = page-faults\n";
	static const char nolimit[] =
	    "[experiment]\n[arm a]\n[arm b]\n"
	    "[workload w]\ntype = command\nargs = /bin/true\n"
	    "perf = page-faults\n";
	const char		*was = getenv("ABBENCH_CGROUP_VERSION");
	struct experiment	*e;
	char			*cause = NULL;

	setenv("ABBENCH_CGROUP_VERSION", "2", 1);
	e = experiment_parse("p.ini", text, strlen(text), &cause);
	tap_ok(e == NULL, "perf + an arm's cpu limit on v2: refused");
	tap_ok(cause != NULL && strstr(cause, "one cgroup only") != NULL &&
	    strstr(cause, "p.ini:3: cpu (arm 'a')") != NULL,
	    "named with the limit's file:line: key (%s)", cause);
	experiment_free(e);
	free(cause);
	cause = NULL;
	e = experiment_parse("p.ini", nolimit, strlen(nolimit), &cause);
	tap_ok(cause == NULL || strstr(cause, "one cgroup only") == NULL,
	    "perf without a limit on v2: not that refusal");
	experiment_free(e);
	free(cause);
	cause = NULL;
	setenv("ABBENCH_CGROUP_VERSION", "1", 1);
	e = experiment_parse("p.ini", text, strlen(text), &cause);
	tap_ok(cause == NULL || strstr(cause, "one cgroup only") == NULL,
	    "perf + limits on v1 (the program is in both hierarchies): "
	    "not refused for it");
	experiment_free(e);
	free(cause);
	if (was != NULL)
		setenv("ABBENCH_CGROUP_VERSION", was, 1);
	else
		unsetenv("ABBENCH_CGROUP_VERSION");
}

int
main(void)
{
	test_shipped();
	test_errors();
	test_long_and_binary_lines();
	test_defaults_and_comments();
	test_settings_and_arms();
	test_matrix();
	test_two_by_three();
	test_command_type();
	test_inline();
	test_quota_parent_caps();
	test_host_settings();
	test_opt_check_value();
	test_run_order();
	test_load();
	test_perf_limits_v2();
	return tap_done();
}
