/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `command`: time one execution of an argv per sample, like
 * hyperfine with no shell: wall time from spawn (just before clone) to
 * reap, less the child's join of its cgroup (sec/op: exec/spawn.h's
 * start_ns), and on
 * request user and system CPU time and the peak RSS from wait4. An arm's
 * `args` replaces the workload's; its env.NAME keys are added.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "exec/exec.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "workloads/workload.h"

struct command_opts {
	struct strvec	 args;
	int		 args_set;
	struct strvec	 report;
	char		*cwd;
	struct strvec	 ok_status;
	char		*perf;
	int		 starts_containers;
};
#define CMD(member)	OPT_AT(struct command_opts, member)

static const struct opt_spec command_opts[] = {
	OPT_WORDS("args", CMD(args), NULL,
	    "the program and its arguments (no shell: write sh -c yourself)",
	    .flags = OPT_ARM, .given = CMD(args_set)),
	OPT_WORDS("report", CMD(report), "time",
	    "metrics to report: time (sec/op), user (user-sec/op), "
	    "sys (sys-sec/op), cpu (user + sys: cpu-sec/op), rss "
	    "(max-rss-B: the peak RSS of the program and of the children "
	    "it waited for, ru_maxrss; it is started from a small helper "
	    "process, so abbench's own size does not count, but the "
	    "helper's RSS, about 0.7 MiB, is a floor; to check, "
	    "ABBENCH_DEBUG_BALLAST=256m makes abbench hold 256 MiB); "
	    "cpu is the program's CPU time to the ns, user and sys the "
	    "kernel's split of it by where its clock ticks fell (4 ms apart "
	    "at HZ 250): a program of a few ms has nearly all of it in one "
	    "and 0 in the other, so compare such a program's cpu"),
	OPT_STR("cwd", CMD(cwd), NULL, "working directory of the program"),
	OPT_INTS("ok-status", CMD(ok_status), "0", 0, 255,
	    "exit statuses that count as success"),
	OPT_STR("perf", CMD(perf), NULL, WL_PERF_HELP, .flags = OPT_NOMATRIX),
	OPT_BOOL("starts-containers", CMD(starts_containers), "no",
	    WL_STARTS_CONTAINERS_HELP(""), .flags = OPT_NOMATRIX),
	OPT_END
};

static const char *const report_words[] = {
	"time", "user", "sys", "cpu", "rss", NULL
};

static int
command_validate(const struct experiment *e, struct workload *wl,
    char **cause)
{
	const struct command_opts	*o = wl_opts(wl, NULL);
	size_t				 i, j, k;

	for (j = 0; j < e->narms; j++) {
		if (!((const struct command_opts *)wl_opts(wl,
		    &e->arms[j]))->args_set) {
			return set_cause(cause, "args: missing: set it on "
			    "[workload %s] or on every arm (arm '%s' has "
			    "none)", wl->base, e->arms[j].name);
		}
	}
	if (workload_perf_validate(e, wl, o->perf, cause) == -1)
		return -1;
	for (i = 0; i < o->report.n; i++) {
		for (k = 0; report_words[k] != NULL; k++) {
			if (strcmp(o->report.v[i], report_words[k]) == 0)
				break;
		}
		if (report_words[k] == NULL)
			return set_cause(cause, "report: unknown metric '%s' "
			    "(use time, user, sys, cpu, rss)",
			    o->report.v[i]);
	}
	return 0;
}

/* Each arm's program is there and runnable, before any sample. */
static int
command_preflight(const struct experiment *e, const struct workload *wl,
    char **cause)
{
	return workload_check_programs(e, wl,
	    offsetof(struct command_opts, args),
	    offsetof(struct command_opts, cwd), cause);
}

static void
command_program(const struct workload *wl, const struct arm *arm,
    struct strvec *argv)
{
	const struct command_opts	*o = wl_opts(wl, arm);
	size_t				 i;

	for (i = 0; i < o->args.n; i++)
		strvec_push(argv, o->args.v[i]);
}

