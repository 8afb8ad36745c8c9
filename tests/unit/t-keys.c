/*
 * Unit test: the help generated from the options tables lists exactly the
 * keys the experiment loader accepts. Every key `abbench run --help TYPE`
 * (experiment_help_type) lists is accepted with a value of its type, every
 * key of the tables is listed, and a key that is not listed is refused.
 * host.* keys are listed as a prefix; their values are checked by the
 * host settings (tests of their own).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "lib/options.h"
#include "lib/util.h"
#include "tests/unit/tap.h"
#include "workloads/workload.h"

/* The keys a help text lists: lines "  KEY = ..." ("  env.NAME = ..."). */
static void
listed_keys(const char *help, struct strvec *keys)
{
	const char	*l, *p, *e;

	for (l = help; l != NULL && *l != '\0'; l = e) {
		e = strchr(l, '\n');
		e = e != NULL ? e + 1 : NULL;
		if (strncmp(l, "  ", 2) != 0 || l[2] == ' ')
			continue;
		for (p = l + 2; *p != ' ' && *p != '\n' && *p != '\0'; p++)
			;
		if (strncmp(p, " = ", 3) != 0)
			continue;
		strvec_push_nodup(keys, xstrndup(l + 2, (size_t)(p - l - 2)));
	}
}

/* Words a type's own check narrows further than the option's type. */
static const struct {
	const char	*key;
	const char	*value;
} narrowed[] = {
	{ "weights", "100" },	/* fio: bfq weights */
};

/* A value of o's type within its range. */
static const char *
sample_value(const struct opt_spec *o, char *buf, size_t len)
{
	const char	*sp;
	size_t		 i;

	if (o->def != NULL)
		return o->def;
	for (i = 0; i < ARRAY_SIZE(narrowed); i++) {
		if (strcmp(narrowed[i].key, o->name) == 0)
			return narrowed[i].value;
	}
	switch (o->type) {
	case OPT_STR:
		return "x";
	case OPT_INT:
		snprintf(buf, len, "%.0f", o->min != 0 || o->max != 0 ?
		    o->min : 1);
		return buf;
	case OPT_FLOAT:
		snprintf(buf, len, "%g", o->min != 0 ? o->min : 1.0);
		return buf;
	case OPT_BOOL:
		return "yes";
	case OPT_DURATION:
		return "2s";
	case OPT_SIZE:
		snprintf(buf, len, "%.0f", o->min != 0 ? o->min : 4096.0);
		return buf;
	case OPT_CHOICE:
		sp = strchr(o->choices, ' ');
		snprintf(buf, len, "%.*s", sp != NULL ?
		    (int)(sp - o->choices) : (int)strlen(o->choices),
		    o->choices);
		return buf;
	}
	return "x";
}

/* Parse an experiment of one workload of type ops with extra lines. */
static int
try_parse(const struct workload_ops *ops, const char *exp_extra,
    const char *arm_extra, const char *wl_extra, char **cause)
{
	const struct opt_spec	*o;
	struct strbuf		 sb = STRBUF_INIT;
	struct experiment	*e;
	char			 buf[64];

	strbuf_addf(&sb, "[experiment]\n%s\n[arm a]\n%s\n[workload w]\n"
	    "type = %s\n", exp_extra, arm_extra, ops->type);
	for (o = ops->opts; o != NULL && o->name != NULL; o++) {
		if ((o->flags & OPT_REQUIRED) && strstr(wl_extra, o->name) !=
		    wl_extra)
			strbuf_addf(&sb, "%s = %s\n", o->name,
			    sample_value(o, buf, sizeof buf));
	}
	strbuf_addf(&sb, "%s\n", wl_extra);
	e = experiment_parse("keys.ini", sb.buf, sb.len, cause);
	strbuf_release(&sb);
	if (e == NULL)
		return -1;
	experiment_free(e);
	return 0;
}

/*
 * What a workload of a type needs besides its required keys to pass the
 * type's checks across keys (validate): one line, left out when it is the
 * key under test.
 */
static const struct {
	const char	*type;
	const char	*key;
	const char	*line;
} bases[] = {
	{ "command", "args", "args = true" },
	{ "fio", "dir", "dir = /tmp" },
	{ "cpu-steady", "cpu", "cpu = 0.5" },
};

static const char *
base_line(const struct workload_ops *ops, const char *key)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		if (strcmp(bases[i].type, ops->type) == 0)
			return strcmp(bases[i].key, key) == 0 ? "" :
			    bases[i].line;
	}
	return "";
}

static const struct opt_spec *
type_opt(const struct workload_ops *ops, const char *key)
{
	const struct opt_spec	*o = opt_find(ops->opts, key);

	return o != NULL ? o : opt_find(workload_common_opts, key);
}

