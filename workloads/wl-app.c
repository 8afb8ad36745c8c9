/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `app`: the application suites of gVisor's //test/benchmarks,
 * run on the real programs in a container under the arm's runtime (or a
 * local process), one program run per sample, its output parsed by the
 * application's entry of a small table:
 *
 *   sysbench   Sysbench/testname.{CPU,Memory,Mutex}[/threads.N]  sec/op
 *   hackbench  Hackbench/ipcMode.{pipe,socket}/processMode.{thread,process}
 *   redis      Redis/operation.{LPUSH,LRANGE_100,SET}  rps, max_latency_ms
 *              (redis-server and redis-benchmark in one sandbox, loopback)
 *   nginx      NginxDocSize/filesize.S/concurrency.C/filesystem.{bind,tmpfs}
 *              sec/op, requests_per_second.QPS, average_latency.s (ab)
 *   httpd      Httpd/filesize.S/concurrency.C: the same units (ab against
 *              apache2 -X serving /tmp/html/doc, as gVisor's httpd_test)
 *   node       Node/concurrency.C: the same units, ab -k against our Node
 *              application (payload/apps/node-server.js: a page of four
 *              texts read from a redis-server), as gVisor's network/node
 *   ruby       Ruby/concurrency.C: the same, against our Rack application
 *              (ruby-server.ru, five texts) under puma; one op is one
 *              request of each of the C clients, as gVisor's b.N * c
 *   syscallbench  Syscallbench/syscall.{getpid,getpidopt} sec/op per
 *              system call (payload/apps/syscallbench.c: getpidopt is
 *              the inline "mov $nr, %eax; syscall" systrap can patch)
 *   iperf      IperfOneConnection/operation.{Download,Upload}[/bytes=B]
 *              bandwidth.bytes_per_second (iperf3 client and server)
 *   ffmpeg     Ffmpeg sec/op: one H.264 transcode of a test video
 *              (made first, not timed), ffmpeg -benchmark's rtime
 *   dd         the `args` dd command line: kB/s and sec/op from dd's summary
 *
 * The name keys an application knows appear in the row's name, in its
 * order, as gVisor writes them (key.value) whenever the section sets them
 * (threads.1 is left out, as gVisor does); then the one naming rule of
 * workload.h adds the -N suffix. The programs' own timers are used where
 * they have them, so container start-up is not counted.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "workloads/workload.h"

/* The parsed numbers of one run, before naming. */
/*
 * The keys of an app workload (app_opts binds them). A key that can name
 * a row (app_def.name_keys) also keeps whether the section set it and its
 * text as written.
 */
struct app_opts {
	int		 app;
	char		*app_name;
	char		*benchmark;
	struct strvec	 args;
	int		 args_set;
	int64_t		 ops;		/* 0: the application's */
	int		 testname;	/* enum app_testname */
	int		 testname_set;
	char		*testname_text;
	int		 threads;
	int		 threads_set;
	char		*threads_text;
	uint64_t	 memory_total;
	int		 ipc_mode;	/* enum app_ipc */
	int		 ipc_mode_set;
	char		*ipc_mode_text;
	int		 process_mode;	/* enum app_process */
	int		 process_mode_set;
	char		*process_mode_text;
	int		 groups;
	char		*operation;
	int		 operation_set;
	char		*operation_text;
	int		 clients;
	char		*filesize;
	int		 filesize_set;
	char		*filesize_text;
	int		 concurrency;
	int		 concurrency_set;
	char		*concurrency_text;
	int		 workers;	/* ruby: puma worker processes */
	int		 filesystem;	/* enum app_filesystem */
	int		 filesystem_set;
	char		*filesystem_text;
	uint64_t	 bytes;
	int		 bytes_set;
	char		*bytes_text;
	int		 syscall;	/* enum app_syscall */
	int		 syscall_set;
	char		*syscall_text;
	double		 cpu;		/* 0: no limit */
	char		*perf;
};
/* In the order of the choices of their keys. */
enum app_testname { APP_TEST_CPU, APP_TEST_MEMORY, APP_TEST_MUTEX };
enum app_ipc { APP_IPC_PIPE, APP_IPC_SOCKET };
enum app_process { APP_PROCESS_THREAD, APP_PROCESS_PROCESS };
enum app_filesystem { APP_FS_BIND, APP_FS_TMPFS };
enum app_syscall { APP_SYSCALL_GETPID, APP_SYSCALL_GETPIDOPT };
#define APP(member)	OPT_AT(struct app_opts, member)

struct app_out {
	struct sample_result	*res;
	const char		*name;
	const struct workload	*wl;
	const struct arm	*arm;
	long long		 ops;
};

struct app_def {
	const char	*app;
	const char	*bench;		/* default row name */
	const char	*image;		/* docker image (build-image --app) */
	/* Keys of the row name, in order: key.value as gVisor's Parameter,
	 * or key=value for a key written "=key" (the report's bytes=10GB). */
	const char	*name_keys[4];
	long long	 def_ops;
	/* argv of one run */
	void	(*argv)(const struct workload *wl, const struct arm *arm,
		    long long ops, struct strvec *av);
	/* 0, or -1 with *cause: what the output lacks */
	int	(*parse)(const char *out, const char *err, struct app_out *o,
		    char **cause);
};

/* The number after the first occurrence of key in text, or NAN. */
static double
num_after(const char *text, const char *key)
{
	const char	*p;
	char		*end;
	double		 v;

	if (text == NULL || (p = strstr(text, key)) == NULL)
		return NAN;
	p += strlen(key);
	while (*p == ' ' || *p == '\t' || *p == ':')
		p++;
	v = strtod(p, &end);
	return end == p ? NAN : v;
}

static const struct app_opts *
app_opts_of(const struct workload *wl, const struct arm *arm)
{
	return wl_opts(wl, arm);
}

/* --- sysbench ------------------------------------------------------- */

static void
sysbench_argv(const struct workload *wl, const struct arm *arm,
    long long ops, struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	strvec_push(av, "sysbench");
	strvec_pushf(av, "--threads=%d", o->threads);
	strvec_push(av, "--time=0");
	if (o->testname == APP_TEST_CPU) {
		strvec_pushf(av, "--events=%lld", ops);
		strvec_push(av, "cpu");
	} else if (o->testname == APP_TEST_MEMORY) {
		/* sec/op is per GiB written (gVisor: total size = N G). */
		strvec_pushf(av, "--memory-total-size=%lluK",
		    (unsigned long long)(o->memory_total >> 10));
		strvec_push(av, "memory");
	} else {
		strvec_pushf(av, "--mutex-locks=%lld", ops);
		strvec_push(av, "mutex");
	}
	strvec_push(av, "run");
}

static int
sysbench_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	const struct app_opts	*ao = app_opts_of(o->wl, o->arm);
	int			 t = ao->testname;
	double			 total = num_after(out, "total time:"), v;

	(void)err;
	if (isnan(total) || total <= 0)
		return set_cause(cause, "sysbench printed no 'total time:'");
	if (t == APP_TEST_MEMORY)
		sample_result_add(o->res, o->name, "sec/op", total /
		    ((double)ao->memory_total / (double)(1ULL << 30)));
	else
		sample_result_add(o->res, o->name, "sec/op",
		    total / (double)o->ops);
	if (t == APP_TEST_CPU &&
	    !isnan(v = num_after(out, "events per second:")))
		sample_result_add(o->res, o->name,
		    "cpu_events.events_per_second", v);
	else if (t == APP_TEST_MEMORY) {
		/* "Total operations: 1048576 (598527.85 per second)" */
		const char	*p = strstr(out, "Total operations:");

		p = p != NULL ? strchr(p, '(') : NULL;
		if (p != NULL && (v = strtod(p + 1, NULL)) > 0)
			sample_result_add(o->res, o->name,
			    "memory_operations.ops_per_second", v);
	}
	return 0;
}

