/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload `fio`: one fio job in 1..N concurrent containers (or local
 * processes, each in its own cgroup), every reader on its own file, the
 * data for reads written for real first (never fallocated: unwritten
 * extents are never read from disk). All N are started and wait at a
 * start barrier (exec/barrier.h) that abbench opens once every one is
 * ready: each fio runs the barrier's helper as its exec_prerun, after it
 * has loaded, forked its jobs and opened their files, right before its
 * I/O, so that how long a sandbox or fio itself takes to start does not
 * shift the runs. The overlap of their runs is measured from fio's own
 * timestamps.
 *
 * Metrics (fio JSON via jansson, workloads/fio-json.c):
 *   one container   NAME  bandwidth.bytes_per_second, io_ops.ops_per_second,
 *                   sec/op (the time the I/O took: meaningful for
 *                   size-bound jobs, as in gVisor's fs benchmarks)
 *   N, one runtime  NAME/cN/RT-total, -median, -min (iops), and
 *                   NAME/cN/RT/container=I (iops) for each container
 *   N, mixed        NAME/LABEL (iops) per container (LABEL = runtime and
 *                   -wWEIGHT), and NAME/total
 * For N > 1 also NAME/cN/overlap (overlap-ratio): the fraction of the
 * longest run during which all N ran.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/barrier.h"
#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/perfstat.h"
#include "host/hostset.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "workloads/fio-json.h"
#include "workloads/workload.h"

#define FIO_READY_TIMEOUT_NS	(120 * NSEC_PER_SEC)
#define FIO_PREP_TIMEOUT_NS	(600 * NSEC_PER_SEC)
/* The stage files fio waits for when its data is written inside the
 * container first (fs = rootfs or tmpfs). */
#define FIO_PREPPED		"prepped"
#define FIO_DATA_DIR		"/data"
#define FIO_ROOTFS_DIR		"/var/tmp/abbench-fio"

/* The keys of a fio workload (fio_opts binds them). */
struct fio_opts {
	int		 rw;
	char		*rw_name;
	uint64_t	 bs;
	char		*ioengine;
	int		 iodepth;
	int		 direct;
	int		 numjobs;
	uint64_t	 size;
	int64_t		 duration;	/* 0: size-bound */
	int		 containers;
	int		 fs;		/* enum fio_fs */
	char		*fs_name;
	int		 group_reporting;
	struct strvec	 runtimes;
	struct strvec	 weights;
	int		 prep;		/* enum fio_prep */
	double		 overlap_min;
	char		*benchmark;
	struct strvec	 fio_args;
	int		 nrfiles;
	uint64_t	 filesize;
	int		 iops;
	char		*perf;
};
/* In the order of the choices of `fs` and `prep`. */
enum fio_fs { FIO_FS_BIND, FIO_FS_ROOTFS, FIO_FS_TMPFS };
enum fio_prep { FIO_PREP_AUTO, FIO_PREP_WRITE, FIO_PREP_NONE };
#define FIO(member)	OPT_AT(struct fio_opts, member)

static const struct opt_spec fio_opts[] = {
	OPT_CHOICE("rw", FIO(rw), "randread",
	    "read write randread randwrite readwrite rw randrw",
	    "fio rw= (the I/O pattern)",
	    .text = FIO(rw_name)),
	OPT_SIZE("bs", FIO(bs), "4k", 512, 1 << 30, "fio bs="),
	OPT_STR("ioengine", FIO(ioengine), "libaio", "fio ioengine="),
	OPT_INT("iodepth", FIO(iodepth), "1", 1, 65536, "fio iodepth="),
	OPT_BOOL("direct", FIO(direct), "0", "fio direct= (O_DIRECT)"),
	OPT_INT("numjobs", FIO(numjobs), "1", 1, 1024,
	    "fio numjobs= per container (each job on its own file)"),
	OPT_SIZE("size", FIO(size), "256m", 4096, 1e15,
	    "file size per job (fio size=)"),
	OPT_DURATION("duration", FIO(duration), NULL, 0.1, 1e6,
	    "time-based run of this length (fio runtime=); default: "
	    "size-bound"),
	OPT_INT("containers", FIO(containers), "1", 1, 1024,
	    "concurrent readers (containers, or local processes each in "
	    "its own cgroup)"),
	OPT_CHOICE("fs", FIO(fs), "bind", "bind rootfs tmpfs",
	    "where the files live inside the container: bind (a host "
	    "directory, `dir`), rootfs (the container's root), tmpfs",
	    .text = FIO(fs_name)),
	OPT_BOOL("group_reporting", FIO(group_reporting), "0",
	    "fio group_reporting (one result for the numjobs)"),
	OPT_WORDS("runtimes", FIO(runtimes), NULL,
	    "runtime of each container in turn (e.g. runc runsc); default "
	    "the arm's",
	    .flags = OPT_NOMATRIX),
	OPT_WORDS("weights", FIO(weights), NULL,
	    "blkio.bfq.weight of each container in turn (e.g. 100 1000); "
	    "written by abbench (docker's --blkio-weight misses bfq)"),
	OPT_CHOICE("prep", FIO(prep), "auto", "auto write none",
	    "write the files before the sample (auto: for reads)"),
	OPT_FLOAT("overlap-min", FIO(overlap_min), "0.8", 0, 1,
	    "fail a sample whose N runs overlapped less than this"),
	OPT_STR("benchmark", FIO(benchmark), NULL,
	    "benchmark name used instead of the workload's (may hold '/', "
	    "e.g. FioRead/libaio/jobs.1); matrix keys are appended",
	    .flags = OPT_NOMATRIX),
	OPT_WORDS("fio-args", FIO(fio_args), NULL, "extra fio arguments"),
	OPT_INT("nrfiles", FIO(nrfiles), "1", 1, 1000000,
	    "files per job (fio nrfiles=), each of `filesize`: the "
	    "filecreate and filestat engines create or stat one per I/O",
	    .flags = OPT_NOMATRIX),
	OPT_SIZE("filesize", FIO(filesize), "4k", 1, 1e15,
	    "size of each file when nrfiles > 1 (size is then nrfiles x "
	    "filesize)",
	    .flags = OPT_NOMATRIX),
	OPT_BOOL("iops", FIO(iops), "no",
	    "one container: also store the total iops (unit iops), as the "
	    "custom harnesses' Fio/vcpus=N/jobs=J/filestat rows"),
	OPT_STR("perf", FIO(perf), NULL, WL_PERF_HELP
	    " (fio: the N fio processes together, from the start barrier on)",
	    .flags = OPT_NOMATRIX),
	OPT_END
};

struct fio_priv {
	struct strvec	files;		/* host data files prepare wrote */
	int64_t		*jids;		/* their journal entries */
	size_t		 capjids;
	struct strvec	dirs;		/* directories prepare made */
	int64_t		*dir_jids;
};

static int
is_read(const char *rw)
{
	return strstr(rw, "read") != NULL || strcmp(rw, "rw") == 0;
}

static int	need_prep(struct workload *wl);

static int
fio_validate(const struct experiment *e, struct workload *wl, char **cause)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);
	char			*why = NULL;
	size_t			 i;

	if (o->fs == FIO_FS_BIND && wl->common.dir == NULL)
		return set_cause(cause, "dir: missing: fs = bind needs the "
		    "host directory of the data files");
	if (o->fs == FIO_FS_BIND && workload_dir_check(wl->common.dir,
	    &why) == -1) {
		set_cause(cause, "dir: %s", why);
		free(why);
		return -1;
	}
	/* N runs are released together by a start barrier; so is fio after
	 * its data is written inside the container. */
	if (wl->exec != NULL && (o->containers > 1 || (o->fs != FIO_FS_BIND &&
	    need_prep(wl))) && exec_missing(wl->exec,
	    EXEC_HOOK_BARRIER) != NULL)
		return set_cause(cause, "executor: '%s' has no barrier_join "
		    "hook, which fio needs to start %d runs together",
		    wl->exec->name, o->containers);
	if (wl->exec != NULL && !(wl->exec->caps & EXEC_CONTAINER) &&
	    o->fs != FIO_FS_BIND)
		return set_cause(cause, "fs: '%s' needs a container "
		    "(executor docker or oci); the local executor uses `dir`",
		    o->fs_name);
	if (workload_perf_validate(e, wl, o->perf, cause) == -1)
		return -1;
	for (i = 0; i < o->weights.n; i++) {
		long long	v;

		if (parse_int(o->weights.v[i], 1, 1000, &v, NULL) == -1)
			return set_cause(cause, "weights: '%s' is not a bfq "
			    "weight (1..1000)", o->weights.v[i]);
	}
	return 0;
}

