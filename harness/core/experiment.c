/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The experiment-file loader: the sections the reader gives
 * (experiment-read.c) -> struct experiment, every key checked against an
 * options table and bound into the structs it fills, command-line
 * overrides applied, workload matrices expanded.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "harness/core/experiment.h"
#include "harness/core/experiment-int.h"
#include "host/hostset.h"
#include "lib/util.h"
#include "stats/sequential.h"
#include "workloads/workload.h"

/* A matrix larger than this is a typo, not an experiment. */
#define EXPERIMENT_MAX_COMBINATIONS	10000

#define EXP(member)	OPT_AT(struct experiment, member)

/* The keys of [experiment], bound to struct experiment. */
const struct opt_spec experiment_opts[] = {
	OPT_STR("name", EXP(name), NULL,
	    "the experiment's name (default: the file name without .ini)"),
	OPT_TEXT("description", EXP(description), NULL,
	    "free text, stored with the run"),
	OPT_TEXT("pkg", EXP(pkg), NULL,
	    "text of the benchfmt `pkg:` line of exports"),
	OPT_INT("rounds", EXP(rounds), "10", 1, 1000000,
	    "measured rounds: each arm runs each workload once per round"),
	OPT_INT("warmup", EXP(warmup), "0", 0, 1000000,
	    "warm-up rounds before the measured ones (stored, not compared)"),
	OPT_CHOICE("order", EXP(order), "alternate",
	    "alternate abba random sequential",
	    "order of the arms within each round"),
	OPT_UINT64("seed", EXP(seed), NULL, 0,
	    "seed of the random order (default: chosen and stored)",
	    .given = EXP(seed_set)),
	OPT_DURATION("timeout", EXP(timeout_ns), "10m", 0.001, 1e7,
	    "default time limit of one sample"),
	OPT_INT("max-failures", EXP(max_failures), "0", 0, INT_MAX,
	    "abort the run after this many failed samples (0: never)"),
	OPT_BOOL("drop-caches", EXP(drop_caches), "no",
	    "sync and drop the page cache before every sample"),
	OPT_CHOICE("stop", EXP(stop_decided), "rounds", "rounds decided",
	    "rounds: run `rounds` good rounds; decided: run until every row "
	    "of stat-filter is decided (different, or equivalent within "
	    "`effect`) or max-rounds (a group-sequential rule at the same "
	    "error rates; --until decided)"),
	OPT_INT("max-rounds", EXP(max_rounds), "30", 2, 1000000,
	    "stop = decided: the most good rounds a workload runs"),
	OPT_FLOAT("effect", EXP(effect_pct), "2", 0.001, 1000,
	    "stop = decided: the smallest change worth finding, in percent "
	    "(rows within it are equivalent)"),
	OPT_TEXT("looks", EXP(looks), NULL,
	    "stop = decided: the good-round counts at which rows are looked "
	    "at (default 4 6 8 10 12 16 20 24 32 ... below max-rounds, and "
	    "max-rounds)"),
	OPT_CHOICE("equivalence", EXP(equiv_projected), "margin",
	    "margin projected",
	    "stop = decided: when a row that is not significant is "
	    "equivalent. margin: the interval of its change (paired rounds: "
	    "of the per-round ratios), widened by the values' resolution, "
	    "lies within +-effect; projected (the rule before the error "
	    "contract): also its 95% interval within +-effect/2 and its "
	    "trend, projected to max-rounds, not significant (null rows "
	    "then run to max-rounds)"),
	OPT_STR("control", EXP(control), NULL,
	    "nightly: the arm that measures the machine (an unchanged "
	    "program): every other arm is judged by its ratio to it, night "
	    "by night, so what slows both (the host) is no change"),
	OPT_TEXT("stat-filter", EXP(stat_filter), NULL,
	    "the -filter `abbench stat --db` applies to this experiment's runs "
	    "when given none (benchstat syntax): hides abbench's extra rows"),
	OPT_END
};

#define ARM(member)	OPT_AT(struct arm, member)

const struct opt_spec arm_opts[] = {
	OPT_STR("runtime", ARM(runtime), NULL,
	    "docker runtime name, or the OCI runtime binary (executor=oci)"),
	OPT_WORDS("runtime-args", ARM(runtime_args), NULL,
	    "extra runtime flags (oci: global flags of the runtime binary)"),
	OPT_FLOAT("cpu", ARM(cpus), NULL, 0.01, 4096,
	    "CPU limit in CPUs of the workload's program or containers "
	    "(docker --cpus, OCI and local cgroup quota; cpu-steady and "
	    "idle-memory limit CPU with their quota keys instead)"),
	OPT_SIZE("memory", ARM(memory), NULL, 0, 0,
	    "memory limit of the workload's program or containers (4g, 512m)"),
	OPT_WORDS("args", ARM(args), NULL,
	    "argv that replaces a command workload's args for this arm"),
	OPT_TEXT("description", ARM(description), NULL,
	    "free text, stored with the run"),
	OPT_PREFIXED("env.",
	    "environment variable NAME of the workload's program"),
	OPT_PREFIXED("host.",
	    "host setting applied while this arm runs (host.block.scheduler, "
	    "host.sysctl.NAME, ...)"),
	OPT_CHOICE("platform", ARM(platform), NULL, "ptrace kvm systrap",
	    "runsc --platform of this arm's sandboxes (executor oci; wins "
	    "over the workload's platform)", .text = ARM(platform_name)),
	OPT_END
};

