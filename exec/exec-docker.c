/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docker executor: containers run with the docker CLI (argv arrays,
 * each call with a timeout: pitfall 1), labelled abbench.run=<run uuid>
 * and journaled before they exist so that `abbench restore` can remove
 * them after a kill -9. Detached (`docker run -d` + `docker wait`) or
 * attached (the `docker run` CLI is the child). The container's pid and
 * cgroups are read from /proc while it runs (pitfall 5: docker removes
 * the cgroups when the container exits).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "exec/cgroup.h"
#include "exec/barrier.h"
#include "exec/daemon-cli.h"
#include "exec/docker-api.h"
#include "exec/exec.h"
#include "exec/exec-oci.h"
#include "exec/context.h"
#include "exec/ctrd-ckpt.h"
#include "exec/spawn.h"
#include "lib/proc.h"

/* Default timeout of one docker CLI call (pitfall 1: every call has one). */
#define EXEC_DOCKER_TIMEOUT_NS	EXEC_CALL_TIMEOUT_NS
#define DEFAULT_IMAGE		"abbench/tools"

struct exec_proc {
	struct dcli_proc c;		/* name, the attached CLI, pid... */
	int64_t		 journal;
	char		*cgparent;	/* "/.../abbench-x/P" or NULL */
	char		*cgrel;		/* "abbench-x/P" */
	int64_t		 cg_journal;
	int		 start_failed;	/* reap what the runtime leaked */
};

/* The one way docker is invoked: $ABBENCH_DOCKER, else docker. */
static const char *
docker_bin(void)
{
	const char	*d = getenv("ABBENCH_DOCKER");

	return d != NULL && *d != '\0' ? d : "docker";
}

static const char *const docker_not_started[] = { "created", NULL };

static const struct dcli docker_dcli = {
	.name = "docker",
	.bin = docker_bin,
	.not_started = docker_not_started,
};

static int
exec_docker_cli(char *const *args, int64_t timeout_ns, char **out,
    char **cause)
{
	return dcli_call(&docker_dcli, args, timeout_ns, out, cause);
}

/* docker CLI with a short argument list. */
static int
docker_do(int64_t timeout_ns, char **out, char **cause, const char *a0,
    const char *a1, const char *a2, const char *a3, const char *a4)
{
	return dcli_do(&docker_dcli, timeout_ns, out, cause, a0, a1, a2, a3,
	    a4);
}

/*
 * $ABBENCH_DOCKER names the docker to use (a wrapper, another daemon's
 * CLI): the sweep, the version and the count go through it too.
 */
static int
docker_cli_named(void)
{
	const char	*d = getenv("ABBENCH_DOCKER");

	return d != NULL && *d != '\0';
}

/* The one line a docker CLI call prints within timeout_ns, trimmed into
 * *val (malloc'd); -1 when it fails or prints nothing. */
static int
docker_value(char **val, int64_t timeout_ns, const char *a0, const char *a1,
    const char *a2, const char *a3)
{
	char	*out = NULL;

	*val = NULL;
	if (docker_do(timeout_ns, &out, NULL, a0, a1, a2, a3, NULL) == -1 ||
	    out == NULL || *strtrim(out) == '\0') {
		free(out);
		return -1;
	}
	*val = xstrdup(strtrim(out));
	free(out);
	return 0;
}

/* Container name's full id into *id (malloc'd), or -1: not found. */
static int
docker_id(const char *name, char **id)
{
	return docker_value(id, EXEC_DOCKER_TIMEOUT_NS, "inspect", "-f",
	    "{{.Id}}", name);
}

/*
 * The daemon's root directory (where containers/ID/checkpoints/ are):
 * from its socket, else (or with $ABBENCH_DOCKER) from the CLI; kept
 * once known. NULL while neither answers.
 */
static const char *
docker_root_dir(void)
{
	static char	*root;

	if (root == NULL && (docker_cli_named() ||
	    docker_api_root_dir(&root, EXEC_DOCKER_TIMEOUT_NS, NULL) ==
	    DOCKER_API_NOT_UNIX))
		(void)docker_value(&root, EXEC_DOCKER_TIMEOUT_NS, "info",
		    "--format", "{{.DockerRootDir}}", NULL);
	return root;
}

static int
runtime_registered(const char *runtimes_json, const char *name)
{
	char	*key = xasprintf("\"%s\":", name);
	int	 r = strstr(runtimes_json, key) != NULL;

	free(key);
	return r;
}

