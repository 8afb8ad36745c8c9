/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement (`abbench nightly`, harness/analysis/nightly.h
 * gathers its numbers from the store): each row (an arm, benchmark and
 * unit of the candidate run) judged on its nights, one value per night
 * (the median of that night's executions) with that median's standard
 * error.
 *
 * Why nights and not samples: samples of different nights are not
 * independent (the machine, its load, its caches differ from night to
 * night), so a test of tonight's samples against earlier nights' pooled
 * samples reads ordinary night-to-night variation as a change and cries
 * wolf. Here a night is one observation; the reference is the
 * distribution of earlier nights' medians, their night-to-night variance
 * included.
 *
 * The rule, for night h against its reference R(h): the nights before h
 * since the reference started (the first night, an accepted change, or
 * the latest change found), at most `window` of them, k of them with a
 * value, leaving out noisy nights (a standard error over twice the
 * typical one: a loaded machine's median says little about the level).
 * c is the mean of R's medians; s their standard deviation, pooled
 * (about each level's own mean) with the nights of the level before R's
 * up to `window` nights in all, df degrees of freedom: a change moves the
 * level, not the noise, so the night after a change is judged already;
 * s is at least the typical standard error of R's medians (nights cannot
 * vary less than their own medians do). With e tonight's standard error in
 * excess of R's typical one (a loaded, noisy night is judged with its own
 * noise),
 *     z(h) = (m(h) - c) / sqrt(s^2 (1 + 1/k) + e^2)
 * is compared with Student's t at df degrees of freedom (the prediction
 * interval of one more night: exact for normal nights):
 *   night test      |z(h)| >= t(1 - alpha/2): a change at h;
 *   two-night test  the mean of nights h - 1 and h against R(h - 1),
 *                   z = (mean - c) / sqrt(s^2 (1/2 + 1/k) + excesses),
 *                   |z| >= t(1 - alpha2/2) with alpha2 = 6 alpha, both
 *                   nights on the side of their mean: a change at h - 1,
 *                   found on night h.
 * Measured by tests/unit/t-nightly-sim over generated years (8
 * executions a night, sigma their spread, nights moving by sigma/4,
 * loaded nights, heavy tails): at the defaults 0.17-0.48 false alarms
 * (changes of 2% or more) per series-year, and a step of 2 sigma caught
 * on its night or the next in 91-99% of series. A night is judged once
 * R has a night and df + 1 >= min_nights.
 *
 * A change the night test found on one night, when the next night is back
 * within the two-night limit of the level before, was an outlier night
 * (a machine loaded for one night): it is marked transient, its night
 * leaves every reference, and the night back raises no second alarm.
 *
 * The rule is replayed over the whole history, night by night, each night
 * seeing only the nights up to it: so a change is found once, on the night
 * it was first detected (a new change, tonight's verdict), and is known on
 * every later night (its night, size and the test that found it), where
 * it has become the reference and fails nothing. A night marked `ack`
 * (nightly --ack, --baseline-from) starts a new reference the same way.
 *
 * Verdict of tonight: a new change found tonight, by its direction, if
 * its size (its level against the reference mean) is at least the
 * threshold: regressed, improved, or inconclusive when the unit's
 * direction is unknown; else the same for last night's change (found by
 * the night test) whose one night read below the threshold when its two
 * nights' mean reaches it (a step of 2.41% read -1.83% on its night,
 * -2.08% over two: bench/history-truth); else inconclusive when fewer
 * than min_nights
 * nights are in tonight's reference; else inconclusive "too noisy" when
 * the MDE (the smallest step the two-night test catches with about 80%
 * power: (t(1 - alpha2/2) + 0.84) times its denominator, were both
 * nights like tonight, relative to c) is above the threshold; else
 * unchanged.
 *
 * Pure: no I/O, no randomness; the same answer for the same values.
 */
#ifndef ABBENCH_STATS_NIGHTLY_JUDGE_H
#define ABBENCH_STATS_NIGHTLY_JUDGE_H

#include <stddef.h>
#include <stdint.h>

enum nightly_verdict {
	NIGHTLY_UNCHANGED,
	NIGHTLY_IMPROVED,
	NIGHTLY_REGRESSED,
	NIGHTLY_INCONCLUSIVE,
};
const char	*nightly_verdict_name(enum nightly_verdict v);

/* Which test found a change. */
enum nightly_test {
	NIGHTLY_TEST_NIGHT,	/* one night beyond t(1 - alpha/2) */
	NIGHTLY_TEST_TWO,	/* two nights' mean beyond t(1 - alpha2/2) */
	NIGHTLY_TEST_ACK,	/* not found: accepted by the user */
};
const char	*nightly_test_name(enum nightly_test t);

