/*
 * The oci executor: config.json written from our own template (jansson),
 * over a read-only rootfs directory, driven with the runtime binary and
 * the arm's global flags. start() is `RUNTIME run` as a child (stdio
 * captured); the lifecycle calls of exec-oci.h are separate and timed.
 * Every runtime call has a timeout (pitfall 1: runsc --platform=kvm hangs
 * here); containers and bundles are journaled before they exist.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "harness/exec-oci.h"
#include "harness/exec.h"
#include "harness/experiment.h"
#include "harness/proccg.h"
#include "harness/runner.h"
#include "harness/spawn.h"

#define OCI_NO_DEADLINE_NS	(24 * 3600 * 1000000000LL)

struct exec_proc {
	struct run_ctx	*ctx;
	char		*runtime;
	struct strvec	 global;
	char		*id;
	char		*bundle;
	int64_t		 j_container, j_bundle;
	int		 created;	/* the runtime knows the id */
	struct child	 run;		/* start(): `RUNTIME run` */
	struct strvec	 run_argv;
	int		 running;
	long		 pid;
	char		*cgroup_text;
	char		*cgpath;
	int64_t		 j_cgroup;
};

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
	const char	*rootfs = spec->image != NULL ? spec->image :
			    EXEC_OCI_DEFAULT_ROOTFS;
	const char	*kinds[] = { "pid", "ipc", "uts", "mount", "network",
			    NULL };
	char		*path, real[4096];
	size_t		 i;
	int		 r;

	if (realpath(rootfs, real) == NULL)
		return set_cause(cause, "rootfs '%s': %s (build it with "
		    "scripts/build-image)", rootfs, strerror(errno));
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
	json_array_append_new(mounts, mount_obj("/tmp", "tmpfs", "tmpfs",
	    "nosuid,nodev,mode=1777"));
	json_array_append_new(mounts, mount_obj("/var/tmp", "tmpfs", "tmpfs",
	    "nosuid,nodev,mode=1777"));
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
		    "quota", (json_int_t)(spec->cpus * 100000), "period",
		    (json_int_t)100000));
	if (spec->memory > 0)
		json_object_set_new(res, "memory", json_pack("{s:I}",
		    "limit", (json_int_t)spec->memory));
	json_object_set_new(linux_, "resources", res);
	json_object_set_new(linux_, "maskedPaths", json_pack("[s,s,s,s]",
	    "/proc/kcore", "/proc/keys", "/proc/timer_list",
	    "/sys/firmware"));
	json_object_set_new(linux_, "readonlyPaths", json_pack("[s,s,s]",
	    "/proc/bus", "/proc/fs", "/proc/sysrq-trigger"));
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

/* RUNTIME GLOBAL... ARGS..., timed; fails with the runtime's stderr. */
static int
oci_call(struct exec_proc *p, int64_t timeout_ns, char **out,
    int64_t *elapsed_ns, char **cause, ...)
{
	struct strvec	 av = STRVEC_INIT;
	struct child	 c;
	va_list		 ap;
	const char	*a;
	char		*how;
	int		 r = 0;

	strvec_push(&av, p->runtime);
	strvec_pushv(&av, p->global.v);
	va_start(ap, cause);
	while ((a = va_arg(ap, const char *)) != NULL)
		strvec_push(&av, a);
	va_end(ap);
	memset(&c, 0, sizeof c);
	c.argv = av.v;
	/* The container may inherit our stdio: give it nothing to hold. */
	c.flags = SPAWN_CAPTURE_ERR | (out != NULL ? SPAWN_CAPTURE_OUT :
	    SPAWN_NULL_OUT);
	if (spawn_run(&c, timeout_ns, cause) == -1) {
		strvec_clear(&av);
		spawn_release(&c);
		return -1;
	}
	if (elapsed_ns != NULL)
		*elapsed_ns = c.end_ns - c.start_ns;
	if (c.timed_out || c.status != 0) {
		how = spawn_describe_status(c.status, c.timed_out);
		set_cause(cause, "'%s %s %s' %s: %s", p->runtime, av.v[1 +
		    p->global.n], p->id, how, c.err.buf ? strtrim(c.err.buf) :
		    "");
		free(how);
		r = -1;
	} else if (out != NULL)
		*out = strbuf_detach(&c.out);
	strvec_clear(&av);
	spawn_release(&c);
	return r;
}