/* --- hackbench ------------------------------------------------------ */

static void
hackbench_argv(const struct workload *wl, const struct arm *arm,
    long long ops, struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	/* Short options: hackbench 2.40 misparses --loops=N. */
	strvec_push(av, "hackbench");
	strvec_push(av, "-g");
	strvec_pushf(av, "%d", o->groups);
	strvec_push(av, "-l");
	strvec_pushf(av, "%lld", ops);
	if (o->ipc_mode == APP_IPC_PIPE)
		strvec_push(av, "-p");
	strvec_push(av, o->process_mode == APP_PROCESS_THREAD ? "-T" : "-P");
}

static int
hackbench_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	double	t = num_after(out, "Time:");

	(void)err;
	if (isnan(t))
		return set_cause(cause, "hackbench printed no 'Time:'");
	sample_result_add(o->res, o->name, "sec/op", t / (double)o->ops);
	return 0;
}

/* --- redis ---------------------------------------------------------- */

static void
redis_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);
	char			*op = xstrdup(o->operation), *c;

	for (c = op; *c != '\0'; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	strvec_push(av, "abbench-app");
	strvec_push(av, "redis");
	strvec_push_nodup(av, op);
	strvec_pushf(av, "%lld", ops);
	strvec_pushf(av, "%d", o->clients);
}

