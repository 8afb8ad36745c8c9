/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf stat of one cgroup per sample (exec/perfstat.h): start, enable
 * through the control fifo, wait for its ack, then stop with SIGINT and
 * read its CSV.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cgroup.h"
#include "exec/context.h"
#include "exec/perfstat.h"
#include "exec/spawn.h"
#include "lib/proc.h"

#define PERF_READY_NS	(10 * 1000000000LL)	/* perf started and enabled */
#define PERF_STOP_NS	(5 * 1000000000LL)	/* SIGINT to exit */
#define PERF_PROBE_NS	(20 * 1000000000LL)

struct perf_stat {
	struct child	 child;
	struct strvec	 argv;
	char		*dir;		/* fifos and output */
	char		*out;		/* perf's -o */
	char		*cgdir;		/* the cgroup */
	char		*procs;		/* its cgroup.procs */
	int		 ctl, ack;	/* fifo ends */
	int		 running;
	size_t		 nevents;
	char		*name;		/* the cgroup, as -G and /proc name it */
	const char	*ctrl;		/* its hierarchy: "perf_event", "" */
};

int
perf_events_parse(const char *text, struct strvec *events, char **cause)
{
	const char	*p = text, *comma;
	size_t		 n, i;

	if (text == NULL || *text == '\0')
		return set_cause(cause, "no counter named");
	for (;;) {
		comma = strchrnul(p, ',');
		n = (size_t)(comma - p);
		if (n == 0)
			return set_cause(cause, "an empty counter name in '%s'",
			    text);
		for (i = 0; i < n; i++) {
			if (!isalnum((unsigned char)p[i]) && p[i] != '-' &&
			    p[i] != '_' && p[i] != ':' && p[i] != '.')
				return set_cause(cause, "'%.*s' is not a "
				    "counter name", (int)n, p);
		}
		strvec_push_nodup(events, xstrndup(p, n));
		if (*comma == '\0')
			return 0;
		p = comma + 1;
	}
}

/* The field of a perf -x, line (0-based), malloc'd, or NULL. */
static char *
csv_field(const char *line, int k)
{
	const char	*p = line, *e;

	while (k-- > 0) {
		if ((p = strchr(p, ',')) == NULL)
			return NULL;
		p++;
	}
	e = strchrnul(p, ',');
	return xstrndup(p, (size_t)(e - p));
}

/* The counts of perf -x, output text, in order; -1 naming what is not. */
static int
parse_counts(char *text, const struct strvec *events, double *values,
    char **cause)
{
	char	*line, *save = NULL, *v, *name, *end;
	size_t	 i = 0;

	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (*line == '#' || *strtrim(line) == '\0')
			continue;
		if (i == events->n)
			break;
		v = csv_field(line, 0);
		name = csv_field(line, 2);
		if (v == NULL || name == NULL || *v == '<') {
			set_cause(cause, "counter '%s': perf stat says %s",
			    events->v[i], v != NULL ? v : line);
			free(v);
			free(name);
			return -1;
		}
		errno = 0;
		values[i] = strtod(v, &end);
		if (errno != 0 || end == v || *end != '\0') {
			set_cause(cause, "counter '%s': '%s' is not a count",
			    events->v[i], v);
			free(v);
			free(name);
			return -1;
		}
		free(v);
		free(name);
		i++;
	}
	if (i < events->n)
		return set_cause(cause, "counter '%s': no count from perf "
		    "stat", events->v[i]);
	return 0;
}

int
perf_events_check(const struct strvec *events, char **cause)
{
	static struct strvec	 good = STRVEC_INIT;
	struct strvec		 argv = STRVEC_INIT, one = STRVEC_INIT;
	char			*out = NULL, *err = NULL, *why = NULL;
	double			 v;
	size_t			 i;
	int			 status = -1, rc = 0;

	for (i = 0; i < events->n && rc == 0; i++) {
		if (strvec_has(&good, events->v[i]))
			continue;
		strvec_clear(&argv);
		strvec_clear(&one);
		strvec_push(&one, events->v[i]);
		strvec_push(&argv, "perf");
		strvec_push(&argv, "stat");
		strvec_push(&argv, "-a");
		strvec_push(&argv, "-x,");
		strvec_push(&argv, "-e");
		strvec_push(&argv, events->v[i]);
		strvec_push(&argv, "true");
		free(out);
		free(err);
		out = err = NULL;
		if (spawn_capture(argv.v, PERF_PROBE_NS, &out, &err, &status,
		    &why) == -1) {
			rc = set_cause(cause, "counter '%s': cannot run perf "
			    "stat: %s", events->v[i], why);
			free(why);
			break;
		}
		if (status != 0) {
			char	*first = err != NULL ? err : (char *)"";

			first[strcspn(first, "\n")] = '\0';
			rc = set_cause(cause, "counter '%s': 'perf stat -a "
			    "-e %s' fails here: %s", events->v[i],
			    events->v[i], strtrim(first));
			break;
		}
		if (parse_counts(err != NULL ? err : (char *)"", &one, &v,
		    &why) == -1) {
			rc = set_cause(cause, "%s on this host", why);
			free(why);
			break;
		}
		strvec_push(&good, events->v[i]);
	}
	free(out);
	free(err);
	strvec_clear(&argv);
	strvec_clear(&one);
	return rc;
}

