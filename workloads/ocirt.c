/*
 * OCI runtime calls (create, start, state, kill, delete, checkpoint,
 * restore) over spawn, and bundles written with jansson. See ocirt.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "harness/proccg.h"
#include "harness/runner.h"
#include "harness/spawn.h"
#include "workloads/ocirt.h"

#define OCIRT_TIMEOUT_NS	(60 * 1000000000LL)

/* runc spec's defaults without a terminal or a network. */
static const char ocirt_template[] =
"{\"ociVersion\":\"1.0.2\","
" \"process\":{\"terminal\":false,\"user\":{\"uid\":0,\"gid\":0},"
"  \"args\":[],\"env\":[\"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin\"],"
"  \"cwd\":\"/\",\"noNewPrivileges\":true,"
"  \"capabilities\":{"
"   \"bounding\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\"],"
"   \"effective\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\"],"
"   \"permitted\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\"],"
"   \"ambient\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\"]},"
"  \"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1024,\"soft\":1024}]},"
" \"root\":{\"path\":\"\",\"readonly\":true},"
" \"hostname\":\"abbench\","
" \"mounts\":["
"  {\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
"  {\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
"   \"options\":[\"nosuid\",\"strictatime\",\"mode=755\",\"size=65536k\"]},"
"  {\"destination\":\"/dev/pts\",\"type\":\"devpts\",\"source\":\"devpts\","
"   \"options\":[\"nosuid\",\"noexec\",\"newinstance\",\"ptmxmode=0666\","
"    \"mode=0620\"]},"
"  {\"destination\":\"/dev/shm\",\"type\":\"tmpfs\",\"source\":\"shm\","
"   \"options\":[\"nosuid\",\"noexec\",\"nodev\",\"mode=1777\","
"    \"size=65536k\"]},"
"  {\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
"   \"options\":[\"nosuid\",\"nodev\",\"mode=1777\"]},"
"  {\"destination\":\"/sys\",\"type\":\"sysfs\",\"source\":\"sysfs\","
"   \"options\":[\"nosuid\",\"noexec\",\"nodev\",\"ro\"]}],"
" \"linux\":{\"cgroupsPath\":\"\","
"  \"namespaces\":[{\"type\":\"pid\"},{\"type\":\"network\"},"
"   {\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"}],"
"  \"maskedPaths\":[\"/proc/kcore\",\"/proc/keys\",\"/proc/timer_list\","
"   \"/sys/firmware\"],"
"  \"readonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"/proc/irq\","
"   \"/proc/sys\",\"/proc/sysrq-trigger\"]}}";

void
ocirt_init(struct ocirt *rt, const char *runtime, char *const *args,
    const char *root)
{
	const char	*base = strrchr(runtime, '/');
	int		 net = 0;
	size_t		 i;

	memset(rt, 0, sizeof *rt);
	rt->runtime = xstrdup(runtime);
	rt->root = xstrdup(root);
	rt->is_runsc = str_startswith(base != NULL ? base + 1 : runtime,
	    "runsc");
	rt->timeout_ns = OCIRT_TIMEOUT_NS;
	(void)mkdir(root, 0700);
	strvec_pushf(&rt->gflags, "--root=%s", root);
	for (i = 0; args != NULL && args[i] != NULL; i++) {
		if (str_startswith(args[i], "--network") ||
		    str_startswith(args[i], "-network"))
			net = 1;
		strvec_push(&rt->gflags, args[i]);
	}
	/* The bundle has no network; runsc refuses the host's namespace. */
	if (rt->is_runsc && !net)
		strvec_push(&rt->gflags, "--network=none");
}

void
ocirt_release(struct ocirt *rt)
{
	free(rt->runtime);
	free(rt->root);
	strvec_clear(&rt->gflags);
	memset(rt, 0, sizeof *rt);
}

static int
ocirt_write_config(const char *path, const char *rootfs,
    char *const *argv, const char *cgpath, char **cause)
{
	json_error_t	 jerr;
	json_t		*spec, *args;
	size_t		 i;
	int		 r = 0;

	spec = json_loads(ocirt_template, 0, &jerr);
	if (spec == NULL)
		BUG("bad bundle template: %s", jerr.text);
	args = json_object_get(json_object_get(spec, "process"), "args");
	for (i = 0; argv[i] != NULL; i++)
		json_array_append_new(args, json_string(argv[i]));
	json_object_set_new(json_object_get(spec, "root"), "path",
	    json_string(rootfs));
	json_object_set_new(json_object_get(spec, "linux"), "cgroupsPath",
	    json_string(cgpath));
	if (json_dump_file(spec, path, JSON_INDENT(1)) == -1)
		r = set_cause(cause, "cannot write '%s'", path);
	json_decref(spec);
	return r;
}

