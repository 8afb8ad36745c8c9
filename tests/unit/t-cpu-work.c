/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of workloads/cpu-work.c: the report-line parser of the CPU
 * programs, picking counters at an instant, and the cpu-steady metric
 * arithmetic (overhead/app-cpu, host-ctxsw/s, work/s, throttling).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/tap.h"
#include "workloads/cpu-work.h"

static int
near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void
test_parse_line(void)
{
	struct cpuwork_report	 r;
	char			*cause = NULL;
	const char		*l;
	int			 k;

	l = "abbench-work prog=burner why=tick units=123 cpu_ns=456 "
	    "wall_ns=789 real_ns=1796012757250000123\n";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_int_eq(k, 1, "a report line parses");
	tap_str_eq(r.prog, "burner", "prog");
	tap_str_eq(r.why, "tick", "why");
	tap_int_eq((long long)r.units, 123, "units");
	tap_int_eq(r.cpu_ns, 456, "cpu_ns");
	tap_int_eq(r.wall_ns, 789, "wall_ns");
	tap_int_eq(r.real_ns, 1796012757250000123LL, "real_ns");

	l = "abbench-work units=18446744073709551615 cpu_ns=1 wall_ns=2 "
	    "real_ns=3 later=9";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_ok(k == 1 && r.units == 18446744073709551615ULL,
	    "max units, no newline, unknown key ignored");

	l = "Benchmark something 1 2 ns/op";
	tap_int_eq(cpuwork_parse_line(l, strlen(l), &r, &cause), 0,
	    "another line is not a report");
	l = "abbench-workers=3";
	tap_int_eq(cpuwork_parse_line(l, strlen(l), &r, &cause), 0,
	    "a longer word is not the prefix");

	l = "abbench-work units=12x cpu_ns=1 wall_ns=2 real_ns=3";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_ok(k == -1 && cause != NULL && strstr(cause, "units=12x"),
	    "a bad number is an error naming the field");
	free(cause);
	cause = NULL;
	l = "abbench-work units=18446744073709551616 cpu_ns=1 wall_ns=2 "
	    "real_ns=3";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_int_eq(k, -1, "an overflowing number is an error");
	free(cause);
	cause = NULL;
	l = "abbench-work units=1 cpu_ns=1 real_ns=3";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_ok(k == -1 && cause != NULL && strstr(cause, "wall_ns"),
	    "a missing field is named");
	free(cause);
	cause = NULL;
	l = "abbench-work units=1 cpu_ns=1 wall_ns=2 real_ns=3 nokey";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_int_eq(k, -1, "a field without '=' is an error");
	free(cause);
	cause = NULL;
	l = "abbench-work prog=averyveryverylongname units=1 cpu_ns=1 "
	    "wall_ns=2 real_ns=3";
	k = cpuwork_parse_line(l, strlen(l), &r, &cause);
	tap_int_eq(k, -1, "an overlong prog is an error");
	free(cause);
}

static void
test_parse_output_and_at(void)
{
	const char *out =
	    "starting\n"
	    "abbench-work prog=tick why=start units=0 cpu_ns=10 wall_ns=0 "
	    "real_ns=900\n"
	    "abbench-work prog=tick why=tick units=100 cpu_ns=50 wall_ns=1 "
	    "real_ns=1000\n"
	    "abbench-work prog=tick why=tick units=250 cpu_ns=90 wall_ns=2 "
	    "real_ns=2003\n"
	    "abbench-work prog=tick why=exit units=300 cpu_ns=99 wall_ns=3 "
	    "real_ns=2500\n"
	    "abbench-work prog=tick why=tick units=9";	/* truncated */
	struct cpuwork_report		*r = NULL;
	const struct cpuwork_report	*at = NULL;
	size_t				 n = 0;
	int64_t				 lag = -1;
	char				*cause = NULL;

	tap_int_eq(cpuwork_parse_output(out, strlen(out), &r, &n, &cause),
	    0, "output parses");
	tap_int_eq((long long)n, 4, "four reports, other and truncated "
	    "lines skipped");
	tap_ok(cpuwork_at(r, n, 1000, &at, &lag) == 0 && at == &r[1] &&
	    lag == 0, "at a boundary: the report made then");
	tap_ok(cpuwork_at(r, n, 2000, &at, &lag) == 0 && at == &r[2] &&
	    lag == 3, "after a boundary: the next report, with its lag");
	tap_ok(cpuwork_at(r, n, 100, &at, &lag) == 0 && at == &r[0],
	    "before the first report: the first");
	tap_int_eq(cpuwork_at(r, n, 2501, &at, &lag), -1,
	    "after the last report: none");
	free(r);

	out = "abbench-work units=zz cpu_ns=1 wall_ns=2 real_ns=3\n";
	tap_int_eq(cpuwork_parse_output(out, strlen(out), &r, &n, &cause),
	    -1, "a malformed report fails the output");
	free(cause);
}

