/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench run --help [TYPE | EXPERIMENT]: the usage and the keys an
 * experiment file takes, generated from the options tables; for a
 * workload type its keys, for an experiment where it was found and the
 * keys of the types it uses.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "lib/util.h"
#include "workloads/workload.h"

/* The workload types an experiment file names (`type = X` lines). */
static void
file_types(const char *text, struct strvec *types)
{
	const char	*line, *p, *end;
	size_t		 n;

	for (line = text; line != NULL && *line != '\0'; line = end) {
		end = strchr(line, '\n');
		end = end != NULL ? end + 1 : NULL;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, "type", 4) != 0)
			continue;
		for (p += 4; *p == ' ' || *p == '\t'; p++)
			;
		if (*p != '=' && *p != ':')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		for (n = 0; p[n] != '\0' && !isspace((unsigned char)p[n]) &&
		    p[n] != ';' && p[n] != '#'; n++)
			;
		if (n > 0) {
			char	*t = xstrndup(p, n);

			if (!strvec_has(types, t))
				strvec_push(types, t);
			free(t);
		}
	}
}

int
cmd_run_help(int argc, char **argv, FILE *fp)
{
	const struct workload_ops	*ops;
	const struct workload_ops *const *t;
	struct strbuf			 sb = STRBUF_INIT;
	struct strvec			 types = STRVEC_INIT;
	struct nearest			 n;
	const char			*what = NULL;
	char				*path, *text, *cause = NULL;
	size_t				 i;
	int				 a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--") == 0)
			break;
		if (argv[a][0] != '-') {
			what = argv[a];
			break;
		}
	}
	if (what != NULL && (ops = workload_lookup(what)) != NULL) {
		experiment_help_type(ops, &sb);
		fputs(sb.buf, fp);
		strbuf_release(&sb);
		return EXIT_OK;
	}
	if (what == NULL) {
		cmd_print_usage(&cmd_run_entry, fp);
		experiment_help(&sb);
		fprintf(fp, "\n%s", sb.buf);
		strbuf_release(&sb);
		return EXIT_OK;
	}
	path = experiment_find(what);
	if ((text = read_file(path, NULL, &cause)) == NULL) {
		/* Neither a type nor a file: a typo of a type, or a path. */
		nearest_init(&n, what);
		for (t = workload_types; *t != NULL; t++)
			nearest_try(&n, (*t)->type);
		if (n.best != NULL)
			error("run --help: '%s' is no workload type or "
			    "experiment file: did you mean '%s'?", what,
			    n.best);
		else
			error("run --help: '%s' is no workload type (abbench "
			    "help workloads lists them) and no experiment: %s",
			    what, cause);
		free(cause);
		free(path);
		return EXIT_USAGE;
	}
	cmd_print_usage(&cmd_run_entry, fp);
	fprintf(fp, "\nexperiment file: %s\n", path);
	file_types(text, &types);
	for (i = 0; i < types.n; i++) {
		if ((ops = workload_lookup(types.v[i])) == NULL)
			continue;
		strbuf_reset(&sb);
		experiment_help_type(ops, &sb);
		fprintf(fp, "\n%s", sb.buf);
	}
	strbuf_release(&sb);
	strvec_clear(&types);
	free(text);
	free(path);
	return EXIT_OK;
}