struct nightly_judge_options {
	double		 alpha;		/* night test, per night; 0.0005 */
	size_t		 window;	/* reference nights at most; 30 */
	size_t		 min_nights;	/* reference nights at least; 3 */
};
void	nightly_judge_options_init(struct nightly_judge_options *o);

/* One night of a row. */
struct nightly_night {
	double	 median;	/* of its executions; NaN: no value */
	double	 se;		/* of the median; NaN: unknown (n < 2) */
	size_t	 n;		/* executions */
	int	 ack;		/* a new reference starts here */
	/*
	 * Not read by the caller (a judgement resumed from a state keeps
	 * only the nights it needs): a reference that would take it sets
	 * the row's incomplete, and the caller judges the row again from
	 * every night.
	 */
	int	 unknown;
};

/* What one row is judged on (all borrowed). */
struct nightly_input {
	const char	*unit;		/* named if its direction is unknown */
	int		 better;	/* +1 higher, -1 lower, 0 unknown */
	double		 threshold;	/* minimum relative effect */
	int		 threshold_calibrated;	/* said in the reason */
	/* nnights nights, oldest first; the last is tonight. */
	const struct nightly_night *nights;
};

struct nightly_change {
	size_t		 night;		/* index in the history */
	size_t		 found;		/* index of the night that found it */
	int64_t		 run_id;	/* the run of night */
	int64_t		 number;	/* night's number (1 = the first) */
	int64_t		 wall_ns;	/* its start (the caller's; 0 here) */
	enum nightly_test test;
	double		 z;		/* of the test that found it */
	double		 limit;		/* the t quantile they passed */
	size_t		 k;		/* reference nights of its level */
	double		 before;	/* the reference mean */
	double		 after;		/* the new level (TWO: mean of 2) */
	double		 rel;		/* (after - before) / |before| */
	/*
	 * An outlier night, not a change: found by the night test, alone
	 * on its level, and the next night (back) was within the two-night
	 * limit of the level before. It alarmed on its night; it is out of
	 * every reference since, and the level before goes on.
	 */
	int		 transient;
	size_t		 back;		/* index of the night back */
	/*
	 * Its size again the night after (a night test's change, still a
	 * level then): the mean of its first two nights against before. One
	 * night's median reads a step near the threshold on either side of
	 * it; the two nights' mean has half its variance. A change whose
	 * one night read below the threshold alarms the night after when
	 * this size reaches it (nightly_change_alarm).
	 */
	int		 resized;
	size_t		 found2;	/* index of the night after */
	double		 after2;	/* the mean of the two nights */
	double		 rel2;		/* (after2 - before) / |before| */
};

struct nightly_row {
	/* The caller's, malloc'd; nightly_judge_rows leaves them. */
	char			*arm;
	char			*benchmark;
	char			*unit;
	/* The rest nightly_judge_rows sets. */
	int			 better;	/* +1 higher, -1 lower, 0 ? */
	enum nightly_verdict	 verdict;
	char			*reason;	/* one line, why */
	size_t			 ncand;		/* tonight's executions */
	double			 cand_median;	/* NaN: none */
	size_t			 nnights;	/* nights with a value */
	/* Tonight against its reference (judged: k >= min_nights). */
	int			 judged;
	size_t			 k;		/* reference nights */
	size_t			 ref_from;	/* index of its first night */
	double			 ref_mean, ref_sd;
	double			 delta;		/* relative, NaN if none */
	double			 z, limit;	/* the night test's */
	/*
	 * The smallest relative step the two-night test catches with about
	 * 80% power against tonight's reference; INFINITY when not judged.
	 * A row whose MDE is above its threshold is inconclusive (too
	 * noisy), never unchanged.
	 */
	double			 mde;
	double			 threshold;
	int			 threshold_calibrated;
	int			 too_noisy;
	/* Changes found in the history, oldest first (malloc'd). */
	struct nightly_change	*changes;
	size_t			 nchanges;
	int			 new_change;	/* the last one was found
						 * tonight */
	int			 outlier_back;	/* tonight made the last
						 * change transient */
	int			 resized;	/* tonight sized the last
						 * change again (resized) */
	/*
	 * What the rule carries to the next night (nightly_state_text):
	 * the changes above, nnights, and the index of the last night with
	 * a value ((size_t)-1: none). incomplete: a reference needed a
	 * night marked unknown (nightly_judge_rows_from).
	 */
	size_t			 last_night;
	int			 incomplete;
	/*
	 * Every night of the history, oldest first, as judged (malloc'd;
	 * harness/analysis/nightly.c hands them over for `abbench history`;
	 * NULL when the caller kept them). nightly_row_release frees them.
	 */
	struct nightly_night	*nights;
};

