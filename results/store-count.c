/*
 * Summaries of a run's samples for `abbench db show`: how many ok
 * measured samples each arm has per benchmark and unit.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

void
store_counts_free(struct store_count *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(c[i].benchmark);
		free(c[i].unit);
		free(c[i].arm);
	}
	free(c);
}

int
store_sample_counts(struct store *st, int64_t run_id,
    struct store_count **out, size_t *n, char **cause)
{
	sqlite3_stmt		*s;
	struct store_count	*c = NULL, *x;
	size_t			 cap = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	s = store_prepare(st, "SELECT benchmark, unit, arm, count(*),"
	    " min(id) AS first FROM samples WHERE run_id = ?1 AND status = 'ok'"
	    " AND warmup = 0 GROUP BY benchmark, unit, arm"
	    " ORDER BY min(first) OVER (PARTITION BY benchmark, unit), arm",
	    cause);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(c, *n, cap);
		x = &c[(*n)++];
		x->benchmark = store_col_str(s, 0);
		x->unit = store_col_str(s, 1);
		x->arm = store_col_str(s, 2);
		x->n = sqlite3_column_int64(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_counts_free(c, *n);
		*n = 0;
		return store_db_error(st, cause, "cannot read samples");
	}
	*out = c;
	return 0;
}
