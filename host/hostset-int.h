/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the host settings (hostset.c), their ops table (hostset-ops.c) and
 * their recovery (recover.c) share: the ops, and how a setting's file is
 * read and compared.
 */
#ifndef ABBENCH_HOSTSET_INT_H
#define ABBENCH_HOSTSET_INT_H

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define CPU_DIR		"/sys/devices/system/cpu"

enum hs_flags {
	HS_PREFIX = 1 << 0,	/* name is a prefix (host.sysctl.) */
	HS_BLOCK = 1 << 1,	/* one target per disk */
	HS_BRACKET = 1 << 2,	/* the file reads "a [b] c": value is b */
	HS_META = 1 << 3,	/* not a setting (host.block.path) */
	HS_PERCPU = 1 << 4,	/* one target per CPU */
};

struct hostset_op {
	const char	*name;
	int		 flags;
	const char	*help;
	/* Syntax of the name's suffix (prefix ops) and of the value. */
	int		(*check)(const struct hostset_op *op, const char *name,
			    const char *value, char **cause);
	/* The file for one target; disk or cpu is set for block/per-cpu. */
	char		*(*path)(const char *name, const char *unit);
};

/* The op of a setting name (exact names first, then prefixes), or NULL. */
const struct hostset_op *hostset_find_op(const char *name);
/* A non-empty run of digits. */
int	 hostset_is_uint(const char *v);
/* A non-empty word of alphanumerics and the characters in extra. */
int	 hostset_is_word(const char *v, const char *extra);
/*
 * The documented range of a sysctl ("vm.swappiness"): 1 with *min, *max,
 * 0 when none is known (the kernel is asked before the run instead).
 */
int	 hostset_sysctl_range(const char *sysctl, long long *min,
	    long long *max);
/* Is v one of the space-separated words of list? */
int	 hostset_in_list(const char *v, const char *list);

/* The current value of a setting's file (the bracketed word where the
 * file lists choices: "a [b] c" reads b). */
char	*hostset_read(const char *path, int bracket, char **cause);
/* Values compare with blanks folded (sysctl "a\tb" equals "a b"). */
int	 hostset_same(const char *a, const char *b);
/*
 * A tunable the kernel keeps in ticks reads back rounded up to the next
 * whole tick: at most HOSTSET_TICK_MS above the value written (one tick at
 * HZ=100, the coarsest; 4 ms at HZ=250). That is the documented tolerance
 * with which such a tunable holds its value (host.block.read_expire = 250
 * holds as 252).
 */
#define HOSTSET_TICK_MS	10
/*
 * Does a setting's file (of setting key) reading cur hold want: the same
 * (hostset_same), or for a tick-based tunable within the tolerance above.
 */
int	 hostset_knob_same(const char *key, const char *cur, const char *want);
/* Does the file at path list choices with the current one bracketed? */
int	 hostset_bracketed(const char *path);

#endif
