/*
 * Options tables (fio's options.c style): one entry per key with its type,
 * default, range or choices and help; checks values and prints the help.
 */
#ifndef ABBENCH_OPTIONS_H
#define ABBENCH_OPTIONS_H

#include <stddef.h>

struct strbuf;

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
	OPT_WORDS = 1 << 5,	/* OPT_LIST bound as a strvec of its words */
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
	/*
	 * Where opt_set() stores the value in the struct the table fills,
	 * as OPT_OFF(struct, member); 0 = not stored ([arm] keys, prefixes).
	 * The member's type follows the option's: OPT_STR char * (owned),
	 * OPT_INT int (int64_t when max > INT_MAX, uint64_t when it is
	 * over INT64_MAX), OPT_FLOAT double, OPT_BOOL int, OPT_DURATION
	 * int64_t nanoseconds, OPT_SIZE uint64_t bytes, OPT_CHOICE int
	 * (the index of the word in choices). An OPT_LIST with OPT_WORDS is
	 * a struct strvec of its words (quotes removed), whatever its type.
	 */
	size_t		 off1;
	/* OPT_OFF of an int set to 1 when the key is given, or 0. */
	size_t		 set1;
	/*
	 * OPT_OFF of a char * (owned) that receives the value as written
	 * (for names: "64m", not 67108864), or 0.
	 */
	size_t		 txt1;
	/*
	 * The choices of an OPT_CHOICE whose words a floor above knows (a
	 * registry): called when `choices` is NULL.
	 */
	const char	*(*choices_fn)(void);
};
/* A member's place for opt_spec.off1 and .set1. */
#define OPT_OFF(type, member)	(offsetof(type, member) + 1)

/* One `key = value` as written, with its line in the file. */
struct kv {
	char	*key;
	char	*value;
	int	 line;
};

/* Check one value against its spec; message without file/line. */
int		 opt_check_value(const struct opt_spec *o, const char *value,
		    char **cause);
/*
 * Check value against o and store it into the struct at base (o->off1).
 * Message without file/line.
 */
int		 opt_set(const struct opt_spec *o, void *base, const char *value,
		    char **cause);
/* The text o->txt1 bound in the struct at base, or NULL. */
const char	*opt_text(const struct opt_spec *o, const void *base);
/* The int o->set1 bound in the struct at base (0 when it binds none). */
int		 opt_given(const struct opt_spec *o, const void *base);
/* Store the default of every bound option of a table that has one. */
void		 opt_set_defaults(const struct opt_spec *opts, void *base);
/* Free the strings and vectors a table stored into the struct at base. */
void		 opt_release(const struct opt_spec *opts, void *base);
/* An options table as help text, one key a line (with wrapped help). */
void		 opt_help(const struct opt_spec *opts, struct strbuf *out);
/* One line of such help: head ("  key = type"), then text wrapped. */
void		 opt_help_line(struct strbuf *out, const char *head,
		    const char *text);
/* The words of an OPT_CHOICE (from choices or choices_fn), or NULL. */
const char	*opt_choices(const struct opt_spec *o);
/* The index of value among the choices of o, or -1. */
int		 opt_choice_index(const struct opt_spec *o,
		    const char *value);
/* The entry for KEY of a table ending in a NULL name, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *opts, const char *key);
/* yes/no, true/false, on/off, 1/0 (any case); 0 or -1. */
int		 opt_parse_bool(const char *s, int *out);

#endif
