/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host settings: the named, typed settings of the ops table (hostset-ops.c:
 * host.block.*, host.thp.*, host.sysctl.*, host.cpufreq.governor), each
 * checked on this host before anything changes and resolved to the files
 * that hold it, with the per-arm apply logic. Every write is journaled in
 * the host journal first (journal.h); recover.c undoes them.
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
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "lib/model.h"
#include "host/hostset.h"
#include "host/hostset-int.h"
#include "host/hostset-state.h"
#include "host/journal.h"
#include "host/recover.h"
#include "lib/util.h"
#include "results/store.h"

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
hostset_new(char *const *paths, size_t npaths)
{
	struct hostset	*hs = xcalloc(1, sizeof(*hs));
	size_t		 i;

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
	for (i = 0; i < hs->nbase; i++) {
		free(hs->base[i].path);
		free(hs->base[i].sched);
		free(hs->base[i].value);
	}
	free(hs->base);
	strvec_clear(&hs->seen_paths);
	strvec_clear(&hs->seen_values);
	strvec_clear(&hs->outside);
	strvec_clear(&hs->paths);
	strvec_clear(&hs->names);
	strvec_clear(&hs->knobs);
	free(hs);
}

struct hs_item *
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

struct hs_item *
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

struct hs_disk *
hs_find_disk(struct hostset *hs, const char *name)
{
	size_t	i;

	for (i = 0; i < hs->ndisks; i++)
		if (strcmp(hs->disks[i].name, name) == 0)
			return &hs->disks[i];
	return NULL;
}

/* The value of path (of scheduler sched) when the run took the host. */
const char *
hs_base_value(const struct hostset *hs, const char *path, const char *sched)
{
	size_t	i;

	for (i = 0; i < hs->nbase; i++)
		if (strcmp(hs->base[i].path, path) == 0 &&
		    (sched == NULL) == (hs->base[i].sched == NULL) &&
		    (sched == NULL || strcmp(sched, hs->base[i].sched) == 0))
			return hs->base[i].value;
	return NULL;
}

void
hs_base_add(struct hostset *hs, const char *path, const char *sched,
    char *value)
{
	struct hs_base	*b;

	if (value == NULL || hs_base_value(hs, path, sched) != NULL) {
		free(value);
		return;
	}
	XGROW(hs->base, hs->nbase, hs->capbase);
	b = &hs->base[hs->nbase++];
	b->path = xstrdup(path);
	b->sched = sched != NULL ? xstrdup(sched) : NULL;
	b->value = value;
}

/*
 * Record the original of IT in the journal (once), before any write: the
 * value the run found when it took the host, not the one there now (which
 * someone else may have written since: theirs is never the original).
 */
