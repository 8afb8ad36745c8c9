/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Moving runs between the store and Go's benchmark format (benchfmt), so
 * that Go's benchstat reads abbench results unchanged and benchstat inputs
 * become runs: export writes a run (or one arm of it) as benchfmt text;
 * import reads [LABEL=]FILE arguments, labelled as benchstat labels them,
 * into one run whose arms are the files.
 *
 * Neither prints nor reads the clock. Not thread-safe (like the store).
 */
#ifndef ABBENCH_BENCHFMT_IO_H
#define ABBENCH_BENCHFMT_IO_H

#include <stdint.h>

#include "lib/util.h"

struct store;
struct store_run;
struct sampletab;

/*
 * Append a run's results to out as benchfmt: Unit metadata lines, then
 * for each ok, non-warm-up sample (in plan order; with every arm, the
 * baseline's first, then each arm's) the config block in
 * force as "key: value" lines (written again, after "key:" deletions,
 * whenever it changes, so that benchstat sees the same keys in the same
 * order) and one "Benchmark<name> 1 <value> <unit>" line with the value
 * printed so that it reads back exactly. arm NULL exports every arm into
 * one stream; when the run has several arms each result then also carries
 * an "arm: NAME" config key (for `benchstat -col arm`). The run's metadata
 * (store_key_is_metadata) is left out, except from imported runs, whose
 * keys are the files' own.
 */
int	export_run_benchfmt(struct store *st, int64_t run_id, const char *arm,
	    struct strbuf *out, char **cause);

/*
 * The lines of that export as calls, for a reader that takes them without
 * their text (stats/benchstat.h's benchstat_input_*): units: a Unit line
 * (a unit and its key=value pairs); config: "key: value", or "key:" when
 * value is NULL; result: "Benchmark<name> 1" and its values and units.
 * Names and units come as written (blanks made '_'), values as written
 * before tidying. A call's non-zero return stops the walk.
 */
struct export_sink {
	int	(*units)(void *arg, const char *unit, const char *const *keys,
		    const char *const *values, size_t n);
	int	(*config)(void *arg, const char *key, const char *value);
	int	(*result)(void *arg, const char *name, const double *v,
		    const char *const *units, size_t n);
	void	*arg;
};

/*
 * Walk export_run_benchfmt's lines of run r (arm NULL: every arm) from t,
 * the run's sample table made by sampletab_load_src (every arm, or that
 * arm; no warm-up rounds): 0, 1 when a call stopped it, -1 with *cause
 * on a store error. Reads the run's config and units, not its values.
 */
int	export_walk(struct store *st, const struct store_run *r,
	    const struct sampletab *t, const char *arm,
	    const struct export_sink *sink, char **cause);

/* A sink writing the lines' text to out (export_run_benchfmt's). */
void	export_sink_text(struct export_sink *sk, struct strbuf *out);

/*
 * The file name export -o gives an arm: the arm's name when it already ends
 * in ".txt", else NAME.txt; '/' becomes '_', and an empty or dot name is
 * prefixed with '_'. Malloc'd.
 */
char	*export_arm_filename(const char *arm);

/*
 * benchstat's labels for [LABEL=]FILE arguments: "LABEL=" splits at the
 * first '='; unlabelled paths given more than once become path#0, path#1.
 * labels[i] and paths[i] are malloc'd (free with strvec_clear).
 */
void	import_labels(char *const *args, size_t nargs, struct strvec *labels,
	    struct strvec *paths);

struct import_options {
	const char	*name;		/* run name; NULL = "import" */
	const char	*host;		/* NULL = "" */
	int64_t		 wall_ns;	/* start and end time of the run */
	const char	*abbench_version;
};

/*
 * Read benchfmt files ("-" = standard input) into one new run with status
 * imported, arms = the distinct labels in argument order, every value one
 * sample keeping its config block, and the Unit metadata. Syntax errors in
 * lines do not stop the import (benchstat drops such lines too): they are
 * appended to *warnings (as "PATH:LINE: MSG") and stored with the run. An
 * unreadable file or a fatal read error imports nothing. All in one
 * transaction. Sets *run_id and *nvalues.
 */
int	import_benchfmt(struct store *st, char *const *args, size_t nargs,
	    const struct import_options *opt, int64_t *run_id,
	    int64_t *nvalues, struct strvec *warnings, char **cause);

#endif