/* The CSV field i (0-based) of a line "a","b",...: malloc'd or NULL. */
static char *
csv_field(const char *line, const char *end, int i)
{
	const char	*p = line, *q;

	for (;;) {
		if (p >= end || *p != '"')
			return NULL;
		q = memchr(p + 1, '"', (size_t)(end - p - 1));
		if (q == NULL)
			return NULL;
		if (i-- == 0)
			return xstrndup(p + 1, (size_t)(q - p - 1));
		p = q + 1;
		if (p < end && *p == ',')
			p++;
	}
}

static int
redis_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	const char	*op = app_opts_of(o->wl, o->arm)->operation;
	const char	*p, *nl, *end = out + strlen(out);
	int		 col_rps = -1, col_max = -1, i, found = 0;
	char		*f;

	(void)err;
	for (p = out; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((f = csv_field(p, nl, 0)) == NULL)
			continue;
		if (strcmp(f, "test") == 0) {
			for (i = 1; i < 16; i++) {
				char	*h = csv_field(p, nl, i);

				if (h == NULL)
					break;
				if (strcmp(h, "rps") == 0)
					col_rps = i;
				else if (strcmp(h, "max_latency_ms") == 0)
					col_max = i;
				free(h);
			}
		} else if (col_rps > 0 && (strcmp(f, op) == 0 ||
		    (strncmp(f, op, strlen(op)) == 0 &&
		    strncmp(f + strlen(op), " (first", 7) == 0))) {
			char	*r = csv_field(p, nl, col_rps);
			char	*m = col_max > 0 ? csv_field(p, nl, col_max) :
				    NULL;

			if (r != NULL) {
				sample_result_add(o->res, o->name, "rps",
				    strtod(r, NULL));
				found = 1;
			}
			if (m != NULL)
				sample_result_add(o->res, o->name,
				    "max_latency_ms", strtod(m, NULL));
			free(r);
			free(m);
		}
		free(f);
		if (nl == end)
			break;
	}
	if (!found)
		return set_cause(cause, "redis-benchmark printed no CSV row "
		    "for '%s'", op);
	return 0;
}

/* --- nginx (ab) ----------------------------------------------------- */

/* "10Kb" -> 10240, "1Mb" -> 1048576, "100b" -> 100; -1 if malformed. */
static long long
nginx_filesize(const char *s)
{
	char		*end;
	long long	 n = strtoll(s, &end, 10);

	if (end == s || n < 0)
		return -1;
	if (strcmp(end, "b") == 0 || strcmp(end, "B") == 0)
		return n;
	if (strcmp(end, "Kb") == 0 || strcmp(end, "KB") == 0)
		return n * 1024;
	if (strcmp(end, "Mb") == 0 || strcmp(end, "MB") == 0)
		return n * 1024 * 1024;
	return -1;
}

/* A web server serving one document of `filesize` from docroot to ab. */
static void
doc_server_argv(const struct workload *wl, const struct arm *arm,
    long long ops, const char *server, const char *docroot,
    struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	strvec_push(av, "abbench-app");
	strvec_push(av, server);
	strvec_pushf(av, "%lld", nginx_filesize(o->filesize));
	strvec_pushf(av, "%lld", ops);
	strvec_pushf(av, "%d", o->concurrency);
	strvec_push(av, docroot);
}

static void
nginx_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	doc_server_argv(wl, arm, ops, "nginx", "/srv/www", av);
}

/*
 * ab's summary: sec/op is the time taken over the ops (per_op requests
 * each), requests_per_second.QPS and average_latency.s ab's own.
 */
static int
ab_parse(const char *out, struct app_out *o, double per_op, char **cause)
{
	double	rps = num_after(out, "Requests per second:");
	double	taken = num_after(out, "Time taken for tests:");
	double	done = num_after(out, "Complete requests:");
	double	failed = num_after(out, "Failed requests:");
	/* "Time per request: 0.416 [ms] (mean)": the first such line is the
	 * mean latency one client sees (ab's Total row is in whole ms,
	 * 0 for fast requests). */
	double	mean = num_after(out, "Time per request:");
	double	non2xx = num_after(out, "Non-2xx responses:");

	if (isnan(rps) || isnan(taken) || isnan(done) || done <= 0)
		return set_cause(cause, "ab printed no 'Requests per second:' "
		    "or no complete request");
	if (!isnan(failed) && failed > 0)
		return set_cause(cause, "ab: %.0f of %.0f requests failed",
		    failed, done);
	/* An error page is no document: the server's log says why. */
	if (!isnan(non2xx) && non2xx > 0)
		return set_cause(cause, "ab: %.0f of %.0f responses were not "
		    "2xx (an error page, not the document)", non2xx, done);
	sample_result_add(o->res, o->name, "sec/op", taken / (done / per_op));
	sample_result_add(o->res, o->name, "requests_per_second.QPS", rps);
	if (!isnan(mean))
		sample_result_add(o->res, o->name, "average_latency.s",
		    mean / 1e3);
	return 0;
}

