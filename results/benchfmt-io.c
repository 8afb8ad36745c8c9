/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchfmt export and import for the results store. Export reproduces,
 * for every result, the config benchstat would have seen (including the
 * order of keys) and the exact value; import keeps each result's config
 * block and the Unit metadata so that export gives back what benchstat
 * read from the original files.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchfmt.h"

/* An ordered list of config keys and values, benchfmt style. */
struct cfg {
	struct strvec	keys;
	struct strvec	values;
};

static void
cfg_clear(struct cfg *c)
{
	strvec_clear(&c->keys);
	strvec_clear(&c->values);
}

static ssize_t
cfg_find(const struct cfg *c, const char *key)
{
	size_t	i;

	for (i = 0; i < c->keys.n; i++) {
		if (strcmp(c->keys.v[i], key) == 0)
			return (ssize_t)i;
	}
	return -1;
}

/* Set a key, keeping its place when it exists (benchfmt overwrite). */
static void
cfg_set(struct cfg *c, const char *key, const char *value)
{
	ssize_t	i = cfg_find(c, key);

	if (i >= 0) {
		free(c->values.v[i]);
		c->values.v[i] = xstrdup(value);
		return;
	}
	strvec_push(&c->keys, key);
	strvec_push(&c->values, value);
}

/* Parse a stored block of "key: value\n" lines. */
static void
cfg_parse(struct cfg *c, const char *text)
{
	const char	*p = text, *nl, *colon;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		colon = memchr(p, ':', (size_t)(nl - p));
		if (colon != NULL) {
			char	*k = xstrndup(p, (size_t)(colon - p));
			const char *v = colon + 1;

			if (v < nl && *v == ' ')
				v++;
			strvec_push_nodup(&c->keys, k);
			strvec_push_nodup(&c->values,
			    xstrndup(v, (size_t)(nl - v)));
		}
		p = *nl != '\0' ? nl + 1 : nl;
	}
}

static int
cfg_same_keys(const struct cfg *a, const struct cfg *b)
{
	size_t	i;

	if (a->keys.n != b->keys.n)
		return 0;
	for (i = 0; i < a->keys.n; i++) {
		if (strcmp(a->keys.v[i], b->keys.v[i]) != 0)
			return 0;
	}
	return 1;
}

static void
cfg_copy(struct cfg *dst, const struct cfg *src)
{
	size_t	i;

	cfg_clear(dst);
	for (i = 0; i < src->keys.n; i++) {
		strvec_push(&dst->keys, src->keys.v[i]);
		strvec_push(&dst->values, src->values.v[i]);
	}
}

/*
 * Make a key of the runner's config one benchfmt reads as a config key:
 * it must start with a lower-case letter and hold no space or upper case.
 */
static char *
sanitize_key(const char *key)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p;

	if (!(*key >= 'a' && *key <= 'z') && !(*key >= 'A' && *key <= 'Z'))
		strbuf_addc(&sb, 'x');
	for (p = key; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'Z')
			strbuf_addc(&sb, (char)(*p - 'A' + 'a'));
		else if (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r' || *p == '\v' || *p == '\f' || *p == ':')
			strbuf_addc(&sb, '-');
		else
			strbuf_addc(&sb, *p);
	}
	return strbuf_detach(&sb);
}

static char *
sanitize_value(const char *value)
{
	char	*v = xstrdup(value), *p;

	for (p = v; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	}
	return v;
}

/* The run's own config for an arm: the run's keys, then the arm's. */
static void
arm_config(const struct store_kv *kv, size_t n, const char *arm,
    int measured, struct cfg *c)
{
	size_t	 i;
	char	*k, *v;

	for (i = 0; i < n; i++) {
		if (kv[i].arm[0] != '\0' && (arm == NULL ||
		    strcmp(kv[i].arm, arm) != 0))
			continue;
		/* The load of the moment is metadata, not a config. */
		if (measured && kv[i].arm[0] == '\0' &&
		    store_key_is_metadata(kv[i].key))
			continue;
		/* An empty value would read back as a deletion. */
		if (kv[i].value[0] == '\0')
			continue;
		k = sanitize_key(kv[i].key);
		v = sanitize_value(kv[i].value);
		cfg_set(c, k, v);
		free(k);
		free(v);
	}
}