int
hs_journal(struct hostset *hs, struct hs_item *it, char **cause)
{
	const char	*jname, *base;
	char		*cur;

	if (it->jid != 0)
		return 0;
	free(it->original);
	it->original = NULL;
	base = hs_base_value(hs, it->path, it->sched);
	cur = hostset_read(it->path, hostset_bracketed(it->path),
	    base != NULL ? NULL : cause);
	if (base != NULL) {
		if (cur != NULL && !hostset_same(cur, base))
			strvec_pushf(&hs->outside, "'%s' (%s) is %s, not %s as "
			    "the run found it: changed by someone else; %s "
			    "is what the run puts back", it->name, it->path,
			    cur, base, base);
		it->original = xstrdup(base);
		free(cur);
	} else if ((it->original = cur) == NULL)
		return -1;
	jname = it->sched != NULL ? it->sched :
	    it->unit != NULL ? it->unit : it->name;
	if (hs->jr == NULL)
		return set_cause(cause, "host settings need the host journal");
	if ((it->jid = journal_add(hs->jr, it->name, jname, it->path,
	    it->original, cause)) == -1) {
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
	if ((cur = hostset_read(it->path, hostset_bracketed(it->path),
	    cause)) == NULL)
		return -1;
	same = hostset_knob_same(it->name, cur, value);
	free(cur);
	if (same)
		return 0;
	if (write_small_file(it->path, value, cause) == -1)
		return -1;
	return journal_set_state(hs->jr, it->jid, JOURNAL_APPLIED,
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
	if ((cur = hostset_read(it->path, hostset_bracketed(it->path),
	    cause)) == NULL)
		return -1;
	same = hostset_same(cur, it->original);
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
	ok = hostset_in_list(value, strtrim(text));
	if (!ok)
		set_cause(cause, "'%s': '%s' is not available on this host "
		    "(%s offers: %s)", name, value, path, strtrim(text));
	free(text);
	return ok ? 0 : -1;
}

/* An integer, possibly signed. */
static int
hs_is_int(const char *w)
{
	return hostset_is_uint(*w == '-' ? w + 1 : w);
}

/*
 * A sysctl whose value is numbers (one or a tuple, vm.swappiness or
 * kernel.printk) takes as many numbers: the kernel would refuse anything
 * else only at apply time.
 */
static int
hs_validate_like(const char *name, const char *path, const char *value,
    char **cause)
{
	struct strvec	cur = STRVEC_INIT, want = STRVEC_INIT;
	char		*text = read_small_file(path, NULL);
	size_t		i;
	int		numeric = 1, rc = 0;

	if (text == NULL)
		return 0;	/* write-only: the kernel judges */
	strvec_split_words(&cur, text, NULL);
	strvec_split_words(&want, value, NULL);
	for (i = 0; i < cur.n; i++)
		numeric = numeric && hs_is_int(cur.v[i]);
	if (numeric && cur.n > 0) {
		for (i = 0; rc == 0 && i < want.n; i++)
			if (!hs_is_int(want.v[i]))
				rc = set_cause(cause, "'%s': '%s' is not an "
				    "integer (%s holds %s)", name, want.v[i],
				    path, strtrim(text));
		if (rc == 0 && want.n != cur.n)
			rc = set_cause(cause, "'%s': %zu value%s given, %s "
			    "holds %zu", name, want.n, want.n == 1 ? "" : "s",
			    path, cur.n);
	}
	free(text);
	strvec_clear(&cur);
	strvec_clear(&want);
	return rc;
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
		else if (op->flags & HS_PREFIX)
			rc = hs_validate_like(name, path, value, cause);
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
/*
 * A directory host.block.* may act on: it exists, and unless the user
 * named it (host.block.path) it is not on the root filesystem, where an
 * empty mount point (nothing mounted on /mnt/bench) would silently make
 * the root disk the one changed.
 */
static int
hs_check_dir(const struct hs_arm *ha, const char *path, int named,
    char **cause)
{
	struct stat	 sb;
	char		*mnt, *why = NULL, *at = xstrdup(path), *slash;
	int		 rc = 0, exists;

	/* A workload may make its dir: judge the nearest existing parent. */
	while (!(exists = stat(at, &sb) == 0) && (slash = strrchr(at,
	    '/')) != NULL && slash != at)
		*slash = '\0';
	if (!exists && strcmp(at, path) != 0 && at[0] == '/' && at[1] != '\0')
		exists = stat(at, &sb) == 0;
	if (!exists)
		strcpy(at, "/");
	if (named && strcmp(at, path) != 0) {
		rc = set_cause(cause, "arm '%s': '%s' does not exist",
		    ha->name, path);
		goto done;
	}
	if (named)
		goto done;
	if ((mnt = blockdev_mount_point(at, &why)) == NULL) {
		rc = set_cause(cause, "arm '%s': %s", ha->name, why);
		free(why);
		goto done;
	}
	if (strcmp(mnt, "/") == 0 && strcmp(at, path) != 0)
		rc = set_cause(cause, "arm '%s': '%s' does not exist and "
		    "nothing is mounted above it but the root filesystem: "
		    "host.block.* would change the root disk; mount the disk "
		    "to measure, or name the directory with host.block.path",
		    ha->name, path);
	else if (strcmp(mnt, "/") == 0)
		rc = set_cause(cause, "arm '%s': nothing is mounted on '%s' "
		    "(it is on the root filesystem): host.block.* would change "
		    "the root disk; mount the disk to measure there, or name "
		    "the directory with host.block.path", ha->name, path);
	free(mnt);
done:
	free(at);
	return rc;
}

static int
hs_arm_disks(struct hostset *hs, struct hs_arm *ha, const struct strvec *paths,
    int named, char **cause)
{
	size_t	i, j;

	if (paths->n == 0)
		return set_cause(cause, "arm '%s': host.block.* settings need "
		    "a disk: set host.block.path or a workload's dir",
		    ha->name);
	for (i = 0; i < paths->n; i++) {
		struct strvec	d = STRVEC_INIT;
		size_t		 kept = 0;

		if (hs_check_dir(ha, paths->v[i], named, cause) == -1)
			return -1;
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

const char *
hs_arm_value(const struct hs_arm *ha, const char *key)
{
	size_t	i;

	for (i = ha->keys.n; i > 0; i--)
		if (strcmp(ha->keys.v[i - 1], key) == 0)
			return ha->values.v[i - 1];
	return NULL;
}

/* *badkey: the key a failure is about (its line is the one to name). */
static int
hs_prepare_block(struct hostset *hs, struct hs_arm *ha, const char **badkey,
    char **cause)
{
	const char	*sched = hs_arm_value(ha, "host.block.scheduler");
	size_t		 i, k;

	for (i = 0; i < ha->disks.n; i++) {
		struct hs_disk	*hd = hs_find_disk(hs, ha->disks.v[i]);
		const char	*eff = sched != NULL ? sched : hd->orig_sched;

		*badkey = "host.block.scheduler";
		if (sched != NULL && !hostset_in_list(sched, hd->available))
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
				ok = hostset_in_list(knob, known);
			else
				ok = 1;	/* checked when applied */
			*badkey = key;
			if (!ok)
				return set_cause(cause, "arm '%s': '%s': disk "
				    "'%s' with scheduler '%s' has no tunable "
				    "'%s'", ha->name, key, hd->name, eff, knob);
		}
	}
	return 0;
}

/* The arm's host.* key NAME as the file wrote it (its line), or NULL. */
static const struct kv *
hs_arm_kv(const struct arm *arm, const char *name)
{
	size_t	i;

	for (i = 0; i < arm->nhost; i++)
		if (strcmp(arm->host[i].key, name) == 0)
			return &arm->host[i];
	return NULL;
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
		const struct kv	*at = NULL, *block = NULL;
		char		*why = NULL;
		int		 rc = 0;

		ha->name = xstrdup(arm->name);
		for (i = 0; i < arm->nhost; i++) {
			const char	*key = arm->host[i].key;
			const char	*val = arm->host[i].value;
			const struct hostset_op *op;

			at = &arm->host[i];
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
				if (block == NULL)
					block = at;
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
		if (rc == 0 && block != NULL) {
			/* The disks come from host.block.path when given. */
			at = paths.n > 0 ? hs_arm_kv(arm, "host.block.path") :
			    NULL;
			if (at == NULL)
				at = block;
			rc = hs_arm_disks(hs, ha, paths.n > 0 ? &paths :
			    &hs->paths, paths.n > 0, &why);
		}
		if (rc == 0 && block != NULL) {
			const char	*bad = NULL;

			rc = hs_prepare_block(hs, ha, &bad, &why);
			/* The key at fault, not the arm's first block key. */
			at = bad != NULL && hs_arm_kv(arm, bad) != NULL ?
			    hs_arm_kv(arm, bad) : block;
		}
		strvec_clear(&paths);
		if (rc == -1) {
			/* FILE:LINE: KEY: what is wrong, before any change. */
			set_cause(cause, "%s:%d: %s: %s%s%s%s", e->path,
			    at != NULL ? at->line : arm->line,
			    at != NULL ? at->key : "host",
			    str_startswith(why, "arm '") ? "" : "arm '",
			    str_startswith(why, "arm '") ? "" : arm->name,
			    str_startswith(why, "arm '") ? "" : "': ", why);
			free(why);
			return -1;
		}
	}
	return 0;
}

int
hostset_changes_host(const struct experiment *e)
{
	size_t	a, i;

	for (a = 0; a < e->narms; a++)
		for (i = 0; i < e->arms[a].nhost; i++)
			if (strcmp(e->arms[a].host[i].key,
			    "host.block.path") != 0)
				return 1;
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
int
hs_snapshot_knobs(struct hostset *hs, struct hs_disk *hd, const char *sched,
    char **cause)
{
	char		*dir = xasprintf("/sys/block/%s/queue/iosched", hd->name);
	DIR		*d;
	struct dirent	*de;
	char		*cur;
	size_t		 i, plen = strlen(dir);
	int		 rc = 0, from_base = 0;

	/*
	 * The tunables as the run found them, when it did: their files may
	 * be gone now (someone else switched the scheduler mid-run), their
	 * values still are the originals to put back.
	 */
	for (i = 0; rc == 0 && i < hs->nbase; i++) {
		struct hs_base	*b = &hs->base[i];
		char		*name;

		if (b->sched == NULL || strcmp(b->sched, sched) != 0 ||
		    strncmp(b->path, dir, plen) != 0 || b->path[plen] != '/')
			continue;
		name = xasprintf("host.block.%s", b->path + plen + 1);
		rc = hs_journal(hs, hs_get_item(hs, name, hd->name, b->path,
		    sched), cause);
		free(name);
		from_base = 1;
	}
	if (from_base || rc == -1) {
		free(dir);
		return rc;
	}
	/*
	 * Else the files there now, when they are sched's: a disk on
	 * another scheduler holds that one's tunables, which are not
	 * sched's to put back after it (a run that found none and ends
	 * on bfq journaled bfq's as none's, then could not write them).
	 */
	cur = blockdev_scheduler(hd->name, NULL, NULL);
	d = cur != NULL && strcmp(cur, sched) == 0 ? opendir(dir) : NULL;
	free(cur);
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
	if ((cur = hostset_read(it->path, 1, cause)) == NULL)
		return -1;
	if (strcmp(cur, want) != 0) {
		/*
		 * The original scheduler's tunables before any switch (it
		 * drops them): from what the run found, even when someone
		 * else switched away from it already.
		 */
		if (hs_journal(hs, it, cause) == -1 ||
		    ((strcmp(cur, hd->orig_sched) == 0 ||
		    hs_base_value(hs, it->path, NULL) != NULL) &&
		    hs_snapshot_knobs(hs, hd, hd->orig_sched, cause) == -1) ||
		    write_small_file(it->path, want, cause) == -1 ||
		    journal_set_state(hs->jr, it->jid, JOURNAL_APPLIED,
		    want, cause) == -1)
			rc = -1;
		else if (strcmp(want, hd->orig_sched) == 0)
			rc = hs_reapply_knobs(hs, hd, cause);
	}
	free(cur);
	return rc;
}

#define HS_APPLY_PASSES	8

/*
 * Does every tunable the arm names hold its value, and every other one
 * the run changed its original? (The kernel couples some: bfq raises
 * slice_idle to 8 ms when strict_guarantees goes 0 -> 1.) NULL when so,
 * else the first that does not, malloc'd.
 */
static char *
hs_disk_unsettled(struct hostset *hs, struct hs_disk *hd,
    const struct hs_arm *ha, int mine, const char *sched)
{
	size_t	i;

	for (i = 0; i < hs->knobs.n; i++) {
		const char	*key = hs->knobs.v[i];
		const char	*want = mine ? hs_arm_value(ha, key) : NULL;
		char		*path = xasprintf("/sys/block/%s/queue/iosched/%s",
				    hd->name, key + strlen("host.block."));
		struct hs_item	*it = hs_find_item(hs, path, sched);
		char		*cur, *what = NULL;

		if (want == NULL && it != NULL && it->jid != 0)
			want = it->original;
		if (want != NULL) {
			cur = hostset_read(path, 0, NULL);
			if (cur == NULL || !hostset_knob_same(key, cur, want))
				what = xasprintf("'%s' of disk '%s' is %s, "
				    "not %s", key, hd->name, cur != NULL ?
				    cur : "unreadable", want);
			free(cur);
		}
		free(path);
		if (what != NULL)
			return what;
	}
	return NULL;
}

/* One pass over the tunables any arm names, on one disk. */
static int
hs_apply_knobs(struct hostset *hs, struct hs_disk *hd, const struct hs_arm *ha,
    int mine, const char *cur, char **cause)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; rc == 0 && i < hs->knobs.n; i++) {
		const char	*key = hs->knobs.v[i];
		const char	*val = mine ? hs_arm_value(ha, key) : NULL;
		char		*path = xasprintf("/sys/block/%s/queue/iosched/%s",
				    hd->name, key + strlen("host.block."));
		struct hs_item	*it;

		if (val != NULL) {
			if (access(path, W_OK) == -1)
				rc = set_cause(cause, "'%s': disk '%s' with "
				    "scheduler '%s' has no tunable '%s'", key,
				    hd->name, cur, key + strlen("host.block."));
			else {
				it = hs_get_item(hs, key, hd->name, path, cur);
				rc = hs_apply_value(hs, it, val, cause);
			}
		} else if ((it = hs_find_item(hs, path, cur)) != NULL)
			rc = hs_restore_value(it, cause);
		free(path);
	}
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
	char		*cur, *bad = NULL;
	int		 rc = 0, pass;

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
	/*
	 * The scheduler first: the tunables' files depend on it. A disk
	 * the arm does not switch has the one the run found (someone else
	 * may have switched it: the watch said so, this puts it back).
	 */
	(void)sit;
	if (want == NULL)
		want = hd->orig_sched;
	if (want != NULL && hs_apply_scheduler(hs, hd, want, cause) == -1)
		return -1;
	if ((cur = blockdev_scheduler(hd->name, NULL, cause)) == NULL)
		return -1;
	/* Written, read back, again until all hold (coupled tunables). */
	for (pass = 0; rc == 0 && pass < HS_APPLY_PASSES; pass++) {
		rc = hs_apply_knobs(hs, hd, ha, mine, cur, cause);
		if (rc == 0 && (bad = hs_disk_unsettled(hs, hd, ha, mine,
		    cur)) == NULL)
			break;
		/* The caller names the arm (run_sample): not here too. */
		if (rc == 0 && pass + 1 == HS_APPLY_PASSES)
			rc = set_cause(cause, "after %d passes: %s",
			    HS_APPLY_PASSES, bad);
		free(bad);
		bad = NULL;
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

	if (hs->jr == NULL)
		return set_cause(cause, "host settings need the host journal");
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

int
hostset_restore_all(struct hostset *hs, char **cause)
{
	struct hostset_report	 rep = HOSTSET_REPORT_INIT;
	struct store_journal	*j = NULL;
	struct undo_mark	 m;
	size_t			 n, i;
	int			 undone = 0, rc;

	if (hs == NULL || hs->jr == NULL)
		return 0;
	/*
	 * A disk someone else switched away from the scheduler the run
	 * found, one the run itself never switched: journaled now, with
	 * what the run found (scheduler and tunables), so that it goes back
	 * as any other: the outsider's scheduler is never left behind.
	 */
	for (i = 0; i < hs->ndisks; i++) {
		struct hs_disk	*hd = &hs->disks[i];
		char		*path = xasprintf("/sys/block/%s/queue/scheduler",
				    hd->name);
		char		*cur = hostset_read(path, 1, NULL);

		if (cur != NULL && hd->orig_sched != NULL &&
		    hs_base_value(hs, path, NULL) != NULL &&
		    strcmp(cur, hd->orig_sched) != 0) {
			char	*why = NULL;

			if (hs_journal(hs, hs_get_item(hs,
			    "host.block.scheduler", hd->name, path, NULL),
			    &why) == -1 || hs_snapshot_knobs(hs, hd,
			    hd->orig_sched, &why) == -1)
				free(why);	/* restore says what is left */
		}
		free(cur);
		free(path);
	}
	if (journal_pending(hs->jr, &j, &n, cause) == -1)
		return -1;
	m.hj = journal_hj(hs->jr);
	m.st = hs->st;
	rc = recover_settings(&m, j, n, &rep, &undone);
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
