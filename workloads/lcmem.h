/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory of containers and sandbox processes as seen from the host, for the
 * lifecycle workloads (idle-memory, checkpoint): a container's cgroup
 * (v1 memory.usage_in_bytes + memory.stat, v2 memory.current +
 * memory.stat) and a process's /proc/PID/smaps_rollup and thread count;
 * and finding a runsc container's gofer and sandbox by command line.
 *
 * The parsers take text and never touch the host (unit-tested on
 * fixtures captured from real containers in tests/data/lifecycle/).
 */
#ifndef ABBENCH_LCMEM_H
#define ABBENCH_LCMEM_H

#include <stddef.h>
#include <stdint.h>

/* One cgroup's memory, in bytes; hierarchical (descendants included). */
struct lcmem_cg {
	uint64_t	usage;		/* v1 usage_in_bytes, v2 current */
	uint64_t	anon;		/* v1 total_rss, v2 anon */
	uint64_t	file;		/* v1 total_cache, v2 file */
	uint64_t	shmem;		/* v1 total_shmem, v2 shmem */
	uint64_t	slab_reclaimable;	/* v2 only; 0 on v1 */
	int		version;	/* 1 or 2 */
};

/*
 * Parse memory.stat text (version 1 or 2) into cg (usage untouched).
 * v1 prefers the hierarchical total_* keys. Returns -1 with *cause when a
 * required key (v1 total_rss/rss, total_cache/cache; v2 anon, file) is
 * missing.
 */
int		 lcmem_parse_memstat(const char *text, int version,
		    struct lcmem_cg *cg, char **cause);
/* Read DIR/memory.usage_in_bytes (v1) or DIR/memory.current (v2) and
 * DIR/memory.stat. */
int		 lcmem_cg_read(const char *dir, int version,
		    struct lcmem_cg *cg, char **cause);
/*
 * Non-reclaimable memory: usage - reclaimable page cache - reclaimable
 * slab, where reclaimable page cache is file - shmem (see lcmem.c for why
 * shmem stays in), clamped at 0.
 */
uint64_t	 lcmem_nonreclaimable(const struct lcmem_cg *cg);

/* A process's memory (bytes) and threads. */
struct lcmem_proc {
	uint64_t	pss;
	uint64_t	pss_anon;
	uint64_t	rss;
	long		threads;
};
/* Parse smaps_rollup text: Pss, Pss_Anon (required), Rss. */
int		 lcmem_parse_smaps_rollup(const char *text,
		    struct lcmem_proc *p, char **cause);
/* Threads: from /proc/PID/status text; -1 if absent. */
long		 lcmem_parse_threads(const char *status_text);
int		 lcmem_proc_read(long pid, struct lcmem_proc *p, char **cause);

/*
 * Does a /proc/PID/cmdline buffer (NUL-separated, len bytes) have argv[0]
 * equal to name and some argument containing key? key may be NULL.
 */
int		 lcmem_cmdline_match(const char *buf, size_t len,
		    const char *name, const char *key);

#endif
