/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nightly state kept with a night's run (nightly-state.h): found,
 * checked against the history, read into the rows, written.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analysis/nightly-state.h"
#include "lib/util.h"
#include "results/store.h"

/* The version of the value's first line. */
#define NS_VERSION	1

/* FNV-1a, 64 bits, over n bytes. */
static uint64_t
ns_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t
ns_hash_u64(uint64_t h, uint64_t v)
{
	unsigned char	b[8];
	int		i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return ns_hash(h, b, sizeof(b));
}

/*
 * The history's nights 0..night: their runs, acks and counts of values
 * (sample_runs': a run whose values changed since is another night), and
 * the rule's options. -1 and *cause when the counts cannot be read.
 */
static int
ns_digest(struct store *st, const struct nightly_state_of *r,
    const struct nightly_judge_options *jo, size_t night, uint64_t *out,
    char **cause)
{
	uint64_t	 h = 14695981039346656037ULL, a;
	struct store_run_count	*c;
	size_t			 n, i, lo, hi, mid;

	if (store_run_counts_named(st, r->name, &c, &n, cause) == -1)
		return -1;
	memcpy(&a, &jo->alpha, sizeof(a));
	h = ns_hash_u64(h, a);
	h = ns_hash_u64(h, jo->window);
	h = ns_hash_u64(h, jo->min_nights);
	h = ns_hash_u64(h, night);
	for (i = 0; i <= night; i++) {
		h = ns_hash_u64(h, (uint64_t)r->history_ids[i]);
		h = ns_hash_u64(h, r->acks != NULL && r->acks[i]);
		for (lo = 0, hi = n; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (c[mid].id < r->history_ids[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && c[lo].id == r->history_ids[i]) {
			h = ns_hash_u64(h, (uint64_t)c[lo].nexec);
			h = ns_hash_u64(h, (uint64_t)c[lo].nok);
		}
	}
	free(c);
	*out = h;
	return 0;
}

int
nightly_state_find(struct store *st, const struct nightly_state_of *r,
    const struct nightly_judge_options *jo, size_t *night, char **text,
    char **cause)
{
	uint64_t	 ver, at, dig, want;
	size_t		 h;
	char		*v, *end;
	int		 rc;

	*text = NULL;
	for (h = r->nhistory - 1; h > 0 &&
	    h + NIGHTLY_STATE_LOOKBACK >= r->nhistory; h--) {
		if ((rc = store_config_get(st, r->history_ids[h - 1], "",
		    NIGHTLY_STATE_KEY, &v, cause)) == -1)
			return -1;
		if (rc == 0)
			continue;
		ver = strtoull(v, &end, 10);
		if (ver == NS_VERSION && *end == ' ') {
			at = strtoull(end + 1, &end, 10);
			if (at == h - 1 && *end == ' ') {
				dig = strtoull(end + 1, &end, 16);
				if (*end == '\n' && ns_digest(st, r, jo, h - 1,
				    &want, cause) == -1) {
					free(v);
					return -1;
				}
				if (*end == '\n' && dig == want) {
					*night = h - 1;
					*text = xstrdup(end + 1);
					free(v);
					return 1;
				}
			}
		}
		free(v);
	}
	return 0;
}

/* Write s escaped (tab, newline, backslash) into sb. */
static void
ns_escape(struct strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\t')
			strbuf_adds(sb, "\\t");
		else if (*s == '\n')
			strbuf_adds(sb, "\\n");
		else if (*s == '\\')
			strbuf_adds(sb, "\\\\");
		else
			strbuf_addc(sb, *s);
	}
}

/* The escaped name at *p, up to a tab, matching s: 1, *p past the tab. */
static int
ns_match(const char **p, const char *s)
{
	const char	*q = *p;
	char		 c;

	for (; *q != '\t' && *q != '\0' && *q != '\n'; q++, s++) {
		c = *q;
		if (c == '\\') {
			q++;
			c = *q == 't' ? '\t' : *q == 'n' ? '\n' : *q;
			if (*q == '\0')
				return 0;
		}
		if (c != *s)
			return 0;
	}
	if (*q != '\t' || *s != '\0')
		return 0;
	*p = q + 1;
	return 1;
}

/* Row i is judged on its ratio to the control arm. */
static int
ns_ratio(const struct nightly_state_of *r, size_t i)
{
	return r->ratio != NULL && r->ratio[i];
}

/* The state of row (ratio: judged on its ratio to the control arm): its
 * line's STATE (a copy, malloc'd), or NULL. */
static char *
ns_line(const char *line, const struct nightly_row *row, int ratio)
{
	const char	*p = line, *e;

	if (!ns_match(&p, row->arm) || !ns_match(&p, row->benchmark) ||
	    !ns_match(&p, row->unit) || !ns_match(&p, ratio ? "1" : "0"))
		return NULL;
	e = strchr(p, '\n');
	return e == NULL ? xstrdup(p) : xstrndup(p, (size_t)(e - p));
}

int
nightly_state_load(const char *text, const struct nightly_state_of *r,
    struct nightly_night **nights)
{
	const char	**lines = NULL, *p;
	char		 *state;
	size_t		  nlines = 0, cap = 0, i, j, k;
	int		  rc = 0;

	for (p = text; *p != '\0';) {
		XGROW(lines, nlines, cap);
		lines[nlines++] = p;
		if ((p = strchr(p, '\n')) == NULL)
			break;
		p++;
	}
	/* The rows come in last night's order, mostly. */
	for (i = 0; i < r->nrows && rc == 0; i++) {
		state = NULL;
		for (k = 0; k < nlines && state == NULL; k++) {
			j = (i + k) % nlines;
			state = ns_line(lines[j], &r->rows[i],
			    ns_ratio(r, i));
		}
		if (state == NULL || nightly_state_parse(state, &r->rows[i],
		    nights[i], r->nhistory) != 0)
			rc = -1;
		free(state);
	}
	free(lines);
	return rc;
}

int
nightly_state_keep(struct store *st, const struct nightly_state_of *r,
    const struct nightly_judge_options *jo, struct nightly_night **nights,
    char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	char		*line;
	size_t		 i, tonight = r->nhistory - 1;
	uint64_t	 dig;

	if (ns_digest(st, r, jo, tonight, &dig, cause) == -1)
		return -1;
	strbuf_addf(&sb, "%d %zu %016" PRIx64 "\n", NS_VERSION, tonight, dig);
	for (i = 0; i < r->nrows; i++) {
		ns_escape(&sb, r->rows[i].arm);
		strbuf_addc(&sb, '\t');
		ns_escape(&sb, r->rows[i].benchmark);
		strbuf_addc(&sb, '\t');
		ns_escape(&sb, r->rows[i].unit);
		strbuf_adds(&sb, ns_ratio(r, i) ? "\t1\t" : "\t0\t");
		line = nightly_state_text(&r->rows[i], nights[i], r->nhistory,
		    jo->window);
		strbuf_adds(&sb, line);
		strbuf_addc(&sb, '\n');
		free(line);
	}
	if (store_begin(st, cause) != 0)
		goto fail;
	if (store_config_set(st, r->history_ids[tonight], "",
	    NIGHTLY_STATE_KEY, sb.buf, cause) != 0)
		goto fail_rollback;
	for (i = 2; i <= NIGHTLY_STATE_LOOKBACK + 1 && i <= tonight; i++)
		if (store_config_unset(st, r->history_ids[tonight - i], "",
		    NIGHTLY_STATE_KEY, cause) != 0)
			goto fail_rollback;
	strbuf_release(&sb);
	return store_commit(st, cause);
fail_rollback:
	store_rollback(st);
fail:
	strbuf_release(&sb);
	return -1;
}
