/* SPDX-License-Identifier: Apache-2.0 */
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

#include "lib/model.h"
#include "lib/util.h"

struct workload_ops;

const char	*run_order_name(enum run_order o);
int		 run_order_parse(const char *s, enum run_order *o);

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
/*
 * The same with [experiment] keys set over the file's ("KEY=VALUE" each,
 * NULL-terminated, e.g. `--timeout=5s` from the command line) before the
 * workloads take their defaults from them.
 */
struct experiment *experiment_load_set(const char *path, char *const *set,
		    char **cause);
struct experiment *experiment_parse_set(const char *path, const char *text,
		    size_t len, char *const *set, char **cause);
void		 experiment_free(struct experiment *e);
/*
 * The text of the experiment `abbench run -- CMD -- CMD` stands for
 * (experiment-inline.c): experiment inline, one command workload named
 * cmd, an arm per argv (argvs[i], NULL-terminated) named A, B, C... in
 * order (A the baseline), each word quoted so that the loader reads the
 * argv back as it is. Malloc'd, or NULL with *cause: no command or more
 * than EXPERIMENT_INLINE_MAX, an empty one, a word with a line break or
 * not UTF-8.
 */
#define EXPERIMENT_INLINE_MAX	26
char		*experiment_inline_text(char **const *argvs, size_t n,
		    char **cause);
/*
 * An argv as one line to show (and store: the args-WHO config line):
 * words joined by a blank, a word with a blank, a quote or a backslash,
 * or an empty one, in 'single quotes'. Allocated.
 */
char		*experiment_argv_line(char *const *argv, size_t n);

/*
 * Set an [experiment] key as the file would (`--timeout=5s` on the command
 * line): checked and stored by the options table; 0, or -1 with *cause.
 */
int		 experiment_set(struct experiment *e, const char *key,
		    const char *value, char **cause);
/*
 * The file of experiment NAME: NAME itself if it is readable or a path;
 * else NAME or NAME.ini in $ABBENCH_EXPERIMENTS, beside the binary
 * (BIN/../share/abbench/experiments, BIN/experiments) or in the installed
 * data directory; else NAME (whose opening then fails). Malloc'd.
 * With the reader of the file (harness/core/experiment-read.c).
 */
char		*experiment_find(const char *name);

/* Help generated from the options tables (harness/core/experiment-help.c): */
struct strbuf;
/* [experiment], [arm] and common [workload] keys, and the types. */
/*
 * BUG() unless every options table ([experiment], [arm], the common and
 * each workload type's keys) fits the struct it fills (opt_table_check).
 */
void		 experiment_tables_check(void);
void		 experiment_help(struct strbuf *out);
/* The keys of one workload type (its own, then every workload's). */
void		 experiment_help_type(const struct workload_ops *ops,
		    struct strbuf *out);
/* experiment_help_type of every type. */
void		 experiment_help_types(struct strbuf *out);
/*
 * The `stat-filter` of an experiment's text as a run stored it (the
 * -filter `abbench stat --db` and `abbench report` apply to the run when
 * given none), read from its [experiment] section without loading the
 * rest; NULL when it has none or the text cannot be read. malloc'd.
 */
char		*experiment_stat_filter(const char *path, const char *text);
/*
 * The `effect` of an experiment's text as a run stored it, the same way:
 * a fraction (its percent / 100), or SEQ_DEFAULT_EFFECT (2%) when it has
 * none or the text cannot be read.
 */
double		 experiment_stored_effect(const char *path, const char *text);
/*
 * The `control` arm of an experiment's text as a run stored it, the same
 * way (harness/core/experiment-stored.c), or NULL. malloc'd.
 */
char		*experiment_stored_control(const char *path, const char *text);
/*
 * The A/A version of e's text (abbench calibrate): [experiment] named
 * NAME.calibration, the first arm as it is, every other arm replaced by
 * the first arm's lines under the names BASE.2, BASE.3... (the same plan,
 * host settings and keys for every arm); every other line as written.
 * Built from the sections the file's reader finds. malloc'd, or NULL with
 * *cause.
 */
char		*experiment_aa_text(const struct experiment *e, char **cause);

/*
 * A run's alpha: its false-positive rate under `stop = decided`, and the
 * level of the MDE and rounds advice every command prints for it
 * (harness/core/pdata.h), which names it beside them.
 */
#define EXPERIMENT_ALPHA	0.05

struct seq_design;
/*
 * The stopping rule of `stop = decided` (stats/sequential.h): alpha 0.05,
 * the experiment's effect, max-rounds and looks. 0, or -1 with *cause.
 */
int		 experiment_design(const struct experiment *e,
		    struct seq_design *d, char **cause);

/* The keys every arm accepts (runtime, runtime-args, cpu, memory, args...). */
extern const struct opt_spec arm_opts[];
/* The keys of [experiment]. */
extern const struct opt_spec experiment_opts[];

#endif