/*
 * A double as the shortest of %.15g, %.16g, %.17g that reads back to the
 * same bits (Go's ParseFloat and strtod both round correctly), with the
 * spellings Go accepts for the special values.
 */
static void
format_value(char *buf, size_t len, double v)
{
	int	prec;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v && signbit(strtod(buf, NULL)) ==
		    signbit(v))
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* Move the written config from *cur to *want with benchfmt lines. */
static int
emit_config(const struct export_sink *sk, struct cfg *cur,
    const struct cfg *want)
{
	size_t	i;
	int	rc = 0;

	if (cfg_same_keys(cur, want)) {
		/* Overwriting keeps each key's place: write what changed. */
		for (i = 0; i < want->keys.n && rc == 0; i++) {
			if (strcmp(cur->values.v[i], want->values.v[i]) != 0)
				rc = sk->config(sk->arg, want->keys.v[i],
				    want->values.v[i]);
		}
	} else {
		/*
		 * benchfmt deletes by swapping the last key into the hole, so
		 * after deleting every key, adding the new block in order
		 * gives exactly its order.
		 */
		for (i = 0; i < cur->keys.n && rc == 0; i++)
			rc = sk->config(sk->arg, cur->keys.v[i], NULL);
		for (i = 0; i < want->keys.n && rc == 0; i++)
			rc = sk->config(sk->arg, want->keys.v[i],
			    want->values.v[i]);
	}
	cfg_copy(cur, want);
	return rc;
}

/* One value as the export sees it (a sample table's, with its source). */
struct xval {
	const char	*arm, *benchmark, *unit, *config, *orig_unit;
	double		 value, orig_value;
	int		 plan_idx;
};

/* Is unit the unit (as stored or as written) of one of the values? */
static int
unit_has_values(const char *unit, const struct xval *v, size_t nv)
{
	size_t	i;

	for (i = 0; i < nv; i++)
		if (strcmp(v[i].unit, unit) == 0 || (v[i].orig_unit != NULL &&
		    strcmp(v[i].orig_unit, unit) == 0))
			return 1;
	return 0;
}

/* The Unit lines of the units that have values: none declared empty. */
static int
emit_units(const struct export_sink *sk, const struct store_kv *u, size_t n,
    const struct xval *v, size_t nv)
{
	struct strvec	keys = STRVEC_INIT, values = STRVEC_INIT;
	const char	*unit = NULL;
	size_t		i;
	int		rc = 0;

	for (i = 0; i <= n && rc == 0; i++) {
		if (i < n && !unit_has_values(u[i].arm, v, nv))
			continue;
		if (unit != NULL && (i == n || strcmp(u[i].arm, unit) != 0)) {
			rc = sk->units(sk->arg, unit,
			    (const char *const *)keys.v,
			    (const char *const *)values.v, keys.n);
			strvec_clear(&keys);
			strvec_clear(&values);
		}
		if (i == n)
			break;
		unit = u[i].arm;
		strvec_push(&keys, u[i].key);
		strvec_push(&values, u[i].value);
	}
	strvec_clear(&keys);
	strvec_clear(&values);
	return rc;
}

/* Names and units are benchfmt fields: no blanks inside. */
static char *
field(const char *s)
{
	char	*f = xstrdup(s), *p;

	for (p = f; *p != '\0'; p++)
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		    *p == '\v' || *p == '\f')
			*p = '_';
	return f;
}

static const char *
out_unit(const struct xval *v)
{
	return v->orig_unit != NULL ? v->orig_unit : v->unit;
}

