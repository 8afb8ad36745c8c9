/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of subcommands and their lookup by unique prefix.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/analysis/powerdata.h"
#include "lib/options.h"
#include "lib/util.h"
#include "workloads/workload.h"
#include "results/store.h"

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_stat_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_db_entry;
extern const struct cmd_entry cmd_plot_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_nightly_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_env_entry;
extern const struct cmd_entry cmd_restore_entry;
extern const struct cmd_entry cmd_power_entry;
extern const struct cmd_entry cmd_calibrate_entry;
extern const struct cmd_entry cmd_fleet_entry;

const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_stat_entry,
	&cmd_compare_entry,
	&cmd_db_entry,
	&cmd_plot_entry,
	&cmd_report_entry,
	&cmd_nightly_entry,
	&cmd_history_entry,
	&cmd_env_entry,
	&cmd_restore_entry,
	&cmd_calibrate_entry,
	&cmd_power_entry,
	&cmd_fleet_entry,
	NULL
};

/* Every environment variable abbench reads (t0050 checks the sources). */
const struct cmd_note cmd_environment[] = {
	{ "ABBENCH_DB", "the results database when --db is not given "
	  "(default ./abbench.db), for every command that reads or writes "
	  "one" },
	{ "ABBENCH_EXPERIMENTS", "a directory searched first for an "
	  "experiment named without a path" },
	{ "ABBENCH_STATE_DIR", "where the host lock and the host journal "
	  "live (default /var/lib/abbench for root)" },
	{ "XDG_STATE_HOME", "for a user other than root: the state directory "
	  "is $XDG_STATE_HOME/abbench" },
	{ "HOME", "for a user other than root without XDG_STATE_HOME: "
	  "~/.local/state/abbench" },
	{ "XDG_DATA_HOME", "for a user other than root: where rootless "
	  "podman keeps its containers (default ~/.local/share), which the "
	  "end of a run sweeps for its own" },
	{ "ABBENCH_FLEET_DIR", "the shared directory of fleets when --dir is "
	  "not given (abbench fleet)" },
	{ "ABBENCH_WAIT_LOCK", "1: abbench run waits for the host lock, as "
	  "with --wait-lock" },
	{ "ABBENCH_DEBUG_DIE_AFTER_WRITES", "N: abbench kills itself after N "
	  "journal writes of a restore (tests of a restore that is killed)" },
	{ "ABBENCH_DEBUG_DIE_AFTER_MIGRATED", "N: abbench kills itself after "
	  "migrating N runs of an old store (tests of a migration that is "
	  "killed)" },
	{ "ABBENCH_DEBUG_DIE_AFTER_SUMMARIZED", "N: abbench kills itself "
	  "after summarizing N runs' nights in the migration to schema 10 "
	  "(tests of a migration that is killed)" },
	{ "ABBENCH_DEBUG_DIE_BEFORE_STORE", "N: abbench run kills itself "
	  "once its Nth sample has ended, before storing it (tests of what "
	  "a kill -9 loses)" },
	{ "ABBENCH_DEBUG_SAMPLETAB_LOADS", "FILE: each run's sample table "
	  "read from the database appends the run's id as a line to FILE "
	  "(tests that a command reads a run once)" },
	{ "ABBENCH_DEBUG_BALLAST", "SIZE: abbench holds that much memory "
	  "during a run, to show a measurement does not move with it" },
	{ "ABBENCH_DEBUG_HOME_THREAD", "1: once abbench's main thread is in "
	  "the run's home cgroup (cgroup v1), a thread is started there, "
	  "which keeps home busy after the main thread moves back alone "
	  "(tests that the whole process then moves back)" },
	{ "ABBENCH_LIBEXEC", "where the sandbox programs are (default: "
	  "beside the binary, then its libexec directory)" },
	{ "ABBENCH_DOCKER_DAEMON_JSON", "the docker daemon's configuration "
	  "file read for a runsc runtime's runtimeArgs (--platform), "
	  "default /etc/docker/daemon.json" },
	{ "ABBENCH_DOCKER", "the docker client (default docker on PATH)" },
	{ "DOCKER_HOST", "unix://PATH: the docker daemon's socket, asked "
	  "directly for the containers a run left (default "
	  "/var/run/docker.sock); any other scheme: the docker client is "
	  "used" },
	{ "ABBENCH_PODMAN", "the podman client of executor = podman "
	  "(default podman on PATH)" },
	{ "ABBENCH_UNSHARE", "the unshare(1) of executor = unshare "
	  "(default unshare on PATH)" },
	{ "ABBENCH_ROOTFS", "the rootfs of executor = oci (default "
	  "/var/lib/abbench/current)" },
	{ "ABBENCH_IMAGE_DIR", "where scripts/build-image put the rootfs "
	  "directories that executor = oci finds for an image name "
	  "(abbench/tools[:TAG], abbench/NAME[:TAG]; default "
	  "/var/lib/abbench)" },
	{ "ABBENCH_CGROUP_ROOT", "where the cgroup hierarchies are mounted "
	  "(default /sys/fs/cgroup; tests)" },
	{ "ABBENCH_CGROUP_VERSION", "1 or 2: the cgroup version to assume "
	  "(tests)" },
	{ "ABBENCH_STAT_PARSE_ONLY", "1: abbench stat reads its inputs and "
	  "prints nothing (benchmarks of the reader)" },
	{ "ABBENCH_STARTLINE_DIR", "set by abbench, not by you: where the "
	  "start-barrier helper of concurrent programs waits (exec/barrier.h)" },
	{ "TMPDIR", "where each run's scratch directory is made "
	  "(default /tmp)" },
	{ "PATH", "where programs named without a '/' are found, checked "
	  "before the first sample" },
	{ "SLURM_JOB_ID", "with SLURM_JOB_PARTITION, SLURMD_NODENAME, "
	  "SLURM_CLUSTER_NAME, ABBENCH_FLEET_ID and ABBENCH_FLEET_REPLICA: "
	  "stored with a run as where it ran (a run resumed on another "
	  "node records the move)" },
	{ NULL, NULL }
};

