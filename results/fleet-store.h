/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleets in the store: a fleet is one experiment handed to a cluster
 * scheduler as one job per (partition, replica), each writing its own
 * database, merged into the fleet's database. The fleet's database holds
 * what was submitted (fleets, fleet_args: the extra scheduler arguments,
 * fleet_jobs: every attempt of every shape with its job id and the last
 * state and reason the scheduler gave), so that status, collect, cancel
 * and resubmit work from the store alone.
 *
 * Like store.h: never prints, never exits, never reads the clock; 0 / -1
 * with *cause (caller frees). SQL through prepared statements only.
 */
#ifndef ABBENCH_FLEET_STORE_H
#define ABBENCH_FLEET_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct store;

struct fleet_rec {
	char		*id;
	int64_t		 created_wall_ns;
	char		*dir;			/* SHARED_DIR/FLEET_ID */
	char		*experiment_path;	/* absolute */
	char		*experiment_name;
	char		*scheduler;		/* "slurm" */
	char		*abbench_path;		/* the binary jobs run */
	char		*abbench_version;
	char		*time_limit;		/* NULL: the partition's */
	char		*merge_job;		/* NULL until submitted */
	struct strvec	 args;			/* extra scheduler arguments */
	/* [experiment] keys set on every shape's run ("stop=decided"). */
	struct strvec	 run_keys;
};
void	fleet_rec_release(struct fleet_rec *f);

/* One attempt of one shape. */
struct fleet_job_rec {
	char	*partition;
	int	 replica;	/* 1-based */
	int	 attempt;	/* 1-based: resubmits add one */
	char	*job_id;
	char	*db;		/* the shape's database, absolute */
	char	*state;		/* the scheduler's last word, or SUBMITTED */
	char	*reason;
	char	*node;
	int64_t	 updated_wall_ns;
};
void	fleet_jobs_free(struct fleet_job_rec *j, size_t n);

int	fleet_store_add(struct store *st, const struct fleet_rec *f,
	    char **cause);
/* A fleet by id; -1 with *cause when there is none. */
int	fleet_store_get(struct store *st, const char *id, struct fleet_rec *f,
	    char **cause);
/* Every fleet, oldest first; release each, then free the array. */
int	fleet_store_list(struct store *st, struct fleet_rec **out, size_t *n,
	    char **cause);
int	fleet_store_set_merge_job(struct store *st, const char *id,
	    const char *job_id, char **cause);
int	fleet_store_job_add(struct store *st, const char *fleet_id,
	    const struct fleet_job_rec *j, char **cause);
/* What the scheduler last said about job_id. */
int	fleet_store_job_update(struct store *st, const char *fleet_id,
	    const char *job_id, const char *state, const char *reason,
	    const char *node, int64_t wall_ns, char **cause);
/*
 * The jobs of a fleet ordered by partition, replica, attempt; with latest
 * only the last attempt of each shape.
 */
int	fleet_store_jobs(struct store *st, const char *fleet_id, int latest,
	    struct fleet_job_rec **out, size_t *n, char **cause);

#endif
