/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A benchstat filter applied to one row at a time (see rowfilter.h): the
 * row becomes a one-value result, named BENCHMARK, in UNIT, and goes
 * through the filter as benchstat's reader would send it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/benchfmt.h"
#include "stats/benchproc.h"
#include "stats/query.h"
#include "stats/rowfilter.h"
#include "stats/strpool.h"

struct rowfilter {
	struct bp_parser	*parser;
	struct bp_filter	*filter;	/* NULL: keep every row */
};

struct rowfilter *
rowfilter_new(const char *filter, char **cause)
{
	struct rowfilter	*f = xcalloc(1, sizeof(*f));
	struct query_error	 qe;

	if (filter == NULL || *filter == '\0')
		return f;
	memset(&qe, 0, sizeof(qe));
	f->parser = bp_parser_new();
	if (bp_filter_new(f->parser, filter, &f->filter, &qe) < 0) {
		char	*s = query_error_string(&qe);

		set_cause(cause, "stat-filter: %s", s);
		free(s);
		query_error_release(&qe);
		f->filter = NULL;
		rowfilter_free(f);
		return NULL;
	}
	return f;
}

int
rowfilter_keep(struct rowfilter *f, const char *benchmark, const char *unit)
{
	struct bf_result	 r;
	struct bf_value		 val;
	struct bp_res		 res;
	size_t			 kept;

	if (f->filter == NULL)
		return 1;
	/* bp_res_init reads lengths of pooled strings (strpool.h). */
	memset(&r, 0, sizeof(r));
	memset(&val, 0, sizeof(val));
	val.value = val.orig_value = 1;
	val.unit = val.orig_unit = strpool_intern(bp_parser_pool(f->parser),
	    unit, strlen(unit));
	r.label = strpool_intern(bp_parser_pool(f->parser), "", 0);
	r.path = "";
	r.name = benchmark;
	r.name_len = strlen(benchmark);
	r.iters = 1;
	r.values = &val;
	r.nvalues = 1;
	memset(&res, 0, sizeof(res));
	bp_res_new_input(&res);
	bp_res_init(f->parser, &res, &r);
	kept = bp_apply(f->parser, f->filter, &res);
	bp_res_release(&res);
	return kept > 0;
}

void
rowfilter_free(struct rowfilter *f)
{
	if (f == NULL)
		return;
	if (f->filter != NULL)
		bp_filter_free(f->filter);
	if (f->parser != NULL)
		bp_parser_free(f->parser);
	free(f);
}
