/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history of an experiment (history.h): its places, their nights as
 * `abbench nightly` judges them, the change points of each series and the
 * nights judged regressed or improved; and its JSON.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "lib/jsonw.h"
#include "harness/analysis/history.h"
#include "harness/analysis/nightly.h"
#include "lib/util.h"
#include "results/store.h"

/* The half width of a night's interval in standard errors (95%). */
#define HISTORY_Z	1.96

void
history_options_init(struct history_options *o)
{
	struct nightly_options	no;

	memset(o, 0, sizeof(*o));
	ed_options_init(&o->ed);
	nightly_options_init(&no);
	o->threshold = no.threshold;
	o->alpha = no.alpha;
	o->baseline = no.baseline;
}

void
history_date(int64_t wall_ns, char *buf, size_t len)
{
	time_t		t = (time_t)(wall_ns / 1000000000LL);
	struct tm	tm;

	if (wall_ns <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d", &tm) == 0)
		snprintf(buf, len, "?");
}

/* The place of a run: its host class, else its host (malloc'd). */
static char *
history_place_of(struct store *st, const struct store_run *r)
{
	char	*class = nightly_host_class(st, r->id);

	return class != NULL ? class : xstrdup(r->host ? r->host : "");
}

/* The alarm a change raised (*found: the night, *rel: its size then), or
 * NULL when no night was judged so. */
static const char *
history_alarm_verdict(const struct nightly_row *row,
    const struct nightly_change *c, size_t *found, double *rel)
{
	if (!nightly_change_alarm(c, row->threshold, found, rel))
		return NULL;
	if (row->better == 0)
		return "inconclusive";
	return (*rel > 0) == (row->better > 0) ? "improved" : "regressed";
}

/* One series from row `ri` of the place's judgement r (a control arm's
 * series: the machine's, no alarm). */
static int
history_series_of(struct history *h, size_t place,
    const struct nightly_result *r, size_t ri, char **cause)
{
	const struct nightly_row	*row = &r->rows[ri];
	struct history_series	*s;
	struct ed_change	*c = NULL;
	double			*x;
	size_t			*at, n = 0, nc = 0, i, k, found;
	double			 rel;
	const char		*v;

	h->series = xreallocarray(h->series, h->nseries + 1,
	    sizeof(*h->series));
	s = &h->series[h->nseries];
	memset(s, 0, sizeof(*s));
	s->place = place;
	s->arm = xstrdup(row->arm);
	s->benchmark = xstrdup(row->benchmark);
	s->unit = xstrdup(row->unit);
	s->better = row->better;
	s->ratio_to = nightly_row_ratio(r, ri) ? xstrdup(r->control) : NULL;
	s->control = nightly_row_is_control(r, ri);
	s->median = xcalloc(r->nhistory + 1, sizeof(double));
	s->lo = xcalloc(r->nhistory + 1, sizeof(double));
	s->hi = xcalloc(r->nhistory + 1, sizeof(double));
	s->n = xcalloc(r->nhistory + 1, sizeof(size_t));
	h->nseries++;
	x = xcalloc(r->nhistory + 1, sizeof(*x));
	at = xcalloc(r->nhistory + 1, sizeof(*at));
	for (i = 0; i < r->nhistory; i++) {
		const struct nightly_night *t = &row->nights[i];

		s->median[i] = t->median;
		s->n[i] = t->n;
		s->lo[i] = s->hi[i] = NAN;
		if (isfinite(t->se)) {
			s->lo[i] = t->median - HISTORY_Z * t->se;
			s->hi[i] = t->median + HISTORY_Z * t->se;
		}
		if (isfinite(t->median)) {
			at[n] = i;
			x[n++] = t->median;
		}
	}
	if (ed_detect(x, n, &h->opt.ed, &c, &nc, cause) == -1) {
		free(x);
		free(at);
		return -1;
	}
	s->cps = xcalloc(nc + 1, sizeof(*s->cps));
	for (k = 0; k < nc; k++) {
		s->cps[k].night = at[c[k].index];
		s->cps[k].c = c[k];
	}
	s->ncps = nc;
	free(c);
	free(x);
	free(at);
	s->alarms = xcalloc(row->nchanges + 1, sizeof(*s->alarms));
	for (k = 0; !s->control && k < row->nchanges; k++) {
		const struct nightly_change *ch = &row->changes[k];

		if ((v = history_alarm_verdict(row, ch, &found,
		    &rel)) == NULL)
			continue;
		s->alarms[s->nalarms].found = found;
		s->alarms[s->nalarms].night = ch->night;
		s->alarms[s->nalarms].verdict = v;
		s->alarms[s->nalarms].test = ch->test;
		s->alarms[s->nalarms].rel = rel;
		s->alarms[s->nalarms].z = ch->z;
		s->alarms[s->nalarms].limit = ch->limit;
		s->nalarms++;
	}
	return 0;
}

/* The place of run_id (its latest run), judged over its whole history. */
static int
history_place_add(struct store *st, struct history *h, char *name,
    int64_t run_id, char **cause)
{
	struct nightly_options	 no;
	struct nightly_result	 r;
	struct history_place	*p;
	struct store_run	 run;
	size_t			 i;
	int			 rc = 0;

	nightly_options_init(&no);
	no.history = h->opt.nights;
	no.baseline = h->opt.baseline;
	no.threshold = h->opt.threshold;
	no.alpha = h->opt.alpha;
	/* Every night's verdict is wanted: the whole replay; and the
	 * history writes nothing. */
	no.carry = 0;
	if (nightly_judge(st, run_id, &no, &r, cause) == -1) {
		free(name);
		return -1;
	}
	h->places = xreallocarray(h->places, h->nplaces + 1,
	    sizeof(*h->places));
	p = &h->places[h->nplaces];
	p->name = name;
	p->nnights = r.nhistory;
	p->nights = xcalloc(r.nhistory + 1, sizeof(*p->nights));
	for (i = 0; i < r.nhistory; i++) {
		p->nights[i].run_id = r.history_ids[i];
		p->nights[i].number = r.night_no[i];
		memset(&run, 0, sizeof(run));
		if (store_run_get(st, r.history_ids[i], &run, NULL) == 0)
			p->nights[i].wall_ns = run.started_wall_ns;
		store_run_release(&run);
	}
	h->nplaces++;
	for (i = 0; i < r.nrows && rc == 0; i++) {
		rc = history_series_of(h, h->nplaces - 1, &r, i, cause);
		if (i > 0 && strcmp(r.rows[i].arm, r.rows[0].arm) != 0)
			h->many_arms = 1;
	}
	nightly_result_release(&r);
	return rc;
}

int
history_build(struct store *st, const char *name,
    const struct history_options *o, struct history *out, char **cause)
{
	struct store_run	*runs = NULL;
	size_t			 nruns = 0, i, j, np = 0;
	char			**names = NULL, *pl;
	int64_t			*latest = NULL;
	int			 rc = 0;

	memset(out, 0, sizeof(*out));
	out->opt = *o;
	out->experiment = xstrdup(name);
	if (store_runs_list(st, &runs, &nruns, cause) == -1)
		return -1;
	names = xcalloc(nruns + 1, sizeof(*names));
	latest = xcalloc(nruns + 1, sizeof(*latest));
	for (i = 0; i < nruns; i++) {
		if (strcmp(runs[i].status, RUN_DONE) != 0 ||
		    strcmp(runs[i].name, name) != 0)
			continue;
		pl = history_place_of(st, &runs[i]);
		for (j = 0; j < np && strcmp(names[j], pl) != 0; j++)
			;
		if (j == np)
			names[np++] = pl;
		else
			free(pl);
		if (runs[i].id > latest[j])
			latest[j] = runs[i].id;
	}
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);
	if (np == 0)
		rc = set_cause(cause, "no finished run of experiment '%s'",
		    name);
	for (j = 0; j < np; j++) {
		if (rc == 0)
			rc = history_place_add(st, out, names[j], latest[j],
			    cause);
		else
			free(names[j]);
	}
	free(names);
	free(latest);
	if (rc == -1)
		history_release(out);
	return rc;
}