/* The job name of container i: names its files (NAME.JOB.0). */
static char *
job_name(struct workload *wl, int i)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);

	return xasprintf("abbench-%llu-c%d", (unsigned long long)o->size, i);
}

/* fio arguments common to the write pass and the measured run. */
static void
push_job(struct strvec *av, struct workload *wl, int i, const char *dir)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);
	char			*name = job_name(wl, i);

	strvec_push(av, "fio");
	strvec_push(av, "--output-format=json");
	strvec_pushf(av, "--name=%s", name);
	strvec_pushf(av, "--directory=%s", dir);
	if (o->nrfiles > 1) {
		strvec_pushf(av, "--nrfiles=%d", o->nrfiles);
		strvec_pushf(av, "--filesize=%llu",
		    (unsigned long long)o->filesize);
		strvec_pushf(av, "--size=%llu",
		    (unsigned long long)o->filesize *
		    (unsigned long long)o->nrfiles);
	} else
		strvec_pushf(av, "--size=%llu", (unsigned long long)o->size);
	strvec_pushf(av, "--numjobs=%d", o->numjobs);
	strvec_push(av, "--fallocate=none");
	free(name);
}

/*
 * Write the files for real: sequential 1M writes, fsync at the end. Its
 * jobs are threads (--thread): this fio runs in no cgroup of the run's,
 * and dies with abbench (PR_SET_PDEATHSIG) but a forked job does not: a
 * kill -9 of abbench while it wrote left the job process waiting forever
 * for its dead parent's go (a futex), where `abbench restore` cannot find
 * it — seen after t0570 on a fresh machine, and reproduced by killing a
 * run 0.3 s into writing 400 MiB.
 */
