/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plots of a run with gnuplot (see plot.h): group the run's samples by
 * benchmark and unit, write one gnuplot script per plot with the data
 * inline, feed it to gnuplot on stdin and check what it drew.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness/analysis/plot-int.h"
#include "results/sampletab-load.h"
#include "stats/sampletab.h"
#include "exec/spawn.h"

/* Colours of arms, in order (the first arm is the baseline). */
const char *const plot_colors[PLOT_NCOLORS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/*
 * gnuplot's single-quoted strings cannot hold every text: its scanner takes
 * the '' of a string that starts with a quote ('''x') or of two doubled
 * quotes in a row ('a''''b') as the string's end, so a name such as 'base
 * ends the string early and the rest is read as commands. A double-quoted
 * string with octal escapes has no such corner: every byte but letters,
 * digits and a few inert marks is written as \ooo, so no quote, backslash,
 * backquote (command substitution, done inside double quotes), '@' or '$'
 * (macros, data blocks) reaches the scanner as itself. Bytes of 0x80 and
 * above pass as they are where they are UTF-8, else as U+FFFD (a path's
 * pass as they are: they name the file); control characters become
 * blanks.
 */
static void
plot_quote_as(struct strbuf *sb, const char *s, int path)
{
	size_t	n;

	strbuf_addc(sb, '"');
	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			strbuf_addc(sb, ' ');
		else if (c >= 0x80 && path)
			strbuf_addc(sb, (char)c);	/* the file's bytes */
		else if (c >= 0x80) {
			/* A byte that is no UTF-8 would be in the SVG as it
			 * is, which the HTML report inlines: U+FFFD. */
			if ((n = utf8_seq_len(s, strlen(s))) == 0)
				strbuf_adds(sb, "\xef\xbf\xbd");
			else {
				strbuf_add(sb, s, n);
				s += n - 1;
			}
		} else if (isalnum(c) ||
		    strchr(" ._-/:,+=()[]#%~^*<>|!?&", c) != NULL)
			strbuf_addc(sb, (char)c);
		else
			strbuf_addf(sb, "\\%03o", c);
	}
	strbuf_addc(sb, '"');
}

void
plot_quote(struct strbuf *sb, const char *s)
{
	plot_quote_as(sb, s, 0);
}

/*
 * A label of `set xtics ("label" pos, ...)`: gnuplot reads it as a
 * format for the tic's value, so '%' is doubled (an arm named "a%n" or
 * "%" would make gnuplot fail, "a%s" would be rewritten).
 */
static void
plot_quote_tic(struct strbuf *sb, const char *s)
{
	struct strbuf	t = STRBUF_INIT;

	for (; *s != '\0'; s++) {
		if (*s == '%')
			strbuf_addc(&t, '%');
		strbuf_addc(&t, *s);
	}
	plot_quote(sb, t.buf != NULL ? t.buf : "");
	strbuf_release(&t);
}

/* A label inside a data block: double quotes, none inside. */
static void
plot_data_label(struct strbuf *sb, const char *s)
{
	char	*clean = utf8_sanitize(s, strlen(s)), *p;

	strbuf_addc(sb, '"');
	for (p = clean; *p != '\0'; p++)
		strbuf_addc(sb, *p == '"' || (unsigned char)*p < 0x20 ?
		    '\'' : *p);
	strbuf_addc(sb, '"');
	free(clean);
}

char *
plot_sanitize(const char *s)
{
	struct strbuf	sb = STRBUF_INIT;
	int		last_us = 0;

	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '-') {
			strbuf_addc(&sb, (char)c);
			last_us = 0;
		} else if (c == '=') {
			strbuf_addc(&sb, '-');
			last_us = 0;
		} else if (!last_us) {
			strbuf_addc(&sb, '_');
			last_us = 1;
		}
	}
	if (sb.len == 0 || sb.buf[0] == '.')
		strbuf_adds(&sb, "_");
	return strbuf_detach(&sb);
}

int
plot_check_file(const char *path, enum plot_format fmt, char **cause)
{
	static const unsigned char png_sig[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	char	*data, *end;
	size_t	 len;

	if ((data = read_file(path, &len, cause)) == NULL)
		return -1;
	if (fmt == PLOT_PNG) {
		if (len < 8 || memcmp(data, png_sig, 8) != 0) {
			free(data);
			return set_cause(cause, "'%s' is not a PNG image",
			    path);
		}
	} else {
		while (len > 0 && (data[len - 1] == '\n' ||
		    data[len - 1] == ' '))
			data[--len] = '\0';
		end = len >= 6 ? data + len - 6 : data;
		if ((strncmp(data, "<?xml", 5) != 0 &&
		    strncmp(data, "<svg", 4) != 0) ||
		    strstr(data, "<svg") == NULL ||
		    strcmp(end, "</svg>") != 0) {
			free(data);
			return set_cause(cause, "'%s' is not an SVG document",
			    path);
		}
	}
	free(data);
	return 0;
}

void
plot_list_release(struct plot_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].kind);
		free(l->v[i].benchmark);
		free(l->v[i].unit);
		free(l->v[i].title);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* A group for a row of the sample table; its index + 1 in *at. */
