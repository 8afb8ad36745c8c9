/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runner's progress: a live line on a terminal, a line per round
 * elsewhere, or one JSON object per sample on stdout (--json-progress).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/core/runner-int.h"
#include "lib/jsonw.h"

static void
fmt_secs(double s, char *buf, size_t len)
{
	if (s < 0 || !isfinite(s))
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600),
		    (int)fmod(s / 60, 60));
	else if (s >= 60)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60),
		    (int)fmod(s, 60));
	else
		snprintf(buf, len, "%.1fs", s);
}

/* "3/8", or "9 (make-up)" for a round past the plan's: a failed round's. */
static void
fmt_round(const struct progress *p, int round, char *buf, size_t len)
{
	if (round + 1 > p->rounds)
		snprintf(buf, len, "%d (make-up)", round + 1);
	else
		snprintf(buf, len, "%d/%d", round + 1, p->rounds);
}

/*
 * "40/120", or under stop = decided "40 of at most 120": the total is
 * then a bound that falls as workloads stop, never a count that jumps.
 * The sample number is the run's, counting what a resumed run had.
 */
static void
fmt_of(const struct progress *p, char *buf, size_t len)
{
	if (p->decided_mode && p->total > p->done)
		snprintf(buf, len, "%zu of at most %zu", p->done, p->total);
	else
		snprintf(buf, len, "%zu/%zu", p->done, p->total);
}

/* One JSON object per line (lib/jsonw: every string escaped once). */
static void
progress_json(struct progress *p, const struct plan_entry *pe,
    const struct experiment *e, const char *status, double value_secs,
    double elapsed, double eta)
{
	json_t	*o;

	/* Names as lib/jsonw writes them ("o": never refused). */
	o = json_pack("{s:i, s:i, s:I, s:I, s:o, s:o, s:s, s:f, s:f, s:f, "
	    "s:i, s:b}", "round", pe->round + 1, "rounds", p->rounds,
	    "sample", (json_int_t)p->done, "samples", (json_int_t)p->total,
	    "arm", jw_str(e->arms[pe->arm].name), "workload",
	    jw_str(e->workloads[pe->workload].name), "status", status,
	    "seconds", value_secs, "elapsed", elapsed, "eta", isfinite(eta) ?
	    eta : -1.0, "failures", p->failures, "warmup", pe->warmup);
	(void)jw_print(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
	fflush(stdout);
}

/*
 * Under stop = decided: "rows decided 2/4" after sep, or "no look yet"
 * (the rows are known from the first look on); ", 1 stopped undecided"
 * for the rows stopped for futility, which the verdict lines call
 * undecided; ", 1 reopened" for rows decided at an earlier look and
 * undecided since (the count would fall without a word: the newcomer's
 * friction 4), and why the first time in a line of its own.
 */
static void
print_decided(struct progress *p, const char *sep)
{
	if (!p->decided_mode)
		return;
	if (p->rows == 0)
		fprintf(stderr, "%srows decided: no look yet", sep);
	else
		fprintf(stderr, "%srows decided %zu/%zu", sep,
		    p->rows_decided, p->rows);
	if (p->rows_stopped > 0)
		fprintf(stderr, ", %zu stopped undecided", p->rows_stopped);
	if (p->rows_reopened > 0)
		fprintf(stderr, ", %zu reopened", p->rows_reopened);
	if (p->rows_reopened > 0 && !p->reopen_said && !p->tty) {
		fprintf(stderr, " (decided at an earlier look, undecided "
		    "since: a workload stops when all its rows are decided at "
		    "one look, and each verdict is its last look's)");
		p->reopen_said = 1;
	}
}

void
runner_progress_sample(struct progress *p, const struct plan_entry *pe,
    const struct experiment *e, const char *status, double value_secs)
{
	double	elapsed = (double)(now_mono_ns() - p->start_ns) / 1e9;
	size_t	own = p->done - p->replayed;
	double	eta = own > 0 ? elapsed / (double)own *
	    (double)(p->total - p->done) : -1;
	char	el[32], et[32], rd[48], of[64];

	if (p->quiet)
		return;
	fmt_secs(elapsed, el, sizeof el);
	fmt_secs(eta, et, sizeof et);
	if (p->json) {
		progress_json(p, pe, e, status, value_secs, elapsed, eta);
		return;
	}
	if (p->tty) {
		fmt_round(p, pe->round, rd, sizeof rd);
		fmt_of(p, of, sizeof of);
		fprintf(stderr, "\r\033[Kround %s  sample %s  %s  %s  "
		    "elapsed %s  eta %s%s  failures %d", rd, of,
		    e->arms[pe->arm].name,
		    e->workloads[pe->workload].name, el,
		    p->decided_mode ? "at most " : "", et, p->failures);
		print_decided(p, "  ");
		p->line_open = 1;
	}
}

void
runner_progress_round_end(struct progress *p, int round, const char *arm)
{
	double	elapsed = (double)(now_mono_ns() - p->start_ns) / 1e9;
	char	el[32], rd[48], of[64];

	if (p->quiet || p->json || p->tty)
		return;
	fmt_secs(elapsed, el, sizeof el);
	fmt_round(p, round, rd, sizeof rd);
	fmt_of(p, of, sizeof of);
	/* Order sequential: each arm's rounds in turn, named. */
	fprintf(stderr, "%s%s%sround %s done: %s samples, %d failures, "
	    "elapsed %s", arm != NULL ? "arm " : "", arm != NULL ? arm : "",
	    arm != NULL ? ": " : "", rd,
	    of, p->failures, el);
	print_decided(p, ", ");
	fputc('\n', stderr);
}

void
runner_progress_end(struct progress *p)
{
	if (p->tty && p->line_open && !p->quiet) {
		fputc('\n', stderr);
		p->line_open = 0;
	}
}
