/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec/ctrd-ckpt: which of containerd's ctrd-checkpoint* directories are
 * copies of a container's docker checkpoint, in a scratch tree laid out
 * as docker's root and containerd's temporary directory (with a name
 * holding ", %, \ and <). A copy of ours goes; one with the same names
 * and sizes but other bytes, another size, another file set, a fifo, or
 * one that was there before the restore stays, and a fifo is not read;
 * both for a dead run's container (prints) and for a live restore.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "exec/ctrd-ckpt.h"
#include "tests/unit/tap.h"

static char	tmpdir[] = "/tmp/t-ctrd-ckpt.XXXXXX";

static char *
mk(const char *rel)
{
	char	*p = xasprintf("%s/%s", tmpdir, rel), *q, *s;

	for (s = p + strlen(tmpdir) + 1; (q = strchr(s, '/')) != NULL;
	    s = q + 1) {
		*q = '\0';
		(void)mkdir(p, 0700);
		*q = '/';
	}
	(void)mkdir(p, 0700);
	return p;
}

static void
put(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*fp = fopen(p, "w");

	if (fp == NULL)
		die("%s", p);
	fputs(text, fp);
	fclose(fp);
	free(p);
}

static int
there(const char *dir)
{
	struct stat	sb;

	return stat(dir, &sb) == 0;
}

/* A checkpoint as docker and runsc lay it out: one image, one note. */
static void
ckpt(const char *dir, const char *img)
{
	put(dir, "checkpoint.img", img);
	put(dir, "config.json", "{\"CheckpointName\":\"cp0\"}");
}

int
main(void)
{
	struct strvec	 tmps = STRVEC_INIT, prints = STRVEC_INIT;
	struct strvec	 before = STRVEC_INIT, list = STRVEC_INIT;
	struct strvec	 gone = STRVEC_INIT;
	char		*root, *ours, *other, *t, *copy, *bytes, *size, *set;
	char		*fifo, *theirs, *old, *twin, *p;

	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp");
	root = mk("docker");
	ours = mk("docker/containers/abc123def/checkpoints/cp0");
	other = mk("docker/containers/ffff0000/checkpoints/cp0");
	ckpt(ours, "the memory of ours");
	ckpt(other, "the memory of another one");
	t = mk("tmp \"%\\<");
	strvec_push(&tmps, t);

	copy = mk("tmp \"%\\</ctrd-checkpoint1");
	ckpt(copy, "the memory of ours");
	bytes = mk("tmp \"%\\</ctrd-checkpoint2");
	ckpt(bytes, "the memory of OURS");	/* same names and sizes */
	size = mk("tmp \"%\\</ctrd-checkpoint3");
	ckpt(size, "the memory of ours, longer");
	set = mk("tmp \"%\\</ctrd-checkpoint4");
	ckpt(set, "the memory of ours");
	put(set, "extra", "");
	theirs = mk("tmp \"%\\</ctrd-checkpoint5");
	ckpt(theirs, "the memory of another one");
	fifo = mk("tmp \"%\\</ctrd-checkpoint6");
	put(fifo, "config.json", "{\"CheckpointName\":\"cp0\"}");
	p = xasprintf("%s/checkpoint.img", fifo);
	if (mkfifo(p, 0600) == -1)
		die("mkfifo");
	free(p);
	free(mk("tmp \"%\\</not-a-checkpoint"));

	ctrd_ckpt_list(&tmps, &list);
	tap_int_eq((long long)list.n, 6, "6 ctrd-checkpoint* directories");

	/* The sweep: prints of container abc123… (a prefix of its id). */
	ctrd_ckpt_prints(root, "abc123", &prints);
	tap_int_eq((long long)prints.n, 1, "one print: its one checkpoint");
	tap_ok(prints.n == 1 && strstr(prints.v[0], "checkpoint.img 18\n") !=
	    NULL && strstr(prints.v[0], "sha256:\n") != NULL,
	    "the print holds the image's name and size, then its digest");
	ctrd_ckpt_prints(root, "nosuchid", &prints);
	ctrd_ckpt_prints(root, "", &prints);
	tap_int_eq((long long)prints.n, 1, "no print for an unknown or empty id");
	tap_int_eq(ctrd_ckpt_remove_printed(&prints, &tmps, &gone), 1,
	    "one copy removed");
	tap_ok(gone.n == 1 && strcmp(gone.v[0], copy) == 0,
	    "its path is told");
	tap_ok(!there(copy), "the copy of ours is gone");
	tap_ok(there(bytes), "other bytes, same names and sizes: kept");
	tap_ok(there(size), "another size: kept");
	tap_ok(there(set), "another set of files: kept");
	tap_ok(there(theirs), "another container's: kept");
	tap_ok(there(fifo), "a fifo in place of the image: kept, not read");
	tap_ok(there(ours), "docker's own checkpoint: kept");

	/* The live restore: what appeared during it, by names and sizes. */
	old = mk("tmp \"%\\</ctrd-checkpoint7");
	ckpt(old, "the memory of ours");
	strvec_clear(&list);
	ctrd_ckpt_list(&tmps, &before);
	free(copy);
	copy = mk("tmp \"%\\</ctrd-checkpoint8");
	ckpt(copy, "the memory of ours");
	twin = mk("tmp \"%\\</ctrd-checkpoint9");
	ckpt(twin, "the memory of OURS");
	tap_int_eq(ctrd_ckpt_remove(ours, &tmps, &before), 1,
	    "the restore's copy removed");
	tap_ok(!there(copy), "the copy that appeared during it is gone");
	tap_ok(there(twin), "one that appeared beside it with the same names "
	    "and sizes but other bytes (another run's restore): kept");
	tap_ok(there(old), "one that was there before it: kept");
	tap_ok(there(theirs) && there(size) && there(set),
	    "the others: kept");
	tap_int_eq(ctrd_ckpt_remove(other, &tmps, NULL), 1,
	    "without a listing from before: the other container's copy");
	tap_int_eq(ctrd_ckpt_remove("/nonexistent", &tmps, NULL), 0,
	    "a missing checkpoint removes nothing");

	strvec_clear(&tmps);
	ctrd_ckpt_tmpdirs(&tmps);
	tap_ok(tmps.n >= 1, "containerd's temporary directories: at least one"
	    " (/tmp when none runs)");

	rmtree(tmpdir, NULL);
	strvec_clear(&tmps);
	strvec_clear(&prints);
	strvec_clear(&before);
	strvec_clear(&list);
	strvec_clear(&gone);
	free(root);
	free(ours);
	free(other);
	free(t);
	free(copy);
	free(bytes);
	free(size);
	free(set);
	free(fifo);
	free(theirs);
	free(old);
	free(twin);
	return tap_done();
}
