/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Change points of a history (one value a night), deterministic and
 * incremental: the method of Apache Otava (formerly Hunter), Fleming et
 * al., "Hunter: Using Change Point Detection to Hunt for Performance
 * Regressions", ICPE 2023 (doi:10.1145/3578244.3583719), and Otava's
 * incremental form (ICPE 2025), written here from their description and
 * Otava's source (otava/analysis.py, change_point_divisive/).
 *
 * Split: windows of `window` points slide over the series, each starting
 * at max(the last change point the window before found, its start +
 * window / 2). In a window, E-divisive means (Matteson and James 2014):
 * the candidate is the (tau, kappa) that maximizes the energy statistic
 *   Q = 2/(n+m) sum|X-Y| - 2m/((n+m)(n-1)) sum|X-X'| - 2n/((n+m)(m-1)) sum|Y-Y'|
 * of X = x[a..tau) (n points) and Y = x[tau..kappa) (m points) over the
 * window's current segments [a, b), and it is accepted when Student's
 * t-test (two-sided, pooled variance) of x[a..tau) against x[tau..b)
 * gives p <= 10 max_p (a "weak" change point; Otava's first pass); the
 * window stops at the first candidate that is not. No permutations: no
 * randomness. Our one addition: min_size points on each side of a split
 * (Otava: 1), so that one odd night is not a level.
 * Merge: the union of the windows' weak points, each tested (t) between
 * its neighbours; the one with the largest p is removed while that p >
 * max_p (then the one of least relative size while that size <= min_rel),
 * and its neighbours are tested again. What remains are the change points.
 * Place: each then moves, by at most 2 nights, to where the means split
 * its segment (between its neighbours) best, the least-squares estimate
 * of one change point (Hinkley 1970, Biometrika 57(1)); the energy
 * statistic finds a level well but places its edge less sharply (a step
 * of 2 sigma at its very night: 94.8% -> 95.7%, t-edivisive).
 *
 * Incremental: a window wholly inside the series never changes as nights
 * are appended (its values and its start are fixed), so the state keeps
 * those windows' weak points and the start of the first window that is
 * not complete; an append recomputes only the windows that reach the end
 * (at most two, O(window^2) each) and the merge (O(K^2) over the K weak
 * points, each test O(1) from prefix sums). The result after appends is
 * the result of the whole series at once, bit for bit: the same history
 * gives the same change points, however it was fed; and on every machine:
 * the sums run in a fixed order, built with -ffp-contract=off
 * (configure.ac), so no fused multiply-add moves a bit.
 *
 * Pure computation; not thread-safe per state (one state per series).
 */
#ifndef ABBENCH_STATS_EDIVISIVE_H
#define ABBENCH_STATS_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

struct ed_options {
	size_t	window;		/* points a window; >= 4; 50 */
	double	max_p;		/* t-test p of a change point; 1e-4 */
	double	min_rel;	/* smallest relative size kept; 0 */
	size_t	min_size;	/* points on each side of a split; 2 */
};
void	ed_options_init(struct ed_options *o);

struct ed_change {
	size_t	index;		/* first point of the new level */
	double	p, t;		/* the t-test between its neighbours */
	double	mean_before, mean_after;
	double	sd_before, sd_after;
	size_t	n_before, n_after;
	double	rel;		/* (after - before) / |before|, NaN if 0 */
};

struct ed_series {
	struct ed_options	 opt;
	double			*x;	/* the values */
	double			*s1, *s2; /* prefix sums of x and x^2 */
	size_t			 n, cap;
	/* Weak points of the complete windows, sorted; the next start. */
	size_t			*settled;
	size_t			 nsettled, capsettled;
	size_t			 next_start;
	/* The change points of x[0..n), by index. */
	struct ed_change	*changes;
	size_t			 nchanges;
	/* Energy statistics evaluated so far (the work, for tests). */
	uint64_t		 work;
};

/* An empty series; 0, or -1 and *cause for bad options. */
int	ed_series_init(struct ed_series *s, const struct ed_options *o,
	    char **cause);
/* Append n values and recompute the change points. -1 and *cause for a
 * value that is not finite (nothing is appended then). */
int	ed_series_append(struct ed_series *s, const double *x, size_t n,
	    char **cause);
void	ed_series_release(struct ed_series *s);

/* The whole series at once: init, append, and the changes copied out
 * (*out malloc'd, *nout of them). */
int	ed_detect(const double *x, size_t n, const struct ed_options *o,
	    struct ed_change **out, size_t *nout, char **cause);

/* Student's t-test of x[a..b) against x[b..c) from the prefix sums. */
void	ed_ttest(const struct ed_series *s, size_t a, size_t b, size_t c,
	    struct ed_change *out);

#endif
