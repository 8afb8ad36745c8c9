/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `abbench nightly` carries from one night to the next: each row's
 * state after the night it judged (stats/nightly-judge.h's
 * nightly_state_text: its changes, its nights counted, and the nights
 * later references can take), kept with that night's run as its
 * `nightly.state` config line (a `nightly.` key: the run's metadata, never
 * a benchfmt config line, and not listed with the run's config, shown or
 * exported; no table of its own: the store's schema is unchanged). Tonight's judgement resumes from the latest state of the
 * nights before it and judges only the nights after that state (one,
 * every night), instead of replaying the rule over the history; its
 * answers are the whole replay's, bit for bit.
 *
 * The value: a first line "1 NIGHT DIGEST" (the index of the night in the
 * history, and a digest of the history up to it: its runs, their counts
 * of values, its accepted nights and the rule's options; another history,
 * a night whose values changed since, or other options do not read it),
 * then one line a row, "ARM<TAB>BENCHMARK<TAB>UNIT<TAB>R<TAB>STATE"
 * (tab, newline and backslash escaped as \t, \n, \\; R 1 for a row
 * judged on its ratio to the control arm, else 0: a row judged the other
 * way since has no state).
 *
 * A state is a cache: without one (the first night, a history changed
 * under it, a store opened read-only, a row new tonight) the judgement
 * replays every night, with the same answers.
 */
#ifndef ABBENCH_NIGHTLY_STATE_H
#define ABBENCH_NIGHTLY_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "results/store.h"
#include "stats/nightly-judge.h"

/*
 * What a state is of: a judged history's runs and rows (borrowed from
 * nightly.c's result, which fills it).
 */
struct nightly_state_of {
	const char		*name;		/* the experiment's */
	const int64_t		*history_ids;	/* oldest first */
	const int		*acks;		/* per night, or NULL */
	size_t			 nhistory;
	struct nightly_row	*rows;
	const int		*ratio;		/* per row, or NULL */
	size_t			 nrows;
};

/* The config key of a night's state (store_config_list leaves it out). */
#define NIGHTLY_STATE_KEY	STORE_KEY_NIGHTLY_STATE
/* How many nights before tonight a state is looked for. */
#define NIGHTLY_STATE_LOOKBACK	8

/*
 * The latest state among the NIGHTLY_STATE_LOOKBACK nights before tonight (r's history,
 * its acks) whose digest is this history's: 1, its night's index in *night
 * and the value in *text (malloc'd); 0 when there is none.
 */
int	nightly_state_find(struct store *st, const struct nightly_state_of *r,
	    const struct nightly_judge_options *jo, size_t *night, char **text,
	    char **cause);
/*
 * Each of r's rows from its line of text: its state into r->rows[i] and
 * the nights it keeps into nights[i] (r->nhistory of them). 0, or -1
 * when a row has no line or a line is not a state (nothing is to be
 * trusted then: judge every night).
 */
int	nightly_state_load(const char *text, const struct nightly_state_of *r,
	    struct nightly_night **nights);
/*
 * Keep tonight's state (r judged, nights[i] row i's nights as judged)
 * with tonight's run, and remove those of the nights before last night,
 * back to NIGHTLY_STATE_LOOKBACK nights (last night's stays: tonight judged again
 * resumes from it), in one transaction: 0, or -1 and *cause (a store
 * that cannot be written).
 */
int	nightly_state_keep(struct store *st, const struct nightly_state_of *r,
	    const struct nightly_judge_options *jo, struct nightly_night **nights,
	    char **cause);

#endif