const struct cmd_note cmd_files[] = {
	{ "./abbench.db", "the default results database (SQLite)" },
	{ "/var/lib/abbench/host.lock", "the host-wide lock of runs that "
	  "change host settings: a flock on /var/lib/abbench itself, one per "
	  "host whatever $ABBENCH_STATE_DIR says; host.lock names its holder" },
	{ "/var/lib/abbench/journal.db", "the host journal: every change and "
	  "object of every run, undone by the next run or abbench restore "
	  "($ABBENCH_STATE_DIR/journal.db)" },
	{ "~/.local/state/abbench/", "the lock and journal of a user other "
	  "than root" },
	{ "/var/lib/abbench/current/", "the rootfs of the tools image "
	  "(scripts/build-image, installed as abbench-build-image)" },
	{ "../share/abbench/experiments/", "the shipped experiments, beside "
	  "the binary (abbench run NAME finds NAME.ini there)" },
	{ NULL, NULL }
};

const struct cmd_note cmd_exit_status[] = {
	{ "0", "ok" },
	{ "1", "a failed sample or check, a regression (nightly), something "
	  "not restored" },
	{ "2", "a usage or input error (file:line:key), an unreadable "
	  "database" },
	{ "3", "nightly --strict: nothing regressed but something was "
	  "inconclusive" },
	{ "130", "a run interrupted (Ctrl-C, SIGTERM); abbench run --resume "
	  "continues it" },
	{ NULL, NULL }
};

const struct cmd_note cmd_see_also[] = {
	{ "fio(1)", "the I/O workloads" },
	{ "gnuplot(1)", "abbench plot" },
	{ "sqlite3(1)", "the results database" },
	{ "docker(1)", "the docker executor" },
	{ NULL, NULL }
};

const struct cmd_topic cmd_topics[] = {
	{ "experiment", "the keys of an experiment file", experiment_help,
	  NULL },
	{ "workloads", "every workload type and its keys",
	  experiment_help_types, NULL },
	{ "man", "the manual page abbench(1) in roff", NULL, cmd_print_man },
	{ NULL, NULL, NULL, NULL }
};

