/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/aa: the A/A analysis of `abbench calibrate` on
 * made-up series (a sample table). Identical arms are not flagged, a shifted arm is in
 * every block, warm-up rounds and other benchmarks stay out of the
 * blocks, a block where an arm has no value is no comparison, a block of
 * all-equal values is a comparison that cannot be flagged, the pool of
 * the noise takes every arm, and the sequential rule's replay counts its
 * verdicts and rounds. aa_excess_p against the binomial tail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/aa.h"
#include "stats/sampletab.h"
#include "tests/unit/tap.h"

#define MAXN	256

struct mk {
	double	x[MAXN];
	int	round[MAXN];
	size_t	n;
};

/* perround values a round for rounds [r0, r1): base + step * i + shift. */
static void
fill(struct mk *m, int r0, int r1, int perround, double base, double shift)
{
	int	r, k;

	for (r = r0; r < r1; r++)
		for (k = 0; k < perround && m->n < MAXN; k++) {
			m->x[m->n] = base + (double)((r * 7 + k * 3) % 11) +
			    shift;
			m->round[m->n++] = r;
		}
}

/* One arm's values of one benchmark (in sec/op). */
struct series {
	const char	*arm;
	const char	*bench;
	const struct mk	*m;
};

static struct series
series(const char *arm, const char *bench, const struct mk *m)
{
	struct series	s;

	s.arm = arm;
	s.bench = bench;
	s.m = m;
	return s;
}

/* The series as a sample table (each value its own execution), in order,
 * analysed. */
static void
analyse(const struct series *s, size_t ns, const struct aa_design *d,
    struct aa_row **rows, size_t *nrows)
{
	struct sampletab	*t = sampletab_new(NULL, 0);
	struct sampletab_value	 v;
	size_t			 i, j;
	int			 exec = 0;

	memset(&v, 0, sizeof(v));
	for (i = 0; i < ns; i++)
		for (j = 0; j < s[i].m->n; j++) {
			v.value = s[i].m->x[j];
			v.round = s[i].m->round[j];
			v.exec = exec++;
			sampletab_add(t, s[i].arm, s[i].bench, "sec/op", &v);
		}
	sampletab_group(t);
	aa_analyse(t, d, rows, nrows);
	sampletab_free(t);
}

static void
design(struct aa_design *d, struct power_options *po, int warmup,
    int rounds, int repeats)
{
	memset(d, 0, sizeof(*d));
	power_options_init(po);
	po->reps = 40;
	d->baseline = "a";
	d->warmup = warmup;
	d->rounds = rounds;
	d->repeats = repeats;
	d->alpha = 0.05;
	d->po = po;
}