static void
test_compute(void)
{
	struct cpuwork_window	w;
	struct cpuwork_metrics	m;
	char			*cause = NULL;
	uint64_t		d;

	memset(&w, 0, sizeof w);
	w.window_ns = 15000000000LL;		/* 15 s */
	w.app_cpu_ns = 3.0e9;			/* 5 x 0.04 CPU */
	w.sandbox_cpu_ns = 3.6e9;		/* 20% overhead */
	w.units = 150000;
	w.ctxt = 192900;
	w.nr_periods = 750;
	w.nr_throttled = 300;
	w.throttled_ns = 4500000000ULL;
	w.perf_ctxsw = 180000;
	w.perf_window_ns = 15000000000LL;
	tap_int_eq(cpuwork_compute(&w, &m, &cause), 0, "metrics compute");
	tap_ok(near(m.overhead, 0.2, 1e-12), "overhead/app-cpu = (3.6-3)/3");
	tap_ok(near(m.host_ctxsw_per_s, 12860, 1e-9), "host-ctxsw/s");
	tap_ok(near(m.work_per_s, 10000, 1e-9), "work/s");
	tap_ok(near(m.app_cpus, 0.2, 1e-12), "app-cpus");
	tap_ok(near(m.sandbox_cpus, 0.24, 1e-12), "sandbox-cpus");
	tap_ok(near(m.throttled_periods, 300, 0), "throttled periods");
	tap_ok(near(m.throttled_frac, 0.4, 1e-12), "throttled fraction");
	tap_ok(near(m.throttled_sec, 4.5, 1e-12), "throttled seconds");
	tap_ok(near(m.perf_ctxsw_per_s, 12000, 1e-9), "perf ctxsw/s");

	w.sandbox_cpu_ns = 2.7e9;
	w.perf_ctxsw = -1;
	w.nr_periods = 0;
	tap_int_eq(cpuwork_compute(&w, &m, &cause), 0, "again");
	tap_ok(near(m.overhead, -0.1, 1e-12),
	    "overhead can be negative (the sign is kept, not clamped)");
	tap_ok(m.perf_ctxsw_per_s < 0, "no perf: no perf metric");
	tap_ok(m.throttled_frac == 0, "no periods: fraction 0");

	w.app_cpu_ns = 0;
	tap_ok(cpuwork_compute(&w, &m, &cause) == -1 && cause != NULL,
	    "no app CPU: an error, not a division by zero");
	free(cause);
	cause = NULL;
	w.app_cpu_ns = 1;
	w.window_ns = 0;
	tap_ok(cpuwork_compute(&w, &m, &cause) == -1 && cause != NULL,
	    "empty window: an error");
	free(cause);

	tap_ok(cpuwork_delta(5, 9, &d) == 0 && d == 4, "delta");
	tap_int_eq(cpuwork_delta(9, 5, &d), -1, "a counter going back");
}

static void
test_proc_and_perf(void)
{
	uint64_t	c = 0;
	double		v = 0;

	tap_ok(cpuwork_proc_stat_ctxt("cpu  1 2 3\nintr 5 6\nctxt 123456\n"
	    "btime 1\n", &c) == 0 && c == 123456, "ctxt from /proc/stat");
	tap_int_eq(cpuwork_proc_stat_ctxt("cpu 1\nbtime 1\n", &c), -1,
	    "no ctxt line");
	tap_ok(cpuwork_perf_count("68,,context-switches,202956853,100.00,,\n",
	    "context-switches", &v) == 0 && v == 68, "perf -x, count");
	tap_ok(cpuwork_perf_count("# started on x\n\n1.5,msec,task-clock,1,"
	    "100,,\n7,,context-switches-x,1,100,,\n9,,context-switches,1,100"
	    ",,\n", "context-switches", &v) == 0 && v == 9,
	    "the right event among others");
	tap_int_eq(cpuwork_perf_count("<not counted>,,context-switches,0,"
	    "100.00,,\n", "context-switches", &v), -1, "not counted");
}

int
main(void)
{
	test_parse_line();
	test_parse_output_and_at();
	test_compute();
	test_proc_and_perf();
	return tap_done();
}
