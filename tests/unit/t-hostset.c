/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the host settings' syntax check, of mountinfo parsing and
 * of the walk from a path to its disks, on a fixture mountinfo
 * (tests/data/mountinfo/stacked.txt: device-mapper root, partitions,
 * overlay, loop, stacked mounts, an escaped space) and a fake sysfs tree
 * built in a temporary directory.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/hostset.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

static void
check_ok(const char *name, const char *value)
{
	char	*cause = NULL;
	int	 rc = hostset_check(name, value, &cause);

	tap_ok(rc == 0, "accepts %s = %s", name, value);
	if (rc != 0)
		TAP_DIAG("%s", cause);
	free(cause);
}

static void
check_bad(const char *name, const char *value, const char *want)
{
	char	*cause = NULL;
	int	 rc = hostset_check(name, value, &cause);

	tap_ok(rc == -1 && cause != NULL && strstr(cause, want) != NULL,
	    "rejects %s = %.*s", name, (int)strcspn(value, "\n"), value);
	if (cause != NULL && strstr(cause, want) == NULL)
		TAP_DIAG("got '%s', want it to contain '%s'", cause, want);
	free(cause);
}

static void
test_check(void)
{
	check_ok("host.block.scheduler", "bfq");
	check_ok("host.block.scheduler", "mq-deadline");
	check_ok("host.block.slice_idle", "0");
	check_ok("host.block.slice_idle_us", "8000");
	check_ok("host.block.low_latency", "1");
	check_ok("host.block.fifo_batch", "16");
	check_ok("host.block.path", "/mnt/bench /var/tmp");
	check_ok("host.thp.enabled", "madvise");
	check_ok("host.thp.defrag", "defer+madvise");
	check_ok("host.sysctl.vm.swappiness", "10");
	check_ok("host.sysctl.net.ipv4.ip_local_port_range", "32768 60999");
	check_ok("host.cpufreq.governor", "performance");

	check_bad("host.block.scheduler", "bfq;rm", "not an I/O scheduler");
	check_bad("host.block.slice_idle", "-1", "non-negative integer");
	check_bad("host.block.slice_idle", "8ms", "non-negative integer");
	check_bad("host.block.low_latency", "2", "must be 0 or 1");
	check_bad("host.block.Slice", "0", "tunable name");
	check_bad("host.block.../x", "0", "tunable name");
	check_bad("host.block.path", "relative/dir", "absolute path");
	check_bad("host.thp.enabled", "sometimes", "always, madvise, never");
	check_bad("host.thp.defrag", "madvise+defer", "defer+madvise");
	check_bad("host.sysctl.vm..x", "1", "not a sysctl name");
	check_bad("host.sysctl.vm/../../etc/passwd", "1", "not a sysctl name");
	check_bad("host.sysctl.vm.swappiness", "", "empty value");
	check_bad("host.sysctl.kernel.x", "a\nb", "control character");
	check_bad("host.cpufreq.governor", "turbo", "not a cpufreq governor");
	check_bad("host.thp", "always", "unknown host setting");
	check_bad("host.block.", "0", "unknown host setting");
	check_bad("host.sysctl.", "1", "unknown host setting");
	check_bad("host.cpu.governor", "performance", "unknown host setting");
}

static char *
fixture(const char *name)
{
	const char	*src = getenv("ABBENCH_SRCDIR");
	char		*path = xasprintf("%s/tests/data/mountinfo/%s",
			    src != NULL ? src : ".", name);
	char		*cause = NULL;
	char		*text = read_file(path, NULL, &cause);

	if (text == NULL)
		die("%s", cause);
	free(path);
	return text;
}

