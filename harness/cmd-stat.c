/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench stat: a byte-for-byte drop-in for Go's benchstat (flags, usage
 * text, messages and exit statuses included), plus `--db FILE RUN[:ARM]`
 * to compare runs straight from the store through the same pipeline.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/analysis/run-advice.h"
#include "harness/stat-db.h"
#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/store.h"
#include "stats/benchstat.h"
#include "stats/gomath.h"
#include "stats/query.h"

static const char stat_usage[] =
"Usage: benchstat [flags] inputs...\n"
"\n"
"benchstat computes statistical summaries and A/B comparisons of Go\n"
"benchmarks. It shows benchmark medians in a table with a row for each\n"
"benchmark and a column for each input file. If there is more than one\n"
"input file, it also shows A/B comparisons between the files. If a\n"
"difference is likely to be noise, it shows \"~\".\n"
"\n"
"For details, see https://pkg.go.dev/golang.org/x/perf/cmd/benchstat.\n"
"  -alpha \xce\xb1\n"
"    \tconsider change significant if p < \xce\xb1 (default 0.05)\n"
"  -col projection\n"
"    \tsplit results into columns by distinct values of projection "
"(default \".file\")\n"
"  -confidence level\n"
"    \tconfidence level for ranges (default 0.95)\n"
"  -filter query\n"
"    \tuse only benchmarks matching benchfilter query (default \"*\")\n"
"  -format format\n"
"    \tprint results in format:\n"
"    \t  text - plain text\n"
"    \t  csv  - comma-separated values (warnings will be written to "
"stderr)\n"
"    \t (default \"text\")\n"
"  -ignore keys\n"
"    \tignore variations in keys\n"
"  -row projection\n"
"    \tsplit results into rows by distinct values of projection "
"(default \".fullname\")\n"
"  -table projection\n"
"    \tsplit results into tables by distinct values of projection "
"(default \".config\")\n";

/*
 * benchstat's flags (Go's flag package reads them: -name value, -name=value,
 * one or two dashes), in the table type of every command's; their help is
 * benchstat's own usage above.
 */
#define BS(m)	OPT_AT(struct benchstat_opts, m)

static const struct cmd_flag stat_flags[] = {
	CMD_STR("table", 0, "projection", BS(table), NULL),
	CMD_STR("row", 0, "projection", BS(row), NULL),
	CMD_STR("col", 0, "projection", BS(col), NULL),
	CMD_STR("ignore", 0, "keys", BS(ignore), NULL),
	CMD_STR("filter", 0, "query", BS(filter), NULL),
	CMD_FLAG_("alpha", 0, "\xce\xb1", NULL,
	    CMD_OPT_("alpha", OPT_T_FLOAT, 0, 0, BS(alpha))),
	CMD_FLAG_("confidence", 0, "level", NULL,
	    CMD_OPT_("confidence", OPT_T_FLOAT, 0, 0, BS(confidence))),
	CMD_STR("format", 0, "format", BS(format), NULL),
	CMD_FLAG_END
};

/* strconv.ParseFloat (no benchfmt fast path: "" is a syntax error). */
static int
stat_parse_float(const char *s, double *out)
{
	if (*s == '\0')
		return -1;
	return go_parse_float(s, strlen(s), out);
}

