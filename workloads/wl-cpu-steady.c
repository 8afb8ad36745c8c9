/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `cpu-steady`: N sandboxes, each running one CPU program
 * (payload/cpu/: burner, tick, getppid) under a CPU quota on its own
 * cgroup or on a parent, measured over a window after a warm-up: host CPU
 * spent per unit of the programs' own CPU (overhead/app-cpu), host context
 * switches (/proc/stat ctxt, and perf where it works), work done, and
 * throttling where the limit is. The setting of the systrap and gofer
 * reports (shared/reference/001, 004).
 *
 * Timing: the programs print their counters at every multiple of
 * report-every of CLOCK_REALTIME (prog.h); the window starts and ends on
 * such instants, when the harness reads the cgroups and /proc/stat, so
 * both sides describe the same interval without signalling anything
 * mid-run. Their output is collected after the window (docker logs, or
 * SIGTERM and wait for a local process).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/quota.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "host/hostinfo.h"
#include "lib/proc.h"
#include "workloads/cpu-work.h"
#include "workloads/workload.h"

#define SANDBOX_BIN_DIR		"/abbench-cpu"
#define COLLECT_TIMEOUT_NS	(20 * NSEC_PER_SEC)
/* One read of a running sandbox's output. */
#define LOGS_TIMEOUT_NS		(60 * NSEC_PER_SEC)
#define PERF_TIMEOUT_NS		(10 * NSEC_PER_SEC)

/* How long a sandbox may take to appear in its cgroup. */
#define STEADY_CGROUP_WAIT_NS	(30 * NSEC_PER_SEC)
/* How long a program may take to report once its cgroup is there. */
#define STEADY_FIRST_REPORT_NS	(60 * NSEC_PER_SEC)
/* How often its output is looked at until then. */
#define STEADY_PEEK_EVERY_US	20000

/* The keys of a cpu-steady workload (steady_opts binds them). */
struct steady_opts {
	struct strvec	 program;
	char		*sandboxes;
	int		 quota;		/* enum quota_mode */
	char		*quota_name;
	double		 cpu;		/* 0: no limit */
	int		 cpu_set;	/* 2: by the arm */
	int64_t		 period;
	int64_t		 warmup;
	int64_t		 window;
	int64_t		 report_every;
	int		 perf;		/* enum steady_perf */
	int		 app_cpu;	/* enum steady_app_cpu */
	double		 overhead_floor;
	char		*program_dir;
};
/* In the order of the choices of `perf` and `app-cpu`. */
enum steady_perf { STEADY_PERF_AUTO, STEADY_PERF_YES, STEADY_PERF_NO };
enum steady_app_cpu { STEADY_APP_AUTO, STEADY_APP_SELF, STEADY_APP_STUB };
/* `quota` is bound as its index among "none leaf parent". */
_Static_assert(QUOTA_NONE == 0 && QUOTA_LEAF == 1 && QUOTA_PARENT == 2,
    "quota choices in enum quota_mode order");
#define STEADY(member)	OPT_AT(struct steady_opts, member)

static const struct opt_spec steady_opts[] = {
	OPT_WORDS("program", STEADY(program), "burner",
	    "burner, tick or getppid with optional flags, or a preset: "
	    "Burner, Tick1ms (tick -w 20 -p 1000), Tick10ms (-w 20 "
	    "-p 10000), Sparse50ms (-w 100 -p 50000), Getppid"),
	OPT_STR("sandboxes", STEADY(sandboxes), "1",
	    "number of sandboxes: N, or Kx for K per host vCPU (rounded, "
	    "at least 1)"),
	OPT_CHOICE("quota", STEADY(quota), "leaf", "none leaf parent",
	    "where the CPU limit is: none, leaf (the sandbox's own cgroup, "
	    "docker --cpus), parent (a cgroup made for each sandbox, the "
	    "sandbox below it with --cgroup-parent)",
	    .text = STEADY(quota_name)),
	OPT_FLOAT("cpu", STEADY(cpu), NULL, 0.01, 4096,
	    "CPU limit of each sandbox, in CPUs",
	    .flags = OPT_ARM, .given = STEADY(cpu_set)),
	OPT_DURATION("period", STEADY(period), "100ms", 0.001, 1,
	    "CFS period of the limit"),
	OPT_DURATION("warmup", STEADY(warmup), "5s", 0, 86400,
	    "time between the last program's first report (its start, where "
	    "the executor shows output as it comes) and the window"),
	OPT_DURATION("window", STEADY(window), "15s", 0.01, 86400,
	    "measurement window (rounded up to whole report-every)"),
	OPT_DURATION("report-every", STEADY(report_every), "1s", 0.01, 60,
	    "interval of the programs' counter reports; the window starts "
	    "and ends on one"),
	OPT_CHOICE("perf", STEADY(perf), "auto", "auto yes no",
	    "also count context switches with perf stat -a "
	    "(perf-ctxsw/s; auto: when perf works)"),
	OPT_CHOICE("app-cpu", STEADY(app_cpu), "auto", "auto self stub-user",
	    "the programs' CPU: self (their own CLOCK_PROCESS_CPUTIME_ID), "
	    "stub-user (host user time of the sandbox's stub processes, "
	    "where runsc runs app code: gVisor's own accounting counts "
	    "time the stub was preempted or throttled), auto: stub-user "
	    "for runsc, else self"),
	OPT_FLOAT("overhead-floor", STEADY(overhead_floor), "0.02", 0, 1,
	    "overhead/app-cpu is not reported when the application's CPU "
	    "is below this fraction of the sandbox's CPU (0.02: a ratio "
	    "above 49): the ratio then measures the noise of a near-zero "
	    "denominator (Getppid under ptrace: ~1%)"),
	OPT_STR("program-dir", STEADY(program_dir), NULL,
	    "where the programs are inside the image (default: the host's "
	    "are bind-mounted read-only at " SANDBOX_BIN_DIR ")"),
	OPT_END
};

