/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abbench db: inspect and manage the results database: list and show
 * runs, export them as benchfmt, import benchfmt files as a run, merge the
 * databases of several hosts, check consistency, remove a run.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/cmd.h"
#include "host/journal.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/store.h"

struct db_opts {
	const char	*db;
	int		 durable;
	int		 json;		/* ls --json */
	const char	*arm;
	const char	*outdir;
	const char	*name;
	const char	*host;
};
#define DB(m)	OPT_AT(struct db_opts, m)

static int
db_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
db_usage(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	error("db: %s", msg);
	free(msg);
	return EXIT_USAGE;
}

extern const struct cmd_entry cmd_db_entry;

/* The scope is the subcommands that take it. */
static const struct cmd_flag db_flags[] = {
	CMD_STR("db", 0, "FILE", DB(db),
	    "the database (default $ABBENCH_DB, else ./abbench.db)"),
	CMD_STR("arm", 0, "ARM", DB(arm), "only this arm",
	    .scope = "export"),
	CMD_STR("output", 'o', "DIR", DB(outdir),
	    "one file per arm in DIR, named after the arm\n"
	    "(ARM.txt, or ARM when it ends in .txt); also -o",
	    .scope = "export"),
	CMD_STR("name", 0, "NAME", DB(name),
	    "the run's name (default: import)", .scope = "import"),
	CMD_STR("host", 0, "HOST", DB(host),
	    "the host it came from (default: this one)", .scope = "import"),
	CMD_FLAG_("durable", 0, NULL, "every commit waits for the disk "
	    "(synchronous=FULL)", .opt = OPT_BOOL("durable", DB(durable),
	    NULL, NULL), .store_flags = STORE_DURABLE),
	CMD_BOOL("json", 0, DB(json), "the runs as one JSON object (schema: "
	    "docs/guide.md, \"Machine-readable output\")", .scope = "ls"),
	CMD_FLAG_END
};

static struct store *
db_open(const struct db_opts *o, int flags)
{
	struct store	*st;
	char		*cause = NULL;

	if (o->durable)
		flags |= STORE_DURABLE;
	st = store_open(cmd_db_path(o->db), flags, &cause);
	if (st == NULL) {
		error("%s", cause);
		free(cause);
	}
	return st;
}

/* The one RUN operand of a subcommand (CMD_ONE_RUN), found in the store
 * the dispatcher opened: 0, or -1 after printing why. */
