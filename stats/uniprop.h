/*
 * The few Unicode properties Go's benchstat depends on (unicode.IsSpace,
 * IsLower, IsUpper, IsGraphic, IsPrint) and UTF-8 decoding with Go's
 * rules (an invalid byte decodes as U+FFFD of length 1).  Pure functions.
 */
#ifndef ABBENCH_STATS_UNIPROP_H
#define ABBENCH_STATS_UNIPROP_H

#include <stddef.h>
#include <stdint.h>

#define UNI_ERROR	0xFFFD

struct uni_range {
	uint32_t	lo;
	uint32_t	hi;
	unsigned	flags;	/* 1 lower, 2 upper, 4 graphic non-space, 8 Zs */
};
extern const struct uni_range uni_ranges[];
extern const unsigned uni_nranges;

/* Decode the rune at s[0..len) (len > 0); *n = its length in bytes. */
uint32_t	uni_decode(const char *s, size_t len, size_t *n);
/* Append the UTF-8 encoding of r to buf (4 bytes room); returns length. */
size_t		uni_encode(uint32_t r, char *buf);
/* Number of runes (Go utf8.RuneCountInString). */
size_t		uni_count(const char *s, size_t len);

int		uni_is_space(uint32_t r);
int		uni_is_lower(uint32_t r);
int		uni_is_upper(uint32_t r);
int		uni_is_graphic(uint32_t r);
int		uni_is_print(uint32_t r);

/* Length of the whitespace rune at s (0 if none), Unicode-aware. */
size_t		uni_space_len(const char *s, size_t len);

#endif