struct steady_preset {
	const char	*name;		/* as written, any case */
	const char	*prog;		/* the binary */
	const char	*display;	/* the benchmark name */
	const char	*args[5];
};

static const struct steady_preset steady_presets[] = {
	{ "burner", "burner", "Burner", { NULL } },
	{ "tick", "tick", "Tick", { NULL } },
	{ "getppid", "getppid", "Getppid", { NULL } },
	{ "tick1ms", "tick", "Tick1ms", { "-w", "20", "-p", "1000", NULL } },
	{ "tick10ms", "tick", "Tick10ms",
	    { "-w", "20", "-p", "10000", NULL } },
	{ "sparse50ms", "tick", "Sparse50ms",
	    { "-w", "100", "-p", "50000", NULL } },
	{ NULL, NULL, NULL, { NULL } }
};

/* Per workload, from prepare. */
struct steady_priv {
	const struct steady_preset *preset;
	char		*host_path;	/* the program on the host */
	int		 perf;		/* use perf stat */
	unsigned	 samples;
};

/* One sandbox of a sample. */
struct sandbox {
	struct exec_proc	*proc;
	char			*usage_dir;	/* cpuacct (v1) / v2 dir */
	char			*cpu_dir;
	char			*thr_dir;	/* where the limit is */
	uint64_t		 usage[2];
	int64_t			 read_at[2];	/* wall ns, when usage was read */
	uint64_t		 stub_user[2];	/* ns, stub-user mode */
	struct cgrp_cpu_stat	 thr[2];
	char			*out;
	size_t			 outlen;
	int			 stopped;
};

static const struct steady_preset *
steady_find_preset(const char *word)
{
	const struct steady_preset	*p;

	for (p = steady_presets; p->name != NULL; p++) {
		if (strcasecmp(p->name, word) == 0)
			return p;
	}
	return NULL;
}

static long
steady_vcpus(void)
{
	/* The host's vCPUs as the run's "vcpus" key says: a node in a
	 * cpuset counts the CPUs it may use. */
	return hostinfo_vcpus();
}

/* "5" or "2.5x" (per vCPU). */
static int
steady_parse_sandboxes(const char *s, long vcpus, long *n, char **cause)
{
	size_t	 l = strlen(s);
	double	 d;
	char	*copy;
	int	 r;

	if (l > 1 && (s[l - 1] == 'x' || s[l - 1] == 'X')) {
		copy = xstrndup(s, l - 1);
		r = parse_double(copy, &d, NULL);
		free(copy);
		if (r != 0 || !(d > 0) || d > 1e4)
			return set_cause(cause, "sandboxes: bad '%s' (N or "
			    "Kx per vCPU)", s);
		*n = lround(d * (double)vcpus);
		if (*n < 1)
			*n = 1;
		return 0;
	}
	{
		long long	ll;

		if (parse_int(s, 1, 100000, &ll, NULL) != 0)
			return set_cause(cause, "sandboxes: bad '%s' (N or "
			    "Kx per vCPU)", s);
		*n = (long)ll;
	}
	return 0;
}

static int
steady_validate(const struct experiment *e, struct workload *wl,
    char **cause)
{
	const struct steady_opts	*o = wl_opts(wl, NULL), *ao;
	const struct strvec		*prog = &o->program;
	long				 n;
	size_t				 j;

	if (prog->n == 0 || steady_find_preset(prog->v[0]) == NULL)
		return set_cause(cause, "program: unknown '%s' (use burner, "
		    "tick, getppid, Tick1ms, Tick10ms, Sparse50ms)",
		    prog->n ? prog->v[0] : "");
	if (prog->n > 1 && steady_find_preset(prog->v[0])->args[0] != NULL)
		return set_cause(cause, "program: preset '%s' takes no flags",
		    prog->v[0]);
	if (steady_parse_sandboxes(o->sandboxes, steady_vcpus(), &n,
	    cause) == -1)
		return -1;
	if (quota_check_executor((enum quota_mode)o->quota, wl->exec,
	    cause) == -1)
		return -1;
	if (o->quota != QUOTA_NONE) {
		for (j = 0; j < e->narms; j++) {
			ao = wl_opts(wl, &e->arms[j]);
			if (!ao->cpu_set)
				return set_cause(cause, "cpu: quota '%s' needs "
				    "a cpu limit (on [workload %s] or on arm "
				    "'%s')", o->quota_name, wl->base,
				    e->arms[j].name);
		}
	}
	/* The kernel takes no quota under 1 ms (cpu.max and v1's
	 * cpu.cfs_quota_us alike: EINVAL at the first sample). */
	for (j = e->narms + 1; j-- > 0; ) {
		double	us;

		/* The workload's first, then each arm that changes it. */
		ao = wl_opts(wl, j < e->narms ? &e->arms[j] : NULL);
		if (j < e->narms && ao->cpu == o->cpu &&
		    ao->period == o->period)
			continue;
		us = ao->cpu * (double)ao->period / 1000.0;
		if (ao->quota != QUOTA_NONE && ao->cpu > 0 && us < 1000 - 0.5)
			return set_cause(cause, "cpu: %g CPU per period of "
			    "%g ms%s%s%s is a quota of %.0f us, under the "
			    "kernel's minimum of 1000 us (raise cpu or "
			    "period)", ao->cpu, (double)ao->period / 1e6,
			    j < e->narms ? " (arm '" : "",
			    j < e->narms ? e->arms[j].name : "",
			    j < e->narms ? "')" : "", us);
	}
	return 0;
}