static struct plot_group *
plot_group_get(struct plot_ctx *pc, const struct sampletab_row *row,
    size_t *at, size_t *cap)
{
	struct plot_group	*g;

	if (*at != 0)
		return &pc->groups[*at - 1];
	XGROW(pc->groups, pc->ngroups, *cap);
	g = &pc->groups[pc->ngroups++];
	memset(g, 0, sizeof(*g));
	g->bench = xstrdup(row->benchmark);
	g->unit = xstrdup(row->unit);
	g->arms = xcalloc(pc->run.narms + 1, sizeof(*g->arms));
	g->first = SIZE_MAX;
	*at = pc->ngroups;
	return g;
}

static size_t
plot_arm_index(const struct store_run *run, const char *arm)
{
	size_t	a;

	for (a = 0; a < run->narms; a++)
		if (strcmp(run->arms[a], arm) == 0)
			return a;
	return run->narms;
}

/* Groups in the order of their first values shown. */
static int
plot_cmp_group(const void *a, const void *b)
{
	const struct plot_group	*x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* The run's start: its first sample's (wall clock when every value has
 * one). */
static int64_t
plot_t0(const struct sampletab *t, int *use_wall)
{
	int64_t	t0 = INT64_MAX, x;
	size_t	c, i;

	*use_wall = 1;
	for (c = 0; c < t->ncells; c++)
		for (i = 0; i < t->cells[c].n; i++)
			if (t->cells[c].v[i].start_wall_ns == 0)
				*use_wall = 0;
	for (c = 0; c < t->ncells; c++)
		for (i = 0; i < t->cells[c].n; i++) {
			x = *use_wall ? t->cells[c].v[i].start_wall_ns :
			    t->cells[c].v[i].start_ns;
			if (x < t0)
				t0 = x;
		}
	return t0;
}

static void
plot_gather(struct plot_ctx *pc, const struct sampletab *tab)
{
	size_t			 c, i, a, cap = 0, g, *gof;
	int64_t			 t0, t;
	int			 use_wall;

	t0 = plot_t0(tab, &use_wall);
	gof = xcalloc(tab->nrows + 1, sizeof(*gof));
	for (c = 0; c < tab->ncells; c++) {
		const struct sampletab_cell	*cell = &tab->cells[c];
		const struct sampletab_row	*row = &tab->rows[cell->row];
		struct plot_group		*gr = NULL;
		struct plot_arm_data		*ad;

		a = plot_arm_index(&pc->run, tab->arms[cell->arm]);
		if (a == pc->run.narms)
			continue;
		for (i = 0; i < cell->n; i++) {
			const struct sampletab_value	*x = &cell->v[i];

			if (!isfinite(x->value))
				continue;
			if (gr == NULL)
				gr = plot_group_get(pc, row, &gof[cell->row],
				    &cap);
			if (x->seq < gr->first)
				gr->first = x->seq;
			ad = &gr->arms[a];
			if (ad->n >= ad->cap) {
				ad->cap = ad->cap ? ad->cap * 2 : 16;
				ad->v = xreallocarray(ad->v, ad->cap,
				    sizeof(*ad->v));
				ad->t = xreallocarray(ad->t, ad->cap,
				    sizeof(*ad->t));
				ad->round = xreallocarray(ad->round, ad->cap,
				    sizeof(*ad->round));
			}
			t = use_wall ? x->start_wall_ns : x->start_ns;
			ad->v[ad->n] = x->value;
			ad->t[ad->n] = t - t0;
			ad->round[ad->n] = x->round;
			ad->n++;
		}
	}
	free(gof);
	if (pc->ngroups > 0)
		xqsort(pc->groups, pc->ngroups, sizeof(*pc->groups),
		    plot_cmp_group);

	for (g = 0; g < pc->ngroups; g++) {
		struct plot_group	*gr = &pc->groups[g];
		double			*centers;
		size_t			 nc = 0;

		centers = xcalloc(pc->run.narms + 1, sizeof(*centers));
		for (a = 0; a < pc->run.narms; a++) {
			struct plot_arm_data	*ad = &gr->arms[a];

			if (ad->n == 0)
				continue;
			ad->sorted = xcalloc(ad->n, sizeof(double));
			memcpy(ad->sorted, ad->v, ad->n * sizeof(double));
			xqsort(ad->sorted, ad->n, sizeof(double),
			    cmp_double);
			bm_summarize(ad->sorted, ad->n, BM_ASSUME_NOTHING,
			    pc->confidence, &ad->sum);
			ad->summarized = 1;
			centers[nc++] = ad->sum.center;
		}
		scaler_common(centers, nc, unit_class_of(gr->unit), &gr->sc);
		free(centers);
	}
}

static void
plot_groups_free(struct plot_ctx *pc)
{
	size_t	g, a;

	for (g = 0; g < pc->ngroups; g++) {
		for (a = 0; a < pc->run.narms; a++) {
			free(pc->groups[g].arms[a].v);
			free(pc->groups[g].arms[a].t);
			free(pc->groups[g].arms[a].round);
			free(pc->groups[g].arms[a].sorted);
			if (pc->groups[g].arms[a].summarized)
				bm_summary_release(&pc->groups[g].arms[a].sum);
		}
		free(pc->groups[g].arms);
		free(pc->groups[g].bench);
		free(pc->groups[g].unit);
	}
	free(pc->groups);
	pc->groups = NULL;
	pc->ngroups = 0;
}

/* The terminal, output and the lines common to every plot. */
static void
plot_preamble(struct plot_ctx *pc, struct strbuf *sb, const char *path,
    const char *title)
{
	if (pc->o->format == PLOT_PNG)
		strbuf_adds(sb, "set terminal pngcairo size 960,600 "
		    "noenhanced font 'Sans,10' background rgb 'white'\n");
	else
		strbuf_adds(sb, "set terminal svg size 960,600 noenhanced "
		    "font 'Sans,10' background rgb 'white'\n");
	strbuf_adds(sb, "set encoding utf8\nset output ");
	plot_quote_as(sb, path, 1);
	strbuf_adds(sb, "\nset title ");
	plot_quote(sb, title);
	strbuf_adds(sb, "\nset grid ytics\nset datafile missing '?'\n"
	    "set key outside bottom center horizontal\n");
}

static char *
plot_axis_label(const struct plot_group *g)
{
	return xasprintf("%s%s", g->sc.prefix, g->unit);
}

static char *
plot_title(struct plot_ctx *pc, const char *what, const char *bench,
    const char *unit)
{
	return xasprintf("%s %s (%s) - host %s, run %" PRId64 " %s", bench,
	    what, unit, pc->run.host != NULL && *pc->run.host != '\0' ?
	    pc->run.host : "?", pc->run.id, pc->run.name ? pc->run.name : "");
}

void
plot_num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, " %.10g", v);
	else
		strbuf_adds(sb, " ?");
}

