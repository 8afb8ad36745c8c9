/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command line: every flag of every command's table is in its --help
 * and in the manual page (both made from the table), and the parser made
 * from it answers the mistakes of a benchstat user: a single-dash long
 * flag, a missing value, an unknown word, an unknown command.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

/* What fn prints to fp, as a string (malloc'd). */
static char *
capture_usage(const struct cmd_entry *e)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp = open_memstream(&buf, &len);

	cmd_print_usage(e, fp);
	fclose(fp);
	return buf;
}

static char *
capture_man(void)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp = open_memstream(&buf, &len);

	cmd_print_man(fp);
	fclose(fp);
	return buf;
}

/* "--no-run" as roff writes it: every '-' is "\\-". */
static char *
roff_flag(const char *name)
{
	struct strbuf	sb = STRBUF_INIT;

	strbuf_adds(&sb, "\\-\\-");
	for (; *name != '\0'; name++) {
		if (*name == '-')
			strbuf_adds(&sb, "\\-");
		else
			strbuf_addc(&sb, *name);
	}
	return strbuf_detach(&sb);
}

static void
test_flags_documented(void)
{
	const struct cmd_entry *const	*e;
	const struct cmd_flag		*f;
	char				*help, *man, *want;
	int				 n = 0, missing = 0, tables = 0;

	man = capture_man();
	for (e = cmd_table; *e != NULL; e++) {
		/* stat's are benchstat's own (and --db, its help says). */
		if ((*e)->opts == NULL) {
			tap_ok((*e)->flags & CMD_OWN_FLAGS,
			    "%s: its flags come from a table", (*e)->name);
			continue;
		}
		tables++;
		help = capture_usage(*e);
		for (f = (*e)->opts; f->name != NULL; f++) {
			n++;
			want = xasprintf("--%s", f->name);
			if (strstr(help, want) == NULL) {
				TAP_DIAG("%s --help lacks %s", (*e)->name,
				    want);
				missing++;
			}
			free(want);
			want = roff_flag(f->name);
			if (strstr(man, want) == NULL) {
				TAP_DIAG("the man page lacks %s --%s",
				    (*e)->name, f->name);
				missing++;
			}
			free(want);
		}
		free(help);
	}
	tap_ok(tables >= 10, "%d commands parse from a flag table", tables);
	tap_ok(n > 40 && missing == 0,
	    "every flag of every table is in its --help and the man page "
	    "(%d flags, %d missing)", n, missing);
	tap_ok(strstr(man, "\\-\\-no\\-restore\\-check") != NULL &&
	    strstr(man, "\\-\\-scheduler") != NULL &&
	    strstr(man, "\\-\\-merge\\-job") != NULL &&
	    strstr(man, "\\-\\-replica") != NULL,
	    "the undocumented flags are documented");
	free(man);
}

/*
 * Every flag names the member its value goes to (the parser fills the
 * command's options struct; no switch reads it), inside the struct the
 * entry declares; a short letter stands for one flag of a scope.
 */
static void
test_flags_bound(void)
{
	const struct cmd_entry *const	*e;
	const struct cmd_flag		*f, *g;
	int				 n = 0, unbound = 0, dup = 0;

	for (e = cmd_table; *e != NULL; e++) {
		for (f = (*e)->opts; f != NULL && f->name != NULL; f++) {
			n++;
			if (f->opt.at.size == 0 || f->opt.at.off +
			    f->opt.at.size > (*e)->opts_size) {
				TAP_DIAG("%s --%s binds no member of its "
				    "struct", (*e)->name, f->name);
				unbound++;
			}
			for (g = f + 1; f->short_name != 0 && g->name != NULL;
			    g++)
				if (g->short_name == f->short_name &&
				    (f->scope == NULL || g->scope == NULL ||
				    strcmp(f->scope, g->scope) == 0)) {
					TAP_DIAG("%s: -%c is --%s and --%s",
					    (*e)->name, f->short_name, f->name,
					    g->name);
					dup++;
				}
		}
	}
	tap_ok(n > 40 && unbound == 0, "every flag binds a member of its "
	    "command's options struct (%d flags, %d not)", n, unbound);
	tap_int_eq(dup, 0, "a short letter is one flag of a scope");
}

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_power_entry;