static int
steady_perf_works(void)
{
	char *const	 argv[] = { "perf", "stat", "-x,", "-e",
	    "context-switches", "-a", "--", "true", NULL };
	char		*out = NULL, *err = NULL;
	int		 status = -1, ok = 0;
	double		 v;

	if (spawn_capture(argv, PERF_TIMEOUT_NS, &out, &err, &status,
	    NULL) == 0 && status == 0 && err != NULL &&
	    cpuwork_perf_count(err, "context-switches", &v) == 0)
		ok = 1;
	free(out);
	free(err);
	return ok;
}

static int
steady_prepare(struct run_ctx *ctx, struct workload *wl, char **cause)
{
	const struct steady_opts *o = wl_opts(wl, NULL);
	struct steady_priv	*sp;

	(void)ctx;
	if (wl->priv != NULL)
		return 0;
	sp = xcalloc(1, sizeof *sp);
	/* validate() saw a known preset: no default here. */
	sp->preset = steady_find_preset(o->program.n ? o->program.v[0] : "");
	if (sp->preset == NULL) {
		free(sp);
		return set_cause(cause, "program: unknown");
	}
	sp->host_path = libexec_find(sp->preset->prog, cause);
	if (sp->host_path == NULL) {
		free(sp);
		return -1;
	}
	if (o->perf != STEADY_PERF_NO) {
		sp->perf = steady_perf_works();
		if (!sp->perf && o->perf == STEADY_PERF_YES) {
			free(sp->host_path);
			free(sp);
			return set_cause(cause, "perf: 'perf stat -a -e "
			    "context-switches' does not work here");
		}
	}
	wl->priv = sp;
	return 0;
}

static void
steady_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	struct steady_priv	*sp = wl->priv;

	(void)ctx;
	if (sp == NULL)
		return;
	free(sp->host_path);
	free(sp);
	wl->priv = NULL;
}

/*
 * The benchmark name: Display/vcpus=V/sandboxes=N[/cpu=C][/quota=Q]
 * [/axis=v...].
 */
static char *
steady_name(const struct workload *wl, const struct arm *arm,
    const struct steady_preset *ps, long vcpus, long n, double cpus)
{
	const struct steady_opts *o = wl_opts(wl, arm);
	struct strbuf		 sb = STRBUF_INIT;
	const char		*q;
	size_t			 i;

	strbuf_addf(&sb, "%s/vcpus=%ld/sandboxes=%ld", ps->display, vcpus, n);
	/* A limit set on the arm is what the arms compare: not in the name. */
	if (o->cpu_set != 2) {
		if (cpus > 0)
			strbuf_addf(&sb, "/cpu=%g", cpus);
		else
			strbuf_adds(&sb, "/cpu=none");
	}
	/* The reports' names leave the leaf quota implicit. */
	q = o->quota_name;
	for (i = 0; i < wl->naxes; i++) {
		if (strcmp(wl->axes[i].key, "quota") == 0)
			q = NULL;
	}
	/* No quota reads "noquota", as the seed reports name it. */
	if (q != NULL && strcmp(q, "none") == 0)
		strbuf_adds(&sb, "/noquota");
	else if (q != NULL && strcmp(q, "leaf") != 0)
		strbuf_addf(&sb, "/quota=%s", q);
	for (i = 0; i < wl->naxes; i++) {
		const char	*k = wl->axes[i].key;

		if (strcmp(k, "program") == 0 || strcmp(k, "sandboxes") == 0 ||
		    strcmp(k, "cpu") == 0)
			continue;
		if (strcmp(k, "quota") == 0 &&
		    strcmp(wl->axes[i].value, "none") == 0)
			strbuf_adds(&sb, "/noquota");
		else
			strbuf_addf(&sb, "/%s=%s", k, wl->axes[i].value);
	}
	return strbuf_detach(&sb);
}

/* Sleep until the CLOCK_REALTIME instant t; 0, or -1 when told to stop. */
static int
steady_sleep_until(struct run_ctx *ctx, int64_t t)
{
	struct timespec	ts;
	int64_t		now, step;

	while ((now = now_wall_ns()) < t) {
		if (run_should_stop(ctx))
			return -1;
		step = t - now;
		if (step > 200000000)
			step = 200000000;
		ts.tv_sec = (now + step) / NSEC_PER_SEC;
		ts.tv_nsec = (now + step) % NSEC_PER_SEC;
		(void)clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
	}
	return run_should_stop(ctx) ? -1 : 0;
}

static int
steady_read_ctxt(uint64_t *ctxt, char **cause)
{
	char	*text = read_file("/proc/stat", NULL, cause);
	int	 r;

	if (text == NULL)
		return -1;
	r = cpuwork_proc_stat_ctxt(text, ctxt);
	free(text);
	if (r == -1)
		return set_cause(cause, "no ctxt line in '/proc/stat'");
	return 0;
}

/*
 * User CPU time (ns, tick resolution) of the processes in a cgroup whose
 * command line is empty: runsc's stubs, where the application's code runs
 * (the sandbox and gofer have theirs). What perf record -a would call the
 * application's own CPU.
 */
