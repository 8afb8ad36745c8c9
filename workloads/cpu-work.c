/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report lines of the CPU workload programs, and the cpu-steady metrics
 * (see cpu-work.h). No I/O.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "workloads/cpu-work.h"

#define REPORT_PREFIX	"abbench-work "

static int
parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

int
cpuwork_parse_line(const char *line, size_t len, struct cpuwork_report *r,
    char **cause)
{
	size_t		 plen = strlen(REPORT_PREFIX);
	int		 seen = 0;
	const char	*p, *end;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len < plen || strncmp(line, REPORT_PREFIX, plen) != 0)
		return 0;
	memset(r, 0, sizeof *r);
	p = line + plen;
	end = line + len;
	while (p < end) {
		const char	*w = p, *eq;
		size_t		 wl, kl;
		uint64_t	 v;

		while (p < end && *p != ' ')
			p++;
		wl = (size_t)(p - w);
		while (p < end && *p == ' ')
			p++;
		if (wl == 0)
			continue;
		if ((eq = memchr(w, '=', wl)) == NULL)
			return set_cause(cause, "bad report field '%.*s'",
			    (int)wl, w);
		kl = (size_t)(eq - w);
		eq++;
		wl -= kl + 1;
#define KEY(k) (kl == sizeof(k) - 1 && strncmp(w, k, kl) == 0)
		if (KEY("prog") || KEY("why")) {
			char	*dst = KEY("prog") ? r->prog : r->why;
			size_t	 cap = KEY("prog") ? sizeof r->prog :
			    sizeof r->why;

			if (wl == 0 || wl >= cap)
				return set_cause(cause, "bad report field "
				    "'%.*s'", (int)(kl + 1 + wl), w);
			memcpy(dst, eq, wl);
			dst[wl] = '\0';
			continue;
		}
		if (parse_u64(eq, wl, &v) == -1)
			return set_cause(cause, "bad number in report field "
			    "'%.*s'", (int)(kl + 1 + wl), w);
		if (KEY("units")) {
			r->units = v;
			seen |= 1;
		} else if (KEY("cpu_ns") && v <= INT64_MAX) {
			r->cpu_ns = (int64_t)v;
			seen |= 2;
		} else if (KEY("wall_ns") && v <= INT64_MAX) {
			r->wall_ns = (int64_t)v;
			seen |= 4;
		} else if (KEY("real_ns") && v <= INT64_MAX) {
			r->real_ns = (int64_t)v;
			seen |= 8;
		}
		/* Unknown keys are for later versions: ignored. */
#undef KEY
	}
	if (seen != 15)
		return set_cause(cause, "report line lacks %s",
		    !(seen & 1) ? "units" : !(seen & 2) ? "cpu_ns" :
		    !(seen & 4) ? "wall_ns" : "real_ns");
	return 1;
}

int
cpuwork_parse_output(const char *buf, size_t len,
    struct cpuwork_report **out, size_t *n, char **cause)
{
	struct cpuwork_report	*v = NULL, r;
	size_t			 nv = 0, cap = 0, off = 0;
	int			 k;

	while (off < len) {
		const char	*nl = memchr(buf + off, '\n', len - off);
		size_t		 l;

		if (nl == NULL)
			break;	/* a truncated last line */
		l = (size_t)(nl - (buf + off));
		k = cpuwork_parse_line(buf + off, l, &r, cause);
		if (k == -1) {
			free(v);
			return -1;
		}
		if (k == 1) {
			XGROW(v, nv, cap);
			v[nv++] = r;
		}
		off += l + 1;
	}
	*out = v;
	*n = nv;
	return 0;
}

int
cpuwork_at(const struct cpuwork_report *r, size_t n, int64_t t,
    const struct cpuwork_report **at, int64_t *lag_ns)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (r[i].real_ns >= t) {
			*at = &r[i];
			if (lag_ns != NULL)
				*lag_ns = r[i].real_ns - t;
			return 0;
		}
	}
	return -1;
}

int
cpuwork_delta(uint64_t before, uint64_t after, uint64_t *d)
{
	if (after < before)
		return -1;
	*d = after - before;
	return 0;
}

int
cpuwork_compute(const struct cpuwork_window *w, struct cpuwork_metrics *m,
    char **cause)
{
	double	sec;

	memset(m, 0, sizeof *m);
	if (w->window_ns <= 0)
		return set_cause(cause, "empty measurement window");
	if (w->app_cpu_ns <= 0)
		return set_cause(cause, "the programs used no CPU in the "
		    "window");
	sec = (double)w->window_ns / 1e9;
	m->overhead = (w->sandbox_cpu_ns - w->app_cpu_ns) / w->app_cpu_ns;
	m->host_ctxsw_per_s = (double)w->ctxt / sec;
	m->work_per_s = w->units / sec;
	m->app_cpus = w->app_cpu_ns / (double)w->window_ns;
	m->sandbox_cpus = w->sandbox_cpu_ns / (double)w->window_ns;
	m->throttled_periods = (double)w->nr_throttled;
	m->throttled_frac = w->nr_periods > 0 ?
	    (double)w->nr_throttled / (double)w->nr_periods : 0;
	m->throttled_sec = (double)w->throttled_ns / 1e9;
	m->perf_ctxsw_per_s = w->perf_ctxsw >= 0 && w->perf_window_ns > 0 ?
	    w->perf_ctxsw / ((double)w->perf_window_ns / 1e9) : -1;
	return 0;
}

int
cpuwork_proc_stat_ctxt(const char *text, uint64_t *ctxt)
{
	const char	*p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "ctxt ", 5) == 0) {
			const char	*q = p + 5;
			size_t		 l = strspn(q, "0123456789");

			return parse_u64(q, l, ctxt);
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -1;
}

int
cpuwork_perf_count(const char *text, const char *event, double *v)
{
	const char	*p = text;
	size_t		 el = strlen(event);

	/* CSV: count,unit,event,... ("<not counted>" when unsupported). */
	while (p != NULL && *p != '\0') {
		const char	*c1 = strchr(p, ','), *c2, *nl;
		char		*end;
		double		 x;

		nl = strchr(p, '\n');
		if (c1 != NULL && (nl == NULL || c1 < nl) &&
		    (c2 = strchr(c1 + 1, ',')) != NULL &&
		    (nl == NULL || c2 < nl) &&
		    strncmp(c2 + 1, event, el) == 0 &&
		    (c2[1 + el] == ',' || c2[1 + el] == '\n' ||
		    c2[1 + el] == '\0')) {
			errno = 0;
			x = strtod(p, &end);
			if (end != p && end == c1 && errno == 0) {
				*v = x;
				return 0;
			}
			return -1;
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return -1;
}
