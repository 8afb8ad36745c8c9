/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Options tables: checking a value against its entry, finding a key and
 * printing a table as help text.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/options.h"
#include "lib/util.h"

int
opt_parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

const struct opt_spec *
opt_find(const struct opt_spec *opts, const char *key)
{
	const struct opt_spec	*o;
	size_t			 n;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (o->form & OPT_FORM_PREFIX) {
			n = strlen(o->name);
			if (strncmp(key, o->name, n) == 0 && key[n] != '\0')
				return o;
		} else if (strcmp(key, o->name) == 0)
			return o;
	}
	return NULL;
}

void
opt_nearest(const struct opt_spec *opts, struct nearest *n)
{
	const struct opt_spec	*o;

	for (o = opts; o != NULL && o->name != NULL; o++)
		if (!(o->form & OPT_FORM_PREFIX))
			nearest_try(n, o->name);
}

const char *
opt_choices(const struct opt_spec *o)
{
	if (o->choices != NULL)
		return o->choices;
	return o->choices_fn != NULL ? o->choices_fn() : NULL;
}

static int
opt_has_range(const struct opt_spec *o)
{
	return o->min != 0 || o->max != 0;
}

static int
opt_choice_ok(const char *choices, const char *value)
{
	size_t		n = strlen(value);
	const char	*p = choices;

	if (n == 0)
		return 0;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (strncmp(p, value, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	return 0;
}

char *
words_nearest(const char *words, const char *name)
{
	struct strvec	 v = STRVEC_INIT;
	struct nearest	 n;
	const char	*p = words != NULL ? words : "", *e;
	char		*r;
	size_t		 i;

	for (;;) {
		p += strspn(p, " ,");
		if (*p == '\0')
			break;
		e = p + strcspn(p, " ,");
		strvec_push_nodup(&v, xstrndup(p, (size_t)(e - p)));
		p = e;
	}
	nearest_init(&n, name);
	for (i = 0; i < v.n; i++)
		nearest_try(&n, v.v[i]);
	r = n.best != NULL ? xstrdup(n.best) : NULL;
	strvec_clear(&v);
	return r;
}

static char *
words_hint(const char *words, const char *name)
{
	char	*best = words_nearest(words, name), *r;

	r = best != NULL ? xasprintf("; did you mean '%s'?", best) :
	    xstrdup("");
	free(best);
	return r;
}

/*
 * A range bound (a double) as a long long: INT64_MAX is 2^63 as a double,
 * which a cast would overflow (undefined; LLONG_MIN here), so the ends
 * saturate.
 */
static long long
opt_ll(double d)
{
	if (d >= 9223372036854775807.0)
		return LLONG_MAX;
	if (d <= -9223372036854775807.0)
		return LLONG_MIN;
	return (long long)d;
}

/* One word against the spec's type. */
static int
opt_check_word(const struct opt_spec *o, const char *w, char **cause)
{
	long long		 ll;
	unsigned long long	 ull;
	double			 d;
	int64_t			 ns;
	uint64_t		 bytes, u;
	int			 b;

	switch (o->type) {
	case OPT_T_STR:
		return 0;
	case OPT_T_UINT64:
		if (parse_uint64(w, &u, cause) != 0)
			return -1;
		ull = u;
		if ((double)ull < o->min)
			return set_cause(cause, "%llu is out of range "
			    "[%.0f, %.0f]", ull, o->min, o->max);
		return 0;
	case OPT_T_INT:
	case OPT_T_INT64:
		if (opt_has_range(o))
			return parse_int(w, opt_ll(o->min), opt_ll(o->max),
			    &ll, cause);
		return parse_int(w, LLONG_MIN, LLONG_MAX, &ll, cause);
	case OPT_T_FLOAT:
		if (parse_double(w, &d, cause) != 0)
			return -1;
		if (opt_has_range(o) && (d < o->min || d > o->max))
			return set_cause(cause, "%s is out of range [%g, %g]",
			    w, o->min, o->max);
		return 0;
	case OPT_T_BOOL:
		if (opt_parse_bool(w, &b) != 0)
			return set_cause(cause, "'%s' is not a boolean (use "
			    "yes/no, true/false, on/off or 1/0)", w);
		return 0;
	case OPT_T_DURATION:
		if (parse_duration(w, &ns, cause) != 0)
			return -1;
		/*
		 * One message whichever way the value came (file, --KEY=VALUE,
		 * a flag): the bound in the units a user writes.
		 */
		if (opt_has_range(o) && ((double)ns < o->min * 1e9 ||
		    (double)ns > o->max * 1e9)) {
			int	 low = (double)ns < o->min * 1e9;
			char	*lim = format_duration_sec(low ? o->min :
			    o->max);

			if (low && ns == 0)
				set_cause(cause, "'%s': the duration must be "
				    "at least %s (0 is not allowed)", w, lim);
			else
				set_cause(cause, "'%s' is %s than %s, the %s",
				    w, low ? "shorter" : "longer", lim,
				    low ? "minimum" : "maximum");
			free(lim);
			return -1;
		}
		return 0;
	case OPT_T_SIZE:
		if (parse_size(w, &bytes, cause) != 0)
			return -1;
		if (opt_has_range(o) && ((double)bytes < o->min ||
		    (double)bytes > o->max))
			return set_cause(cause, "'%s' is out of range "
			    "[%.0f, %.0f] bytes", w, o->min, o->max);
		return 0;
	case OPT_T_CHOICE:
		if (opt_choices(o) == NULL || !opt_choice_ok(opt_choices(o), w)) {
			char	*hint = words_hint(opt_choices(o), w);

			set_cause(cause, "'%s' is not one of: %s%s", w,
			    opt_choices(o) != NULL ? opt_choices(o) : "", hint);
			free(hint);
			return -1;
		}
		return 0;
	}
	return set_cause(cause, "option '%s' has an unknown type", o->name);
}

/*
 * A list value is checked word by word; any other value is one word, as it
 * is after matrix expansion (a quoted word may hold blanks).
 */
int
opt_check_value(const struct opt_spec *o, const char *value, char **cause)
{
	struct strvec	words = STRVEC_INIT;
	size_t		i;
	int		rc = 0;

	if (value == NULL)
		return set_cause(cause, "missing value");
	if (!(o->form & OPT_FORM_LIST)) {
		if (*value == '\0' && o->type != OPT_T_STR)
			return set_cause(cause, "missing value");
		return opt_check_word(o, value, cause);
	}
	if (strvec_split_words(&words, value, cause) != 0) {
		strvec_clear(&words);
		return -1;
	}
	for (i = 0; i < words.n && rc == 0; i++)
		rc = opt_check_word(o, words.v[i], cause);
	strvec_clear(&words);
	return rc;
}

static int
opt_is_int(const struct opt_spec *o)
{
	return o->type == OPT_T_INT || o->type == OPT_T_INT64 ||
	    o->type == OPT_T_UINT64;
}

static const char *
opt_type_name(const struct opt_spec *o)
{
	switch (o->type) {
	case OPT_T_STR:
		return (o->form & OPT_FORM_LIST) ? "words" : "string";
	case OPT_T_INT:
	case OPT_T_INT64:
	case OPT_T_UINT64:
		return (o->form & OPT_FORM_LIST) ? "integers" : "integer";
	case OPT_T_FLOAT:
		return "number";
	case OPT_T_BOOL:
		return "yes|no";
	case OPT_T_DURATION:
		return "duration";
	case OPT_T_SIZE:
		return "size";
	case OPT_T_CHOICE:
		return "choice";
	}
	return "?";
}

/* Add text wrapped at 80 columns, each line indented by `indent`. */
static void
opt_add_wrapped(struct strbuf *out, const char *text, int indent, int col)
{
	const char	*p = text, *w;
	size_t		 n;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		for (w = p; *w != ' ' && *w != '\0'; w++)
			;
		n = (size_t)(w - p);
		if (col > indent && col + 1 + (int)n > 79) {
			strbuf_addf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			strbuf_addc(out, ' ');
			col++;
		}
		strbuf_add(out, p, n);
		col += (int)n;
		p = w;
	}
	strbuf_addc(out, '\n');
}

void
opt_help(const struct opt_spec *opts, struct strbuf *out)
{
	const struct opt_spec	*o;
	struct strbuf		 head = STRBUF_INIT, text = STRBUF_INIT;
	const char		*sep;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		strbuf_reset(&head);
		strbuf_reset(&text);
		if (o->form & OPT_FORM_PREFIX)
			strbuf_addf(&head, "  %sNAME", o->name);
		else
			strbuf_addf(&head, "  %s", o->name);
		if (o->type == OPT_T_CHOICE && opt_choices(o) != NULL) {
			strbuf_adds(&head, " = ");
			for (sep = opt_choices(o); *sep != '\0'; sep++)
				strbuf_addc(&head, *sep == ' ' ? '|' : *sep);
		} else
			strbuf_addf(&head, " = %s", opt_type_name(o));
		strbuf_adds(&text, o->help != NULL ? o->help : "");
		if (opt_is_int(o) && opt_has_range(o) &&
		    o->max >= (double)INT_MAX)
			strbuf_addf(&text, " [at least %.0f]", o->min);
		else if (opt_is_int(o) && opt_has_range(o))
			strbuf_addf(&text, " [%.0f..%.0f]", o->min, o->max);
		else if (o->type == OPT_T_FLOAT && opt_has_range(o))
			strbuf_addf(&text, " [%g..%g]", o->min, o->max);
		if (o->def != NULL)
			strbuf_addf(&text, " (default: %s)", o->def);
		if (o->flags & OPT_REQUIRED)
			strbuf_adds(&text, " (required)");
		if (o->flags & OPT_ARM)
			strbuf_adds(&text, " (an arm may set it)");
		opt_help_line(out, head.buf, text.buf);
	}
	strbuf_release(&head);
	strbuf_release(&text);
}

