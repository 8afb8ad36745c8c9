/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/sequential [-n PATHS] [-m MAX_ROUNDS] [-e EFFECT] [-s SIGMA]:
 * the error contract of `--until decided` (stats/sequential), measured by
 * simulation (tests/unit/seqsim.h) for every noise model, the rule of
 * today (paired rounds under `alternate`; unpaired under `random`) beside
 * the rule before the contract (equivalence = projected, unpaired U test):
 *
 *   P(different | 0)        A/A false positives, PATHS paths (1e6)
 *   P(equivalent | +-E)     the larger of +E and -E, PATHS / 4 each
 *   P(equivalent | +-2E)    likewise
 *   P(different | +-E)      power at the effect
 *   mean rounds at 0        a null row's rounds at the stop
 *   undecided at 0          null rows that reached max-rounds undecided
 *
 * each rate with its upper 95% bound (Wilson). With -w, the worst a
 * row's other rows can do to it: a workload stops when all its rows are
 * decided at one look and each row's verdict is that look's, so a row
 * decided early is looked at again (reopened) and its verdict may be
 * taken at any look. -w counts a path different (equivalent) when it is
 * so at ANY look, not at its stop: the bound, for any other rows, of
 * P(different | 0) and P(equivalent | +-E) for a row of a workload of
 * several (the new rule only; power, rounds and undecided then as
 * without -w). The noise of each model:
 * MAD/median = effect / 2 for the continuous ones (-s SIGMA% overrides),
 * the quantized ones as met in practice (sigma 13% at a step of 1/3 of
 * the median, 5% at 1/10, 1.48% at 1/50).
 */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "tests/unit/seqsim.h"

struct cell {
	double	diff0, diff0_up, eqE, eqE_up, eq2E, eq2E_up, powE, rounds0;
	double	undec0;
};

static void
measure(const struct seq_design *d, enum seqsim_model m, double sigma,
    const struct seqsim_opts *o, unsigned long n, struct cell *c)
{
	struct seqsim_stats	st;
	double			e = d->effect, sh[2] = { 1, -1 };
	unsigned long		k4 = n / 4 > 0 ? n / 4 : 1;
	int			i;

	memset(c, 0, sizeof(*c));
	seqsim_run(d, m, sigma, 0, o, n, 11 + (unsigned)m, &st);
	c->rounds0 = st.rounds_sum / (double)st.paths;
	c->undec0 = (double)(st.paths - st.seq_diff - st.seq_equiv) /
	    (double)st.paths;
	if (o->all_looks)
		st.seq_diff = st.ever_diff;
	c->diff0 = (double)st.seq_diff / (double)st.paths;
	c->diff0_up = seqsim_upper(st.seq_diff, st.paths, 1.645);
	for (i = 0; i < 2; i++) {
		seqsim_run(d, m, sigma, sh[i] * e, o, k4, 101 + (unsigned)m *
		    4 + (unsigned)i, &st);
		if (o->all_looks)
			st.seq_equiv = st.ever_equiv;
		if ((double)st.seq_equiv / (double)st.paths >= c->eqE) {
			c->eqE = (double)st.seq_equiv / (double)st.paths;
			c->eqE_up = seqsim_upper(st.seq_equiv, st.paths,
			    1.645);
		}
		c->powE += (double)st.seq_diff / (double)st.paths / 2;
		seqsim_run(d, m, sigma, 2 * sh[i] * e, o, k4, 201 +
		    (unsigned)m * 4 + (unsigned)i, &st);
		if (o->all_looks)
			st.seq_equiv = st.ever_equiv;
		if ((double)st.seq_equiv / (double)st.paths >= c->eq2E) {
			c->eq2E = (double)st.seq_equiv / (double)st.paths;
			c->eq2E_up = seqsim_upper(st.seq_equiv, st.paths,
			    1.645);
		}
	}
}

static void
print_cell(const char *rule, const char *model, const struct cell *c)
{
	printf("%-22s %-13s %.4f (%.4f)  %.4f (%.4f)  %.4f (%.4f)  %.3f    "
	    "%5.1f   %.3f\n", rule, model, c->diff0, c->diff0_up, c->eqE,
	    c->eqE_up, c->eq2E, c->eq2E_up, c->powE, c->rounds0, c->undec0);
}