static int
docker_check(struct run_ctx *ctx, const struct exec_check *chk,
    char **cause)
{
	char		*out = NULL, *c = NULL;
	const char	*image;
	size_t		 i;

	(void)ctx;
	if (docker_do(20 * NSEC_PER_SEC, &out, &c, "info", "--format",
	    "{{json .Runtimes}}", NULL, NULL) == -1) {
		/*
		 * A user outside the docker group reaches a running daemon's
		 * socket and is refused: starting the daemon would not help.
		 */
		if (c != NULL && strstr(c, "ermission denied") != NULL)
			set_cause(cause, "cannot reach the docker daemon (%s): "
			    "its socket needs root or the docker group (run "
			    "abbench as root, or 'usermod -aG docker USER' "
			    "and log in again)", c);
		else
			set_cause(cause, "cannot reach the docker daemon (%s): "
			    "start it with scripts/start-dockerd (or "
			    "'systemctl start docker')", c);
		free(c);
		return -1;
	}
	for (i = 0; i < chk->narms; i++) {
		const char	*rt = chk->runtimes[i];

		if (rt == NULL || runtime_registered(out, rt))
			continue;
		set_cause(cause, "arm '%s': docker runtime '%s' is not "
		    "registered with the daemon (it has %s): run 'runsc "
		    "install --runtime=%s' (or add it under \"runtimes\" in "
		    "/etc/docker/daemon.json) and restart dockerd",
		    chk->arms[i], rt, strtrim(out), rt);
		free(out);
		return -1;
	}
	free(out);
	image = chk->image;
	if (image == NULL)
		image = DEFAULT_IMAGE;
	if (docker_do(20 * NSEC_PER_SEC, NULL, &c, "image", "inspect",
	    "--format", "{{.Id}}", image) == -1) {
		char	*have = NULL, *hint;

		/* The project's images there are: a "did you mean". */
		(void)docker_do(20 * NSEC_PER_SEC, &have, NULL, "images",
		    "--format", "{{.Repository}}", "abbench/*", NULL);
		hint = image_hint(image, have != NULL ? have : "");
		set_cause(cause, "docker image '%s' not found: build it with "
		    "scripts/build-image (%s)%s", image, c != NULL ? strtrim(c) : "",
		    hint);
		free(hint);
		free(have);
		free(c);
		return -1;
	}
	return 0;
}

/*
 * The one builder of a container's command line: `docker VERB [-d]
 * --name NAME --label=abbench.run=UUID ... [--cidfile F --rm] IMAGE ARGV`
 * for run (detached or attached), a one-shot run (cidfile) and create.
 */
static void
push_run_args(struct run_ctx *ctx, const char *verb,
    const struct exec_spec *spec, const char *name, const char *cgparent,
    int detach, const char *cidfile, struct strvec *av)
{
	strvec_push(av, docker_bin());
	dcli_push_head(av, ctx, verb, spec, name, detach);
	/* PID 1 ignores signals it has no handler for (pitfall 4). */
	if (!spec->bare)
		strvec_push(av, "--init");
	strvec_push(av, "--network=none");
	if (spec->runtime != NULL && *spec->runtime != '\0')
		strvec_pushf(av, "--runtime=%s", spec->runtime);
	dcli_push_limits(av, spec);
	if (cgparent != NULL)
		strvec_pushf(av, "--cgroup-parent=%s", cgparent);
	dcli_push_mounts_env(av, spec);
	/* With --rm a failed container is gone before we could ask its id,
	 * which the shim it leaks is known by. */
	if (cidfile != NULL) {
		strvec_push(av, "--cidfile");
		strvec_push(av, cidfile);
		strvec_push(av, "--rm");
	}
	strvec_push(av, spec->image != NULL ? spec->image : DEFAULT_IMAGE);
	strvec_pushv(av, spec->argv);
}

