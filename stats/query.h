/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The benchproc query language of Go's benchstat (spec §3, §4): the
 * -filter boolean expressions and the -table/-row/-col/-ignore
 * projection expressions, parsed into trees with Go's exact syntax-error
 * messages and caret positions.  Regular expressions are Go's
 * (lib/goregexp/goregexp.h).  No I/O.
 */
#ifndef ABBENCH_STATS_QUERY_H
#define ABBENCH_STATS_QUERY_H

#include <stddef.h>

/* A syntax error: MSG at byte offset OFF of QUERY. */
struct query_error {
	char	*query;
	int	 off;
	char	*msg;
};
void	 query_error_release(struct query_error *e);
/* "syntax error: MSG\n\tQUERY\n\t   ^" (malloc'd). */
char	*query_error_string(const struct query_error *e);

/* A compiled Go regular expression (unanchored search). */
struct query_regex;
/*
 * Compile; NULL with *msg set to Go's text ("error parsing regexp:
 * missing argument to repetition operator: `*`") on error.
 */
struct query_regex *query_regex_compile(const char *expr, size_t len,
		    char **msg);
int		 query_regex_match(const struct query_regex *re, const char *s,
		    size_t len);
void		 query_regex_free(struct query_regex *re);

enum query_op {
	QUERY_AND = 1,		/* all of sub (none: matches everything) */
	QUERY_OR,		/* any of sub */
	QUERY_NOT,		/* sub[0] inverted */
	QUERY_MATCH		/* key:value or key:/regexp/ */
};

struct query_filter {
	enum query_op		 op;
	struct query_filter	**sub;
	size_t			 nsub;
	/* QUERY_MATCH: */
	char			*key;	/* [0..keylen), NUL kept */
	size_t			 keylen;
	int			 off;	/* byte offset of the key */
	char			*lit;	/* literal (if re == NULL) */
	size_t			 litlen;
	struct query_regex	*re;
};

/* Parse a filter expression; -1 and *err on a syntax error. */
int	 query_parse_filter(const char *q, struct query_filter **out,
	    struct query_error *err);
void	 query_filter_free(struct query_filter *f);
/* Match one value against a QUERY_MATCH node. */
int	 query_match_value(const struct query_filter *m, const char *s,
	    size_t len);

/* One field of a projection: key, key@order or key@(v1 v2 ...). */
struct query_field {
	char	*key;		/* key[0..keylen), NUL bytes kept */
	size_t	 keylen;
	char	*order;		/* "first", "fixed", or a name as written */
	size_t	 orderlen;
	char	**fixed;	/* order == "fixed": the listed values */
	size_t	 *fixedlen;
	size_t	 nfixed;
	int	 key_off;
	int	 order_off;
};

int	 query_parse_projection(const char *q, struct query_field **out,
	    size_t *n, struct query_error *err);
void	 query_fields_free(struct query_field *f, size_t n);

/* Go strconv.Quote of s[0..len) (malloc'd). */
char	*query_go_quote(const char *s, size_t len);

#endif
