/*
 * Host settings: one ops table of named, typed settings (host.block.*,
 * host.thp.*, host.sysctl.*, host.cpufreq.governor), each resolved to the
 * files that hold it on this host, with the per-arm apply / restore logic
 * and the journal that makes every change undoable after a crash.
 *
 * Every setting lives in one or more sysfs/procfs files ("targets"): one
 * per disk for host.block.*, one per CPU for the governor, one otherwise.
 * The journal entry of a target is written (state saved) before the first
 * write to it, then marked applied; it stays pending while the run lasts
 * (an arm that does not set it writes the original back, the entry stays)
 * and is marked restored at the end.
 *
 * Journal entries of settings: kind = setting name ("host.block.slice_idle"),
 * target = the file, original = its value before the run, name = for an
 * I/O scheduler knob the scheduler it belongs to ("bfq"), for a scheduler
 * the disk ("loop3"), else the setting name.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "harness/host/blockdev.h"
#include "harness/exec/cgroup.h"
#include "lib/model.h"
#include "harness/host/hostset.h"
#include "harness/exec/spawn.h"
#include "lib/util.h"
#include "results/store.h"

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define CPU_DIR		"/sys/devices/system/cpu"

enum hs_flags {
	HS_PREFIX = 1 << 0,	/* name is a prefix (host.sysctl.) */
	HS_BLOCK = 1 << 1,	/* one target per disk */
	HS_BRACKET = 1 << 2,	/* the file reads "a [b] c": value is b */
	HS_META = 1 << 3,	/* not a setting (host.block.path) */
	HS_PERCPU = 1 << 4,	/* one target per CPU */
};

struct hostset_op {
	const char	*name;
	int		 flags;
	const char	*help;
	/* Syntax of the name's suffix (prefix ops) and of the value. */
	int		(*check)(const struct hostset_op *op, const char *name,
			    const char *value, char **cause);
	/* The file for one target; disk or cpu is set for block/per-cpu. */
	char		*(*path)(const char *name, const char *unit);
};

static int
hs_is_uint(const char *v)
{
	if (*v == '\0')
		return 0;
	for (; *v != '\0'; v++)
		if (!isdigit((unsigned char)*v))
			return 0;
	return 1;
}

static int
hs_is_word(const char *v, const char *extra)
{
	if (*v == '\0')
		return 0;
	for (; *v != '\0'; v++)
		if (!isalnum((unsigned char)*v) && strchr(extra, *v) == NULL)
			return 0;
	return 1;
}

static int
hs_in_list(const char *v, const char *list)
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
	if (!hs_is_word(value, "-_"))
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
	size_t		 i;

	if (!hs_is_word(knob, "_") || isupper((unsigned char)*knob))
		return set_cause(cause, "'%s': '%s' is not an I/O scheduler "
		    "tunable name", name, knob);
	if (!hs_is_uint(value))
		return set_cause(cause, "'%s': '%s' is not a non-negative "
		    "integer", name, value);
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
	if (!hs_in_list(value, "always madvise never"))
		return set_cause(cause, "'%s': '%s' is not one of always, "
		    "madvise, never", name, value);
	return 0;
}

static int
hs_check_thp_defrag(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hs_in_list(value, "always defer defer+madvise madvise never"))
		return set_cause(cause, "'%s': '%s' is not one of always, "
		    "defer, defer+madvise, madvise, never", name, value);
	return 0;
}