static void
exec_docker_reap_runsc_state(const char *root, const char *id)
{
	DIR		*d;
	struct dirent	*de;
	size_t		 n = strlen(id);

	/*
	 * runsc keeps a container's state as files in the runtime root,
	 * "<sandbox>_sandbox:<container>.state" and ".lock" (the sandbox is
	 * the container itself under docker), not as a directory <id>.
	 */
	if ((d = opendir(root)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		const char	*c = strstr(de->d_name, "_sandbox:");

		if (c == NULL)
			continue;
		if (((size_t)(c - de->d_name) == n &&
		    strncmp(de->d_name, id, n) == 0) ||
		    (strncmp(c + 9, id, n) == 0 && c[9 + n] == '.'))
			(void)unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/*
 * SIGKILL every process in a cgroup (v1 or v2) and remove its
 * sub-cgroups, deepest first (a cgroup's files are not removed).
 */
static void
exec_docker_clear_cgroup(const char *dir)
{
	DIR		*d;
	struct dirent	*de;
	char		*path = xasprintf("%s/cgroup.procs", dir), *procs;
	char		*line, *save = NULL;

	if ((procs = read_small_file(path, NULL)) != NULL) {
		for (line = strtok_r(procs, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			if (atol(line) > 1)
				(void)kill((pid_t)atol(line), SIGKILL);
		free(procs);
	}
	free(path);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char	*sub;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, de->d_name);
		exec_docker_clear_cgroup(sub);
		(void)rmdir(sub);
		free(sub);
	}
	closedir(d);
}

/*
 * The failed container's cgroups: a directory named by its id (cgroupfs
 * driver: <parent>/<id> in every v1 hierarchy, or the v2 tree) or
 * docker-<id>.scope (systemd driver), which docker leaves
 * behind too.
 */
static void
exec_docker_reap_cgroups(const char *dir, const char *id, int depth)
{
	DIR		*d;
	struct dirent	*de;
	size_t		 n = strlen(id);

	if (depth > 5 || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char	*sub;
		int	 mine, tries;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, de->d_name);
		mine = strcmp(de->d_name, id) == 0 ||
		    (str_startswith(de->d_name, "docker-") &&
		    strncmp(de->d_name + 7, id, n) == 0 &&
		    strcmp(de->d_name + 7 + n, ".scope") == 0);
		if (!mine) {
			exec_docker_reap_cgroups(sub, id, depth + 1);
			free(sub);
			continue;
		}
		/*
		 * The sandbox and gofer of a failed runsc start ("exe") stay
		 * in it about 2 s after the shim is killed; once they exit,
		 * the controllers' directories go with them but the named
		 * systemd hierarchy's stays. Kill what is in the container's
		 * own cgroup, then wait (5 s at most) for it to be empty.
		 */
		for (tries = 0; tries < 50; tries++) {
			struct timespec	ts = { 0, 100 * 1000000 };

			exec_docker_clear_cgroup(sub);
			if (rmdir(sub) == 0 || errno != EBUSY)
				break;
			nanosleep(&ts, NULL);
		}
		free(sub);
	}
	closedir(d);
}

/* One `ctr -a SOCK -n moby KIND delete ID` within timeout_ns: 1 done or
 * not there, 0 not yet, -1 ctr could not be run or did not answer. */
static int
exec_docker_ctr_delete(const char *sock, const char *kind, const char *id,
    int64_t timeout_ns)
{
	const char	*args[] = { "ctr", "-a", sock, "-n", "moby", kind,
			    "delete", id, NULL };
	char		*out = NULL, *e = NULL;
	int		 status = -1, r;

	if (spawn_capture((char *const *)args, timeout_ns, &out, &e, &status,
	    NULL) == -1)
		r = -1;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		r = -1;		/* no ctr */
	else
		r = status == 0 || strstr(e, "not found") != NULL;
	free(out);
	free(e);
	return r;
}

/*
 * Pitfall 3, containerd's part: dockerd's own cleanup of a runsc start
 * that failed fails while the task is "created" ("task must be stopped
 * before deletion"), and `docker rm -f` removes docker's record only: the
 * task and the container stay in containerd's moby namespace, with the
 * shim, runsc's state and the cgroups. Once the sandbox has gone (about
 * 1 s after the rm here) the task is "stopped": delete it, which ends the
 * shim and has runsc delete its state, then the container record, on each
 * containerd socket dockerd may use (the containerd it started, the
 * system's). Without ctr, or when the task would not go (5 s per socket,
 * a hung containerd included), the reaper below kills the shim itself and
 * the records stay.
 */
static void
exec_docker_reap_containerd(const char *id)
{
	static const char *const socks[] = {
		"/run/docker/containerd/containerd.sock",
		"/run/containerd/containerd.sock",
	};
	struct timespec	 ts = { 0, 100 * 1000000 };
	struct stat	 sb;
	size_t		 i;
	int64_t		 end, left;
	int		 r = 0;

	for (i = 0; i < ARRAY_SIZE(socks); i++) {
		if (stat(socks[i], &sb) == -1 || !S_ISSOCK(sb.st_mode))
			continue;
		/* 5 s in all for the task, also when containerd hangs. */
		end = now_mono_ns() + 5 * NSEC_PER_SEC;
		while ((left = end - now_mono_ns()) > 0 &&
		    (r = exec_docker_ctr_delete(socks[i], "tasks", id,
		    left)) == 0)
			nanosleep(&ts, NULL);
		if (left <= 0)
			continue;
		if (r == 1)
			r = exec_docker_ctr_delete(socks[i], "containers", id,
			    5 * NSEC_PER_SEC);
		if (r == -1)
			break;
	}
}

/*
 * Pitfall 3: a runsc container that failed to start leaves its
 * containerd shim running (with its task directory and runsc state) even
 * after `docker rm -f`. Kill the shim of that container id only, and
 * remove what it kept.
 */
static void
exec_docker_reap_failed(const char *id)
{
	static const char *const state[] = {
		"/run/docker/containerd/daemon/io.containerd.runtime.v2.task/"
		    "moby",
		"/var/run/docker/runtime-runc/moby",
	};
	struct proc_walk	 w;
	size_t			 i;
	long			 pid;

	if (id == NULL || strlen(id) < 12 || strchr(id, '/') != NULL)
		return;
	/* containerd removes the shim, its task directory and runsc's
	 * state; what is left (none of it, as a rule) goes below. */
	exec_docker_reap_containerd(id);
	if (proc_walk_start(&w) == 0) {
		while ((pid = proc_walk_next(&w)) > 0) {
			char	*cmd;
			size_t	 len = 0, off;
			int	 shim = 0, want = 0;

			cmd = proc_read(pid, "cmdline", &len);
			/* NUL-separated: "containerd-shim..." ... "-id" ID */
			for (off = 0; cmd != NULL && off < len;
			    off += strlen(cmd + off) + 1) {
				if (off == 0 &&
				    strstr(cmd, "containerd-shim") != NULL)
					shim = 1;
				if (want && strcmp(cmd + off, id) == 0)
					shim = shim == 1 ? 2 : shim;
				want = strcmp(cmd + off, "-id") == 0;
			}
			free(cmd);
			if (shim == 2)
				kill((pid_t)pid, SIGKILL);
		}
		proc_walk_end(&w);
	}
	for (i = 0; i < ARRAY_SIZE(state); i++) {
		char	*dir = xasprintf("%s/%s", state[i], id);

		(void)rmtree(dir, NULL);
		free(dir);
	}
	exec_docker_reap_runsc_state(state[1], id);
	exec_docker_reap_cgroups("/sys/fs/cgroup", id, 0);
}

/* Remove container name; with its id (known to have failed, or not
 * known to have started), then reap what the runtime leaked. */
static int
docker_rm_reap(const char *name, const char *id, char **cause)
{
	char	*c = NULL;
	int	 tries;

	/*
	 * Someone else's removal under way (a killed run's own `docker rm`,
	 * which the daemon finishes): wait for it to be gone.
	 */
	for (tries = 0; docker_do(EXEC_DOCKER_TIMEOUT_NS, NULL, &c, "rm",
	    "-f", "-v", name, NULL) == -1 &&
	    strstr(c, "already in progress") != NULL && tries < 60; tries++) {
		struct timespec	ts = { 0, 500 * 1000000 };

		free(c);
		c = NULL;
		nanosleep(&ts, NULL);
	}
	if (c != NULL && strstr(c, "No such container") == NULL) {
		set_cause(cause, "cannot remove container '%s': %s", name, c);
		free(c);
		return -1;
	}
	free(c);
	if (id != NULL)
		exec_docker_reap_failed(id);
	return 0;
}

static int
exec_docker_rm(const char *name, int failed, char **cause)
{
	char	*id = NULL;
	int	 rc;

	if (failed)
		(void)docker_id(name, &id);
	rc = docker_rm_reap(name, id, cause);
	free(id);
	return rc;
}

static int
exec_docker_labelled(const char *uuid, struct strvec *ids, char **cause)
{
	char	*filter = uuid != NULL ? xasprintf("label=abbench.run=%s",
		    uuid) : xstrdup("label=abbench.run");
	char	*out = NULL, *line, *save = NULL;
	int	 rc;

	rc = docker_do(EXEC_DOCKER_TIMEOUT_NS, &out, cause, "ps", "-a",
	    "-q", "--filter", filter);
	free(filter);
	if (rc == -1)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (*strtrim(line) != '\0')
			strvec_push(ids, strtrim(line));
	free(out);
	return 0;
}

static void
docker_remove(struct run_ctx *ctx, struct exec_proc *p)
{
	char	*c = NULL;

	if (p->c.name == NULL)
		return;
	if (exec_docker_rm(p->c.name, p->start_failed, &c) == -1) {
		warning("%s", c);
		free(c);
		return;
	}
	if (ctx != NULL && p->journal > 0)
		run_forget_object(ctx, p->journal);
	p->journal = -1;
	free(p->c.name);
	p->c.name = NULL;
}

static void
docker_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	if (p == NULL)
		return;
	dcli_proc_release(&p->c);
	docker_remove(ctx, p);
	if (p->c.name != NULL)	/* rm failed: the journal keeps it */
		free(p->c.name);
	if (p->cgrel != NULL) {
		char	*c = NULL;

		/* Pitfall 8: docker made the parent in every hierarchy. */
		if (cgrp_remove_everywhere(p->cgrel, NULL, &c) == 0) {
			if (ctx != NULL)
				run_forget_object(ctx, p->cg_journal);
		} else
			warning("%s", c);
		free(c);
	}
	free(p->cgparent);
	free(p->cgrel);
	free(p->c.cgroup_text);
	free(p);
}

/* A container name of this run: abbench-<uuid8>-N. */
static char *
docker_new_name(const struct run_ctx *ctx)
{
	static unsigned	counter;

	return dcli_new_name(ctx, "", &counter);
}

static int
docker_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct strvec		 av = STRVEC_INIT;

	p->journal = p->cg_journal = -1;
	dcli_proc_init(&p->c, spec);
	p->c.name = docker_new_name(ctx);
	if (spec->cgroup_parent != NULL) {
		/* At our cpu cgroup's path, where docker makes it in every
		 * hierarchy. */
		char	*self = cgrp_self_path("cpu", NULL);

		p->cgrel = xasprintf("%s/%s", ctx != NULL &&
		    ctx->cgroup_name[0] ? ctx->cgroup_name : "abbench-test",
		    spec->cgroup_parent);
		p->cgparent = xasprintf("%s/%s", self == NULL ||
		    strcmp(self, "/") == 0 ? "" : self, p->cgrel);
		free(self);
		if (ctx != NULL)
			p->cg_journal = run_journal_object(ctx, "cgroup",
			    p->cgrel);
	}
	/* Journaled before it exists: restore removes it after a kill -9. */
	if (ctx != NULL)
		p->journal = run_journal_object(ctx, "container", p->c.name);
	push_run_args(ctx, "run", spec, p->c.name, p->cgparent,
	    !p->c.attached, NULL, &av);
	if (dcli_start(&docker_dcli, ctx, &p->c, &av, cause) == -1) {
		/* A runsc container that failed to start leaks its shim and
		 * state unless it is removed (pitfall 3). */
		p->start_failed = 1;
		docker_destroy(ctx, p);
		return -1;
	}
	*procp = p;
	return 0;
}

