/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text written into the report's HTML and Markdown: escaped for the
 * format, any byte of a name made valid UTF-8.
 */
#ifndef ABBENCH_MARKUP_H
#define ABBENCH_MARKUP_H

#include "lib/util.h"

/*
 * Text as HTML or Markdown: '<', '>' and '&' as entities in both
 * (Markdown passes raw HTML through to whoever renders it: an arm named
 * "<script>"), '"' too in HTML; in a Markdown table cell (cell) no pipe
 * or newline. Names come from programs' output and imported files, any
 * byte: the page says charset=utf-8, so a byte that starts no valid UTF-8
 * sequence, and a control byte, is written as the entity of U+FFFD (the
 * \ufffd of the JSON outputs), never raw.
 */
void	markup_text(struct strbuf *out, const char *s, int html, int cell);

/*
 * Write buf to path whole: through path.tmp, renamed over path (a reader
 * never sees half a page). 0, or -1 and *cause naming the file.
 */
int	markup_save(const char *path, const char *buf, size_t len,
	    char **cause);

#endif
