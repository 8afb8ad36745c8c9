/*
 * Options tables (fio's options.c style): one entry per key with its type,
 * default, range or choices and help; checks values and prints the help.
 */
#ifndef ABBENCH_OPTIONS_H
#define ABBENCH_OPTIONS_H

#include <stddef.h>

enum opt_type {
	OPT_STR,	/* any single word (or any text with OPT_LIST) */
	OPT_INT,	/* integer within [min, max] */
	OPT_FLOAT,	/* number within [min, max] */
	OPT_BOOL,	/* 0/1, yes/no, true/false, on/off */
	OPT_DURATION,	/* 20s, 500ms, 2m; stored as the text, checked */
	OPT_SIZE,	/* 4k, 1m, 2g */
	OPT_CHOICE,	/* one of `choices` (space separated) */
};
enum opt_flags {
	OPT_LIST = 1 << 0,	/* several words are one value (argv, flags) */
	OPT_ARM = 1 << 1,	/* may also be set on an arm (arm wins) */
	OPT_NOMATRIX = 1 << 2,	/* several words are an error */
	OPT_REQUIRED = 1 << 3,	/* must be present */
	OPT_PREFIX = 1 << 4,	/* `name` is a prefix: env.NAME, host.sysctl.X */
};
struct opt_spec {
	const char	*name;
	enum opt_type	 type;
	int		 flags;
	const char	*def;		/* default value text, or NULL */
	/* Range of OPT_INT, OPT_FLOAT, OPT_DURATION (s), OPT_SIZE (B). */
	double		 min, max;	/* 0, 0 = any */
	const char	*choices;	/* for OPT_CHOICE */
	const char	*help;
};

/* One `key = value` as written, with its line in the file. */
struct kv {
	char	*key;
	char	*value;
	int	 line;
};

/* Check one value against its spec; message without file/line. */
int		 opt_check_value(const struct opt_spec *o, const char *value,
		    char **cause);
/* Print an options table as help text on stdout, one key a line. */
void		 opt_print_help(const struct opt_spec *opts);
/* The entry for KEY of a table ending in a NULL name, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *opts, const char *key);
/* yes/no, true/false, on/off, 1/0 (any case); 0 or -1. */
int		 opt_parse_bool(const char *s, int *out);

#endif
