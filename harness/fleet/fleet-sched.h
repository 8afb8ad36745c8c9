/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cluster schedulers a fleet is handed to, behind one ops table: submit
 * a batch job, read jobs' states (with the scheduler's own state names and
 * reasons), cancel jobs. Only Slurm is built (fleet-slurm.c); a Kubernetes
 * backend (a Job per shape) would be one more file and one more entry in
 * fleet-sched.c's table.
 *
 * Every call runs the scheduler's own commands from argv arrays with a
 * timeout; nothing is built as a shell line. Errors come back in *cause.
 */
#ifndef ABBENCH_FLEET_SCHED_H
#define ABBENCH_FLEET_SCHED_H

#include <stddef.h>

#include "lib/util.h"

/* What one batch job is. */
struct fleet_submit {
	const char	*name;		/* job name */
	const char	*partition;	/* NULL: the cluster's default */
	int		 exclusive;	/* the whole node, no neighbours */
	int		 requeue;	/* may be requeued (node failure) */
	const char	*time_limit;	/* NULL: the partition's */
	const char	*workdir;
	const char	*output;	/* stdout and stderr file pattern */
	/* Runs after every one of these has ended, however (afterany). */
	char *const	*after;
	size_t		 nafter;
	/* Extra scheduler arguments, as given by the user. */
	char *const	*extra;
	size_t		 nextra;
	const char	*script;	/* the batch script (a path) */
	char *const	*args;		/* its arguments */
	size_t		 nargs;
};

/* A job as the scheduler sees it. */
struct fleet_job_state {
	char	*id;
	char	*state;		/* the scheduler's name: PENDING, COMPLETED... */
	char	*reason;	/* why pending or how it ended; "" if none */
	char	*partition;
	char	*node;		/* "" before it starts */
	char	*exit_code;	/* "0:0"; "" if unknown */
	int	 known;		/* 0: the scheduler has forgotten it */
	int	 terminal;	/* ended, will not run again by itself */
	int	 ok;		/* ended successfully */
};
void	fleet_job_state_release(struct fleet_job_state *s);

struct fleet_sched_ops {
	const char	*name;
	/* 0 when the scheduler answers, -1 with why not. */
	int		(*available)(char **cause);
	/* The partitions (queues, node pools) that exist. */
	int		(*partitions)(struct strvec *out, char **cause);
	/* Submit; *job_id is malloc'd. */
	int		(*submit)(const struct fleet_submit *s, char **job_id,
			    char **cause);
	/*
	 * The states of jobs ids[0..n): out[i] for ids[i] (the caller
	 * releases each). A job the scheduler no longer knows has known 0.
	 */
	int		(*state)(char *const *ids, size_t n,
			    struct fleet_job_state *out, char **cause);
	/*
	 * The nodes of a partition that can take work now: their number,
	 * and in *why (malloc'd) every node with its state ("c2-n1 down*,
	 * c2-n2 drained"), for saying why none can.
	 */
	int		(*usable)(const char *partition, size_t *n,
			    char **why, char **cause);
	/* Cancel jobs (those already ended are not an error). */
	int		(*cancel)(char *const *ids, size_t n, char **cause);
};

/* The scheduler named name ("slurm"), or NULL with *cause. */
const struct fleet_sched_ops	*fleet_sched_find(const char *name,
				    char **cause);

extern const struct fleet_sched_ops fleet_sched_slurm;

#endif
