/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host settings' ops table: each setting's name, how its name and
 * value are checked without touching the host, and the file it lives in;
 * and how such files are read and compared.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/blockdev.h"
#include "host/hostset.h"
#include "host/hostset-int.h"
#include "lib/util.h"

int
hostset_is_uint(const char *v)
{
	if (*v == '\0')
		return 0;
	for (; *v != '\0'; v++)
		if (!isdigit((unsigned char)*v))
			return 0;
	return 1;
}

int
hostset_is_word(const char *v, const char *extra)
{
	if (*v == '\0')
		return 0;
	for (; *v != '\0'; v++)
		if (!isalnum((unsigned char)*v) && strchr(extra, *v) == NULL)
			return 0;
	return 1;
}

int
hostset_in_list(const char *v, const char *list)
{
	size_t	n = strlen(v);
	const char *p = list;

	while (*p != '\0') {
		size_t	m = strcspn(p, " ");

		if (m == n && strncmp(p, v, n) == 0)
			return 1;
		p += m;
		p += strspn(p, " ");
	}
	return 0;
}

static int
hs_check_scheduler(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hostset_is_word(value, "-_"))
		return set_cause(cause, "'%s': '%s' is not an I/O scheduler "
		    "name (bfq, mq-deadline, kyber, none)", name, value);
	return 0;
}

static int
hs_check_block_path(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	struct strvec	w = STRVEC_INIT;
	size_t		i;
	int		rc = 0;

	(void)op;
	if (strvec_split_words(&w, value, cause) == -1)
		return -1;
	if (w.n == 0)
		rc = set_cause(cause, "'%s': empty value", name);
	for (i = 0; rc == 0 && i < w.n; i++)
		if (w.v[i][0] != '/')
			rc = set_cause(cause, "'%s': '%s' is not an absolute "
			    "path", name, w.v[i]);
	strvec_clear(&w);
	return rc;
}

/* The knobs that take 0/1 in bfq and mq-deadline. */
static const char *const hs_bool_knobs[] = {
	"low_latency", "strict_guarantees", "front_merges",
};

static int
hs_check_knob(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	const char	*knob = name + strlen(op->name);
	long long	 ll;
	size_t		 i;

	if (!hostset_is_word(knob, "_") || isupper((unsigned char)*knob))
		return set_cause(cause, "'%s': '%s' is not an I/O scheduler "
		    "tunable name", name, knob);
	if (!hostset_is_uint(value))
		return set_cause(cause, "'%s': '%s' is not a non-negative "
		    "integer", name, value);
	/* The kernel reads tunables as int. */
	if (parse_int(value, 0, INT_MAX, &ll, NULL) == -1)
		return set_cause(cause, "'%s': %s is out of range [0, %d]",
		    name, value, INT_MAX);
	for (i = 0; i < ARRAY_SIZE(hs_bool_knobs); i++)
		if (strcmp(knob, hs_bool_knobs[i]) == 0 &&
		    strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
			return set_cause(cause, "'%s': '%s' must be 0 or 1",
			    name, value);
	return 0;
}

static int
hs_check_thp_enabled(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hostset_in_list(value, "always madvise never"))
		return set_cause(cause, "'%s': '%s' is not one of always, "
		    "madvise, never", name, value);
	return 0;
}

static int
hs_check_thp_defrag(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hostset_in_list(value, "always defer defer+madvise madvise never"))
		return set_cause(cause, "'%s': '%s' is not one of always, "
		    "defer, defer+madvise, madvise, never", name, value);
	return 0;
}

/*
 * Ranges the kernel documents (Documentation/admin-guide/sysctl/vm.rst,
 * kernel.rst): a value outside is refused when the file is loaded, not
 * when the first arm applies it. Any other sysctl is tried before the
 * run (hostset_trial).
 */
static const struct {
	const char	*name;		/* dots, as in host.sysctl.NAME */
	long long	 min, max;
} hs_sysctl_ranges[] = {
	{ "vm.swappiness", 0, 200 },
	{ "vm.dirty_ratio", 0, 100 },
	{ "vm.dirty_background_ratio", 0, 100 },
	{ "vm.overcommit_memory", 0, 2 },
	{ "vm.drop_caches", 1, 3 },
	{ "vm.zone_reclaim_mode", 0, 7 },
	{ "vm.watermark_scale_factor", 1, 3000 },
	{ "vm.compaction_proactiveness", 0, 100 },
	{ "vm.vfs_cache_pressure", 0, INT_MAX },
	{ "vm.dirty_expire_centisecs", 0, INT_MAX },
	{ "vm.dirty_writeback_centisecs", 0, INT_MAX },
	{ "vm.page-cluster", 0, 31 },
	{ "vm.stat_interval", 1, INT_MAX },
	{ "kernel.randomize_va_space", 0, 2 },
	{ "kernel.sched_autogroup_enabled", 0, 1 },
	{ "kernel.numa_balancing", 0, 3 },
	{ "kernel.nmi_watchdog", 0, 1 },
	{ "kernel.watchdog", 0, 1 },
	{ "kernel.perf_event_paranoid", -1, 4 },
	{ "kernel.kptr_restrict", 0, 2 },
	{ "kernel.dmesg_restrict", 0, 1 },
};