static const char *const run_order_names[] = {
	[ORDER_ALTERNATE] = "alternate",
	[ORDER_ABBA] = "abba",
	[ORDER_RANDOM] = "random",
	[ORDER_SEQUENTIAL] = "sequential",
};

const char *
run_order_name(enum run_order o)
{
	if ((size_t)o >= ARRAY_SIZE(run_order_names))
		return "unknown";
	return run_order_names[o];
}

int
run_order_parse(const char *s, enum run_order *o)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(run_order_names); i++) {
		if (strcmp(s, run_order_names[i]) == 0) {
			*o = (enum run_order)i;
			return 0;
		}
	}
	return -1;
}

int
experiment_set(struct experiment *e, const char *key, const char *value,
    char **cause)
{
	const struct opt_spec	*o = opt_find(experiment_opts, key);
	char			*why = NULL;

	if (o == NULL)
		return set_cause(cause, "unknown key '%s' (abbench help "
		    "experiment lists them)", key);
	if (opt_set(o, e, value, &why) == -1) {
		set_cause(cause, "%s: %s", key, why);
		free(why);
		return -1;
	}
	return 0;
}

/* experiment_set() of one "KEY=VALUE" (--KEY=VALUE). */
static int
experiment_set_kv(struct experiment *e, const char *kv, char **cause)
{
	char	*k = xstrdup(kv), *v = strchr(k, '=');
	int	 rc;

	if (v == NULL) {
		free(k);
		return set_cause(cause, "expected KEY=VALUE, not '%s'", kv);
	}
	*v++ = '\0';
	rc = experiment_set(e, k, v, cause);
	free(k);
	return rc;
}

/* ---- Building the experiment ----------------------------------------- */

/* Check one key's value (experiment-int.h); a list value is kept whole. */
int
parser_check_kv(struct parser *p, const struct opt_spec *o,
    const struct kv *kv, const char *title, int matrix_ok,
    struct strvec *out)
{
	char	*cause = NULL;
	size_t	 i, j;

	if (o->form & OPT_FORM_LIST) {
		if (opt_check_value(o, kv->value, &cause) != 0)
			goto bad;
		strvec_push(out, kv->value);
		return 0;
	}
	if (strvec_split_words(out, kv->value, &cause) != 0)
		goto bad;
	if (out->n == 0)
		return parser_error(p, kv->line, kv->key, "missing value");
	/*
	 * "5 minutes" is one value with a blank, not a matrix of two: when
	 * no word is a value of the key, what is wrong is the value.
	 */
	if (out->n > 1) {
		for (i = 0; i < out->n; i++)
			if (opt_check_value(o, out->v[i], NULL) == 0)
				break;
		if (i == out->n && opt_check_value(o, kv->value,
		    &cause) != 0)
			goto bad;
	}
	if (out->n > 1) {
		if (!matrix_ok)
			return parser_error(p, kv->line, kv->key, "'%s' has "
			    "several values: a matrix is only allowed in a "
			    "[workload] section, not in %s", kv->value, title);
		if (o->flags & OPT_NOMATRIX)
			return parser_error(p, kv->line, kv->key, "'%s' has "
			    "several values, but this key cannot make a "
			    "matrix", kv->value);
	}
	for (i = 0; i < out->n; i++) {
		if (opt_check_value(o, out->v[i], &cause) != 0)
			goto bad;
		for (j = 0; j < i; j++) {
			if (strcmp(out->v[i], out->v[j]) == 0)
				return parser_error(p, kv->line, kv->key,
				    "'%s' appears twice in the matrix",
				    out->v[i]);
		}
	}
	return 0;
bad:
	parser_error(p, kv->line, kv->key, "%s", cause);
	free(cause);
	return -1;
}

static void
kv_push(struct kv **kv, size_t *n, size_t *cap, const char *key,
    const char *value, int line)
{
	XGROW(*kv, *n, *cap);
	(*kv)[*n].key = xstrdup(key);
	(*kv)[*n].value = xstrdup(value);
	(*kv)[*n].line = line;
	(*n)++;
}

static const struct workload_ops *
types_lookup(const struct workload_ops *const *types, const char *name)
{
	for (; types != NULL && *types != NULL; types++) {
		if (strcmp((*types)->type, name) == 0)
			return *types;
	}
	return NULL;
}

static const struct kv *
section_get(const struct section *s, const char *key)
{
	size_t	i;

	for (i = 0; i < s->nkv; i++) {
		if (strcmp(s->kv[i].key, key) == 0)
			return &s->kv[i];
	}
	return NULL;
}

