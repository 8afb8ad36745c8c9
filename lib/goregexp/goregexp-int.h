/* SPDX-License-Identifier: Apache-2.0 */
/* Internals shared by the Go-syntax parser and the compiler/matcher. */
#ifndef ABBENCH_STATS_GOREGEXP_INT_H
#define ABBENCH_STATS_GOREGEXP_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_RUNE	0x10FFFF
#define MAX_REPEAT	1000
#define MAX_HEIGHT	1000
#define MAX_SIZE	((128 << 20) / 40)	/* Go's maxSize in Insts */
#define MAX_RUNES	((128 << 20) / 4)	/* Go's maxRunes */
#define MIN_FOLD	0x0041
#define MAX_FOLD	0x1E943

/* Parse flags (syntax.Flags). */
enum {
	F_FOLD = 1 << 0,	/* (?i) */
	F_CLASSNL = 1 << 2,
	F_DOTNL = 1 << 3,	/* (?s) */
	F_ONELINE = 1 << 4,	/* not (?m) */
	F_NONGREEDY = 1 << 5,	/* (?U) */
	F_PERLX = 1 << 6,
	F_UNIGROUPS = 1 << 7,
	F_PERL = F_CLASSNL | F_ONELINE | F_PERLX | F_UNIGROUPS
};

/* syntax.Op, in Go's order (the pseudo-operators are >= OP_PSEUDO). */
enum {
	OP_NOMATCH = 1, OP_EMPTY, OP_LITERAL, OP_CLASS, OP_ANYNOTNL, OP_ANY,
	OP_BOL, OP_EOL, OP_BOT, OP_EOT, OP_WORDB, OP_NOWORDB, OP_CAPTURE,
	OP_STAR, OP_PLUS, OP_QUEST, OP_REPEAT, OP_CONCAT, OP_ALT,
	OP_PSEUDO = 128, OP_LPAREN = OP_PSEUDO, OP_VBAR
};

/* A growable list of runes: literal runes, or class ranges lo,hi,... */
struct runes {
	uint32_t	*v;
	size_t		 n, cap;
};

struct rnode {
	int		 op;
	unsigned	 flags;
	int		 min, max;	/* OP_REPEAT */
	int		 cap;		/* OP_LPAREN: capture or 0 */
	struct runes	 r;
	struct rnode	**sub;
	size_t		 nsub;
	int		 height;
	long long	 size;		/* Go's calcSize */
	int		 clsid;		/* OP_CLASS: interned class */
	int		*cls;		/* program class per rune */
	struct rnode	*all;		/* every node, for freeing */
};

struct rparser {
	unsigned	 flags;
	struct rnode	**stack;
	size_t		 n, capstack;
	int		 numcap;
	const char	*whole;
	size_t		 wlen;
	struct rnode	*all;
	long long	 numrunes;
	/*
	 * Classes are interned: a pattern of 27000 \pL holds one copy of
	 * \pL, not 27000 (Go's maxRunes still counts every one).
	 */
	struct runes	*classes;
	size_t		 nclasses, capclasses;
	uint32_t	*chash;		/* open addressing: index + 1 */
	size_t		 capchash;
	char		*err;
	jmp_buf		 fail;
};

#define E_LARGE		"expression too large"

/*
 * Parse p->whole (Go syntax, p->flags) into a tree owned by p; on an error
 * longjmp(p->fail) with p->err set (the caller's).
 */
struct rnode	*goregexp_parse(struct rparser *);
/* Free every node and class p still owns; p itself is the caller's. */
void		 goregexp_parser_release(struct rparser *);

/* Class building: ranges lo,hi appended to r, then sorted and merged. */
void		 goregexp_append_range(struct runes *, uint32_t, uint32_t);
void		 goregexp_append_folded_range(struct runes *, uint32_t, uint32_t);
void		 goregexp_clean_class(struct runes *);
void		 goregexp_runes_push(struct runes *, uint32_t);
/* Append the complement of the clean class x[0..n) to r. */
void		 goregexp_append_negated(struct runes *, const uint32_t *, size_t);
void		 goregexp_negate_class(struct runes *);
/* ASCII [0-9A-Za-z]. */
int		 goregexp_is_alnum(uint32_t);

#endif