int
hostset_sysctl_range(const char *sysctl, long long *min, long long *max)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(hs_sysctl_ranges); i++)
		if (strcmp(hs_sysctl_ranges[i].name, sysctl) == 0) {
			*min = hs_sysctl_ranges[i].min;
			*max = hs_sysctl_ranges[i].max;
			return 1;
		}
	return 0;
}

static int
hs_check_sysctl(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	long long	 min, max, v;
	char		*end;
	const char	*s = name + strlen(op->name);
	const char	*p;

	if (!hostset_is_word(s, "._-") || *s == '.' || s[strlen(s) - 1] == '.' ||
	    strstr(s, "..") != NULL)
		return set_cause(cause, "'%s': '%s' is not a sysctl name",
		    name, s);
	if (*value == '\0')
		return set_cause(cause, "'%s': empty value", name);
	for (p = value; *p != '\0'; p++)
		if (*p == '\n' ||
		    (!isprint((unsigned char)*p) && *p != '\t'))
			return set_cause(cause, "'%s': the value has a "
			    "control character", name);
	if (hostset_sysctl_range(s, &min, &max)) {
		errno = 0;
		v = strtoll(value, &end, 10);
		if (end == value || *end != '\0' || errno != 0)
			return set_cause(cause, "'%s': '%s' is not an integer",
			    name, value);
		if (v < min || v > max)
			return set_cause(cause, "'%s': %s is out of range "
			    "[%lld, %lld]", name, value, min, max);
	}
	return 0;
}

static int
hs_check_governor(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hostset_in_list(value, "performance powersave ondemand "
	    "conservative schedutil userspace"))
		return set_cause(cause, "'%s': '%s' is not a cpufreq governor "
		    "(performance, powersave, ondemand, conservative, "
		    "schedutil, userspace)", name, value);
	return 0;
}

static char *
hs_path_scheduler(const char *name, const char *disk)
{
	(void)name;
	return xasprintf("/sys/block/%s/queue/scheduler", disk);
}

static char *
hs_path_knob(const char *name, const char *disk)
{
	return xasprintf("/sys/block/%s/queue/iosched/%s", disk,
	    name + strlen("host.block."));
}

static char *
hs_path_thp(const char *name, const char *unit)
{
	(void)unit;
	return xasprintf(THP_DIR "/%s", name + strlen("host.thp."));
}

static char *
hs_path_sysctl(const char *name, const char *unit)
{
	char	*p = xasprintf("/proc/sys/%s", name + strlen("host.sysctl."));
	char	*s;

	(void)unit;
	for (s = p + strlen("/proc/sys/"); *s != '\0'; s++)
		if (*s == '.')
			*s = '/';
	return p;
}

static char *
hs_path_governor(const char *name, const char *cpu)
{
	(void)name;
	return xasprintf(CPU_DIR "/%s/cpufreq/scaling_governor", cpu);
}

/*
 * Looked up in order: exact names first, then prefixes (host.block. last
 * among the block names so that scheduler and path are not knobs).
 */
static const struct hostset_op hostset_ops[] = {
	{ .name = "host.block.scheduler", .flags = HS_BLOCK | HS_BRACKET,
	  .help = "I/O scheduler of the disk(s), one of queue/scheduler",
	  .check = hs_check_scheduler, .path = hs_path_scheduler },
	{ .name = "host.block.path", .flags = HS_META,
	  .help = "directories whose disks host.block.* applies to "
	  "(default: the workloads' dir)",
	  .check = hs_check_block_path },
	{ .name = "host.block.", .flags = HS_PREFIX | HS_BLOCK,
	  .help = "an I/O scheduler tunable in queue/iosched/ "
	  "(slice_idle, slice_idle_us, low_latency, ...)",
	  .check = hs_check_knob, .path = hs_path_knob },
	{ .name = "host.thp.enabled", .flags = HS_BRACKET,
	  .help = "transparent hugepages: always, madvise, never",
	  .check = hs_check_thp_enabled, .path = hs_path_thp },
	{ .name = "host.thp.defrag", .flags = HS_BRACKET,
	  .help = "THP defrag: always, defer, defer+madvise, madvise, never",
	  .check = hs_check_thp_defrag, .path = hs_path_thp },
	{ .name = "host.sysctl.", .flags = HS_PREFIX,
	  .help = "any sysctl under /proc/sys (dots for slashes)",
	  .check = hs_check_sysctl, .path = hs_path_sysctl },
	{ .name = "host.cpufreq.governor", .flags = HS_PERCPU,
	  .help = "cpufreq scaling governor of every CPU",
	  .check = hs_check_governor, .path = hs_path_governor },
};

const char *
hostset_key_help(size_t i, const char **name, int *prefix)
{
	if (i >= ARRAY_SIZE(hostset_ops))
		return NULL;
	*name = hostset_ops[i].name;
	*prefix = (hostset_ops[i].flags & HS_PREFIX) != 0;
	return hostset_ops[i].help;
}

