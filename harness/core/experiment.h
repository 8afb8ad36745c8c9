/*
 * Experiment files: the INI format of DESIGN.md, read with inih.
 *
 *   [experiment]        name, rounds, order, warmup, seed, pkg, timeout,
 *                       max-failures, drop-caches, description
 *   [arm NAME]          one or more; the first is the baseline
 *   [workload NAME]     one or more; `type` selects the workload ops
 *
 * Every key is checked against an options table (the common keys below plus
 * the workload type's own table), so an unknown key or a bad value is an
 * error naming file:line:key. A workload key whose value has several words
 * (and whose option is not a list) makes a matrix: the cartesian product of
 * such keys, each combination a workload named NAME/key=value/...
 */
#ifndef ABBENCH_EXPERIMENT_H
#define ABBENCH_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* One option of an options table (fio's options.c style). */
enum opt_type {
	OPT_STR,	/* any single word (or any text with OPT_LIST) */
	OPT_INT,	/* integer within [min, max] */
	OPT_FLOAT,	/* number within [min, max] */
	OPT_BOOL,	/* 0/1, yes/no, true/false, on/off */
	OPT_DURATION,	/* 20s, 500ms, 2m; stored as the text, checked */
	OPT_SIZE,	/* 4k, 1m, 2g */
	OPT_CHOICE,	/* one of `choices` (space separated) */
};
enum opt_flags {
	OPT_LIST = 1 << 0,	/* several words are one value (argv, flags) */
	OPT_ARM = 1 << 1,	/* may also be set on an arm (arm wins) */
	OPT_NOMATRIX = 1 << 2,	/* several words are an error */
	OPT_REQUIRED = 1 << 3,	/* must be present */
	OPT_PREFIX = 1 << 4,	/* `name` is a prefix: env.NAME, host.sysctl.X */
};
struct opt_spec {
	const char	*name;
	enum opt_type	 type;
	int		 flags;
	const char	*def;		/* default value text, or NULL */
	/* Range of OPT_INT, OPT_FLOAT, OPT_DURATION (s), OPT_SIZE (B). */
	double		 min, max;	/* 0, 0 = any */
	const char	*choices;	/* for OPT_CHOICE */
	const char	*help;
};

struct kv {
	char	*key;
	char	*value;
	int	 line;
};

enum run_order {
	ORDER_ALTERNATE,
	ORDER_ABBA,
	ORDER_RANDOM,
	ORDER_SEQUENTIAL,
};
const char	*run_order_name(enum run_order o);
int		 run_order_parse(const char *s, enum run_order *o);

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

/*
 * Load and check an experiment file. On error *cause is
 * "FILE:LINE: KEY: message" (or "FILE: message" when no line applies).
 * Not thread-safe: inih's options are global and set for each parse.
 */
struct experiment *experiment_load(const char *path, char **cause);
/* The same from text already in memory (path only names it in errors). */
struct experiment *experiment_parse(const char *path, const char *text,
		    size_t len, char **cause);
/* The same with another NULL-terminated table of workload types (tests). */
struct experiment *experiment_parse_types(const char *path, const char *text,
		    size_t len, const struct workload_ops *const *types,
		    char **cause);
void		 experiment_free(struct experiment *e);

/* Value of KEY for a sample of wl under arm: the arm's value if the option
 * allows arms and the arm sets it, else the workload's, else the default. */
const char	*workload_get(const struct workload *wl, const struct arm *arm,
		    const char *key);
/* Typed getters; they never fail on a loaded experiment (values checked). */
long long	 workload_get_int(const struct workload *wl,
		    const struct arm *arm, const char *key, long long def);
double		 workload_get_float(const struct workload *wl,
		    const struct arm *arm, const char *key, double def);
int64_t		 workload_get_duration(const struct workload *wl,
		    const struct arm *arm, const char *key, int64_t def);
uint64_t	 workload_get_size(const struct workload *wl,
		    const struct arm *arm, const char *key, uint64_t def);
int		 workload_get_bool(const struct workload *wl,
		    const struct arm *arm, const char *key, int def);
/* Split a list value into words (argv); the strvec is the caller's. */
int		 workload_get_words(const struct workload *wl,
		    const struct arm *arm, const char *key, struct strvec *out);

const char	*arm_get(const struct arm *arm, const char *key);

/* Check one value against its spec; message without file/line. */
int		 opt_check_value(const struct opt_spec *o, const char *value,
		    char **cause);
/* Print an options table as help text. */
void		 opt_print_help(const struct opt_spec *opts);
/* The entry for KEY of a table ending in a NULL name, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *opts, const char *key);
/* yes/no, true/false, on/off, 1/0 (any case); 0 or -1. */
int		 opt_parse_bool(const char *s, int *out);

/* The keys every workload accepts (type, executor, timeout, ...). */
extern const struct opt_spec workload_common_opts[];
/* The keys every arm accepts (runtime, runtime-args, cpu, memory, args...). */
extern const struct opt_spec arm_opts[];
/* The keys of [experiment]. */
extern const struct opt_spec experiment_opts[];

#endif