static int
db_find_run(const struct cmd_ctx *c, struct store_run *r)
{
	char	*cause = NULL;

	if (store_run_find(c->st, c->argv[0], r, &cause) != 0) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

static void
fmt_time(int64_t ns, char *buf, size_t len)
{
	if (ns <= 0)
		snprintf(buf, len, "-");
	else
		format_wall_time(ns, buf, len);
}

static void
join_arms(const struct store_run *r, struct strbuf *sb)
{
	size_t	i;

	for (i = 0; i < r->narms; i++) {
		if (i > 0)
			strbuf_addc(sb, ',');
		strbuf_adds(sb, r->arms[i]);
	}
	if (sb->buf == NULL)
		strbuf_adds(sb, "");
}

/* The fleet a run belongs to (its fleet-id config key), or "". */
static char *
run_fleet_id(struct store *st, int64_t run_id)
{
	struct store_kv	*kv = NULL;
	size_t		 n = 0, i;
	char		*id = NULL;

	if (store_config_list(st, run_id, &kv, &n, NULL) == 0)
		for (i = 0; i < n && id == NULL; i++)
			if (kv[i].arm[0] == '\0' &&
			    strcmp(kv[i].key, "fleet-id") == 0)
				id = xstrdup(kv[i].value);
	store_kv_free(kv, n);
	return id != NULL ? id : xstrdup("");
}

/* A wall time as RFC 3339 UTC ("2026-12-02T01:47:29Z"), or null. */
static json_t *
json_time(int64_t ns)
{
	char		buf[32];
	time_t		t = (time_t)(ns / 1000000000);
	struct tm	tm;

	if (ns <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return json_null();
	return json_string(buf);
}

/* ls --json: the runs as one JSON object (schema: docs/guide.md). */
static int
db_ls_json(struct store *st, struct store_run *runs, size_t n)
{
	json_t	*root = json_object(), *list = json_array(), *r, *arms;
	char	*fleet;
	size_t	 i, j;

	for (i = 0; i < n; i++) {
		arms = json_array();
		for (j = 0; j < runs[i].narms; j++)
			json_array_append_new(arms, jw_str(runs[i].arms[j]));
		fleet = run_fleet_id(st, runs[i].id);
		/* Texts as lib/jsonw writes them ("o": never refused). */
		r = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		    "s:I, s:I, s:I, s:o}", "id", (json_int_t)runs[i].id,
		    "uuid", jw_str(runs[i].uuid), "name", jw_str(runs[i].name),
		    "host", jw_str(runs[i].host),
		    "started", json_time(runs[i].started_wall_ns),
		    "ended", json_time(runs[i].ended_wall_ns),
		    "status", jw_str(runs[i].status), "arms", arms,
		    "samples", (json_int_t)runs[i].nsamples,
		    "values", (json_int_t)runs[i].nvalues,
		    "failed", (json_int_t)runs[i].nfailed,
		    "fleet", *fleet ? jw_str(fleet) : json_null());
		free(fleet);
		json_array_append_new(list, r);
	}
	json_object_set_new(root, "runs", list);
	(void)jw_print(root, JSON_INDENT(2));
	return 0;
}

/* ls: one line per run, oldest first (a FLEET column when any run was
 * part of a fleet). */
static int
db_ls(struct cmd_ctx *c)
{
	struct db_opts		*o = c->opts;
	struct store		*st;
	struct store_run	*runs;
	struct strbuf		*arms;
	char			*cause = NULL, **samples, **fleets, t[64];
	size_t			 n, i;
	int			 w[6] = { 2, 4, 4, 4, 6, 4 };
	int			 len, wf = 0;

	st = c->st;
	if (store_runs_list(st, &runs, &n, &cause) != 0) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	if (o->json) {
		len = db_ls_json(st, runs, n) == 0 ? EXIT_OK : EXIT_USAGE;
		for (i = 0; i < n; i++)
			store_run_release(&runs[i]);
		free(runs);
		return len;
	}
	arms = xcalloc(n + 1, sizeof *arms);
	samples = xcalloc(n + 1, sizeof *samples);
	fleets = xcalloc(n + 1, sizeof *fleets);
	for (i = 0; i < n; i++) {
		fleets[i] = run_fleet_id(st, runs[i].id);
		len = (int)strlen(fleets[i]);
		wf = len > wf ? len : wf;
		join_arms(&runs[i], &arms[i]);
		if (runs[i].nfailed > 0)
			samples[i] = xasprintf("%lld (%lld values, %lld "
			    "failed)", (long long)runs[i].nsamples,
			    (long long)runs[i].nvalues,
			    (long long)runs[i].nfailed);
		else
			samples[i] = xasprintf("%lld (%lld values)",
			    (long long)runs[i].nsamples,
			    (long long)runs[i].nvalues);
		len = snprintf(NULL, 0, "%lld", (long long)runs[i].id);
		w[0] = len > w[0] ? len : w[0];
		len = (int)strlen(runs[i].name);
		w[2] = len > w[2] ? len : w[2];
		len = (int)strlen(runs[i].host);
		w[3] = len > w[3] ? len : w[3];
		len = (int)strlen(runs[i].status);
		w[4] = len > w[4] ? len : w[4];
		len = (int)strlen(arms[i].buf);
		w[5] = len > w[5] ? len : w[5];
	}
	if (wf > 0 && wf < 5)
		wf = 5;
	if (n > 0)
		printf("%-*s  %-8s  %-*s  %-*s  %-20s  %-*s  %-*s  %s%s%s\n",
		    w[0], "ID", "UUID", w[2], "NAME", w[3], "HOST", "STARTED",
		    w[4], "STATUS", w[5], "ARMS", wf > 0 ? "SAMPLES  " : "SAMPLES",
		    wf > 0 ? "FLEET" : "", "");
	for (i = 0; i < n; i++) {
		fmt_time(runs[i].started_wall_ns, t, sizeof t);
		if (wf > 0)
			printf("%-*lld  %-8.8s  %-*s  %-*s  %-20s  %-*s  %-*s  "
			    "%-7s  %s\n", w[0], (long long)runs[i].id,
			    runs[i].uuid, w[2], runs[i].name, w[3],
			    runs[i].host, t, w[4], runs[i].status, w[5],
			    arms[i].buf, samples[i], *fleets[i] ? fleets[i] :
			    "-");
		else
			printf("%-*lld  %-8.8s  %-*s  %-*s  %-20s  %-*s  %-*s  "
			    "%s\n", w[0], (long long)runs[i].id, runs[i].uuid,
			    w[2], runs[i].name, w[3], runs[i].host, t, w[4],
			    runs[i].status, w[5], arms[i].buf, samples[i]);
		free(fleets[i]);
		strbuf_release(&arms[i]);
		free(samples[i]);
		store_run_release(&runs[i]);
	}
	free(arms);
	free(samples);
	free(fleets);
	free(runs);
	return EXIT_OK;
}

/* Per benchmark and unit, the ok measured samples of each arm. */
static int
show_counts(struct store *st, const struct store_run *r)
{
	struct store_count	*c;
	char			*cause = NULL, *label;
	size_t			 a, i, j, n, wb = 9, l;
	int64_t			*counts;

	if (store_sample_counts(st, r->id, &c, &n, &cause) == -1) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	for (i = 0; i < n; i++) {
		l = strlen(c[i].benchmark) + strlen(c[i].unit) + 1;
		wb = l > wb ? l : wb;
	}
	printf("\nsamples (ok, measured):\n  %-*s", (int)wb, "BENCHMARK");
	for (a = 0; a < r->narms; a++)
		printf("  %s", r->arms[a]);
	printf("\n");
	counts = xcalloc(r->narms + 1, sizeof *counts);
	/* Rows of one benchmark and unit are together: one line each. */
	for (i = 0; i < n; i = j) {
		memset(counts, 0, r->narms * sizeof *counts);
		for (j = i; j < n && strcmp(c[j].benchmark, c[i].benchmark) ==
		    0 && strcmp(c[j].unit, c[i].unit) == 0; j++) {
			for (a = 0; a < r->narms; a++) {
				if (strcmp(r->arms[a], c[j].arm) == 0)
					counts[a] = c[j].n;
			}
		}
		label = xasprintf("%s %s", c[i].benchmark, c[i].unit);
		printf("  %-*s", (int)wb, label);
		free(label);
		for (a = 0; a < r->narms; a++)
			printf("  %*lld", (int)strlen(r->arms[a]),
			    (long long)counts[a]);
		printf("\n");
	}
	free(counts);
	store_counts_free(c, n);
	return 0;
}

/* The rounds the run took (store_rounds_text: the one count). */
static void
show_rounds(struct store *st, const struct store_run *r)
{
	struct store_rounds	 n;
	char			*cause = NULL, *text;

	if (store_run_rounds(st, r, &n, &cause) == -1) {
		printf("  rounds:     ? (%s)\n", cause);
		free(cause);
		return;
	}
	if (!n.decided && n.planned == 0 && n.warmup == 0)
		return;
	text = store_rounds_text(&n);
	printf("  rounds:     %s\n", text);
	free(text);
}

/* stop = decided: each row's verdict, the round it was made at. */
static int
show_decisions(struct store *st, const struct store_run *r)
{
	struct store_decision	*d = NULL;
	char			*cause = NULL, note[SEQ_REOPEN_NOTE];
	size_t			 n = 0, i;

	if (store_decisions_list(st, r->id, &d, &n, &cause) == -1) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	if (n > 0)
		printf("\ndecisions (stop = decided):\n");
	for (i = 0; i < n; i++) {
		printf("  %s %s %s vs %s: %s after %d good rounds (round %d, "
		    "%s%sp=%.3g, boundary %.3g, n=%lld+%lld", d[i].benchmark,
		    d[i].unit, d[i].arm, d[i].base_arm, d[i].verdict,
		    d[i].good_rounds, d[i].round + 1,
		    d[i].test != NULL ? d[i].test : "",
		    d[i].test != NULL ? " " : "", d[i].p, d[i].boundary,
		    (long long)d[i].n1, (long long)d[i].n2);
		if (!isnan(d[i].p_u) && (d[i].test == NULL ||
		    strcmp(d[i].test, "U+Brunner-Munzel") != 0))
			printf(", U test p=%.3g", d[i].p_u);
		if (!isnan(d[i].mde))
			printf(", MDE %.3g%%", d[i].mde * 100);
		if (seq_reopen_note(&d[i].ro, note, sizeof(note)) > 0)
			printf("; %s", note);
		printf(")\n");
	}
	store_decisions_free(d, n);
	return 0;
}

/* The failed samples (warm-up ones too), in the order they were taken. */
static int
show_failures(struct store *st, const struct store_run *r)
{
	struct store_value	*v;
	char			*cause = NULL;
	size_t			 i, n;

	if (r->nfailed == 0)
		return 0;
	if (store_values(st, r->id, NULL, STORE_Q_WARMUP | STORE_Q_FAILED,
	    &v, &n, &cause) == -1) {
		error("%s", cause);
		free(cause);
		return -1;
	}
	printf("\nfailures:\n");
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].status, SAMPLE_OK) == 0)
			continue;
		printf("  round %d  %s  %s  %s%s%s\n", v[i].round + 1, v[i].arm,
		    v[i].benchmark, v[i].status, v[i].error != NULL ? ": " :
		    "", v[i].error != NULL ? v[i].error : "");
	}
	store_values_free(v, n);
	return 0;
}

