/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static table of executors, and what the executors share: spec
 * defaults from the current sample, exec_status helpers.
 */
#include "config.h"

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

const struct exec_ops *const exec_types[] = {
	&exec_local_ops,
	&exec_docker_ops,
	&exec_oci_ops,
	&exec_podman_ops,
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
	return NULL;
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

