/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly verdict (see nightly.h): gather a run's history from the
 * store (the candidate's and the baseline's executions, the per-night
 * medians, the units' directions, the calibrated thresholds), have
 * stats/nightly-judge.c judge it, and format the verdicts.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analysis/nightly-state.h"
#include "harness/analysis/nightly.h"
#include "harness/core/experiment.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "results/calibration.h"
#include "results/night-summary.h"
#include "results/sampletab-load.h"
#include "results/store.h"
#include "stats/nightly-judge.h"
#include "stats/quantile.h"
#include "stats/sampletab.h"

/* Per-row working state while the history is read. */
struct nightly_acc {
	struct nightly_night *nights;	/* median NaN when missing */
};

void
nightly_options_init(struct nightly_options *o)
{
	struct nightly_judge_options	jo;

	nightly_judge_options_init(&jo);
	memset(o, 0, sizeof(*o));
	o->baseline = jo.window;
	o->history = 0;
	o->carry = 1;
	o->threshold = 0.02;
	o->alpha = jo.alpha;
}

/*
 * The host class of a run placed by a cluster scheduler: its partition and
 * shape ("c4/vcpus=4"), or NULL for a run on a named host. Cloud nodes are
 * new every night: their history is their class's, not their hostname's.
 */
char *
nightly_host_class(struct store *st, int64_t run_id)
{
	struct store_kv	*kv = NULL;
	size_t		 n = 0, i;
	const char	*part = NULL, *vcpus = NULL;
	char		*class = NULL;

	if (store_config_list(st, run_id, &kv, &n, NULL) == -1)
		return NULL;
	for (i = 0; i < n; i++) {
		if (kv[i].arm[0] != '\0')
			continue;
		if (strcmp(kv[i].key, "partition") == 0)
			part = kv[i].value;
		else if (strcmp(kv[i].key, "vcpus") == 0)
			vcpus = kv[i].value;
	}
	if (part != NULL)
		class = xasprintf("%s/vcpus=%s", part, vcpus != NULL ? vcpus :
		    "?");
	store_kv_free(kv, n);
	return class;
}

static int
nightly_same_place(struct store *st, const struct store_run *r,
    const struct store_run *cand, const char *cand_class)
{
	char	*class;
	int	 same;

	if (cand_class == NULL)
		return strcmp(r->host ? r->host : "", cand->host ?
		    cand->host : "") == 0;
	class = nightly_host_class(st, r->id);
	same = class != NULL && strcmp(class, cand_class) == 0;
	free(class);
	return same;
}

static int
nightly_find_runs(struct store *st, const struct store_run *cand,
    const struct nightly_options *o, struct nightly_result *out,
    char **cause)
{
	struct store_run	*runs = NULL;
	size_t			 nruns = 0, i, nprev = 0, first;
	int64_t			*prev = NULL, *wall;

	if (store_runs_named(st, cand->name, &runs, &nruns, cause) == -1)
		return -1;
	prev = xcalloc(nruns + 1, sizeof(*prev));
	wall = xcalloc(nruns + 1, sizeof(*wall));
	for (i = 0; i < nruns; i++) {
		if (runs[i].id >= cand->id ||
		    strcmp(runs[i].status, RUN_DONE) != 0 ||
		    strcmp(runs[i].name, cand->name) != 0 ||
		    !nightly_same_place(st, &runs[i], cand, out->host_class))
			continue;
		wall[nprev] = runs[i].started_wall_ns;
		prev[nprev++] = runs[i].id;
	}
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);

	first = 0;
	if (o->history > 0 && nprev + 1 > o->history)
		first = nprev + 1 - o->history;
	out->nhistory = nprev - first + 1;
	out->history_ids = xcalloc(out->nhistory, sizeof(int64_t));
	/* Nights count from 1, the experiment's first run here, whatever
	 * the window: a night keeps its number from one night to the next. */
	out->night_no = xcalloc(out->nhistory, sizeof(int64_t));
	for (i = 0; i < out->nhistory; i++)
		out->night_no[i] = (int64_t)(first + i + 1);
	memcpy(out->history_ids, prev + first,
	    (nprev - first) * sizeof(int64_t));
	out->history_ids[out->nhistory - 1] = cand->id;
	out->night_wall = xcalloc(out->nhistory, sizeof(int64_t));
	memcpy(out->night_wall, wall + first,
	    (nprev - first) * sizeof(int64_t));
	out->night_wall[out->nhistory - 1] = cand->started_wall_ns;
	out->resumed = out->nhistory;
	free(wall);

	first = nprev > o->baseline ? nprev - o->baseline : 0;
	out->nbaseline = nprev - first;
	out->baseline_ids = xcalloc(out->nbaseline + 1, sizeof(int64_t));
	memcpy(out->baseline_ids, prev + first,
	    out->nbaseline * sizeof(int64_t));
	free(prev);
	return 0;
}

