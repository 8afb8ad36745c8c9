/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history page (history.h): one self-contained HTML file, no network.
 * One small inline SVG chart per series: the nights' medians (a line) and
 * their 95% intervals (grey ticks), each change point a vertical orange
 * line labelled with its size, each night `nightly` judged regressed a
 * red triangle at the top (improved: green; direction unknown: grey).
 * Filters by shape and by part of a benchmark's name (a few lines of
 * inline JavaScript; the page's address may preset them:
 * page.html#shape=NAME&bench=TEXT), then the table of every change point
 * and the table of every alarm. Names are escaped as HTML (markup_text),
 * any byte that is not UTF-8 written as U+FFFD.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analysis/history.h"
#include "harness/analysis/markup.h"
#include "lib/util.h"
#include "stats/benchunit.h"

/* A chart: its size and the plot area's margins, in px. */
#define HC_W	360
#define HC_H	140
#define HC_L	66
#define HC_R	8
#define HC_T	18
#define HC_B	18

#define HC_MEDIAN	"#1f4e9c"
#define HC_INTERVAL	"#9aa5b1"
#define HC_CP		"#e66100"

static void
hh_text(struct strbuf *out, const char *s)
{
	markup_text(out, s, 1, 0);
}

/* The series' name as the page shows it: ARM:BENCHMARK with many arms. */
static void
hh_name(struct strbuf *out, const struct history *h,
    const struct history_series *s)
{
	if (h->many_arms) {
		hh_text(out, s->arm);
		strbuf_addc(out, ':');
	}
	hh_text(out, s->benchmark);
}

/* data-shape and data-bench of a series' elements. */
static void
hh_data(struct strbuf *out, const struct history *h,
    const struct history_series *s)
{
	strbuf_adds(out, " data-shape=\"");
	hh_text(out, h->places[s->place].name);
	strbuf_adds(out, "\" data-bench=\"");
	hh_name(out, h, s);
	strbuf_addc(out, '"');
}

/* A table row's start: its data, its shape, name and unit cells. */
/* The unit of s: a ratio to the control arm says so; the control's own
 * series is the machine's. */
static void
hh_unit(struct strbuf *out, const struct history_series *s)
{
	hh_text(out, s->unit);
	if (s->ratio_to != NULL) {
		strbuf_adds(out, " &divide; ");
		hh_text(out, s->ratio_to);
	} else if (s->control)
		strbuf_adds(out, " (control: the machine)");
}

static void
hh_row_head(struct strbuf *out, const struct history *h,
    const struct history_series *s)
{
	strbuf_adds(out, "<tr");
	hh_data(out, h, s);
	strbuf_adds(out, "><td>");
	hh_text(out, h->places[s->place].name);
	strbuf_adds(out, "</td><td>");
	hh_name(out, h, s);
	strbuf_adds(out, "</td><td>");
	hh_unit(out, s);
}

static const char *
hh_alarm_colour(const char *verdict)
{
	if (strcmp(verdict, "regressed") == 0)
		return "#c01c28";
	if (strcmp(verdict, "improved") == 0)
		return "#26a269";
	return "#77767b";
}

struct hh_scale {
	double	lo, hi;
	size_t	n;
};

static double
hh_x(const struct hh_scale *sc, size_t i)
{
	double	w = HC_W - HC_L - HC_R;

	return sc->n > 1 ? HC_L + w * (double)i / (double)(sc->n - 1) :
	    HC_L + w / 2;
}

static double
hh_y(const struct hh_scale *sc, double v)
{
	return HC_T + (HC_H - HC_T - HC_B) * (sc->hi - v) / (sc->hi - sc->lo);
}

/*
 * Two values of a series as every other output shows them (51.23m, not
 * 0.05123): benchstat's scale for the pair, in the unit's class.
 */
static void
hh_pair(const struct history_series *s, double a, double b, char *ba,
    char *bb, size_t len)
{
	struct scaler	sc;
	double		v[2];

	v[0] = a;
	v[1] = b;
	scaler_common(v, 2, unit_class_of(s->unit != NULL ? s->unit : ""),
	    &sc);
	scaler_format(&sc, a, ba, len);
	scaler_format(&sc, b, bb, len);
}