/* Go flag.FlagSet.Parse with ExitOnError: returns -1 and *status to exit. */
static int
stat_parse_flags(int argc, char **argv, struct benchstat_opts *o, int *optind,
    int *status)
{
	int			 i = 1;
	const char		*s, *name, *eq, *value;
	size_t			 namelen;
	const struct cmd_flag	*f, *k;
	char			*q;
	double			 d;
	int			 rc, nminus;

	while (i < argc) {
		s = argv[i];
		if (strlen(s) < 2 || s[0] != '-')
			break;
		nminus = 1;
		if (s[1] == '-') {
			nminus = 2;
			if (s[2] == '\0') {
				i++;
				break;
			}
		}
		name = s + nminus;
		if (name[0] == '\0' || name[0] == '-' || name[0] == '=') {
			fprintf(stderr, "bad flag syntax: %s\n", s);
			fputs(stat_usage, stderr);
			*status = EXIT_USAGE;
			return -1;
		}
		i++;
		eq = strchr(name, '=');
		namelen = eq != NULL ? (size_t)(eq - name) : strlen(name);
		f = NULL;
		for (k = stat_flags; k->name != NULL; k++)
			if (strlen(k->name) == namelen &&
			    memcmp(k->name, name, namelen) == 0)
				f = k;
		if (f == NULL) {
			if ((namelen == 4 && memcmp(name, "help", 4) == 0) ||
			    (namelen == 1 && name[0] == 'h')) {
				fputs(stat_usage, stderr);
				*status = EXIT_OK;
				return -1;
			}
			fprintf(stderr, "flag provided but not defined: -%.*s\n",
			    (int)namelen, name);
			fputs(stat_usage, stderr);
			*status = EXIT_USAGE;
			return -1;
		}
		if (eq != NULL)
			value = eq + 1;
		else if (i < argc)
			value = argv[i++];
		else {
			fprintf(stderr, "flag needs an argument: -%.*s\n",
			    (int)namelen, name);
			fputs(stat_usage, stderr);
			*status = EXIT_USAGE;
			return -1;
		}
		if (f->opt.type == OPT_T_STR) {
			*(const char **)opt_member(&f->opt, o) = value;
			continue;
		}
		rc = stat_parse_float(value, &d);
		if (rc != 0) {
			q = query_go_quote(value, strlen(value));
			fprintf(stderr, "invalid value %s for flag -%s: %s\n", q,
			    f->name, rc == -2 ? "value out of range" :
			    "parse error");
			free(q);
			fputs(stat_usage, stderr);
			*status = EXIT_USAGE;
			return -1;
		}
		*(double *)opt_member(&f->opt, o) = d;
	}
	*optind = i;
	return 0;
}

/* Go's lower-case spelling of errno texts ("no such file or directory"). */
static char *
stat_errno(int err)
{
	char	*s = xstrdup(strerror(err));

	if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
		s[0] = (char)(s[0] - 'A' + 'a');
	return s;
}

/*
 * Read one input in STAT_CHUNK pieces into the tables (memory stays at a
 * chunk, not the size of the file): 0, or -1 with *cause as Go's
 * benchfmt.Files says.  A chunk holds any line benchstat accepts.
 */
#define STAT_CHUNK	(256 * 1024)

static int
stat_stream(struct benchstat *bs, const char *label, const char *path,
    int is_stdin, int at_eof, char **cause)
{
	struct benchstat_input	*in;
	char			*buf, *e;
	size_t			 have = 0, used;
	ssize_t			 n;
	int			 fd, eof = at_eof, rc = 0;

	if (is_stdin)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		/* benchstat's rule (Go's flag package): after the first
		 * file, a flag is a file. Said to a person, not a script. */
		if (errno == ENOENT && path[0] == '-' && path[1] != '\0')
			stat_hint(xasprintf("hint: '%s' came after a file, so "
			    "it was read as one (flags go before the files, "
			    "as in Go's benchstat: abbench stat %s ... "
			    "OLD NEW)", path, path));
		e = stat_errno(errno);
		set_cause(cause, "open %s: %s", path, e);
		free(e);
		return -1;
	}
	in = benchstat_input_new(bs, label, path);
	buf = xmalloc(STAT_CHUNK);
	for (;;) {
		while (!eof && have < STAT_CHUNK) {
			n = read(fd, buf + have, STAT_CHUNK - have);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				e = stat_errno(errno);
				set_cause(cause, "%s:%d: read %s: %s", path,
				    benchstat_input_line(in), path, e);
				free(e);
				rc = -1;
				goto out;
			}
			if (n == 0)
				eof = 1;
			have += (size_t)n;
		}
		if (benchstat_input_feed(in, buf, have, eof, &used,
		    cause) < 0) {
			rc = -1;
			goto out;
		}
		if (eof)
			break;
		memmove(buf, buf + used, have - used);
		have -= used;
	}