int
ocirt_bundle(struct run_ctx *ctx, const char *dir, const char *id,
    const char *rootfs, char *const *argv, const char *cgparent,
    struct ocirt_ctr *c, char **cause)
{
	char	*cfg, *abs;

	memset(c, 0, sizeof *c);
	c->cg_journal = c->bundle_journal = -1;
	c->id = xstrdup(id);
	c->bundle = xasprintf("%s/%s", dir, id);
	c->cgrel = xasprintf("%s/%s", cgparent, id);
	if ((abs = realpath(rootfs, NULL)) == NULL)
		return set_cause(cause, "rootfs '%s': %s", rootfs,
		    strerror(errno));
	if (ctx != NULL)
		c->bundle_journal = run_journal_object(ctx, "dir", c->bundle);
	if (mkdir(c->bundle, 0700) == -1 && errno != EEXIST) {
		set_cause(cause, "cannot make '%s': %s", c->bundle,
		    strerror(errno));
		free(abs);
		return -1;
	}
	cfg = xasprintf("%s/config.json", c->bundle);
	if (ocirt_write_config(cfg, abs, argv, c->cgrel, cause) == -1) {
		free(cfg);
		free(abs);
		return -1;
	}
	free(cfg);
	free(abs);
	/* The runtime makes it on create: journaled first. */
	if (ctx != NULL)
		c->cg_journal = run_journal_object(ctx, "cgroup", c->cgrel);
	return 0;
}

/*
 * RUNTIME GFLAGS VERB ARGS... with a timeout. session: run it as
 * `setsid -w ...` (see ocirt.h). The container's stdio (create, restore)
 * goes to /dev/null, so only stderr of the runtime is kept.
 */
static int
ocirt_runv(struct ocirt *rt, int session, int64_t *ns, char **cause,
    const char *verb, const char *const *args)
{
	struct strvec	 av = STRVEC_INIT;
	struct child	 ch;
	char		*how;
	int		 r = 0;

	if (session) {
		strvec_push(&av, "setsid");
		strvec_push(&av, "-w");
	}
	strvec_push(&av, rt->runtime);
	strvec_pushv(&av, rt->gflags.v);
	strvec_push(&av, verb);
	strvec_pushv(&av, (char *const *)args);
	memset(&ch, 0, sizeof ch);
	ch.argv = av.v;
	ch.flags = SPAWN_NULL_IN | SPAWN_NULL_OUT |
	    (session ? SPAWN_NULL_ERR : SPAWN_CAPTURE_ERR);
	if (spawn_run(&ch, rt->timeout_ns, cause) == -1) {
		strvec_clear(&av);
		return -1;
	}
	if (ns != NULL)
		*ns = ch.end_ns - ch.start_ns;
	if (ch.timed_out || ch.status != 0) {
		how = spawn_describe_status(ch.status, ch.timed_out);
		r = set_cause(cause, "'%s %s' %s%s%s", rt->runtime, verb, how,
		    ch.err.buf != NULL ? ": " : "",
		    ch.err.buf != NULL ? strtrim(ch.err.buf) : "");
		free(how);
	}
	spawn_release(&ch);
	strvec_clear(&av);
	return r;
}

/* The same with up to three arguments. */
static int
ocirt_run(struct ocirt *rt, int64_t *ns, char **cause, const char *verb,
    const char *a1, const char *a2, const char *a3)
{
	const char	*args[] = { a1, a2, a3, NULL };

	return ocirt_runv(rt, 0, ns, cause, verb, args);
}

/*
 * For create/restore, in their own session with no stderr kept (the
 * container inherits the runtime's stdio): errors come from the runtime's
 * log file in the bundle.
 */
