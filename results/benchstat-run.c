/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run as benchstat inputs from its sample table (benchstat-run.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/benchfmt-io.h"
#include "results/benchstat-run.h"
#include "results/store.h"
#include "stats/benchfmt.h"
#include "stats/benchstat.h"

unsigned long	benchstat_run_texts;

/* The check: a line benchfmt would not read as it is stops the walk. */
static int
plain_units(void *arg, const char *unit, const char *const *keys,
    const char *const *values, size_t n)
{
	(void)arg;
	return !bf_units_plain(unit, keys, values, n);
}

static int
plain_config(void *arg, const char *key, const char *value)
{
	(void)arg;
	return !bf_config_plain(key, value);
}

static int
plain_result(void *arg, const char *name, const double *v,
    const char *const *units, size_t n)
{
	(void)arg;
	return !bf_result_plain(name, v, units, n);
}

/* The lines into the input. */
static int
put_units(void *arg, const char *unit, const char *const *keys,
    const char *const *values, size_t n)
{
	benchstat_input_units(arg, unit, keys, values, n);
	return 0;
}

static int
put_config(void *arg, const char *key, const char *value)
{
	benchstat_input_config(arg, key, value);
	return 0;
}

static int
put_result(void *arg, const char *name, const double *v,
    const char *const *units, size_t n)
{
	benchstat_input_result(arg, name, v, units, n);
	return 0;
}

/* As text: the pre lines and the export, read by benchstat. */
static int
add_text(struct benchstat *bs, struct store *st, const struct store_run *r,
    const struct sampletab *t, const char *arm, const char *label,
    const struct strvec *pk, const struct strvec *pv, char **cause)
{
	struct strbuf		text = STRBUF_INIT;
	struct export_sink	sk;
	size_t			i;
	int			rc;

	benchstat_run_texts++;
	for (i = 0; pk != NULL && i < pk->n; i++)
		strbuf_addf(&text, "%s: %s\n", pk->v[i], pv->v[i]);
	export_sink_text(&sk, &text);
	rc = export_walk(st, r, t, arm, &sk, cause);
	if (rc == 0 && benchstat_add(bs, label, label, text.buf != NULL ?
	    text.buf : "", text.len, cause) < 0)
		rc = -2;
	strbuf_release(&text);
	return rc;
}

int
benchstat_add_run(struct benchstat *bs, struct store *st,
    const struct store_run *r, const struct sampletab *t, const char *arm,
    const char *label, const struct strvec *pk, const struct strvec *pv,
    char **cause)
{
	const struct export_sink	 check = { plain_units, plain_config,
					    plain_result, NULL };
	struct export_sink		 sk = { put_units, put_config,
					    put_result, NULL };
	struct benchstat_input		*in;
	size_t				 i;
	int				 rc, plain = 1;

	for (i = 0; pk != NULL && i < pk->n; i++)
		plain &= bf_config_plain(pk->v[i], pv->v[i]);
	if (plain && (rc = export_walk(st, r, t, arm, &check, cause)) != 0) {
		if (rc < 0)
			return -1;
		plain = 0;
	}
	if (!plain)
		return add_text(bs, st, r, t, arm, label, pk, pv, cause);
	in = benchstat_input_new(bs, label, label);
	for (i = 0; pk != NULL && i < pk->n; i++)
		benchstat_input_config(in, pk->v[i], pv->v[i]);
	sk.arg = in;
	rc = export_walk(st, r, t, arm, &sk, cause);
	benchstat_input_free(in);
	return rc != 0 ? -1 : 0;
}
