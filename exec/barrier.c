/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The start barrier (exec/barrier.h): a scratch directory, ready files
 * counted, one release file.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/barrier.h"
#include "exec/context.h"
#include "exec/exec.h"
#include "lib/proc.h"

/* How often the ready files are looked at while waiting. */
#define BARRIER_POLL_US		2000
/*
 * How often the members' processes are looked at, at most; a look that
 * costs more waits BARRIER_ALIVE_COST times its cost before the next:
 * the oci executor asks its runtime for a pid it has not learned yet
 * (`runc state`: 0.2-0.4 s each under the qemu guest's emulation, where
 * 4 containers' looks back to back took a CPU from the containers being
 * made, which took the longer for it; t0601).
 */
#define BARRIER_ALIVE_NS	(100 * 1000 * 1000)
#define BARRIER_ALIVE_COST	10

struct barrier_member {
	struct strvec		 env;
	struct exec_mount	*mounts;
};

struct exec_barrier {
	struct run_ctx		*ctx;
	const struct exec_ops	*ex;
	int			 n;
	char			*dir;		/* host path */
	int64_t			 journal;
	int			 made;
	char			*prog;		/* helper, as members see it */
	struct barrier_member	*m;
};

struct exec_barrier *
exec_barrier_new(struct run_ctx *ctx, const struct exec_ops *ex, int n,
    char **cause)
{
	struct exec_barrier	*b;

	if (ex->barrier_join == NULL) {
		set_cause(cause, "executor '%s' cannot hold its programs at a "
		    "start line", ex->name);
		return NULL;
	}
	b = xcalloc(1, sizeof *b);
	b->ctx = ctx;
	b->ex = ex;
	b->n = n;
	b->m = xcalloc((size_t)n, sizeof *b->m);
	b->dir = run_scratch_file(ctx, "start-XXXXXX", NULL);
	b->journal = -1;
	if (mkdtemp(b->dir) == NULL) {
		set_cause(cause, "cannot create '%s': %s", b->dir,
		    strerror(errno));
		exec_barrier_free(b);
		return NULL;
	}
	b->made = 1;
	b->journal = run_journal_object(ctx, "dir", b->dir);
	return b;
}

char *
exec_barrier_path(const struct exec_barrier *b, const char *name)
{
	return xasprintf("%s/%s", b->dir, name);
}

const char *
exec_barrier_prog(const struct exec_barrier *b)
{
	return b->prog;
}

/* Member i's copies of spec's env and mounts, with what it needs added. */
static void
barrier_spec(struct exec_barrier *b, int i, struct exec_spec *spec,
    const char *dir_seen, const struct exec_mount *mount)
{
	struct barrier_member	*m = &b->m[i];
	size_t			 k, n = spec->nmounts;

	strvec_clear(&m->env);
	for (k = 0; spec->env != NULL && spec->env[k] != NULL; k++)
		strvec_push(&m->env, spec->env[k]);
	strvec_pushf(&m->env, "ABBENCH_STARTLINE=%s", b->prog);
	strvec_pushf(&m->env, "ABBENCH_STARTLINE_DIR=%s", dir_seen);
	strvec_pushf(&m->env, "ABBENCH_STARTLINE_READY=ready.%d", i);
	spec->env = m->env.v;
	if (mount == NULL)
		return;
	free(m->mounts);
	m->mounts = xcalloc(n + 1, sizeof *m->mounts);
	if (n > 0)
		memcpy(m->mounts, spec->mounts, n * sizeof *m->mounts);
	m->mounts[n] = *mount;
	spec->mounts = m->mounts;
	spec->nmounts = n + 1;
}

int
exec_barrier_join_host(struct exec_barrier *b, int i,
    struct exec_spec *spec, char **cause)
{
	if (b->prog == NULL &&
	    (b->prog = libexec_find("abbench-startline", cause)) == NULL)
		return -1;
	barrier_spec(b, i, spec, b->dir, NULL);
	return 0;
}

int
exec_barrier_join_sandbox(struct exec_barrier *b, int i,
    struct exec_spec *spec, char **cause)
{
	struct exec_mount	mount = { "bind", NULL, EXEC_BARRIER_DIR,
				    NULL };

	(void)cause;
	if (b->prog == NULL)
		b->prog = xstrdup(EXEC_BARRIER_PROG);
	mount.source = b->dir;
	barrier_spec(b, i, spec, EXEC_BARRIER_DIR, &mount);
	return 0;
}

int
exec_barrier_join(struct exec_barrier *b, int i, struct exec_spec *spec,
    char **cause)
{
	if (i < 0 || i >= b->n)
		return set_cause(cause, "start line: no member %d of %d", i,
		    b->n);
	return b->ex->barrier_join(b, i, spec, cause);
}

int
exec_barrier_signal(struct exec_barrier *b, const char *name, char **cause)
{
	char	*p = exec_barrier_path(b, name);
	int	 fd;

	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd == -1) {
		set_cause(cause, "cannot create '%s': %s", p,
		    strerror(errno));
		free(p);
		return -1;
	}
	close(fd);
	free(p);
	return 0;
}

