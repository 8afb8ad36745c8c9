/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the host-wide journal file (results/journal-db.c) and of
 * the number and text checks the host code relies on (lib/util.c:
 * parse_uint64, parse_duration's range, utf8_valid), and of a run's
 * liveness by pid and start time (host/journal.c), and of a run's owner
 * as its row in the store names it.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <sqlite3.h>

#include "host/journal.h"
#include "lib/util.h"
#include "results/journal-db.h"
#include "results/store.h"
#include "tests/unit/tap.h"

static void
test_journal(const char *dir)
{
	struct hjournal		*hj;
	struct hjournal_owner	 o, *ov = NULL;
	struct store_journal	*j = NULL;
	char			*path = xasprintf("%s/journal.db", dir);
	char			*cause = NULL;
	int64_t			 a = 0, b = 0, copy = 0;
	size_t			 n = 0;

	hj = hjournal_open(path, &cause);
	tap_ok(hj != NULL, "hjournal_open makes the file (%s)",
	    cause != NULL ? cause : "ok");
	memset(&o, 0, sizeof o);
	o.uuid = "11111111-2222-3333-4444-555555555555";
	o.db = "/x/a.db";
	o.run_id = 7;
	o.pid = 42;
	o.experiment = "e";
	tap_ok(hjournal_owner_add(hj, &o, NULL) == 0, "an owner is added");
	tap_ok(hjournal_add(hj, o.uuid, "host.block.slice_idle", "bfq",
	    "/sys/block/loop0/queue/iosched/slice_idle", "8", &a, NULL) == 0 &&
	    a > 0, "a setting is journaled");
	tap_ok(hjournal_add(hj, o.uuid, "container", "container", "c1", NULL,
	    &b, NULL) == 0 && b > a, "then an object");
	tap_ok(hjournal_add(hj, o.uuid, "", "x", "t", NULL, NULL,
	    &cause) == -1, "an entry without a kind is refused");
	free(cause);
	cause = NULL;
	tap_ok(hjournal_set_copy(hj, a, 99, NULL) == 0 &&
	    hjournal_copy_id(hj, a, &copy, NULL) == 0 && copy == 99,
	    "the copy's id is kept");
	tap_ok(hjournal_pending(hj, o.uuid, &j, &n, NULL) == 0 && n == 2 &&
	    j[0].id == b && j[1].id == a && j[0].run_id == 7 &&
	    strcmp(j[1].original, "8") == 0, "pending: newest first, with "
	    "the owner's run id and the original");
	store_journal_free(j, n);
	tap_ok(hjournal_set_state(hj, b, JOURNAL_RESTORED, NULL, NULL) == 0 &&
	    hjournal_pending(hj, o.uuid, &j, &n, NULL) == 0 && n == 1 &&
	    j[0].id == a, "a restored entry is no longer pending");
	store_journal_free(j, n);
	tap_ok(hjournal_set_state(hj, a, "bogus", NULL, &cause) == -1,
	    "an unknown state is refused");
	free(cause);
	cause = NULL;
	hjournal_close(hj);
	/* Reopened: what was written is on disk. */
	hj = hjournal_open(path, NULL);
	tap_ok(hj != NULL && hjournal_owners(hj, &ov, &n, NULL) == 0 &&
	    n == 1 && strcmp(ov[0].db, "/x/a.db") == 0 && ov[0].pid == 42,
	    "reopened: the owner is there");
	hjournal_owners_free(ov, n);
	tap_ok(hjournal_owner_remove(hj, o.uuid, NULL) == 0 &&
	    hjournal_owners(hj, &ov, &n, NULL) == 0 && n == 0 &&
	    hjournal_pending(hj, o.uuid, &j, &n, NULL) == 0 && n == 0,
	    "a removed owner takes its entries along");
	hjournal_owners_free(ov, 0);
	store_journal_free(j, n);
	hjournal_close(hj);
	free(path);
}

static void
test_parsers(void)
{
	uint64_t	u = 0;
	int64_t		ns = 0;
	char		*cause = NULL;
	size_t		off = 0;

	tap_ok(parse_uint64("18446744073709551615", &u, NULL) == 0 &&
	    u == UINT64_MAX, "2^64-1 parses");
	tap_ok(parse_uint64("18446744073709551616", &u, &cause) == -1 &&
	    strstr(cause, "out of range") != NULL, "2^64 is out of range");
	free(cause);
	cause = NULL;
	tap_ok(parse_uint64("-1", &u, NULL) == -1, "-1 is refused");
	tap_ok(parse_uint64(" 1", &u, NULL) == -1, "a blank is refused");
	tap_ok(parse_duration("99999999999999999999s", &ns, &cause) == -1 &&
	    strstr(cause, "out of range") != NULL,
	    "a huge duration is out of range, not negative");
	free(cause);
	tap_ok(parse_duration("5s", &ns, NULL) == 0 && ns == 5000000000LL,
	    "5s is 5e9 ns");
	{
		static const struct {
			double		 sec;
			const char	*want;
		} d[] = {
			{ 0.001, "1ms" }, { 0.1, "100ms" }, { 1, "1s" },
			{ 90, "1.5m" }, { 1e7, "2777.78h" }, { 0, "0s" },
			{ 5e-7, "500ns" },
		};
		size_t	i;

		for (i = 0; i < sizeof d / sizeof d[0]; i++) {
			char	*f = format_duration_sec(d[i].sec);

			tap_ok(strcmp(f, d[i].want) == 0,
			    "format_duration_sec(%g) = %s (got %s)", d[i].sec,
			    d[i].want, f);
			free(f);
		}
	}
	tap_ok(utf8_valid("caf\xc3\xa9", 5, NULL), "UTF-8 is valid");
	tap_ok(!utf8_valid("caf\xe9\n", 5, &off) && off == 3,
	    "Latin-1 is not, at its byte");
	tap_ok(!utf8_valid("\xc0\xaf", 2, NULL), "an overlong form is not");
	tap_ok(!utf8_valid("\xed\xa0\x80", 3, NULL), "a surrogate is not");
	tap_ok(!utf8_valid("\xe2\x82", 2, NULL), "a cut sequence is not");
	{
		char	*t;

		t = utf8_sanitize("a\xff" "b\xc3\xa9\xe2\x82", 7);
		tap_ok(strcmp(t, "a\xef\xbf\xbd" "b\xc3\xa9\xef\xbf\xbd"
		    "\xef\xbf\xbd") == 0, "utf8_sanitize: each bad byte is "
		    "U+FFFD, the valid sequences kept");
		free(t);
		t = utf8_sanitize("a\0b", 3);
		tap_ok(strcmp(t, "a\xef\xbf\xbd" "b") == 0,
		    "utf8_sanitize: a NUL is U+FFFD too");
		free(t);
		t = str_escape_nul("Nul\0After\0", 10);
		tap_ok(strcmp(t, "Nul\\x00After\\x00") == 0,
		    "str_escape_nul: each NUL is \\x00 (%s)", t);
		free(t);
	}
}

/* Owners with the pid's start; one transaction; an older journal. */
/* A child whose command name is name, stopped in pause() until killed. */
static pid_t
named_child(const char *name)
{
	pid_t	pid;
	int	p[2];
	char	c = 0;

	if (pipe(p) == -1)
		return -1;
	if ((pid = fork()) == 0) {
		close(p[0]);
		if (prctl(PR_SET_NAME, name, 0, 0, 0) == -1 ||
		    write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (pid == -1 || read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

static void
end_child(pid_t pid)
{
	int	status;

	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
}

/*
 * A run's owner, as its row in the store names it: exact with a start
 * time, by name without one (a run stored by an older abbench).
 */
static void
test_run_owner(void)
{
	char	*me = journal_proc_start(getpid()), *start, *later;
	char	*colon;
	pid_t	 ab = named_child("abbench"), lt = named_child("lt-abbench");
	pid_t	 other = named_child("xabbench"), gone;
	int	 status;

	tap_ok(ab > 0 && lt > 0 && other > 0, "three children named");
	tap_ok(journal_run_owner_alive(getpid(), me) == 1,
	    "run owner: the process that started the run is alive");
	start = journal_proc_start(ab);
	tap_ok(journal_run_owner_alive(ab, start) == 1,
	    "run owner: an abbench with the recorded start is the owner");
	/*
	 * Another start of the same boot: a tick after the child's. Not this
	 * process's start: starts are in clock ticks, and a child forked in
	 * the tick its parent started in has the parent's.
	 */
	colon = start != NULL ? strrchr(start, ':') : NULL;
	later = colon != NULL ? xasprintf("%.*s:%llu", (int)(colon - start),
	    start, strtoull(colon + 1, NULL, 10) + 1) : xstrdup("x:1");
	tap_ok(journal_run_owner_alive(ab, later) == 0,
	    "run owner: an abbench with another start is not (the dead "
	    "owner's pid used again by another run)");
	tap_ok(journal_run_owner_alive(getpid(), "x:1") == 0,
	    "run owner: nor is any other process with the pid");
	tap_ok(journal_run_owner_alive(ab, "") == 1 &&
	    journal_run_owner_alive(lt, NULL) == 1,
	    "run owner, no start recorded: a live abbench or lt-abbench with "
	    "the pid is taken for it");
	tap_ok(journal_run_owner_alive(other, "") == 0 &&
	    journal_run_owner_alive(getpid(), "") == 0,
	    "run owner, no start recorded: a process of another name is not "
	    "(xabbench, t-hostjournal)");
	tap_ok(journal_run_owner_alive(0, "") == 0 &&
	    journal_run_owner_alive(-1, me) == 0,
	    "run owner: no pid recorded, no owner");
	if ((gone = fork()) == 0)
		_exit(0);
	waitpid(gone, &status, 0);
	tap_ok(journal_run_owner_alive(gone, "") == 0 &&
	    journal_run_owner_alive(gone, me) == 0,
	    "run owner: a reaped process is gone, with or without a start");
	end_child(ab);
	end_child(lt);
	end_child(other);
	free(later);
	free(start);
	free(me);
}

static void
test_liveness(const char *dir)
{
	struct hjournal		*hj;
	struct hjournal_owner	 o, *ov = NULL;
	struct store_journal	*j = NULL;
	char			*path = xasprintf("%s/old.db", dir);
	char			*me = journal_proc_start(getpid()), *dead;
	sqlite3			*db;
	int64_t			 a = 0, b = 0;
	size_t			 n = 0;
	pid_t			 child;
	int			 status;

	tap_ok(me != NULL && strchr(me, ':') != NULL,
	    "journal_proc_start gives BOOT_ID:START (%s)", me ? me : "NULL");
	tap_ok(journal_owner_alive(getpid(), me) == 1,
	    "this process with its start time is alive");
	tap_ok(journal_owner_alive(getpid(), "x:1") == 0,
	    "the same pid with another start time is not (a reused pid)");
	tap_ok(journal_owner_alive(getpid(), NULL) == -1,
	    "no start time recorded: unknown, the lock tells");
	if ((child = fork()) == 0)
		_exit(0);
	waitpid(child, &status, 0);
	dead = journal_proc_start(child);
	tap_ok(dead == NULL && journal_owner_alive(child, me) == 0,
	    "a reaped child is not alive");
	free(dead);

	/* A journal of an older abbench: no pid_start column. */
	tap_ok(sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db,
	    "CREATE TABLE owners (uuid TEXT PRIMARY KEY, db TEXT NOT NULL,"
	    " run_id INTEGER NOT NULL, pid INTEGER NOT NULL, experiment TEXT,"
	    " started_wall_ns INTEGER);"
	    "INSERT INTO owners VALUES ('old', '/x.db', 1, 5, 'e', 1)", NULL,
	    NULL, NULL) == SQLITE_OK, "an older journal is made");
	sqlite3_close(db);
	hj = hjournal_open(path, NULL);
	tap_ok(hj != NULL && hjournal_owners(hj, &ov, &n, NULL) == 0 &&
	    n == 1 && ov[0].pid_start == NULL,
	    "it opens, its owner without a start time");
	hjournal_owners_free(ov, n);
	memset(&o, 0, sizeof o);
	o.uuid = "new";
	o.db = "/y.db";
	o.pid = getpid();
	o.pid_start = me;
	o.started_wall_ns = 2;
	tap_ok(hjournal_owner_add(hj, &o, NULL) == 0 &&
	    hjournal_owners(hj, &ov, &n, NULL) == 0 && n == 2 &&
	    ov[1].pid_start != NULL && strcmp(ov[1].pid_start, me) == 0,
	    "a new owner keeps its start time");
	hjournal_owners_free(ov, n);
	(void)hjournal_add(hj, "new", "host.block.slice_idle", "bfq", "/t1",
	    "3", &a, NULL);
	(void)hjournal_add(hj, "new", "host.block.low_latency", "bfq", "/t2",
	    "0", &b, NULL);
	tap_ok(hjournal_begin(hj, NULL) == 0 &&
	    hjournal_set_state(hj, a, JOURNAL_RESTORED, NULL, NULL) == 0 &&
	    hjournal_rollback(hj) == 0 &&
	    hjournal_pending(hj, "new", &j, &n, NULL) == 0 && n == 2,
	    "marks rolled back: both entries still pending");
	store_journal_free(j, n);
	tap_ok(hjournal_begin(hj, NULL) == 0 &&
	    hjournal_set_state(hj, a, JOURNAL_RESTORED, NULL, NULL) == 0 &&
	    hjournal_set_state(hj, b, JOURNAL_RESTORED, NULL, NULL) == 0 &&
	    hjournal_commit(hj, NULL) == 0 &&
	    hjournal_pending(hj, "new", &j, &n, NULL) == 0 && n == 0,
	    "marks committed together: none pending");
	store_journal_free(j, n);
	hjournal_close(hj);
	free(me);
	free(path);
}

int
main(void)
{
	char	tmpl[] = "/tmp/t-hostjournal.XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		return 99;
	test_journal(tmpl);
	test_liveness(tmpl);
	test_run_owner();
	test_parsers();
	(void)rmtree(tmpl, NULL);
	return tap_done();
}