static char *
self_cpu_path(void)
{
	char	*text = proccg_read((long)getpid(), NULL);
	char	*line, *save = NULL, *res = NULL;

	if (text == NULL)
		return xstrdup("");
	for (line = strtok_r(text, "\n", &save); line != NULL && res == NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char	*c1 = strchr(line, ':'), *c2;

		if (c1 == NULL || (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if (strcmp(c1 + 1, "cpu") == 0 ||
		    str_startswith(c1 + 1, "cpu,") ||
		    (c2 == c1 + 1 && access("/sys/fs/cgroup/cpu", F_OK) != 0))
			res = xstrdup(strcmp(c2 + 1, "/") == 0 ? "" : c2 + 1);
	}
	free(text);
	return res != NULL ? res : xstrdup("");
}

/*
 * Workloads that know nothing of runtimes (command) leave them out of the
 * spec: take them from the arm and workload of the current sample.
 */
static void
spec_defaults(struct run_ctx *ctx, const struct exec_spec *in,
    struct exec_spec *out)
{
	const struct arm	*arm;
	const struct workload	*wl;

	*out = *in;
	if (ctx == NULL || ctx->exp == NULL || ctx->entry == NULL)
		return;
	arm = &ctx->exp->arms[ctx->entry->arm];
	wl = &ctx->exp->workloads[ctx->entry->workload];
	if (out->runtime == NULL)
		out->runtime = arm->runtime;
	if (out->runtime_args == NULL && arm->runtime_args.n > 0)
		out->runtime_args = arm->runtime_args.v;
	if (out->image == NULL)
		out->image = workload_get(wl, arm, "image");
}

int
oci_prepare(struct run_ctx *ctx, const struct exec_spec *spec0,
    struct exec_proc **procp, char **cause)
{
	static unsigned		 counter;
	struct exec_proc	*p = xcalloc(1, sizeof *p);
	struct exec_spec	 specbuf, *spec = &specbuf;
	char			 tmpl[] = "/tmp/abbench-oci-XXXXXX";
	const char		*base;
	char			*self;

	spec_defaults(ctx, spec0, &specbuf);

	p->ctx = ctx;
	p->j_container = p->j_bundle = p->j_cgroup = -1;
	p->runtime = xstrdup(spec->runtime != NULL ? spec->runtime : "runc");
	strvec_pushv(&p->global, spec->runtime_args);
	base = ctx != NULL && ctx->cgroup_name[0] ? ctx->cgroup_name :
	    "abbench-oci";
	p->id = xasprintf("%s-%ld-%u", base, (long)getpid(), counter++);
	if (mkdtemp(tmpl) == NULL) {
		set_cause(cause, "cannot create '%s': %s", tmpl,
		    strerror(errno));
		free(p->runtime);
		strvec_clear(&p->global);
		free(p->id);
		free(p);
		return -1;
	}
	p->bundle = xstrdup(tmpl);
	if (ctx != NULL)
		p->j_bundle = run_journal_object(ctx, "dir", p->bundle);
	self = self_cpu_path();
	p->cgpath = xasprintf("%s/%s/o%u", self, base, counter);
	free(self);
	if (ctx != NULL)
		p->j_cgroup = run_journal_object(ctx, "cgroup", p->cgpath);
	if (oci_write_config(p->bundle, spec, p->cgpath, cause) == -1) {
		exec_lookup("oci")->destroy(ctx, p);
		return -1;
	}
	*procp = p;
	return 0;
}

static void
learn_pid(struct exec_proc *p)
{
	char	*st = NULL;

	if (p->pid > 0)
		return;
	if (oci_state(p, &st, &p->pid, NULL) == 0 && p->pid > 0 &&
	    p->cgroup_text == NULL)
		p->cgroup_text = proccg_read(p->pid, NULL);
	free(st);
}

int
oci_create(struct exec_proc *p, int64_t *elapsed_ns, char **cause)
{
	p->created = 1;
	if (oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, elapsed_ns, cause,
	    "create", "--bundle", p->bundle, p->id, NULL) == -1)
		return -1;
	learn_pid(p);
	return 0;
}

int
oci_start(struct exec_proc *p, int64_t *elapsed_ns, char **cause)
{
	return oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, elapsed_ns, cause,
	    "start", p->id, NULL);
}

