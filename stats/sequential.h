/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time to verdict: a group-sequential stopping rule for one benchmark row
 * (two arms' samples of one benchmark and unit), looked at after planned
 * numbers of good rounds, which says whether the row is decided.
 *
 * The contract (what tests/unit/t-sequential and bench/sequential measure
 * for every noise model: Gaussian, t3 with outliers, values rounded to a
 * third, a tenth and a fiftieth of the median, shared AR(1) drift, a
 * position effect, unequal spreads, bimodal):
 *   P(different | no change) <= alpha;
 *   P(equivalent | |change| >= effect) <= 5%;
 *   a change inside +-effect may be called either;
 *   undecided at max-rounds is allowed, and printed with the MDE.
 *
 * The rule at look k (n = looks[k] good rounds; the last is max_rounds),
 * with b_k = interim_p (0.001) at every look but the last, final_p =
 * alpha - (K - 1) interim_p at the last:
 *
 *   paired rounds (the order pairs the arms: alternate, abba) and no
 *   position effect beyond the margin (half the difference of the median
 *   ratio of the rounds the baseline ran first and second):
 *     different   the signed-rank p of the per-round log ratios <= b_k
 *                 (b_k / 2 at an interim look, where the U and
 *                 Brunner-Munzel tests both at <= b_k / 2 also decide;
 *                 before 12 pairs, where no signed-rank p can be as
 *                 small as b_k / 2, the U and Brunner-Munzel tests get
 *                 all of b_k, so that a large change stops where the
 *                 U test's p first can: 8 rounds);
 *     equivalent  its p > equiv_p (alpha) and Tukey's interval of the
 *                 median ratio, or (the U test's p > equiv_p too) the
 *                 Hodges-Lehmann interval of the arms' shift, each at
 *                 1 - equiv_beta (one-sided equiv_beta / 2; the arms'
 *                 at 1 - 2 equiv_beta below 7 pairs, where Tukey's is
 *                 unbounded at that level), widened by the resolution,
 *                 lies inside +-ln(1 + effect);
 *   otherwise (random order, or the position effect too large):
 *     different   the U test's p (what `stat` prints) and the
 *                 Brunner-Munzel p both <= b_k;
 *     equivalent  the U p > equiv_p and the Hodges-Lehmann interval of
 *                 the shift of logs, widened by the resolution, inside
 *                 +-ln(1 + effect);
 *   undecided   otherwise; and done before max-rounds (futile) where
 *               the values' step forbids equivalence and the row's
 *               conditional power under its own trend is below
 *               futility_cp (10%): such a row could only end
 *               different, and at that trend it would not.
 *
 * Why "different" keeps alpha: each test is exact or valid under its null
 * at each look (the signed-rank test under the sign-flip symmetry that
 * exchangeable arms within a round give, ties included: its distribution
 * is conditional on them; the U test under exchangeable arms; Brunner-
 * Munzel where the spreads differ, which is where the U test alone does
 * not hold), so P(look k rejects) <= b_k, and by the union bound the rule
 * rejects with probability <= sum b_k = alpha (Haybittle-Peto with a
 * Bonferroni-calibrated last look). Requiring U and Brunner-Munzel both
 * is no more often wrong than either.
 *
 * Why "equivalent" keeps 5%: a true change of `effect` is called
 * equivalent at a look only if the interval's upper end falls below it:
 * probability <= equiv_beta for an interval that covers. Coverage holds
 * for continuous values; rounding moves each value's logarithm by at most
 * half the step, a ratio by at most the resolution, every order statistic
 * of the differences by no more, so the widened interval still covers
 * (values rounded to a third of the median can then never be equivalent
 * within 2%: the rule says so instead of calling a +5% change
 * equivalent). Over K correlated looks the misses add up to far less
 * than K equiv_beta; equiv_beta = 0.05 / (1 + (K - 1) / 3.5) keeps
 * the rate near 2-4% at 8 to 17 looks (the tests' numbers).
 *
 * `equivalence = projected` (seq_design_projected) restores the rule
 * before the contract: a half margin and a projection to max-rounds that
 * made null rows run to max-rounds to agree with a longer fixed design.
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
#define SEQ_EQUIV_SPEND		0.05
#define SEQ_HALF_BETA		0.025
#define SEQ_FUTILITY_CP		0.10

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
	double	equiv_beta;	/* one-sided miss of the equivalence CI at
				   each look (spread over the looks) */
	double	equiv_p;	/* equivalence needs p > this */
	int	equiv_project;	/* and its p projected to max_rounds > alpha */
	double	half_beta;	/* and the (1 - 2 half_beta) interval inside
				   +-effect / 2 (0: not asked) */
	double	futility_cp;	/* a row that can never be equivalent stops
				   undecided when its conditional power under
				   its trend is below this (0: never) */
	int	max_rounds;
	int	looks[SEQ_MAX_LOOKS];	/* ascending good-round counts */
	size_t	nlooks;			/* the last is max_rounds */
};

/*
 * A design. looks (ascending, >= 1, NULL or nlooks 0 = the default
 * schedule 4 6 8 10 12 16 20 24 32 40 48 64 ... below max_rounds) is
 * completed with max_rounds as the last look; looks beyond it are an
 * error. Returns 0, or -1 with *cause (malloc'd) on a bad value: alpha
 * not in (0, 1), effect <= 0, max_rounds < 2, more than SEQ_MAX_LOOKS
 * looks, or so many looks that nothing is left for the last one.
 */
int	seq_design_init(struct seq_design *d, double alpha, double effect,
	    int max_rounds, const int *looks, size_t nlooks, char **cause);

/*
 * `equivalence = projected` (the rule before the error contract): a row
 * not significant is equivalent only when also its 95% interval lies
 * within +-effect / 2 and its trend projected to max-rounds would not be
 * significant. Off by default: a change inside +-effect is equivalent by
 * the contract, and those two made null rows run to max-rounds.
 */
void	seq_design_projected(struct seq_design *d);

/* The index of the look made after n good rounds, or -1 if n is none. */
int	seq_look_at(const struct seq_design *d, int n);

/* The boundary on p at look k. */
double	seq_boundary(const struct seq_design *d, int k);

/* The test that decided (or would have). */
enum seq_test {
	SEQ_TEST_U_BM = 0,	/* unpaired: U and Brunner-Munzel */
	SEQ_TEST_SIGNED_RANK,	/* paired rounds: per-round log ratios */
	SEQ_TEST_ALL_EQUAL	/* every value 0 */
};

/*
 * The rounds of a row as pairs (the arms measured in the same round, under
 * `alternate` or `abba`): d[i] the log ratio candidate / baseline of round
 * i's values (each arm's median in the round), first[i] 1 when the
 * baseline ran first in it, 0 when the candidate did, -1 when both did
 * (abba); first may be NULL (no position known).
 */
struct seq_pairs {
	const double		*d;
	const signed char	*first;
	size_t			 n;
};

struct seq_result {
	enum seq_verdict	verdict;
	enum seq_test		test;
	double			p;	/* the deciding test's: for U+BM
					   the larger of the two */
	double			p_u;	/* the U test's, as `stat` prints
					   it (1 when all values are equal) */
	double			p_alt;	/* signed-rank or Brunner-Munzel */
	double			boundary;
	double			resolution;	/* resolution_log() */
	int			coarse;	/* equivalence refused: the
					   resolution is not finer than the
					   margin */
	double			position;	/* log position effect of the
						   pairs, NAN when none */
	int			position_large;	/* beyond the margin: the
						   unpaired test decided */
	double			equiv_beta;	/* the one-sided miss of the
						   interval that decided
						   equivalence (or would) */
	int			futile;	/* undecided, and done: coarse,
					   and the trend would not reach
					   the last boundary (seq_futile) */
};

/*
 * The decision at look k for baseline x1 and candidate x2 (each sorted
 * ascending, n >= 1), and pairs (NULL: unpaired) the same rounds as
 * per-round ratios. cache may be NULL (slower). The interval itself is
 * seq_shift_ci's or signrank_ci's (not computed here: the rule only
 * counts).
 */
void	seq_decide(const struct seq_design *d, int k, const double *x1,
	    size_t n1, const double *x2, size_t n2,
	    const struct seq_pairs *pairs, struct bm_ucache *cache,
	    struct seq_result *out);

/* seq_decide for values written in another unit and scaled into this
 * one (resolution_log_scaled): the resolution from their digits as
 * written. */
void	seq_decide_scaled(const struct seq_design *d, int k,
	    const double *x1, size_t n1, const double *x2, size_t n2,
	    const struct seq_pairs *pairs, double scale,
	    struct bm_ucache *cache, struct seq_result *out);

const char	*seq_test_name(enum seq_test t);

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
/* The verdict a name of seq_verdict_name's stands for. */
enum seq_verdict seq_verdict_parse(const char *name);

/*
 * A row's verdicts look after look, where a workload goes on until all
 * its rows are decided at one look: a row decided at a look and not, or
 * otherwise, at a later one is reopened. How many times, and the last
 * (the verdict it had, at which look and round, and the look and round
 * that reopened it). One rule for the run's verdict lines and for what
 * `db show` reads back from the stored looks.
 */
struct seq_reopen {
	int			looked, reopened;
	enum seq_verdict	last, was;
	int			last_look, last_round, was_look, was_round;
	int			reopen_look, reopen_round;
};

/* The row's verdict v at look (0-based) made at run round (0-based). */
void	seq_reopen_step(struct seq_reopen *o, enum seq_verdict v, int look,
	    int round);
/* "reopened: different at look 1 (round 4), not at look 2 (round 6)"
 * (or "reopened 2 times, the last: ...") into buf when it was, else "";
 * buf's length. SEQ_REOPEN_NOTE holds any. */
#define SEQ_REOPEN_NOTE	160
size_t	seq_reopen_note(const struct seq_reopen *o, char *buf, size_t len);

#endif