/*
 * Does v[i] go on the open line (of v[first..i)): the same execution
 * (plan entry, arm, config) and benchmark, and a unit it does not have?
 */
static int
same_line(const struct xval *v, size_t first, size_t i)
{
	size_t	j;

	if (i == first || v[first].plan_idx != v[i].plan_idx ||
	    strcmp(v[first].arm, v[i].arm) != 0 ||
	    strcmp(v[first].benchmark, v[i].benchmark) != 0 ||
	    (v[first].config == NULL) != (v[i].config == NULL) ||
	    (v[first].config != NULL &&
	    strcmp(v[first].config, v[i].config) != 0))
		return 0;
	for (j = first; j < i; j++)
		if (strcmp(out_unit(&v[j]), out_unit(&v[i])) == 0)
			return 0;
	return 1;
}

/* The line of v[first..end): its name, values and units as written. */
static int
emit_result(const struct export_sink *sk, const struct xval *v, size_t first,
    size_t end)
{
	char		 *name = field(v[first].benchmark), **units;
	double		 *x;
	size_t		  i, n = end - first;
	int		  rc;

	units = xcalloc(n, sizeof(*units));
	x = xcalloc(n, sizeof(*x));
	for (i = 0; i < n; i++) {
		/*
		 * What the file said before tidying, when it differs: it
		 * tidies again to the same unit and value, and benchstat's
		 * .unit filter sees the original unit too.
		 */
		x[i] = v[first + i].orig_unit != NULL ?
		    v[first + i].orig_value : v[first + i].value;
		units[i] = field(out_unit(&v[first + i]));
	}
	rc = sk->result(sk->arg, name, x, (const char *const *)units, n);
	for (i = 0; i < n; i++)
		free(units[i]);
	free(units);
	free(x);
	free(name);
	return rc;
}

/*
 * The table's values of arm (NULL: all) in the export's order: plan order,
 * and with every arm of several the baseline's first, then each arm's in
 * the run's order (an arm the run does not list last), so that
 * benchstat's first-seen column order is the baseline's.
 */
static struct xval *
walk_values(const struct store_run *r, const struct sampletab *t,
    const char *arm, size_t *nv)
{
	struct xval			*v = xcalloc(t->nvalues + 1, sizeof(*v));
	const struct sampletab_src	*s;
	const struct sampletab_cell	*c;
	size_t				 pass, npass, i, a;

	npass = arm == NULL && r->narms > 1 ? r->narms + 1 : 1;
	*nv = 0;
	for (pass = 0; pass < npass; pass++) {
		for (i = 0; i < t->nvalues; i++) {
			s = &t->src[i];
			c = &t->cells[s->cell];
			if (arm != NULL && strcmp(t->arms[c->arm], arm) != 0)
				continue;
			if (npass > 1) {
				for (a = 0; a < r->narms; a++)
					if (strcmp(r->arms[a],
					    t->arms[c->arm]) == 0)
						break;
				if (a != pass)
					continue;
			}
			v[*nv].arm = t->arms[c->arm];
			v[*nv].benchmark = t->rows[c->row].benchmark;
			v[*nv].unit = t->rows[c->row].unit;
			v[*nv].config = s->config;
			v[*nv].orig_unit = s->orig_unit;
			v[*nv].value = c->v[s->at].value;
			v[*nv].orig_value = s->orig_value;
			v[*nv].plan_idx = c->v[s->at].exec;
			(*nv)++;
		}
	}
	return v;
}