static void
plot_script_samples(struct plot_ctx *pc, const struct plot_group *g,
    struct strbuf *sb)
{
	size_t			 a, i, nshown = 0;
	double			 f = g->sc.factor;
	char			*label;
	int			 first = 1, infinite = 0;

	label = plot_axis_label(g);
	strbuf_adds(sb, "set ylabel ");
	plot_quote(sb, label);
	free(label);
	strbuf_addf(sb, "\nset xrange [0.4:%zu.6]\nset xtics (", pc->run.narms);
	for (a = 0; a < pc->run.narms; a++) {
		if (a > 0)
			strbuf_adds(sb, ", ");
		plot_quote_tic(sb, pc->run.arms[a]);
		strbuf_addf(sb, " %zu", a + 1);
	}
	strbuf_adds(sb, ")\nset style fill transparent solid 0.15 border\n"
	    "set style boxplot nooutliers\nset boxwidth 0.5\n");
	for (a = 0; a < pc->run.narms; a++) {
		const struct plot_arm_data	*ad = &g->arms[a];

		strbuf_addf(sb, "$a%zu << EOD\n", a);
		for (i = 0; i < ad->n; i++) {
			/* A deterministic jitter so equal values stay seen. */
			double	jit = ((double)(i % 9) - 4) * 0.035;

			strbuf_addf(sb, "%.6f", (double)(a + 1) + jit);
			plot_num(sb, ad->v[i] / f);
			strbuf_addc(sb, '\n');
		}
		strbuf_adds(sb, "EOD\n");
	}
	strbuf_adds(sb, "$ci << EOD\n");
	for (a = 0; a < pc->run.narms; a++) {
		const struct plot_arm_data	*ad = &g->arms[a];
		double				 lo, hi;

		if (!ad->summarized)
			continue;
		lo = ad->sum.lo;
		hi = ad->sum.hi;
		if (!isfinite(lo) || !isfinite(hi)) {
			lo = hi = ad->sum.center;
			infinite = 1;
		}
		strbuf_addf(sb, "%zu", a + 1);
		plot_num(sb, ad->sum.center / f);
		plot_num(sb, lo / f);
		plot_num(sb, hi / f);
		strbuf_addc(sb, '\n');
		nshown++;
	}
	strbuf_adds(sb, "EOD\nplot ");
	for (a = 0; a < pc->run.narms; a++) {
		const char	*col = plot_colors[a % PLOT_NCOLORS];

		if (g->arms[a].n == 0)
			continue;
		if (!first)
			strbuf_adds(sb, ", \\\n     ");
		first = 0;
		strbuf_addf(sb, "$a%zu using (%zu):2 with boxplot lc rgb '%s' "
		    "notitle, \\\n     $a%zu using 1:2 with points pt 7 ps 0.7 "
		    "lc rgb '%s' title ", a, a + 1, col, a, col);
		plot_quote(sb, pc->run.arms[a]);
	}
	if (nshown > 0) {
		strbuf_adds(sb, ", \\\n     $ci using 1:2:3:4 with yerrorbars "
		    "pt 5 ps 1.3 lw 2 lc rgb 'black' title ");
		label = infinite ? xasprintf("median (CI needs more samples)") :
		    xasprintf("median, %g%% CI", 100 * pc->confidence);
		plot_quote(sb, label);
		free(label);
	}
	strbuf_adds(sb, "\n");
}

