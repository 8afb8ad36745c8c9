/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command table (tmux cmd.c style): one cmd-NAME.c per subcommand
 * exporting cmd_NAME_entry, looked up by unique prefix.
 */
#ifndef ABBENCH_CMD_H
#define ABBENCH_CMD_H

#include <stdio.h>

#include "lib/util.h"	/* EXIT_OK, EXIT_FAIL, EXIT_USAGE */

#include "lib/options.h"	/* the OPT_* entries a flag binds with */

/* What a command needs, declared in its table entry (or a subcommand's). */
enum cmd_flags {
	/* Parses every flag itself, -h included (benchstat's flags). */
	CMD_OWN_FLAGS = 1 << 1,
	/*
	 * The dispatcher opens the database (cmd_ctx.db) before exec and
	 * closes it after: read-only, or for writing (created when missing
	 * with CMD_STORE_CREATE). Like git's RUN_SETUP.
	 */
	CMD_STORE_RO = 1 << 2,
	CMD_STORE_RW = 1 << 3,
	CMD_STORE_CREATE = 1 << 4,
	/* The flags end at the first operand (getopt's leading '+'). */
	CMD_FLAGS_FIRST = 1 << 5,
	/* The flags end at the first "--"; what follows is cmd_ctx.rest. */
	CMD_INLINE = 1 << 6,
	/* A subcommand left out of the lists of them (fleet job). */
	CMD_HIDDEN = 1 << 7,
	/* Its operand is one RUN: counted before the store is opened. */
	CMD_ONE_RUN = 1 << 8,
	/* It takes no operand (db ls): said before the store is opened. */
	CMD_NO_OPERANDS = 1 << 9,
};

/*
 * One flag of a command: the one table its parser, its --help and the
 * manual page are made from, so that they cannot drift. The value goes
 * where opt says (lib/options' kinds and OPT_AT places), written with the
 * CMD_* macros below.
 */
struct cmd_flag {
	const char	*name;		/* "rounds" for --rounds */
	int		 short_name;	/* 'r' for -r, 0: none */
	const char	*arg;		/* the value's name ("N"), NULL: none */
	const char	*help;		/* may hold '\n' for more lines */
	/* Subcommands that take it ("submit resubmit"), NULL: all. */
	const char	*scope;
	/* Its kind, range and member (.at). */
	struct opt_spec	 opt;
	/* An int set to 1 when it is given, or none. */
	struct opt_place given;
	/*
	 * Its own way to read the value (a list, a key of another table, a
	 * check the kinds of lib/options cannot say), instead of opt's kind:
	 * into the member f->opt.at of the options struct at opts; 0, or -1
	 * with *cause the whole message (naming the flag). NULL: the kind's.
	 */
	int		(*parse)(const struct cmd_flag *f, void *opts,
			    const char *value, char **cause);
	/* What parse reads it as (an [experiment] key), NULL: the name. */
	const char	*key;
	/* Flags of store_open added when given (--durable). */
	int		 store_flags;
};

#define CMD_FLAG_(n, s, a, h, ...) \
	{ .name = (n), .short_name = (s), .arg = (a), .help = (h), __VA_ARGS__ }
/*
 * The entries, one macro per kind of value; `at` is the member (OPT_AT),
 * the trailing arguments are optional designators of the flag: .scope,
 * .given = OPT_AT(...) (an int set to 1 when the flag is given),
 * .store_flags.
 */
/* The kind t of value, its range and its member (OPT_AT) last. */
#define CMD_OPT_(n, t, lo, hi, ...) \
	.opt = { .name = (n), .type = (t), .min = (lo), .max = (hi), \
	    .at = __VA_ARGS__ }
/* --NAME VALUE: a const char * member pointing at the word (no copy). */
#define CMD_STR(n, s, a, m, h, ...) \
	CMD_FLAG_(n, s, a, h, CMD_OPT_(n, OPT_T_STR, 0, 0, m), __VA_ARGS__)
/* --NAME: an int member set to 1. */
#define CMD_BOOL(n, s, m, h, ...) \
	CMD_FLAG_(n, s, NULL, h, CMD_OPT_(n, OPT_T_BOOL, 0, 0, m), \
	    __VA_ARGS__)