int
export_walk(struct store *st, const struct store_run *r,
    const struct sampletab *t, const char *arm, const struct export_sink *sk,
    char **cause)
{
	struct store_kv	*kv = NULL, *units = NULL;
	struct xval	*v = NULL;
	size_t		 nkv = 0, nunits = 0, nv = 0, i, a, first = 0;
	struct cfg	 cur, want, *armcfg = NULL;
	const char	*last_text = NULL, *last_arm = NULL;
	int		 tag_arm, open = 0, rc = -1;

	memset(&cur, 0, sizeof cur);
	memset(&want, 0, sizeof want);
	tag_arm = arm == NULL && r->narms > 1;
	if (store_config_list(st, r->id, &kv, &nkv, cause) != 0 ||
	    store_unit_list(st, r->id, &units, &nunits, cause) != 0)
		goto out;
	/* The run's config per arm, computed once. */
	armcfg = xcalloc(r->narms + 1, sizeof *armcfg);
	for (a = 0; a < r->narms; a++)
		arm_config(kv, nkv, r->arms[a],
		    strcmp(r->status, RUN_IMPORTED) != 0, &armcfg[a]);
	v = walk_values(r, t, arm, &nv);
	if ((rc = emit_units(sk, units, nunits, v, nv)) != 0)
		goto out;
	for (i = 0; i < nv && rc == 0; i++) {
		if (last_arm == NULL || strcmp(v[i].arm, last_arm) != 0 ||
		    (v[i].config == NULL) != (last_text == NULL) ||
		    (last_text != NULL &&
		    strcmp(v[i].config, last_text) != 0)) {
			cfg_clear(&want);
			if (v[i].config != NULL)
				cfg_parse(&want, v[i].config);
			else {
				for (a = 0; a < r->narms; a++) {
					if (strcmp(r->arms[a], v[i].arm) == 0)
						break;
				}
				if (a < r->narms)
					cfg_copy(&want, &armcfg[a]);
			}
			if (tag_arm && cfg_find(&want, "arm") < 0)
				cfg_set(&want, "arm", v[i].arm);
			/* A new config ends the line (same_line agrees). */
			if (open && (rc = emit_result(sk, v, first, i)) != 0)
				break;
			open = 0;
			if ((rc = emit_config(sk, &cur, &want)) != 0)
				break;
			last_text = v[i].config;
			last_arm = v[i].arm;
		}
		/*
		 * One line per execution of a benchmark, with all its units:
		 * the values of one plan entry and benchmark that follow one
		 * another, until a unit comes again (a gobench invocation's
		 * next line) or the config changes.
		 */
		if (!open || !same_line(v, first, i)) {
			if (open && (rc = emit_result(sk, v, first, i)) != 0)
				break;
			open = 1;
			first = i;
		}
	}
	if (rc == 0 && open)
		rc = emit_result(sk, v, first, nv);
	rc = rc != 0 ? 1 : 0;
out:
	if (armcfg != NULL) {
		for (a = 0; a < r->narms; a++)
			cfg_clear(&armcfg[a]);
		free(armcfg);
	}
	cfg_clear(&cur);
	cfg_clear(&want);
	store_kv_free(kv, nkv);
	store_kv_free(units, nunits);
	free(v);
	return rc;
}

/* The text sink: the lines themselves. */
static int
text_units(void *arg, const char *unit, const char *const *keys,
    const char *const *values, size_t n)
{
	struct strbuf	*out = arg;
	size_t		 i;

	strbuf_addf(out, "Unit %s", unit);
	for (i = 0; i < n; i++)
		strbuf_addf(out, " %s=%s", keys[i], values[i]);
	strbuf_addc(out, '\n');
	return 0;
}

static int
text_config(void *arg, const char *key, const char *value)
{
	if (value == NULL)
		strbuf_addf(arg, "%s:\n", key);
	else
		strbuf_addf(arg, "%s: %s\n", key, value);
	return 0;
}

static int
text_result(void *arg, const char *name, const double *v,
    const char *const *units, size_t n)
{
	struct strbuf	*out = arg;
	char		 num[64];
	size_t		 i;

	strbuf_adds(out, "Benchmark");
	strbuf_adds(out, name);
	strbuf_adds(out, " 1");
	for (i = 0; i < n; i++) {
		format_value(num, sizeof num, v[i]);
		strbuf_addf(out, " %s %s", num, units[i]);
	}
	strbuf_addc(out, '\n');
	return 0;
}

