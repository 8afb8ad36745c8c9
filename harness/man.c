/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The manual page abbench(1) in roff, generated from the command table and
 * the options tables (`abbench help man`; make builds abbench.1 with it), so
 * that it lists what this abbench takes and nothing else.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd.h"
#include "harness/core/experiment.h"
#include "lib/util.h"

/*
 * The EXAMPLES section: a first session, each command as typed (no
 * double quote: .B takes it as an argument's delimiter).
 */
static const struct cmd_note man_examples[] = {
	{ "abbench run -- 'runc --version' -- 'runsc --version'",
	  "Two commands compared without a file, like hyperfine: interleaved, "
	  "stored in ./abbench.db, rounds until each row is decided; the "
	  "table is benchstat's." },
	{ "abbench run --rounds 20 --until rounds -- 'sleep 0.01' -- 'sleep 0.012'",
	  "The same with a fixed number of rounds (flags go before the first "
	  "--)." },
	{ "abbench run experiments/docker-run-startup.ini",
	  "An experiment file: its arms, workloads and host settings; the "
	  "host is restored at the end, on error and on Ctrl-C." },
	{ "abbench run --resume 3",
	  "Continue run 3 after a Ctrl-C or a kill -9 (abbench restore first "
	  "puts back what a killed run left on the host)." },
	{ "abbench db ls",
	  "The runs in the database, their arms and sample counts." },
	{ "abbench stat --db abbench.db last",
	  "The last run's table again; -format csv or markdown for a code "
	  "review." },
	{ "abbench compare 3 5",
	  "Two runs side by side, every arm of each." },
	{ "abbench stat old.txt new.txt",
	  "Go benchstat's comparison of two benchfmt files, byte for byte (its "
	  "flags go before the files)." },
	{ "abbench power --db abbench.db last --effect 2",
	  "What the run could have detected, and the rounds that would show a "
	  "2% change." },
	{ "abbench report last -o report.html",
	  "An HTML report of the last run: its tables, verdicts, plots and "
	  "host." },
	{ "abbench nightly experiments/quickstart-dd.ini --db nightly.db",
	  "Tonight's run judged against the nights before it (cron); exit 1 "
	  "on a regression." },
	{ NULL, NULL }
};

/* Text as roff: backslashes escaped, no line starting a request. */
static void
roff_text(FILE *fp, const char *text)
{
	const char	*p;
	int		 bol = 1;

	for (p = text; *p != '\0'; p++) {
		if (bol && (*p == '.' || *p == '\''))
			fputs("\\&", fp);
		if (*p == '\\')
			fputs("\\e", fp);
		else if (*p == '-')
			fputs("\\-", fp);
		else
			fputc(*p, fp);
		bol = *p == '\n';
	}
	if (!bol)
		fputc('\n', fp);
}

/* Preformatted text (the help of the tables keeps its columns). */
static void
roff_block(FILE *fp, const char *text)
{
	fputs(".nf\n", fp);
	roff_text(fp, text);
	fputs(".fi\n", fp);
}

void
cmd_print_man(FILE *fp)
{
	const struct cmd_entry *const	*e;
	const struct cmd_topic		*t;
	const struct cmd_note		*n;
	struct strbuf			 sb = STRBUF_INIT;

	fprintf(fp, ".TH ABBENCH 1 \"\" \"abbench %s\" \"User Commands\"\n",
	    PACKAGE_VERSION);
	fputs(".SH NAME\nabbench \\- A/B benchmarks of container runtimes "
	    "and Linux hosts\n.SH SYNOPSIS\n", fp);
	for (e = cmd_table; *e != NULL; e++) {
		fprintf(fp, ".B abbench %s\n", (*e)->name);
		roff_text(fp, (*e)->args);
		fputs(".br\n", fp);
	}
	fputs(".SH DESCRIPTION\n", fp);
	roff_text(fp, "abbench runs interleaved A/B experiments on container "
	    "runtimes and hosts, stores every sample in SQLite and compares "
	    "arms like Go's benchstat. Any unique prefix of a command "
	    "works.");
	fputs(".SH COMMANDS\n", fp);
	for (e = cmd_table; *e != NULL; e++) {
		char	*flags = NULL;
		size_t	 len = 0;
		FILE	*mem;

		fprintf(fp, ".SS %s\n", (*e)->name);
		roff_text(fp, (*e)->summary);
		fputs(".PP\n", fp);
		roff_block(fp, (*e)->help);
		/* The flags from the table its parser reads. */
		if ((*e)->opts != NULL &&
		    (mem = open_memstream(&flags, &len)) != NULL) {
			cmd_print_flags(*e, mem);
			fclose(mem);
			roff_block(fp, flags + (flags[0] == '\n'));
			free(flags);
		}
	}
	fputs(".SH EXPERIMENT FILES\n", fp);
	roff_text(fp, "An experiment is an INI file of one [experiment] "
	    "section, one or more [arm NAME] sections (the first is the "
	    "baseline) and one or more [workload NAME] sections. A workload "
	    "key with several words makes a matrix. Every [experiment] key "
	    "can also be given on the command line of abbench run as "
	    "\\-\\-KEY=VALUE.");
	experiment_help(&sb);
	roff_block(fp, sb.buf);
	fputs(".SH WORKLOAD TYPES\n", fp);
	strbuf_reset(&sb);
	experiment_help_types(&sb);
	roff_block(fp, sb.buf);
	fputs(".SH HELP TOPICS\n", fp);
	for (t = cmd_topics; t->name != NULL; t++)
		fprintf(fp, ".TP\n.B abbench help %s\n%s\n", t->name,
		    t->summary);
	fputs(".SH ENVIRONMENT\n", fp);
	for (n = cmd_environment; n->name != NULL; n++) {
		fprintf(fp, ".TP\n.B %s\n", n->name);
		roff_text(fp, n->text);
	}
	fputs(".SH FILES\n", fp);
	for (n = cmd_files; n->name != NULL; n++) {
		fputs(".TP\n.I ", fp);
		roff_text(fp, n->name);
		roff_text(fp, n->text);
	}
	fputs(".SH EXAMPLES\n", fp);
	for (n = man_examples; n->name != NULL; n++) {
		fputs(".TP\n.B ", fp);
		roff_text(fp, n->name);
		roff_text(fp, n->text);
	}
	fputs(".SH EXIT STATUS\n", fp);
	for (n = cmd_exit_status; n->name != NULL; n++) {
		fprintf(fp, ".TP\n.B %s\n", n->name);
		roff_text(fp, n->text);
	}
	fputs(".SH SEE ALSO\n", fp);
	for (n = cmd_see_also; n->name != NULL; n++) {
		const char	*paren = strchr(n->name, '(');

		fprintf(fp, ".BR %.*s %s%s\n", (int)(paren - n->name),
		    n->name, paren, n[1].name == NULL ? "" : ",");
	}
	fputs("The README, the design and the recipes: ", fp);
	roff_text(fp, ABBENCH_DOCDIR "/.");
	strbuf_release(&sb);
}