static void
push_prep(struct strvec *av, struct workload *wl, int i, const char *dir)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);

	push_job(av, wl, i, dir);
	strvec_push(av, "--thread");
	strvec_push(av, "--rw=write");
	if (o->nrfiles > 1 && o->filesize < (1 << 20))
		strvec_pushf(av, "--bs=%llu",
		    (unsigned long long)o->filesize);
	else
		strvec_push(av, "--bs=1m");
	strvec_push(av, "--ioengine=psync");
	strvec_push(av, "--end_fsync=1");
}

static void
push_measured(struct strvec *av, struct workload *wl, const struct arm *arm,
    int i, const char *dir)
{
	const struct fio_opts	*o = wl_opts(wl, arm);

	push_job(av, wl, i, dir);
	strvec_pushf(av, "--rw=%s", o->rw_name);
	strvec_pushf(av, "--bs=%llu", (unsigned long long)o->bs);
	strvec_pushf(av, "--ioengine=%s", o->ioengine);
	strvec_pushf(av, "--iodepth=%d", o->iodepth);
	strvec_pushf(av, "--direct=%d", o->direct);
	if (o->duration > 0) {
		/* In microseconds: fio (3.33) reads "0.500s" as 0 s and
		 * "2.250s" as 2 s, dropping a fraction of a second. */
		strvec_pushf(av, "--runtime=%lldus",
		    (long long)((o->duration + 500) / 1000));
		strvec_push(av, "--time_based");
	}
	if (o->group_reporting)
		strvec_push(av, "--group_reporting");
	strvec_pushv(av, o->fio_args.v);
}

static int
need_prep(struct workload *wl)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);

	if (o->prep == FIO_PREP_NONE)
		return 0;
	return o->prep == FIO_PREP_WRITE || is_read(o->rw_name);
}

static int
fio_prepare(struct run_ctx *ctx, struct workload *wl, char **cause)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);
	struct fio_priv		*priv = xcalloc(1, sizeof *priv);
	const char		*dir = wl->common.dir;
	int			 n = o->containers, jobs = o->numjobs;
	uint64_t		 size = o->size;
	int			 i, j;

	wl->priv = priv;
	if (o->fs != FIO_FS_BIND || dir == NULL)
		return 0;
	/* What it makes is journaled and removed, as the files are. */
	if (workload_make_dir(ctx, dir, &priv->dirs, &priv->dir_jids,
	    cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		struct strvec	 av = STRVEC_INIT;
		char		*out = NULL, *err = NULL, *c = NULL, *name;
		int		 status = -1, have = 1;

		name = job_name(wl, i);
		for (j = 0; j < jobs; j++) {
			struct stat	sb;
			long long	k, nf = o->nrfiles;
			uint64_t	want = nf > 1 ? o->filesize : size;

			for (k = 0; k < nf; k++) {
				char	*f = xasprintf("%s/%s.%d.%lld", dir,
					    name, j, k);

				if (stat(f, &sb) == -1 ||
				    (uint64_t)sb.st_size != want)
					have = 0;
				/* Removed at the end: journaled first. */
				XGROW(priv->jids, priv->files.n,
				    priv->capjids);
				priv->jids[priv->files.n] =
				    run_journal_object(ctx, "file", f);
				strvec_push_nodup(&priv->files, f);
			}
		}
		free(name);
		if (have || !need_prep(wl))
			continue;
		push_prep(&av, wl, i, dir);
		if (spawn_capture(av.v, FIO_PREP_TIMEOUT_NS, &out, &err,
		    &status, &c) == -1 || status != 0) {
			struct fio_result	r;
			char			*m;

			fio_json_parse(out, out ? strlen(out) : 0, &r, NULL);
			m = fio_result_error(&r, err);
			set_cause(cause, "writing the data files in '%s': %s",
			    dir, c != NULL ? c : m);
			free(m);
			fio_result_release(&r);
			free(c);
			free(out);
			free(err);
			strvec_clear(&av);
			return -1;
		}
		free(out);
		free(err);
		strvec_clear(&av);
	}
	return 0;
}

static void
fio_cleanup(struct run_ctx *ctx, struct workload *wl)
{
	struct fio_priv	*priv = wl->priv;
	size_t		 i;

	if (priv == NULL)
		return;
	for (i = 0; i < priv->files.n; i++)
		if (unlink(priv->files.v[i]) == 0 || errno == ENOENT)
			run_forget_object(ctx, priv->jids[i]);
	strvec_clear(&priv->files);
	free(priv->jids);
	workload_remove_dirs(ctx, &priv->dirs, priv->dir_jids);
	free(priv->dir_jids);
	free(priv);
	wl->priv = NULL;
}