/*
 * "; did you mean 'KEY'?" for an unknown key of a section: the keys of
 * the section itself (own, own2) first, else those of the other sections
 * and of every workload type, saying where the key goes. "" when nothing
 * is near. Malloc'd.
 */
static char *
key_hint(const struct parser *p, const char *key, const struct opt_spec *own,
    const struct opt_spec *own2)
{
	const struct workload_ops *const *t;
	struct nearest		 n;
	const char		*where = NULL;

	nearest_init(&n, key);
	opt_nearest(own, &n);
	opt_nearest(own2, &n);
	if (n.best != NULL)
		return xasprintf("; did you mean '%s'?", n.best);
	/* The right key in the wrong section. */
	if (opt_find(experiment_opts, key) != NULL)
		return xstrdup(": it is an [experiment] key");
	if (opt_find(arm_opts, key) != NULL)
		return xstrdup(": it is an [arm] key");
	if (opt_find(workload_common_opts, key) != NULL)
		return xstrdup(": it is a [workload] key");
	for (t = p->types; t != NULL && *t != NULL; t++)
		if (opt_find((*t)->opts, key) != NULL)
			return xasprintf(": it is a key of [workload] type "
			    "%s", (*t)->type);
	opt_nearest(experiment_opts, &n);
	if (n.best != NULL)
		where = "[experiment]";
	opt_nearest(arm_opts, &n);
	if (n.best != NULL && where == NULL)
		where = "[arm]";
	opt_nearest(workload_common_opts, &n);
	if (n.best != NULL && where == NULL)
		where = "[workload]";
	for (t = p->types; t != NULL && *t != NULL && n.best == NULL; t++) {
		opt_nearest((*t)->opts, &n);
		if (n.best != NULL)
			return xasprintf("; did you mean '%s' (a key of "
			    "[workload] type %s)?", n.best, (*t)->type);
	}
	if (n.best == NULL)
		return xstrdup("");
	return xasprintf("; did you mean '%s' (a key of %s)?", n.best, where);
}

static int
parser_experiment(struct parser *p, struct experiment *e,
    const struct section *s)
{
	struct strvec		 w = STRVEC_INIT;
	const struct opt_spec	*o;
	const struct kv		*kv;
	size_t			 i, cap = 0;

	for (i = 0; i < s->nkv; i++) {
		kv = &s->kv[i];
		strvec_clear(&w);
		if ((o = opt_find(experiment_opts, kv->key)) == NULL) {
			char	*hint = key_hint(p, kv->key, experiment_opts,
			    NULL);

			parser_error(p, kv->line, kv->key,
			    "unknown key in [experiment]%s", hint);
			free(hint);
			return -1;
		}
		if (parser_check_kv(p, o, kv, s->title, 0, &w) != 0) {
			strvec_clear(&w);
			return -1;
		}
		kv_push(&e->settings, &e->nsettings, &cap, kv->key, w.v[0],
		    kv->line);
		/* Checked already: this cannot fail. */
		opt_set(o, e, w.v[0], NULL);
	}
	strvec_clear(&w);
	return 0;
}

/* The spec of an arm key that a workload type lets arms set. */
static const struct opt_spec *
arm_workload_opt(const struct workload_ops *const *used, size_t nused,
    const char *key)
{
	const struct opt_spec	*o;
	size_t			 i;

	if ((o = opt_find(workload_common_opts, key)) != NULL &&
	    (o->flags & OPT_ARM))
		return o;
	for (i = 0; i < nused; i++) {
		o = opt_find(used[i]->opts, key);
		if (o != NULL && (o->flags & OPT_ARM))
			return o;
	}
	return NULL;
}

static int
env_name_ok(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	}
	return 1;
}

