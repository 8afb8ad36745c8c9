/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fleet: one experiment handed to a cluster scheduler as one job per
 * (partition, replica), its state kept in SHARED_DIR/FLEET_ID/fleet.db.
 * Used by cmd-fleet.c only; these functions report to the user (error(),
 * stdout) as the command does, and return EXIT_* codes where noted.
 */
#ifndef ABBENCH_HARNESS_FLEET_H
#define ABBENCH_HARNESS_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "harness/fleet/fleet-sched.h"
#include "results/fleet-store.h"

#define FLEET_DB	"fleet.db"
#define FLEET_SCRIPT	"job"

enum shape_outcome {
	SHAPE_PENDING,
	SHAPE_RUNNING,
	SHAPE_DONE,
	SHAPE_FAILED,
	SHAPE_MISSING,
};

/* One (partition, replica) of a fleet: its latest job and its run. */
struct shape {
	struct fleet_job_rec	*job;
	struct fleet_job_state	 js;
	char			*name;		/* "c4/2" */
	char			*run_uuid;	/* NULL: no run yet */
	char			*run_status;
	char			*run_version;
	int64_t			 nsamples;
	char			*run_moved;	/* "node a -> b at round 3
						 * (...)", "; "-joined; NULL:
						 * never moved */
	enum shape_outcome	 outcome;
};

struct fleet_ctx {
	char				*dir;
	char				*id;
	struct store			*st;
	struct fleet_rec		 f;
	const struct fleet_sched_ops	*sched;
	struct fleet_job_rec		*jobs;
	size_t				 njobs;
	struct shape			*shapes;
	/*
	 * The merge job (f.merge_job) as the scheduler last answered, read
	 * by fleet_refresh with the shapes: a cancelled or failed merge
	 * leaves fleet.db without the runs, and status must say so.
	 */
	struct fleet_job_state		 merge_js;
};

/* Print "fleet: MSG (see abbench fleet --help)"; returns EXIT_USAGE. */
int	 fleet_usage(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* The directory fleets go under: opt, else $ABBENCH_FLEET_DIR (borrowed). */
const char *fleet_base(const char *opt);
/* A new fleet id: the time and random hex (the caller's). */
char	*fleet_new_id(void);
int	 fleet_is_dir(const char *);
int	 fleet_is_file(const char *);
/*
 * Open the fleet sel (a directory, an id under base, or "last") with the
 * store flags; 0, or an EXIT_* code after saying why. fleet_close is safe
 * on a zeroed or closed ctx.
 */
int	 fleet_open(struct fleet_ctx *, const char *sel, const char *base,
	    int flags);
void	 fleet_close(struct fleet_ctx *);
/* Ask the scheduler about every shape (write: record what it said). */
int	 fleet_refresh(struct fleet_ctx *, int write);
/* Write the fixed batch script into dir; *path is the caller's. */
int	 fleet_write_script(const char *dir, char **path, char **cause);
/* Submit one shape's job, or the merge job after ids; *job_id the caller's. */
int	 fleet_submit_shape(struct fleet_ctx *, const char *partition,
	    int replica, int attempt, char **job_id, char **cause);
int	 fleet_submit_merge(struct fleet_ctx *, const char *partition,
	    char *const *ids, size_t nids, char **job_id, char **cause);
/* Poll until no shape is pending or running, then collect; EXIT_*. */
int	 fleet_wait(struct fleet_ctx *, int quiet);
void	 fleet_print_shapes(struct fleet_ctx *);
/* status without FLEET: a line per fleet under base; EXIT_*. */
int	 fleet_list(const char *base);
/* Merge the done shapes' runs into fleet.db; EXIT_OK when all are done. */
int	 fleet_collect_run(struct fleet_ctx *, int quiet, int merge_job);

#endif