static int
docker_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	(void)ctx;
	return dcli_wait(&docker_dcli, &p->c, deadline_ns, st, cause);
}

static char *
docker_cgroup_dir(struct exec_proc *p, const char *controller)
{
	return dcli_cgroup_dir(&docker_dcli, &p->c, controller);
}

static long
docker_pid(struct exec_proc *p)
{
	return dcli_pid(&docker_dcli, &p->c);
}

static const char *
exec_docker_name(struct exec_proc *p)
{
	return p->c.name;
}

static long
exec_docker_gofer_pid(struct exec_proc *p)
{
	return dcli_gofer_pid(&docker_dcli, &p->c);
}

static int
exec_docker_exec(struct exec_proc *p, char *const *argv, int64_t timeout_ns,
    char **out, int *status, char **cause)
{
	return dcli_exec_into(&docker_dcli, &p->c, argv, timeout_ns, out,
	    status, cause);
}

static int
docker_logs(struct exec_proc *p, int64_t timeout_ns, char **out,
    char **cause)
{
	return dcli_logs(&docker_dcli, &p->c, timeout_ns, out, cause);
}

/* docker rm -f NAME, forgetting the journal entry when it is gone. */
static void
docker_rm_forget(struct run_ctx *ctx, const char *name, int failed,
    int64_t journal)
{
	char	*c = NULL;

	if (exec_docker_rm(name, failed, &c) == -1) {
		warning("%s", c);
		free(c);
		return;
	}
	if (journal > 0)
		run_forget_object(ctx, journal);
}

