/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The oci executor and OCI lifecycle (see exec-oci.h): config.json from
 * our own template (jansson) over a read-only rootfs directory, and every
 * runtime verb as a child with a timeout (pitfall 1: runsc --platform=kvm
 * hangs here). start() is `RUNTIME run` as a child (stdio captured).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "exec/cgroup.h"
#include "exec/exec-oci.h"
#include "exec/barrier.h"
#include "exec/exec.h"
#include "exec/proccg.h"
#include "exec/context.h"
#include "exec/spawn.h"
#include "lib/proc.h"

#define OCI_NO_DEADLINE_NS	(24 * 3600 * NSEC_PER_SEC)

struct exec_proc {
	struct run_ctx	*ctx;
	char		*runtime;
	struct strvec	 global;	/* global flags, before the verb */
	char		*root;		/* their --root, or NULL */
	char		*id;
	char		*bundle;
	char		*cgpath;	/* <run cgroup>/[<parent>/]<id> */
	int64_t		 j_container, j_bundle, j_cgroup;
	int		 created;	/* the runtime may know the id */
	struct child	 run;		/* start(): `RUNTIME run` */
	struct strvec	 run_argv;
	int		 running;
	long		 pid;		/* from state, 0 = not known */
	char		*cgroup_text;	/* /proc/PID/cgroup */
	char		*logdir;	/* runsc --debug-log, or NULL */
	int		 keep;		/* run --keep: its cgroup read at the end */
	char		*join[2];	/* spec.join_procs, NULL-terminated */
};

/* Lines of the sandbox's log a failure keeps. */
#define SANDBOX_LOG_LINES	8

static const char *const default_caps[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER",
	"CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID",
	"CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
	"CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE", NULL
};

