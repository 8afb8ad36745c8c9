/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The experiment `abbench run -- CMD -- CMD` stands for, as the text of
 * an experiment file: the loader, the store, --resume and `db show` then
 * treat an inline run like any other (its text is stored with the run),
 * and nothing about the commands is decided twice.
 */
#include "config.h"

#include <string.h>

#include "harness/core/experiment.h"
#include "lib/util.h"

/* A word as the loader reads it back (strvec_split_words): "..." with
 * \" and \\, so that blanks, ; and # inside stay the word's. */
static void
add_quoted(struct strbuf *sb, const char *w)
{
	strbuf_addc(sb, '"');
	for (; *w != '\0'; w++) {
		if (*w == '"' || *w == '\\')
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, *w);
	}
	strbuf_addc(sb, '"');
}

char *
experiment_inline_text(char **const *argvs, size_t n, char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 i, k;

	if (n == 0 || n > EXPERIMENT_INLINE_MAX) {
		set_cause(cause, "%zu commands: give 1 to %d", n,
		    EXPERIMENT_INLINE_MAX);
		return NULL;
	}
	strbuf_adds(&sb, "; abbench run -- CMD -- CMD ...: each command's "
	    "argv, no shell\n[experiment]\nname = inline\n");
	for (i = 0; i < n; i++) {
		if (argvs[i][0] == NULL || argvs[i][0][0] == '\0') {
			strbuf_release(&sb);
			set_cause(cause, "command %zu is empty", i + 1);
			return NULL;
		}
		strbuf_addf(&sb, "\n[arm %c]\nargs =", (char)('A' + i));
		for (k = 0; argvs[i][k] != NULL; k++) {
			/* A file's line cannot hold a line break; its
			 * text goes to JSON, HTML and plots: UTF-8. */
			if (strpbrk(argvs[i][k], "\n\r") != NULL ||
			    !utf8_valid(argvs[i][k], strlen(argvs[i][k]),
			    NULL)) {
				strbuf_release(&sb);
				set_cause(cause, "command %zu: a word with %s",
				    i + 1, strpbrk(argvs[i][k], "\n\r") ?
				    "a line break" : "bytes that are not "
				    "UTF-8");
				return NULL;
			}
			strbuf_addc(&sb, ' ');
			add_quoted(&sb, argvs[i][k]);
		}
		strbuf_addc(&sb, '\n');
	}
	strbuf_adds(&sb, "\n[workload cmd]\ntype = command\n");
	return strbuf_detach(&sb);
}

char *
experiment_argv_line(char *const *argv, size_t n)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		k;

	for (k = 0; k < n; k++) {
		if (k > 0)
			strbuf_addc(&sb, ' ');
		if (argv[k][strcspn(argv[k], " \t'\"\\")] != '\0' ||
		    argv[k][0] == '\0') {
			strbuf_addc(&sb, '\'');
			strbuf_adds(&sb, argv[k]);
			strbuf_addc(&sb, '\'');
		} else
			strbuf_adds(&sb, argv[k]);
	}
	return strbuf_detach(&sb);
}
