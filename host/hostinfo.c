/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host metadata: what about this host could explain a difference between
 * two runs, as "key: value" config lines (benchfmt config keys: no spaces
 * in keys), and the version of a container runtime.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <jansson.h>

#include "exec/cgroup.h"
#include "host/blockdev.h"
#include "host/hostinfo.h"
#include "exec/exec.h"
#include "lib/sha256.h"
#include "exec/spawn.h"
#include "lib/util.h"

#define RUNTIME_TIMEOUT		(10 * NSEC_PER_SEC)

/* A /proc/meminfo field in kB, or -1. */
long long
hostinfo_meminfo_kb(const char *text, const char *field)
{
	size_t		 n = strlen(field);
	const char	*p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, field, n) == 0 && p[n] == ':')
			return strtoll(p + n + 1, NULL, 10);
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return -1;
}

static char *
human_kb(long long kb)
{
	double	v = (double)kb * 1024;

	if (v >= 1024.0 * 1024 * 1024)
		return xasprintf("%.2fGiB", v / (1024.0 * 1024 * 1024));
	if (v >= 1024.0 * 1024)
		return xasprintf("%.1fMiB", v / (1024.0 * 1024));
	return xasprintf("%lldKiB", kb);
}

static char *
cpu_model(void)
{
	char	*text = read_file("/proc/cpuinfo", NULL, NULL);
	char	*p, *model = NULL;

	if (text == NULL)
		return NULL;
	for (p = text; p != NULL && *p != '\0';) {
		char	*eol = strchr(p, '\n');

		if (eol != NULL)
			*eol = '\0';
		if (str_startswith(p, "model name") && strchr(p, ':') != NULL) {
			model = xstrdup(strtrim(strchr(p, ':') + 1));
			break;
		}
		p = eol != NULL ? eol + 1 : NULL;
	}
	free(text);
	return model;
}

static const char *
goarch(const char *machine)
{
	static const struct {
		const char	*uname, *go;
	} map[] = {
		{ "x86_64", "amd64" }, { "aarch64", "arm64" },
		{ "i686", "386" }, { "i386", "386" }, { "armv7l", "arm" },
		{ "ppc64le", "ppc64le" }, { "s390x", "s390x" },
		{ "riscv64", "riscv64" },
	};
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (strcmp(machine, map[i].uname) == 0)
			return map[i].go;
	return machine;
}

/* v1, hybrid (v1 controllers plus a cgroup2 mount) or v2. */
const char *
hostinfo_cgroup_version(void)
{
	struct mountinfo	mi;
	int			v1 = 0, v2 = 0, v2root = 0;
	size_t			i;

	if (mountinfo_read(&mi, NULL) == -1)
		return NULL;
	for (i = 0; i < mi.n; i++) {
		if (strcmp(mi.e[i].fstype, "cgroup") == 0)
			v1 = 1;
		else if (strcmp(mi.e[i].fstype, "cgroup2") == 0) {
			v2 = 1;
			if (strcmp(mi.e[i].mountpoint, "/sys/fs/cgroup") == 0)
				v2root = 1;
		}
	}
	mountinfo_release(&mi);
	if (v2root && !v1)
		return "v2";
	if (v1 && v2)
		return "hybrid";
	if (v1)
		return "v1";
	return v2 ? "v2" : NULL;
}

char *
hostinfo_cgroup_controllers(void)
{
	char	*dir, *path, *v;

	if ((dir = cgrp_self_dir(NULL, NULL)) == NULL)
		return NULL;
	path = xasprintf("%s/cgroup.controllers", dir);
	free(dir);
	v = read_small_file(path, NULL);
	free(path);
	if (v == NULL)
		return NULL;
	v[strcspn(v, "\n")] = '\0';
	if (v[0] == '\0') {
		free(v);
		v = xstrdup("none");
	}
	return v;
}

