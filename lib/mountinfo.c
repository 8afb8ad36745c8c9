/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /proc/self/mountinfo: one struct mount_entry per line, the mount that
 * holds a path, overlay layers.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mountinfo.h"
#include "lib/util.h"

/* Decode mountinfo's octal escapes (\040, \011, \012, \134) in place. */
static char *
mountinfo_unescape(char *s)
{
	char	*r = s, *w = s;

	while (*r != '\0') {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
			    (r[3] - '0'));
			r += 4;
		} else
			*w++ = *r++;
	}
	*w = '\0';
	return s;
}

static void
mount_entry_release(struct mount_entry *m)
{
	free(m->root);
	free(m->mountpoint);
	free(m->mount_opts);
	free(m->fstype);
	free(m->source);
	free(m->super_opts);
}

static int
mountinfo_parse_line(char *line, struct mount_entry *m, char **cause)
{
	char	*f[64];
	size_t	 nf = 0, sep, i;
	char	*save = NULL, *tok;

	for (tok = strtok_r(line, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (nf == ARRAY_SIZE(f))
			return set_cause(cause, "too many fields");
		f[nf++] = tok;
	}
	for (sep = 6; sep < nf; sep++)
		if (strcmp(f[sep], "-") == 0)
			break;
	if (nf < 7 || sep >= nf || nf - sep < 3)
		return set_cause(cause, "expected 'ID PARENT MAJ:MIN ROOT "
		    "MOUNTPOINT OPTIONS ... - TYPE SOURCE OPTIONS'");
	memset(m, 0, sizeof(*m));
	if (sscanf(f[0], "%d", &m->id) != 1 ||
	    sscanf(f[1], "%d", &m->parent) != 1 ||
	    sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return set_cause(cause, "bad id or device '%s %s %s'", f[0],
		    f[1], f[2]);
	m->root = xstrdup(mountinfo_unescape(f[3]));
	m->mountpoint = xstrdup(mountinfo_unescape(f[4]));
	m->mount_opts = xstrdup(f[5]);
	m->fstype = xstrdup(mountinfo_unescape(f[sep + 1]));
	m->source = xstrdup(mountinfo_unescape(f[sep + 2]));
	/* Options are split on ',' first, so their escapes are kept. */
	m->super_opts = xstrdup(sep + 3 < nf ? f[sep + 3] : "");
	for (i = sep + 4; i < nf; i++) {
		char	*t = xasprintf("%s %s", m->super_opts, f[i]);

		free(m->super_opts);
		m->super_opts = t;
	}
	return 0;
}

int
mountinfo_parse(const char *text, struct mountinfo *mi, char **cause)
{
	const char	*p = text;
	size_t		 cap = 0, lineno = 0;

	mi->e = NULL;
	mi->n = 0;
	while (*p != '\0') {
		size_t	 len = strcspn(p, "\n");
		char	*line = xstrndup(p, len);
		char	*why = NULL;

		lineno++;
		p += len;
		if (*p == '\n')
			p++;
		if (*strtrim(line) == '\0') {
			free(line);
			continue;
		}
		XGROW(mi->e, mi->n, cap);
		if (mountinfo_parse_line(line, &mi->e[mi->n], &why) == -1) {
			set_cause(cause, "mountinfo line %zu: %s", lineno, why);
			free(why);
			free(line);
			mountinfo_release(mi);
			return -1;
		}
		mi->n++;
		free(line);
	}
	return 0;
}

int
mountinfo_read(struct mountinfo *mi, char **cause)
{
	char	*text = read_file("/proc/self/mountinfo", NULL, cause);
	int	 rc;

	if (text == NULL)
		return -1;
	rc = mountinfo_parse(text, mi, cause);
	free(text);
	return rc;
}

void
mountinfo_release(struct mountinfo *mi)
{
	size_t	i;

	for (i = 0; i < mi->n; i++)
		mount_entry_release(&mi->e[i]);
	free(mi->e);
	mi->e = NULL;
	mi->n = 0;
}

/* Is mount point MP a prefix of PATH at a component boundary? */
static int
path_under(const char *path, const char *mp)
{
	size_t	n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	while (n > 1 && mp[n - 1] == '/')
		n--;
	return strncmp(path, mp, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

const struct mount_entry *
mountinfo_find(const struct mountinfo *mi, const char *path)
{
	const struct mount_entry *best = NULL;
	size_t	bestlen = 0, i;

	for (i = 0; i < mi->n; i++) {
		const struct mount_entry *m = &mi->e[i];
		size_t	len = strlen(m->mountpoint);

		if (!path_under(path, m->mountpoint))
			continue;
		if (best == NULL || len >= bestlen) {
			best = m;
			bestlen = len;
		}
	}
	return best;
}

/* Split a lowerdir value on ':' (not "\:"), skipping the "::" of data
 * layers, and decode escapes of each part. */
static size_t
overlay_split_layers(const char *v, struct strvec *dirs)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		n = 0;

	for (;; v++) {
		if (*v == '\\' && v[1] == ':') {
			strbuf_addc(&sb, ':');
			v++;
			continue;
		}
		if (*v == ':' || *v == '\0') {
			if (sb.len > 0) {
				strvec_push(dirs, mountinfo_unescape(sb.buf));
				n++;
			}
			strbuf_reset(&sb);
			if (*v == '\0')
				break;
			continue;
		}
		strbuf_addc(&sb, *v);
	}
	strbuf_release(&sb);
	return n;
}

size_t
mountinfo_overlay_dirs(const struct mount_entry *m, struct strvec *dirs)
{
	char	*opts = xstrdup(m->super_opts);
	char	*save = NULL, *o;
	size_t	 n = 0;
	int	 pass;

	/* upperdir first: that is where writes (and new files) go. */
	for (pass = 0; pass < 2; pass++) {
		strcpy(opts, m->super_opts);
		for (o = strtok_r(opts, ",", &save); o != NULL;
		    o = strtok_r(NULL, ",", &save)) {
			if (pass == 0 && str_startswith(o, "upperdir=")) {
				strvec_push(dirs, mountinfo_unescape(o + 9));
				n++;
			} else if (pass == 1 &&
			    str_startswith(o, "lowerdir="))
				n += overlay_split_layers(o + 9, dirs);
			else if (pass == 1 &&
			    (str_startswith(o, "lowerdir+=") ||
			    str_startswith(o, "datadir+="))) {
				strvec_push(dirs,
				    mountinfo_unescape(strchr(o, '=') + 1));
				n++;
			}
		}
	}
	free(opts);
	return n;
}

