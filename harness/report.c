/*
 * The report of a run (see report.h).
 */
#include "config.h"

#include <string.h>

#include "harness/report.h"
#include "harness/util.h"

enum report_format
report_format_of(const char *path)
{
	size_t	n = strlen(path);

	if ((n >= 3 && strcmp(path + n - 3, ".md") == 0) ||
	    (n >= 9 && strcmp(path + n - 9, ".markdown") == 0))
		return REPORT_MARKDOWN;
	return REPORT_HTML;
}

int
report_write(struct store *st, int64_t run_id,
    const struct report_options *o, char **cause)
{
	(void)st;
	(void)run_id;
	(void)o;
	return set_cause(cause, "reports are not implemented yet");
}