static void
check_type(const struct workload_ops *ops)
{
	struct strbuf		 help = STRBUF_INIT;
	struct strvec		 keys = STRVEC_INIT;
	const struct opt_spec	*o;
	char			 buf[64], *line, *cause = NULL;
	size_t			 i;
	int			 bad = 0;

	experiment_help_type(ops, &help);
	listed_keys(help.buf, &keys);
	tap_ok(keys.n >= 7, "%s: help lists its keys (%zu)", ops->type,
	    keys.n);
	for (i = 0; i < keys.n; i++) {
		if (strcmp(keys.v[i], "type") == 0)
			continue;
		if ((o = type_opt(ops, keys.v[i])) == NULL) {
			TAP_DIAG("%s: listed key '%s' is in no table",
			    ops->type, keys.v[i]);
			bad++;
			continue;
		}
		/* The type's own executor: another may not fit it. */
		line = xasprintf("%s = %s\n%s", o->name,
		    strcmp(o->name, "executor") == 0 && ops->default_exec ?
		    ops->default_exec : sample_value(o, buf, sizeof buf),
		    base_line(ops, o->name));
		if (try_parse(ops, "", "", line, &cause) != 0) {
			TAP_DIAG("%s: listed '%s' refused: %s", ops->type,
			    line, cause);
			free(cause);
			cause = NULL;
			bad++;
		}
		free(line);
	}
	tap_ok(bad == 0, "%s: every listed key is accepted", ops->type);
	bad = 0;
	for (o = ops->opts; o != NULL && o->name != NULL; o++)
		bad += !strvec_has(&keys, o->name);
	for (o = workload_common_opts; o->name != NULL; o++)
		bad += !strvec_has(&keys, o->name);
	tap_ok(bad == 0, "%s: every key of its tables is listed", ops->type);
	line = xasprintf("no-such-key = 1\n%s", base_line(ops, ""));
	tap_ok(!strvec_has(&keys, "no-such-key") &&
	    try_parse(ops, "", "", line, &cause) == -1 &&
	    cause != NULL && strstr(cause, "no-such-key") != NULL,
	    "%s: a key it does not list is refused", ops->type);
	free(line);
	free(cause);
	strvec_clear(&keys);
	strbuf_release(&help);
}

/* The [experiment] and [arm] sections of experiment_help(). */
static void
check_sections(void)
{
	const struct workload_ops *cmd = workload_lookup("command");
	struct strbuf		 help = STRBUF_INIT;
	struct strvec		 keys = STRVEC_INIT;
	const struct opt_spec	*o;
	char			 buf[64], *line, *cause = NULL;
	size_t			 i;
	int			 bad = 0, n = 0;

	experiment_help(&help);
	listed_keys(help.buf, &keys);
	for (i = 0; i < keys.n; i++) {
		o = opt_find(experiment_opts, keys.v[i]);
		if (o != NULL) {
			n++;
			line = xasprintf("%s = %s", o->name,
			    sample_value(o, buf, sizeof buf));
			if (try_parse(cmd, line, "", "args = true",
			    &cause) != 0) {
				TAP_DIAG("[experiment] '%s' refused: %s",
				    line, cause);
				free(cause);
				cause = NULL;
				bad++;
			}
			free(line);
		} else if ((o = opt_find(arm_opts, keys.v[i])) != NULL &&
		    strcmp(o->name, "host.") != 0) {
			n++;
			line = (o->flags & OPT_PREFIX) ?
			    xasprintf("%sX = %s", o->name, "x") :
			    xasprintf("%s = %s", o->name,
			    sample_value(o, buf, sizeof buf));
			if (try_parse(cmd, "", line, "args = true",
			    &cause) != 0) {
				TAP_DIAG("[arm] '%s' refused: %s", line,
				    cause);
				free(cause);
				cause = NULL;
				bad++;
			}
			free(line);
		}
	}
	tap_ok(n > 10 && bad == 0,
	    "every listed [experiment] and [arm] key is accepted (%d)", n);
	bad = 0;
	for (o = experiment_opts; o->name != NULL; o++)
		bad += !strvec_has(&keys, o->name);
	for (o = arm_opts; o->name != NULL; o++) {
		line = (o->flags & OPT_PREFIX) ? xasprintf("%sNAME", o->name) :
		    xstrdup(o->name);
		bad += !strvec_has(&keys, line);
		free(line);
	}
	tap_ok(bad == 0, "every [experiment] and [arm] key is listed");
	tap_ok(try_parse(cmd, "no-such-key = 1", "", "args = true",
	    &cause) == -1, "an unlisted [experiment] key is refused");
	free(cause);
	strvec_clear(&keys);
	strbuf_release(&help);
}

int
main(void)
{
	const struct workload_ops *const	*t;

	for (t = workload_types; *t != NULL; t++)
		check_type(*t);
	check_sections();
	return tap_done();
}