/* Night *t from a cell's per-execution values (a gobench -count's lines
 * count once, by their median). */
static void
nightly_night_of(struct nightly_night *t, const struct sampletab_cell *c)
{
	nightly_night_of_values(t, c->x, c->nx);
}

/*
 * Night h of the rows from its run's summary in the store (1), or 0 when
 * it has none that is current. keymap[key id]: the row of that key, -1
 * none; loaded (again) when a key is past its end.
 */
static int
nightly_night_summary(struct store *st, struct nightly_result *r,
    const struct sampletab *t, struct nightly_acc *acc, size_t h,
    ssize_t **keymap, size_t *nmap, char **cause)
{
	struct night_entry	*e = NULL;
	struct night_key	*k;
	const struct sampletab_cell *c;
	size_t			 ne = 0, nk, i, j;
	int			 rc;

	if ((rc = store_summary_read(st, r->history_ids[h], &e, &ne,
	    cause)) != 1)
		return rc;
	for (i = 0; i < ne; i++) {
		if (e[i].key < 0)
			continue;
		if ((size_t)e[i].key >= *nmap) {
			if (store_summary_keys(st, &k, &nk, cause) != 0) {
				free(e);
				return -1;
			}
			*nmap = nk > 0 ? (size_t)k[nk - 1].id + 1 : 0;
			if ((size_t)e[i].key >= *nmap)
				*nmap = (size_t)e[i].key + 1;
			*keymap = xreallocarray(*keymap, *nmap,
			    sizeof(**keymap));
			memset(*keymap, 0xff, *nmap * sizeof(**keymap));
			for (j = 0; j < nk; j++) {
				c = sampletab_lookup(t, k[j].arm,
				    k[j].benchmark, k[j].unit);
				if (c != NULL)
					(*keymap)[k[j].id] = c - t->cells;
			}
			store_summary_keys_free(k, nk);
		}
		if ((*keymap)[e[i].key] >= 0 && e[i].night.n > 0)
			acc[(*keymap)[e[i].key]].nights[h] = e[i].night;
	}
	free(e);
	return 1;
}

/*
 * Read the nights from.. of the history into the rows and accumulators:
 * the candidate's sample table makes the rows (each arm, benchmark and
 * unit it has), each earlier night's summary or table its values there;
 * the nights before from are unknown (a state keeps what is needed).
 */
static int
nightly_gather(struct store *st, struct nightly_result *r, size_t from,
    struct nightly_acc **accp, char **cause)
{
	struct sampletab	*t, *ht;
	struct nightly_acc	*acc;
	ssize_t			*keymap = NULL;
	size_t			 h, row, nmap = 0;
	int			 rc;

