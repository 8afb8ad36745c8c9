/* SPDX-License-Identifier: Apache-2.0 */
/*
 * burner: burn CPU for B ms of wall-clock time out of every P ms (default
 * 50 of 200), counting units of work. The budget is wall-clock, as in the
 * quota reports: under a quota smaller than B/P the burst is throttled and
 * less work gets done, which is what work/s shows.
 *
 *   burner [-d seconds] [-i report-ms] [-b burn-ms] [-p period-ms]
 *          [-n units [-j jitter]]
 *
 * With -n, it does that many units of work as fast as it can and exits: a
 * fixed amount of compute, whose time is the measurement (a known effect
 * is injected by changing -n). -j J makes it n * (1 + J * u) units, u
 * uniform in [0, 1) and new for every execution: noise of a known,
 * steady shape, larger than what a busy machine adds.
 */
#include <stdint.h>
#include <unistd.h>

#include "prog.h"

int
main(int argc, char **argv)
{
	struct prog	p;
	double		v[4] = { 50, 200, 0, 0 };	/* -b, -p, -n, -j */
	int64_t		burn, period, start, now;

	prog_init(&p, "burner", argc, argv, "bpnj", v,
	    "[-b burn-ms] [-p period-ms] [-n units [-j jitter]]");
	if (v[2] > 0) {
		uint64_t	n = (uint64_t)v[2], x;

		if (v[3] > 0) {
			/* splitmix64 of the clock and pid: u in [0, 1). */
			x = (uint64_t)prog_real_ns() ^
			    ((uint64_t)getpid() << 32);
			x += 0x9e3779b97f4a7c15ULL;
			x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
			x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
			x ^= x >> 31;
			n = (uint64_t)((double)n * (1 + v[3] *
			    (double)(x >> 11) / 9007199254740992.0));
		}

		while (p.units < n) {
			prog_work_unit();
			p.units++;
		}
		prog_report(&p, "exit");
		return 0;
	}
	burn = (int64_t)(v[0] * 1e6);
	period = (int64_t)(v[1] * 1e6);
	if (period <= 0)
		period = 1;
	if (burn > period)
		burn = period;
	start = prog_real_ns();
	for (;;) {
		/* Burn: spin in small units until the burst's time is up. */
		now = prog_real_ns();
		while (now < start + burn) {
			prog_work_unit();
			p.units++;
			now = prog_real_ns();
			if (prog_poll(&p, now))
				return 0;
		}
		if (prog_poll(&p, now))
			return 0;
		/* Rest until the next period (or a report, a signal). */
		start += period;
		if (now >= start + period)
			start = now;	/* fell a whole period behind */
		while ((now = prog_real_ns()) < start) {
			prog_sleep_until(&p, start);
			if (prog_poll(&p, prog_real_ns()))
				return 0;
		}
	}
}