static void
hh_range(const struct history_series *s, size_t n, struct hh_scale *sc)
{
	double	lo = INFINITY, hi = -INFINITY, pad;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (isfinite(s->median[i])) {
			lo = s->median[i] < lo ? s->median[i] : lo;
			hi = s->median[i] > hi ? s->median[i] : hi;
		}
		if (isfinite(s->lo[i]) && s->lo[i] < lo)
			lo = s->lo[i];
		if (isfinite(s->hi[i]) && s->hi[i] > hi)
			hi = s->hi[i];
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	pad = (hi - lo) * 0.05;
	if (!(pad > 0))
		pad = fabs(hi) > 0 ? fabs(hi) * 0.05 : 1;
	sc->lo = lo - pad;
	sc->hi = hi + pad;
	sc->n = n;
}

static void
hh_chart(struct strbuf *out, const struct history *h,
    const struct history_series *s)
{
	const struct history_place	*p = &h->places[s->place];
	struct hh_scale			 sc;
	size_t				 i;
	int				 pen = 0, right;
	double				 x;
	char				 b1[64], b2[64];

	hh_range(s, p->nnights, &sc);
	hh_pair(s, sc.hi, sc.lo, b1, b2, sizeof b1);
	strbuf_addf(out, "<svg class=\"chart\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "data-nights=\"%zu\">\n", HC_W, HC_H, HC_W, HC_H, p->nnights);
	strbuf_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fcfcfc\" stroke=\"#d0d0d0\"/>\n", HC_L, HC_T,
	    HC_W - HC_L - HC_R, HC_H - HC_T - HC_B);
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\" "
	    "text-anchor=\"end\">%s</text>\n", HC_L - 3, HC_T + 8, b1);
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\" "
	    "text-anchor=\"end\">%s</text>\n", HC_L - 3, HC_H - HC_B, b2);
	if (p->nnights > 0) {
		strbuf_addf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\">night "
		    "%" PRId64 "</text>\n", HC_L, HC_H - 5,
		    p->nights[0].number);
		strbuf_addf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\" "
		    "text-anchor=\"end\">%" PRId64 "</text>\n", HC_W - HC_R,
		    HC_H - 5, p->nights[p->nnights - 1].number);
	}
	strbuf_addf(out, "<path class=\"iv\" stroke=\"%s\" d=\"", HC_INTERVAL);
	for (i = 0; i < p->nnights; i++)
		if (isfinite(s->lo[i]) && isfinite(s->hi[i]))
			strbuf_addf(out, "M%.1f %.1fV%.1f", hh_x(&sc, i),
			    hh_y(&sc, s->hi[i]), hh_y(&sc, s->lo[i]));
	strbuf_adds(out, "\"/>\n");
	strbuf_addf(out, "<path class=\"med\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"1.5\" stroke-linecap=\"round\" "
	    "stroke-linejoin=\"round\" d=\"", HC_MEDIAN);
	for (i = 0; i < p->nnights; i++) {
		if (!isfinite(s->median[i])) {
			pen = 0;
			continue;
		}
		strbuf_addf(out, "%c%.1f %.1f", pen ? 'L' : 'M', hh_x(&sc, i),
		    hh_y(&sc, s->median[i]));
		/* A lone night still shows: a dot of a line. */
		if (!pen && (i + 1 == p->nnights ||
		    !isfinite(s->median[i + 1])))
			strbuf_adds(out, "h0.1");
		pen = 1;
	}
	strbuf_adds(out, "\"/>\n");
	for (i = 0; i < s->ncps; i++) {
		const struct history_cp	*c = &s->cps[i];

		x = hh_x(&sc, c->night);
		hh_pair(s, c->c.mean_before, c->c.mean_after, b1, b2,
		    sizeof b1);
		strbuf_addf(out, "<line class=\"cp\" data-night=\"%" PRId64 "\" "
		    "x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
		    "stroke-width=\"2\"><title>change point at night %" PRId64
		    ": %+.2f%% (%s to %s, t=%.2f, p=%.2g)</title></line>\n",
		    p->nights[c->night].number, x, x, HC_T, HC_H - HC_B, HC_CP,
		    p->nights[c->night].number, 100 * c->c.rel, b1, b2,
		    c->c.t, c->c.p);
		/* The label beside the line, where neither level runs. */
		right = c->night * 2 < p->nnights;
		strbuf_addf(out, "<text class=\"cpl\" x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"%s\">%+.1f%%</text>\n", x + (right ? 3 : -3),
		    right == (c->c.rel > 0) ? HC_H - HC_B - 4 : HC_T + 12,
		    right ? "start" : "end", 100 * c->c.rel);
	}
	for (i = 0; i < s->nalarms; i++) {
		const struct history_alarm	*a = &s->alarms[i];

		x = hh_x(&sc, a->found);
		strbuf_addf(out, "<path class=\"alarm %s\" data-night=\"%"
		    PRId64 "\" fill=\"%s\" d=\"M%.1f %dh8l-4 8z\"><title>night "
		    "%" PRId64 " judged %s: %+.2f%% (%s, change at night %"
		    PRId64 ")</title></path>\n", a->verdict,
		    p->nights[a->found].number, hh_alarm_colour(a->verdict),
		    x - 4, HC_T - 10, p->nights[a->found].number, a->verdict,
		    100 * a->rel, nightly_test_name(a->test),
		    p->nights[a->night].number);
	}
	strbuf_adds(out, "</svg>\n");
}