void
cmd_topic_print(const struct cmd_topic *t, FILE *fp)
{
	struct strbuf	sb = STRBUF_INIT;

	if (t->print != NULL) {
		t->print(fp);
		return;
	}
	t->text(&sb);
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

const struct cmd_topic *
cmd_topic_find(const char *name)
{
	const struct cmd_topic	*t;

	for (t = cmd_topics; t->name != NULL; t++) {
		if (strcmp(t->name, name) == 0)
			return t;
	}
	return NULL;
}

const struct cmd_entry *
cmd_find(const char *name, char **cause)
{
	const struct cmd_entry *const	*e;
	const struct cmd_entry		*found = NULL;
	struct strbuf			 amb = STRBUF_INIT;
	size_t				 n = strlen(name);
	int				 matches = 0;

	for (e = cmd_table; *e != NULL; e++) {
		if (strcmp((*e)->name, name) == 0)
			return *e;
		if (n > 0 && strncmp((*e)->name, name, n) == 0) {
			if (matches++ > 0)
				strbuf_adds(&amb, ", ");
			strbuf_adds(&amb, (*e)->name);
			found = *e;
		}
	}
	if (matches == 1) {
		strbuf_release(&amb);
		return found;
	}
	if (matches > 1)
		set_cause(cause, "ambiguous command '%s': %s", name, amb.buf);
	else if (cmd_nearest(name) != NULL)
		set_cause(cause, "unknown command '%s': did you mean '%s'? "
		    "(try abbench --help)", name, cmd_nearest(name));
	else
		set_cause(cause, "unknown command '%s' (try abbench --help)",
		    name);
	strbuf_release(&amb);
	return NULL;
}

const char *
cmd_nearest(const char *name)
{
	const struct cmd_entry *const	*e;
	struct nearest			 n;

	nearest_init(&n, name);
	for (e = cmd_table; *e != NULL; e++)
		nearest_try(&n, (*e)->name);
	return n.best;
}

static int
flag_in_scope(const struct cmd_flag *f, const char *sub)
{
	const char	*p;
	size_t		 n;

	if (sub == NULL || f->scope == NULL)
		return 1;
	n = strlen(sub);
	for (p = f->scope; (p = strstr(p, sub)) != NULL; p += n)
		if ((p == f->scope || p[-1] == ' ') && (p[n] == '\0' ||
		    p[n] == ' '))
			return 1;
	return 0;
}

static const struct cmd_flag *
flag_find(const struct cmd_entry *e, const char *sub, const char *name,
    size_t n)
{
	const struct cmd_flag	*f;

	for (f = e->opts; f != NULL && f->name != NULL; f++)
		if (strlen(f->name) == n && strncmp(f->name, name, n) == 0 &&
		    flag_in_scope(f, sub))
			return f;
	return NULL;
}

/* The flag a short option letter stands for, or NULL. */
static const struct cmd_flag *
flag_by_short(const struct cmd_entry *e, const char *sub, int c)
{
	const struct cmd_flag	*f;

	for (f = e->opts; c != 0 && f != NULL && f->name != NULL; f++)
		if (f->short_name == c && flag_in_scope(f, sub))
			return f;
	return NULL;
}

/* A flag of e named so that sub does not take (its scope says who does). */
static const struct cmd_flag *
flag_elsewhere(const struct cmd_entry *e, const char *sub, const char *name,
    size_t n, int c)
{
	const struct cmd_flag	*f;

	if (sub == NULL)
		return NULL;
	for (f = e->opts; f != NULL && f->name != NULL; f++)
		if (((name != NULL && strlen(f->name) == n &&
		    strncmp(f->name, name, n) == 0) ||
		    (c != 0 && f->short_name == c)) && !flag_in_scope(f, sub))
			return f;
	return NULL;
}

/*
 * Flags of `go test` and Go's benchstat that users of those tools type,
 * and the flag of ours that does the same.
 */
static const struct {
	const char	*theirs;
	const char	*ours;
} foreign_flags[] = {
	{ "count", "rounds" },		/* go test -count N */
	{ "test.count", "rounds" },
	{ "test.timeout", "timeout" },
	{ "benchtime", "timeout" },	/* the nearest we have: a limit */
	{ "shuffle", "order" },		/* go test -shuffle on */
	{ "o", "output" },
};

/*
 * The flag of ours (in e's scope, or an [experiment] key when e takes
 * keys) that a foreign flag stands for, or NULL.
 */
static const char *
flag_foreign(const struct cmd_entry *e, const char *sub, int allow_keys,
    const char *name, size_t n)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(foreign_flags); i++) {
		if (strlen(foreign_flags[i].theirs) != n ||
		    strncmp(foreign_flags[i].theirs, name, n) != 0)
			continue;
		if (flag_find(e, sub, foreign_flags[i].ours,
		    strlen(foreign_flags[i].ours)) != NULL ||
		    (allow_keys && opt_find(experiment_opts,
		    foreign_flags[i].ours) != NULL))
			return foreign_flags[i].ours;
	}
	return NULL;
}

/*
 * Whether name is a key --KEY=VALUE may set: an [experiment] key, a key of
 * any workload type, or WORKLOAD.KEY (checked with the file).
 */
static int
flag_is_key(const char *name, size_t n)
{
	const struct workload_ops *const *t;
	char	*k = xstrndup(name, n);
	int	 found;

	found = strchr(k, '.') != NULL ||
	    opt_find(experiment_opts, k) != NULL ||
	    opt_find(workload_common_opts, k) != NULL;
	for (t = workload_types; !found && *t != NULL; t++)
		found = opt_find((*t)->opts, k) != NULL;
	free(k);
	return found;
}