static int
hs_check_sysctl(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	const char	*s = name + strlen(op->name);
	const char	*p;

	if (!hs_is_word(s, "._-") || *s == '.' || s[strlen(s) - 1] == '.' ||
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
	return 0;
}

static int
hs_check_governor(const struct hostset_op *op, const char *name,
    const char *value, char **cause)
{
	(void)op;
	if (!hs_in_list(value, "performance powersave ondemand "
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

static const struct hostset_op *
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

	if (op == NULL)
		return set_cause(cause, "unknown host setting '%s' (known: "
		    "host.block.scheduler, host.block.path, host.block.KNOB, "
		    "host.thp.enabled, host.thp.defrag, host.sysctl.NAME, "
		    "host.cpufreq.governor)", name);
	if (value == NULL)
		return set_cause(cause, "'%s': missing value", name);
	return op->check(op, name, value, cause);
}

/* Tunables of the schedulers this kernel knows, for arms that switch the
 * scheduler (their files appear only after the switch). */
static const struct {
	const char	*sched;
	const char	*knobs;
} hs_known_knobs[] = {
	{ "bfq", "back_seek_max back_seek_penalty fifo_expire_async "
	  "fifo_expire_sync low_latency max_budget slice_idle slice_idle_us "
	  "strict_guarantees timeout_sync" },
	{ "mq-deadline", "async_depth fifo_batch front_merges "
	  "prio_aging_expire read_expire write_expire writes_starved" },
	{ "kyber", "read_lat_nsec write_lat_nsec" },
	{ "none", "" },
};

/* One file a setting lives in, and what the run did to it. */
struct hs_item {
	const struct hostset_op	*op;
	char		*name;		/* setting name (journal kind) */
	char		*unit;		/* disk or CPU, or NULL */
	char		*path;
	char		*sched;		/* knob: scheduler it belongs to */
	char		*original;	/* as read before the first write */
	int64_t		 jid;		/* journal entry, 0 = none yet */
};

struct hs_disk {
	char		*name;
	char		*orig_sched;	/* at prepare */
	char		*available;
	int		 snapshotted;	/* original tunables journaled */
};

struct hs_arm {
	char		*name;
	struct strvec	 keys;		/* host.* settings (not path) */
	struct strvec	 values;
	struct strvec	 disks;		/* for this arm's host.block.* */
};

struct hostset {
	struct store	*st;
	int64_t		 run_id;
	struct strvec	 paths;
	struct hs_disk	*disks;
	size_t		 ndisks, capdisks;
	struct hs_item	*items;
	size_t		 nitems, capitems;
	struct hs_arm	*arms;
	size_t		 narms;
	struct strvec	 names;		/* non-block settings of any arm */
	struct strvec	 knobs;		/* block tunables of any arm */
	int		 prepared;
};

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
static int
hs_same(const char *a, const char *b)
{
	char	*fa = hs_fold(a), *fb = hs_fold(b);
	int	 same = strcmp(fa, fb) == 0;

	free(fa);
	free(fb);
	return same;
}

/* The current value of a setting's file (bracketed word where it has one). */
static char *
hs_read(const char *path, int bracket, char **cause)
{
	char	*v = read_small_file(path, cause);
	char	*w;

	if (v == NULL || !bracket)
		return v;
	w = bracketed_word(v);
	free(v);
	return w;
}

static int
hs_path_bracketed(const char *path)
{
	return str_startswith(path, THP_DIR "/") ||
	    (str_startswith(path, "/sys/block/") &&
	    strstr(path, "/queue/scheduler") != NULL);
}

static const char *
hs_known_knob_list(const char *sched)
{
	size_t	i;

	for (i = 0; i < ARRAY_SIZE(hs_known_knobs); i++)
		if (strcmp(hs_known_knobs[i].sched, sched) == 0)
			return hs_known_knobs[i].knobs;
	return NULL;
}

struct hostset *
hostset_new(struct store *st, int64_t run_id, char *const *paths,
    size_t npaths)
{
	struct hostset	*hs = xcalloc(1, sizeof(*hs));
	size_t		 i;

	hs->st = st;
	hs->run_id = run_id;
	for (i = 0; i < npaths; i++)
		if (paths[i] != NULL && !strvec_has(&hs->paths, paths[i]))
			strvec_push(&hs->paths, paths[i]);
	return hs;
}

static void
hs_item_release(struct hs_item *it)
{
	free(it->name);
	free(it->unit);
	free(it->path);
	free(it->sched);
	free(it->original);
}

void
hostset_free(struct hostset *hs)
{
	size_t	i;

	if (hs == NULL)
		return;
	for (i = 0; i < hs->nitems; i++)
		hs_item_release(&hs->items[i]);
	free(hs->items);
	for (i = 0; i < hs->ndisks; i++) {
		free(hs->disks[i].name);
		free(hs->disks[i].orig_sched);
		free(hs->disks[i].available);
	}
	free(hs->disks);
	for (i = 0; i < hs->narms; i++) {
		free(hs->arms[i].name);
		strvec_clear(&hs->arms[i].keys);
		strvec_clear(&hs->arms[i].values);
		strvec_clear(&hs->arms[i].disks);
	}
	free(hs->arms);
	strvec_clear(&hs->paths);
	strvec_clear(&hs->names);
	strvec_clear(&hs->knobs);
	free(hs);
}

static struct hs_item *
hs_find_item(struct hostset *hs, const char *path, const char *sched)
{
	size_t	i;

	for (i = 0; i < hs->nitems; i++) {
		struct hs_item *it = &hs->items[i];

		if (strcmp(it->path, path) != 0)
			continue;
		if ((sched == NULL) != (it->sched == NULL))
			continue;
		if (sched == NULL || strcmp(sched, it->sched) == 0)
			return it;
	}
	return NULL;
}

static struct hs_item *
hs_get_item(struct hostset *hs, const char *name, const char *unit,
    const char *path, const char *sched)
{
	struct hs_item	*it = hs_find_item(hs, path, sched);

	if (it != NULL)
		return it;
	XGROW(hs->items, hs->nitems, hs->capitems);
	it = &hs->items[hs->nitems++];
	memset(it, 0, sizeof(*it));
	it->op = hostset_find_op(name);
	it->name = xstrdup(name);
	it->unit = unit != NULL ? xstrdup(unit) : NULL;
	it->path = xstrdup(path);
	it->sched = sched != NULL ? xstrdup(sched) : NULL;
	return it;
}

static struct hs_disk *
hs_find_disk(struct hostset *hs, const char *name)
{
	size_t	i;

	for (i = 0; i < hs->ndisks; i++)
		if (strcmp(hs->disks[i].name, name) == 0)
			return &hs->disks[i];
	return NULL;
}

/* Record the original of IT in the journal (once), before any write. */
static int
hs_journal(struct hostset *hs, struct hs_item *it, char **cause)
{
	const char	*jname;

	if (it->jid != 0)
		return 0;
	free(it->original);
	if ((it->original = hs_read(it->path, hs_path_bracketed(it->path),
	    cause)) == NULL)
		return -1;
	jname = it->sched != NULL ? it->sched :
	    it->unit != NULL ? it->unit : it->name;
	if (store_journal_add(hs->st, hs->run_id, it->name, jname, it->path,
	    it->original, &it->jid, cause) == -1) {
		it->jid = 0;
		return -1;
	}
	return 0;
}

/* Make IT's file hold VALUE, journaling the original first. */
static int
hs_apply_value(struct hostset *hs, struct hs_item *it, const char *value,
    char **cause)
{
	char	*cur;
	int	 same;

	if (hs_journal(hs, it, cause) == -1)
		return -1;
	if ((cur = hs_read(it->path, hs_path_bracketed(it->path),
	    cause)) == NULL)
		return -1;
	same = hs_same(cur, value);
	free(cur);
	if (same)
		return 0;
	if (write_small_file(it->path, value, cause) == -1)
		return -1;
	return store_journal_set_state(hs->st, it->jid, JOURNAL_APPLIED,
	    value, cause);
}

/* Put IT's original back if the run changed it (the entry stays pending). */
static int
hs_restore_value(struct hs_item *it, char **cause)
{
	char	*cur;
	int	 same;

	if (it->jid == 0)
		return 0;
	if ((cur = hs_read(it->path, hs_path_bracketed(it->path),
	    cause)) == NULL)
		return -1;
	same = hs_same(cur, it->original);
	free(cur);
	if (same)
		return 0;
	return write_small_file(it->path, it->original, cause);
}

/* The values a setting's file may take when the file lists them. */
static int
hs_validate_choice(const char *name, const char *path, const char *value,
    char **cause)
{
	char	*text, *p, *w;
	int	 ok;

	if ((text = read_small_file(path, cause)) == NULL)
		return -1;
	for (p = w = text; *p != '\0'; p++)
		if (*p != '[' && *p != ']')
			*w++ = *p;
	*w = '\0';
	ok = hs_in_list(value, strtrim(text));
	if (!ok)
		set_cause(cause, "'%s': '%s' is not available on this host "
		    "(%s offers: %s)", name, value, path, strtrim(text));
	free(text);
	return ok ? 0 : -1;
}

/* The per-CPU files of the governor, or an error when cpufreq is absent. */
static int
hs_cpus(struct strvec *cpus, char **cause)
{
	glob_t	g;
	size_t	i;

	if (glob(CPU_DIR "/cpu[0-9]*/cpufreq/scaling_governor", 0, NULL,
	    &g) != 0)
		return set_cause(cause, "'host.cpufreq.governor': this host "
		    "has no cpufreq (no %s/cpu*/cpufreq/scaling_governor)",
		    CPU_DIR);
	for (i = 0; i < g.gl_pathc; i++) {
		const char	*p = g.gl_pathv[i] + strlen(CPU_DIR "/");

		strvec_push_nodup(cpus, xstrndup(p, strcspn(p, "/")));
	}
	globfree(&g);
	return 0;
}

static int
hs_prepare_plain(struct hostset *hs, const char *name, const char *value,
    char **cause)
{
	const struct hostset_op *op = hostset_find_op(name);
	struct strvec	 units = STRVEC_INIT;
	size_t		 i;
	int		 rc = 0;

	if (op->flags & HS_PERCPU) {
		if (hs_cpus(&units, cause) == -1)
			return -1;
	} else
		strvec_push(&units, "");
	for (i = 0; rc == 0 && i < units.n; i++) {
		const char	*unit = *units.v[i] != '\0' ? units.v[i] : NULL;
		char		*path = op->path(name, unit);
		char		*avail;

		if (access(path, F_OK) == -1)
			rc = set_cause(cause, "'%s': no '%s' on this host",
			    name, path);
		else if (access(path, W_OK) == -1)
			rc = set_cause(cause, "'%s': cannot write '%s': %s",
			    name, path, strerror(errno));
		else if (op->flags & HS_BRACKET)
			rc = hs_validate_choice(name, path, value, cause);
		else if (op->flags & HS_PERCPU) {
			avail = xasprintf(CPU_DIR
			    "/%s/cpufreq/scaling_available_governors", unit);
			if (access(avail, R_OK) == 0)
				rc = hs_validate_choice(name, avail, value,
				    cause);
			free(avail);
		}
		if (rc == 0)
			hs_get_item(hs, name, unit, path, NULL);
		free(path);
	}
	strvec_clear(&units);
	return rc;
}

/* The disks of an arm's block settings, with a scheduler each. */
static int
hs_arm_disks(struct hostset *hs, struct hs_arm *ha, const struct strvec *paths,
    char **cause)
{
	size_t	i, j;

	if (paths->n == 0)
		return set_cause(cause, "arm '%s': host.block.* settings need "
		    "a disk: set host.block.path or a workload's dir",
		    ha->name);
	for (i = 0; i < paths->n; i++) {
		struct strvec	d = STRVEC_INIT;
		size_t		 kept = 0;

		if (blockdev_for_path_flags(paths->v[i], BLOCKDEV_NO_BACKING,
		    &d, cause) == -1) {
			strvec_clear(&d);
			return -1;
		}
		for (j = 0; j < d.n; j++) {
			char	*avail = NULL;
			char	*cur = blockdev_scheduler(d.v[j], &avail, NULL);

			if (cur != NULL && strcmp(avail, "none") != 0) {
				kept++;
				if (!strvec_has(&ha->disks, d.v[j]))
					strvec_push(&ha->disks, d.v[j]);
				if (hs_find_disk(hs, d.v[j]) == NULL) {
					struct hs_disk	*hd;

					XGROW(hs->disks, hs->ndisks,
					    hs->capdisks);
					hd = &hs->disks[hs->ndisks++];
					memset(hd, 0, sizeof(*hd));
					hd->name = xstrdup(d.v[j]);
					hd->orig_sched = cur;
					hd->available = avail;
					cur = avail = NULL;
				}
			}
			free(cur);
			free(avail);
		}
		strvec_clear(&d);
		if (kept == 0)
			return set_cause(cause, "arm '%s': '%s' is not on a "
			    "disk with an I/O scheduler", ha->name,
			    paths->v[i]);
	}
	return 0;
}

static const char *
hs_arm_value(const struct hs_arm *ha, const char *key)
{
	size_t	i;

	for (i = ha->keys.n; i > 0; i--)
		if (strcmp(ha->keys.v[i - 1], key) == 0)
			return ha->values.v[i - 1];
	return NULL;
}

static int
hs_prepare_block(struct hostset *hs, struct hs_arm *ha, char **cause)
{
	const char	*sched = hs_arm_value(ha, "host.block.scheduler");
	size_t		 i, k;

	for (i = 0; i < ha->disks.n; i++) {
		struct hs_disk	*hd = hs_find_disk(hs, ha->disks.v[i]);
		const char	*eff = sched != NULL ? sched : hd->orig_sched;

		if (sched != NULL && !hs_in_list(sched, hd->available))
			return set_cause(cause, "arm '%s': "
			    "'host.block.scheduler': '%s' is not available "
			    "on disk '%s' (offers: %s)", ha->name, sched,
			    hd->name, hd->available);
		for (k = 0; k < ha->keys.n; k++) {
			const char	*key = ha->keys.v[k];
			const char	*knob = key + strlen("host.block.");
			const char	*known;
			char		*path;
			int		 ok;

			if (!str_startswith(key, "host.block.") ||
			    strcmp(key, "host.block.scheduler") == 0 ||
			    strcmp(key, "host.block.path") == 0)
				continue;
			if (strcmp(eff, hd->orig_sched) == 0) {
				path = xasprintf("/sys/block/%s/queue/iosched/"
				    "%s", hd->name, knob);
				ok = access(path, W_OK) == 0;
				free(path);
			} else if ((known = hs_known_knob_list(eff)) != NULL)
				ok = hs_in_list(knob, known);
			else
				ok = 1;	/* checked when applied */
			if (!ok)
				return set_cause(cause, "arm '%s': '%s': disk "
				    "'%s' with scheduler '%s' has no tunable "
				    "'%s'", ha->name, key, hd->name, eff, knob);
		}
	}
	return 0;
}

int
hostset_prepare(struct hostset *hs, const struct experiment *e, char **cause)
{
	size_t	a, i;

	if (hs->prepared)
		return set_cause(cause, "host settings already prepared");
	hs->prepared = 1;
	hs->arms = xcalloc(e->narms ? e->narms : 1, sizeof(*hs->arms));
	hs->narms = e->narms;
	for (a = 0; a < e->narms; a++) {
		const struct arm *arm = &e->arms[a];
		struct hs_arm	*ha = &hs->arms[a];
		struct strvec	 paths = STRVEC_INIT;
		char		*why = NULL;
		int		 block = 0, rc = 0;

		ha->name = xstrdup(arm->name);
		for (i = 0; i < arm->nhost; i++) {
			const char	*key = arm->host[i].key;
			const char	*val = arm->host[i].value;
			const struct hostset_op *op;

			if (hostset_check(key, val, &why) == -1) {
				rc = -1;
				break;
			}
			op = hostset_find_op(key);
			if (op->flags & HS_META) {
				strvec_clear(&paths);
				strvec_split_words(&paths, val, NULL);
				continue;
			}
			strvec_push(&ha->keys, key);
			strvec_push(&ha->values, val);
			if (op->flags & HS_BLOCK) {
				block = 1;
				if (strcmp(key, "host.block.scheduler") != 0 &&
				    !strvec_has(&hs->knobs, key))
					strvec_push(&hs->knobs, key);
			} else {
				if (!strvec_has(&hs->names, key))
					strvec_push(&hs->names, key);
				if ((rc = hs_prepare_plain(hs, key, val,
				    &why)) == -1)
					break;
			}
		}
		if (rc == 0 && block)
			rc = hs_arm_disks(hs, ha, paths.n > 0 ? &paths :
			    &hs->paths, &why);
		if (rc == 0 && block)
			rc = hs_prepare_block(hs, ha, &why);
		strvec_clear(&paths);
		if (rc == -1) {
			if (!str_startswith(why, "arm '"))
				set_cause(cause, "arm '%s': %s", arm->name,
				    why);
			else
				set_cause(cause, "%s", why);
			free(why);
			return -1;
		}
	}
	return 0;
}

static const struct hs_arm *
hs_find_arm(const struct hostset *hs, const char *name)
{
	size_t	i;

	for (i = 0; i < hs->narms; i++)
		if (strcmp(hs->arms[i].name, name) == 0)
			return &hs->arms[i];
	return NULL;
}

/*
 * Before the first scheduler switch of a disk, journal every tunable of
 * its original scheduler: the switch drops them, and a switch back brings
 * the kernel's defaults, not the values the host had.
 */
static int
hs_snapshot_knobs(struct hostset *hs, struct hs_disk *hd, const char *sched,
    char **cause)
{
	char		*dir = xasprintf("/sys/block/%s/queue/iosched", hd->name);
	DIR		*d = opendir(dir);
	struct dirent	*de;
	int		 rc = 0;

	if (d == NULL) {
		free(dir);
		return 0;	/* "none" has no tunables */
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char		*path, *name;
		struct hs_item	*it;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (access(path, W_OK) == 0) {
			name = xasprintf("host.block.%s", de->d_name);
			it = hs_get_item(hs, name, hd->name, path, sched);
			rc = hs_journal(hs, it, cause);
			free(name);
		}
		free(path);
	}
	closedir(d);
	free(dir);
	return rc;
}

/* After switching back to the original scheduler: its tunables' values. */
static int
hs_reapply_knobs(struct hostset *hs, struct hs_disk *hd, char **cause)
{
	size_t	i;

	for (i = 0; i < hs->nitems; i++) {
		struct hs_item	*it = &hs->items[i];

		if (it->sched == NULL || it->jid == 0 ||
		    strcmp(it->unit, hd->name) != 0 ||
		    strcmp(it->sched, hd->orig_sched) != 0)
			continue;
		if (hs_restore_value(it, cause) == -1)
			return -1;
	}
	return 0;
}

static int
hs_apply_scheduler(struct hostset *hs, struct hs_disk *hd, const char *want,
    char **cause)
{
	char		*path = xasprintf("/sys/block/%s/queue/scheduler",
			    hd->name);
	struct hs_item	*it = hs_get_item(hs, "host.block.scheduler", hd->name,
			    path, NULL);
	char		*cur;
	int		 rc = 0;

	free(path);
	if ((cur = hs_read(it->path, 1, cause)) == NULL)
		return -1;
	if (strcmp(cur, want) != 0) {
		if (hs_journal(hs, it, cause) == -1 ||
		    (strcmp(cur, hd->orig_sched) == 0 &&
		    hs_snapshot_knobs(hs, hd, cur, cause) == -1) ||
		    write_small_file(it->path, want, cause) == -1 ||
		    store_journal_set_state(hs->st, it->jid, JOURNAL_APPLIED,
		    want, cause) == -1)
			rc = -1;
		else if (strcmp(want, hd->orig_sched) == 0)
			rc = hs_reapply_knobs(hs, hd, cause);
	}
	free(cur);
	return rc;
}

static int
hs_apply_disk(struct hostset *hs, struct hs_disk *hd, const struct hs_arm *ha,
    char **cause)
{
	int		 mine = ha != NULL && strvec_has(&ha->disks, hd->name);
	const char	*want = mine ? hs_arm_value(ha, "host.block.scheduler") :
			    NULL;
	char		*sched_path = xasprintf("/sys/block/%s/queue/scheduler",
			    hd->name);
	struct hs_item	*sit = hs_find_item(hs, sched_path, NULL);
	char		*cur;
	size_t		 i;
	int		 rc = 0;

	free(sched_path);
	/*
	 * Before the first write to a disk, journal all the tunables of its
	 * scheduler: some are linked (slice_idle_us is slice_idle * 1000),
	 * so a tunable's original must be read before any of them changes.
	 */
	if (mine && !hd->snapshotted && ha->keys.n > 0) {
		if ((cur = blockdev_scheduler(hd->name, NULL, cause)) == NULL)
			return -1;
		rc = strcmp(cur, hd->orig_sched) == 0 ?
		    hs_snapshot_knobs(hs, hd, cur, cause) : 0;
		free(cur);
		if (rc == -1)
			return -1;
		hd->snapshotted = 1;
	}
	/* The scheduler first: the tunables' files depend on it. */
	if (want == NULL && sit != NULL && sit->jid != 0)
		want = hd->orig_sched;
	if (want != NULL && hs_apply_scheduler(hs, hd, want, cause) == -1)
		return -1;
	if ((cur = blockdev_scheduler(hd->name, NULL, cause)) == NULL)
		return -1;
	for (i = 0; rc == 0 && i < hs->knobs.n; i++) {
		const char	*key = hs->knobs.v[i];
		const char	*val = mine ? hs_arm_value(ha, key) : NULL;
		char		*path = xasprintf("/sys/block/%s/queue/iosched/%s",
				    hd->name, key + strlen("host.block."));
		struct hs_item	*it;

		if (val != NULL) {
			if (access(path, W_OK) == -1)
				rc = set_cause(cause, "arm '%s': '%s': disk "
				    "'%s' with scheduler '%s' has no tunable "
				    "'%s'", ha->name, key, hd->name, cur,
				    key + strlen("host.block."));
			else {
				it = hs_get_item(hs, key, hd->name, path, cur);
				rc = hs_apply_value(hs, it, val, cause);
			}
		} else if ((it = hs_find_item(hs, path, cur)) != NULL)
			rc = hs_restore_value(it, cause);
		free(path);
	}
	free(cur);
	return rc;
}

int
hostset_apply_arm(struct hostset *hs, const struct arm *arm, char **cause)
{
	const struct hs_arm *ha = arm != NULL ? hs_find_arm(hs, arm->name) :
			    NULL;
	size_t	i, j;

	if (hs->st == NULL)
		return set_cause(cause, "host settings need a store for their "
		    "journal");
	if (arm != NULL && ha == NULL)
		return set_cause(cause, "arm '%s' was not prepared", arm->name);
	for (i = 0; i < hs->names.n; i++) {
		const char	*key = hs->names.v[i];
		const char	*val = ha != NULL ? hs_arm_value(ha, key) : NULL;

		for (j = 0; j < hs->nitems; j++) {
			struct hs_item	*it = &hs->items[j];
			int		 rc;

			if (strcmp(it->name, key) != 0)
				continue;
			rc = val != NULL ? hs_apply_value(hs, it, val, cause) :
			    hs_restore_value(it, cause);
			if (rc == -1)
				return -1;
		}
	}
	for (i = 0; i < hs->ndisks; i++)
		if (hs_apply_disk(hs, &hs->disks[i], ha, cause) == -1)
			return -1;
	return 0;
}

int
hostset_drop_caches(char **cause)
{
	sync();
	return write_small_file("/proc/sys/vm/drop_caches", "3", cause);
}

void
hostset_report_release(struct hostset_report *rep)
{
	strvec_clear(&rep->done);
	strvec_clear(&rep->failed);
	strvec_clear(&rep->notes);
}

/* The disk of a /sys/block/DISK/queue/... target, malloc'd, or NULL. */
static char *
hs_target_disk(const char *target)
{
	const char	*p;

	if (!str_startswith(target, "/sys/block/"))
		return NULL;
	p = target + strlen("/sys/block/");
	return xstrndup(p, strcspn(p, "/"));
}

static int
hs_is_knob_entry(const struct store_journal *j)
{
	return str_startswith(j->kind, "host.block.") &&
	    strcmp(j->kind, "host.block.scheduler") != 0;
}

static int
hs_mark_restored(struct store *st, struct store_journal *j,
    struct hostset_report *rep, int *undone, const char *what)
{
	char	*why = NULL;

	if (store_journal_set_state(st, j->id, JOURNAL_RESTORED, NULL,
	    &why) == -1) {
		strvec_pushf(&rep->failed, "run %lld: %s: %s",
		    (long long)j->run_id, what, why);
		free(why);
		return -1;
	}
	free(j->state);
	j->state = xstrdup(JOURNAL_RESTORED);
	strvec_pushf(&rep->done, "run %lld: %s", (long long)j->run_id, what);
	(*undone)++;
	return 0;
}

/* Write a journal entry's original back to its file. */
static int
hs_write_original(struct store *st, struct store_journal *j,
    struct hostset_report *rep, int *undone)
{
	char	*why = NULL, *what, *cur;
	int	 rc = 0;

	if (j->original == NULL) {
		what = xasprintf("%s (%s): no original recorded, left as is",
		    j->kind, j->target);
		rc = hs_mark_restored(st, j, rep, undone, what);
		free(what);
		return rc;
	}
	cur = hs_read(j->target, hs_path_bracketed(j->target), NULL);
	if (cur == NULL || !hs_same(cur, j->original))
		rc = write_small_file(j->target, j->original, &why);
	if (rc == -1) {
		strvec_pushf(&rep->failed, "run %lld: %s: %s",
		    (long long)j->run_id, j->kind, why);
		free(why);
	} else {
		what = xasprintf("%s = %s (%s)", j->kind, j->original,
		    j->target);
		rc = hs_mark_restored(st, j, rep, undone, what);
		free(what);
	}
	free(cur);
	return rc;
}

/*
 * The block settings of one disk (entries of one run, newest first): the
 * scheduler first (switching drops the current scheduler's tunables and
 * brings the defaults of the new one), then the tunables of the scheduler
 * now active, oldest original last; tunables of a scheduler no longer
 * active vanished with it.
 */
static int
hs_restore_disk(struct store *st, struct store_journal *j, size_t n,
    const char *disk, struct hostset_report *rep, int *undone)
{
	struct store_journal *s = NULL;
	char		*dir = xasprintf("/sys/block/%s", disk);
	char		*cur = NULL, *why = NULL, *what;
	struct stat	 sb;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);

		if (d != NULL && strcmp(d, disk) == 0 &&
		    strcmp(j[i].kind, "host.block.scheduler") == 0)
			s = &j[i];	/* the oldest wins */
		free(d);
	}
	if (stat(dir, &sb) == -1) {
		free(dir);
		for (i = 0; i < n; i++) {
			char	*d = hs_target_disk(j[i].target);

			if (d != NULL && strcmp(d, disk) == 0 &&
			    str_startswith(j[i].kind, "host.block.")) {
				what = xasprintf("%s of '%s': the disk is "
				    "gone, nothing to restore", j[i].kind,
				    disk);
				hs_mark_restored(st, &j[i], rep, undone, what);
				free(what);
			}
			free(d);
		}
		return 0;
	}
	free(dir);
	if (s != NULL && s->original != NULL) {
		cur = hs_read(s->target, 1, &why);
		if (cur != NULL && strcmp(cur, s->original) != 0 &&
		    write_small_file(s->target, s->original, &why) == -1) {
			free(cur);
			cur = NULL;
		}
		if (cur == NULL) {
			strvec_pushf(&rep->failed, "run %lld: "
			    "host.block.scheduler of '%s': %s",
			    (long long)s->run_id, disk, why);
			free(why);
			return -1;	/* its tunables cannot be right */
		}
		free(cur);
	}
	if ((cur = blockdev_scheduler(disk, NULL, &why)) == NULL) {
		strvec_pushf(&rep->failed, "run %lld: '%s': %s",
		    (long long)j[0].run_id, disk, why);
		free(why);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);

		if (d == NULL || strcmp(d, disk) != 0 ||
		    !hs_is_knob_entry(&j[i]) ||
		    strcmp(j[i].state, JOURNAL_RESTORED) == 0) {
			free(d);
			continue;
		}
		free(d);
		if (j[i].name != NULL && *j[i].name != '\0' &&
		    strcmp(j[i].name, cur) != 0) {
			what = xasprintf("%s of '%s': scheduler '%s' is no "
			    "longer active, nothing to restore", j[i].kind,
			    disk, j[i].name);
			hs_mark_restored(st, &j[i], rep, undone, what);
			free(what);
		} else if (hs_write_original(st, &j[i], rep, undone) == -1)
			rc = -1;
	}
	/* The same tunable journaled twice: the oldest original last. */
	for (i = n; i > 0; i--) {
		struct store_journal *e = &j[i - 1];
		char	*d = hs_target_disk(e->target);

		if (d != NULL && strcmp(d, disk) == 0 && hs_is_knob_entry(e) &&
		    e->original != NULL && (e->name == NULL ||
		    strcmp(e->name, cur) == 0))
			write_small_file(e->target, e->original, NULL);
		free(d);
	}
	free(cur);
	for (i = 0; i < n; i++) {
		char	*d = hs_target_disk(j[i].target);

		if (d != NULL && strcmp(d, disk) == 0 &&
		    strcmp(j[i].kind, "host.block.scheduler") == 0 &&
		    strcmp(j[i].state, JOURNAL_RESTORED) != 0) {
			what = xasprintf("host.block.scheduler = %s (%s)",
			    s->original != NULL ? s->original : "?",
			    j[i].target);
			if (hs_mark_restored(st, &j[i], rep, undone,
			    what) == -1)
				rc = -1;
			free(what);
		}
		free(d);
	}
	return rc;
}

