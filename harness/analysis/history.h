/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history of an experiment (`abbench history`): every place it ran
 * nightly (a host, or for runs a cluster scheduler placed a host class:
 * the shapes of a fleet), every series there (an arm, benchmark and unit
 * of the place's latest run), and per series:
 *   nights         the median of each night's executions and its 95%
 *                  interval (median +- 1.96 standard errors of the
 *                  median, nightly_median_se), as `abbench nightly`
 *                  judges them;
 *   change points  of the nights' medians (stats/edivisive.h, Otava's
 *                  method: deterministic), each with its night, its size
 *                  and its t-test;
 *   alarms         the nights `abbench nightly` judged regressed or
 *                  improved (stats/nightly-judge.h, replayed over the
 *                  whole history), with the change they found.
 * Rendered as one self-contained HTML page (history-html.c: an inline SVG
 * chart per series, filters by shape and benchmark, the table of change
 * points; no network) or as JSON with the same data.
 *
 * Reads the store only. Not thread-safe (like the store).
 */
#ifndef ABBENCH_HISTORY_H
#define ABBENCH_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"
#include "stats/edivisive.h"
#include "stats/nightly-judge.h"

struct store;

struct history_options {
	struct ed_options	 ed;
	double			 threshold;	/* nightly's; 0.02 */
	double			 alpha;		/* nightly's; 0.0005 */
	size_t			 baseline;	/* nightly's; 15 */
	size_t			 nights;	/* the latest; 0 = all */
};
void	history_options_init(struct history_options *o);

/* One night of a place. */
struct history_night {
	int64_t	 run_id;
	int64_t	 number;	/* from 1 */
	int64_t	 wall_ns;	/* its start */
};

struct history_place {
	char			*name;	/* host class, else host */
	struct history_night	*nights;
	size_t			 nnights;
};

struct history_cp {
	size_t			 night;	/* index in the place's nights */
	struct ed_change	 c;
};

struct history_alarm {
	size_t			 found;	/* index of the night it fired */
	size_t			 night;	/* index of the change's night */
	const char		*verdict; /* "regressed", "improved", ... */
	enum nightly_test	 test;
	double			 rel, z, limit;
};

struct history_series {
	size_t			 place;	/* index in places */
	char			*arm, *benchmark, *unit;
	int			 better;
	/* The nightly's control arm: this series is its ratio to it
	 * (ratio_to, else NULL), or the control's own (control: the
	 * machine's, never an alarm). */
	char			*ratio_to;
	int			 control;
	/* Per night of the place: NaN when it has no value. */
	double			*median, *lo, *hi;
	size_t			*n;
	struct history_cp	*cps;
	size_t			 ncps;
	struct history_alarm	*alarms;
	size_t			 nalarms;
};

struct history {
	char			*experiment;
	struct history_place	*places;
	size_t			 nplaces;
	struct history_series	*series;
	size_t			 nseries;
	int			 many_arms;
	struct history_options	 opt;
};

/*
 * The history of the experiment named `name` (every done run of that
 * name). 0, or -1 and *cause (no such experiment, a store error).
 */
int	history_build(struct store *st, const char *name,
	    const struct history_options *o, struct history *out,
	    char **cause);
void	history_release(struct history *h);

/* The whole history as JSON (jansson), with a final newline. */
void	history_format_json(const struct history *h, struct strbuf *out);
/* The self-contained page (history-html.c). */
void	history_format_html(const struct history *h, struct strbuf *out);
/* Its body (style, summary, filters, charts, tables, script): for a page
 * of its own, or inside the report of a night (report.c). */
void	history_format_section(const struct history *h, struct strbuf *out);

/* "2026-01-05" of a wall time in ns (UTC). */
void	history_date(int64_t wall_ns, char *buf, size_t len);

#endif
