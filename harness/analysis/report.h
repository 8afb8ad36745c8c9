/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report of a run: one self-contained file for people who were not
 * there. HTML (plots inlined as SVG) or Markdown (PNG plots written beside
 * it): the experiment file, the arms with their runtime versions and
 * settings, host metadata and warnings, the benchstat tables (exactly what
 * `abbench stat --db F RUN` prints), the plots, the failed samples, and
 * p-values corrected across every benchmark of the run (Holm and
 * Benjamini-Hochberg), marking which changes survive the correction.
 * A nightly verdict may be added as a section of its own. A run of a
 * fleet (abbench fleet) whose other shapes are in the same database gets
 * the cross-shape table too: shapes on rows, arms on columns.
 *
 * Runs gnuplot (through plot.h) for the plots; a missing gnuplot leaves
 * the plots out with a note. Not thread-safe (like the store).
 */
#ifndef ABBENCH_REPORT_H
#define ABBENCH_REPORT_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct nightly_result;

enum report_format {
	REPORT_HTML,
	REPORT_MARKDOWN,
};

struct report_options {
	const char			*path;		/* the file to write */
	enum report_format		 format;
	int				 no_plots;
	const struct nightly_result	*nightly;	/* or NULL */
	double				 alpha;		/* 0 = 0.05 */
	/*
	 * Per-benchmark plots for the first max_plots (benchmark, unit)
	 * pairs of the run, 0 = REPORT_MAX_PLOTS, REPORT_PLOTS_ALL = every
	 * one; the tables always hold every row.
	 */
	size_t				 max_plots;
};

/*
 * Above this many (benchmark, unit) pairs the report draws the first ones
 * only and says so: a plot costs a gnuplot run and ~20 KB of SVG, and 2000
 * workloads made a 78 MB report in six minutes (issue #53).
 */
#define REPORT_MAX_PLOTS	40
#define REPORT_PLOTS_ALL	SIZE_MAX

/* HTML unless the path ends in .md or .markdown. */
enum report_format	report_format_of(const char *path);

/* Write the report of run_id. Returns 0, or -1 with *cause. */
int	report_write(struct store *st, int64_t run_id,
	    const struct report_options *o, char **cause);

#endif
