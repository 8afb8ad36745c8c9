/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The experiment as plain data (arms, workloads, their keys as written):
 * what the loader fills and every floor above reads. No code lives here.
 */
#ifndef ABBENCH_MODEL_H
#define ABBENCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/options.h"
#include "lib/util.h"

enum run_order {
	ORDER_ALTERNATE,
	ORDER_ABBA,
	ORDER_RANDOM,
	ORDER_SEQUENTIAL,
};

struct arm {
	char		*name;
	int		 line;
	size_t		 index;		/* in experiment.arms */
	struct kv	*kv;		/* every key as written */
	size_t		 nkv;
	/* Bound by arm_opts (harness/core/experiment.c): */
	char		*runtime;	/* NULL if not set */
	struct strvec	 runtime_args;
	struct strvec	 args;		/* argv override; n == 0 if unset */
	char		*description;
	/* From the prefix keys: */
	struct strvec	 env;		/* "NAME=VALUE" from env.NAME keys */
	struct kv	*host;		/* host.* settings, in file order */
	size_t		 nhost;
	/* Limits of the arm's program or container, 0 = none (arm_opts). */
	double		 cpus;
	uint64_t	 memory;
	/* runsc --platform of its sandboxes (wins over the workload's). */
	int		 platform;
	char		*platform_name;	/* NULL if not set */
};

struct workload_ops;
struct exec_ops;

/* The keys every workload has, bound by workload_common_opts. */
struct workload_common {
	char		*type;
	int		 executor;	/* index in exec_types[] */
	int		 executor_set;	/* else ops->default_exec */
	int64_t		 timeout_ns;
	int		 timeout_set;	/* else the experiment's */
	int		 drop_caches;
	int		 drop_caches_set; /* else the experiment's */
	char		*dir;		/* NULL if not set */
	char		*image;		/* NULL if not set */
	char		*description;
	/* runsc --platform of the sandboxes (oci), NULL if not set. */
	int		 platform;
	char		*platform_name;
	/* runsc --debug-log into the run's directory (oci): enum. */
	int		 sandbox_log;
};
/* In the order of the choices of `sandbox-log`. */
enum sandbox_log { SANDBOX_LOG_INFO, SANDBOX_LOG_DEBUG, SANDBOX_LOG_OFF };

struct workload {
	char		*name;		/* NAME or NAME/key=value/... */
	char		*base;		/* NAME */
	char		*type;
	int		 line;		/* of the [workload] header */
	const struct workload_ops *ops;
	const struct exec_ops *exec;
	struct kv	*kv;		/* one value per key after expansion */
	size_t		 nkv;
	struct kv	*axes;		/* matrix keys of this combination */
	size_t		 naxes;
	struct workload_common common;
	/*
	 * The type's options struct (workload_ops.opts_size bytes), filled
	 * by the loader from its table: opts[0] with the workload's values,
	 * opts[1 + arm index] with an arm's for the OPT_ARM keys. Read with
	 * wl_opts(). NULL when the type binds none.
	 */
	void		**opts;
	size_t		 nopts;
	int64_t		 timeout_ns;	/* per sample */
	int		 drop_caches;
	void		*priv;		/* the workload type's state */
};

struct experiment {
	char		*path;
	char		*text;		/* the file as read, stored with the run */
	char		*name;
	char		*pkg;
	char		*description;
	char		*stat_filter;	/* abbench stat's default -filter */
	char		*control;	/* nightly's control arm, or NULL */
	int		 rounds;
	int		 warmup;
	enum run_order	 order;
	uint64_t	 seed;
	int		 seed_set;
	int64_t		 timeout_ns;	/* default per-sample timeout */
	int		 max_failures;	/* 0 = unlimited */
	int		 drop_caches;
	/* Time to verdict (stats/sequential.h): stop = decided. */
	int		 stop_decided;
	int		 max_rounds;
	double		 effect_pct;	/* the smallest change worth finding */
	char		*looks;		/* good-round counts, or NULL */
	int		 equiv_projected;	/* equivalence = projected: half margin
					   and projection (off by default) */
	struct arm	*arms;
	size_t		 narms;
	struct workload	*workloads;	/* after matrix expansion */
	size_t		 nworkloads;
	struct kv	*settings;	/* [experiment] keys as written */
	size_t		 nsettings;
};

#endif
