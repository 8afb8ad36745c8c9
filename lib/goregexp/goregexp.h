/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go's regular expressions (regexp.Compile, syntax.Perl flags) for the
 * -filter queries of `abbench stat`: Go's parser ported rule for rule, so
 * that the same patterns are accepted and rejected with the same error
 * text, over Go 1.19's Unicode 13 tables (\pL, \p{Greek}, (?i) simple case
 * folding), and a linear-time matcher: a Thompson NFA simulated a set of
 * states at a time, never backtracking.  Matching costs O(len(subject) x
 * program size) time and O(program size) memory; the program size is
 * bounded by Go's own limits (repeat counts <= 1000, nested repeats <=
 * 1000 copies, at most 128 MB worth of Go instructions, nesting <= 1000).
 * Subjects are bytes: invalid UTF-8 reads as U+FFFD, one byte at a time.
 */
#ifndef ABBENCH_STATS_GOREGEXP_H
#define ABBENCH_STATS_GOREGEXP_H

#include <stddef.h>

struct goregexp;

/*
 * Compile expr[0..len) (NUL bytes are ordinary characters).  NULL and
 * *msg (malloc'd) set to Go's error text, e.g. "error parsing regexp:
 * missing argument to repetition operator: `*`".
 */
struct goregexp	*goregexp_compile(const char *expr, size_t len,
		    char **msg);
/* Unanchored search (Go's MatchString): 1 if s[0..len) matches. */
int		 goregexp_match(const struct goregexp *re, const char *s,
		    size_t len);
void		 goregexp_free(struct goregexp *re);

/* Number of NFA instructions (for tests of the size bounds). */
size_t		 goregexp_size(const struct goregexp *re);

#endif