static int
ocirt_run_logged(struct ocirt *rt, struct ocirt_ctr *c, int64_t *ns,
    char **cause, const char *verb, const char *const *args)
{
	char	*log = xasprintf("%s/%s.log", c->bundle, verb);
	char	*text, *c2 = NULL;
	int	 r;

	/* A global flag: it goes before the verb. */
	strvec_pushf(&rt->gflags, "--log=%s", log);
	r = ocirt_runv(rt, 1, ns, &c2, verb, args);
	free(rt->gflags.v[--rt->gflags.n]);
	rt->gflags.v[rt->gflags.n] = NULL;
	if (r == -1) {
		text = read_file(log, NULL, NULL);
		if (text != NULL && *text != '\0') {
			char	*tail = last_lines(text, strlen(text), 3);

			set_cause(cause, "%s: %s", c2, strtrim(tail));
			free(tail);
		} else
			set_cause(cause, "%s", c2);
		free(text);
		free(c2);
	}
	free(log);
	return r;
}

int
ocirt_create(struct ocirt *rt, struct ocirt_ctr *c, int64_t *ns,
    char **cause)
{
	const char	*args[] = { "--bundle", c->bundle, c->id, NULL };

	c->exists = 1;		/* even a failed create leaves state */
	return ocirt_run_logged(rt, c, ns, cause, "create", args);
}

int
ocirt_start(struct ocirt *rt, struct ocirt_ctr *c, int64_t *ns,
    char **cause)
{
	return ocirt_run(rt, ns, cause, "start", c->id, NULL, NULL);
}

char *
ocirt_state(struct ocirt *rt, struct ocirt_ctr *c, char **cause)
{
	struct strvec	 av = STRVEC_INIT;
	char		*out = NULL, *err = NULL, *how, *res = NULL;
	int		 status = -1;
	json_t		*j;
	json_error_t	 jerr;

	strvec_push(&av, rt->runtime);
	strvec_pushv(&av, rt->gflags.v);
	strvec_push(&av, "state");
	strvec_push(&av, c->id);
	if (spawn_capture(av.v, rt->timeout_ns, &out, &err, &status,
	    cause) == -1)
		goto done;
	if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'%s state %s' %s: %s", rt->runtime, c->id,
		    how, err != NULL ? strtrim(err) : "");
		free(how);
		goto done;
	}
	if ((j = json_loads(out, 0, &jerr)) == NULL) {
		set_cause(cause, "'%s state %s': bad JSON: %s", rt->runtime,
		    c->id, jerr.text);
		goto done;
	}
	if (json_is_integer(json_object_get(j, "pid")))
		c->pid = (long)json_integer_value(json_object_get(j, "pid"));
	if (json_is_string(json_object_get(j, "status")))
		res = xstrdup(json_string_value(json_object_get(j,
		    "status")));
	else
		set_cause(cause, "'%s state %s': no status", rt->runtime,
		    c->id);
	json_decref(j);
done:
	free(out);
	free(err);
	strvec_clear(&av);
	return res;
}

/*
 * Gone, or a zombie whose threads have all exited. Not a pidfd: a pidfd
 * polls readable as soon as the thread-group leader exits, and the runsc
 * sandbox's leader exits long before its other threads (measured: 17 ms
 * vs 1.3 s).
 */
