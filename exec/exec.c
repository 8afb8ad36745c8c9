/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static table of executors, and what the executors share: spec
 * defaults from the current sample, exec_status helpers.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "exec/cgroup.h"
#include "exec/exec.h"
#include "exec/context.h"
#include "exec/spawn.h"

extern const struct exec_ops exec_local_ops;
extern const struct exec_ops exec_docker_ops;
extern const struct exec_ops exec_oci_ops;
extern const struct exec_ops exec_podman_ops;
extern const struct exec_ops exec_crun_ops;
extern const struct exec_ops exec_unshare_ops;

const struct exec_ops *const exec_types[] = {
	&exec_local_ops,
	&exec_docker_ops,
	&exec_oci_ops,
	&exec_podman_ops,
	&exec_crun_ops,
	&exec_unshare_ops,
	NULL
};

const struct exec_ops *
exec_lookup(const char *name)
{
	const struct exec_ops *const	*e;

	for (e = exec_types; *e != NULL; e++) {
		if (strcmp((*e)->name, name) == 0)
			return *e;
	}
	return NULL;
}

const char *
exec_names(void)
{
	static char			*names;
	const struct exec_ops *const	*e;
	struct strbuf			 sb = STRBUF_INIT;

	if (names != NULL)
		return names;
	for (e = exec_types; *e != NULL; e++)
		strbuf_addf(&sb, "%s%s", e == exec_types ? "" : " ",
		    (*e)->name);
	names = strbuf_detach(&sb);
	return names;
}

const struct exec_ops *
exec_lookup_caps(int caps)
{
	const struct exec_ops *const	*e;

	for (e = exec_types; *e != NULL; e++) {
		if (((*e)->caps & caps) == caps)
			return *e;
	}
	return NULL;
}

const char *
exec_missing(const struct exec_ops *ex, int hooks)
{
	if ((hooks & EXEC_HOOK_GOFER_PID) && ex->gofer_pid == NULL)
		return "gofer_pid";
	if ((hooks & EXEC_HOOK_CONTAINER_NAME) && ex->container_name == NULL)
		return "container_name";
	if ((hooks & EXEC_HOOK_RUN_ONCE) && ex->run_once == NULL)
		return "run_once";
	if ((hooks & EXEC_HOOK_CREATE_START) && ex->create_start == NULL)
		return "create_start";
	if ((hooks & EXEC_HOOK_CHECKPOINT) && (ex->checkpoint == NULL ||
	    ex->restore == NULL))
		return "checkpoint";
	if ((hooks & EXEC_HOOK_BARRIER) && ex->barrier_join == NULL)
		return "barrier_join";
	if ((hooks & EXEC_HOOK_STEP_CHECKPOINT) && (ex->steps == NULL ||
	    ex->steps->can_checkpoint == NULL ||
	    ex->steps->checkpoint == NULL || ex->steps->restore == NULL))
		return "checkpoint step";
	return NULL;
}

/*
 * What a table must have: every executor's hooks (caps 0), then each
 * capability's; a step is a member of its steps table.
 */
struct exec_need {
	int		 caps;
	int		 step;
	size_t		 off;
	const char	*hook;
};
#define NEED(caps, m)	{ caps, 0, offsetof(struct exec_ops, m), #m }
#define STEP(m)		{ EXEC_RUNTIME_STEPS, 1, \
			  offsetof(struct exec_steps, m), "steps." #m }
static const struct exec_need exec_needs[] = {
	NEED(0, name), NEED(0, runtime_label), NEED(0, check),
	NEED(0, start), NEED(0, wait), NEED(0, destroy), NEED(0, cgroup_dir),
	NEED(0, pid),
	NEED(EXEC_DAEMON, container_name), NEED(EXEC_DAEMON, sweep),
	NEED(EXEC_RUNTIME_STEPS, steps),
	STEP(prepare), STEP(create), STEP(start), STEP(state),
	STEP(wait_exit), STEP(delete), STEP(id),
};
/* Hooks that come together or not at all (a group ends at a NULL). */
static const struct exec_need exec_together[][4] = {
	{ NEED(0, journal_kind), NEED(0, undo), NEED(0, undo_done) },
	{ NEED(0, checkpoint), NEED(0, restore) },
	{ STEP(can_checkpoint), STEP(checkpoint), STEP(restore) },
};
#undef NEED
#undef STEP

