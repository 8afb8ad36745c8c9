/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly judgement resumed from a state (stats/nightly-judge.h:
 * nightly_state_text, nightly_state_parse, nightly_judge_rows_from): a
 * year judged night by night, each night from the state the night before
 * left as text and no night known but the ones it kept and the last
 * window + 2 (as nightly reads them from the store), gives what the whole
 * replay gives on that night, bit for bit: the verdict, the reason, the
 * numbers, every change. Over generated years of the three noise models
 * of t-nightly-sim (tests/unit/nightsim.h), with steps, nights without a
 * value and accepted nights; one night judged per night (O(new nights)).
 * A state that is not one is refused; a night a reference needs that is
 * not known marks the row incomplete.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/nightly-judge.h"
#include "tests/unit/nightsim.h"
#include "tests/unit/tap.h"

#define SERIES	12	/* per model */

static int64_t	ids[NIGHTS], nos[NIGHTS];

static struct nightly_input
input(const struct nightly_night *nt)
{
	struct nightly_input	in;

	memset(&in, 0, sizeof(in));
	in.unit = "sec/op";
	in.better = -1;
	in.threshold = 0.02;
	in.nights = nt;
	return in;
}

/* Bits of a and b equal (NaN equal to NaN). */
static int
same_d(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

static int
same_rows(const struct nightly_row *a, const struct nightly_row *b)
{
	size_t	i;

	if (a->verdict != b->verdict || strcmp(a->reason, b->reason) != 0 ||
	    a->nchanges != b->nchanges || a->nnights != b->nnights ||
	    a->last_night != b->last_night || a->judged != b->judged ||
	    a->k != b->k || a->ref_from != b->ref_from ||
	    !same_d(a->ref_mean, b->ref_mean) ||
	    !same_d(a->ref_sd, b->ref_sd) || !same_d(a->z, b->z) ||
	    !same_d(a->mde, b->mde) || a->new_change != b->new_change ||
	    a->outlier_back != b->outlier_back || a->resized != b->resized)
		return 0;
	for (i = 0; i < a->nchanges; i++) {
		const struct nightly_change *x = &a->changes[i];
		const struct nightly_change *y = &b->changes[i];

		if (x->night != y->night || x->found != y->found ||
		    x->test != y->test || x->transient != y->transient ||
		    x->resized != y->resized || x->k != y->k ||
		    !same_d(x->z, y->z) || !same_d(x->rel, y->rel) ||
		    !same_d(x->rel2, y->rel2) || !same_d(x->before, y->before))
			return 0;
	}
	return 1;
}

int
main(void)
{
	static struct nightly_night	nt[NIGHTS], part[NIGHTS];
	struct nightly_judge_options	o;
	struct nightly_input		in;
	struct nightly_row		full, inc;
	gsl_rng				*rng;
	char				*state, *cause = NULL;
	unsigned			 m, i;
	size_t				 h, j, nights = 0, changes = 0;
	size_t				 kept = 0;
	unsigned			 differ = 0, incomplete = 0, bad = 0;

	for (h = 0; h < NIGHTS; h++) {
		ids[h] = 1000 + (int64_t)h;
		nos[h] = (int64_t)h + 1;
	}
	nightly_judge_options_init(&o);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20261207);
	for (m = 0; m < NMODELS; m++) {
		for (i = 0; i < SERIES; i++) {
			series(rng, (enum model)m, 40 + 20 * i, i % 3 == 0 ?
			    0 : (i % 2 ? -2 : 2) * SIGMA, nt);
			/* A few nights without a value; one accepted. */
			for (h = 7; h < NIGHTS; h += 53 + i)
				nt[h].median = NAN;
			if (i % 4 == 1)
				nt[200].ack = 1;
			in = input(nt);
			memset(&inc, 0, sizeof(inc));
			state = NULL;
			for (h = 1; h <= NIGHTS; h++) {
				/* Tonight from last night's state: the nights
				 * it keeps, the window + 1 before last night
				 * and tonight's, no other. */
				for (j = 0; j < h; j++) {
					part[j] = nt[j];
					if (j + o.window + 2 >= h)
						continue;
					memset(&part[j], 0, sizeof(part[j]));
					part[j].median = part[j].se = NAN;
					part[j].unknown = 1;
				}
				in = input(part);
				memset(&inc, 0, sizeof(inc));
				if (state != NULL && nightly_state_parse(state,
				    &inc, part, h) != 0)
					bad++;
				free(state);
				if (nightly_judge_rows_from(&o, &in, 1, ids, nos,
				    h, h - 1, &inc, &cause) != 0)
					bad++;
				incomplete += inc.incomplete;
				state = nightly_state_text(&inc, part, h,
				    o.window);
				kept += strlen(state);
				nights++;
				/* Against the whole replay, every 5th night
				 * and the year's last. */
				if (h % 5 == 0 || h == NIGHTS) {
					in = input(nt);
					memset(&full, 0, sizeof(full));
					if (nightly_judge_rows(&o, &in, 1, ids,
					    nos, h, &full, &cause) != 0)
						bad++;
					if (!same_rows(&full, &inc)) {
						if (differ++ == 0)
							TAP_DIAG("model %u "
							    "series %u night "
							    "%zu: '%s' vs '%s'",
							    m, i, h,
							    full.reason,
							    inc.reason);
					}
					if (h == NIGHTS)
						changes += full.nchanges;
					nightly_row_release(&full);
				}
				nightly_row_release(&inc);
			}
			free(state);
		}
	}
	TAP_DIAG("%zu nights judged one at a time from the night before's "
	    "state (%zu bytes on average), %zu changes in the years", nights,
	    kept / nights, changes);
	tap_int_eq(bad, 0, "every state read back, every night judged");
	tap_int_eq(incomplete, 0, "no reference needed a night the state did "
	    "not keep");
	tap_int_eq(differ, 0, "resumed night by night: the whole replay's "
	    "verdicts, reasons, numbers and changes, bit for bit");
	tap_ok(changes > 20, "the years had changes to carry (%zu)", changes);

	/* Not a state: refused, the row left alone. */
	memset(&inc, 0, sizeof(inc));
	tap_int_eq(nightly_state_parse("", &inc, part, 10), -1, "empty: refused");
	tap_int_eq(nightly_state_parse("2 0 -1 0 0", &inc, part, 10), -1,
	    "another version: refused");
	tap_int_eq(nightly_state_parse("1 3 2 1 5", &inc, part, 10), -1,
	    "a change cut short: refused");
	tap_int_eq(nightly_state_parse("1 3 2 0 0 x", &inc, part, 10), -1,
	    "trailing words: refused");
	tap_ok(inc.changes == NULL && inc.nnights == 0, "nothing set");
	tap_int_eq(nightly_state_parse("1 3 2 0 1 12 3_m00000000 00000000000",
	    &inc, part, 10), -1, "a night past the nights: refused");
	part[2].unknown = 1;
	tap_int_eq(nightly_state_parse("1 3 2 0 1 2 3_m00000000 00000000000",
	    &inc, part, 10), 0, "no change, one night: read");
	tap_ok(inc.nnights == 3 && inc.last_night == 2 && inc.nchanges == 0 &&
	    part[2].median == 1 && part[2].se == 0 && !part[2].unknown,
	    "no change: 3 nights, the last index 2, its median 1 and se 0");
	nightly_row_release(&inc);

	/* A night a reference needs, unknown: the row is incomplete. */
	series(rng, M_NORMAL, 0, 0, nt);
	memcpy(part, nt, sizeof(part));
	for (j = 0; j < 30; j++) {
		part[j].median = NAN;
		part[j].unknown = 1;
	}
	in = input(part);
	memset(&inc, 0, sizeof(inc));
	inc.nnights = 30;
	inc.last_night = 29;
	tap_int_eq(nightly_judge_rows_from(&o, &in, 1, ids, nos, 40, 30, &inc,
	    &cause), 0, "resumed over unknown nights: judged");
	tap_ok(inc.incomplete, "... and marked incomplete");
	nightly_row_release(&inc);
	free(cause);
	gsl_rng_free(rng);
	return tap_done();
}
