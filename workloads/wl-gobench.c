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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "stats/benchfmt.h"
#include "workloads/workload.h"

struct gobench_opts {
	struct strvec	 args;
	int		 err_lines;
};
#define GOB(member)	OPT_AT(struct gobench_opts, member)

static const struct opt_spec gobench_opts[] = {
	OPT_WORDS("args", GOB(args), NULL,
	    "the program and its arguments; {runtime}, "
	    "{arm}, {round} and {run} are replaced per sample",
	    .flags = OPT_ARM | OPT_REQUIRED),
	OPT_INT("err-lines", GOB(err_lines), "10", 1, 1000,
	    "lines of stderr kept as the error text of a failed sample"),
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

/* The indented lines after a FAIL line (Go prints the reason there). */
static char *
fail_reason(const char *after, const char *end)
{
	struct strbuf	sb = STRBUF_INIT;
	const char	*nl;

	while (after < end && (*after == ' ' || *after == '\t')) {
		nl = memchr(after, '\n', (size_t)(end - after));
		if (nl == NULL)
			nl = end;
		if (sb.len > 0)
			strbuf_addc(&sb, '\n');
		while (after < nl && (*after == ' ' || *after == '\t'))
			after++;
		strbuf_add(&sb, after, (size_t)(nl - after));
		after = nl < end ? nl + 1 : end;
	}
	return sb.len > 0 ? strbuf_detach(&sb) : NULL;
}

/*
 * Parse the program's output into the result. Exposed for the unit test
 * through gobench_parse_output (declared in workload.h's users).
 */
int	gobench_parse_output(const char *out, size_t len, const char *errtail,
	    struct sample_result *res);

int
gobench_parse_output(const char *out, size_t len, const char *errtail,
    struct sample_result *res)
{
	struct bf_reader	*r;
	const struct bf_result	*br;
	const char		*p, *end = out + len, *nl;
	char			*cause = NULL, *name, *bench, *why;
	size_t			 i, nresults = 0, k;
	int			 rc;

	r = bf_reader_new("(stdout)", "stdout", out, len, NULL);
	while ((rc = bf_reader_next(r, &br, &cause)) == 1) {
		nresults++;
		bench = xstrndup(br->name, br->name_len);
		for (i = 0; i < br->nvalues; i++)
			sample_result_add_raw(res, bench, br->values[i].unit,
			    br->values[i].value);
		free(bench);
		/* The config in effect, once per key (run-level). */
		for (i = 0; i < br->nconfig; i++) {
			char	*kv = xasprintf("%s: %s", br->config[i].key,
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
	bf_reader_free(r);
	if (rc == -1) {
		sample_result_fail(res, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
		return -1;
	}
	for (p = out; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if ((name = fail_line_name(p, (size_t)(nl - p))) != NULL) {
			why = fail_reason(nl < end ? nl + 1 : end, end);
			sample_result_fail_benchmark(res, name,
			    why != NULL ? why : errtail != NULL &&
			    *errtail != '\0' ? errtail : "--- FAIL");
			free(why);
			free(name);
		}
		if (nl == end)
			break;
	}
	return (int)nresults;
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
	char			*how, *tail;
	size_t			 i;
	int			 n, nerr;

	memset(&st, 0, sizeof st);
	for (i = 0; i < o->args.n; i++)
		strvec_push_nodup(&argv, substitute(o->args.v[i], ctx, arm));
	/* abbench's own programs (startup-bench) run from the build tree. */
	if (argv.n > 0 && strchr(argv.v[0], '/') == NULL &&
	    !(wl->exec->caps & EXEC_CONTAINER)) {
		char	*found = libexec_find(argv.v[0], NULL);

		if (found != NULL) {
			free(argv.v[0]);
			argv.v[0] = found;
		}
	}
	nerr = o->err_lines;
	workload_spec_init(&spec, wl, arm, argv.v);
	spec.capture = 1;
	if (workload_run_program(ctx, wl, &spec, &proc, &st, out) == -1)
		goto done;
	tail = st.err != NULL ? last_lines(st.err, strlen(st.err), nerr) :
	    xstrdup("");
	if (st.timed_out) {
		sample_result_fail(out, SAMPLE_STATUS_TIMEOUT, "'%s' timed out%s%s",
		    argv.v[0], *tail ? ": " : "", tail);
		free(tail);
		goto done;
	}
	n = gobench_parse_output(st.out != NULL ? st.out : "", st.outlen,
	    tail, out);
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
	free(tail);
done:
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
	const struct gobench_opts	*o;
	size_t				 j;

	for (j = 0; j < e->narms; j++) {
		o = wl_opts(wl, &e->arms[j]);
		if (o->args.n > 0 && workload_check_program(e, wl,
		    &e->arms[j], o->args.v[0], NULL, cause) == -1)
			return -1;
	}
	return 0;
}

const struct workload_ops wl_gobench_ops = {
	.type = "gobench",
	.help = "run a program that prints Go benchmark format, store every "
	    "result",
	.opts = gobench_opts,
	.opts_size = sizeof(struct gobench_opts),
	.default_exec = "local",
	.sample = gobench_sample,
	.cgroup_optional = 1,
	.preflight = gobench_preflight,
};
