/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tick: wake every P us and do about W us of work (wall-clock), counting
 * units: the shape of a timer-driven service. Tick1ms is -w 20 -p 1000,
 * Tick10ms -w 20 -p 10000, Sparse50ms -w 100 -p 50000. Wakeups missed while
 * throttled are skipped, not made up in a burst.
 *
 *   tick [-d seconds] [-i report-ms] [-w work-us] [-p period-us]
 */
#include <stdint.h>

#include "prog.h"

int
main(int argc, char **argv)
{
	struct prog	p;
	double		v[2] = { 20, 1000 };	/* -w, -p */
	int64_t		work, period, next, now, until;

	prog_init(&p, "tick", argc, argv, "wp", v,
	    "[-w work-us] [-p period-us]");
	work = (int64_t)(v[0] * 1e3);
	period = (int64_t)(v[1] * 1e3);
	if (period <= 0)
		period = 1000;
	next = prog_real_ns();
	for (;;) {
		now = prog_real_ns();
		until = now + work;
		do {
			prog_work_unit();
			p.units++;
			now = prog_real_ns();
		} while (now < until);
		next += period;
		if (next <= now)
			next = now + period - (now - next) % period;
		do {
			if (prog_poll(&p, now))
				return 0;
			prog_sleep_until(&p, next);
			now = prog_real_ns();
		} while (now < next);
		if (prog_poll(&p, now))
			return 0;
	}
}