/* Lines in member i's ready file. */
static int
ready_count(const struct exec_barrier *b, int i)
{
	char	 name[32], *p, buf[4096];
	ssize_t	 r;
	int	 fd, lines = 0;

	snprintf(name, sizeof name, "ready.%d", i);
	p = exec_barrier_path(b, name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	if (fd == -1)
		return 0;
	while ((r = read(fd, buf, sizeof buf)) > 0) {
		ssize_t	k;

		for (k = 0; k < r; k++)
			lines += buf[k] == '\n';
	}
	close(fd);
	return lines;
}

/*
 * What the members wrote in the directory beyond the ready files (fio's
 * exec_prerun output, the shell's "not found"): the last line of each,
 * for the message of a member that did not reach the start line.
 */
static char *
left_text(const struct exec_barrier *b)
{
	struct strbuf	 sb = STRBUF_INIT;
	struct dirent	*de;
	DIR		*d;

	if ((d = opendir(b->dir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		char	*p, *text, *line, *nl;

		if (de->d_name[0] == '.' ||
		    strncmp(de->d_name, "ready.", 6) == 0 ||
		    strcmp(de->d_name, EXEC_BARRIER_GO) == 0)
			continue;
		p = exec_barrier_path(b, de->d_name);
		text = read_small_file(p, NULL);
		free(p);
		if (text == NULL)
			continue;
		strtrim(text);
		line = (nl = strrchr(text, '\n')) != NULL ? nl + 1 : text;
		if (*line != '\0')
			strbuf_addf(&sb, "%s%s: %.200s", sb.len ? "; " : "",
			    de->d_name, line);
		free(text);
	}
	closedir(d);
	return sb.len ? strbuf_detach(&sb) : NULL;
}

/* 0 when pid is known to have exited (gone, or a zombie), else 1. */
static int
pid_alive(long pid)
{
	if (pid <= 0)
		return 1;	/* unknown: the deadline decides */
	return !proc_exited(pid);
}

int
exec_barrier_wait_ready(struct exec_barrier *b,
    struct exec_proc *const *procs, const int *per, int64_t deadline_ns,
    char **cause)
{
	int64_t	next_alive = 0, now, cost;
	int	i, want;

	for (;;) {
		for (i = 0; i < b->n; i++) {
			want = per != NULL ? per[i] : 1;
			if (ready_count(b, i) < want)
				break;
		}
		if (i == b->n)
			return 0;
		if (run_should_stop(b->ctx))
			return set_cause(cause, "interrupted");
		now = now_mono_ns();
		if (deadline_ns > 0 && now >= deadline_ns)
			return set_cause(cause, "not every program reached "
			    "the start line in time (%d of %d is not ready)",
			    i + 1, b->n);
		if (procs != NULL && b->ex->pid != NULL &&
		    now >= next_alive) {
			for (i = 0; i < b->n; i++) {
				if (procs[i] != NULL &&
				    !pid_alive(b->ex->pid(procs[i])) &&
				    ready_count(b, i) < (per ? per[i] : 1)) {
					char	*left = left_text(b);

					set_cause(cause, "%d of %d exited "
					    "before it reached the start "
					    "line%s%s%s", i + 1, b->n,
					    left ? " (" : "",
					    left ? left : "",
					    left ? ")" : "");
					free(left);
					return -1;
				}
			}
			cost = now_mono_ns() - now;
			next_alive = now + cost +
			    (BARRIER_ALIVE_COST * cost > BARRIER_ALIVE_NS ?
			    BARRIER_ALIVE_COST * cost : BARRIER_ALIVE_NS);
		}
		usleep(BARRIER_POLL_US);
	}
}

int64_t
exec_barrier_release(struct exec_barrier *b, char **cause)
{
	int64_t	t = now_mono_ns();

	if (exec_barrier_signal(b, EXEC_BARRIER_GO, cause) == -1)
		return -1;
	return t;
}

int
exec_barrier_released_at(const struct exec_barrier *b, int i,
    int64_t *first_ns)
{
	char		 name[48], *p, *text, *line, *end;
	long long	 v;
	int		 n = 0;

	snprintf(name, sizeof name, "ready.%d.%s", i, EXEC_BARRIER_GO);
	p = exec_barrier_path(b, name);
	text = read_small_file(p, NULL);
	free(p);
	*first_ns = 0;
	for (line = text; line != NULL && *line != '\0'; line = end) {
		end = line + strcspn(line, "\n");
		if (*end == '\n')
			*end++ = '\0';
		errno = 0;
		v = strtoll(line, &p, 10);
		if (errno != 0 || p == line || *p != '\0' || v <= 0)
			continue;
		if (n == 0 || v < *first_ns)
			*first_ns = v;
		n++;
	}
	free(text);
	return n;
}

void
exec_barrier_free(struct exec_barrier *b)
{
	int	i;

	if (b == NULL)
		return;
	if (b->made && rmtree(b->dir, NULL) == 0 && b->journal != -1)
		run_forget_object(b->ctx, b->journal);
	for (i = 0; i < b->n; i++) {
		strvec_clear(&b->m[i].env);
		free(b->m[i].mounts);
	}
	free(b->m);
	free(b->prog);
	free(b->dir);
	free(b);
}
