/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one naming rule of rows (Go's -N suffix unless the name states
 * vcpus=N), and the `app` workload's parsers on output the real programs
 * printed here (sysbench 1.0.20, hackbench 2.40, redis-benchmark 7.0, ab
 * 2.3 against nginx and apache2 2.4 and, with -k, against abbench's Node
 * and Ruby applications, GNU dd, abbench's syscallbench under runc and
 * runsc): the report's row names and units, and the numbers.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/core/experiment.h"
#include "workloads/lifecycle.h"
#include "workloads/workload.h"
#include "tests/unit/tap.h"

int	app_parse_output(const struct workload *wl, const struct arm *arm,
	    const char *out, const char *err, struct sample_result *res,
	    char **cause);

static const char sysbench_cpu[] =
"sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
"CPU speed:\n    events per second:   247.27\n\n"
"General statistics:\n"
"    total time:                          0.8062s\n"
"    total number of events:              200\n";
static const char sysbench_mem[] =
"Total operations: 1048576 (598527.85 per second)\n\n"
"1024.00 MiB transferred (584.50 MiB/sec)\n\n"
"General statistics:\n"
"    total time:                          1.7499s\n";
static const char hackbench_out[] =
"Running in threaded mode with 4 groups using 40 file descriptors each "
"(== 160 tasks)\nEach sender will pass 100 messages of 100 bytes\n"
"Time: 0.170\n";
static const char redis_out[] =
"\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\","
"\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\n"
"\"LPUSH (needed to benchmark LRANGE)\",\"30303.03\",\"1.133\",\"0.080\","
"\"0.647\",\"3.239\",\"9.783\",\"9.927\"\n"
"\"LRANGE_100 (first 100 elements)\",\"18691.59\",\"1.908\",\"0.096\","
"\"1.831\",\"3.911\",\"4.183\",\"6.255\"\n";
static const char ab_out[] =
"Complete requests:      500\nFailed requests:        0\n"
"Time taken for tests:   0.843 seconds\n"
"Requests per second:    593.11 [#/sec] (mean)\n"
"Time per request:       16.860 [ms] (mean)\n"
"Time per request:       1.686 [ms] (mean, across all concurrent requests)\n"
"Connection Times (ms)\n              min  mean[+/-sd] median   max\n"
"Connect:        0    0   0.1      0       1\n"
"Total:          5   16   9.3     14      55\n";
static const char dd_err[] =
"10000+0 records in\n10000+0 records out\n"
"5120000 bytes (5.1 MB, 4.9 MiB) copied, 84.8216 s, 60.4 kB/s\n";

/* ab against apache2 -X in abbench/httpd (runc), 10 KiB, 500 requests. */
static const char httpd_ab_out[] =
"Server Software:        Apache/2.4.71\n"
"Server Hostname:        127.0.0.1\nServer Port:            8080\n\n"
"Document Path:          /doc\nDocument Length:        10240 bytes\n\n"
"Concurrency Level:      1\n"
"Time taken for tests:   0.075 seconds\n"
"Complete requests:      500\nFailed requests:        0\n"
"Total transferred:      5234000 bytes\n"
"HTML transferred:       5120000 bytes\n"
"Requests per second:    6692.90 [#/sec] (mean)\n"
"Time per request:       0.149 [ms] (mean)\n"
"Time per request:       0.149 [ms] (mean, across all concurrent requests)\n"
"Transfer rate:          68419.25 [Kbytes/sec] received\n";
/* The same with an apache2 that could not serve the file (500s). */
static const char httpd_ab_500[] =
"Document Path:          /doc\nDocument Length:        571 bytes\n\n"
"Time taken for tests:   0.148 seconds\n"
"Complete requests:      500\nFailed requests:        0\n"
"Non-2xx responses:      500\n"
"Requests per second:    3379.54 [#/sec] (mean)\n"
"Time per request:       0.296 [ms] (mean)\n";
/* ab -k against node-server.js in abbench/node (runc): 500 requests, 5
 * at a time. */
