/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Options tables (fio's options.c style): one entry per key with its type,
 * default, range or choices and help; checks values and prints the help.
 */
#ifndef ABBENCH_OPTIONS_H
#define ABBENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct nearest;

enum opt_type {
	OPT_T_STR,	/* char *: one word (or any text, OPT_FORM_LIST) */
	OPT_T_INT,	/* int within [min, max] */
	OPT_T_INT64,	/* int64_t within [min, max] */
	OPT_T_UINT64,	/* uint64_t, at least min (seeds) */
	OPT_T_FLOAT,	/* double within [min, max] */
	OPT_T_BOOL,	/* int: 0/1, yes/no, true/false, on/off */
	OPT_T_DURATION,	/* int64_t ns: 20s, 500ms, 2m; [min, max] in s */
	OPT_T_SIZE,	/* uint64_t bytes: 4k, 1m, 2g */
	OPT_T_CHOICE,	/* int: the index of one of `choices` */
};
/* How a key behaves in an experiment file (the table author's). */
enum opt_flags {
	OPT_ARM = 1 << 0,	/* may also be set on an arm (arm wins) */
	OPT_NOMATRIX = 1 << 1,	/* several words are an error */
	OPT_REQUIRED = 1 << 2,	/* must be present */
};
/* The shape of a value (the entry macro's). */
enum opt_form {
	OPT_FORM_LIST = 1 << 0,	  /* several words are one value */
	OPT_FORM_WORDS = 1 << 1,  /* ... bound as a struct strvec of them */
	OPT_FORM_PREFIX = 1 << 2, /* `name` is a prefix: env.NAME */
};
/* The C type of a member, as far as _Generic tells (OPT_AT). */
enum opt_ctype {
	OPT_C_OTHER,	/* an enum, a struct: its size alone is checked */
	OPT_C_PTR,	/* char * */
	OPT_C_INT,
	OPT_C_I64,
	OPT_C_U64,
	OPT_C_DOUBLE,
};
/*
 * A member of the struct a table fills, from OPT_AT: its offset, size and
 * C type; size 0 = none. opt_table_check() holds them against the entry.
 */
struct opt_place {
	size_t		 off;
	size_t		 size;
	enum opt_ctype	 ctype;
};
/*
 * One key. Written only with the entry macros below, which name every
 * field they set; nothing positional.
 */
struct opt_spec {
	const char	*name;
	enum opt_type	 type;
	int		 form;		/* OPT_FORM_* */
	int		 flags;		/* enum opt_flags */
	const char	*def;		/* default value text, or NULL */
	/* Range of integers, numbers, durations (s) and sizes (B). */
	double		 min, max;	/* 0, 0 = any */
	const char	*choices;	/* OPT_T_CHOICE's, space separated */
	const char	*help;
	/* The member the value is stored in (none: prefixes). */
	struct opt_place at;
	/* An int set to 1 when the key is given (2 by the arm), or none. */
	struct opt_place given;
	/*
	 * A char * (owned) that receives the value as written (for names:
	 * "64m", not 67108864), or none.
	 */
	struct opt_place text;
	/*
	 * The choices of an OPT_T_CHOICE whose words a floor above knows (a
	 * registry): called when `choices` is NULL.
	 */
	const char	*(*choices_fn)(void);
};

#define OPT_CTYPE_(x) _Generic((x), char *: OPT_C_PTR, int: OPT_C_INT, \
	int64_t: OPT_C_I64, uint64_t: OPT_C_U64, double: OPT_C_DOUBLE, \
	default: OPT_C_OTHER)
/*
 * The member of struct TYPE a key binds, given as `at`, `.given = ` or
 * `.text = ` of an entry; each table file defines its own shorthand:
 * #define FIO(member) OPT_AT(struct fio_opts, member).
 */
#define OPT_AT(type, member) { offsetof(type, member), \
	sizeof(((type *)0)->member), OPT_CTYPE_(((type *)0)->member) }

/*
 * The entries of a table, one macro per kind of value. `at` is the
 * member (OPT_AT); the trailing arguments are optional designators:
 * .flags = OPT_ARM | ..., .given = OPT_AT(...) (int), .text =
 * OPT_AT(...) (char *), .choices_fn = f.
 */
#define OPT_ENTRY_(n, t, f, d, lo, hi, h, ...) \
	{ .name = (n), .type = (t), .form = (f), .def = (d), .min = (lo), \
	  .max = (hi), .help = (h), __VA_ARGS__ }
/* A char *: one word (several make a matrix). */
#define OPT_STR(n, a, d, h, ...) \
	OPT_ENTRY_(n, OPT_T_STR, 0, d, 0, 0, h, .at = a, __VA_ARGS__)
/* A char *: several words are one value (free text). */
#define OPT_TEXT(n, a, d, h, ...) \
	OPT_ENTRY_(n, OPT_T_STR, OPT_FORM_LIST, d, 0, 0, h, .at = a, \
	    __VA_ARGS__)
