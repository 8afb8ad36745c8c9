/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run's samples, appended to a log of its own beside the database and
 * committed to SQLite in batches (issue 54: a transaction a sample was
 * ~35 us between two samples, three 4 KiB frames of the -wal and its
 * locks; a write(2) is a few).
 *
 * The log is DB-samples.RUN (the database's path and the run's id), of
 * the database's owner and mode. Each sample is one record written by
 * one write(2): "ABSAMPL1", the payload's length (u32) and its FNV-1a
 * hash (u64), then the payload (the sample's fields, its metrics and
 * the benchmarks that failed inside it); a zero byte where a record
 * would begin ends the log (the file is allocated ahead, zeros: LOG_MAP).
 * Once the record is copied into the file's mapping (or written past
 * it) the sample is kept: a kill -9 after it loses nothing, and a
 * record torn by a kill (or a full disk) in the middle of its copy fails
 * its length or hash and is dropped, never imported.
 *
 * The pending records are committed in one transaction, by the sample
 * insert every sample of a run went through before (the rows are the
 * same), then the log is emptied (zeroed, its first byte first): once
 * LOG_BATCH samples are pending, or LOG_BATCH_NS after the oldest one,
 * or at once after a sample of LOG_LONG_NS or more (batches are for
 * short samples, whose transaction would be a part of their time worth
 * saving), always between two
 * samples (the runner records a sample after its program ended), and
 * before anything reads the run in this process (store_log_flush: the
 * runner's looks, its end) and at store_close. A read-only reader of the
 * database (stat --db during the run) sees short samples up to a batch
 * late, a long one once it ended.
 *
 * After a kill -9 the log of a run whose owner is dead (runs.pid and
 * pid_start, on this host) is imported by the next read-write open of
 * the database (run --resume, restore, db check, anything that writes):
 * its whole records in one transaction, those whose plan_idx is stored
 * already skipped (a kill between the commit and the truncation), then
 * the log removed. A live run's log is never touched by another process.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/store.h"
#include "results/store-int.h"

#define LOG_MAGIC	"ABSAMPL1"
#define LOG_HEAD	(8 + 4 + 8)
#define LOG_BATCH	256
#define LOG_BATCH_NS	(500 * (int64_t)1000000)
/*
 * A sample at least this long is committed at once, with what is
 * pending: its transaction is under 0.1% of it, and a reader (fleet
 * status, a test's count) never waits a long sample's time for it.
 */
#define LOG_LONG_NS	(50 * (int64_t)1000000)
/* A record longer than this is damage, not a sample. */
#define LOG_MAX_RECORD	(64u << 20)
/*
 * The log's first bytes, allocated (fallocate: no page of it can fail
 * for want of space) and mapped shared: a record is copied there, no
 * system call a sample (a write(2) appending to an ext4 file was ~2 us
 * of the ~15 between two samples here: bench/inline-vs-hyperfine). The
 * page cache holds it once copied, as it did once written: a kill -9
 * after the copy loses nothing. A batch past it is written (pwrite).
 */
#define LOG_MAP		(1u << 20)

/* Is a run's owner alive, or elsewhere (not ours to judge)? Unset: yes. */
static store_owner_alive_fn	owner_alive;

void
store_log_set_owner_check(store_owner_alive_fn fn)
{
	owner_alive = fn;
}

struct store_log {
	int		 fd;
	int64_t		 run_id;
	char		*path;
	unsigned char	*map;		/* the file's first maplen bytes */
	size_t		 maplen;
	size_t		 off;		/* the records' end in the file */
	struct strbuf	 pending;	/* the records not committed yet */
	size_t		 npending;
	int64_t		 oldest_ns;
	int		 failed;	/* a commit failed: the log stays */
};

char *
store_log_path(const char *db, int64_t run_id)
{
	return xasprintf("%s-samples.%lld", db, (long long)run_id);
}

static uint64_t
log_hash(const unsigned char *p, size_t n)
{
	uint64_t	h = 0xcbf29ce484222325ULL;

	while (n-- > 0) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
put_u32(struct strbuf *b, uint32_t v)
{
	strbuf_add(b, (const char *)&v, sizeof v);
}

static void
put_i64(struct strbuf *b, int64_t v)
{
	strbuf_add(b, (const char *)&v, sizeof v);
}

/* A string, or NULL as length UINT32_MAX. */
static void
put_str(struct strbuf *b, const char *s)
{
	size_t	n = s != NULL ? strlen(s) : 0;

	put_u32(b, s != NULL ? (uint32_t)n : UINT32_MAX);
	strbuf_add(b, s != NULL ? s : "", n);
}

/* The record of a sample: what runner_store_result stored at once. Its
 * payload is made in place, its length and hash put before it after. */
static void
log_encode(struct strbuf *b, const struct store_sample *s, int main_row,
    const char *const *fwl, const char *const *ferr, size_t nfailed)
{
	uint64_t	h, v;
	uint32_t	l;
	size_t		i, head = b->len, at;

	strbuf_add(b, LOG_MAGIC, 8);
	put_u32(b, 0);
	put_i64(b, 0);
	at = b->len;
	put_i64(b, s->run_id);
	put_i64(b, s->plan_idx);
	put_i64(b, s->round);
	put_i64(b, s->position);
	put_i64(b, s->warmup);
	put_i64(b, (int64_t)s->status);
	put_i64(b, s->start_ns);
	put_i64(b, s->end_ns);
	put_i64(b, s->start_wall_ns);
	put_i64(b, s->end_wall_ns);
	put_i64(b, main_row);
	put_str(b, s->arm);
	put_str(b, s->workload);
	put_str(b, s->error);
	put_u32(b, (uint32_t)s->nmetrics);
	for (i = 0; i < s->nmetrics; i++) {
		put_str(b, s->metrics[i].benchmark);
		put_str(b, s->metrics[i].unit);
		memcpy(&v, &s->metrics[i].value, sizeof v);
		put_i64(b, (int64_t)v);
	}
	put_u32(b, (uint32_t)nfailed);
	for (i = 0; i < nfailed; i++) {
		put_str(b, fwl[i]);
		put_str(b, ferr[i]);
	}
	l = (uint32_t)(b->len - at);
	h = log_hash((const unsigned char *)b->buf + at, l);
	memcpy(b->buf + head + 8, &l, sizeof l);
	memcpy(b->buf + head + 12, &h, sizeof h);
}

/* A record read back: its strings its own. */
struct log_rec {
	struct store_sample	 s;
	struct store_metric	*m;
	int			 main_row;
	char			**strs;
	size_t			 nstrs, cap;
	char			**fwl, **ferr;
	size_t			 nfailed;
};

struct log_in {
	const unsigned char	*p;
	size_t			 n, off;
	int			 bad;
};

/* n bytes of the input into out (zeros past its end, marked bad). */
static void
get_bytes(struct log_in *in, void *out, size_t n)
{
	if (in->n - in->off < n) {
		in->bad = 1;
		memset(out, 0, n);
		return;
	}
	memcpy(out, in->p + in->off, n);
	in->off += n;
}

static uint32_t
get_u32(struct log_in *in)
{
	uint32_t	v;

	get_bytes(in, &v, sizeof v);
	return v;
}

static int64_t
get_i64(struct log_in *in)
{
	int64_t	v;

	get_bytes(in, &v, sizeof v);
	return v;
}

static char *
get_str(struct log_in *in, struct log_rec *r)
{
	uint32_t	n = get_u32(in);
	char		*s;

	if (in->bad || n == UINT32_MAX)
		return NULL;
	if (in->n - in->off < n) {
		in->bad = 1;
		return NULL;
	}
	s = xstrndup((const char *)in->p + in->off, n);
	in->off += n;
	XGROW(r->strs, r->nstrs, r->cap);
	r->strs[r->nstrs++] = s;
	return s;
}

static void
log_rec_free(struct log_rec *r)
{
	size_t	i;

	for (i = 0; i < r->nstrs; i++)
		free(r->strs[i]);
	free(r->strs);
	free(r->m);
	free(r->fwl);
	free(r->ferr);
	memset(r, 0, sizeof *r);
}

/* The payload p[0..n) into r: 0, or -1 when it does not parse. */
static int
log_decode(const unsigned char *p, size_t n, struct log_rec *r)
{
	struct log_in	in = { p, n, 0, 0 };
	uint64_t	v;
	uint32_t	k;
	size_t		i;

	memset(r, 0, sizeof *r);
	r->s.run_id = get_i64(&in);
	r->s.plan_idx = (int)get_i64(&in);
	r->s.round = (int)get_i64(&in);
	r->s.position = (int)get_i64(&in);
	r->s.warmup = (int)get_i64(&in);
	r->s.status = (enum sample_status)get_i64(&in);
	r->s.start_ns = get_i64(&in);
	r->s.end_ns = get_i64(&in);
	r->s.start_wall_ns = get_i64(&in);
	r->s.end_wall_ns = get_i64(&in);
	r->main_row = (int)get_i64(&in);
	r->s.arm = get_str(&in, r);
	r->s.workload = get_str(&in, r);
	r->s.error = get_str(&in, r);
	k = get_u32(&in);
	if (!in.bad && k > (n - in.off) / 16)
		in.bad = 1;
	if (!in.bad && k > 0) {
		r->m = xcalloc(k, sizeof *r->m);
		r->s.metrics = r->m;
		r->s.nmetrics = k;
	}
	for (i = 0; !in.bad && i < k; i++) {
		r->m[i].benchmark = get_str(&in, r);
		r->m[i].unit = get_str(&in, r);
		v = (uint64_t)get_i64(&in);
		memcpy(&r->m[i].value, &v, sizeof v);
	}
	k = get_u32(&in);
	if (!in.bad && k > (n - in.off) / 8)
		in.bad = 1;
	if (!in.bad && k > 0) {
		r->fwl = xcalloc(k, sizeof *r->fwl);
		r->ferr = xcalloc(k, sizeof *r->ferr);
		r->nfailed = k;
	}
	for (i = 0; !in.bad && i < k; i++) {
		r->fwl[i] = get_str(&in, r);
		r->ferr[i] = get_str(&in, r);
	}
	if (in.bad || in.off != n || r->s.arm == NULL ||
	    r->s.workload == NULL) {
		log_rec_free(r);
		return -1;
	}
	return 0;
}

/*
 * The next record of buf[*off..n): 1 with its payload in *p, *len; 0 at
 * the end (of buf, or a zero byte); -1 at a record that is torn or
 * damaged (*off stays on it).
 */
static int
log_next(const unsigned char *buf, size_t n, size_t *off,
    const unsigned char **p, size_t *len)
{
	uint32_t	l;
	uint64_t	h;

	if (*off == n || buf[*off] == 0)
		return 0;
	if (n - *off < LOG_HEAD || memcmp(buf + *off, LOG_MAGIC, 8) != 0)
		return -1;
	memcpy(&l, buf + *off + 8, sizeof l);
	memcpy(&h, buf + *off + 12, sizeof h);
	if (l > LOG_MAX_RECORD || n - *off - LOG_HEAD < l ||
	    log_hash(buf + *off + LOG_HEAD, l) != h)
		return -1;
	*p = buf + *off + LOG_HEAD;
	*len = l;
	*off += LOG_HEAD + l;
	return 1;
}

/* A sample's rows, and those of the benchmarks that failed inside it,
 * inside the caller's transaction. */
static int
log_insert(struct store *st, const struct store_sample *s, int main_row,
    char *const *fwl, char *const *ferr, size_t nfailed, char **cause)
{
	size_t	i;
	int	r = 0;

	if (main_row)
		r = store_sample_add_locked(st, s, cause);
	for (i = 0; r == 0 && i < nfailed; i++) {
		struct store_sample	f = *s;

		f.workload = fwl[i];
		f.status = SAMPLE_STATUS_FAILED;
		f.error = ferr[i];
		f.metrics = NULL;
		f.nmetrics = 0;
		r = store_sample_add_locked(st, &f, cause);
	}
	return r;
}

/*
 * The records of buf[0..n) into the store, in one transaction; with
 * check, those of a plan_idx stored already skipped. *torn: the offset
 * of a torn or damaged record (the rest dropped), else n.
 */
static int
log_commit(struct store *st, int64_t run_id, const unsigned char *buf,
    size_t n, int check, size_t *done, size_t *torn, char **cause)
{
	const unsigned char	*p;
	struct log_rec		 rec;
	size_t			 off = 0, len, nstored = 0;
	int			*stored = NULL, r = 0, nx = 0;

	*done = 0;
	if (store_begin(st, cause) != 0)
		return -1;
	/* A plan_idx stored already (a kill between a commit and the
	 * truncation) is not added again. */
	if (check)
		r = store_done_plan(st, run_id, &stored, &nstored, cause);
	/* The run's counts once for the batch, not an update a sample. */
	store_counts_defer(st);
	while (r == 0 && (nx = log_next(buf, n, &off, &p, &len)) == 1) {
		if (log_decode(p, len, &rec) == -1 || rec.s.run_id != run_id) {
			log_rec_free(&rec);	/* a failed decode left it empty */
			off -= LOG_HEAD + len;
			nx = -1;
			break;
		}
		if (!store_done_contains(stored, nstored, rec.s.plan_idx) &&
		    (r = log_insert(st, &rec.s, rec.main_row, rec.fwl,
		    rec.ferr, rec.nfailed, cause)) == 0)
			(*done)++;
		log_rec_free(&rec);
	}
	free(stored);
	*torn = nx == -1 ? off : n;
	if (r == 0)
		r = store_counts_end(st, 1, cause);
	else
		(void)store_counts_end(st, 0, NULL);
	return store_finish(st, r, cause);
}

/* The database's owner and mode for a file beside it. */
static int
log_create(const char *db, const char *path, char **cause)
{
	struct stat	sb;
	int		fd;

	if (stat(db, &sb) == -1)
		return set_cause(cause, "cannot stat '%s': %s", db,
		    strerror(errno));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd == -1)
		return set_cause(cause, "cannot create '%s': %s", path,
		    strerror(errno));
	if ((geteuid() == 0 && fchown(fd, sb.st_uid, sb.st_gid) == -1) ||
	    fchmod(fd, sb.st_mode & 0666) == -1) {
		set_cause(cause, "cannot give '%s' the owner and mode of "
		    "'%s': %s", path, db, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

/*
 * The file's first LOG_MAP bytes allocated and mapped; where the file
 * system cannot (no fallocate, no shared mapping), records are written.
 */
static void
log_map(struct store_log *lg)
{
	void	*m;

	if (posix_fallocate(lg->fd, 0, LOG_MAP) != 0) {
		(void)ftruncate(lg->fd, 0);
		return;
	}
	m = mmap(NULL, LOG_MAP, PROT_READ | PROT_WRITE, MAP_SHARED, lg->fd,
	    0);
	if (m == MAP_FAILED) {
		(void)ftruncate(lg->fd, 0);
		return;
	}
	lg->map = m;
	lg->maplen = LOG_MAP;
}

int
store_log_start(struct store *st, int64_t run_id, char **cause)
{
	struct store_log	*lg;
	char			*path;
	int			 fd;

	if (st->log != NULL && store_log_end(st, cause) != 0)
		return -1;
	/* --durable: each sample synced with its own commit, as asked. */
	if (st->flags & STORE_DURABLE)
		return 0;
	path = store_log_path(st->path, run_id);
	if ((fd = log_create(st->path, path, cause)) == -1) {
		free(path);
		return -1;
	}
	lg = xcalloc(1, sizeof *lg);
	lg->fd = fd;
	lg->run_id = run_id;
	lg->path = path;
	log_map(lg);
	st->log = lg;
	return 0;
}

int
store_log_flush(struct store *st, char **cause)
{
	struct store_log	*lg = st->log;
	size_t			 done, torn;

	if (lg == NULL || lg->npending == 0)
		return 0;
	if (log_commit(st, lg->run_id, (const unsigned char *)lg->pending.buf,
	    lg->pending.len, 0, &done, &torn, cause) != 0) {
		lg->failed = 1;
		return -1;
	}
	/*
	 * Committed: a kill before the log is empty is undone by the
	 * import's check of plan_idx. Its first byte first: a kill while
	 * the rest is zeroed leaves an empty log.
	 */
	if (lg->map != NULL && lg->off > 0) {
		lg->map[0] = 0;
		/* A kill falls between two instructions: not before it. */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		memset(lg->map + 1, 0, (lg->off < lg->maplen ? lg->off :
		    lg->maplen) - 1);
	}
	if ((lg->map == NULL || lg->off > lg->maplen) &&
	    ftruncate(lg->fd, (off_t)lg->maplen) == -1) {
		lg->failed = 1;
		return set_cause(cause, "cannot empty '%s': %s", lg->path,
		    strerror(errno));
	}
	lg->off = 0;
	strbuf_reset(&lg->pending);
	lg->npending = 0;
	return 0;
}

int
store_log_end(struct store *st, char **cause)
{
	struct store_log	*lg = st->log;
	int			 rc;

	if (lg == NULL)
		return 0;
	rc = store_log_flush(st, cause);
	if (lg->map != NULL)
		munmap(lg->map, lg->maplen);
	close(lg->fd);
	/* A log whose samples are not all in the database stays, for the
	 * next read-write open to import. */
	if (rc == 0 && !lg->failed)
		unlink(lg->path);
	free(lg->path);
	strbuf_release(&lg->pending);
	free(lg);
	st->log = NULL;
	return rc;
}

int
store_log_sample(struct store *st, const struct store_sample *s,
    int main_row, const char *const *fwl, const char *const *ferr,
    size_t nfailed, char **cause)
{
	struct store_log	*lg = st->log;
	size_t			 at, left, len;
	ssize_t			 w;
	size_t			 i;

	/* What the commit would refuse is refused now, not in a batch. */
	if (main_row && store_sample_validate(s, cause) != 0)
		return -1;
	for (i = 0; i < nfailed; i++)
		if (fwl[i] == NULL || *fwl[i] == '\0')
			return set_cause(cause, "a failed benchmark of sample "
			    "%d has no name", s->plan_idx);
	if (lg == NULL) {
		/* No log: the sample's own transaction, as before. */
		int	r;

		if (store_begin(st, cause) != 0)
			return -1;
		r = log_insert(st, s, main_row, (char *const *)fwl,
		    (char *const *)ferr, nfailed, cause);
		return store_finish(st, r, cause);
	}
	at = lg->pending.len;
	log_encode(&lg->pending, s, main_row, fwl, ferr, nfailed);
	len = lg->pending.len - at;
	if (lg->map != NULL && lg->off <= lg->maplen &&
	    len <= lg->maplen - lg->off) {
		memcpy(lg->map + lg->off, lg->pending.buf + at, len);
		left = 0;
	} else
		left = len;
	/* Past the mapping, pwrite(2)s; a short one (a full disk) is
	 * finished, and a failure leaves a torn record the import drops. */
	for (; left > 0; left -= (size_t)w) {
		w = pwrite(lg->fd, lg->pending.buf + lg->pending.len - left,
		    left, (off_t)(lg->off + len - left));
		if (w == -1 && errno == EINTR) {
			w = 0;
			continue;
		}
		if (w <= 0) {
			lg->pending.len = at;
			lg->failed = 1;
			return set_cause(cause, "cannot write to '%s': %s",
			    lg->path, w == 0 ? "nothing written" :
			    strerror(errno));
		}
	}
	lg->off += len;
	if (lg->npending++ == 0)
		lg->oldest_ns = now_mono_ns();
	if (lg->npending >= LOG_BATCH || s->end_ns - s->start_ns >=
	    LOG_LONG_NS || now_mono_ns() - lg->oldest_ns >= LOG_BATCH_NS)
		return store_log_flush(st, cause);
	return 0;
}

/* The log at path of run_id into the store, then removed. */
static int
log_import(struct store *st, int64_t run_id, const char *path, char **cause)
{
	unsigned char	*buf;
	size_t		 n, done, torn;
	int		 fd, rc;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return errno == ENOENT ? 0 : set_cause(cause, "cannot open "
		    "'%s': %s", path, strerror(errno));
	if ((buf = (unsigned char *)read_fd(fd, path, &n, cause)) == NULL)
		return -1;
	rc = log_commit(st, run_id, buf, n, 1, &done, &torn, cause);
	free(buf);
	if (rc != 0)
		return -1;
	if (torn < n)
		warning("%s: a torn record at byte %zu (%zu bytes, from a "
		    "kill or a full disk) dropped; %zu samples before it "
		    "imported", path, torn, n - torn, done);
	if (unlink(path) == -1 && errno != ENOENT)
		return set_cause(cause, "cannot remove '%s': %s", path,
		    strerror(errno));
	return 0;
}

int
store_log_import_run(struct store *st, int64_t run_id, char **cause)
{
	char	*path = store_log_path(st->path, run_id);
	int	 rc = log_import(st, run_id, path, cause);

	free(path);
	return rc;
}

int
store_log_import_dead(struct store *st, char **cause)
{
	struct store_rows	 r;
	struct stat		 sb;
	int64_t			*ids = NULL;
	size_t			 n = 0, cap = 0, i;
	char			*path, *start, *host;
	int			 rc = 0, dead;

	/* A finished run's log was committed at its end (unless that
	 * failed); a kill leaves the run running. */
	if (store_rows(&r, st, "SELECT id, pid, pid_start, host FROM runs"
	    " WHERE status != 'done'", cause) != 0)
		return -1;
	while (store_next(&r)) {
		path = store_log_path(st->path, sqlite3_column_int64(r.s, 0));
		if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			start = store_col_str_or_null(r.s, 2);
			host = store_col_str(r.s, 3);
			/* Another node's run, or a live one: not ours. */
			dead = owner_alive != NULL &&
			    !owner_alive(sqlite3_column_int64(r.s, 1), start,
			    host);
			if (dead) {
				XGROW(ids, n, cap);
				ids[n++] = sqlite3_column_int64(r.s, 0);
			}
			free(start);
			free(host);
		}
		free(path);
	}
	if (store_rows_end(&r, "cannot read runs", cause) != 0) {
		free(ids);
		return -1;
	}
	for (i = 0; rc == 0 && i < n; i++)
		rc = store_log_import_run(st, ids[i], cause);
	free(ids);
	return rc;
}

int
store_log_any(const char *db)
{
	const char	*base = strrchr(db, '/');
	char		*dir = path_dir(db), *prefix;
	struct dirent	*de;
	DIR		*d;
	int		 found = 0;

	base = base != NULL ? base + 1 : db;
	prefix = xasprintf("%s-samples.", base);
	if ((d = opendir(dir)) != NULL) {
		while (!found && (de = readdir(d)) != NULL)
			found = str_startswith(de->d_name, prefix);
		closedir(d);
	}
	free(prefix);
	free(dir);
	return found;
}