/* --NAME N: an int within [lo, hi]. */
#define CMD_INT(n, s, a, m, lo, hi, h, ...) \
	CMD_FLAG_(n, s, a, h, CMD_OPT_(n, OPT_T_INT, lo, hi, m), __VA_ARGS__)
/* --NAME N: an int64_t (or a size_t) within [lo, hi]. */
#define CMD_INT64(n, s, a, m, lo, hi, h, ...) \
	CMD_FLAG_(n, s, a, h, CMD_OPT_(n, OPT_T_INT64, lo, hi, m), \
	    __VA_ARGS__)
/* --NAME VALUE read by fn into the member m. */
#define CMD_FN(n, s, a, m, fn, h, ...) \
	CMD_FLAG_(n, s, a, h, CMD_OPT_(n, OPT_T_STR, 0, 0, m), \
	    .parse = (fn), __VA_ARGS__)
/* --NAME VALUE: the [experiment] key k, into the struct experiment m. */
#define CMD_EXP(n, s, a, m, k, h, ...) \
	CMD_FLAG_(n, s, a, h, CMD_OPT_(n, OPT_T_STR, 0, 0, m), \
	    .parse = cmd_flag_experiment, .key = (k), __VA_ARGS__)
/* The end of a table. */
#define CMD_FLAG_END	{ .name = NULL }

/* Ready-made ways to read a value (cmd_flag.parse), for CMD_FN. */
/* A double in (0, 1). */
int	cmd_flag_fraction(const struct cmd_flag *f, void *opts,
	    const char *value, char **cause);
/* PCT in (0, 1000) ("5", "5%"): a double 0.05. */
int	cmd_flag_percent(const struct cmd_flag *f, void *opts,
	    const char *value, char **cause);
/* One more word of a struct strvec (a flag given again and again). */
int	cmd_flag_push(const struct cmd_flag *f, void *opts, const char *value,
	    char **cause);
/*
 * An [experiment] key (f->key, else the name) checked and parsed by the
 * experiment's table into the struct experiment at f->opt.at.
 */
int	cmd_flag_experiment(const struct cmd_flag *f, void *opts,
	    const char *value, char **cause);

/* cmd_getopt's answer for a wrong flag (the message is printed). */
#define CMD_FLAG_ERROR	(-2)
/* cmd_getopt's answer for the flag e->opts[i]. */
#define CMD_FLAG_INDEX(i)	(256 + (i))

struct store;
struct cmd_sub;
/* What a command's exec is handed by the dispatcher (cmd_exec). */
struct cmd_ctx {
	const struct cmd_entry	*e;
	const struct cmd_sub	*sub;	/* the subcommand, or NULL */
	void			*opts;	/* the struct its flags filled */
	/* The database: --db, $ABBENCH_DB or ./abbench.db. */
	const char		*db;
	/* CMD_STORE_RO/RW: db opened; the dispatcher closes it. */
	struct store		*st;
	/* The operands (CMD_OWN_FLAGS: the whole line, argv[0] the name). */
	int			 argc;
	char			**argv;
	/* CMD_INLINE: the words after the first "--" (nrest -1: none). */
	int			 nrest;
	char			**rest;
};

/* One subcommand (db ls, fleet submit): one table type for all. */
struct cmd_sub {
	const char	*name;
	const char	*alias;		/* another name, or NULL */
	int		 flags;		/* enum cmd_flags: CMD_STORE_* */
	int		(*exec)(struct cmd_ctx *c);
};

struct cmd_entry {
	const char	*name;
	int		 flags;		/* enum cmd_flags */
	const char	*args;		/* one-line synopsis after the name */
	const char	*summary;	/* one line for `abbench --help` */
	const char	*help;		/* full text for `abbench NAME --help` */
	/* Returns the exit status. */
	int		(*exec)(struct cmd_ctx *c);
	/* Help that depends on the operands (run --help TYPE), printed by
	 * cmd_wants_help instead of the usage; NULL = the usage. Returns
	 * the exit status (2 for an operand it cannot help with). */
	int		(*help_args)(int argc, char **argv, FILE *fp);
	/* Its flags, ended by a NULL name; NULL when it parses its own. */
	const struct cmd_flag	*opts;
	/* The struct they fill (zeroed, then the defaults), its size. */
	size_t		 opts_size;
	/* What the table cannot say before the flags (or NULL). */
	void		(*opts_init)(void *opts);
	/* Frees what the flags' parse functions kept (or NULL). */
	void		(*opts_release)(void *opts);
	/* The operands, checked before the store is opened (or NULL): 0,
	 * or the exit status after saying why. */
	int		(*check)(const struct cmd_ctx *c);
	/* Its subcommands (ended by a NULL name), the first operand. */
	const struct cmd_sub	*subs;
	/* --KEY=VALUE of a key no flag is (run's experiment and workload
	 * keys): 0, or -1 with *cause; NULL: none taken. */
	int		(*keys)(void *opts, const char *kv, char **cause);
};