/* The governor of every CPU: one word, or "mixed(a,b)". */
char *
hostinfo_governor(void)
{
	glob_t		g;
	struct strvec	seen = STRVEC_INIT;
	struct strbuf	sb = STRBUF_INIT;
	size_t		i, k;

	if (glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor",
	    0, NULL, &g) != 0)
		return NULL;
	for (i = 0; i < g.gl_pathc; i++) {
		char	*gov = read_small_file(g.gl_pathv[i], NULL);
		int	 dup = 0;

		if (gov == NULL)
			continue;
		for (k = 0; k < seen.n; k++)
			dup |= strcmp(seen.v[k], gov) == 0;
		if (!dup)
			strvec_push(&seen, gov);
		free(gov);
	}
	globfree(&g);
	if (seen.n == 1)
		strbuf_adds(&sb, seen.v[0]);
	else if (seen.n > 1) {
		strbuf_adds(&sb, "mixed(");
		for (k = 0; k < seen.n; k++)
			strbuf_addf(&sb, "%s%s", k ? "," : "", seen.v[k]);
		strbuf_addc(&sb, ')');
	}
	strvec_clear(&seen);
	return sb.len > 0 ? strbuf_detach(&sb) : NULL;
}

int
hostinfo_turbo(void)
{
	char	*v;
	int	 on = -1;

	if ((v = read_small_file("/sys/devices/system/cpu/intel_pstate/"
	    "no_turbo", NULL)) != NULL)
		on = strcmp(v, "0") == 0;
	else if ((v = read_small_file("/sys/devices/system/cpu/cpufreq/"
	    "boost", NULL)) != NULL)
		on = strcmp(v, "1") == 0;
	free(v);
	return on;
}

int
hostinfo_cpuidle(struct strvec *enabled, struct strvec *deep,
    long long deep_us)
{
	glob_t	g;
	size_t	i;

	if (glob("/sys/devices/system/cpu/cpu0/cpuidle/state[0-9]*", 0, NULL,
	    &g) != 0)
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		char	*p = xasprintf("%s/name", g.gl_pathv[i]);
		char	*name = read_small_file(p, NULL);
		char	*dis, *lat;

		free(p);
		p = xasprintf("%s/disable", g.gl_pathv[i]);
		dis = read_small_file(p, NULL);
		free(p);
		p = xasprintf("%s/latency", g.gl_pathv[i]);
		lat = read_small_file(p, NULL);
		free(p);
		if (name != NULL && (dis == NULL || strcmp(dis, "0") == 0)) {
			if (enabled != NULL)
				strvec_push(enabled, name);
			if (deep != NULL && lat != NULL &&
			    strtoll(lat, NULL, 10) > deep_us)
				strvec_pushf(deep, "%s(%sus)", name, lat);
		}
		free(name);
		free(dis);
		free(lat);
	}
	globfree(&g);
	return 0;
}

/* Key-safe form of a name: anything but [A-Za-z0-9._-] becomes '_'. */
static char *
key_safe(const char *s)
{
	char	*k = xstrdup(s), *p;

	for (p = k; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' &&
		    *p != '-')
			*p = '_';
	return k;
}

void
hostinfo_disk(const char *disk, struct strvec *config)
{
	char		*sched = blockdev_scheduler(disk, NULL, NULL);
	char		*dir, *key = key_safe(disk);
	DIR		*d;
	struct dirent	*de;
	struct strvec	 names = STRVEC_INIT;
	size_t		 i;

	if (sched == NULL) {
		free(key);
		return;
	}
	strvec_pushf(config, "disk-%s-scheduler: %s", key, sched);
	free(sched);
	dir = xasprintf("/sys/block/%s/queue/iosched", disk);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.')
				strvec_push(&names, de->d_name);
		closedir(d);
	}
	/* Sorted, so that two runs list them alike. */
	strvec_sort(&names);
	for (i = 0; i < names.n; i++) {
		char	*p = xasprintf("%s/%s", dir, names.v[i]);
		char	*v = read_small_file(p, NULL);

		if (v != NULL && *v != '\0' && strchr(v, '\n') == NULL)
			strvec_pushf(config, "disk-%s-%s: %s", key,
			    names.v[i], v);
		free(v);
		free(p);
	}
	strvec_clear(&names);
	free(dir);
	free(key);
}

/*
 * Where the run ran when a cluster scheduler placed it: the fleet it
 * belongs to (ABBENCH_FLEET_ID, set by `abbench fleet job`) and what Slurm
 * tells its jobs. Keys are benchfmt config keys, so that `-row partition`
 * projects them; cloud nodes are new every night, so nightly keys history
 * by partition and shape, not by host.
 */
