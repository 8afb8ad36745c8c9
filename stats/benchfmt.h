/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Go benchmark format (benchfmt) reader, as Go's benchstat reads it
 * (benchstat-spec.md §2): benchmark result lines, "key: value" file
 * configuration lines and "Unit" metadata lines, read from a buffer in
 * memory.  Used by `abbench stat`, `db import` and the gobench workload.
 *
 * A reader never prints and never reads files: the caller hands it the
 * bytes of one input.  Strings in results are interned and stay valid
 * until the reader is freed (configuration and unit strings) or until the
 * next bf_reader_next() call (values array, name).
 */
#ifndef ABBENCH_STATS_BENCHFMT_H
#define ABBENCH_STATS_BENCHFMT_H

#include <stddef.h>

/* One file configuration entry ("goos: linux"). */
struct bf_config {
	const char	*key;
	const char	*value;
};

/* One measurement: tidied (sec/op, B/s, ...) and as written. */
struct bf_value {
	double		 value;		/* orig_value times the tidy factor */
	const char	*unit;		/* tidied; == orig_unit if unchanged */
	double		 orig_value;
	const char	*orig_unit;
};

struct bf_result {
	const char	*label;		/* the .file value */
	const char	*path;		/* for messages */
	int		 line;		/* 1-based */
	/*
	 * The file configuration in effect, in benchstat's order (deleting a
	 * key swaps the last entry into its place).  Borrowed; valid until
	 * the next bf_reader_next() call.
	 */
	const struct bf_config *config;
	size_t		 nconfig;
	const char	*name;		/* full name after "Benchmark", NUL-ended */
	size_t		 name_len;
	long long	 iters;
	const struct bf_value *values;
	size_t		 nvalues;
};

/*
 * Unit metadata ("Unit ns/op assume=exact"): (tidied unit, key) -> value.
 * Global across all the inputs read with the same struct bf_units.
 */
struct bf_units;

struct bf_units	*bf_units_new(void);
void		 bf_units_free(struct bf_units *u);
/*
 * The value for (tidied unit[0..unitlen), key), or NULL.  Borrowed.  The
 * strings of the reader's results, units and values are pooled: their
 * lengths are strpool_len() (they may hold NUL bytes).
 */
const char	*bf_units_get(const struct bf_units *u, const char *unit,
		    size_t unitlen, const char *key);
/* Entries in insertion order; 0 and borrowed strings while i < count. */
size_t		 bf_units_count(const struct bf_units *u);
int		 bf_units_entry(const struct bf_units *u, size_t i,
		    const char **unit, const char **key, const char **value);

struct bf_reader;

/*
 * A reader over data[0..len) (not copied: it must outlive the reader).
 * path names the input in messages, label is the .file value.  units may
 * be shared between readers; NULL means a private table.
 */
struct bf_reader *bf_reader_new(const char *path, const char *label,
		    const char *data, size_t len, struct bf_units *units);
void		 bf_reader_free(struct bf_reader *r);

/*
 * Next result: 1 with *res valid until the next call, 0 at the end, -1 on
 * a fatal error with *cause set ("PATH:N: bufio.Scanner: token too long",
 * N = lines read before it).  Syntax errors do not stop reading; they
 * are collected (see below) and the offending line is dropped.
 */
int		 bf_reader_next(struct bf_reader *r,
		    const struct bf_result **res, char **cause);

/*
 * Streaming: hand the reader the next bytes of its input instead (the
 * buffer of bf_reader_new is then replaced); more != 0 says that bytes
 * follow.  bf_reader_next then returns 2 when it needs them: the bytes
 * from bf_reader_consumed() on (an incomplete line) must be fed again,
 * followed by the new ones.  Lines and errors count on across feeds.
 */
void		 bf_reader_feed(struct bf_reader *r, const char *data,
		    size_t len, int more);
size_t		 bf_reader_consumed(const struct bf_reader *r);
/* Lines read so far. */
int		 bf_reader_line(const struct bf_reader *r);
/*
 * Lines of BF_MAX_LINE bytes or more (bufio.MaxScanTokenSize, 64 KiB) are
 * skipped (counted as lines) instead of ending the read with bufio.Scanner's
 * "token too long": for a program's output (gobench), where one long line
 * of a log must not cost the sample its results. stat and import keep
 * benchstat's error.
 */
#define BF_MAX_LINE	(64 * 1024)
void		 bf_reader_skip_long_lines(struct bf_reader *r);

/*
 * Syntax errors ("PATH:LINE: MSG") collected since the last clear, in the
 * order found.  Take them after every bf_reader_next() call to report
 * them in benchstat's order.  Borrowed until bf_reader_clear_errors().
 */
const char *const *bf_reader_errors(const struct bf_reader *r, size_t *n);
/* The byte length of error i (a message may hold NUL bytes of a unit). */
size_t		 bf_reader_error_len(const struct bf_reader *r, size_t i);
void		 bf_reader_clear_errors(struct bf_reader *r);

/*
 * Structured input: what the reader does with the line a writer of
 * benchfmt (the store's export) prints, without the text. Each counts as
 * one line (for the line numbers of messages).
 *
 * bf_reader_put_config: the line "key: value", or "key:" (value NULL or
 * ""); bf_reader_put_units: "Unit UNIT k=v..."; bf_reader_put_result:
 * "Benchmark<name> 1 v unit...", the result returned as bf_reader_next's.
 *
 * They give what reading the line gives when the line is plain, which the
 * bf_*_plain tests say: each field one field (no space inside), no config
 * line that would read as a result or Unit line, no line too long, values
 * that read back as themselves. A writer tests first and writes text when
 * a line is not plain.
 */
void		 bf_reader_put_config(struct bf_reader *r, const char *key,
		    const char *value);
void		 bf_reader_put_units(struct bf_reader *r, const char *unit,
		    const char *const *keys, const char *const *values,
		    size_t n);
const struct bf_result *bf_reader_put_result(struct bf_reader *r,
		    const char *name, const double *v,
		    const char *const *units, size_t n);
int		 bf_field_plain(const char *s, size_t len);
int		 bf_config_plain(const char *key, const char *value);
int		 bf_units_plain(const char *unit, const char *const *keys,
		    const char *const *values, size_t n);
int		 bf_result_plain(const char *name, const double *v,
		    const char *const *units, size_t n);
/* Lines read from text by every reader so far (for tests). */
extern unsigned long bf_text_lines;

/*
 * Benchmark name helpers (spec §2.7) on name[0..len).
 * bf_name_base: length of the base name (.name).
 * bf_name_procs: length of the trailing "-N" GOMAXPROCS part (0 if none);
 * it starts at name + len - result.
 * bf_name_key: the value of sub-benchmark key "/key" (key includes the
 * leading '/'), "/gomaxprocs" included; 1 and *val, *vlen if present,
 * 0 if absent.
 */
size_t		 bf_name_base(const char *name, size_t len);
size_t		 bf_name_procs(const char *name, size_t len);
int		 bf_name_key(const char *name, size_t len, const char *key,
		    size_t keylen, const char **val, size_t *vlen);

#endif
