/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unicode properties and UTF-8 decoding with Go's semantics, for the
 * benchfmt reader, the query tokenizer and the text table layout.
 */
#include "config.h"

#include "lib/goregexp/uniprop.h"

uint32_t
uni_decode(const char *str, size_t len, size_t *n)
{
	const unsigned char	*s = (const unsigned char *)str;
	uint32_t		 r, min;
	size_t			 need, i;

	if (s[0] < 0x80) {
		*n = 1;
		return s[0];
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		need = 2;
		r = s[0] & 0x1F;
		min = 0x80;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		need = 3;
		r = s[0] & 0x0F;
		min = 0x800;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		need = 4;
		r = s[0] & 0x07;
		min = 0x10000;
	} else {
		*n = 1;
		return UNI_ERROR;
	}
	if (len < need) {
		*n = 1;
		return UNI_ERROR;
	}
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*n = 1;
			return UNI_ERROR;
		}
		r = (r << 6) | (s[i] & 0x3F);
	}
	if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) {
		*n = 1;
		return UNI_ERROR;
	}
	*n = need;
	return r;
}

size_t
uni_encode(uint32_t r, char *buf)
{
	unsigned char	*b = (unsigned char *)buf;

	if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
		r = UNI_ERROR;
	if (r < 0x80) {
		b[0] = (unsigned char)r;
		return 1;
	}
	if (r < 0x800) {
		b[0] = 0xC0 | (r >> 6);
		b[1] = 0x80 | (r & 0x3F);
		return 2;
	}
	if (r < 0x10000) {
		b[0] = 0xE0 | (r >> 12);
		b[1] = 0x80 | ((r >> 6) & 0x3F);
		b[2] = 0x80 | (r & 0x3F);
		return 3;
	}
	b[0] = 0xF0 | (r >> 18);
	b[1] = 0x80 | ((r >> 12) & 0x3F);
	b[2] = 0x80 | ((r >> 6) & 0x3F);
	b[3] = 0x80 | (r & 0x3F);
	return 4;
}

static unsigned
uni_flags(uint32_t r)
{
	unsigned	lo = 0, hi = uni_nranges, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (r < uni_ranges[mid].lo)
			hi = mid;
		else if (r > uni_ranges[mid].hi)
			lo = mid + 1;
		else
			return uni_ranges[mid].flags;
	}
	return 0;
}

int
uni_is_space(uint32_t r)
{
	switch (r) {
	case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
	case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
	case 0x202F: case 0x205F: case 0x3000:
		return 1;
	}
	return r >= 0x2000 && r <= 0x200A;
}

int
uni_is_lower(uint32_t r)
{
	if (r < 0x80)
		return r >= 'a' && r <= 'z';
	return (uni_flags(r) & 1) != 0;
}

int
uni_is_upper(uint32_t r)
{
	if (r < 0x80)
		return r >= 'A' && r <= 'Z';
	return (uni_flags(r) & 2) != 0;
}

int
uni_is_graphic(uint32_t r)
{
	if (r < 0x80)
		return r >= 0x20 && r < 0x7F;
	return (uni_flags(r) & (4 | 8)) != 0;
}

int
uni_is_print(uint32_t r)
{
	if (r < 0x80)
		return r >= 0x20 && r < 0x7F;
	return (uni_flags(r) & 4) != 0;
}

size_t
uni_space_len(const char *s, size_t len)
{
	uint32_t	r;
	size_t		n;

	if (len == 0)
		return 0;
	if ((unsigned char)s[0] < 0x80)
		return uni_is_space((unsigned char)s[0]) ? 1 : 0;
	r = uni_decode(s, len, &n);
	return uni_is_space(r) ? n : 0;
}

uint32_t
uni_simple_fold(uint32_t r)
{
	unsigned	lo = 0, hi = uni_nfold, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (uni_fold[mid].from < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < uni_nfold && uni_fold[lo].from == r)
		return uni_fold[lo].to;
	return r;
}