/*
 * The benchmark name: `benchmark` (plus the matrix part), or the name;
 * "{vcpus}" in `benchmark` is the host's vCPU count (the custom
 * harnesses' Fio/vcpus=16/jobs=16/filestat rows).
 */
static char *
bench_name(const struct workload *wl)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);
	const char		*b = o->benchmark, *p;
	struct strbuf	 sb = STRBUF_INIT;

	if (b == NULL)
		return xstrdup(wl->name);
	while ((p = strstr(b, "{vcpus}")) != NULL) {
		strbuf_add(&sb, b, (size_t)(p - b));
		strbuf_addf(&sb, "%d", bench_gomaxprocs());
		b = p + 7;
	}
	strbuf_adds(&sb, b);
	strbuf_adds(&sb, wl->name + strlen(wl->base));
	return strbuf_detach(&sb);
}

/* One container (or process) of a sample. */
struct fio_member {
	struct exec_proc	*proc;
	char			*label;		/* runtime[-wWEIGHT] */
	struct exec_status	 st;
	struct fio_result	 res;
	int			 waited, parsed;
};

static const char *
pick(const struct strvec *sv, int i, const char *def)
{
	return sv->n > 0 ? sv->v[(size_t)i % sv->n] : def;
}

/* Write a weight and read it back: "100" (v1) or "default 100" (v2). */
static int
put_weight(const char *file, const char *w, char **cause)
{
	char	*v, *last;
	int	 r;

	if (write_small_file(file, w, cause) == -1)
		return -1;
	if ((v = read_small_file(file, cause)) == NULL)
		return -1;
	v[strcspn(v, "\n")] = '\0';
	last = strrchr(v, ' ');
	last = last != NULL ? last + 1 : v;
	r = strcmp(last, w) == 0 ? 0 : set_cause(cause, "weight %s written "
	    "to '%s', which reads '%s'", w, file, v);
	free(v);
	return r;
}

/*
 * The weight of a member's cgroup: v1 blkio.bfq.weight; v2 io.bfq.weight
 * (bfq's, there while bfq is loaded) and io.weight (the io cost model's,
 * what counts on a disk bfq does not schedule), each that the cgroup
 * has. On v2 every controller shares one directory: asking for "blkio"
 * there gives it, with v1's file name.
 */
static int
set_weight(struct workload *wl, struct exec_proc *p, const char *w,
    char **cause)
{
	static const char *const v2files[] = { "io.bfq.weight", "io.weight" };
	char	*dir, *file;
	int	 r = 0, n = 0;
	size_t	 i;

	if (cgrp_version() == 2) {
		if ((dir = wl->exec->cgroup_dir(p, NULL)) == NULL)
			return set_cause(cause, "no cgroup found for weight "
			    "%s", w);
		for (i = 0; i < ARRAY_SIZE(v2files) && r == 0; i++) {
			file = xasprintf("%s/%s", dir, v2files[i]);
			if (access(file, F_OK) == 0) {
				n++;
				r = put_weight(file, w, cause);
			}
			free(file);
		}
		if (r == 0 && n == 0)
			r = set_cause(cause, "weight %s: no io.bfq.weight nor "
			    "io.weight in '%s': the io controller is not "
			    "enabled for it (its parent's "
			    "cgroup.subtree_control)", w, dir);
		free(dir);
		return r;
	}
	if ((dir = wl->exec->cgroup_dir(p, "blkio")) == NULL)
		return set_cause(cause, "no blkio cgroup found for weight %s",
		    w);
	file = xasprintf("%s/blkio.bfq.weight", dir);
	r = put_weight(file, w, cause);
	free(file);
	free(dir);
	return r;
}

static void
add_metrics(struct workload *wl, struct fio_member *m, int n,
    struct sample_result *out)
{
	double	*iops = xcalloc((size_t)n, sizeof *iops);
	double	 total = 0, med;
	char	*name, *bn = bench_name(wl);
	int	 i, same = 1;