/*
 * The message for an unknown flag NAME (n bytes) of e: "did you mean" a
 * flag of e, a foreign flag's counterpart with its value, or (where e
 * takes --KEY=VALUE) an [experiment] or workload key.
 */
static void
flag_unknown(const struct cmd_entry *e, const char *sub, int allow_keys,
    const char *word, const char *name, size_t n, const char *value)
{
	const struct workload_ops *const *t;
	const struct cmd_flag	*f;
	struct nearest		 near;
	const char		*ours;
	char			*k = xstrndup(name, n);

	if ((f = flag_elsewhere(e, sub, name, n, 0)) != NULL) {
		error("%s: --%s goes with %s", e->name, f->name, f->scope);
		free(k);
		return;
	}
	if ((ours = flag_foreign(e, sub, allow_keys, name, n)) != NULL) {
		error("%s: unknown option '%s': did you mean '--%s%s%s'? "
		    "(see abbench %s --help)", e->name, word, ours,
		    value != NULL ? " " : "", value != NULL ? value : "",
		    e->name);
		free(k);
		return;
	}
	nearest_init(&near, k);
	for (f = e->opts; f != NULL && f->name != NULL; f++)
		if (flag_in_scope(f, sub))
			nearest_try(&near, f->name);
	if (allow_keys) {
		opt_nearest(experiment_opts, &near);
		opt_nearest(workload_common_opts, &near);
		for (t = workload_types; *t != NULL; t++)
			opt_nearest((*t)->opts, &near);
	}
	if (near.best != NULL)
		error("%s: unknown option '%s': did you mean '--%s'? (see "
		    "abbench %s --help)", e->name, word, near.best, e->name);
	else
		error("%s: unknown option '%s' (see abbench %s --help)",
		    e->name, word, e->name);
	free(k);
}

/*
 * Before getopt reads them: a word "-rounds" that is a long flag spelt
 * with one dash (getopt would take it as -r with the value "ounds").
 */
static int
flag_prescan(const struct cmd_entry *e, const char *sub, int allow_keys,
    int argc, char **argv)
{
	const struct cmd_flag	*f;
	const char		*a, *name;
	size_t			 n;
	int			 i;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-') {
			name = a + 2;
			n = strcspn(name, "=");
			f = flag_find(e, sub, name, n);
			if (f != NULL && f->arg != NULL && name[n] == '\0')
				i++;	/* its value */
			continue;
		}
		if (a[2] == '\0') {
			f = flag_by_short(e, sub, (unsigned char)a[1]);
			if (f != NULL && f->arg != NULL)
				i++;
			continue;
		}
		name = a + 1;
		n = strcspn(name, "=");
		if (flag_find(e, sub, name, n) != NULL) {
			error("%s: unknown option '%s': did you mean --%.*s?",
			    e->name, a, (int)n, name);
			return -1;
		}
		/* go test's -count 5: what we call it, with its value. */
		if (flag_foreign(e, sub, allow_keys, name, n) != NULL) {
			flag_unknown(e, sub, allow_keys, a, name, n,
			    name[n] == '=' ? name + n + 1 : i + 1 < argc ?
			    argv[i + 1] : NULL);
			return -1;
		}
		/* -qd, -dFILE: short options; anything else is a mistake. */
		if (flag_by_short(e, sub, (unsigned char)a[1]) != NULL)
			continue;
		flag_unknown(e, sub, allow_keys, a, name, n, NULL);
		return -1;
	}
	return 0;
}

/*
 * getopt_long's tables of e's flags in sub's scope: the long options
 * (reused from call to call) and the short ones into so.
 */
static struct option *
flag_getopt_tables(const struct cmd_entry *e, const char *sub,
    struct strbuf *so)
{
	static struct option	*lo;
	static size_t		 locap;
	const struct cmd_flag	*f;
	size_t			 n = 0;

	for (f = e->opts; f != NULL && f->name != NULL; f++)
		n++;
	if (n + 1 > locap) {
		locap = n + 1;
		lo = xreallocarray(lo, locap, sizeof *lo);
	}
	n = 0;
	/* ':' first: a missing value is ':', not '?'. */
	strbuf_adds(so, e->flags & CMD_FLAGS_FIRST ? "+:" : ":");
	for (f = e->opts; f != NULL && f->name != NULL; f++) {
		if (!flag_in_scope(f, sub))
			continue;
		lo[n].name = f->name;
		lo[n].has_arg = f->arg != NULL ? required_argument :
		    no_argument;
		lo[n].flag = NULL;
		lo[n].val = CMD_FLAG_INDEX((int)(f - e->opts));
		n++;
		if (f->short_name != 0)
			strbuf_addf(so, "%c%s", f->short_name, f->arg != NULL ?
			    ":" : "");
	}
	memset(&lo[n], 0, sizeof lo[n]);
	return lo;
}

