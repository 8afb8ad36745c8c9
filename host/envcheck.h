/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host noise check behind `abbench env` and the warnings `abbench run`
 * prints and stores at start.
 */
#ifndef ABBENCH_ENVCHECK_H
#define ABBENCH_ENVCHECK_H

#include <stddef.h>

#include "lib/util.h"

/* Fill warnings (one line each) and report (lines of the full report). */
int	envcheck_run(char *const *paths, size_t n, struct strvec *warnings,
	    struct strvec *report, char **cause);

#endif
