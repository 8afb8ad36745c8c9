/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executors' tables against their capabilities (exec_ops_lacks, what
 * exec_ops_check refuses at startup): every registered executor has the
 * hooks its capabilities need; a table missing one is refused by the
 * hook's name. The tables missing a hook are TEST DOUBLES (fake_*),
 * copies of a shipped one with a hook taken out: no shipped executor
 * lacks one. Then what the workloads ask of the runtime steps: startup
 * takes either runtime-level executor (oci, crun), checkpoint refuses
 * crun (Debian's is built without CRIU: no checkpoint step) by the
 * step's name, when the file is loaded.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "harness/core/experiment.h"
#include "lib/util.h"
#include "workloads/workload.h"
#include "tests/unit/tap.h"

static void
test_registered(void)
{
	const struct exec_ops *const	*e;
	size_t				 nsteps = 0;

	for (e = exec_types; *e != NULL; e++) {
		tap_str_eq(exec_ops_lacks(*e) ? exec_ops_lacks(*e) : "none",
		    "none", "executor %s: every hook its capabilities need",
		    (*e)->name);
		if ((*e)->caps & EXEC_RUNTIME_STEPS)
			nsteps++;
	}
	tap_int_eq(nsteps, 2, "two runtime-level executors (oci, crun)");
	tap_ok(exec_lookup("crun") != NULL && exec_lookup("crun")->steps !=
	    NULL, "crun is registered with its steps");
	tap_str_eq(exec_missing(exec_lookup("oci"),
	    EXEC_HOOK_STEP_CHECKPOINT) ? "lacks" : "has", "has",
	    "oci's steps checkpoint");
	tap_str_eq(exec_missing(exec_lookup("crun"),
	    EXEC_HOOK_STEP_CHECKPOINT), "checkpoint step",
	    "crun's do not");
	/* Startup runs here, beside experiment_tables_check. */
	exec_ops_check();
	tap_ok(1, "exec_ops_check passes the registry");
}

/* A shipped table with one hook taken out names that hook. */
static void
test_missing(void)
{
	const struct exec_ops	*oci = exec_lookup("oci");
	const struct exec_ops	*docker = exec_lookup("docker");
	struct exec_steps	 steps;
	struct exec_ops		 fake;

#define LACKS(base, field, want) do { \
	fake = *(base); \
	fake.field = NULL; \
	tap_str_eq(exec_ops_lacks(&fake), want, "a table without " #field \
	    " is refused as lacking %s", want); \
} while (0)
	LACKS(oci, start, "start");
	LACKS(oci, wait, "wait");
	LACKS(oci, destroy, "destroy");
	LACKS(oci, check, "check");
	LACKS(oci, steps, "steps");
	LACKS(docker, container_name, "container_name");
	LACKS(docker, sweep, "sweep");
	LACKS(docker, undo, "undo");
	LACKS(docker, restore, "restore");
#undef LACKS

#define STEP_LACKS(field, want) do { \
	steps = *oci->steps; \
	steps.field = NULL; \
	fake = *oci; \
	fake.name = "fake-steps"; \
	fake.steps = &steps; \
	tap_str_eq(exec_ops_lacks(&fake), want, "steps without " #field \
	    " are refused as lacking %s", want); \
} while (0)
	STEP_LACKS(prepare, "steps.prepare");
	STEP_LACKS(create, "steps.create");
	STEP_LACKS(start, "steps.start");
	STEP_LACKS(state, "steps.state");
	STEP_LACKS(wait_exit, "steps.wait_exit");
	STEP_LACKS(delete, "steps.delete");
	STEP_LACKS(id, "steps.id");
	/* Half a checkpoint step is none. */
	STEP_LACKS(restore, "steps.restore");
	STEP_LACKS(can_checkpoint, "steps.can_checkpoint");
#undef STEP_LACKS

	/* Steps without the capability, or the capability without. */
	fake = *exec_lookup("local");
	fake.steps = oci->steps;
	tap_str_eq(exec_ops_lacks(&fake), "caps EXEC_RUNTIME_STEPS (it has "
	    "steps)", "steps without the capability are refused");
	fake = *exec_lookup("local");
	fake.caps |= EXEC_RUNTIME_STEPS;
	tap_str_eq(exec_ops_lacks(&fake), "steps",
	    "the capability without steps is refused");
}

static struct experiment *
parse(const char *type, const char *executor, char **cause)
{
	char			*t;
	struct experiment	*e;

	*cause = NULL;
	t = xasprintf("[experiment]\nname = x\n[arm a]\nruntime = runsc\n"
	    "[workload w]\ntype = %s\nexecutor = %s\nimage = /nonexistent\n",
	    type, executor);
	e = experiment_parse("x.ini", t, strlen(t), cause);
	free(t);
	return e;
}

static void
test_workloads(void)
{
	struct experiment	*e;
	char			*cause;

	e = parse("startup", "crun", &cause);
	if (!tap_ok(e != NULL, "startup under executor = crun loads"))
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);
	e = parse("checkpoint", "oci", &cause);
	if (!tap_ok(e != NULL, "checkpoint under executor = oci loads"))
		TAP_DIAG("%s", cause);
	experiment_free(e);
	free(cause);
	e = parse("checkpoint", "crun", &cause);
	tap_ok(e == NULL, "checkpoint under executor = crun is refused");
	tap_str_eq(cause, "x.ini:7: executor: 'crun' has no checkpoint "
	    "step, which checkpoint needs", "by file:line:key and the step");
	experiment_free(e);
	free(cause);
	e = parse("checkpoint", "docker", &cause);
	tap_ok(e == NULL && cause != NULL && strstr(cause, "drives runsc "
	    "directly (executor = oci)") != NULL,
	    "checkpoint under a daemon executor is refused as before");
	experiment_free(e);
	free(cause);
}

int
main(void)
{
	test_registered();
	test_missing();
	test_workloads();
	return tap_done();
}