/*
 * The start of stored round r in g's samples, in seconds: midway between
 * the last sample before it and its first (its first when none is
 * before); NaN when no sample is of round r or later.
 */
static double
plot_round_start(const struct plot_ctx *pc, const struct plot_group *g,
    int r)
{
	int64_t	lo = INT64_MIN, hi = INT64_MAX;
	size_t	a, i;

	for (a = 0; a < pc->run.narms; a++)
		for (i = 0; i < g->arms[a].n; i++) {
			int64_t	t = g->arms[a].t[i];

			if (g->arms[a].round[i] < r && t > lo)
				lo = t;
			else if (g->arms[a].round[i] >= r && t < hi)
				hi = t;
		}
	if (hi == INT64_MAX)
		return NAN;
	if (lo == INT64_MIN || lo > hi)
		return (double)hi / 1e9;
	return ((double)lo + (double)hi) / 2e9;
}

/*
 * A dashed line at each level shift of g that the report shows
 * (harness/analysis/shifts.h), labelled with the round, the level's change and
 * every comparison that moved with it: "round 17: level fell 66%; idle8
 * vs idle0 +203.5% -> +12.7%".
 */
static void
plot_shift_marks(struct plot_ctx *pc, const struct plot_group *g,
    struct strbuf *sb)
{
	const struct shift_row	*row = NULL;
	struct strbuf		 text = STRBUF_INIT;
	char			*level;
	int64_t			 tmax = 0;
	size_t			 i, a, k = 0;

	for (i = 0; i < pc->shifts.n && row == NULL; i++)
		if (strcmp(pc->shifts.rows[i].benchmark, g->bench) == 0 &&
		    strcmp(pc->shifts.rows[i].unit, g->unit) == 0)
			row = &pc->shifts.rows[i];
	if (row == NULL)
		return;
	for (a = 0; a < pc->run.narms; a++)
		for (i = 0; i < g->arms[a].n; i++)
			if (g->arms[a].t[i] > tmax)
				tmax = g->arms[a].t[i];
	for (i = 0; i < row->res.n; i++) {
		const struct ls_shift	*sh = &row->res.shifts[i];
		int			 r = row->rounds[sh->round];
		double			 x = plot_round_start(pc, g, r);
		int			 right;

		if (!shift_shown(&pc->shifts, sh) || !isfinite(x))
			continue;
		level = shift_level_text(sh);
		strbuf_reset(&text);
		strbuf_addf(&text, "round %d: %s", r + 1, level);
		free(level);
		for (a = 1; a < row->res.narms && a < pc->run.narms; a++)
			if (sh->arms[a].changed)
				strbuf_addf(&text, "; %s vs %s %+.1f%% -> "
				    "%+.1f%%", pc->run.arms[a],
				    pc->run.arms[0], 100 * sh->arms[a].before,
				    100 * sh->arms[a].after);
		/* Past the middle the label reads leftwards from the line. */
		right = x > (double)tmax / 2e9;
		strbuf_adds(sb, "set arrow from first");
		plot_num(sb, x);
		strbuf_adds(sb, ", graph 0 to first");
		plot_num(sb, x);
		strbuf_adds(sb, ", graph 1 nohead dt 2 lw 1.5 "
		    "lc rgb '#444444' back\nset label ");
		plot_quote(sb, text.buf);
		strbuf_adds(sb, " at first");
		plot_num(sb, x);
		strbuf_addf(sb, ", graph %.2f %s offset character %s, 0 "
		    "tc rgb '#444444' front\n", 0.97 - 0.05 * (double)(k % 8),
		    right ? "right" : "left", right ? "-0.5" : "0.5");
		k++;
	}
	strbuf_release(&text);
}

