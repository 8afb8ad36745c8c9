/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command table (tmux cmd.c style): one cmd-NAME.c per subcommand
 * exporting cmd_NAME_entry, looked up by unique prefix.
 */
#ifndef ABBENCH_CMD_H
#define ABBENCH_CMD_H

#include <stdio.h>

#include "lib/util.h"	/* EXIT_OK, EXIT_FAIL, EXIT_USAGE */

/* What a command needs, declared in its table entry. */
enum cmd_flags {
	/* Reads or writes the results database (--db, $ABBENCH_DB). */
	CMD_STORE = 1 << 0,
	/* Parses every flag itself, -h included (benchstat's flags). */
	CMD_OWN_FLAGS = 1 << 1,
};

/*
 * One flag of a command: the one table its parser (cmd_getopt), its
 * --help and the manual page are made from, so that they cannot drift.
 */
struct cmd_flag {
	const char	*name;		/* "rounds" for --rounds */
	int		 val;		/* what cmd_getopt returns for it */
	const char	*arg;		/* the value's name ("N"), NULL: none */
	const char	*help;		/* may hold '\n' for more lines */
	/* Subcommands that take it ("submit resubmit"), NULL: all. */
	const char	*scope;
};
/* cmd_getopt's answer for a wrong flag (the message is printed). */
#define CMD_FLAG_ERROR	(-2)

struct cmd_entry {
	const char	*name;
	int		 flags;		/* enum cmd_flags */
	const char	*args;		/* one-line synopsis after the name */
	const char	*summary;	/* one line for `abbench --help` */
	const char	*help;		/* full text for `abbench NAME --help` */
	/* argv[0] is the command name. Returns the exit status. */
	int		(*exec)(int argc, char **argv);
	/* Help that depends on the operands (run --help TYPE), printed by
	 * cmd_wants_help instead of the usage; NULL = the usage. Returns
	 * the exit status (2 for an operand it cannot help with). */
	int		(*help_args)(int argc, char **argv, FILE *fp);
	/* Its flags, ended by a NULL name; NULL when it parses its own. */
	const struct cmd_flag	*opts;
	/* getopt's short options ("qd:r:"), a leading '+' to stop at the
	 * first operand; NULL: none. */
	const char	*shortopts;
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
 * the flag's val, -1 at the end (optind at the first operand), or
 * CMD_FLAG_ERROR with the message printed: a single-dash long flag
 * (-rounds: "did you mean --rounds?"), a missing value (naming the flag
 * and its value), an unknown flag (naming the word). With allow_keys,
 * --KEY=VALUE and --KEY VALUE of a flag not in the table are returned
 * as '=' with optarg "KEY=VALUE" (run's experiment and workload keys).
 * Set optind = 1 before the first call, as for getopt.
 */
int	cmd_getopt(const struct cmd_entry *e, const char *sub, int allow_keys,
	    int argc, char **argv);
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
struct store;
struct store_run;
/*
 * The one RUN operand left after getopt (argv[optind]: an id, uuid
 * prefix, last or NAME@last) in the database, opened read-only: 0 with
 * *stp and *run (the caller releases both), or -1 with the error printed
 * (a usage or database error).
 */
int	cmd_open_run(const char *name, const char *db, int argc, char **argv,
	    struct store **stp, struct store_run *run);

#endif
