/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target of the experiment loader: experiment_parse() on
 * arbitrary bytes must never crash, leak or trip a sanitizer, must either
 * return an experiment or a message (never both, never neither), every
 * message must start with the file name, and a loaded experiment must hold
 * together (names, axes, an options struct per arm).
 *
 * tests/integration/t0210-fuzz-experiment.sh builds and runs it for 15 s
 * in `make check`. A longer run, from the build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -I. -I$SRC $(pkg-config --cflags inih) \
 *       $SRC/tests/fuzz/fuzz-experiment.c $SRC/harness/core/experiment.c \
 *       $SRC/harness/core/experiment-read.c \
 *       $SRC/lib/util.c libabbench.a \
 *       $(pkg-config --libs gsl sqlite3 libcgroup jansson inih) -lm \
 *       -o fuzz-experiment
 *   mkdir -p corpus && cp $SRC/tests/data/experiments/[a-z]*.ini \
 *       $SRC/experiments/[a-z]*.ini corpus/
 *   ./fuzz-experiment -max_total_time=3600 -jobs=$(nproc) \
 *       -dict=$SRC/tests/fuzz/experiment.dict corpus
 *
 * (the integration test prints the exact command it used). A crash leaves
 * crash-* files to replay with `./fuzz-experiment crash-...`.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "workloads/workload.h"
#include "lib/util.h"

#define FUZZ_PATH "fuzz.ini"

static void
fuzz_check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz-experiment: broken invariant: %s\n",
		    what);
		abort();
	}
}

static void
fuzz_check_experiment(const struct experiment *e)
{
	const struct workload *wl;
	size_t		 i, j, k;

	fuzz_check(e->narms >= 1, "at least one arm");
	fuzz_check(e->nworkloads >= 1, "at least one workload");
	fuzz_check(e->rounds >= 1, "rounds >= 1");
	fuzz_check(e->warmup >= 0, "warmup >= 0");
	fuzz_check(e->timeout_ns > 0, "timeout > 0");
	fuzz_check(e->name != NULL && *e->name != '\0', "a name");
	for (i = 0; i < e->narms; i++) {
		fuzz_check(strchr(e->arms[i].name, '/') == NULL &&
		    strchr(e->arms[i].name, ':') == NULL, "arm name");
		for (j = 0; j < i; j++)
			fuzz_check(strcmp(e->arms[i].name,
			    e->arms[j].name) != 0, "unique arm names");
	}
	for (i = 0; i < e->nworkloads; i++) {
		wl = &e->workloads[i];
		fuzz_check(str_startswith(wl->name, wl->base), "base name");
		fuzz_check(wl->naxes <= wl->nkv, "axes are keys");
		fuzz_check(wl->timeout_ns > 0, "workload timeout > 0");
		for (j = 0; j < wl->naxes; j++)
			fuzz_check(strcmp(workload_get(wl, NULL,
			    wl->axes[j].key), wl->axes[j].value) == 0,
			    "axis value is the key's value");
		/* Every arm has its options struct. */
		for (k = 0; wl->ops->opts_size > 0 && k < e->narms; k++)
			fuzz_check(wl_opts(wl, &e->arms[k]) != NULL,
			    "an options struct per arm");
		for (j = 0; j < wl->nkv; j++) {
			for (k = 0; k < e->narms; k++) {
				fuzz_check(workload_get(wl, &e->arms[k],
				    wl->kv[j].key) != NULL, "value of a key");
			}
		}
		for (j = 0; j < i; j++)
			fuzz_check(strcmp(wl->name, e->workloads[j].name) != 0,
			    "unique workload names");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input is a file, optionally followed by a line "#SET" and one
 * command-line KEY=VALUE a line (abbench run --KEY=VALUE): both the
 * [experiment] and the workload overrides are fuzzed with the file.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct experiment	*e;
	struct strvec		 set = STRVEC_INIT;
	const char		*text = (const char *)data, *mark, *p, *nl;
	char			*cause = NULL, *tail = NULL;
	size_t			 len = size;

	mark = memmem(text, size, "\n#SET\n", 6);
	if (mark != NULL) {
		len = (size_t)(mark - text) + 1;
		tail = xstrndup(mark + 6, size - len - 5);
		for (p = tail; *p != '\0'; p = nl + (*nl != '\0')) {
			nl = strchrnul(p, '\n');
			/* cmd-run passes on only --KEY=VALUE with a KEY. */
			if (nl > p && *p != '=' && memchr(p, '=',
			    (size_t)(nl - p)) != NULL)
				strvec_pushf(&set, "%.*s", (int)(nl - p), p);
		}
	}
	e = experiment_parse_set(FUZZ_PATH, text, len, set.v, &cause);
	fuzz_check((e == NULL) != (cause == NULL),
	    "an experiment or a message");
	if (cause != NULL)
		fuzz_check(strncmp(cause, FUZZ_PATH ":", strlen(FUZZ_PATH) + 1)
		    == 0, "messages start with the file name");
	if (e != NULL) {
		fuzz_check(memcmp(e->text, data, len) == 0, "text kept");
		fuzz_check_experiment(e);
	}
	experiment_free(e);
	free(cause);
	free(tail);
	strvec_clear(&set);
	return 0;
}