out:
	if (!is_stdin)
		close(fd);
	free(buf);
	benchstat_input_free(in);
	return rc;
}

static int
has_filter_flag(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (a[0] != '-')
			break;
		a += a[1] == '-' ? 2 : 1;
		if (strncmp(a, "filter", 6) == 0 &&
		    (a[6] == '\0' || a[6] == '='))
			return 1;
	}
	return 0;
}

/*
 * What an operand that names no file is: 2 a run selector (last, all, an
 * id or NAME@last, each perhaps with :ARM), 1 perhaps a run (a UUID
 * prefix: hex digits and dashes), 0 a file.
 */
static int
stat_is_run_sel(const char *s)
{
	const char	*colon, *at;
	size_t		 n, i;

	if (access(s, F_OK) == 0)
		return 0;
	colon = strchr(s, ':');
	n = colon != NULL ? (size_t)(colon - s) : strlen(s);
	if (n == 0)
		return 0;
	if ((n == 4 && memcmp(s, "last", 4) == 0) ||
	    (n == 3 && memcmp(s, "all", 3) == 0))
		return 2;
	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == n)
		return 2;
	at = memchr(s, '@', n);
	if (at != NULL && at > s && n - (size_t)(at - s) == 5 &&
	    memcmp(at, "@last", 5) == 0)
		return 2;
	for (i = 0; i < n && (strchr("0123456789abcdefABCDEF-", s[i]) !=
	    NULL); i++)
		;
	return i == n && n >= 4 ? 1 : 0;
}

/*
 * Whether the operands are runs of a database rather than files, when no
 * --db says so: each is a run selector, or each is at least a UUID prefix
 * and a database is there ($ABBENCH_DB, ./abbench.db). Otherwise they are
 * benchstat's files, with benchstat's messages.
 */
static int
stat_operands_are_runs(char **ops, int n)
{
	const char	*env = getenv("ABBENCH_DB");
	int		 i, sels = 0, maybe = 0, k;

	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		k = stat_is_run_sel(ops[i]);
		if (k == 0)
			return 0;
		if (k == 2)
			sels++;
		else
			maybe++;
	}
	if (maybe == 0)
		return 1;
	return (env != NULL && *env != '\0') || access("abbench.db", F_OK) ==
	    0;
}

/*
 * Whether path is an SQLite database (its 16-byte header): given as a
 * benchfmt file it has no benchmark line, and benchstat would print
 * nothing and exit 0.
 */
static int
stat_is_sqlite(const char *path)
{
	static const char	magic[16] = "SQLite format 3";
	char			head[sizeof magic];
	int			fd, is = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (read(fd, head, sizeof head) == (ssize_t)sizeof head)
		is = memcmp(head, magic, sizeof magic) == 0;
	close(fd);
	return is;
}

extern const struct cmd_entry cmd_stat_entry;

/* abbench's help for stat, then benchstat's flags (`stat --help`). */
static void
stat_help(FILE *fp)
{
	cmd_print_usage(&cmd_stat_entry, fp);
	fprintf(fp, "\nbenchstat's usage and flags:\n\n%s", stat_usage);
}

/*
 * --db FILE anywhere before "--" (not a benchstat flag: benchstat has no
 * double-dash-only flags of that name), and --help, which is abbench's
 * (-h and -help stay benchstat's): taken out of argv into *dbpath, the
 * rest into av (*ac words). -1 when stat is done, with *status.
 */
