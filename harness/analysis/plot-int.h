/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the plots (plot.h): what plot.c, which draws one run, shares with
 * plot-shapes.c, which draws a metric across the runs of a fleet's shapes:
 * the arms' colours, a plot's context and the steps that write a script,
 * run gnuplot on it and collect the file.
 */
#ifndef ABBENCH_PLOT_INT_H
#define ABBENCH_PLOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "harness/analysis/plot.h"
#include "harness/analysis/shifts.h"
#include "lib/util.h"
#include "results/store.h"
#include "stats/benchmath.h"
#include "stats/benchunit.h"

#define PLOT_NCOLORS	10
extern const char *const plot_colors[PLOT_NCOLORS];

struct plot_arm_data {
	double		*v;		/* in run order */
	int64_t		*t;		/* start, ns since the run's first */
	int		*round;		/* stored round of each */
	size_t		 n, cap;
	double		*sorted;
	struct bm_summary sum;
	int		 summarized;
};

struct plot_group {
	char			*bench;
	char			*unit;
	struct plot_arm_data	*arms;	/* run.narms of them */
	struct scaler		 sc;
	size_t			 first;	/* its first value's place in
					 * the sample table */
};

struct plot_ctx {
	struct store		*st;
	const struct plot_options *o;
	struct store_run	 run;
	struct plot_group	*groups;
	size_t			 ngroups;
	double			 confidence;
	struct plot_list	*out;
	size_t			 nfailed;	/* plots gnuplot could not draw */
	char			*failed;	/* the first one's cause */
	struct shift_scan	 shifts;	/* marked on the time plots */
	/* Plots emitted, not drawn yet: plot_failures draws them all with
	 * one gnuplot (a gnuplot costs 30 ms to start: 80 plots, 2.5 s). */
	struct strvec		 pend_path, pend_script;
};

/* " %.10g", or " ?" for a value that is not finite. */
void	plot_num(struct strbuf *sb, double v);
/*
 * Write the script (the preamble, then body) for the plot KIND of BENCH
 * and UNIT and add the file to pc->out; plot_failures draws it. A plot
 * gnuplot cannot draw is counted for plot_failures and is not an error.
 */
int	plot_emit(struct plot_ctx *pc, const char *kind, const char *bench,
	    const char *unit, const char *title, struct strbuf *body,
	    char **cause);
/*
 * After all plots: draw them (one gnuplot for all; each alone when that
 * one fails, so that one plot gnuplot cannot draw does not stop the
 * others), then -1 naming the ones gnuplot could not draw, which leave
 * pc->out.
 */
int	plot_failures(struct plot_ctx *pc, char **cause);
int	plot_mkdir(const char *dir, char **cause);

#endif