static int
steady_stub_user(const char *dir, uint64_t *ns, char **cause)
{
	char		*path, *text, *p;
	long		 hz = sysconf(_SC_CLK_TCK);
	uint64_t	 ticks = 0;

	path = xasprintf("%s/cgroup.procs", dir);
	text = read_file(path, NULL, cause);
	free(path);
	if (text == NULL)
		return -1;
	for (p = text; *p != '\0'; ) {
		long			 pid = strtol(p, &p, 10);
		struct proc_stat	 s;
		char			*cmd;
		size_t			 cl = 0;

		while (*p == '\n')
			p++;
		if (pid <= 0)
			break;
		cmd = proc_read(pid, "cmdline", &cl);
		free(cmd);
		if (cmd == NULL || cl > 0)
			continue;
		if (proc_stat(pid, &s) == 0)
			ticks += s.utime;
	}
	free(text);
	*ns = hz > 0 ? ticks * ((uint64_t)NSEC_PER_SEC / (uint64_t)hz) : 0;
	return 0;
}

/* Read every sandbox's usage and throttling into slot k (0 or 1). */
static int
steady_read_all(struct sandbox *sb, size_t n, int version, int k,
    int stub, char **cause)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (stub && steady_stub_user(sb[i].usage_dir,
		    &sb[i].stub_user[k], cause) == -1)
			return -1;
		if (cgrp_dir_cpu_usage(sb[i].usage_dir, version,
		    &sb[i].usage[k], cause) == -1)
			return -1;
		sb[i].read_at[k] = now_wall_ns();
		if (sb[i].thr_dir != NULL && cgrp_dir_cpu_stat(sb[i].thr_dir,
		    version, &sb[i].thr[k], cause) == -1)
			return -1;
	}
	return 0;
}

/* Get the programs' output after the window. */
static int
steady_collect(struct run_ctx *ctx, const struct exec_ops *ex,
    struct sandbox *sb, size_t n, int64_t t1, char **cause)
{
	struct exec_status	 st;
	int64_t			 deadline = now_mono_ns() + COLLECT_TIMEOUT_NS;
	size_t			 i;

	if (ex->logs != NULL) {
		/* The container keeps running; its log has the lines. */
		for (i = 0; i < n; i++) {
			for (;;) {
				struct cpuwork_report	*r = NULL;
				const struct cpuwork_report *at;
				size_t			 nr = 0;
				char			*out = NULL;

				if (ex->logs(sb[i].proc, LOGS_TIMEOUT_NS, &out,
				    cause) == -1)
					return -1;
				free(sb[i].out);
				sb[i].out = out;
				sb[i].outlen = strlen(out);
				if (cpuwork_parse_output(out, sb[i].outlen, &r,
				    &nr, NULL) == 0 &&
				    cpuwork_at(r, nr, t1, &at, NULL) == 0) {
					free(r);
					break;
				}
				free(r);
				if (now_mono_ns() > deadline ||
				    run_should_stop(ctx))
					break;
				usleep(200000);
			}
		}
		return 0;
	}
	/* SIGTERM makes the program report and exit (to the process, or
	 * through the runtime); otherwise it exits on its own (-d). */
	for (i = 0; i < n && ex->signal != NULL; i++)
		(void)ex->signal(sb[i].proc, SIGTERM, NULL);
	for (i = 0; i < n; i++) {
		int64_t	dl = ctx->deadline_ns > 0 ? ctx->deadline_ns :
		    deadline;

		memset(&st, 0, sizeof st);
		if (ex->wait(ctx, sb[i].proc, dl, &st, cause) == -1)
			return -1;
		sb[i].stopped = 1;
		sb[i].out = st.out;
		sb[i].outlen = st.outlen;
		st.out = NULL;
		exec_status_release(&st);
	}
	return 0;
}

/* One sample of cpu-steady, from setup through measure to collect. */
struct steady_run {
	struct run_ctx		*ctx;
	struct workload		*wl;
	const struct arm	*arm;
	struct steady_priv	*sp;
	const struct exec_ops	*ex;
	struct quota		 q;
	int			 have_q;
	enum quota_mode		 mode;
	long			 n;		/* sandboxes */
	double			 cpus;
	int			 stub;		/* app CPU from the stub */
	int			 version;	/* cgroup v1 or v2 */
	int64_t			 warmup, window, every, period;
	int64_t			 t0, t1;	/* the window, wall clock */
	struct strvec		 argv;		/* the program in a sandbox */
	struct exec_mount	 mnt;		/* its directory, if bound */
	char			*hostdir;
	struct sandbox		*sb;
	size_t			 started;
	struct child		 perf;
	char			*perf_argv[10];
	char			 perf_secs[32];
	int			 perf_running;
	int64_t			 perf_start, perf_end;
	double			 perf_count;
	uint64_t		 ctxt0, ctxt1;
	char			*name;		/* the benchmark */
};

/* Setup: the sample's keys, its name and the quota cgroups. */
static int
steady_setup(struct steady_run *r, char **cause)
{
	struct workload		*wl = r->wl;
	const struct arm	*arm = r->arm;
	const struct steady_opts *o = wl_opts(wl, arm);
	long			 vcpus = steady_vcpus();
	char			 tag[32];

	if (steady_parse_sandboxes(o->sandboxes, vcpus, &r->n, cause) == -1 ||
	    quota_mode_parse(o->quota_name, &r->mode, cause) == -1)
		return -1;
	r->cpus = o->cpu;
	r->warmup = o->warmup;
	r->window = o->window;
	r->every = o->report_every;
	r->period = o->period;
	if (r->every < 10000000)
		r->every = 10000000;
	r->window = (r->window + r->every - 1) / r->every * r->every;
	r->name = steady_name(wl, arm, r->sp->preset, vcpus, r->n, r->cpus);
	r->stub = o->app_cpu == STEADY_APP_STUB || (o->app_cpu ==
	    STEADY_APP_AUTO &&
	    (r->ex->caps & EXEC_CONTAINER) && arm->runtime != NULL &&
	    strstr(arm->runtime, "runsc") != NULL);

	snprintf(tag, sizeof tag, "cs%d", r->ctx->entry != NULL ?
	    r->ctx->entry->idx : (int)r->sp->samples);
	r->sp->samples++;
	if (quota_setup(r->ctx, &r->q, r->mode, r->cpus, r->period / 1000,
	    (size_t)r->n, tag, cause) == -1)
		return -1;
	r->have_q = 1;
	return 0;
}

