/* SPDX-License-Identifier: Apache-2.0 */
/*
 * String interning and arena allocation for the statistics code: the
 * benchfmt reader and the projections see the same few strings (units,
 * config values, benchmark names) hundreds of thousands of times.  Pooled
 * strings carry their length, since inputs may hold NUL bytes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/strpool.h"

#define STRPOOL_BLOCK	(64 * 1024)

struct strpool_block {
	struct strpool_block	*next;
	size_t			 used;
	size_t			 size;
	char			 data[];
};

struct strpool_slot {
	const char	*s;
	size_t		 len;
	uint64_t	 hash;
};

struct strpool {
	struct strpool_block	*blocks;
	struct strpool_slot	*slots;
	size_t			 nslots;	/* power of two */
	size_t			 count;
};

uint64_t
strpool_hash(const char *s, size_t len)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	size_t		i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t	w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	h ^= h >> 32;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

struct strpool *
strpool_new(void)
{
	struct strpool	*p = xcalloc(1, sizeof(*p));

	p->nslots = 256;
	p->slots = xcalloc(p->nslots, sizeof(*p->slots));
	return p;
}

void
strpool_free(struct strpool *p)
{
	struct strpool_block	*b, *next;

	if (p == NULL)
		return;
	for (b = p->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(p->slots);
	free(p);
}

void *
strpool_alloc(struct strpool *p, size_t n)
{
	struct strpool_block	*b = p->blocks;
	size_t			 size;
	void			*ptr;

	n = (n + 7) & ~(size_t)7;
	if (b == NULL || b->size - b->used < n) {
		size = n > STRPOOL_BLOCK / 4 ? n : STRPOOL_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		if (size == n && p->blocks != NULL) {
			/* Keep filling the current block afterwards. */
			b->next = p->blocks->next;
			p->blocks->next = b;
		} else {
			b->next = p->blocks;
			p->blocks = b;
		}
	}
	ptr = b->data + b->used;
	b->used += n;
	return ptr;
}

/*
 * A pooled string: its length in the 8 bytes before it (so that strings
 * holding NUL bytes keep them), the bytes, and a NUL.
 */
char *
strpool_copy(struct strpool *p, const char *s, size_t len)
{
	uint64_t	*hdr = strpool_alloc(p, sizeof(uint64_t) + len + 1);
	char		*c = (char *)(hdr + 1);

	*hdr = len;
	memcpy(c, s, len);
	c[len] = '\0';
	return c;
}

size_t
strpool_len(const char *s)
{
	uint64_t	len;

	memcpy(&len, s - sizeof(uint64_t), sizeof(len));
	return (size_t)len;
}

int
strpool_cmp(const char *a, const char *b)
{
	size_t	la = strpool_len(a), lb = strpool_len(b);
	int	c = memcmp(a, b, la < lb ? la : lb);

	if (c != 0)
		return c;
	return la < lb ? -1 : la > lb;
}

static void
strpool_grow(struct strpool *p)
{
	struct strpool_slot	*old = p->slots;
	size_t			 oldn = p->nslots, i, j;

	p->nslots *= 2;
	p->slots = xcalloc(p->nslots, sizeof(*p->slots));
	for (i = 0; i < oldn; i++) {
		if (old[i].s == NULL)
			continue;
		j = old[i].hash & (p->nslots - 1);
		while (p->slots[j].s != NULL)
			j = (j + 1) & (p->nslots - 1);
		p->slots[j] = old[i];
	}
	free(old);
}

const char *
strpool_intern(struct strpool *p, const char *s, size_t len)
{
	uint64_t		 h = strpool_hash(s, len);
	size_t			 j = h & (p->nslots - 1);
	struct strpool_slot	*slot;
	const char		*copy;

	for (;;) {
		slot = &p->slots[j];
		if (slot->s == NULL)
			break;
		if (slot->hash == h && slot->len == len &&
		    memcmp(slot->s, s, len) == 0)
			return slot->s;
		j = (j + 1) & (p->nslots - 1);
	}
	copy = strpool_copy(p, s, len);
	slot->s = copy;
	slot->len = len;
	slot->hash = h;
	if (++p->count * 2 > p->nslots)
		strpool_grow(p);
	return copy;
}

const char *
strpool_interns(struct strpool *p, const char *s)
{
	return strpool_intern(p, s, strlen(s));
}

uint64_t
u64_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

void *
u64map_get(const struct u64map *m, uint64_t key)
{
	size_t	j;

	if (m->cap == 0)
		return NULL;
	for (j = u64_mix(key) & (m->cap - 1); m->vals[j] != NULL;
	    j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key)
			return m->vals[j];
	return NULL;
}

static void
u64map_insert(struct u64map *m, uint64_t key, void *val)
{
	size_t	j;

	for (j = u64_mix(key) & (m->cap - 1); m->vals[j] != NULL;
	    j = (j + 1) & (m->cap - 1)) {
		if (m->keys[j] == key) {
			m->vals[j] = val;
			return;
		}
	}
	m->keys[j] = key;
	m->vals[j] = val;
	m->n++;
}

void
u64map_put(struct u64map *m, uint64_t key, void *val)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct u64map	old = *m;
		size_t		i;

		m->cap = m->cap ? m->cap * 2 : 64;
		m->keys = xcalloc(m->cap, sizeof(*m->keys));
		m->vals = xcalloc(m->cap, sizeof(*m->vals));
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.vals[i] != NULL)
				u64map_insert(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	u64map_insert(m, key, val);
}

void
u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}
