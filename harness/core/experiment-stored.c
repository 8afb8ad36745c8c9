/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the experiment text a run stored says, read without loading it
 * (the run that stored it loaded it): its stat-filter, effect and
 * control arm, each as the loader takes it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "harness/core/experiment.h"
#include "harness/core/experiment-int.h"
#include "lib/util.h"
#include "stats/sequential.h"

/*
 * KEY of the [experiment] section of a stored text, checked and unquoted
 * as the loader takes it, or NULL. The text is read, not loaded: the run
 * that stored it loaded it, so the value is the one that run had.
 */
static char *
experiment_stored_value(const char *path, const char *text, const char *key)
{
	const struct opt_spec	*o = opt_find(experiment_opts, key);
	struct parser		 p;
	struct strvec		 w = STRVEC_INIT;
	char			*f = NULL;
	size_t			 i, k;

	if (text == NULL)
		return NULL;
	memset(&p, 0, sizeof p);
	p.path = path != NULL ? path : "(stored)";
	p.text = text;
	p.len = strlen(text);
	if (parser_run(&p) == 0) {
		for (i = 0; i < p.nsections; i++) {
			const struct section	*s = &p.sections[i];

			for (k = 0; s->kind == SECTION_EXPERIMENT &&
			    k < s->nkv; k++) {
				if (strcmp(s->kv[k].key, key) != 0)
					continue;
				/* Its value as the loader takes it (unquoted). */
				strvec_clear(&w);
				free(f);
				f = parser_check_kv(&p, o, &s->kv[k], s->title,
				    0, &w) == 0 ? xstrdup(w.v[0]) : NULL;
			}
		}
	}
	strvec_clear(&w);
	parser_release(&p);
	return f;
}

char *
experiment_stat_filter(const char *path, const char *text)
{
	return experiment_stored_value(path, text, "stat-filter");
}

double
experiment_stored_effect(const char *path, const char *text)
{
	char	*v = experiment_stored_value(path, text, "effect");
	double	 effect = SEQ_DEFAULT_EFFECT;

	/* Checked by the loader's own rule: a number in [0.001, 1000]. */
	if (v != NULL)
		effect = strtod(v, NULL) / 100;
	free(v);
	return effect;
}

char *
experiment_stored_control(const char *path, const char *text)
{
	return experiment_stored_value(path, text, "control");
}
