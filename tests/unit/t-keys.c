/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test: the help generated from the options tables lists exactly the
 * keys the experiment loader accepts. Every key `abbench run --help TYPE`
 * (experiment_help_type) lists is accepted with a value of its type, every
 * key of the tables is listed, and a key that is not listed is refused.
 * host.* keys are listed as a prefix; their values are checked by the
 * host settings (tests of their own).
 *
 * And the binding: every key of every workload type's table (and of the
 * common table) has a place in its struct, and a value written in an
 * experiment file reaches it: the workload's value in every arm's struct,
 * an arm's value in that arm's struct for the keys an arm may set, the
 * table's default when the file says nothing.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "harness/core/experiment.h"
#include "lib/options.h"
#include "exec/perfstat.h"
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
	{ "perf", "page-faults" },	/* counters this host can count */
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
	case OPT_T_STR:
		return "x";
	case OPT_T_INT:
	case OPT_T_INT64:
	case OPT_T_UINT64:
		snprintf(buf, len, "%.0f", o->min != 0 || o->max != 0 ?
		    o->min : 1);
		return buf;
	case OPT_T_FLOAT:
		snprintf(buf, len, "%g", o->min != 0 ? o->min : 1.0);
		return buf;
	case OPT_T_BOOL:
		return "yes";
	case OPT_T_DURATION:
		return "2s";
	case OPT_T_SIZE:
		snprintf(buf, len, "%.0f", o->min != 0 ? o->min : 4096.0);
		return buf;
	case OPT_T_CHOICE:
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

/*
 * What a workload needs besides base_line when KEY is the key under test:
 * perf counts host processes (executor local; fio then reads `dir`).
 */
static const struct {
	const char	*type;
	const char	*key;
	const char	*line;
} key_lines[] = {
	{ "fio", "perf", "executor = local\nfs = bind" },
	{ "app", "perf", "executor = oci" },
	/* runsc's flag: sandboxes the oci executor starts (arm_line). */
	{ NULL, "platform", "executor = oci" },
};

/*
 * Keys a type lists (every workload has them) that it can never take:
 * refused when the file is loaded, naming the key. idle-memory runs
 * docker containers only, and docker passes no runtime flag per
 * container.
 */
static const struct {
	const char	*type;
	const char	*key;
} never[] = {
	{ "idle-memory", "platform" },
};

static int
never_ok(const struct workload_ops *ops, const char *key)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(never); i++) {
		if (strcmp(never[i].type, ops->type) == 0 &&
		    strcmp(never[i].key, key) == 0)
			return 1;
	}
	return 0;
}

/*
 * What every arm needs when KEY is the key under test of a type: runsc
 * for its platform, and for perf in a container (app runs in one).
 */
static const char *
arm_line(const struct workload_ops *ops, const char *key)
{
	if (strcmp(key, "platform") == 0 || (strcmp(key, "perf") == 0 &&
	    strcmp(ops->type, "app") == 0))
		return "runtime = runsc";
	return "";
}

static const char *
key_line(const struct workload_ops *ops, const char *key)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(key_lines); i++) {
		if ((key_lines[i].type == NULL ||
		    strcmp(key_lines[i].type, ops->type) == 0) &&
		    strcmp(key_lines[i].key, key) == 0)
			return key_lines[i].line;
	}
	return "";
}

/*
 * Can perf stat -a count a software event here (root, perf installed)?
 * The `perf` key is checked against the host when a file is loaded.
 */
static int perf_usable(void);

static int
perf_usable_in(const struct workload_ops *ops)
{
	/* In a container (app): runsc's sandbox, on a hybrid host. */
	return perf_usable() && (strcmp(ops->type, "app") != 0 ||
	    perf_counts_sandboxes());
}