void
export_sink_text(struct export_sink *sk, struct strbuf *out)
{
	sk->units = text_units;
	sk->config = text_config;
	sk->result = text_result;
	sk->arg = out;
}

int
export_run_benchfmt(struct store *st, int64_t run_id, const char *arm,
    struct strbuf *out, char **cause)
{
	const struct sampletab_filter	 f = { arm, 0, 0 };
	const struct export_sink	 sk = { text_units, text_config,
					    text_result, out };
	struct store_run		 r;
	struct sampletab		*t = NULL;
	size_t				 a;
	int				 rc = -1;

	if (store_run_get(st, run_id, &r, cause) != 0)
		return -1;
	if (arm != NULL) {
		for (a = 0; a < r.narms; a++) {
			if (strcmp(r.arms[a], arm) == 0)
				break;
		}
		if (a == r.narms) {
			char	*what = xasprintf("run %lld",
			    (long long)run_id);

			*cause = store_run_no_arm(&r, what, arm);
			free(what);
			goto out;
		}
	}
	if ((t = sampletab_load_src(st, run_id, &f, cause)) != NULL)
		rc = export_walk(st, &r, t, arm, &sk, cause);
out:
	sampletab_free(t);
	store_run_release(&r);
	return rc;
}

char *
export_arm_filename(const char *arm)
{
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 len = strlen(arm);
	const char	*p;

	if (len == 0 || arm[0] == '.')
		strbuf_addc(&sb, '_');
	for (p = arm; *p != '\0'; p++)
		strbuf_addc(&sb, *p == '/' ? '_' : *p);
	if (len < 4 || strcmp(arm + len - 4, ".txt") != 0)
		strbuf_adds(&sb, ".txt");
	return strbuf_detach(&sb);
}

void
import_labels(char *const *args, size_t nargs, struct strvec *labels,
    struct strvec *paths)
{
	size_t		 i, j, count, seen;
	const char	*eq;

	for (i = 0; i < nargs; i++) {
		eq = strchr(args[i], '=');
		if (eq != NULL) {
			strvec_push_nodup(labels,
			    xstrndup(args[i], (size_t)(eq - args[i])));
			strvec_push(paths, eq + 1);
			continue;
		}
		count = seen = 0;
		for (j = 0; j < nargs; j++) {
			if (strcmp(args[j], args[i]) == 0) {
				if (j < i)
					seen++;
				count++;
			}
		}
		if (count > 1)
			strvec_pushf(labels, "%s#%zu", args[i], seen);
		else
			strvec_push(labels, args[i]);
		strvec_push(paths, args[i]);
	}
}

/*
 * The input is streamed (a chunk at a time, an incomplete line carried
 * over), so memory stays bounded whatever it is: /dev/zero, /dev/urandom,
 * a pipe that never ends. A line is at most 64 KiB (as Go's reader's);
 * a NUL byte ends the import of binary data at once, with its line.
 */
#define IMPORT_CHUNK		(64 * 1024)
#define IMPORT_BUF		(4 * IMPORT_CHUNK)
#define IMPORT_MAX_WARNINGS	1000

static void
import_warnings(struct bf_reader *rd, struct strvec *warnings, size_t *kept,
    size_t *dropped)
{
	const char *const	*errs;
	size_t			 i, nerr;

	errs = bf_reader_errors(rd, &nerr);
	for (i = 0; i < nerr; i++) {
		if (*kept < IMPORT_MAX_WARNINGS) {
			strvec_push(warnings, errs[i]);
			(*kept)++;
		} else
			(*dropped)++;
	}
	bf_reader_clear_errors(rd);
}

static size_t
import_count_lines(const char *p, size_t n)
{
	size_t	lines = 0;
	const char *e = p + n;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		lines++;
		p++;
	}
	return lines;
}