static int
stat_take_db(int argc, char **argv, char **av, int *ac, const char **dbpath,
    int *status)
{
	int	k, dashdash = 0;

	*ac = 0;
	for (k = 0; k < argc; k++) {
		if (k > 0 && !dashdash && strcmp(argv[k], "--") == 0)
			dashdash = 1;
		if (k == 0 || dashdash) {
			av[(*ac)++] = argv[k];
			continue;
		}
		if (strcmp(argv[k], "--help") == 0) {
			stat_help(stdout);
			*status = EXIT_OK;
			return -1;
		}
		if (strncmp(argv[k], "--db=", 5) == 0) {
			*dbpath = argv[k] + 5;
			continue;
		}
		if (strcmp(argv[k], "--db") == 0) {
			if (k + 1 >= argc)
				break;
			*dbpath = argv[++k];
			continue;
		}
		av[(*ac)++] = argv[k];
	}
	av[*ac] = NULL;
	if (k < argc || (*dbpath != NULL && **dbpath == '\0')) {
		error("stat: --db needs a database file");
		*status = EXIT_USAGE;
		return -1;
	}
	return 0;
}

/*
 * The database the operands are runs of (NULL: they are files), checked
 * readable and opened once into *st (its failure into *stcause, told with
 * the runs'); the experiment's stat-filter into o unless -filter is
 * given (*deffilter, malloc'd). 0, or -1 after saying why.
 */
static int
stat_open_db(const char **dbpath, char **ops, int nops, int has_filter,
    struct benchstat_opts *o, struct store **st, char **stcause,
    char **deffilter)
{
	if (*dbpath == NULL && stat_operands_are_runs(ops, nops))
		*dbpath = cmd_db_path(NULL);
	if (*dbpath == NULL)
		return 0;
	if (access(*dbpath, R_OK) != 0) {
		error("stat: cannot read database '%s': %s (--db FILE, "
		    "$ABBENCH_DB or ./abbench.db)", *dbpath, strerror(errno));
		return -1;
	}
	*st = store_open(*dbpath, STORE_READONLY, stcause);
	if (*st != NULL && !has_filter &&
	    (*deffilter = stat_db_default_filter(*st, ops[0])) != NULL) {
		o->filter = *deffilter;
		fprintf(stderr, "stat: -filter '%s' (the experiment's "
		    "stat-filter; -filter '*' shows every row)\n", *deffilter);
	}
	return 0;
}

/* The operands as benchstat's files ("-" standard input); the status. */
static int
stat_files(struct benchstat *bs, char **ops, int nops)
{
	struct strvec	 labels = STRVEC_INIT, paths = STRVEC_INIT;
	char		*cause = NULL;
	size_t		 i;
	int		 stdin_used = 0, is_stdin, rc = 0;

	benchstat_labels(ops, (size_t)nops, &labels, &paths);
	for (i = 0; i < paths.n; i++) {
		if (strcmp(paths.v[i], "-") == 0 || !stat_is_sqlite(paths.v[i]))
			continue;
		error("stat: '%s' is an abbench database: did you mean --db "
		    "%s last?", paths.v[i], paths.v[i]);
		benchstat_free(bs);
		rc = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < labels.n; i++) {
		is_stdin = strcmp(paths.v[i], "-") == 0;
		/* Standard input is at its end after the first use. */
		if (stat_stream(bs, labels.v[i], paths.v[i], is_stdin,
		    is_stdin && stdin_used, &cause) < 0) {
			rc = stat_fail(bs, cause);
			goto out;
		}
		stdin_used |= is_stdin;
		stat_flush_err(bs);
	}
	rc = stat_finish(bs);
out:
	strvec_clear(&labels);
	strvec_clear(&paths);
	return rc;
}