/* Settings of one run (newest first): plain ones, then per disk. */
static int
hs_restore_settings(struct store *st, struct store_journal *j, size_t n,
    struct hostset_report *rep, int *undone)
{
	struct strvec	disks = STRVEC_INIT;
	size_t		i;
	int		rc = 0;

	for (i = 0; i < n; i++) {
		char	*d;

		if (!str_startswith(j[i].kind, "host."))
			continue;
		if ((d = hs_target_disk(j[i].target)) != NULL &&
		    str_startswith(j[i].kind, "host.block.")) {
			if (!strvec_has(&disks, d))
				strvec_push(&disks, d);
		} else if (hs_write_original(st, &j[i], rep, undone) == -1)
			rc = -1;
		free(d);
	}
	for (i = 0; i < disks.n; i++)
		if (hs_restore_disk(st, j, n, disks.v[i], rep, undone) == -1)
			rc = -1;
	strvec_clear(&disks);
	return rc;
}

int
hostset_restore_all(struct hostset *hs, char **cause)
{
	struct hostset_report	 rep = HOSTSET_REPORT_INIT;
	struct store_journal	*j = NULL;
	size_t			 n, i;
	int			 undone = 0, rc;

	if (hs == NULL || hs->st == NULL)
		return 0;
	if (store_journal_pending(hs->st, hs->run_id, &j, &n, cause) == -1)
		return -1;
	rc = hs_restore_settings(hs->st, j, n, &rep, &undone);
	store_journal_free(j, n);
	if (rc == -1)
		set_cause(cause, "%zu host settings not restored: %s",
		    rep.failed.n, rep.failed.n > 0 ? rep.failed.v[0] : "?");
	hostset_report_release(&rep);
	/* A later apply journals afresh. */
	for (i = 0; i < hs->nitems; i++)
		hs->items[i].jid = 0;
	for (i = 0; i < hs->ndisks; i++)
		hs->disks[i].snapshotted = 0;
	return rc;
}