static int
parser_arm(struct parser *p, struct arm *arm, const struct section *s,
    const struct workload_ops *const *used, size_t nused)
{
	struct strvec		 w = STRVEC_INIT;
	const struct opt_spec	*o;
	const struct kv		*kv;
	const char		*v, *envname;
	char			*cause = NULL;
	size_t			 i, cap = 0, hostcap = 0;
	int			 rc = -1;

	arm->name = xstrdup(s->name);
	arm->line = s->line;
	for (i = 0; i < s->nkv; i++) {
		kv = &s->kv[i];
		strvec_clear(&w);
		if (str_startswith(kv->key, "host.")) {
			if (hostset_check(kv->key, kv->value, &cause) != 0) {
				parser_error(p, kv->line, kv->key, "%s",
				    cause);
				free(cause);
				goto out;
			}
			kv_push(&arm->kv, &arm->nkv, &cap, kv->key, kv->value,
			    kv->line);
			kv_push(&arm->host, &arm->nhost, &hostcap, kv->key,
			    kv->value, kv->line);
			continue;
		}
		o = opt_find(arm_opts, kv->key);
		if (o == NULL)
			o = arm_workload_opt(used, nused, kv->key);
		if (o == NULL) {
			char	*hint = key_hint(p, kv->key, arm_opts, NULL);

			parser_error(p, kv->line, kv->key, "unknown key in "
			    "%s%s", s->title, hint);
			free(hint);
			goto out;
		}
		if (parser_check_kv(p, o, kv, s->title, 0, &w) != 0)
			goto out;
		v = w.v[0];
		/* The arm table's keys into struct arm. */
		if (opt_bound(o) && opt_find(arm_opts, kv->key) == o &&
		    opt_set(o, arm, v, &cause) != 0) {
			parser_error(p, kv->line, kv->key, "%s", cause);
			free(cause);
			goto out;
		}
		if (str_startswith(kv->key, "env.")) {
			envname = kv->key + strlen("env.");
			if (!env_name_ok(envname)) {
				parser_error(p, kv->line, kv->key, "'%s' is "
				    "not a valid environment variable name",
				    envname);
				goto out;
			}
			/* One quoted string is unquoted, other text kept. */
			strvec_clear(&w);
			if (strvec_split_words(&w, kv->value, NULL) == 0 &&
			    w.n == 1 && kv->value[0] == '"')
				v = w.v[0];
			else
				v = kv->value;
			strvec_pushf(&arm->env, "%s=%s", envname, v);
		}
		kv_push(&arm->kv, &arm->nkv, &cap, kv->key, v, kv->line);
	}
	rc = 0;
out:
	strvec_clear(&w);
	return rc;
}

/*
 * Fill the workload's options structs from its keys and the arms' (every
 * value was checked already; a value an arm wrote for another type's key
 * of the same name may still not fit this one), and what follows from
 * them: its executor, timeout and drop-caches.
 */
static int
parser_bind(struct parser *p, const struct experiment *e,
    struct workload *wl)
{
	const struct workload_common	*c = &wl->common;
	const struct kv			*bad = NULL;
	char				*cause = NULL;

	if (workload_bind(wl, e->arms, e->narms, &bad, &cause) != 0) {
		parser_error(p, bad->line, bad->key, "%s", cause);
		free(cause);
		return -1;
	}
	wl->exec = c->executor_set ? exec_types[c->executor] :
	    exec_lookup(wl->ops->default_exec);
	wl->timeout_ns = c->timeout_set ? c->timeout_ns : e->timeout_ns;
	wl->drop_caches = c->drop_caches_set ? c->drop_caches :
	    e->drop_caches;
	return 0;
}

/* A workload key that takes part in the matrix. */
struct axis {
	size_t		 kv;		/* index into the section's keys */
	struct strvec	 words;
};

static void
workload_init_from(struct workload *wl, const struct section *s,
    const struct workload_ops *ops, const struct axis *axes, size_t naxes,
    const size_t *pick, struct strvec *values)
{
	struct strbuf	name = STRBUF_INIT;
	size_t		i, a, cap = 0, axcap = 0;
	char		*c;

	wl->base = xstrdup(s->name);
	wl->type = xstrdup(ops->type);
	wl->line = s->line;
	wl->ops = ops;
	strbuf_adds(&name, s->name);
	for (i = 0; i < s->nkv; i++) {
		for (a = 0; a < naxes; a++) {
			if (axes[a].kv == i)
				break;
		}
		if (a == naxes) {
			kv_push(&wl->kv, &wl->nkv, &cap, s->kv[i].key,
			    values[i].v[0], s->kv[i].line);
			continue;
		}
		kv_push(&wl->kv, &wl->nkv, &cap, s->kv[i].key,
		    axes[a].words.v[pick[a]], s->kv[i].line);
		kv_push(&wl->axes, &wl->naxes, &axcap, s->kv[i].key,
		    axes[a].words.v[pick[a]], s->kv[i].line);
		/* benchfmt names end at white space. */
		strbuf_addf(&name, "/%s=", s->kv[i].key);
		for (c = axes[a].words.v[pick[a]]; *c != '\0'; c++)
			strbuf_addc(&name, isspace((unsigned char)*c) ?
			    '_' : *c);
	}
	wl->name = strbuf_detach(&name);
}