static void
hh_filters(struct strbuf *out, const struct history *h)
{
	size_t	i;

	strbuf_adds(out, "<div id=\"filters\"><label>Shape <select "
	    "id=\"f-shape\"><option value=\"\">all</option>");
	for (i = 0; i < h->nplaces; i++) {
		strbuf_adds(out, "<option value=\"");
		hh_text(out, h->places[i].name);
		strbuf_adds(out, "\">");
		hh_text(out, h->places[i].name);
		strbuf_adds(out, "</option>");
	}
	strbuf_adds(out, "</select></label> <label>Benchmark <input "
	    "id=\"f-bench\" type=\"search\" placeholder=\"part of its name\">"
	    "</label> <span id=\"f-count\"></span></div>\n");
}

static void
hh_cp_table(struct strbuf *out, const struct history *h, int level)
{
	size_t	i, j, n = 0;
	char	day[32], b1[64], b2[64];

	strbuf_addf(out, "<h%d>Change points</h%d>\n", level, level);
	strbuf_adds(out, "<table id=\"changes\">"
	    "<thead><tr><th>shape</th><th>benchmark</th><th>unit</th>"
	    "<th>night</th><th>date</th><th>run</th><th>before</th>"
	    "<th>after</th><th>size</th><th>t</th><th>p</th></tr></thead>"
	    "<tbody>\n");
	for (i = 0; i < h->nseries; i++) {
		const struct history_series	*s = &h->series[i];
		const struct history_place	*p = &h->places[s->place];

		for (j = 0; j < s->ncps; j++) {
			const struct history_cp		*c = &s->cps[j];
			const struct history_night	*nt = &p->nights[c->night];

			history_date(nt->wall_ns, day, sizeof(day));
			hh_pair(s, c->c.mean_before, c->c.mean_after, b1, b2,
			    sizeof b1);
			hh_row_head(out, h, s);
			strbuf_addf(out, "</td><td>%" PRId64 "</td><td>%s</td>"
			    "<td>%" PRId64 "</td><td>%s</td><td>%s</td>"
			    "<td>%+.2f%%</td><td>%.2f</td><td>%.2g</td></tr>\n",
			    nt->number, day, nt->run_id, b1, b2,
			    100 * c->c.rel, c->c.t, c->c.p);
			n++;
		}
	}
	/* Said, not an empty table. */
	if (n == 0)
		strbuf_adds(out, "<tr class=\"none\"><td colspan=\"11\">none: "
		    "no series' nightly medians moved</td></tr>\n");
	strbuf_adds(out, "</tbody></table>\n");
}

static void
hh_alarm_table(struct strbuf *out, const struct history *h, int level)
{
	size_t	i, j;

	strbuf_addf(out, "<h%d>Nights judged regressed or improved</h%d>\n",
	    level, level);
	strbuf_adds(out, "<table id=\"alarms\"><thead><tr><th>shape</th><th>benchmark</th>"
	    "<th>unit</th><th>night</th><th>verdict</th><th>change at "
	    "night</th><th>size</th><th>test</th></tr></thead><tbody>\n");
	for (i = 0; i < h->nseries; i++) {
		const struct history_series	*s = &h->series[i];
		const struct history_place	*p = &h->places[s->place];

		for (j = 0; j < s->nalarms; j++) {
			const struct history_alarm	*a = &s->alarms[j];

			hh_row_head(out, h, s);
			strbuf_addf(out, "</td><td>%" PRId64 "</td><td>%s</td>"
			    "<td>%" PRId64 "</td><td>%+.2f%%</td><td>%s z=%+.2f "
			    "beyond %.2f</td></tr>\n", p->nights[a->found].number,
			    a->verdict, p->nights[a->night].number,
			    100 * a->rel, nightly_test_name(a->test), a->z,
			    a->limit);
		}
	}
	strbuf_adds(out, "</tbody></table>\n");
}