/* Import one file's results; config blocks are kept per value. */
static int
import_file(struct store *st, int64_t run_id, const char *label,
    const char *path, int position, struct bf_units *units, int *plan_idx,
    int64_t *nvalues, struct strvec *warnings, char **cause)
{
	struct bf_reader	*rd;
	const struct bf_result	*res;
	struct store_sample	 s;
	struct store_metric	 m;
	const char		*orig_unit = NULL;
	double			 orig_value = 0;
	struct strbuf		 cfg = STRBUF_INIT, name = STRBUF_INIT;
	char			*buf, *err = NULL, *nul;
	size_t			 have = 0, used, i, kept = 0, dropped = 0;
	uint64_t		 lines = 0;
	ssize_t			 n;
	int			 fd, eof = 0, rc = 0;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return set_cause(cause, "cannot open '%s': %s", path,
		    strerror(errno));
	buf = xmalloc(IMPORT_BUF);
	rd = bf_reader_new(path, label, buf, 0, units);
	memset(&s, 0, sizeof s);
	s.run_id = run_id;
	s.round = 0;
	s.position = position;
	s.arm = label;
	s.workload = path;
	s.status = SAMPLE_STATUS_OK;
	s.metrics = &m;
	s.nmetrics = 1;
	s.orig_units = &orig_unit;
	s.orig_values = &orig_value;
	for (;;) {
		if (!eof) {
			n = read(fd, buf + have, IMPORT_BUF - have);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1) {
				rc = set_cause(cause, "cannot read '%s': %s",
				    strcmp(path, "-") == 0 ? "standard input" :
				    path, strerror(errno));
				goto done;
			}
			if (n == 0)
				eof = 1;
			else if ((nul = memchr(buf + have, '\0', (size_t)n)) !=
			    NULL) {
				lines += import_count_lines(buf + have,
				    (size_t)(nul - (buf + have)));
				rc = set_cause(cause, "%s:%llu: a NUL byte: "
				    "binary data, no benchmark results; "
				    "nothing imported", path,
				    (unsigned long long)lines + 1);
				goto done;
			} else {
				lines += import_count_lines(buf + have,
				    (size_t)n);
				have += (size_t)n;
			}
		}
		bf_reader_feed(rd, buf, have, !eof);
		while ((rc = bf_reader_next(rd, &res, &err)) == 1) {
			strbuf_reset(&cfg);
			for (i = 0; i < res->nconfig; i++)
				strbuf_addf(&cfg, "%s: %s\n",
				    res->config[i].key, res->config[i].value);
			strbuf_reset(&name);
			strbuf_add(&name, res->name, res->name_len);
			if (name.buf == NULL)
				strbuf_adds(&name, "");
			s.config = cfg.buf != NULL ? cfg.buf : "";
			m.benchmark = name.buf;
			for (i = 0; i < res->nvalues; i++) {
				m.unit = res->values[i].unit;
				m.value = res->values[i].value;
				orig_unit = strcmp(res->values[i].orig_unit,
				    res->values[i].unit) != 0 ?
				    res->values[i].orig_unit : NULL;
				orig_value = res->values[i].orig_value;
				s.plan_idx = (*plan_idx)++;
				if (store_sample_add(st, &s, cause) != 0) {
					rc = -1;
					goto done;
				}
				(*nvalues)++;
			}
			import_warnings(rd, warnings, &kept, &dropped);
		}
		import_warnings(rd, warnings, &kept, &dropped);
		if (rc == 0)
			break;
		if (rc < 0) {
			/*
			 * The reader counts the lines before the long one
			 * (Go's message, for `stat`); here the line itself.
			 */
			free(err);
			err = NULL;
			rc = set_cause(cause, "%s:%d: a line longer than %d "
			    "KiB: not a benchmark file; nothing imported",
			    path, bf_reader_line(rd) + 1, IMPORT_CHUNK / 1024);
			goto done;
		}
		/* rc == 2: an incomplete line, carried over to the next read. */
		used = bf_reader_consumed(rd);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (dropped > 0)
		strvec_pushf(warnings, "%s: %zu more lines with errors not "
		    "listed", path, dropped);
done:
	free(err);
	strbuf_release(&cfg);
	strbuf_release(&name);
	bf_reader_free(rd);
	free(buf);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc < 0 ? -1 : 0;
}