#define DOCKER_TIMEOUT_NS	(30LL * 1000000000)

/*
 * kind "cgroup" (see hostset.h): a run's cgroup below where that run's
 * abbench was (e->original), where we are, and at every root; an
 * absolute directory in a hierarchy; or a path from every root.
 */
static int
hs_remove_cgroup(const struct store_journal *e, char **cause)
{
	struct strvec	 mnts = STRVEC_INIT, roots = STRVEC_INIT;
	const char	*target = e->target, *rel = target;
	struct stat	 sb;
	size_t		 i;
	int		 rc = 0;

	if (target[0] != '/')
		return cgrp_remove_everywhere(target, e->original, cause);
	if (strstr(target, "/../") != NULL)
		return set_cause(cause, "refusing cgroup '%s'", target);
	cgrp_hierarchies(&mnts, &roots);
	for (i = 0; i < mnts.n; i++) {
		size_t	n = strlen(mnts.v[i]);

		if (strncmp(target, mnts.v[i], n) == 0 && target[n] == '/' &&
		    target[n + 1] != '\0') {
			rc = cgrp_remove_dir(target, cause);
			goto done;
		}
	}
	while (*rel == '/')
		rel++;
	if (*rel == '\0' || strstr(target, "..") != NULL) {
		rc = set_cause(cause, "refusing cgroup '%s'", target);
		goto done;
	}
	for (i = 0; i < mnts.n; i++) {
		char	*dir = xasprintf("%s/%s", mnts.v[i], rel);

		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    cgrp_remove_dir(dir, rc == 0 ? cause : NULL) == -1)
			rc = -1;
		free(dir);
	}
