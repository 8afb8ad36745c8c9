/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A start barrier: programs started one after another (containers,
 * sandboxes, host processes) that must run together are held at a start
 * line once each is ready, and released at once by abbench.
 *
 * The barrier is a directory of the run's scratch (journaled). A member
 * joins it through its executor's barrier_join hook (exec.h), which makes
 * the directory and the helper abbench-startline (payload/startline.c)
 * reachable from where the program runs — a bind mount and the tools
 * image's copy for a sandbox, the host paths for a host process — and
 * sets in the program's environment
 *
 *   ABBENCH_STARTLINE        the helper, as the program sees it
 *   ABBENCH_STARTLINE_DIR    the directory, as the program sees it
 *   ABBENCH_STARTLINE_READY  the member's ready file ("ready.I")
 *
 * The program runs the helper when it is fully started, as late as it
 * can: fio runs EXEC_BARRIER_SH as its exec_prerun, after it has loaded,
 * forked its jobs and opened their files, right before its I/O starts.
 * abbench waits until every member has marked itself ready (as many
 * lines as processes per member), then creates the file "go": the helpers
 * see it within a millisecond and return. Every wait has a deadline, and
 * a member that exits before it is ready ends the wait at once.
 */
#ifndef ABBENCH_BARRIER_H
#define ABBENCH_BARRIER_H

#include <stdint.h>

struct run_ctx;
struct exec_ops;
struct exec_spec;
struct exec_proc;
struct exec_barrier;

/* The release file's name in the barrier's directory. */
#define EXEC_BARRIER_GO		"go"
/*
 * The shell command that waits at the start line (constant: paths come
 * from the environment). The cd also keeps what a caller appends to it —
 * fio's exec_prerun writes its output to NAME.prerun.txt in the current
 * directory — inside the barrier's directory (a read-only rootfs has no
 * other place for it, and it goes with the barrier).
 */
#define EXEC_BARRIER_SH \
	"cd \"$ABBENCH_STARTLINE_DIR\" && exec \"$ABBENCH_STARTLINE\" " \
	"-r \"$ABBENCH_STARTLINE_READY\" " EXEC_BARRIER_GO

/* A barrier for n members of executor ex; NULL with *cause when the
 * executor has no barrier_join or the directory cannot be made. */
struct exec_barrier *exec_barrier_new(struct run_ctx *ctx,
	    const struct exec_ops *ex, int n, char **cause);
/*
 * Let the program that spec describes join as member i: spec's mounts and
 * env are replaced by copies with the barrier's added (owned by b, valid
 * until exec_barrier_free).
 */
int	exec_barrier_join(struct exec_barrier *b, int i,
	    struct exec_spec *spec, char **cause);
/* The helper's path as members see it (after a join), for argv. */
const char *exec_barrier_prog(const struct exec_barrier *b);
/* The host path of a file NAME in the barrier's directory; malloc'd. */
char	*exec_barrier_path(const struct exec_barrier *b, const char *name);
/* Create the file NAME in the barrier's directory (a stage of its own,
 * e.g. "prepped", that members wait for with the helper's GO). */
int	exec_barrier_signal(struct exec_barrier *b, const char *name,
	    char **cause);
/*
 * Wait until member i has marked itself ready per[i] times (per == NULL:
 * once) for every i, until deadline_ns (monotonic) or a stop. procs[i]
 * (may be NULL) is member i's process: one that has exited fails the
 * wait at once.
 */
int	exec_barrier_wait_ready(struct exec_barrier *b,
	    struct exec_proc *const *procs, const int *per,
	    int64_t deadline_ns, char **cause);
/* Release every member: create "go". Returns its time (monotonic ns),
 * or -1 with *cause. */
int64_t	exec_barrier_release(struct exec_barrier *b, char **cause);
/*
 * When member i's first process saw "go" (the helper's wall clock, ns
 * since the epoch: a sandbox's clock is the host's), in *first_ns.
 * Returns how many of its processes said so (0: none did, or an older
 * helper that does not say).
 */
int	exec_barrier_released_at(const struct exec_barrier *b, int i,
	    int64_t *first_ns);
/* Remove the directory (and whatever members left in it); NULL is fine. */
void	exec_barrier_free(struct exec_barrier *b);

/* The barrier_join hooks of the executors (exec.h): */
/* Host processes: the host directory, the helper found like abbench's
 * other programs (libexec_find). */
int	exec_barrier_join_host(struct exec_barrier *b, int i,
	    struct exec_spec *spec, char **cause);
/* Sandboxes: a bind mount at EXEC_BARRIER_DIR, the helper the tools image
 * carries in /usr/local/bin. */
int	exec_barrier_join_sandbox(struct exec_barrier *b, int i,
	    struct exec_spec *spec, char **cause);
#define EXEC_BARRIER_DIR	"/abbench-sync"
#define EXEC_BARRIER_PROG	"/usr/local/bin/abbench-startline"

#endif