static int
parser_workload(struct parser *p, struct experiment *e,
    const struct section *s, size_t *cap)
{
	struct strvec		*values;
	struct axis		*axes = NULL;
	const struct workload_ops *ops;
	const struct opt_spec	*o;
	const struct kv		*kv, *tkv;
	struct workload		*wl;
	size_t			 i, j, naxes = 0, ncomb = 1, *pick = NULL, c;
	int			 rc = -1;

	values = xcalloc(s->nkv ? s->nkv : 1, sizeof *values);
	if ((tkv = section_get(s, "type")) == NULL) {
		parser_error(p, s->line, "type", "missing in %s", s->title);
		goto out;
	}
	if ((ops = types_lookup(p->types, tkv->value)) == NULL) {
		struct strbuf	known = STRBUF_INIT;
		struct nearest	n;

		nearest_init(&n, tkv->value);
		for (j = 0; p->types != NULL && p->types[j] != NULL; j++) {
			strbuf_addf(&known, "%s%s", j ? ", " : "",
			    p->types[j]->type);
			nearest_try(&n, p->types[j]->type);
		}
		parser_error(p, tkv->line, "type", "unknown workload type "
		    "'%s'%s%s%s (known: %s)", tkv->value,
		    n.best != NULL ? ": did you mean '" : "",
		    n.best != NULL ? n.best : "", n.best != NULL ? "'?" : "",
		    known.buf != NULL ? known.buf : "none");
		strbuf_release(&known);
		goto out;
	}
	for (i = 0; i < s->nkv; i++) {
		kv = &s->kv[i];
		o = opt_find(workload_common_opts, kv->key);
		if (o == NULL)
			o = opt_find(ops->opts, kv->key);
		if (o == NULL) {
			char	*hint = key_hint(p, kv->key,
			    workload_common_opts, ops->opts);

			parser_error(p, kv->line, kv->key, "unknown key in %s "
			    "(type %s)%s", s->title, ops->type, hint);
			free(hint);
			goto out;
		}
		if (parser_check_kv(p, o, kv, s->title, 1, &values[i]) != 0)
			goto out;
		if (values[i].n > 1) {
			axes = xreallocarray(axes, naxes + 1, sizeof *axes);
			axes[naxes].kv = i;
			axes[naxes].words = values[i];
			memset(&values[i], 0, sizeof values[i]);
			if (ncomb > EXPERIMENT_MAX_COMBINATIONS /
			    axes[naxes].words.n) {
				naxes++;
				parser_error(p, s->line, NULL, "the matrix of "
				    "%s has more than %d combinations",
				    s->title, EXPERIMENT_MAX_COMBINATIONS);
				goto out;
			}
			ncomb *= axes[naxes].words.n;
			naxes++;
		}
	}
	for (o = ops->opts; o != NULL && o->name != NULL; o++) {
		if (!(o->flags & OPT_REQUIRED) || (o->form & OPT_FORM_PREFIX) ||
		    section_get(s, o->name) != NULL)
			continue;
		if (o->flags & OPT_ARM) {
			for (j = 0; j < e->narms; j++) {
				if (arm_get(&e->arms[j], o->name) == NULL)
					break;
			}
			if (j == e->narms)
				continue;
		}
		parser_error(p, s->line, o->name, "missing in %s", s->title);
		goto out;
	}

	pick = xcalloc(naxes ? naxes : 1, sizeof *pick);
	for (c = 0; c < ncomb; c++) {
		/* The first axis varies slowest. */
		size_t	rest = c;

		for (j = naxes; j-- > 0;) {
			pick[j] = rest % axes[j].words.n;
			rest /= axes[j].words.n;
		}
		XGROW(e->workloads, e->nworkloads, *cap);
		wl = &e->workloads[e->nworkloads++];
		memset(wl, 0, sizeof *wl);
		workload_init_from(wl, s, ops, axes, naxes, pick, values);
		if (parser_bind(p, e, wl) != 0)
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < s->nkv; i++)
		strvec_clear(&values[i]);
	free(values);
	for (j = 0; j < naxes; j++)
		strvec_clear(&axes[j].words);
	free(axes);
	free(pick);
	return rc;
}

/*
 * A type's validate() says "KEY: message"; point at KEY's line when the
 * workload sets it, else at the header, and name the matrix combination.
 */
static void
parser_validate_error(struct parser *p, const struct experiment *e,
    const struct workload *wl, const char *cause)
{
	const char	*colon = strchr(cause, ':');
	size_t		 klen = colon != NULL ? (size_t)(colon - cause) : 0;
	int		 line = 0;
	size_t		 i, j;

	for (i = 0; colon != NULL && i < wl->nkv; i++) {
		if (strlen(wl->kv[i].key) == klen &&
		    strncmp(wl->kv[i].key, cause, klen) == 0)
			line = wl->kv[i].line;
	}
	/* A key the workload does not set: the first arm's that does. */
	for (j = 0; colon != NULL && line == 0 && j < e->narms; j++) {
		for (i = 0; line == 0 && i < e->arms[j].nkv; i++) {
			if (strlen(e->arms[j].kv[i].key) == klen &&
			    strncmp(e->arms[j].kv[i].key, cause, klen) == 0)
				line = e->arms[j].kv[i].line;
		}
	}
	if (line == 0)
		line = wl->line;
	if (wl->naxes > 0)
		parser_error(p, line, NULL, "%s (in %s)", cause, wl->name);
	else
		parser_error(p, line, NULL, "%s", cause);
}

/* Whether a workload passes the arms' runtime to anything. */
static int
workload_uses_runtime(const struct experiment *e, const struct workload *wl,
    int args_too)
{
	size_t	i, j;

	if (wl->exec != NULL && (wl->exec->caps & EXEC_CONTAINER))
		return 1;
	if (!args_too)
		return 0;
	/* A program of its own may take it: {runtime} in its args. */
	for (i = 0; i < wl->nkv; i++)
		if (strstr(wl->kv[i].value, "{runtime}") != NULL)
			return 1;
	for (j = 0; j < e->narms; j++)
		for (i = 0; i < e->arms[j].nkv; i++)
			if (strcmp(e->arms[j].kv[i].key, "args") == 0 &&
			    strstr(e->arms[j].kv[i].value, "{runtime}") !=
			    NULL)
				return 1;
	return 0;
}