/* Is the pointer member at n->off of ex (or of its steps) set? Data and
 * function pointers alike (POSIX: the same size). */
static int
exec_has(const struct exec_ops *ex, const struct exec_need *n)
{
	const char	*base = n->step ? (const char *)ex->steps :
			    (const char *)ex;
	void		*p;

	if (base == NULL)
		return 0;
	memcpy(&p, base + n->off, sizeof p);
	return p != NULL;
}

const char *
exec_ops_lacks(const struct exec_ops *ex)
{
	const struct exec_need	*n;
	size_t			 i, k;

	for (i = 0; i < ARRAY_SIZE(exec_needs); i++) {
		n = &exec_needs[i];
		if ((ex->caps & n->caps) == n->caps && !exec_has(ex, n))
			return n->hook;
	}
	if (!(ex->caps & EXEC_RUNTIME_STEPS) && ex->steps != NULL)
		return "caps EXEC_RUNTIME_STEPS (it has steps)";
	for (i = 0; i < ARRAY_SIZE(exec_together); i++) {
		const struct exec_need	*g = exec_together[i];
		int			 any = 0;

		for (k = 0; g[k].hook != NULL; k++)
			any |= exec_has(ex, &g[k]);
		for (k = 0; any && g[k].hook != NULL; k++) {
			if (!exec_has(ex, &g[k]))
				return g[k].hook;
		}
	}
	return NULL;
}

void
exec_ops_check(void)
{
	const struct exec_ops *const	*e;
	const char			*lacks;

	for (e = exec_types; *e != NULL; e++) {
		if ((lacks = exec_ops_lacks(*e)) != NULL)
			BUG("executor '%s': its capabilities need %s, which "
			    "its table lacks", (*e)->name != NULL ?
			    (*e)->name : "?", lacks);
	}
}

const struct exec_ops *
exec_lookup_daemon(int hooks)
{
	const struct exec_ops *const	*e;

	for (e = exec_types; *e != NULL; e++) {
		if (((*e)->caps & EXEC_DAEMON) && exec_missing(*e, hooks) ==
		    NULL)
			return *e;
	}
	return NULL;
}

int
exec_check_needs(const struct exec_check *chk, char **cause)
{
	static const char *const ctl[] = { "cpu", "memory", "io" };
	const char	*need[] = { chk->cpu_need, chk->memory_need,
			    chk->io_need };
	size_t		 i;

	for (i = 0; i < ARRAY_SIZE(ctl); i++) {
		if (need[i][0] != '\0' && cgrp_check_delegation(ctl[i],
		    need[i], cause) == -1)
			return -1;
	}
	return 0;
}

void
exec_status_release(struct exec_status *st)
{
	free(st->out);
	free(st->err);
	st->out = st->err = NULL;
	st->outlen = 0;
}

char *
exec_status_describe(const struct exec_status *st)
{
	char	*how = spawn_describe_status(st->status, st->timed_out), *s;

	if (st->oom_kills == 0)
		return how;
	s = xasprintf("%s (out of memory: the OOM killer killed %llu "
	    "process%s in its cgroup)", how,
	    (unsigned long long)st->oom_kills, st->oom_kills == 1 ? "" : "es");
	free(how);
	return s;
}

void
exec_status_from_child(struct exec_status *st, struct child *c)
{
	st->status = c->status;
	st->timed_out = c->timed_out;
	st->ru = c->ru;
	st->start_ns = c->start_ns;
	st->end_ns = c->end_ns;
	st->outlen = c->out.len;
	st->out = strbuf_detach(&c->out);
	st->err = last_lines(c->err.buf ? c->err.buf : "", c->err.len, 10);
}

