/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shared part of the CPU workload programs (see prog.h): flags,
 * signals, report lines and the unit of work.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "prog.h"

volatile sig_atomic_t prog_usr1, prog_term;
static volatile uint64_t prog_sink = 88172645463325252ULL;

static void
on_usr1(int sig)
{
	(void)sig;
	prog_usr1 = 1;
}

static void
on_term(int sig)
{
	(void)sig;
	prog_term = 1;
}

static int64_t
clock_ns(clockid_t id)
{
	struct timespec	ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t
prog_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int64_t
prog_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void
usage_exit(const char *name, const char *usage)
{
	fprintf(stderr, "usage: %s [-d seconds] [-i report-ms] %s\n", name,
	    usage);
	exit(2);
}

static int
number(const char *s, double *v)
{
	char	*end;

	errno = 0;
	*v = strtod(s, &end);
	return errno != 0 || end == s || *end != '\0' || *v < 0 ? -1 : 0;
}

void
prog_init(struct prog *p, const char *name, int argc, char **argv,
    const char *own, double *own_vals, const char *usage)
{
	struct sigaction	 sa;
	char			 opts[64];
	const char		*c;
	double			 d = 0, i = 0;
	int			 ch;

	memset(p, 0, sizeof *p);
	p->name = name;
	snprintf(opts, sizeof opts, "d:i:");
	for (c = own; *c != '\0' && strlen(opts) + 3 < sizeof opts; c++) {
		size_t	l = strlen(opts);

		opts[l] = *c;
		opts[l + 1] = ':';
		opts[l + 2] = '\0';
	}
	while ((ch = getopt(argc, argv, opts)) != -1) {
		if (ch == 'd' && number(optarg, &d) == 0)
			continue;
		if (ch == 'i' && number(optarg, &i) == 0)
			continue;
		if (ch != '?' && ch != 'd' && ch != 'i' &&
		    (c = strchr(own, ch)) != NULL &&
		    number(optarg, &own_vals[c - own]) == 0)
			continue;
		usage_exit(name, usage);
	}
	if (optind != argc)
		usage_exit(name, usage);

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_usr1;	/* no SA_RESTART: sleeps return */
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	p->start_mono = prog_mono_ns();
	if (d > 0)
		p->end_real = prog_real_ns() + (int64_t)(d * 1e9);
	if (i > 0) {
		int64_t	now = prog_real_ns();

		p->every_ns = (int64_t)(i * 1e6);
		if (p->every_ns < 1000000)
			p->every_ns = 1000000;
		p->next_report = (now / p->every_ns + 1) * p->every_ns;
	}
	prog_report(p, "start");
}

void
prog_report(struct prog *p, const char *why)
{
	char	buf[256];
	int	n;
	ssize_t	w;
	size_t	off = 0;

	n = snprintf(buf, sizeof buf, "abbench-work prog=%s why=%s "
	    "units=%llu cpu_ns=%lld wall_ns=%lld real_ns=%lld\n", p->name, why,
	    (unsigned long long)p->units,
	    (long long)clock_ns(CLOCK_PROCESS_CPUTIME_ID),
	    (long long)(prog_mono_ns() - p->start_mono),
	    (long long)prog_real_ns());
	if (n <= 0 || (size_t)n >= sizeof buf)
		return;
	while (off < (size_t)n) {
		w = write(STDOUT_FILENO, buf + off, (size_t)n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

int
prog_poll(struct prog *p, int64_t now)
{
	if (prog_term) {
		prog_report(p, "term");
		return 1;
	}
	if (prog_usr1) {
		prog_usr1 = 0;
		prog_report(p, "usr1");
	}
	if (p->every_ns > 0 && now >= p->next_report) {
		prog_report(p, "tick");
		/* Skip boundaries missed while descheduled: one line each. */
		p->next_report = (now / p->every_ns + 1) * p->every_ns;
	}
	if (p->end_real > 0 && now >= p->end_real) {
		prog_report(p, "exit");
		return 1;
	}
	return 0;
}

void
prog_sleep_until(struct prog *p, int64_t t)
{
	struct timespec	ts;

	if (p->every_ns > 0 && p->next_report < t)
		t = p->next_report;
	if (p->end_real > 0 && p->end_real < t)
		t = p->end_real;
	if (prog_usr1 || prog_term)
		return;
	ts.tv_sec = t / NSEC_PER_SEC;
	ts.tv_nsec = t % NSEC_PER_SEC;
	/* EINTR (a signal) ends the sleep early: the caller polls. */
	(void)clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
}

void
prog_work_unit(void)
{
	uint64_t	x = prog_sink;
	int		i;

	/* xorshift64: a fixed, branch-free amount of integer work. */
	for (i = 0; i < 64; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	prog_sink = x;
}