static double
tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void
command_sample(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out)
{
	const struct command_opts *o = wl_opts(wl, arm);
	const struct strvec	*report = &o->report, *okst = &o->ok_status;
	char *const		*argv = o->args.v;
	struct exec_spec	 spec;
	struct exec_status	 st;
	struct exec_proc	*proc = NULL;
	struct wl_counts	 counts;
	char			*how;
	int			 ok = 0;
	size_t			 i;

	/* With the arm's cpu and memory limits, if it sets them. */
	workload_spec_init(&spec, wl, arm, argv);
	/* Only then: the spawn helper costs a round trip per sample. */
	spec.own_rss = strvec_has(report, "rss");
	/* One at a time: born in the run's cgroup abbench sits in (v1). */
	spec.home = 1;
	if (workload_run_counted(ctx, wl, &spec, o->perf, &counts, &proc,
	    &st, out) == -1)
		goto done;
	if (st.timed_out) {
		sample_result_fail(out, SAMPLE_STATUS_TIMEOUT,
		    "'%s' timed out after %.3gs", argv[0],
		    (double)(st.end_ns - st.start_ns) / 1e9);
		goto done;
	}
	if (WIFEXITED(st.status)) {
		for (i = 0; i < okst->n; i++) {
			if (atoi(okst->v[i]) == WEXITSTATUS(st.status))
				ok = 1;
		}
	}
	if (!ok) {
		how = exec_status_describe(&st);
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "'%s' %s%s%s",
		    argv[0], how, st.err && *st.err ? ": " : "",
		    st.err ? st.err : "");
		free(how);
		goto done;
	}
	if (strvec_has(report, "time"))
		sample_result_add(out, wl->name, "sec/op",
		    (double)(st.end_ns - st.start_ns) / 1e9);
	if (strvec_has(report, "user"))
		sample_result_add(out, wl->name, "user-sec/op",
		    tv_sec(&st.ru.ru_utime));
	if (strvec_has(report, "sys"))
		sample_result_add(out, wl->name, "sys-sec/op",
		    tv_sec(&st.ru.ru_stime));
	/* The kernel splits the exact CPU time into user and system by
	 * sampling at ticks: their sum is exact, each part is not. */
	if (strvec_has(report, "cpu"))
		sample_result_add(out, wl->name, "cpu-sec/op",
		    tv_sec(&st.ru.ru_utime) + tv_sec(&st.ru.ru_stime));
	if (strvec_has(report, "rss"))
		sample_result_add(out, wl->name, "max-rss-B",
		    (double)st.ru.ru_maxrss * 1024.0);
	workload_counts_add(out, wl->name, &counts);
done:
	workload_counts_release(&counts);
	if (proc != NULL)
		wl->exec->destroy(ctx, proc);
	exec_status_release(&st);
}

/*
 * max-rss-B: the programs are started from the spawn helper, a small
 * process of its own (exec/spawn.h). Start it before the first sample,
 * so that no sample's time includes it.
 */
static int
command_prepare(struct run_ctx *ctx, struct workload *wl, char **cause)
{
	const struct command_opts	*o = wl_opts(wl, NULL);

	(void)ctx;
	if (!strvec_has(&o->report, "rss"))
		return 0;
	return spawn_helper_start(cause);
}

static const char *const command_units[] = {
	"sec/op", "lower", "user-sec/op", "lower", "sys-sec/op", "lower",
	"cpu-sec/op", "lower", "max-rss-B", "lower", NULL
};

const struct workload_ops wl_command_ops = {
	.type = "command",
	.help = "time one execution of a program per sample",
	.opts = command_opts,
	.opts_size = sizeof(struct command_opts),
	.default_exec = EXEC_DEFAULT_HOST,
	.own_program = 1,
	.validate = command_validate,
	.prepare = command_prepare,
	.sample = command_sample,
	.units = command_units,
	.cgroup_optional = 1,
	.preflight = command_preflight,
	.program = command_program,
};
