/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local executor: a host process in its own cgroup (made with
 * libcgroup below the run's cgroup, itself below abbench's own), so that
 * its CPU, memory and block I/O are accounted and controlled apart.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/barrier.h"
#include "exec/exec.h"
#include "exec/context.h"
#include "exec/spawn.h"

struct exec_proc {
	struct child	 child;
	struct cgrp	*cg;
	int		*fds;		/* cg's cgroup.procs open, -1 ended */
	int		 pooled;	/* cg goes back to the pool */
	int		 home;		/* cg is home's (not ours to free) */
	int		 errp;		/* the child writes to errp_shared */
	struct strvec	 procs;		/* cg's and spec->join_procs */
};

/*
 * Cgroups without limits are kept for the next sample instead of being
 * removed and made again (four hierarchies each way on v1): the child's
 * time is not affected, the harness's overhead per sample is. They live
 * below the run's cgroup, which is removed (with them) at the end. With
 * each, its cgroup.procs files open (close-on-exec): the child writes its
 * pid to them without a path walk per hierarchy (about 90 us a sample
 * here); an open file does not keep rmdir from removing the cgroup.
 */
#define POOL_MAX 64
static struct pooled {
	struct cgrp	*cg;
	int		*fds;
}			 pool[POOL_MAX];
static size_t		 npool;
static char		 pool_run[64];

/*
 * cgroup v1: the run's cgroup "<run>/home" that abbench moves into at the
 * first program that may be born there (exec_spec.home), so that it and
 * the next ones join no cgroup (cgroup-home.c says what that saves). One
 * program at a time; after each, what it left there is killed, as a
 * pooled cgroup that is not empty is removed. v2 (and a mock tree) keep
 * the join: CLONE_INTO_CGROUP would be v2's way, not done.
 */
static struct cgrp	*home;
static const char *const home_controllers[] = {
	"cpu", "cpuacct", "memory", "blkio", "pids", NULL
};
static int		 home_busy;
static int		 home_version;

/*
 * The stderr pipe of the programs run one at a time in a cgroup of the
 * run's (home's or a pooled one, where what one leaves behind is found):
 * kept from one to the next (SPAWN_ERR_SHARED). Made again after a
 * program that left processes, which may still hold it: they get the
 * old one, whose reader is gone, as they would without sharing.
 */
static int		 errp_shared[2] = { -1, -1 };
static int		 errp_busy;

static void
errp_drop(void)
{
	if (errp_shared[0] != -1) {
		close(errp_shared[0]);
		close(errp_shared[1]);
	}
	errp_shared[0] = errp_shared[1] = -1;
}

/* The shared pipe, made at the first use: 0, -1 without one. */
static int
errp_take(void)
{
	if (errp_busy)
		return -1;
	if (errp_shared[0] == -1) {
		if (pipe2(errp_shared, O_CLOEXEC) == -1)
			return -1;
		if (fcntl(errp_shared[0], F_SETFL, O_NONBLOCK) == -1) {
			errp_drop();
			return -1;
		}
	}
	errp_busy = 1;
	return 0;
}

/* The home cgroup for a program of spec, made and entered at the first;
 * NULL when the program must join a cgroup of its own. */
static struct cgrp *
home_take(struct run_ctx *ctx, const struct exec_spec *spec)
{
	char	*rel, *cause = NULL;
	int	 rc = 0;

	if (!spec->home || spec->join_procs != NULL || spec->own_rss ||
	    spec->cgroup_parent != NULL || spec->cpus > 0 ||
	    spec->memory != 0 || ctx->no_cgroup[0] != '\0' || home_busy)
		return NULL;
	/* Once a run: cgrp_version() is a statfs. */
	if (home_version == 0)
		home_version = cgrp_home_possible() ? 1 : -1;
	if (home_version != 1)
		return NULL;
	if (home != NULL && !cgrp_home_active()) {
		/* Moved out (its directory was removed): made again. */
		cgrp_free(home);
		home = NULL;
	}
	if (home == NULL) {
		rel = xasprintf("%s/home", ctx->cgroup_name);
		/* With pids, whose counter tells whether to look inside. */
		if ((home = cgrp_create(rel, home_controllers, NULL)) == NULL)
			home = cgrp_create(rel, NULL, &cause);
		free(rel);
		if (home != NULL && (rc = cgrp_home_enter(home, &cause)) != 0) {
			cgrp_remove(home, NULL);
			cgrp_free(home);
			home = NULL;
		}
		if (home == NULL && rc == -2) {
			/* Not ours to leave again: the join per sample. */
			home_version = -1;
			return NULL;
		}
		if (home == NULL) {
			/* The join per sample still works: said, not fatal. */
			warning("%s: each program joins its cgroup", cause);
			free(cause);
			home_version = -1;
			return NULL;
		}
	}
	home_busy = 1;
	return home;
}

