/*
 * The table of subcommands and their lookup by unique prefix.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "lib/util.h"
#include "results/store.h"

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_stat_entry;
extern const struct cmd_entry cmd_db_entry;
extern const struct cmd_entry cmd_plot_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_nightly_entry;
extern const struct cmd_entry cmd_env_entry;
extern const struct cmd_entry cmd_restore_entry;
extern const struct cmd_entry cmd_power_entry;
extern const struct cmd_entry cmd_calibrate_entry;
extern const struct cmd_entry cmd_fleet_entry;

const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_stat_entry,
	&cmd_db_entry,
	&cmd_plot_entry,
	&cmd_report_entry,
	&cmd_nightly_entry,
	&cmd_env_entry,
	&cmd_restore_entry,
	&cmd_calibrate_entry,
	&cmd_power_entry,
	&cmd_fleet_entry,
	NULL
};

const struct cmd_topic cmd_topics[] = {
	{ "experiment", "the keys of an experiment file", experiment_help,
	  NULL },
	{ "workloads", "every workload type and its keys",
	  experiment_help_types, NULL },
	{ "man", "the manual page abbench(1) in roff", NULL, cmd_print_man },
	{ NULL, NULL, NULL, NULL }
};

void
cmd_topic_print(const struct cmd_topic *t, FILE *fp)
{
	struct strbuf	sb = STRBUF_INIT;

	if (t->print != NULL) {
		t->print(fp);
		return;
	}
	t->text(&sb);
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

const struct cmd_topic *
cmd_topic_find(const char *name)
{
	const struct cmd_topic	*t;

	for (t = cmd_topics; t->name != NULL; t++) {
		if (strcmp(t->name, name) == 0)
			return t;
	}
	return NULL;
}

const struct cmd_entry *
cmd_find(const char *name, char **cause)
{
	const struct cmd_entry *const	*e;
	const struct cmd_entry		*found = NULL;
	struct strbuf			 amb = STRBUF_INIT;
	size_t				 n = strlen(name);
	int				 matches = 0;

	for (e = cmd_table; *e != NULL; e++) {
		if (strcmp((*e)->name, name) == 0)
			return *e;
		if (n > 0 && strncmp((*e)->name, name, n) == 0) {
			if (matches++ > 0)
				strbuf_adds(&amb, ", ");
			strbuf_adds(&amb, (*e)->name);
			found = *e;
		}
	}
	if (matches == 1) {
		strbuf_release(&amb);
		return found;
	}
	if (matches > 1)
		set_cause(cause, "ambiguous command '%s': %s", name, amb.buf);
	else
		set_cause(cause, "unknown command '%s' (try abbench --help)",
		    name);
	strbuf_release(&amb);
	return NULL;
}

void
cmd_print_usage(const struct cmd_entry *e, FILE *fp)
{
	fprintf(fp, "usage: abbench %s %s\n\n%s", e->name, e->args, e->help);
	if (e->help[0] != '\0' && e->help[strlen(e->help) - 1] != '\n')
		fputc('\n', fp);
}

int
cmd_wants_help(const struct cmd_entry *e, int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			if (e->help_args != NULL)
				e->help_args(argc, argv, stdout);
			else
				cmd_print_usage(e, stdout);
			return 1;
		}
	}
	return 0;
}

const char *
cmd_db_path(const char *opt)
{
	const char	*env;

	if (opt != NULL)
		return opt;
	if ((env = getenv("ABBENCH_DB")) != NULL && *env != '\0')
		return env;
	return "abbench.db";
}

int
cmd_open_run(const char *name, const char *db, int argc, char **argv,
    struct store **stp, struct store_run *run)
{
	char	*cause = NULL;

	if (argc - optind != 1) {
		error("%s: one run is needed (an id, uuid prefix, last or "
		    "NAME@last)", name);
		return -1;
	}
	if ((*stp = store_open(cmd_db_path(db), STORE_READONLY, &cause)) ==
	    NULL) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	memset(run, 0, sizeof *run);
	/* A damaged file is refused, not half read into the output. */
	if (store_quick_check(*stp, &cause) == -1 ||
	    store_run_find(*stp, argv[optind], run, &cause) == -1) {
		error("%s", cause);
		free(cause);
		store_close(*stp);
		*stp = NULL;
		return -1;
	}
	return 0;
}
