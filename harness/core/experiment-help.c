/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keys an experiment file takes, as help text generated from the
 * options tables (`abbench run --help [TYPE]`, `abbench help workloads`,
 * the man page).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "host/hostset.h"
#include "lib/options.h"
#include "lib/util.h"
#include "workloads/workload.h"

void
experiment_tables_check(void)
{
	const struct workload_ops *const	*t;

	opt_table_check("experiment", experiment_opts,
	    sizeof(struct experiment));
	opt_table_check("arm", arm_opts, sizeof(struct arm));
	opt_table_check("workload", workload_common_opts,
	    sizeof(struct workload_common));
	for (t = workload_types; *t != NULL; t++)
		opt_table_check((*t)->type, (*t)->opts, (*t)->opts_size);
}

void
experiment_help(struct strbuf *out)
{
	const struct workload_ops *const	*t;
	struct strbuf				 key = STRBUF_INIT;
	const char				*name, *help;
	size_t					 i;
	int					 prefix;

	strbuf_adds(out, "[experiment] keys (abbench run also takes each as "
	    "--KEY=VALUE):\n");
	opt_help(experiment_opts, out);
	strbuf_adds(out, "\n[arm NAME] keys (and the keys of the workload "
	    "types marked \"an arm may set it\"):\n");
	opt_help(arm_opts, out);
	strbuf_adds(out, "\nhost settings an arm may set (restored when the "
	    "run ends):\n");
	for (i = 0; (help = hostset_key_help(i, &name, &prefix)) != NULL;
	    i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "  %s%s", name, prefix ? "NAME" : "");
		opt_help_line(out, key.buf, help);
	}
	strbuf_release(&key);
	strbuf_adds(out, "\n[workload NAME] keys of every type (abbench run "
	    "also takes a workload\nkey as --KEY=VALUE, set in every workload "
	    "that has it, or as\n--WORKLOAD.KEY=VALUE for one):\n");
	opt_help(workload_common_opts, out);
	strbuf_adds(out, "\nworkload types (abbench run --help TYPE lists "
	    "the keys of one):\n");
	for (t = workload_types; *t != NULL; t++)
		strbuf_addf(out, "  %-14s %s\n", (*t)->type,
		    (*t)->help != NULL ? (*t)->help : "");
}

void
experiment_help_type(const struct workload_ops *ops, struct strbuf *out)
{
	strbuf_addf(out, "workload type %s: %s\n", ops->type,
	    ops->help != NULL ? ops->help : "");
	if (ops->default_exec != NULL)
		strbuf_addf(out, "default executor: %s\n", ops->default_exec);
	strbuf_addf(out, "\n[workload NAME] keys of type %s (abbench run also "
	    "takes each as\n--KEY=VALUE or --WORKLOAD.KEY=VALUE):\n",
	    ops->type);
	opt_help(ops->opts, out);
	strbuf_adds(out, "\nand the keys of every workload:\n");
	opt_help(workload_common_opts, out);
}

void
experiment_help_types(struct strbuf *out)
{
	const struct workload_ops *const	*t;

	for (t = workload_types; *t != NULL; t++) {
		if (t != workload_types)
			strbuf_addc(out, '\n');
		experiment_help_type(*t, out);
	}
}