static void
close_fds(int *fds)
{
	size_t	i;

	for (i = 0; fds != NULL && fds[i] != -1; i++)
		close(fds[i]);
	free(fds);
}

/* cg's cgroup.procs files open for writing, -1 ended; NULL if one is not. */
static int *
open_procs(const struct cgrp *cg)
{
	int	*fds = xcalloc(cg->procs.n + 1, sizeof *fds);
	size_t	 i;

	for (i = 0; i <= cg->procs.n; i++)
		fds[i] = -1;
	for (i = 0; i < cg->procs.n; i++) {
		if ((fds[i] = open(cg->procs.v[i], O_WRONLY | O_CLOEXEC)) ==
		    -1) {
			close_fds(fds);
			return NULL;
		}
	}
	return fds;
}

static int
local_check(struct run_ctx *ctx, const struct exec_check *chk,
    char **cause)
{
	char	*dir;

	char	*why = NULL;

	/* abbench must be able to make cgroups below its own. */
	if ((dir = cgrp_self_dir(cgrp_version() == 2 ? NULL : "cpu",
	    cause)) == NULL)
		return -1;
	free(dir);
	if (cgrp_can_create(&why) == 0) {
		/*
		 * v2: a child of our cgroup can be made, and the controllers
		 * the arms' limits need were delegated to it.
		 */
		if (chk->cpu_need[0] == '\0' && chk->memory_need[0] == '\0' &&
		    chk->io_need[0] == '\0' &&
		    cgrp_check_delegation(NULL, NULL, &why) == -1) {
			if (!chk->cgroup_optional) {
				*cause = why;
				return -1;
			}
			snprintf(ctx->no_cgroup, sizeof ctx->no_cgroup, "%s",
			    why);
			free(why);
			return 0;
		}
		return exec_check_needs(chk, cause);
	}
	if (!chk->cgroup_optional && chk->cgroup_need[0] != '\0') {
		set_cause(cause, "%s: a limit needs a cgroup per program: "
		    "%s: run abbench as root, or remove the limit",
		    chk->cgroup_need, why);
		free(why);
		return -1;
	}
	if (!chk->cgroup_optional) {
		set_cause(cause, "%s: this workload needs a cgroup per "
		    "program%s: run abbench as root", why, geteuid() != 0 ?
		    " and abbench is not root" : "");
		free(why);
		return -1;
	}
	/* Times and rusage need none: the programs run in ours. */
	snprintf(ctx->no_cgroup, sizeof ctx->no_cgroup, "%s", why);
	free(why);
	return 0;
}

static int
local_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	static unsigned		 counter;
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	char			*rel;

	if (strcmp(pool_run, ctx->cgroup_name) != 0) {
		/* A new run: the old run's cgroups are gone with it. */
		while (npool > 0) {
			npool--;
			cgrp_free(pool[npool].cg);
			close_fds(pool[npool].fds);
		}
		snprintf(pool_run, sizeof pool_run, "%s", ctx->cgroup_name);
		if (home != NULL) {
			cgrp_home_leave();
			cgrp_free(home);
			home = NULL;
		}
		home_busy = 0;
		home_version = 0;
	}
	p->pooled = spec->cgroup_parent == NULL && spec->cpus <= 0 &&
	    spec->memory == 0;
	if (ctx->no_cgroup[0] != '\0') {
		/* The check allowed it: nothing to limit or read. */
		if (!p->pooled) {
			free(p);
			return set_cause(cause, "a cpu or memory limit needs "
			    "a cgroup: %s", ctx->no_cgroup);
		}
		p->pooled = 0;
	} else if (p->pooled && (p->cg = home_take(ctx, spec)) != NULL) {
		p->home = 1;
	} else if (p->pooled && npool > 0) {
		npool--;
		p->cg = pool[npool].cg;
		p->fds = pool[npool].fds;
	} else {
		if (spec->cgroup_parent != NULL)
			rel = xasprintf("%s/%s/l%u", ctx->cgroup_name,
			    spec->cgroup_parent, counter++);
		else
			rel = xasprintf("%s/l%u", ctx->cgroup_name, counter++);
		p->cg = cgrp_create(rel, NULL, cause);
		free(rel);
		if (p->cg != NULL && p->pooled)
			p->fds = open_procs(p->cg);
	}
	if (p->cg == NULL && ctx->no_cgroup[0] == '\0') {
		free(p);
		return -1;
	}
	if (spec->cpus > 0 && cgrp_set_cpu_limit(p->cg, spec->cpus,
	    CGRP_CFS_PERIOD_US, cause) == -1)
		goto fail;
	if (spec->memory > 0) {
		char	buf[32];

		snprintf(buf, sizeof buf, "%llu",
		    (unsigned long long)spec->memory);
		if (cgrp_write(p->cg, "memory", p->cg->version == 2 ?
		    "memory.max" : "memory.limit_in_bytes", buf, cause) == -1)
			goto fail;
	}
	p->child.argv = spec->argv;
	p->child.env_add = spec->env;
	/* Born in home: nothing to join. */
	p->child.cgroup_procs = p->cg != NULL && !p->home ? p->cg->procs.v :
	    NULL;
	p->child.cgroup_fds = p->fds;
	if (spec->join_procs != NULL) {
		if (p->cg != NULL)
			strvec_pushv(&p->procs, p->cg->procs.v);
		strvec_push(&p->procs, spec->join_procs);
		p->child.cgroup_procs = p->procs.v;
		/* One more to join than the pool's fds: by the paths. */
		p->child.cgroup_fds = NULL;
	}
	p->child.flags = spec->capture ?
	    SPAWN_CAPTURE_OUT | SPAWN_CAPTURE_ERR :
	    SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
	if (spec->home && p->cg != NULL && (p->home || p->pooled) &&
	    errp_take() == 0) {
		p->errp = 1;
		p->child.flags |= SPAWN_ERR_SHARED;
		p->child.err_pipe[0] = errp_shared[0];
		p->child.err_pipe[1] = errp_shared[1];
	}
	if (spec->own_rss)
		p->child.flags |= SPAWN_OWN_RSS;
	p->child.on_out = spec->capture ? spec->on_out : NULL;
	p->child.on_out_arg = spec->on_out_arg;
	if (spawn_start(&p->child, cause) == -1)
		goto fail;
	*procp = p;
	return 0;