static int
ocirt_pid_gone(long pid)
{
	char	 path[64], *text, *p;
	int	 zombie;

	if (kill((pid_t)pid, 0) == -1 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((text = read_small_file(path, NULL)) == NULL)
		return 1;
	p = strrchr(text, ')');
	zombie = p != NULL && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
	free(text);
	if (!zombie)
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	if ((text = read_file(path, NULL, NULL)) == NULL)
		return 1;
	p = strstr(text, "\nThreads:");
	zombie = p == NULL || strtol(p + 9, NULL, 10) <= 1;
	free(text);
	return zombie;
}

int
ocirt_wait_exit(struct ocirt_ctr *c, int64_t deadline_ns, char **cause)
{
	struct timespec	ts = { 0, 1000000 };	/* 1 ms */

	if (c->pid <= 0)
		return set_cause(cause, "container '%s': no pid", c->id);
	while (!ocirt_pid_gone(c->pid)) {
		if (now_mono_ns() >= deadline_ns)
			return set_cause(cause, "container '%s' still runs "
			    "at the deadline", c->id);
		nanosleep(&ts, NULL);
	}
	/* If the runtime left it to us (no subreaper), reap it. */
	(void)waitpid((pid_t)c->pid, NULL, WNOHANG);
	return 0;
}

int
ocirt_delete(struct ocirt *rt, struct ocirt_ctr *c, int force, int64_t *ns,
    char **cause)
{
	int	r;

	if (force)
		r = ocirt_run(rt, ns, cause, "delete", "--force", c->id,
		    NULL);
	else
		r = ocirt_run(rt, ns, cause, "delete", c->id, NULL, NULL);
	if (r == 0)
		c->exists = 0;
	return r;
}

int
ocirt_checkpoint(struct ocirt *rt, struct ocirt_ctr *c,
    const char *image_dir, int64_t *ns, char **cause)
{
	char	*flag;
	int	 r;

	/* Pitfall 9: a new directory for every checkpoint. */
	if (mkdir(image_dir, 0700) == -1)
		return set_cause(cause, "cannot make '%s': %s", image_dir,
		    strerror(errno));
	flag = xasprintf("--image-path=%s", image_dir);
	r = ocirt_run(rt, ns, cause, "checkpoint", flag, c->id, NULL);
	free(flag);
	return r;
}

int
ocirt_restore(struct ocirt *rt, struct ocirt_ctr *c, const char *image_dir,
    int64_t *ns, char **cause)
{
	char		*flag = xasprintf("--image-path=%s", image_dir);
	const char	*args[] = { "--detach", flag, "--bundle", c->bundle,
			    c->id, NULL };
	int		 r;

	c->exists = 1;
	c->pid = 0;
	r = ocirt_run_logged(rt, c, ns, cause, "restore", args);
	free(flag);
	return r;
}

char *
ocirt_cgroup_dir(struct ocirt_ctr *c, const char *controller)
{
	char	*base = cgrp_self_dir(controller, NULL);
	char	*dir;

	if (base == NULL)
		return NULL;
	dir = xasprintf("%s/%s", base, c->cgrel);
	free(base);
	return dir;
}

static int
ocirt_rm_one(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) == -1 && errno != ENOENT ? -1 : 0;
}

int
ocirt_rmtree(const char *path, char **cause)
{
	struct stat	sb;

	if (lstat(path, &sb) == -1 && errno == ENOENT)
		return 0;
	if (nftw(path, ocirt_rm_one, 16, FTW_DEPTH | FTW_PHYS) == -1)
		return set_cause(cause, "cannot remove '%s': %s", path,
		    strerror(errno));
	return 0;
}

void
ocirt_cg_rmdir(const char *rel)
{
	char	*text = proccg_read((long)getpid(), NULL);
	char	*line, *save = NULL, *c1, *c2, *comma, *dir, *sub;

	if (text == NULL || rel == NULL || *rel == '\0' ||
	    strstr(rel, "..") != NULL) {
		free(text);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((c1 = strchr(line, ':')) == NULL ||
		    (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if ((comma = strchr(c1 + 1, ',')) != NULL)
			*comma = '\0';
		/* proccg_dir wants the whole text: rebuild one line. */
		sub = xasprintf("0:%s:%s\n", c1 + 1, c2 + 1);
		dir = proccg_dir(sub, c1 + 1);
		free(sub);
		if (dir == NULL)
			continue;
		sub = xasprintf("%s/%s", dir, rel);
		(void)rmdir(sub);	/* only if empty: never kills */
		free(sub);
		free(dir);
	}
	free(text);
}

void
ocirt_ctr_destroy(struct run_ctx *ctx, struct ocirt *rt, struct ocirt_ctr *c)
{
	char	*cause = NULL;

	if (c->id == NULL)
		return;
	if (c->exists && rt != NULL) {
		(void)ocirt_run(rt, NULL, NULL, "kill", c->id, "KILL", NULL);
		if (ocirt_delete(rt, c, 1, NULL, &cause) == -1 &&
		    strstr(cause, "not exist") == NULL &&
		    strstr(cause, "not found") == NULL)
			warning("cannot delete container '%s': %s", c->id,
			    cause);
		free(cause);
		cause = NULL;
	}
	if (c->cgrel != NULL) {
		if (cgrp_remove_rel(c->cgrel, &cause) == -1)
			warning("cannot remove cgroup '%s': %s", c->cgrel,
			    cause);
		else if (ctx != NULL && c->cg_journal > 0)
			run_forget_object(ctx, c->cg_journal);
		free(cause);
		cause = NULL;
		ocirt_cg_rmdir(c->cgrel);
	}
	if (c->bundle != NULL) {
		if (ocirt_rmtree(c->bundle, &cause) == -1)
			warning("%s", cause);
		else if (ctx != NULL && c->bundle_journal > 0)
			run_forget_object(ctx, c->bundle_journal);
		free(cause);
	}
	free(c->id);
	free(c->bundle);
	free(c->cgrel);
	memset(c, 0, sizeof *c);
}
