/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Between the experiment file's reader (experiment-read.c) and its loader
 * (experiment.c): the sections read, with the line of every key.
 */
#ifndef ABBENCH_EXPERIMENT_INT_H
#define ABBENCH_EXPERIMENT_INT_H

#include <stddef.h>

#include "lib/options.h"

struct workload_ops;

enum section_kind {
	SECTION_EXPERIMENT,
	SECTION_ARM,
	SECTION_WORKLOAD,
};

struct section {
	enum section_kind	 kind;
	char			*name;		/* arm or workload name */
	char			*title;		/* "[arm a]" for messages */
	int			 line;
	struct kv		*kv;
	size_t			 nkv, cap;
};

struct parser {
	const char	*path;
	const char	*text;
	size_t		 len, pos;
	int		 line;		/* of the line inih has last read */
	char		*cause;
	struct section	*sections;
	size_t		 nsections, cap;
	const struct workload_ops *const *types;
};

/* "PATH:LINE: KEY: message" into p->cause (the first one only); -1. */
int	parser_error(struct parser *p, int line, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Read p->text into p->sections; 0, or -1 with p->cause. */
int	parser_run(struct parser *p);
void	parser_release(struct parser *p);
void	kv_release(struct kv *kv, size_t n);
/*
 * A key's value checked against its option o (experiment.c) and split
 * into words: one word is the value (its quotes removed), several are a
 * matrix axis where matrix_ok allows it. The words go to *out; 0, or -1
 * with p->cause naming the line and key.
 */
struct strvec;
int	parser_check_kv(struct parser *p, const struct opt_spec *o,
	    const struct kv *kv, const char *title, int matrix_ok,
	    struct strvec *out);

#endif