/*
 * The process that ran it, by pid and the pid's start (boot id and clock
 * ticks after boot, as --resume and restore --db identify it). For a run
 * still marked running, whether that process still is: one that is gone
 * was killed, and left the run and whatever it changed on the host to
 * --resume and restore. From another host nothing here can tell.
 */
static void
show_owner(const struct db_opts *o, const struct store_run *r)
{
	printf("  pid:        %lld", (long long)r->pid);
	if (r->pid_start != NULL && r->pid_start[0] != '\0')
		printf(" (start %s)", r->pid_start);
	if (strcmp(r->status, RUN_RUNNING) != 0) {
		printf("\n");
		return;
	}
	if (!journal_host_is_here(r->host))
		printf(", on host %s: whether it still runs cannot be "
		    "checked from here\n", r->host);
	else if (journal_run_owner_alive(r->pid, r->pid_start))
		printf(", still running\n");
	else
		printf(", gone: the run was killed; `abbench run --resume "
		    "%lld --db %s` continues it, `abbench restore --db %s` "
		    "undoes what it changed on the host\n", (long long)r->id,
		    cmd_db_path(o->db), cmd_db_path(o->db));
}

static int
db_show(struct cmd_ctx *c)
{
	struct db_opts		*o = c->opts;
	struct store		*st;
	struct store_run	 r;
	struct store_kv		*kv = NULL, *units = NULL;
	struct store_journal	*j = NULL;
	char			*cause = NULL, **warn = NULL, t1[64], t2[64];
	size_t			 nkv = 0, nunits = 0, nj = 0, nwarn = 0, i;
	size_t			 meta;
	int			 rc = EXIT_USAGE;

	st = c->st;
	if (db_find_run(c, &r) == -1)
		return EXIT_USAGE;
	if (store_config_list(st, r.id, &kv, &nkv, &cause) != 0 ||
	    store_unit_list(st, r.id, &units, &nunits, &cause) != 0 ||
	    store_journal_list(st, r.id, &j, &nj, &cause) != 0 ||
	    store_warnings_list(st, r.id, &warn, &nwarn, &cause) != 0) {
		error("%s", cause);
		free(cause);
		goto out;
	}
	fmt_time(r.started_wall_ns, t1, sizeof t1);
	fmt_time(r.ended_wall_ns, t2, sizeof t2);
	printf("run %lld  %s\n", (long long)r.id, r.uuid);
	printf("  name:       %s\n", r.name);
	printf("  host:       %s\n", r.host);
	printf("  status:     %s\n", r.status);
	printf("  started:    %s\n", t1);
	if (r.ended_wall_ns > 0)
		printf("  ended:      %s (%.1f s)\n", t2,
		    (double)(r.ended_wall_ns - r.started_wall_ns) / 1e9);
	if (r.order_kind[0] != '\0')
		printf("  order:      %s (seed %llu)\n", r.order_kind,
		    (unsigned long long)r.seed);
	show_rounds(st, &r);
	if (r.experiment_path[0] != '\0')
		printf("  %-11s %s\n", strcmp(r.status, RUN_IMPORTED) == 0 ?
		    "files:" : "experiment:", r.experiment_path);
	if (r.abbench_version[0] != '\0')
		printf("  abbench:    %s\n", r.abbench_version);
	if (r.pid > 0)
		show_owner(o, &r);
	printf("  arms:      ");
	for (i = 0; i < r.narms; i++)
		printf(" %s%s%s", r.arms[i], i == 0 && r.narms > 1 ?
		    " (baseline)" : "", i + 1 < r.narms ? "," : "");
	printf("\n  samples:    %lld (%lld values, %lld failed)\n",
	    (long long)r.nsamples, (long long)r.nvalues, (long long)r.nfailed);

	/* What identifies the configuration, then what measured the
	 * moment (the load; never a config line of the exports). */
	for (i = 0, meta = 0; i < nkv; i++) {
		if (kv[i].arm[0] == '\0' && store_key_is_metadata(kv[i].key) &&
		    strcmp(r.status, RUN_IMPORTED) != 0) {
			meta++;
			continue;
		}
		if (i - meta == 0)
			printf("\nconfig:\n");
		if (kv[i].arm[0] != '\0')
			printf("  [%s] %s: %s\n", kv[i].arm, kv[i].key,
			    kv[i].value);
		else
			printf("  %s: %s\n", kv[i].key, kv[i].value);
	}
	if (meta > 0) {
		printf("\nmetadata:\n");
		for (i = 0; i < nkv; i++)
			if (kv[i].arm[0] == '\0' &&
			    store_key_is_metadata(kv[i].key))
				printf("  %s: %s\n", kv[i].key, kv[i].value);
	}
	if (nunits > 0) {
		printf("\nunits:\n");
		for (i = 0; i < nunits; i++)
			printf("  %s %s=%s\n", units[i].arm, units[i].key,
			    units[i].value);
	}
	if (nj > 0) {
		printf("\nhost changes:\n");
		for (i = 0; i < nj; i++) {
			printf("  %s", j[i].kind);
			if (j[i].name[0] != '\0' &&
			    strcmp(j[i].name, j[i].kind) != 0)
				printf(" %s", j[i].name);
			printf("  %s", j[i].target);
			if (j[i].original != NULL || j[i].applied != NULL)
				printf("  '%s' -> '%s'", j[i].original != NULL ?
				    j[i].original : "", j[i].applied != NULL ?
				    j[i].applied : "");
			printf("  %s\n", j[i].state);
		}
	}
	if (show_counts(st, &r) != 0 || show_decisions(st, &r) != 0 ||
	    show_failures(st, &r) != 0)
		goto out;
	if (nwarn > 0) {
		printf("\nwarnings:\n");
		for (i = 0; i < nwarn; i++)
			printf("  %s\n", warn[i]);
	}
	rc = EXIT_OK;
out:
	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	store_kv_free(kv, nkv);
	store_kv_free(units, nunits);
	store_journal_free(j, nj);
	store_run_release(&r);
	return rc;
}