static int
nginx_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	(void)err;
	return ab_parse(out, o, 1, cause);
}

/* --- httpd (ab; the output is nginx's) ------------------------------ */

static void
httpd_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	/* Where gVisor's Httpd serves its documents from. */
	doc_server_argv(wl, arm, ops, "httpd", "/tmp/html", av);
}

/* --- node and ruby (ab -k; a page from redis) ------------------------ */

static void
node_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	strvec_push(av, "abbench-app");
	strvec_push(av, "node");
	strvec_pushf(av, "%lld", ops);
	strvec_pushf(av, "%d", o->concurrency);
}

static void
ruby_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	/* gVisor's Ruby asks hey for b.N * c requests. */
	strvec_push(av, "abbench-app");
	strvec_push(av, "ruby");
	strvec_pushf(av, "%lld", ops * o->concurrency);
	strvec_pushf(av, "%d", o->concurrency);
	strvec_pushf(av, "%d", o->workers);
}

static int
ruby_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	(void)err;
	return ab_parse(out, o, app_opts_of(o->wl, o->arm)->concurrency,
	    cause);
}

/* --- syscallbench ---------------------------------------------------- */

static void
syscallbench_argv(const struct workload *wl, const struct arm *arm,
    long long ops, struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	strvec_push(av, "syscallbench");
	strvec_pushf(av, "--loops=%lld", ops);
	/* gVisor's numbering: 0 getpid, 1 getpidopt. */
	strvec_pushf(av, "--syscall=%d",
	    o->syscall == APP_SYSCALL_GETPIDOPT ? 1 : 0);
}

static int
syscallbench_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	static const char *const names[] = { "getpid", "getpidopt" };
	const char	*sc = names[app_opts_of(o->wl, o->arm)->syscall];
	const char	*line = out != NULL ? strstr(out, "syscallbench: ") :
			    NULL;
	double		 loops = num_after(line, "loops="), ns;
	size_t		 n;

	(void)err;
	ns = num_after(line, " ns=");
	if (line == NULL || isnan(loops) || isnan(ns) || loops <= 0 || ns < 0)
		return set_cause(cause, "syscallbench printed no 'syscallbench: "
		    "syscall=NAME loops=N ns=T' line");
	/* The program says which loop it ran: the row must be that one. */
	line = strstr(line, "syscall=");
	n = sc != NULL ? strlen(sc) : 0;
	if (line == NULL || sc == NULL || strncmp(line + 8, sc, n) != 0 ||
	    line[8 + n] != ' ')
		return set_cause(cause, "syscallbench ran another system call "
		    "than '%s'", sc != NULL ? sc : "");
	sample_result_add(o->res, o->name, "sec/op", ns / 1e9 / loops);
	return 0;
}

/* --- iperf ---------------------------------------------------------- */

static void
iperf_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	const struct app_opts	*o = app_opts_of(wl, arm);

	(void)ops;
	strvec_push(av, "abbench-app");
	strvec_push(av, "iperf");
	strvec_pushf(av, "%llu", (unsigned long long)o->bytes);
	strvec_push(av, strcmp(o->operation, "Download") == 0 ?
	    "download" : "upload");
}

static int
iperf_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	json_error_t	 je;
	json_t		*root, *v;
	const char	*js = strchr(out, '{');

	(void)err;
	if (js == NULL || (root = json_loads(js, JSON_DISABLE_EOF_CHECK,
	    &je)) == NULL)
		return set_cause(cause, "iperf3 printed no JSON");
	v = json_object_get(json_object_get(json_object_get(root, "end"),
	    "sum_received"), "bits_per_second");
	if (!json_is_number(v)) {
		json_decref(root);
		return set_cause(cause, "iperf3's JSON has no "
		    "end.sum_received.bits_per_second");
	}
	sample_result_add(o->res, o->name, "bandwidth.bytes_per_second",
	    json_number_value(v) / 8);
	json_decref(root);
	return 0;
}

/* --- ffmpeg --------------------------------------------------------- */

static void
ffmpeg_argv(const struct workload *wl, const struct arm *arm, long long ops,
    struct strvec *av)
{
	(void)wl;
	(void)arm;
	strvec_push(av, "abbench-app");
	strvec_push(av, "ffmpeg");
	strvec_pushf(av, "%lld", ops);
}

