/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Projections and filters over benchmark results (x/perf benchproc,
 * spec §3, §4): extracting keys such as .name, /format or goos from a
 * result, interning the resulting key tuples, tracking observation order
 * and sorting keys the way benchstat does.  No I/O; not thread-safe.
 *
 * All strings are canonical pointers into the parser's string pool, so
 * that equal values compare equal by address.
 */
#ifndef ABBENCH_STATS_BENCHPROC_H
#define ABBENCH_STATS_BENCHPROC_H

#include <stddef.h>
#include <stdint.h>

#include "stats/benchfmt.h"
#include "stats/query.h"
#include "stats/strpool.h"

/* A result with its strings made canonical (see bp_res_init). */
struct bp_res {
	const struct bf_result	*r;
	const char		*label;
	const char		*fullname;
	const char		**ckeys;	/* file config, canonical */
	const char		**cvals;
	size_t			 nconfig;
	const struct bf_value	*values;	/* after filtering */
	size_t			 nvalues;
	const char		**units;	/* canonical tidied units */
	const char		*fullx;		/* cache: excluded fullname */
	struct bf_value		*own;		/* filtered copy of values */
	size_t			 capown;
	/* The reader's pointers the canonical config was made from. */
	const char		**rkeys;
	const char		**rvals;
	size_t			 nvalid;
	size_t			 capconfig;
	const char		*rlabel;
	/* The reader's unit pointers and their canonical units. */
	const char		**runits;
	const char		**cunits;
	size_t			 nuvalid;
	size_t			 capunits;
};

enum bp_order {
	BP_FIRST,		/* observation order */
	BP_FIXED,		/* key@(a b c) */
	BP_ALPHA,
	BP_NUM
};

struct bp_field {
	const char		*name;
	int			 idx;		/* -1 for a tuple (.config) */
	struct bp_field		**sub;
	size_t			 nsub;
	enum bp_order		 order;
	int			 track;		/* record observation order */
	struct u64map		 obs;		/* value -> index + 1 */
	size_t			 nobs;
	struct u64map		*fixed;		/* value -> index + 1 */
};

/* An interned key: equal tuples of one projection share one bp_key. */
struct bp_key {
	const char	**vals;		/* by field idx; trailing "" trimmed */
	uint32_t	 nvals;
	uint32_t	 id;		/* 0, 1, ... in creation order */
	uint64_t	 hash;
};

struct bp_parser;
struct bp_proj;

struct bp_parser *bp_parser_new(void);
void		 bp_parser_free(struct bp_parser *p);
struct strpool	*bp_parser_pool(struct bp_parser *p);

/*
 * ProjectionParser.Parse (with_unit: ParseWithUnit).  Parsing several
 * projections with one parser makes their specific keys exclusive of
 * .config and .fullname.  -1 with *err on a syntax error.  The
 * projection is owned by the parser.
 */
int		 bp_parse(struct bp_parser *p, const char *q, int with_unit,
		    struct bp_proj **out, struct query_error *err);
/* ProjectionParser.Residue. */
struct bp_proj	*bp_residue(struct bp_parser *p);

/* A compiled -filter. */
struct bp_filter;
int		 bp_filter_new(struct bp_parser *p, const char *q,
		    struct bp_filter **out, struct query_error *err);
void		 bp_filter_free(struct bp_filter *f);

/*
 * Make a result canonical: label, name and config strings interned.
 * Config strings unchanged since the previous result of the same reader
 * are reused without hashing.
 * Values are copied by reference; units interned.
 */
void		 bp_res_init(struct bp_parser *p, struct bp_res *res,
		    const struct bf_result *r);
void		 bp_res_release(struct bp_res *res);
/* Call before the first result of each new reader. */
void		 bp_res_new_input(struct bp_res *res);

/*
 * Apply the filter and the fixed-order filters of the parsed
 * projections.  Keeps the matching values in res (values/units arrays
 * rewritten in place); returns the number kept (0 = drop the result).
 */
size_t		 bp_apply(struct bp_parser *p, struct bp_filter *f,
		    struct bp_res *res);

/* Project a result into a key (Projection.Project). */
struct bp_key	*bp_project(struct bp_proj *pr, struct bp_res *res);
/*
 * Projection.ProjectValues: keys[i] for value i (.unit varies); keys must
 * have room for res->nvalues.
 */
void		 bp_project_values(struct bp_proj *pr, struct bp_res *res,
		    struct bp_key **keys);

/* FlattenedFields (valid until more results are projected). */
struct bp_field	*const *bp_flat_fields(struct bp_proj *pr, size_t *n);
/* The .unit field of a projection parsed with_unit, else NULL. */
struct bp_field	*bp_unit_field(struct bp_proj *pr);
/*
 * Key.Get(field): the value or "".  Values, field names and the strings
 * below are pooled: their length is strpool_len() (NUL bytes kept).
 */
const char	*bp_key_get(struct bp_proj *pr, const struct bp_key *k,
		    const struct bp_field *f);
/* Sort keys of one projection by Key.Less. */
void		 bp_sort_keys(struct bp_proj *pr, struct bp_key **keys,
		    size_t n);
/*
 * Key.StringValues: non-empty values in flattened order, space-joined;
 * pooled (valid until the parser is freed).
 */
const char	*bp_key_string_values(struct bp_proj *pr,
		    const struct bp_key *k);
/*
 * NonSingularFields: names of flattened fields in which the keys differ,
 * joined by ", " (NULL if none; pooled).
 */
const char	*bp_nonsingular(struct bp_proj *pr,
		    struct bp_key *const *keys, size_t n);

#endif