/* A flag given without its value (word): said, CMD_FLAG_ERROR. */
static int
flag_no_value(const struct cmd_entry *e, const char *sub, const char *word)
{
	const struct cmd_flag	*f;

	f = optopt != 0 ? flag_by_short(e, sub, optopt) : NULL;
	if (f == NULL && str_startswith(word, "--"))
		f = flag_find(e, sub, word + 2, strcspn(word + 2, "="));
	if (f != NULL)
		error("%s: --%s needs a value (%s)", e->name, f->name, f->arg);
	else
		error("%s: '%s' needs a value", e->name, word);
	return CMD_FLAG_ERROR;
}

/*
 * --KEY=VALUE or --KEY VALUE (word, then argv[optind]) of a key: '=' with
 * optarg "KEY=VALUE", or CMD_FLAG_ERROR after saying why.
 */
static int
flag_key_value(const struct cmd_entry *e, int argc, char **argv,
    const char *word)
{
	static char	*keyarg;

	free(keyarg);
	if (strchr(word, '=') != NULL)
		keyarg = xstrdup(word + 2);
	else if (optind < argc && strcmp(argv[optind], "--") != 0)
		/* --KEY VALUE is --KEY=VALUE. */
		keyarg = xasprintf("%s=%s", word + 2, argv[optind++]);
	else {
		keyarg = NULL;
		error("%s: --%s needs a value (--%s=VALUE or --%s VALUE)",
		    e->name, word + 2, word + 2, word + 2);
		return CMD_FLAG_ERROR;
	}
	optarg = keyarg;
	return '=';
}

/*
 * A word getopt found no flag of e in: a key (allow_keys: '=', as
 * flag_key_value), or CMD_FLAG_ERROR after saying what it is not.
 */
static int
flag_not_ours(const struct cmd_entry *e, const char *sub, int allow_keys,
    int argc, char **argv, const char *word)
{
	const struct cmd_flag	*f;
	int			 dashes = str_startswith(word, "--");
	size_t			 n = dashes ? strcspn(word + 2, "=") : 0;

	/* A short option of another subcommand's. */
	if (optopt != 0 && optopt < CMD_FLAG_INDEX(0) &&
	    (f = flag_elsewhere(e, sub, NULL, 0, optopt)) != NULL) {
		error("%s: -%c goes with %s", e->name, optopt, f->scope);
		return CMD_FLAG_ERROR;
	}
	/* An unknown short option inside a cluster ("-qx"). */
	if (optopt != 0 && !dashes) {
		error("%s: unknown option '-%c' (in '%s'; see abbench %s "
		    "--help)", e->name, optopt, word, e->name);
		return CMD_FLAG_ERROR;
	}
	if (allow_keys && dashes && n > 0 && flag_is_key(word + 2, n))
		return flag_key_value(e, argc, argv, word);
	if (dashes && word[2] != '\0') {
		/* No key of any kind: --count 5, --roudns 5, --wiat-lock. */
		flag_unknown(e, sub, allow_keys, word, word + 2, n,
		    !allow_keys || n == 0 ? NULL : strchr(word, '=') != NULL ?
		    strchr(word, '=') + 1 : optind < argc ? argv[optind] :
		    NULL);
		return CMD_FLAG_ERROR;
	}
	error("%s: unknown option '%s' (see abbench %s --help)", e->name,
	    word, e->name);
	return CMD_FLAG_ERROR;
}

int
cmd_getopt(const struct cmd_entry *e, const char *sub, int allow_keys,
    int argc, char **argv)
{
	struct option	*lo;
	struct strbuf	 so = STRBUF_INIT;
	int		 c;

	if (optind <= 1 && flag_prescan(e, sub, allow_keys, argc, argv) == -1)
		return CMD_FLAG_ERROR;
	lo = flag_getopt_tables(e, sub, &so);
	opterr = 0;
	c = getopt_long(argc, argv, so.buf, lo, NULL);
	strbuf_release(&so);
	if (c == -1 || c >= CMD_FLAG_INDEX(0))
		return c;
	if (c == ':')
		return flag_no_value(e, sub, argv[optind - 1]);
	if (c == '?')
		return flag_not_ours(e, sub, allow_keys, argc, argv,
		    argv[optind - 1]);
	return CMD_FLAG_INDEX((int)(flag_by_short(e, sub, c) - e->opts));
}