static int
ffmpeg_parse(const char *out, const char *err, struct app_out *o,
    char **cause)
{
	double	rt = num_after(out, "rtime=");

	(void)err;
	if (isnan(rt) || rt <= 0)
		return set_cause(cause, "ffmpeg printed no 'bench: ... rtime='");
	/* One op is the whole transcode, as gVisor's Ffmpeg row. */
	sample_result_add(o->res, o->name, "sec/op", rt);
	return 0;
}

/* --- dd ------------------------------------------------------------- */

static int
dd_parse(const char *out, const char *err, struct app_out *o, char **cause)
{
	const char	*p;
	double		 bytes, sec;
	char		*e;

	(void)out;
	/* "5120000 bytes (5.1 MB, 4.9 MiB) copied, 3.90981 s, 1.3 MB/s" */
	if (err == NULL || (p = strstr(err, " copied, ")) == NULL)
		return set_cause(cause, "dd printed no 'copied' line (drop "
		    "status=none)");
	sec = strtod(p + 9, &e);
	while (p > err && p[-1] != '\n')
		p--;
	bytes = strtod(p, NULL);
	if (e == p + 9 || sec <= 0 || bytes <= 0)
		return set_cause(cause, "cannot read dd's summary line");
	/* dd's kB is 1000 bytes, as the thread quotes it (60.4 kB/s). */
	sample_result_add(o->res, o->name, "kB/s", bytes / sec / 1e3);
	sample_result_add(o->res, o->name, "sec/op", sec);
	return 0;
}

static const struct app_def app_defs[] = {
	{ "sysbench", "Sysbench", "abbench/sysbench",
	    { "testname", "threads", NULL }, 2000,
	    sysbench_argv, sysbench_parse },
	{ "hackbench", "Hackbench", "abbench/hackbench",
	    { "ipcMode", "processMode", NULL }, 100,
	    hackbench_argv, hackbench_parse },
	{ "redis", "Redis", "abbench/redis",
	    { "operation", NULL }, 100000, redis_argv, redis_parse },
	{ "nginx", "NginxDocSize", "abbench/nginx",
	    { "filesize", "concurrency", "filesystem", NULL }, 10000,
	    nginx_argv, nginx_parse },
	{ "iperf", "IperfOneConnection", "abbench/iperf",
	    { "operation", "=bytes", NULL }, 1, iperf_argv, iperf_parse },
	{ "ffmpeg", "Ffmpeg", "abbench/ffmpeg", { NULL }, 10,
	    ffmpeg_argv, ffmpeg_parse },
	{ "httpd", "Httpd", "abbench/httpd",
	    { "filesize", "concurrency", NULL }, 10000,
	    httpd_argv, nginx_parse },
	{ "syscallbench", "Syscallbench", "abbench/syscallbench",
	    { "syscall", NULL }, 100000, syscallbench_argv,
	    syscallbench_parse },
	{ "node", "Node", "abbench/node", { "concurrency", NULL }, 1000,
	    node_argv, nginx_parse },
	{ "ruby", "Ruby", "abbench/ruby", { "concurrency", NULL }, 200,
	    ruby_argv, ruby_parse },
	{ "dd", "DD", NULL, { NULL }, 1, NULL, dd_parse },
};