char *
perf_event_unit(const char *event)
{
	return xasprintf("%s/op", event);
}

/*
 * The hierarchy perf -G names cgroups in: v1 perf_event if mounted, else
 * cgroup2 (as tools/lib/api/fs/cgroup.c finds it). "" for cgroup2.
 */
static const char *
perf_controller(void)
{
	char	*d = cgrp_path_dir("perf_event", "/");

	free(d);
	return d != NULL ? "perf_event" : "";
}

void
perf_stat_free(struct perf_stat *ps)
{
	if (ps == NULL)
		return;
	if (ps->running) {
		spawn_kill(&ps->child);
		ps->running = 0;
	}
	spawn_release(&ps->child);
	if (ps->ctl >= 0)
		close(ps->ctl);
	if (ps->ack >= 0)
		close(ps->ack);
	if (ps->cgdir != NULL)
		(void)cgrp_remove_dir(ps->cgdir, NULL);
	if (ps->dir != NULL)
		(void)rmtree(ps->dir, NULL);
	strvec_clear(&ps->argv);
	free(ps->dir);
	free(ps->out);
	free(ps->cgdir);
	free(ps->procs);
	free(ps->name);
	free(ps);
}

/* Has pid exited (a zombie not yet reaped, or gone)? */
static int
child_gone(pid_t pid)
{
	return proc_exited((long)pid);
}

/* Wait for perf's "ack" on the ack fifo, perf still alive. */
static int
wait_ack(struct perf_stat *ps, char **cause)
{
	int64_t		deadline = now_mono_ns() + PERF_READY_NS;
	struct pollfd	pfd = { .fd = ps->ack, .events = POLLIN };
	char		buf[16];
	ssize_t		n;
	char		*tail;

	while (now_mono_ns() < deadline) {
		if (poll(&pfd, 1, 50) > 0 && (pfd.revents & POLLIN)) {
			n = read(ps->ack, buf, sizeof buf - 1);
			if (n > 0) {
				buf[n] = '\0';
				if (strncmp(buf, "ack", 3) == 0)
					return 0;
			}
		}
		if (child_gone(ps->child.pid)) {
			(void)spawn_wait(&ps->child, now_mono_ns() +
			    PERF_STOP_NS, NULL);
			ps->running = 0;
			tail = last_lines(ps->child.err.buf != NULL ?
			    ps->child.err.buf : "", ps->child.err.len, 3);
			set_cause(cause, "perf stat ended before counting: %s",
			    strtrim(tail));
			free(tail);
			return -1;
		}
	}
	return set_cause(cause, "perf stat did not start counting within "
	    "%llds", (long long)(PERF_READY_NS / 1000000000LL));
}

int
perf_stat_enable(struct perf_stat *ps, char **cause)
{
	if (write(ps->ctl, "enable\n", 7) != 7)
		return set_cause(cause, "cannot write perf's control fifo: "
		    "%s", strerror(errno));
	return wait_ack(ps, cause);
}

