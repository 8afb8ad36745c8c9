/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The experiment file's reader: where a named experiment's file is
 * (experiment_find), and its lines -> sections of `key = value`, with
 * their line numbers (harness/core/experiment-int.h); the loader
 * (experiment.c) builds the experiment from them.
 *
 * inih splits `key = value` lines; everything else is done here, because
 * the Debian build of inih cannot tell us about a section without keys, cuts
 * section names at 50 bytes and is not aware of quotes. Our reader hands
 * inih one line at a time, so it knows the line number of every call of the
 * handler, and it reads section headers itself. inih's run-time options
 * (a Debian addition) are set for the parse and put back afterwards:
 *
 *   - no multi-line values: an indented line is an ordinary line, so a stray
 *     indent can never glue a key onto the previous value;
 *   - comments: `;` or `#` at the start of a line, or after white space
 *     outside "double quotes" anywhere in a value (stripped here, not by
 *     inih, so that `args = sh -c "make; echo #done"` keeps its text);
 *   - lines up to EXPERIMENT_MAX_LINE bytes; a longer line is an error.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "harness/core/experiment.h"
#include "harness/core/experiment-int.h"
#include "lib/util.h"

#define EXPERIMENT_MAX_LINE	65536

int
parser_error(struct parser *p, int line, const char *key, const char *fmt,
    ...)
{
	struct strbuf	sb = STRBUF_INIT;
	va_list		ap;
	char		*msg;

	if (p->cause != NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	strbuf_adds(&sb, p->path);
	if (line > 0)
		strbuf_addf(&sb, ":%d", line);
	strbuf_adds(&sb, ": ");
	if (key != NULL)
		strbuf_addf(&sb, "%s: ", key);
	strbuf_adds(&sb, msg);
	free(msg);
	p->cause = strbuf_detach(&sb);
	return -1;
}

void
kv_release(struct kv *kv, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void
parser_release(struct parser *p)
{
	size_t	i;

	for (i = 0; i < p->nsections; i++) {
		free(p->sections[i].name);
		free(p->sections[i].title);
		kv_release(p->sections[i].kv, p->sections[i].nkv);
	}
	free(p->sections);
	free(p->cause);
}

/* Names of arms and workloads end up in benchmark names and RUN:ARM. */
static int
parser_check_name(struct parser *p, const char *kind, const char *name)
{
	const char	*s;

	for (s = name; *s != '\0'; s++) {
		if (*s == '/' || *s == ':' || *s == '=' || *s == '"' ||
		    *s == ']' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return parser_error(p, p->line, NULL, "%s name '%s' "
			    "must not contain '%c'", kind, name,
			    isprint((unsigned char)*s) ? *s : '?');
	}
	return 0;
}

/* A copy of s[0..n) without leading and trailing white space. */
static char *
trim_dup(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* A section header: the text between '[' and ']'. */
static int
parser_section(struct parser *p, const char *inner, size_t n)
{
	struct section	*s;
	char		*text = trim_dup(inner, n), *kind_word;
	char		*sp;
	enum section_kind kind;
	size_t		 i, kn;
	int		 rc = -1;

	for (kn = 0; text[kn] != '\0' && !isspace((unsigned char)text[kn]);
	    kn++)
		;
	for (sp = text + kn; isspace((unsigned char)*sp); sp++)
		;
	kind_word = xstrndup(text, kn);
	if (strcmp(kind_word, "experiment") == 0)
		kind = SECTION_EXPERIMENT;
	else if (strcmp(kind_word, "arm") == 0)
		kind = SECTION_ARM;
	else if (strcmp(kind_word, "workload") == 0)
		kind = SECTION_WORKLOAD;
	else {
		char	*best = words_nearest("experiment arm workload",
		    kind_word), *hint;

		/* "[arms x]": "; did you mean '[arm x]'?" */
		hint = best == NULL ? xstrdup("") : xasprintf("; did you "
		    "mean '[%s%s%s]'?", best, *sp != '\0' ? " " : "", sp);
		free(best);
		parser_error(p, p->line, NULL, "unknown section [%s] "
		    "(expected [experiment], [arm NAME] or [workload NAME])"
		    "%s", text, hint);
		free(hint);
		goto out;
	}
	if (kind == SECTION_EXPERIMENT && *sp != '\0') {
		parser_error(p, p->line, NULL, "[experiment] takes no name");
		goto out;
	}
	if (kind != SECTION_EXPERIMENT) {
		if (*sp == '\0') {
			parser_error(p, p->line, NULL, "[%s] needs a name: "
			    "[%s NAME]", kind_word, kind_word);
			goto out;
		}
		for (i = 0; sp[i] != '\0'; i++) {
			if (isspace((unsigned char)sp[i])) {
				parser_error(p, p->line, NULL, "%s name '%s' "
				    "must not contain spaces", kind_word, sp);
				goto out;
			}
		}
		if (parser_check_name(p, kind_word, sp) != 0)
			goto out;
	}
	for (i = 0; i < p->nsections; i++) {
		s = &p->sections[i];
		if (s->kind != kind)
			continue;
		if (kind == SECTION_EXPERIMENT || strcmp(s->name, sp) == 0) {
			parser_error(p, p->line, NULL, "duplicate section %s "
			    "(first at line %d)", s->title, s->line);
			goto out;
		}
	}
	XGROW(p->sections, p->nsections, p->cap);
	s = &p->sections[p->nsections++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->line = p->line;
	if (kind == SECTION_EXPERIMENT)
		s->title = xstrdup("[experiment]");
	else {
		s->name = xstrdup(sp);
		s->title = xasprintf("[%s %s]", kind_word, sp);
	}
	rc = 0;
out:
	free(kind_word);
	free(text);
	return rc;
}

/*
 * Look at a line the way inih will (start-of-line comment, section header,
 * key line), handle headers, and catch what inih would only report as "an
 * error on line N".
 */
static int
parser_line(struct parser *p, const char *line, size_t n)
{
	const char	*s = line, *e = line + n, *close, *q;

	if (p->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	while (s < e && isspace((unsigned char)*s))
		s++;
	if (s == e || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		close = memchr(s + 1, ']', (size_t)(e - s - 1));
		if (close == NULL)
			return parser_error(p, p->line, NULL,
			    "missing ']' in section header");
		for (q = close + 1; q < e && isspace((unsigned char)*q); q++)
			;
		if (q < e && *q != ';' && *q != '#')
			return parser_error(p, p->line, NULL,
			    "unexpected text after ']'");
		return parser_section(p, s + 1, (size_t)(close - s - 1));
	}
	for (q = s; q < e && *q != '=' && *q != ':'; q++)
		;
	if (q == e)
		return parser_error(p, p->line, NULL,
		    "expected 'key = value' or '[section]'");
	return 0;
}

/* inih's reader: one whole line per call, so p->line is always right. */
static char *
parser_read(char *str, int num, void *stream)
{
	struct parser	*p = stream;
	const char	*start, *nl;
	size_t		 n;

	if (p->cause != NULL || p->pos >= p->len)
		return NULL;
	start = p->text + p->pos;
	nl = memchr(start, '\n', p->len - p->pos);
	n = nl != NULL ? (size_t)(nl - start) + 1 : p->len - p->pos;
	p->line++;
	p->pos += n;
	if (num < 2 || n > (size_t)num - 2) {
		parser_error(p, p->line, NULL, "line too long (more than %d "
		    "bytes)", num - 2);
		return NULL;
	}
	if (memchr(start, '\0', n) != NULL) {
		parser_error(p, p->line, NULL, "NUL byte in line");
		return NULL;
	}
	if (parser_line(p, start, n) != 0)
		return NULL;
	memcpy(str, start, n);
	str[n] = '\0';
	return str;
}

/*
 * Cut a comment off a value: `;` or `#` at the start or after white space,
 * outside double quotes (with the \" and \\ escapes strvec_split_words
 * knows).
 */
static char *
value_strip_comment(const char *v)
{
	size_t	 i;
	int	 quoted = 0;

	for (i = 0; v[i] != '\0'; i++) {
		if (quoted) {
			if (v[i] == '\\' && (v[i + 1] == '"' ||
			    v[i + 1] == '\\'))
				i++;
			else if (v[i] == '"')
				quoted = 0;
			continue;
		}
		if (v[i] == '"')
			quoted = 1;
		else if ((v[i] == ';' || v[i] == '#') &&
		    (i == 0 || isspace((unsigned char)v[i - 1])))
			break;
	}
	return trim_dup(v, i);
}

static int
parser_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct parser	*p = user;
	struct section	*s;
	struct kv	*kv;
	size_t		 i;

	(void)section;	/* cut at 50 bytes by inih; we track our own */
	if (p->cause != NULL)
		return 0;
	if (p->nsections == 0) {
		parser_error(p, p->line, name, "key before the first "
		    "[section]");
		return 0;
	}
	if (name == NULL || *name == '\0') {
		parser_error(p, p->line, NULL, "missing key before '='");
		return 0;
	}
	s = &p->sections[p->nsections - 1];
	for (i = 0; i < s->nkv; i++) {
		if (strcmp(s->kv[i].key, name) == 0) {
			parser_error(p, p->line, name, "duplicate key in %s "
			    "(first at line %d)", s->title, s->kv[i].line);
			return 0;
		}
	}
	XGROW(s->kv, s->nkv, s->cap);
	kv = &s->kv[s->nkv++];
	kv->key = xstrdup(name);
	kv->value = value_strip_comment(value != NULL ? value : "");
	kv->line = p->line;
	return 1;
}

struct inih_settings {
	bool	 multiline, inline_comments, use_stack, realloc, stop, no_value;
	bool	 bom;
	int	 max_line, initial_alloc;
	char	*start_prefixes;
};

static void
inih_save(struct inih_settings *s)
{
	s->multiline = ini_allow_multiline;
	s->inline_comments = ini_allow_inline_comments;
	s->use_stack = ini_use_stack;
	s->realloc = ini_allow_realloc;
	s->stop = ini_stop_on_first_error;
	s->no_value = ini_allow_no_value;
	s->bom = ini_allow_bom;
	s->max_line = ini_max_line;
	s->initial_alloc = ini_initial_alloc;
	s->start_prefixes = ini_start_comment_prefixes;
}

static void
inih_restore(const struct inih_settings *s)
{
	ini_allow_multiline = s->multiline;
	ini_allow_inline_comments = s->inline_comments;
	ini_use_stack = s->use_stack;
	ini_allow_realloc = s->realloc;
	ini_stop_on_first_error = s->stop;
	ini_allow_no_value = s->no_value;
	ini_allow_bom = s->bom;
	ini_max_line = s->max_line;
	ini_initial_alloc = s->initial_alloc;
	ini_start_comment_prefixes = s->start_prefixes;
}

int
parser_run(struct parser *p)
{
	static char		start_prefixes[] = ";#";
	struct inih_settings	saved;
	int			rc;

	inih_save(&saved);
	ini_allow_multiline = false;
	ini_allow_inline_comments = false;
	/* The line buffer on the heap, big enough for any line we accept. */
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_max_line = EXPERIMENT_MAX_LINE;
	ini_initial_alloc = EXPERIMENT_MAX_LINE;
	ini_stop_on_first_error = true;
	ini_allow_no_value = false;
	ini_allow_bom = true;
	ini_start_comment_prefixes = start_prefixes;
	rc = ini_parse_stream(parser_read, p, parser_handler, p);
	inih_restore(&saved);

	if (p->cause != NULL)
		return -1;
	if (rc == -2)
		return parser_error(p, 0, NULL, "out of memory");
	if (rc != 0)
		return parser_error(p, rc, NULL, "syntax error");
	return 0;
}

/* dir/name, dir/name.ini: the first that exists, malloc'd, or NULL. */
static char *
find_in(const char *dir, const char *sub, const char *name)
{
	char	*p;

	p = xasprintf("%s%s/%s", dir, sub, name);
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	p = xasprintf("%s%s/%s.ini", dir, sub, name);
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *
experiment_find(const char *name)
{
	const char	*env = getenv("ABBENCH_EXPERIMENTS");
	char		 self[PATH_MAX], *p, *slash;
	ssize_t		 l;

	if (access(name, R_OK) == 0 || strchr(name, '/') != NULL ||
	    *name == '\0')
		return xstrdup(name);
	if (env != NULL && *env != '\0' && (p = find_in(env, "", name)))
		return p;
	/* Beside the binary: an installed tree (BIN/../share/abbench), or
	 * the build tree (its experiments/), wherever they were copied. */
	if ((l = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[l] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			*slash = '\0';
			if ((p = find_in(self, "/../share/abbench/experiments",
			    name)) != NULL ||
			    (p = find_in(self, "/experiments", name)) != NULL)
				return p;
		}
	}
#ifdef ABBENCH_DATADIR
	if ((p = find_in(ABBENCH_DATADIR, "/experiments", name)) != NULL)
		return p;
#endif
	return xstrdup(name);
}