/* Setup: argv of the program inside a sandbox, its flags, -d and -i. */
static void
steady_argv(struct steady_run *r)
{
	const struct steady_preset	*preset = r->sp->preset;
	const struct steady_opts	*o = wl_opts(r->wl, r->arm);
	const struct strvec		*prog = &o->program;
	const char			*pdir = o->program_dir;
	size_t				 i;

	memset(&r->mnt, 0, sizeof r->mnt);
	if (!(r->ex->caps & EXEC_CONTAINER))
		strvec_push(&r->argv, r->sp->host_path);
	else if (pdir != NULL)
		strvec_pushf(&r->argv, "%s/%s", pdir, preset->prog);
	else {
		r->hostdir = xstrdup(r->sp->host_path);
		*strrchr(r->hostdir, '/') = '\0';
		r->mnt.type = "bind";
		r->mnt.source = r->hostdir;
		r->mnt.target = SANDBOX_BIN_DIR;
		r->mnt.options = "ro";
		strvec_pushf(&r->argv, "%s/%s", SANDBOX_BIN_DIR, preset->prog);
	}
	for (i = 0; preset->args[i] != NULL; i++)
		strvec_push(&r->argv, preset->args[i]);
	for (i = 1; i < prog->n; i++)
		strvec_push(&r->argv, prog->v[i]);
	/* A safety net: every program ends by itself a minute after the
	 * window would end if all went slowly. */
	strvec_push(&r->argv, "-d");
	strvec_pushf(&r->argv, "%.3f", (double)(r->warmup + r->window) / 1e9 +
	    60.0 + 2.0 * (double)r->n);
	strvec_push(&r->argv, "-i");
	strvec_pushf(&r->argv, "%.3f", (double)r->every / 1e6);
}

/* Setup: start the sandboxes and find the cgroups to read. */
static int
steady_start(struct steady_run *r, char **cause)
{
	struct exec_spec	 spec;
	struct sandbox		*sb;
	size_t			 i;

	r->sb = xcalloc((size_t)r->n, sizeof *r->sb);
	for (i = 0; i < (size_t)r->n; i++) {
		workload_spec_init(&spec, r->wl, r->arm, r->argv.v);
		spec.capture = 1;
		spec.detach = 1;
		if (r->mnt.type != NULL) {
			spec.mounts = &r->mnt;
			spec.nmounts = 1;
		}
		quota_apply_spec(&r->q, i, &spec);
		if (r->ex->start(r->ctx, &spec, &r->sb[i].proc, cause) == -1) {
			char	*c = xasprintf("sandbox %zu of %ld: %s", i + 1,
			    r->n, *cause);

			free(*cause);
			*cause = c;
			return -1;
		}
		r->started++;
		if (run_should_stop(r->ctx))
			return set_cause(cause, "interrupted");
	}
	for (i = 0; i < (size_t)r->n; i++) {
		/*
		 * An executor that starts asynchronously (oci's `run`) has
		 * a cgroup only once the runtime has made the container.
		 */
		int64_t	until = now_mono_ns() + STEADY_CGROUP_WAIT_NS;

		sb = &r->sb[i];
		for (;;) {
			sb->usage_dir = r->ex->cgroup_dir(sb->proc,
			    r->version == 2 ? NULL : "cpuacct");
			sb->cpu_dir = r->ex->cgroup_dir(sb->proc,
			    r->version == 2 ? NULL : "cpu");
			if ((sb->usage_dir != NULL && sb->cpu_dir != NULL) ||
			    now_mono_ns() > until || run_should_stop(r->ctx))
				break;
			free(sb->usage_dir);
			free(sb->cpu_dir);
			sb->usage_dir = sb->cpu_dir = NULL;
			usleep(20000);
		}
		if (sb->usage_dir == NULL || sb->cpu_dir == NULL)
			return set_cause(cause, "sandbox %zu of %ld: no cgroup "
			    "(did it exit?)", i + 1, r->n);
		if (quota_fix_leaf(&r->q, sb->cpu_dir, cause) == -1)
			return -1;
		sb->thr_dir = quota_throttle_dir(&r->q, i, sb->cpu_dir);
	}
	return 0;
}

/* Measure: perf stat -a over the window, when asked for. */
static int
steady_perf_start(struct steady_run *r, char **cause)
{
	static const char *const argv[] = { "perf", "stat", "-x,", "-e",
	    "context-switches", "-a", "--", "sleep" };
	size_t			 i;

	for (i = 0; i < ARRAY_SIZE(argv); i++)
		r->perf_argv[i] = (char *)argv[i];
	snprintf(r->perf_secs, sizeof r->perf_secs, "%.3f",
	    (double)r->window / 1e9);
	r->perf_argv[i++] = r->perf_secs;
	r->perf_argv[i] = NULL;
	r->perf.argv = r->perf_argv;
	r->perf.flags = SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
	r->perf_start = now_mono_ns();
	if (spawn_start(&r->perf, cause) == -1)
		return -1;
	r->perf_running = 1;
	return 0;
}