/* The docker CLI of a whole argv (av.v[0] is docker_bin()). */
static int
docker_cli_av(const struct strvec *av, int64_t timeout_ns, char **cause)
{
	return exec_docker_cli(av->v + 1, timeout_ns, NULL, cause);
}

static int
docker_run_once(struct run_ctx *ctx, const struct exec_spec *spec,
    int64_t timeout_ns, int64_t *ns, char **cause)
{
	struct strvec	 av = STRVEC_INIT;
	char		*name = docker_new_name(ctx), *cidfile, *cid;
	int64_t		 journal, t0;
	int		 r;

	journal = run_journal_object(ctx, "container", name);
	cidfile = run_scratch_file(ctx, name, ".cid");
	unlink(cidfile);
	push_run_args(ctx, "run", spec, name, NULL, 0, cidfile, &av);
	t0 = now_mono_ns();
	r = docker_cli_av(&av, timeout_ns, cause);
	*ns = now_mono_ns() - t0;
	/* --rm removed it, unless the run failed half way. */
	docker_rm_forget(ctx, name, r == -1, journal);
	if (r == -1 && (cid = read_small_file(cidfile, NULL)) != NULL) {
		exec_docker_reap_failed(strtrim(cid));
		free(cid);
	}
	unlink(cidfile);
	free(cidfile);
	strvec_clear(&av);
	free(name);
	return r;
}

static int
docker_create_start(struct run_ctx *ctx, const struct exec_spec *spec,
    int64_t timeout_ns, struct exec_proc **procp, int64_t *ns,
    char **cause)
{
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct strvec		 av = STRVEC_INIT;
	const char		*start[3];
	int64_t			 t0;
	int			 r;

	p->journal = p->cg_journal = -1;
	p->c.bare = spec->bare;
	p->c.name = docker_new_name(ctx);
	p->journal = run_journal_object(ctx, "container", p->c.name);
	push_run_args(ctx, "create", spec, p->c.name, NULL, 0, NULL, &av);
	start[0] = "start";
	start[1] = p->c.name;
	start[2] = NULL;
	t0 = now_mono_ns();
	r = docker_cli_av(&av, timeout_ns, cause);
	if (r == 0)
		r = exec_docker_cli((char *const *)start, timeout_ns, NULL,
		    cause);
	*ns = now_mono_ns() - t0;
	p->c.start_ns = t0;
	strvec_clear(&av);
	if (r == -1) {
		p->start_failed = 1;
		docker_destroy(ctx, p);
		return -1;
	}
	*procp = p;
	return 0;
}