/*
 * Judge n rows: rows[i] from in[i]. night_ids[h] is the run of night h,
 * night_no[h] its number as printed (counting from 1); nnights is the
 * length of every in[i].nights. Every field of rows[i] but arm,
 * benchmark and unit is set (reason and changes malloc'd,
 * nightly_row_release frees them). 0, or -1 and *cause for bad options
 * or a night's median that is not finite.
 */
int	nightly_judge_rows(const struct nightly_judge_options *o,
	    const struct nightly_input *in, size_t n, const int64_t *night_ids,
	    const int64_t *night_no, size_t nnights, struct nightly_row *rows,
	    char **cause);
/*
 * Whether change c alarms at threshold: 1 with the night that alarmed
 * (*found: its index) and the size read then (*rel): its own night's,
 * else, when that read below the threshold, the night after's over its
 * two nights (resized). 0 for an accepted night or a size below.
 */
int	nightly_change_alarm(const struct nightly_change *c, double threshold,
	    size_t *found, double *rel);
/*
 * The same, resumed: rows[i] holds the state of night from - 1 (its
 * changes, nchanges, nnights, last_night: nightly_state_parse), and
 * nights from.. are judged as the whole replay would judge them, the
 * same numbers bit for bit (the references depend on the starts, which
 * are the changes' nights, and on the nights themselves; a night made an
 * outlier is left out again). Nights before from that no reference needs
 * may be unknown; a row that needed one is marked incomplete (judge it
 * with from = 0). from = 0 is nightly_judge_rows.
 */
int	nightly_judge_rows_from(const struct nightly_judge_options *o,
	    const struct nightly_input *in, size_t n, const int64_t *night_ids,
	    const int64_t *night_no, size_t nnights, size_t from,
	    struct nightly_row *rows, char **cause);

/*
 * A row's state after its last night judged, as one line of text
 * (malloc'd): "1 NNIGHTS LAST NCHANGES", each change's fields (numbers
 * as the 64 bits of their doubles in 11 digits of base 64, so that they
 * read back bit for bit), then the nights later references can take,
 * "NKEPT" and each one's index (the first's, then each one's distance
 * from the one before), median and standard error: of each level from
 * the latest back,
 * its last window + 1 nights with a value, until 2 (window + 1) of them
 * (a reference reads the latest level's last window nights, and the
 * levels before while the nights it counts fall short of the window, as
 * when a level is new or some of its nights were left out as noisy);
 * the nights without a value among them too (as NaN); but not the last
 * window + 1 nights (index nnights - 1 - window and later): every series
 * has those, and the caller reads them again (the store keeps them once
 * a night for every row, night-summary.h), so a row whose latest level
 * is long keeps no night at all.
 * nights are the row's nnights nights as judged (in->nights); a night
 * unknown is counted and not kept.
 *
 * nightly_state_parse reads it into row's changes, nchanges, nnights and
 * last_night, and the kept nights into nights[] (nnights of them, the
 * caller's, with the window + 1 nights before the resumed one and those
 * after it known: every other night it leaves unknown): 0, or
 * -1 when it is not such a line or a night is past nnights (nothing is
 * set then).
 */
char	*nightly_state_text(const struct nightly_row *row,
	    const struct nightly_night *nights, size_t nnights, size_t window);
int	 nightly_state_parse(const char *text, struct nightly_row *row,
	    struct nightly_night *nights, size_t nnights);

/* Free a row's strings and changes and zero it (twice is safe). */
void	nightly_row_release(struct nightly_row *row);

/*
 * The standard error of the median of n values (sorted): 1.2533 times
 * their robust standard deviation (1.4826 MAD) over sqrt(n), NaN for
 * n < 2. For the callers that build the nights.
 */
double	nightly_median_se(const double *sorted, size_t n);
/*
 * A night from its n executions' values x (in any order; not changed):
 * their count, median and nightly_median_se. What `abbench nightly` reads
 * of a night, and what the store keeps of a done run's nights
 * (results/night-summary.h), so that both give the same numbers.
 */
void	nightly_night_of_values(struct nightly_night *t, const double *x,
	    size_t n);

/*
 * The direction of a unit from its name: +1 when higher is better (iops,
 * bytes_per_second, ops_per_second, work/s, B/s and other rates), -1 when
 * lower is better (sec/op, *-sec/op, B, *-B, overhead..., ctxsw rates),
 * 0 when unknown. stored is the run's better= value or NULL; it wins.
 */
int	nightly_unit_better(const char *unit, const char *stored);

/* "unchanged", or "inconclusive (too noisy: MDE 7.3%)" (malloc'd). */
char	*nightly_verdict_text(const struct nightly_row *row);

#endif
