/* SPDX-License-Identifier: Apache-2.0 */
/*
 * changepoints: what a night costs the change points of a team's history
 * (stats/edivisive.h). S series (default 4000: 20 shapes x 200 rows) of
 * Y years of nights (default 1, 365 a year), Gaussian noise with a 3%
 * step in every fifth series. Measured in the same run:
 *   batch        each series' change points from its whole history (what
 *                `abbench history` does);
 *   incremental  one more night appended to each series' state (the
 *                states built beforehand, not timed);
 * and their ratio, with the energy statistics each evaluated. The claim:
 * a night appended costs the same whatever the history's length (compare
 * -y 1 with -y 4), where the batch grows with it.
 *
 *   bench/changepoints [-s SERIES] [-y YEARS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"
#include "stats/edivisive.h"

int
main(int argc, char **argv)
{
	struct ed_options	 o;
	struct ed_series	*st;
	gsl_rng			*rng;
	double			*x, bt, it;
	size_t			 ns = 4000, years = 1, n, i, h, found = 0;
	uint64_t		 bwork = 0, iwork = 0, w0;
	int64_t			 t0;
	char			*cause = NULL;
	int			 ch;

	while ((ch = getopt(argc, argv, "s:y:")) != -1) {
		switch (ch) {
		case 's':
			ns = (size_t)strtoul(optarg, NULL, 10);
			break;
		case 'y':
			years = (size_t)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: changepoints [-s SERIES] "
			    "[-y YEARS]\n");
			return 2;
		}
	}
	if (ns < 1 || years < 1)
		return 2;
	n = 365 * years;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 55);
	x = xcalloc(ns * (n + 1), sizeof(*x));
	for (i = 0; i < ns; i++)
		for (h = 0; h <= n; h++)
			x[i * (n + 1) + h] = 100 * (1 + gsl_ran_gaussian(rng,
			    0.01)) * (i % 5 == 0 && h >= n / 2 ? 1.03 : 1);
	ed_options_init(&o);

	st = xcalloc(ns, sizeof(*st));
	t0 = now_mono_ns();
	for (i = 0; i < ns; i++) {
		ed_series_init(&st[i], &o, &cause);
		ed_series_append(&st[i], &x[i * (n + 1)], n, &cause);
		bwork += st[i].work;
	}
	bt = (double)(now_mono_ns() - t0) / 1e9;

	t0 = now_mono_ns();
	for (i = 0; i < ns; i++) {
		w0 = st[i].work;
		ed_series_append(&st[i], &x[i * (n + 1) + n], 1, &cause);
		iwork += st[i].work - w0;
		found += st[i].nchanges;
	}
	it = (double)(now_mono_ns() - t0) / 1e9;
	printf("%zu series of %zu nights (%zu with a 3%% step), %zu change "
	    "points\n", ns, n, (ns + 4) / 5, found);
	printf("batch        %8.3f s  %12llu energy statistics  (%.1f us a "
	    "series)\n", bt, (unsigned long long)bwork, 1e6 * bt /
	    (double)ns);
	printf("incremental  %8.3f s  %12llu energy statistics  (%.1f us a "
	    "series)\n", it, (unsigned long long)iwork, 1e6 * it /
	    (double)ns);
	printf("ratio        %8.1fx                 %8.1fx\n", bt / it,
	    (double)bwork / (double)iwork);
	for (i = 0; i < ns; i++)
		ed_series_release(&st[i]);
	free(st);
	free(x);
	gsl_rng_free(rng);
	return 0;
}
