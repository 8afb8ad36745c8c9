/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec/perfstat: the `perf` key's counter list and the units counts are
 * stored with (what does not need perf or root; t0590 runs perf).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exec/perfstat.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

static void
parses(const char *text, const char *want)
{
	struct strvec	 ev = STRVEC_INIT;
	struct strbuf	 sb = STRBUF_INIT;
	char		*cause = NULL;
	size_t		 i;

	if (perf_events_parse(text, &ev, &cause) != 0) {
		tap_ok(0, "'%s' parses: %s", text, cause);
		free(cause);
		return;
	}
	for (i = 0; i < ev.n; i++)
		strbuf_addf(&sb, "%s%s", i ? "|" : "", ev.v[i]);
	tap_str_eq(sb.buf, want, "'%s' is %s", text, want);
	strbuf_release(&sb);
	strvec_clear(&ev);
}

static void
refused(const char *text, const char *named)
{
	struct strvec	 ev = STRVEC_INIT;
	char		*cause = NULL;
	int		 rc = perf_events_parse(text, &ev, &cause);

	tap_ok(rc == -1 && cause != NULL && strstr(cause, named) != NULL,
	    "'%s' refused, naming '%s' (%s)", text, named,
	    cause != NULL ? cause : "accepted");
	free(cause);
	strvec_clear(&ev);
}

int
main(void)
{
	char	*u;

	parses("page-faults", "page-faults");
	parses("cycles,instructions,context-switches,page-faults",
	    "cycles|instructions|context-switches|page-faults");
	parses("cycles:u,sched:sched_switch,r01c2",
	    "cycles:u|sched:sched_switch|r01c2");
	refused("page-faults,,cycles", "empty counter name");
	refused(",cycles", "empty counter name");
	refused("cycles,", "empty counter name");
	refused("cycles;rm", "'cycles;rm' is not a counter name");
	refused("", "no counter");
	u = perf_event_unit("page-faults");
	tap_str_eq(u, "page-faults/op", "a count's unit is EVENT/op");
	free(u);
	return tap_done();
}
