/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of what abbench trusts before it acts on a journal entry or
 * a database (host/trust.c): the entries abbench itself writes pass, each
 * kind's forgeries (other paths, "..", symbolic links out of /sys, unknown
 * kinds, programs that are not OCI runtimes) are refused; a database or
 * state directory another user may write is refused.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/trust.h"
#include "lib/util.h"
#include "results/store.h"
#include "tests/unit/tap.h"

static int
entry(const char *kind, const char *target, const char *original)
{
	struct store_journal	 e;
	char			*cause = NULL;
	int			 rc;

	memset(&e, 0, sizeof e);
	e.kind = (char *)kind;
	e.target = (char *)target;
	e.original = (char *)original;
	e.state = (char *)JOURNAL_APPLIED;
	rc = trust_entry(&e, &cause);
	if (rc == -1 && (cause == NULL || *cause == '\0'))
		rc = -2;	/* a refusal must say why */
	free(cause);
	return rc;
}

/* A disk with a scheduler here, or NULL (then the /sys cases skip). */
static char *
some_disk(void)
{
	const char	*names[] = { "loop0", "loop1", "sda", "vda",
			    "nvme0n1" };
	char		 path[128];
	size_t		 i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof path, "/sys/block/%s/queue/scheduler",
		    names[i]);
		if (access(path, F_OK) == 0)
			return xstrdup(names[i]);
	}
	return NULL;
}

static void
test_settings(void)
{
	char	*d = some_disk(), *p;

	tap_int_eq(entry("host.sysctl.vm.swappiness", "/proc/sys/vm/swappiness",
	    "60"), 0, "a sysctl at its own file passes");
	tap_int_eq(entry("host.sysctl.vm.swappiness", "/var/tmp/victim2.txt",
	    "PWNED"), -1, "a sysctl naming another file is refused");
	tap_int_eq(entry("host.sysctl.kernel.x", "/proc/sys/../../etc/shadow",
	    "x"), -1, "a sysctl path with '..' is refused");
	tap_int_eq(entry("host.sysctl...etc.shadow", "/proc/sys///etc/shadow",
	    "x"), -1, "a sysctl name with empty components is refused");
	tap_int_eq(entry("host.thp.enabled",
	    "/sys/kernel/mm/transparent_hugepage/enabled", "madvise"), 0,
	    "THP at its own file passes");
	tap_int_eq(entry("host.thp.enabled", "/etc/shadow", "x"), -1,
	    "THP naming /etc/shadow is refused");
	tap_int_eq(entry("host.block.path", "/sys/block/loop0/queue/x", "x"),
	    -1, "host.block.path is not a setting: refused");
	tap_int_eq(entry("host.nope", "/proc/sys/vm/swappiness", "1"), -1,
	    "an unknown setting is refused");
	tap_int_eq(entry("host.cpufreq.governor",
	    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    "performance"), 0, "a CPU's governor at its own file passes");
	tap_int_eq(entry("host.cpufreq.governor",
	    "/sys/devices/system/cpu/../../../etc/cpufreq/scaling_governor",
	    "performance"), -1, "a governor through '..' is refused");
	if (d == NULL) {
		tap_ok(1, "# SKIP no disk with a scheduler here");
		return;
	}
	p = xasprintf("/sys/block/%s/queue/scheduler", d);
	tap_int_eq(entry("host.block.scheduler", p, "mq-deadline"), 0,
	    "a scheduler at its disk's file passes (%s)", p);
	free(p);
	p = xasprintf("/sys/block/%s/queue/iosched/fifo_batch", d);
	tap_int_eq(entry("host.block.fifo_batch", p, "16"), 0,
	    "a tunable at its disk's file passes");
	tap_int_eq(entry("host.block.slice_idle", p, "16"), -1,
	    "a tunable at another tunable's file is refused");
	free(p);
	p = xasprintf("/sys/block/%s/subsystem/%s/queue/iosched/fifo_batch",
	    d, d);
	tap_int_eq(entry("host.block.fifo_batch", p, "5"), -1,
	    "a tunable through a symbolic link in /sys is refused");
	free(p);
	p = xasprintf("/sys/block/%s/queue/iosched/../../../../../tmp/x", d);
	tap_int_eq(entry("host.block.fifo_batch", p, "5"), -1,
	    "a tunable through '..' is refused");
	free(p);
	tap_int_eq(entry("host.block.scheduler",
	    "/sys/block/../../etc/queue/scheduler", "x"), -1,
	    "a disk named '..' is refused");
	tap_int_eq(entry("host.block.x/../../../etc/shadow",
	    "/sys/block/loop0/queue/iosched/x/../../../etc/shadow", "x"), -1,
	    "a knob name with '/' is refused");
	free(d);
}