static const struct opt_spec app_opts[] = {
	OPT_CHOICE("app", APP(app), NULL,
	    "sysbench hackbench redis nginx iperf ffmpeg dd httpd "
	    "syscallbench node ruby",
	    "the application: its program, parser, image and row names",
	    .flags = OPT_NOMATRIX | OPT_REQUIRED, .text = APP(app_name)),
	OPT_STR("benchmark", APP(benchmark), NULL,
	    "the row name before the parameters (default: gVisor's: "
	    "Sysbench, Hackbench, Redis, NginxDocSize, IperfOneConnection, "
	    "Httpd, Syscallbench, Node, Ruby)",
	    .flags = OPT_NOMATRIX),
	OPT_WORDS("args", APP(args), NULL,
	    "the program and its arguments, instead of the application's "
	    "(required for dd)",
	    .flags = OPT_ARM, .given = APP(args_set)),
	OPT_INT64("ops", APP(ops), "0", 0, 1e15,
	    "operations of one sample (sec/op divides by it): sysbench "
	    "events (CPU), locks per thread (Mutex); "
	    "hackbench loops; redis, nginx, httpd and node requests; ruby "
	    "requests of each concurrent client (gVisor's b.N * c); ffmpeg: "
	    "seconds of the 720p test video transcoded; syscallbench "
	    "system calls (0: the application's default)"),
	OPT_CHOICE("testname", APP(testname), "CPU", "CPU Memory Mutex",
	    "sysbench test",
	    .given = APP(testname_set), .text = APP(testname_text)),
	OPT_INT("threads", APP(threads), "1", 1, 4096, "sysbench threads",
	    .given = APP(threads_set), .text = APP(threads_text)),
	OPT_SIZE("memory-total", APP(memory_total), "1g", 1024, 1e15,
	    "sysbench Memory: bytes written per sample (sec/op is per GiB, "
	    "as gVisor's)"),
	OPT_CHOICE("ipcMode", APP(ipc_mode), "pipe", "pipe socket",
	    "hackbench: pipes or socketpairs",
	    .given = APP(ipc_mode_set), .text = APP(ipc_mode_text)),
	OPT_CHOICE("processMode", APP(process_mode), "thread",
	    "thread process", "hackbench: threads or processes",
	    .given = APP(process_mode_set), .text = APP(process_mode_text)),
	OPT_INT("groups", APP(groups), "10", 1, 1000,
	    "hackbench groups (40 tasks each)"),
	OPT_STR("operation", APP(operation), NULL,
	    "redis: a redis-benchmark test (LPUSH, LRANGE_100, SET, GET...); "
	    "iperf: Download or Upload",
	    .given = APP(operation_set), .text = APP(operation_text)),
	OPT_INT("clients", APP(clients), "50", 1, 10000,
	    "redis-benchmark parallel connections"),
	OPT_STR("filesize", APP(filesize), "1Kb",
	    "nginx, httpd: size of the document (1Kb, 100Kb, 10Mb, 512b)",
	    .given = APP(filesize_set), .text = APP(filesize_text)),
	OPT_INT("concurrency", APP(concurrency), "1", 1, 20000,
	    "nginx, httpd, node, ruby: ab's concurrent requests",
	    .given = APP(concurrency_set), .text = APP(concurrency_text)),
	OPT_INT("workers", APP(workers), "20", 1, 256,
	    "ruby: puma worker processes (gVisor's WEB_CONCURRENCY, 20; "
	    "each has 20 threads)"),
	OPT_CHOICE("filesystem", APP(filesystem), "tmpfs", "bind tmpfs",
	    "nginx: where the document lives: a tmpfs, or a host directory "
	    "bind-mounted (`dir`, default a scratch directory)",
	    .given = APP(filesystem_set), .text = APP(filesystem_text)),
	OPT_SIZE("bytes", APP(bytes), "1g", 1, 1e15,
	    "iperf: bytes one connection transfers",
	    .given = APP(bytes_set), .text = APP(bytes_text)),
	OPT_CHOICE("syscall", APP(syscall), "getpid", "getpid getpidopt",
	    "syscallbench: getpid through libc's syscall(2), or getpidopt, "
	    "the inline 'mov $nr, %eax; syscall' that gVisor's systrap "
	    "platform patches into a jump",
	    .given = APP(syscall_set), .text = APP(syscall_text)),
	OPT_FLOAT("cpu", APP(cpu), NULL, 0.01, 4096,
	    "CPU limit of the container",
	    .flags = OPT_ARM),
	OPT_STR("perf", APP(perf), NULL, WL_PERF_HELP
	    " (app: the whole application, client and server)",
	    .flags = OPT_NOMATRIX),
	OPT_END
};

struct app_priv {
	char	*bind_dir;	/* nginx filesystem.bind scratch directory */
	int64_t	 bind_journal;
	int	 made;
};

static const struct app_def *
app_find(const struct workload *wl)
{
	const char	*a = app_opts_of(wl, NULL)->app_name;
	size_t		 i;

	for (i = 0; a != NULL && i < ARRAY_SIZE(app_defs); i++) {
		if (strcmp(app_defs[i].app, a) == 0)
			return &app_defs[i];
	}
	return NULL;
}