	if ((t = sampletab_load(st, r->run_id, NULL, cause)) == NULL)
		return -1;
	r->nrows = t->ncells;
	r->rows = xcalloc(r->nrows + 1, sizeof(*r->rows));
	acc = xcalloc(r->nrows + 1, sizeof(*acc));
	*accp = acc;
	for (row = 0; row < r->nrows; row++) {
		const struct sampletab_cell	*c = &t->cells[row];

		r->rows[row].arm = xstrdup(t->arms[c->arm]);
		r->rows[row].benchmark = xstrdup(t->rows[c->row].benchmark);
		r->rows[row].unit = xstrdup(t->rows[c->row].unit);
		acc[row].nights = xcalloc(r->nhistory,
		    sizeof(*acc[row].nights));
		for (h = 0; h < r->nhistory; h++) {
			acc[row].nights[h].median = NAN;
			acc[row].nights[h].se = NAN;
			acc[row].nights[h].unknown = h < from;
		}
		nightly_night_of(&acc[row].nights[r->nhistory - 1], c);
	}
	for (h = from; h + 1 < r->nhistory; h++) {
		if (r->history_ids[h] == r->run_id)
			continue;
		/* A done run's nights as the store keeps them, else its
		 * values. */
		rc = nightly_night_summary(st, r, t, acc, h, &keymap, &nmap,
		    cause);
		if (rc == 1)
			continue;
		if (rc == -1 || (ht = sampletab_load(st, r->history_ids[h],
		    NULL, cause)) == NULL) {
			sampletab_free(t);
			free(keymap);
			return -1;
		}
		for (row = 0; row < r->nrows; row++) {
			const struct sampletab_cell	*c = sampletab_lookup(ht,
			    r->rows[row].arm, r->rows[row].benchmark,
			    r->rows[row].unit);

			if (c != NULL && c->nx > 0)
				nightly_night_of(&acc[row].nights[h], c);
		}
		sampletab_free(ht);
	}
	sampletab_free(t);
	free(keymap);
	return 0;
}

/*
 * threshold auto: the rows of the latest calibration of the candidate's
 * experiment on its host class into *crows (none: *ncrows stays 0).
 */
static int
nightly_calibration(struct store *st, const struct store_run *cand,
    struct nightly_result *out, struct store_calib_row **crows,
    size_t *ncrows, char **cause)
{
	struct store_calibration	 cal;
	char				*hc;
	int				 have;

	if ((hc = store_run_host_class(st, cand->id, cause)) == NULL)
		return -1;
	have = store_calibration_latest(st, cand->name, hc, &cal, cause);
	free(hc);
	if (have == -1)
		return -1;
	if (have == 1) {
		out->calib_run = cal.run_id;
		store_calibration_release(&cal);
		if (store_calibration_rows(st, out->calib_run, crows, ncrows,
		    cause) == -1)
			return -1;
	}
	return 0;
}

/* What row i of r is judged on: its values, its unit's direction (the
 * run's better= metadata, else its name) and its threshold. */
static void
nightly_input(const struct nightly_result *r, size_t i,
    struct nightly_acc *acc, const struct store_kv *units, size_t nunits,
    const struct store_calib_row *crows, size_t ncrows,
    struct nightly_input *in)
{
	const struct nightly_row	*row = &r->rows[i];
	const char			*better = NULL;
	size_t				 j;

	for (j = 0; j < nunits; j++)
		if (strcmp(units[j].arm, row->unit) == 0 &&
		    strcmp(units[j].key, "better") == 0)
			better = units[j].value;
	for (j = 0; j < r->nhistory; j++)
		acc->nights[j].ack = r->acks != NULL && r->acks[j];
	memset(in, 0, sizeof(*in));
	in->unit = row->unit;
	in->better = nightly_unit_better(row->unit, better);
	in->nights = acc->nights;
	in->threshold = r->opt.threshold;
	for (j = 0; j < ncrows; j++)
		if (strcmp(crows[j].benchmark, row->benchmark) == 0 &&
		    strcmp(crows[j].unit, row->unit) == 0 &&
		    isfinite(crows[j].mde)) {
			in->threshold = crows[j].mde;
			in->threshold_calibrated = 1;
		}
}

/* The config key of a night the user accepted as a new reference. */
#define NIGHTLY_ACK_KEY	"nightly.ack"

/* Which nights start a new reference: acked, or --baseline-from. */
static int
nightly_acks(struct store *st, const struct nightly_options *o,
    struct nightly_result *r, char **cause)
{
	struct store_run	*runs = NULL;
	size_t			 nruns = 0, h, i;