static int
perf_usable(void)
{
	static int	usable = -1;
	struct strvec	ev = STRVEC_INIT;

	if (usable == -1) {
		strvec_push(&ev, "page-faults");
		usable = perf_events_check(&ev, NULL) == 0;
		strvec_clear(&ev);
		if (!usable)
			TAP_DIAG("perf stat -a does not work here: the perf "
			    "key is not tried");
	}
	return usable;
}

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
		if (strcmp(o->name, "perf") == 0 && o->type == OPT_T_STR &&
		    !perf_usable_in(ops))
			continue;
		/* The type's own executor: another may not fit it. */
		line = xasprintf("%s = %s\n%s\n%s", o->name,
		    strcmp(o->name, "executor") == 0 && ops->default_exec ?
		    ops->default_exec : sample_value(o, buf, sizeof buf),
		    base_line(ops, o->name), key_line(ops, o->name));
		if (never_ok(ops, o->name)) {
			free(line);
			line = xasprintf("%s = %s\n%s", o->name,
			    sample_value(o, buf, sizeof buf),
			    base_line(ops, o->name));
			if (try_parse(ops, "", arm_line(ops, o->name), line,
			    &cause) == 0 || cause == NULL ||
			    strstr(cause, o->name) == NULL) {
				TAP_DIAG("%s: '%s' not refused by name: %s",
				    ops->type, line, cause ? cause : "");
				bad++;
			}
			free(cause);
			cause = NULL;
		} else if (try_parse(ops, "", arm_line(ops, o->name), line,
		    &cause) != 0) {
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
			/* control names one of two arms. */
			line = strcmp(o->name, "control") == 0 ?
			    xstrdup("control = a") : xasprintf("%s = %s",
			    o->name, sample_value(o, buf, sizeof buf));
			if (try_parse(cmd, line, strcmp(o->name, "control") ?
			    "" : "[arm b]", "args = true", &cause) != 0) {
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
			line = (o->form & OPT_FORM_PREFIX) ?
			    xasprintf("%sX = %s", o->name, "x") :
			    xasprintf("%s = %s", o->name,
			    sample_value(o, buf, sizeof buf));
			/* In a container, where a runtime is used. */
			if (try_parse(cmd, "", strcmp(o->name, "platform") ?
			    line : "platform = ptrace\nruntime = runsc",
			    strcmp(o->name, "platform") ? "args = true\n"
			    "executor = docker" :
			    "args = true\nexecutor = oci", &cause) != 0) {
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
		line = (o->form & OPT_FORM_PREFIX) ?
		    xasprintf("%sNAME", o->name) :
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

/* ---- Binding ---------------------------------------------------------- */

/* Two values of their own for keys a type's checks narrow. */
static const struct {
	const char	*type;		/* NULL: any */
	const char	*key;
	const char	*v1, *v2;
} bind_values[] = {
	{ NULL, "weights", "100", "200" },
	{ NULL, "report", "user", "sys cpu" },
	{ NULL, "measure", "run", "create-start" },
	{ NULL, "program", "tick", "getppid" },
	{ NULL, "sandboxes", "2", "3" },
	{ NULL, "ok-status", "1", "2 3" },
	{ NULL, "name-tags", "vcpus", "containers touch" },
	{ "app", "app", "hackbench", "sysbench" },
	{ "app", "filesize", "10Kb", "1Mb" },
	{ "fio", "fs", "tmpfs", "rootfs" },
	{ "command", "perf", "page-faults", "context-switches" },
	{ "gobench", "perf", "page-faults", "context-switches" },
	{ "fio", "perf", "page-faults", "context-switches" },
	{ "app", "perf", "page-faults", "context-switches" },
};

/*
 * Candidates for a value of o other than its default, in its range and of
 * its type: the first two that pass its check are v1 and v2.
 */
static const char *const cand_str[] = { "x1", "x2", NULL };
static const char *const cand_list[] = { "x1 \"y 1\"", "x2", NULL };
static const char *const cand_bool[] = { "yes", "no", NULL };
static const char *const cand_dur[] = { "2s", "3s", "100ms", "1s",
	"150ms", NULL };
static const char *const cand_size[] = { "8k", "16k", "2048", "64m",
	"2g", NULL };

static int
pick_values(const struct workload_ops *ops, const struct opt_spec *o,
    char *v1, char *v2, size_t len)
{
	char		 buf[64], *cause = NULL, *out[2];
	const char	*const *c = NULL, *p, *e;
	size_t		 i, n = 0;

	out[0] = v1;
	out[1] = v2;
	for (i = 0; i < ARRAY_SIZE(bind_values); i++) {
		if (strcmp(bind_values[i].key, o->name) == 0 &&
		    (bind_values[i].type == NULL ||
		    strcmp(bind_values[i].type, ops->type) == 0)) {
			snprintf(v1, len, "%s", bind_values[i].v1);
			snprintf(v2, len, "%s", bind_values[i].v2);
			return 0;
		}
	}
	if (strcmp(o->name, "executor") == 0) {
		/* The type's own: another may not fit it. */
		snprintf(v1, len, "%s", ops->default_exec);
		snprintf(v2, len, "%s", ops->default_exec);
		return 0;
	}
	if (o->type == OPT_T_CHOICE) {
		/* The words of the choices, the default left out. */
		for (p = opt_choices(o); p != NULL && *p != '\0' && n < 2;
		    p = e != NULL ? e + 1 : "") {
			e = strchr(p, ' ');
			snprintf(buf, sizeof buf, "%.*s", e != NULL ?
			    (int)(e - p) : (int)strlen(p), p);
			if (o->def == NULL || strcmp(buf, o->def) != 0)
				snprintf(out[n++], len, "%s", buf);
		}
		goto done;
	}
	switch (o->type) {
	case OPT_T_STR:
		c = (o->form & OPT_FORM_LIST) ? cand_list : cand_str;
		break;
	case OPT_T_BOOL:
		c = cand_bool;
		break;
	case OPT_T_DURATION:
		c = cand_dur;
		break;
	case OPT_T_SIZE:
		c = cand_size;
		break;
	default:
		break;
	}
	for (i = 0; n < 2 && i < 8; i++) {
		if (c != NULL && c[i] == NULL)
			break;
		if (c != NULL)
			snprintf(buf, sizeof buf, "%s", c[i]);
		else if (o->type == OPT_T_INT || o->type == OPT_T_INT64 ||
		    o->type == OPT_T_UINT64)
			snprintf(buf, sizeof buf, "%.0f", (o->min != 0 ||
			    o->max != 0 ? o->min : 1) + (double)i);
		else
			snprintf(buf, sizeof buf, "%g", (o->min != 0 ?
			    o->min : 0.25) + 0.125 * (double)i);
		if (opt_check_value(o, buf, &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		if ((o->def != NULL && strcmp(buf, o->def) == 0) ||
		    (n == 1 && strcmp(buf, v1) == 0))
			continue;
		snprintf(out[n++], len, "%s", buf);
	}
done:
	if (n == 1)
		snprintf(v2, len, "%s", o->def != NULL ? o->def : v1);
	return n > 0 ? 0 : -1;
}

/* Is the member of o the same in two structs of its table? */
static int
member_eq(const struct opt_spec *o, const void *a, const void *b)
{
	const char	*pa = opt_member_const(o, a);
	const char	*pb = opt_member_const(o, b);
	const char	*ta, *tb;
	size_t		 i;

	if (opt_given(o, a) != opt_given(o, b))
		return 0;
	ta = opt_text(o, a);
	tb = opt_text(o, b);
	if ((ta == NULL) != (tb == NULL) || (ta != NULL && strcmp(ta, tb)))
		return 0;
	if (o->form & OPT_FORM_WORDS) {
		const struct strvec *sa = (const void *)pa;
		const struct strvec *sb = (const void *)pb;

		if (sa->n != sb->n)
			return 0;
		for (i = 0; i < sa->n; i++) {
			if (strcmp(sa->v[i], sb->v[i]) != 0)
				return 0;
		}
		return 1;
	}
	if (o->type == OPT_T_STR) {
		ta = *(char *const *)(const void *)pa;
		tb = *(char *const *)(const void *)pb;
		return (ta == NULL && tb == NULL) || (ta != NULL &&
		    tb != NULL && strcmp(ta, tb) == 0);
	}
	/* Any other kind: its member's bytes (their size checked). */
	return memcmp(pa, pb, o->at.size) == 0;
}

/* A struct of table opts: its defaults, then value for o (if any). */
static void *
expected(const struct opt_spec *opts, size_t size, const struct opt_spec *o,
    const char *value, int by_arm)
{
	void	*base = xcalloc(1, size);

	opt_set_defaults(opts, base);
	if (value != NULL && opt_set(o, base, value, NULL) == 0 && by_arm)
		opt_mark_given(o, base, 2);
	return base;
}

static void
expected_free(const struct opt_spec *opts, void *base)
{
	opt_release(opts, base);
	free(base);
}

/* The lines a workload of type ops needs besides the key under test. */
static void
add_needed(struct strbuf *sb, const struct workload_ops *ops,
    const char *key)
{
	const struct opt_spec	*o;
	char			 buf[64];

	for (o = ops->opts; o->name != NULL; o++) {
		if ((o->flags & OPT_REQUIRED) && strcmp(o->name, key) != 0)
			strbuf_addf(sb, "%s = %s\n", o->name,
			    sample_value(o, buf, sizeof buf));
	}
	strbuf_addf(sb, "%s\n%s\n", base_line(ops, key), key_line(ops, key));
}

/*
 * Write o = v1 on the workload (and o = v2 on arm a when an arm may set
 * it), or nothing when v1 is NULL; check every struct the loader filled.
 */
static int
check_bound(const struct workload_ops *ops, const struct opt_spec *o,
    int common, const char *v1, const char *v2)
{
	const struct opt_spec	*opts = common ? workload_common_opts :
				    ops->opts;
	size_t			 size = common ?
				    sizeof(struct workload_common) :
				    ops->opts_size;
	int			 arm = v1 != NULL && (o->flags & OPT_ARM);
	struct strbuf		 sb = STRBUF_INIT;
	struct experiment	*e;
	const struct workload	*wl;
	void			*want_wl, *want_arm, *defs;
	const void		*got[3];
	char			*cause = NULL;
	int			 ok = 1, i;

	strbuf_addf(&sb, "[experiment]\n[arm a]\n%s\n", arm_line(ops, o->name));
	if (arm)
		strbuf_addf(&sb, "%s = %s\n", o->name, v2);
	strbuf_addf(&sb, "[arm b]\n%s\n[workload w]\ntype = %s\n",
	    arm_line(ops, o->name), ops->type);
	if (v1 != NULL)
		strbuf_addf(&sb, "%s = %s\n", o->name, v1);
	add_needed(&sb, ops, o->name);
	e = experiment_parse("bind.ini", sb.buf, sb.len, &cause);
	strbuf_release(&sb);
	if (e == NULL || e->nworkloads != 1) {
		TAP_DIAG("%s: %s = %s refused: %s", ops->type, o->name,
		    v1 != NULL ? v1 : "(unset)", cause);
		free(cause);
		experiment_free(e);
		return 0;
	}
	wl = &e->workloads[0];
	if (common)
		got[0] = got[1] = got[2] = &wl->common;
	else {
		got[0] = wl_opts(wl, NULL);
		got[1] = wl_opts(wl, &e->arms[0]);
		got[2] = wl_opts(wl, &e->arms[1]);
	}
	defs = expected(opts, size, o, NULL, 0);
	want_wl = expected(opts, size, o, v1, 0);
	want_arm = arm ? expected(opts, size, o, v2, 1) : NULL;
	for (i = 0; i < 3; i++) {
		if (!member_eq(o, got[i], i == 1 && arm ? want_arm :
		    want_wl)) {
			TAP_DIAG("%s: %s = %s (arm a: %s): struct %d differs",
			    ops->type, o->name, v1 ? v1 : "(unset)",
			    arm ? v2 : "-", i);
			ok = 0;
		}
	}
	/* A written value is not the default: the test can tell. */
	if (v1 != NULL && member_eq(o, got[0], defs)) {
		TAP_DIAG("%s: %s = %s looks like its default", ops->type,
		    o->name, v1);
		ok = 0;
	}
	if (arm && member_eq(o, got[1], got[2])) {
		TAP_DIAG("%s: %s: arm a's %s is arm b's", ops->type, o->name,
		    v2);
		ok = 0;
	}
	expected_free(opts, defs);
	expected_free(opts, want_wl);
	if (want_arm != NULL)
		expected_free(opts, want_arm);
	experiment_free(e);
	return ok;
}

/* Keys a type's validate() fills when the section leaves them out. */
static const struct {
	const char	*type;
	const char	*key;
} filled[] = {
	{ "app", "image" },	/* the application's image */
};

/* May the workload leave o out (then its struct holds the default)? */
static int
unset_ok(const struct workload_ops *ops, const struct opt_spec *o)
{
	size_t	i;

	if ((o->flags & OPT_REQUIRED) ||
	    strcmp(base_line(ops, o->name), base_line(ops, "")) != 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(filled); i++) {
		if (strcmp(filled[i].type, ops->type) == 0 &&
		    strcmp(filled[i].key, o->name) == 0)
			return 0;
	}
	return 1;
}

static int
check_table_bound(const struct workload_ops *ops, int common)
{
	const struct opt_spec	*opts = common ? workload_common_opts :
				    ops->opts;
	size_t			 size = common ?
				    sizeof(struct workload_common) :
				    ops->opts_size;
	const struct opt_spec	*o;
	int			 unbound = 0, bad = 0;
	char			 v1[128], v2[128];

	for (o = opts; o->name != NULL; o++) {
		if (!opt_bound(o) || o->at.off + o->at.size > size ||
		    o->given.off + o->given.size > size ||
		    o->text.off + o->text.size > size) {
			TAP_DIAG("%s: key '%s' has no place in its struct",
			    ops->type, o->name);
			unbound++;
			continue;
		}
		if (strcmp(o->name, "type") == 0 || never_ok(ops, o->name) ||
		    (strcmp(o->name, "perf") == 0 && o->type == OPT_T_STR &&
		    !perf_usable_in(ops)))
			continue;
		if (pick_values(ops, o, v1, v2, sizeof v1) != 0) {
			TAP_DIAG("%s: no test value for '%s'", ops->type,
			    o->name);
			bad++;
			continue;
		}
		if (!check_bound(ops, o, common, v1, v2) ||
		    (unset_ok(ops, o) &&
		    !check_bound(ops, o, common, NULL, NULL)))
			bad++;
	}
	tap_ok(size > 0 && unbound == 0, "%s: every %skey is bound to its "
	    "struct", ops->type, common ? "common " : "");
	return bad;
}

static void
check_binding(const struct workload_ops *ops)
{
	int	bad = check_table_bound(ops, 0);

	tap_ok(bad == 0, "%s: written values reach the struct (the arm's "
	    "for keys an arm may set), defaults otherwise", ops->type);
	tap_ok(check_table_bound(ops, 1) == 0, "%s: and the common keys "
	    "reach struct workload_common", ops->type);
}

/* The member of KEY in the struct of wl under arm, found by its table. */
static const void *
member_of(const struct workload *wl, const struct arm *arm, const char *key)
{
	const struct opt_spec	*o = opt_find(wl->ops->opts, key);

	if (o == NULL || !opt_bound(o))
		return NULL;
	return opt_member_const(o, wl_opts(wl, arm));
}

/* --KEY=VALUE and --WORKLOAD.KEY=VALUE reach the structs as the file's. */
static void
check_command_line(void)
{
	static const char text[] = "[experiment]\n[arm a]\n[arm b]\n"
	    "cmd = sleep 1\n[workload w]\ntype = startup\n"
	    "measure = run\n[workload v]\ntype = startup\n";
	char *const		 set[] = { "measure=create-start",
	    "w.benchmark=B", "cmd=true 2", "timeout=7s", NULL };
	struct experiment	*e;
	const struct strvec	*m, *ca, *cb;
	const char *const	*bw, *const *bv;
	char			*cause = NULL;
	int			 ok;

	e = experiment_parse_set("cl.ini", text, strlen(text), set, &cause);
	ok = e != NULL && e->nworkloads == 2;
	if (!ok)
		TAP_DIAG("%s", cause);
	else {
		const struct workload	*w = &e->workloads[0];
		const struct workload	*v = &e->workloads[1];

		m = member_of(v, NULL, "measure");
		ok = m != NULL && m->n == 1 &&
		    strcmp(m->v[0], "create-start") == 0;
		m = member_of(w, NULL, "measure");
		ok = ok && m != NULL && m->n == 1 &&
		    strcmp(m->v[0], "create-start") == 0;
		bw = member_of(w, NULL, "benchmark");
		bv = member_of(v, NULL, "benchmark");
		ok = ok && bw != NULL && *bw != NULL && strcmp(*bw, "B") == 0 &&
		    bv != NULL && *bv == NULL;
		ca = member_of(w, &e->arms[0], "cmd");
		cb = member_of(w, &e->arms[1], "cmd");
		ok = ok && ca != NULL && ca->n == 2 &&
		    strcmp(ca->v[1], "2") == 0;
		ok = ok && cb != NULL && cb->n == 2 &&
		    strcmp(cb->v[0], "sleep") == 0;
		ok = ok && w->timeout_ns == 7 * NSEC_PER_SEC;
	}
	tap_ok(ok, "--KEY=VALUE reaches every workload's struct, an arm's "
	    "value still wins, --WORKLOAD.KEY one workload");
	experiment_free(e);
	free(cause);
}

/*
 * Every [arm] key but the prefixes (env.NAME, host.NAME) is bound into
 * struct arm, and a written value reaches it.
 */
static void
check_arm_binding(void)
{
	static const char text[] = "[experiment]\n[arm a]\nruntime = runsc\n"
	    "runtime-args = --network=none \"--debug-log=/tmp/x y\"\n"
	    "cpu = 0.5\nmemory = 64m\nargs = echo \"a b\" c\n"
	    "description = two words\n[arm b]\n"
	    "[workload w]\ntype = command\nargs = true\nexecutor = docker\n";
	const struct opt_spec	*o;
	struct experiment	*e;
	const struct arm	*a, *b;
	char			*cause = NULL;
	int			 unbound = 0, ok;

	for (o = arm_opts; o->name != NULL; o++) {
		if (!(o->form & OPT_FORM_PREFIX) && (!opt_bound(o) ||
		    o->at.off + o->at.size > sizeof(struct arm))) {
			TAP_DIAG("arm key '%s' has no place in struct arm",
			    o->name);
			unbound++;
		}
	}
	tap_ok(unbound == 0, "every [arm] key is bound to struct arm");
	e = experiment_parse("arm.ini", text, strlen(text), &cause);
	ok = e != NULL && e->narms == 2;
	if (!ok)
		TAP_DIAG("%s", cause != NULL ? cause : "");
	else {
		a = &e->arms[0];
		b = &e->arms[1];
		ok = a->runtime != NULL && strcmp(a->runtime, "runsc") == 0 &&
		    a->runtime_args.n == 2 &&
		    strcmp(a->runtime_args.v[1], "--debug-log=/tmp/x y") == 0 &&
		    a->cpus == 0.5 && a->memory == 64 << 20 &&
		    a->args.n == 3 && strcmp(a->args.v[1], "a b") == 0 &&
		    a->description != NULL &&
		    strcmp(a->description, "two words") == 0 &&
		    b->runtime == NULL && b->runtime_args.n == 0 &&
		    b->cpus == 0 && b->memory == 0 && b->args.n == 0;
	}
	tap_ok(ok, "written [arm] values reach struct arm, unset ones are "
	    "empty");
	experiment_free(e);
	free(cause);
}

/* The executor key names the registered executors, from the registry. */
static void
check_executor_choices(void)
{
	const struct opt_spec		*o;
	const struct exec_ops *const	*x;
	struct strbuf			 help = STRBUF_INIT;
	const char			*line, *end;
	char				*cause = NULL;
	int				 bad = 0, n = 0;

	o = opt_find(workload_common_opts, "executor");
	tap_ok(o != NULL && o->type == OPT_T_CHOICE && o->choices == NULL &&
	    o->choices_fn != NULL && strcmp(opt_choices(o), exec_names()) == 0,
	    "executor: its choices are the registry's (%s)", exec_names());
	experiment_help(&help);
	line = strstr(help.buf, "\n  executor = ");
	end = line != NULL ? strchr(line + 1, '\n') : NULL;
	for (x = exec_types; o != NULL && *x != NULL; x++, n++) {
		if (opt_check_value(o, (*x)->name, &cause) != 0) {
			TAP_DIAG("executor '%s' refused: %s", (*x)->name,
			    cause);
			free(cause);
			cause = NULL;
			bad++;
		}
		if (line == NULL || end == NULL ||
		    !memmem(line, (size_t)(end - line), (*x)->name,
		    strlen((*x)->name))) {
			TAP_DIAG("executor '%s' not in the help", (*x)->name);
			bad++;
		}
	}
	tap_ok(n >= 3 && bad == 0, "every registered executor is accepted "
	    "and listed in the help (%d)", n);
	tap_ok(o != NULL && opt_check_value(o, "no-such-executor",
	    &cause) == -1, "an executor not registered is refused");
	free(cause);
	strbuf_release(&help);
}

/*
 * What a workload needs of a sandbox is a hook of exec_ops: an executor
 * without it is refused when the file is loaded, naming file:line:key.
 */
static void
check_executor_hooks(void)
{
	static const struct exec_ops	 bare = { .name = "bare",
	    .caps = EXEC_CONTAINER | EXEC_DAEMON };
	static const char		 text[] = "[experiment]\n[arm a]\n"
	    "[workload w]\ntype = idle-memory\nexecutor = oci\n";
	const int			 all = EXEC_HOOK_GOFER_PID |
	    EXEC_HOOK_CONTAINER_NAME | EXEC_HOOK_RUN_ONCE |
	    EXEC_HOOK_CREATE_START | EXEC_HOOK_CHECKPOINT;
	const struct exec_ops *const	*x, *d = exec_lookup_daemon(all);
	const char			*m;
	struct experiment		*e;
	char				*cause = NULL;
	int				 ok = 1;

	m = exec_missing(&bare, EXEC_HOOK_RUN_ONCE | EXEC_HOOK_CHECKPOINT);
	tap_str_eq(m, "run_once", "a daemon without hooks lacks run_once");
	tap_ok(exec_missing(&bare, 0) == NULL, "and needs none for nothing");
	tap_ok(d != NULL && strcmp(d->name, EXEC_DEFAULT_DAEMON) == 0,
	    "the default daemon executor has every hook");
	m = exec_missing(exec_lookup("oci"), EXEC_HOOK_CREATE_START);
	tap_str_eq(m, "create_start", "oci has no create_start hook");
	for (x = exec_types; *x != NULL; x++) {
		if ((*x)->journal_kind != NULL && ((*x)->undo == NULL ||
		    (*x)->undo_done == NULL)) {
			TAP_DIAG("%s journals '%s' without its undo",
			    (*x)->name, (*x)->journal_kind);
			ok = 0;
		}
	}
	tap_ok(ok, "an executor that journals objects undoes them");
	e = experiment_parse("h.ini", text, strlen(text), &cause);
	tap_ok(e == NULL && cause != NULL &&
	    strncmp(cause, "h.ini:5: executor: ", 19) == 0,
	    "idle-memory on an executor without a daemon: file:line:key");
	TAP_DIAG("%s", cause != NULL ? cause : "(parsed)");
	experiment_free(e);
	free(cause);
}

int
main(void)
{
	const struct workload_ops *const	*t;

	/* Aborts (BUG) on an entry that does not fit its member. */
	experiment_tables_check();
	tap_ok(1, "every options table fits the struct it fills");
	for (t = workload_types; *t != NULL; t++)
		check_type(*t);
	check_sections();
	for (t = workload_types; *t != NULL; t++)
		check_binding(*t);
	check_arm_binding();
	check_executor_choices();
	check_executor_hooks();
	check_command_line();
	return tap_done();
}
