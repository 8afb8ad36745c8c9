/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `gobench`: run a program that prints Go benchmark format (Go's
 * testing package, or a wrapper around sysbench, redis-benchmark, wrk...)
 * once per sample, and store what it prints: every value/unit pair of every
 * result line under the benchmark name as printed, tidied as benchstat
 * tidies it, and its config lines (pkg:, goos:, cpu:...) with the run.
 * `{runtime}`, `{arm}`, `{round}` and `{run}` in args are replaced per
 * sample. A "--- FAIL: BenchmarkX" line stores X as a failed benchmark;
 * a non-zero exit or no result at all fails the sample, with the last
 * lines of the program's stderr as the error.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "stats/benchfmt.h"
#include "stats/strpool.h"
#include "workloads/workload.h"

struct gobench_opts {
	struct strvec	 args;
	int		 err_lines;
	char		*perf;
	int		 starts_containers;
};
#define GOB(member)	OPT_AT(struct gobench_opts, member)

static const struct opt_spec gobench_opts[] = {
	OPT_WORDS("args", GOB(args), NULL,
	    "the program and its arguments; {runtime}, "
	    "{arm}, {round} and {run} are replaced per sample",
	    .flags = OPT_ARM | OPT_REQUIRED),
	OPT_INT("err-lines", GOB(err_lines), "10", 1, 1000,
	    "lines of stderr kept as the error text of a failed sample"),
	OPT_STR("perf", GOB(perf), NULL, WL_PERF_HELP, .flags = OPT_NOMATRIX),
	OPT_BOOL("starts-containers", GOB(starts_containers), "yes",
	    WL_STARTS_CONTAINERS_HELP(" (its {run})"), .flags = OPT_NOMATRIX),
	OPT_END
};

/* Replace the {placeholders} of one argv word. */
static char *
substitute(const char *word, struct run_ctx *ctx, const struct arm *arm)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p = word, *close;
	char		 num[32];

	while (*p != '\0') {
		if (*p == '{' && (close = strchr(p, '}')) != NULL) {
			size_t		 n = (size_t)(close - p - 1);
			const char	*v = NULL;

			if (n == 7 && strncmp(p + 1, "runtime", n) == 0)
				v = arm->runtime != NULL ? arm->runtime : "";
			else if (n == 3 && strncmp(p + 1, "arm", n) == 0)
				v = arm->name;
			else if (ctx == NULL)
				;	/* known only once it runs */
			else if (n == 5 && strncmp(p + 1, "round", n) == 0) {
				snprintf(num, sizeof num, "%d",
				    ctx->entry != NULL ? ctx->entry->round : 0);
				v = num;
			} else if (n == 3 && strncmp(p + 1, "run", n) == 0)
				v = ctx->run_uuid;
			if (v != NULL) {
				strbuf_adds(&sb, v);
				p = close + 1;
				continue;
			}
		}
		strbuf_addc(&sb, *p++);
	}
	return strbuf_detach(&sb);
}

/* "--- FAIL: BenchmarkName (0.00s)" -> "Name"; NULL if not such a line. */
static char *
fail_line_name(const char *line, size_t len)
{
	static const char	prefix[] = "--- FAIL: Benchmark";
	size_t			pl = sizeof prefix - 1, e;

	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len < pl || strncmp(line, prefix, pl) != 0)
		return NULL;
	for (e = pl; e < len && line[e] != ' ' && line[e] != '\t' &&
	    line[e] != '\r'; e++)
		;
	return xstrndup(line + pl, e - pl);
}

/*
 * The program's stdout is parsed as it comes (exec_spec.on_out), so that
 * abbench's memory stays bounded whatever it prints: results go straight
 * into the sample (at most GOBENCH_MAX_VALUES values; past that the output
 * is read and dropped, and the sample says it was cut), "--- FAIL" lines
 * and their indented reasons are gathered (at most GOBENCH_MAX_FAILS),
 * and only the last GOBENCH_TAIL bytes are kept for a failure message.
 */
#define GOBENCH_MAX_VALUES	100000
#define GOBENCH_MAX_FAILS	1000
#define GOBENCH_MAX_CONFIG	1000
#define GOBENCH_MAX_REASON	4096
#define GOBENCH_TAIL		4096

