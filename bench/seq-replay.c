/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/seq-replay MAX_ROUNDS EFFECT%: the stopping rule of `--until
 * decided` (stats/sequential) replayed on one row of a fixed run's
 * samples, read from standard input as lines "ROUND ARM VALUE" in the
 * order they were taken (ARM 0 the baseline, 1 the candidate; a round
 * counts when both arms have a value in it, as `rounds` counts good
 * rounds). It looks after each planned number of good rounds and prints
 * "VERDICT ROUNDS": the first decision, or "undecided MAX_ROUNDS".
 *
 * For bench/time-to-verdict: the fixed run and the sequential run of a
 * repetition are independent samples, so a row whose effect the noise
 * leaves in doubt can disagree between them by chance alone. Replayed on
 * the fixed run's own samples (what a sequential run of this one
 * workload would have seen, round for round, up to its stop), the rule's
 * verdict against the fixed design's is the rule's own disagreement.
 * Exit 2 on a usage or input error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/utest.h"
#include "stats/sequential.h"

#define MAXR	1024

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	struct seq_design	 d;
	struct seq_result	 res;
	struct bm_ucache	*uc;
	static double		 v[2][MAXR], x1[MAXR], x2[MAXR];
	static int		 have[2][MAXR];
	double			 val, effect;
	char			*cause = NULL, *end;
	int			 maxr, round, arm, r, n, good = 0;
	size_t			 k;

	if (argc != 3) {
		fprintf(stderr, "usage: bench/seq-replay MAX_ROUNDS EFFECT%% "
		    "< 'ROUND ARM VALUE' lines\n");
		return 2;
	}
	maxr = (int)strtol(argv[1], &end, 10);
	if (*end != '\0' || maxr < 2 || maxr > MAXR) {
		fprintf(stderr, "bench/seq-replay: max-rounds '%s' is not in "
		    "2..%d\n", argv[1], MAXR);
		return 2;
	}
	effect = strtod(argv[2], &end) / 100;
	if (*end != '\0' || seq_design_init(&d, 0.05, effect, maxr, NULL, 0,
	    &cause) == -1) {
		fprintf(stderr, "bench/seq-replay: %s\n", cause != NULL ?
		    cause : "bad effect");
		return 2;
	}
	/* Each arm's values in the order of their rounds' completion. */
	while ((n = scanf("%d %d %lf", &round, &arm, &val)) == 3) {
		if (round < 0 || round >= MAXR || arm < 0 || arm > 1) {
			fprintf(stderr, "bench/seq-replay: round %d arm %d is "
			    "out of range\n", round, arm);
			return 2;
		}
		v[arm][round] = val;
		have[arm][round] = 1;
	}
	if (n != EOF) {
		fprintf(stderr, "bench/seq-replay: a line is not 'ROUND ARM "
		    "VALUE'\n");
		return 2;
	}
	for (r = 0; r < MAXR; r++)
		if (have[0][r] && have[1][r]) {
			v[0][good] = v[0][r];
			v[1][good] = v[1][r];
			good++;
		}
	uc = bm_ucache_new();
	for (k = 0; k < d.nlooks && d.looks[k] <= good; k++) {
		n = d.looks[k];
		memcpy(x1, v[0], (size_t)n * sizeof(*x1));
		memcpy(x2, v[1], (size_t)n * sizeof(*x2));
		qsort(x1, (size_t)n, sizeof(*x1), cmp_double);
		qsort(x2, (size_t)n, sizeof(*x2), cmp_double);
		seq_decide(&d, (int)k, x1, (size_t)n, x2, (size_t)n, uc, &res);
		if (res.verdict != SEQ_UNDECIDED) {
			printf("%s %d\n", seq_verdict_name(res.verdict), n);
			bm_ucache_free(uc);
			return 0;
		}
	}
	bm_ucache_free(uc);
	printf("undecided %d\n", good < maxr ? good : maxr);
	return 0;
}