	r->acks = xcalloc(r->nhistory + 1, sizeof(*r->acks));
	if (store_runs_with(st, NIGHTLY_ACK_KEY, "1", &runs, &nruns,
	    cause) == -1)
		return -1;
	for (h = 0; h < r->nhistory; h++) {
		if (o->baseline_from != 0 && r->night_no[h] == o->baseline_from)
			r->acks[h] = 1;
		for (i = 0; i < nruns; i++)
			if (runs[i].id == r->history_ids[h])
				r->acks[h] = 1;
	}
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);
	return 0;
}

/* Night a as its ratio to the control's night c: the ratio of their
 * medians, its standard error by the delta method. */
static void
nightly_ratio_night(struct nightly_night *a, const struct nightly_night *c)
{
	double	m, ra, rc;

	if (!isfinite(a->median) || !isfinite(c->median) || c->median == 0) {
		a->median = a->se = NAN;
		return;
	}
	m = a->median / c->median;
	ra = a->median != 0 ? a->se / a->median : NAN;
	rc = c->se / c->median;
	a->se = isfinite(ra) && isfinite(rc) ? fabs(m) * sqrt(ra * ra +
	    rc * rc) : NAN;
	a->median = m;
}

/*
 * The control arm, when the candidate's stored experiment names one and
 * the candidate has its values: every other arm's row with a control row
 * of its benchmark and unit becomes, night by night, its ratio to it.
 */
static void
nightly_control(const struct store_run *cand, struct nightly_result *r,
    struct nightly_acc *acc)
{
	char	*ctl;
	size_t	 i, j, h;

	/* (nightly_ungather releases them before a gather anew.) */
	r->ratio = xcalloc(r->nrows + 1, sizeof(*r->ratio));
	ctl = experiment_stored_control(cand->experiment_path,
	    cand->experiment_text);
	for (i = 0; ctl != NULL && i < r->nrows; i++)
		if (strcmp(r->rows[i].arm, ctl) == 0)
			break;
	if (ctl == NULL || i == r->nrows) {
		free(ctl);
		return;
	}
	r->control = ctl;
	for (i = 0; i < r->nrows; i++) {
		if (strcmp(r->rows[i].arm, ctl) == 0)
			continue;
		for (j = 0; j < r->nrows; j++)
			if (strcmp(r->rows[j].arm, ctl) == 0 &&
			    strcmp(r->rows[j].benchmark,
			    r->rows[i].benchmark) == 0 &&
			    strcmp(r->rows[j].unit, r->rows[i].unit) == 0)
				break;
		if (j == r->nrows)
			continue;
		r->ratio[i] = 1;
		for (h = 0; h < r->nhistory; h++)
			nightly_ratio_night(&acc[i].nights[h],
			    &acc[j].nights[h]);
	}
}

int
nightly_row_ratio(const struct nightly_result *r, size_t i)
{
	return r->ratio != NULL && r->ratio[i];
}

int
nightly_row_is_control(const struct nightly_result *r, size_t i)
{
	return r->control != NULL && strcmp(r->rows[i].arm, r->control) == 0;
}

char *
nightly_row_reason(const struct nightly_result *r, size_t i)
{
	if (nightly_row_ratio(r, i))
		return xasprintf("ratio to %s: %s", r->control,
		    r->rows[i].reason);
	return xstrdup(r->rows[i].reason);
}

char *
nightly_row_verdict(const struct nightly_result *r, size_t i)
{
	if (nightly_row_is_control(r, i))
		return xstrdup("control");
	return nightly_verdict_text(&r->rows[i]);
}

/* The start of each change's first run; the verdicts counted (the
 * control arm's rows are the machine's: never). */