/* Parse argv (NULL-terminated) with e's table: the first return that is
 * not a flag's, and the message on stderr. */
static int
parse(const struct cmd_entry *e, int keys, char **argv, char **err)
{
	FILE	*tmp = tmpfile();
	size_t	 len;
	int	 argc = 0, c, saved = dup(2);

	while (argv[argc] != NULL)
		argc++;
	/* error() writes to stderr: into a file for the time of it. */
	fflush(stderr);
	dup2(fileno(tmp), 2);
	optind = 1;
	while ((c = cmd_getopt(e, NULL, keys, argc, argv)) != -1)
		if (c == CMD_FLAG_ERROR || c == '=')
			break;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	len = (size_t)ftell(tmp);
	rewind(tmp);
	*err = xcalloc(1, len + 1);
	if (fread(*err, 1, len, tmp) != len)
		(*err)[0] = '\0';
	fclose(tmp);
	return c;
}

static void
test_mistakes(void)
{
	char	*a1[] = { "run", "-rounds", "3", "x.ini", NULL };
	char	*a2[] = { "power", "--db", "gz.db", "-format", "csv", "last",
		    NULL };
	char	*a3[] = { "power", "--db", "x.db", "last", "--effect", NULL };
	char	*a4[] = { "run", "x.ini", "--timeout", "0", NULL };
	char	*a5[] = { "run", "x.ini", "--timeout=0", NULL };
	char	*a6[] = { "power", "--bogus", "last", NULL };
	char	*err;
	const char *cause_hint;
	char	*cause = NULL;

	tap_int_eq(parse(&cmd_run_entry, 1, a1, &err), CMD_FLAG_ERROR,
	    "-rounds: an error");
	tap_str_eq(err, "abbench: run: unknown option '-rounds': did you mean "
	    "--rounds?\n", "-rounds: did you mean --rounds?");
	free(err);
	tap_int_eq(parse(&cmd_power_entry, 0, a2, &err), CMD_FLAG_ERROR,
	    "-format: an error");
	tap_ok(strstr(err, "'-format'") != NULL && strstr(err, "gz.db") ==
	    NULL, "-format: the word that is wrong, not the one before");
	free(err);
	tap_int_eq(parse(&cmd_power_entry, 0, a3, &err), CMD_FLAG_ERROR,
	    "--effect without a value: an error");
	tap_str_eq(err, "abbench: power: --effect needs a value (PCT)\n",
	    "a missing value names the flag");
	free(err);
	tap_int_eq(parse(&cmd_run_entry, 1, a4, &err), '=', "--timeout 0");
	tap_str_eq(optarg, "timeout=0", "--timeout 0 is --timeout=0");
	free(err);
	tap_int_eq(parse(&cmd_run_entry, 1, a5, &err), '=', "--timeout=0");
	tap_str_eq(optarg, "timeout=0", "the same key and value");
	free(err);
	tap_int_eq(parse(&cmd_power_entry, 0, a6, &err), CMD_FLAG_ERROR,
	    "an unknown flag");
	tap_ok(strstr(err, "'--bogus'") != NULL, "names the word");
	free(err);

	cause_hint = cmd_nearest("stst");
	tap_str_eq(cause_hint, "stat", "stst: nearest is stat");
	tap_ok(cmd_find("stst", &cause) == NULL && cause != NULL &&
	    strstr(cause, "did you mean 'stat'?") != NULL,
	    "an unknown command suggests the nearest");
	free(cause);
	tap_ok(cmd_nearest("xyzzyq") == NULL, "nothing near: no suggestion");
}

int
main(void)
{
	test_flags_documented();
	test_flags_bound();
	test_mistakes();
	return tap_done();
}