int
main(void)
{
	struct mk		 a, b, c, w;
	struct series		 s[4];
	struct aa_design	 d;
	struct power_options	 po;
	struct aa_row		*rows;
	size_t			 n;
	int			 i;

	/* Identical arms: compared in each block, never flagged. */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	fill(&a, 0, 20, 1, 100, 0);
	fill(&b, 0, 20, 1, 100, 0);
	s[0] = series("a", "X", &a);
	s[1] = series("b", "X", &b);
	design(&d, &po, 0, 10, 2);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq((int)n, 1, "one row: the baseline's series");
	tap_int_eq(rows[0].comparisons, 2, "two blocks compared");
	tap_int_eq(rows[0].flagged, 0, "identical arms not flagged");
	tap_int_eq((int)rows[0].n, 40, "the noise pools both arms (20 + 20)");
	tap_ok(rows[0].median >= 100 && rows[0].median <= 110,
	    "median of the pool %g", rows[0].median);
	tap_ok(rows[0].mde > 0 && isfinite(rows[0].mde),
	    "an MDE from 40 values: %g", rows[0].mde);
	free(rows);

	/* The baseline arm is named, not the first series: with "b" as
	 * the baseline, its series makes the row. */
	d.baseline = "b";
	analyse(s, 2, &d, &rows, &n);
	tap_ok(n == 1 && rows[0].row == 0 && rows[0].comparisons == 2,
	    "the row of baseline 'b': X, compared with a");
	free(rows);
	d.baseline = "a";

	/* A shifted arm is flagged in every block. */
	memset(&b, 0, sizeof(b));
	fill(&b, 0, 20, 1, 100, 1000);
	s[1] = series("b", "X", &b);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq(rows[0].flagged, 2, "a shifted arm flagged in both blocks");
	free(rows);

	/* Warm-up rounds are before the first block: b's wild warm-up
	 * rounds are not compared (read as a block, they would be flagged:
	 * p = 2 / C(10, 5) = 0.008). */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	fill(&a, 0, 15, 1, 100, 0);
	fill(&b, 0, 5, 1, 100, 1e6);
	fill(&b, 5, 15, 1, 100, 0);
	s[0] = series("a", "X", &a);
	s[1] = series("b", "X", &b);
	design(&d, &po, 5, 5, 2);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq(rows[0].comparisons, 2, "warm-up: two blocks after it");
	tap_int_eq(rows[0].flagged, 0, "the warm-up rounds are not compared");
	free(rows);
	design(&d, &po, 0, 5, 2);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq(rows[0].flagged, 1, "without warm-up they are the first "
	    "block, flagged");
	free(rows);

	/* A block where an arm has no value is no comparison. */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	fill(&a, 0, 20, 2, 100, 0);
	fill(&b, 0, 10, 2, 100, 0);
	s[0] = series("a", "X", &a);
	s[1] = series("b", "X", &b);
	design(&d, &po, 0, 10, 2);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq(rows[0].comparisons, 1, "b has no second block: one "
	    "comparison");
	free(rows);

	/* All-equal values: a comparison, never flagged (the U test has
	 * nothing to rank). */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (n = 0; n < 10; n++) {
		a.x[n] = b.x[n] = 5;
		a.round[n] = b.round[n] = (int)n;
	}
	a.n = b.n = 10;
	s[0] = series("a", "X", &a);
	s[1] = series("b", "X", &b);
	analyse(s, 2, &d, &rows, &n);
	tap_int_eq(rows[0].comparisons, 1, "all equal: one comparison (the "
	    "second block is empty)");
	tap_int_eq(rows[0].flagged, 0, "all equal: not flagged");
	free(rows);

	/* Other benchmarks and units stay apart; a third arm is compared
	 * too; a benchmark only the baseline has makes a row with none. */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	fill(&a, 0, 10, 1, 100, 0);
	fill(&b, 0, 10, 1, 100, 0);
	fill(&c, 0, 10, 1, 100, 1000);
	fill(&w, 0, 10, 1, 100, 0);
	s[0] = series("a", "X", &a);
	s[1] = series("b", "X", &b);
	s[2] = series("c", "X", &c);
	s[3] = series("a", "Y", &w);
	design(&d, &po, 0, 10, 1);
	analyse(s, 4, &d, &rows, &n);
	tap_int_eq((int)n, 2, "two rows: X and Y of the baseline");
	tap_int_eq(rows[0].comparisons, 2, "X: against b and c");
	tap_int_eq(rows[0].flagged, 1, "X: c (shifted) flagged, b not");
	tap_int_eq((int)rows[0].n, 30, "X's pool: three arms");
	tap_int_eq(rows[1].comparisons, 0, "Y: no other arm has it");
	tap_int_eq((int)rows[1].n, 10, "Y's pool: its own values");
	free(rows);

	/* The rule replayed: a shifted arm ends different at the first
	 * look, an identical one does not end different. */
	{
		struct seq_design	sd;
		char			*cause = NULL;
		int			 looks[] = { 6 };

		tap_ok(seq_design_init(&sd, 0.05, 0.02, 8, looks, 1,
		    &cause) == 0, "design: looks 6 8");
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		memset(&c, 0, sizeof(c));
		fill(&a, 0, 16, 1, 100, 0);
		fill(&b, 0, 16, 1, 100, 1000);
		fill(&c, 0, 16, 1, 100, 0);
		s[0] = series("a", "X", &a);
		s[1] = series("b", "X", &b);
		design(&d, &po, 0, 8, 2);
		d.sd = &sd;
		analyse(s, 2, &d, &rows, &n);
		tap_int_eq(rows[0].comparisons, 2, "rule: two replays");
		tap_int_eq(rows[0].flagged, 2, "rule: shifted ends different "
		    "twice");
		/* Fully apart, n a side: p = 2 / C(2n, n); the first look
		 * whose boundary that meets decides. */
		{
			int	want = 0;
			size_t	k;

			for (k = 0; k < sd.nlooks && want == 0; k++) {
				double	nn = sd.looks[k], pmin = 2;

				for (i = 1; i <= sd.looks[k]; i++)
					pmin *= (double)i / (nn + i);
				if (pmin <= seq_boundary(&sd, (int)k))
					want = sd.looks[k];
			}
			tap_ok(want > 0 && rows[0].rounds_sum == 2 * want,
			    "rule: decided at the first look that can (%d "
			    "rounds) each: %ld", want, rows[0].rounds_sum);
		}
		tap_int_eq(rows[0].equivalent + rows[0].undecided, 0,
		    "rule: nothing else");
		free(rows);
		s[1] = series("c", "X", &c);
		analyse(s, 2, &d, &rows, &n);
		tap_int_eq(rows[0].flagged, 0, "rule: identical arms never "
		    "end different");
		tap_int_eq(rows[0].equivalent + rows[0].undecided, 2,
		    "rule: each replay ends equivalent or undecided");
		tap_ok(rows[0].rounds_sum >= 12 && rows[0].rounds_sum <= 16,
		    "rule: 6 to 8 rounds each (%ld)", rows[0].rounds_sum);
		free(rows);
	}

	/* aa_excess_p: the binomial tail. */
	tap_ok(aa_excess_p(0, 10, 0.05) == 1, "P(X >= 0) = 1");
	tap_ok(fabs(aa_excess_p(1, 1, 0.05) - 0.05) < 1e-12,
	    "P(X >= 1), n 1 = alpha");
	tap_ok(fabs(aa_excess_p(2, 2, 0.05) - 0.0025) < 1e-12,
	    "P(X >= 2), n 2 = alpha^2");
	tap_ok(fabs(aa_excess_p(1, 10, 0.05) - (1 - pow(0.95, 10))) < 1e-12,
	    "P(X >= 1), n 10 = 1 - 0.95^10");
	return tap_done();
}