done:
	strvec_clear(&mnts);
	strvec_clear(&roots);
	return rc;
}

#define OCI_KILL_TIMEOUT_NS	(10LL * 1000000000)
#define OCI_DELETE_TIMEOUT_NS	(30LL * 1000000000)

/* RUNTIME [--root=ROOT] A B C, from the fields of an OCI container. */
static void
hs_oci_argv(struct strvec *argv, char *const *f, const char *a,
    const char *b, const char *c)
{
	strvec_push(argv, f[0]);
	if (f[1][0] != '\0')
		strvec_pushf(argv, "--root=%s", f[1]);
	strvec_push(argv, a);
	strvec_push(argv, b);
	strvec_push(argv, c);
}

/* "deleted OCI container 'ID' (runsc --root=ROOT)" */
static char *
hs_oci_what(const char *target)
{
	const char	*t1 = strchr(target, '\t');
	const char	*t2 = t1 != NULL ? strchr(t1 + 1, '\t') : NULL;

	if (t2 == NULL)
		return xasprintf("deleted OCI container '%s'", target);
	return xasprintf("deleted OCI container '%s' (%.*s%s%.*s)", t2 + 1,
	    (int)(t1 - target), target, t2 > t1 + 1 ? " --root=" : "",
	    (int)(t2 - t1 - 1), t1 + 1);
}

