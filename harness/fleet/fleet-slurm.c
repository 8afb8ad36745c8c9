/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Slurm backend of the fleet scheduler ops (fleet-sched.h): sbatch
 * --parsable to submit, squeue (every state, machine-readable format) and
 * `scontrol show job -o` for states, exit codes and Slurm's reasons,
 * scancel to cancel. Works without slurmdbd: a finished job is known as
 * long as slurmctld keeps it (MinJobAge); later it reads as forgotten.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/spawn.h"
#include "harness/fleet/fleet-sched.h"
#include "lib/util.h"

#define SLURM_QUERY_TIMEOUT	(30 * NSEC_PER_SEC)
#define SLURM_SUBMIT_TIMEOUT	(60 * NSEC_PER_SEC)

/* Job states after which a job does not run again unless resubmitted. */
static const char *const slurm_terminal[] = {
	"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
	"PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED",
	NULL
};

/* Run a Slurm command; 0 with its stdout, or -1 naming how it failed. */
static int
slurm_cmd(char *const *argv, int64_t timeout, char **out, char **errout,
    char **cause)
{
	char	*err = NULL, *how;
	int	 status = -1;

	*out = NULL;
	if (errout != NULL)
		*errout = NULL;
	if (spawn_capture(argv, timeout, out, &err, &status, cause) == -1)
		return -1;
	if (status != 0) {
		how = spawn_describe_status(status, 0);
		set_cause(cause, "'%s' %s: %s", argv[0], how,
		    err != NULL ? strtrim(err) : "");
		free(how);
		if (errout != NULL)
			*errout = err;
		else
			free(err);
		free(*out);
		*out = NULL;
		return -1;
	}
	free(err);
	if (*out == NULL)
		*out = xstrdup("");
	return 0;
}

static int
slurm_available(char **cause)
{
	char *const	 argv[] = { "sinfo", "-h", "-o", "%P", NULL };
	char		*out;

	if (slurm_cmd(argv, SLURM_QUERY_TIMEOUT, &out, NULL, cause) == -1)
		return -1;
	free(out);
	return 0;
}

static int
slurm_partitions(struct strvec *parts, char **cause)
{
	char *const	 argv[] = { "sinfo", "-h", "-o", "%R", NULL };
	char		*out, *line, *save;

	if (slurm_cmd(argv, SLURM_QUERY_TIMEOUT, &out, NULL, cause) == -1)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line = strtrim(line);
		if (*line != '\0' && !strvec_has(parts, line))
			strvec_push(parts, line);
	}
	free(out);
	return 0;
}

/*
 * Whether a node in sinfo's short state (%t: "idle", "down*", "drain",
 * "idle~") can take a job: not down, drained or draining, failed, in
 * maintenance, unknown or not responding ('*'). A powered-down cloud node
 * ("idle~") can: Slurm starts it for the job.
 */
static int
slurm_node_usable(const char *t)
{
	static const char *const bad[] = { "down", "drain", "drng", "drained",
	    "draining", "fail", "failg", "maint", "unk", "inval", "futr",
	    "no_resp", "npc", "resv", NULL };
	size_t	len = strcspn(t, "*~#!%$@^-");
	size_t	i;

	if (t[len] == '*')
		return 0;
	for (i = 0; bad[i] != NULL; i++)
		if (strlen(bad[i]) == len && strncmp(t, bad[i], len) == 0)
			return 0;
	return len > 0;
}

static int
slurm_usable(const char *partition, size_t *n, char **why, char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	char		*p = xasprintf("--partition=%s", partition);
	char *const	 argv[] = { "sinfo", "-h", "-N", p, "-o", "%N %t",
			    NULL };
	char		*out, *line, *save, *st;

	*n = 0;
	*why = NULL;
	if (slurm_cmd(argv, SLURM_QUERY_TIMEOUT, &out, NULL, cause) == -1) {
		free(p);
		return -1;
	}
	free(p);
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line = strtrim(line);
		if ((st = strchr(line, ' ')) == NULL)
			continue;
		*st++ = '\0';
		if (slurm_node_usable(st))
			(*n)++;
		strbuf_addf(&sb, "%s%s %s", sb.len > 0 ? ", " : "", line, st);
	}
	free(out);
	*why = strbuf_detach(&sb);
	if (**why == '\0') {
		free(*why);
		*why = xstrdup("no nodes");
	}
	return 0;
}