const struct hostset_op *
hostset_find_op(const char *name)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(hostset_ops); i++) {
		const struct hostset_op *op = &hostset_ops[i];

		if (op->flags & HS_PREFIX) {
			if (str_startswith(name, op->name) &&
			    name[strlen(op->name)] != '\0')
				return op;
		} else if (strcmp(name, op->name) == 0)
			return op;
	}
	return NULL;
}

int
hostset_check(const char *name, const char *value, char **cause)
{
	const struct hostset_op *op = hostset_find_op(name);
	struct nearest		 n;
	const char		*dot;
	char			*head = NULL, *guess = NULL;
	size_t			 i;

	if (op == NULL) {
		/*
		 * "host.thp.defrg": a name; "host.sysclt.vm.x": a prefix
		 * ("host.sysctl.") and what follows it.
		 */
		nearest_init(&n, name);
		for (i = 0; i < ARRAY_SIZE(hostset_ops); i++)
			if (!(hostset_ops[i].flags & HS_PREFIX))
				nearest_try(&n, hostset_ops[i].name);
		dot = strchr(name, '.');
		dot = dot != NULL ? strchr(dot + 1, '.') : NULL;
		if (n.best != NULL)
			guess = xstrdup(n.best);
		else if (dot != NULL && dot[1] != '\0') {
			head = xstrndup(name, (size_t)(dot - name) + 1);
			nearest_init(&n, head);
			for (i = 0; i < ARRAY_SIZE(hostset_ops); i++)
				if (hostset_ops[i].flags & HS_PREFIX)
					nearest_try(&n, hostset_ops[i].name);
			if (n.best != NULL)
				guess = xasprintf("%s%s", n.best, dot + 1);
		}
		set_cause(cause, "unknown host setting '%s'%s%s%s (known: "
		    "host.block.scheduler, host.block.path, host.block.KNOB, "
		    "host.thp.enabled, host.thp.defrag, host.sysctl.NAME, "
		    "host.cpufreq.governor)", name, guess != NULL ?
		    ": did you mean '" : "", guess != NULL ? guess : "",
		    guess != NULL ? "'?" : "");
		free(head);
		free(guess);
		return -1;
	}
	if (value == NULL)
		return set_cause(cause, "'%s': missing value", name);
	return op->check(op, name, value, cause);
}


/* A value with runs of blanks folded to one space and no blank ends. */
static char *
hs_fold(const char *v)
{
	struct strbuf	sb = STRBUF_INIT;
	int		blank = 0;

	for (; *v != '\0'; v++) {
		if (*v == ' ' || *v == '\t' || *v == '\n') {
			blank = sb.len > 0;
			continue;
		}
		if (blank)
			strbuf_addc(&sb, ' ');
		blank = 0;
		strbuf_addc(&sb, *v);
	}
	return strbuf_detach(&sb);
}

/* Values compare with blanks folded (sysctl "a\tb" equals "a b"). */
int
hostset_same(const char *a, const char *b)
{
	char	*fa = hs_fold(a), *fb = hs_fold(b);
	int	 same = strcmp(fa, fb) == 0;

	free(fa);
	free(fb);
	return same;
}

/*
 * I/O scheduler tunables the kernel keeps in ticks (jiffies) and shows in
 * ms: msecs_to_jiffies rounds up, so a value reads back as the next whole
 * tick (mq-deadline's read_expire = 250 is 252 at HZ=250, 1 is 4).
 */
static const char *const hs_tick_knobs[] = {
	"read_expire", "write_expire", "prio_aging_expire",
	"fifo_expire_sync", "fifo_expire_async", "timeout_sync",
};

/* A whole number, blanks around it allowed (as a file reads). */
static int
hs_uint_value(const char *s, unsigned long long *v)
{
	char	*end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	*v = strtoull(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	return errno == 0 && *end == '\0';
}

int
hostset_knob_same(const char *key, const char *cur, const char *want)
{
	unsigned long long	 c, w;
	size_t			 i;

	if (cur == NULL || want == NULL)
		return 0;
	if (hostset_same(cur, want))
		return 1;
	if (key == NULL || !str_startswith(key, "host.block.") ||
	    !hs_uint_value(cur, &c) || !hs_uint_value(want, &w))
		return 0;
	for (i = 0; i < ARRAY_SIZE(hs_tick_knobs); i++)
		if (strcmp(key + strlen("host.block."), hs_tick_knobs[i]) == 0)
			break;
	if (i == ARRAY_SIZE(hs_tick_knobs))
		return 0;
	return c >= w && c - w < HOSTSET_TICK_MS;
}

/* The current value of a setting's file (bracketed word where it has one). */
char *
hostset_read(const char *path, int bracket, char **cause)
{
	char	*v = read_small_file(path, cause);
	char	*w;

	if (v == NULL || !bracket)
		return v;
	w = bracketed_word(v);
	free(v);
	return w;
}

int
hostset_bracketed(const char *path)
{
	return str_startswith(path, THP_DIR "/") ||
	    (str_startswith(path, "/sys/block/") &&
	    strstr(path, "/queue/scheduler") != NULL);
}