static void
plot_script_time(struct plot_ctx *pc, const struct plot_group *g,
    struct strbuf *sb)
{
	size_t	a, i;
	double	f = g->sc.factor;
	char	*label;
	int	first = 1;

	label = plot_axis_label(g);
	strbuf_adds(sb, "set ylabel ");
	plot_quote(sb, label);
	free(label);
	strbuf_adds(sb, "\nset xlabel 'start of the sample (seconds into "
	    "the run)'\nset grid xtics\n");
	for (a = 0; a < pc->run.narms; a++) {
		const struct plot_arm_data	*ad = &g->arms[a];

		strbuf_addf(sb, "$t%zu << EOD\n", a);
		for (i = 0; i < ad->n; i++) {
			strbuf_addf(sb, "%.3f", (double)ad->t[i] / 1e9);
			plot_num(sb, ad->v[i] / f);
			strbuf_addc(sb, '\n');
		}
		strbuf_adds(sb, "EOD\n");
	}
	plot_shift_marks(pc, g, sb);
	strbuf_adds(sb, "plot ");
	for (a = 0; a < pc->run.narms; a++) {
		if (g->arms[a].n == 0)
			continue;
		if (!first)
			strbuf_adds(sb, ", \\\n     ");
		first = 0;
		strbuf_addf(sb, "$t%zu using 1:2 with linespoints pt 7 ps 0.7 "
		    "lw 1 lc rgb '%s' title ", a,
		    plot_colors[a % PLOT_NCOLORS]);
		plot_quote(sb, pc->run.arms[a]);
	}
	strbuf_adds(sb, "\n");
}

/* The grouped bars of a matrix: mem[] share the base name and unit. */
static void
plot_script_matrix(struct plot_ctx *pc, const char *base,
    const struct plot_group *const *mem, size_t nmem, struct strbuf *sb)
{
	size_t		 i, a, nb = strlen(base);
	struct scaler	 sc;
	double		*centers, f;
	char		*label;
	int		 arms = pc->run.narms > 1;
	size_t		 nc = 0, col;

	strbuf_adds(sb, "set style data histograms\n"
	    "set style histogram errorbars gap 2 lw 1\n"
	    "set style fill solid 0.6 border -1\nset boxwidth 0.9\n"
	    "set xtics rotate by -30 noenhanced\nset xzeroaxis lt -1\n"
	    "set bars 0.5\nset yrange [*<0:0<*]\n");
	centers = xcalloc(nmem * (pc->run.narms + 1) + 1, sizeof(*centers));
	for (i = 0; i < nmem; i++)
		for (a = 0; a < pc->run.narms; a++)
			if (mem[i]->arms[a].summarized)
				centers[nc++] = mem[i]->arms[a].sum.center;
	scaler_common(centers, nc, unit_class_of(mem[0]->unit), &sc);
	free(centers);
	f = sc.factor;
	strbuf_adds(sb, "set ylabel ");
	if (arms) {
		label = xasprintf("change of the median vs %s (%%)",
		    pc->run.arms[0]);
		plot_quote(sb, label);
		free(label);
	} else {
		label = xasprintf("%s%s", sc.prefix, mem[0]->unit);
		plot_quote(sb, label);
		free(label);
	}
	strbuf_adds(sb, "\n$m << EOD\n");
	for (i = 0; i < nmem; i++) {
		const struct plot_group	*g = mem[i];
		const char		*key = g->bench + nb;

		if (*key == '/')
			key++;
		plot_data_label(sb, key);
		if (!arms) {
			const struct plot_arm_data	*ad = &g->arms[0];

			plot_num(sb, ad->summarized ? ad->sum.center / f : NAN);
			plot_num(sb, ad->summarized ? ad->sum.lo / f : NAN);
			plot_num(sb, ad->summarized ? ad->sum.hi / f : NAN);
		}
		for (a = 1; arms && a < pc->run.narms; a++) {
			const struct plot_arm_data	*b = &g->arms[0];
			const struct plot_arm_data	*n = &g->arms[a];
			double				 d = NAN, lo = NAN;
			double				 hi = NAN;

			if (b->summarized && n->summarized &&
			    b->sum.center != 0) {
				d = 100 * (n->sum.center / b->sum.center - 1);
				if (b->sum.lo > 0 && n->sum.lo > 0 &&
				    isfinite(b->sum.hi) &&
				    isfinite(n->sum.hi)) {
					lo = 100 * (n->sum.lo / b->sum.hi - 1);
					hi = 100 * (n->sum.hi / b->sum.lo - 1);
				} else
					lo = hi = d;
			}
			plot_num(sb, d);
			plot_num(sb, lo);
			plot_num(sb, hi);
		}
		strbuf_addc(sb, '\n');
	}
	strbuf_adds(sb, "EOD\nplot ");
	if (!arms) {
		strbuf_addf(sb, "$m using 2:3:4:xtic(1) lc rgb '%s' title ",
		    plot_colors[0]);
		label = xasprintf("%s: median, %g%% CI", pc->run.arms[0],
		    100 * pc->confidence);
		plot_quote(sb, label);
		free(label);
	}
	for (a = 1, col = 2; arms && a < pc->run.narms; a++, col += 3) {
		if (a > 1)
			strbuf_adds(sb, ", \\\n     ");
		strbuf_addf(sb, "$m using %zu:%zu:%zu%s lc rgb '%s' title ",
		    col, col + 1, col + 2, a == 1 ? ":xtic(1)" : "",
		    plot_colors[a % PLOT_NCOLORS]);
		label = xasprintf("%s vs %s", pc->run.arms[a], pc->run.arms[0]);
		plot_quote(sb, label);
		free(label);
	}
	strbuf_adds(sb, "\n");
}