/*
 * Measure: wait for each program's first report (its "start" line). The
 * warm-up counts from there, not from the start requests: a runtime may
 * take seconds between making a container's cgroup and running its
 * program (runc under emulation, a loaded host), and a window opened
 * before a program runs has no report at its start. Executors that
 * cannot show a running program's output keep the old count.
 */
static int
steady_first_reports(struct steady_run *r, char **cause)
{
	const struct exec_ops	*ex = r->ex;
	int64_t			 until = now_mono_ns() +
				    STEADY_FIRST_REPORT_NS;
	size_t			 i;

	if (ex->peek == NULL)
		return 0;
	if (r->ctx->deadline_ns > 0 && r->ctx->deadline_ns < until)
		until = r->ctx->deadline_ns;
	for (i = 0; i < (size_t)r->n; i++) {
		for (;;) {
			const char		*out = ex->peek(r->sb[i].proc);
			struct cpuwork_report	*rep = NULL;
			size_t			 nr = 0;
			int			 ok;

			ok = cpuwork_parse_output(out, strlen(out), &rep, &nr,
			    NULL) == 0 && nr > 0;
			free(rep);
			if (ok)
				break;
			if (run_should_stop(r->ctx))
				return set_cause(cause, "interrupted");
			if (now_mono_ns() > until) {
				char	*tail = last_lines(out, strlen(out), 2);

				set_cause(cause, "sandbox %zu of %ld: '%s' did "
				    "not report within %.0f s of its start "
				    "(output: %s)", i + 1, r->n,
				    r->sp->preset->prog,
				    (double)STEADY_FIRST_REPORT_NS / 1e9,
				    *tail ? strtrim(tail) : "none");
				free(tail);
				return -1;
			}
			usleep(STEADY_PEEK_EVERY_US);
		}
	}
	return 0;
}

/*
 * The window is set on the wall clock, the one the programs in their
 * sandboxes report on. A step of it between the two reads (settimeofday,
 * an NTP step, a VM's clock set after a pause) leaves the reads a
 * different stretch apart than the reports: a forward step of 2.2 s in a
 * 3 s window would read a quarter of the cgroups' CPU against a whole
 * window of the programs' work. Wall and monotonic time between the reads
 * may differ by this much (an NTP slew of 500 ppm: 1.5 ms in 3 s) before
 * the window is taken again, at most STEADY_WINDOW_TRIES times.
 */
#define STEADY_CLOCK_STEP_NS	(20 * 1000000)
#define STEADY_WINDOW_TRIES	3

/* One window: read at t0 and at t1; the wall clock's step between the
 * reads against the monotonic clock's into *step. */
static int
steady_window(struct steady_run *r, int64_t *step, char **cause)
{
	struct run_ctx	*ctx = r->ctx;
	size_t		 n = (size_t)r->n;
	int64_t		 w0, m0, w1, m1;

	/* The window: whole report intervals after the warm-up. */
	r->t0 = (now_wall_ns() + r->warmup + r->every - 1) / r->every *
	    r->every;
	r->t1 = r->t0 + r->window;
	if (ctx->deadline_ns > 0 && now_mono_ns() + (r->t1 - now_wall_ns()) +
	    COLLECT_TIMEOUT_NS > ctx->deadline_ns)
		return set_cause(cause, "the sample's timeout is too short "
		    "for warmup + window (%.1fs)",
		    (double)(r->t1 - now_wall_ns()) / 1e9);
	if (steady_sleep_until(ctx, r->t0) == -1)
		return set_cause(cause, "interrupted");
	w0 = now_wall_ns();
	m0 = now_mono_ns();
	if (steady_read_ctxt(&r->ctxt0, cause) == -1 ||
	    steady_read_all(r->sb, n, r->version, 0, r->stub, cause) == -1)
		return -1;
	if (r->sp->perf && steady_perf_start(r, cause) == -1)
		return -1;
	if (steady_sleep_until(ctx, r->t1) == -1)
		return set_cause(cause, "interrupted");
	if (steady_read_all(r->sb, n, r->version, 1, r->stub, cause) == -1 ||
	    steady_read_ctxt(&r->ctxt1, cause) == -1)
		return -1;
	w1 = now_wall_ns();
	m1 = now_mono_ns();
	*step = (w1 - w0) - (m1 - m0);
	if (r->perf_running) {
		if (spawn_wait(&r->perf, now_mono_ns() + PERF_TIMEOUT_NS,
		    cause) == -1)
			return -1;
		r->perf_end = r->perf.end_ns;
		r->perf_running = 0;
		if (!r->perf.timed_out && r->perf.status == 0 &&
		    r->perf.err.buf && cpuwork_perf_count(r->perf.err.buf,
		    "context-switches", &r->perf_count) == -1)
			r->perf_count = -1;
	}
	return 0;
}

/* Measure: wait out the warm-up, read at t0 and at t1 (again after a
 * step of the wall clock), collect output. */
static int
steady_measure(struct steady_run *r, char **cause)
{
	int64_t	step = 0;
	int	try;

	if (steady_first_reports(r, cause) == -1)
		return -1;
	for (try = 1; ; try++) {
		if (steady_window(r, &step, cause) == -1)
			return -1;
		if (step <= STEADY_CLOCK_STEP_NS &&
		    step >= -STEADY_CLOCK_STEP_NS)
			break;
		if (try == STEADY_WINDOW_TRIES)
			return set_cause(cause, "the wall clock was stepped "
			    "in each of %d windows (the last: %+.3f s against "
			    "the monotonic clock): no window to measure",
			    try, (double)step / 1e9);
		warning("%s: the wall clock was stepped by %+.3f s during "
		    "the window (against the monotonic clock): the window "
		    "is taken again", r->name, (double)step / 1e9);
	}
	return steady_collect(r->ctx, r->ex, r->sb, (size_t)r->n, r->t1,
	    cause);
}