static json_t *
str_array(char *const *v)
{
	json_t	*a = json_array();

	for (; v != NULL && *v != NULL; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

static json_t *
mount_obj(const char *dest, const char *type, const char *source,
    const char *opts)
{
	json_t		*m = json_object(), *o = json_array();
	char		*copy = xstrdup(opts), *tok, *save = NULL;

	json_object_set_new(m, "destination", json_string(dest));
	json_object_set_new(m, "type", json_string(type));
	json_object_set_new(m, "source", json_string(source));
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		json_array_append_new(o, json_string(tok));
	json_object_set_new(m, "options", o);
	free(copy);
	return m;
}

int
oci_write_config(const char *bundle, const struct exec_spec *spec,
    const char *cgroups_path, char **cause)
{
	json_t		*root, *proc, *user, *caps, *capl, *env, *mounts;
	json_t		*linux_, *ns, *res;
	const char	*kinds[] = { "pid", "ipc", "uts", "mount", "network",
			    NULL };
	const char	*scratch[] = { "/tmp", "/var/tmp" };
	char		*path, *rootfs, real[4096];
	size_t		 i;
	int		 r;

	if ((rootfs = oci_image_rootfs(spec->image, cause)) == NULL)
		return -1;
	if (realpath(rootfs, real) == NULL) {
		set_cause(cause, "rootfs '%s': %s (build it with "
		    "scripts/build-image)", rootfs, strerror(errno));
		free(rootfs);
		return -1;
	}
	free(rootfs);
	root = json_object();
	json_object_set_new(root, "ociVersion", json_string("1.0.2"));
	proc = json_object();
	json_object_set_new(proc, "terminal", json_false());
	user = json_object();
	json_object_set_new(user, "uid", json_integer(0));
	json_object_set_new(user, "gid", json_integer(0));
	json_object_set_new(proc, "user", user);
	json_object_set_new(proc, "args", str_array(spec->argv));
	env = json_array();
	json_array_append_new(env, json_string(
	    "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"));
	for (i = 0; spec->env != NULL && spec->env[i] != NULL; i++)
		json_array_append_new(env, json_string(spec->env[i]));
	json_object_set_new(proc, "env", env);
	json_object_set_new(proc, "cwd", json_string("/"));
	capl = str_array((char *const *)default_caps);
	caps = json_object();
	json_object_set(caps, "bounding", capl);
	json_object_set(caps, "effective", capl);
	json_object_set(caps, "permitted", capl);
	json_object_set_new(caps, "inheritable", json_array());
	json_object_set_new(caps, "ambient", json_array());
	json_decref(capl);
	json_object_set_new(proc, "capabilities", caps);
	json_object_set_new(proc, "noNewPrivileges", json_true());
	json_object_set_new(root, "process", proc);
	json_object_set_new(root, "root", json_pack("{s:s, s:b}", "path",
	    real, "readonly", 1));
	json_object_set_new(root, "hostname", json_string("abbench"));

	mounts = json_array();
	json_array_append_new(mounts, mount_obj("/proc", "proc", "proc",
	    "nosuid,noexec,nodev"));
	json_array_append_new(mounts, mount_obj("/dev", "tmpfs", "tmpfs",
	    "nosuid,strictatime,mode=755,size=65536k"));
	json_array_append_new(mounts, mount_obj("/dev/pts", "devpts",
	    "devpts", "nosuid,noexec,newinstance,ptmxmode=0666,mode=0620"));
	json_array_append_new(mounts, mount_obj("/dev/shm", "tmpfs", "shm",
	    "nosuid,noexec,nodev,mode=1777,size=65536k"));
	json_array_append_new(mounts, mount_obj("/sys", "sysfs", "sysfs",
	    "nosuid,noexec,nodev,ro"));
	/*
	 * Scratch space, where the rootfs has the directory: the rootfs is
	 * read-only (runsc cannot make a mount point in it) and shared (runc
	 * would make it there, on the host).
	 */
	for (i = 0; i < ARRAY_SIZE(scratch); i++) {
		char	*d = xasprintf("%s%s", real, scratch[i]);

		if (access(d, F_OK) == 0)
			json_array_append_new(mounts, mount_obj(scratch[i],
			    "tmpfs", "tmpfs", "nosuid,nodev,mode=1777"));
		free(d);
	}
	for (i = 0; i < spec->nmounts; i++) {
		const struct exec_mount	*m = &spec->mounts[i];

		if (strcmp(m->type, "tmpfs") == 0) {
			char	*o = xasprintf("nosuid,nodev,mode=1777%s%s",
			    m->options ? "," : "", m->options ? m->options :
			    "");

			json_array_append_new(mounts, mount_obj(m->target,
			    "tmpfs", "tmpfs", o));
			free(o);
		} else {
			char	*o = xasprintf("rbind,%s", m->options ?
			    m->options : "rw");

			json_array_append_new(mounts, mount_obj(m->target,
			    "bind", m->source, o));
			free(o);
		}
	}
	json_object_set_new(root, "mounts", mounts);

	linux_ = json_object();
	ns = json_array();
	for (i = 0; kinds[i] != NULL; i++)
		json_array_append_new(ns, json_pack("{s:s}", "type",
		    kinds[i]));
	json_object_set_new(linux_, "namespaces", ns);
	if (cgroups_path != NULL)
		json_object_set_new(linux_, "cgroupsPath",
		    json_string(cgroups_path));
	res = json_object();
	if (spec->cpus > 0)
		json_object_set_new(res, "cpu", json_pack("{s:I, s:I}",
		    "quota", (json_int_t)(spec->cpus * CGRP_CFS_PERIOD_US),
		    "period", (json_int_t)CGRP_CFS_PERIOD_US));
	if (spec->memory > 0)
		json_object_set_new(res, "memory", json_pack("{s:I}",
		    "limit", (json_int_t)spec->memory));
	json_object_set_new(linux_, "resources", res);
	json_object_set_new(linux_, "maskedPaths", json_pack("[s,s,s,s]",
	    "/proc/kcore", "/proc/keys", "/proc/timer_list",
	    "/sys/firmware"));
	json_object_set_new(linux_, "readonlyPaths", json_pack("[s,s,s,s,s]",
	    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
	    "/proc/sysrq-trigger"));
	json_object_set_new(root, "linux", linux_);

	path = xasprintf("%s/config.json", bundle);
	r = json_dump_file(root, path, JSON_INDENT(2));
	json_decref(root);
	if (r == -1) {
		set_cause(cause, "cannot write '%s'", path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* runc, or a wrapper named after it (not runsc). */
static int
oci_runtime_is_runc(const char *runtime)
{
	const char	*base = strrchr(runtime, '/');

	base = base != NULL ? base + 1 : runtime;
	return strstr(base, "runc") != NULL && strstr(base, "runsc") == NULL;
}

int
oci_runtime_is_runsc(const char *runtime)
{
	const char	*base = strrchr(runtime, '/');

	return str_startswith(base != NULL ? base + 1 : runtime, "runsc");
}

/*
 * RUNTIME GLOBAL... VERB ARGS..., timed. A detached call (create,
 * restore) leaves the container's processes behind: they keep the group
 * (SPAWN_KEEP_GROUP) and inherit the call's stdio, so that is /dev/null
 * and the runtime's errors come from its --log file in the bundle.
 * Other calls fail with the runtime's stderr.
 */
/*
 * A verb that is part of a sample gets what is left of the sample's
 * timeout (at most the runtime's own limit); kill, state and the
 * teardown's delete --force keep the full limit, so that they still work
 * after a sample timed out.
 */
static int64_t
oci_call_ns(const struct exec_proc *p, const char *verb)
{
	static const char *const timed[] = {
		"create", "start", "checkpoint", "restore", "delete",
	};
	int64_t	left;
	size_t	i;

	if (p->ctx == NULL || p->ctx->deadline_ns <= 0)
		return EXEC_OCI_TIMEOUT_NS;
	for (i = 0; i < ARRAY_SIZE(timed); i++)
		if (strcmp(verb, timed[i]) == 0)
			break;
	if (i == ARRAY_SIZE(timed))
		return EXEC_OCI_TIMEOUT_NS;
	left = p->ctx->deadline_ns - now_mono_ns();
	if (left < 1000000)
		left = 1000000;
	return left < EXEC_OCI_TIMEOUT_NS ? left : EXEC_OCI_TIMEOUT_NS;
}

/*
 * The end of runsc's own log of this container (--debug-log): the
 * sandbox's (boot) if it wrote one, else the newest; "" if none.
 * runsc names them runsc.log.TIMESTAMP.COMMAND.txt. The logs are kept
 * (oci_keep_sandbox_logs) and the one quoted named by its full path.
 */
static char *
sandbox_log_tail(const struct exec_proc *p)
{
	DIR		*d;
	struct dirent	*de;
	char		*best = NULL, *path, *text, *tail, *msg, *kept;
	int		 best_boot = 0, boot;

	if (p->logdir == NULL || (d = opendir(p->logdir)) == NULL)
		return xstrdup("");
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		boot = strstr(de->d_name, ".boot.") != NULL;
		if (best == NULL || boot > best_boot || (boot == best_boot &&
		    strcmp(de->d_name, best) > 0)) {
			free(best);
			best = xstrdup(de->d_name);
			best_boot = boot;
		}
	}
	closedir(d);
	if (best == NULL)
		return xstrdup("");
	path = xasprintf("%s/%s", p->logdir, best);
	text = read_file(path, NULL, NULL);
	free(path);
	if (text == NULL || *text == '\0') {
		free(best);
		free(text);
		return xstrdup("");
	}
	tail = last_lines(text, strlen(text), SANDBOX_LOG_LINES);
	kept = oci_keep_sandbox_logs(p->ctx != NULL ? p->ctx->keep_dir : NULL,
	    p->logdir, p->id);
	msg = xasprintf("\nsandbox log %s/%s (%s; last lines):\n%s",
	    kept != NULL ? kept : p->logdir, best, kept != NULL ? "kept" :
	    "removed with the container", strtrim(tail));
	free(kept);
	free(best);
	free(text);
	free(tail);
	return msg;
}

static int
oci_runv(struct exec_proc *p, int detach, char **out, int64_t *elapsed_ns,
    char **cause, const char *const *args)
{
	struct strvec	 av = STRVEC_INIT;
	struct child	 c;
	char		*how, *log = NULL, *text = NULL, *why = NULL, *sblog;
	const char	*w;
	int		 r = 0;

	strvec_push(&av, p->runtime);
	strvec_pushv(&av, p->global.v);
	if (detach) {
		log = xasprintf("%s/%s.log", p->bundle, args[0]);
		strvec_pushf(&av, "--log=%s", log);
	}
	strvec_pushv(&av, (char *const *)args);
	memset(&c, 0, sizeof c);
	c.argv = av.v;
	if (detach)
		c.flags = SPAWN_KEEP_GROUP | SPAWN_NULL_IN | SPAWN_NULL_OUT |
		    SPAWN_NULL_ERR;
	else
		c.flags = SPAWN_CAPTURE_ERR | (out != NULL ?
		    SPAWN_CAPTURE_OUT : SPAWN_NULL_OUT);
	if (spawn_run(&c, oci_call_ns(p, args[0]), cause) == -1) {
		r = -1;
		goto done;
	}
	if (elapsed_ns != NULL)
		*elapsed_ns = c.end_ns - c.start_ns;
	if (c.timed_out || c.status != 0) {
		how = spawn_describe_status(c.status, c.timed_out);
		if (log != NULL && (text = read_file(log, NULL, NULL)) != NULL)
			why = last_lines(text, strlen(text), 3);
		else if (c.err.buf != NULL)
			why = xstrdup(c.err.buf);
		w = why != NULL ? strtrim(why) : "";
		sblog = sandbox_log_tail(p);
		set_cause(cause, "'%s %s %s' %s%s%s%s", p->runtime, args[0],
		    p->id, how, *w != '\0' ? ": " : "", w, sblog);
		free(sblog);
		free(how);
		r = -1;
	} else if (out != NULL)
		*out = strbuf_detach(&c.out);
done:
	spawn_release(&c);
	strvec_clear(&av);
	free(log);
	free(text);
	free(why);
	return r;
}

/* The same with the arguments inline, NULL-terminated. */
static int
oci_call(struct exec_proc *p, int detach, char **out, int64_t *elapsed_ns,
    char **cause, ...)
{
	const char	*args[16];
	va_list		 ap;
	size_t		 n = 0;

	va_start(ap, cause);
	while (n < ARRAY_SIZE(args) - 1 &&
	    (args[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	args[n] = NULL;
	return oci_runv(p, detach, out, elapsed_ns, cause, args);
}

/*
 * The value of --root among global flags (Go's flag syntax: -root too;
 * the last one wins), or NULL.
 */
static const char *
global_root(char *const *v)
{
	const char	*a, *root = NULL;
	size_t		 i;

	for (i = 0; v != NULL && v[i] != NULL; i++) {
		a = v[i];
		if (a[0] == '-' && a[1] == '-')
			a++;
		if (str_startswith(a, "-root="))
			root = a + 6;
		else if (strcmp(a, "-root") == 0 && v[i + 1] != NULL)
			root = v[++i];
	}
	return root;
}

/* Journaled before the runtime knows it (create, run, restore). */
static void
oci_journal_container(struct exec_proc *p)
{
	char	*target;

	if (p->ctx == NULL || p->j_container > 0)
		return;
	target = xasprintf("%s\t%s\t%s", p->runtime,
	    p->root != NULL ? p->root : "", p->id);
	p->j_container = run_journal_object(p->ctx, "oci-container", target);
	free(target);
}

static void
oci_forget_container(struct exec_proc *p)
{
	p->created = 0;
	if (p->ctx != NULL)
		run_forget_object(p->ctx, p->j_container);
	p->j_container = -1;
}

static void
oci_free(struct exec_proc *p)
{
	strvec_clear(&p->run_argv);
	strvec_clear(&p->global);
	free(p->cgroup_text);
	free(p->runtime);
	free(p->root);
	free(p->id);
	free(p->bundle);
	free(p->cgpath);
	free(p->logdir);
	free(p->join[0]);
	free(p);
}

int
oci_prepare(struct run_ctx *ctx, const struct exec_spec *spec0,
    struct exec_proc **procp, char **cause)
{
	static unsigned		 counter;
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct exec_spec	 spec;
	const char		*base, *root;
	char			*tmpl;
	size_t			 i;

	spec = *spec0;
	p->ctx = ctx;
	p->j_container = p->j_bundle = p->j_cgroup = -1;
	p->runtime = xstrdup(spec.runtime != NULL ? spec.runtime : "runc");
	/* Before the arm's flags: an arm's own --root wins. */
	if (spec.state_dir != NULL)
		strvec_pushf(&p->global, "--root=%s", spec.state_dir);
	strvec_pushv(&p->global, spec.runtime_args);
	/* The bundle has no network; runsc refuses the host's namespace. */
	if (oci_runtime_is_runsc(p->runtime)) {
		for (i = 0; i < p->global.n; i++) {
			if (str_startswith(p->global.v[i], "-network") ||
			    str_startswith(p->global.v[i], "--network"))
				break;
		}
		if (i == p->global.n)
			strvec_push(&p->global, "--network=none");
	}
	if ((root = global_root(p->global.v)) != NULL) {
		p->root = xstrdup(root);
		/* The runtime makes it too, but not its parents. */
		(void)mkdir(p->root, 0700);
	}
	if (strchr(p->runtime, '\t') != NULL ||
	    (p->root != NULL && strchr(p->root, '\t') != NULL)) {
		set_cause(cause, "OCI runtime '%s': a tab in its name or "
		    "--root", p->runtime);
		oci_free(p);
		return -1;
	}
	base = ctx != NULL && ctx->cgroup_name[0] ? ctx->cgroup_name :
	    "abbench-oci";
	p->id = xasprintf("%s-%ld-%u", base, (long)getpid(), counter++);
	/* Named after the run, like its other scratch directories. */
	tmpl = run_scratch_file(ctx, "oci-XXXXXX", NULL);
	if (mkdtemp(tmpl) == NULL) {
		set_cause(cause, "cannot create '%s': %s", tmpl,
		    strerror(errno));
		free(tmpl);
		oci_free(p);
		return -1;
	}
	p->bundle = tmpl;
	if (ctx != NULL)
		p->j_bundle = run_journal_object(ctx, "dir", p->bundle);
	if (spec.platform != NULL) {
		if (!oci_runtime_is_runsc(p->runtime)) {
			set_cause(cause, "platform '%s': runtime '%s' is not "
			    "runsc", spec.platform, p->runtime);
			exec_lookup("oci")->destroy(ctx, p);
			return -1;
		}
		strvec_pushf(&p->global, "--platform=%s", spec.platform);
	}
	/* runsc's own logs, kept in the bundle (the run's directory) for
	 * as long as the container: what a failure's error quotes. */
	if (spec.sandbox_log > 0 && oci_runtime_is_runsc(p->runtime)) {
		p->logdir = xasprintf("%s/runsc-log", p->bundle);
		strvec_pushf(&p->global, "--debug-log=%s/", p->logdir);
		if (spec.sandbox_log > 1)
			strvec_push(&p->global, "--debug");
	}
	/*
	 * Relative: below the runtime's own cgroup, which is ours, in
	 * every hierarchy it joins; inside the spec's cgroup parent when
	 * there is one (quota = parent), as docker's --cgroup-parent and the
	 * local executor place theirs.
	 */
	if (spec.cgroup_parent != NULL) {
		if (spec.cgroup_parent[0] == '\0' ||
		    spec.cgroup_parent[0] == '/' ||
		    strstr(spec.cgroup_parent, "..") != NULL) {
			set_cause(cause, "bad cgroup parent '%s' (want a "
			    "path below the run's cgroup)",
			    spec.cgroup_parent);
			exec_lookup("oci")->destroy(ctx, p);
			return -1;
		}
		p->cgpath = xasprintf("%s/%s/%s", base, spec.cgroup_parent,
		    p->id);
	} else
		p->cgpath = xasprintf("%s/%s", base, p->id);
	if (ctx != NULL)
		p->j_cgroup = run_journal_object(ctx, "cgroup", p->cgpath);
	{
		char	*cgp = cgrp_runtime_path(p->cgpath);
		int	 r = oci_write_config(p->bundle, &spec, cgp, cause);

		free(cgp);
		if (r == -1) {
			exec_lookup("oci")->destroy(ctx, p);
			return -1;
		}
	}
	*procp = p;
	return 0;
}

static void
learn_pid(struct exec_proc *p)
{
	if (p->pid > 0)
		return;
	if (oci_state(p, NULL, &p->pid, NULL) == 0 && p->pid > 0 &&
	    p->cgroup_text == NULL)
		p->cgroup_text = proccg_read(p->pid, NULL);
}

int
oci_create(struct exec_proc *p, int64_t *elapsed_ns, char **cause)
{
	oci_journal_container(p);
	p->created = 1;		/* even a failed create leaves state */
	if (oci_call(p, 1, NULL, elapsed_ns, cause, "create", "--bundle",
	    p->bundle, p->id, NULL) == -1)
		return -1;
	learn_pid(p);
	return 0;
}

int
oci_start(struct exec_proc *p, int64_t *elapsed_ns, char **cause)
{
	return oci_call(p, 0, NULL, elapsed_ns, cause, "start", p->id, NULL);
}

int
oci_state(struct exec_proc *p, char **status, long *pid, char **cause)
{
	json_error_t	 jerr;
	char		*out = NULL;
	json_t		*j, *v;

	if (oci_call(p, 0, &out, NULL, cause, "state", p->id, NULL) == -1)
		return -1;
	j = json_loads(out, 0, &jerr);
	free(out);
	if (j == NULL)
		return set_cause(cause, "'%s state %s': bad JSON: %s",
		    p->runtime, p->id, jerr.text);
	v = json_object_get(j, "status");
	if (!json_is_string(v)) {
		json_decref(j);
		return set_cause(cause, "'%s state %s': no status",
		    p->runtime, p->id);
	}
	if (status != NULL)
		*status = xstrdup(json_string_value(v));
	v = json_object_get(j, "pid");
	if (pid != NULL)
		*pid = json_is_integer(v) ? (long)json_integer_value(v) : -1;
	json_decref(j);
	return 0;
}

/*
 * Gone, or a zombie whose threads have all exited. Not a pidfd: a pidfd
 * polls readable as soon as the thread-group leader exits, and the runsc
 * sandbox's leader exits long before its other threads (measured: 17 ms
 * vs 1.3 s).
 */
static int
pid_gone(long pid)
{
	char	*text, *s;
	int	 zombie;

	if (!proc_exited(pid))
		return 0;
	if ((text = proc_read(pid, "status", NULL)) == NULL)
		return 1;
	s = strstr(text, "\nThreads:");
	zombie = s == NULL || strtol(s + 9, NULL, 10) <= 1;
	free(text);
	return zombie;
}

int
oci_wait_exit(struct exec_proc *p, int64_t deadline_ns, char **cause)
{
	struct timespec	ts = { 0, 1000000 };	/* 1 ms */

	learn_pid(p);
	if (p->pid <= 0)
		return set_cause(cause, "container '%s': no pid", p->id);
	while (!pid_gone(p->pid)) {
		if (now_mono_ns() >= deadline_ns)
			return set_cause(cause, "container '%s' still runs "
			    "at the deadline", p->id);
		nanosleep(&ts, NULL);
	}
	/* If the runtime left it to us (no subreaper), reap it. */
	(void)waitpid((pid_t)p->pid, NULL, WNOHANG);
	return 0;
}

int
oci_kill(struct exec_proc *p, const char *sig, char **cause)
{
	return oci_call(p, 0, NULL, NULL, cause, "kill", p->id, sig, NULL);
}

int
oci_delete(struct exec_proc *p, int force, int64_t *elapsed_ns, char **cause)
{
	if (oci_call(p, 0, NULL, elapsed_ns, cause, "delete",
	    force ? "--force" : p->id, force ? p->id : NULL, NULL) == -1)
		return -1;
	oci_forget_container(p);
	return 0;
}

int
oci_checkpoint(struct exec_proc *p, const char *image_path,
    int leave_running, int64_t *elapsed_ns, char **cause)
{
	char	*arg;
	int	 r;

	/* Pitfall 9: a new directory for every checkpoint. */
	if (mkdir(image_path, 0700) == -1)
		return set_cause(cause, "cannot make '%s': %s", image_path,
		    strerror(errno));
	arg = xasprintf("--image-path=%s", image_path);
	r = oci_call(p, 0, NULL, elapsed_ns, cause, "checkpoint", arg,
	    leave_running ? "--leave-running" : p->id,
	    leave_running ? p->id : NULL, NULL);
	free(arg);
	return r;
}

int
oci_restore(struct exec_proc *p, const char *image_path, int64_t *elapsed_ns,
    char **cause)
{
	char	*arg = xasprintf("--image-path=%s", image_path);
	int	 r;

	oci_journal_container(p);
	p->created = 1;
	/* A new sandbox: learn its pid and cgroups again. */
	p->pid = 0;
	free(p->cgroup_text);
	p->cgroup_text = NULL;
	r = oci_call(p, 1, NULL, elapsed_ns, cause, "restore", "--detach",
	    arg, "--bundle", p->bundle, p->id, NULL);
	free(arg);
	return r;
}

const char *
oci_id(struct exec_proc *p)
{
	return p->id;
}

/* Only runsc checkpoints here (runc's needs CRIU). */
static int
oci_can_checkpoint(const struct exec_spec *spec, char **cause)
{
	const char	*rt = spec->runtime != NULL ? spec->runtime : "runc";

	if (!oci_runtime_is_runsc(rt))
		return set_cause(cause, "runtime '%s' is not runsc: "
		    "checkpoint needs runsc", rt);
	return 0;
}

static int
oci_check(struct run_ctx *ctx, const struct exec_check *chk,
    char **cause)
{
	char		*img;
	size_t		 i;

	(void)ctx;
	/*
	 * v2: the runtime makes the container's cgroup below ours and
	 * enables controllers on the way down, but only those our parent
	 * gave us: a limit, quota or weight that needs another would fail
	 * at the first sample.
	 */
	if (exec_check_needs(chk, cause) == -1)
		return -1;
	if ((img = oci_image_rootfs(chk->image, cause)) == NULL)
		return -1;
	if (access(img, F_OK) != 0) {
		char	*how = oci_image_build_hint(chk->image);
		char	*hint = image_hint(chk->image, NULL);

		set_cause(cause, "rootfs '%s' not found: build it with %s%s",
		    img, how, hint);
		free(hint);
		free(how);
		free(img);
		return -1;
	}
	free(img);
	for (i = 0; i < chk->narms; i++) {
		const char	*rt = chk->runtimes[i] ? chk->runtimes[i] :
				    "runc";
		char		*argv[] = { (char *)rt, "--version", NULL };
		int		 status = -1;
		char		*c = NULL;

		if (spawn_capture(argv, 20 * NSEC_PER_SEC, NULL, NULL,
		    &status, &c) == -1 || status != 0) {
			set_cause(cause, "arm '%s': OCI runtime '%s' does not "
			    "run%s%s (install it, or set runtime to a path)",
			    chk->arms[i], rt, c ? ": " : "", c ? c : "");
			free(c);
			return -1;
		}
		if (chk->platforms != NULL && chk->platforms[i] != NULL &&
		    oci_runtime_is_runsc(rt) && oci_platform_check(rt,
		    chk->platforms[i], chk->platform_at[i], cause) == -1)
			return -1;
	}
	return 0;
}

/*
 * An arm's cpu and memory limits in the container's cgroup before runc
 * starts: runc writes its resources only once runc init has set the
 * container up in that cgroup, unlimited (a Go program: ~0.4 s of CPU
 * under emulation, half of a short program's under cpu = 0.1). runc
 * takes the cgroup as it finds it and writes the same values again.
 */
static int
oci_limit_early(struct exec_proc *p, const struct exec_spec *spec,
    char **cause)
{
	static const char *const ctls[] = { "cpu", "cpuacct", "memory", NULL };
	struct cgrp	*cg;
	char		 buf[32];
	int		 r = 0;

	if (spec->cpus <= 0 && spec->memory == 0)
		return 0;
	if ((cg = cgrp_create(p->cgpath, ctls, cause)) == NULL)
		return -1;
	if (spec->cpus > 0)
		r = cgrp_set_cpu_limit(cg, spec->cpus, CGRP_CFS_PERIOD_US,
		    cause);
	if (r == 0 && spec->memory > 0) {
		snprintf(buf, sizeof buf, "%llu",
		    (unsigned long long)spec->memory);
		r = cgrp_write(cg, "memory", cg->version == 2 ? "memory.max" :
		    "memory.limit_in_bytes", buf, cause);
	}
	cgrp_free(cg);
	return r;
}

static int
oci_exec_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p;

	if (oci_prepare(ctx, spec, &p, cause) == -1)
		return -1;
	if (oci_runtime_is_runc(p->runtime) && ctx != NULL &&
	    ctx->cgroup_name[0] != '\0' &&
	    oci_limit_early(p, spec, cause) == -1) {
		exec_lookup("oci")->destroy(ctx, p);
		return -1;
	}
	oci_journal_container(p);
	p->created = 1;
	strvec_push(&p->run_argv, p->runtime);
	strvec_pushv(&p->run_argv, p->global.v);
	strvec_push(&p->run_argv, "run");
	/*
	 * runc removes the container and its cgroup as the program exits;
	 * --keep leaves both to our teardown (delete --force), so that the
	 * program's CPU time and the OOM killer's kills are read from its
	 * cgroup first (oci_exec_wait). runsc has no --keep (and its
	 * sandbox, not the program, is what its cgroup holds).
	 */
	if (oci_runtime_is_runc(p->runtime)) {
		strvec_push(&p->run_argv, "--keep");
		p->keep = 1;
	}
	strvec_push(&p->run_argv, "--bundle");
	strvec_push(&p->run_argv, p->bundle);
	strvec_push(&p->run_argv, p->id);
	p->run.argv = p->run_argv.v;
	p->run.flags = SPAWN_CAPTURE_ERR | (spec->capture ?
	    SPAWN_CAPTURE_OUT : SPAWN_NULL_OUT);
	p->run.on_out = spec->capture ? spec->on_out : NULL;
	p->run.on_out_arg = spec->on_out_arg;
	/*
	 * perf stat's cgroup: runsc's sandbox and gofer are its children
	 * and stay there (on v1 and hybrid hosts runsc moves them in the
	 * v1 hierarchies only; perf counts the cgroup2 one).
	 */
	if (spec->join_procs != NULL) {
		p->join[0] = xstrdup(spec->join_procs);
		p->run.cgroup_procs = p->join;
	}
	if (spawn_start(&p->run, cause) == -1) {
		exec_lookup("oci")->destroy(ctx, p);
		return -1;
	}
	p->running = 1;
	*procp = p;
	return 0;
}

static char	*oci_cgroup_dir(struct exec_proc *p, const char *controller);

/*
 * The OOM killer's kills in the container's memory cgroup (v2
 * memory.events, v1 memory.oom_control); 0 when it cannot be read.
 */
static uint64_t
oci_oom_kills(struct exec_proc *p)
{
	char		*dir = oci_cgroup_dir(p, "memory"), *path, *v;
	uint64_t	 n = 0;

	if (dir == NULL)
		return 0;
	path = xasprintf("%s/%s", dir, cgrp_version() == 2 ?
	    "memory.events" : "memory.oom_control");
	v = read_small_file(path, NULL);
	if (v == NULL || kv_u64(v, "oom_kill", &n) == -1)
		n = 0;
	free(v);
	free(path);
	free(dir);
	return n;
}

/*
 * The program's own CPU time, from the container's cgroup, in place of
 * `runc run`'s rusage, which also holds runc's: a Go process that costs
 * CPU for as long as the container runs (about 0.2 CPU under emulation),
 * unlimited, so that a cpu limit on the program hardly shows in it.
 * Left as it is when the cgroup cannot be read.
 */
static void
oci_program_times(struct exec_proc *p, struct rusage *ru)
{
	int		 v2 = cgrp_version() == 2;
	char		*dir = oci_cgroup_dir(p, v2 ? NULL : "cpuacct");
	char		*path, *v, *s;
	uint64_t	 u, sy;
	int		 ok = 0;

	if (dir == NULL)
		return;
	if (v2) {
		path = xasprintf("%s/cpu.stat", dir);
		v = read_small_file(path, NULL);
		/* usec */
		ok = v != NULL && kv_u64(v, "user_usec", &u) == 0 &&
		    kv_u64(v, "system_usec", &sy) == 0;
		free(v);
		free(path);
	} else {
		path = xasprintf("%s/cpuacct.usage_user", dir);
		v = read_small_file(path, NULL);
		free(path);
		path = xasprintf("%s/cpuacct.usage_sys", dir);
		s = read_small_file(path, NULL);
		free(path);
		/* ns */
		if (v != NULL && s != NULL) {
			u = strtoull(v, NULL, 10) / 1000;
			sy = strtoull(s, NULL, 10) / 1000;
			ok = 1;
		}
		free(v);
		free(s);
	}
	free(dir);
	if (!ok)
		return;
	ru->ru_utime.tv_sec = (time_t)(u / 1000000);
	ru->ru_utime.tv_usec = (suseconds_t)(u % 1000000);
	ru->ru_stime.tv_sec = (time_t)(sy / 1000000);
	ru->ru_stime.tv_usec = (suseconds_t)(sy % 1000000);
}

static int
oci_exec_wait(struct run_ctx *ctx, struct exec_proc *p, int64_t deadline_ns,
    struct exec_status *st, char **cause)
{
	(void)ctx;
	memset(st, 0, sizeof *st);
	st->status = -1;
	if (!p->running)
		return set_cause(cause, "container '%s' was not started with "
		    "run", p->id);
	if (deadline_ns <= 0)
		deadline_ns = now_mono_ns() + OCI_NO_DEADLINE_NS;
	if (spawn_wait(&p->run, deadline_ns, cause) == -1)
		return -1;
	if (p->run.timed_out)
		(void)oci_kill(p, "KILL", NULL);
	exec_status_from_child(st, &p->run);
	if (p->keep) {
		st->oom_kills = oci_oom_kills(p);
		oci_program_times(p, &st->ru);
	}
	if (p->run.timed_out || p->run.status != 0) {
		char	*sblog = sandbox_log_tail(p);

		if (*sblog != '\0') {
			char	*err = xasprintf("%s%s", st->err != NULL ?
			    st->err : "", sblog);

			free(st->err);
			st->err = err;
		}
		free(sblog);
	}
	return 0;
}

/* Not there (any more): what delete and kill say then. */
static int
oci_gone(const char *why)
{
	return why != NULL && (strstr(why, "does not exist") != NULL ||
	    strstr(why, "not exist") != NULL ||
	    strstr(why, "not found") != NULL);
}

#define OCI_KILL_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define OCI_DELETE_TIMEOUT_NS	(30 * NSEC_PER_SEC)

/* RUNTIME [--root=ROOT] A B C, from the fields of an OCI container. */
static void
oci_teardown_argv(struct strvec *argv, char *const *f, const char *a,
    const char *b, const char *c)
{
	strvec_push(argv, f[0]);
	if (f[1][0] != '\0')
		strvec_pushf(argv, "--root=%s", f[1]);
	strvec_push(argv, a);
	strvec_push(argv, b);
	strvec_push(argv, c);
}

int
exec_oci_teardown(const char *target, char **cause)
{
	struct strvec	 f = STRVEC_INIT, argv = STRVEC_INIT;
	char		*copy = xstrdup(target), *p, *tab, *out = NULL;
	char		*err = NULL, *how;
	int		 status = -1, rc = 0;
	struct stat	 sb;

	for (p = copy; (tab = strchr(p, '\t')) != NULL; p = tab + 1) {
		*tab = '\0';
		strvec_push(&f, p);
	}
	strvec_push(&f, p);
	free(copy);
	if (f.n != 3 || f.v[0][0] == '\0' || f.v[2][0] == '\0') {
		rc = set_cause(cause, "bad OCI container '%s' (want RUNTIME, "
		    "ROOT and ID, tab-separated)", target);
		goto done;
	}
	if (f.v[1][0] != '\0' && stat(f.v[1], &sb) == -1 && errno == ENOENT)
		goto done;	/* its state went with its root */
	oci_teardown_argv(&argv, f.v, "kill", f.v[2], "KILL");
	(void)spawn_capture(argv.v, OCI_KILL_TIMEOUT_NS, NULL, NULL, NULL,
	    NULL);
	strvec_clear(&argv);
	oci_teardown_argv(&argv, f.v, "delete", "--force", f.v[2]);
	if (spawn_capture(argv.v, OCI_DELETE_TIMEOUT_NS, &out, &err, &status,
	    cause) == -1)
		rc = -1;
	else if (status != 0 && !oci_gone(err)) {
		how = spawn_describe_status(status, 0);
		rc = set_cause(cause, "'%s delete --force %s' %s: %s",
		    f.v[0], f.v[2], how, err != NULL ? strtrim(err) : "");
		free(how);
	}
done:
	free(out);
	free(err);
	strvec_clear(&f);
	strvec_clear(&argv);
	return rc;
}

static void
oci_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	char	*c = NULL;

	if (p == NULL)
		return;
	if (p->running) {
		spawn_release(&p->run);
		p->running = 0;
	}
	if (p->created) {
		char	*target = xasprintf("%s\t%s\t%s", p->runtime,
			    p->root != NULL ? p->root : "", p->id);

		/* The same teardown `abbench restore` uses. */
		if (exec_oci_teardown(target, &c) == 0)
			oci_forget_container(p);
		else
			warning("%s", c);
		free(target);
		free(c);
		c = NULL;
	}
	if (p->cgpath != NULL) {
		if (cgrp_remove_everywhere(p->cgpath, NULL, &c) == 0) {
			if (ctx != NULL)
				run_forget_object(ctx, p->j_cgroup);
		} else
			warning("%s", c);
		free(c);
		c = NULL;
	}
	if (p->bundle != NULL) {
		if (rmtree(p->bundle, &c) == 0) {
			if (ctx != NULL)
				run_forget_object(ctx, p->j_bundle);
		} else
			warning("%s", c);
		free(c);
	}
	oci_free(p);
}

/*
 * The container's cgroup: its cgroupsPath below ours (inside the cgroup
 * parent, if any), where the runtime made it; else where /proc says its
 * process is.
 */
static char *
oci_cgroup_dir(struct exec_proc *p, const char *controller)
{
	struct stat	 sb;
	char		*base, *dir;

	if ((base = cgrp_self_dir(controller, NULL)) != NULL) {
		dir = xasprintf("%s/%s", base, p->cgpath);
		free(base);
		if (stat(dir, &sb) == 0)
			return dir;
		free(dir);
	}
	learn_pid(p);
	if (p->cgroup_text == NULL)
		return NULL;
	return proccg_dir(p->cgroup_text, controller);
}

static const char *
oci_peek(struct exec_proc *p)
{
	return p->running ? spawn_peek(&p->run) : "";
}

static long
oci_pid(struct exec_proc *p)
{
	learn_pid(p);
	return p->pid > 0 ? p->pid : -1;
}

static int
oci_signal(struct exec_proc *p, int sig, char **cause)
{
	const char	*name = sigabbrev_np(sig);

	if (name == NULL)
		return set_cause(cause, "unknown signal %d", sig);
	return oci_kill(p, name, cause);
}

static int
oci_undo(const char *target, struct strvec *also, char **cause)
{
	(void)also;
	return exec_oci_teardown(target, cause);
}

static const struct exec_steps oci_steps = {
	.prepare = oci_prepare,
	.create = oci_create,
	.start = oci_start,
	.state = oci_state,
	.wait_exit = oci_wait_exit,
	.delete = oci_delete,
	.id = oci_id,
	.can_checkpoint = oci_can_checkpoint,
	.checkpoint = oci_checkpoint,
	.restore = oci_restore,
};

const struct exec_ops exec_oci_ops = {
	.name = "oci",
	.caps = EXEC_CONTAINER | EXEC_RUNTIME_STEPS | EXEC_CGROUP_PARENT |
	    EXEC_ROOT,
	.runtime_label = "oci",
	.check = oci_check,
	.steps = &oci_steps,
	.start = oci_exec_start,
	.wait = oci_exec_wait,
	.destroy = oci_destroy,
	.cgroup_dir = oci_cgroup_dir,
	.pid = oci_pid,
	.peek = oci_peek,
	.signal = oci_signal,
	.journal_kind = "oci-container",
	.undo_done = "deleted OCI container '%s'",
	.undo = oci_undo,
	.barrier_join = exec_barrier_join_sandbox,
};