	for (i = 0; i < n; i++) {
		iops[i] = m[i].res.iops;
		total += iops[i];
		if (strcmp(m[i].label, m[0].label) != 0)
			same = 0;
	}
	if (n == 1) {
		/*
		 * gVisor's fs rows: bandwidth and io_ops are per job (the
		 * mean over numjobs), the *_all_jobs metrics their sum.
		 */
		const struct fio_opts	*o = wl_opts(wl, NULL);
		double			 nj = (double)o->numjobs;

		sample_result_add(out, bn, "bandwidth.bytes_per_second",
		    m[0].res.bw_bytes / nj);
		sample_result_add(out, bn,
		    "bandwidth_all_jobs.bytes_per_second", m[0].res.bw_bytes);
		sample_result_add(out, bn, "io_ops.ops_per_second",
		    m[0].res.iops / nj);
		sample_result_add(out, bn, "io_ops_all_jobs.ops_per_second",
		    m[0].res.iops);
		sample_result_add(out, bn, "sec/op",
		    (double)m[0].res.runtime_ms / 1e3);
		if (o->iops)
			sample_result_add(out, bn, "iops", m[0].res.iops);
		free(iops);
		free(bn);
		return;
	}
	if (same) {
		for (i = 0; i < n; i++) {
			name = xasprintf("%s/c%d/%s/container=%d", bn,
			    n, m[i].label, i);
			sample_result_add(out, name, "iops", iops[i]);
			free(name);
		}
		xqsort(iops, (size_t)n, sizeof *iops, cmp_double);
		med = n % 2 ? iops[n / 2] : (iops[n / 2 - 1] + iops[n / 2]) / 2;
		name = xasprintf("%s/c%d/%s-total", bn, n, m[0].label);
		sample_result_add(out, name, "iops", total);
		free(name);
		name = xasprintf("%s/c%d/%s-median", bn, n, m[0].label);
		sample_result_add(out, name, "iops", med);
		free(name);
		name = xasprintf("%s/c%d/%s-min", bn, n, m[0].label);
		sample_result_add(out, name, "iops", iops[0]);
		free(name);
	} else {
		for (i = 0; i < n; i++) {
			int	j, dup = 0;

			for (j = 0; j < n; j++) {
				if (j != i && strcmp(m[j].label,
				    m[i].label) == 0)
					dup = 1;
			}
			if (dup)
				name = xasprintf("%s/%s/container=%d",
				    bn, m[i].label, i);
			else
				name = xasprintf("%s/%s", bn,
				    m[i].label);
			sample_result_add(out, name, "iops", iops[i]);
			free(name);
		}
		name = xasprintf("%s/total", bn);
		sample_result_add(out, name, "iops", total);
		free(name);
	}
	free(iops);
	free(bn);
}

/* One sample of fio: setup, start, write the data, measure, collect. */
struct fio_run {
	struct run_ctx		*ctx;
	struct workload		*wl;
	const struct arm	*arm;
	int			 n;		/* containers */
	int			 local;		/* host processes */
	const struct fio_opts	*o;		/* the arm's keys */
	const char		*dir;
	const char		*datadir;	/* where fio finds its files */
	struct fio_member	*m;
	struct exec_mount	 data;		/* the data's mount */
	size_t			 ndata;
	int			 prep_inside;	/* fio_prep writes the data */
	struct exec_barrier	*bar;		/* n > 1 or prep_inside */
	char			*tmpfs_opt;
	/* perf = ...: one perf stat of every fio, on when they start. */
	struct perf_stat	*perf;
	const char		*perf_procs;
	int			 perf_on;
	struct wl_counts	 counts;
};

/* Setup: the start barrier and where the data files live. */
static int
fio_setup(struct fio_run *r, struct sample_result *out)
{
	int64_t	 tmpfs_mb;
	char	*cause = NULL;

	r->prep_inside = !r->local && r->o->fs != FIO_FS_BIND &&
	    need_prep(r->wl);
	if ((r->n > 1 || r->prep_inside) && (r->bar = exec_barrier_new(r->ctx,
	    r->wl->exec, r->n, &cause)) == NULL) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
		return -1;
	}
	memset(&r->data, 0, sizeof r->data);
	r->ndata = 0;
	if (r->local)
		r->datadir = r->dir;
	else if (r->o->fs == FIO_FS_BIND) {
		r->data.type = "bind";
		r->data.source = r->dir;
		r->data.target = FIO_DATA_DIR;
		r->ndata = 1;
		r->datadir = FIO_DATA_DIR;
	} else if (r->o->fs == FIO_FS_TMPFS) {
		tmpfs_mb = (int64_t)(r->o->size * (uint64_t)r->o->numjobs /
		    1048576) * 5 / 4 + 16;
		r->tmpfs_opt = xasprintf("size=%lldm", (long long)tmpfs_mb);
		r->data.type = "tmpfs";
		r->data.target = FIO_DATA_DIR;
		r->data.options = r->tmpfs_opt;
		r->ndata = 1;
		r->datadir = FIO_DATA_DIR;
	} else
		r->datadir = FIO_ROOTFS_DIR;
	return 0;
}

/*
 * Start: fio i. With N > 1 it waits at the start barrier as its
 * exec_prerun (fio runs it in each job, numjobs times); when its data is
 * written inside the container first, fio itself starts only once that
 * is done (the barrier's helper waits for FIO_PREPPED, then execs fio).
 */
