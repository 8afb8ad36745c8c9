/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's --output-format=json, parsed with jansson into the few numbers the
 * fio workload reports: per job (or per group with group_reporting) the
 * iops, bandwidth, completion latency, runtime and error of each data
 * direction, and their sums. Pure: no I/O, no clock.
 */
#ifndef ABBENCH_FIO_JSON_H
#define ABBENCH_FIO_JSON_H

#include <stddef.h>
#include <stdint.h>

struct fio_dir_result {
	double		 iops;
	double		 bw_bytes;	/* bytes per second */
	uint64_t	 io_bytes;
	uint64_t	 total_ios;
	double		 clat_mean_ns;	/* 0 when no I/O */
	double		 lat_mean_ns;
	int64_t		 runtime_ms;
};

struct fio_job_result {
	char			*name;
	int			 error;		/* errno of the job, 0 = ok */
	int64_t			 job_runtime_ms;
	struct fio_dir_result	 read, write;
};

struct fio_result {
	char			*version;	/* "fio-3.33" */
	int64_t			 timestamp_ms;	/* wall clock at the end */
	struct fio_job_result	*jobs;
	size_t			 njobs;
	/* Sums over the jobs, read + write: */
	double			 iops;
	double			 bw_bytes;
	uint64_t		 total_ios;
	/* The longest runtime of any job and direction (ms): the time the
	 * I/O took (job_runtime is summed under group_reporting). */
	int64_t			 runtime_ms;
	/* Mean completion latency over every I/O of every job (ns). */
	double			 clat_mean_ns;
	/* The first job error (errno), 0 if none; and the "fio: ..." lines
	 * fio printed before its JSON (errors go there). */
	int			 error;
	char			*messages;
};

/*
 * Parse fio's stdout: leading text lines (fio prints "fio: ..." errors on
 * stdout before the JSON) are kept in r->messages. Returns -1 with *cause
 * when there is no JSON object or it lacks "jobs".
 */
int	fio_json_parse(const char *text, size_t len, struct fio_result *r,
	    char **cause);
void	fio_result_release(struct fio_result *r);
/* A one-line description of a failed run: the job error and fio's own
 * message (from messages, or stderr when given). malloc'd. */
char	*fio_result_error(const struct fio_result *r, const char *stderr_text);

#endif
