/*
 * Workload `cpu-steady`: N sandboxes, each running one CPU program
 * (workloads/cpu/: burner, tick, getppid) under a CPU quota on its own
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
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "harness/exec/cgroup.h"
#include "harness/exec/exec.h"
#include "harness/exec/quota.h"
#include "harness/exec/context.h"
#include "harness/exec/spawn.h"
#include "workloads/cpu-work.h"
#include "workloads/workload.h"

#define SANDBOX_BIN_DIR		"/abbench-cpu"
#define COLLECT_TIMEOUT_NS	(20 * 1000000000LL)
/* One read of a running sandbox's output. */
#define LOGS_TIMEOUT_NS		(60 * 1000000000LL)
#define PERF_TIMEOUT_NS		(10 * 1000000000LL)

/* How long a sandbox may take to appear in its cgroup. */
#define STEADY_CGROUP_WAIT_NS	(30 * 1000000000LL)

static const struct opt_spec steady_opts[] = {
	{ "program", OPT_STR, OPT_LIST, "burner", 0, 0, NULL,
	    "burner, tick or getppid with optional flags, or a preset: "
	    "Burner, Tick1ms (tick -w 20 -p 1000), Tick10ms (-w 20 "
	    "-p 10000), Sparse50ms (-w 100 -p 50000), Getppid" },
	{ "sandboxes", OPT_STR, 0, "1", 0, 0, NULL,
	    "number of sandboxes: N, or Kx for K per host vCPU (rounded, "
	    "at least 1)" },
	{ "quota", OPT_CHOICE, 0, "leaf", 0, 0, "none leaf parent",
	    "where the CPU limit is: none, leaf (the sandbox's own cgroup, "
	    "docker --cpus), parent (a cgroup made for each sandbox, the "
	    "sandbox below it with --cgroup-parent)" },
	{ "cpu", OPT_FLOAT, OPT_ARM, NULL, 0.01, 4096, NULL,
	    "CPU limit of each sandbox, in CPUs" },
	{ "period", OPT_DURATION, 0, "100ms", 0.001, 1, NULL,
	    "CFS period of the limit" },
	{ "warmup", OPT_DURATION, 0, "5s", 0, 86400, NULL,
	    "time between the last sandbox's start and the window" },
	{ "window", OPT_DURATION, 0, "15s", 0.01, 86400, NULL,
	    "measurement window (rounded up to whole report-every)" },
	{ "report-every", OPT_DURATION, 0, "1s", 0.01, 60, NULL,
	    "interval of the programs' counter reports; the window starts "
	    "and ends on one" },
	{ "perf", OPT_CHOICE, 0, "auto", 0, 0, "auto yes no",
	    "also count context switches with perf stat -a "
	    "(perf-ctxsw/s; auto: when perf works)" },
	{ "app-cpu", OPT_CHOICE, 0, "auto", 0, 0, "auto self stub-user",
	    "the programs' CPU: self (their own CLOCK_PROCESS_CPUTIME_ID), "
	    "stub-user (host user time of the sandbox's stub processes, "
	    "where runsc runs app code: gVisor's own accounting counts "
	    "time the stub was preempted or throttled), auto: stub-user "
	    "for runsc, else self" },
	{ "overhead-floor", OPT_FLOAT, 0, "0.02", 0, 1, NULL,
	    "overhead/app-cpu is not reported when the application's CPU "
	    "is below this fraction of the sandbox's CPU (0.02: a ratio "
	    "above 49): the ratio then measures the noise of a near-zero "
	    "denominator (Getppid under ptrace: ~1%)" },
	{ "program-dir", OPT_STR, 0, NULL, 0, 0, NULL,
	    "where the programs are inside the image (default: the host's "
	    "are bind-mounted read-only at " SANDBOX_BIN_DIR ")" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL }
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
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
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
	struct strvec	 prog = STRVEC_INIT;
	const char	*q;
	long		 n;
	size_t		 j;
	int		 r = 0;

	workload_get_words(wl, NULL, "program", &prog);
	if (prog.n == 0 || steady_find_preset(prog.v[0]) == NULL)
		r = set_cause(cause, "program: unknown '%s' (use burner, tick, "
		    "getppid, Tick1ms, Tick10ms, Sparse50ms)",
		    prog.n ? prog.v[0] : "");
	else if (prog.n > 1 && steady_find_preset(prog.v[0])->args[0] !=
	    NULL)
		r = set_cause(cause, "program: preset '%s' takes no flags",
		    prog.v[0]);
	strvec_clear(&prog);
	if (r == -1)
		return -1;
	if (steady_parse_sandboxes(workload_get(wl, NULL, "sandboxes"),
	    steady_vcpus(), &n, cause) == -1)
		return -1;
	q = workload_get(wl, NULL, "quota");
	if (q != NULL && strcmp(q, "none") != 0) {
		for (j = 0; j < e->narms; j++) {
			if (workload_get(wl, &e->arms[j], "cpu") == NULL)
				return set_cause(cause, "cpu: quota '%s' needs "
				    "a cpu limit (on [workload %s] or on arm "
				    "'%s')", q, wl->base, e->arms[j].name);
		}
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
	struct steady_priv	*sp;
	struct strvec		 prog = STRVEC_INIT;
	const char		*perf = workload_get(wl, NULL, "perf");

	(void)ctx;
	if (wl->priv != NULL)
		return 0;
	sp = xcalloc(1, sizeof *sp);
	workload_get_words(wl, NULL, "program", &prog);
	sp->preset = steady_find_preset(prog.n ? prog.v[0] : "burner");
	strvec_clear(&prog);
	if (sp->preset == NULL) {
		free(sp);
		return set_cause(cause, "program: unknown");
	}
	sp->host_path = libexec_find(sp->preset->prog, cause);
	if (sp->host_path == NULL) {
		free(sp);
		return -1;
	}
	if (strcmp(perf, "no") != 0) {
		sp->perf = steady_perf_works();
		if (!sp->perf && strcmp(perf, "yes") == 0) {
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
	struct strbuf	 sb = STRBUF_INIT;
	const char	*q;
	size_t		 i;

	strbuf_addf(&sb, "%s/vcpus=%ld/sandboxes=%ld", ps->display, vcpus, n);
	/* A limit set on the arm is what the arms compare: not in the name. */
	if (arm_get(arm, "cpu") == NULL) {
		if (cpus > 0)
			strbuf_addf(&sb, "/cpu=%g", cpus);
		else
			strbuf_adds(&sb, "/cpu=none");
	}
	/* The reports' names leave the leaf quota implicit. */
	q = workload_get(wl, arm, "quota");
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
		ts.tv_sec = (now + step) / 1000000000;
		ts.tv_nsec = (now + step) % 1000000000;
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
		long	 pid = strtol(p, &p, 10);
		char	*cmd, *st, *rp;
		size_t	 cl = 0;
		int	 f;

		while (*p == '\n')
			p++;
		if (pid <= 0)
			break;
		path = xasprintf("/proc/%ld/cmdline", pid);
		cmd = read_file(path, &cl, NULL);
		free(path);
		free(cmd);
		if (cmd == NULL || cl > 0)
			continue;
		path = xasprintf("/proc/%ld/stat", pid);
		st = read_file(path, NULL, NULL);
		free(path);
		/* After "(comm)" a blank precedes each field: state (3)
		 * ... utime (14). */
		if (st != NULL && (rp = strrchr(st, ')')) != NULL) {
			char	*q = rp + 1;

			for (f = 3; f < 14 && q != NULL; f++)
				q = strchr(q + 1, ' ');
			if (q != NULL)
				ticks += strtoull(q + 1, NULL, 10);
		}
		free(st);
	}
	free(text);
	*ns = hz > 0 ? ticks * (1000000000ULL / (uint64_t)hz) : 0;
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

static void
steady_sample(struct run_ctx *ctx, struct workload *wl,
    const struct arm *arm, struct sample_result *out)
{
	struct steady_priv	*sp = wl->priv;
	const struct exec_ops	*ex = wl->exec;
	struct quota		 q;
	struct sandbox		*sb = NULL;
	struct strvec		 prog = STRVEC_INIT, argv = STRVEC_INIT;
	struct exec_spec	 spec;
	struct exec_mount	 mnt;
	struct cpuwork_window	 w;
	struct cpuwork_metrics	 m;
	double			 ofloor;
	struct child		 perf;
	enum quota_mode		 mode;
	char			*cause = NULL, *name = NULL, *hostdir = NULL;
	char			 tag[32];
	const char		*pdir, *s;
	long			 vcpus = steady_vcpus(), n = 1;
	double			 cpus, perf_count = -1;
	int64_t			 warmup, window, every, period, t0, t1;
	int64_t			 perf_start = 0, perf_end = 0;
	uint64_t		 ctxt0 = 0, ctxt1 = 0;
	int			 version = cgrp_version(), have_q = 0;
	int			 perf_running = 0, stub;
	size_t			 i, j, started = 0;

	memset(&q, 0, sizeof q);
	memset(&w, 0, sizeof w);
	memset(&perf, 0, sizeof perf);
	if (sp == NULL && steady_prepare(ctx, wl, &cause) == -1)
		goto fail;
	sp = wl->priv;
	if (steady_parse_sandboxes(workload_get(wl, arm, "sandboxes"), vcpus,
	    &n, &cause) == -1 ||
	    quota_mode_parse(workload_get(wl, arm, "quota"), &mode,
	    &cause) == -1)
		goto fail;
	cpus = workload_get_float(wl, arm, "cpu", 0);
	warmup = workload_get_duration(wl, arm, "warmup", 5000000000LL);
	window = workload_get_duration(wl, arm, "window", 15000000000LL);
	every = workload_get_duration(wl, arm, "report-every", 1000000000LL);
	period = workload_get_duration(wl, arm, "period", 100000000LL);
	if (every < 10000000)
		every = 10000000;
	window = (window + every - 1) / every * every;
	name = steady_name(wl, arm, sp->preset, vcpus, n, cpus);
	s = workload_get(wl, arm, "app-cpu");
	stub = strcmp(s, "stub-user") == 0 || (strcmp(s, "auto") == 0 &&
	    (ex->caps & EXEC_CONTAINER) && arm->runtime != NULL &&
	    strstr(arm->runtime, "runsc") != NULL);

	snprintf(tag, sizeof tag, "cs%d",
	    ctx->entry != NULL ? ctx->entry->idx : (int)sp->samples);
	sp->samples++;
	if (quota_setup(ctx, &q, mode, cpus, period / 1000, (size_t)n, tag,
	    &cause) == -1)
		goto fail;
	have_q = 1;

	/* argv: the program inside the sandbox, its flags, -d and -i. */
	workload_get_words(wl, arm, "program", &prog);
	pdir = workload_get(wl, arm, "program-dir");
	memset(&mnt, 0, sizeof mnt);
	if (!(ex->caps & EXEC_CONTAINER))
		strvec_push(&argv, sp->host_path);
	else if (pdir != NULL)
		strvec_pushf(&argv, "%s/%s", pdir, sp->preset->prog);
	else {
		hostdir = xstrdup(sp->host_path);
		*strrchr(hostdir, '/') = '\0';
		mnt.type = "bind";
		mnt.source = hostdir;
		mnt.target = SANDBOX_BIN_DIR;
		mnt.options = "ro";
		strvec_pushf(&argv, "%s/%s", SANDBOX_BIN_DIR,
		    sp->preset->prog);
	}
	for (i = 0; sp->preset->args[i] != NULL; i++)
		strvec_push(&argv, sp->preset->args[i]);
	for (i = 1; i < prog.n; i++)
		strvec_push(&argv, prog.v[i]);
	/* A safety net: every program ends by itself a minute after the
	 * window would end if all went slowly. */
	strvec_push(&argv, "-d");
	strvec_pushf(&argv, "%.3f", (double)(warmup + window) / 1e9 +
	    60.0 + 2.0 * (double)n);
	strvec_push(&argv, "-i");
	strvec_pushf(&argv, "%.3f", (double)every / 1e6);

	sb = xcalloc((size_t)n, sizeof *sb);
	for (i = 0; i < (size_t)n; i++) {
		workload_spec_init(&spec, wl, arm, argv.v);
		spec.capture = 1;
		spec.detach = 1;
		if (mnt.type != NULL) {
			spec.mounts = &mnt;
			spec.nmounts = 1;
		}
		quota_apply_spec(&q, i, &spec);
		if (ex->start(ctx, &spec, &sb[i].proc, &cause) == -1) {
			char	*c = xasprintf("sandbox %zu of %ld: %s", i + 1,
			    n, cause);

			free(cause);
			cause = c;
			goto fail;
		}
		started++;
		if (run_should_stop(ctx)) {
			cause = xstrdup("interrupted");
			goto fail;
		}
	}
	for (i = 0; i < (size_t)n; i++) {
		/*
		 * An executor that starts asynchronously (oci's `run`) has
		 * a cgroup only once the runtime has made the container.
		 */
		int64_t	until = now_mono_ns() + STEADY_CGROUP_WAIT_NS;

		for (;;) {
			sb[i].usage_dir = ex->cgroup_dir(sb[i].proc,
			    version == 2 ? NULL : "cpuacct");
			sb[i].cpu_dir = ex->cgroup_dir(sb[i].proc,
			    version == 2 ? NULL : "cpu");
			if ((sb[i].usage_dir != NULL &&
			    sb[i].cpu_dir != NULL) || now_mono_ns() > until ||
			    run_should_stop(ctx))
				break;
			free(sb[i].usage_dir);
			free(sb[i].cpu_dir);
			sb[i].usage_dir = sb[i].cpu_dir = NULL;
			usleep(20000);
		}
		if (sb[i].usage_dir == NULL || sb[i].cpu_dir == NULL) {
			cause = xasprintf("sandbox %zu of %ld: no cgroup (did "
			    "it exit?)", i + 1, n);
			goto fail;
		}
		if (quota_fix_leaf(&q, sb[i].cpu_dir, &cause) == -1)
			goto fail;
		sb[i].thr_dir = quota_throttle_dir(&q, i, sb[i].cpu_dir);
	}

	/* The window: whole report intervals after the warm-up. */
	t0 = (now_wall_ns() + warmup + every - 1) / every * every;
	t1 = t0 + window;
	if (ctx->deadline_ns > 0 && now_mono_ns() + (t1 - now_wall_ns()) +
	    COLLECT_TIMEOUT_NS > ctx->deadline_ns) {
		cause = xasprintf("the sample's timeout is too short for "
		    "warmup + window (%.1fs)", (double)(t1 - now_wall_ns()) /
		    1e9);
		goto fail;
	}
	if (steady_sleep_until(ctx, t0) == -1) {
		cause = xstrdup("interrupted");
		goto fail;
	}
	if (steady_read_ctxt(&ctxt0, &cause) == -1 ||
	    steady_read_all(sb, (size_t)n, version, 0, stub,
	    &cause) == -1)
		goto fail;
	if (sp->perf) {
		char		*pargv[10];
		char		 secs[32];

		snprintf(secs, sizeof secs, "%.3f", (double)window / 1e9);
		pargv[0] = "perf";
		pargv[1] = "stat";
		pargv[2] = "-x,";
		pargv[3] = "-e";
		pargv[4] = "context-switches";
		pargv[5] = "-a";
		pargv[6] = "--";
		pargv[7] = "sleep";
		pargv[8] = secs;
		pargv[9] = NULL;
		perf.argv = pargv;
		perf.flags = SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
		perf_start = now_mono_ns();
		if (spawn_start(&perf, &cause) == -1)
			goto fail;
		perf_running = 1;
	}
	if (steady_sleep_until(ctx, t1) == -1) {
		cause = xstrdup("interrupted");
		goto fail;
	}
	if (steady_read_all(sb, (size_t)n, version, 1, stub,
	    &cause) == -1 ||
	    steady_read_ctxt(&ctxt1, &cause) == -1)
		goto fail;
	if (perf_running) {
		if (spawn_wait(&perf, now_mono_ns() + PERF_TIMEOUT_NS,
		    &cause) == -1)
			goto fail;
		perf_end = perf.end_ns;
		perf_running = 0;
		if (!perf.timed_out && perf.status == 0 && perf.err.buf &&
		    cpuwork_perf_count(perf.err.buf, "context-switches",
		    &perf_count) == -1)
			perf_count = -1;
	}
	if (steady_collect(ctx, ex, sb, (size_t)n, t1, &cause) == -1)
		goto fail;

	/* Sum the window over the sandboxes. */
	w.window_ns = t1 - t0;
	w.perf_ctxsw = perf_count;
	w.perf_window_ns = perf_end - perf_start;
	if (cpuwork_delta(ctxt0, ctxt1, &w.ctxt) == -1) {
		cause = xstrdup("/proc/stat ctxt went backwards");
		goto fail;
	}
	for (i = 0; i < (size_t)n; i++) {
		struct cpuwork_report		*r = NULL;
		const struct cpuwork_report	*a0, *a1;
		size_t				 nr = 0;
		uint64_t			 d;

		if (cpuwork_parse_output(sb[i].out ? sb[i].out : "",
		    sb[i].outlen, &r, &nr, &cause) == -1)
			goto fail;
		if (cpuwork_at(r, nr, t0, &a0, NULL) == -1 ||
		    cpuwork_at(r, nr, t1, &a1, NULL) == -1 ||
		    a1->units < a0->units || a1->cpu_ns < a0->cpu_ns) {
			char	*tail = last_lines(sb[i].out ? sb[i].out : "",
			    sb[i].outlen, 2);

			cause = xasprintf("sandbox %zu of %ld: '%s' did not "
			    "report across the window (%zu reports; last "
			    "output: %s)", i + 1, n, sp->preset->prog, nr,
			    *tail ? strtrim(tail) : "none");
			free(tail);
			free(r);
			goto fail;
		}
		w.units += (double)(a1->units - a0->units);
		if (!stub)
			w.app_cpu_ns += (double)(a1->cpu_ns - a0->cpu_ns);
		free(r);	/* a0 and a1 point into it */
		if (stub && cpuwork_delta(sb[i].stub_user[0],
		    sb[i].stub_user[1], &d) == 0)
			w.app_cpu_ns += (double)d;
		if (cpuwork_delta(sb[i].usage[0], sb[i].usage[1], &d) == -1) {
			cause = xasprintf("sandbox %zu: cgroup CPU usage went "
			    "backwards", i + 1);
			goto fail;
		}
		w.sandbox_cpu_ns += (double)d;
		/* A parent or leaf per sandbox: each counted once. */
		if (sb[i].thr_dir != NULL) {
			if (cpuwork_delta(sb[i].thr[0].nr_periods,
			    sb[i].thr[1].nr_periods, &d) == 0)
				w.nr_periods += d;
			if (cpuwork_delta(sb[i].thr[0].nr_throttled,
			    sb[i].thr[1].nr_throttled, &d) == 0)
				w.nr_throttled += d;
			if (cpuwork_delta(sb[i].thr[0].throttled_ns,
			    sb[i].thr[1].throttled_ns, &d) == 0)
				w.throttled_ns += d;
		}
	}
	if (cpuwork_compute(&w, &m, &cause) == -1)
		goto fail;
	ofloor = workload_get_float(wl, arm, "overhead-floor", 0.02);
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
	if (mode != QUOTA_NONE) {
		sample_result_add(out, name, "throttled-periods",
		    m.throttled_periods);
		sample_result_add(out, name, "throttled-sec",
		    m.throttled_sec);
	}
	if (m.perf_ctxsw_per_s >= 0)
		sample_result_add(out, name, "perf-ctxsw/s",
		    m.perf_ctxsw_per_s);
	out->start_ns = now_mono_ns() - (now_wall_ns() - t0);
	out->end_ns = out->start_ns + (t1 - t0);
	goto done;

fail:
	s = cause != NULL ? cause : "failed";
	sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", s);
done:
	if (perf_running)
		spawn_kill(&perf);
	spawn_release(&perf);
	for (j = 0; j < started; j++) {
		ex->destroy(ctx, sb[j].proc);
		free(sb[j].usage_dir);
		free(sb[j].cpu_dir);
		free(sb[j].thr_dir);
		free(sb[j].out);
	}
	free(sb);
	if (have_q) {
		char	*c = NULL;

		if (quota_release(ctx, &q, &c) == -1) {
			if (out->status == SAMPLE_STATUS_OK)
				sample_result_fail(out, SAMPLE_STATUS_FAILED,
				    "%s", c);
			else
				warning("%s", c);
			free(c);
		}
	}
	free(cause);
	free(name);
	free(hostdir);
	strvec_clear(&prog);
	strvec_clear(&argv);
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
	.default_exec = "local",
	.validate = steady_validate,
	.prepare = steady_prepare,
	.sample = steady_sample,
	.cleanup = steady_cleanup,
	.units = steady_units,
};
