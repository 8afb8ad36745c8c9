/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/seq-replay MAX_ROUNDS EFFECT% [random]: the stopping rule of
 * `--until decided` replayed on one workload of a fixed run (paired
 * rounds, as under `alternate`; `random`: unpaired), from its samples read
 * on standard input as lines "ROW ROUND ARM VALUE" (ROW 0, 1, ... the
 * rows the rule counts, ARM 0 the baseline and 1 the candidate, only the
 * ok measured samples). As harness/core/verdict.c looks during a run: a
 * round is good when both arms have a value of every row in it; after
 * each good round that is a planned look, every row is decided
 * (stats/sequential.h) on all the values of the rounds so far; the
 * workload stops at the first look where every row is decided, or at the
 * last, and its rows' verdicts are those of that look. It prints a line
 * "ROW VERDICT GOOD ROUND N1 N2" per row: the good rounds at that look
 * (fewer than MAX_ROUNDS when the input ends first, the rows then as
 * last looked at, undecided if never), the round it was made at and the
 * values of each arm it saw, as the run stores them (the decisions
 * table).
 *
 * For bench/time-to-verdict: the fixed run and the sequential run of a
 * repetition are independent samples, so a row whose effect the noise
 * leaves in doubt can disagree between them by chance alone. Replayed on
 * the fixed run's own samples (what a sequential run of this workload
 * would have seen, round for round, up to its stop), the rule's verdicts
 * against the fixed design's are the rule's own disagreement.
 * Exit 2 on a usage or input error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/sequential.h"
#include "stats/utest.h"

#define MAXROWS		64
#define MAXROUND	1024

static double			val[MAXROWS][2][MAXROUND];
static unsigned char		have[MAXROWS][2][MAXROUND];
static enum seq_verdict		verdict[MAXROWS];
static size_t			seen[MAXROWS][2];

int
main(int argc, char **argv)
{
	struct seq_design	 d;
	struct seq_result	 res;
	struct bm_ucache	*uc;
	static double		 x[2][MAXROUND], pd[MAXROUND];
	static signed char	 pf[MAXROUND];
	struct seq_pairs	 pr;
	double			 v, effect;
	int			 np, paired = 1;
	char			*cause = NULL, *end;
	int			 maxr, row, round, arm, n, r, i, a, k;
	int			 nrows = 0, last = -1, good = 0, at = -1;
	int			 all, complete;
	size_t			 nx[2];

	if (argc == 4 && strcmp(argv[3], "random") == 0)
		paired = 0;
	else if (argc != 3) {
		fprintf(stderr, "usage: bench/seq-replay MAX_ROUNDS EFFECT%% "
		    "[random] < 'ROW ROUND ARM VALUE' lines\n");
		return 2;
	}
	maxr = (int)strtol(argv[1], &end, 10);
	if (*end != '\0' || maxr < 2 || maxr > MAXROUND) {
		fprintf(stderr, "bench/seq-replay: max-rounds '%s' is not in "
		    "2..%d\n", argv[1], MAXROUND);
		return 2;
	}
	effect = strtod(argv[2], &end) / 100;
	if (*end != '\0' || seq_design_init(&d, 0.05, effect, maxr, NULL, 0,
	    &cause) == -1) {
		fprintf(stderr, "bench/seq-replay: %s\n", cause != NULL ?
		    cause : "bad effect");
		return 2;
	}
	while ((n = scanf("%d %d %d %lf", &row, &round, &arm, &v)) == 4) {
		if (row < 0 || row >= MAXROWS || round < 0 ||
		    round >= MAXROUND || arm < 0 || arm > 1) {
			fprintf(stderr, "bench/seq-replay: row %d round %d arm "
			    "%d is out of range\n", row, round, arm);
			return 2;
		}
		val[row][arm][round] = v;
		have[row][arm][round] = 1;
		if (row >= nrows)
			nrows = row + 1;
		if (round > last)
			last = round;
	}
	if (n != EOF) {
		fprintf(stderr, "bench/seq-replay: a line is not 'ROW ROUND "
		    "ARM VALUE'\n");
		return 2;
	}
	uc = bm_ucache_new();
	for (r = 0; r <= last && nrows > 0; r++) {
		complete = 1;
		for (i = 0; i < nrows; i++)
			complete &= have[i][0][r] & have[i][1][r];
		if (!complete || (k = seq_look_at(&d, ++good)) < 0)
			continue;
		all = 1;
		for (i = 0; i < nrows; i++) {
			nx[0] = nx[1] = 0;
			for (a = 0; a < 2; a++)
				for (n = 0; n <= r; n++)
					if (have[i][a][n])
						x[a][nx[a]++] = val[i][a][n];
			/* The rounds as pairs, as the run under alternate
			 * gives them: round n even, the baseline first. */
			np = 0;
			for (n = 0; n <= r; n++)
				if (have[i][0][n] && have[i][1][n] &&
				    val[i][0][n] > 0 && val[i][1][n] > 0) {
					pd[np] = log(val[i][1][n]) -
					    log(val[i][0][n]);
					pf[np++] = n % 2 == 0;
				}
			pr.d = pd;
			pr.first = pf;
			pr.n = (size_t)np;
			sort_doubles(x[0], nx[0]);
			sort_doubles(x[1], nx[1]);
			seq_decide(&d, k, x[0], nx[0], x[1], nx[1],
			    np >= 2 && paired ? &pr : NULL, uc, &res);
			verdict[i] = res.verdict;
			seen[i][0] = nx[0];
			seen[i][1] = nx[1];
			all &= res.verdict != SEQ_UNDECIDED || res.futile;
		}
		at = r;
		if (all || (size_t)k + 1 == d.nlooks)
			break;
	}
	bm_ucache_free(uc);
	for (i = 0; i < nrows; i++)
		printf("%d %s %d %d %zu %zu\n", i, seq_verdict_name(verdict[i]),
		    good, at, seen[i][0], seen[i][1]);
	return 0;
}