static int
docker_checkpoint(struct exec_proc *p, const char *tag, int64_t timeout_ns,
    int64_t *ns, char **cause)
{
	const char	*args[] = { "checkpoint", "create", p->c.name, tag,
			    NULL };
	const char	*w[] = { "wait", p->c.name, NULL };
	int64_t		 t0 = now_mono_ns();

	if (exec_docker_cli((char *const *)args, timeout_ns, NULL, cause) ==
	    -1)
		return -1;
	*ns = now_mono_ns() - t0;
	/* Not timed: the checkpointed container must be gone first. */
	return exec_docker_cli((char *const *)w, timeout_ns, NULL, cause);
}

/*
 * Remove the copy of the checkpoint that containerd unpacked for the
 * restore of p from tag (exec/ctrd-ckpt.h): one that appeared during the
 * restore and holds our checkpoint's files; a restore of another
 * container beside ours unpacks another image and is left alone.
 */
static void
ckpt_reap(struct exec_proc *p, const char *tag, const struct strvec *dirs,
    const struct strvec *before)
{
	const char	*root = docker_root_dir();
	char		*id, *mine;

	if (root == NULL || docker_id(p->c.name, &id) == -1)
		return;
	mine = xasprintf("%s/containers/%s/checkpoints/%s", root, id, tag);
	(void)ctrd_ckpt_remove(mine, dirs, before);
	free(mine);
	free(id);
}

static int
docker_restore(struct exec_proc *p, const char *tag, int64_t timeout_ns,
    int64_t *ns, long *pid, char **cause)
{
	const char	*args[] = { "start", "--checkpoint", tag, p->c.name,
			    NULL };
	const char	*ins[] = { "inspect", "--format",
			    "{{.State.Running}} {{.State.Pid}}", p->c.name,
			    NULL };
	struct timespec	 second = { 1, 0 };
	struct strvec	 tmpdirs = STRVEC_INIT, before = STRVEC_INIT;
	char		*c = NULL, *out = NULL;
	int64_t		 t0;
	int		 tries, rc;

	/*
	 * moby#42900: now and then the daemon fails to hand the checkpoint
	 * to containerd ("commit failed: content ...: already exists"); a
	 * second try a moment later works. Only the call that worked is
	 * timed.
	 */
	ctrd_ckpt_tmpdirs(&tmpdirs);
	ctrd_ckpt_list(&tmpdirs, &before);
	for (tries = 0;; tries++) {
		t0 = now_mono_ns();
		if ((rc = exec_docker_cli((char *const *)args, timeout_ns,
		    NULL, &c)) == 0)
			break;
		if (tries == 2 || strstr(c, "already exists") == NULL)
			break;
		free(c);
		c = NULL;
		nanosleep(&second, NULL);
	}
	*ns = now_mono_ns() - t0;
	ckpt_reap(p, tag, &tmpdirs, &before);
	strvec_clear(&tmpdirs);
	strvec_clear(&before);
	if (rc == -1) {
		set_cause(cause, "%s", c);
		free(c);
		return -1;
	}
	if (exec_docker_cli((char *const *)ins, timeout_ns, &out, cause) == -1)
		return -1;
	if (!str_startswith(out, "true")) {
		free(out);
		return set_cause(cause, "restored container '%s' is not "
		    "running", p->c.name);
	}
	*pid = strtol(out + 5, NULL, 10);
	free(out);
	return 0;
}

/* How long an undo looks again for a container not found (see below). */
#define DOCKER_UNDO_LATE_NS	(3 * NSEC_PER_SEC)

/*
 * A dead run's containers: a run killed during a `docker start
 * --checkpoint` left containerd's copy of the checkpoint
 * (exec/ctrd-ckpt.h), which only docker's own can name, and that goes
 * with the container. The prints of container ID's checkpoints are
 * taken before it is removed (into prints), and the copies that match
 * are removed after.
 */
static void
docker_ckpt_prints(const char *id, struct strvec *prints)
{
	const char	*root = docker_root_dir();

	if (root != NULL)
		ctrd_ckpt_prints(root, id, prints);
}

