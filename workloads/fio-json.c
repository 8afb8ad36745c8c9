/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parse fio's JSON output with jansson (see fio-json.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/util.h"
#include "workloads/fio-json.h"

static double
num(json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static void
parse_dir(json_t *d, struct fio_dir_result *r)
{
	json_t	*clat, *lat;

	memset(r, 0, sizeof *r);
	if (!json_is_object(d))
		return;
	r->iops = num(d, "iops");
	r->bw_bytes = num(d, "bw_bytes");
	r->io_bytes = (uint64_t)num(d, "io_bytes");
	r->total_ios = (uint64_t)num(d, "total_ios");
	r->runtime_ms = (int64_t)num(d, "runtime");
	clat = json_object_get(d, "clat_ns");
	lat = json_object_get(d, "lat_ns");
	if (json_is_object(clat))
		r->clat_mean_ns = num(clat, "mean");
	if (json_is_object(lat))
		r->lat_mean_ns = num(lat, "mean");
}

/* Where the JSON object starts: the first line that begins with '{'. */
static const char *
json_start(const char *text, size_t len)
{
	const char	*p = text, *end = text + len;

	while (p < end) {
		if (*p == '{')
			return p;
		p = memchr(p, '\n', (size_t)(end - p));
		if (p == NULL)
			return NULL;
		p++;
	}
	return NULL;
}

int
fio_json_parse(const char *text, size_t len, struct fio_result *r,
    char **cause)
{
	const char	*start;
	json_t		*root, *jobs, *job, *v;
	json_error_t	 jerr;
	size_t		 i;
	double		 clat_sum = 0;

	memset(r, 0, sizeof *r);
	if (text == NULL || (start = json_start(text, len)) == NULL) {
		if (text != NULL && len > 0)
			r->messages = xstrndup(text, len);
		return set_cause(cause, "no JSON in fio's output%s%s",
		    r->messages ? ": " : "",
		    r->messages ? strtrim(r->messages) : "");
	}
	if (start > text) {
		r->messages = xstrndup(text, (size_t)(start - text));
		strtrim(r->messages);
	}
	root = json_loadb(start, len - (size_t)(start - text),
	    JSON_DISABLE_EOF_CHECK, &jerr);
	if (root == NULL) {
		set_cause(cause, "cannot parse fio's JSON: line %d: %s",
		    jerr.line, jerr.text);
		fio_result_release(r);
		return -1;
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs)) {
		json_decref(root);
		fio_result_release(r);
		return set_cause(cause, "fio's JSON has no \"jobs\" array");
	}
	v = json_object_get(root, "fio version");
	r->version = xstrdup(json_is_string(v) ? json_string_value(v) : "");
	r->timestamp_ms = (int64_t)num(root, "timestamp_ms");
	r->njobs = json_array_size(jobs);
	r->jobs = xcalloc(r->njobs ? r->njobs : 1, sizeof *r->jobs);
	json_array_foreach(jobs, i, job) {
		struct fio_job_result	*j = &r->jobs[i];

		v = json_object_get(job, "jobname");
		j->name = xstrdup(json_is_string(v) ?
		    json_string_value(v) : "");
		j->error = (int)num(job, "error");
		j->job_runtime_ms = (int64_t)num(job, "job_runtime");
		parse_dir(json_object_get(job, "read"), &j->read);
		parse_dir(json_object_get(job, "write"), &j->write);
		r->iops += j->read.iops + j->write.iops;
		r->bw_bytes += j->read.bw_bytes + j->write.bw_bytes;
		r->total_ios += j->read.total_ios + j->write.total_ios;
		clat_sum += j->read.clat_mean_ns * (double)j->read.total_ios +
		    j->write.clat_mean_ns * (double)j->write.total_ios;
		/* job_runtime is summed over a group's jobs: the time the
		 * I/O took is the longest direction's runtime. */
		if (j->read.runtime_ms > r->runtime_ms)
			r->runtime_ms = j->read.runtime_ms;
		if (j->write.runtime_ms > r->runtime_ms)
			r->runtime_ms = j->write.runtime_ms;
		if (r->error == 0 && j->error != 0)
			r->error = j->error;
	}
	if (r->total_ios > 0)
		r->clat_mean_ns = clat_sum / (double)r->total_ios;
	json_decref(root);
	return 0;
}

void
fio_result_release(struct fio_result *r)
{
	size_t	i;

	for (i = 0; i < r->njobs; i++)
		free(r->jobs[i].name);
	free(r->jobs);
	free(r->version);
	free(r->messages);
	memset(r, 0, sizeof *r);
}

/* The last line of s that starts with "fio: " (or the last line). */
static char *
fio_line(const char *s)
{
	const char	*p, *best = NULL, *last = NULL;

	for (p = s; p != NULL && *p != '\0'; ) {
		const char	*nl = strchr(p, '\n');

		if (nl != p) {
			last = p;
			if (str_startswith(p, "fio: "))
				best = p;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (best == NULL)
		best = last;
	if (best == NULL)
		return NULL;
	return xstrndup(best, strcspn(best, "\n"));
}

char *
fio_result_error(const struct fio_result *r, const char *stderr_text)
{
	char	*line = NULL, *res;

	if (r->messages != NULL && *r->messages != '\0')
		line = fio_line(r->messages);
	if (line == NULL && stderr_text != NULL && *stderr_text != '\0')
		line = fio_line(stderr_text);
	if (r->error != 0)
		res = xasprintf("fio job error %d (%s)%s%s", r->error,
		    strerror(r->error), line ? ": " : "", line ? line : "");
	else
		res = xstrdup(line ? line : "fio failed");
	free(line);
	return res;
}