/*
 * An arm's runtime or runtime-args that no workload will use is an error
 * at its line: it would be stored (runtime-version-ARM) as if it had been.
 */
static int
parser_unused_arm_keys(struct parser *p, const struct experiment *e)
{
	static const char *const keys[] = { "runtime", "runtime-args" };
	size_t	a, k, i, w;

	for (a = 0; a < e->narms; a++) {
		const struct arm	*arm = &e->arms[a];

		for (i = 0; i < arm->nkv; i++)
			for (k = 0; k < ARRAY_SIZE(keys); k++) {
				if (strcmp(arm->kv[i].key, keys[k]) != 0)
					continue;
				for (w = 0; w < e->nworkloads; w++)
					if (workload_uses_runtime(e,
					    &e->workloads[w], k == 0))
						break;
				if (w < e->nworkloads)
					continue;
				parser_error(p, arm->kv[i].line, keys[k],
				    "no workload uses it: %s run on the "
				    "host, in no container (a gobench "
				    "program gets the runtime as {runtime} "
				    "in its args)", e->nworkloads == 1 ?
				    "the workload's programs" :
				    "the workloads' programs");
				return -1;
			}
	}
	return 0;
}

static char *
experiment_default_name(const char *path)
{
	const char	*b = strrchr(path, '/');
	size_t		 n;

	b = b != NULL ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	if (n == 0)
		return xstrdup("experiment");
	return xstrndup(b, n);
}

/*
 * --[WORKLOAD.]KEY=VALUE for a workload key: written into every [workload]
 * section whose type has KEY (or into the one named), over the file's
 * value, before anything is read from them; its value is then checked as
 * the file's would be. [experiment] keys are set later (experiment_set).
 */
static int
is_experiment_key(const char *kv)
{
	char	*key = xstrndup(kv, strcspn(kv, "="));
	int	 yes = opt_find(experiment_opts, key) != NULL;

	free(key);
	return yes;
}

static int
parser_override(struct parser *p, const char *kv)
{
	const struct workload_ops	*ops;
	const struct kv			*tkv;
	struct section			*s;
	const char			*eq = strchr(kv, '='), *k;
	char				*key, *wname = NULL;
	size_t				 i, j, hits = 0;

	key = xstrndup(kv, (size_t)(eq - kv));
	k = key;
	/* WORKLOAD.KEY when the part before the dot names a workload. */
	for (i = 0; strchr(key, '.') != NULL && i < p->nsections; i++) {
		s = &p->sections[i];
		/* The longest such name: workload names may hold dots. */
		if (s->kind == SECTION_WORKLOAD && strlen(s->name) <
		    strlen(key) && key[strlen(s->name)] == '.' &&
		    strncmp(s->name, key, strlen(s->name)) == 0 &&
		    (wname == NULL || strlen(s->name) > strlen(wname))) {
			free(wname);
			wname = xstrdup(s->name);
			k = key + strlen(s->name) + 1;
		}
	}
	for (i = 0; strcmp(k, "type") != 0 && i < p->nsections; i++) {
		s = &p->sections[i];
		if (s->kind != SECTION_WORKLOAD ||
		    (wname != NULL && strcmp(s->name, wname) != 0) ||
		    (tkv = section_get(s, "type")) == NULL ||
		    (ops = types_lookup(p->types, tkv->value)) == NULL ||
		    (opt_find(ops->opts, k) == NULL &&
		    opt_find(workload_common_opts, k) == NULL))
			continue;
		hits++;
		for (j = 0; j < s->nkv && strcmp(s->kv[j].key, k) != 0; j++)
			;
		if (j == s->nkv) {
			XGROW(s->kv, s->nkv, s->cap);
			s->kv[s->nkv].key = xstrdup(k);
			s->kv[s->nkv].line = 0;
			s->nkv++;
		} else
			free(s->kv[j].value);
		s->kv[j].value = xstrdup(eq + 1);
	}
	if (hits == 0)
		parser_error(p, 0, NULL, "--%s: %s", kv,
		    strcmp(k, "type") == 0 ? "a workload's type cannot be set "
		    "from the command line" : wname != NULL ? "the workload's "
		    "type has no such key (abbench run --help TYPE lists them)" :
		    "neither an [experiment] key nor a key of a workload's type "
		    "(abbench run --help TYPE lists them)");
	free(wname);
	free(key);
	return hits == 0 ? -1 : 0;
}

/* The line of an [experiment] key in the file (0: the command line's). */
static int
experiment_key_line(const struct experiment *e, const char *key)
{
	size_t	i;

	for (i = 0; i < e->nsettings; i++)
		if (strcmp(e->settings[i].key, key) == 0)
			return e->settings[i].line;
	return 0;
}

