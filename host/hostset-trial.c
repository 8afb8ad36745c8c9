/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Values only the kernel can judge, tried before the run's row exists
 * with the host lock held (hostset.h): sysctls without a documented
 * range, and I/O scheduler tunables (clamped, overflowed, refused, or
 * rounded to the tick beyond the tolerance). A value the kernel does not
 * take is an input error at FILE:LINE: KEY; everything tried is journaled
 * first and put back at once.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/hostset.h"
#include "host/hostset-int.h"
#include "host/hostset-state.h"
#include "host/journal.h"
#include "host/recover.h"
#include "lib/model.h"
#include "lib/util.h"
#include "results/store.h"
/*
 * A sysctl without a documented range: the kernel alone knows whether it
 * takes the value (vm.swappiness = 1000 would fail with EINVAL only when
 * the first arm applies it, after the run's row exists). Each is written
 * once before the run starts, journaled first as every change is (a kill
 * in between is undone by the next restore), and put back at once.
 */
int
hostset_trial(const struct experiment *e, struct journal *jr, char **cause)
{
	struct strvec	 done = STRVEC_INIT;
	char		 uuid[37];
	size_t		 a, i;
	int		 rc = 0, attached = 0;

	snprintf(uuid, sizeof uuid, "trial-%ld", (long)getpid());
	for (a = 0; rc == 0 && a < e->narms; a++) {
		const struct arm *arm = &e->arms[a];

		for (i = 0; rc == 0 && i < arm->nhost; i++) {
			const struct kv	*h = &arm->host[i];
			const struct hostset_op *op = hostset_find_op(h->key);
			long long	 min, max;
			char		*path, *orig, *why = NULL, *pair;
			int64_t		 id;

			if (op == NULL ||
			    !str_startswith(h->key, "host.sysctl.") ||
			    hostset_sysctl_range(h->key +
			    strlen("host.sysctl."), &min, &max))
				continue;
			pair = xasprintf("%s=%s", h->key, h->value);
			if (strvec_has(&done, pair)) {
				free(pair);
				continue;
			}
			strvec_push_nodup(&done, pair);
			path = op->path(h->key, NULL);
			if ((orig = hostset_read(path, 0, &why)) == NULL) {
				free(why);
				free(path);
				continue;	/* write-only: the run will tell */
			}
			if (hostset_same(orig, h->value)) {
				free(orig);
				free(path);
				continue;
			}
			if (!attached && journal_attach(jr, NULL, 0, uuid,
			    "(trial of sysctl values)", cause) == -1) {
				free(orig);
				free(path);
				rc = -1;
				break;
			}
			attached = 1;
			if ((id = journal_add(jr, h->key, "", path, orig,
			    cause)) == -1) {
				free(orig);
				free(path);
				rc = -1;
				break;
			}
			if (write_small_file(path, h->value, &why) == -1) {
				rc = set_cause(cause, "%s:%d: %s: arm '%s': the "
				    "kernel refuses '%s': %s", e->path,
				    h->line, h->key, arm->name, h->value, why);
				free(why);
				why = NULL;
			} else if (write_small_file(path, orig, &why) == -1) {
				/* Left for restore: the entry stays pending. */
				rc = set_cause(cause, "%s:%d: %s: cannot put "
				    "back '%s' after trying '%s': %s", e->path,
				    h->line, h->key, orig, h->value, why);
				free(why);
				free(orig);
				free(path);
				break;
			}
			(void)journal_set_state(jr, id, JOURNAL_RESTORED, NULL,
			    NULL);
			free(orig);
			free(path);
		}
	}
	if (attached)
		journal_detach(jr);
	strvec_clear(&done);
	return rc;
}

/* The line of an arm's host key (0 when not there). */
static int
hs_arm_line(const struct arm *arm, const char *key)
{
	size_t	i;

	for (i = 0; i < arm->nhost; i++)
		if (strcmp(arm->host[i].key, key) == 0)
			return arm->host[i].line;
	return 0;
}

/*
 * One arm's tunables on one disk whose scheduler is the one they belong
 * to: written, read back, judged (hostset_knob_same). *bad gets the first
 * that the kernel refuses or does not keep, as an input error.
 */
