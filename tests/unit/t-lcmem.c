/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of workloads/lcmem.c on fixtures captured from real runc and runsc
 * containers (tests/data/lifecycle/README): memory.stat and usage (v1, and
 * a synthetic v2 file), the non-reclaimable formula, smaps_rollup, thread
 * counts and the command-line match that finds a gofer and a sandbox.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "tests/unit/tap.h"
#include "workloads/lcmem.h"

static const char	*srcdir;

static char *
fixture(const char *name, size_t *len)
{
	char	*path = xasprintf("%s/tests/data/lifecycle/%s", srcdir, name);
	char	*cause = NULL, *text;

	text = read_file(path, len, &cause);
	if (text == NULL) {
		TAP_DIAG("%s", cause);
		exit(1);
	}
	free(path);
	return text;
}

static void
check_memstat(void)
{
	struct lcmem_cg	 cg;
	char		*text, *cause = NULL;

	/* runsc: the app's 6 MiB is shmem and must stay in. */
	text = fixture("v1-runsc-touch6m.memory.stat", NULL);
	memset(&cg, 0, sizeof cg);
	tap_int_eq(lcmem_parse_memstat(text, 1, &cg, &cause), 0,
	    "v1 runsc memory.stat parses");
	free(text);
	cg.usage = 18857984;
	tap_int_eq(cg.anon, 10477568, "v1 anon is total_rss");
	tap_int_eq(cg.file, 6610944, "v1 file is total_cache");
	tap_int_eq(cg.shmem, 6578176, "v1 shmem is total_shmem");
	tap_int_eq(lcmem_nonreclaimable(&cg), 18857984 - (6610944 - 6578176),
	    "v1 runsc: usage - (cache - shmem)");
	tap_ok(lcmem_nonreclaimable(&cg) > cg.anon + cg.shmem,
	    "runsc: the sandbox memfd (shmem) is counted as non-reclaimable");

	text = fixture("v1-runc-touch6m.memory.stat", NULL);
	tap_int_eq(lcmem_parse_memstat(text, 1, &cg, &cause), 0,
	    "v1 runc memory.stat parses");
	free(text);
	cg.usage = 6623232;
	tap_int_eq(lcmem_nonreclaimable(&cg), 6623232,
	    "v1 runc: no page cache, all of usage");
	tap_ok(cg.anon >= 6u << 20, "runc: the 6 MiB touched are anon");

	text = fixture("v2-synthetic.memory.stat", NULL);
	tap_int_eq(lcmem_parse_memstat(text, 2, &cg, &cause), 0,
	    "v2 memory.stat parses");
	free(text);
	cg.usage = 19922944;
	tap_int_eq(cg.slab_reclaimable, 524288, "v2 slab_reclaimable");
	tap_int_eq(lcmem_nonreclaimable(&cg),
	    19922944 - (8388608 - 6291456) - 524288,
	    "v2: current - (file - shmem) - slab_reclaimable");

	/* A v2 file read as v1 lacks the v1 keys: an error, not zeros. */
	text = fixture("v2-synthetic.memory.stat", NULL);
	tap_int_eq(lcmem_parse_memstat(text, 1, &cg, &cause), -1,
	    "v2 text read as v1 is an error");
	tap_ok(cause != NULL && strstr(cause, "rss") != NULL,
	    "the error names the missing key");
	free(cause);
	cause = NULL;
	free(text);
	tap_int_eq(lcmem_parse_memstat("anon 1\n", 2, &cg, &cause), -1,
	    "v2 without 'file' is an error");
	free(cause);
	cause = NULL;

	/* Cache larger than usage never wraps around. */
	cg.usage = 100;
	cg.file = 1000;
	cg.shmem = 0;
	cg.slab_reclaimable = 0;
	tap_int_eq(lcmem_nonreclaimable(&cg), 0, "clamped at 0");
}

static void
put_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static void
check_cg_read(void)
{
	char		 dir[] = "/tmp/t-lcmem.XXXXXX";
	char		*text, *p, *cause = NULL;
	struct lcmem_cg	 cg;

	if (mkdtemp(dir) == NULL) {
		tap_ok(0, "mkdtemp");
		return;
	}
	text = fixture("v1-runsc-touch6m.memory.stat", NULL);
	p = xasprintf("%s/memory.stat", dir);
	put_file(p, text);
	free(p);
	free(text);
	text = fixture("v1-runsc-touch6m.memory.usage_in_bytes", NULL);
	p = xasprintf("%s/memory.usage_in_bytes", dir);
	put_file(p, text);
	free(p);
	free(text);
	tap_int_eq(lcmem_cg_read(dir, 1, &cg, &cause), 0,
	    "lcmem_cg_read of a v1 directory");
	tap_int_eq(cg.usage, 18857984, "usage read from the file");
	tap_int_eq(lcmem_cg_read(dir, 2, &cg, &cause), -1,
	    "v2 read of a v1 directory fails (no memory.current)");
	tap_ok(cause != NULL && strstr(cause, "memory.current") != NULL,
	    "the error names the file");
	free(cause);
	p = xasprintf("%s/memory.stat", dir);
	unlink(p);
	free(p);
	p = xasprintf("%s/memory.usage_in_bytes", dir);
	unlink(p);
	free(p);
	rmdir(dir);
}