struct gobench_stream {
	struct bf_reader	*r;
	struct sample_result	*res;
	size_t			 nresults, nvalues, dropped;
	uint64_t		 bytes;
	char			*fatal;		/* the reader's error */
	struct strvec		 fails;		/* names of FAIL lines */
	struct strvec		 reasons;	/* "" = none given */
	struct strbuf		 reason;	/* of the FAIL being read */
	int			 in_fail;
	char			 tail[GOBENCH_TAIL];
	size_t			 tail_len;
};

static void
gobench_stream_init(struct gobench_stream *gs, struct sample_result *res)
{
	memset(gs, 0, sizeof *gs);
	gs->res = res;
	gs->r = bf_reader_new("(stdout)", "stdout", "", 0, NULL);
	/* One long line of a log is not worth the sample's results. */
	bf_reader_skip_long_lines(gs->r);
}

static void
gobench_fail_done(struct gobench_stream *gs)
{
	if (!gs->in_fail)
		return;
	strvec_push(&gs->reasons, gs->reason.buf != NULL ? gs->reason.buf :
	    "");
	strbuf_reset(&gs->reason);
	gs->in_fail = 0;
}

/* One whole line (no newline) for the FAIL lines and their reasons. */
static void
gobench_line(struct gobench_stream *gs, const char *p, size_t len)
{
	char	*name;

	if ((name = fail_line_name(p, len)) != NULL) {
		gobench_fail_done(gs);
		if (gs->fails.n < GOBENCH_MAX_FAILS) {
			strvec_push_nodup(&gs->fails, name);
			gs->in_fail = 1;
		} else
			free(name);
		return;
	}
	if (!gs->in_fail)
		return;
	if (len == 0 || (*p != ' ' && *p != '\t')) {
		gobench_fail_done(gs);
		return;
	}
	while (len > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	if (len > 0 && p[len - 1] == '\r')
		len--;
	if (gs->reason.len + len + 1 > GOBENCH_MAX_REASON)
		return;
	if (gs->reason.len > 0)
		strbuf_addc(&gs->reason, '\n');
	strbuf_add(&gs->reason, p, len);
}

static void
gobench_keep_tail(struct gobench_stream *gs, const char *p, size_t len)
{
	if (len >= GOBENCH_TAIL) {
		memcpy(gs->tail, p + len - GOBENCH_TAIL, GOBENCH_TAIL);
		gs->tail_len = GOBENCH_TAIL;
		return;
	}
	if (gs->tail_len + len > GOBENCH_TAIL) {
		size_t	drop = gs->tail_len + len - GOBENCH_TAIL;

		memmove(gs->tail, gs->tail + drop, gs->tail_len - drop);
		gs->tail_len -= drop;
	}
	memcpy(gs->tail + gs->tail_len, p, len);
	gs->tail_len += len;
}

static void
gobench_result(struct gobench_stream *gs, const struct bf_result *br)
{
	struct sample_result	*res = gs->res;
	char			*bench, *kv;
	size_t			 i, k;

	gs->nresults++;
	if (gs->nvalues + br->nvalues > GOBENCH_MAX_VALUES) {
		gs->dropped += br->nvalues;
		return;
	}
	/*
	 * The name as printed, any byte kept but NUL, which would cut it
	 * (and make BenchmarkA\0B the same row as BenchmarkA): escaped.
	 */
	bench = str_escape_nul(br->name, br->name_len);
	for (i = 0; i < br->nvalues; i++) {
		char	*unit = str_escape_nul(br->values[i].unit,
		    strpool_len(br->values[i].unit));

		sample_result_add_raw(res, bench, unit, br->values[i].value);
		free(unit);
	}
	gs->nvalues += br->nvalues;
	free(bench);
	/* The config in effect, once per key (run-level). */
	for (i = 0; i < br->nconfig && res->config.n < GOBENCH_MAX_CONFIG;
	    i++) {
		kv = xasprintf("%s: %s", br->config[i].key,
		    br->config[i].value);
		for (k = 0; k < res->config.n; k++) {
			if (strcmp(res->config.v[k], kv) == 0)
				break;
		}
		if (k == res->config.n)
			strvec_push_nodup(&res->config, kv);
		else
			free(kv);
	}
}

/* exec_spec.on_out: the bytes not yet consumed, and whether that is all. */
static size_t
gobench_on_out(void *arg, const char *data, size_t len, int eof)
{
	struct gobench_stream	*gs = arg;
	const struct bf_result	*br;
	const char		*p, *nl, *end;
	size_t			 used;
	int			 rc;

	if (gs->fatal != NULL) {
		gs->bytes += len;
		gobench_keep_tail(gs, data, len);
		return len;	/* the rest is read and dropped */
	}
	bf_reader_feed(gs->r, data, len, !eof);
	while ((rc = bf_reader_next(gs->r, &br, &gs->fatal)) == 1)
		gobench_result(gs, br);
	used = rc == 2 ? bf_reader_consumed(gs->r) : len;
	/* The reader consumes whole lines: scan the same ones. */
	for (p = data, end = data + used; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		gobench_line(gs, p, (size_t)(nl - p));
		if (nl == end)
			break;
	}
	gs->bytes += used;
	gobench_keep_tail(gs, data, used);
	return used;
}

/*
 * The end of the output: FAIL rows (their reason, else errtail), the
 * reader's error, the cut. Returns the number of results, or -1 when the
 * output could not be read (the sample failed).
 */
static int
gobench_stream_finish(struct gobench_stream *gs, const char *errtail,
    const char *what)
{
	struct sample_result	*res = gs->res;
	size_t			 i;
	int			 n = (int)gs->nresults;

	gobench_fail_done(gs);
	if (gs->fatal != NULL) {
		sample_result_fail(res, SAMPLE_STATUS_FAILED, "%s", gs->fatal);
		n = -1;
	} else {
		for (i = 0; i < gs->fails.n; i++)
			sample_result_fail_benchmark(res, gs->fails.v[i],
			    *gs->reasons.v[i] != '\0' ? gs->reasons.v[i] :
			    errtail != NULL && *errtail != '\0' ? errtail :
			    "--- FAIL");
		if (gs->dropped > 0) {
			char	*msg = xasprintf("output cut: %llu bytes, "
			    "only the first %d values kept (%zu more "
			    "dropped)", (unsigned long long)gs->bytes,
			    GOBENCH_MAX_VALUES, gs->dropped);

			sample_result_fail_benchmark(res, what, msg);
			free(msg);
		}
	}
	return n;
}

static void
gobench_stream_release(struct gobench_stream *gs)
{
	bf_reader_free(gs->r);
	free(gs->fatal);
	strvec_clear(&gs->fails);
	strvec_clear(&gs->reasons);
	strbuf_release(&gs->reason);
}

/* The last lines of stdout kept (for a failure message), malloc'd. */
static char *
gobench_stdout_tail(const struct gobench_stream *gs, int lines)
{
	return last_lines(gs->tail, gs->tail_len, lines);
}

/*
 * Parse a whole output at once (the unit tests' entry; the workload
 * streams through the same code).
 */
int	gobench_parse_output(const char *out, size_t len, const char *errtail,
	    struct sample_result *res);

int
gobench_parse_output(const char *out, size_t len, const char *errtail,
    struct sample_result *res)
{
	struct gobench_stream	gs;
	int			n;

	gobench_stream_init(&gs, res);
	(void)gobench_on_out(&gs, out, len, 1);
	n = gobench_stream_finish(&gs, errtail, "gobench");
	gobench_stream_release(&gs);
	return n;
}

static int
gobench_validate(const struct experiment *e, struct workload *wl,
    char **cause)
{
	const struct gobench_opts	*o = wl_opts(wl, NULL);

	return workload_perf_validate(e, wl, o->perf, cause);
}

/* The arm's argv as it runs (ctx NULL: {round} and {run} as written). */
static void
gobench_argv(struct run_ctx *ctx, const struct workload *wl,
    const struct arm *arm, struct strvec *argv)
{
	const struct gobench_opts *o = wl_opts(wl, arm);
	size_t			 i;

	for (i = 0; i < o->args.n; i++)
		strvec_push_nodup(argv, substitute(o->args.v[i], ctx, arm));
	/* abbench's own programs (startup-bench) run from the build tree. */
	if (argv->n > 0 && strchr(argv->v[0], '/') == NULL &&
	    !(wl->exec->caps & EXEC_CONTAINER)) {
		char	*found = libexec_find(argv->v[0], NULL);

		if (found != NULL) {
			free(argv->v[0]);
			argv->v[0] = found;
		}
	}
}

static void
gobench_program(const struct workload *wl, const struct arm *arm,
    struct strvec *argv)
{
	gobench_argv(NULL, wl, arm, argv);
}

static void
gobench_sample(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out)
{
	const struct gobench_opts *o = wl_opts(wl, arm);
	struct strvec		 argv = STRVEC_INIT;
	struct exec_spec	 spec;
	struct exec_status	 st;
	struct exec_proc	*proc = NULL;
	struct wl_counts	 counts;
	struct gobench_stream	 gs;
	char			*how, *tail;
	int			 n, nerr;

	memset(&st, 0, sizeof st);
	gobench_argv(ctx, wl, arm, &argv);
	nerr = o->err_lines;
	gobench_stream_init(&gs, out);
	workload_spec_init(&spec, wl, arm, argv.v);
	spec.capture = 1;
	spec.on_out = gobench_on_out;
	spec.on_out_arg = &gs;
	if (workload_run_counted(ctx, wl, &spec, o->perf, &counts, &proc,
	    &st, out) == -1)
		goto done;
	/* What the reader left (an executor that does not stream). */
	if (st.outlen > 0)
		(void)gobench_on_out(&gs, st.out, st.outlen, 1);
	tail = st.err != NULL ? last_lines(st.err, strlen(st.err), nerr) :
	    xstrdup("");
	/* Nothing on stderr: the end of stdout tells what went wrong. */
	if (*tail == '\0') {
		free(tail);
		tail = gobench_stdout_tail(&gs, nerr);
	}
	if (st.timed_out) {
		sample_result_fail(out, SAMPLE_STATUS_TIMEOUT, "'%s' timed out%s%s",
		    argv.v[0], *tail ? ": " : "", tail);
		free(tail);
		goto done;
	}
	n = gobench_stream_finish(&gs, tail, wl->name);
	if (n >= 0 && !(WIFEXITED(st.status) && WEXITSTATUS(st.status) == 0)) {
		how = exec_status_describe(&st);
		if (n == 0 && out->failed.n == 0)
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "'%s' %s%s%s", argv.v[0], how, *tail ? ": " : "",
			    tail);
		else if (out->failed.n == 0) {
			/* Results, then a failure nobody named: keep both. */
			char	*msg = xasprintf("'%s' %s%s%s", argv.v[0],
			    how, *tail ? ": " : "", tail);

			sample_result_fail_benchmark(out, wl->name, msg);
			free(msg);
		}
		free(how);
	} else if (n == 0 && out->failed.n == 0)
		sample_result_fail(out, SAMPLE_STATUS_FAILED,
		    "'%s' printed no benchmark results%s%s", argv.v[0],
		    *tail ? ": " : "", tail);
	/* The program's counts: one row per invocation, not per result. */
	if (out->status == SAMPLE_STATUS_OK)
		workload_counts_add(out, wl->name, &counts);
	free(tail);
done:
	gobench_stream_release(&gs);
	workload_counts_release(&counts);
	if (proc != NULL)
		wl->exec->destroy(ctx, proc);
	exec_status_release(&st);
	strvec_clear(&argv);
}

/* Each arm's program is there and runnable, before any sample. */
static int
gobench_preflight(const struct experiment *e, const struct workload *wl,
    char **cause)
{
	return workload_check_programs(e, wl,
	    offsetof(struct gobench_opts, args), WL_NO_CWD, cause);
}

const struct workload_ops wl_gobench_ops = {
	.type = "gobench",
	.help = "run a program that prints Go benchmark format, store every "
	    "result",
	.opts = gobench_opts,
	.opts_size = sizeof(struct gobench_opts),
	.default_exec = EXEC_DEFAULT_HOST,
	.validate = gobench_validate,
	.own_program = 1,
	.sample = gobench_sample,
	.cgroup_optional = 1,
	.preflight = gobench_preflight,
	.program = gobench_program,
};