/*
 * Run gnuplot on a script of nplots plots (the timeout is per plot) and
 * check the file it wrote (path NULL: the caller checks).
 */
static int
plot_gnuplot(struct plot_ctx *pc, const char *script, const char *path,
    size_t nplots, char **cause)
{
	struct child	 c;
	char		*argv[2], *st, *tail;
	int64_t		 timeout = (pc->o->timeout_ns > 0 ? pc->o->timeout_ns :
			    60LL * NSEC_PER_SEC) * (int64_t)nplots;
	struct sigaction ign, old;
	int		 rc = -1, r;

	argv[0] = (char *)(pc->o->gnuplot != NULL ? pc->o->gnuplot : "gnuplot");
	argv[1] = NULL;
	memset(&c, 0, sizeof(c));
	c.argv = argv;
	c.flags = SPAWN_STDIN_BUF | SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
	c.in = script;
	c.inlen = strlen(script);
	if (path != NULL)
		(void)unlink(path);
	/*
	 * A gnuplot that exits before reading all of its script must not
	 * kill us with SIGPIPE: ignore it while feeding the script (the
	 * child gets the default back before exec).
	 */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	r = spawn_run(&c, timeout, cause);
	sigaction(SIGPIPE, &old, NULL);
	if (r == -1)
		goto out;
	if (c.timed_out || !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
		st = spawn_describe_status(c.status, c.timed_out);
		tail = last_lines(c.err.buf != NULL ? c.err.buf : "",
		    c.err.len, 3);
		set_cause(cause, "gnuplot %s drawing '%s'%s%s", st,
		    path != NULL ? path : "the plots", *tail != '\0' ? ": " :
		    "", tail);
		free(st);
		free(tail);
		goto out;
	}
	rc = path != NULL ? plot_check_file(path, pc->o->format, cause) : 0;
out:
	spawn_release(&c);
	return rc;
}

int
plot_emit(struct plot_ctx *pc, const char *kind, const char *bench,
    const char *unit, const char *title, struct strbuf *body, char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	struct plot_file *pf;
	char		*b, *u, *path;
	size_t		 i;
	int		 k;

	(void)cause;

	b = plot_sanitize(bench);
	u = plot_sanitize(unit);
	path = xasprintf("%s/%s.%s.%s.%s", pc->o->dir, b, u, kind,
	    pc->o->format == PLOT_PNG ? "png" : "svg");
	/* Two names may sanitize alike: keep both. */
	for (k = 2, i = 0; i < pc->out->n; i++) {
		if (strcmp(pc->out->v[i].path, path) == 0) {
			free(path);
			path = xasprintf("%s/%s.%s.%s-%d.%s", pc->o->dir, b, u,
			    kind, k++, pc->o->format == PLOT_PNG ? "png" :
			    "svg");
			i = (size_t)-1;
		}
	}
	free(b);
	free(u);
	plot_preamble(pc, &sb, path, title);
	strbuf_add(&sb, body->buf != NULL ? body->buf : "", body->len);
	strvec_push(&pc->pend_path, path);
	strvec_push_nodup(&pc->pend_script, strbuf_detach(&sb));
	pc->out->v = xreallocarray(pc->out->v, pc->out->n + 1,
	    sizeof(*pc->out->v));
	pf = &pc->out->v[pc->out->n++];
	pf->path = path;
	pf->kind = xstrdup(kind);
	pf->benchmark = xstrdup(bench);
	pf->unit = xstrdup(unit);
	pf->title = xstrdup(title);
	return 0;
}