static void
check_proc(void)
{
	struct lcmem_proc	 pm;
	char			*text, *cause = NULL;

	text = fixture("runsc-gofer.smaps_rollup", NULL);
	tap_int_eq(lcmem_parse_smaps_rollup(text, &pm, &cause), 0,
	    "gofer smaps_rollup parses");
	free(text);
	tap_int_eq(pm.pss, 12670 * 1024ULL, "gofer Pss");
	tap_int_eq(pm.pss_anon, 4908 * 1024ULL, "gofer Pss_Anon, not Pss");
	tap_int_eq(pm.rss, 20240 * 1024ULL, "gofer Rss");
	tap_ok(pm.pss > 512 * 1024 && pm.pss < 100ULL << 20,
	    "gofer Pss is plausible (0.5..100 MiB)");
	text = fixture("runsc-sandbox.smaps_rollup", NULL);
	tap_int_eq(lcmem_parse_smaps_rollup(text, &pm, &cause), 0,
	    "sandbox smaps_rollup parses");
	free(text);
	tap_int_eq(pm.pss, 16577 * 1024ULL, "sandbox Pss");
	tap_int_eq(pm.pss_anon, 5321 * 1024ULL, "sandbox Pss_Anon");
	tap_int_eq(lcmem_parse_smaps_rollup("Rss: 4 kB\nPss: 4 kB\n", &pm,
	    &cause), -1, "no Pss_Anon is an error");
	free(cause);

	text = fixture("runsc-gofer.status", NULL);
	tap_int_eq(lcmem_parse_threads(text), 15, "gofer threads");
	free(text);
	text = fixture("runsc-sandbox.status", NULL);
	tap_int_eq(lcmem_parse_threads(text), 18, "sandbox threads");
	free(text);
	tap_int_eq(lcmem_parse_threads("Name:\tx\n"), -1, "no Threads line");
}

static void
check_cmdline(void)
{
	size_t	 glen, slen;
	char	*gofer = fixture("runsc-gofer.cmdline", &glen);
	char	*sandbox = fixture("runsc-sandbox.cmdline", &slen);
	char	*id = fixture("runsc.container-id", NULL);
	char	*shortid;

	strtrim(id);
	shortid = xstrndup(id, 12);
	tap_ok(lcmem_cmdline_match(gofer, glen, "runsc-gofer", id),
	    "gofer found by name and container id");
	tap_ok(lcmem_cmdline_match(sandbox, slen, "runsc-sandbox", id),
	    "sandbox found by name and container id");
	tap_ok(!lcmem_cmdline_match(gofer, glen, "runsc-sandbox", id),
	    "the gofer is not a sandbox");
	tap_ok(!lcmem_cmdline_match(sandbox, slen, "runsc-gofer", NULL),
	    "the sandbox is not a gofer");
	tap_ok(!lcmem_cmdline_match(gofer, glen, "runsc-gofer", shortid),
	    "a prefix of the id is not a match");
	tap_ok(!lcmem_cmdline_match(gofer, glen, "runsc-gofer",
	    "0123456789abcdef"), "another id is not a match");
	tap_ok(lcmem_cmdline_match("runsc-gofer\0--bundle\0/r/x-ck-3\0", 31,
	    "runsc-gofer", "x-ck-3"), "a bundle path component matches");
	tap_ok(!lcmem_cmdline_match("runsc-gofer\0--bundle\0/r/x-ck-30\0", 32,
	    "runsc-gofer", "x-ck-3"), "x-ck-3 does not match x-ck-30");
	tap_ok(!lcmem_cmdline_match("runsc-gofer", 11, "runsc-gofer", NULL),
	    "an unterminated buffer never matches");
	free(gofer);
	free(sandbox);
	free(id);
	free(shortid);
}

int
main(void)
{
	srcdir = getenv("ABBENCH_SRCDIR");
	if (srcdir == NULL)
		srcdir = ".";
	check_memstat();
	check_cg_read();
	check_proc();
	check_cmdline();
	return tap_done();
}
