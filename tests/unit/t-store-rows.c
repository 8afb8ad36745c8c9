/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the store's one way to read a query's rows
 * (results/store-int.h: store_rows, store_rows_cached, store_rows_db,
 * store_next, store_rows_end): rows in order, an early stop that is no
 * error, no rows, an error while stepping named with SQLite's message
 * and the file, a statement that cannot be prepared, a cached statement
 * read twice and not restarted past its end, another database's handle.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"
#include "tap.h"

static char tmpdir[] = "/tmp/t-store-rows.XXXXXX";

/* The arms of run id through the cached statement, joined by ','. */
static char *
arms_of(struct store *st, int64_t id, char **cause)
{
	struct store_rows	r;
	struct strbuf		sb = STRBUF_INIT;

	if (store_rows_cached(&r, st, ST_RUN_ARMS, cause) != 0)
		return NULL;
	sqlite3_bind_int64(r.s, 1, id);
	while (store_next(&r))
		strbuf_addf(&sb, "%s%s", sb.len > 0 ? "," : "",
		    (const char *)sqlite3_column_text(r.s, 0));
	if (store_next(&r) || store_next(&r)) {
		/* Past the end: never a restart from the first row. */
		strbuf_adds(&sb, "+restarted");
	}
	if (store_rows_end(&r, "cannot read arms", cause) != 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

int
main(void)
{
	const char *const	 arms[] = { "base", "cand", "third" };
	struct store		*st;
	struct store_run	 run;
	struct store_rows	 r;
	char			*cause = NULL, *path, *s;
	int			 n, sum, got;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	path = xasprintf("%s/rows.db", tmpdir);
	st = store_open(path, STORE_CREATE, &cause);
	if (st == NULL)
		die("%s", cause);
	memset(&run, 0, sizeof run);
	run.name = "r";
	run.host = "h";
	run.order_kind = "abba";
	run.rounds = 1;
	if (store_run_create(st, &run, arms, 3, &cause) != 0)
		die("%s", cause);

	/* Every row, in order. */
	tap_ok(store_rows(&r, st, "WITH RECURSIVE c(v) AS (SELECT 1 UNION"
	    " ALL SELECT v + 1 FROM c WHERE v < 5) SELECT v FROM c",
	    &cause) == 0, "open a query");
	for (n = 0, sum = 0; store_next(&r); n++)
		sum = sum * 10 + sqlite3_column_int(r.s, 0);
	tap_ok(n == 5 && sum == 12345, "its rows in order (%d rows: %d)", n,
	    sum);
	tap_ok(store_rows_end(&r, "cannot count", &cause) == 0 &&
	    cause == NULL, "the end of the rows is no error");

	/* Stopping early. */
	tap_ok(store_rows(&r, st, "SELECT name FROM arms ORDER BY idx",
	    &cause) == 0, "open the arms");
	got = store_next(&r);
	tap_str_eq(got ? (const char *)sqlite3_column_text(r.s, 0) : "",
	    "base", "the first arm");
	tap_ok(store_rows_end(&r, "cannot read arms", &cause) == 0 &&
	    cause == NULL, "stopping after one row is no error");

	/* No rows. */
	tap_ok(store_rows(&r, st, "SELECT name FROM arms WHERE idx > 99",
	    &cause) == 0, "open a query of no rows");
	tap_ok(!store_next(&r), "no row");
	tap_ok(store_rows_end(&r, "cannot read arms", &cause) == 0 &&
	    cause == NULL, "no rows is no error");

	/* An error while stepping: said once, by the end, with the file. */
	tap_ok(store_rows(&r, st, "SELECT abs(-9223372036854775807 - 1)",
	    &cause) == 0, "open a query that fails when stepped");
	tap_ok(!store_next(&r) && !store_next(&r), "no row from it");
	tap_ok(store_rows_end(&r, "cannot read the overflow", &cause) == -1,
	    "its end says it failed");
	s = xasprintf("cannot read the overflow in '%s': integer overflow",
	    path);
	tap_str_eq(cause, s, "what failed, where, and SQLite's message");
	free(s);
	free(cause);
	cause = NULL;

	/* A statement that cannot be prepared needs no end. */
	tap_ok(store_rows(&r, st, "SELECT missing FROM no_such_table",
	    &cause) == -1 && r.s == NULL, "a bad statement is refused");
	tap_ok(cause != NULL && strstr(cause, "cannot prepare a statement "
	    "in '") != NULL && strstr(cause, "no such table: no_such_table")
	    != NULL, "named with SQLite's message (%s)", cause);
	free(cause);
	cause = NULL;

	/* A cached statement: read, reset by the end, read again. */
	s = arms_of(st, run.id, &cause);
	tap_str_eq(s, "base,cand,third", "a cached statement's rows");
	free(s);
	s = arms_of(st, run.id, &cause);
	tap_str_eq(s, "base,cand,third", "the same rows again after its end");
	free(s);
	s = arms_of(st, run.id + 1, &cause);
	tap_str_eq(s, "", "another run's: none");
	free(s);

	/* Another database's handle, named by the path given. */
	tap_ok(store_rows_db(&r, store_db(st), "journal.db",
	    "SELECT abs(-9223372036854775807 - 1)", &cause) == 0,
	    "open a query on a handle");
	store_next(&r);
	tap_ok(store_rows_end(&r, "cannot read the host journal",
	    &cause) == -1, "its error");
	tap_str_eq(cause, "cannot read the host journal in 'journal.db': "
	    "integer overflow", "names the path given");
	free(cause);

	free(run.uuid);
	store_close(st);
	rmtree(tmpdir, NULL);
	free(path);
	return tap_done();
}