static int
app_validate(const struct experiment *e, struct workload *wl, char **cause)
{
	const struct app_def	*d = app_find(wl);
	const struct app_opts	*o = app_opts_of(wl, NULL);
	const char		*op = o->operation;
	size_t			 j;

	if (d == NULL)
		return set_cause(cause, "app: unknown application");
	if (workload_perf_validate(e, wl, o->perf, cause) == -1)
		return -1;
	for (j = 0; d->argv == NULL && j < e->narms; j++) {
		if (!app_opts_of(wl, &e->arms[j])->args_set)
			return set_cause(cause, "args: app '%s' needs the "
			    "command line (set args)", d->app);
	}
	if (strcmp(d->app, "redis") == 0 && (op == NULL || *op == '\0'))
		return set_cause(cause, "operation: redis needs a "
		    "redis-benchmark test (LPUSH, LRANGE_100, SET, ...)");
	if (strcmp(d->app, "iperf") == 0 && (op == NULL ||
	    (strcmp(op, "Download") != 0 && strcmp(op, "Upload") != 0)))
		return set_cause(cause, "operation: iperf takes Download or "
		    "Upload, not '%s'", op != NULL ? op : "");
	if ((strcmp(d->app, "nginx") == 0 || strcmp(d->app, "httpd") == 0) &&
	    nginx_filesize(o->filesize) < 0)
		return set_cause(cause, "filesize: '%s' is not a size such "
		    "as 1Kb, 100Kb, 10Mb or 512b", o->filesize);
	/* ab refuses more concurrent requests than requests, and more
	 * requests than an int holds (ruby's are ops x concurrency). */
	if (strcmp(d->app, "node") == 0 && (o->ops > 0 ? o->ops :
	    d->def_ops) < o->concurrency)
		return set_cause(cause, "ops: node needs at least as many "
		    "requests as concurrency (%d)", o->concurrency);
	if ((strcmp(d->app, "node") == 0 || strcmp(d->app, "ruby") == 0) &&
	    (o->ops > 0 ? o->ops : d->def_ops) > INT_MAX /
	    (strcmp(d->app, "ruby") == 0 ? o->concurrency : 1))
		return set_cause(cause, "ops: ab takes at most %d requests",
		    INT_MAX);
	/* The application's image, where the section names none: the
	 * executor checks it before the first sample. */
	if (d->image != NULL && wl->common.image == NULL) {
		wl->kv = xrealloc(wl->kv, (wl->nkv + 1) * sizeof *wl->kv);
		wl->kv[wl->nkv].key = xstrdup("image");
		wl->kv[wl->nkv].value = xstrdup(d->image);
		wl->kv[wl->nkv].line = wl->line;
		wl->nkv++;
		wl->common.image = xstrdup(d->image);
	}
	return 0;
}

/* The row name: benchmark, then the name keys the section sets. */
static char *
app_row_name(const struct workload *wl, const struct arm *arm,
    const struct app_def *d)
{
	const struct app_opts	*o = app_opts_of(wl, arm);
	const struct opt_spec	*spec;
	struct strbuf		 sb = STRBUF_INIT;
	const char		*b = o->benchmark;
	size_t			 i;

	strbuf_adds(&sb, b != NULL ? b : d->app != NULL &&
	    strcmp(d->app, "dd") == 0 ? wl->base : d->bench);
	for (i = 0; d->name_keys[i] != NULL; i++) {
		const char	*k = d->name_keys[i];
		int		 eq = k[0] == '=';
		const char	*v;

		k += eq;
		/* The text as the section wrote it (.text, .given). */
		if ((spec = opt_find(app_opts, k)) == NULL)
			BUG("app: name key '%s' is not in the table", k);
		v = opt_text(spec, o);
		if (opt_given(spec, o) != 1 || v == NULL)
			continue;
		if (strcmp(k, "threads") == 0 && strcmp(v, "1") == 0)
			continue;
		strbuf_addf(&sb, "/%s%c%s", k, eq ? '=' : '.', v);
	}
	return strbuf_detach(&sb);
}

static int
app_prepare(struct run_ctx *ctx, struct workload *wl, char **cause)
{
	const struct app_def	*d = app_find(wl);
	struct app_priv		*p = xcalloc(1, sizeof *p);
	const char		*dir;

	wl->priv = p;
	p->bind_journal = -1;
	if (strcmp(d->app, "nginx") != 0 ||
	    app_opts_of(wl, NULL)->filesystem != APP_FS_BIND)
		return 0;
	if ((dir = wl->common.dir) != NULL) {
		p->bind_dir = xstrdup(dir);
		if (mkdir(dir, 0755) == -1 && errno != EEXIST)
			return set_cause(cause, "dir: cannot make '%s': %s",
			    dir, strerror(errno));
		return 0;
	}
	p->bind_dir = xasprintf("/var/tmp/abbench-app-%ld-%s", (long)getpid(),
	    ctx->run_uuid[0] ? ctx->run_uuid : "x");
	p->bind_journal = run_journal_object(ctx, "dir", p->bind_dir);
	if (mkdir(p->bind_dir, 0755) == -1 && errno != EEXIST)
		return set_cause(cause, "cannot make '%s': %s", p->bind_dir,
		    strerror(errno));
	p->made = 1;
	return 0;
}