/* Take the plot at path out of the list (gnuplot could not draw it). */
static void
plot_drop(struct plot_list *l, const char *path)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].path, path) == 0)
			break;
	if (i == l->n)
		return;
	free(l->v[i].path);
	free(l->v[i].kind);
	free(l->v[i].benchmark);
	free(l->v[i].unit);
	free(l->v[i].title);
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

/*
 * Draw the pending plots: one gnuplot for all of them (each closes its
 * file and resets the session: what each alone would draw), and each
 * alone when that one fails or a file is not right.
 */
static void
plot_draw(struct plot_ctx *pc)
{
	struct strbuf	 all = STRBUF_INIT;
	char		*why = NULL;
	size_t		 i, n = pc->pend_path.n;
	int		 batch;

	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		(void)unlink(pc->pend_path.v[i]);
		strbuf_adds(&all, pc->pend_script.v[i]);
		strbuf_adds(&all, "\nunset output\nreset session\n");
	}
	batch = plot_gnuplot(pc, all.buf, NULL, n, &why) == 0;
	free(why);
	strbuf_release(&all);
	for (i = 0; i < n; i++) {
		why = NULL;
		if (batch && plot_check_file(pc->pend_path.v[i],
		    pc->o->format, &why) == 0)
			continue;
		free(why);
		why = NULL;
		if (plot_gnuplot(pc, pc->pend_script.v[i], pc->pend_path.v[i],
		    1, &why) == 0)
			continue;
		if (pc->nfailed++ == 0)
			pc->failed = why;
		else
			free(why);
		(void)unlink(pc->pend_path.v[i]);
		plot_drop(pc->out, pc->pend_path.v[i]);
	}
	strvec_clear(&pc->pend_path);
	strvec_clear(&pc->pend_script);
}

int
plot_failures(struct plot_ctx *pc, char **cause)
{
	int	rc = 0;

	plot_draw(pc);

	if (pc->nfailed > 0)
		rc = set_cause(cause, "%zu plot%s could not be drawn (%zu "
		    "drawn): %s", pc->nfailed, pc->nfailed == 1 ? "" : "s",
		    pc->out->n, pc->failed);
	free(pc->failed);
	pc->failed = NULL;
	pc->nfailed = 0;
	return rc;
}