extern const struct cmd_entry *const cmd_table[];

/* What the manual's ENVIRONMENT, FILES and EXIT STATUS say: name, text. */
struct cmd_note {
	const char	*name;
	const char	*text;
};
extern const struct cmd_note cmd_environment[];	/* every variable read */
extern const struct cmd_note cmd_files[];
extern const struct cmd_note cmd_exit_status[];
extern const struct cmd_note cmd_see_also[];	/* "page(section)" */

/* Help topics that are not commands (`abbench help workloads`). */
struct strbuf;
struct cmd_topic {
	const char	*name;
	const char	*summary;
	/* One of: the text, or what prints it. */
	void		(*text)(struct strbuf *out);
	void		(*print)(FILE *fp);
};
extern const struct cmd_topic cmd_topics[];
const struct cmd_topic	*cmd_topic_find(const char *name);
void	cmd_topic_print(const struct cmd_topic *t, FILE *fp);
/* The manual page abbench(1) in roff, from the tables (man.c). */
void	cmd_print_man(FILE *fp);

extern const struct cmd_entry cmd_run_entry;
/* abbench run --help [TYPE | EXPERIMENT] (cmd-run-help.c). */
int	cmd_run_help(int argc, char **argv, FILE *fp);

/*
 * getopt_long over e's flag table (those of subcommand sub, when not NULL):
 * CMD_FLAG_INDEX(i) for e->opts[i] (long or short), -1 at the end (optind
 * at the first operand), or CMD_FLAG_ERROR with the message printed: a
 * single-dash long flag (-rounds: "did you mean --rounds?"), a missing
 * value (naming the flag and its value), an unknown flag (naming the word),
 * a flag of another subcommand (naming it). With allow_keys, --KEY=VALUE
 * and --KEY VALUE of a flag not in the table are returned as '=' with
 * optarg "KEY=VALUE" (run's experiment and workload keys). Set optind = 1
 * before the first call, as for getopt; cmd_exec is what commands use.
 */
int	cmd_getopt(const struct cmd_entry *e, const char *sub, int allow_keys,
	    int argc, char **argv);
/*
 * Run e on argv (argv[0] its name): parse its flags into a new options
 * struct, find its subcommand, open the database it declares, call its
 * exec and release all that. The exit status.
 */
int	cmd_exec(const struct cmd_entry *e, int argc, char **argv);
/*
 * BUG() unless every flag of every command fits the options struct its
 * entry declares: its member inside it, of the size its kind stores.
 * main() checks them at startup, as the experiment's tables.
 */
void	cmd_tables_check(void);
/* The flags as --help lists them (sub NULL: all). */
void	cmd_print_flags(const struct cmd_entry *e, FILE *fp);
/* The command nearest to an unknown name (edit distance), or NULL. */
const char	*cmd_nearest(const char *name);
/* Unique-prefix lookup; NULL with *cause on no or ambiguous match. */
const struct cmd_entry	*cmd_find(const char *name, char **cause);
void	cmd_print_usage(const struct cmd_entry *e, FILE *fp);
/*
 * -1 if argv has no --help or -h before a "--"; else prints the help and
 * returns the exit status.
 */
int	cmd_wants_help(const struct cmd_entry *e, int argc, char **argv);
/* The database path: --db, else $ABBENCH_DB, else ./abbench.db. */
const char *cmd_db_path(const char *opt);
struct store_run;
/*
 * The one RUN operand (an id, uuid prefix, last or NAME@last) in the
 * database the dispatcher opened (c->st), checked first: 0 with *run (the
 * caller releases it), or -1 with the error printed (a usage or database
 * error).
 */
int	cmd_find_run(const struct cmd_ctx *c, struct store_run *run);

#endif