static int
cmd_stat_exec(struct cmd_ctx *c)
{
	struct benchstat_opts	 o;
	struct benchstat	*bs;
	struct store		*st = NULL;
	const char		*dbpath = NULL, *env;
	char			*deffilter = NULL, *stcause = NULL, *cause = NULL;
	char			**av;
	int			 ac, optind, status, rc;

	av = xcalloc((size_t)c->argc + 1, sizeof *av);
	if (stat_take_db(c->argc, c->argv, av, &ac, &dbpath, &status) < 0) {
		free(av);
		return status;
	}
	benchstat_opts_init(&o);
	if ((env = getenv("ABBENCH_STAT_PARSE_ONLY")) != NULL &&
	    strcmp(env, "1") == 0)
		o.parse_only = 1;
	if (stat_parse_flags(ac, av, &o, &optind, &status) < 0) {
		free(av);
		return status;
	}
	if (optind >= ac) {
		if (dbpath != NULL)
			error("stat: --db needs runs: RUN[:ARM]... (an id, "
			    "uuid prefix, last, NAME@last or all)");
		else
			fputs(stat_usage, stderr);
		free(av);
		return EXIT_USAGE;
	}
	if (stat_open_db(&dbpath, av + optind, ac - optind,
	    has_filter_flag(ac, av), &o, &st, &stcause, &deffilter) == -1) {
		free(av);
		return EXIT_USAGE;
	}
	if ((bs = benchstat_new(&o, &cause)) == NULL) {
		rc = stat_fail(NULL, cause);
		store_close(st);
		free(stcause);
	} else if (dbpath != NULL)
		rc = st == NULL ? stat_db_fail(bs, NULL, stcause) :
		    stat_db(bs, &o, st, dbpath, av + optind, ac - optind);
	else
		rc = stat_files(bs, av + optind, ac - optind);
	free(deffilter);
	free(av);
	return rc;
}

const struct cmd_entry cmd_stat_entry = {
	.name = "stat",
	.args = "[--db FILE] [flags] [LABEL=]FILE... | RUN[:ARM]...",
	.summary = "compare benchmark results like Go's benchstat",
	.help =
"A byte-for-byte drop-in for Go's benchstat (golang.org/x/perf/cmd/\n"
"benchstat): the same flags (-table, -row, -col, -ignore, -filter, -alpha,\n"
"-confidence, -format text|csv), output and exit statuses.  `abbench stat\n"
"-h` prints benchstat's own usage.  FILE \"-\" is standard input;\n"
"LABEL=FILE sets the column label (.file).  -format json (abbench's own)\n"
"prints the same tables as one JSON object with every cell's numbers\n"
"(schema: docs/guide.md, \"Machine-readable output\"); -format markdown\n"
"(abbench's own too) as GitHub tables to paste into a code review, the\n"
"names escaped (| < > * _ ` \\ and the like).\n"
"\n"
"With --db FILE (anywhere on the line), $ABBENCH_DB or ./abbench.db,\n"
"the inputs are runs in that store instead of files: each RUN (an id,\n"
"a UUID prefix, \"last\" or NAME@last) becomes one input per arm,\n"
"labelled with the arm name, or RUN:ARM when several RUN arguments are\n"
"given; RUN:ARM selects one arm (labelled ARM, or RUN:ARM with several\n"
"arguments), e.g. `abbench stat --db r.db -col .name last`.\n"
"\n"
"Operands are runs when --db is given, when each is last, all, an id or\n"
"NAME@last (perhaps with :ARM) and no such file exists, or when each is\n"
"that or a UUID prefix and a database is found ($ABBENCH_DB,\n"
"./abbench.db); else they are files, as in benchstat.  An unreadable\n"
"database, a missing run or arm exits 2; runs with no ok sample at all\n"
"exit 1 (an arm with none is left out, said after the tables);\n"
"everything else behaves as with files (runtime errors exit 0, as in\n"
"benchstat).\n"
"\n"
"RUN \"all\" stands for every run in the store (a merged fleet database).\n"
"When -row, -col or -table names the key \"arm\", each input carries its\n"
"arm as the config key arm, so that shapes can be rows and arms columns:\n"
"  abbench stat --db fleet.db -table .fullname -row partition -col arm all\n"
"  abbench stat --db fleet.db -table .name -row vcpus -col arm all\n",
	.exec = cmd_stat_exec,
	.flags = CMD_OWN_FLAGS,
};