static const char hh_style[] =
"<style>\n"
"#charts{display:flex;flex-wrap:wrap;gap:10px}\n"
"figure{margin:0;border:1px solid #e0e0e0;padding:4px}\n"
"figcaption{font-size:12px;max-width:360px;overflow-wrap:anywhere}\n"
".ax{font-size:10px;fill:#555}.cpl{font-size:10px;fill:#a04000}\n"
"table{border-collapse:collapse;font-size:13px}\n"
"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}\n"
"#filters{margin:0.5em 0 1em}\n"
"</style>\n";

static const char hh_script[] =
"<script>\n"
"(function(){var s=document.getElementById('f-shape'),"
"b=document.getElementById('f-bench'),c=document.getElementById('f-count');\n"
"function apply(){var sv=s.value,bv=b.value.toLowerCase(),n=0,"
"all=document.querySelectorAll('[data-shape]');\n"
"for(var i=0;i<all.length;i++){var e=all[i],show=(sv===''||"
"e.dataset.shape===sv)&&(bv===''||e.dataset.bench.toLowerCase()"
".indexOf(bv)>=0);e.style.display=show?'':'none';"
"if(show&&e.tagName==='FIGURE')n++;}\n"
"c.textContent=n+' of '+document.querySelectorAll('figure').length+"
"' series shown';}\n"
"s.onchange=apply;b.oninput=apply;\n"
"var q=new URLSearchParams(location.hash.slice(1));"
"if(q.has('shape'))s.value=q.get('shape');"
"if(q.has('bench'))b.value=q.get('bench');apply();})();\n"
"</script>\n";

/* The body; its tables' headings at level (2 on a page, 3 in a report). */
static void
hh_section(const struct history *h, struct strbuf *out, int level)
{
	size_t	i, j, ncp = 0, nreg = 0;

	for (i = 0; i < h->nseries; i++) {
		ncp += h->series[i].ncps;
		for (j = 0; j < h->series[i].nalarms; j++)
			nreg += strcmp(h->series[i].alarms[j].verdict,
			    "regressed") == 0;
	}
	strbuf_adds(out, hh_style);
	strbuf_addf(out, "<p id=\"summary\">%zu shape%s, %zu series, "
	    "%zu change point%s, %zu night%s judged regressed. Each chart: "
	    "the median of each night's executions (blue) and its 95%% "
	    "interval (grey); change points (orange, with their size) by "
	    "E-divisive means with Student's t-test (Apache Otava's method: "
	    "windows of %zu nights, p &lt;= %g, %zu nights a side at least); "
	    "triangles: the nights <code>abbench nightly</code> judged "
	    "regressed (red) or improved (green) at a %.1f%% threshold.</p>\n",
	    h->nplaces, h->nplaces == 1 ? "" : "s", h->nseries, ncp,
	    ncp == 1 ? "" : "s", nreg, nreg == 1 ? "" : "s", h->opt.ed.window,
	    h->opt.ed.max_p, h->opt.ed.min_size, 100 * h->opt.threshold);
	hh_filters(out, h);
	strbuf_adds(out, "<div id=\"charts\">\n");
	for (i = 0; i < h->nseries; i++) {
		const struct history_series	*s = &h->series[i];

		strbuf_adds(out, "<figure");
		hh_data(out, h, s);
		strbuf_adds(out, "><figcaption>");
		hh_name(out, h, s);
		strbuf_adds(out, " <small>");
		hh_unit(out, s);
		strbuf_adds(out, " &middot; ");
		hh_text(out, h->places[s->place].name);
		strbuf_adds(out, "</small></figcaption>\n");
		hh_chart(out, h, s);
		strbuf_adds(out, "</figure>\n");
	}
	strbuf_adds(out, "</div>\n");
	hh_cp_table(out, h, level);
	hh_alarm_table(out, h, level);
	strbuf_adds(out, hh_script);
}

void
history_format_section(const struct history *h, struct strbuf *out)
{
	hh_section(h, out, 3);
}

void
history_format_html(const struct history *h, struct strbuf *out)
{
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>History of ");
	hh_text(out, h->experiment);
	strbuf_adds(out, "</title>\n<style>body{font-family:sans-serif;"
	    "margin:1em 2em;color:#222}</style>\n</head>\n<body>\n"
	    "<h1>History of ");
	hh_text(out, h->experiment);
	strbuf_adds(out, "</h1>\n");
	hh_section(h, out, 2);
	strbuf_adds(out, "</body>\n</html>\n");
}