static void
nightly_finish(struct nightly_result *r)
{
	size_t			 i, j;

	for (i = 0; i < r->nrows; i++) {
		struct nightly_row	*row = &r->rows[i];

		for (j = 0; j < row->nchanges; j++)
			if (row->changes[j].night < r->nhistory)
				row->changes[j].wall_ns =
				    r->night_wall[row->changes[j].night];
		if (nightly_row_is_control(r, i))
			continue;
		switch (row->verdict) {
		case NIGHTLY_REGRESSED:
			r->nregressed++;
			break;
		case NIGHTLY_IMPROVED:
			r->nimproved++;
			break;
		case NIGHTLY_INCONCLUSIVE:
			r->ninconclusive++;
			break;
		case NIGHTLY_UNCHANGED:
			break;
		}
	}
}

/* The judgement's options from nightly's. */
static void
nightly_jo(const struct nightly_options *o, struct nightly_judge_options *jo)
{
	nightly_judge_options_init(jo);
	jo->alpha = o->alpha;
	jo->window = o->baseline;
	/* A short window (--baseline 2) is judged, with t's wide limits. */
	if (jo->window < jo->min_nights)
		jo->min_nights = jo->window < 2 ? 2 : jo->window;
	if (jo->window < jo->min_nights)
		jo->window = jo->min_nights;
}

/* Undo nightly_gather (to gather again): the rows and accumulators. */
static void
nightly_ungather(struct nightly_result *r, struct nightly_acc **acc)
{
	size_t	i;

	for (i = 0; i < r->nrows; i++) {
		nightly_row_release(&r->rows[i]);
		if (*acc != NULL)
			free((*acc)[i].nights);
	}
	free(r->rows);
	free(*acc);
	free(r->control);
	free(r->ratio);
	r->rows = NULL;
	r->nrows = 0;
	r->control = NULL;
	r->ratio = NULL;
	*acc = NULL;
}

/* What r's state is of (nightly-state.h), into *so. */
static const struct nightly_state_of *
nightly_state_of(const struct nightly_result *r, struct nightly_state_of *so)
{
	so->name = r->name;
	so->history_ids = r->history_ids;
	so->acks = r->acks;
	so->nhistory = r->nhistory;
	so->rows = r->rows;
	so->ratio = r->ratio;
	so->nrows = r->nrows;
	return so;
}

/*
 * Gather the nights and judge every row: with o->carry, from the state
 * the latest night before kept (the nights after it judged; they and
 * the window + 1 before it read), else, or when a row is new or a
 * reference needs a night the state did not keep, from the first night;
 * then keep tonight's state (a store opened read-only keeps none: the
 * next night replays).
 */
static int
nightly_judge_all(struct store *st, const struct store_run *cand,
    const struct nightly_options *o, const struct nightly_judge_options *jo,
    struct nightly_result *r, struct nightly_acc **acc,
    const struct store_kv *units, size_t nunits,
    const struct store_calib_row *crows, size_t ncrows, char **cause)
{
	struct nightly_input	 *in = NULL;
	struct nightly_night	**nights = NULL;
	struct nightly_state_of	  so;
	char			 *text = NULL, *why = NULL;
	size_t			  from = 0, at = 0, i;
	int			  carry, rc = -1, incomplete;

	carry = o->carry && o->history == 0 && o->baseline_from == 0;
	if (carry && (rc = nightly_state_find(st, nightly_state_of(r, &so),
	    jo, &at, &text, cause)) == -1)
		return -1;
	from = rc == 1 ? at + 1 : 0;
	for (;;) {
		rc = -1;
		/* The state keeps no night of the window + 1 before its
		 * own (nightly_state_text): those are read. */
		if (nightly_gather(st, r, from > jo->window + 1 ? from - 1 -
		    jo->window : 0, acc, cause) == -1)
			goto out;
		/* The control's ratios of the nights read (a state keeps its
		 * nights as ratios already). */
		nightly_control(cand, r, *acc);
		in = xcalloc(r->nrows + 1, sizeof(*in));
		nights = xcalloc(r->nrows + 1, sizeof(*nights));
		for (i = 0; i < r->nrows; i++) {
			nightly_input(r, i, &(*acc)[i], units, nunits, crows,
			    ncrows, &in[i]);
			nights[i] = (*acc)[i].nights;
		}
		if ((from == 0 || nightly_state_load(text,
		    nightly_state_of(r, &so), nights) == 0) &&
		    nightly_judge_rows_from(jo, in, r->nrows, r->history_ids,
		    r->night_no, r->nhistory, from, r->rows, cause) == -1)
			goto out;
		for (incomplete = 0, i = 0; i < r->nrows; i++)
			incomplete |= r->rows[i].incomplete ||
			    r->rows[i].reason == NULL;
		if (from == 0 || !incomplete)
			break;
		/* Not the state's to answer: every night. */
		nightly_ungather(r, acc);
		free(in);
		free(nights);
		from = 0;
	}
	r->resumed = from > 0 ? at : r->nhistory;
	if (carry && nightly_state_keep(st, nightly_state_of(r, &so), jo,
	    nights, &why) == -1)
		free(why);
	rc = 0;
out:
	free(text);
	free(in);
	free(nights);
	return rc;
}

