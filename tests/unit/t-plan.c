/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan of a run: the sequence of (round, arm) for every order and 2 to
 * 4 arms, warm-up rounds, several workloads, and the seeded random order.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "harness/core/plan.h"
#include "tests/unit/tap.h"

static void
fake_experiment(struct experiment *e, size_t narms, size_t nwl, int rounds,
    int warmup)
{
	memset(e, 0, sizeof *e);
	e->arms = calloc(narms, sizeof *e->arms);
	e->narms = narms;
	e->workloads = calloc(nwl, sizeof *e->workloads);
	e->nworkloads = nwl;
	e->rounds = rounds;
	e->warmup = warmup;
}

static void
free_experiment(struct experiment *e)
{
	free(e->arms);
	free(e->workloads);
}

/* The arm letters of a plan, rounds separated by '|'. */
static char *
letters(const struct plan_entry *p, size_t n)
{
	char	*s = calloc(2 * n + 2, 1);
	size_t	 i, j = 0;

	for (i = 0; i < n; i++) {
		if (i > 0 && p[i].round != p[i - 1].round)
			s[j++] = '|';
		s[j++] = (char)('A' + p[i].arm);
	}
	return s;
}

static void
check_order(enum run_order order, size_t narms, int rounds, const char *want)
{
	struct experiment	 e;
	struct plan_entry	*p = NULL;
	size_t			 n = 0;
	char			*got, *cause = NULL;

	fake_experiment(&e, narms, 1, rounds, 0);
	tap_ok(plan_build(&e, order, 1, &p, &n, &cause) == 0,
	    "plan %s %zu arms builds", run_order_name(order), narms);
	got = letters(p, n);
	tap_str_eq(got, want, "%s with %zu arms x %d rounds",
	    run_order_name(order), narms, rounds);
	free(got);
	free(p);
	free_experiment(&e);
}

static int
is_permutation(const int *v, size_t n)
{
	int	seen[16] = { 0 };
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i] < 0 || (size_t)v[i] >= n || seen[v[i]]++)
			return 0;
	}
	return 1;
}

int
main(void)
{
	struct experiment	 e;
	struct plan_entry	*p = NULL;
	size_t			 n = 0, i, narms;
	int			 a[4], b[4], r, differs, counts[4];
	char			*cause = NULL, *s;

	check_order(ORDER_ALTERNATE, 2, 4, "AB|BA|AB|BA");
	check_order(ORDER_ALTERNATE, 3, 3, "ABC|CBA|ABC");
	check_order(ORDER_ALTERNATE, 4, 2, "ABCD|DCBA");
	check_order(ORDER_ABBA, 2, 2, "ABBA|ABBA");
	check_order(ORDER_ABBA, 3, 1, "ABCCBA");
	check_order(ORDER_ABBA, 4, 1, "ABCDDCBA");
	check_order(ORDER_SEQUENTIAL, 2, 3, "A|A|A|B|B|B");
	check_order(ORDER_SEQUENTIAL, 3, 2, "A|A|B|B|C|C");

	/* random: a permutation per round, reproducible, seed-dependent. */
	for (narms = 2; narms <= 4; narms++) {
		differs = 0;
		memset(counts, 0, sizeof counts);
		for (r = 0; r < 40; r++) {
			plan_round_order(ORDER_RANDOM, 42, r, narms, a);
			plan_round_order(ORDER_RANDOM, 42, r, narms, b);
			if (!is_permutation(a, narms) ||
			    memcmp(a, b, narms * sizeof *a) != 0)
				break;
			counts[a[0]]++;
			plan_round_order(ORDER_RANDOM, 43, r, narms, b);
			if (memcmp(a, b, narms * sizeof *a) != 0)
				differs++;
		}
		tap_int_eq(r, 40, "random %zu arms: 40 rounds are "
		    "reproducible permutations", narms);
		tap_ok(differs > 0, "random %zu arms: another seed gives "
		    "another order", narms);
		for (i = 0; i < narms; i++) {
			if (counts[i] == 0)
				break;
		}
		tap_ok(i == narms, "random %zu arms: every arm comes first "
		    "in some round", narms);
	}

	/* Warm-up rounds come first and are marked; 2 workloads each. */
	fake_experiment(&e, 2, 2, 2, 1);
	tap_ok(plan_build(&e, ORDER_ALTERNATE, 0, &p, &n, &cause) == 0,
	    "plan with warm-up builds");
	tap_int_eq(n, 12, "3 rounds x 2 workloads x 2 arms = 12 samples");
	s = letters(p, n);
	tap_str_eq(s, "ABAB|BABA|ABAB", "arms alternate per round, for each "
	    "workload");
	free(s);
	for (i = 0; i < n; i++) {
		if (p[i].warmup != (p[i].round == 0) || p[i].idx != (int)i ||
		    p[i].workload != (int)((i % 4) / 2) ||
		    p[i].position != (int)(i % 4))
			break;
	}
	tap_int_eq(i, n, "warm-up flags, indices, workloads and positions");
	free(p);
	free_experiment(&e);

	fake_experiment(&e, 2, 1, 0, 0);
	tap_ok(plan_build(&e, ORDER_ALTERNATE, 0, &p, &n, &cause) == -1 &&
	    cause != NULL, "zero rounds is an error");
	free(cause);
	free_experiment(&e);
	return tap_done();
}
