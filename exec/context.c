/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run context's services for executors and workloads: the journal of
 * objects (through the hooks the runner sets), scratch paths, the stop
 * flag.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "exec/context.h"
#include "lib/util.h"

int64_t
run_journal_object(struct run_ctx *ctx, const char *kind, const char *target)
{
	if (ctx == NULL || ctx->journal_object == NULL)
		return -1;
	return ctx->journal_object(ctx, kind, target);
}

void
run_forget_object(struct run_ctx *ctx, int64_t id)
{
	if (ctx != NULL && ctx->forget_object != NULL)
		ctx->forget_object(ctx, id);
}

char *
run_scratch_file(const struct run_ctx *ctx, const char *name,
    const char *suffix)
{
	char	*base, *path;

	if (suffix == NULL)
		suffix = "";
	if (ctx != NULL && ctx->scratch != NULL)
		return xasprintf("%s/%s%s", ctx->scratch, name, suffix);
	base = xasprintf("abbench-%ld-%s%s", (long)getpid(), name, suffix);
	path = tmp_path(base);
	free(base);
	return path;
}

int
run_should_stop(const struct run_ctx *ctx)
{
	return ctx->stop != NULL && *ctx->stop != 0;
}