/* Collect: one sandbox's share of the window into w, and what it was
 * made of into cfg, a line (what explains a value). */
static int
steady_sum_one(struct steady_run *r, size_t i, struct cpuwork_window *w,
    struct strvec *cfg, char **cause)
{
	struct sandbox			*sb = &r->sb[i];
	struct cpuwork_report		*rep = NULL;
	const struct cpuwork_report	*a0, *a1;
	size_t				 nr = 0;
	uint64_t			 d, units, self_ns, stub_ns = 0;
	uint64_t			 thr_p = 0, thr_n = 0;
	int				 stub_ok = 0;
	char				 stubtxt[64];

	if (cpuwork_parse_output(sb->out ? sb->out : "", sb->outlen, &rep,
	    &nr, cause) == -1)
		return -1;
	if (cpuwork_at(rep, nr, r->t0, &a0, NULL) == -1 ||
	    cpuwork_at(rep, nr, r->t1, &a1, NULL) == -1 ||
	    a1->units < a0->units || a1->cpu_ns < a0->cpu_ns) {
		char	*tail = last_lines(sb->out ? sb->out : "",
		    sb->outlen, 2);

		set_cause(cause, "sandbox %zu of %ld: '%s' did not report "
		    "across the window (%zu reports; last output: %s)", i + 1,
		    r->n, r->sp->preset->prog, nr,
		    *tail ? strtrim(tail) : "none");
		free(tail);
		free(rep);
		return -1;
	}
	units = a1->units - a0->units;
	self_ns = a1->cpu_ns - a0->cpu_ns;
	w->units += (double)units;
	if (!r->stub)
		w->app_cpu_ns += (double)self_ns;
	free(rep);	/* a0 and a1 point into it */
	if (r->stub && (stub_ok = cpuwork_delta(sb->stub_user[0],
	    sb->stub_user[1], &stub_ns) == 0))
		w->app_cpu_ns += (double)stub_ns;
	if (cpuwork_delta(sb->usage[0], sb->usage[1], &d) == -1)
		return set_cause(cause, "sandbox %zu: cgroup CPU usage went "
		    "backwards", i + 1);
	/*
	 * Over the window: the reads come a little after t0 and t1, each
	 * late by what the harness waited for a CPU (under a loaded host or
	 * emulation, a third of a second: 6% of a 6 s window at 0.25 CPU).
	 * The usage is scaled from the interval between the reads to the
	 * window, the one the programs' reports describe.
	 */
	if (sb->read_at[1] > sb->read_at[0])
		w->sandbox_cpu_ns += (double)d * (double)(r->t1 - r->t0) /
		    (double)(sb->read_at[1] - sb->read_at[0]);
	else
		w->sandbox_cpu_ns += (double)d;
	/* A parent or leaf per sandbox: each counted once. */
	if (sb->thr_dir != NULL) {
		if (cpuwork_delta(sb->thr[0].nr_periods, sb->thr[1].nr_periods,
		    &thr_p) == 0)
			w->nr_periods += thr_p;
		if (cpuwork_delta(sb->thr[0].nr_throttled,
		    sb->thr[1].nr_throttled, &thr_n) == 0)
			w->nr_throttled += thr_n;
		if (cpuwork_delta(sb->thr[0].throttled_ns,
		    sb->thr[1].throttled_ns, &d) == 0)
			w->throttled_ns += d;
	}
	if (!r->stub)
		stubtxt[0] = '\0';
	else if (stub_ok)
		snprintf(stubtxt, sizeof stubtxt, ", stub user %.3fs",
		    (double)stub_ns / 1e9);
	else
		snprintf(stubtxt, sizeof stubtxt, ", stub user went "
		    "backwards (not counted)");
	strvec_pushf(cfg, "sandbox-%zu: cgroup %s: cpu usage %.3fs between "
	    "reads %.3fs apart (window %.3fs, reads %+.3fs and %+.3fs from "
	    "its ends); program: %" PRIu64 " units, own cpu %.3fs%s; "
	    "throttled %" PRIu64 " of %" PRIu64 " periods", i + 1,
	    sb->usage_dir, (double)(sb->usage[1] - sb->usage[0]) / 1e9,
	    (double)(sb->read_at[1] - sb->read_at[0]) / 1e9,
	    (double)(r->t1 - r->t0) / 1e9,
	    (double)(sb->read_at[0] - r->t0) / 1e9,
	    (double)(sb->read_at[1] - r->t1) / 1e9, units,
	    (double)self_ns / 1e9, stubtxt, thr_n, thr_p);
	return 0;
}