static void
test_objects(void)
{
	tap_int_eq(entry("file", "/var/tmp/victim.txt", NULL), -1,
	    "a file not named abbench-* is refused");
	tap_int_eq(entry("file", "/etc/shadow", NULL), -1,
	    "a file naming /etc/shadow is refused");
	tap_int_eq(entry("file", "/mnt/d/abbench-1048576-c0.0.0", NULL), 0,
	    "a workload's data file passes");
	tap_int_eq(entry("file", "/tmp/abbench-x/../../etc/shadow", NULL), -1,
	    "a file through '..' is refused");
	tap_int_eq(entry("file", "abbench-rel", NULL), -1,
	    "a relative file is refused");
	tap_int_eq(entry("dir", "/tmp/abbench-0f0f/oci-Ab12", NULL), 0,
	    "a scratch directory passes");
	tap_int_eq(entry("dir", "/var/tmp/victim", NULL), -1,
	    "a directory not abbench's is refused");
	tap_int_eq(entry("dir", "/tmp/abbench-/x", NULL), -1,
	    "'abbench-' alone is not a run's name");
	tap_int_eq(entry("mkdir", "/mnt/data/new", NULL), 0,
	    "a workload's made directory passes");
	tap_int_eq(entry("mkdir", "/mnt/../etc", NULL), -1,
	    "a made directory through '..' is refused");
	tap_int_eq(entry("cgroup", "abbench-0f0f0f0f/q-p0", "/user.slice"), 0,
	    "a run's cgroup passes");
	tap_int_eq(entry("cgroup", "abbench-0f0f0f0f/../../system.slice",
	    NULL), -1, "a cgroup through '..' is refused");
	tap_int_eq(entry("cgroup", "system.slice", NULL), -1,
	    "a cgroup not abbench's is refused");
	tap_int_eq(entry("loop", "/dev/loop7", NULL), 0,
	    "a loop device passes");
	tap_int_eq(entry("loop", "/dev/sda", NULL), -1,
	    "another device is refused");
	tap_int_eq(entry("container", "abbench-0f0f0f0f-3", NULL), 0,
	    "a run's container passes");
	tap_int_eq(entry("container", "postgres", NULL), -1,
	    "another container is refused");
	tap_int_eq(entry("oci-container", "runsc\t/run/runsc\tabbench-1-2-3",
	    NULL), 0, "an OCI container of runsc passes");
	tap_int_eq(entry("oci-container", "/var/tmp/evil\t\tabbench-1", NULL),
	    -1, "an OCI 'runtime' that is any program is refused");
	tap_int_eq(entry("oci-container", "rm\t\tabbench-1", NULL), -1,
	    "an OCI 'runtime' named rm is refused");
	tap_int_eq(entry("oci-container", "runc\t\t../x", NULL), -1,
	    "an OCI container not abbench's is refused");
	tap_int_eq(entry("evil", "/tmp/abbench-x", NULL), -1,
	    "an unknown kind is refused");
	tap_int_eq(entry("file", "", NULL), -1, "an empty target is refused");
}

static void
test_files(void)
{
	char	 tmpl[] = "/tmp/t-trust.XXXXXX";
	char	*dir = mkdtemp(tmpl), *db, *side, *cause = NULL;
	int	 fd;

	if (dir == NULL) {
		tap_ok(0, "mkdtemp");
		return;
	}
	db = xasprintf("%s/x.db", dir);
	fd = open(db, O_WRONLY | O_CREAT, 0644);
	close(fd);
	tap_int_eq(trust_db_file(db, NULL), 0, "one's own database passes");
	chmod(db, 0666);
	tap_int_eq(trust_db_file(db, &cause), -1,
	    "a database anyone may write is refused");
	tap_ok(cause != NULL && strstr(cause, "writable by anyone") != NULL,
	    "and says so (%s)", cause != NULL ? cause : "");
	free(cause);
	cause = NULL;
	chmod(db, 0644);
	side = xasprintf("%s-journal", db);
	fd = open(side, O_WRONLY | O_CREAT, 0666);
	close(fd);
	chmod(side, 0666);
	tap_int_eq(trust_db_file(db, NULL), -1,
	    "a hot journal anyone may write is refused");
	unlink(side);
	free(side);
	chmod(dir, 0777);
	tap_int_eq(trust_db_file(db, NULL), -1,
	    "a database in a directory anyone may rename in is refused");
	chmod(dir, 01777);
	tap_int_eq(trust_db_file(db, NULL), 0, "a sticky one passes");
	chmod(dir, 0700);
	tap_int_eq(trust_state_dir(dir, NULL), 0, "one's own state directory");
	chmod(dir, 0757);
	tap_int_eq(trust_state_dir(dir, NULL), -1,
	    "a state directory anyone may write is refused");
	chmod(dir, 0700);
	tap_int_eq(trust_db_file("/nonexistent/x.db", NULL), 0,
	    "a missing database is left to the store's own error");
	if (geteuid() == 0) {
		tap_int_eq(chown(db, 65534, 65534), 0, "chown to nobody");
		tap_int_eq(trust_db_file(db, &cause), -1,
		    "root refuses nobody's database");
		tap_ok(cause != NULL && strstr(cause, "uid 65534") != NULL,
		    "and names the owner (%s)", cause != NULL ? cause : "");
		free(cause);
		cause = NULL;
	}
	unlink(db);
	rmdir(dir);
	free(db);
}

int
main(void)
{
	test_settings();
	test_objects();
	test_files();
	return tap_done();
}