void
cmd_print_flags(const struct cmd_entry *e, FILE *fp)
{
	const struct cmd_flag	*f;
	const char		*h, *nl;
	size_t			 w = 0, l;

	for (f = e->opts; f != NULL && f->name != NULL; f++) {
		l = strlen(f->name) + 2 + (f->arg != NULL ? strlen(f->arg) +
		    1 : 0);
		if (l > w)
			w = l;
	}
	if (w == 0)
		return;
	fputs("\noptions:\n", fp);
	for (f = e->opts; f->name != NULL; f++) {
		char	*lhs = xasprintf("--%s%s%s", f->name, f->arg != NULL ?
		    " " : "", f->arg != NULL ? f->arg : "");

		fprintf(fp, "  %-*s  ", (int)w, lhs);
		free(lhs);
		for (h = f->help; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
			fprintf(fp, "%.*s\n  %-*s  ", (int)(nl - h), h, (int)w,
			    "");
		fputs(h, fp);
		if (f->scope != NULL)
			fprintf(fp, " (%s)", f->scope);
		fputc('\n', fp);
	}
}

void
cmd_print_usage(const struct cmd_entry *e, FILE *fp)
{
	fprintf(fp, "usage: abbench %s %s\n\n%s", e->name, e->args, e->help);
	if (e->help[0] != '\0' && e->help[strlen(e->help) - 1] != '\n')
		fputc('\n', fp);
	cmd_print_flags(e, fp);
}

int
cmd_wants_help(const struct cmd_entry *e, int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			if (e->help_args != NULL)
				return e->help_args(argc, argv, stdout);
			cmd_print_usage(e, stdout);
			return EXIT_OK;
		}
	}
	return -1;
}

const char *
cmd_db_path(const char *opt)
{
	const char	*env;

	if (opt != NULL)
		return opt;
	if ((env = getenv("ABBENCH_DB")) != NULL && *env != '\0')
		return env;
	return "abbench.db";
}

int
cmd_find_run(const struct cmd_ctx *c, struct store_run *run)
{
	char	*cause = NULL;

	if (c->argc != 1) {
		error("%s: one run is needed (an id, uuid prefix, last or "
		    "NAME@last)", c->e->name);
		return -1;
	}
	memset(run, 0, sizeof *run);
	/*
	 * A damaged file is refused, not half read into the output: the
	 * store's tables but the samples', and the run's samples.
	 */
	if (store_quick_check(c->st, &cause) == -1 ||
	    store_run_find(c->st, c->argv[0], run, &cause) == -1 ||
	    store_check_run(c->st, run->id, &cause) == -1) {
		error("%s", cause);
		free(cause);
		/* Found, then refused: the caller has no run to release. */
		store_run_release(run);
		return -1;
	}
	return 0;
}

int
cmd_flag_fraction(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	double	*d = opt_member(&f->opt, opts);
	char	*why = NULL;

	if (parse_double(value, d, &why) == -1 || !(*d > 0 && *d < 1)) {
		free(why);
		return set_cause(cause, "--%s '%s' is not in (0, 1)", f->name,
		    value);
	}
	return 0;
}

int
cmd_flag_percent(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	if (padvice_parse_pct(value, opt_member(&f->opt, opts)) == -1)
		return set_cause(cause, "--%s '%s' is not a percentage in "
		    "(0, 1000)", f->name, value);
	return 0;
}

int
cmd_flag_push(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	(void)cause;
	strvec_push(opt_member(&f->opt, opts), value);
	return 0;
}

int
cmd_flag_experiment(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	return experiment_set(opt_member(&f->opt, opts), f->key != NULL ?
	    f->key : f->name, value, cause);
}

/* The bytes a flag of f's kind stores (0: its parse function says). */
static size_t
flag_kind_size(const struct cmd_flag *f)
{
	enum opt_ctype	ctype;

	return f->parse != NULL ? 0 : opt_kind_size(&f->opt, &ctype);
}

/* BUG() unless f's members lie in a struct of size bytes, as its kind. */
static void
flag_check(const char *cmd, const struct cmd_flag *f, size_t size)
{
	size_t	want = flag_kind_size(f);

	if (f->opt.at.size == 0 || f->opt.at.off + f->opt.at.size > size)
		BUG("%s --%s: its member (offset %zu, %zu bytes) lies outside "
		    "its struct of %zu bytes", cmd, f->name, f->opt.at.off,
		    f->opt.at.size, size);
	if (want != 0 && f->opt.at.size != want)
		BUG("%s --%s: its member has %zu bytes, its kind stores %zu",
		    cmd, f->name, f->opt.at.size, want);
	if (f->given.size != 0 && (f->given.size != sizeof(int) ||
	    f->given.off + f->given.size > size))
		BUG("%s --%s: its given member is no int of its struct", cmd,
		    f->name);
	if ((f->arg == NULL) != (f->opt.type == OPT_T_BOOL && f->parse ==
	    NULL))
		BUG("%s --%s: a value named for a switch, or none for a "
		    "value", cmd, f->name);
}