/* A struct strvec: several words are one value, bound word by word. */
#define OPT_WORDS(n, a, d, h, ...) \
	OPT_ENTRY_(n, OPT_T_STR, OPT_FORM_LIST | OPT_FORM_WORDS, d, 0, 0, \
	    h, .at = a, __VA_ARGS__)
/* A struct strvec of integers, each within [lo, hi]. */
#define OPT_INTS(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_INT, OPT_FORM_LIST | OPT_FORM_WORDS, d, lo, hi, \
	    h, .at = a, __VA_ARGS__)
/* An int within [lo, hi] (0, 0: any). */
#define OPT_INT(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_INT, 0, d, lo, hi, h, .at = a, __VA_ARGS__)
/* An int64_t within [lo, hi]. */
#define OPT_INT64(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_INT64, 0, d, lo, hi, h, .at = a, __VA_ARGS__)
/* A uint64_t, at least lo. */
#define OPT_UINT64(n, a, d, lo, h, ...) \
	OPT_ENTRY_(n, OPT_T_UINT64, 0, d, lo, 18446744073709551615.0, h, \
	    .at = a, __VA_ARGS__)
/* A double within [lo, hi] (0, 0: any). */
#define OPT_FLOAT(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_FLOAT, 0, d, lo, hi, h, .at = a, __VA_ARGS__)
/* An int, 0 or 1. */
#define OPT_BOOL(n, a, d, h, ...) \
	OPT_ENTRY_(n, OPT_T_BOOL, 0, d, 0, 0, h, .at = a, __VA_ARGS__)
/* An int64_t of nanoseconds, within [lo, hi] seconds. */
#define OPT_DURATION(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_DURATION, 0, d, lo, hi, h, .at = a, __VA_ARGS__)
/* A uint64_t of bytes within [lo, hi] (0, 0: any). */
#define OPT_SIZE(n, a, d, lo, hi, h, ...) \
	OPT_ENTRY_(n, OPT_T_SIZE, 0, d, lo, hi, h, .at = a, __VA_ARGS__)
/* An int (or an enum of its size): the index of the word in ch. */
#define OPT_CHOICE(n, a, d, ch, h, ...) \
	OPT_ENTRY_(n, OPT_T_CHOICE, 0, d, 0, 0, h, .at = a, .choices = (ch), \
	    __VA_ARGS__)
/* A prefix (env.NAME): text, bound by the loader, not the table. */
#define OPT_PREFIXED(n, h) \
	{ .name = (n), .type = OPT_T_STR, \
	  .form = OPT_FORM_LIST | OPT_FORM_PREFIX, .help = (h) }
/* The end of a table. */
#define OPT_END		{ .name = NULL }

/* One `key = value` as written, with its line in the file. */
struct kv {
	char	*key;
	char	*value;
	int	 line;
};
/* The line of the first key in kv[0..n), or 0 when it is not there. */
int		 kv_line(const struct kv *kv, size_t n, const char *key);

/* Check one value against its spec; message without file/line. */
int		 opt_check_value(const struct opt_spec *o, const char *value,
		    char **cause);
/*
 * Check value against o and store it into the struct at base (o->at).
 * Message without file/line.
 */
int		 opt_set(const struct opt_spec *o, void *base, const char *value,
		    char **cause);
/*
 * BUG() unless every entry of the table named `what` fits the struct of
 * `size` bytes it fills: each member the size (and, where _Generic tells,
 * the C type) its kind stores, given an int, text a char *, ranges the
 * kind can hold. main() checks every table at startup.
 */
void		 opt_table_check(const char *what,
		    const struct opt_spec *opts, size_t size);
/* The size and C type (OPT_C_OTHER: any) a member of o's kind has. */
size_t		 opt_kind_size(const struct opt_spec *o, enum opt_ctype *ctype);
/* Whether o stores its value into a member. */
int		 opt_bound(const struct opt_spec *o);
/* The member o binds in the struct at base; BUG() when none. */
void		*opt_member(const struct opt_spec *o, void *base);
const void	*opt_member_const(const struct opt_spec *o, const void *base);
/* Say where the value of o came from: 1 the workload, 2 the arm. */
void		 opt_mark_given(const struct opt_spec *o, void *base,
		    int by);
/* The text o->text binds in the struct at base, or NULL. */
const char	*opt_text(const struct opt_spec *o, const void *base);
/* The int o->given binds in the struct at base (0 when it binds none). */
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
/* The words of an OPT_T_CHOICE (from choices or choices_fn), or NULL. */
const char	*opt_choices(const struct opt_spec *o);
/* The index of value among the choices of o, or -1. */
int		 opt_choice_index(const struct opt_spec *o,
		    const char *value);
/* The entry for KEY of a table ending in a NULL name, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *opts, const char *key);
/* Offer every (non-prefix) key of the table to a "did you mean". */
void		 opt_nearest(const struct opt_spec *opts, struct nearest *n);
/*
 * For a "did you mean": the nearest of words (separated by blanks or
 * commas) to name (nearest_try's rule), malloc'd, or NULL.
 */
char		*words_nearest(const char *words, const char *name);
/* yes/no, true/false, on/off, 1/0 (any case); 0 or -1. */
int		 opt_parse_bool(const char *s, int *out);

#endif
