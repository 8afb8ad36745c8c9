/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plots of a run with gnuplot. gnuplot runs as a child (spawn.h, with a
 * timeout) reading a generated script on its standard input; the data go
 * into the script as inline data blocks ($data << EOD), so nothing of the
 * data is ever on a command line.
 *
 * Per benchmark and unit:
 *   samples  each arm's samples as a box plot with the points over it, and
 *            the median with the confidence interval benchstat reports
 *            (bm_summarize, 0.95);
 *   time     the samples against their start time in the run (seconds
 *            after the first sample), one colour per arm, so drift and
 *            order effects show; a dashed line where each level shift
 *            the report lists begins (harness/analysis/shifts.h: midway between
 *            the round's first sample and the last one before it),
 *            labelled "round 14: level fell 85%; b vs a +200.0% ->
 *            +5.0%" (the comparisons that moved with it).
 * Per matrix (benchmarks Name/key=value/... sharing Name and unit, at least
 * two of them):
 *   matrix   grouped bars per combination: with several arms, the change of
 *            each arm's median against the first arm's in percent, with a
 *            conservative interval from the two medians' CIs
 *            (lo_new / hi_base - 1 .. hi_new / lo_base - 1, for positive
 *            values); with one arm, the medians with their CIs.
 * Values are scaled as benchstat scales a column (scaler_common over the
 * medians) and the axis names the unit with its prefix ("msec/op",
 * "MiB"). Titles name the benchmark, unit, host and run.
 *
 * Not thread-safe (like the store).
 */
#ifndef ABBENCH_PLOT_H
#define ABBENCH_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct store;

enum plot_format {
	PLOT_PNG,
	PLOT_SVG,
};

struct plot_options {
	const char		*dir;		/* created if missing */
	enum plot_format	 format;
	int64_t			 timeout_ns;	/* per gnuplot; 0 = 60 s */
	const char		*gnuplot;	/* NULL = "gnuplot" on PATH */
	double			 confidence;	/* 0 = 0.95 */
	/*
	 * Draw the samples and time plots of the first max_groups
	 * (benchmark, unit) pairs only, 0 = all: each plot is one gnuplot
	 * (tens of ms) and a few dozen KB of SVG, so a run of thousands of
	 * workloads would take minutes and a report of tens of MB. So
	 * too for matrices: the first max_groups of them, each with its
	 * first max_groups members.
	 */
	size_t			 max_groups;
};

struct plot_file {
	char	*path;		/* dir/NAME.png */
	char	*kind;		/* "samples", "time", "matrix" */
	char	*benchmark;	/* the benchmark, or the matrix base name */
	char	*unit;
	char	*title;
};

struct plot_list {
	struct plot_file	*v;
	size_t			 n;
	size_t			 ngroups;	/* (benchmark, unit) pairs */
	size_t			 nskipped;	/* of them, not drawn */
	size_t			 nmatrix_cut;	/* matrix members not drawn */
};

/*
 * Draw every plot of run_id into o->dir. Each file is checked: gnuplot
 * exited 0 and the file starts with the PNG signature or is an SVG
 * document. Returns 0 with the files in *out (release with
 * plot_list_release), or -1 with *cause (files already drawn stay in
 * *out). A run without samples draws nothing and is not an error.
 */
int	plot_run(struct store *st, int64_t run_id, const struct plot_options *o,
	    struct plot_list *out, char **cause);
void	plot_list_release(struct plot_list *l);

/*
 * Shapes: for several runs (the shapes of a merged fleet), each metric
 * against the runs' numeric config key xkey (vcpus), one line per arm:
 * the median of the samples of every run with that x, with benchstat's
 * confidence interval, x on a log2 scale when it spans 4x or more. The
 * same benchmark on every shape is the name without its xkey=... part and
 * without the parts named in ignore (keys that follow the shape, like a
 * per-vCPU sandbox count). Files DIR/NAME.UNIT.shapes.png. A run without
 * a numeric xkey is an input error: -2 with *cause (-1: a drawing
 * failed).
 */
int	plot_shapes(struct store *st, const int64_t *ids, size_t nids,
	    const char *xkey, const struct strvec *ignore,
	    const struct plot_options *o, struct plot_list *out, char **cause);

/* A file name part from a benchmark or unit: [A-Za-z0-9._-], malloc'd. */
char	*plot_sanitize(const char *s);
/* 0 if path holds a PNG (fmt PLOT_PNG) or SVG document, else -1, *cause. */
int	plot_check_file(const char *path, enum plot_format fmt, char **cause);
/*
 * A gnuplot string literal of s (double-quoted, every byte that could mean
 * something to gnuplot's scanner as an octal escape), appended to sb.
 */
void	plot_quote(struct strbuf *sb, const char *s);

#endif
