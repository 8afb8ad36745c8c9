/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench stat --db: the inputs from the store (stat-db.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "harness/analysis/run-advice.h"
#include "harness/stat-db.h"
#include "lib/util.h"
#include "results/benchstat-run.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/benchstat.h"

/* Benchstat's messages and tables printed, bs freed (both stat paths). */

void
stat_flush_err(struct benchstat *bs)
{
	struct strbuf	err = STRBUF_INIT;

	benchstat_take_stderr(bs, &err);
	if (err.len > 0)
		fwrite(err.buf, 1, err.len, stderr);
	strbuf_release(&err);
}

static char	*fail_hint;

void
stat_hint(char *hint)
{
	free(fail_hint);
	fail_hint = hint;
}

int
stat_fail(struct benchstat *bs, char *cause)
{
	if (bs != NULL)
		stat_flush_err(bs);
	fprintf(stderr, "benchstat: %s\n", cause);
	free(cause);
	if (fail_hint != NULL && isatty(STDERR_FILENO))
		fprintf(stderr, "abbench: %s\n", fail_hint);
	stat_hint(NULL);
	benchstat_free(bs);
	/* QUIRK: benchstat exits 0 after runtime errors. */
	return EXIT_OK;
}

int
stat_finish(struct benchstat *bs)
{
	struct strbuf	out = STRBUF_INIT, err = STRBUF_INIT;
	int		rc;

	rc = benchstat_finish(bs, &out, &err);
	if (out.len > 0)
		fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	if (err.len > 0)
		fwrite(err.buf, 1, err.len, stderr);
	strbuf_release(&out);
	strbuf_release(&err);
	benchstat_free(bs);
	return rc != 0 ? rc : EXIT_OK;
}

/* --db problems are abbench's, not benchstat's: exit 2 like other input. */
int
stat_db_fail(struct benchstat *bs, struct store *st, char *cause)
{
	error("stat: %s", cause);
	free(cause);
	if (st != NULL)
		store_close(st);
	benchstat_free(bs);
	return EXIT_USAGE;
}

/*
 * Find the run of a RUN or RUN:ARM selector: the whole text first (a run
 * name may hold ':'), then the part before the last ':'.
 */
static int
stat_db_find(struct store *st, const char *sel, struct store_run *run,
    char **arm, char **cause)
{
	const char	*colon = strrchr(sel, ':');
	char		*runsel;
	int		 rc;

	*arm = NULL;
	memset(run, 0, sizeof(*run));
	if (store_run_find(st, sel, run, cause) == 0)
		return 0;
	if (colon == NULL)
		return -1;
	runsel = xstrndup(sel, (size_t)(colon - sel));
	memset(run, 0, sizeof(*run));
	free(*cause);
	*cause = NULL;
	rc = store_run_find(st, runsel, run, cause);
	free(runsel);
	if (rc == 0)
		*arm = xstrdup(colon + 1);
	return rc;
}

/* Whether a projection (-row, -col, -table) names key, e.g. "arm@(a b)". */
static int
stat_proj_has(const char *proj, const char *key)
{
	const char	*p = proj, *end;
	size_t		 n, k = strlen(key);

	while (p != NULL && *p != '\0') {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		while (n > 0 && p[0] == ' ') {
			p++;
			n--;
		}
		if (n >= k && memcmp(p, key, k) == 0 && (n == k ||
		    p[k] == '@' || p[k] == ' '))
			return 1;
		p = end != NULL ? end + 1 : NULL;
	}
	return 0;
}

/* Whether a -filter query tests key ("set.stop:decided", "-key:x"). */
static int
stat_filter_has(const char *filter, const char *key)
{
	const char	*p = filter;
	size_t		 k = strlen(key);

	while ((p = strstr(p, key)) != NULL) {
		if ((p == filter || strchr(" \t(-", p[-1]) != NULL) &&
		    p[k] == ':')
			return 1;
		p++;
	}
	return 0;
}

/*
 * The run's metadata (store_key_is_metadata: the load of the moment, how
 * the run was measured) is no config line of its exports, so that runs
 * measured differently compare in one table. A projection or filter that
 * names such a key asks for it: it is then added as a config line.
 */
static int
stat_db_meta(struct store *st, const struct benchstat_opts *o,
    const struct store_run *run, struct strvec *keys, struct strvec *values,
    char **cause)
{
	struct store_kv	*kv;
	size_t		 n, i;
	const char	*key;
	char		*v, *p;

	if (strcmp(run->status, RUN_IMPORTED) == 0)
		return 0;
	if (store_config_list(st, run->id, &kv, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		key = kv[i].key;
		if (kv[i].arm[0] != '\0' || kv[i].value[0] == '\0' ||
		    !store_key_is_metadata(key) || strchr(key, ' ') != NULL)
			continue;
		if (!((o->row != NULL && stat_proj_has(o->row, key)) ||
		    (o->col != NULL && stat_proj_has(o->col, key)) ||
		    (o->table != NULL && stat_proj_has(o->table, key)) ||
		    (o->filter != NULL && stat_filter_has(o->filter, key))))
			continue;
		v = xstrdup(kv[i].value);
		for (p = v; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		strvec_push(keys, key);
		strvec_push_nodup(values, v);
	}
	store_kv_free(kv, n);
	return 0;
}

/*
 * The selectors of --db: "all" stands for every run in the store (a merged
 * fleet database: one run per shape), oldest first, as run ids.
 */
static int
stat_db_expand(struct store *st, char **sels, int nsels, struct strvec *out,
    char **cause)
{
	struct store_run	*runs;
	size_t			 n, k;
	int			 i;

	for (i = 0; i < nsels; i++) {
		if (strcmp(sels[i], "all") != 0) {
			strvec_push(out, sels[i]);
			continue;
		}
		if (store_runs_list(st, &runs, &n, cause) != 0)
			return -1;
		for (k = 0; k < n; k++) {
			strvec_pushf(out, "%lld", (long long)runs[k].id);
			store_run_release(&runs[k]);
		}
		free(runs);
	}
	return 0;
}

/*
 * An arm's ok values and its executions that were not ok (failed, timed
 * out, watched): stat leaves the latter out, so an arm with none of the
 * former would vanish from the tables without a word. The ok ones are
 * the table's; the store is asked for the others only when there are none.
 */
static int
stat_db_arm_counts(struct store *st, int64_t run_id, const char *arm,
    const struct sampletab *t, size_t *nok, size_t *nbad, char **cause)
{
	struct store_value	*v;
	size_t			 n, i;
	int			 last = -1, a = sampletab_arm(t, arm);

	*nok = *nbad = 0;
	for (i = 0; a >= 0 && i < t->ncells; i++)
		if (t->cells[i].arm == (size_t)a)
			*nok += t->cells[i].n;
	if (*nok > 0)
		return 0;
	if (store_values(st, run_id, arm, STORE_Q_FAILED, &v, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].status, SAMPLE_OK) == 0)
			(*nok)++;
		else if (v[i].plan_idx != last || *nbad == 0)
			(*nbad)++;
		last = v[i].plan_idx;
	}
	store_values_free(v, n);
	return 0;
}

/*
 * Inputs from the store: each RUN[:ARM] selector, one input per arm, from
 * the run's sample table (read once a run) as benchstat reads the run's
 * export (results/benchstat-run.h). When a projection names the key
 * "arm", each input carries "arm: NAME" as a config key, so that arms can
 * be columns while another key (vcpus, partition) makes the rows.
 */
int
stat_db(struct benchstat *bs, const struct benchstat_opts *o,
    struct store *st, const char *dbpath, char **argsels, int nargsels)
{
	struct store_run	 run;
	struct sampletab	*t = NULL;
	struct sampletab_filter	 f = { NULL, 0, 0 };
	char			*cause = NULL, *label, *arm = NULL;
	size_t			 a;
	int			 i, found, rc = 0, nsels, armkey, bad = 0;
	struct strvec		 expanded = STRVEC_INIT, notes = STRVEC_INIT;
	struct strvec		 empty = STRVEC_INIT, leftout = STRVEC_INIT;
	struct strvec		 keys = STRVEC_INIT, values = STRVEC_INIT;
	char			**sels;
	size_t			 nok, nbad, runok, runbad, allok = 0, nnotes;

	memset(&run, 0, sizeof(run));
	armkey = (o->row != NULL && stat_proj_has(o->row, "arm")) ||
	    (o->col != NULL && stat_proj_has(o->col, "arm")) ||
	    (o->table != NULL && stat_proj_has(o->table, "arm"));
	if (stat_db_expand(st, argsels, nargsels, &expanded, &cause) != 0)
		return stat_db_fail(bs, st, cause);
	if (expanded.n == 0) {
		strvec_clear(&expanded);
		return stat_db_fail(bs, st, xasprintf("no runs in '%s'",
		    dbpath));
	}
	sels = expanded.v;
	nsels = (int)expanded.n;
	for (i = 0; i < nsels && !bad; i++) {
		if (stat_db_find(st, sels[i], &run, &arm, &cause) < 0) {
			bad = 1;
			break;
		}
		found = 0;
		runok = runbad = 0;
		strvec_clear(&keys);
		strvec_clear(&values);
		f.arm = arm;
		nnotes = notes.n;
		for (a = 0; a < run.narms && !bad; a++) {
			if (arm != NULL && strcmp(arm, run.arms[a]) != 0)
				continue;
			if (!found) {
				if (armkey) {
					strvec_push(&keys, "arm");
					strvec_push(&values, "");
				}
				if ((t = sampletab_load_src(st, run.id, &f,
				    &cause)) == NULL ||
				    stat_db_meta(st, o, &run, &keys, &values,
				    &cause) < 0) {
					bad = 1;
					break;
				}
			}
			found = 1;
			if (armkey) {
				free(values.v[0]);
				values.v[0] = xstrdup(run.arms[a]);
			}
			if (stat_db_arm_counts(st, run.id, run.arms[a], t,
			    &nok, &nbad, &cause) < 0) {
				bad = 1;
				break;
			}
			runok += nok;
			runbad += nbad;
			if (nsels == 1)
				label = xstrdup(run.arms[a]);
			else if (arm != NULL)
				label = xstrdup(sels[i]);
			else
				label = xasprintf("%s:%s", sels[i],
				    run.arms[a]);
			rc = benchstat_add_run(bs, st, &run, t, run.arms[a],
			    label, &keys, &values, &cause);
			/* n counts lines: what it counts, after the tables. */
			if (rc == 0)
				run_advice_lines_tab(t, run.arms[a], label,
				    &notes);
			if (nok == 0)
				strvec_pushf(&leftout, "arm '%s': no ok samples "
				    "(%zu failed): left out", label, nbad);
			free(label);
			if (rc < 0) {
				/* the store's error, or benchstat's (-2) */
				bad = rc == -2 ? 2 : 1;
				break;
			}
			stat_flush_err(bs);
		}
		sampletab_free(t);
		t = NULL;
		run_advice_lines_one(&notes, nnotes);
		if (!bad && !found) {
			char	*what = xasprintf("run '%s'", sels[i]);

			cause = arm != NULL ? store_run_no_arm(&run, what,
			    arm) : xasprintf("%s has no arms", what);
			free(what);
			bad = 1;
		}
		if (!bad && runok == 0)
			strvec_pushf(&empty, "run %lld has no ok samples%s%s%s "
			    "(%zu failed): nothing to compare (abbench db show "
			    "%lld lists the failures)", (long long)run.id,
			    arm != NULL ? " in arm '" : "", arm != NULL ? arm :
			    "", arm != NULL ? "'" : "", runbad,
			    (long long)run.id);
		allok += runok;
		store_run_release(&run);
		memset(&run, 0, sizeof(run));
		free(arm);
		arm = NULL;
	}
	strvec_clear(&keys);
	strvec_clear(&values);
	strvec_clear(&expanded);
	if (bad) {
		free(arm);
		strvec_clear(&notes);
		strvec_clear(&empty);
		strvec_clear(&leftout);
		if (bad == 2) {
			store_close(st);
			return stat_fail(bs, cause);
		}
		return stat_db_fail(bs, st, cause);
	}
	store_close(st);
	/*
	 * Not one ok value anywhere: benchstat would print nothing and exit
	 * 0, which reads as "no difference". Say why, and exit 1 as a run
	 * with failed samples does.
	 */
	if (allok == 0) {
		for (a = 0; a < empty.n; a++)
			error("%s", empty.v[a]);
		strvec_clear(&empty);
		strvec_clear(&leftout);
		strvec_clear(&notes);
		benchstat_free(bs);
		return EXIT_FAIL;
	}
	rc = stat_finish(bs);
	/* After the tables (standard output stays benchstat's). */
	for (a = 0; a < leftout.n; a++)
		fprintf(stderr, "abbench: %s\n", leftout.v[a]);
	for (a = 0; a < notes.n; a++)
		fprintf(stderr, "abbench: note: %s\n", notes.v[a]);
	if (notes.n > 0)
		fprintf(stderr, "abbench: note: %s\n", run_advice_lines_why);
	strvec_clear(&notes);
	strvec_clear(&empty);
	strvec_clear(&leftout);
	return rc;
}

/*
 * The `stat-filter` of the experiment the first RUN selector ran: the
 * shipped experiments hide abbench's extra rows (per container, overlap,
 * throttling) with it, so the table reads like the report's. NULL when
 * the run has none. malloc'd.
 */
char *
stat_db_default_filter(struct store *st, const char *sel)
{
	struct store_run	 run;
	char			*cause = NULL, *arm = NULL, *f = NULL;

	if (stat_db_find(st, sel, &run, &arm, &cause) == 0) {
		f = experiment_stat_filter(run.experiment_path,
		    run.experiment_text);
		store_run_release(&run);
	}
	free(cause);
	free(arm);
	return f;
}