void
opt_help_line(struct strbuf *out, const char *head, const char *text)
{
	if (strlen(head) < 30)
		strbuf_addf(out, "%-30s", head);
	else
		strbuf_addf(out, "%s\n%-30s", head, "");
	opt_add_wrapped(out, text, 30, 30);
}

int
opt_choice_index(const struct opt_spec *o, const char *value)
{
	size_t		n = strlen(value);
	const char	*p = opt_choices(o);
	int		i = 0;

	if (p == NULL)
		return -1;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, value, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return i;
		while (*p != ' ' && *p != '\0')
			p++;
		i++;
	}
	return -1;
}

/*
 * Places: a member is found by its offset from the struct's base; an
 * entry without one (size 0) binds nothing.
 */
static void *
opt_at(const struct opt_place *p, void *base)
{
	return p->size != 0 ? (char *)base + p->off : NULL;
}

int
opt_bound(const struct opt_spec *o)
{
	return o->at.size != 0;
}

void *
opt_member(const struct opt_spec *o, void *base)
{
	if (o->at.size == 0)
		BUG("option '%s' has no place to be stored", o->name);
	return (char *)base + o->at.off;
}

const void *
opt_member_const(const struct opt_spec *o, const void *base)
{
	return opt_member(o, (void *)(uintptr_t)base);
}