void
history_release(struct history *h)
{
	size_t	i;

	for (i = 0; i < h->nplaces; i++) {
		free(h->places[i].name);
		free(h->places[i].nights);
	}
	for (i = 0; i < h->nseries; i++) {
		struct history_series	*s = &h->series[i];

		free(s->arm);
		free(s->benchmark);
		free(s->unit);
		free(s->ratio_to);
		free(s->median);
		free(s->lo);
		free(s->hi);
		free(s->n);
		free(s->cps);
		free(s->alarms);
	}
	free(h->places);
	free(h->series);
	free(h->experiment);
	memset(h, 0, sizeof(*h));
}

static json_t *
history_json_series(const struct history *h, const struct history_series *s)
{
	const struct history_place	*p = &h->places[s->place];
	json_t				*o, *a, *e;
	size_t				 i;

	o = json_object();
	json_object_set_new(o, "shape", jw_str(p->name));
	json_object_set_new(o, "arm", jw_str(s->arm));
	json_object_set_new(o, "benchmark", jw_str(s->benchmark));
	json_object_set_new(o, "unit", jw_str(s->unit));
	json_object_set_new(o, "ratio_to", s->ratio_to != NULL ?
	    jw_str(s->ratio_to) : json_null());
	json_object_set_new(o, "control", json_boolean(s->control));
	json_object_set_new(o, "better", s->better > 0 ?
	    json_string("higher") : s->better < 0 ? json_string("lower") :
	    json_null());
	a = json_array();
	for (i = 0; i < p->nnights; i++) {
		e = json_object();
		json_object_set_new(e, "night", json_integer(
		    p->nights[i].number));
		json_object_set_new(e, "median", jw_num(
		    s->median[i]));
		json_object_set_new(e, "lo", jw_num(s->lo[i]));
		json_object_set_new(e, "hi", jw_num(s->hi[i]));
		json_object_set_new(e, "n", json_integer((json_int_t)s->n[i]));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "nights", a);
	a = json_array();
	for (i = 0; i < s->ncps; i++) {
		const struct history_cp	*c = &s->cps[i];

		e = json_object();
		json_object_set_new(e, "night", json_integer(
		    p->nights[c->night].number));
		json_object_set_new(e, "run", json_integer(
		    p->nights[c->night].run_id));
		json_object_set_new(e, "before", jw_num(
		    c->c.mean_before));
		json_object_set_new(e, "after", jw_num(
		    c->c.mean_after));
		json_object_set_new(e, "rel", jw_num(c->c.rel));
		json_object_set_new(e, "t", jw_num(c->c.t));
		json_object_set_new(e, "p", jw_num(c->c.p));
		json_object_set_new(e, "nights_before", json_integer(
		    (json_int_t)c->c.n_before));
		json_object_set_new(e, "nights_after", json_integer(
		    (json_int_t)c->c.n_after));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "change_points", a);
	a = json_array();
	for (i = 0; i < s->nalarms; i++) {
		const struct history_alarm	*al = &s->alarms[i];

		e = json_object();
		json_object_set_new(e, "night", json_integer(
		    p->nights[al->found].number));
		json_object_set_new(e, "change_night", json_integer(
		    p->nights[al->night].number));
		json_object_set_new(e, "verdict", json_string(al->verdict));
		json_object_set_new(e, "test", json_string(
		    nightly_test_name(al->test)));
		json_object_set_new(e, "rel", jw_num(al->rel));
		json_object_set_new(e, "z", jw_num(al->z));
		json_object_set_new(e, "limit", jw_num(al->limit));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "alarms", a);
	return o;
}

