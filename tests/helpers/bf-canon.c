/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bf-canon: print what Go's benchstat reads from [LABEL=]FILE arguments,
 * one line per value (label, config in order, full name, tidied unit and
 * value in hex, unit and value as written), then the Unit metadata, so
 * that two sets of files can be compared for meaning rather than text
 * (tests of db import/export).
 * Exit 2 on a read error or a syntax error in a line.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "stats/benchfmt.h"

int
main(int argc, char **argv)
{
	struct strvec		 labels = STRVEC_INIT, paths = STRVEC_INIT;
	struct bf_units		*units = bf_units_new();
	struct bf_reader	*rd;
	const struct bf_result	*res;
	const char		*u, *k, *v;
	const char *const	*errs;
	char			*data, *cause = NULL;
	size_t			 len, i, j, nerr;
	int			 a, rc, status = 0;

	import_labels(argv + 1, (size_t)(argc - 1), &labels, &paths);
	for (a = 0; a < argc - 1; a++) {
		if ((data = read_file(paths.v[a], &len, &cause)) == NULL) {
			fprintf(stderr, "bf-canon: %s\n", cause);
			return 2;
		}
		rd = bf_reader_new(paths.v[a], labels.v[a], data, len, units);
		while ((rc = bf_reader_next(rd, &res, &cause)) == 1) {
			for (i = 0; i < res->nvalues; i++) {
				printf("%s|", res->label);
				for (j = 0; j < res->nconfig; j++)
					printf("%s=%s;", res->config[j].key,
					    res->config[j].value);
				printf("|%.*s|%s|%a|%s|%a\n",
				    (int)res->name_len, res->name,
				    res->values[i].unit, res->values[i].value,
				    res->values[i].orig_unit,
				    res->values[i].orig_value);
			}
		}
		errs = bf_reader_errors(rd, &nerr);
		for (i = 0; i < nerr; i++) {
			fprintf(stderr, "%s\n", errs[i]);
			status = 2;
		}
		if (rc < 0) {
			fprintf(stderr, "bf-canon: %s\n", cause);
			return 2;
		}
		bf_reader_free(rd);
		free(data);
	}
	for (i = 0; i < bf_units_count(units); i++) {
		if (bf_units_entry(units, i, &u, &k, &v) == 0)
			printf("Unit %s %s=%s\n", u, k, v);
	}
	bf_units_free(units);
	strvec_clear(&labels);
	strvec_clear(&paths);
	return status;
}