void
cmd_tables_check(void)
{
	const struct cmd_entry *const	*e;
	const struct cmd_flag		*f;

	for (e = cmd_table; *e != NULL; e++)
		for (f = (*e)->opts; f != NULL && f->name != NULL; f++)
			flag_check((*e)->name, f, (*e)->opts_size);
}

/* One flag's value into the struct at opts; 0, or -1 with *cause. */
static int
flag_store(const struct cmd_flag *f, void *opts, const char *value,
    char **cause)
{
	char	*why = NULL;

	if (f->parse != NULL) {
		if (f->parse(f, opts, value, cause) == -1)
			return -1;
	} else if (f->opt.type == OPT_T_STR) {
		*(const char **)opt_member(&f->opt, opts) = value;
	} else if (opt_set(&f->opt, opts, f->arg != NULL ? value : "1",
	    &why) == -1) {
		set_cause(cause, "--%s: %s", f->name, why);
		free(why);
		return -1;
	}
	if (f->given.size != 0)
		*(int *)((char *)opts + f->given.off) = 1;
	return 0;
}

/*
 * The flags of e (of subcommand sub) in argv into opts: 0 with optind at
 * the first operand, or EXIT_USAGE after saying why. Those given add
 * their store_flags to *store_flags.
 */
static int
cmd_parse(const struct cmd_entry *e, const char *sub, int argc, char **argv,
    void *opts, int *store_flags)
{
	const struct cmd_flag	*f;
	char			*cause = NULL;
	int			 c;

	optind = 1;
	while ((c = cmd_getopt(e, sub, e->keys != NULL, argc, argv)) != -1) {
		if (c == CMD_FLAG_ERROR)
			return EXIT_USAGE;
		if (c == '=') {
			if (e->keys(opts, optarg, &cause) == 0)
				continue;
		} else {
			f = &e->opts[c - CMD_FLAG_INDEX(0)];
			if (flag_store(f, opts, optarg, &cause) == 0) {
				*store_flags |= f->store_flags;
				continue;
			}
		}
		error("%s: %s", e->name, cause);
		free(cause);
		return EXIT_USAGE;
	}
	return 0;
}

/* The names of e's subcommands for a message: "ls, show, export". */
static char *
cmd_sub_names(const struct cmd_entry *e)
{
	const struct cmd_sub	*s;
	struct strbuf		 sb = STRBUF_INIT;

	for (s = e->subs; s->name != NULL; s++) {
		if (s->flags & CMD_HIDDEN)
			continue;
		strbuf_addf(&sb, "%s%s", sb.len > 0 ? ", " : "", s->name);
	}
	return strbuf_detach(&sb);
}

/*
 * The subcommand: the first operand (flags may come before it), taken
 * out of argv; NULL after saying why.
 */
static const struct cmd_sub *
cmd_sub_take(const struct cmd_entry *e, int *argc, char **argv)
{
	const struct cmd_flag	*f;
	const struct cmd_sub	*s;
	struct nearest		 near;
	char			*names = cmd_sub_names(e);
	int			 i;

	for (i = 1; i < *argc && argv[i][0] == '-' && argv[i][1] != '\0';
	    i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		f = argv[i][1] == '-' ? flag_find(e, NULL, argv[i] + 2,
		    strcspn(argv[i] + 2, "=")) : argv[i][2] == '\0' ?
		    flag_by_short(e, NULL, (unsigned char)argv[i][1]) : NULL;
		if (f != NULL && f->arg != NULL && strchr(argv[i], '=') ==
		    NULL && argv[i][1] == '-')
			i++;
		else if (f != NULL && f->arg != NULL && argv[i][1] != '-')
			i++;
	}
	if (i >= *argc) {
		error("%s: missing subcommand (%s; see abbench %s --help)",
		    e->name, names, e->name);
		free(names);
		return NULL;
	}
	nearest_init(&near, argv[i]);
	for (s = e->subs; s->name != NULL; s++) {
		if (strcmp(s->name, argv[i]) == 0 || (s->alias != NULL &&
		    strcmp(s->alias, argv[i]) == 0))
			break;
		if (!(s->flags & CMD_HIDDEN))
			nearest_try(&near, s->name);
	}
	if (s->name == NULL && near.best != NULL)
		error("%s: unknown subcommand '%s': did you mean '%s'? (%s; "
		    "see abbench %s --help)", e->name, argv[i], near.best,
		    names, e->name);
	else if (s->name == NULL)
		error("%s: unknown subcommand '%s' (%s; see abbench %s --help)",
		    e->name, argv[i], names, e->name);
	free(names);
	if (s->name == NULL)
		return NULL;
	/* argv[*argc] (NULL) moves down with the rest. */
	memmove(argv + i, argv + i + 1, (size_t)(*argc - i) * sizeof *argv);
	(*argc)--;
	return s;
}