static const char node_ab_out[] =
"Server Software:        \n"
"Server Hostname:        127.0.0.1\nServer Port:            8080\n\n"
"Document Path:          /\nDocument Length:        4190 bytes\n\n"
"Concurrency Level:      5\n"
"Time taken for tests:   0.430 seconds\n"
"Complete requests:      500\nFailed requests:        0\n"
"Keep-Alive requests:    500\n"
"Total transferred:      2177500 bytes\n"
"HTML transferred:       2095000 bytes\n"
"Requests per second:    1162.22 [#/sec] (mean)\n"
"Time per request:       4.302 [ms] (mean)\n"
"Time per request:       0.860 [ms] (mean, across all concurrent requests)\n"
"Transfer rate:          4942.84 [Kbytes/sec] received\n\n"
"Connection Times (ms)\n              min  mean[+/-sd] median   max\n"
"Connect:        0    0   0.0      0       0\n"
"Total:          0    4  12.5      1     116\n";
/* The same against puma and ruby-server.ru in abbench/ruby (2 workers):
 * 100 requests of each of 5 clients. */
static const char ruby_ab_out[] =
"Server Software:        \n"
"Server Hostname:        127.0.0.1\nServer Port:            9292\n\n"
"Document Path:          /\nDocument Length:        5226 bytes\n\n"
"Concurrency Level:      5\n"
"Time taken for tests:   0.861 seconds\n"
"Complete requests:      500\nFailed requests:        0\n"
"Keep-Alive requests:    500\n"
"Requests per second:    580.44 [#/sec] (mean)\n"
"Time per request:       8.614 [ms] (mean)\n"
"Time per request:       1.723 [ms] (mean, across all concurrent requests)\n";
/* syscallbench in abbench/syscallbench: runc, then runsc (ptrace). */
static const char scb_runc_opt[] =
"syscallbench: syscall=getpidopt loops=100000 ns=12891013\n";
static const char scb_runsc[] =
"syscallbench: syscall=getpid loops=100000 ns=2081401297\n";

static struct experiment *
load(const char *text)
{
	char			*cause = NULL;
	struct experiment	*e = experiment_parse("t.ini", text,
				    strlen(text), &cause);

	if (e == NULL)
		TAP_DIAG("%s", cause);
	free(cause);
	return e;
}

static const struct store_metric *
find(const struct sample_result *r, const char *name, const char *unit)
{
	size_t	i;

	for (i = 0; i < r->nmetrics; i++) {
		if (strcmp(r->metrics[i].benchmark, name) == 0 &&
		    strcmp(r->metrics[i].unit, unit) == 0)
			return &r->metrics[i];
	}
	TAP_DIAG("no %s %s", name, unit);
	return NULL;
}

static int
near(const struct store_metric *m, double want)
{
	return m != NULL && fabs(m->value - want) <= 1e-9 + fabs(want) * 1e-6;
}

