/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the lifecycle workloads (startup, idle-memory, checkpoint) share:
 * benchmark names with optional tags, a scratch directory per workload
 * (journaled), and the container spec of an arm for an executor's
 * runtime steps (exec_ops.steps).
 */
#ifndef ABBENCH_LIFECYCLE_H
#define ABBENCH_LIFECYCLE_H

#include <stdint.h>

#include "lib/model.h"
#include "lib/util.h"

struct run_ctx;
struct exec_spec;

/* State every lifecycle workload keeps in wl->priv. */
struct lc_state {
	char		*workdir;	/* /tmp/abbench-<run>-<n> */
	int64_t		 workdir_journal;
	unsigned	 counter;	/* unique container ids */
	char		*state_dir;	/* the runtime's, in the workdir */
};

/* The workload's state, made on first use. */
struct lc_state	*lc_state(struct workload *wl);
/* The scratch directory (made and journaled on first use). */
const char	*lc_workdir(struct run_ctx *ctx, struct workload *wl,
		    char **cause);
/* A new container id: <run cgroup name>-<tag><n>. malloc'd. */
char		*lc_new_id(struct run_ctx *ctx, struct workload *wl,
		    const char *tag);
/* Remove the scratch directory; safe twice. */
void		 lc_cleanup(struct run_ctx *ctx, struct workload *wl);

/*
 * METRIC[/tag...][/axes]: the tags asked for with `name-tags` (vcpus,
 * containers, quota, touch) then the workload's matrix axes, so a row
 * reads like the seed reports' (ContainerNonReclaimableMem/vcpus=4/
 * containers=20, GoferMem/vcpus=2/noquota). malloc'd.
 */
char		*lc_name(const struct workload *wl, const struct arm *arm,
		    const char *metric);
/*
 * A gVisor //test/benchmarks row (StartupEmpty, CheckpointNginx): METRIC
 * and the matrix axes, no tags (the -N suffix says the host's shape).
 */
char		*lc_name_go(const struct workload *wl, const char *metric);
/* The matrix axes as /key=value (quota=none as /noquota). */
void		 lc_add_axes(struct strbuf *sb, const struct workload *wl);

/*
 * The spec of a container of the arm running argv, for the executor's
 * runtime steps: the arm's runtime (NULL: the executor's) and its global
 * flags, the runtime's state in the workdir, the image of lc_rootfs.
 * spec is zeroed first; it borrows from wl and arm.
 */
int		 lc_steps_spec(struct run_ctx *ctx, struct workload *wl,
		    const struct arm *arm, char *const *argv,
		    struct exec_spec *spec, char **cause);
/* The image of a runtime-steps workload as written (a rootfs path or an
 * image name, which the executor maps), NULL: its default. */
const char	*lc_rootfs(const struct workload *wl, const struct arm *arm);

/* The idle program: `cmd`, else touchmem TOUCH (the `touch` key; see
 * LC_IDLE_CMD_OPTS). */
void		 lc_idle_cmd(const struct workload *wl,
		    const struct arm *arm, struct strvec *cmd);

/* Sleep up to ns, returning early (-1) when the run must stop or the
 * sample's deadline comes first. */
int		 lc_sleep(struct run_ctx *ctx, int64_t ns);
/*
 * How long one runtime or docker call of the sample may take: what is
 * left of the sample's timeout, at most cap (the call's own limit).
 */
int64_t		 lc_call_ns(const struct run_ctx *ctx, int64_t cap);
/* Has the sample's timeout passed (a failed call was cut by it)? */
int		 lc_past_deadline(const struct run_ctx *ctx);

/* Option entries every lifecycle workload takes. */
/*
 * The keys the lifecycle helpers read: the first member of each
 * lifecycle type's options struct (as `lc`), so that they find them in
 * whichever type's struct wl_opts() returns. The texts are the values as
 * written, for the name tags.
 */
struct lc_opts {
	struct strvec	 name_tags;
	struct strvec	 cmd;		/* the container's program */
	int		 cmd_set;
	uint64_t	 touch;
	char		*touch_text;
	char		*containers_text;	/* types that have them */
	char		*quota_text;
};
/* The lifecycle keys of the struct of wl under arm. */
const struct lc_opts *lc_opts(const struct workload *wl,
		    const struct arm *arm);
#define LC_OFF(type, member)	OPT_AT(type, lc.member)

/* The name-tags key of options struct TYPE. */
#define LC_NAME_TAGS_OPT(type) \
	OPT_WORDS("name-tags", LC_OFF(type, name_tags), NULL, \
	    "tags added to benchmark names, in this order: vcpus " \
	    "(vcpus=N of the host), containers, quota, touch")

/* The keys of lc_idle_cmd, in options struct TYPE. */
#define LC_IDLE_CMD_OPTS(type) \
	OPT_SIZE("touch", LC_OFF(type, touch), "0", 0, 0, \
	    "memory the idle program touches (touchmem SIZE)", \
	    .flags = OPT_ARM, .text = LC_OFF(type, touch_text)), \
	OPT_WORDS("cmd", LC_OFF(type, cmd), NULL, \
	    "the idle program (default: touchmem TOUCH)", \
	    .flags = OPT_ARM, .given = LC_OFF(type, cmd_set))

#endif
