/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shapes plot (plot.h, plot_shapes): a metric against a numeric config
 * key of several runs (a merged fleet's vcpus), one line per arm.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analysis/plot-int.h"
#include "results/sampletab-load.h"
#include "stats/sampletab.h"

/*
 * Shapes: each metric against a numeric config key of the runs (vcpus),
 * one line per arm, from several runs (a merged fleet).
 */
struct shape_point {
	double		 x;
	size_t		 arm;
	double		*v;
	size_t		 n, cap;
	struct bm_summary sum;
};

struct shape_series {
	char			*bench;
	char			*unit;
	struct shape_point	*pts;
	size_t			 npts, cap;
	struct scaler		 sc;
};

struct shape_ctx {
	struct shape_series	*series;
	size_t			 nseries, cap;
	struct strvec		 arms;		/* in order of appearance */
	double			*xs;		/* distinct x values */
	size_t			 nxs;
};

/* The benchmark name without its KEY=VALUE parts for the x key and the
 * ignored keys, and without a -N suffix: the same series on every
 * shape. */
static char *
shape_series_name(const char *bench, const char *xkey,
    const struct strvec *ignore)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p = bench, *end, *eq;
	size_t		 n, i;
	int		 first = 1, drop;

	while (*p != '\0') {
		end = strchr(p, '/');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		eq = memchr(p, '=', n);
		drop = 0;
		if (!first && eq != NULL) {
			size_t	kl = (size_t)(eq - p);

			drop = strlen(xkey) == kl && memcmp(p, xkey, kl) == 0;
			for (i = 0; ignore != NULL && i < ignore->n; i++)
				drop |= strlen(ignore->v[i]) == kl &&
				    memcmp(p, ignore->v[i], kl) == 0;
		}
		if (!drop) {
			if (!first)
				strbuf_addc(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		first = 0;
		p = end != NULL ? end + 1 : p + n;
	}
	/* The -N (GOMAXPROCS, the shape's vcpus) suffix of a benchfmt
	 * name is the shape's too. */
	if (sb.len > 2) {
		size_t	e = sb.len;

		while (e > 0 && sb.buf[e - 1] >= '0' && sb.buf[e - 1] <= '9')
			e--;
		if (e < sb.len && e > 1 && sb.buf[e - 1] == '-') {
			sb.buf[e - 1] = '\0';
			sb.len = e - 1;
		}
	}
	return sb.len > 0 ? strbuf_detach(&sb) : xstrdup(bench);
}

/* A cell's finite values at (series name and unit, arm, x). */
static void
shape_add(struct shape_ctx *sc, const char *name, const char *unit,
    size_t arm, double x, const struct sampletab_cell *cl)
{
	struct shape_series	*s = NULL;
	struct shape_point	*pt = NULL;
	size_t			 i;

	for (i = 0; i < sc->nseries && s == NULL; i++)
		if (strcmp(sc->series[i].bench, name) == 0 &&
		    strcmp(sc->series[i].unit, unit) == 0)
			s = &sc->series[i];
	if (s == NULL) {
		XGROW(sc->series, sc->nseries, sc->cap);
		s = &sc->series[sc->nseries++];
		memset(s, 0, sizeof(*s));
		s->bench = xstrdup(name);
		s->unit = xstrdup(unit);
	}
	for (i = 0; i < s->npts && pt == NULL; i++)
		if (s->pts[i].arm == arm && s->pts[i].x == x)
			pt = &s->pts[i];
	if (pt == NULL) {
		XGROW(s->pts, s->npts, s->cap);
		pt = &s->pts[s->npts++];
		memset(pt, 0, sizeof(*pt));
		pt->x = x;
		pt->arm = arm;
	}
	for (i = 0; i < cl->n; i++) {
		if (!isfinite(cl->v[i].value))
			continue;
		if (pt->n >= pt->cap) {
			pt->cap = pt->cap ? pt->cap * 2 : 16;
			pt->v = xreallocarray(pt->v, pt->cap, sizeof(*pt->v));
		}
		pt->v[pt->n++] = cl->v[i].value;
	}
}

static void
shape_ctx_free(struct shape_ctx *sc)
{
	size_t	i, j;

	for (i = 0; i < sc->nseries; i++) {
		for (j = 0; j < sc->series[i].npts; j++) {
			free(sc->series[i].pts[j].v);
			bm_summary_release(&sc->series[i].pts[j].sum);
		}
		free(sc->series[i].pts);
		free(sc->series[i].bench);
		free(sc->series[i].unit);
	}
	free(sc->series);
	free(sc->xs);
	strvec_clear(&sc->arms);
}

static int
shape_cmp_point(const void *a, const void *b)
{
	const struct shape_point *p = a, *q = b;

	if (p->arm != q->arm)
		return p->arm < q->arm ? -1 : 1;
	return (p->x > q->x) - (p->x < q->x);
}

/* Read each run's x and samples into sc. */
static int
shape_gather(struct store *st, const int64_t *ids, size_t nids,
    const char *xkey, const struct strvec *ignore, struct shape_ctx *sc,
    char **cause)
{
	static const struct sampletab_filter f = { NULL, 0, 0 };
	struct store_kv		*kv;
	struct sampletab	*t;
	size_t			 nkv, r, i, c, a;
	double			 x;
	char			*end, *name;
	const char		*xs;

	for (r = 0; r < nids; r++) {
		if (store_config_list(st, ids[r], &kv, &nkv, cause) == -1)
			return -1;
		xs = NULL;
		for (i = 0; i < nkv; i++)
			if (kv[i].arm[0] == '\0' && strcmp(kv[i].key, xkey) == 0)
				xs = kv[i].value;
		x = xs != NULL ? strtod(xs, &end) : NAN;
		if (xs == NULL || end == xs || *end != '\0' || !isfinite(x)) {
			set_cause(cause, "run %" PRId64 " has %s config key "
			    "'%s'%s%s", ids[r], xs == NULL ? "no" :
			    "no numeric", xkey, xs != NULL ? ": " : "",
			    xs != NULL ? xs : "");
			store_kv_free(kv, nkv);
			return -1;
		}
		store_kv_free(kv, nkv);
		for (i = 0; i < sc->nxs && sc->xs[i] != x; i++)
			;
		if (i == sc->nxs) {
			sc->xs = xreallocarray(sc->xs, sc->nxs + 1,
			    sizeof(*sc->xs));
			sc->xs[sc->nxs++] = x;
		}
		if ((t = sampletab_load(st, ids[r], &f, cause)) == NULL)
			return -1;
		/* Arms and series in the order of their first values. */
		for (c = 0; c < t->ncells; c++) {
			const struct sampletab_cell	*cl = &t->cells[c];
			const struct sampletab_row	*row = &t->rows[cl->row];

			for (i = 0; i < cl->n && !isfinite(cl->v[i].value);
			    i++)
				;
			if (i == cl->n)
				continue;
			for (a = 0; a < sc->arms.n && strcmp(sc->arms.v[a],
			    t->arms[cl->arm]) != 0; a++)
				;
			if (a == sc->arms.n)
				strvec_push(&sc->arms, t->arms[cl->arm]);
			name = shape_series_name(row->benchmark, xkey, ignore);
			shape_add(sc, name, row->unit, a, x, cl);
			free(name);
		}
		sampletab_free(t);
	}
	xqsort(sc->xs, sc->nxs, sizeof(*sc->xs), cmp_double);
	return 0;
}

static void
shape_script(struct plot_ctx *pc, const struct shape_ctx *sc,
    struct shape_series *s, const char *xkey, struct strbuf *sb)
{
	size_t		 i, a;
	double		 f, lo, hi;
	char		*label;
	int		 first = 1;

	f = s->sc.factor;
	label = xasprintf("%s%s", s->sc.prefix, s->unit);
	strbuf_adds(sb, "set ylabel ");
	plot_quote(sb, label);
	free(label);
	strbuf_adds(sb, "\nset xlabel ");
	plot_quote(sb, xkey);
	strbuf_adds(sb, "\n");
	if (sc->nxs > 1 && sc->xs[0] > 0 &&
	    sc->xs[sc->nxs - 1] / sc->xs[0] >= 4)
		strbuf_adds(sb, "set logscale x 2\n");
	if (sc->nxs > 0) {
		double	span = sc->xs[sc->nxs - 1] - sc->xs[0];

		if (sc->nxs == 1 || !(sc->xs[0] > 0 &&
		    sc->xs[sc->nxs - 1] / sc->xs[0] >= 4))
			strbuf_addf(sb, "set xrange [%.10g:%.10g]\n",
			    sc->xs[0] - (span > 0 ? span * 0.1 : 1),
			    sc->xs[sc->nxs - 1] + (span > 0 ? span * 0.1 : 1));
		else
			strbuf_addf(sb, "set xrange [%.10g:%.10g]\n",
			    sc->xs[0] / 1.3, sc->xs[sc->nxs - 1] * 1.3);
		strbuf_adds(sb, "set xtics (");
		for (i = 0; i < sc->nxs; i++)
			strbuf_addf(sb, "%s%.10g", i ? ", " : "", sc->xs[i]);
		strbuf_adds(sb, ")\n");
	}
	for (a = 0; a < sc->arms.n; a++) {
		strbuf_addf(sb, "$a%zu << EOD\n", a);
		for (i = 0; i < s->npts; i++) {
			if (s->pts[i].arm != a)
				continue;
			lo = s->pts[i].sum.lo;
			hi = s->pts[i].sum.hi;
			if (!isfinite(lo) || !isfinite(hi))
				lo = hi = s->pts[i].sum.center;
			strbuf_addf(sb, "%.10g", s->pts[i].x);
			plot_num(sb, s->pts[i].sum.center / f);
			plot_num(sb, lo / f);
			plot_num(sb, hi / f);
			strbuf_addc(sb, '\n');
		}
		strbuf_adds(sb, "EOD\n");
	}
	strbuf_adds(sb, "plot ");
	for (a = 0; a < sc->arms.n; a++) {
		for (i = 0; i < s->npts && s->pts[i].arm != a; i++)
			;
		if (i == s->npts)
			continue;
		if (!first)
			strbuf_adds(sb, ", \\\n     ");
		first = 0;
		strbuf_addf(sb, "$a%zu using 1:2:3:4 with yerrorlines pt 7 "
		    "lw 2 lc rgb '%s' title ", a, plot_colors[a %
		    PLOT_NCOLORS]);
		plot_quote(sb, sc->arms.v[a]);
	}
	strbuf_adds(sb, "\n");
	(void)pc;
}

int
plot_shapes(struct store *st, const int64_t *ids, size_t nids,
    const char *xkey, const struct strvec *ignore,
    const struct plot_options *o, struct plot_list *out, char **cause)
{
	struct plot_ctx		 pc;
	struct shape_ctx	 sc;
	struct strbuf		 body = STRBUF_INIT;
	double			*centers;
	char			*title;
	size_t			 s, i;
	int			 rc = -1;

	out->v = NULL;
	out->n = 0;
	memset(&pc, 0, sizeof(pc));
	memset(&sc, 0, sizeof(sc));
	pc.st = st;
	pc.o = o;
	pc.out = out;
	pc.confidence = o->confidence > 0 ? o->confidence : 0.95;
	if (plot_mkdir(o->dir, cause) == -1)
		return -1;
	if (shape_gather(st, ids, nids, xkey, ignore, &sc, cause) == -1) {
		rc = -2;
		goto out;
	}
	for (s = 0; s < sc.nseries; s++) {
		struct shape_series	*se = &sc.series[s];

		xqsort(se->pts, se->npts, sizeof(*se->pts), shape_cmp_point);
		centers = xcalloc(se->npts + 1, sizeof(*centers));
		for (i = 0; i < se->npts; i++) {
			xqsort(se->pts[i].v, se->pts[i].n, sizeof(double),
			    cmp_double);
			bm_summarize(se->pts[i].v, se->pts[i].n,
			    BM_ASSUME_NOTHING, pc.confidence, &se->pts[i].sum);
			centers[i] = se->pts[i].sum.center;
		}
		scaler_common(centers, se->npts, unit_class_of(se->unit),
		    &se->sc);
		free(centers);
		strbuf_reset(&body);
		shape_script(&pc, &sc, se, xkey, &body);
		title = xasprintf("%s (%s) against %s - %zu run%s", se->bench,
		    se->unit, xkey, nids, nids == 1 ? "" : "s");
		if (plot_emit(&pc, "shapes", se->bench, se->unit, title, &body,
		    cause) == -1) {
			free(title);
			goto out;
		}
		free(title);
	}
	rc = 0;
out:
	if (plot_failures(&pc, rc == 0 ? cause : NULL) == -1 && rc == 0)
		rc = -1;
	strbuf_release(&body);
	shape_ctx_free(&sc);
	return rc;
}
