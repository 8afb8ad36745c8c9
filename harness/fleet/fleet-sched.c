/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of fleet schedulers (fleet-sched.h) and their lookup.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "harness/fleet/fleet-sched.h"
#include "lib/util.h"

static const struct fleet_sched_ops *const fleet_scheds[] = {
	&fleet_sched_slurm,
	NULL
};

const struct fleet_sched_ops *
fleet_sched_find(const char *name, char **cause)
{
	size_t	i;

	for (i = 0; fleet_scheds[i] != NULL; i++) {
		const struct fleet_sched_ops *o = fleet_scheds[i];

		if (strcmp(o->name, name) != 0)
			continue;
		if (o->submit == NULL || o->state == NULL ||
		    o->cancel == NULL || o->available == NULL)
			BUG("scheduler '%s' lacks an operation", name);
		return o;
	}
	set_cause(cause, "unknown scheduler '%s' (slurm)", name);
	return NULL;
}

void
fleet_job_state_release(struct fleet_job_state *s)
{
	free(s->id);
	free(s->state);
	free(s->reason);
	free(s->partition);
	free(s->node);
	free(s->exit_code);
	memset(s, 0, sizeof *s);
}
