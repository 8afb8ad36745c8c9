/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time to verdict: a group-sequential stopping rule for one benchmark row
 * (two arms' samples of one benchmark and unit), looked at after planned
 * numbers of good rounds, which says whether the row is decided.
 *
 * The rule, at look k (n = looks[k] good rounds; the last look is
 * max_rounds):
 *
 *   different   p <= b_k, p the two-sided Mann-Whitney U p-value that
 *               `abbench stat` prints (utest_mann_whitney on the raw
 *               values), b_k = interim_p (0.001) at every look but the
 *               last, final_p at the last;
 *   equivalent  p > equiv_p = alpha (so `stat` prints `~`), the
 *               distribution-free confidence interval of the shift of
 *               log(values) (Hodges-Lehmann: [d(c+1), d(n1 n2 - c)] of
 *               the differences log y_j - log x_i, c the U
 *               distribution's beta quantile, coverage >= 1 - 2 beta)
 *               lies inside +-ln(1 + effect), and (the default;
 *               `equivalence = margin` turns both off) the same
 *               interval at half_beta = 0.025 per side (95%) lies
 *               inside +-ln(1 + effect / 2), and (equiv_project) the
 *               row's trend projected to max_rounds is not significant
 *               either: z = Q^-1(p / 2) / sqrt(t) < Q^-1(alpha / 2), t
 *               the fraction of max_rounds' information seen (not at
 *               the last look: no rounds are left to project to);
 *   undecided   otherwise (sample again; at the last look, report the MDE).
 *
 * Why the false-positive rate stays <= alpha (the design's proof): under
 * A/A the arms are exchangeable and the U test is exact (conditionally on
 * the ties), so at each look P(p <= b) <= b whatever the data. The rule
 * rejects only when some look's p is at or below its boundary, so by the
 * union bound FPR <= sum_k b_k = (K - 1) interim_p + final_p, and
 * final_p = alpha - (K - 1) interim_p makes that exactly alpha for any
 * noise distribution and any dependence between looks (Haybittle-Peto
 * with a Bonferroni-calibrated final look). An equivalence stop only ends
 * a path early, so it can remove later rejections but never add one: it
 * cannot raise the false-positive rate. The union bound is conservative
 * (looks are strongly correlated), which the simulation test
 * (tests/unit/t-sequential) measures: 2e5 A/A paths per noise model.
 *
 * Why 0.001 at the interim looks: a near-zero spend keeps final_p close to
 * alpha (0.043 with the 7 interim looks of max-rounds 30), so the power at
 * max-rounds is within a couple of points of the fixed design at alpha,
 * while large effects stop at the first looks where p <= 0.001 is
 * attainable: the U test's p is discrete, min 2 / C(n1+n2, n1), which is
 * 0.0022 at 6+6 and 0.00058 at 7+7, so interim efficacy fires from n = 7
 * (at n = 6 only an equivalence stop can happen). The equivalence CI uses
 * beta = 0.005 per side (99%): wider than TOST's 90% so that repeated looks
 * at a true effect equal to `effect` rarely stop it as equivalent, which
 * would cost power against the fixed design.
 *
 * Why the projection: the rule's goal is the answer of the longest fixed
 * run, and a fixed run of max_rounds finds changes well below `effect`
 * (at MAD/median 0.5% and 40 rounds, +1% almost always). The margin
 * alone stops such a row as equivalent whenever its p wanders above alpha
 * at an early look, which is a true answer (the change is within
 * +-effect) but not the fixed design's. Under the current trend (Lan and
 * Wittes' B-value: z sqrt(t) drifts linearly in t) the final z is
 * expected at z / sqrt(t), and the stop asks that to stay below the
 * fixed design's critical value: the conditional power under the trend
 * is below 1/2 (stochastic curtailment, Lan, Simon and Halperin 1982).
 * A null row's z does not grow, a real change's grows like sqrt(t), so
 * the bound (p > 0.45 at 6 of 40 rounds, > 0.17 at 20, alpha at 40)
 * holds back the small real changes far more than the nulls. Simulated
 * (bench/sequential -P, max-rounds 40, sigma 0.74% = MAD/median
 * effect / 4, Gaussian, 4e5 A/A paths): a +1% row is found different
 * in 91% of paths against 67% by the margin alone (the fixed design:
 * 100%); one A/A row takes 9.7 rounds on average against 7.0, a
 * workload of 10 A/A rows (it waits for its slowest) 23.4 against 11.0,
 * and A/A false positives are 0.013 against 0.003 (fewer paths end
 * early; the fixed design: 0.050). A plain p bound buys less for the
 * rounds (p > 0.2: 85%, 8.5 and 20.5). With max_rounds 12 the projection
 * changes little (the looks are at half the rounds or more).
 *
 * Why the half margin: the projection takes the trend at its word, and
 * at an early look the trend is mostly noise. Where the noise is high
 * (MAD/median near `effect`) a +1% row's estimate dips near 0 at one of
 * the looks at 16-40 rounds in about a quarter of paths, its 99% interval
 * then fits in +-2% and its projection in the fixed design's `~`: it
 * stops as equivalent, and the fixed design at max_rounds finds +1%.
 * At those rounds no rule can tell +1% from 0 (they are 1.6 standard
 * errors apart at 20 rounds and sigma 2%); asking the 95% interval to
 * exclude half the effect (one-sided 2.5%: a change of effect / 2 stops
 * as equivalent at a look in about that share of paths, a few points
 * more over the looks) makes a null row wait until the data can.
 * Simulated (Gaussian, 4000 paths each, max-rounds 200, sigma 2%): +1%
 * stopped as equivalent in 5.9% of paths against 23.6% without it; one
 * A/A row's mean rounds 73.6 against 40.8 (a workload of 10: 147 against
 * 112). At sigma 0.74% and max-rounds 30 (the default): 4.2% against
 * 11.6%, A/A mean rounds 12.0 against 8.7 (10 rows: 22.8 against 18.6).
 * A stricter projection holds those rows back less for more rounds
 * (conditional power under the trend < 0.1 instead of < 0.5: +1% not
 * found in 12% of paths at sigma 2%, A/A 66 rounds). bench/sequential
 * -H 0 drops the half margin. Both intervals are counted on one pass of
 * logarithms.
 *
 * The proof above does not depend on when a path stops as equivalent
 * (the union bound covers a path run to max_rounds), so it stands.
 *
 * Pure computation: no I/O, no clock. A bm_ucache must not be shared
 * between threads.
 */
#ifndef ABBENCH_STATS_SEQUENTIAL_H
#define ABBENCH_STATS_SEQUENTIAL_H

#include <stddef.h>

struct bm_ucache;

#define SEQ_MAX_LOOKS		64
#define SEQ_DEFAULT_MAX_ROUNDS	30
#define SEQ_DEFAULT_EFFECT	0.02
#define SEQ_INTERIM_P		0.001
#define SEQ_EQUIV_BETA		0.005
#define SEQ_HALF_BETA		0.025

enum seq_verdict {
	SEQ_UNDECIDED = 0,
	SEQ_DIFFERENT,
	SEQ_EQUIVALENT
};

struct seq_design {
	double	alpha;		/* overall false-positive rate (0.05) */
	double	effect;		/* smallest relative change worth finding */
	double	interim_p;	/* efficacy boundary at interim looks */
	double	final_p;	/* at the last look: alpha - spent */
	double	equiv_beta;	/* one-sided miss of the equivalence CI */
	double	equiv_p;	/* equivalence needs p > this */
	int	equiv_project;	/* and its p projected to max_rounds > alpha */
	double	half_beta;	/* and the (1 - 2 half_beta) interval inside
				   +-effect / 2 (0: not asked) */
	int	max_rounds;
	int	looks[SEQ_MAX_LOOKS];	/* ascending good-round counts */
	size_t	nlooks;			/* the last is max_rounds */
};

/*
 * A design. looks (ascending, >= 1, NULL or nlooks 0 = the default
 * schedule 6 8 10 12 16 20 24 32 40 48 64 ... below max_rounds) is
 * completed with max_rounds as the last look; looks beyond it are an
 * error. Returns 0, or -1 with *cause (malloc'd) on a bad value: alpha
 * not in (0, 1), effect <= 0, max_rounds < 2, more than SEQ_MAX_LOOKS
 * looks, or so many looks that nothing is left for the last one.
 */
int	seq_design_init(struct seq_design *d, double alpha, double effect,
	    int max_rounds, const int *looks, size_t nlooks, char **cause);

/*
 * `equivalence = margin`: a row not significant is equivalent by the 99%
 * interval alone (no half margin, no projection).
 */
void	seq_design_margin(struct seq_design *d);

/* The index of the look made after n good rounds, or -1 if n is none. */
int	seq_look_at(const struct seq_design *d, int n);

/* The boundary on p at look k. */
double	seq_boundary(const struct seq_design *d, int k);

struct seq_result {
	enum seq_verdict	verdict;
	double			p;	/* 1 when all values are equal */
	double			boundary;
};

/*
 * The decision at look k for baseline x1 and candidate x2 (each sorted
 * ascending, n >= 1). cache may be NULL (slower). The interval itself is
 * seq_shift_ci's (not computed here: the rule only counts).
 */
void	seq_decide(const struct seq_design *d, int k, const double *x1,
	    size_t n1, const double *x2, size_t n2, struct bm_ucache *cache,
	    struct seq_result *out);

/*
 * Whether the (1 - 2 beta) Hodges-Lehmann interval of the shift of logs
 * lies strictly inside (-lim, lim), by counting differences at or beyond
 * each bound (no sort of the n1*n2 differences). Values must be sorted,
 * and > 0 unless all of both samples are the same value (0 included:
 * the interval is then {0}); returns 0 if not, or if the interval is
 * unbounded at this size.
 */
int	seq_shift_within(const double *x1, size_t n1, const double *x2,
	    size_t n2, double beta, double lim, struct bm_ucache *cache);

/* Every value of both sorted samples the same, 0 included (a Go
 * benchmark's `0 B/op 0 allocs/op`). */
int	seq_all_equal(const double *x1, size_t n1, const double *x2,
	    size_t n2);

/* The interval itself (for reports): 0, or -1 when not computable. */
int	seq_shift_ci(const double *x1, size_t n1, const double *x2, size_t n2,
	    double beta, struct bm_ucache *cache, double *lo, double *hi);

/*
 * The p-value the fixed design at max_rounds would see if the row's
 * current trend held: z = Q^-1(p / 2) scaled by sqrt(1 / t), t the
 * information fraction 2 n1 n2 / ((n1 + n2) max_rounds); p itself from
 * t >= 1 on.
 */
double	seq_projected_p(const struct seq_design *d, double p, size_t n1,
	    size_t n2);

const char	*seq_verdict_name(enum seq_verdict v);

#endif