void
history_format_json(const struct history *h, struct strbuf *out)
{
	json_t	*doc, *a, *p, *n, *e;
	char	*text, day[32];
	size_t	 i, j;

	doc = json_object();
	json_object_set_new(doc, "experiment", jw_str(
	    h->experiment));
	e = json_object();
	json_object_set_new(e, "method", json_string("e-divisive, t-test "
	    "(Apache Otava)"));
	json_object_set_new(e, "window", json_integer(
	    (json_int_t)h->opt.ed.window));
	json_object_set_new(e, "max_p", json_real(h->opt.ed.max_p));
	json_object_set_new(e, "min_size", json_integer(
	    (json_int_t)h->opt.ed.min_size));
	json_object_set_new(doc, "change_points", e);
	json_object_set_new(doc, "threshold", json_real(h->opt.threshold));
	a = json_array();
	for (i = 0; i < h->nplaces; i++) {
		p = json_object();
		json_object_set_new(p, "shape", jw_str(
		    h->places[i].name));
		n = json_array();
		for (j = 0; j < h->places[i].nnights; j++) {
			e = json_object();
			json_object_set_new(e, "night", json_integer(
			    h->places[i].nights[j].number));
			json_object_set_new(e, "run", json_integer(
			    h->places[i].nights[j].run_id));
			history_date(h->places[i].nights[j].wall_ns, day,
			    sizeof(day));
			json_object_set_new(e, "date", json_string(day));
			json_array_append_new(n, e);
		}
		json_object_set_new(p, "nights", n);
		json_array_append_new(a, p);
	}
	json_object_set_new(doc, "shapes", a);
	a = json_array();
	for (i = 0; i < h->nseries; i++)
		json_array_append_new(a, history_json_series(h,
		    &h->series[i]));
	json_object_set_new(doc, "series", a);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	json_decref(doc);
}
