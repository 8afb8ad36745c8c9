/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text written into HTML and Markdown (the report): entities, and bytes
 * that are no UTF-8 (markup.h); the file saved whole.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/analysis/markup.h"

int
markup_save(const char *path, const char *buf, size_t len, char **cause)
{
	char	*tmp = xasprintf("%s.tmp", path);
	FILE	*fp;
	int	 e;

	if ((fp = fopen(tmp, "w")) == NULL) {
		e = errno;
		free(tmp);
		return set_cause(cause, "cannot create '%s': %s", path,
		    strerror(e));
	}
	if (fwrite(buf, 1, len, fp) != len || fclose(fp) != 0 ||
	    rename(tmp, path) == -1) {
		e = errno;
		(void)unlink(tmp);
		free(tmp);
		return set_cause(cause, "cannot write '%s': %s", path,
		    strerror(e));
	}
	free(tmp);
	return 0;
}

void
markup_text(struct strbuf *out, const char *s, int html, int cell)
{
	size_t	len, i, n;

	if (s == NULL)
		return;
	len = strlen(s);
	for (i = 0; i < len; i += n) {
		unsigned char	c = (unsigned char)s[i];

		n = 1;
		if (c == '&')
			strbuf_adds(out, "&amp;");
		else if (c == '<')
			strbuf_adds(out, "&lt;");
		else if (c == '>')
			strbuf_adds(out, "&gt;");
		else if (c == '"' && html)
			strbuf_adds(out, "&quot;");
		else if (c == '|' && cell)
			strbuf_adds(out, "\\|");
		else if (c == '\n' && cell)
			strbuf_addc(out, ' ');
		else if (c < 0x20 && c != '\n' && c != '\t')
			strbuf_adds(out, "&#xFFFD;");
		else if (c < 0x80)
			strbuf_addc(out, (char)c);
		else if ((n = utf8_seq_len(s + i, len - i)) == 0) {
			strbuf_adds(out, "&#xFFFD;");
			n = 1;
		} else
			strbuf_add(out, s + i, n);
	}
}