int
nightly_judge(struct store *st, int64_t run_id,
    const struct nightly_options *o, struct nightly_result *out,
    char **cause)
{
	struct store_run		 cand;
	struct store_kv			*units = NULL;
	struct nightly_acc		*acc = NULL;
	struct store_calib_row		*crows = NULL;
	struct nightly_judge_options	 jo;
	size_t				 nunits = 0, ncrows = 0, i;
	int				 rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&cand, 0, sizeof(cand));
	out->opt = *o;
	if (store_run_get(st, run_id, &cand, cause) == -1)
		return -1;
	out->run_id = cand.id;
	out->uuid = xstrdup(cand.uuid ? cand.uuid : "");
	out->name = xstrdup(cand.name ? cand.name : "");
	out->host = xstrdup(cand.host ? cand.host : "");
	out->host_class = nightly_host_class(st, cand.id);
	if (nightly_find_runs(st, &cand, o, out, cause) == -1 ||
	    nightly_acks(st, o, out, cause) == -1)
		goto out;
	if (store_unit_list(st, run_id, &units, &nunits, cause) == -1)
		goto out;
	if (o->threshold_auto && nightly_calibration(st, &cand, out, &crows,
	    &ncrows, cause) == -1)
		goto out;
	nightly_jo(o, &jo);
	if (nightly_judge_all(st, &cand, o, &jo, out, &acc, units, nunits,
	    crows, ncrows, cause) == -1)
		goto out;
	nightly_finish(out);
	for (i = 0; i < out->nrows; i++) {
		out->rows[i].nights = acc[i].nights;
		acc[i].nights = NULL;
	}
	rc = 0;
out:
	if (acc != NULL) {
		for (i = 0; i < out->nrows; i++) {
			free(acc[i].nights);
		}
		free(acc);
	}
	store_calib_rows_free(crows, ncrows);
	store_kv_free(units, nunits);
	store_run_release(&cand);
	if (rc == -1)
		nightly_result_release(out);
	return rc;
}

int
nightly_ack(struct store *st, int64_t run_id, int64_t night_no,
    const struct nightly_options *o, int64_t *acked_run, char **cause)
{
	struct store_run	 cand;
	struct nightly_result	 r;
	size_t			 h;
	int			 rc = -1;

	memset(&r, 0, sizeof(r));
	memset(&cand, 0, sizeof(cand));
	if (store_run_get(st, run_id, &cand, cause) == -1)
		return -1;
	r.host_class = nightly_host_class(st, cand.id);
	if (nightly_find_runs(st, &cand, o, &r, cause) == -1)
		goto out;
	for (h = 0; h < r.nhistory; h++)
		if (r.night_no[h] == night_no)
			break;
	if (h == r.nhistory) {
		set_cause(cause, "no night %" PRId64 " in the history of run %"
		    PRId64 " (nights %" PRId64 " to %" PRId64 ")", night_no,
		    run_id, r.night_no[0], r.night_no[r.nhistory - 1]);
		goto out;
	}
	*acked_run = r.history_ids[h];
	rc = store_config_set(st, *acked_run, "", NIGHTLY_ACK_KEY, "1", cause);
out:
	store_run_release(&cand);
	nightly_result_release(&r);
	return rc;
}