static void
test_parse(void)
{
	struct mountinfo	 mi;
	const struct mount_entry *m;
	struct strvec		 dirs = STRVEC_INIT;
	char			*text = fixture("stacked.txt");
	char			*cause = NULL;

	tap_int_eq(mountinfo_parse(text, &mi, &cause), 0, "fixture parses");
	free(text);
	tap_int_eq(mi.n, 11, "11 mounts");
	tap_int_eq(mi.e[0].major, 253, "root major");
	tap_str_eq(mi.e[0].fstype, "ext4", "fstype after the optional fields");
	tap_str_eq(mi.e[0].source, "/dev/mapper/vg-root", "source");
	tap_str_eq(mi.e[10].mountpoint, "/mnt/space dir", "\\040 decoded");
	tap_str_eq(mi.e[10].fstype, "ext4", "no optional field: master:3");

	m = mountinfo_find(&mi, "/mnt/stack/a");
	tap_ok(m != NULL && m->id == 31, "the mount on top wins");
	m = mountinfo_find(&mi, "/mnt/benchmark");
	tap_ok(m != NULL && m->id == 22, "prefix only at a component boundary");
	m = mountinfo_find(&mi, "/mnt/bench");
	tap_ok(m != NULL && m->id == 29, "the mount point itself");
	m = mountinfo_find(&mi, "/var/lib/docker/overlay2/abc/merged/etc");
	tap_ok(m != NULL && m->id == 28, "the overlay mount");
	if (m != NULL) {
		tap_int_eq(mountinfo_overlay_dirs(m, &dirs), 3, "3 layers");
		tap_str_eq(dirs.n > 0 ? dirs.v[0] : NULL,
		    "/var/lib/docker/overlay2/abc/diff", "upperdir first");
		tap_str_eq(dirs.n > 2 ? dirs.v[2] : NULL, "/srv/layers/BBB",
		    "second lowerdir");
		strvec_clear(&dirs);
	}
	mountinfo_release(&mi);

	tap_int_eq(mountinfo_parse("22 1 253:0 / / rw\n", &mi, &cause), -1,
	    "a line without ' - ' is an error");
	tap_ok(cause != NULL && strstr(cause, "line 1") != NULL,
	    "the error names the line");
	free(cause);
	cause = NULL;
	tap_int_eq(mountinfo_parse("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "x 1 8:1 / /a rw - ext4 /dev/sda1 rw\n", &mi, &cause), -1,
	    "a bad id is an error");
	tap_ok(cause != NULL && strstr(cause, "line 2") != NULL,
	    "the error names line 2");
	free(cause);
}

static void
test_overlay_opts(void)
{
	struct mount_entry	m;
	struct strvec		dirs = STRVEC_INIT;

	memset(&m, 0, sizeof(m));
	m.super_opts = "rw,lowerdir+=/l/one,lowerdir+=/l/t\\054wo,"
	    "datadir+=/d/x,upperdir=/u\\040p,workdir=/w";
	tap_int_eq(mountinfo_overlay_dirs(&m, &dirs), 4, "lowerdir+= form");
	tap_str_eq(dirs.n > 0 ? dirs.v[0] : NULL, "/u p", "upper, unescaped");
	tap_str_eq(dirs.n > 2 ? dirs.v[2] : NULL, "/l/t,wo",
	    "a comma in a layer path");
	tap_str_eq(dirs.n > 3 ? dirs.v[3] : NULL, "/d/x", "data layer");
	strvec_clear(&dirs);
	m.super_opts = "rw,lowerdir=/a:/b::/data,upperdir=/c";
	tap_int_eq(mountinfo_overlay_dirs(&m, &dirs), 4,
	    "data layers after ::");
	tap_str_eq(dirs.n > 3 ? dirs.v[3] : NULL, "/data", "the data layer");
	strvec_clear(&dirs);
}

static void
mkdirs(const char *root, const char *rel)
{
	char	*p = xasprintf("%s/%s", root, rel);
	char	*s;

	for (s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
}

static void
put(const char *root, const char *rel, const char *text)
{
	char	*p = xasprintf("%s/%s", root, rel);
	FILE	*f = fopen(p, "w");

	if (f == NULL)
		die("cannot create '%s': %s", p, strerror(errno));
	fputs(text, f);
	fclose(f);
	free(p);
}

static void
link_to(const char *root, const char *rel, const char *target)
{
	char	*p = xasprintf("%s/%s", root, rel);

	if (symlink(target, p) == -1)
		die("cannot link '%s': %s", p, strerror(errno));
	free(p);
}

/* A sysfs laid out like the kernel's, for the fixture's devices. */
static char *
fake_sysfs(void)
{
	char	 tmpl[] = "/tmp/abbench-sysfs.XXXXXX";
	char	*root;

	if (mkdtemp(tmpl) == NULL)
		die("mkdtemp: %s", strerror(errno));
	root = xstrdup(tmpl);
	mkdirs(root, "devices/pci/block/sda/sda1");
	mkdirs(root, "devices/pci/block/sda/sda2");
	put(root, "devices/pci/block/sda/sda1/partition", "1\n");
	put(root, "devices/pci/block/sda/sda2/partition", "2\n");
	mkdirs(root, "devices/pci/block/sdb");
	mkdirs(root, "devices/pci/block/sdc");
	mkdirs(root, "devices/pci/block/sdd");
	mkdirs(root, "devices/virtual/block/dm-0/slaves");
	link_to(root, "devices/virtual/block/dm-0/slaves/sda2",
	    "../../../../pci/block/sda/sda2");
	link_to(root, "devices/virtual/block/dm-0/slaves/sdb",
	    "../../../../pci/block/sdb");
	mkdirs(root, "devices/virtual/block/loop3/loop");
	put(root, "devices/virtual/block/loop3/loop/backing_file",
	    "/srv/layers/img (deleted)\n");
	mkdirs(root, "dev/block");
	link_to(root, "dev/block/8:1", "../../devices/pci/block/sda/sda1");
	link_to(root, "dev/block/8:2", "../../devices/pci/block/sda/sda2");
	link_to(root, "dev/block/8:16", "../../devices/pci/block/sdb");
	link_to(root, "dev/block/8:32", "../../devices/pci/block/sdc");
	link_to(root, "dev/block/8:48", "../../devices/pci/block/sdd");
	link_to(root, "dev/block/253:0", "../../devices/virtual/block/dm-0");
	link_to(root, "dev/block/7:3", "../../devices/virtual/block/loop3");
	return root;
}

static void
expect_disks(const struct mountinfo *mi, const char *sysfs, const char *path,
    int flags, const char *want)
{
	struct strvec	 d = STRVEC_INIT;
	struct strbuf	 sb = STRBUF_INIT;
	char		*cause = NULL;
	size_t		 i;

	if (blockdev_resolve(path, mi, sysfs, flags, &d, &cause) == -1)
		strbuf_addf(&sb, "error: %s", cause);
	for (i = 0; i < d.n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", d.v[i]);
	if (want[0] != '\0' && want[strlen(want) - 1] == '*') {
		/* A prefix: messages name the temporary directory. */
		tap_ok(sb.buf != NULL &&
		    strncmp(sb.buf, want, strlen(want) - 1) == 0,
		    "disks of '%s' start with '%s'", path, want);
		if (sb.buf == NULL || strncmp(sb.buf, want, strlen(want) - 1))
			TAP_DIAG("got '%s'", sb.buf ? sb.buf : "");
	} else
		tap_str_eq(sb.buf != NULL ? sb.buf : "", want,
		    "disks of '%s'%s", path,
		    flags & BLOCKDEV_NO_BACKING ? " (no backing)" : "");
	free(cause);
	strbuf_release(&sb);
	strvec_clear(&d);
}

static void
test_resolve(void)
{
	struct mountinfo	 mi;
	char			*text = fixture("stacked.txt");
	char			*sysfs = fake_sysfs();
	char			*cause = NULL;
	char			*argv[] = { "rm", "-rf", sysfs, NULL };

	if (mountinfo_parse(text, &mi, &cause) == -1)
		die("%s", cause);
	free(text);
	expect_disks(&mi, sysfs, "/", 0, "sda sdb");
	expect_disks(&mi, sysfs, "/boot/vmlinuz", 0, "sda");
	expect_disks(&mi, sysfs, "/mnt/benchmark", 0, "sda sdb");
	expect_disks(&mi, sysfs, "/mnt/stack/x", 0, "sdb");
	expect_disks(&mi, sysfs, "/mnt/space dir/x", 0, "sdd");
	expect_disks(&mi, sysfs, "/tmp/x", 0, "");
	expect_disks(&mi, sysfs, "/proc/self", 0, "");
	expect_disks(&mi, sysfs, "/var/lib/docker/overlay2/abc/merged/etc", 0,
	    "sdc sdd");
	expect_disks(&mi, sysfs, "/mnt/bench/data", 0, "loop3 sdd");
	expect_disks(&mi, sysfs, "/mnt/bench/data", BLOCKDEV_NO_BACKING,
	    "loop3");
	mountinfo_release(&mi);

	/* A device missing from sysfs is an error, not an empty answer. */
	if (mountinfo_parse("1 0 9:9 / / rw - ext4 /dev/md9 rw\n", &mi,
	    &cause) == -1)
		die("%s", cause);
	expect_disks(&mi, sysfs, "/x", 0, "error: no block device 9:9 in '*");
	mountinfo_release(&mi);

	if (fork() == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (wait(NULL) > 0)
		;
	free(sysfs);
}

static void
test_real_root(void)
{
	char	**disks = NULL;
	size_t	  n = 0, i;
	char	 *cause = NULL;
	int	  rc = blockdev_for_path("/", &disks, &n, &cause);
	int	  all = 1;

	tap_int_eq(rc, 0, "blockdev_for_path('/') on this host");
	if (rc == -1)
		TAP_DIAG("%s", cause);
	for (i = 0; i < n; i++) {
		char		*p = xasprintf("/sys/block/%s", disks[i]);
		struct stat	 st;

		all &= stat(p, &st) == 0;
		free(p);
	}
	/* A container's root may be an overlay on a disk or on tmpfs. */
	tap_ok(all, "every disk of '/' is in /sys/block (%zu found)", n);
	tap_ok(disks != NULL && disks[n] == NULL, "the array ends with NULL");
	for (i = 0; i < n; i++)
		free(disks[i]);
	free(disks);
	free(cause);
}

int
main(void)
{
	test_check();
	test_parse();
	test_overlay_opts();
	test_resolve();
	test_real_root();
	return tap_done();
}