int
oci_state(struct exec_proc *p, char **status, long *pid, char **cause)
{
	char	*out = NULL;
	json_t	*j, *v;

	if (oci_call(p, EXEC_OCI_TIMEOUT_NS, &out, NULL, cause, "state",
	    p->id, NULL) == -1)
		return -1;
	j = json_loads(out, 0, NULL);
	free(out);
	if (j == NULL)
		return set_cause(cause, "'%s state %s': not JSON", p->runtime,
		    p->id);
	v = json_object_get(j, "status");
	if (status != NULL)
		*status = xstrdup(json_is_string(v) ? json_string_value(v) :
		    "unknown");
	v = json_object_get(j, "pid");
	if (pid != NULL)
		*pid = json_is_integer(v) ? (long)json_integer_value(v) : -1;
	json_decref(j);
	return 0;
}

int
oci_kill(struct exec_proc *p, const char *sig, char **cause)
{
	return oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, NULL, cause, "kill",
	    p->id, sig, NULL);
}

int
oci_delete(struct exec_proc *p, int force, int64_t *elapsed_ns, char **cause)
{
	if (oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, elapsed_ns, cause,
	    "delete", force ? "--force" : p->id, force ? p->id : NULL,
	    NULL) == -1)
		return -1;
	p->created = 0;
	if (p->ctx != NULL)
		run_forget_object(p->ctx, p->j_container);
	p->j_container = -1;
	return 0;
}

int
oci_checkpoint(struct exec_proc *p, const char *image_path,
    int leave_running, int64_t *elapsed_ns, char **cause)
{
	char	*arg = xasprintf("--image-path=%s", image_path);
	int	 r;

	r = oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, elapsed_ns, cause,
	    "checkpoint", arg, leave_running ? "--leave-running" : p->id,
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

	p->created = 1;
	r = oci_call(p, EXEC_OCI_TIMEOUT_NS, NULL, elapsed_ns, cause,
	    "restore", arg, "--bundle", p->bundle, "--detach", p->id, NULL);
	free(arg);
	p->pid = 0;
	return r;
}

const char *
oci_id(struct exec_proc *p)
{
	return p->id;
}

const char *
oci_bundle(struct exec_proc *p)
{
	return p->bundle;
}

static int
oci_check(struct run_ctx *ctx, const struct experiment *e,
    const struct workload *wl, char **cause)
{
	const char	*img = workload_get(wl, NULL, "image");
	size_t		 i;

	(void)ctx;
	if (img == NULL)
		img = EXEC_OCI_DEFAULT_ROOTFS;
	if (access(img, F_OK) != 0)
		return set_cause(cause, "rootfs '%s' not found: build it with "
		    "scripts/build-image", img);
	for (i = 0; i < e->narms; i++) {
		const char	*rt = e->arms[i].runtime ? e->arms[i].runtime :
				    "runc";
		char		*argv[] = { (char *)rt, "--version", NULL };
		int		 status = -1;
		char		*c = NULL;

		if (spawn_capture(argv, 20 * 1000000000LL, NULL, NULL,
		    &status, &c) == -1 || status != 0) {
			set_cause(cause, "arm '%s': OCI runtime '%s' does not "
			    "run%s%s (install it, or set runtime to a path)",
			    e->arms[i].name, rt, c ? ": " : "", c ? c : "");
			free(c);
			return -1;
		}
	}
	return 0;
}