int
plot_mkdir(const char *dir, char **cause)
{
	struct stat	sb;

	if (mkdir(dir, 0777) == -1 && errno != EEXIST)
		return set_cause(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
	if (stat(dir, &sb) == -1 || !S_ISDIR(sb.st_mode))
		return set_cause(cause, "'%s' is not a directory", dir);
	return 0;
}

/* The base of a matrix member "Name/key=value/..." or NULL. */
static char *
plot_matrix_base(const char *bench)
{
	const char	*slash = strchr(bench, '/');

	if (slash == NULL || strchr(slash, '=') == NULL)
		return NULL;
	return xstrndup(bench, (size_t)(slash - bench));
}

static int
plot_matrices(struct plot_ctx *pc, char **cause)
{
	const struct plot_group	**mem;
	struct strbuf		  body = STRBUF_INIT;
	char			 *base, *other, *title, *what;
	unsigned char		 *done;
	size_t			  g, h, nmem, cap, shown, ndrawn = 0;
	int			  rc = 0;

	done = xcalloc(pc->ngroups + 1, 1);
	mem = xcalloc(pc->ngroups + 1, sizeof(*mem));
	for (g = 0; g < pc->ngroups && rc == 0; g++) {
		if (done[g] || (base = plot_matrix_base(pc->groups[g].bench)) ==
		    NULL)
			continue;
		nmem = 0;
		for (h = g; h < pc->ngroups; h++) {
			if (done[h] || strcmp(pc->groups[h].unit,
			    pc->groups[g].unit) != 0)
				continue;
			other = plot_matrix_base(pc->groups[h].bench);
			if (other != NULL && strcmp(other, base) == 0) {
				mem[nmem++] = &pc->groups[h];
				done[h] = 1;
			}
			free(other);
		}
		/*
		 * With a budget, a matrix draws its first max_groups members
		 * (a bar per member: thousands are neither readable nor
		 * small) and the matrices past the budget are not drawn.
		 */
		cap = pc->o->max_groups;
		if (nmem >= 2 && cap != 0 && ndrawn >= cap) {
			pc->out->nmatrix_cut += nmem;
			nmem = 0;
		}
		if (nmem >= 2) {
			shown = cap != 0 && nmem > cap ? cap : nmem;
			strbuf_reset(&body);
			plot_script_matrix(pc, base, mem, shown, &body);
			if (shown < nmem) {
				pc->out->nmatrix_cut += nmem - shown;
				what = pc->run.narms > 1 ? xasprintf("matrix, "
				    "first %zu of %zu, change vs %s", shown,
				    nmem, pc->run.arms[0]) : xasprintf("matrix"
				    ", first %zu of %zu", shown, nmem);
			} else
				what = pc->run.narms > 1 ? xasprintf("matrix, "
				    "change vs %s", pc->run.arms[0]) :
				    xstrdup("matrix");
			ndrawn++;
			title = plot_title(pc, what, base, pc->groups[g].unit);
			rc = plot_emit(pc, "matrix", base, pc->groups[g].unit,
			    title, &body, cause);
			free(title);
			free(what);
		}
		free(base);
	}
	strbuf_release(&body);
	free(done);
	free(mem);
	return rc;
}

static int
plot_has_times(const struct plot_ctx *pc, const struct plot_group *g)
{
	size_t	a, i;
	int64_t	first = 0;
	int	seen = 0;

	for (a = 0; a < pc->run.narms; a++)
		for (i = 0; i < g->arms[a].n; i++) {
			if (seen && g->arms[a].t[i] != first)
				return 1;
			first = g->arms[a].t[i];
			seen = 1;
		}
	return 0;
}

int
plot_run_tab(struct store *st, const struct store_run *run,
    const struct sampletab *t, const struct shift_scan *shifts,
    const struct plot_options *o, struct plot_list *out, char **cause)
{
	struct plot_ctx	 pc;
	struct strbuf	 body = STRBUF_INIT;
	char		*title;
	size_t		 g;
	int		 rc = -1;

	out->v = NULL;
	out->n = 0;
	out->ngroups = out->nskipped = out->nmatrix_cut = 0;
	memset(&pc, 0, sizeof(pc));
	pc.st = st;
	pc.o = o;
	pc.out = out;
	pc.confidence = o->confidence > 0 ? o->confidence : 0.95;
	/* The caller's run and shifts, read only: not released here. */
	pc.run = *run;
	pc.shifts = *shifts;
	if (plot_mkdir(o->dir, cause) == -1)
		goto out;
	plot_gather(&pc, t);
	out->ngroups = pc.ngroups;
	for (g = 0; g < pc.ngroups; g++) {
		const struct plot_group	*gr = &pc.groups[g];

		if (o->max_groups != 0 && g >= o->max_groups) {
			out->nskipped = pc.ngroups - g;
			break;
		}
		strbuf_reset(&body);
		plot_script_samples(&pc, gr, &body);
		title = plot_title(&pc, "samples", gr->bench, gr->unit);
		if (plot_emit(&pc, "samples", gr->bench, gr->unit, title,
		    &body, cause) == -1) {
			free(title);
			goto out;
		}
		free(title);
		/* Imported runs have no times: nothing to draw. */
		if (!plot_has_times(&pc, gr))
			continue;
		strbuf_reset(&body);
		plot_script_time(&pc, gr, &body);
		title = plot_title(&pc, "in run order", gr->bench, gr->unit);
		if (plot_emit(&pc, "time", gr->bench, gr->unit, title, &body,
		    cause) == -1) {
			free(title);
			goto out;
		}
		free(title);
	}
	if (plot_matrices(&pc, cause) == -1)
		goto out;
	rc = 0;
out:
	if (plot_failures(&pc, rc == 0 ? cause : NULL) == -1)
		rc = -1;
	strbuf_release(&body);
	plot_groups_free(&pc);
	return rc;
}

int
plot_run(struct store *st, int64_t run_id, const struct plot_options *o,
    struct plot_list *out, char **cause)
{
	struct store_run	 run;
	struct sampletab	*t;
	struct shift_scan	 shifts;
	int			 rc = -1;

	out->v = NULL;
	out->n = 0;
	out->ngroups = out->nskipped = out->nmatrix_cut = 0;
	memset(&run, 0, sizeof(run));
	if (store_run_get(st, run_id, &run, cause) == -1)
		return -1;
	if (plot_mkdir(o->dir, cause) == -1 ||
	    (t = sampletab_load(st, run_id, NULL, cause)) == NULL)
		goto out;
	if (shift_scan_tab(t, &run, &shifts, cause) == 0) {
		rc = plot_run_tab(st, &run, t, &shifts, o, out, cause);
		shift_scan_release(&shifts);
	}
	sampletab_free(t);
out:
	store_run_release(&run);
	return rc;
}