int
import_benchfmt(struct store *st, char *const *args, size_t nargs,
    const struct import_options *opt, int64_t *run_id, int64_t *nvalues,
    struct strvec *warnings, char **cause)
{
	struct strvec		 labels = STRVEC_INIT, paths = STRVEC_INIT;
	struct strvec		 arms = STRVEC_INIT;
	struct strbuf		 argtext = STRBUF_INIT;
	struct store_run	 r;
	struct bf_units		*units = NULL;
	const char		*unit, *key, *value;
	size_t			 i, first_warning = warnings->n;
	int			 plan_idx = 0, position, rc = -1;

	*run_id = 0;
	*nvalues = 0;
	if (nargs == 0)
		return set_cause(cause, "no files to import");
	import_labels(args, nargs, &labels, &paths);
	for (i = 0; i < labels.n; i++) {
		if (!strvec_has(&arms, labels.v[i]))
			strvec_push(&arms, labels.v[i]);
		if (i > 0)
			strbuf_addc(&argtext, ' ');
		strbuf_adds(&argtext, args[i]);
	}

	memset(&r, 0, sizeof r);
	r.name = (char *)(opt->name != NULL ? opt->name : "import");
	r.host = (char *)(opt->host != NULL ? opt->host : "");
	r.status = (char *)RUN_IMPORTED;
	r.started_wall_ns = opt->wall_ns;
	r.ended_wall_ns = opt->wall_ns;
	r.order_kind = (char *)"";
	r.experiment_path = argtext.buf;
	r.abbench_version = (char *)(opt->abbench_version != NULL ?
	    opt->abbench_version : "");

	if (store_begin(st, cause) != 0)
		goto fail_nostore;
	if (store_run_create(st, &r, (const char *const *)arms.v, arms.n,
	    cause) != 0)
		goto fail;
	units = bf_units_new();
	for (i = 0; i < labels.n; i++) {
		for (position = 0; position < (int)arms.n; position++) {
			if (strcmp(arms.v[position], labels.v[i]) == 0)
				break;
		}
		if (import_file(st, r.id, labels.v[i], paths.v[i], position,
		    units, &plan_idx, nvalues, warnings, cause) != 0)
			goto fail;
	}
	for (i = 0; i < bf_units_count(units); i++) {
		if (bf_units_entry(units, i, &unit, &key, &value) != 0)
			continue;
		if (store_unit_set(st, r.id, unit, key, value, cause) != 0)
			goto fail;
	}
	for (i = first_warning; i < warnings->n; i++) {
		if (store_warning_add(st, r.id, warnings->v[i], cause) != 0)
			goto fail;
	}
	/* A binary, empty or foreign file: no run of nothing. */
	if (*nvalues == 0) {
		if (paths.n == 1)
			set_cause(cause, "no benchmark results in '%s': "
			    "nothing imported", paths.v[0]);
		else
			set_cause(cause, "no benchmark results in the %zu "
			    "files: nothing imported", paths.n);
		goto fail;
	}
	if (store_commit(st, cause) != 0)
		goto fail_nostore;
	*run_id = r.id;
	rc = 0;
	goto out;
fail:
	store_rollback(st);
fail_nostore:
	*nvalues = 0;
out:
	free(r.uuid);
	bf_units_free(units);
	strvec_clear(&labels);
	strvec_clear(&paths);
	strvec_clear(&arms);
	strbuf_release(&argtext);
	return rc;
}