void
nightly_result_release(struct nightly_result *r)
{
	size_t	i;

	for (i = 0; i < r->nrows; i++)
		nightly_row_release(&r->rows[i]);
	free(r->rows);
	free(r->uuid);
	free(r->name);
	free(r->host);
	free(r->host_class);
	free(r->baseline_ids);
	free(r->history_ids);
	free(r->night_no);
	free(r->night_wall);
	free(r->acks);
	free(r->control);
	free(r->ratio);
	memset(r, 0, sizeof(*r));
}

/* Several arms: rows are named ARM:BENCHMARK. */
static int
nightly_many_arms(const struct nightly_result *r)
{
	size_t	i;

	for (i = 1; i < r->nrows; i++)
		if (strcmp(r->rows[i].arm, r->rows[0].arm) != 0)
			return 1;
	return 0;
}

void
nightly_format_text(const struct nightly_result *r, struct strbuf *out)
{
	size_t	i, wn = 0, wu = 0, wv = 12, l;
	int	arms = nightly_many_arms(r);
	char	*name, *reason;

	for (i = 0; i < r->nrows; i++) {
		l = strlen(r->rows[i].benchmark) +
		    (arms ? strlen(r->rows[i].arm) + 1 : 0);
		if (l > wn)
			wn = l;
		if (strlen(r->rows[i].unit) > wu)
			wu = strlen(r->rows[i].unit);
	}
	for (i = 0; i < r->nrows; i++) {
		char	*verdict = nightly_row_verdict(r, i);

		if (strlen(verdict) > wv)
			wv = strlen(verdict);
		free(verdict);
	}
	for (i = 0; i < r->nrows; i++) {
		const struct nightly_row	*row = &r->rows[i];
		char				*verdict = nightly_row_verdict(r, i);

		name = arms ? xasprintf("%s:%s", row->arm, row->benchmark) :
		    xstrdup(row->benchmark);
		reason = nightly_row_reason(r, i);
		strbuf_addf(out, "%-*s  %-*s  %-*s  %s\n", (int)wv, verdict,
		    (int)wn, name, (int)wu, row->unit, reason);
		free(reason);
		free(name);
		free(verdict);
	}
}

