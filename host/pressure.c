/* SPDX-License-Identifier: Apache-2.0 */
/* The share of a stretch of time in which tasks stalled: see pressure.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/pressure.h"
#include "lib/util.h"

static const char *const psi_names[PSI_NRES] = { "cpu", "io", "memory" };

static long long
psi_total(const char *line)
{
	const char	*t = strstr(line, " total=");
	char		*end;
	long long	 v;

	if (t == NULL)
		return -1;
	v = strtoll(t + 7, &end, 10);
	if (end == t + 7 || v < 0 || (*end != '\0' && *end != '\n'))
		return -1;
	return v;
}

void
psi_parse(const char *text, long long *some, long long *full)
{
	const char	*p = text;

	*some = *full = -1;
	while (p != NULL && *p != '\0') {
		if (strncmp(p, "some ", 5) == 0)
			*some = psi_total(p);
		else if (strncmp(p, "full ", 5) == 0)
			*full = psi_total(p);
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
}

double
psi_parse_avg60(const char *text)
{
	const char	*a;
	char		*end;
	double		 v;

	if (strncmp(text, "some ", 5) != 0 ||
	    (a = strstr(text, " avg60=")) == NULL ||
	    (strchr(text, '\n') != NULL && a > strchr(text, '\n')))
		return -1;
	v = strtod(a + 7, &end);
	if (end == a + 7 || v < 0 || v > 100)
		return -1;
	return v;
}

double
psi_avg60(int res)
{
	char	path[32], *s;
	double	v;

	if (res < 0 || res >= PSI_NRES)
		return -1;
	snprintf(path, sizeof path, "/proc/pressure/%s", psi_names[res]);
	if ((s = read_small_file(path, NULL)) == NULL)
		return -1;
	v = psi_parse_avg60(s);
	free(s);
	return v;
}

int
psi_read(struct psi_totals *t)
{
	char	path[32], *s;
	int	i, any = 0;

	t->at_ns = now_mono_ns();
	for (i = 0; i < PSI_NRES; i++) {
		t->some[i] = t->full[i] = -1;
		snprintf(path, sizeof path, "/proc/pressure/%s", psi_names[i]);
		if ((s = read_small_file(path, NULL)) == NULL)
			continue;
		psi_parse(s, &t->some[i], &t->full[i]);
		free(s);
		any |= t->some[i] >= 0;
	}
	return any ? 0 : -1;
}

static double
psi_share_us(long long a, long long b, double us)
{
	if (a < 0 || b < a || us <= 0)
		return -1;
	return 100.0 * (double)(b - a) / us;
}

char *
psi_text(const struct psi_totals *a, const struct psi_totals *b)
{
	struct strbuf	sb = STRBUF_INIT;
	double		us = (double)(b->at_ns - a->at_ns) / 1e3, s, f;
	int		i;

	if (us <= 0)
		return NULL;
	for (i = 0; i < PSI_NRES; i++) {
		if ((s = psi_share_us(a->some[i], b->some[i], us)) < 0)
			continue;
		strbuf_addf(&sb, "%s%s %.1f%% some", sb.len ? "; " : "",
		    psi_names[i], s);
		if (i != PSI_CPU &&
		    (f = psi_share_us(a->full[i], b->full[i], us)) >= 0)
			strbuf_addf(&sb, ", %.1f%% full", f);
	}
	if (sb.len == 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_addf(&sb, us < 1e7 ? "; over %.1f s" : "; over %.0f s",
	    us / 1e6);
	return strbuf_detach(&sb);
}
