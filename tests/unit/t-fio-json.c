/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio JSON parsing on real fio 3.33 outputs (tests/data/fio/): read, write,
 * randrw, numjobs with and without group_reporting, and failing runs (a
 * file that cannot exist, ENOSPC) whose messages must reach the sample.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/unit/tap.h"
#include "workloads/fio-json.h"

static const char	*srcdir;

static int
load(const char *name, struct fio_result *r, char **text, char **cause)
{
	char	*path = xasprintf("%s/tests/data/fio/%s", srcdir, name);
	size_t	 len = 0;
	int	 rc;

	*text = read_file(path, &len, cause);
	free(path);
	if (*text == NULL)
		return -1;
	rc = fio_json_parse(*text, len, r, cause);
	return rc;
}

static int
near(double got, double want)
{
	return fabs(got - want) <= 1e-6 * fabs(want) + 1e-9;
}

static void
check_ok(const char *file, size_t njobs, double iops, double bw,
    unsigned long long ios, double clat, long long runtime)
{
	struct fio_result	 r;
	char			*text = NULL, *cause = NULL;

	if (!tap_ok(load(file, &r, &text, &cause) == 0, "%s parses", file)) {
		TAP_DIAG("%s", cause);
		free(cause);
		free(text);
		return;
	}
	tap_str_eq(r.version, "fio-3.33", "%s: version", file);
	tap_int_eq(r.njobs, njobs, "%s: jobs", file);
	tap_ok(near(r.iops, iops), "%s: iops %.6f", file, r.iops);
	tap_ok(near(r.bw_bytes, bw), "%s: bw %.0f", file, r.bw_bytes);
	tap_int_eq(r.total_ios, ios, "%s: total ios", file);
	tap_ok(near(r.clat_mean_ns, clat), "%s: clat mean %.3f", file,
	    r.clat_mean_ns);
	tap_int_eq(r.runtime_ms, runtime, "%s: runtime", file);
	tap_int_eq(r.error, 0, "%s: no error", file);
	tap_ok(r.timestamp_ms > 1700000000000LL, "%s: timestamp", file);
	fio_result_release(&r);
	free(text);
}

int
main(void)
{
	struct fio_result	 r;
	char			*text = NULL, *cause = NULL, *msg, *err;
	char			*path;

	srcdir = getenv("ABBENCH_SRCDIR");
	if (srcdir == NULL)
		srcdir = ".";

	/* Expected values computed from the files with Python's json. */
	check_ok("read.json", 1, 38376.247505, 2515025756.0, 38453,
	    25184.661093, 1002);
	check_ok("write.json", 1, 16347.652348, 66959984.0, 16364,
	    202768.959484, 1001);
	check_ok("randrw.json", 1, 44041.83267, 180395345.0, 44218,
	    81988.61484026014, 1004);
	/* group_reporting: three jobs reported as one (job_runtime is the
	 * sum, 3000 ms; the I/O took 1001 ms). */
	check_ok("randread-group.json", 1, 61942.057942, 253714669.0, 62004,
	    188178.735904, 1001);
	check_ok("randread-jobs2.json", 2, 53658.341658, 219784567.0, 53712,
	    142937.77971400044, 1001);

	/* randrw: both directions are there. */
	if (load("randrw.json", &r, &text, &cause) == 0) {
		tap_ok(r.jobs[0].read.iops > 0 && r.jobs[0].write.iops > 0,
		    "randrw: read and write iops");
		tap_ok(near(r.iops, r.jobs[0].read.iops +
		    r.jobs[0].write.iops), "randrw: total = read + write");
		fio_result_release(&r);
	}
	free(text);

	/* A file that cannot exist: the job error and fio's message. */
	tap_ok(load("fail-badfile.json", &r, &text, &cause) == 0,
	    "fail-badfile parses");
	tap_int_eq(r.error, 20, "fail-badfile: error ENOTDIR");
	path = xasprintf("%s/tests/data/fio/fail-badfile.stderr", srcdir);
	err = read_file(path, NULL, NULL);
	free(path);
	msg = fio_result_error(&r, err);
	tap_ok(strstr(msg, "Not a directory") != NULL &&
	    strstr(msg, "error 20") != NULL, "fail-badfile: message '%s'", msg);
	free(msg);
	free(err);
	fio_result_release(&r);
	free(text);

	/* ENOSPC: fio prints the error on stdout before its JSON. */
	tap_ok(load("fail-enospc.json", &r, &text, &cause) == 0,
	    "fail-enospc parses despite the leading message");
	tap_int_eq(r.error, 28, "fail-enospc: error ENOSPC");
	tap_ok(r.messages != NULL && strstr(r.messages, "err=28") != NULL,
	    "fail-enospc: the message before the JSON is kept");
	msg = fio_result_error(&r, NULL);
	tap_ok(strstr(msg, "No space left on device") != NULL,
	    "fail-enospc: message '%s'", msg);
	free(msg);
	fio_result_release(&r);
	free(text);

	/* Garbage and truncated output. */
	tap_ok(fio_json_parse("fio: engine libaio not loadable\n", 32, &r,
	    &cause) == -1 && strstr(cause, "not loadable") != NULL,
	    "no JSON: fio's message in the cause");
	free(cause);
	cause = NULL;
	fio_result_release(&r);
	tap_ok(fio_json_parse("{\n \"jobs\" : [ {", 15, &r, &cause) == -1,
	    "truncated JSON fails");
	free(cause);
	cause = NULL;
	tap_ok(fio_json_parse("{\"x\": 1}\n", 9, &r, &cause) == -1 &&
	    strstr(cause, "jobs") != NULL, "JSON without jobs fails");
	free(cause);
	return tap_done();
}