/* Collect: the window summed over the sandboxes, as metrics. */
static int
steady_report(struct steady_run *r, struct sample_result *out, char **cause)
{
	struct cpuwork_window	 w;
	struct cpuwork_metrics	 m;
	const char		*name = r->name;
	struct strvec		 parts = STRVEC_INIT;
	double			 ofloor;
	size_t			 i;

	memset(&w, 0, sizeof w);
	w.window_ns = r->t1 - r->t0;
	w.perf_ctxsw = r->perf_count;
	w.perf_window_ns = r->perf_end - r->perf_start;
	if (cpuwork_delta(r->ctxt0, r->ctxt1, &w.ctxt) == -1)
		return set_cause(cause, "/proc/stat ctxt went backwards");
	for (i = 0; i < (size_t)r->n; i++) {
		if (steady_sum_one(r, i, &w, &parts, cause) == -1) {
			strvec_clear(&parts);
			return -1;
		}
	}
	if (cpuwork_compute(&w, &m, cause) == -1) {
		strvec_clear(&parts);
		return -1;
	}
	/* Less CPU for the sandbox than for its programs (self mode: a
	 * runtime's own accounting): say what it was made of. */
	if (m.overhead < 0)
		for (i = 0; i < parts.n; i++)
			warning("%s: overhead/app-cpu %.3g < 0: %s", name,
			    m.overhead, parts.v[i]);
	strvec_clear(&parts);
	ofloor = ((const struct steady_opts *)wl_opts(r->wl,
	    r->arm))->overhead_floor;
	if (m.app_cpus >= ofloor * m.sandbox_cpus)
		sample_result_add(out, name, "overhead/app-cpu", m.overhead);
	else
		warning("%s: overhead/app-cpu not reported: the application "
		    "used %.3g%% of the sandbox's CPU (%.4g of %.4g CPUs), "
		    "below overhead-floor %g", name, m.app_cpus /
		    m.sandbox_cpus * 100, m.app_cpus, m.sandbox_cpus,
		    ofloor);
	strvec_pushf(&out->config, "overhead-floor: overhead/app-cpu is "
	    "reported only where app-cpus >= %g x sandbox-cpus", ofloor);
	sample_result_add(out, name, "host-ctxsw/s", m.host_ctxsw_per_s);
	sample_result_add(out, name, "work/s", m.work_per_s);
	sample_result_add(out, name, "app-cpus", m.app_cpus);
	sample_result_add(out, name, "sandbox-cpus", m.sandbox_cpus);
	if (r->mode != QUOTA_NONE) {
		sample_result_add(out, name, "throttled-periods",
		    m.throttled_periods);
		sample_result_add(out, name, "throttled-sec",
		    m.throttled_sec);
	}
	if (m.perf_ctxsw_per_s >= 0)
		sample_result_add(out, name, "perf-ctxsw/s",
		    m.perf_ctxsw_per_s);
	out->start_ns = now_mono_ns() - (now_wall_ns() - r->t0);
	out->end_ns = out->start_ns + (r->t1 - r->t0);
	return 0;
}

/* Everything the sample made goes, the quota cgroups last. */
static void
steady_release(struct steady_run *r, struct sample_result *out)
{
	char	*c = NULL;
	size_t	 j;

	if (r->perf_running)
		spawn_kill(&r->perf);
	spawn_release(&r->perf);
	for (j = 0; j < r->started; j++) {
		r->ex->destroy(r->ctx, r->sb[j].proc);
		free(r->sb[j].usage_dir);
		free(r->sb[j].cpu_dir);
		free(r->sb[j].thr_dir);
		free(r->sb[j].out);
	}
	free(r->sb);
	if (r->have_q && quota_release(r->ctx, &r->q, &c) == -1) {
		if (out->status == SAMPLE_STATUS_OK)
			sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", c);
		else
			warning("%s", c);
		free(c);
	}
	free(r->name);
	free(r->hostdir);
	strvec_clear(&r->argv);
}

static void
steady_sample(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out)
{
	struct steady_run	 r;
	char			*cause = NULL;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.wl = wl;
	r.arm = arm;
	r.ex = wl->exec;
	r.version = cgrp_version();
	r.perf_count = -1;
	if (wl->priv == NULL && steady_prepare(ctx, wl, &cause) == -1)
		goto fail;
	r.sp = wl->priv;
	if (steady_setup(&r, &cause) == -1)
		goto fail;
	steady_argv(&r);
	if (steady_start(&r, &cause) == -1 ||
	    steady_measure(&r, &cause) == -1 ||
	    steady_report(&r, out, &cause) == -1)
		goto fail;
	goto done;

fail:
	sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s",
	    cause != NULL ? cause : "failed");
done:
	steady_release(&r, out);
	free(cause);
}

/* A quota (leaf or parent) with a limit needs the cpu controller. */
static void
steady_cgroup_needs(const struct experiment *e, const struct workload *wl,
    struct exec_check *chk)
{
	const struct steady_opts	*o;
	size_t				 j;

	for (j = 0; j < e->narms; j++) {
		o = wl_opts(wl, &e->arms[j]);
		if (o->quota != QUOTA_NONE && o->cpu > 0)
			workload_need(chk->cpu_need, sizeof chk->cpu_need, e,
			    wl, &e->arms[j], "cpu");
	}
}

static const char *const steady_units[] = {
	"overhead/app-cpu", "lower",
	"host-ctxsw/s", "lower",
	"work/s", "higher",
	"app-cpus", "higher",
	"sandbox-cpus", "lower",
	"throttled-periods", "lower",
	"throttled-sec", "lower",
	"perf-ctxsw/s", "lower",
	NULL
};

const struct workload_ops wl_cpu_steady_ops = {
	.type = "cpu-steady",
	.help = "N sandboxes running a CPU program under a cgroup quota "
	    "(leaf or parent): overhead per unit of app CPU, host context "
	    "switches, work done, throttling",
	.opts = steady_opts,
	.opts_size = sizeof(struct steady_opts),
	.default_exec = EXEC_DEFAULT_HOST,
	.validate = steady_validate,
	.prepare = steady_prepare,
	.sample = steady_sample,
	.cleanup = steady_cleanup,
	.units = steady_units,
	.cgroup_needs = steady_cgroup_needs,
};
