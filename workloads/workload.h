/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload types behind one ops table (fio's ioengine_ops style). The
 * runner calls, for each workload of an experiment:
 *
 *   prepare   once per run before the first sample (data files, images);
 *   sample    once per planned sample: run the thing for one arm and fill
 *             a sample_result with metrics, or a failure;
 *   cleanup   once at the end, on error and on interrupt (safe twice).
 *
 * A workload starts its children through an executor (wl->exec) or the
 * spawn API, always with a deadline (ctx->deadline_ns for the sample).
 * The table of types is static: see workload_lookup().
 */
#ifndef ABBENCH_WORKLOAD_H
#define ABBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "exec/context.h"
#include "lib/model.h"
#include "lib/options.h"
#include "lib/util.h"
#include "results/store.h"

struct run_ctx;
struct exec_spec;
struct exec_status;
struct exec_proc;
struct exec_check;

/*
 * What a sample produced, in the form the store takes (results/store.h):
 * its status, and each value as a struct store_metric (benchfmt name, e.g.
 * Fio/bs=4k/c16-total, and tidied unit: sec/op, iops, B; both malloc'd
 * here), handed to the store as they are.
 */
struct sample_result {
	enum sample_status status;
	char		*error;		/* malloc'd, for failed samples */
	struct store_metric *metrics;
	size_t		 nmetrics, cap;
	/* Set by the workload when it times a narrower window than the
	 * runner's call (0 = use the runner's times). CLOCK_MONOTONIC. */
	int64_t		 start_ns, end_ns;
	/* Run config lines the sample learned (e.g. fio version, gobench
	 * "pkg:" lines): stored with the run, arm-scoped. */
	struct strvec	 config;	/* "key: value" strings */
	/*
	 * Benchmarks that failed inside a sample (a gobench "--- FAIL"):
	 * each is stored as a failed row of its own, with its error text,
	 * next to the sample's metrics.
	 */
	struct strvec	 failed;	/* benchmark names */
	struct strvec	 failed_error;	/* one error text per name */
};
void	sample_result_fail_benchmark(struct sample_result *r,
	    const char *benchmark, const char *error);
/*
 * The one naming rule of every workload's rows (seed reports' names):
 * a row carries Go's "-N" suffix, N the CPUs this process may run on (as
 * GOMAXPROCS defaults to it: StartupEmpty-16, Multi/c16/runsc-total-16),
 * unless its name already states "vcpus=N" as an element (the custom
 * harnesses' rows: Burner/vcpus=2/..., GoferMem/vcpus=2/noquota), which
 * Go never suffixes. sample_result_add applies it; sample_result_add_raw
 * stores a name as a program printed it (gobench: Go did it already).
 */
char	*bench_name_final(const char *name);
/* N of the suffix: sched_getaffinity's count (GOMAXPROCS's default). */
int	bench_gomaxprocs(void);
void	sample_result_add(struct sample_result *r, const char *benchmark,
	    const char *unit, double value);
void	sample_result_add_raw(struct sample_result *r, const char *benchmark,
	    const char *unit, double value);
void	sample_result_fail(struct sample_result *r, enum sample_status st,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void	sample_result_release(struct sample_result *r);

struct workload_ops {
	const char		*type;
	const char		*help;
	const struct opt_spec	*opts;	/* the type's own keys */
	size_t			 opts_size; /* of the struct opts binds */
	const char		*default_exec;	/* an executor's name */
	/*
	 * Its program is the user's and may start containers labelled
	 * abbench.run=UUID ({run}): the runner sweeps them after each sample
	 * when its starts-containers key says so (and at the run's end).
	 */
	int			 own_program;
	/* Extra checks across keys after the options table passed. */
	int	(*validate)(const struct experiment *e, struct workload *wl,
		    char **cause);
	int	(*prepare)(struct run_ctx *ctx, struct workload *wl,
		    char **cause);
	void	(*sample)(struct run_ctx *ctx, struct workload *wl,
		    const struct arm *arm, struct sample_result *out);
	void	(*cleanup)(struct run_ctx *ctx, struct workload *wl);
	/* Units this type reports, with better=higher|lower, for export. */
	const char *const	*units;	/* "unit", "better", ... NULL */
	/*
	 * Reads nothing from its program's cgroup (times and rusage come
	 * from wait4): without root it runs the program in abbench's own
	 * cgroup, unless an arm sets a cpu or memory limit.
	 */
	int			 cgroup_optional;
	/*
	 * Before anything is touched (after the executor's check): what can
	 * only be known on this host, e.g. that each arm's program exists.
	 * The message starts "FILE:LINE: KEY: ". NULL = nothing to check.
	 */
	int	(*preflight)(const struct experiment *e,
		    const struct workload *wl, char **cause);
	/*
	 * cgroup v2: the controllers the workload's own keys need in the
	 * cgroups abbench or the runtime makes (a quota: cpu; io weights:
	 * io), named with workload_need() in chk's cpu_need, memory_need,
	 * io_need; the executor's check asks that they were delegated. An
	 * arm's cpu and memory limits are found apart. NULL = none.
	 */
	void	(*cgroup_needs)(const struct experiment *e,
		    const struct workload *wl, struct exec_check *chk);
	/*
	 * The argv an arm runs, as it will run (appended to argv), for the
	 * run's provenance: the runner records the binary, its digest and
	 * version as config. NULL = the type runs no program of the user's.
	 */
	void	(*program)(const struct workload *wl, const struct arm *arm,
		    struct strvec *argv);
};

const struct workload_ops	*workload_lookup(const char *type);

/*
 * Zero spec and fill what every workload passes its executor for an arm:
 * argv, the arm's env, the workload's name, the arm's runtime and its
 * global flags, the workload's image.
 */
/*
 * A workload's directory on the host (its `dir`): at load, whether it
 * exists as a directory or can be made (its nearest existing ancestor is
 * a directory we may write); touches nothing. 0, or -1 with *cause.
 */
int	workload_dir_check(const char *dir, char **cause);
/*
 * Make dir and any missing parent, each journaled ("mkdir") before it is
 * made; made gets them outermost first, *jids their journal ids (realloc'd,
 * the caller frees). workload_remove_dirs removes them innermost first
 * (rmdir: only if empty) and forgets their entries.
 */
int	workload_make_dir(struct run_ctx *ctx, const char *dir,
	    struct strvec *made, int64_t **jids, char **cause);
void	workload_remove_dirs(struct run_ctx *ctx, struct strvec *made,
	    int64_t *jids);
void	workload_spec_init(struct exec_spec *spec, const struct workload *wl,
	    const struct arm *arm, char *const *argv);
/* The runsc platform of wl's sandboxes under arm (the arm's, else the
 * workload's), or NULL. */
const char	*workload_platform(const struct workload *wl,
		    const struct arm *arm);
/* exec_spec.sandbox_log of wl (sandbox-log = info: 1, debug: 2, off: 0). */
int		 workload_sandbox_log(const struct workload *wl);
/*
 * When the file is loaded: a platform (arm's or workload's) needs an
 * executor that passes runtime flags per sandbox (oci) and a runsc
 * runtime. "platform: ..." errors.
 */
int		 workload_platform_check(const struct experiment *e,
		    const struct workload *wl, char **cause);
/*
 * Run one program through the workload's executor until it ends or the
 * sample's deadline passes, and take the sample's window from its times.
 * 0 with *st filled (the caller checks st->timed_out and st->status), or
 * -1 with the sample failed. *proc is the caller's to destroy once set.
 */
int	workload_run_program(struct run_ctx *ctx, struct workload *wl,
	    const struct exec_spec *spec, struct exec_proc **proc,
	    struct exec_status *st, struct sample_result *out);
/*
 * For a program run on this host (not in a container): argv0 found (on
 * $PATH without a '/', relative to cwd when given) and executable by us,
 * else -1 with "FILE:LINE: args: ..." at the arm's args line (or the
 * workload's). argv0 with a {placeholder} is not checked.
 */
int	workload_check_program(const struct experiment *e,
	    const struct workload *wl, const struct arm *arm,
	    const char *argv0, const char *cwd, char **cause);
/*
 * A preflight: workload_check_program of each arm's program, its argv the
 * struct strvec at args_off of the type's options struct (wl_opts) and its
 * cwd the char * at cwd_off (offsetof), or WL_NO_CWD: none.
 */
#define WL_NO_CWD	((size_t)-1)
int	workload_check_programs(const struct experiment *e,
	    const struct workload *wl, size_t args_off, size_t cwd_off,
	    char **cause);
/*
 * perf counters of one program (the `perf` key of command, gobench and
 * local fio; exec/perfstat.h): the events, and after a counted run one
 * count per event.
 */
struct wl_counts {
	struct strvec	 events;
	double		*values;
	int		 counted;
};
/* The `perf` key's table entry, the same in every type that has it. */
#define WL_PERF_HELP \
	"perf counters of the program and its children, comma separated " \
	"(cycles,instructions,context-switches,page-faults): perf stat -a " \
	"-G of the program's own cgroup, started before it; stored per " \
	"sample as EVENT/op. A counter this host cannot count is refused " \
	"when the file is loaded (needs root; executor local, or oci with " \
	"runsc: the sandbox and gofer)"
/*
 * The `starts-containers` key's text; run: how the program knows the
 * run's uuid ("" or " (its {run})").
 */
#define WL_STARTS_CONTAINERS_HELP(run) \
	"the program may start docker containers labelled " \
	"abbench.run=<the run's uuid>" run ": after every sample they are " \
	"looked for through the docker daemon's socket (no docker process; " \
	"skipped when no daemon listens, and for the rest of the run once " \
	"it does not answer within 0.5 s) and removed; the run's end and " \
	"abbench restore remove them in any case"
/*
 * Check a `perf` value when the file is loaded: counter names, an
 * executor whose programs perf can count (host processes, or runsc
 * sandboxes of the oci executor where runsc leaves them in the counted
 * cgroup), and every counter asked of this host (perf_events_check).
 * "perf: ..." errors.
 */
int	workload_perf_validate(const struct experiment *e,
	    const struct workload *wl, const char *perf, char **cause);
/*
 * workload_run_program, with the events of perf (the key's text, or
 * NULL: none) counted over the program into *counts: counts->counted
 * when they were. A count perf could not take fails the sample (never
 * a 0). Release counts with workload_counts_release.
 */
int	workload_run_counted(struct run_ctx *ctx, struct workload *wl,
	    struct exec_spec *spec, const char *perf,
	    struct wl_counts *counts, struct exec_proc **proc,
	    struct exec_status *st, struct sample_result *out);
/* Add the counts as rows of benchmark: "page-faults/op", ... */
void	workload_counts_add(struct sample_result *out, const char *benchmark,
	    const struct wl_counts *counts);
void	workload_counts_release(struct wl_counts *counts);
/*
 * Ask the workload's executor whether it can run wl for every arm of e
 * (daemon up, runtimes registered, image present). 0 when it has no check.
 */
int	workload_exec_check(struct run_ctx *ctx, const struct experiment *e,
	    const struct workload *wl, char **cause);

/*
 * The type's options struct of a sample of wl under arm (NULL: the
 * workload's own values, as validate() and prepare() see them): each key
 * bound by the type's table holds the arm's value if the option allows
 * arms and the arm sets it, else the workload's, else the table's
 * default. `const struct fio_opts *o = wl_opts(wl, arm);` An option's
 * .given member is 0 (default), 1 (set by the workload) or 2 (by the arm).
 */
const void	*wl_opts(const struct workload *wl, const struct arm *arm);
/*
 * Fill wl->common and wl->opts from the keys as written (wl->kv, then
 * each arm's OPT_ARM keys): the loader's step after matrix expansion. On
 * error *bad is the key at fault and *cause says why (no file/line).
 */
int		 workload_bind(struct workload *wl, const struct arm *arms,
		    size_t narms, const struct kv **bad, char **cause);
/* Free what workload_bind stored; safe twice. */
void		 workload_unbind(struct workload *wl);
/*
 * The value of KEY as written for wl under arm (the arm's if the option
 * allows arms and the arm sets it, else the workload's, else the table's
 * default): for the loader and tests. Samples read wl_opts().
 */
const char	*workload_get(const struct workload *wl, const struct arm *arm,
		    const char *key);
/* The value of KEY as the arm wrote it, or NULL. */
const char	*arm_get(const struct arm *arm, const char *key);
/*
 * need (one of an exec_check's *_need), when still empty, gets
 * "FILE:LINE: KEY" of KEY as arm writes it, else as wl does, else at
 * wl's header.
 */
void		 workload_need(char *need, size_t size,
		    const struct experiment *e, const struct workload *wl,
		    const struct arm *arm, const char *key);

/* The keys every workload accepts (type, executor, timeout, ...). */
extern const struct opt_spec workload_common_opts[];

/* NULL-terminated list of every type, for help and validation. */
extern const struct workload_ops *const workload_types[];

#endif