int
experiment_design(const struct experiment *e, struct seq_design *d,
    char **cause)
{
	int		 looks[SEQ_MAX_LOOKS];
	size_t		 n = 0;
	const char	*s = e->looks;
	char		*end;
	long		 v;

	while (s != NULL && *s != '\0') {
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (*s == '\0')
			break;
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno != 0 || v < 1 || v > INT_MAX ||
		    (*end != '\0' && *end != ' ' && *end != '\t' &&
		    *end != ','))
			return set_cause(cause, "'%s' is not a list of round "
			    "counts", e->looks);
		if (n == SEQ_MAX_LOOKS)
			return set_cause(cause, "more than %d looks",
			    SEQ_MAX_LOOKS);
		looks[n++] = (int)v;
		s = end;
	}
	if (seq_design_init(d, EXPERIMENT_ALPHA, e->effect_pct / 100,
	    e->max_rounds, looks, n, cause) == -1)
		return -1;
	if (e->equiv_projected)
		seq_design_projected(d);
	return 0;
}

/* stop = decided: a design that holds, and an order that allows it. */
static int
experiment_check_stop(struct parser *p, struct experiment *e)
{
	struct seq_design	 d;
	char			*why = NULL;

	if (!e->stop_decided)
		return 0;
	if (e->order == ORDER_SEQUENTIAL)
		return parser_error(p, experiment_key_line(e, "stop"), "stop",
		    "'decided' needs an interleaved order (alternate, abba or "
		    "random): order 'sequential' runs one arm's rounds after "
		    "the other's");
	if (experiment_design(e, &d, &why) == -1) {
		parser_error(p, experiment_key_line(e, e->looks != NULL ?
		    "looks" : "max-rounds"), e->looks != NULL ? "looks" :
		    "max-rounds", "%s", why);
		free(why);
		return -1;
	}
	return 0;
}

/* control: one of the arms, and not the only one. */
static int
experiment_check_control(struct parser *p, struct experiment *e)
{
	size_t	i;

	if (e->control == NULL)
		return 0;
	for (i = 0; i < e->narms; i++)
		if (strcmp(e->arms[i].name, e->control) == 0)
			break;
	if (i == e->narms)
		return parser_error(p, experiment_key_line(e, "control"),
		    "control", "no arm is named '%s'", e->control);
	if (e->narms < 2)
		return parser_error(p, experiment_key_line(e, "control"),
		    "control", "the control arm '%s' is the only arm: nightly "
		    "judges the other arms by their ratio to it", e->control);
	return 0;
}