static int
fio_start_one(struct fio_run *r, int i, struct sample_result *out)
{
	struct workload		*wl = r->wl;
	struct fio_member	*m = &r->m[i];
	struct exec_spec	 spec;
	struct strvec		 av = STRVEC_INIT;
	const char		*rt = pick(&r->o->runtimes, i,
				    r->arm->runtime);
	const char		*w = pick(&r->o->weights, i, NULL);
	char			*cause = NULL;
	int			 rc = 0;

	m->label = xasprintf("%s%s%s", rt != NULL ? rt :
	    wl->exec->runtime_label, w ? "-w" : "", w ? w : "");
	workload_spec_init(&spec, wl, r->arm, NULL);
	spec.runtime = rt;
	/* No CPU or memory limit: the type has no such keys. */
	spec.mounts = &r->data;
	spec.nmounts = r->ndata;
	spec.capture = 1;
	spec.detach = 1;
	spec.join_procs = r->perf_procs;
	if (r->bar != NULL)
		rc = exec_barrier_join(r->bar, i, &spec, &cause);
	if (rc == 0) {
		if (r->prep_inside) {
			strvec_push(&av, exec_barrier_prog(r->bar));
			strvec_push(&av, FIO_PREPPED);
		}
		push_measured(&av, wl, r->arm, i, r->datadir);
		if (r->n > 1)
			strvec_push(&av, "--exec_prerun=" EXEC_BARRIER_SH);
		spec.argv = av.v;
		rc = wl->exec->start(r->ctx, &spec, &m->proc, &cause);
	}
	strvec_clear(&av);
	if (rc == -1)
		sample_result_fail(out, SAMPLE_STATUS_FAILED,
		    "starting fio %d of %d (%s): %s", i + 1, r->n, m->label,
		    cause);
	else if (w != NULL && (rc = set_weight(wl, m->proc, w,
	    &cause)) == -1)
		sample_result_fail(out, SAMPLE_STATUS_FAILED,
		    "container %d: %s", i, cause);
	free(cause);
	return rc;
}

/*
 * perf = ...: the counters on, once, as the fio runs are let go (the
 * start barrier, or the end of the writing inside a container), each
 * sandbox checked to be in the counted cgroup while it waits there.
 */
static int
fio_perf_on(struct fio_run *r, struct sample_result *out)
{
	char	*cause = NULL;
	long	 pid;
	int	 i;

	if (r->perf == NULL || r->perf_on)
		return 0;
	for (i = 0; !r->local && i < r->n; i++) {
		pid = r->wl->exec->pid(r->m[i].proc);
		if (pid <= 0 || perf_stat_holds(r->perf, pid, &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: "
			    "fio %d: %s", i + 1, pid <= 0 ? "no sandbox "
			    "process to count" : cause);
			free(cause);
			return -1;
		}
	}
	if (perf_stat_enable(r->perf, &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: %s",
		    cause);
		free(cause);
		return -1;
	}
	r->perf_on = 1;
	return 0;
}