struct perf_stat *
perf_stat_start(struct run_ctx *ctx, const struct strvec *events,
    int enable, const char **procs, char **cause)
{
	static unsigned		 counter;
	struct perf_stat	*ps = xcalloc(1, sizeof *ps);
	struct strbuf		 ev = STRBUF_INIT, cg = STRBUF_INIT;
	const char		*ctrl = perf_controller();
	char			*self = NULL, *rel, *mnt = NULL, *fifo;
	const char		*name;
	size_t			 i;

	ps->ctl = ps->ack = -1;
	ps->nevents = events->n;
	ps->dir = run_scratch_file(ctx, "perf-XXXXXX", NULL);
	if (mkdtemp(ps->dir) == NULL) {
		set_cause(cause, "cannot create '%s': %s", ps->dir,
		    strerror(errno));
		free(ps->dir);
		ps->dir = NULL;
		goto fail;
	}
	/* Below the run's cgroup, which the run's end removes anyway. */
	if ((self = cgrp_self_path(ctrl, cause)) == NULL)
		goto fail;
	rel = xasprintf("%s/%s/perf%u", strcmp(self, "/") == 0 ? "" : self,
	    ctx->cgroup_name, counter++);
	ps->cgdir = cgrp_path_dir(ctrl, rel);
	mnt = cgrp_path_dir(ctrl, "/");
	free(rel);
	if (ps->cgdir == NULL || mnt == NULL) {
		set_cause(cause, "perf: no %s cgroup hierarchy",
		    *ctrl ? ctrl : "cgroup2");
		goto fail;
	}
	{
		char	*parent = path_dir(ps->cgdir);

		(void)mkdir(parent, 0755);
		free(parent);
	}
	if (mkdir(ps->cgdir, 0755) == -1) {
		set_cause(cause, "cannot create cgroup '%s': %s", ps->cgdir,
		    strerror(errno));
		free(ps->cgdir);
		ps->cgdir = NULL;
		goto fail;
	}
	ps->procs = xasprintf("%s/cgroup.procs", ps->cgdir);
	name = ps->cgdir + strlen(mnt);
	while (*name == '/')
		name++;
	ps->name = xstrdup(name);
	ps->ctrl = ctrl;
	for (i = 0; i < events->n; i++) {
		strbuf_addf(&ev, "%s%s", i ? "," : "", events->v[i]);
		strbuf_addf(&cg, "%s%s", i ? "," : "", name);
	}
	/* Both ends ours before perf opens them: it never blocks on them,
	 * and "enable" waits in the pipe until perf reads it. */
	fifo = xasprintf("%s/ctl", ps->dir);
	if (mkfifo(fifo, 0600) == -1 ||
	    (ps->ctl = open(fifo, O_RDWR | O_CLOEXEC)) == -1) {
		set_cause(cause, "cannot create fifo '%s': %s", fifo,
		    strerror(errno));
		free(fifo);
		goto fail;
	}
	free(fifo);
	fifo = xasprintf("%s/ack", ps->dir);
	if (mkfifo(fifo, 0600) == -1 || (ps->ack = open(fifo,
	    O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		set_cause(cause, "cannot create fifo '%s': %s", fifo,
		    strerror(errno));
		free(fifo);
		goto fail;
	}
	free(fifo);
	ps->out = xasprintf("%s/out", ps->dir);
	strvec_push(&ps->argv, "perf");
	strvec_push(&ps->argv, "stat");
	strvec_push(&ps->argv, "-a");
	strvec_push(&ps->argv, "-x,");
	strvec_push(&ps->argv, "-o");
	strvec_push(&ps->argv, ps->out);
	strvec_push(&ps->argv, "-e");
	strvec_push(&ps->argv, ev.buf);
	strvec_push(&ps->argv, "-G");
	strvec_push(&ps->argv, cg.buf);
	strvec_push(&ps->argv, "-D");
	strvec_push(&ps->argv, "-1");
	strvec_pushf(&ps->argv, "--control=fifo:%s/ctl,%s/ack", ps->dir,
	    ps->dir);
	ps->child.argv = ps->argv.v;
	ps->child.flags = SPAWN_NULL_OUT | SPAWN_CAPTURE_ERR;
	if (spawn_start(&ps->child, cause) == -1)
		goto fail;
	ps->running = 1;
	if (enable && perf_stat_enable(ps, cause) == -1)
		goto fail;
	strbuf_release(&ev);
	strbuf_release(&cg);
	free(self);
	free(mnt);
	*procs = ps->procs;
	return ps;

fail:
	strbuf_release(&ev);
	strbuf_release(&cg);
	free(self);
	free(mnt);
	perf_stat_free(ps);
	return NULL;
}

int
perf_stat_stop(struct perf_stat *ps, double *values, char **cause)
{
	struct strvec	 events = STRVEC_INIT;
	char		*text, *p, *comma;
	size_t		 i;
	int		 rc;

	if (!ps->running)
		return set_cause(cause, "perf stat is not running");
	if (kill(ps->child.pid, SIGINT) == -1 && errno != ESRCH)
		return set_cause(cause, "cannot stop perf: %s",
		    strerror(errno));
	if (spawn_wait(&ps->child, now_mono_ns() + PERF_STOP_NS, cause) ==
	    -1)
		return -1;
	ps->running = 0;
	if ((text = read_file(ps->out, NULL, cause)) == NULL)
		return -1;
	/* The events as perf was given them, for messages. */
	p = ps->argv.v[7];
	for (i = 0; i < ps->nevents; i++) {
		comma = strchrnul(p, ',');
		strvec_push_nodup(&events, xstrndup(p, (size_t)(comma - p)));
		p = *comma != '\0' ? comma + 1 : comma;
	}
	rc = parse_counts(text, &events, values, cause);
	free(text);
	strvec_clear(&events);
	return rc;
}

int
perf_counts_sandboxes(void)
{
	return strcmp(perf_controller(), "") == 0 && cgrp_version() == 1;
}

int
perf_stat_holds(const struct perf_stat *ps, long pid, char **cause)
{
	char	 path[64], *text, *line, *save = NULL, *c1, *c2;
	int	 held = 0;

	snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
	if ((text = read_file(path, NULL, cause)) == NULL)
		return -1;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((c1 = strchr(line, ':')) == NULL ||
		    (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if ((*ps->ctrl == '\0' && strcmp(line, "0:") == 0 &&
		    c1[1] == '\0') || (*ps->ctrl != '\0' &&
		    cgrp_has_word(c1 + 1, ps->ctrl))) {
			held = strcmp(c2 + 2, ps->name) == 0 ||
			    (str_startswith(c2 + 2, ps->name) &&
			    c2[2 + strlen(ps->name)] == '/');
			if (!held)
				set_cause(cause, "process %ld left the counted "
				    "cgroup '/%s' for '%s'", pid, ps->name,
				    c2 + 1);
			break;
		}
	}
	if (line == NULL)
		set_cause(cause, "process %ld: not in the %s hierarchy", pid,
		    *ps->ctrl ? ps->ctrl : "cgroup2");
	free(text);
	return held ? 0 : -1;
}