int
main(int argc, char **argv)
{
	struct seq_design	 d, old;
	struct seqsim_opts	 paired = { 1, 0, 0 }, unpaired = { 0, 0, 0 };
	struct cell		 c;
	unsigned long		 n = 1000000;
	int			 maxr = SEQ_DEFAULT_MAX_ROUNDS, m, ch, worst = 0;
	double			 effect = 0.02, sigma = -1, s;
	char			*cause = NULL;
	double			 qsig[SIM_NMODELS] = { 0 };

	while ((ch = getopt(argc, argv, "n:m:e:s:w")) != -1) {
		switch (ch) {
		case 'w':
			worst = paired.all_looks = unpaired.all_looks = 1;
			break;
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			maxr = atoi(optarg);
			break;
		case 'e':
			effect = atof(optarg) / 100;
			break;
		case 's':
			sigma = atof(optarg) / 100;
			break;
		default:
			fprintf(stderr, "usage: bench/sequential [-n PATHS] "
			    "[-m MAX_ROUNDS] [-e EFFECT%%] [-s SIGMA%%] [-w]\n");
			return 2;
		}
	}
	if (seq_design_init(&d, 0.05, effect, maxr, NULL, 0, &cause) == -1) {
		fprintf(stderr, "bench/sequential: %s\n", cause);
		return 2;
	}
	old = d;
	seq_design_projected(&old);
	old.equiv_beta = 0.005;		/* the rule before: 99% */
	qsig[SIM_QUANT3] = 0.13;
	qsig[SIM_QUANT10] = 0.05;
	paired.position = unpaired.position = effect / 2;
	printf("design: alpha 0.05, effect %.3g%%, max-rounds %d, looks",
	    effect * 100, maxr);
	for (m = 0; m < (int)d.nlooks; m++)
		printf(" %d", d.looks[m]);
	printf("; different at p <= %g at interim looks, <= %g at the last; "
	    "equivalence: the %.2f%% interval (widened by the resolution) "
	    "inside +-%.3g%% (paired: Tukey's of the ratios or the arms' "
	    "Hodges-Lehmann, each at %.2f%%); a row too coarse for "
	    "equivalence stops undecided at a predictive power < %g%%\n",
	    d.interim_p, d.final_p, 100 * (1 - 2 * d.equiv_beta),
	    effect * 100, 100 * (1 - d.equiv_beta), 100 * d.futility_cp);
	printf("before: unpaired U test; equivalence: 99%% HL interval inside "
	    "+-E, 95%% inside +-E/2, projection to max-rounds (U+BM and the "
	    "resolution now in its unpaired path too)\n");
	printf("A/A %lu paths a model, +-E and +-2E %lu each; rates with "
	    "their upper 95%% bound\n", n, n / 4 > 0 ? n / 4 : 1);
	if (worst)
		printf("-w: P(diff|0) and P(equiv|...) count a path so at ANY "
		    "look, not at its stop (a row of a workload whose other "
		    "rows decide when its verdict is taken)\n");
	printf("\n");
	printf("%-22s %-13s %-17s %-17s %-17s %-8s %-7s %s\n", "rule",
	    "model", "P(diff|0)", "P(equiv|E)", "P(equiv|2E)", "power E",
	    "rounds0", "undecided0");
	for (m = 0; m < SIM_NMODELS; m++) {
		s = qsig[m] > 0 ? qsig[m] : sigma > 0 ? sigma :
		    effect / 2 / 0.6745;
		measure(&d, m, s, &paired, n, &c);
		print_cell("new, paired (alt)", seqsim_model_names[m], &c);
		measure(&d, m, s, &unpaired, n, &c);
		print_cell("new, unpaired (random)", seqsim_model_names[m],
		    &c);
		if (!worst) {
			measure(&old, m, s, &unpaired, n, &c);
			print_cell("before (projected)", seqsim_model_names[m],
			    &c);
		}
		fflush(stdout);
	}
	return 0;
}
