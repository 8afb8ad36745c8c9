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
	struct kv	*kv;		/* every key as written */
	size_t		 nkv;
	/* Parsed for convenience: */
	const char	*runtime;	/* NULL if not set */
	struct strvec	 runtime_args;
	struct strvec	 env;		/* "NAME=VALUE" from env.NAME keys */
	struct strvec	 args;		/* argv override; n == 0 if unset */
	struct kv	*host;		/* host.* settings, in file order */
	size_t		 nhost;
};

struct workload_ops;
struct exec_ops;

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
	int		 rounds;
	int		 warmup;
	enum run_order	 order;
	uint64_t	 seed;
	int		 seed_set;
	int64_t		 timeout_ns;	/* default per-sample timeout */
	int		 max_failures;	/* 0 = unlimited */
	int		 drop_caches;
	struct arm	*arms;
	size_t		 narms;
	struct workload	*workloads;	/* after matrix expansion */
	size_t		 nworkloads;
	struct kv	*settings;	/* [experiment] keys as written */
	size_t		 nsettings;
};

#endif
