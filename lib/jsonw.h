/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench's one way to write JSON: every JSON it prints (stat -format
 * json, nightly --json, power --json, db ls --json, run --json-progress)
 * is jansson's, its strings made here, so that an odd name is escaped
 * once and the same way everywhere:
 *
 *	"  \\		escaped with a backslash
 *	\b \f \n \r \t	as those two-character escapes
 *	other bytes below 0x20, NUL too	\u00XX (upper-case hex: \u001B)
 *	% < > & ' / DEL	as they are (JSON needs no escape for them)
 *	valid UTF-8	as it is, not \u-escaped (µs stays µs)
 *	a byte that starts no valid UTF-8 sequence	U+FFFD, as its UTF-8
 *			bytes (JSON text is UTF-8; Go's encoding/json writes
 *			the same character as the escape \ufffd, which stat's
 *			own writer did before jansson wrote its strings)
 *
 * Numbers: jansson's reals at the caller's precision, except where a
 * writer lays its document out itself (stat's, whose layout and numbers
 * predate the others): jw_add_num, the shortest text that reads back.
 * Not finite (NaN, an infinite MDE): null.
 */
#ifndef ABBENCH_JSONW_H
#define ABBENCH_JSONW_H

#include <stddef.h>

#include <jansson.h>

#include "lib/util.h"

/* A JSON string of s (NULL: null); never NULL. */
json_t	*jw_str(const char *s);
/* A JSON string of s[0..len), which may hold NUL bytes (\u0000). */
json_t	*jw_strn(const char *s, size_t len);
/* A real, or null where JSON has no number. */
json_t	*jw_num(double v);
/*
 * doc as jansson writes it with flags (JSON_INDENT, JSON_COMPACT,
 * JSON_REAL_PRECISION...; JSON_PRESERVE_ORDER always), and a newline,
 * appended to out; doc is released. A document jansson cannot write
 * (NULL: a leaf it refused) is "null".
 */
void	 jw_dump(json_t *doc, size_t flags, struct strbuf *out);
/* The same, printed to stdout; 0, or -1 when it could not be written. */
int	 jw_print(json_t *doc, size_t flags);

/* Leaves of a document laid out by hand: s[0..len) as a JSON string
 * (jansson's escaping, above), v as a number or null. */
void	 jw_add_str(struct strbuf *out, const char *s, size_t len);
void	 jw_add_num(struct strbuf *out, double v);

#endif