/*
 * kind "oci-container", target RUNTIME<TAB>ROOT<TAB>ID: `kill ID KILL`,
 * then `delete --force ID` (runsc waits for the sandbox to exit: 1-2 s).
 * Gone (or its state directory gone) is not an error.
 */
static int
hs_oci_delete(const char *target, char **cause)
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
	hs_oci_argv(&argv, f.v, "kill", f.v[2], "KILL");
	(void)spawn_capture(argv.v, OCI_KILL_TIMEOUT_NS, NULL, NULL, NULL,
	    NULL);
	strvec_clear(&argv);
	hs_oci_argv(&argv, f.v, "delete", "--force", f.v[2]);
	if (spawn_capture(argv.v, OCI_DELETE_TIMEOUT_NS, &out, &err, &status,
	    cause) == -1)
		rc = -1;
	else if (status != 0 && (err == NULL ||
	    (strstr(err, "not exist") == NULL &&
	    strstr(err, "not found") == NULL))) {
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

/* Only scratch places: /tmp, /var/tmp, or a directory named abbench-*. */
static int
hs_remove_dir(const char *target, char **cause)
{
	char		*real = realpath(target, NULL);
	const char	*base;
	int		 ok, r;

	if (real == NULL)
		return errno == ENOENT ? 0 : set_cause(cause,
		    "cannot resolve '%s': %s", target, strerror(errno));
	base = strrchr(real, '/') + 1;
	ok = (str_startswith(real, "/tmp/") && real[5] != '\0') ||
	    (str_startswith(real, "/var/tmp/") && real[9] != '\0') ||
	    str_startswith(base, "abbench-");
	if (!ok) {
		set_cause(cause, "refusing to remove '%s': not under /tmp or "
		    "/var/tmp and not an abbench- scratch directory", real);
		free(real);
		return -1;
	}
	r = rmtree(real, cause);
	free(real);
	return r;
}

static int
hs_detach_loop(const char *target, char **cause)
{
	char	*dev = target[0] == '/' ? xstrdup(target) :
		    xasprintf("/dev/%s", target);
	int	 fd, rc = 0;

	if (!str_startswith(dev, "/dev/loop")) {
		rc = set_cause(cause, "'%s' is not a loop device", target);
		free(dev);
		return rc;
	}
	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) == -1) {
		rc = errno == ENOENT ? 0 : set_cause(cause,
		    "cannot open '%s': %s", dev, strerror(errno));
		free(dev);
		return rc;
	}
	/* ENXIO: not bound any more. Busy: the kernel detaches it on the
	 * last close (autoclear). */
	if (ioctl(fd, LOOP_CLR_FD, 0) == -1 && errno != ENXIO)
		rc = set_cause(cause, "cannot detach '%s': %s", dev,
		    strerror(errno));
	close(fd);
	free(dev);
	return rc;
}