/* The database --db names (of subcommand sub), else the default. */
static const char *
cmd_db_of(const struct cmd_entry *e, const char *sub, const void *opts)
{
	const struct cmd_flag	*f = flag_find(e, sub, "db", 2);

	if (f == NULL || f->parse != NULL || opts == NULL)
		return cmd_db_path(NULL);
	return cmd_db_path(*(const char *const *)opt_member_const(&f->opt,
	    opts));
}

/* Open c->db as flags (CMD_STORE_*) say; 0, or -1 after saying why. */
static int
cmd_store_open(struct cmd_ctx *c, int flags, int store_flags)
{
	char	*cause = NULL;

	if (!(flags & (CMD_STORE_RO | CMD_STORE_RW | CMD_STORE_CREATE)))
		return 0;
	if (flags & CMD_STORE_RO)
		store_flags |= STORE_READONLY;
	if (flags & CMD_STORE_CREATE)
		store_flags |= STORE_CREATE;
	if ((c->st = store_open(c->db, store_flags, &cause)) == NULL) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* The context of e's run on argv, parsed; 0, or an exit status. */
static int
cmd_setup(struct cmd_ctx *c, int argc, char **argv)
{
	const struct cmd_entry	*e = c->e;
	int			 store_flags = 0, flags, rc, i;

	if (e->flags & CMD_INLINE) {
		for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
			;
		c->nrest = i < argc ? argc - i - 1 : -1;
		c->rest = argv + i + (i < argc);
		argc = i;
	}
	if (e->subs != NULL && (c->sub = cmd_sub_take(e, &argc, argv)) ==
	    NULL)
		return EXIT_USAGE;
	if (e->opts_size > 0)
		c->opts = xcalloc(1, e->opts_size);
	if (e->opts_init != NULL)
		e->opts_init(c->opts);
	if ((rc = cmd_parse(e, c->sub != NULL ? c->sub->name : NULL, argc,
	    argv, c->opts, &store_flags)) != 0)
		return rc;
	c->argc = argc - optind;
	c->argv = argv + optind;
	c->db = cmd_db_of(e, c->sub != NULL ? c->sub->name : NULL, c->opts);
	flags = e->flags | (c->sub != NULL ? c->sub->flags : 0);
	/* A missing RUN is said before a missing database. */
	if ((flags & CMD_ONE_RUN) && c->argc != 1) {
		if (c->sub != NULL)
			error("%s: %s takes one RUN", e->name, c->sub->name);
		else
			error("%s: one run is needed (an id, uuid prefix, last "
			    "or NAME@last)", e->name);
		return EXIT_USAGE;
	}
	if ((flags & CMD_NO_OPERANDS) && c->argc != 0) {
		error("%s: %s takes no arguments", e->name, c->sub != NULL ?
		    c->sub->name : e->name);
		return EXIT_USAGE;
	}
	if (e->check != NULL && (rc = e->check(c)) != 0)
		return rc;
	if (cmd_store_open(c, flags, store_flags) == -1)
		return EXIT_USAGE;
	return 0;
}

int
cmd_exec(const struct cmd_entry *e, int argc, char **argv)
{
	struct cmd_ctx	 c;
	char		**av;
	int		 rc;

	memset(&c, 0, sizeof c);
	c.e = e;
	c.nrest = -1;
	if (e->flags & CMD_OWN_FLAGS) {
		c.argc = argc;
		c.argv = argv;
		c.db = cmd_db_path(NULL);
		return e->exec(&c);
	}
	/* A copy: taking the subcommand out moves the words. */
	av = xcalloc((size_t)argc + 1, sizeof *av);
	memcpy(av, argv, (size_t)argc * sizeof *av);
	if ((rc = cmd_setup(&c, argc, av)) == 0)
		rc = c.sub != NULL ? c.sub->exec(&c) : e->exec(&c);
	if (c.st != NULL)
		store_close(c.st);
	if (c.opts != NULL && e->opts_release != NULL)
		e->opts_release(c.opts);
	free(c.opts);
	free(av);
	return rc;
}
