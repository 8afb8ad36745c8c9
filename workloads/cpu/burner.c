/*
 * burner: burn CPU for B ms of wall-clock time out of every P ms (default
 * 50 of 200), counting units of work. The budget is wall-clock, as in the
 * quota reports: under a quota smaller than B/P the burst is throttled and
 * less work gets done, which is what work/s shows.
 *
 *   burner [-d seconds] [-i report-ms] [-b burn-ms] [-p period-ms]
 */
#include <stdint.h>

#include "prog.h"

int
main(int argc, char **argv)
{
	struct prog	p;
	double		v[2] = { 50, 200 };	/* -b, -p */
	int64_t		burn, period, start, now;

	prog_init(&p, "burner", argc, argv, "bp", v,
	    "[-b burn-ms] [-p period-ms]");
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