static struct experiment *
experiment_parse_full(const char *path, const char *text, size_t len,
    const struct workload_ops *const *types, char *const *set, char **cause)
{
	struct parser			 p;
	struct experiment		*e;
	const struct workload_ops	**used = NULL;
	const struct workload_ops	*ops;
	const struct section		*s;
	const struct kv			*tkv;
	size_t				 i, j, nused = 0, nexp = 0, narm = 0;
	size_t				 nwl = 0, wlcap = 0;
	char				*vcause = NULL;

	memset(&p, 0, sizeof p);
	p.path = path;
	p.text = text;
	p.len = len;
	p.types = types;
	{
		size_t	bad = 0, line = 1, k;

		/* Names go to JSON, HTML and plots: they must be text. */
		if (!utf8_valid(text, len, &bad)) {
			for (k = 0; k < bad; k++)
				line += text[k] == '\n';
			set_cause(cause, "%s:%zu: the file is not UTF-8 "
			    "(byte 0x%02x): save it as UTF-8", path, line,
			    (unsigned char)text[bad]);
			return NULL;
		}
	}

	e = xcalloc(1, sizeof *e);
	e->path = xstrdup(path);
	e->text = xmalloc(len + 1);
	memcpy(e->text, text, len);
	e->text[len] = '\0';
	opt_set_defaults(experiment_opts, e);
	e->name = experiment_default_name(path);

	if (parser_run(&p) != 0)
		goto fail;
	for (i = 0; i < p.nsections; i++) {
		s = &p.sections[i];
		nexp += s->kind == SECTION_EXPERIMENT;
		narm += s->kind == SECTION_ARM;
		nwl += s->kind == SECTION_WORKLOAD;
	}
	if (nexp == 0) {
		parser_error(&p, 0, NULL, "no [experiment] section");
		goto fail;
	}
	if (narm == 0) {
		parser_error(&p, 0, NULL, "no [arm NAME] section");
		goto fail;
	}
	if (nwl == 0) {
		parser_error(&p, 0, NULL, "no [workload NAME] section");
		goto fail;
	}

	/* Workload keys from the command line, as if the file had them. */
	for (i = 0; set != NULL && set[i] != NULL; i++) {
		if (!is_experiment_key(set[i]) &&
		    parser_override(&p, set[i]) != 0)
			goto fail;
	}

	/* Arms may set the OPT_ARM keys of the types in use. */
	for (i = 0; i < p.nsections; i++) {
		s = &p.sections[i];
		if (s->kind != SECTION_WORKLOAD ||
		    (tkv = section_get(s, "type")) == NULL ||
		    (ops = types_lookup(types, tkv->value)) == NULL)
			continue;
		for (j = 0; j < nused && used[j] != ops; j++)
			;
		if (j == nused) {
			used = xreallocarray(used, nused + 1, sizeof *used);
			used[nused++] = ops;
		}
	}

	/* [experiment] first: workloads default to its timeout. */
	for (i = 0; i < p.nsections; i++) {
		s = &p.sections[i];
		if (s->kind == SECTION_EXPERIMENT &&
		    parser_experiment(&p, e, s) != 0)
			goto fail;
	}
	/* Then --KEY=VALUE over it, before the workloads take its defaults. */
	for (i = 0; set != NULL && set[i] != NULL; i++) {
		if (!is_experiment_key(set[i]))
			continue;
		if (experiment_set_kv(e, set[i], &vcause) == -1) {
			p.cause = xasprintf("%s: --%s: %s", path, set[i], vcause);
			free(vcause);
			goto fail;
		}
	}
	if (experiment_check_stop(&p, e) != 0)
		goto fail;
	e->arms = xcalloc(narm, sizeof *e->arms);
	for (i = 0; i < p.nsections; i++) {
		s = &p.sections[i];
		if (s->kind != SECTION_ARM)
			continue;
		e->arms[e->narms].index = e->narms;
		if (parser_arm(&p, &e->arms[e->narms++], s, used, nused) != 0)
			goto fail;
	}
	if (experiment_check_control(&p, e) != 0)
		goto fail;
	for (i = 0; i < p.nsections; i++) {
		s = &p.sections[i];
		if (s->kind == SECTION_WORKLOAD &&
		    parser_workload(&p, e, s, &wlcap) != 0)
			goto fail;
	}
	if (e->nworkloads > EXPERIMENT_MAX_COMBINATIONS) {
		parser_error(&p, 0, NULL, "more than %d workloads after "
		    "matrix expansion", EXPERIMENT_MAX_COMBINATIONS);
		goto fail;
	}
	for (i = 0; i < e->nworkloads; i++) {
		struct workload	*wl = &e->workloads[i];

		if (workload_platform_check(e, wl, &vcause) == 0 &&
		    (wl->ops->validate == NULL ||
		    wl->ops->validate(e, wl, &vcause) == 0))
			continue;
		parser_validate_error(&p, e, wl, vcause);
		free(vcause);
		goto fail;
	}
	if (parser_unused_arm_keys(&p, e) != 0)
		goto fail;
	free(used);
	parser_release(&p);
	return e;

fail:
	if (cause != NULL) {
		*cause = p.cause;
		p.cause = NULL;
	}
	free(used);
	parser_release(&p);
	experiment_free(e);
	return NULL;
}

struct experiment *
experiment_parse_types(const char *path, const char *text, size_t len,
    const struct workload_ops *const *types, char **cause)
{
	return experiment_parse_full(path, text, len, types, NULL, cause);
}

struct experiment *
experiment_parse(const char *path, const char *text, size_t len,
    char **cause)
{
	return experiment_parse_full(path, text, len, workload_types, NULL,
	    cause);
}

struct experiment *
experiment_parse_set(const char *path, const char *text, size_t len,
    char *const *set, char **cause)
{
	return experiment_parse_full(path, text, len, workload_types, set,
	    cause);
}

struct experiment *
experiment_load(const char *path, char **cause)
{
	return experiment_load_set(path, NULL, cause);
}

struct experiment *
experiment_load_set(const char *path, char *const *set, char **cause)
{
	struct experiment	*e;
	char			*text, *file = experiment_find(path);
	size_t			 len;

	if ((text = read_file(file, &len, cause)) == NULL) {
		free(file);
		return NULL;
	}
	e = experiment_parse_set(file, text, len, set, cause);
	free(text);
	free(file);
	return e;
}

void
experiment_free(struct experiment *e)
{
	size_t	i;

	if (e == NULL)
		return;
	for (i = 0; i < e->narms; i++) {
		struct arm	*a = &e->arms[i];

		free(a->name);
		kv_release(a->kv, a->nkv);
		opt_release(arm_opts, a);
		strvec_clear(&a->env);
		kv_release(a->host, a->nhost);
	}
	free(e->arms);
	for (i = 0; i < e->nworkloads; i++) {
		struct workload	*wl = &e->workloads[i];

		free(wl->name);
		free(wl->base);
		free(wl->type);
		workload_unbind(wl);
		kv_release(wl->kv, wl->nkv);
		kv_release(wl->axes, wl->naxes);
	}
	free(e->workloads);
	kv_release(e->settings, e->nsettings);
	free(e->path);
	free(e->text);
	free(e->name);
	free(e->pkg);
	free(e->description);
	free(e->stat_filter);
	free(e->control);
	free(e->looks);
	free(e);
}