/* Files inside the container (rootfs, tmpfs): written there now. */
static int
fio_prep(struct fio_run *r, struct sample_result *out)
{
	const struct exec_ops	*ex = r->wl->exec;
	char			*cause = NULL;
	int			 i;

	for (i = 0; i < r->n; i++) {
		struct strvec	 av = STRVEC_INIT;
		char		*o = NULL;
		int		 status = -1, rc = -1;

		push_prep(&av, r->wl, i, r->datadir);
		if (ex->exec_into != NULL)
			rc = ex->exec_into(r->m[i].proc, av.v,
			    FIO_PREP_TIMEOUT_NS, &o, &status, &cause);
		else
			rc = set_cause(&cause, "executor '%s' cannot write "
			    "files inside the container", ex->name);
		strvec_clear(&av);
		if (rc == 0 && status != 0) {
			struct fio_result	res;

			fio_json_parse(o, o ? strlen(o) : 0, &res, NULL);
			cause = fio_result_error(&res, NULL);
			fio_result_release(&res);
			rc = -1;
		}
		free(o);
		if (rc == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "writing the data of container %d: %s", i, cause);
			free(cause);
			return -1;
		}
	}
	/* What was just written must not be read from the cache
	 * (pitfall 2: runsc reads O_DIRECT from the page cache). */
	if (r->wl->drop_caches && hostset_drop_caches(&cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
		return -1;
	}
	/* fio may start now (a single one: at once). */
	if (r->n == 1 && fio_perf_on(r, out) == -1)
		return -1;
	if (exec_barrier_signal(r->bar, FIO_PREPPED, &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/*
 * Measure: N > 1 all ready at the start barrier, released together; each
 * waited for.
 */
static int
fio_measure(struct fio_run *r, struct sample_result *out)
{
	const struct fio_opts	*o = r->o;
	struct exec_proc	**procs;
	int64_t			 until = now_mono_ns() + FIO_READY_TIMEOUT_NS;
	char			*cause = NULL;
	int			*per, i, rc = 0;

	out->start_ns = now_mono_ns();
	if (r->n > 1) {
		procs = xcalloc((size_t)r->n, sizeof *procs);
		per = xcalloc((size_t)r->n, sizeof *per);
		for (i = 0; i < r->n; i++) {
			procs[i] = r->m[i].proc;
			per[i] = o->numjobs;
		}
		if (r->ctx->deadline_ns > 0 && r->ctx->deadline_ns < until)
			until = r->ctx->deadline_ns;
		rc = exec_barrier_wait_ready(r->bar, procs, per, until,
		    &cause);
		if (rc == 0 && fio_perf_on(r, out) == -1) {
			free(procs);
			free(per);
			return -1;
		}
		if (rc == 0 && (out->start_ns = exec_barrier_release(r->bar,
		    &cause)) == -1)
			rc = -1;
		free(procs);
		free(per);
		if (rc == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED, "fio: %s",
			    cause);
			free(cause);
			return -1;
		}
	}
	for (i = 0; i < r->n; i++) {
		if (r->wl->exec->wait(r->ctx, r->m[i].proc,
		    r->ctx->deadline_ns, &r->m[i].st, &cause) == -1) {
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "container %d: %s", i, cause);
			free(cause);
			return -1;
		}
		r->m[i].waited = 1;
	}
	out->end_ns = now_mono_ns();
	return 0;
}

/*
 * Fraction of the longest run during which all ran. A run is its I/O: it
 * starts when its fio was released from the start line (the helper's
 * clock, exec_barrier_released_at) and lasts fio's runtime, the time its
 * iops are counted over (fio starts that clock after its exec_prerun).
 * Where a member's release time is missing (no barrier), the start is
 * fio's report time less its runtime: that end also holds fio's teardown
 * after the I/O (closing, reaping its jobs, the JSON), which under a
 * sandbox at load differs by hundreds of milliseconds between the runs
 * and is not part of what they measure. With the ratio, what explains it
 * for a failed sample's message: how far apart the runs started and their
 * shortest and longest runtime.
 */
struct overlap {
	double	 ratio;
	int64_t	 start_spread_ms;	/* latest start less the earliest */
	int64_t	 runtime_min_ms, runtime_max_ms;
	int	 released;		/* starts read from the barrier */
};

static void
overlap_measure(const struct fio_run *r, struct overlap *ov)
{
	const struct fio_member	*m = r->m;
	int64_t	start_max = INT64_MIN, start_min = INT64_MAX;
	int64_t	end_min = INT64_MAX, first;
	int	i, n = r->n;

	memset(ov, 0, sizeof *ov);
	ov->runtime_min_ms = INT64_MAX;
	for (i = 0; i < n; i++) {
		int64_t	rt = m[i].res.runtime_ms;
		int64_t	start = m[i].res.timestamp_ms - rt;

		if (r->bar != NULL &&
		    exec_barrier_released_at(r->bar, i, &first) > 0) {
			start = first / 1000000;
			ov->released++;
		}
		if (start > start_max)
			start_max = start;
		if (start < start_min)
			start_min = start;
		if (start + rt < end_min)
			end_min = start + rt;
		if (rt > ov->runtime_max_ms)
			ov->runtime_max_ms = rt;
		if (rt < ov->runtime_min_ms)
			ov->runtime_min_ms = rt;
	}
	if (n == 0)
		return;
	ov->start_spread_ms = start_max - start_min;
	if (ov->runtime_max_ms > 0 && end_min > start_max)
		ov->ratio = (double)(end_min - start_max) /
		    (double)ov->runtime_max_ms;
}

/* Collect: each fio's JSON, their overlap, the metrics. */
static int
fio_collect(struct fio_run *r, struct sample_result *out)
{
	struct fio_member	*m = r->m;
	char			*cause = NULL;
	int			 i, n = r->n;

	for (i = 0; i < n; i++) {
		struct exec_status	*st = &m[i].st;
		int			 pr;

		if (st->timed_out) {
			sample_result_fail(out, SAMPLE_STATUS_TIMEOUT,
			    "fio %d (%s) timed out", i, m[i].label);
			return -1;
		}
		pr = fio_json_parse(st->out, st->outlen, &m[i].res, &cause);
		m[i].parsed = pr == 0;
		if (pr == -1 || m[i].res.error != 0 ||
		    !WIFEXITED(st->status) || WEXITSTATUS(st->status) != 0) {
			char	*how = exec_status_describe(st);
			char	*msg = pr == 0 ?
			    fio_result_error(&m[i].res, st->err) :
			    xstrdup(cause);

			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "fio %d (%s) %s: %s", i, m[i].label, how,
			    st->err != NULL && *st->err && pr == -1 ?
			    st->err : msg);
			free(how);
			free(msg);
			free(cause);
			return -1;
		}
	}
	if (n > 1) {
		struct overlap	ov;
		double		min = r->o->overlap_min;
		char		*bn = bench_name(r->wl);
		char		*name = xasprintf("%s/c%d/overlap", bn, n);

		free(bn);
		overlap_measure(r, &ov);
		if (ov.ratio < min) {
			int	 v = bench_gomaxprocs(), k = n / 2;
			char	*la = read_small_file("/proc/loadavg", NULL);

			if (k > 2 * v)
				k = 2 * v;
			if (k < 1)
				k = 1;
			if (la != NULL && strchr(la, ' ') != NULL)
				*strchr(la, ' ') = '\0';
			sample_result_fail(out, SAMPLE_STATUS_FAILED,
			    "the %d fio runs overlapped only %.1f%% of the "
			    "longest (overlap-min %.0f%%; %s %" PRId64
			    " ms apart, ran %" PRId64 " to %" PRId64 " ms): "
			    "this host (%d vCPUs, load average %s) cannot "
			    "run them together; use fewer containers (e.g. "
			    "containers = %d), a longer duration, or a "
			    "quieter host", n, ov.ratio * 100, min * 100,
			    ov.released == n ? "released" : "started",
			    ov.start_spread_ms, ov.runtime_min_ms,
			    ov.runtime_max_ms, v, la != NULL ? la : "?", k);
			free(la);
			free(name);
			return -1;
		}
		sample_result_add(out, name, "overlap-ratio", ov.ratio);
		free(name);
	}
	add_metrics(r->wl, m, n, out);
	if (m[0].res.version != NULL && *m[0].res.version)
		strvec_pushf(&out->config, "fio-version: %s",
		    m[0].res.version);
	return 0;
}