/* Write a file through a temporary name, so a reader never sees half. */
static int
write_atomic(const char *path, const char *data, size_t len)
{
	char	*tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	FILE	*fp;
	int	 ok;

	if ((fp = fopen(tmp, "w")) == NULL) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	ok = fwrite(data, 1, len, fp) == len;
	ok = (fclose(fp) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static int
db_export(struct cmd_ctx *c)
{
	struct db_opts		*o = c->opts;
	struct store		*st;
	struct store_run	 r;
	struct strbuf		*bufs = NULL;
	struct strvec		 names = STRVEC_INIT;
	struct stat		 sb;
	char			*cause = NULL, *path;
	size_t			 i, j, n;
	int			 rc = EXIT_USAGE;

	st = c->st;
	if (db_find_run(c, &r) == -1)
		return EXIT_USAGE;
	if (o->arm != NULL) {
		for (i = 0; i < r.narms; i++) {
			if (strcmp(r.arms[i], o->arm) == 0)
				break;
		}
		if (i == r.narms) {
			char	*what = xasprintf("run %lld", (long long)r.id);

			cause = store_run_no_arm(&r, what, o->arm);
			error("%s", cause);
			free(cause);
			free(what);
			goto out;
		}
	}
	if (o->outdir == NULL) {
		struct strbuf out = STRBUF_INIT;

		if (export_run_benchfmt(st, r.id, o->arm, &out, &cause) != 0) {
			error("%s", cause);
			free(cause);
			strbuf_release(&out);
			goto out;
		}
		if (out.len > 0 && fwrite(out.buf, 1, out.len, stdout) !=
		    out.len) {
			strbuf_release(&out);
			error("cannot write the export: %s", strerror(errno));
			rc = EXIT_FAIL;
			goto out;
		}
		strbuf_release(&out);
		rc = EXIT_OK;
		goto out;
	}

	/* Everything is rendered and checked before the first file. */
	n = o->arm != NULL ? 1 : r.narms;
	bufs = xcalloc(n, sizeof *bufs);
	for (i = 0; i < n; i++) {
		const char *arm = o->arm != NULL ? o->arm : r.arms[i];

		strvec_push_nodup(&names, export_arm_filename(arm));
		for (j = 0; j < i; j++) {
			if (strcmp(names.v[j], names.v[i]) == 0) {
				error("arms '%s' and '%s' would both be "
				    "written to '%s'", r.arms[j], arm,
				    names.v[i]);
				goto out;
			}
		}
		if (export_run_benchfmt(st, r.id, arm, &bufs[i], &cause) !=
		    0) {
			error("%s", cause);
			free(cause);
			goto out;
		}
	}
	if (stat(o->outdir, &sb) != 0) {
		if (errno != ENOENT || mkdir(o->outdir, 0777) != 0) {
			error("cannot create '%s': %s", o->outdir,
			    strerror(errno));
			goto out;
		}
	} else if (!S_ISDIR(sb.st_mode)) {
		error("'%s' is not a directory", o->outdir);
		goto out;
	}
	rc = EXIT_OK;
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", o->outdir, names.v[i]);
		if (write_atomic(path, bufs[i].buf != NULL ? bufs[i].buf : "",
		    bufs[i].len) != 0)
			rc = EXIT_FAIL;
		else
			printf("%s\n", path);
		free(path);
	}
out:
	if (bufs != NULL) {
		for (i = 0; i < (o->arm != NULL ? 1 : r.narms); i++)
			strbuf_release(&bufs[i]);
		free(bufs);
	}
	strvec_clear(&names);
	store_run_release(&r);
	return rc;
}

static int
db_import(struct cmd_ctx *c)
{
	struct db_opts		*o = c->opts;
	struct import_options	 io;
	struct store		*st;
	struct store_run	 r;
	struct strvec		 warnings = STRVEC_INIT;
	char			*cause = NULL, host[HOST_NAME_MAX + 1];
	int64_t			 run_id, nvalues;
	size_t			 i;
	int			 existed;
	const char		*eq, *path;

	if ((size_t)c->argc == 0)
		return db_usage("import needs at least one [LABEL=]FILE");
	/* Missing files are bad input: check before creating anything. */
	for (i = 0; i < (size_t)c->argc; i++) {
		eq = strchr(c->argv[i], '=');
		path = eq != NULL ? eq + 1 : c->argv[i];
		if (strcmp(path, "-") != 0 && access(path, R_OK) != 0)
			return db_usage("cannot read '%s': %s", path,
			    strerror(errno));
	}
	memset(&io, 0, sizeof io);
	io.name = o->name;
	if (o->host != NULL)
		io.host = o->host;
	else if (gethostname(host, sizeof host) == 0) {
		host[sizeof host - 1] = '\0';
		io.host = host;
	}
	io.wall_ns = now_wall_ns();
	io.abbench_version = PACKAGE_VERSION;
	existed = access(cmd_db_path(o->db), F_OK) == 0;
	if ((st = db_open(o, STORE_CREATE)) == NULL)
		return EXIT_USAGE;
	if (import_benchfmt(st, c->argv, (size_t)c->argc, &io, &run_id,
	    &nvalues, &warnings, &cause) != 0) {
		for (i = 0; i < warnings.n; i++)
			warning("%s", warnings.v[i]);
		error("%s", cause);
		free(cause);
		strvec_clear(&warnings);
		store_close(st);
		/* Nothing imported: no database made for it either. */
		if (!existed)
			(void)unlink(cmd_db_path(o->db));
		return EXIT_USAGE;
	}
	for (i = 0; i < warnings.n; i++)
		warning("%s", warnings.v[i]);
	strvec_clear(&warnings);
	if (store_run_get(st, run_id, &r, &cause) == 0) {
		printf("imported run %lld (%.8s): %zu arm%s, %lld values\n",
		    (long long)r.id, r.uuid, r.narms, r.narms == 1 ? "" : "s",
		    (long long)nvalues);
		store_run_release(&r);
	} else
		free(cause);
	store_close(st);
	return EXIT_OK;
}

static int
db_merge(struct cmd_ctx *c)
{
	struct db_opts		*o = c->opts;
	struct store	*st, *other;
	char		*cause = NULL;
	size_t		 i;
	int		 runs, total_runs = 0;
	int64_t		 samples, total_samples = 0;

	if ((size_t)c->argc == 0)
		return db_usage("merge needs at least one OTHER.db");
	/* Refuse any bad input before the first change. */
	for (i = 0; i < (size_t)c->argc; i++) {
		other = store_open(c->argv[i], STORE_READONLY, &cause);
		if (other == NULL) {
			error("%s", cause);
			free(cause);
			return EXIT_USAGE;
		}
		store_close(other);
	}
	if ((st = db_open(o, STORE_CREATE)) == NULL)
		return EXIT_USAGE;
	for (i = 0; i < (size_t)c->argc; i++) {
		if (store_merge(st, c->argv[i], &runs, &samples, &cause) !=
		    0) {
			error("%s", cause);
			free(cause);
			store_close(st);
			return EXIT_USAGE;
		}
		printf("merged '%s': %d run%s, %lld samples added\n",
		    c->argv[i], runs, runs == 1 ? "" : "s",
		    (long long)samples);
		total_runs += runs;
		total_samples += samples;
	}
	if ((size_t)c->argc > 1)
		printf("total: %d runs, %lld samples added\n", total_runs,
		    (long long)total_samples);
	store_close(st);
	return EXIT_OK;
}

static int
db_check(struct cmd_ctx *c)
{
	struct store		*st;
	struct store_run	*runs;
	char			*cause = NULL, **problems;
	size_t			 n, i, nruns;
	int64_t			 nsamples = 0;

	/*
	 * The samples a kill -9 left in a dead run's log are imported first
	 * (a read-write open does it), so that the counts are the run's.
	 */
	if (store_log_any(store_path(c->st))) {
		char	*path = xstrdup(store_path(c->st));

		store_close(c->st);
		if ((st = store_open(path, 0, &cause)) == NULL) {
			warning("%s", cause);
			free(cause);
			cause = NULL;
		}
		store_close(st);
		c->st = store_open(path, STORE_READONLY, &cause);
		free(path);
		if (c->st == NULL) {
			error("%s", cause);
			free(cause);
			return EXIT_USAGE;
		}
	}
	st = c->st;
	if (store_check(st, &problems, &n, &cause) != 0) {
		error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	/* A damaged file may not list its runs: the problems say why. */
	if (store_runs_list(st, &runs, &nruns, &cause) != 0) {
		if (n == 0) {
			error("%s", cause);
			free(cause);
			return EXIT_USAGE;
		}
		free(cause);
		runs = NULL;
		nruns = 0;
	}
	for (i = 0; i < nruns; i++) {
		nsamples += runs[i].nsamples;
		store_run_release(&runs[i]);
	}
	free(runs);
	for (i = 0; i < n; i++) {
		printf("%s: %s\n", store_path(st), problems[i]);
		free(problems[i]);
	}
	free(problems);
	if (n > 0)
		printf("%zu problem%s in '%s'\n", n, n == 1 ? "" : "s",
		    store_path(st));
	else
		printf("ok: '%s', %zu run%s, %lld samples\n", store_path(st),
		    nruns, nruns == 1 ? "" : "s", (long long)nsamples);
	return n > 0 ? EXIT_FAIL : EXIT_OK;
}

static int
db_rm(struct cmd_ctx *c)
{
	struct store		*st;
	struct store_run	 r;
	char			*cause = NULL;
	int			 rc = EXIT_OK;

	st = c->st;
	if (db_find_run(c, &r) == -1)
		return EXIT_USAGE;
	if (store_run_delete(st, r.id, &cause) != 0) {
		error("%s", cause);
		free(cause);
		rc = EXIT_USAGE;
	} else
		printf("removed run %lld (%s, %lld samples)\n",
		    (long long)r.id, r.uuid, (long long)r.nsamples);
	store_run_release(&r);
	return rc;
}

/* The subcommands, and the database each needs opened. */
static const struct cmd_sub db_subs[] = {
	{ "ls", "list", CMD_STORE_RO | CMD_NO_OPERANDS, db_ls },
	{ "show", NULL, CMD_STORE_RO | CMD_ONE_RUN, db_show },
	{ "export", NULL, CMD_STORE_RO | CMD_ONE_RUN, db_export },
	/* These two make it, and only once their inputs read. */
	{ "import", NULL, 0, db_import },
	{ "merge", NULL, 0, db_merge },
	{ "check", NULL, CMD_STORE_RO | CMD_NO_OPERANDS, db_check },
	{ "rm", NULL, CMD_STORE_RW | CMD_ONE_RUN, db_rm },
	{ NULL, NULL, 0, NULL }
};

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.args = "[--db FILE] ls [--json] | show RUN | export RUN [--arm ARM] [-o DIR] |"
	    " import [LABEL=]FILE... | merge OTHER.db... | check | rm RUN",
	.summary = "inspect and manage the results database",
	.help =
	"Inspects and manages the SQLite results store (--db FILE, else\n"
	"$ABBENCH_DB, else ./abbench.db).\n"
	"\n"
	"  ls                 runs: id, uuid, name, host, start, status,\n"
	"                     arms, sample count\n"
	"      --json         as one JSON object (schema: docs/guide.md,\n"
	"                     \"Machine-readable output\")\n"
	"  show RUN           config, arms, host changes, samples per\n"
	"                     benchmark and arm, failures, warnings\n"
	"  export RUN         the run as benchfmt (Go benchstat's input) on\n"
	"                     standard output; all arms in one stream, each\n"
	"                     result tagged with an 'arm' config key\n"
	"                     (--arm ARM: one arm; -o DIR: a file per arm)\n"
	"  import [LABEL=]FILE...\n"
	"                     benchfmt files become one run (status imported)\n"
	"                     whose arms are the files, labelled as benchstat\n"
	"                     labels them; '-' reads standard input\n"
	"                     (--name NAME, --host HOST)\n"
	"  merge OTHER.db...  copy the runs of other databases (by run uuid:\n"
	"                     merging twice adds nothing)\n"
	"  check              SQLite's integrity check and abbench's own\n"
	"                     invariants; exit 1 on a problem\n"
	"  rm RUN             remove a run and its samples\n"
	"\n"
	"RUN is a run id, a unique uuid prefix (4 or more characters),\n"
	"'last' or 'NAME@last' (the latest run of experiment NAME).\n"
	"\n"
	"Exit status: 0 ok, 1 check found problems, 2 bad input (nothing\n"
	"is written).\n",
	.opts = db_flags,
	.opts_size = sizeof(struct db_opts),
	.subs = db_subs,
};