static int
hs_unmount(const char *target, int *lazy, char **cause)
{
	*lazy = 0;
	if (umount2(target, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL ||
	    errno == ENOENT)
		return 0;
	if (errno == EBUSY && umount2(target, MNT_DETACH | UMOUNT_NOFOLLOW) ==
	    0) {
		*lazy = 1;
		return 0;
	}
	return set_cause(cause, "cannot unmount '%s': %s", target,
	    strerror(errno));
}

/* `docker rm -f` the given containers; gone ones are not an error. */
static int
hs_docker_rm(char *const *ids, size_t n, char **cause)
{
	struct strvec	argv = STRVEC_INIT;
	char		*out = NULL, *err = NULL;
	int		 status = 0, rc = 0;
	size_t		 i;

	strvec_push(&argv, "docker");
	strvec_push(&argv, "rm");
	strvec_push(&argv, "-f");
	for (i = 0; i < n; i++)
		strvec_push(&argv, ids[i]);
	if (spawn_capture(argv.v, DOCKER_TIMEOUT_NS, &out, &err, &status,
	    cause) == -1)
		rc = -1;
	else if (status != 0 && (err == NULL ||
	    strstr(err, "No such container") == NULL)) {
		char	*how = spawn_describe_status(status, 0);

		rc = set_cause(cause, "'docker rm -f' %s: %s", how,
		    err != NULL ? strtrim(err) : "");
		free(how);
	}
	free(out);
	free(err);
	strvec_clear(&argv);
	return rc;
}

/* Objects of one run, newest first (a mount before its loop device). */
static int
hs_restore_objects(struct store *st, struct store_journal *j, size_t n,
    struct hostset_report *rep, int *undone)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; i < n; i++) {
		struct store_journal *e = &j[i];
		char	*why = NULL, *what = NULL;
		int	 r, lazy = 0;

		if (str_startswith(e->kind, "host.") ||
		    strcmp(e->state, JOURNAL_RESTORED) == 0)
			continue;
		if (strcmp(e->kind, "container") == 0) {
			char	*ids[1] = { e->target };

			r = hs_docker_rm(ids, 1, &why);
			what = xasprintf("removed container '%s'", e->target);
		} else if (strcmp(e->kind, "oci-container") == 0) {
			r = hs_oci_delete(e->target, &why);
			what = hs_oci_what(e->target);
		} else if (strcmp(e->kind, "cgroup") == 0) {
			r = hs_remove_cgroup(e, &why);
			what = xasprintf("removed cgroup '%s'", e->target);
		} else if (strcmp(e->kind, "dir") == 0) {
			r = hs_remove_dir(e->target, &why);
			what = xasprintf("removed directory '%s'", e->target);
		} else if (strcmp(e->kind, "loop") == 0) {
			r = hs_detach_loop(e->target, &why);
			what = xasprintf("detached loop device '%s'",
			    e->target);
		} else if (strcmp(e->kind, "mount") == 0) {
			r = hs_unmount(e->target, &lazy, &why);
			what = xasprintf("unmounted '%s'%s", e->target,
			    lazy ? " (lazily: it was busy)" : "");
		} else
			r = set_cause(&why, "unknown journal entry kind '%s' "
			    "for '%s'", e->kind, e->target);
		if (r == -1) {
			strvec_pushf(&rep->failed, "run %lld: %s",
			    (long long)e->run_id, why);
			rc = -1;
		} else if (hs_mark_restored(st, e, rep, undone, what) == -1)
			rc = -1;
		free(why);
		free(what);
	}
	return rc;
}

/*
 * Containers labelled abbench.run=UUID, for every uuid at once: one docker
 * call. Returns -1 when docker is absent or not reachable (*cause).
 */
static int
hs_docker_labelled(struct strvec *ids, struct strvec *uuids, char **cause)
{
	char *const	 argv[] = { "docker", "ps", "-a", "--filter",
			    "label=abbench.run", "--format",
			    "{{.ID}} {{.Label \"abbench.run\"}}", NULL };
	char		*out = NULL, *err = NULL, *line, *save = NULL;
	int		 status = 0;

	if (spawn_capture(argv, DOCKER_TIMEOUT_NS, &out, &err, &status,
	    cause) == -1)
		return -1;
	if (status != 0) {
		char	*how = spawn_describe_status(status, 0);

		set_cause(cause, "'docker ps' %s: %s", how,
		    err != NULL ? strtrim(err) : "");
		free(how);
		free(out);
		free(err);
		return -1;
	}
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char	*sp = strchr(line, ' ');

		if (sp == NULL)
			continue;
		*sp = '\0';
		strvec_push(ids, line);
		strvec_push(uuids, strtrim(sp + 1));
	}
	free(out);
	free(err);
	return 0;
}

static int
hs_same_host(const struct store_run *r)
{
	struct utsname	u;

	if (r->host == NULL || *r->host == '\0' || uname(&u) == -1)
		return 1;
	return strcmp(r->host, u.nodename) == 0;
}

/* Is the run's abbench process still alive (not pid reuse)? */
static int
hs_run_alive(const struct store_run *r)
{
	char	*path, *comm;
	int	 alive;

	if (r->pid <= 0)
		return 0;
	if (r->pid == (int64_t)getpid())
		return 1;
	if (kill((pid_t)r->pid, 0) == -1 && errno == ESRCH)
		return 0;
	path = xasprintf("/proc/%lld/comm", (long long)r->pid);
	comm = read_small_file(path, NULL);
	free(path);
	alive = comm != NULL && strstr(comm, "abbench") != NULL;
	free(comm);
	return alive;
}

struct hs_run_group {
	int64_t		 run_id;
	struct store_run run;
	int		 have_run;
	int		 skip;
};