/* ... and the copies removed, as texts pushed to also (may be NULL). */
static void
docker_ckpt_copies(const struct strvec *prints, struct strvec *also)
{
	struct strvec	 tmpdirs = STRVEC_INIT, gone = STRVEC_INIT;
	size_t		 i;

	if (prints->n == 0)
		return;
	ctrd_ckpt_tmpdirs(&tmpdirs);
	(void)ctrd_ckpt_remove_printed(prints, &tmpdirs, &gone);
	for (i = 0; also != NULL && i < gone.n; i++)
		strvec_pushf(also, "containerd's copy '%s' of its checkpoint",
		    gone.v[i]);
	strvec_clear(&gone);
	strvec_clear(&tmpdirs);
}

/*
 * A journaled container left by a dead run. When that run was killed
 * while its `docker run -d` or `create` was in flight, the CLI died but
 * dockerd still finishes the create it had received, possibly after we
 * looked (t0570): a name not found is looked for again for
 * DOCKER_UNDO_LATE_NS before it is believed gone. Only a journal entry
 * nobody forgot comes here, so the wait is paid after a kill alone.
 */
static int
docker_undo(const char *target, struct strvec *also, char **cause)
{
	struct timespec	 step = { 0, 250 * 1000000 };
	int64_t		 until = now_mono_ns() + DOCKER_UNDO_LATE_NS;
	struct strvec	 prints = STRVEC_INIT;
	char		*id;
	int		 rc;

	while (docker_id(target, &id) == -1) {
		if (now_mono_ns() >= until)
			return 0;
		nanosleep(&step, NULL);
	}
	docker_ckpt_prints(id, &prints);
	/* Whether it started is not known here: always look for a shim. */
	if ((rc = docker_rm_reap(target, id, cause)) == 0)
		docker_ckpt_copies(&prints, also);
	strvec_clear(&prints);
	free(id);
	return rc;
}

/* Remove the containers ids (docker_sweep's way); 0 or -1 (*cause). */
static int
docker_remove_ids(const struct strvec *ids, int api, struct strvec *removed,
    char **cause)
{
	struct strvec	 prints = STRVEC_INIT;
	size_t		 i;
	int		 rc;

	for (i = 0, rc = 0; i < ids->n; i++) {
		char	*why = NULL;
		int	 r;

		docker_ckpt_prints(ids->v[i], &prints);
		if (api == DOCKER_API_NOT_UNIX)
			r = exec_docker_rm(ids->v[i], 1, &why);
		else if ((r = docker_api_remove(ids->v[i],
		    EXEC_CALL_TIMEOUT_NS, &why)) == 0)
			/* As exec_docker_rm(failed): runsc leftovers. */
			exec_docker_reap_failed(ids->v[i]);
		if (r != 0) {
			if (rc == 0)
				set_cause(cause, "%s", why);
			rc = -1;
		} else if (removed != NULL)
			strvec_push(removed, ids->v[i]);
		free(why);
	}
	docker_ckpt_copies(&prints, NULL);
	strvec_clear(&prints);
	return rc;
}

/*
 * Through the daemon's API on its socket (exec/docker-api.h): no docker
 * process, nothing to do when no daemon listens, the listing bounded by
 * timeout_ns. The CLI when $DOCKER_HOST is not a unix socket or
 * $ABBENCH_DOCKER names one.
 */
static int
docker_sweep(const char *uuid, int64_t timeout_ns, struct strvec *removed,
    char **cause)
{
	struct strvec	 ids = STRVEC_INIT;
	char		*label = xasprintf("abbench.run=%s", uuid);
	int		 rc, api;

	api = docker_cli_named() ? DOCKER_API_NOT_UNIX :
	    docker_api_list_labelled(label, &ids, timeout_ns, cause);
	free(label);
	if (api == DOCKER_API_ABSENT)
		return 0;		/* no daemon, no container */
	if (api == -1)
		return -1;
	if (api == DOCKER_API_NOT_UNIX && exec_docker_labelled(uuid, &ids,
	    cause) == -1)
		return -1;
	rc = docker_remove_ids(&ids, api, removed, cause);
	strvec_clear(&ids);
	return rc;
}