void
hostinfo_scheduler(struct strvec *config)
{
	static const struct {
		const char	*env, *key;
	} vars[] = {
		{ "ABBENCH_FLEET_ID", "fleet-id" },
		{ "ABBENCH_FLEET_REPLICA", "fleet-replica" },
		{ "SLURM_CLUSTER_NAME", "cluster" },
		{ "SLURM_JOB_PARTITION", "partition" },
		{ "SLURMD_NODENAME", "node" },
		{ "SLURM_JOB_ID", "job-id" },
	};
	const char	*v;
	size_t		 i;

	for (i = 0; i < ARRAY_SIZE(vars); i++) {
		v = getenv(vars[i].env);
		if (v != NULL && *v != '\0' && strchr(v, '\n') == NULL)
			strvec_pushf(config, "%s: %s", vars[i].key, v);
	}
	strvec_pushf(config, "abbench-version: %s", PACKAGE_VERSION);
}

/*
 * The CPUs this process may run on (sched_getaffinity, as nproc and Go's
 * GOMAXPROCS count them): the host's shape. A cloud VM's are all its
 * online CPUs; a node confined to a cpuset (a Slurm node, a container)
 * has fewer, and runs there see only those.
 */
long
hostinfo_vcpus(void)
{
	cpu_set_t	set;
	long		n;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

int
hostinfo_collect(char *const *paths, size_t npaths, struct strvec *config,
    char **cause)
{
	struct utsname	 u;
	char		*s, *mem;
	const char	*cg;
	long		 ncpu = hostinfo_vcpus();
	long		 online = sysconf(_SC_NPROCESSORS_ONLN);
	struct strvec	 idle = STRVEC_INIT, alldisks = STRVEC_INIT;
	const struct exec_ops *const *e;
	size_t		 i, k;

	if (uname(&u) == -1)
		return set_cause(cause, "uname: %s", strerror(errno));
	strvec_pushf(config, "goos: linux");
	strvec_pushf(config, "goarch: %s", goarch(u.machine));
	if ((s = cpu_model()) != NULL) {
		strvec_pushf(config, "cpu: %s", s);
		free(s);
	}
	strvec_pushf(config, "kernel: %s", u.release);
	strvec_pushf(config, "host: %s", u.nodename);
	strvec_pushf(config, "vcpus: %ld", ncpu);
	/* Confined to fewer CPUs than the machine has: say how many. */
	if (online > 0 && online != ncpu)
		strvec_pushf(config, "cpus-online: %ld", online);
	if ((mem = read_file("/proc/meminfo", NULL, NULL)) != NULL) {
		long long	total = hostinfo_meminfo_kb(mem, "MemTotal");
		long long	swap = hostinfo_meminfo_kb(mem, "SwapTotal");
		long long	sfree = hostinfo_meminfo_kb(mem, "SwapFree");

		if (total >= 0) {
			s = human_kb(total);
			strvec_pushf(config, "memory: %s", s);
			free(s);
		}
		if (swap >= 0 && sfree >= 0) {
			s = human_kb(swap);
			strvec_pushf(config, "swap-total: %s", s);
			free(s);
			s = human_kb(swap - sfree);
			strvec_pushf(config, "swap-used: %s", s);
			free(s);
		}
		free(mem);
	}
	if ((cg = hostinfo_cgroup_version()) != NULL)
		strvec_pushf(config, "cgroup: %s", cg);
	if (cg != NULL && strcmp(cg, "v2") == 0 &&
	    (s = hostinfo_cgroup_controllers()) != NULL) {
		strvec_pushf(config, "cgroup-controllers: %s", s);
		free(s);
	}
	/* "NAME: 24.0.5": each container daemon's version. */
	for (e = exec_types; *e != NULL; e++) {
		if ((*e)->daemon_version != NULL &&
		    (s = (*e)->daemon_version()) != NULL) {
			strvec_pushf(config, "%s: %s", (*e)->name, s);
			free(s);
		}
	}
	if ((s = read_small_file("/sys/kernel/mm/transparent_hugepage/enabled",
	    NULL)) != NULL) {
		char	*w = bracketed_word(s);

		strvec_pushf(config, "thp-enabled: %s", w);
		free(w);
		free(s);
	}
	if ((s = read_small_file("/sys/kernel/mm/transparent_hugepage/defrag",
	    NULL)) != NULL) {
		char	*w = bracketed_word(s);

		strvec_pushf(config, "thp-defrag: %s", w);
		free(w);
		free(s);
	}
	if ((s = hostinfo_governor()) != NULL) {
		strvec_pushf(config, "cpufreq-governor: %s", s);
		free(s);
	}
	switch (hostinfo_turbo()) {
	case 1:
		strvec_pushf(config, "turbo: on");
		break;
	case 0:
		strvec_pushf(config, "turbo: off");
		break;
	}
	if (hostinfo_cpuidle(&idle, NULL, 0) == 0) {
		struct strbuf	sb = STRBUF_INIT;

		for (i = 0; i < idle.n; i++)
			strbuf_addf(&sb, "%s%s", i ? "," : "", idle.v[i]);
		strvec_pushf(config, "cpuidle-states: %s",
		    sb.len > 0 ? sb.buf : "none");
		strbuf_release(&sb);
		strvec_clear(&idle);
	}
	if ((s = read_small_file("/proc/loadavg", NULL)) != NULL) {
		double	l1, l5, l15;

		if (sscanf(s, "%lf %lf %lf", &l1, &l5, &l15) == 3)
			strvec_pushf(config, "load-avg: %.2f %.2f %.2f", l1,
			    l5, l15);
		free(s);
	}
	/* The disks under test: which disks hold each path, then each disk's
	 * scheduler and tunables once. */
	for (i = 0; i < npaths; i++) {
		struct strvec	disks = STRVEC_INIT;
		struct strbuf	sb = STRBUF_INIT;

		if (blockdev_for_path_flags(paths[i], 0, &disks, NULL) == 0) {
			for (k = 0; k < disks.n; k++) {
				strbuf_addf(&sb, "%s%s", k ? " " : "",
				    disks.v[k]);
				if (!strvec_has(&alldisks, disks.v[k]))
					strvec_push(&alldisks, disks.v[k]);
			}
			strvec_pushf(config, "dir-%zu: %s", i, paths[i]);
			strvec_pushf(config, "dir-%zu-disks: %s", i,
			    sb.len > 0 ? sb.buf : "none");
		}
		strbuf_release(&sb);
		strvec_clear(&disks);
	}
	for (i = 0; i < alldisks.n; i++)
		hostinfo_disk(alldisks.v[i], config);
	strvec_clear(&alldisks);
	hostinfo_scheduler(config);
	return 0;
}

/* A runtime name's binary, as the daemon executors know it, or NULL. */
static char *
daemon_runtime_path(const char *name)
{
	const struct exec_ops *const	*e;
	char				*path;

	for (e = exec_types; *e != NULL; e++) {
		if ((*e)->runtime_path != NULL &&
		    (path = (*e)->runtime_path(name)) != NULL)
			return path;
	}
	return NULL;
}

/* name looked up in $PATH, malloc'd, or NULL. */
static char *
path_lookup(const char *name)
{
	const char	*env = getenv("PATH"), *p, *colon;
	char		*cand;

	if (strchr(name, '/') != NULL)
		return xstrdup(name);
	for (p = env != NULL ? env : "/usr/bin:/bin"; *p != '\0';
	    p = *colon != '\0' ? colon + 1 : colon) {
		colon = strchrnul(p, ':');
		cand = xasprintf("%.*s/%s", (int)(colon - p), p, name);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}

/* Is path an executable regular file? */
static int
is_program(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

int
hostinfo_program_binary(const char *prog, char **path, char sha256[65],
    char **cause)
{
	char	*found, *real;

	*path = NULL;
	if (prog == NULL || *prog == '\0')
		return set_cause(cause, "no program named");
	if ((found = path_lookup(prog)) == NULL)
		return set_cause(cause, "'%s': no such program in $PATH",
		    prog);
	if ((real = realpath(found, NULL)) == NULL) {
		set_cause(cause, "'%s': %s", found, strerror(errno));
		free(found);
		return -1;
	}
	free(found);
	if (sha256_file(real, sha256, cause) == -1) {
		free(real);
		return -1;
	}
	*path = real;
	return 0;
}

int
hostinfo_runtime_binary(const char *runtime, char **path, char sha256[65],
    char **cause)
{
	char	*bin = NULL, *c = NULL;
	int	 r;

	*path = NULL;
	if (runtime == NULL || *runtime == '\0')
		return set_cause(cause, "no runtime named");
	if (strchr(runtime, '/') == NULL)
		bin = daemon_runtime_path(runtime);
	r = hostinfo_program_binary(bin != NULL ? bin : runtime, path, sha256,
	    &c);
	if (r == -1) {
		set_cause(cause, "runtime %s", c);
		free(c);
	}
	free(bin);
	return r;
}

int
hostinfo_is_script(const char *prog)
{
	char	*found = path_lookup(prog), head[2];
	int	 fd, r = 0;

	if (found == NULL)
		return 0;
	if ((fd = open(found, O_RDONLY | O_CLOEXEC)) != -1) {
		r = read(fd, head, sizeof(head)) == 2 && head[0] == '#' &&
		    head[1] == '!';
		close(fd);
	}
	free(found);
	return r;
}

int
hostinfo_program_version(const char *prog, int64_t timeout_ns,
    char **version, char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	char		*out = NULL, *err = NULL, *line, *save;
	char		*argv[3];
	int		 status = -1, lines = 0;

	*version = NULL;
	argv[0] = (char *)prog;
	argv[1] = "--version";
	argv[2] = NULL;
	if (spawn_capture(argv, timeout_ns, &out, &err, &status, cause) == -1)
		return -1;
	if (status != 0) {
		char	*how = spawn_describe_status(status, 0);

		set_cause(cause, "'%s --version' %s: %s", prog, how,
		    err != NULL ? strtrim(err) : "");
		free(how);
		free(out);
		free(err);
		return -1;
	}
	/*
	 * "runc version 1.1.5 commit: v1.1.5 spec: 1.0.2-dev": the version
	 * lines up to spec:, without the go and libseccomp versions; GNU's
	 * "sleep (GNU coreutils) 9.1" without its copyright and licence.
	 */
	for (line = strtok_r(out != NULL ? out : "", "\n", &save);
	    line != NULL && lines < 4; line = strtok_r(NULL, "\n", &save)) {
		line = strtrim(line);
		if (str_startswith(line, "Copyright"))
			break;
		if (*line == '\0' || str_startswith(line, "go:") ||
		    str_startswith(line, "libseccomp:") ||
		    str_startswith(line, "go version"))
			continue;
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", line);
		lines++;
		if (str_startswith(line, "spec:"))
			break;
	}
	free(out);
	free(err);
	if (sb.len == 0) {
		strbuf_release(&sb);
		return set_cause(cause, "'%s --version' printed nothing",
		    prog);
	}
	/* A program that answers --version with its help is no config. */
	if (sb.len > HOSTINFO_VERSION_MAX) {
		strbuf_release(&sb);
		return set_cause(cause, "'%s --version' printed more than a "
		    "version", prog);
	}
	*version = strbuf_detach(&sb);
	return 0;
}

int
hostinfo_runtime_version(const char *runtime, char **version, char **cause)
{
	char	*bin = NULL;
	int	 r;

	*version = NULL;
	if (runtime == NULL || *runtime == '\0')
		return set_cause(cause, "no runtime named");
	if (strchr(runtime, '/') == NULL)
		bin = daemon_runtime_path(runtime);
	r = hostinfo_program_version(bin != NULL ? bin : runtime,
	    RUNTIME_TIMEOUT, version, cause);
	free(bin);
	return r;
}

/*
 * Programs that run another program named among their arguments: the
 * shells (their -c script's first word), and those that take options,
 * then the program (timeout 5 runsc ..., taskset -c 0 /usr/local/bin/x).
 */
static const char *const wrappers[] = {
	"sh", "bash", "dash", "zsh", "busybox", "env", "timeout", "taskset",
	"nice", "ionice", "chrt", "numactl", "stdbuf", "nohup", "sudo",
	"setsid", "unshare", "nsenter", "strace", "ltrace", "valgrind",
	"time", "flock", "cgexec", "systemd-run", NULL
};

char *
hostinfo_wrapped_tool(char *const *argv)
{
	const char	*base;
	char		*word, *found;
	size_t		 i, k;
	int		 ok;

	if (argv == NULL || argv[0] == NULL)
		return NULL;
	base = strrchr(argv[0], '/');
	base = base != NULL ? base + 1 : argv[0];
	for (k = 0; wrappers[k] != NULL; k++)
		if (strcmp(base, wrappers[k]) == 0)
			break;
	if (wrappers[k] == NULL)
		return NULL;
	for (i = 1; argv[i] != NULL; i++) {
		const char	*a = argv[i];

		/* An option, or a shell's -c: its script follows. */
		if (a[0] == '-')
			continue;
		/* The script's first word (exec's program). */
		if (i > 1 && strcmp(argv[i - 1], "-c") == 0 && k < 5) {
			a += strspn(a, " \t");
			if (str_startswith(a, "exec ") ||
			    str_startswith(a, "exec\t"))
				a += 5 + strspn(a + 5, " \t");
		}
		word = xstrndup(a, strcspn(a, " \t\n;&|<>()'\"`$"));
		found = word[0] == '\0' ? NULL : strchr(word, '/') != NULL ?
		    (word[0] == '/' && is_program(word) ? xstrdup(word) :
		    NULL) : path_lookup(word);
		ok = found != NULL && is_program(found);
		free(found);
		if (ok)
			return word;
		free(word);
	}
	return NULL;
}

/* The X of "--platform=X" / "--platform X" (one dash or two) in args. */
static char *
args_platform(char *const *args, size_t n)
{
	const char	*a;
	size_t		 i;

	for (i = 0; i < n; i++) {
		a = args[i];
		if (*a == '-')
			a++;
		if (*a == '-')
			a++;
		if (a == args[i] || !str_startswith(a, "platform"))
			continue;
		a += strlen("platform");
		if (*a == '=' && a[1] != '\0')
			return xstrdup(a + 1);
		if (*a == '\0' && i + 1 < n)
			return xstrdup(args[i + 1]);
	}
	return NULL;
}

/* The daemon's runtimeArgs for the runtime name, from its daemon.json. */
static void
daemon_runtime_args(const char *runtime, struct strvec *args)
{
	const char	*conf = getenv("ABBENCH_DOCKER_DAEMON_JSON");
	json_t		*root, *a, *v;
	json_error_t	 jerr;
	size_t		 i;

	if (conf == NULL || *conf == '\0')
		conf = "/etc/docker/daemon.json";
	if ((root = json_load_file(conf, 0, &jerr)) == NULL)
		return;
	a = json_object_get(json_object_get(json_object_get(root,
	    "runtimes"), runtime), "runtimeArgs");
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			strvec_push(args, json_string_value(v));
	json_decref(root);
}

/* `runsc flags`: "-platform string ... (default "ptrace")". */
static char *
runsc_default_platform(const char *binary)
{
	char	*argv[3], *out = NULL, *err = NULL, *p, *q, *r = NULL, *text;
	int	 status = -1;

	argv[0] = (char *)binary;
	argv[1] = "flags";
	argv[2] = NULL;
	if (spawn_capture(argv, RUNTIME_TIMEOUT, &out, &err, &status,
	    NULL) == -1 || status != 0)
		goto out;
	/* Go's flag package prints the flags on stderr. */
	text = err != NULL && strstr(err, "-platform ") != NULL ? err : out;
	for (p = text; p != NULL && (p = strstr(p, "-platform ")) != NULL;
	    p++) {
		if (p != text && p[-1] != ' ' && p[-1] != '\t')
			continue;
		if ((p = strstr(p, "(default \"")) == NULL)
			break;
		p += strlen("(default \"");
		if ((q = strchr(p, '"')) != NULL && q > p)
			r = xstrndup(p, (size_t)(q - p));
		break;
	}
out:
	free(out);
	free(err);
	return r;
}

char *
hostinfo_runsc_platform(const char *platform, const char *platform_from,
    char *const *args, size_t nargs, const char *daemon_runtime,
    const char *binary)
{
	struct strvec	 dargs = STRVEC_INIT;
	char		*p, *r;

	if (platform != NULL)
		return xasprintf("%s (%s)", platform, platform_from);
	if ((p = args_platform(args, nargs)) != NULL) {
		r = xasprintf("%s (runtime-args)", p);
		free(p);
		return r;
	}
	if (daemon_runtime != NULL) {
		daemon_runtime_args(daemon_runtime, &dargs);
		p = args_platform(dargs.v, dargs.n);
		strvec_clear(&dargs);
		if (p != NULL) {
			r = xasprintf("%s (daemon.json runtimeArgs)", p);
			free(p);
			return r;
		}
	}
	if ((p = runsc_default_platform(binary)) == NULL)
		return NULL;
	r = xasprintf("%s (runsc default)", p);
	free(p);
	return r;
}
