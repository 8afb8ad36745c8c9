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

void
cmd_run_help(int argc, char **argv, FILE *fp)
{
	const struct workload_ops	*ops;
	struct strbuf			 sb = STRBUF_INIT;
	struct strvec			 types = STRVEC_INIT;
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
		return;
	}
	cmd_print_usage(&cmd_run_entry, fp);
	if (what == NULL) {
		experiment_help(&sb);
		fprintf(fp, "\n%s", sb.buf);
		strbuf_release(&sb);
		return;
	}
	path = experiment_find(what);
	if ((text = read_file(path, NULL, &cause)) == NULL) {
		fprintf(fp, "\nexperiment '%s': %s\n", what, cause);
		free(cause);
		free(path);
		return;
	}
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
}