static int
hs_trial_disk(struct hostset *hs, const struct experiment *e,
    const struct arm *arm, const struct hs_arm *ha, struct hs_disk *hd,
    const char *sched, char **bad, char **cause)
{
	size_t	k;
	int	rc = 0;

	/* Every tunable first: the kernel couples some (bfq). */
	if (hs_snapshot_knobs(hs, hd, sched, cause) == -1)
		return -1;
	for (k = 0; rc == 0 && *bad == NULL && k < ha->keys.n; k++) {
		const char	*key = ha->keys.v[k], *val = ha->values.v[k];
		char		*path, *now, *why = NULL;
		struct hs_item	*it;

		if (!str_startswith(key, "host.block.") ||
		    strcmp(key, "host.block.scheduler") == 0)
			continue;
		path = xasprintf("/sys/block/%s/queue/iosched/%s", hd->name,
		    key + strlen("host.block."));
		it = hs_get_item(hs, key, hd->name, path, sched);
		free(path);
		if ((rc = hs_journal(hs, it, cause)) == -1)
			break;
		if (write_small_file(it->path, val, &why) == -1) {
			*bad = xasprintf("%s:%d: %s: arm '%s': the kernel "
			    "refuses '%s' on disk '%s': %s", e->path,
			    hs_arm_line(arm, key), key, arm->name, val,
			    hd->name, why);
			free(why);
			break;
		}
		(void)journal_set_state(hs->jr, it->jid, JOURNAL_APPLIED, val,
		    NULL);
		now = hostset_read(it->path, 0, NULL);
		if (!hostset_knob_same(key, now, val))
			*bad = xasprintf("%s:%d: %s: arm '%s': disk '%s' keeps "
			    "'%s' as '%s' (tick-based tunables hold within "
			    "%d ms above the value)", e->path,
			    hs_arm_line(arm, key), key, arm->name, hd->name,
			    val, now != NULL ? now : "unreadable",
			    HOSTSET_TICK_MS);
		free(now);
	}
	return rc;
}

int
hostset_trial_block(struct hostset *hs, const struct experiment *e,
    struct journal *jr, char **cause)
{
	struct hostset_report	 rep = HOSTSET_REPORT_INIT;
	struct store_journal	*j = NULL;
	struct undo_mark	 m;
	struct journal		*was = hs->jr;
	char			 uuid[40], *bad = NULL, *cur;
	size_t			 a, i, n = 0;
	int			 rc = 0, attached = 0, undone = 0;

	snprintf(uuid, sizeof uuid, "trial-block-%ld", (long)getpid());
	hs->jr = jr;
	for (a = 0; rc == 0 && bad == NULL && a < hs->narms; a++) {
		const struct hs_arm	*ha = &hs->arms[a];
		const char		*want = hs_arm_value(ha,
					    "host.block.scheduler");

		for (i = 0; rc == 0 && bad == NULL && i < ha->disks.n; i++) {
			struct hs_disk	*hd = hs_find_disk(hs, ha->disks.v[i]);
			size_t		 k, knobs = 0;

			for (k = 0; k < ha->keys.n; k++)
				knobs += str_startswith(ha->keys.v[k],
				    "host.block.") && strcmp(ha->keys.v[k],
				    "host.block.scheduler") != 0;
			if (hd == NULL || knobs == 0 || (cur =
			    blockdev_scheduler(hd->name, NULL, NULL)) == NULL)
				continue;
			/* Another scheduler's: judged when applied. */
			if ((want == NULL || strcmp(want, cur) == 0) &&
			    strcmp(cur, hd->orig_sched) == 0) {
				if (!attached && (rc = journal_attach(jr, NULL,
				    0, uuid, "(trial of block tunables)",
				    cause)) == -1) {
					free(cur);
					break;
				}
				attached = 1;
				rc = hs_trial_disk(hs, e, &e->arms[a], ha, hd,
				    cur, &bad, cause);
			}
			free(cur);
		}
	}
	/* Everything back, as restore would (one tunable at a time). */
	if (attached && journal_pending(jr, &j, &n, NULL) == 0) {
		m.hj = journal_hj(jr);
		m.st = NULL;
		if (recover_settings(&m, j, n, &rep, &undone) == -1 && rc == 0)
			rc = set_cause(cause, "after trying the block "
			    "tunables: %s", rep.failed.n > 0 ?
			    rep.failed.v[0] : "?");
		store_journal_free(j, n);
	}
	hostset_report_release(&rep);
	if (attached)
		journal_detach(jr);
	/* The run journals afresh, as its own. */
	for (i = 0; i < hs->nitems; i++)
		hs->items[i].jid = 0;
	hs->jr = was;
	if (bad != NULL) {
		if (rc == 0)
			rc = set_cause(cause, "%s", bad);
		free(bad);
	}
	return rc;
}