int
exec_docker_sweep_orphans(struct strvec *removed, struct strvec *unowned,
    char **cause)
{
	struct strvec	 ids = STRVEC_INIT, gone = STRVEC_INIT;
	char		*val = NULL, *run, *status, *end;
	size_t		 i;
	long long	 pid;
	int		 api, rc = 0;

	api = docker_cli_named() ? DOCKER_API_NOT_UNIX :
	    docker_api_list_labelled("abbench.run", &ids,
	    EXEC_CALL_TIMEOUT_NS, cause);
	if (api == DOCKER_API_ABSENT)
		return 0;		/* no daemon, no container */
	if (api == -1)
		return -1;
	if (api == DOCKER_API_NOT_UNIX && exec_docker_labelled(NULL, &ids,
	    cause) == -1)
		return -1;
	for (i = 0; i < ids.n; i++) {
		/* "PID/BOOT:START|UUID|STATUS"; "" or "<no value>" for a
		 * missing label. */
		if (docker_value(&val, 10 * NSEC_PER_SEC, "inspect", "-f",
		    "{{index .Config.Labels \"abbench.owner\"}}|"
		    "{{index .Config.Labels \"abbench.run\"}}|"
		    "{{.State.Status}}", ids.v[i]) == -1)
			continue;	/* gone since, or docker failed */
		if ((run = strchr(val, '|')) == NULL ||
		    (status = strchr(run + 1, '|')) == NULL) {
			free(val);
			val = NULL;
			continue;
		}
		*run++ = '\0';
		*status++ = '\0';
		pid = strtoll(val, &end, 10);
		if (end == val || *end != '/' || pid <= 0) {
			/* A running one is some live run's, likely. */
			if (unowned != NULL && strcmp(status, "running") != 0)
				strvec_pushf(unowned, "%.12s (%s, run %s)",
				    ids.v[i], status, run);
		} else if (proc_alive_as((long)pid, end + 1) == 0)
			/* Alive, or not known to be gone: kept. */
			strvec_push(&gone, ids.v[i]);
		free(val);
		val = NULL;
	}
	if (gone.n > 0)
		rc = docker_remove_ids(&gone, api, removed, cause);
	strvec_clear(&gone);
	strvec_clear(&ids);
	return rc;
}

/*
 * A daemon whose socket took the version probe and failed it (did not
 * answer in time, or refused): a run's start does not wait for it again
 * to count its containers (issue 26: a hung daemon cost every run 10 s).
 */
static int	docker_unanswered;

/* The server's version, NULL when docker is absent or down. */
static char *
docker_version(void)
{
	char	*v = NULL;
	int	 rc;

	/* The socket first: a run of a program needs no docker process. */
	rc = docker_cli_named() ? DOCKER_API_NOT_UNIX :
	    docker_api_version(&v, 5 * NSEC_PER_SEC, NULL);
	docker_unanswered = rc == -1;
	if (rc == DOCKER_API_NOT_UNIX)
		(void)docker_value(&v, 5 * NSEC_PER_SEC, "version", "--format",
		    "{{.Server.Version}}", NULL);
	return v;
}

/* A docker runtime name's binary, from `docker info`; NULL if unknown. */
static char *
docker_runtime_path(const char *name)
{
	char		*out = NULL, *path = NULL;
	json_t		*root, *rt, *p;
	json_error_t	 jerr;

	if (docker_do(10 * NSEC_PER_SEC, &out, NULL, "info", "--format",
	    "{{json .Runtimes}}", NULL, NULL) == -1 || out == NULL) {
		free(out);
		return NULL;
	}
	if ((root = json_loads(out, 0, &jerr)) != NULL) {
		if ((rt = json_object_get(root, name)) != NULL &&
		    (p = json_object_get(rt, "path")) != NULL &&
		    json_is_string(p))
			path = xstrdup(json_string_value(p));
		json_decref(root);
	}
	free(out);
	return path;
}

static int
docker_count_running(void)
{
	struct strvec	 ids = STRVEC_INIT;
	char		*out = NULL, *p;
	int		 count = 0, rc;

	if (docker_unanswered)
		return -1;
	/* The socket first, as docker_version. */
	rc = docker_cli_named() ? DOCKER_API_NOT_UNIX :
	    docker_api_list_running(&ids, 5 * NSEC_PER_SEC, NULL);
	count = (int)ids.n;
	strvec_clear(&ids);
	if (rc == 0)
		return count;
	if (rc != DOCKER_API_NOT_UNIX)
		return -1;
	count = 0;
	if (docker_do(5 * NSEC_PER_SEC, &out, NULL, "ps", "-q", NULL, NULL,
	    NULL) == -1)
		return -1;
	for (p = out; p != NULL && *p != '\0'; p++)
		if (*p == '\n')
			count++;
	free(out);
	return count;
}

const struct exec_ops exec_docker_ops = {
	.name = "docker",
	.caps = EXEC_CONTAINER | EXEC_DAEMON | EXEC_CGROUP_PARENT,
	.runtime_label = "runc",
	.check = docker_check,
	.start = docker_start,
	.wait = docker_wait,
	.destroy = docker_destroy,
	.cgroup_dir = docker_cgroup_dir,
	.pid = docker_pid,
	.exec_into = exec_docker_exec,
	.logs = docker_logs,
	.journal_kind = "container",
	.undo_done = "removed container '%s'",
	.undo = docker_undo,
	.sweep = docker_sweep,
	.container_name = exec_docker_name,
	.gofer_pid = exec_docker_gofer_pid,
	.run_once = docker_run_once,
	.create_start = docker_create_start,
	.checkpoint = docker_checkpoint,
	.restore = docker_restore,
	.daemon_version = docker_version,
	.runtime_path = docker_runtime_path,
	.count_running = docker_count_running,
	.barrier_join = exec_barrier_join_sandbox,
};
