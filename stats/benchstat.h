/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `abbench stat` pipeline (Go benchstat's main, spec §1-§11): parse
 * and validate the options, read inputs given as buffers, and render the
 * tables.  Output goes to two buffers, stdout and stderr text; the caller
 * prints them.  Used by harness/cmd-stat.c for files, stdin and the
 * store (`--db`), whose runs come in as the lines of their export, given
 * as calls rather than text (benchstat_input_config and the others).
 */
#ifndef ABBENCH_STATS_BENCHSTAT_H
#define ABBENCH_STATS_BENCHSTAT_H

#include <stddef.h>

#include "lib/util.h"

struct benchstat_opts {
	const char	*table;		/* ".config" */
	const char	*row;		/* ".fullname" */
	const char	*col;		/* ".file" */
	const char	*ignore;	/* "" */
	const char	*filter;	/* "*" */
	double		 alpha;		/* 0.05 */
	double		 confidence;	/* 0.95 */
	const char	*format;	/* "text", "csv"; abbench's "json",
					 * "markdown" */
	int		 parse_only;	/* read inputs, build nothing */
};

/* Fill o with benchstat's defaults. */
void	 benchstat_opts_init(struct benchstat_opts *o);

struct benchstat;

/*
 * Validate the options in benchstat's order (-filter, projections,
 * -alpha, -confidence, -format).  NULL with *cause set to the message
 * benchstat prints after "benchstat: " on error.
 */
struct benchstat *benchstat_new(const struct benchstat_opts *o, char **cause);
void		 benchstat_free(struct benchstat *bs);

/*
 * Read one input (benchfmt text in data[0..len)): label is its .file
 * value, path names it in messages.  Syntax errors are appended to the
 * stderr text.  -1 with *cause on a fatal read error
 * ("PATH:N: bufio.Scanner: token too long"): the caller must then print
 * the stderr text and the cause, and no tables.
 */
int		 benchstat_add(struct benchstat *bs, const char *label,
		    const char *path, const char *data, size_t len,
		    char **cause);

/*
 * The same, streamed: benchstat_input_feed hands over the next len bytes
 * of the input (eof: the last ones) and sets *used to how many it took;
 * the rest (an incomplete line) must come again at the start of the next
 * feed.  -1 with *cause on a fatal read error, as for benchstat_add.
 * benchstat_input_line: the lines read so far.
 */
struct benchstat_input;
struct benchstat_input *benchstat_input_new(struct benchstat *bs,
		    const char *label, const char *path);
int		 benchstat_input_feed(struct benchstat_input *in,
		    const char *data, size_t len, int eof, size_t *used,
		    char **cause);
int		 benchstat_input_line(const struct benchstat_input *in);
/*
 * An input given as its lines rather than their text (benchfmt.h's
 * bf_reader_put_*: only for lines the bf_*_plain tests pass): the same
 * tables and messages as the text would give.
 */
void		 benchstat_input_config(struct benchstat_input *in,
		    const char *key, const char *value);
void		 benchstat_input_units(struct benchstat_input *in,
		    const char *unit, const char *const *keys,
		    const char *const *values, size_t n);
void		 benchstat_input_result(struct benchstat_input *in,
		    const char *name, const double *v,
		    const char *const *units, size_t n);
void		 benchstat_input_free(struct benchstat_input *in);

/* Append the syntax errors collected so far to err and forget them. */
void		 benchstat_take_stderr(struct benchstat *bs,
		    struct strbuf *err);

/*
 * Render the tables: stdout text to out, stderr text (remaining syntax
 * errors, then CSV warnings) to err.  Returns 0, or 2 where Go's
 * benchstat panics (its first line is appended to err, nothing to out):
 * the exit status benchstat has then.
 */
int		 benchstat_finish(struct benchstat *bs, struct strbuf *out,
		    struct strbuf *err);

/*
 * benchfmt.Files labelling of command-line inputs: "label=path" splits at
 * the first '=', unlabelled paths given more than once become "path#0",
 * "path#1"...  labels[i] and paths[i] are malloc'd (free with
 * strvec_clear).
 */
void		 benchstat_labels(char *const *args, size_t n,
		    struct strvec *labels, struct strvec *paths);

#endif
