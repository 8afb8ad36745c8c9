/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one JSON writer (lib/jsonw.h): strings made valid UTF-8 here and
 * escaped by jansson, documents written by jansson.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"

json_t *
jw_strn(const char *s, size_t len)
{
	struct strbuf	 sb = STRBUF_INIT;
	json_t		*j;
	size_t		 i = 0, n;

	/* U+FFFD for each byte that starts no sequence; NUL kept. */
	while (i < len) {
		if ((n = utf8_seq_len(s + i, len - i)) == 0) {
			strbuf_adds(&sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		strbuf_add(&sb, s + i, n);
		i += n;
	}
	j = json_stringn(sb.buf != NULL ? sb.buf : "", sb.len);
	strbuf_release(&sb);
	if (j == NULL)
		BUG("jansson refused a string made valid UTF-8");
	return j;
}

json_t *
jw_str(const char *s)
{
	return s != NULL ? jw_strn(s, strlen(s)) : json_null();
}

json_t *
jw_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void
jw_dump(json_t *doc, size_t flags, struct strbuf *out)
{
	char	*text = doc != NULL ? json_dumps(doc, flags |
		    JSON_PRESERVE_ORDER | JSON_ENCODE_ANY) : NULL;

	strbuf_adds(out, text != NULL ? text : "null");
	strbuf_addc(out, '\n');
	free(text);
	json_decref(doc);
}

int
jw_print(json_t *doc, size_t flags)
{
	struct strbuf	out = STRBUF_INIT;
	int		r;

	jw_dump(doc, flags, &out);
	r = fwrite(out.buf, 1, out.len, stdout) == out.len ? 0 : -1;
	strbuf_release(&out);
	return r;
}

void
jw_add_str(struct strbuf *out, const char *s, size_t len)
{
	json_t	*j = jw_strn(s, len);
	char	*text = json_dumps(j, JSON_ENCODE_ANY);

	if (text == NULL)
		BUG("jansson could not write a string");
	strbuf_adds(out, text);
	free(text);
	json_decref(j);
}

void
jw_add_num(struct strbuf *out, double v)
{
	char	buf[64];
	int	p;

	if (!isfinite(v)) {
		strbuf_adds(out, "null");
		return;
	}
	/* The shortest text that reads back as v. */
	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (p == 17)
		snprintf(buf, sizeof buf, "%.17g", v);
	strbuf_adds(out, buf);
}