void
opt_mark_given(const struct opt_spec *o, void *base, int by)
{
	int	*given = opt_at(&o->given, base);

	if (given != NULL)
		*given = by;
}

/* Store a checked value; it cannot fail. */
static void
opt_store(const struct opt_spec *o, char *at, const char *v)
{
	long long		 ll;
	double			 d;
	int64_t			 ns;
	uint64_t		 bytes;
	int			 b;

	if (o->form & OPT_FORM_WORDS) {
		strvec_clear((struct strvec *)at);
		strvec_split_words((struct strvec *)at, v, NULL);
		return;
	}
	switch (o->type) {
	case OPT_T_STR:
		free(*(char **)at);
		*(char **)at = xstrdup(v);
		break;
	case OPT_T_INT:
		parse_int(v, LLONG_MIN, LLONG_MAX, &ll, NULL);
		*(int *)at = (int)ll;
		break;
	case OPT_T_INT64:
		parse_int(v, LLONG_MIN, LLONG_MAX, &ll, NULL);
		*(int64_t *)at = ll;
		break;
	case OPT_T_UINT64:
		parse_uint64(v, (uint64_t *)at, NULL);
		break;
	case OPT_T_FLOAT:
		parse_double(v, &d, NULL);
		*(double *)at = d;
		break;
	case OPT_T_BOOL:
		opt_parse_bool(v, &b);
		*(int *)at = b;
		break;
	case OPT_T_DURATION:
		parse_duration(v, &ns, NULL);
		*(int64_t *)at = ns;
		break;
	case OPT_T_SIZE:
		parse_size(v, &bytes, NULL);
		*(uint64_t *)at = bytes;
		break;
	case OPT_T_CHOICE:
		*(int *)at = opt_choice_index(o, v);
		break;
	}
}

/* The value as written, where o->text says. */
static void
opt_store_text(const struct opt_spec *o, void *base, const char *v)
{
	char	**at = opt_at(&o->text, base);

	if (at == NULL)
		return;
	free(*at);
	*at = xstrdup(v);
}

int
opt_set(const struct opt_spec *o, void *base, const char *value,
    char **cause)
{
	if (opt_check_value(o, value, cause) != 0)
		return -1;
	opt_store(o, opt_member(o, base), value);
	opt_store_text(o, base, value);
	opt_mark_given(o, base, 1);
	return 0;
}

const char *
opt_text(const struct opt_spec *o, const void *base)
{
	if (o->text.size == 0)
		return NULL;
	return *(char *const *)((const char *)base + o->text.off);
}

int
opt_given(const struct opt_spec *o, const void *base)
{
	if (o->given.size == 0)
		return 0;
	return *(const int *)((const char *)base + o->given.off);
}

