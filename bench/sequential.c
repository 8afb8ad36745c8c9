/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/sequential [-n PATHS] [-m MAX_ROUNDS] [-e EFFECT] [-s SIGMA...]
 *     [-q EQUIV_P] [-b EQUIV_BETA] [-P 0|1] [-H HALF_BETA]:
 * the stopping rule of `--until decided` (stats/sequential) against the
 * fixed design at max-rounds, by simulation (tests/unit/seqsim.h), one
 * table per noise level: per noise model, the A/A false-positive rate
 * (PATHS paths, default 1e6) and the power at 0.5x, 1x, 2x and 4x the
 * effect (PATHS / 10 paths each), with the mean and 95th-percentile rounds
 * at the stop, sequential / fixed. The noise levels by default: MAD/median
 * = effect / 4 and effect / 2 (the targets for mean rounds), and
 * sigma = 2.7% (the fixed design's power about 80% at 30 rounds).
 * -q and -b change the equivalence stop (p > EQUIV_P, default alpha; the
 * interval's one-sided miss EQUIV_BETA, default 0.005) to show what a
 * stricter one would cost; -P 0 drops the projection of the trend to
 * max-rounds and -P 1 keeps it (the default); -H 0 drops the half
 * margin (the 95% interval inside +-effect/2) and -H BETA sets its
 * one-sided miss (default 0.025); -P 0 -H 0 is `equivalence = margin`.
 */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "tests/unit/seqsim.h"

/*
 * The mean of the largest of k independent draws from the rounds at the
 * stop: E max = sum_r r (F(r)^k - F(r - 1)^k).
 */
static double
max_of_rows(const struct seqsim_stats *st, int maxr, int k)
{
	double	acc = 0, prev = 0, f, e = 0;
	int	r;

	for (r = 0; r <= maxr && r <= 1024; r++) {
		acc += (double)st->rounds_hist[r];
		f = pow(acc / (double)st->paths, k);
		e += r * (f - prev);
		prev = f;
	}
	return e;
}

int
main(int argc, char **argv)
{
	struct seq_design	 d;
	struct seqsim_stats	 st;
	unsigned long		 n = 1000000;
	int			 maxr = SEQ_DEFAULT_MAX_ROUNDS, m, i, j, c;
	double			 effect = 0.02, sigmas[8], mult[] = {
		0.5, 1, 2, 4 };
	size_t			 ns = 0;
	char			*cause = NULL;
	double			 equiv_p = -1, equiv_beta = -1;
	int			 project = -1;
	double			 half_beta = -1;

	while ((c = getopt(argc, argv, "n:m:e:s:q:b:P:H:")) != -1) {
		switch (c) {
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			maxr = atoi(optarg);
			break;
		case 'e':
			effect = atof(optarg) / 100;
			break;
		case 'q':
			equiv_p = atof(optarg);
			break;
		case 'P':
			project = atoi(optarg);
			break;
		case 'H':
			half_beta = atof(optarg);
			break;
		case 'b':
			equiv_beta = atof(optarg);
			break;
		case 's':
			if (ns < 8)
				sigmas[ns++] = atof(optarg) / 100;
			break;
		default:
			fprintf(stderr, "usage: bench/sequential [-n PATHS] "
			    "[-m MAX_ROUNDS] [-e EFFECT%%] [-s SIGMA%%]... "
			    "[-q EQUIV_P] [-b EQUIV_BETA] [-P 0|1] "
			    "[-H HALF_BETA]\n");
			return 2;
		}
	}
	if (ns == 0) {
		/* Gaussian MAD = 0.6745 sigma. */
		sigmas[ns++] = effect / 4 / 0.6745;
		sigmas[ns++] = effect / 2 / 0.6745;
		sigmas[ns++] = 0.027;
	}
	if (seq_design_init(&d, 0.05, effect, maxr, NULL, 0, &cause) == -1) {
		fprintf(stderr, "bench/sequential: %s\n", cause);
		return 2;
	}
	if (equiv_p >= 0)
		d.equiv_p = equiv_p;
	if (project >= 0)
		d.equiv_project = project;
	if (equiv_beta > 0)
		d.equiv_beta = equiv_beta;
	if (half_beta >= 0)
		d.half_beta = half_beta;
	printf("design: alpha 0.05, effect %.3g%%, max-rounds %d, looks",
	    effect * 100, maxr);
	for (i = 0; i < (int)d.nlooks; i++)
		printf(" %d", d.looks[i]);
	printf("; p <= %g at interim looks, <= %g at the last; equivalence: "
	    "p > %g%s and the %g%% HL interval of the log shift inside "
	    "+-%.3g%%", d.interim_p, d.final_p, d.equiv_p,
	    d.equiv_project ? ", its projection to max-rounds > alpha" : "",
	    100 * (1 - 2 * d.equiv_beta), effect * 100);
	if (d.half_beta > 0)
		printf(", its %g%% one inside +-%.3g%%",
		    100 * (1 - 2 * d.half_beta), effect / 2 * 100);
	printf("\n");
	printf("A/A: %lu paths per model; effects: %lu paths each; "
	    "alternate order; cells seq/fixed; rounds mean/p95 at the stop; "
	    "x10: the mean rounds of a workload of 10 such rows (it waits "
	    "for its slowest; rows independent)\n",
	    n, n / 10 > 0 ? n / 10 : 1);
	for (j = 0; j < (int)ns; j++) {
		printf("\nsigma %.3g%% (MAD/median %.3g%%)\n", sigmas[j] * 100,
		    sigmas[j] * 67.45);
		printf("%-10s %-15s %-12s %-5s", "model", "FPR seq/fixed",
		    "rounds A/A", "x10");
		for (i = 0; i < 4; i++)
			printf(" power %.1fx (rounds)     ", mult[i]);
		printf("\n");
		for (m = 0; m < SIM_NMODELS; m++) {
			seqsim_run(&d, m, sigmas[j], 0, n, 11 + (unsigned)m,
			    &st);
			printf("%-10s %.4f/%.4f   %4.1f/%-3d   %4.1f  ",
			    seqsim_model_names[m],
			    (double)st.seq_diff / (double)st.paths,
			    (double)st.fixed_diff / (double)st.paths,
			    st.rounds_sum / (double)st.paths,
			    seqsim_rounds_quantile(&st, 0.95),
			    max_of_rows(&st, maxr, 10));
			for (i = 0; i < 4; i++) {
				seqsim_run(&d, m, sigmas[j], mult[i] * effect,
				    n / 10 > 0 ? n / 10 : 1,
				    101 + (unsigned)(m * 4 + i), &st);
				printf(" %.3f/%.3f (%4.1f/%-3d)  ",
				    (double)st.seq_diff / (double)st.paths,
				    (double)st.fixed_diff / (double)st.paths,
				    st.rounds_sum / (double)st.paths,
				    seqsim_rounds_quantile(&st, 0.95));
			}
			printf("\n");
			fflush(stdout);
		}
	}
	return 0;
}