int
hostset_restore_runs(struct store *st, int64_t run_id, int flags,
    struct hostset_report *rep, int *undone_out, char **cause)
{
	struct store_journal	*j = NULL;
	struct store_run	*runs = NULL;
	struct hs_run_group	*g = NULL;
	struct strvec		 dids = STRVEC_INIT, duuids = STRVEC_INIT;
	size_t			 n = 0, nruns = 0, ng = 0, capg = 0, i, k;
	int			 undone = 0, failed = 0, docker_tried = 0;
	int			 docker_ok = 0;

	if (undone_out != NULL)
		*undone_out = 0;
	if (store_journal_pending(st, run_id, &j, &n, cause) == -1)
		return -1;
	if (store_runs_list(st, &runs, &nruns, cause) == -1) {
		store_journal_free(j, n);
		return -1;
	}
	/* The runs concerned: those with pending entries, and those left
	 * running or interrupted (their containers). */
	for (i = 0; i < nruns; i++) {
		const struct store_run *r = &runs[i];
		int	pending = 0;

		for (k = 0; k < n && !pending; k++)
			pending = j[k].run_id == r->id;
		if (run_id != 0 && r->id != run_id)
			continue;
		if (!pending && run_id == 0 &&
		    strcmp(r->status, RUN_RUNNING) != 0 &&
		    strcmp(r->status, RUN_INTERRUPTED) != 0)
			continue;
		XGROW(g, ng, capg);
		memset(&g[ng], 0, sizeof(g[ng]));
		g[ng].run_id = r->id;
		g[ng].run = *r;
		g[ng].have_run = 1;
		ng++;
	}
	/* Entries without a run (run_id NULL) are always undone. */
	for (k = 0; k < n; k++)
		if (j[k].run_id == 0 && run_id == 0) {
			XGROW(g, ng, capg);
			memset(&g[ng], 0, sizeof(g[ng]));
			ng++;
			break;
		}
	for (i = 0; i < ng; i++) {
		struct hs_run_group *rg = &g[i];
		struct store_journal *sub;
		size_t	 nsub = 0;
		int	 alive = rg->have_run && hs_run_alive(&rg->run);

		if (rg->have_run && !(flags & HOSTSET_FORCE)) {
			if (!hs_same_host(&rg->run)) {
				strvec_pushf(&rep->notes, "run %lld was "
				    "made on host '%s': skipped",
				    (long long)rg->run_id, rg->run.host);
				continue;
			}
			if (alive && rg->run.pid != (int64_t)getpid()) {
				strvec_pushf(&rep->notes, "run %lld is "
				    "still running (pid %lld): skipped",
				    (long long)rg->run_id,
				    (long long)rg->run.pid);
				continue;
			}
		}
		if ((flags & HOSTSET_STALE) && alive)
			continue;
		/* This run's entries, newest first. */
		sub = xcalloc(n ? n : 1, sizeof(*sub));
		for (k = 0; k < n; k++)
			if (j[k].run_id == rg->run_id)
				sub[nsub++] = j[k];
		if (hs_restore_settings(st, sub, nsub, rep, &undone) == -1)
			failed = 1;
		if (hs_restore_objects(st, sub, nsub, rep, &undone) == -1)
			failed = 1;
		/* The copies own what the entries pointed to now (state). */
		for (k = 0, nsub = 0; k < n; k++)
			if (j[k].run_id == rg->run_id)
				j[k] = sub[nsub++];
		free(sub);
		if (rg->have_run && rg->run.uuid != NULL) {
			struct strvec	mine = STRVEC_INIT;
			char		*why = NULL;

			if (!docker_tried) {
				docker_tried = 1;
				docker_ok = hs_docker_labelled(&dids, &duuids,
				    &why) == 0;
				if (!docker_ok)
					strvec_pushf(&rep->notes, "docker "
					    "not reachable, labelled "
					    "containers not checked: %s", why);
				free(why);
				why = NULL;
			}
			for (k = 0; docker_ok && k < dids.n; k++)
				if (strcmp(duuids.v[k], rg->run.uuid) == 0)
					strvec_push(&mine, dids.v[k]);
			if (mine.n > 0 && hs_docker_rm(mine.v, mine.n,
			    &why) == -1) {
				strvec_pushf(&rep->failed, "run %lld: %s",
				    (long long)rg->run_id, why);
				failed = 1;
			} else
				for (k = 0; k < mine.n; k++) {
					strvec_pushf(&rep->done, "run %lld: "
					    "removed container '%s' (label "
					    "abbench.run)",
					    (long long)rg->run_id, mine.v[k]);
					undone++;
				}
			free(why);
			strvec_clear(&mine);
		}
		if (rg->have_run && !alive &&
		    strcmp(rg->run.status, RUN_RUNNING) == 0) {
			char	*why = NULL;

			if (store_run_set_status(st, rg->run_id,
			    RUN_INTERRUPTED, now_wall_ns(), &why) == 0)
				strvec_pushf(&rep->notes, "run %lld: its "
				    "process is gone, marked interrupted",
				    (long long)rg->run_id);
			free(why);
		}
	}
	strvec_clear(&dids);
	strvec_clear(&duuids);
	for (i = 0; i < nruns; i++)
		store_run_release(&runs[i]);
	free(runs);
	free(g);
	store_journal_free(j, n);
	if (undone_out != NULL)
		*undone_out = undone;
	if (failed)
		return set_cause(cause, "%zu host change%s could not be "
		    "undone%s%s", rep->failed.n, rep->failed.n == 1 ? "" : "s",
		    rep->failed.n > 0 ? ": " : "",
		    rep->failed.n > 0 ? rep->failed.v[0] : "");
	return 0;
}

int
hostset_restore_journal(struct store *st, int64_t run_id, int *undone,
    char **cause)
{
	struct hostset_report	rep = HOSTSET_REPORT_INIT;
	int			rc;

	rc = hostset_restore_runs(st, run_id, 0, &rep, undone, cause);
	hostset_report_release(&rep);
	return rc;
}

int
hostset_restore_stale_report(struct store *st, struct hostset_report *rep,
    char **cause)
{
	char	*why = NULL;
	int	 undone = 0;

	if (hostset_restore_runs(st, 0, HOSTSET_STALE, rep, &undone,
	    &why) == -1 && rep->failed.n == 0) {
		/* A store error, not a setting left changed. */
		if (cause != NULL)
			*cause = why;
		else
			free(why);
		return -1;
	}
	free(why);
	return undone;
}

int
hostset_restore_stale(struct store *st, char **cause)
{
	struct hostset_report	rep = HOSTSET_REPORT_INIT;
	int			rc;

	rc = hostset_restore_stale_report(st, &rep, cause);
	if (rc >= 0 && rep.failed.n > 0) {
		rc = set_cause(cause, "%zu host change%s left by an earlier "
		    "run could not be undone: %s", rep.failed.n,
		    rep.failed.n == 1 ? "" : "s", rep.failed.v[0]);
	}
	hostset_report_release(&rep);
	return rc;
}