static void
fio_release(struct fio_run *r)
{
	int	 i;

	for (i = 0; i < r->n; i++) {
		if (r->m[i].proc != NULL)
			r->wl->exec->destroy(r->ctx, r->m[i].proc);
		exec_status_release(&r->m[i].st);
		fio_result_release(&r->m[i].res);
		free(r->m[i].label);
	}
	free(r->m);
	/* After the containers: they bind-mount its directory. */
	exec_barrier_free(r->bar);
	perf_stat_free(r->perf);
	workload_counts_release(&r->counts);
	free(r->tmpfs_opt);
}

/* perf = ...: its session, counters off until the fio runs are let go. */
static int
fio_perf_start(struct fio_run *r, struct sample_result *out)
{
	char	*cause = NULL;

	if (perf_events_parse(r->o->perf, &r->counts.events, &cause) == -1 ||
	    (r->perf = perf_stat_start(r->ctx, &r->counts.events,
	    r->bar == NULL, &r->perf_procs, &cause)) == NULL) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: %s",
		    cause);
		free(cause);
		return -1;
	}
	/* A single fio that nothing holds back starts with the counters. */
	r->perf_on = r->bar == NULL;
	return 0;
}

/* The counts of every fio, as rows of the workload's benchmark. */
static void
fio_perf_add(struct fio_run *r, struct sample_result *out)
{
	char	*cause = NULL, *bn;

	r->counts.values = xcalloc(r->counts.events.n,
	    sizeof *r->counts.values);
	if (perf_stat_stop(r->perf, r->counts.values, &cause) == -1) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "perf: %s",
		    cause);
		free(cause);
		return;
	}
	r->counts.counted = 1;
	bn = bench_name(r->wl);
	workload_counts_add(out, bn, &r->counts);
	free(bn);
}

static void
fio_sample(struct run_ctx *ctx, struct workload *wl, const struct arm *arm,
    struct sample_result *out)
{
	struct fio_run	r;
	int		i;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.wl = wl;
	r.arm = arm;
	r.o = wl_opts(wl, arm);
	r.n = r.o->containers;
	r.dir = wl->common.dir;
	r.local = !(wl->exec->caps & EXEC_CONTAINER);
	r.m = xcalloc((size_t)r.n, sizeof *r.m);
	if (fio_setup(&r, out) == -1)
		goto done;
	if (r.o->perf != NULL && fio_perf_start(&r, out) == -1)
		goto done;
	/* Start all N; each waits at the start barrier. */
	for (i = 0; i < r.n && !run_should_stop(ctx); i++) {
		if (fio_start_one(&r, i, out) == -1)
			goto done;
	}
	if (run_should_stop(ctx)) {
		sample_result_fail(out, SAMPLE_STATUS_FAILED, "interrupted");
		goto done;
	}
	if (r.prep_inside && fio_prep(&r, out) == -1)
		goto done;
	if (fio_measure(&r, out) == 0 && fio_collect(&r, out) == 0 &&
	    r.perf != NULL)
		fio_perf_add(&r, out);
done:
	fio_release(&r);
}

static const char *const fio_units[] = {
	"bandwidth.bytes_per_second", "higher",
	"io_ops.ops_per_second", "higher",
	"bandwidth_all_jobs.bytes_per_second", "higher",
	"io_ops_all_jobs.ops_per_second", "higher",
	"sec/op", "lower",
	"iops", "higher",
	"overlap-ratio", "higher",
	NULL
};

/* Weights are written in the io controller's files (v2). */
static void
fio_cgroup_needs(const struct experiment *e, const struct workload *wl,
    struct exec_check *chk)
{
	const struct fio_opts	*o = wl_opts(wl, NULL);

	if (o->weights.n > 0)
		workload_need(chk->io_need, sizeof chk->io_need, e, wl, NULL,
		    "weights");
}

const struct workload_ops wl_fio_ops = {
	.type = "fio",
	.help = "fio in 1..N concurrent containers released together",
	.opts = fio_opts,
	.opts_size = sizeof(struct fio_opts),
	.default_exec = EXEC_DEFAULT_DAEMON,
	.validate = fio_validate,
	.prepare = fio_prepare,
	.sample = fio_sample,
	.cleanup = fio_cleanup,
	.units = fio_units,
	.cgroup_needs = fio_cgroup_needs,
};
