/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Container and sandbox memory from the host: cgroup memory.stat and
 * usage, /proc/PID/smaps_rollup and thread counts, and the runsc gofer and
 * sandbox found by command line. See lcmem.h.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "workloads/lcmem.h"

/* v1: the hierarchical total_KEY, else KEY. */
static int
lcmem_kv1(const char *text, const char *key, uint64_t *out)
{
	char	*tkey = xasprintf("total_%s", key);
	int	 r = kv_u64(text, tkey, out);

	free(tkey);
	if (r == -1)
		r = kv_u64(text, key, out);
	return r;
}

int
lcmem_parse_memstat(const char *text, int version, struct lcmem_cg *cg,
    char **cause)
{
	cg->version = version;
	cg->shmem = cg->slab_reclaimable = 0;
	if (version == 1) {
		if (lcmem_kv1(text, "rss", &cg->anon) == -1)
			return set_cause(cause, "memory.stat: no 'rss'");
		if (lcmem_kv1(text, "cache", &cg->file) == -1)
			return set_cause(cause, "memory.stat: no 'cache'");
		(void)lcmem_kv1(text, "shmem", &cg->shmem);
		/* v1 memory.stat has no slab breakdown: see below. */
		return 0;
	}
	if (kv_u64(text, "anon", &cg->anon) == -1)
		return set_cause(cause, "memory.stat: no 'anon'");
	if (kv_u64(text, "file", &cg->file) == -1)
		return set_cause(cause, "memory.stat: no 'file'");
	(void)kv_u64(text, "shmem", &cg->shmem);
	(void)kv_u64(text, "slab_reclaimable", &cg->slab_reclaimable);
	return 0;
}

/* A file's text, or NULL with "cannot read 'PATH': why". */
static char *
lcmem_read(const char *path, int small, char **cause)
{
	char	*text, *c = NULL;

	text = small ? read_small_file(path, &c) : read_file(path, NULL, &c);
	if (text == NULL) {
		set_cause(cause, "cannot read '%s': %s", path, c);
		free(c);
	}
	return text;
}

int
lcmem_cg_read(const char *dir, int version, struct lcmem_cg *cg,
    char **cause)
{
	char	*path, *text, *c = NULL;
	int	 r = -1;

	path = xasprintf("%s/%s", dir, version == 1 ?
	    "memory.usage_in_bytes" : "memory.current");
	text = lcmem_read(path, 1, cause);
	free(path);
	if (text == NULL)
		return -1;
	cg->usage = strtoull(text, NULL, 10);
	free(text);
	path = xasprintf("%s/memory.stat", dir);
	if ((text = lcmem_read(path, 0, cause)) != NULL) {
		r = lcmem_parse_memstat(text, version, cg, &c);
		if (r == -1) {
			set_cause(cause, "'%s': %s", path, c);
			free(c);
		}
		free(text);
	}
	free(path);
	return r;
}

/*
 * What the host could take back without the container noticing is the
 * page cache of regular files and reclaimable slab (dentries, inodes).
 * The rest of usage is the container's cost:
 *
 *   non-reclaimable = usage - (file - shmem) - slab_reclaimable
 *
 * `file` (v1 `cache`) counts every page-cache page, shmem included; shmem
 * and tmpfs pages are swap-backed and cannot be dropped, and under gVisor
 * the sandbox's application memory is a memfd, i.e. shmem: subtracting all
 * of `file` would make a runsc container's memory vanish. So shmem stays.
 * The alternative active_file + inactive_file gives the same number on an
 * idle container (shmem sits on the anon LRU lists, not the file ones),
 * but "inactive_file + active_file - shmem" would subtract shmem twice.
 * This is the formula of the seed reports ("memory.current minus page
 * cache (file - shmem) and reclaimable slab").
 *
 * Cgroup v1 memory.stat has no slab breakdown, so on v1 reclaimable slab
 * (part of usage since kmem is charged to the memory counter) is counted
 * as non-reclaimable: v1 numbers run slightly high (~kmem usage, 1-2 MB
 * for a runsc container), which is the same for both arms.
 */
uint64_t
lcmem_nonreclaimable(const struct lcmem_cg *cg)
{
	uint64_t	cache, sub;

	cache = cg->file > cg->shmem ? cg->file - cg->shmem : 0;
	sub = cache + cg->slab_reclaimable;
	return cg->usage > sub ? cg->usage - sub : 0;
}

/* "Key:   N kB" in smaps_rollup or status text. */
static int
lcmem_field_kb(const char *text, const char *key, uint64_t *out)
{
	size_t		 klen = strlen(key);
	const char	*p = text;
	char		*end;
	unsigned long long v;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno != 0)
				return -1;
			while (*end == ' ' || *end == '\t')
				end++;
			*out = strncmp(end, "kB", 2) == 0 ? v * 1024 : v;
			return 0;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -1;
}

int
lcmem_parse_smaps_rollup(const char *text, struct lcmem_proc *p,
    char **cause)
{
	if (lcmem_field_kb(text, "Pss", &p->pss) == -1)
		return set_cause(cause, "smaps_rollup: no 'Pss'");
	if (lcmem_field_kb(text, "Pss_Anon", &p->pss_anon) == -1)
		return set_cause(cause, "smaps_rollup: no 'Pss_Anon' (kernel "
		    "older than 5.9?)");
	if (lcmem_field_kb(text, "Rss", &p->rss) == -1)
		p->rss = 0;
	return 0;
}

long
lcmem_parse_threads(const char *status_text)
{
	uint64_t	v;

	if (lcmem_field_kb(status_text, "Threads", &v) == -1)
		return -1;
	return (long)v;
}

int
lcmem_proc_read(long pid, struct lcmem_proc *p, char **cause)
{
	char	*path, *text, *c = NULL;
	int	 r = -1;

	path = xasprintf("/proc/%ld/smaps_rollup", pid);
	if ((text = lcmem_read(path, 0, cause)) != NULL) {
		r = lcmem_parse_smaps_rollup(text, p, &c);
		if (r == -1) {
			set_cause(cause, "'%s': %s", path, c);
			free(c);
		}
		free(text);
	}
	free(path);
	if (r == -1)
		return -1;
	path = xasprintf("/proc/%ld/status", pid);
	text = lcmem_read(path, 0, cause);
	free(path);
	if (text == NULL)
		return -1;
	p->threads = lcmem_parse_threads(text);
	free(text);
	return 0;
}

/*
 * key as a whole word of arg: the whole argument, or a path component or
 * option value (preceded by start, '/' or '='; followed by end or '/'),
 * so that "x-ck-3" never matches "x-ck-30".
 */
static int
lcmem_arg_has(const char *arg, const char *key)
{
	size_t		 klen = strlen(key);
	const char	*p = arg;

	while ((p = strstr(p, key)) != NULL) {
		int	before = p == arg || p[-1] == '/' || p[-1] == '=';
		int	after = p[klen] == '\0' || p[klen] == '/';

		if (before && after)
			return 1;
		p++;
	}
	return 0;
}

int
lcmem_cmdline_match(const char *buf, size_t len, const char *name,
    const char *key)
{
	size_t	off, n;

	if (len == 0 || strnlen(buf, len) == len)
		return 0;
	if (strcmp(buf, name) != 0)
		return 0;
	if (key == NULL)
		return 1;
	for (off = 0; off < len; off += n + 1) {
		n = strnlen(buf + off, len - off);
		if (off + n >= len)
			break;	/* unterminated tail */
		if (lcmem_arg_has(buf + off, key))
			return 1;
	}
	return 0;
}