void
opt_set_defaults(const struct opt_spec *opts, void *base)
{
	const struct opt_spec	*o;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (!opt_bound(o) || o->def == NULL)
			continue;
		opt_store(o, opt_member(o, base), o->def);
		opt_store_text(o, base, o->def);
	}
}

void
opt_release(const struct opt_spec *opts, void *base)
{
	const struct opt_spec	*o;
	char			**at;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (opt_bound(o) && (o->form & OPT_FORM_WORDS))
			strvec_clear(opt_member(o, base));
		else if (opt_bound(o) && o->type == OPT_T_STR) {
			at = opt_member(o, base);
			free(*at);
			*at = NULL;
		}
		if ((at = opt_at(&o->text, base)) != NULL) {
			free(*at);
			*at = NULL;
		}
	}
}

size_t
opt_kind_size(const struct opt_spec *o, enum opt_ctype *ctype)
{
	*ctype = OPT_C_OTHER;
	if (o->form & OPT_FORM_WORDS)
		return sizeof(struct strvec);
	switch (o->type) {
	case OPT_T_STR:
		*ctype = OPT_C_PTR;
		return sizeof(char *);
	case OPT_T_INT:
	case OPT_T_BOOL:
		*ctype = OPT_C_INT;
		return sizeof(int);
	case OPT_T_CHOICE:
		/* An enum is OPT_C_OTHER: its size must be an int's. */
		*ctype = OPT_C_INT;
		return sizeof(int);
	case OPT_T_INT64:
	case OPT_T_DURATION:
		*ctype = OPT_C_I64;
		return sizeof(int64_t);
	case OPT_T_UINT64:
	case OPT_T_SIZE:
		*ctype = OPT_C_U64;
		return sizeof(uint64_t);
	case OPT_T_FLOAT:
		*ctype = OPT_C_DOUBLE;
		return sizeof(double);
	}
	return 0;
}

static const char *const opt_ctype_names[] = {
	[OPT_C_OTHER] = "other", [OPT_C_PTR] = "char *", [OPT_C_INT] = "int",
	[OPT_C_I64] = "int64_t", [OPT_C_U64] = "uint64_t",
	[OPT_C_DOUBLE] = "double",
};

/* Does place p of `what` fit a struct of size bytes and hold want? */
static void
opt_place_check(const char *table, const struct opt_spec *o,
    const char *what, const struct opt_place *p, size_t want,
    enum opt_ctype ctype, size_t size)
{
	if (p->off + p->size > size)
		BUG("options table %s: key '%s': its %s member (offset %zu, "
		    "%zu bytes) lies outside its struct of %zu bytes", table,
		    o->name, what, p->off, p->size, size);
	if (p->size != want)
		BUG("options table %s: key '%s': its %s member has %zu bytes, "
		    "but its kind stores %zu", table, o->name, what, p->size,
		    want);
	if (ctype != OPT_C_OTHER && p->ctype != OPT_C_OTHER &&
	    p->ctype != ctype)
		BUG("options table %s: key '%s': its %s member is %s, but its "
		    "kind stores %s", table, o->name, what,
		    opt_ctype_names[p->ctype], opt_ctype_names[ctype]);
}

void
opt_table_check(const char *table, const struct opt_spec *opts,
    size_t size)
{
	const struct opt_spec	*o;
	enum opt_ctype		 ctype;
	size_t			 want;
	char			*cause = NULL;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (o->form & OPT_FORM_PREFIX) {
			if (opt_bound(o))
				BUG("options table %s: prefix '%s' binds a "
				    "member", table, o->name);
			continue;
		}
		if (!opt_bound(o))
			BUG("options table %s: key '%s' binds no member", table,
			    o->name);
		want = opt_kind_size(o, &ctype);
		opt_place_check(table, o, "value", &o->at, want, ctype, size);
		if (o->given.size != 0)
			opt_place_check(table, o, "given", &o->given,
			    sizeof(int), OPT_C_INT, size);
		if (o->text.size != 0)
			opt_place_check(table, o, "text", &o->text,
			    sizeof(char *), OPT_C_PTR, size);
		if (o->type == OPT_T_INT && (o->min < INT_MIN ||
		    o->max > INT_MAX))
			BUG("options table %s: key '%s': range [%.0f, %.0f] "
			    "is wider than an int", table, o->name, o->min,
			    o->max);
		if (o->type == OPT_T_CHOICE && opt_choices(o) == NULL)
			BUG("options table %s: key '%s' has no choices", table,
			    o->name);
		if (o->def != NULL && opt_check_value(o, o->def, &cause) != 0)
			BUG("options table %s: key '%s': default '%s': %s",
			    table, o->name, o->def, cause);
	}
}

int
kv_line(const struct kv *kv, size_t n, const char *key)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].line;
	return 0;
}