fail:
	if (p->errp)
		errp_busy = 0;
	if (p->home)
		home_busy = 0;
	else if (p->cg != NULL) {
		cgrp_remove(p->cg, NULL);
		cgrp_free(p->cg);
	}
	close_fds(p->fds);
	strvec_clear(&p->procs);
	free(p);
	return -1;
}

static int
local_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	(void)ctx;
	memset(st, 0, sizeof *st);
	if (spawn_wait(&p->child, deadline_ns, cause) == -1)
		return -1;
	exec_status_from_child(st, &p->child);
	/* A pooled cgroup has no limit, and counts from earlier samples. */
	if (p->cg != NULL && !p->pooled)
		st->oom_kills = cgrp_oom_kills(p->cg);
	return 0;
}

static void
local_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	int	left;

	(void)ctx;
	if (p == NULL)
		return;
	spawn_release(&p->child);
	left = p->child.group_left;
	if (p->home) {
		/* What the program left in home, as a pool's cgroup would. */
		if (cgrp_home_sweep(spawn_helper_pid()) != 0)
			left = 1;
		home_busy = 0;
		p->cg = NULL;
	}
	if (p->cg != NULL && p->pooled && npool < POOL_MAX) {
		/* Its own version: cgrp_version() is a statfs per sample. */
		char	*procs = cgrp_read(p->cg, p->cg->version == 2 ? NULL :
		    "cpu", "cgroup.procs", NULL);

		/* Only an empty cgroup is reused. */
		if (procs != NULL && procs[0] == '\0') {
			pool[npool].cg = p->cg;
			pool[npool].fds = p->fds;
			npool++;
			p->cg = NULL;
			p->fds = NULL;
		}
		free(procs);
	}
	if (p->cg != NULL) {
		/* Not reused: it may not have been empty. */
		left = 1;
		cgrp_remove(p->cg, NULL);
		cgrp_free(p->cg);
	}
	if (p->errp) {
		if (left)
			errp_drop();
		errp_busy = 0;
	}
	close_fds(p->fds);
	strvec_clear(&p->procs);
	free(p);
}

static char *
local_cgroup_dir(struct exec_proc *p, const char *controller)
{
	const char	*d = p->cg != NULL ? cgrp_dir(p->cg, controller) : NULL;

	return d != NULL ? xstrdup(d) : NULL;
}

static const char *
local_peek(struct exec_proc *p)
{
	return spawn_peek(&p->child);
}

static long
local_pid(struct exec_proc *p)
{
	return p->child.reaped ? -1 : (long)p->child.pid;
}

static int
local_signal(struct exec_proc *p, int sig, char **cause)
{
	long	pid = local_pid(p);

	if (pid <= 0)
		return 0;	/* reaped already: nothing to signal */
	if (kill((pid_t)pid, sig) == -1)
		return set_cause(cause, "cannot signal %ld: %s", pid,
		    strerror(errno));
	return 0;
}

const struct exec_ops exec_local_ops = {
	.name = "local",
	.caps = EXEC_CGROUP_PARENT,
	.runtime_label = "local",
	.check = local_check,
	.start = local_start,
	.wait = local_wait,
	.destroy = local_destroy,
	.cgroup_dir = local_cgroup_dir,
	.pid = local_pid,
	.peek = local_peek,
	.signal = local_signal,
	.barrier_join = exec_barrier_join_host,
};