int
main(void)
{
	struct experiment	*e;
	struct sample_result	 r;
	char			*s, want[256], *cause = NULL;
	int			 n = bench_gomaxprocs(), rc;

	tap_ok(n >= 1, "GOMAXPROCS default is at least 1 (%d)", n);
	s = bench_name_final("Multi/c16/runsc-total");
	snprintf(want, sizeof want, "Multi/c16/runsc-total-%d", n);
	tap_str_eq(s, want, "a row gets Go's -N suffix");
	free(s);
	s = bench_name_final("Burner/vcpus=2/sandboxes=5/cpu=0.25");
	tap_str_eq(s, "Burner/vcpus=2/sandboxes=5/cpu=0.25",
	    "a row stating vcpus= is left as it is");
	free(s);
	s = bench_name_final("GoferMem/vcpus=2/noquota");
	tap_str_eq(s, "GoferMem/vcpus=2/noquota", "vcpus= as the second part");
	free(s);
	s = bench_name_final("Xvcpus=2/y");
	snprintf(want, sizeof want, "Xvcpus=2/y-%d", n);
	tap_str_eq(s, want, "vcpus= inside a part is no shape");
	free(s);

	e = load("[experiment]\n[arm a]\n"
	    "[workload Sysbench]\ntype = app\napp = sysbench\n"
	    "testname = CPU Memory\nops = 200\nmemory-total = 512m\n"
	    "[workload S16]\ntype = app\napp = sysbench\nbenchmark = Sysbench\n"
	    "testname = CPU\nthreads = 16\nops = 200\n"
	    "[workload H]\ntype = app\napp = hackbench\nbenchmark = Hackbench\n"
	    "ipcMode = pipe\nprocessMode = thread\nops = 100\n"
	    "[workload R]\ntype = app\napp = redis\n"
	    "operation = LRANGE_100\n"
	    "[workload N]\ntype = app\napp = nginx\nfilesize = 10Kb\n"
	    "concurrency = 1\nfilesystem = tmpfs\nops = 500\n"
	    "[workload DDSync512]\ntype = app\napp = dd\nexecutor = local\n"
	    "args = dd if=/dev/zero of=/dev/null\n"
	    "[workload F]\ntype = app\napp = ffmpeg\nops = 4\n");
	tap_ok(e != NULL && e->nworkloads == 8, "the app experiment loads");
	if (e == NULL)
		return tap_done();

	memset(&r, 0, sizeof r);
	rc = app_parse_output(&e->workloads[0], &e->arms[0], sysbench_cpu,
	    NULL, &r, &cause);
	tap_int_eq(rc, 0, "sysbench CPU parses");
	snprintf(want, sizeof want, "Sysbench/testname.CPU-%d", n);
	tap_ok(near(find(&r, want, "sec/op"), 0.8062 / 200),
	    "Sysbench/testname.CPU-N sec/op = total time / events");
	tap_ok(near(find(&r, want, "cpu_events.events_per_second"), 247.27),
	    "and cpu_events.events_per_second");
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[1], &e->arms[0], sysbench_mem,
	    NULL, &r, &cause);
	snprintf(want, sizeof want, "Sysbench/testname.Memory-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "sec/op"), 1.7499 * 2),
	    "Memory sec/op is per GiB (512m written: x2)");
	tap_ok(near(find(&r, want, "memory_operations.ops_per_second"),
	    598527.85), "and memory_operations.ops_per_second");
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[2], &e->arms[0], sysbench_cpu,
	    NULL, &r, &cause);
	snprintf(want, sizeof want, "Sysbench/testname.CPU/threads.16-%d", n);
	tap_ok(rc == 0 && find(&r, want, "sec/op") != NULL,
	    "threads = 16 names Sysbench/testname.CPU/threads.16-N");
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[3], &e->arms[0], hackbench_out,
	    NULL, &r, &cause);
	snprintf(want, sizeof want,
	    "Hackbench/ipcMode.pipe/processMode.thread-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "sec/op"), 0.170 / 100),
	    "Hackbench/ipcMode.pipe/processMode.thread-N: Time / loops");
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[4], &e->arms[0], redis_out,
	    NULL, &r, &cause);
	snprintf(want, sizeof want, "Redis/operation.LRANGE_100-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "rps"), 18691.59),
	    "Redis/operation.LRANGE_100-N rps from its CSV row (not the "
	    "LPUSH it needed)");
	tap_ok(near(find(&r, want, "max_latency_ms"), 6.255),
	    "and max_latency_ms");
	tap_int_eq(r.nmetrics, 2, "two metrics, the report's units");
	sample_result_release(&r);
	rc = app_parse_output(&e->workloads[4], &e->arms[0],
	    "\"test\",\"rps\"\n\"SET\",\"1\"\n", NULL, &r, &cause);
	tap_ok(rc == -1 && cause != NULL &&
	    strstr(cause, "LRANGE_100") != NULL,
	    "no row for the operation: an error naming it");
	free(cause);
	cause = NULL;
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[5], &e->arms[0], ab_out, NULL,
	    &r, &cause);
	snprintf(want, sizeof want,
	    "NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "requests_per_second.QPS"),
	    593.11), "NginxDocSize/...-N requests_per_second.QPS");
	tap_ok(near(find(&r, want, "sec/op"), 0.843 / 500),
	    "sec/op = time taken / complete requests");
	tap_ok(near(find(&r, want, "average_latency.s"), 0.01686),
	    "average_latency.s = ab's mean time per request (ms) / 1000");
	sample_result_release(&r);

	rc = app_parse_output(&e->workloads[6], &e->arms[0], "", dd_err, &r,
	    &cause);
	snprintf(want, sizeof want, "DDSync512-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "kB/s"),
	    5120000 / 84.8216 / 1e3), "dd: kB/s from its summary (60.4)");
	tap_ok(near(find(&r, want, "sec/op"), 84.8216), "dd: sec/op");
	sample_result_release(&r);
	rc = app_parse_output(&e->workloads[7], &e->arms[0],
	    "bench: utime=3.120s stime=0.210s rtime=2.500s\n"
	    "bench: maxrss=123456kB\n", NULL, &r, &cause);
	snprintf(want, sizeof want, "Ffmpeg-%d", n);
	tap_ok(rc == 0 && near(find(&r, want, "sec/op"), 2.5),
	    "Ffmpeg-N sec/op is ffmpeg -benchmark's rtime");
	sample_result_release(&r);
	rc = app_parse_output(&e->workloads[6], &e->arms[0], "", "", &r,
	    &cause);
	tap_ok(rc == -1 && cause != NULL && strstr(cause, "status=none"),
	    "dd without a summary: says why");
	free(cause);
	cause = NULL;
	sample_result_release(&r);

	experiment_free(e);
	/* The gofer report's rows: quota=none reads noquota. */
	e = load("[experiment]\n[arm a]\n[workload gofer]\n"
	    "type = idle-memory\nquota = none parent\nname-tags = vcpus\n");
	tap_ok(e != NULL && e->nworkloads == 2, "a quota matrix loads");
	if (e != NULL) {
		s = lc_name(&e->workloads[0], &e->arms[0], "GoferMem");
		snprintf(want, sizeof want, "GoferMem/vcpus=%ld/noquota",
		    sysconf(_SC_NPROCESSORS_ONLN));
		tap_str_eq(s, want, "quota = none names the row noquota");
		free(s);
		s = lc_name(&e->workloads[1], &e->arms[0], "GoferMem");
		snprintf(want, sizeof want, "GoferMem/vcpus=%ld/quota=parent",
		    sysconf(_SC_NPROCESSORS_ONLN));
		tap_str_eq(s, want, "quota = parent stays quota=parent");
		free(s);
		experiment_free(e);
	}
	/* Name tags show the values as written, the arm's where it sets
	 * them (containers, quota and touch are OPT_ARM). */
	e = load("[experiment]\n[arm a]\ncontainers = 020\nquota = leaf\n"
	    "[arm b]\n[workload idle]\ntype = idle-memory\ntouch = 64m\n"
	    "containers = 5\nname-tags = containers quota touch\n");
	tap_ok(e != NULL, "name tags: loads");
	if (e != NULL) {
		s = lc_name(&e->workloads[0], &e->arms[0], "M");
		tap_str_eq(s, "M/containers=020/quota=leaf/touch=64m",
		    "tags: the arm's text, then the workload's");
		free(s);
		s = lc_name(&e->workloads[0], &e->arms[1], "M");
		tap_str_eq(s, "M/containers=5/noquota/touch=64m",
		    "tags: the workload's text, the default quota");
		free(s);
		experiment_free(e);
	}
	/* Httpd and Syscallbench, as reference/001 and /003 name them. */
	e = load("[experiment]\n[arm a]\n"
	    "[workload H]\ntype = app\napp = httpd\nfilesize = 10Kb\n"
	    "concurrency = 1\nops = 500\n"
	    "[workload S]\ntype = app\napp = syscallbench\n"
	    "syscall = getpid getpidopt\nops = 100000\n");
	tap_ok(e != NULL && e->nworkloads == 3, "httpd and syscallbench load");
	if (e != NULL) {
		rc = app_parse_output(&e->workloads[0], &e->arms[0],
		    httpd_ab_out, NULL, &r, &cause);
		snprintf(want, sizeof want,
		    "Httpd/filesize.10Kb/concurrency.1-%d", n);
		tap_ok(rc == 0 && near(find(&r, want,
		    "requests_per_second.QPS"), 6692.90),
		    "Httpd/filesize.10Kb/concurrency.1-N "
		    "requests_per_second.QPS");
		tap_ok(near(find(&r, want, "sec/op"), 0.075 / 500),
		    "Httpd sec/op = time taken / complete requests");
		tap_ok(near(find(&r, want, "average_latency.s"), 0.000149),
		    "Httpd average_latency.s");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[0], &e->arms[0],
		    httpd_ab_500, NULL, &r, &cause);
		tap_ok(rc == -1 && cause != NULL &&
		    strstr(cause, "500 of 500") != NULL && r.nmetrics == 0,
		    "an error page for every request is no sample (%s)",
		    cause != NULL ? cause : "");
		free(cause);
		cause = NULL;
		sample_result_release(&r);

		rc = app_parse_output(&e->workloads[1], &e->arms[0],
		    scb_runsc, NULL, &r, &cause);
		snprintf(want, sizeof want, "Syscallbench/syscall.getpid-%d",
		    n);
		tap_ok(rc == 0 && near(find(&r, want, "sec/op"),
		    2081401297e-9 / 100000),
		    "Syscallbench/syscall.getpid-N sec/op = loop time / calls");
		tap_int_eq(r.nmetrics, 1, "one metric, the report's unit");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[2], &e->arms[0],
		    scb_runc_opt, NULL, &r, &cause);
		snprintf(want, sizeof want,
		    "Syscallbench/syscall.getpidopt-%d", n);
		tap_ok(rc == 0 && near(find(&r, want, "sec/op"),
		    12891013e-9 / 100000), "Syscallbench/syscall.getpidopt-N");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[1], &e->arms[0],
		    scb_runc_opt, NULL, &r, &cause);
		tap_ok(rc == -1 && cause != NULL &&
		    strstr(cause, "'getpid'") != NULL,
		    "the getpid row refuses the getpidopt loop's output");
		free(cause);
		cause = NULL;
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[1], &e->arms[0],
		    "# Executed 100000 calls\n", NULL, &r, &cause);
		tap_ok(rc == -1 && cause != NULL, "no timing line: an error");
		free(cause);
		cause = NULL;
		sample_result_release(&r);
		experiment_free(e);
	}

	/* Node and Ruby, as reference/001 and /003 name them. */
	e = load("[experiment]\n[arm a]\n"
	    "[workload N]\ntype = app\napp = node\nconcurrency = 5\n"
	    "ops = 500\n"
	    "[workload R]\ntype = app\napp = ruby\nconcurrency = 5\n"
	    "ops = 100\nworkers = 2\n"
	    "[workload N1]\ntype = app\napp = node\nbenchmark = Node\n");
	tap_ok(e != NULL && e->nworkloads == 3, "node and ruby load");
	if (e != NULL) {
		rc = app_parse_output(&e->workloads[0], &e->arms[0],
		    node_ab_out, NULL, &r, &cause);
		snprintf(want, sizeof want, "Node/concurrency.5-%d", n);
		tap_ok(rc == 0 && near(find(&r, want,
		    "requests_per_second.QPS"), 1162.22),
		    "Node/concurrency.5-N requests_per_second.QPS");
		tap_ok(near(find(&r, want, "sec/op"), 0.430 / 500),
		    "Node sec/op = time taken / requests (b.N requests)");
		tap_ok(near(find(&r, want, "average_latency.s"), 0.004302),
		    "Node average_latency.s = ab's mean time per request");
		tap_int_eq(r.nmetrics, 3, "Node: the three units of "
		    "reference/003");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[1], &e->arms[0],
		    ruby_ab_out, NULL, &r, &cause);
		snprintf(want, sizeof want, "Ruby/concurrency.5-%d", n);
		tap_ok(rc == 0 && near(find(&r, want,
		    "requests_per_second.QPS"), 580.44),
		    "Ruby/concurrency.5-N requests_per_second.QPS");
		tap_ok(near(find(&r, want, "sec/op"), 0.861 / (500 / 5)),
		    "Ruby sec/op = time taken / (requests / concurrency), as "
		    "gVisor's b.N * c");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[2], &e->arms[0],
		    node_ab_out, NULL, &r, &cause);
		snprintf(want, sizeof want, "Node-%d", n);
		tap_ok(rc == 0 && find(&r, want, "sec/op") != NULL,
		    "concurrency not set: the row is Node-N");
		sample_result_release(&r);
		rc = app_parse_output(&e->workloads[0], &e->arms[0],
		    httpd_ab_500, NULL, &r, &cause);
		tap_ok(rc == -1 && cause != NULL && r.nmetrics == 0,
		    "Node: error pages (redis gone) are no sample");
		free(cause);
		cause = NULL;
		sample_result_release(&r);
		experiment_free(e);
	}
	e = load("[experiment]\n[arm a]\n[workload N]\ntype = app\n"
	    "app = node\nconcurrency = 25\nops = 10\n");
	tap_ok(e == NULL, "node with fewer requests than concurrency: "
	    "rejected");
	if (e != NULL)
		experiment_free(e);
	e = load("[experiment]\n[arm a]\n[workload R]\ntype = app\n"
	    "app = ruby\nconcurrency = 25\nops = 100000000\n");
	tap_ok(e == NULL, "ruby with more than ab's 2^31-1 requests "
	    "(ops x concurrency): rejected");
	if (e != NULL)
		experiment_free(e);

	e = load("[experiment]\n[arm a]\n[workload I]\ntype = app\n"
	    "app = iperf\noperation = Sideways\n");
	tap_ok(e == NULL, "iperf operation other than Download/Upload: "
	    "rejected");
	if (e != NULL)
		experiment_free(e);
	return tap_done();
}
