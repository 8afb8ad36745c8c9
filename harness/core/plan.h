/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan of a run (plan.c): which (round, workload, arm) comes when, in
 * the order's rule, deterministic for a given experiment, order and seed.
 */
#ifndef ABBENCH_PLAN_H
#define ABBENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "exec/context.h"
#include "harness/core/experiment.h"

/*
 * Build the plan. Warm-up rounds come first (e->warmup of them), then
 * e->rounds measured rounds; the order applies across all of them.
 * Deterministic for a given (experiment, order, seed).
 */
int	plan_build(const struct experiment *e, enum run_order order,
	    uint64_t seed, struct plan_entry **out, size_t *n, char **cause);
/*
 * Append the entries of round `round` for the workloads with active[w]
 * != 0 (NULL: all) to *out (*n entries, *cap allocated; idx = their
 * index in *out), in the order's rule (alternate, abba, random; not
 * sequential, which is a whole-run plan), positions 0.. within the round.
 * With all workloads active, rounds 0..N-1 are plan_build's entries.
 */
void	plan_round(const struct experiment *e, enum run_order order,
	    uint64_t seed, int round, const int *active,
	    struct plan_entry **out, size_t *n, size_t *cap);
/* The order of arm indices in round r (narms entries written to out). */
void	plan_round_order(enum run_order order, uint64_t seed, int round,
	    size_t narms, int *out);

#endif