static int
slurm_submit(const struct fleet_submit *s, char **job_id, char **cause)
{
	struct strvec	 argv = STRVEC_INIT;
	struct strbuf	 dep = STRBUF_INIT;
	char		*out = NULL, *id, *semi;
	size_t		 i;
	int		 rc = -1;

	*job_id = NULL;
	strvec_push(&argv, "sbatch");
	strvec_push(&argv, "--parsable");
	if (s->name != NULL)
		strvec_pushf(&argv, "--job-name=%s", s->name);
	if (s->partition != NULL)
		strvec_pushf(&argv, "--partition=%s", s->partition);
	if (s->exclusive)
		strvec_push(&argv, "--exclusive");
	strvec_push(&argv, s->requeue ? "--requeue" : "--no-requeue");
	if (s->time_limit != NULL)
		strvec_pushf(&argv, "--time=%s", s->time_limit);
	if (s->workdir != NULL)
		strvec_pushf(&argv, "--chdir=%s", s->workdir);
	if (s->output != NULL) {
		strvec_pushf(&argv, "--output=%s", s->output);
		/* A requeued job writes after its earlier instance's lines
		 * (Slurm's default truncates the file: how the interrupted
		 * instance ended was lost). */
		strvec_push(&argv, "--open-mode=append");
	}
	if (s->nafter > 0) {
		strbuf_adds(&dep, "--dependency=afterany");
		for (i = 0; i < s->nafter; i++)
			strbuf_addf(&dep, ":%s", s->after[i]);
		strvec_push(&argv, dep.buf);
		/* Run the merge even when a job it waits for failed. */
		strvec_push(&argv, "--kill-on-invalid-dep=no");
	}
	for (i = 0; i < s->nextra; i++)
		strvec_push(&argv, s->extra[i]);
	strvec_push(&argv, s->script);
	for (i = 0; i < s->nargs; i++)
		strvec_push(&argv, s->args[i]);
	if (slurm_cmd(argv.v, SLURM_SUBMIT_TIMEOUT, &out, NULL, cause) == -1)
		goto out;
	/* --parsable: "JOBID" or "JOBID;CLUSTER". */
	id = strtrim(out);
	if ((semi = strchr(id, ';')) != NULL)
		*semi = '\0';
	if (*id == '\0' || strspn(id, "0123456789_") != strlen(id)) {
		set_cause(cause, "sbatch printed no job id: '%s'", id);
		goto out;
	}
	*job_id = xstrdup(id);
	rc = 0;
out:
	free(out);
	strvec_clear(&argv);
	strbuf_release(&dep);
	return rc;
}

static int
slurm_is_terminal(const char *state)
{
	size_t	i;

	for (i = 0; slurm_terminal[i] != NULL; i++)
		if (strcmp(state, slurm_terminal[i]) == 0)
			return 1;
	return 0;
}

static void
slurm_field(struct fleet_job_state *js, const char *key, const char *val)
{
	if (strcmp(key, "ExitCode") == 0) {
		free(js->exit_code);
		js->exit_code = xstrdup(val);
	} else if (strcmp(key, "Reason") == 0 && js->reason[0] == '\0' &&
	    strcmp(val, "None") != 0) {
		free(js->reason);
		js->reason = xstrdup(val);
	}
}

/*
 * `scontrol show job -o ID`: one line of Key=Value words (a value may hold
 * blanks: a word without '=' continues the previous value). Fills the
 * exit code and, when squeue had none, the reason.
 */
