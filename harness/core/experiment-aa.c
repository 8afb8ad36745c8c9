/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The A/A version of an experiment (experiment.h): built from the
 * sections the file's reader finds (experiment-read.c), each kept as its
 * lines were written, so the version reads like the file and its keys'
 * lines stay where they were for every section but the replaced arms.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "harness/core/experiment-int.h"
#include "lib/util.h"

/* Lines of text, 1-based: start[i] and len[i] (with its '\n', if any). */
struct aa_lines {
	const char	**start;
	size_t		 *len;
	size_t		  n;
};

static void
aa_lines_split(const char *text, struct aa_lines *l)
{
	const char	*p, *nl;
	size_t		 cap = 0;

	memset(l, 0, sizeof(*l));
	XGROW(l->start, l->n, cap);
	l->len = xcalloc(cap, sizeof(*l->len));
	l->n = 1;			/* line 0 unused */
	for (p = text; *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		nl = nl != NULL ? nl + 1 : p + strlen(p);
		if (l->n >= cap) {
			XGROW(l->start, l->n, cap);
			l->len = xreallocarray(l->len, cap, sizeof(*l->len));
		}
		l->start[l->n] = p;
		l->len[l->n++] = (size_t)(nl - p);
	}
}

/* The section whose header is at line, or NULL. */
static const struct section *
aa_header(const struct parser *p, size_t line)
{
	size_t	i;

	for (i = 0; i < p->nsections; i++)
		if ((size_t)p->sections[i].line == line)
			return &p->sections[i];
	return NULL;
}

/* Is line the line of [experiment]'s name or control key (the A/A
 * version has its own name and no control: its arms are copies)? */
static int
aa_name_line(const struct section *s, size_t line)
{
	size_t	i;

	for (i = 0; i < s->nkv; i++)
		if ((size_t)s->kv[i].line == line &&
		    (strcmp(s->kv[i].key, "name") == 0 ||
		    strcmp(s->kv[i].key, "control") == 0))
			return 1;
	return 0;
}

char *
experiment_aa_text(const struct experiment *e, char **cause)
{
	struct parser		 p;
	struct aa_lines		 l;
	struct strbuf		 out = STRBUF_INIT, base = STRBUF_INIT;
	const struct section	*s, *in = NULL;
	size_t			 i;
	int			 arm = -1, have_exp = 0;

	memset(&p, 0, sizeof(p));
	p.path = e->path;
	p.text = e->text;
	p.len = strlen(e->text);
	if (parser_run(&p) == -1) {
		set_cause(cause, "%s", p.cause);
		parser_release(&p);
		return NULL;
	}
	aa_lines_split(e->text, &l);
	/* The first arm's body: its lines up to the next header. */
	for (i = 1; i < l.n; i++) {
		if ((s = aa_header(&p, i)) != NULL) {
			if (in != NULL)
				break;
			if (s->kind == SECTION_ARM)
				in = s;
			continue;
		}
		if (in != NULL)
			strbuf_add(&base, l.start[i], l.len[i]);
	}
	if (base.len > 0 && base.buf[base.len - 1] != '\n')
		strbuf_addc(&base, '\n');
	/* Every line as written, but the name of [experiment] and the
	 * bodies of the arms after the first. */
	in = NULL;
	for (i = 1; i < l.n; i++) {
		if ((s = aa_header(&p, i)) != NULL) {
			in = s;
			if (s->kind == SECTION_ARM && ++arm > 0) {
				strbuf_addf(&out, "[arm %s.%d]\n",
				    e->arms[0].name, arm + 1);
				strbuf_add(&out, base.buf != NULL ? base.buf :
				    "", base.len);
				continue;
			}
			strbuf_add(&out, l.start[i], l.len[i]);
			if (s->kind == SECTION_EXPERIMENT) {
				have_exp = 1;
				if (l.len[i] == 0 ||
				    l.start[i][l.len[i] - 1] != '\n')
					strbuf_addc(&out, '\n');
				strbuf_addf(&out, "name = %s.calibration\n",
				    e->name);
			}
			continue;
		}
		if (in != NULL && ((in->kind == SECTION_ARM && arm > 0) ||
		    (in->kind == SECTION_EXPERIMENT && aa_name_line(in, i))))
			continue;
		strbuf_add(&out, l.start[i], l.len[i]);
	}
	free(l.start);
	free(l.len);
	parser_release(&p);
	strbuf_release(&base);
	if (!have_exp) {
		char	*t = xasprintf("[experiment]\nname = %s.calibration\n"
		    "%s", e->name, out.buf != NULL ? out.buf : "");

		strbuf_release(&out);
		return t;
	}
	if (out.buf == NULL)
		strbuf_adds(&out, "");
	return strbuf_detach(&out);
}
