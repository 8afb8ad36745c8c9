/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A string pool: interns byte strings into stable, NUL-terminated copies
 * kept in large arena blocks, so that equal strings share one pointer and
 * can be compared and hashed by address.  A pooled string carries its
 * length (strpool_len), so it may hold NUL bytes: code that handles input
 * strings uses that length, never strlen.  Not thread-safe.
 */
#ifndef ABBENCH_STATS_STRPOOL_H
#define ABBENCH_STATS_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

struct strpool	*strpool_new(void);
void		 strpool_free(struct strpool *p);
/* The pooled copy of s[0..len); valid until strpool_free. */
const char	*strpool_intern(struct strpool *p, const char *s, size_t len);
const char	*strpool_interns(struct strpool *p, const char *s);
/* Copy bytes into the arena without interning (NUL added). */
char		*strpool_copy(struct strpool *p, const char *s, size_t len);
/* The length of a string from strpool_intern or strpool_copy. */
size_t		 strpool_len(const char *s);
/* Byte-wise comparison of two pooled strings (Go's string order). */
int		 strpool_cmp(const char *a, const char *b);
/* Allocate n bytes (8-aligned) in the arena. */
void		*strpool_alloc(struct strpool *p, size_t n);

/* 64-bit hash of a byte string (FNV-1a folded, fast enough here). */
uint64_t	 strpool_hash(const char *s, size_t len);

/*
 * A hash map from 64-bit keys to non-NULL pointers (open addressing).
 * Zero-initialize; release with u64map_release.
 */
struct u64map {
	uint64_t	*keys;
	void		**vals;
	size_t		 cap;		/* power of two or 0 */
	size_t		 n;
};
void		*u64map_get(const struct u64map *m, uint64_t key);
void		 u64map_put(struct u64map *m, uint64_t key, void *val);
void		 u64map_release(struct u64map *m);
uint64_t	 u64_mix(uint64_t x);

#endif