void
nightly_format_json(const struct nightly_result *r, struct strbuf *out)
{
	json_t	*doc, *rows, *ids, *row, *chs, *ch;
	char	 when[64];
	size_t	 i, j;

	doc = json_object();
	json_object_set_new(doc, "run", json_integer(r->run_id));
	json_object_set_new(doc, "uuid", jw_str(r->uuid));
	json_object_set_new(doc, "name", jw_str(r->name));
	json_object_set_new(doc, "host", jw_str(r->host));
	if (r->host_class != NULL)
		json_object_set_new(doc, "host_class",
		    jw_str(r->host_class));
	ids = json_array();
	for (i = 0; i < r->nbaseline; i++)
		json_array_append_new(ids, json_integer(r->baseline_ids[i]));
	json_object_set_new(doc, "baseline", ids);
	ids = json_array();
	for (i = 0; i < r->nhistory; i++)
		json_array_append_new(ids, json_integer(r->history_ids[i]));
	json_object_set_new(doc, "history", ids);
	/* The night whose kept state tonight's judgement resumed from (it
	 * judged the nights after it), or null: every night judged. */
	json_object_set_new(doc, "resumed_from", r->resumed < r->nhistory ?
	    json_integer(r->night_no[r->resumed]) : json_null());
	json_object_set_new(doc, "threshold", json_real(r->opt.threshold));
	json_object_set_new(doc, "alpha", json_real(r->opt.alpha));
	json_object_set_new(doc, "reference_nights",
	    json_integer((json_int_t)r->opt.baseline));
	json_object_set_new(doc, "control", r->control != NULL ?
	    jw_str(r->control) : json_null());
	json_object_set_new(doc, "calibration", r->calib_run != 0 ?
	    json_integer(r->calib_run) : json_null());
	json_object_set_new(doc, "regressed", json_integer(r->nregressed));
	json_object_set_new(doc, "improved", json_integer(r->nimproved));
	json_object_set_new(doc, "inconclusive",
	    json_integer(r->ninconclusive));
	rows = json_array();
	for (i = 0; i < r->nrows; i++) {
		const struct nightly_row	*w = &r->rows[i];

		row = json_object();
		json_object_set_new(row, "arm", jw_str(w->arm));
		json_object_set_new(row, "benchmark",
		    jw_str(w->benchmark));
		json_object_set_new(row, "unit", jw_str(w->unit));
		json_object_set_new(row, "better", w->better > 0 ?
		    json_string("higher") : w->better < 0 ?
		    json_string("lower") : json_null());
		json_object_set_new(row, "verdict",
		    json_string(nightly_row_is_control(r, i) ? "control" :
		    nightly_verdict_name(w->verdict)));
		json_object_set_new(row, "ratio_to_control",
		    json_boolean(nightly_row_ratio(r, i)));
		json_object_set_new(row, "reason",
		    jw_str(w->reason));
		json_object_set_new(row, "too_noisy",
		    json_boolean(w->too_noisy));
		json_object_set_new(row, "mde", jw_num(w->mde));
		json_object_set_new(row, "threshold",
		    jw_num(w->threshold));
		json_object_set_new(row, "threshold_calibrated",
		    json_boolean(w->threshold_calibrated));
		json_object_set_new(row, "n",
		    json_integer((json_int_t)w->ncand));
		json_object_set_new(row, "median",
		    jw_num(w->cand_median));
		json_object_set_new(row, "nights",
		    json_integer((json_int_t)w->nnights));
		json_object_set_new(row, "reference_nights",
		    json_integer((json_int_t)w->k));
		json_object_set_new(row, "reference_from", r->nhistory > 0 ?
		    json_integer(r->night_no[w->ref_from]) : json_null());
		json_object_set_new(row, "reference_mean",
		    jw_num(w->ref_mean));
		json_object_set_new(row, "reference_sd",
		    jw_num(w->ref_sd));
		json_object_set_new(row, "delta", jw_num(w->delta));
		json_object_set_new(row, "z", jw_num(w->z));
		json_object_set_new(row, "limit", jw_num(w->limit));
		json_object_set_new(row, "new_change",
		    json_boolean(w->new_change));
		chs = json_array();
		for (j = 0; j < w->nchanges; j++) {
			const struct nightly_change	*c = &w->changes[j];

			ch = json_object();
			json_object_set_new(ch, "night",
			    json_integer(c->number));
			json_object_set_new(ch, "found",
			    json_integer(r->night_no[c->found]));
			json_object_set_new(ch, "run", json_integer(c->run_id));
			format_wall_time(c->wall_ns, when, sizeof(when));
			json_object_set_new(ch, "started", json_string(when));
			json_object_set_new(ch, "test",
			    json_string(nightly_test_name(c->test)));
			json_object_set_new(ch, "transient",
			    json_boolean(c->transient));
			json_object_set_new(ch, "z", jw_num(c->z));
			json_object_set_new(ch, "limit",
			    jw_num(c->limit));
			json_object_set_new(ch, "reference_nights",
			    json_integer((json_int_t)c->k));
			json_object_set_new(ch, "before",
			    jw_num(c->before));
			json_object_set_new(ch, "after",
			    jw_num(c->after));
			json_object_set_new(ch, "step",
			    jw_num(c->rel));
			/* Sized again over its two nights, the night after. */
			json_object_set_new(ch, "step_two_nights", c->resized ?
			    jw_num(c->rel2) : json_null());
			json_array_append_new(chs, ch);
		}
		json_object_set_new(row, "changes", chs);
		json_array_append_new(rows, row);
	}
	json_object_set_new(doc, "rows", rows);
	jw_dump(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10), out);
}