static void
slurm_scontrol(struct fleet_job_state *js)
{
	char *const	 argv[] = { "scontrol", "show", "job", "-o", js->id,
			    NULL };
	char		*out = NULL, *w, *save, *key = NULL;
	struct strbuf	 val = STRBUF_INIT;

	if (slurm_cmd(argv, SLURM_QUERY_TIMEOUT, &out, NULL, NULL) == -1)
		return;
	for (w = strtok_r(out, " \n", &save);; w = strtok_r(NULL, " \n",
	    &save)) {
		char	*eq = w != NULL ? strchr(w, '=') : NULL;

		if (w != NULL && eq == NULL) {
			if (key != NULL)
				strbuf_addf(&val, " %s", w);
			continue;
		}
		if (key != NULL)
			slurm_field(js, key, val.buf != NULL ? val.buf : "");
		if (w == NULL)
			break;
		*eq = '\0';
		key = w;
		strbuf_reset(&val);
		strbuf_adds(&val, eq + 1);
	}
	strbuf_release(&val);
	free(out);
}

static int
slurm_state(char *const *ids, size_t n, struct fleet_job_state *out,
    char **cause)
{
	struct strvec	 argv = STRVEC_INIT;
	struct strbuf	 list = STRBUF_INIT;
	char		*text = NULL, *err = NULL, *line, *save;
	size_t		 i;
	int		 rc = -1;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].id = xstrdup(ids[i]);
		out[i].state = xstrdup("UNKNOWN");
		out[i].reason = xstrdup("");
		out[i].partition = xstrdup("");
		out[i].node = xstrdup("");
		out[i].exit_code = xstrdup("");
		strbuf_addf(&list, "%s%s", i ? "," : "", ids[i]);
	}
	if (n == 0)
		return 0;
	strvec_push(&argv, "squeue");
	strvec_push(&argv, "--noheader");
	strvec_push(&argv, "--states=all");
	strvec_pushf(&argv, "--jobs=%s", list.buf);
	strvec_push(&argv, "--format=%i|%T|%r|%P|%N");
	if (slurm_cmd(argv.v, SLURM_QUERY_TIMEOUT, &text, &err, cause) ==
	    -1) {
		/* Only forgotten ids: squeue refuses the whole list. */
		if (err == NULL || strstr(err, "Invalid job id") == NULL)
			goto out;
		free(*cause);
		*cause = NULL;
		text = xstrdup("");
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char	*f[5], *p = line;
		int	 k;

		for (k = 0; k < 5; k++) {
			f[k] = p;
			if (p != NULL && (p = strchr(p, '|')) != NULL)
				*p++ = '\0';
		}
		if (f[4] == NULL)
			continue;
		for (i = 0; i < n; i++) {
			if (strcmp(strtrim(f[0]), out[i].id) != 0)
				continue;
			free(out[i].state);
			free(out[i].reason);
			free(out[i].partition);
			free(out[i].node);
			/* "CANCELLED by 0" in some versions: the word. */
			f[1][strcspn(f[1], " ")] = '\0';
			out[i].state = xstrdup(f[1]);
			out[i].reason = xstrdup(strcmp(f[2], "None") == 0 ?
			    "" : f[2]);
			out[i].partition = xstrdup(f[3]);
			out[i].node = xstrdup(strcmp(f[4], "(null)") == 0 ?
			    "" : f[4]);
			out[i].known = 1;
		}
	}
	for (i = 0; i < n; i++) {
		if (!out[i].known)
			continue;
		out[i].terminal = slurm_is_terminal(out[i].state);
		out[i].ok = strcmp(out[i].state, "COMPLETED") == 0;
		if (out[i].terminal)
			slurm_scontrol(&out[i]);
	}
	rc = 0;
out:
	free(text);
	free(err);
	strvec_clear(&argv);
	strbuf_release(&list);
	return rc;
}

static int
slurm_cancel(char *const *ids, size_t n, char **cause)
{
	struct strvec	 argv = STRVEC_INIT;
	char		*out = NULL;
	size_t		 i;
	int		 rc;

	if (n == 0)
		return 0;
	strvec_push(&argv, "scancel");
	for (i = 0; i < n; i++)
		strvec_push(&argv, ids[i]);
	rc = slurm_cmd(argv.v, SLURM_QUERY_TIMEOUT, &out, NULL, cause);
	free(out);
	strvec_clear(&argv);
	return rc;
}

const struct fleet_sched_ops fleet_sched_slurm = {
	.name = "slurm",
	.available = slurm_available,
	.partitions = slurm_partitions,
	.usable = slurm_usable,
	.submit = slurm_submit,
	.state = slurm_state,
	.cancel = slurm_cancel,
};