static int
oci_exec_start(struct run_ctx *ctx, const struct exec_spec *spec,
    struct exec_proc **procp, char **cause)
{
	struct exec_proc	*p;

	if (oci_prepare(ctx, spec, &p, cause) == -1)
		return -1;
	p->created = 1;
	strvec_push(&p->run_argv, p->runtime);
	strvec_pushv(&p->run_argv, p->global.v);
	strvec_push(&p->run_argv, "run");
	strvec_push(&p->run_argv, "--bundle");
	strvec_push(&p->run_argv, p->bundle);
	strvec_push(&p->run_argv, p->id);
	p->run.argv = p->run_argv.v;
	p->run.flags = SPAWN_CAPTURE_ERR | (spec->capture ?
	    SPAWN_CAPTURE_OUT : SPAWN_NULL_OUT);
	if (spawn_start(&p->run, cause) == -1) {
		exec_lookup("oci")->destroy(ctx, p);
		return -1;
	}
	p->running = 1;
	*procp = p;
	return 0;
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
	if (p->run.timed_out) {
		st->timed_out = 1;
		(void)oci_kill(p, "KILL", NULL);
	} else
		st->status = p->run.status;
	st->start_ns = p->run.start_ns;
	st->end_ns = p->run.end_ns;
	st->ru = p->run.ru;
	st->outlen = p->run.out.len;
	st->out = strbuf_detach(&p->run.out);
	st->err = last_lines(p->run.err.buf ? p->run.err.buf : "",
	    p->run.err.len, 10);
	return 0;
}

static int
remove_tree(const char *path)
{
	char	*argv[] = { "rm", "-rf", "--one-file-system", (char *)path,
		    NULL };
	int	 status = -1;

	if (spawn_capture(argv, EXEC_OCI_TIMEOUT_NS, NULL, NULL, &status,
	    NULL) == -1 || status != 0)
		return -1;
	return 0;
}

static void
oci_destroy(struct run_ctx *ctx, struct exec_proc *p)
{
	char	*c = NULL;

	if (p == NULL)
		return;
	if (p->running) {
		spawn_kill(&p->run);
		spawn_release(&p->run);
	}
	if (p->created) {
		(void)oci_kill(p, "KILL", NULL);
		if (oci_delete(p, 1, NULL, &c) == -1 &&
		    strstr(c, "does not exist") == NULL &&
		    strstr(c, "not found") == NULL)
			warning("%s", c);
		else if (ctx != NULL)
			run_forget_object(ctx, p->j_container);
		free(c);
	}
	if (p->cgpath != NULL) {
		if (proccg_rmdir_everywhere(p->cgpath) == 0 && ctx != NULL)
			run_forget_object(ctx, p->j_cgroup);
		free(p->cgpath);
	}
	if (p->bundle != NULL) {
		if (remove_tree(p->bundle) == 0 && ctx != NULL)
			run_forget_object(ctx, p->j_bundle);
		free(p->bundle);
	}
	strvec_clear(&p->run_argv);
	strvec_clear(&p->global);
	free(p->cgroup_text);
	free(p->runtime);
	free(p->id);
	free(p);
}

static char *
oci_cgroup_dir(struct exec_proc *p, const char *controller)
{
	learn_pid(p);
	if (p->cgroup_text == NULL)
		return NULL;
	return proccg_dir(p->cgroup_text, controller);
}

static long
oci_pid(struct exec_proc *p)
{
	learn_pid(p);
	return p->pid > 0 ? p->pid : -1;
}

const struct exec_ops exec_oci_ops = {
	.name = "oci",
	.check = oci_check,
	.start = oci_exec_start,
	.wait = oci_exec_wait,
	.destroy = oci_destroy,
	.cgroup_dir = oci_cgroup_dir,
	.pid = oci_pid,
};