static void
app_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	struct app_priv	*p = wl->priv;
	char		*cause = NULL;

	if (p == NULL)
		return;
	if (p->made) {
		if (rmtree(p->bind_dir, &cause) == -1)
			warning("%s", cause);
		else if (ctx != NULL && p->bind_journal > 0)
			run_forget_object(ctx, p->bind_journal);
		free(cause);
	}
	free(p->bind_dir);
	free(p);
	wl->priv = NULL;
}

/* Parse one run's output into metrics (the unit test's entry point). */
int	app_parse_output(const struct workload *wl, const struct arm *arm,
	    const char *out, const char *err, struct sample_result *res,
	    char **cause);

int
app_parse_output(const struct workload *wl, const struct arm *arm,
    const char *out, const char *err, struct sample_result *res,
    char **cause)
{
	const struct app_def	*d = app_find(wl);
	struct app_out		 o;
	char			*name;
	int			 r;

	if (d == NULL)
		return set_cause(cause, "unknown application");
	name = app_row_name(wl, arm, d);
	o.res = res;
	o.name = name;
	o.wl = wl;
	o.arm = arm;
	o.ops = app_opts_of(wl, arm)->ops;
	if (o.ops <= 0)
		o.ops = d->def_ops;
	r = d->parse(out != NULL ? out : "", err, &o, cause);
	free(name);
	return r;
}

static void
app_sample(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out)
{
	const struct app_def	*d = app_find(wl);
	struct app_priv		*p = wl->priv;
	struct strvec		 argv = STRVEC_INIT;
	struct exec_spec	 spec;
	struct exec_status	 st;
	struct wl_counts	 counts;
	struct exec_mount	 mnt;
	struct exec_proc	*proc = NULL;
	char			*cause = NULL, *how;
	const struct app_opts	*o = app_opts_of(wl, arm);
	long long		 ops = o->ops;

	memset(&counts, 0, sizeof counts);
	memset(&st, 0, sizeof st);
	if (ops <= 0)
		ops = d->def_ops;
	if (o->args_set)
		strvec_pushv(&argv, o->args.v);
	else
		d->argv(wl, arm, ops, &argv);
	workload_spec_init(&spec, wl, arm, argv.v);
	spec.capture = 1;
	spec.cpus = o->cpu;
	if (strcmp(d->app, "nginx") == 0) {
		memset(&mnt, 0, sizeof mnt);
		mnt.target = "/srv";
		if (p != NULL && p->bind_dir != NULL) {
			mnt.type = "bind";
			mnt.source = p->bind_dir;
		} else
			mnt.type = "tmpfs";
		spec.mounts = &mnt;
		spec.nmounts = 1;
	}
	if (workload_run_counted(ctx, wl, &spec, o->perf, &counts, &proc,
	    &st, out) == -1)
		goto done;
	if (st.timed_out) {
		sample_result_fail(out, SAMPLE_STATUS_TIMEOUT,
		    "'%s' timed out: lower ops (or raise timeout)%s%s",
		    argv.v[0], st.err && *st.err ? ": " : "",
		    st.err ? st.err : "");
		goto done;
	}
	if (!WIFEXITED(st.status) || WEXITSTATUS(st.status) != 0) {
		how = exec_status_describe(&st);
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "'%s' %s%s%s",
		    argv.v[0], how, st.err && *st.err ? ": " : "",
		    st.err ? st.err : "");
		free(how);
		goto done;
	}
	if (app_parse_output(wl, arm, st.out, st.err, out, &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
	} else
		workload_counts_add(out, wl->name, &counts);
done:
	workload_counts_release(&counts);
	if (proc != NULL)
		wl->exec->destroy(ctx, proc);
	exec_status_release(&st);
	strvec_clear(&argv);
}

static const char *const app_units[] = {
	"sec/op", "lower",
	"rps", "higher",
	"max_latency_ms", "lower",
	"requests_per_second.QPS", "higher",
	"average_latency.s", "lower",
	"bandwidth.bytes_per_second", "higher",
	"cpu_events.events_per_second", "higher",
	"memory_operations.ops_per_second", "higher",
	"kB/s", "higher",
	NULL
};

const struct workload_ops wl_app_ops = {
	.type = "app",
	.help = "an application of gVisor's benchmark suites (sysbench, "
	    "hackbench, redis, nginx, httpd, node, ruby, iperf, ffmpeg, "
	    "syscallbench, dd) "
	    "in a container, its output "
	    "parsed into the reports' rows",
	.opts = app_opts,
	.opts_size = sizeof(struct app_opts),
	.default_exec = EXEC_DEFAULT_DAEMON,
	.validate = app_validate,
	.prepare = app_prepare,
	.sample = app_sample,
	.cleanup = app_cleanup,
	.units = app_units,
};
